# SPDX-License-Identifier: BSD-3-Clause
# One release number (docs/releases.md): the file VERSION feeds project(VERSION), hence
# the command's `clink -V`, the pkg-config files, the CMake package version, the shared
# library's file name and SONAME, the Python package's metadata (setup.py) and, through
# the library, clink.__version__, summary.json and the FMU's generationTool. The public
# header spells the number as literals (a C program reads it without a build step):
# they must equal VERSION, checked here at configure time.
#
# CLINK_SOVERSION: MAJOR from 1.0 on; 0.MINOR before it (every 0.x minor release may
# break the ABI).
file(READ "${CMAKE_CURRENT_SOURCE_DIR}/include/clink/clink.h" clink_h)
foreach(part MAJOR MINOR PATCH)
  if(NOT clink_h MATCHES "#define CLINK_VERSION_${part} +([0-9]+)")
    message(FATAL_ERROR "include/clink/clink.h: no CLINK_VERSION_${part}")
  endif()
  set(clink_h_${part} "${CMAKE_MATCH_1}")
endforeach()
if(NOT clink_h MATCHES "#define CLINK_VERSION_STRING +\"([^\"]*)\"")
  message(FATAL_ERROR "include/clink/clink.h: no CLINK_VERSION_STRING")
endif()
set(clink_h_STRING "${CMAKE_MATCH_1}")
if(NOT "${clink_h_MAJOR}.${clink_h_MINOR}.${clink_h_PATCH}" STREQUAL PROJECT_VERSION OR
   NOT clink_h_STRING STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "include/clink/clink.h says ${clink_h_MAJOR}.${clink_h_MINOR}."
    "${clink_h_PATCH} (\"${clink_h_STRING}\") but VERSION says ${PROJECT_VERSION}: "
    "run scripts/set-version ${PROJECT_VERSION} (docs/releases.md)")
endif()
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(CLINK_SOVERSION "0.${PROJECT_VERSION_MINOR}")
else()
  set(CLINK_SOVERSION "${PROJECT_VERSION_MAJOR}")
endif()
