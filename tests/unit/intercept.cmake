# Unit tests of libhotswap_intercept's modules (sources compiled in directly),
# and the C++ proof that its C mirror of hsa_api_trace.h matches the header.
set(IC_SRC ${PROJECT_SOURCE_DIR}/intercept/core)
set(IC_INCLUDES ${IC_SRC} ${PROJECT_SOURCE_DIR}/intercept ${PROJECT_SOURCE_DIR}/intercept/decide
                ${PROJECT_SOURCE_DIR}/cache ${HOTSWAP_INCLUDE_DIRS}
                ${HSA_INCLUDE_DIR})

mirage_unit_test(intercept_decide SOURCES test_intercept_decide.c
                 ${PROJECT_SOURCE_DIR}/intercept/decide/decide.c)
target_include_directories(test_intercept_decide PRIVATE ${IC_INCLUDES})

find_package(Threads REQUIRED)
mirage_unit_test(cache SOURCES test_cache.c ${IC_SRC}/cache.c LIBS Threads::Threads
                 LABELS tsan)
target_include_directories(test_cache PRIVATE ${IC_INCLUDES})

mirage_unit_test(cache_disk SOURCES test_cache_disk.c ${PROJECT_SOURCE_DIR}/cache/cache_disk.c
                 ${PROJECT_SOURCE_DIR}/cache/cache_fs.c ${PROJECT_SOURCE_DIR}/cache/crc32c.c
                 ${PROJECT_SOURCE_DIR}/cache/sha.c ${PROJECT_SOURCE_DIR}/cache/sidecar.c)
target_include_directories(test_cache_disk PRIVATE ${IC_INCLUDES})

mirage_unit_test(crc32c SOURCES test_crc32c.c ${PROJECT_SOURCE_DIR}/cache/crc32c.c)
target_include_directories(test_crc32c PRIVATE ${PROJECT_SOURCE_DIR}/cache)

# cJSON, which the sidecar code no longer uses, is the independent judge of what it reads and
# writes.
mirage_unit_test(sidecar SOURCES test_sidecar.c ${PROJECT_SOURCE_DIR}/cache/sidecar.c
                 LIBS dep::cjson)
target_include_directories(test_sidecar PRIVATE ${PROJECT_SOURCE_DIR}/cache)

# hsa_api_trace.h includes "inc/hsa_ext_image.h": give it an inc -> hsa symlink.
set(IC_TRACE_INC ${CMAKE_CURRENT_BINARY_DIR}/intercept_trace_inc)
file(MAKE_DIRECTORY ${IC_TRACE_INC})
file(CREATE_LINK ${HSA_INCLUDE_DIR}/hsa ${IC_TRACE_INC}/inc SYMBOLIC)
mirage_unit_test(intercept_table_layout SOURCES test_intercept_table_layout.cpp)
target_include_directories(test_intercept_table_layout PRIVATE ${IC_INCLUDES} ${IC_TRACE_INC})

mirage_unit_test(intercept_readers SOURCES test_intercept_readers.c ${IC_SRC}/readers.c
                 LIBS Threads::Threads)
target_include_directories(test_intercept_readers PRIVATE ${IC_INCLUDES})

mirage_unit_test(intercept_readable SOURCES test_intercept_readable.c ${IC_SRC}/readable.c)
target_include_directories(test_intercept_readable PRIVATE ${IC_INCLUDES})
