/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_writer.h: the formats of the run outputs behind one table. The recorder
 * (output.c) samples the rows, keeps the maxima and writes summary.json; a writer puts the
 * time series and the impact log into the files of its format. Each format is one file
 * (output_csv.c, output_hdf5.c) defining an out_writer_ops, and one row of
 * output_writers[] (output_writers.c); docs/development.md, "Add an output format".
 *
 * What the recorder does around the writer: it removes every format's files (the names in
 * each table row) before a run, gives the writer its files' temporary names
 * ("NAME.incomplete") and final names (for messages), and after finish renames them in
 * the order of the row's names, summary.json last; it removes the temporaries of a run
 * that did not finish. A writer never renames or removes.
 *
 * Errors: every operation that can fail returns 0, or -1 with "FINAL-NAME: what: reason"
 * in err (the recorder reports it as CLINK_ERR_IO); the writer stays valid for abort.
 */
#ifndef CLINK_OUTPUT_WRITER_H
#define CLINK_OUTPUT_WRITER_H

#include "output/output_internal.h"

#include <stddef.h>

/* files a format may write (summary.json, the recorder's, not counted) */
enum { OUTPUT_WRITER_FILES_MAX = 3 };

/* what a writer is opened with */
typedef struct out_writer_setup {
    const char *const *tmp;   /* the format's files at their temporary names, in files order */
    const char *const *shown; /* the same at their final names: messages name these */
    const out_column *cols;   /* the columns of the time series, in order */
    int ncols;
} out_writer_setup;

typedef struct out_writer_ops {
    clink_output_format format; /* the public enum value */
    const char *name;           /* summary.json's "output_format", the CLI's --format */
    const char *files[OUTPUT_WRITER_FILES_MAX + 1]; /* its files, NULL-terminated */
    /* nonzero when this build can write the format; else unavailable says what to do */
    int (*available)(void);
    const char *unavailable;
    /* creates the files (which do not exist) and writes what precedes the rows (headers,
       column names, datasets); the writer, or NULL with err set */
    void *(*open)(const out_writer_setup *s, char *err, size_t err_size);
    /* optional (NULL: none): a failure the writer already knows, reported before a row
       is sampled; 0 or -1 */
    int (*check)(void *w, char *err, size_t err_size);
    /* appends one row of ncols values (it may be buffered, its failure shown later) */
    int (*row)(void *w, const double *row, char *err, size_t err_size);
    /* appends one record of the impact log; contact is its contact's name */
    int (*impact)(void *w, const clink_impact_record *rec, const char *contact, char *err,
                  size_t err_size);
    /* writes what is buffered and what the format keeps of the summary (summary_json: the
       text of summary.json, a C string), then closes the files under their temporary
       names; 0 only when every file is complete. w is released either way. */
    int (*finish)(void *w, const char *summary_json, char *err, size_t err_size);
    /* releases w without finishing (the recorder removes the files); NULL accepted */
    void (*abort)(void *w);
    /* optional: writes the Poincare table, before finish, in a run with sections; 0 or -1 */
    int (*sections)(void *w, const out_section_table *t, char *err, size_t err_size);
    /* the name among files of the table's own file, written only in a run with sections
       (NULL: the table goes into another file) */
    const char *sections_file;
} out_writer_ops;

/* the formats, one file each */
extern const out_writer_ops output_csv_writer;
extern const out_writer_ops output_hdf5_writer;

/* the table: every format, NULL-terminated; the order in which files are removed */
extern const out_writer_ops *const output_writers[];

/* the row of format, NULL when there is none */
const out_writer_ops *output_writer_find(clink_output_format format);

#endif
