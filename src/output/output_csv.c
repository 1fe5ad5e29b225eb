/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_csv.c: the CSV form of a run's outputs (docs/outputs.md) and its row of the
 * format table (output_csv_writer): timeseries.csv, one line per row with a header naming
 * each column with its unit ("NAME.QUANTITY [UNIT]"), and impacts.csv, one line per
 * impact (clink_impact_record). Numbers are the shortest decimals that read back as the
 * same doubles (src/fmt_double.c), so two identical runs give identical bytes. Each
 * file is buffered (output_file.c); the first write error of a file is kept and reported
 * with the file's final name at the next row, or when the files are closed.
 *
 * A value with the same bits as the same column's in the previous row has the same text,
 * copied from the previous line while that line is still in the buffer (no block handed to
 * the C library since) instead of being formatted again: a row whose line can be at most
 * OUTPUT_FILE_BUF bytes gets its room in the buffer at once, and each column's text start
 * is kept (csv_row_reuse). The bytes are those of formatting every value.
 */
#include "output/output_file.h"
#include "output/output_writer.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { CSV_TS = 0, CSV_IMP = 1, CSV_FILES = 2 };

typedef struct csv_writer {
    out_file file[CSV_FILES];
    const char *shown[CSV_FILES];
    const char *sec_tmp, *sec_shown; /* poincare.csv (written by csv_sections alone) */
    int ncols;
    /* the text reuse (NULL: rows too wide for it): the previous row's values' bits, where
       each column's text began in the buffer (off[ncols]: one past the line's end), and the
       buffer's length after that line (0: none) */
    uint64_t *bits;
    size_t *off;
    size_t line_end;
} csv_writer;

/* the longest line of a row: each number with its separator, then the newline */
static size_t csv_line_max(int ncols)
{
    return (size_t) ncols * (OUTPUT_DOUBLE_MAX + 1) + 1;
}

/* err = "FILE: what: reason"; -1 */
static int csv_fail(const csv_writer *c, int i, const char *what, int e, char *err, size_t err_size)
{
    snprintf(err, err_size, "%s: %s: %s", c->shown[i], what, strerror(e));
    return -1;
}

static void csv_free(csv_writer *c)
{
    for (int i = 0; i < CSV_FILES; i++)
        output_file_close(&c->file[i]);
    free(c->bits);
    free(c->off);
    free(c);
}

static void csv_header(csv_writer *c, const out_column *cols, int ncols)
{
    out_file *ts = &c->file[CSV_TS];
    int i;

    for (i = 0; i < ncols; i++) {
        /* "NAME [UNIT]", comma-separated: the pieces copied (the line of output_file_printf,
           which cuts at 1023 bytes, only for a unit too long for that) */
        if (cols[i].unit == NULL || strlen(cols[i].unit) + sizeof cols[i].name + 4 >= 1024) {
            output_file_printf(ts, "%s%s [%s]", i ? "," : "", cols[i].name, cols[i].unit);
            continue;
        }
        if (i)
            output_file_char(ts, ',');
        output_file_str(ts, cols[i].name);
        output_file_bytes(ts, " [", 2);
        output_file_str(ts, cols[i].unit);
        output_file_char(ts, ']');
    }
    output_file_char(ts, '\n');
    output_file_str(&c->file[CSV_IMP],
                    "t [s],pair,v_impact [m/s],v_separation [m/s],restitution [-],delta_max [m],"
                    "F_max [N],duration [s],dissipated [J],lobes [-]\n");
}

/* the two files created with their headers */
static void *csv_open(const out_writer_setup *s, char *err, size_t err_size)
{
    csv_writer *c = calloc(1, sizeof *c);
    int i;

    if (c == NULL) {
        snprintf(err, err_size, "%s: cannot create: %s", s->shown[0], strerror(ENOMEM));
        return NULL;
    }
    c->ncols = s->ncols;
    if (s->ncols > 0 && csv_line_max(s->ncols) <= OUTPUT_FILE_BUF) {
        /* the text reuse, when the line fits the buffer (without it, every value formatted) */
        c->bits = malloc((size_t) s->ncols * sizeof *c->bits);
        c->off = malloc(((size_t) s->ncols + 1) * sizeof *c->off);
        if (c->bits == NULL || c->off == NULL) {
            free(c->bits);
            free(c->off);
            c->bits = NULL;
            c->off = NULL;
        }
    }
    for (i = 0; i < CSV_FILES; i++)
        c->shown[i] = s->shown[i];
    c->sec_tmp = s->tmp[CSV_FILES];
    c->sec_shown = s->shown[CSV_FILES];
    for (i = 0; i < CSV_FILES; i++)
        if (output_file_open(&c->file[i], s->tmp[i]) != 0) {
            csv_fail(c, i, "cannot create", errno, err, err_size);
            csv_free(c);
            return NULL;
        }
    csv_header(c, s->cols, s->ncols);
    return c;
}

/* a write of timeseries.csv that failed already */
static int csv_check(void *w, char *err, size_t err_size)
{
    csv_writer *c = w;
    if (c->file[CSV_TS].err != 0)
        return csv_fail(c, CSV_TS, "cannot write", c->file[CSV_TS].err, err, err_size);
    return 0;
}

