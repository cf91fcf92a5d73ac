# hotswap install: the download meter's formatters, and safe extraction of tree archives.
# Extraction and hashing live in libmirage_fetch.so; the tests link its code statically.
mirage_unit_test(progress SOURCES test_progress.c LIBS mirage_launcher LABELS hotswap)
mirage_unit_test(extract SOURCES test_extract.c LIBS mirage_launcher mirage_fetch_impl dep::archive
                 LABELS hotswap)
mirage_unit_test(checksum SOURCES test_checksum.c LIBS mirage_launcher mirage_fetch_impl
                 LABELS hotswap)
mirage_unit_test(path_set SOURCES test_path_set.c LIBS mirage_fetch_impl LABELS hotswap)
