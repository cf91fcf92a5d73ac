# Completion scripts: the generator covers every command, flag spelling and choice of the table.
mirage_unit_test(completions SOURCES test_completions.c LIBS mirage_launcher LABELS completions)
