# libhotswap_mc: the entry stub through LLVM 22's assembler and disassembler, and
# its one export.  The test dlopen()s the staged .so exactly as libhotswap_rewrite does.
if(TARGET hotswap_mc)
  find_package(Threads REQUIRED)
  if(CMAKE_NM)
    set(MIRAGE_NM "${CMAKE_NM}")
  else()
    set(MIRAGE_NM "${LLVM_NM_EXE}")
  endif()
  mirage_unit_test(mc SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_mc.c LIBS Threads::Threads ${CMAKE_DL_LIBS} LABELS mc tsan)
  target_include_directories(test_mc PRIVATE ${PROJECT_SOURCE_DIR}/mc)
  target_compile_definitions(test_mc PRIVATE HS_MC_TEST_PATH="$<TARGET_FILE:hotswap_mc>"
                             HS_MC_TEST_NM="${MIRAGE_NM}")
  add_dependencies(test_mc hotswap_mc)
endif()
