# SPDX-License-Identifier: BSD-3-Clause
# HDF5 output (clink run --format hdf5, docs/outputs.md): the serial HDF5 C library
# of Debian's libhdf5-dev, used when it is found. Without it clink builds and runs
# as before; asking for HDF5 output then says which package to install.
# Sets CLINK_HAVE_HDF5 and CLINK_PC_HDF5 (the linker flags for clink.pc: HDF5, -pthread).
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
    target_link_libraries(clink_deps INTERFACE ${CLINK_HDF5_LIBRARY})
    foreach(lib ${CLINK_HDF5_LIBRARY})
      string(APPEND CLINK_PC_HDF5 " ${lib}")
    endforeach()
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
    message(STATUS "clink: HDF5 ${HDF5_VERSION} (${CLINK_HDF5_LIBRARY}): --format hdf5 available")
  endif()
endif()
if(NOT CLINK_HAVE_HDF5)
  message(STATUS "clink: HDF5 not used: --format hdf5 unavailable "
                 "(apt-get install libhdf5-dev, then configure again)")
endif()
