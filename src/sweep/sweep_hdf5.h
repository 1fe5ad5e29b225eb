/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_hdf5.h: DIR/sweep.h5, the HDF5 form of the sweep's table (docs/sweeps.md),
 * written by the sweep module (sweep_table.c) beside sweep.csv from the same rows.
 */
#ifndef CLINK_SWEEP_HDF5_H
#define CLINK_SWEEP_HDF5_H

#include <stddef.h>

/* how a column of the table is stored */
typedef enum sweep_h5_kind {
    SWEEP_H5_INT,    /* int64 (the case index) */
    SWEEP_H5_DOUBLE, /* float64; an empty field is NaN */
    SWEEP_H5_STRING, /* variable-length UTF-8 */
    SWEEP_H5_PARAM   /* float64 when every field reads whole as a number, else strings */
} sweep_h5_kind;

typedef struct sweep_h5_column {
    const char *name; /* the CSV header's name */
    sweep_h5_kind kind;
    const char *unit;        /* "" when none is known */
    const char *description; /* what the column holds */
} sweep_h5_column;

/*
 * Writes path from the table's rows (CSV lines with their newlines, ncols fields each,
 * NULL rows skipped), one dataset per column in the order given, with the attributes
 * "column", "units", "description"; on the file, "columns" (the names in order) and
 * "specification" (spec_text). Written to path.tmp (output/h5_file.h), fsync'd, renamed;
 * on failure path.tmp is removed. 0, or -1 with "PATH: what: reason" in err. Whether the
 * library can write it at all: output_h5_file_available().
 */
int sweep_h5_write(const char *path, const sweep_h5_column *cols, int ncols, char *const *rows,
                   long nrows, const char *spec_text, char *err, size_t err_size);

#endif
