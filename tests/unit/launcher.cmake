mirage_unit_test(commands SOURCES test_commands.c LIBS mirage_launcher)
mirage_unit_test(env_contract SOURCES test_env_contract.c LIBS mirage_launcher)
