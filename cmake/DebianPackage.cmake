# The Debian package: `cpack -G DEB` in a build directory (tests/install/check_deb.sh builds,
# checks and installs it).  One binary package, mirage: the launcher, its man pages and
# completions, the rewriter library with its header and pkg-config file, and the HotSwap tree
# under /usr/lib/mirage/hotswap.  The libraries' dependencies come from dpkg-shlibdeps; the
# tree's llvm-tools links need llvm-22 and lld-22.  packaging/deb/stage.cmake gives the staged
# files Debian's layout before they are packed (docs/HACKING.md, "The Debian package").
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mirage)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "mirage maintainers")
set(CPACK_PACKAGE_CONTACT
    "mirage maintainers <maintainers@users.noreply.a-seed-c8f77190.example>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "llvm-22, lld-22")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://example.invalid/mirage")
# The synopsis is the project's DESCRIPTION (CPack puts it first); this is the rest.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "mirage rewrites AMDGPU code objects as the ROCm runtime loads them (HotSwap):
it retrofits the gfx12.5 entry-prologue erratum fix, runs gfx1250 B0 code on A0
boards, and translates gfx1250 kernels for MI300/MI350 (gfx942/gfx950). With no
GPU at all, mirage emulate runs gfx1250 kernels on the CPU.")
# The ldconfig trigger and the shlibs file of the public library (CPack's own shlibs would
# list the HotSwap tree's copy of the same soname twice; CPack also calls ldconfig from
# postinst and postrm, as Debian did before triggers).
configure_file(${PROJECT_SOURCE_DIR}/packaging/deb/shlibs.in ${PROJECT_BINARY_DIR}/deb/shlibs
               @ONLY)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/deb/triggers
                                       ${PROJECT_BINARY_DIR}/deb/shlibs)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/packaging/deb/stage.cmake)
# what stage.cmake reads (CPack passes its own variables to the script)
set(CPACK_MIRAGE_SOURCE_DIR ${PROJECT_SOURCE_DIR})
set(CPACK_MIRAGE_STRIP ${CMAKE_STRIP})
include(CPack)
