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
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib, ffmpeg")
set(CPACK_GENERATOR DEB)
include(CPack)
