# SPDX-License-Identifier: BSD-3-Clause
# `clink sweep` (docs/sweeps.md): the sweep schema share/clink-sweep.xsd embedded in
# the command, the MPI build of the command (clink-sweep-mpi, when CMake finds MPI
# and CLINK_MPI is on), and the sweep tests tests/sweep/*.sh.
set(CLINK_SWEEP_XSD "${CMAKE_CURRENT_SOURCE_DIR}/share/clink-sweep.xsd")
set(CLINK_SWEEP_XSD_C "${CMAKE_CURRENT_BINARY_DIR}/generated/sweep_schema_text.c")
add_custom_command(OUTPUT "${CLINK_SWEEP_XSD_C}"
  COMMAND ${CMAKE_COMMAND} -DIN=${CLINK_SWEEP_XSD} -DOUT=${CLINK_SWEEP_XSD_C}
          -DNAME=sweep_schema -P "${CMAKE_CURRENT_SOURCE_DIR}/cmake/clinkEmbedFile.cmake"
  DEPENDS "${CLINK_SWEEP_XSD}" "${CMAKE_CURRENT_SOURCE_DIR}/cmake/clinkEmbedFile.cmake"
  COMMENT "Embedding share/clink-sweep.xsd" VERBATIM)
# one target drives the generation: clink, clink-sweep-mpi and fuzz_sweep (cmake/clinkFuzz.cmake)
# all compile the file, and independent targets that each ran the command could race on it (make -j)
add_custom_target(clink_sweep_schema DEPENDS "${CLINK_SWEEP_XSD_C}")
target_sources(clink PRIVATE "${CLINK_SWEEP_XSD_C}")
add_dependencies(clink clink_sweep_schema)

option(CLINK_MPI "Build clink-sweep-mpi, `clink sweep` under mpirun, when MPI is found" ON)
set(CLINK_SWEEP_MPI_EXE "")
if(CLINK_MPI)
  find_package(MPI COMPONENTS C QUIET)
  if(MPI_C_FOUND)
    add_executable(clink-sweep-mpi
      "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/cmd_sweep.c"
      "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/cli_opt.c"
      "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/cli_util.c"
      "${CMAKE_CURRENT_SOURCE_DIR}/src/cli/sweep_hdf5.c"
      "${CLINK_SWEEP_XSD_C}")
    add_dependencies(clink-sweep-mpi clink_sweep_schema)
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

# DIR/sweep.h5 (src/cli/sweep_hdf5.c) when the library has HDF5 (cmake/clinkHdf5.cmake)
if(CLINK_HAVE_HDF5)
  foreach(t clink clink-sweep-mpi)
    if(TARGET ${t})
      target_compile_definitions(${t} PRIVATE CLINK_HAVE_HDF5=1)
      target_include_directories(${t} SYSTEM PRIVATE ${HDF5_C_INCLUDE_DIRS})
    endif()
  endforeach()
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
