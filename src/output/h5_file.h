/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * h5_file.h: the failure-safe way clink writes an HDF5 file, for every module that writes
 * one (results.h5 of a run, output/output_hdf5.c; the sweep's table, sweep.h5). Everything
 * but output_h5_file_available only with CLINK_HAVE_HDF5 (the includer is compiled with
 * HDF5's headers).
 *
 * Contract:
 *   - output_h5_file_create opens the file through clink's own POSIX file driver (the
 *     layout of HDF5's default sec2 driver, so the bytes are the same). After a write or a
 *     truncation has failed (a full disk, a file size limit), or once the caller has given
 *     the file up, the driver drops every later write and reports success, so that
 *     output_h5_file_close always closes the file: HDF5 1.10 (Debian 12 ships 1.10.8)
 *     frees a file whose closing failed yet keeps its identifier, and its exit-time
 *     cleanup closes it again, a crash after the run had reported its error (fixed in
 *     HDF5 1.14.1). The first failure is kept and reported by the close: a file that
 *     closed with 0 holds everything written to it.
 *   - Write to a temporary name and give the file its name only when it closed with 0
 *     (output_h5_file_commit, or the caller's own rename when several files are renamed
 *     together, as the run recorder does); on failure remove the temporary.
 *   - HDF5 prints its errors unless told not to: wrap the calls in output_h5_file_quiet
 *     and output_h5_file_loud, on the thread that makes them.
 *   - Every dataset, attribute and file close is checked (output_h5_file_column,
 *     output_h5_file_attr_strings and output_h5_file_close report a failing close).
 *   - Functions return 0, or -1 with errno set to the system's reason when there was one
 *     (0 when HDF5 failed on its own); the caller words the message and names the file.
 *   - HDF5 is loaded on first use (hdf5_load.h): call output_h5_load first, for the
 *     message when it cannot be (output_h5_file_create then fails with ELIBACC), and
 *     include output/hdf5_load.h last in a file that calls HDF5 itself.
 *
 * Use:
 *   output_h5_quiet q;  output_h5_file f;
 *   output_h5_file_quiet(&q);
 *   if (output_h5_file_create(&f, "DIR/x.h5.tmp", 1) != 0) -> "cannot create", errno
 *   ... datasets in f.id (output_h5_file_column, output_h5_file_attr_strings) ...
 *   rc = output_h5_file_close(&f, rc != 0);         give up (rc != 0): nothing more written
 *   output_h5_file_loud(&q);
 *   rc == 0 ? output_h5_file_commit("DIR/x.h5.tmp", "DIR/x.h5") : remove("DIR/x.h5.tmp");
 */
#ifndef CLINK_OUTPUT_H5_FILE_H
#define CLINK_OUTPUT_H5_FILE_H

/* nonzero when the library was built with HDF5 (the rest of this header is there only then;
   whether the library can be loaded is output_h5_load's) */
int output_h5_file_available(void);

#ifdef CLINK_HAVE_HDF5

#include <hdf5.h>

/* HDF5's error printing as it was before output_h5_file_quiet */
typedef struct output_h5_quiet {
    H5E_auto2_t fn;
    void *data;
} output_h5_quiet;

/* an HDF5 file open through the failure-safe driver */
typedef struct output_h5_file {
    hid_t id;      /* the file (-1: none); create datasets and attributes in it */
    hid_t driver;  /* the driver, registered for this file (-1: none); private */
    int close_err; /* close(2)'s errno when the driver closed the file (0: none); private */
} output_h5_file;

/* HDF5's error printing off on this thread; what it was kept in saved */
void output_h5_file_quiet(output_h5_quiet *saved);

/* HDF5's error printing back as saved */
void output_h5_file_loud(const output_h5_quiet *saved);

/*
 * Creates path through the driver. replace 0: path must not exist (O_EXCL); 1: an existing
 * file is truncated. 0, or -1 with errno (f->id is -1 and nothing is left to close).
 */
int output_h5_file_create(output_h5_file *f, const char *path, int replace);

/*
 * Closes f (nothing when f->id is -1) and unregisters its driver. give_up: the file will
 * be removed, nothing more is written to it and the result is 0 unless HDF5 fails. Else 0
 * only when the file is complete: -1 with errno when HDF5's flush or close failed, when the
 * driver failed a write or truncation at any time (even one HDF5 did not pass on), or when
 * close(2) failed.
 */
int output_h5_file_close(output_h5_file *f, int give_up);

/* tmp (closed with 0) fsync'd and renamed to path; 0, or -1 with errno (tmp left) */
int output_h5_file_commit(const char *tmp, const char *path);

/* a variable-length UTF-8 string type; the caller closes it; -1 when HDF5 fails */
hid_t output_h5_file_string_type(void);

/* attribute name of obj = n strings (n 0: the scalar string s[0]); closed; 0 or -1 */
int output_h5_file_attr_strings(hid_t obj, const char *name, const char *const *s, hsize_t n);

/*
 * The 1-D dataset name in loc of the n values at data (memory type mt, stored as ft),
 * creation properties dcpl (H5P_DEFAULT: contiguous), extendible (maximum size unlimited;
 * dcpl must then be chunked) or of fixed size, with the scalar string attributes
 * attrs[0] = attrs[1], attrs[2] = attrs[3], ... (NULL-terminated, in that order); closed.
 * 0 or -1.
 */
int output_h5_file_column(hid_t loc, const char *name, hid_t ft, hid_t mt, hid_t dcpl,
                          int extendible, const void *data, hsize_t n, const char *const *attrs);

#endif /* CLINK_HAVE_HDF5 */

#endif
