# SPDX-License-Identifier: BSD-3-Clause
# cmake -DIN=file -DOUT=file.c -P clinkEmbedFile.cmake
# Writes OUT defining xml_schema_text[] (the bytes of IN followed by a NUL) and
# xml_schema_size (the number of bytes of IN).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR size "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp"
  "/* generated from ${IN} by cmake/clinkEmbedFile.cmake: do not edit */\n"
  "#include <stddef.h>\n"
  "extern const char xml_schema_text[];\n"
  "extern const size_t xml_schema_size;\n"
  "const char xml_schema_text[] = {\n${bytes}0x00};\n"
  "const size_t xml_schema_size = ${size};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
