/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_hdf5.h: the HDF5 writer of the run outputs (output_hdf5.c), results.h5: the
 * functions behind its row of the format table (output_hdf5_writer), which
 * tests/output/test_output_hdf5.c also calls directly.
 */
#ifndef CLINK_OUTPUT_HDF5_H
#define CLINK_OUTPUT_HDF5_H

#include "output/output_internal.h"

#include <stddef.h>

typedef struct out_h5 out_h5;

/* nonzero when the library was built with HDF5 */
int output_h5_available(void);

/*
 * Creates path (which must not exist) with one chunked, compressed, extendible dataset
 * per quantity that has columns. NULL with the reason in err, which names the file as
 * shown (its final name).
 */
out_h5 *output_h5_create(const char *path, const char *shown, const out_column *cols, int ncols,
                         char *err, size_t err_size);

/* appends one row (ncols values in column order); 0, or -1 with the reason in err */
int output_h5_row(out_h5 *h, const double *row, char *err, size_t err_size);

/* keeps one record of the impact log with its contact's name (written by finish); 0 or -1 */
int output_h5_impact(out_h5 *h, const clink_impact_record *rec, const char *contact, char *err,
                     size_t err_size);

/*
 * Writes the buffered rows, the impact log and the summary (JSON text, a scalar string
 * dataset), then closes the file. 0, or -1 with the reason in err. The handle is released
 * either way.
 */
int output_h5_finish(out_h5 *h, const char *summary_json, char *err, size_t err_size);

/* keeps a copy of the Poincare table, written as the dataset "poincare" by finish; 0 or -1 */
int output_h5_sections(out_h5 *h, const out_section_table *t, char *err, size_t err_size);

/* releases the handle without finishing (the file is left as it is); accepts NULL */
void output_h5_abandon(out_h5 *h);

#endif
