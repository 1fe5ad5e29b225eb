# SPDX-License-Identifier: BSD-3-Clause
# Install rules: libraries, public headers, data (schema, models), the clink
# command, a pkg-config file and a CMake package config, so that an external
# program finds clink with `find_package(clink)` or `pkg-config clink`.
include(CMakePackageConfigHelpers)

install(TARGETS clink_shared clink_static clink_deps EXPORT clinkTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS clink RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/clink DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/share")
  install(DIRECTORY share/ DESTINATION ${CMAKE_INSTALL_DATADIR}/clink)
endif()

install(EXPORT clinkTargets NAMESPACE clink:: FILE clinkTargets.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/clink)
configure_package_config_file(cmake/clinkConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/clinkConfig.cmake"
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/clink)
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/clinkConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/clinkConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/clinkConfigVersion.cmake"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/clink)

file(RELATIVE_PATH CLINK_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(cmake/clink.pc.in "${CMAKE_CURRENT_BINARY_DIR}/clink.pc" @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/clink.pc"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
