# The one spelling of the version: project(VERSION) becomes <build>/include/hotswap/version.h,
# which rewrite.h's HS_REWRITE_VERSION_* macros, hs_version(), `mirage --version` and the
# intercept's cache keys (through hs_version()) all read.  The library's VERSION and SOVERSION
# and the pkg-config file take PROJECT_VERSION directly; the newest node of
# rewrite/libhotswap_rewrite.map must be MAJOR.MINOR (tests/integration/rewrite_abi.sh).
set(HOTSWAP_VERSION_H ${PROJECT_BINARY_DIR}/include/hotswap/version.h)
configure_file(${PROJECT_SOURCE_DIR}/rewrite/include/hotswap/version.h.in ${HOTSWAP_VERSION_H}
               @ONLY)
# Where #include <hotswap/rewrite.h> and the generated <hotswap/version.h> are found.
set(HOTSWAP_INCLUDE_DIRS ${PROJECT_SOURCE_DIR}/rewrite/include ${PROJECT_BINARY_DIR}/include)
