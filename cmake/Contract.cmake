# The HotSwap contract's names for CMake: every `#define NAME "value"` of
# common/hotswap_contract.h becomes the CMake variable NAME, so the staging
# (StageHotswap.cmake) spells the tree from the same source as the C code.
# tests/unit/test_contract.c checks the staged tree against the header's table.
set(HOTSWAP_CONTRACT_HEADER ${PROJECT_SOURCE_DIR}/common/hotswap_contract.h)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${HOTSWAP_CONTRACT_HEADER})
file(STRINGS ${HOTSWAP_CONTRACT_HEADER} _contract_lines
     REGEX "^#define [A-Z_]+ +\"[^\"]*\"")
foreach(_line IN LISTS _contract_lines)
  string(REGEX MATCH "^#define ([A-Z_]+) +\"([^\"]*)\"" _m "${_line}")
  set(${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
endforeach()
foreach(_name HOTSWAP_TREE_LIB_DIR HOTSWAP_TREE_TOOLS_DIR HOTSWAP_TREE_PY_DIR HOTSWAP_TOOL_LLC
              HOTSWAP_TOOL_LLVM_MC HOTSWAP_TOOL_LLD HOTSWAP_TOOL_LD_LLD HOTSWAP_PY_SITECUSTOMIZE)
  if(NOT DEFINED ${_name})
    message(FATAL_ERROR "${HOTSWAP_CONTRACT_HEADER} does not define ${_name}")
  endif()
endforeach()
