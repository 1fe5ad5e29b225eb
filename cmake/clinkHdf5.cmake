# SPDX-License-Identifier: BSD-3-Clause
# HDF5 output (clink run --format hdf5, docs/outputs.md): the serial HDF5 C library
# of Debian's libhdf5-dev, used when it is found. Without it clink builds and runs
# as before; asking for HDF5 output then says which package to install.
# The library is compiled against HDF5's headers but not linked with it: the first HDF5
# file a process writes loads it with dlopen (src/output/hdf5_load.c), by the SONAME of
# the library found here (CLINK_HDF5_SONAME, then its path CLINK_HDF5_PATH), so that
# programs that write no HDF5 do not map its chain of libraries at start.
# Sets CLINK_HAVE_HDF5, CLINK_HDF5_LIBRARY (the library found: the tests that read HDF5
# files link it) and CLINK_PC_HDF5 (the linker flags for clink.pc: -ldl when dlopen is not
# in the C library, -pthread).
# the SONAME of the shared library lib (objdump -p), and the path of the file it names
# (symbolic links followed); the file's name when objdump gives no SONAME
function(clink_hdf5_soname lib soname_out path_out)
  get_filename_component(real "${lib}" REALPATH)
  get_filename_component(soname "${real}" NAME)
  if(CMAKE_OBJDUMP)
    execute_process(COMMAND "${CMAKE_OBJDUMP}" -p "${real}" OUTPUT_VARIABLE dump
                    RESULT_VARIABLE rc ERROR_QUIET)
    if(rc EQUAL 0 AND dump MATCHES "SONAME +([^ \n]+)")
      set(soname "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${soname_out} "${soname}" PARENT_SCOPE)
  set(${path_out} "${real}" PARENT_SCOPE)
endfunction()

option(CLINK_HDF5 "Write HDF5 output when the HDF5 C library (libhdf5-dev) is found" ON)
set(CLINK_HAVE_HDF5 OFF)
set(CLINK_PC_HDF5 "")
if(CLINK_HDF5)
  set(HDF5_PREFER_PARALLEL FALSE)
  find_package(HDF5 COMPONENTS C QUIET)
  if(HDF5_FOUND AND NOT HDF5_IS_PARALLEL)
    set(CLINK_HAVE_HDF5 ON)
    target_compile_definitions(clink_objects PRIVATE CLINK_HAVE_HDF5=1)
    target_include_directories(clink_objects SYSTEM PRIVATE ${HDF5_C_INCLUDE_DIRS})
    # the HDF5 library alone: FindHDF5 also lists what libhdf5.so already brings (zlib,
    # curl, static stubs of libpthread and libdl)
    set(CLINK_HDF5_LIBRARY "")
    foreach(lib ${HDF5_C_LIBRARIES})
      if(lib MATCHES "/libhdf5[^/]*\\.so$" AND NOT CLINK_HDF5_LIBRARY)
        set(CLINK_HDF5_LIBRARY "${lib}")
      endif()
    endforeach()
    if(NOT CLINK_HDF5_LIBRARY)
      set(CLINK_HDF5_LIBRARY ${HDF5_C_LIBRARIES})
    endif()
    clink_hdf5_soname("${CLINK_HDF5_LIBRARY}" CLINK_HDF5_SONAME CLINK_HDF5_PATH)
    set_property(SOURCE "${CMAKE_CURRENT_SOURCE_DIR}/src/output/hdf5_load.c"
                 TARGET_DIRECTORY clink_objects APPEND PROPERTY COMPILE_DEFINITIONS
                 "CLINK_HDF5_SONAME=\"${CLINK_HDF5_SONAME}\"" "CLINK_HDF5_PATH=\"${CLINK_HDF5_PATH}\"")
    # dlopen: in the C library since glibc 2.34, else libdl
    include(CheckSymbolExists)
    set(CMAKE_REQUIRED_QUIET ON)
    check_symbol_exists(dlopen "dlfcn.h" CLINK_DLOPEN_IN_LIBC)
    unset(CMAKE_REQUIRED_QUIET)
    if(NOT CLINK_DLOPEN_IN_LIBC AND CMAKE_DL_LIBS)
      target_link_libraries(clink_deps INTERFACE ${CMAKE_DL_LIBS})
      string(APPEND CLINK_PC_HDF5 " -l${CMAKE_DL_LIBS}")
    endif()
    # the HDF5 writer thread of src/output/output_queue.c (POSIX threads): compiled with
    # -pthread, and the flag (a plain string, so that the exported clink::deps needs no
    # Threads package) on the link line of the library's users and in clink.pc
    set(THREADS_PREFER_PTHREAD_FLAG ON)
    find_package(Threads REQUIRED)
    target_link_libraries(clink_objects PRIVATE Threads::Threads)
    if(CMAKE_THREAD_LIBS_INIT)
      target_link_libraries(clink_deps INTERFACE ${CMAKE_THREAD_LIBS_INIT})
      string(APPEND CLINK_PC_HDF5 " ${CMAKE_THREAD_LIBS_INIT}")
    endif()
    message(STATUS "clink: HDF5 ${HDF5_VERSION} (${CLINK_HDF5_LIBRARY}, loaded on first use as "
                   "${CLINK_HDF5_SONAME}): --format hdf5 available")
  endif()
endif()
if(NOT CLINK_HAVE_HDF5)
  message(STATUS "clink: HDF5 not used: --format hdf5 unavailable "
                 "(apt-get install libhdf5-dev, then configure again)")
endif()
