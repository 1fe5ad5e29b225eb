# SPDX-License-Identifier: BSD-3-Clause
# Finds SUNDIALS (CVODE, sparse matrix, KLU linear solver), SuiteSparse KLU,
# libxml2 and LAPACK, and gathers them in one interface target, clink::deps. A missing
# dependency stops configure with the Debian package that provides it.
#
# SUNDIALS 6.4 (Debian's libsundials-dev, what CI builds with) or 7.x: another
# installation than the system's is chosen with -DSUNDIALS_ROOT=PREFIX (or
# CMAKE_PREFIX_PATH); it must have been built with KLU (-DENABLE_KLU=ON).
# src/integrators/cvode/cvode_compat.h holds what differs between the two.

find_package(SUNDIALS CONFIG QUIET)
if(NOT SUNDIALS_FOUND)
  message(FATAL_ERROR
    "SUNDIALS 6.4 or 7.x (CVODE) not found.\n"
    "  Install it with:  apt-get install libsundials-dev\n"
    "  (or run scripts/install-deps as root), or give another installation's prefix\n"
    "  with -DSUNDIALS_ROOT=PREFIX.")
endif()
if(SUNDIALS_VERSION VERSION_LESS 6.4 OR NOT SUNDIALS_VERSION VERSION_LESS 8.0)
  message(FATAL_ERROR "SUNDIALS ${SUNDIALS_VERSION} found (${SUNDIALS_DIR}): clink needs 6.4 .. 7.x")
endif()
foreach(comp cvode nvecserial sunmatrixsparse sunlinsolklu)
  if(NOT TARGET SUNDIALS::${comp}_shared)
    message(FATAL_ERROR "SUNDIALS component ${comp} not found: apt-get install libsundials-dev "
                        "(another installation must be built with -DENABLE_KLU=ON)")
  endif()
endforeach()
# an installation outside the system's directories (-DSUNDIALS_ROOT): the installed
# library and programs find it through their RPATH (system directories are never added)
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)
# 7.x puts the context, logger and error handling in a library of their own, and the
# fixed-point solver in another
set(CLINK_SUNDIALS_EXTRA)
# (clink.pc names them too: cmake/clinkInstall.cmake)
foreach(comp core sunnonlinsolfixedpoint)
  if(NOT SUNDIALS_VERSION VERSION_LESS 7.0 AND TARGET SUNDIALS::${comp}_shared)
    list(APPEND CLINK_SUNDIALS_EXTRA SUNDIALS::${comp}_shared)
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

# LAPACK (dgesvd, dgeev, dgesv: the linearised modes and the equilibrium, src/analysis)
find_package(LAPACK QUIET)
if(NOT LAPACK_FOUND)
  message(FATAL_ERROR
    "LAPACK not found.\n"
    "  Install it with:  apt-get install liblapack-dev\n"
    "  (or run scripts/install-deps as root).")
endif()

add_library(clink_deps INTERFACE)
target_include_directories(clink_deps INTERFACE
  "$<BUILD_INTERFACE:${KLU_INCLUDE_DIR}>" "$<BUILD_INTERFACE:${LIBXML2_INCLUDE_DIRS}>")
target_link_libraries(clink_deps INTERFACE
  SUNDIALS::cvode_shared SUNDIALS::nvecserial_shared SUNDIALS::sunmatrixsparse_shared
  SUNDIALS::sunlinsolklu_shared ${CLINK_SUNDIALS_EXTRA}
  ${KLU_LIBRARY} ${BTF_LIBRARY} ${AMD_LIBRARY} ${COLAMD_LIBRARY} ${SUITESPARSECONFIG_LIBRARY}
  ${LIBXML2_LIBRARIES} ${LAPACK_LIBRARIES} m)
add_library(clink::deps ALIAS clink_deps)
message(STATUS "clink: SUNDIALS ${SUNDIALS_VERSION} (${SUNDIALS_DIR}), KLU ${KLU_LIBRARY}, libxml2 ${LIBXML2_VERSION_STRING}, LAPACK ${LAPACK_LIBRARIES}")
