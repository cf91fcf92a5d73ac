# Writes one completion script by running the built mirage: cmake -DMIRAGE=bin -DSHELL_NAME=bash -DOUT=file -P generate.cmake
# The temp file + rename keeps a failed run from leaving a half-written script that looks current.
execute_process(COMMAND ${MIRAGE} completions ${SHELL_NAME}
                OUTPUT_FILE ${OUT}.tmp
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "'${MIRAGE} completions ${SHELL_NAME}' failed (${rc})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
