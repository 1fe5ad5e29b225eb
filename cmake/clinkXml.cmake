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

# the fuzz target of the reader (scripts/fuzz): only with -DCLINK_FUZZ=ON and clang
option(CLINK_FUZZ "Build the libFuzzer target fuzz_xml (clang; see scripts/fuzz)" OFF)
if(CLINK_FUZZ)
  add_executable(fuzz_xml "${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz/fuzz_xml.c")
  target_include_directories(fuzz_xml PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  target_compile_options(fuzz_xml PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_xml PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_xml PRIVATE clink_static m)
  # the command line's number readers (tests/fuzz/fuzz_cli.c, scripts/fuzz --cli)
  add_executable(fuzz_cli "${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz/fuzz_cli.c"
                          "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/cli_util.c")
  target_include_directories(fuzz_cli PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  target_compile_options(fuzz_cli PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_cli PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_cli PRIVATE clink_static m)
  # short bounded simulations of fuzzed models (tests/fuzz/fuzz_sim.c, scripts/fuzz --sim)
  add_executable(fuzz_sim "${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz/fuzz_sim.c")
  target_include_directories(fuzz_sim PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  target_compile_options(fuzz_sim PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_sim PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_sim PRIVATE clink_static m)
  # overrides by path (tests/fuzz/fuzz_override.c, scripts/fuzz --override)
  add_executable(fuzz_override "${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz/fuzz_override.c")
  target_include_directories(fuzz_override PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  target_compile_options(fuzz_override PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_override PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_override PRIVATE clink_static m)
  # the command line's option parser (tests/fuzz/fuzz_opt.c, scripts/fuzz --opt)
  add_executable(fuzz_opt "${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz/fuzz_opt.c"
                          "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/cli_opt.c"
                          "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/cli_util.c")
  target_include_directories(fuzz_opt PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  target_compile_options(fuzz_opt PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_opt PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_opt PRIVATE clink_static m)
endif()
