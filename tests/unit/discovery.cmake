# Discovery: tree search and completeness, KFD detection, target resolution, self-test.

# Stand-in libraries to stage fixture trees with (see test_discovery_fixture_lib.c).
set(_disc_fx_dir ${CMAKE_CURRENT_BINARY_DIR}/discovery_fx)
set(_disc_fx_targets)
foreach(fx intercept:FX_ONLOAD core:FX_CORE rewrite:FX_HS_REWRITE hsa:FX_HSA_INIT comgr:FX_COMGR nosym:FX_NONE
           noop_rewrite:FX_HS_REWRITE,FX_NOOP crash_rewrite:FX_HS_REWRITE,FX_CRASH)
  string(REPLACE ":" ";" _p "${fx}")
  list(GET _p 0 _name)
  list(GET _p 1 _defs)
  string(REPLACE "," ";" _defs "${_defs}")
  add_library(discfx_${_name} SHARED test_discovery_fixture_lib.c)
  target_compile_definitions(discfx_${_name} PRIVATE ${_defs})
  target_include_directories(discfx_${_name} PRIVATE ${HOTSWAP_INCLUDE_DIRS})
  set_target_properties(discfx_${_name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${_disc_fx_dir}
                        OUTPUT_NAME fx_${_name} PREFIX lib)
  list(APPEND _disc_fx_targets discfx_${_name})
endforeach()
# An intercept for another machine: a well-formed AArch64 shared object.
add_custom_command(
  OUTPUT ${_disc_fx_dir}/libfx_aarch64.so
  COMMAND ${CLANG_EXE} -target aarch64-linux-gnu -shared -nostdlib -fuse-ld=lld -DFX_ONLOAD
          -I${PROJECT_SOURCE_DIR}/rewrite/include -I${PROJECT_BINARY_DIR}/include
          ${CMAKE_CURRENT_SOURCE_DIR}/test_discovery_fixture_lib.c -o ${_disc_fx_dir}/libfx_aarch64.so
  DEPENDS test_discovery_fixture_lib.c
  COMMENT "Building an AArch64 stand-in library"
  VERBATIM)
add_custom_target(discfx_aarch64 DEPENDS ${_disc_fx_dir}/libfx_aarch64.so)
list(APPEND _disc_fx_targets discfx_aarch64)
add_custom_target(discovery_fixtures DEPENDS ${_disc_fx_targets})

mirage_unit_test(discovery_tree SOURCES test_discovery_tree.c test_discovery_util.c
                 LIBS mirage_discovery LABELS discovery)
mirage_unit_test(kfd SOURCES test_kfd.c test_discovery_util.c LIBS mirage_discovery
                 LABELS discovery)
mirage_unit_test(target SOURCES test_target.c test_discovery_util.c LIBS mirage_discovery
                 LABELS discovery)
mirage_unit_test(discovery_selftest SOURCES test_discovery_selftest.c test_discovery_util.c
                 LIBS mirage_selftest mirage_discovery LABELS discovery)
foreach(t discovery_tree discovery_selftest)
  add_dependencies(test_${t} discovery_fixtures mirage_selftest)
  target_compile_definitions(test_${t} PRIVATE "DISC_FX_DIR=\"${_disc_fx_dir}\""
    "SELFTEST_CO=\"${PROJECT_BINARY_DIR}/launcher/doctor/gfx1250_selftest.co\"")
endforeach()
# The real rewriter, when this build has one: the self-test must pass against it.
if(TARGET hotswap_rewrite)
  target_compile_definitions(test_discovery_selftest PRIVATE
                             "REAL_REWRITER=\"$<TARGET_FILE:hotswap_rewrite>\"")
  add_dependencies(test_discovery_selftest hotswap_rewrite)
  # Recognising its own stubs on the second pass loads the MC glue next to it.
  if(TARGET hotswap_mc)
    add_dependencies(test_discovery_selftest hotswap_mc)
  endif()
endif()

# The contract header against the tree this build stages (cmake/StageHotswap.cmake).
if(MIRAGE_BUILD_HOTSWAP)
  mirage_unit_test(contract SOURCES test_contract.c LIBS mirage_discovery LABELS discovery)
  add_dependencies(test_contract hotswap_tree)
  target_include_directories(test_contract PRIVATE ${PROJECT_SOURCE_DIR}/translate/api)
  target_compile_definitions(test_contract PRIVATE
                             "HOTSWAP_STAGED_TREE=\"${PROJECT_BINARY_DIR}/hotswap\"")
endif()
