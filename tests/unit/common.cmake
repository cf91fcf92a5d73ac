mirage_unit_test(strbuf SOURCES test_strbuf.c)
mirage_unit_test(str_fmt SOURCES test_str_fmt.c)
mirage_unit_test(refusal SOURCES test_refusal.c)
mirage_unit_test(truthy SOURCES test_truthy.c)
mirage_unit_test(sha256 SOURCES test_sha256.c)
mirage_unit_test(atomic_file SOURCES test_atomic_file.c)
mirage_unit_test(utf8 SOURCES test_utf8.c)
mirage_unit_test(gfx_table SOURCES test_gfx_table.c)
mirage_unit_test(gfx_route SOURCES test_gfx_route.c)
mirage_unit_test(stderr_line SOURCES test_stderr_line.c)
mirage_unit_test(run_command SOURCES test_run_command.c)
mirage_unit_test(path_search SOURCES test_path_search.c)
mirage_unit_test(tree_tools SOURCES test_tree_tools.c)
mirage_unit_test(hash_index SOURCES test_hash_index.c)

# The one plugin loader, against a stand-in plugin (test_plugin_fixture.c).
add_library(test_plugin_fixture SHARED test_plugin_fixture.c)
set_target_properties(test_plugin_fixture PROPERTIES LIBRARY_OUTPUT_DIRECTORY
                      ${CMAKE_CURRENT_BINARY_DIR}/plugin_fx)
mirage_unit_test(plugin SOURCES test_plugin.c LIBS ${CMAKE_DL_LIBS})
add_dependencies(test_plugin test_plugin_fixture)
target_compile_definitions(test_plugin PRIVATE
  "PLUGIN_FX=\"$<TARGET_FILE:test_plugin_fixture>\""
  "PLUGIN_FX_DIR=\"${CMAKE_CURRENT_BINARY_DIR}/plugin_fx\"")
# Once-only loads into a plugin_slot, against the same stand-in; threads meet there (tsan).
mirage_unit_test(plugin_slot SOURCES test_plugin_slot.c LIBS ${CMAKE_DL_LIBS} Threads::Threads
                 LABELS tsan)
add_dependencies(test_plugin_slot test_plugin_fixture)
target_compile_definitions(test_plugin_slot PRIVATE
  "PLUGIN_FX=\"$<TARGET_FILE:test_plugin_fixture>\""
  "PLUGIN_FX_DIR=\"${CMAKE_CURRENT_BINARY_DIR}/plugin_fx\"")
mirage_unit_test(printable SOURCES test_printable.c)
mirage_unit_test(codeobj SOURCES test_codeobj.c LIBS mirage_codeobj)
mirage_unit_test(build_identity SOURCES test_build_identity.c)
