# The translator's integration tests: the ISA decoder against LLVM 22 (tests/integration/isa_oracle.py).
# One set per table, the same scripts: ISA names the table and LLVM's -mcpu.
foreach(isa gfx1250 gfx942 gfx950)
  set(suffix "")
  if(NOT isa STREQUAL "gfx1250")
    set(suffix "_${isa}")
  endif()
  foreach(test isa_rows isa_corpus isa_fields)
    mirage_shell_test(${test}${suffix} ${test}.sh LABELS translate)
    set_property(TEST integration/${test}${suffix} APPEND PROPERTY ENVIRONMENT "ISA=${isa}")
  endforeach()
endforeach()
mirage_shell_test(isa_dump_tables isa_dump_tables.sh LABELS translate)
