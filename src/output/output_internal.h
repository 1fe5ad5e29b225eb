/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_internal.h: what the recorder (output.c) hands to its writers (output_writer.h):
 * the columns of the time series, each with its quantity (the dataset of results.h5 it
 * goes to, output_datasets[]).
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
    OUT_DS_JOINT_FRICTION,
    OUT_DS_DELTA,
    OUT_DS_DELTA_DOT,
    OUT_DS_FN,
    OUT_DS_FT,
    OUT_DS_PHASE,
    OUT_DS_ECC,
    OUT_DS_FZ,
    OUT_DS_ENERGIES,
    OUT_DS_VIOLATION,
    OUT_DS_KIND,
    OUT_DS_ELEMENTS,
    OUT_DS_BEAMS,
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

/* the Poincare table (output_sections.c): rows x ncols values, row after row, and the
   names of the sections its first column numbers */
typedef struct out_section_table {
    const out_column *cols;
    int ncols;
    const double *data;
    long rows;
    const char *const *names;
    int nsections;
} out_section_table;

#endif
