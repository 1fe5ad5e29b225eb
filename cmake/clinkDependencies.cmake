# SPDX-License-Identifier: BSD-3-Clause
# Finds SUNDIALS (CVODE, sparse matrix, KLU linear solver), SuiteSparse KLU and
# libxml2, and gathers them in one interface target, clink::deps. A missing
# dependency stops configure with the Debian package that provides it.

find_package(SUNDIALS 6.0 CONFIG QUIET)
if(NOT SUNDIALS_FOUND)
  message(FATAL_ERROR
    "SUNDIALS 6.x (CVODE) not found.\n"
    "  Install it with:  apt-get install libsundials-dev\n"
    "  (or run scripts/install-deps as root).")
endif()
foreach(comp cvode nvecserial sunmatrixsparse sunlinsolklu)
  if(NOT TARGET SUNDIALS::${comp}_shared)
    message(FATAL_ERROR "SUNDIALS component ${comp} not found: apt-get install libsundials-dev")
  endif()
endforeach()

find_path(KLU_INCLUDE_DIR klu.h PATH_SUFFIXES suitesparse)
find_library(KLU_LIBRARY klu)
find_library(AMD_LIBRARY amd)
find_library(COLAMD_LIBRARY colamd)
find_library(BTF_LIBRARY btf)
find_library(SUITESPARSECONFIG_LIBRARY suitesparseconfig)
if(NOT KLU_INCLUDE_DIR OR NOT KLU_LIBRARY OR NOT AMD_LIBRARY OR NOT COLAMD_LIBRARY
   OR NOT BTF_LIBRARY OR NOT SUITESPARSECONFIG_LIBRARY)
  message(FATAL_ERROR
    "SuiteSparse KLU not found.\n"
    "  Install it with:  apt-get install libsuitesparse-dev\n"
    "  (or run scripts/install-deps as root).")
endif()

find_package(LibXml2 QUIET)
if(NOT LibXml2_FOUND)
  message(FATAL_ERROR
    "libxml2 not found.\n"
    "  Install it with:  apt-get install libxml2-dev\n"
    "  (or run scripts/install-deps as root).")
endif()

add_library(clink_deps INTERFACE)
target_include_directories(clink_deps INTERFACE
  "$<BUILD_INTERFACE:${KLU_INCLUDE_DIR}>" "$<BUILD_INTERFACE:${LIBXML2_INCLUDE_DIRS}>")
target_link_libraries(clink_deps INTERFACE
  SUNDIALS::cvode_shared SUNDIALS::nvecserial_shared SUNDIALS::sunmatrixsparse_shared
  SUNDIALS::sunlinsolklu_shared
  ${KLU_LIBRARY} ${BTF_LIBRARY} ${AMD_LIBRARY} ${COLAMD_LIBRARY} ${SUITESPARSECONFIG_LIBRARY}
  ${LIBXML2_LIBRARIES} m)
add_library(clink::deps ALIAS clink_deps)
message(STATUS "clink: SUNDIALS ${SUNDIALS_VERSION}, KLU ${KLU_LIBRARY}, libxml2 ${LIBXML2_VERSION_STRING}")
