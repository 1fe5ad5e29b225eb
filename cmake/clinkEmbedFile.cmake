# SPDX-License-Identifier: BSD-3-Clause
# cmake -DIN=file -DOUT=file.c [-DNAME=prefix] -P clinkEmbedFile.cmake
# Writes OUT defining NAME_text[] (the bytes of IN followed by a NUL) and NAME_size
# (the number of bytes of IN); NAME is xml_schema unless given (the model schema;
# sweep_schema for the sweep specification's).
if(NOT DEFINED NAME)
  set(NAME xml_schema)
endif()
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR size "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp"
  "/* generated from ${IN} by cmake/clinkEmbedFile.cmake: do not edit */\n"
  "#include <stddef.h>\n"
  "extern const char ${NAME}_text[];\n"
  "extern const size_t ${NAME}_size;\n"
  "const char ${NAME}_text[] = {\n${bytes}0x00};\n"
  "const size_t ${NAME}_size = ${size};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
