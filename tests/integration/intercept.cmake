# Integration tests of libhotswap_intercept against the stand-in HSA runtime
# (tests/standin), the staged tree, and the python runtime.
set(INTERCEPT_TESTS
  tools preload both passthrough fail_open strict cache cache_trust cache_entries cache_failures
  log_escape no_route hip cache_lock cache_mpi cache_slurm cache_cli cache_warm
  relocated no_hsa abi old_runtime shim stress mirage_run translate dispatch)
foreach(t ${INTERCEPT_TESTS})
  set(labels intercept)
  if(t STREQUAL "stress" OR t STREQUAL "cache_failures" OR t STREQUAL "translate")
    list(APPEND labels tsan)
  endif()
  mirage_shell_test(intercept_${t} intercept_${t}.sh LABELS ${labels})
  set_property(TEST integration/intercept_${t} APPEND PROPERTY ENVIRONMENT
               "MIRAGE_SANITIZE=${MIRAGE_SANITIZE}")
  set_tests_properties(integration/intercept_${t} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()

find_program(PYTHON3_EXE NAMES python3 REQUIRED)
add_test(NAME integration/intercept_python
         COMMAND ${PYTHON3_EXE} -m unittest discover -s
                 ${PROJECT_SOURCE_DIR}/python/tests -v)
set_tests_properties(integration/intercept_python PROPERTIES
  LABELS "integration;intercept"
  ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1;HOTSWAP_PY_DIR=${PROJECT_BINARY_DIR}/hotswap/runtime/hotswap_py;TRITON_STANDIN_DIR=${PROJECT_SOURCE_DIR}/tests/standin/python")
