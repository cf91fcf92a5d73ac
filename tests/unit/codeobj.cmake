# The code-object layer (codeobj/): offload bundles and MD5.
mirage_unit_test(bundle SOURCES test_bundle.c LIBS mirage_codeobj dep::zlib dep::zstd LABELS codeobj)
