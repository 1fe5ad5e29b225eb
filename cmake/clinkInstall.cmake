# SPDX-License-Identifier: BSD-3-Clause
# Install rules: libraries, public headers, data (schema, models), the clink
# command, pkg-config files and a CMake package config, so that an external
# program finds clink with `find_package(clink)` or `pkg-config clink` (shared
# library) / `pkg-config clink-static` (static archive), from any prefix
# (docs/api.md, "Building against an installed clink").
include(CMakePackageConfigHelpers)

# installed programs find libraries of their own prefix without LD_LIBRARY_PATH
foreach(t clink clink-sweep-mpi)
  if(TARGET ${t})
    set_target_properties(${t} PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  endif()
endforeach()

install(TARGETS clink_shared clink_static clink_deps EXPORT clinkTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS clink RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/clink DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# the man pages clink(1), clink-CMD(1) and the bash completion, written by the built clink from
# the tables its --help lists (src/cli/cli_man.c)
if(NOT CMAKE_CROSSCOMPILING)
  set(CLINK_MAN_DIR "${CMAKE_CURRENT_BINARY_DIR}/man/man1")
  set(CLINK_COMPLETION "${CMAKE_CURRENT_BINARY_DIR}/completion/clink")
  add_custom_command(OUTPUT "${CLINK_MAN_DIR}/clink.1" "${CLINK_COMPLETION}"
    COMMAND ${CMAKE_COMMAND} -E remove_directory "${CLINK_MAN_DIR}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${CLINK_MAN_DIR}"
            "${CMAKE_CURRENT_BINARY_DIR}/completion"
    COMMAND clink help --man-pages "${CLINK_MAN_DIR}"
    COMMAND clink help --completion "${CLINK_COMPLETION}"
    DEPENDS clink COMMENT "Writing the man pages and the bash completion of clink" VERBATIM)
  add_custom_target(clink_man_pages ALL DEPENDS "${CLINK_MAN_DIR}/clink.1" "${CLINK_COMPLETION}")
  install(DIRECTORY "${CLINK_MAN_DIR}/" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          FILES_MATCHING PATTERN "*.1")
  install(FILES "${CLINK_COMPLETION}" DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
endif()
if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/share")
  install(DIRECTORY share/ DESTINATION ${CMAKE_INSTALL_DATADIR}/clink)
endif()
# the example mechanisms (DATADIR/clink/models: `clink run /usr/share/clink/models/NAME.xml`
# after the Debian package), the licence and the release notes
install(DIRECTORY models/ DESTINATION ${CMAKE_INSTALL_DATADIR}/clink/models
        FILES_MATCHING PATTERN "*.xml")
install(FILES LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

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

# ---- pkg-config --------------------------------------------------------------
# The libraries libclink needs, as linker flags for the .pc files: a library
# file in a directory the linker searches by itself becomes -lNAME, one
# elsewhere -LDIR -lNAME, unless it is a link to a library of a searched
# directory (Debian's hdf5/serial/libhdf5.so -> libhdf5_serial.so); flags
# (-pthread) stay as they are. No include path of a dependency goes into
# Cflags: the public headers include only the C library's.
function(clink_pc_flag lib out)
  set(flag "${lib}")
  if(IS_ABSOLUTE "${lib}")
    get_filename_component(dir "${lib}" DIRECTORY)
    get_filename_component(file "${lib}" NAME)
    if(IS_SYMLINK "${lib}")
      file(READ_SYMLINK "${lib}" target)
      if(NOT IS_ABSOLUTE "${target}")
        set(target "${dir}/${target}")
      endif()
      get_filename_component(tdir "${target}" ABSOLUTE)
      get_filename_component(tfile "${tdir}" NAME)
      get_filename_component(tdir "${tdir}" DIRECTORY)
      if(tdir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES AND tfile MATCHES "^lib.*\\.(so|a)$")
        set(dir "${tdir}")
        set(file "${tfile}")
      endif()
    endif()
    if(file MATCHES "^lib(.*)\\.(so|a)(\\..*)?$")
      set(flag "-l${CMAKE_MATCH_1}")
      if(NOT dir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
        set(flag "-L${dir} ${flag}")
      endif()
    endif()
  elseif(NOT lib MATCHES "^-")
    set(flag "-l${lib}")
  endif()
  set(${out} "${flag}" PARENT_SCOPE)
endfunction()

# the SUNDIALS targets' files, KLU and its helpers, libxml2, HDF5 (cmake/clinkHdf5.cmake)
set(clink_pc_libs)
# (SUNDIALS 7.x: also its core and fixed-point libraries, CLINK_SUNDIALS_EXTRA)
foreach(target SUNDIALS::cvode_shared SUNDIALS::nvecserial_shared
        SUNDIALS::sunmatrixsparse_shared SUNDIALS::sunlinsolklu_shared ${CLINK_SUNDIALS_EXTRA})
  get_target_property(loc ${target} LOCATION)
  list(APPEND clink_pc_libs "${loc}")
endforeach()
list(APPEND clink_pc_libs ${KLU_LIBRARY} ${BTF_LIBRARY} ${AMD_LIBRARY} ${COLAMD_LIBRARY}
     ${SUITESPARSECONFIG_LIBRARY} ${LIBXML2_LIBRARIES} ${LAPACK_LIBRARIES})
if(CLINK_HAVE_HDF5)
  # HDF5 itself is loaded at run time (cmake/clinkHdf5.cmake): dlopen's library and threads
  separate_arguments(clink_pc_hdf5 UNIX_COMMAND "${CLINK_PC_HDF5}")
  list(APPEND clink_pc_libs ${clink_pc_hdf5})
endif()
list(APPEND clink_pc_libs m)
set(CLINK_PC_PRIVATE "")
foreach(lib ${clink_pc_libs})
  clink_pc_flag("${lib}" flag)
  string(FIND " ${CLINK_PC_PRIVATE} " " ${flag} " seen)
  if(seen EQUAL -1)
    string(APPEND CLINK_PC_PRIVATE " ${flag}")
  endif()
endforeach()
string(STRIP "${CLINK_PC_PRIVATE}" CLINK_PC_PRIVATE)

file(RELATIVE_PATH CLINK_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
# clink.pc: the shared library (its dependencies only for `pkg-config --static`)
set(CLINK_PC_NAME clink)
set(CLINK_PC_LIBS "-L\${libdir} -lclink")
set(CLINK_PC_LIBS_PRIVATE "${CLINK_PC_PRIVATE}")
configure_file(cmake/clink.pc.in "${CMAKE_CURRENT_BINARY_DIR}/clink.pc" @ONLY)
# clink-static.pc: the archive by its path (never the .so next to it) and every dependency
set(CLINK_PC_NAME clink-static)
set(CLINK_PC_LIBS "\${libdir}/libclink.a ${CLINK_PC_PRIVATE}")
set(CLINK_PC_LIBS_PRIVATE "")
configure_file(cmake/clink.pc.in "${CMAKE_CURRENT_BINARY_DIR}/clink-static.pc" @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/clink.pc" "${CMAKE_CURRENT_BINARY_DIR}/clink-static.pc"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
