# Finds every external dependency once; each becomes an imported target named dep::<name>.
# scripts/setup.sh installs the Debian 12 packages that provide them.
find_package(PkgConfig REQUIRED)

pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET GLOBAL libelf)
pkg_check_modules(CJSON REQUIRED IMPORTED_TARGET GLOBAL libcjson)
pkg_check_modules(INIH REQUIRED IMPORTED_TARGET GLOBAL inih)
pkg_check_modules(OPENSSL_CRYPTO REQUIRED IMPORTED_TARGET GLOBAL libcrypto)
pkg_check_modules(MSGPACK REQUIRED IMPORTED_TARGET GLOBAL msgpack)
pkg_check_modules(CURL REQUIRED IMPORTED_TARGET GLOBAL libcurl)
pkg_check_modules(LIBARCHIVE REQUIRED IMPORTED_TARGET GLOBAL libarchive)
pkg_check_modules(ZLIB REQUIRED IMPORTED_TARGET GLOBAL zlib)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET GLOBAL libzstd)
pkg_check_modules(CMOCKA IMPORTED_TARGET GLOBAL cmocka)
add_library(dep::elf ALIAS PkgConfig::LIBELF)
add_library(dep::cjson ALIAS PkgConfig::CJSON)
add_library(dep::inih ALIAS PkgConfig::INIH)
add_library(dep::crypto ALIAS PkgConfig::OPENSSL_CRYPTO)
add_library(dep::msgpack ALIAS PkgConfig::MSGPACK)
add_library(dep::curl ALIAS PkgConfig::CURL)
add_library(dep::archive ALIAS PkgConfig::LIBARCHIVE)
add_library(dep::zlib ALIAS PkgConfig::ZLIB)
add_library(dep::zstd ALIAS PkgConfig::ZSTD)

# LLVM 22 is the first LLVM that knows gfx1250 completely.
find_program(LLVM_CONFIG NAMES llvm-config-22 REQUIRED)
execute_process(COMMAND ${LLVM_CONFIG} --includedir OUTPUT_VARIABLE LLVM_INCLUDE_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${LLVM_CONFIG} --libdir OUTPUT_VARIABLE LLVM_LIB_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${LLVM_CONFIG} --bindir OUTPUT_VARIABLE LLVM_BIN_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE)
find_library(LLVM_SHARED_LIB NAMES LLVM-22 LLVM PATHS ${LLVM_LIB_DIR} NO_DEFAULT_PATH REQUIRED)
add_library(dep::llvm INTERFACE IMPORTED GLOBAL)
set_target_properties(dep::llvm PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${LLVM_INCLUDE_DIR}"
                      INTERFACE_LINK_LIBRARIES "${LLVM_SHARED_LIB}")

# lld's ELF driver as a library (liblld-22-dev), for the translator's in-process link; without
# it the translator spawns ld.lld-22.
find_path(LLD_INCLUDE_DIR lld/Common/Driver.h PATHS ${LLVM_INCLUDE_DIR} NO_DEFAULT_PATH)
find_library(LLD_ELF_LIB NAMES lldELF PATHS ${LLVM_LIB_DIR} NO_DEFAULT_PATH)
find_library(LLD_COMMON_LIB NAMES lldCommon PATHS ${LLVM_LIB_DIR} NO_DEFAULT_PATH)
if(LLD_INCLUDE_DIR AND LLD_ELF_LIB AND LLD_COMMON_LIB)
  add_library(dep::lld INTERFACE IMPORTED GLOBAL)
  set_target_properties(dep::lld PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${LLD_INCLUDE_DIR}"
                        INTERFACE_LINK_LIBRARIES
                        "${LLD_ELF_LIB};${LLD_COMMON_LIB};${LLVM_SHARED_LIB};PkgConfig::ZLIB;PkgConfig::ZSTD")
  message(STATUS "lld library: ${LLD_ELF_LIB} (the translator links in process)")
else()
  message(STATUS "lld library: not found (liblld-22-dev); the translator spawns ld.lld")
endif()

# The LLVM tools that build fixtures and judge outputs.
foreach(tool llvm-mc llvm-objdump llvm-readelf llvm-objcopy ld.lld clang llc llvm-nm opt llvm-extract)
  string(TOUPPER "${tool}" var)
  string(REPLACE "-" "_" var "${var}")
  string(REPLACE "." "_" var "${var}")
  find_program(${var}_EXE NAMES ${tool}-22 PATHS ${LLVM_BIN_DIR} REQUIRED)
endforeach()

# HSA headers (libhsa-runtime-dev): only headers are used, never its library.
find_path(HSA_INCLUDE_DIR hsa/hsa.h REQUIRED)
