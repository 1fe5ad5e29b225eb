# SPDX-License-Identifier: BSD-3-Clause
# The sweep module (src/sweep/, include/clink/sweep.h, docs/sweeps.md): its schema
# share/clink-sweep.xsd embedded in the library (the module's sources are in the
# library's glob), the MPI build of `clink sweep` (clink-sweep-mpi, when CMake finds
# MPI and CLINK_MPI is on: the command's shell and the MPI driver src/sweep/mpi/, which
# the library's glob leaves out), the fuzz target and the sweep tests tests/sweep/*.sh.
set(CLINK_SWEEP_XSD "${CMAKE_CURRENT_SOURCE_DIR}/share/clink-sweep.xsd")
set(CLINK_SWEEP_XSD_C "${CMAKE_CURRENT_BINARY_DIR}/generated/sweep_schema_text.c")
add_custom_command(OUTPUT "${CLINK_SWEEP_XSD_C}"
  COMMAND ${CMAKE_COMMAND} -DIN=${CLINK_SWEEP_XSD} -DOUT=${CLINK_SWEEP_XSD_C}
          -DNAME=sweep_schema -P "${CMAKE_CURRENT_SOURCE_DIR}/cmake/clinkEmbedFile.cmake"
  DEPENDS "${CLINK_SWEEP_XSD}" "${CMAKE_CURRENT_SOURCE_DIR}/cmake/clinkEmbedFile.cmake"
  COMMENT "Embedding share/clink-sweep.xsd" VERBATIM)
target_sources(clink_objects PRIVATE "${CLINK_SWEEP_XSD_C}")

option(CLINK_MPI "Build clink-sweep-mpi, `clink sweep` under mpirun, when MPI is found" ON)
set(CLINK_SWEEP_MPI_EXE "")
if(CLINK_MPI)
  find_package(MPI COMPONENTS C QUIET)
  if(MPI_C_FOUND)
    add_executable(clink-sweep-mpi
      "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/cmd_sweep.c"
      "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/cli_opt.c"
      "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/cli_util.c"
      "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/mpi/main_mpi.c"
      "${CMAKE_CURRENT_SOURCE_DIR}/src/sweep/mpi/sweep_mpi.c")
    target_compile_options(clink-sweep-mpi PRIVATE ${CLINK_WARNINGS} ${CLINK_FP_FLAGS})
    target_include_directories(clink-sweep-mpi PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
    target_compile_definitions(clink-sweep-mpi PRIVATE CLINK_SWEEP_MPI
      CLINK_PROJECT_VERSION="${PROJECT_VERSION}")
    target_link_libraries(clink-sweep-mpi PRIVATE clink_static MPI::MPI_C m)
    install(TARGETS clink-sweep-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    set(CLINK_SWEEP_MPI_EXE "$<TARGET_FILE:clink-sweep-mpi>")
    message(STATUS "clink sweep: MPI found (${MPI_C_VERSION}): building clink-sweep-mpi")
  else()
    message(STATUS "clink sweep: MPI not found: no clink-sweep-mpi "
                   "(apt-get install libopenmpi-dev openmpi-bin)")
  endif()
endif()

if(BUILD_TESTING AND CLINK_BUILD_TESTS)
  file(GLOB CLINK_SWEEP_TESTS CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/tests/sweep/*.sh")
  foreach(t ${CLINK_SWEEP_TESTS})
    get_filename_component(name "${t}" NAME_WE)
    add_test(NAME ${name} COMMAND bash "${t}")
    set_tests_properties(${name} PROPERTIES LABELS "unit;sweep" TIMEOUT 600
      ENVIRONMENT "CLINK=$<TARGET_FILE:clink>;CLINK_SWEEP_MPI=${CLINK_SWEEP_MPI_EXE};MPIEXEC=${MPIEXEC_EXECUTABLE};CLINK_SOURCE_DIR=${CMAKE_SOURCE_DIR};CLINK_BINARY_DIR=${CMAKE_BINARY_DIR}")
  endforeach()
endif()

# the sweep's throughput benchmark (bench/bench_sweep.sh), with the other benchmarks
if(BUILD_TESTING AND CLINK_BUILD_TESTS AND CLINK_BENCH)
  add_test(NAME bench_sweep COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_sweep.sh"
                                         "${CMAKE_BINARY_DIR}/bench-results")
  set_tests_properties(bench_sweep PROPERTIES LABELS bench TIMEOUT 1800 RUN_SERIAL ON
    ENVIRONMENT "CLINK=$<TARGET_FILE:clink>;CLINK_SWEEP_MPI=${CLINK_SWEEP_MPI_EXE};MPIEXEC=${MPIEXEC_EXECUTABLE};CLINK_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
  # the worked study of docs/sweeps.md (Poursina and Nikravesh 2020, Fig. 8)
  add_test(NAME bench_sweep_poursina
           COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_sweep_poursina.sh"
                        "${CMAKE_BINARY_DIR}/bench-results")
  set_tests_properties(bench_sweep_poursina PROPERTIES LABELS bench TIMEOUT 1800 RUN_SERIAL ON
    ENVIRONMENT "CLINK=$<TARGET_FILE:clink>;CLINK_SOURCE_DIR=${CMAKE_SOURCE_DIR};SETS=300")
endif()
