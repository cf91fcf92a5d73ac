# mirage_shared_object(TARGET MAP <version script> OUTPUT_DIR <dir> [ORIGIN_RPATH])
#
# What every shared object of ours needs, in one place: exports limited to a
# version script, a GNU build-id, every symbol defined at link time (except in sanitizer
# builds, whose runtime is resolved from the executable), a fixed output
# directory, and with ORIGIN_RPATH a RUNPATH of exactly $ORIGIN so a tree
# copied anywhere still finds its own parts (CMake's automatic build rpath
# would add an empty entry, which means the current directory).
function(mirage_shared_object target)
  cmake_parse_arguments(S "ORIGIN_RPATH" "MAP;OUTPUT_DIR" "" ${ARGN})
  if(NOT S_MAP OR NOT S_OUTPUT_DIR)
    message(FATAL_ERROR "mirage_shared_object(${target}): MAP and OUTPUT_DIR are required")
  endif()
  target_link_options(${target} PRIVATE "LINKER:--version-script=${S_MAP}")
  # A build-id whatever the toolchain's default: the intercept's cache keys on it.
  target_link_options(${target} PRIVATE "LINKER:--build-id=sha1")
  if(NOT MIRAGE_SANITIZE)
    target_link_options(${target} PRIVATE "LINKER:--no-undefined")
  endif()
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${S_OUTPUT_DIR}
    LINK_DEPENDS ${S_MAP})
  if(S_ORIGIN_RPATH)
    set_target_properties(${target} PROPERTIES
      BUILD_WITH_INSTALL_RPATH ON
      INSTALL_RPATH "\$ORIGIN")
  endif()
endfunction()
