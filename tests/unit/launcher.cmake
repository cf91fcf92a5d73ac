mirage_unit_test(commands SOURCES test_commands.c LIBS mirage_launcher)
