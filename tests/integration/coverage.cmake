# The coverage report checked in to tests/kernels/README.md ("Coverage") and the README: the
# decoder rows' by the raiser (tests/coverage/rows.py), held to this build by
# integration/coverage_rows, and the builtin kernels' (tests/coverage/builtins.py, from
# tests/builtins/run.py's runs), held to it by integration/builtins_diff on the parts it runs;
# both refreshed by `cmake --build build --target coverage-update` (tests/coverage/update.sh).
mirage_shell_test(coverage_rows coverage_rows.sh LABELS translate)
set(COVERAGE_DEPENDS mirage isa_dump)
if(TARGET builtins_pocl_batch)
  list(APPEND COVERAGE_DEPENDS builtins_pocl_batch)
endif()
add_custom_target(coverage-update
  COMMAND ${CMAKE_COMMAND} -E env LLVM_MC=${LLVM_MC_EXE} LD_LLD=${LD_LLD_EXE}
          CLANG=${CLANG_EXE} LLVM_OBJDUMP=${LLVM_OBJDUMP_EXE}
          PYTHON=${Python3_EXECUTABLE} bash ${PROJECT_SOURCE_DIR}/tests/coverage/update.sh
          ${PROJECT_BINARY_DIR}
  DEPENDS ${COVERAGE_DEPENDS}
  COMMENT "Writing the coverage report into tests/kernels/README.md and README.md"
  USES_TERMINAL VERBATIM)
