/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hdf5_load.h: the HDF5 C library loaded at run time (dlopen) on the first use, so that
 * a program that never writes HDF5 (a CSV run, the FMU, Python's runs without --format
 * hdf5) does not map libhdf5 and its chain (curl, ssl, ldap, ...) at start. Only with
 * CLINK_HAVE_HDF5: the includer is compiled with HDF5's headers (libhdf5-dev).
 *
 * Include this header, after every other, in a .c file that calls HDF5: it includes
 * <hdf5.h> and then makes each HDF5 function and global identifier clink calls
 * (H5Fcreate, ..., H5T_NATIVE_DOUBLE_g behind H5T_NATIVE_DOUBLE) a macro over the table
 * output_h5_api() returns. Call output_h5_load() before the first HDF5 call of a file's
 * entry point; the table is filled once per process and only read afterwards, so any
 * thread may call HDF5 through it once a thread has loaded it (the writer thread is
 * started after). A function of HDF5 used in a new place is added to OUTPUT_H5_FUNCTIONS
 * (or OUTPUT_H5_VARIABLES) and given its macro below.
 */
#ifndef CLINK_OUTPUT_HDF5_LOAD_H
#define CLINK_OUTPUT_HDF5_LOAD_H

#ifdef CLINK_HAVE_HDF5

#include <hdf5.h>
#include <stddef.h>

/* the functions of HDF5 clink calls (X(name) each) */
#define OUTPUT_H5_FUNCTIONS(X)                                                                     \
    X(H5open)                                                                                      \
    X(H5get_libversion)                                                                            \
    X(H5check_version)                                                                             \
    X(H5Aclose)                                                                                    \
    X(H5Acreate2)                                                                                  \
    X(H5Awrite)                                                                                    \
    X(H5Dclose)                                                                                    \
    X(H5Dcreate2)                                                                                  \
    X(H5Dget_space)                                                                                \
    X(H5Dset_extent)                                                                               \
    X(H5Dwrite)                                                                                    \
    X(H5Eget_auto2)                                                                                \
    X(H5Eset_auto2)                                                                                \
    X(H5FDregister)                                                                                \
    X(H5FDunregister)                                                                              \
    X(H5Fclose)                                                                                    \
    X(H5Fcreate)                                                                                   \
    X(H5Fflush)                                                                                    \
    X(H5Fget_vfd_handle)                                                                           \
    X(H5Gclose)                                                                                    \
    X(H5Gcreate2)                                                                                  \
    X(H5Iinc_ref)                                                                                  \
    X(H5Iis_valid)                                                                                 \
    X(H5Pclose)                                                                                    \
    X(H5Pcreate)                                                                                   \
    X(H5Pset_chunk)                                                                                \
    X(H5Pset_chunk_cache)                                                                          \
    X(H5Pset_deflate)                                                                              \
    X(H5Pset_driver)                                                                               \
    X(H5Pset_obj_track_times)                                                                      \
    X(H5Pset_shuffle)                                                                              \
    X(H5Sclose)                                                                                    \
    X(H5Screate)                                                                                   \
    X(H5Screate_simple)                                                                            \
    X(H5Sselect_hyperslab)                                                                         \
    X(H5Tclose)                                                                                    \
    X(H5Tcopy)                                                                                     \
    X(H5Tset_cset)                                                                                 \
    X(H5Tset_size)                                                                                 \
    X(H5Zfilter_avail)

/* the global identifiers (set by H5open) behind HDF5's type and class macros */
#define OUTPUT_H5_VARIABLES(X)                                                                     \
    X(H5P_CLS_DATASET_ACCESS_ID_g)                                                                 \
    X(H5P_CLS_DATASET_CREATE_ID_g)                                                                 \
    X(H5P_CLS_FILE_ACCESS_ID_g)                                                                    \
    X(H5T_C_S1_g)                                                                                  \
    X(H5T_IEEE_F64LE_g)                                                                            \
    X(H5T_NATIVE_DOUBLE_g)                                                                         \
    X(H5T_NATIVE_INT64_g)                                                                          \
    X(H5T_NATIVE_INT_g)                                                                            \
    X(H5T_STD_I32LE_g)                                                                             \
    X(H5T_STD_I64LE_g)                                                                             \
    X(H5T_STD_I8LE_g)

/* the table: p_NAME points to HDF5's NAME (a function, or the variable) */
#define OUTPUT_H5_FN_FIELD(name)  __typeof__(&name) p_##name;
#define OUTPUT_H5_VAR_FIELD(name) __typeof__(name) *p_##name;
typedef struct output_h5_table {
    OUTPUT_H5_FUNCTIONS(OUTPUT_H5_FN_FIELD)
    OUTPUT_H5_VARIABLES(OUTPUT_H5_VAR_FIELD)
} output_h5_table;
#undef OUTPUT_H5_FN_FIELD
#undef OUTPUT_H5_VAR_FIELD

