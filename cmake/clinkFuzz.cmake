# SPDX-License-Identifier: BSD-3-Clause
# The libFuzzer targets (tests/fuzz/, run by scripts/fuzz): only with -DCLINK_FUZZ=ON and
# clang. Each is one clink_fuzz_target(NAME SOURCE...): a program of its sources (relative
# to the source tree, or absolute, e.g. a generated file) linked with the static library and
# libFuzzer's main, under AddressSanitizer and UndefinedBehaviorSanitizer; scripts/fuzz
# --X runs fuzz_X.
option(CLINK_FUZZ "Build the libFuzzer targets fuzz_* (clang; see scripts/fuzz)" OFF)

function(clink_fuzz_target name)
  set(sources "")
  foreach(src ${ARGN})
    if(NOT IS_ABSOLUTE "${src}")
      set(src "${CMAKE_SOURCE_DIR}/${src}")
    endif()
    list(APPEND sources "${src}")
  endforeach()
  add_executable(${name} ${sources})
  target_include_directories(${name} PRIVATE "${CMAKE_SOURCE_DIR}/src")
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(${name} PRIVATE clink_static m)
endfunction()

if(CLINK_FUZZ)
  # the XML reader (scripts/fuzz, the default)
  clink_fuzz_target(fuzz_xml tests/fuzz/fuzz_xml.c)
  # the command line's number readers and the outputs' number formatter (--cli)
  clink_fuzz_target(fuzz_cli tests/fuzz/fuzz_cli.c src/cli/cli_util.c)
  # short bounded simulations of fuzzed models (--sim)
  clink_fuzz_target(fuzz_sim tests/fuzz/fuzz_sim.c)
  # a model and overrides by path (--override)
  clink_fuzz_target(fuzz_override tests/fuzz/fuzz_override.c)
  # the command line's option parser (--opt)
  clink_fuzz_target(fuzz_opt tests/fuzz/fuzz_opt.c src/cli/cli_opt.c src/cli/cli_util.c)
  # the sweep specification reader, cases laid out but not run (--sweep; through
  # include/clink/sweep.h, the schema embedded in the library)
  clink_fuzz_target(fuzz_sweep tests/fuzz/fuzz_sweep.c)
  # the sweep journal's reader on resume: every row checked, a damaged one skipped
  # (--journal; through src/sweep/sweep_internal.h)
  clink_fuzz_target(fuzz_journal tests/fuzz/fuzz_journal.c)
endif()
