# SPDX-License-Identifier: BSD-3-Clause
# FMI 2.0 co-simulation export (docs/fmi.md): the shared object every FMU carries
# under binaries/linux64/<modelIdentifier>.so. It links the static library (its objects
# are position-independent), so that an FMU needs only the Debian runtime packages of
# clink's dependencies (SUNDIALS CVODE, KLU, libxml2, HDF5), not an installed libclink;
# it exports the fmi2* functions alone. `clink fmu` finds it in the build tree, or
# installed under LIBDIR/clink (or where CLINK_FMU_LIBRARY or --library says).
file(GLOB CLINK_FMU_SOURCES CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/src/fmi/*.c")
add_library(clink_fmu MODULE ${CLINK_FMU_SOURCES})
set_target_properties(clink_fmu PROPERTIES PREFIX "" OUTPUT_NAME clink_fmu
                      C_VISIBILITY_PRESET hidden)
target_compile_options(clink_fmu PRIVATE ${CLINK_WARNINGS} ${CLINK_FP_FLAGS})
target_include_directories(clink_fmu PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
# the standard's headers (third_party/fmi2, docs/development.md): the FMI functions are
# compiled against their declarations
target_include_directories(clink_fmu SYSTEM PRIVATE
  "${CMAKE_CURRENT_SOURCE_DIR}/third_party/fmi2/headers")
target_link_libraries(clink_fmu PRIVATE clink_static m)
target_link_options(clink_fmu PRIVATE "LINKER:--no-undefined" "LINKER:--exclude-libs,ALL")

# the command writes the variable table the library reads (src/fmi/fmu_vars.c)
target_sources(clink PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src/fmi/fmu_vars.c")
add_dependencies(clink clink_fmu)
target_compile_definitions(clink PRIVATE
  CLINK_FMU_BUILD="$<TARGET_FILE:clink_fmu>"
  CLINK_FMU_INSTALL="${CMAKE_INSTALL_FULL_LIBDIR}/clink/clink_fmu.so")
install(TARGETS clink_fmu LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}/clink")