/*
 * Loads HDF5 once per process (later calls return the first call's result): the library
 * named by the environment variable CLINK_HDF5_LIBRARY when it is set, else the SONAME of
 * the library found at build time (libhdf5_serial.so.103 on Debian 12), then that
 * library's path; its functions and variables resolved, its version checked against the
 * headers'. 0, or -1 with err = "cannot load the HDF5 library NAME: dlerror's reason"
 * (err may be NULL).
 */
int output_h5_load(char *err, size_t err_size);

/* the table of a loaded HDF5 (only after output_h5_load returned 0) */
const output_h5_table *output_h5_api(void);

/* HDF5's names from here on go through the table */
#define H5open                      (output_h5_api()->p_H5open)
#define H5get_libversion            (output_h5_api()->p_H5get_libversion)
#define H5check_version             (output_h5_api()->p_H5check_version)
#define H5Aclose                    (output_h5_api()->p_H5Aclose)
#define H5Acreate2                  (output_h5_api()->p_H5Acreate2)
#define H5Awrite                    (output_h5_api()->p_H5Awrite)
#define H5Dclose                    (output_h5_api()->p_H5Dclose)
#define H5Dcreate2                  (output_h5_api()->p_H5Dcreate2)
#define H5Dget_space                (output_h5_api()->p_H5Dget_space)
#define H5Dset_extent               (output_h5_api()->p_H5Dset_extent)
#define H5Dwrite                    (output_h5_api()->p_H5Dwrite)
#define H5Eget_auto2                (output_h5_api()->p_H5Eget_auto2)
#define H5Eset_auto2                (output_h5_api()->p_H5Eset_auto2)
#define H5FDregister                (output_h5_api()->p_H5FDregister)
#define H5FDunregister              (output_h5_api()->p_H5FDunregister)
#define H5Fclose                    (output_h5_api()->p_H5Fclose)
#define H5Fcreate                   (output_h5_api()->p_H5Fcreate)
#define H5Fflush                    (output_h5_api()->p_H5Fflush)
#define H5Fget_vfd_handle           (output_h5_api()->p_H5Fget_vfd_handle)
#define H5Gclose                    (output_h5_api()->p_H5Gclose)
#define H5Gcreate2                  (output_h5_api()->p_H5Gcreate2)
#define H5Iinc_ref                  (output_h5_api()->p_H5Iinc_ref)
#define H5Iis_valid                 (output_h5_api()->p_H5Iis_valid)
#define H5Pclose                    (output_h5_api()->p_H5Pclose)
#define H5Pcreate                   (output_h5_api()->p_H5Pcreate)
#define H5Pset_chunk                (output_h5_api()->p_H5Pset_chunk)
#define H5Pset_chunk_cache          (output_h5_api()->p_H5Pset_chunk_cache)
#define H5Pset_deflate              (output_h5_api()->p_H5Pset_deflate)
#define H5Pset_driver               (output_h5_api()->p_H5Pset_driver)
#define H5Pset_obj_track_times      (output_h5_api()->p_H5Pset_obj_track_times)
#define H5Pset_shuffle              (output_h5_api()->p_H5Pset_shuffle)
#define H5Sclose                    (output_h5_api()->p_H5Sclose)
#define H5Screate                   (output_h5_api()->p_H5Screate)
#define H5Screate_simple            (output_h5_api()->p_H5Screate_simple)
#define H5Sselect_hyperslab         (output_h5_api()->p_H5Sselect_hyperslab)
#define H5Tclose                    (output_h5_api()->p_H5Tclose)
#define H5Tcopy                     (output_h5_api()->p_H5Tcopy)
#define H5Tset_cset                 (output_h5_api()->p_H5Tset_cset)
#define H5Tset_size                 (output_h5_api()->p_H5Tset_size)
#define H5Zfilter_avail             (output_h5_api()->p_H5Zfilter_avail)
#define H5P_CLS_DATASET_ACCESS_ID_g (*output_h5_api()->p_H5P_CLS_DATASET_ACCESS_ID_g)
#define H5P_CLS_DATASET_CREATE_ID_g (*output_h5_api()->p_H5P_CLS_DATASET_CREATE_ID_g)
#define H5P_CLS_FILE_ACCESS_ID_g    (*output_h5_api()->p_H5P_CLS_FILE_ACCESS_ID_g)
#define H5T_C_S1_g                  (*output_h5_api()->p_H5T_C_S1_g)
#define H5T_IEEE_F64LE_g            (*output_h5_api()->p_H5T_IEEE_F64LE_g)
#define H5T_NATIVE_DOUBLE_g         (*output_h5_api()->p_H5T_NATIVE_DOUBLE_g)
#define H5T_NATIVE_INT64_g          (*output_h5_api()->p_H5T_NATIVE_INT64_g)
#define H5T_NATIVE_INT_g            (*output_h5_api()->p_H5T_NATIVE_INT_g)
#define H5T_STD_I32LE_g             (*output_h5_api()->p_H5T_STD_I32LE_g)
#define H5T_STD_I64LE_g             (*output_h5_api()->p_H5T_STD_I64LE_g)
#define H5T_STD_I8LE_g              (*output_h5_api()->p_H5T_STD_I8LE_g)

#endif /* CLINK_HAVE_HDF5 */

#endif
