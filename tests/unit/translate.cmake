# The translator's unit tests (translate/): the ISA decoder, the raiser, the runner and the
# amdgcn side.  isa_dump, the decoder's command-line view that the integration tests drive, is
# built here with them.
add_executable(isa_dump ${PROJECT_SOURCE_DIR}/tests/tools/isa_dump.c)
target_link_libraries(isa_dump PRIVATE mirage_isa mirage_codeobj mirage_common dep::elf)
set_target_properties(isa_dump PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/tools)

mirage_unit_test(isa_decode SOURCES test_isa_decode.c LIBS mirage_isa)
mirage_unit_test(raise_verify SOURCES test_raise_verify.c LIBS mirage_host mirage_raise)
mirage_unit_test(runner SOURCES test_runner.c LIBS mirage_host)
mirage_unit_test(host_jit SOURCES test_host_jit.c LIBS mirage_host)
mirage_unit_test(kernarg SOURCES test_kernarg.c LIBS mirage_host)
mirage_unit_test(isa_gfx942 SOURCES test_isa_gfx942.c LIBS mirage_isa)
mirage_unit_test(isa_meaning SOURCES test_isa_meaning.c LIBS mirage_isa)
mirage_unit_test(amdgcn SOURCES test_amdgcn.c LIBS mirage_amdgcn)
# The dispatch entry of libmirage_translate.so (API v3), on the kernel suite's saxpy object.
mirage_unit_test(translate_dispatch SOURCES test_translate_dispatch.c
                 LIBS mirage_translate mirage_host LABELS translate)
target_compile_definitions(test_translate_dispatch PRIVATE
                           MIRAGE_KERNELS_OUT="${PROJECT_BINARY_DIR}/tests/kernels")
target_include_directories(test_translate_dispatch PRIVATE ${PROJECT_SOURCE_DIR}/translate/api)
add_dependencies(test_translate_dispatch kernel_objects)
# The linker run, against stand-in linkers (MIRAGE_LLD).
mirage_unit_test(amdgcn_link SOURCES test_amdgcn_link.c LIBS mirage_amdgcn)
if(TARGET dep::lld)
  # The in-process linker's cases (lld's own answers) run where the translator has it.
  target_compile_definitions(test_amdgcn_link PRIVATE MIRAGE_HAVE_LLD=1)
endif()
