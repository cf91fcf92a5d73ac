# mirage_embed_text(SOURCES_VAR SYMBOL FILE): at build time, turns FILE into a generated .c
# that defines `const char SYMBOL[]` (its bytes and a NUL) and appends that .c to SOURCES_VAR.
# C17 has no #embed; a file edited as a file (shell code, say) stays out of C string syntax.
# Run with -DIN=... -DOUT=... -DSYMBOL=... -P this file, it writes one such .c.
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED IN)
  file(READ "${IN}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  # Twelve a line (CMake regexes have no {n}).
  string(REPEAT "'[^']+'," 12 line)
  string(REGEX REPLACE "(${line})" "\\1\n\t" bytes "${bytes}")
  # Temp + rename: an interrupted run leaves no half-written source that looks current.
  file(WRITE "${OUT}.tmp" "/* Generated from ${IN} by cmake/EmbedText.cmake; do not edit. */\n"
                          "const char ${SYMBOL}[] = {\n\t${bytes}'\\0'};\n")
  file(RENAME "${OUT}.tmp" "${OUT}")
  return()
endif()

set(_MIRAGE_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_FILE})

function(mirage_embed_text sources_var symbol file)
  get_filename_component(file ${file} ABSOLUTE)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embed/${symbol}.c)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/embed
    COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out} -DSYMBOL=${symbol} -P ${_MIRAGE_EMBED_SCRIPT}
    DEPENDS ${file} ${_MIRAGE_EMBED_SCRIPT}
    COMMENT "Embedding ${file} as ${symbol}"
    VERBATIM)
  set(${sources_var} ${${sources_var}} ${out} PARENT_SCOPE)
endfunction()
