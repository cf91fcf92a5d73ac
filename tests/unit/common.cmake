mirage_unit_test(strbuf SOURCES test_strbuf.c)
mirage_unit_test(truthy SOURCES test_truthy.c)
mirage_unit_test(atomic_file SOURCES test_atomic_file.c)
mirage_unit_test(gfx_table SOURCES test_gfx_table.c)
