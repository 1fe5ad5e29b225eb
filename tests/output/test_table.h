/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_table.h: a CSV file of a run read back for the output tests (test_output_rows.c,
 * test_output_beam.c): the header's names, the numbers of every row and each row's text.
 */
#ifndef CLINK_TESTS_OUTPUT_TEST_TABLE_H
#define CLINK_TESTS_OUTPUT_TEST_TABLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef struct table {
    char **names;
    int ncols;
    double *v;    /* nrows x ncols */
    char **lines; /* each row's text (without its last field when read so) */
    int nrows;
} table;

static inline void table_free(table *t)
{
    for (int i = 0; i < t->ncols; i++)
        free(t->names[i]);
    for (int i = 0; i < t->nrows; i++)
        free(t->lines[i]);
    free(t->names);
    free(t->lines);
    free(t->v);
    memset(t, 0, sizeof *t);
}

/* reads dir/name: numbers after the header, except column text_col (kept as 0); with
   drop_last the rows' text without their last field (the row kind of timeseries.csv) */
static inline int table_read(const char *dir, const char *name, int text_col, int drop_last,
                             table *t)
{
    char path[512], *line = NULL;
    size_t cap = 0;
    int cap_rows = 1024;
    memset(t, 0, sizeof *t);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    if (getline(&line, &cap, f) <= 0) {
        free(line);
        fclose(f);
        return -1;
    }
    line[strcspn(line, "\n")] = '\0';
    t->names = calloc(strlen(line) + 2, sizeof *t->names);
    for (char *p = strtok(line, ","); p != NULL; p = strtok(NULL, ","))
        t->names[t->ncols++] = strdup(p);
    t->v = malloc((size_t) cap_rows * (size_t) t->ncols * sizeof *t->v);
    t->lines = malloc((size_t) cap_rows * sizeof *t->lines);
    while (getline(&line, &cap, f) > 0) {
        char *p = line, *end;
        if (t->nrows == cap_rows) {
            cap_rows *= 2;
            t->v = realloc(t->v, (size_t) cap_rows * (size_t) t->ncols * sizeof *t->v);
            t->lines = realloc(t->lines, (size_t) cap_rows * sizeof *t->lines);
        }
        line[strcspn(line, "\n")] = '\0';
        t->lines[t->nrows] = strdup(line);
        if (drop_last && strrchr(t->lines[t->nrows], ',') != NULL)
            *strrchr(t->lines[t->nrows], ',') = '\0';
        for (int i = 0; i < t->ncols; i++) {
            double x = 0;
            if (i == text_col)
                end = p + strcspn(p, ",");
            else
                x = strtod(p, &end);
            t->v[(size_t) t->nrows * (size_t) t->ncols + (size_t) i] = x;
            p = *end == ',' ? end + 1 : end;
        }
        t->nrows++;
    }
    free(line);
    fclose(f);
    return 0;
}

static inline int table_col(const table *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->names[i], name) == 0)
            return i;
    return -1;
}

static inline double table_at(const table *t, int row, int col)
{
    return t->v[(size_t) row * (size_t) t->ncols + (size_t) col];
}

#endif
