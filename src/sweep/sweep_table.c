/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_table.c: the sweep's table (docs/sweeps.md, "The table"). The header and
 * each case's row as CSV text: case, the parameters' values (as the overrides
 * received them), status, t_failed ("%.17g"), cause, the quantities collected
 * (counts as integers, the others "%.17g", empty when not measured or not finite)
 * and wall_time ("%.6f"), last so that a comparison can drop it; a field holding a
 * comma, a quote or a line break is quoted (line breaks become blanks). Reading a
 * row back: its case index and its status (the tally). Writing DIR/sweep.csv
 * (sorted by case, to a temporary name, fsync'd, renamed) and the columns of
 * DIR/sweep.h5 with their units and descriptions (sweep_hdf5.c).
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_hdf5.h"
#include "sweep/sweep_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* appends text to buf as a CSV field (quoted when it holds a comma, quote or line break) */
static void sweep_csv_field(char *buf, size_t size, const char *text)
{
    size_t n = strlen(buf);

    if (strpbrk(text, ",\"\n\r") == NULL) {
        snprintf(buf + n, size - n, "%s", text);
        return;
    }
    if (n + 1 < size)
        buf[n++] = '"';
    for (const char *c = text; *c != '\0' && n + 2 < size; c++) {
        char ch = *c == '\n' || *c == '\r' ? ' ' : *c;
        if (ch == '"')
            buf[n++] = '"';
        buf[n++] = ch;
    }
    if (n + 1 < size)
        buf[n++] = '"';
    buf[n] = '\0';
}

static void sweep_appendf(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void sweep_appendf(char *buf, size_t size, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;

    if (n + 1 >= size)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + n, size - n, fmt, ap);
    va_end(ap);
}

/* the header line (with its newline) */
void sweep_header(const sweep_spec *s, char *buf, size_t size)
{
    snprintf(buf, size, "case");
    for (int i = 0; i < s->n_params; i++) {
        sweep_appendf(buf, size, ",");
        sweep_csv_field(buf, size, s->params[i].path);
    }
    sweep_appendf(buf, size, ",status,t_failed,cause");
    for (int i = 0; i < s->n_q; i++)
        sweep_appendf(buf, size, ",%s", sweep_q_names[s->q[i]]);
    sweep_appendf(buf, size, ",wall_time\n");
}

/* the row of case k (with its newline) */
void sweep_row(const sweep_spec *s, long k, const sweep_result *res, char *buf, size_t size)
{
    long idx[SWEEP_MAX_PARAMS];

    sweep_case_values(s, k, idx);
    snprintf(buf, size, "%ld", k);
    for (int i = 0; i < s->n_params; i++) {
        sweep_appendf(buf, size, ",");
        sweep_csv_field(buf, size, s->params[i].values[idx[i]]);
    }
    sweep_appendf(buf, size, ",%s,", res->status);
    if (strcmp(res->status, "failed") == 0)
        sweep_appendf(buf, size, "%.17g", res->t_failed);
    sweep_appendf(buf, size, ",");
    sweep_csv_field(buf, size, res->cause);
    for (int i = 0; i < s->n_q; i++) {
        if (!res->has_q)
            sweep_appendf(buf, size, ",");
        else if (!isfinite(res->q[s->q[i]]))
            sweep_appendf(buf, size, ",");
        else if (s->q[i] == SWEEP_Q_IMPACTS || s->q[i] == SWEEP_Q_STEPS)
            sweep_appendf(buf, size, ",%.0f", res->q[s->q[i]]);
        else
            sweep_appendf(buf, size, ",%.17g", res->q[s->q[i]]);
    }
    sweep_appendf(buf, size, ",%.6f\n", res->wall);
}

/* the case index at the start of a row, or -1 */
long sweep_row_case(const char *row, long n_cases)
{
    char *end;
    long k;

    errno = 0;
    k = strtol(row, &end, 10);
    if (end == row || *end != ',' || errno != 0 || k < 0 || k >= n_cases)
        return -1;
    return k;
}

/* the fields of one CSV line (up to its newline), or -1 when a quote is misplaced */
static int sweep_csv_count(const char *c)
{
    int n = 1;

    for (;;) {
        if (*c == '"') {
            for (c++; *c != '"' || c[1] == '"'; c += *c == '"' ? 2 : 1)
                if (*c == '\0' || *c == '\n')
                    return -1;
            c++;
        } else {
            for (; *c != ',' && *c != '\n' && *c != '\0'; c++)
                if (*c == '"')
                    return -1;
        }
        if (*c != ',')
            return *c == '\n' || *c == '\0' ? n : -1;
        n++;
        c++;
    }
}

/*
 * Whether row (a journal line with its newline) is case k's row of this sweep: it begins
 * with the case index and the parameters' values as the specification generates them,
 * then a known status, and has the header's number of fields. 0, or -1 with why.
 */
/* the end of the CSV field at c (its closing quote passed), at its comma or newline */
static const char *sweep_field_end(const char *c)
{
    if (*c != '"')
        return c + strcspn(c, ",\n");
    for (c++; *c != '\0' && !(*c == '"' && c[1] != '"'); c += *c == '"' ? 2 : 1)
        ;
    return *c == '"' ? c + 1 : c;
}

/* the field [c, end) read as a number: 0 with *v, -1 when it is not one whole */
static int sweep_field_number(const char *c, const char *end, double *v)
{
    char text[64], *stop;
    size_t len = (size_t) (end - c);
    if (len == 0 || len >= sizeof text)
        return -1;
    memcpy(text, c, len);
    text[len] = '\0';
    errno = 0;
    *v = strtod(text, &stop);
    return *stop == '\0' && errno == 0 && isfinite(*v) ? 0 : -1;
}

/* the numbers of a row from its status on (at c): the failure time only on a failed row
   (finite, >= 0), every quantity empty or a finite number >= 0 (the counts whole), the wall
   time a finite number >= 0; 0, or -1 with why */
static int sweep_row_numbers(const sweep_spec *s, long k, const char *c, char *why, size_t size)
{
    int failed = strncmp(c, "failed,", 7) == 0;
    const char *e = sweep_field_end(c); /* the status */
    double v;
    c = e + 1; /* the failure time */
    e = sweep_field_end(c);
    if ((failed || e > c) && (sweep_field_number(c, e, &v) != 0 || v < 0.0 || !failed)) {
        snprintf(why, size, "case %ld: t_failed '%.*s' %s", k, (int) (e - c), c,
                 failed ? "is not a finite time >= 0" : "on a row that did not fail");
        return -1;
    }
    c = sweep_field_end(e + 1) + 1; /* past the cause */
    for (int i = 0; i <= s->n_q; i++, c = e + 1) {
        e = sweep_field_end(c);
        int wall = i == s->n_q,
            count = !wall && (s->q[i] == SWEEP_Q_IMPACTS || s->q[i] == SWEEP_Q_STEPS);
        if (e == c && !wall)
            continue; /* not measured */
        if (sweep_field_number(c, e, &v) != 0 || v < 0.0 || (count && v != floor(v))) {
            snprintf(why, size, "case %ld: %s '%.*s' is not a %s >= 0", k,
                     wall ? "wall_time" : sweep_q_names[s->q[i]], (int) (e - c), c,
                     count ? "whole number" : "finite number");
            return -1;
        }
    }
    return 0;
}

int sweep_row_check(const clink_sweep *sw, long k, const char *row, char *why, size_t size)
{
    static const char *const statuses[] = {"ok,", "failed,", "invalid,", "crashed,"};
    char prefix[SWEEP_ROW_MAX];
    long idx[SWEEP_MAX_PARAMS];
    const sweep_spec *s = &sw->spec;
    size_t n;
    int known = 0;

    sweep_case_values(s, k, idx);
    snprintf(prefix, sizeof prefix, "%ld", k);
    for (int i = 0; i < s->n_params; i++) {
        sweep_appendf(prefix, sizeof prefix, ",");
        sweep_csv_field(prefix, sizeof prefix, s->params[i].values[idx[i]]);
    }
    sweep_appendf(prefix, sizeof prefix, ",");
    n = strlen(prefix);
    if (strncmp(row, prefix, n) != 0) {
        snprintf(why, size, "case %ld: the parameters' values are not the specification's", k);
        return -1;
    }
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        known |= strncmp(row + n, statuses[i], strlen(statuses[i])) == 0;
    if (!known) {
        snprintf(why, size, "case %ld: not a status (ok, failed, invalid, crashed)", k);
        return -1;
    }
    if (sweep_csv_count(row) != sweep_csv_count(sw->header)) {
        snprintf(why, size, "case %ld: %d fields, the table has %d", k, sweep_csv_count(row),
                 sweep_csv_count(sw->header));
        return -1;
    }
    return sweep_row_numbers(s, k, row + n, why, size);
}

/* the tally counts row (a complete row of sweep s) */
void sweep_count(clink_sweep_tally *t, const sweep_spec *s, const char *row)
{
    const char *c = row;

    /* the status follows the parameters: skip case and parameter fields (quoted ones too) */
    for (int f = 0; f < 1 + s->n_params && *c != '\0'; f++) {
        if (*c == '"') {
            for (c++; *c != '\0' && !(*c == '"' && c[1] != '"'); c += *c == '"' ? 2 : 1)
                ;
            if (*c == '"')
                c++;
        } else {
            c += strcspn(c, ",");
        }
        if (*c == ',')
            c++;
    }
    t->done++;
    if (strncmp(c, "ok,", 3) == 0)
        t->ok++;
    else if (strncmp(c, "failed,", 7) == 0)
        t->failed++;
    else if (strncmp(c, "invalid,", 8) == 0)
        t->invalid++;
    else
        t->crashed++;
}

/* DIR/sweep.csv from the rows, sorted by case: written to sweep.csv.tmp, fsync'd, renamed */
clink_status sweep_write_table(clink_sweep *sw, const char *dir)
{
    char path[4200], tmp[4300];
    FILE *f;
    int bad;

    snprintf(path, sizeof path, "%s/sweep.csv", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (f == NULL)
        return sweep_fail(sw, CLINK_ERR_IO, "%s: cannot write: %s", tmp, strerror(errno));
    fputs(sw->header, f);
    for (long k = 0; k < sw->spec.n_cases; k++)
        if (sw->rows[k] != NULL)
            fputs(sw->rows[k], f);
    errno = 0;
    bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
    if (fclose(f) != 0)
        bad = 1;
    if (bad || rename(tmp, path) != 0) {
        int e = errno != 0 ? errno : EIO;
        remove(tmp);
        return sweep_fail(sw, CLINK_ERR_IO, "%s: cannot write: %s", path, strerror(e));
    }
    return CLINK_OK;
}

/* the text of the file (NUL-terminated, malloc'd), or NULL (errno) */
static char *sweep_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t n = 0, cap = 0, got;

    if (f == NULL)
        return NULL;
    do {
        if (cap - n < 4096) {
            char *t = realloc(text, cap = 2 * cap + 8192);
            if (t == NULL) {
                free(text);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            text = t;
        }
        got = fread(text + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        free(text);
        fclose(f);
        errno = EIO;
        return NULL;
    }
    fclose(f);
    text[n] = '\0';
    return text;
}

/* the unit and description of quantity q in the table */
static const char *const sweep_q_units[] = {"1", "N", "m/s^2", "J", "1", "1"};
static const char *const sweep_q_descriptions[] = {
    "impacts recorded",
    "largest normal contact force (impact records and output times)",
    "largest translational acceleration of a body at the output times",
    "largest absolute energy balance residual at the output times",
    "integrator steps",
    "restitution of the first impact record (NaN when there was none)"};
_Static_assert(sizeof sweep_q_units / sizeof sweep_q_units[0] == SWEEP_NQ, "one unit each");
_Static_assert(sizeof sweep_q_descriptions / sizeof sweep_q_descriptions[0] == SWEEP_NQ,
               "one description each");

/* DIR/sweep.h5 from the rows of sweep.csv (sweep_hdf5.c): CLINK_OK or CLINK_ERR_IO */
clink_status sweep_write_h5(clink_sweep *sw, const char *dir)
{
    const sweep_spec *s = &sw->spec;
    sweep_h5_column cols[SWEEP_MAX_PARAMS + SWEEP_NQ + 5];
    char path[4200], err[4600];
    char *text;
    int n = 0, rc;

    cols[n++] = (sweep_h5_column){"case", SWEEP_H5_INT, "", "the case index"};
    for (int i = 0; i < s->n_params; i++)
        cols[n++] = (sweep_h5_column){s->params[i].path, SWEEP_H5_PARAM, "",
                                      "the value passed to the override of this path"};
    cols[n++] = (sweep_h5_column){"status", SWEEP_H5_STRING, "", "ok, failed, invalid or crashed"};
    cols[n++] = (sweep_h5_column){"t_failed", SWEEP_H5_DOUBLE, "s",
                                  "failed: the simulated time reached (NaN otherwise)"};
    cols[n++] = (sweep_h5_column){"cause", SWEEP_H5_STRING, "",
                                  "why the case is not ok (empty when it is)"};
    for (int i = 0; i < s->n_q; i++)
        cols[n++] = (sweep_h5_column){sweep_q_names[s->q[i]], SWEEP_H5_DOUBLE,
                                      sweep_q_units[s->q[i]], sweep_q_descriptions[s->q[i]]};
    cols[n++] = (sweep_h5_column){"wall_time", SWEEP_H5_DOUBLE, "s", "the case's own wall time"};
    text = sweep_slurp(s->file);
    if (text == NULL)
        return sweep_fail(sw, CLINK_ERR_IO, "%s: cannot read: %s", s->file, strerror(errno));
    snprintf(path, sizeof path, "%s/sweep.h5", dir);
    rc = sweep_h5_write(path, cols, n, sw->rows, s->n_cases, text, err, sizeof err);
    free(text);
    if (rc != 0)
        return sweep_fail(sw, CLINK_ERR_IO, "%s", err);
    return CLINK_OK;
}
