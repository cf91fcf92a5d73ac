# hotswap install: the download meter's formatters, and safe extraction of tree archives.
mirage_unit_test(progress SOURCES test_progress.c LIBS mirage_launcher LABELS hotswap)
mirage_unit_test(extract SOURCES test_extract.c LIBS mirage_launcher dep::archive LABELS hotswap)
mirage_unit_test(checksum SOURCES test_checksum.c LIBS mirage_launcher LABELS hotswap)
