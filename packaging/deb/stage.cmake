# CPack runs this on the staged install tree before it packs the .deb
# (CPACK_PRE_BUILD_SCRIPTS, cmake/DebianPackage.cmake): the fix-ups Debian's policy asks of a
# binary package that `cmake --install` does not make, as dh_strip, dh_compress, dh_fixperms
# and dh_installchangelogs would:
#   - the HotSwap tree's libraries, copied as built, are stripped as CPACK_STRIP_FILES strips
#     the installed targets (the GNU build-id notes stay: they are the translation cache's key);
#   - no RUNPATH but $ORIGIN (libLLVM is on the default search path in Debian);
#   - shared libraries 0644, and the tree's llvm-tools links relative (/usr/lib/llvm-22/bin);
#   - the zsh completion where Debian's zsh looks (vendor-completions, not site-functions);
#   - man pages compressed; the copyright file and a native changelog in the doc directory.
cmake_minimum_required(VERSION 3.25)

set(root "${CPACK_TEMPORARY_INSTALL_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}")
if(NOT IS_DIRECTORY "${root}/bin")
  message(FATAL_ERROR "stage.cmake: no staged tree at ${root}")
endif()
set(doc "${root}/share/doc/${CPACK_PACKAGE_NAME}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "stage.cmake: ${ARGN}: ${err}")
  endif()
endfunction()

# The tree's ELF files: stripped, RUNPATH only $ORIGIN, shared libraries not executable.
file(GLOB_RECURSE libs LIST_DIRECTORIES false "${root}/lib/*.so*")
foreach(f IN LISTS libs)
  if(IS_SYMLINK "${f}")
    continue()
  endif()
  run(${CPACK_MIRAGE_STRIP} --remove-section=.comment --remove-section=.note --strip-unneeded
      "${f}")
  execute_process(COMMAND readelf -d "${f}" OUTPUT_VARIABLE dyn)
  if(dyn MATCHES "R(UN)?PATH\\)[^[]*\\[([^]]*)\\]" AND NOT CMAKE_MATCH_2 STREQUAL "\$ORIGIN")
    file(RPATH_REMOVE FILE "${f}")
  endif()
  file(CHMOD "${f}" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endforeach()

# llvm-tools: relative links into LLVM 22's bin directory.
file(GLOB tools "${root}/lib/mirage/hotswap/llvm-tools/*")
foreach(t IN LISTS tools)
  file(READ_SYMLINK "${t}" target)
  if(IS_ABSOLUTE "${target}")
    get_filename_component(dir "${t}" DIRECTORY)
    file(RELATIVE_PATH rel "${dir}" "${CPACK_TEMPORARY_INSTALL_DIRECTORY}${target}")
    file(REMOVE "${t}")
    file(CREATE_LINK "${rel}" "${t}" SYMBOLIC)
  endif()
endforeach()

# zsh: Debian's fpath has /usr/share/zsh/vendor-completions for packages.
if(EXISTS "${root}/share/zsh/site-functions/_mirage")
  file(MAKE_DIRECTORY "${root}/share/zsh/vendor-completions")
  file(RENAME "${root}/share/zsh/site-functions/_mirage"
       "${root}/share/zsh/vendor-completions/_mirage")
  file(REMOVE_RECURSE "${root}/share/zsh/site-functions")
endif()

# Man pages, gzip -9n (no name, no time: the same bytes every build).
file(GLOB pages "${root}/share/man/man1/*.1")
foreach(p IN LISTS pages)
  run(gzip -9nf "${p}")
endforeach()

# The copyright file, and the changelog of a native package: one entry for this version,
# dated by the commit it was built from (SOURCE_DATE_EPOCH wins, as in Debian's builds).
file(COPY_FILE "${CPACK_MIRAGE_SOURCE_DIR}/packaging/deb/copyright" "${doc}/copyright")
if(DEFINED ENV{SOURCE_DATE_EPOCH})
  set(epoch "$ENV{SOURCE_DATE_EPOCH}")
else()
  execute_process(COMMAND git -C "${CPACK_MIRAGE_SOURCE_DIR}" log -1 --format=%ct
                  OUTPUT_VARIABLE epoch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT epoch MATCHES "^[0-9]+$")
    string(TIMESTAMP epoch "%s" UTC)
  endif()
endif()
execute_process(COMMAND date -u -R -d "@${epoch}" OUTPUT_VARIABLE date
                OUTPUT_STRIP_TRAILING_WHITESPACE)
file(WRITE "${doc}/changelog"
     "${CPACK_PACKAGE_NAME} (${CPACK_PACKAGE_VERSION}) unstable; urgency=medium\n\n"
     "  * Built from the mirage repository; its history is the project's git log.\n\n"
     " -- ${CPACK_PACKAGE_CONTACT}  ${date}\n")
run(gzip -9nf "${doc}/changelog")
