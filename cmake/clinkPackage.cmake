# SPDX-License-Identifier: BSD-3-Clause
# The Debian package (docs/releases.md): `cpack -G DEB` in a build tree configured with
# -DCMAKE_INSTALL_PREFIX=/usr writes clink_VERSION-1_ARCH.deb holding everything
# `cmake --install` installs: libclink (shared, SONAME libclink.so.0.MINOR, and static),
# the clink command and clink-sweep-mpi when built, the FMU library, the headers, the
# pkg-config and CMake package files, the man pages, the bash completion, the schema and
# example models under /usr/share/clink, and the Python package in
# /usr/lib/python3/dist-packages (python/CMakeLists.txt, CLINK_PYTHON_SITE). The run-time
# dependencies on Debian's libraries come from dpkg-shlibdeps; the Python package's from
# the list below. scripts/check-deb builds, installs, runs and removes it (CI).
# the Debian dependency on the package holding the shared library path (SONAME soname):
# its shlibs entry for NAME VERSION (libNAME.so.VERSION) or, without one, its name; empty
# when dpkg knows no package holding path
function(clink_hdf5_debian_dependency path soname out)
  set(dep "")
  find_program(CLINK_DPKG_QUERY dpkg-query)
  if(CLINK_DPKG_QUERY)
    execute_process(COMMAND "${CLINK_DPKG_QUERY}" -S "${path}" OUTPUT_VARIABLE owner
                    RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND owner MATCHES "^([^:, ]+)(:[^:, ]+)?: ")
      set(pkg "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      set(dep "${CMAKE_MATCH_1}")
      execute_process(COMMAND "${CLINK_DPKG_QUERY}" --control-show "${pkg}" shlibs
                      OUTPUT_VARIABLE shlibs RESULT_VARIABLE rc ERROR_QUIET)
      if(rc EQUAL 0 AND soname MATCHES "^(.*)\\.so\\.(.*)$")
        string(REGEX MATCH "(^|\n)${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ([^\n]+)" line "${shlibs}")
        if(line)
          string(STRIP "${CMAKE_MATCH_2}" dep)
        endif()
      endif()
    endif()
  endif()
  set(${out} "${dep}" PARENT_SCOPE)
endfunction()

set(CPACK_PACKAGE_NAME clink)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION "clink simulates planar mechanisms with rigid bodies, ideal and
clearance joints, drivers and contact pairs read from XML, integrated with SUNDIALS CVODE.
This package holds the library libclink, its headers and pkg-config files, the clink
command with its man pages and bash completion, and the Python package clink.")
set(CPACK_PACKAGE_CONTACT "clink maintainers" CACHE STRING "Maintainer field of the Debian package")
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_CURRENT_SOURCE_DIR}/LICENSE")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-cffi, python3-numpy")
# HDF5 is loaded with dlopen on first use (cmake/clinkHdf5.cmake), so dpkg-shlibdeps,
# which reads the libraries the binaries link, does not see it: the dependency it gave
# before is added here, from the shlibs entry of the package that holds the library
# found (Debian 12: "libhdf5_serial 103 libhdf5-103-1", so libhdf5-103-1), else that
# package's name
if(CLINK_HAVE_HDF5)
  clink_hdf5_debian_dependency("${CLINK_HDF5_PATH}" "${CLINK_HDF5_SONAME}" clink_hdf5_dep)
  if(clink_hdf5_dep)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", ${clink_hdf5_dep}")
  else()
    message(WARNING "clink: no Debian package holds ${CLINK_HDF5_PATH}: the package built "
                    "by cpack will not depend on HDF5's")
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib, ffmpeg")
set(CPACK_GENERATOR DEB)
include(CPack)
