mirage_unit_test(commands SOURCES test_commands.c LIBS mirage_launcher)
mirage_unit_test(env_contract SOURCES test_env_contract.c LIBS mirage_launcher)
# Loading mirage's own modules beside bin/mirage, against common.cmake's stand-in plugin.
mirage_unit_test(module_dl SOURCES test_module_dl.c LIBS mirage_launcher)
add_dependencies(test_module_dl test_plugin_fixture)
target_compile_definitions(test_module_dl PRIVATE
  "PLUGIN_FX=\"$<TARGET_FILE:test_plugin_fixture>\"")
