# Writes a binary file as a C array: cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
# (a build-time step, so the repository holds only the assembly source).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" nhex)
math(EXPR size "${nhex} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REPEAT "0x[0-9a-f][0-9a-f]," 16 row)
string(REGEX REPLACE "(${row})" "\\1\n\t" bytes "${bytes}")
file(WRITE "${OUT}.tmp"
  "/* Generated from ${IN} by launcher/doctor/embed.cmake; do not edit. */\n"
  "#include <stddef.h>\n"
  "const unsigned char ${NAME}[] = {\n\t${bytes}\n};\n"
  "const size_t ${NAME}_size = ${size};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
