/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_internal.h: what the recorder (output.c) hands to its HDF5 writer
 * (output_hdf5.c): the columns of the time series, each with its dataset, and the
 * impact log.
 */
#ifndef CLINK_OUTPUT_INTERNAL_H
#define CLINK_OUTPUT_INTERNAL_H

#include "clink/output.h"

#include <stddef.h>

/* the datasets of results.h5, in the order of the CSV's columns */
enum {
    OUT_DS_TIME,
    OUT_DS_Q,
    OUT_DS_V,
    OUT_DS_A,
    OUT_DS_REACTIONS,
    OUT_DS_DRIVERS,
    OUT_DS_DELTA,
    OUT_DS_DELTA_DOT,
    OUT_DS_FN,
    OUT_DS_FT,
    OUT_DS_PHASE,
    OUT_DS_ECC,
    OUT_DS_ENERGIES,
    OUT_DS_VIOLATION,
    OUT_DS_KIND,
    OUT_DS_COUNT
};

/* one column of the time series: "NAME.QUANTITY" and its unit, the dataset it goes to */
typedef struct out_column {
    char name[CLINK_NAME_MAX + 32];
    const char *unit;
    int ds;
} out_column;

/* one dataset: its path in the file, what it holds; 1-D when it has a single column that is
   the time or the row kind */
typedef struct out_dataset {
    const char *path;
    const char *description;
} out_dataset;

extern const out_dataset output_datasets[OUT_DS_COUNT];

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

/*
 * Writes the buffered rows, the impact log (records with their contacts' names) and the
 * summary (JSON text, also its status and model as attributes), then closes the file.
 * 0, or -1 with the reason in err. The handle is released either way.
 */
int output_h5_finish(out_h5 *h, const clink_impact_record *imp, const char *const *names, int nimp,
                     const char *summary_json, char *err, size_t err_size);

/* releases the handle without finishing (the file is left as it is) */
void output_h5_abandon(out_h5 *h);

#endif
