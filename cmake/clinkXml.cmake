# SPDX-License-Identifier: BSD-3-Clause
# The XML reader's build pieces: the schema share/clink.xsd is embedded in the
# library as a C array (generated at build time, so the library never looks for
# the .xsd on disk).
set(CLINK_XSD "${CMAKE_CURRENT_SOURCE_DIR}/share/clink.xsd")
set(CLINK_XSD_C "${CMAKE_CURRENT_BINARY_DIR}/generated/xml_schema_text.c")
add_custom_command(OUTPUT "${CLINK_XSD_C}"
  COMMAND ${CMAKE_COMMAND} -DIN=${CLINK_XSD} -DOUT=${CLINK_XSD_C}
          -P "${CMAKE_CURRENT_SOURCE_DIR}/cmake/clinkEmbedFile.cmake"
  DEPENDS "${CLINK_XSD}" "${CMAKE_CURRENT_SOURCE_DIR}/cmake/clinkEmbedFile.cmake"
  COMMENT "Embedding share/clink.xsd" VERBATIM)
target_sources(clink_objects PRIVATE "${CLINK_XSD_C}")
