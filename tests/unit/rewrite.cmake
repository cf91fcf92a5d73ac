# libhotswap_rewrite: unit tests over the public API (linked to the staged .so so that
# libhotswap_mc.so is found next to it) and over internals (the testable static copy).
# Tests that read fixtures may reach the decoder, so they also wait for libhotswap_mc.
set(rewrite_fixture_tests)
if(TARGET hotswap_rewrite)
  find_package(Threads REQUIRED)
  mirage_unit_test(rewrite_entry SOURCES test_rewrite_entry.c LIBS hotswap_rewrite
                   LABELS rewrite)
  mirage_unit_test(rewrite_badinput SOURCES test_rewrite_badinput.c LIBS hotswap_rewrite
                   LABELS rewrite)
  mirage_unit_test(rewrite_threads SOURCES test_rewrite_threads.c
                   LIBS hotswap_rewrite Threads::Threads LABELS "rewrite;tsan")
  mirage_unit_test(rewrite_fastpath SOURCES test_rewrite_fastpath.c
                   LIBS hotswap_rewrite ${CMAKE_DL_LIBS} LABELS rewrite)
  mirage_unit_test(rewrite_inspect SOURCES test_rewrite_inspect.c
                   LIBS hotswap_rewrite dep::cjson LABELS rewrite)
  mirage_unit_test(rewrite_pools SOURCES test_rewrite_pools.c LIBS hotswap_rewrite
                   LABELS rewrite)
  list(APPEND rewrite_fixture_tests rewrite_entry rewrite_badinput rewrite_threads
       rewrite_fastpath rewrite_inspect rewrite_pools)
endif()
if(TARGET hotswap_rewrite_testable)
  mirage_unit_test(rewrite_isa SOURCES test_rewrite_isa.c LIBS hotswap_rewrite_testable
                   LABELS rewrite)
  mirage_unit_test(rewrite_internal SOURCES test_rewrite_internal.c
                   LIBS hotswap_rewrite_testable LABELS rewrite)
  mirage_unit_test(rewrite_plan SOURCES test_rewrite_plan.c LIBS hotswap_rewrite_testable
                   LABELS rewrite)
  mirage_unit_test(rewrite_b0a0 SOURCES test_rewrite_b0a0.c LIBS hotswap_rewrite_testable
                   LABELS rewrite)
  mirage_unit_test(rewrite_strtab_index SOURCES test_rewrite_strtab_index.c
                   LIBS hotswap_rewrite_testable LABELS rewrite)
  list(APPEND rewrite_fixture_tests rewrite_internal rewrite_plan rewrite_b0a0)
endif()
foreach(t ${rewrite_fixture_tests})
  add_dependencies(test_${t} fixtures)
  if(TARGET hotswap_mc)
    add_dependencies(test_${t} hotswap_mc)
  endif()
endforeach()