/*
 * One line of timeseries.csv with the room for it taken at once: a value whose bits equal the
 * same column's in the previous line, when that line is still in the buffer (the buffer's
 * length is where that line ended: nothing handed on or written since), has its text copied
 * from there; every other value is formatted, its bits kept.
 */
static void csv_row_reuse(csv_writer *c, const double *row)
{
    out_file *ts = &c->file[CSV_TS];
    char *b = output_file_room(ts, csv_line_max(c->ncols)) - ts->len;
    int reuse = c->line_end != 0 && ts->len == c->line_end, n = c->ncols;
    uint64_t *bits = c->bits; /* (locals: the text's stores may alias the writer's fields) */
    size_t *off = c->off, at = ts->len;

    for (int i = 0; i < n; i++) {
        uint64_t x;
        memcpy(&x, &row[i], sizeof x);
        size_t start = at;
        if (reuse && x == bits[i]) {
            /* the previous text (it ends one byte before the next column's start), through a
               copy of fixed length: the two places may be closer than that length */
            char t[OUTPUT_DOUBLE_MAX];
            memcpy(t, b + off[i], sizeof t);
            memcpy(b + at, t, sizeof t);
            at += off[i + 1] - 1 - off[i];
        } else {
            bits[i] = x;
            at += output_format_double(row[i], b + at);
        }
        b[at++] = ','; /* the last one becomes the newline */
        off[i] = start;
    }
    off[n] = at;
    b[at - 1] = '\n';
    ts->len = at;
    c->line_end = at;
}

static int csv_row(void *w, const double *row, char *err, size_t err_size)
{
    csv_writer *c = w;
    out_file *ts = &c->file[CSV_TS];
    int i;

    if (c->bits != NULL) {
        csv_row_reuse(c, row);
    } else {
        output_file_num0(ts, row[0]);
        for (i = 1; i < c->ncols; i++)
            output_file_num(ts, row[i]);
        output_file_char(ts, '\n');
    }
    for (i = 0; i < CSV_FILES; i++)
        if (c->file[i].err != 0)
            return csv_fail(c, i, "cannot write", c->file[i].err, err, err_size);
    return 0;
}

/* one line of impacts.csv; its failure shows at the next row or at finish */
static int csv_impact(void *w, const clink_impact_record *rec, const char *contact, char *err,
                      size_t err_size)
{
    csv_writer *c = w;
    out_file *f = &c->file[CSV_IMP];

    (void) err;
    (void) err_size;
    output_file_num0(f, rec->t_onset);
    output_file_char(f, ',');
    output_file_str(f, contact);
    output_file_num(f, rec->v_impact);
    output_file_num(f, rec->v_separation);
    output_file_num(f, rec->restitution);
    output_file_num(f, rec->delta_max);
    output_file_num(f, rec->F_max);
    output_file_num(f, rec->duration);
    output_file_num(f, rec->dissipated);
    output_file_num(f, (double) rec->lobes);
    output_file_char(f, '\n');
    return 0;
}

/* poincare.csv: a header naming each column with its unit, one line per sample */
static int csv_sections(void *w, const out_section_table *t, char *err, size_t err_size)
{
    csv_writer *c = w;
    out_file f;

    if (output_file_open(&f, c->sec_tmp) != 0) {
        snprintf(err, err_size, "%s: cannot create: %s", c->sec_shown, strerror(errno));
        return -1;
    }
    for (int i = 0; i < t->ncols; i++)
        output_file_printf(&f, "%s%s [%s]", i ? "," : "", t->cols[i].name, t->cols[i].unit);
    output_file_char(&f, '\n');
    for (long r = 0; r < t->rows; r++) {
        const double *row = t->data + (size_t) r * (size_t) t->ncols;
        output_file_num0(&f, row[0]);
        for (int i = 1; i < t->ncols; i++)
            output_file_num(&f, row[i]);
        output_file_char(&f, '\n');
    }
    output_file_close(&f);
    if (f.err != 0) {
        snprintf(err, err_size, "%s: cannot write: %s", c->sec_shown, strerror(f.err));
        return -1;
    }
    return 0;
}

/* both files closed; the first failure (in file order) reported */
static int csv_finish(void *w, const char *summary_json, char *err, size_t err_size)
{
    csv_writer *c = w;
    int i, rc = 0;

    (void) summary_json; /* summary.json alone holds the summary */
    for (i = 0; i < CSV_FILES; i++) {
        output_file_close(&c->file[i]);
        if (rc == 0 && c->file[i].err != 0)
            rc = csv_fail(c, i, "cannot write", c->file[i].err, err, err_size);
    }
    csv_free(c);
    return rc;
}

static void csv_abort(void *w)
{
    if (w != NULL)
        csv_free(w);
}

static int csv_available(void)
{
    return 1;
}

const out_writer_ops output_csv_writer = {
    .format = CLINK_FORMAT_CSV,
    .name = "csv",
    .files = {"timeseries.csv", "impacts.csv", "poincare.csv", NULL},
    .available = csv_available,
    .unavailable = NULL,
    .open = csv_open,
    .check = csv_check,
    .row = csv_row,
    .impact = csv_impact,
    .finish = csv_finish,
    .abort = csv_abort,
    .sections = csv_sections,
    .sections_file = "poincare.csv",
};
