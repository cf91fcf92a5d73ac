# The translator's integration tests: the ISA decoder against LLVM 22 (tests/integration/isa_oracle.py).
mirage_shell_test(isa_rows isa_rows.sh LABELS translate)
mirage_shell_test(isa_corpus isa_corpus.sh LABELS translate)
mirage_shell_test(isa_fields isa_fields.sh LABELS translate)
