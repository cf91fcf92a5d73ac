# Stages the HotSwap tree under ${PROJECT_BINARY_DIR}/hotswap/ (docs/discovery.md):
#   lib/libhotswap_intercept.so (libc-only shim), lib/libhotswap_intercept_core.so
#     (loaded by the shim's OnLoad), lib/libhotswap_rewrite.so, lib/libhotswap_mc.so
#     (each target builds straight into lib/; RPATH $ORIGIN keeps the tree relocatable)
#   llvm-tools/{llc,llvm-mc,lld,ld.lld} -> LLVM 22's own binaries
#   runtime/hotswap_py/sitecustomize.py (copied)
# Target `hotswap_tree` (part of ALL) brings every piece up to date.
# The names come from common/hotswap_contract.h (Contract.cmake); the libraries' file
# names are their targets', which tests/unit/test_contract.c pins to the header.
include(Contract)
set(HOTSWAP_STAGE_DIR ${PROJECT_BINARY_DIR}/hotswap)
file(MAKE_DIRECTORY ${HOTSWAP_STAGE_DIR}/${HOTSWAP_TREE_LIB_DIR}
     ${HOTSWAP_STAGE_DIR}/${HOTSWAP_TREE_TOOLS_DIR} ${HOTSWAP_STAGE_DIR}/${HOTSWAP_TREE_PY_DIR})

# llvm-tools: symlinks into LLVM 22's bin directory under the tool's own name
# (lld is multi-call and picks its flavour from the name it is run as).
find_program(HOTSWAP_LLD_EXE NAMES lld lld-22 PATHS ${LLVM_BIN_DIR} NO_DEFAULT_PATH)
if(NOT HOTSWAP_LLD_EXE)
  find_program(HOTSWAP_LLD_EXE NAMES lld-22 REQUIRED)
endif()
foreach(pair "${HOTSWAP_TOOL_LLC}=${LLC_EXE}" "${HOTSWAP_TOOL_LLVM_MC}=${LLVM_MC_EXE}"
             "${HOTSWAP_TOOL_LD_LLD}=${LD_LLD_EXE}" "${HOTSWAP_TOOL_LLD}=${HOTSWAP_LLD_EXE}")
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 exe)
  if(EXISTS ${LLVM_BIN_DIR}/${name})
    set(real ${LLVM_BIN_DIR}/${name})
  else()
    get_filename_component(real "${exe}" REALPATH)
  endif()
  file(CREATE_LINK "${real}" ${HOTSWAP_STAGE_DIR}/${HOTSWAP_TREE_TOOLS_DIR}/${name} SYMBOLIC)
endforeach()

# The python runtime is copied at build time, so edits reach the tree.
set(HOTSWAP_PY_SRC ${PROJECT_SOURCE_DIR}/python/hotswap_py/${HOTSWAP_PY_SITECUSTOMIZE})
set(HOTSWAP_PY_DST ${HOTSWAP_STAGE_DIR}/${HOTSWAP_TREE_PY_DIR}/${HOTSWAP_PY_SITECUSTOMIZE})
add_custom_command(OUTPUT ${HOTSWAP_PY_DST}
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${HOTSWAP_PY_SRC} ${HOTSWAP_PY_DST}
  DEPENDS ${HOTSWAP_PY_SRC}
  COMMENT "Staging hotswap/${HOTSWAP_TREE_PY_DIR}/${HOTSWAP_PY_SITECUSTOMIZE}"
  VERBATIM)

# The translator: the same file as <prefix>/lib/mirage's, copied beside the rewriter, which
# dlopen()s it from its own directory for a translation (docs/rewriter.md, "Translation").
set(HOTSWAP_TRANSLATE_DST)
if(TARGET mirage_translate)
set(HOTSWAP_TRANSLATE_DST ${HOTSWAP_STAGE_DIR}/${HOTSWAP_TREE_LIB_DIR}/${HOTSWAP_TRANSLATE_LIB})
add_custom_command(OUTPUT ${HOTSWAP_TRANSLATE_DST}
  COMMAND ${CMAKE_COMMAND} -E copy_if_different $<TARGET_FILE:mirage_translate>
          ${HOTSWAP_TRANSLATE_DST}
  DEPENDS mirage_translate $<TARGET_FILE:mirage_translate>
  COMMENT "Staging hotswap/${HOTSWAP_TREE_LIB_DIR}/${HOTSWAP_TRANSLATE_LIB}"
  VERBATIM)
endif()

add_custom_target(hotswap_tree ALL DEPENDS ${HOTSWAP_PY_DST} ${HOTSWAP_TRANSLATE_DST})
foreach(lib hotswap_intercept hotswap_intercept_core hotswap_rewrite hotswap_mc)
  if(TARGET ${lib})
    add_dependencies(hotswap_tree ${lib})
  endif()
endforeach()

# Installs put the same tree where discovery looks: <prefix>/lib/mirage/hotswap.
install(DIRECTORY ${HOTSWAP_STAGE_DIR}/ DESTINATION lib/mirage/hotswap
        USE_SOURCE_PERMISSIONS COMPONENT hotswap PATTERN "__pycache__" EXCLUDE)
