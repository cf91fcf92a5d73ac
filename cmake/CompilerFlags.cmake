# Warnings, visibility and sanitizers for every target in the tree.
add_compile_options(-Wall -Wextra -Wshadow -Wformat=2 -Wno-unused-parameter)
# Warnings are errors in the presets (what developers and CI build), not in a plain `cmake`
# build: a packager's newer compiler may warn about code that was clean here.
option(MIRAGE_WERROR "Treat compiler warnings as errors (ON in CMakePresets.json)" OFF)
if(MIRAGE_WERROR)
  add_compile_options(-Werror)
endif()
add_compile_definitions(_GNU_SOURCE)
# Libraries export only what their headers mark HS_API / what their maps list.
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_CXX_VISIBILITY_PRESET hidden)
set(CMAKE_VISIBILITY_INLINES_HIDDEN ON)

if(MIRAGE_SANITIZE)
  add_compile_options(-fsanitize=${MIRAGE_SANITIZE} -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=${MIRAGE_SANITIZE})
  if(MIRAGE_SANITIZE MATCHES "undefined")
    # Halt on the first UBSan report instead of printing and carrying on.
    add_compile_options(-fno-sanitize-recover=all)
  endif()
endif()
