# The code-object layer (codeobj/): offload bundles and MD5, the ELF header's looks, notes.
mirage_unit_test(bundle SOURCES test_bundle.c LIBS mirage_codeobj dep::zlib dep::zstd LABELS codeobj)
# libzstd is loaded on first use (codeobj/zstd_dl.h): the reader built against a soname that
# is not installed says what to install, and still reads zlib bundles.
mirage_unit_test(bundle_without_zstd SOURCES test_bundle.c ${PROJECT_SOURCE_DIR}/codeobj/bundle.c
                 ${PROJECT_SOURCE_DIR}/codeobj/md5.c ${PROJECT_SOURCE_DIR}/codeobj/zstd_dl.c
                 LIBS dep::elf dep::zlib dep::zstd ${CMAKE_DL_LIBS} LABELS codeobj)
target_include_directories(test_bundle_without_zstd PRIVATE ${PROJECT_SOURCE_DIR}/codeobj)
target_compile_definitions(test_bundle_without_zstd PRIVATE TEST_WITHOUT_ZSTD
                           "COB_ZSTD_SONAME=\"libzstd-not-installed.so.1\"")
# The code object's ELF as codeobj reads it (on the built fixtures): the processor its header
# names, the extent of an object nobody sized, the object opened, its kernels by descriptor
# address joined to the merged metadata.
mirage_unit_test(codeobj_elf SOURCES test_codeobj_elf.c LIBS mirage_codeobj LABELS codeobj)
# The walk over note records and the msgpack pre-check every metadata note passes first.
mirage_unit_test(codeobj_note SOURCES test_codeobj_note.c LIBS mirage_codeobj LABELS codeobj)
mirage_unit_test(codeobj_msgpack SOURCES test_codeobj_msgpack.c LIBS mirage_codeobj dep::msgpack
                 LABELS codeobj)
