/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run recorder of include/clink/output.h: the time series, the impact log and the
 * summary of one simulation, in the format the options name (a writer of the format table,
 * output_writer.h: CSV in output_csv.c, HDF5 in output_hdf5.c), with summary.json. This
 * file creates, finishes and releases the recorder and keeps the protocol of its files;
 * the rows are sampled in output_rows.c, their columns listed in output_columns.c, the
 * summary written in output_summary.c. Nothing is computed here but bookkeeping; the
 * summary's "warnings" are the caller's (clink_run_info).
 *
 * Protocol: creating a recorder first removes the previous run's results in the directory
 * (summary.json first, then every format's files in the order of the table) and any
 * leftover "NAME.incomplete" of a run that was killed; the files are then written as
 * "NAME.incomplete" and renamed to their names at the end, summary.json last. The first
 * write error of a file is reported with the file's final name.
 */
#include "clink/output.h"

#include "output/output_recorder.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char summary_name[] = "summary.json";

clink_output_options clink_default_output_options(void)
{
    clink_output_options o;
    o.reactions = 1;
    o.energies = 1;
    o.accelerations = 1;
    o.rows = CLINK_ROWS_AUTO;
    o.dense = 1;
    o.format = CLINK_FORMAT_CSV;
    o.sections = NULL;
    o.nsections = 0;
    return o;
}

int clink_output_has_hdf5(void)
{
    const out_writer_ops *ops = output_writer_find(CLINK_FORMAT_HDF5);
    return ops != NULL && ops->available();
}

const char *clink_output_format_name(clink_output_format format)
{
    const out_writer_ops *ops = output_writer_find(format);
    return ops != NULL ? ops->name : NULL;
}

int clink_output_format_from_name(const char *name, clink_output_format *format)
{
    for (int i = 0; name != NULL && output_writers[i] != NULL; i++)
        if (strcmp(output_writers[i]->name, name) == 0) {
            *format = output_writers[i]->format;
            return 0;
        }
    return -1;
}

static clink_status out_fail(char *err, size_t err_size, clink_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static clink_status out_fail(char *err, size_t err_size, clink_status st, const char *fmt, ...)
{
    va_list ap;

    if (err != NULL && err_size > 0) {
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* removes path if it exists; 0, or -1 with errno */
static int remove_if_there(const char *path)
{
    if (remove(path) == 0 || errno == ENOENT)
        return 0;
    return -1;
}

/* a message naming the user's file (never the temporary) and the OS's cause */
static clink_status file_error(clink_recorder *r, int i, const char *what, int e)
{
    snprintf(r->msg, sizeof r->msg, "%s: %s: %s", r->final[i], what, strerror(e));
    return CLINK_ERR_IO;
}

static void recorder_free(clink_recorder *r)
{
    int i;

    if (r->ops != NULL)
        r->ops->abort(r->w);
    r->w = NULL;
    /* cleanup: a file never created gives ENOENT, and destroy has no caller to tell of
       another failure (the .incomplete name still says what the file is) */
    for (i = 0; i < r->nfiles && !r->finished; i++)
        remove(r->tmp[i]);
    free(r->cols);
    free(r->row);
    free(r->phase);
    free(r->onset);
    free(r->fn_col);
    free(r->clayout);
    free(r->jlayout);
    free(r->last);
    free(r->pend);
    output_sections_free(r);
    free(r);
}

/* the formats' names as "a, b or c" */
static void format_names(char *buf, size_t size)
{
    size_t n = 0;
    int i;

    buf[0] = '\0';
    for (i = 0; output_writers[i] != NULL && n < size; i++) {
        const char *sep = i == 0 ? "" : output_writers[i + 1] == NULL ? " or " : ", ";
        int k = snprintf(buf + n, size - n, "%s%s", sep, output_writers[i]->name);
        n += k > 0 ? (size_t) k : 0;
    }
}

/* the options checked: the rows, the format and whether this build can write it */
static clink_status check_options(const clink_output_options *o, char *err, size_t err_size)
{
    const out_writer_ops *ops = output_writer_find(o->format);
    char names[256];

    if ((int) o->rows < CLINK_ROWS_EVENTS || (int) o->rows > CLINK_ROWS_AUTO)
        return out_fail(err, err_size, CLINK_ERR_ARG,
                        "output rows %d: not one of events, steps, grid, auto", (int) o->rows);
    if (o->dense < 0 || o->dense > 1000)
        return out_fail(err, err_size, CLINK_ERR_RANGE,
                        "output dense = %d rows per step: must be 0 .. 1000", o->dense);
    if (ops == NULL) {
        format_names(names, sizeof names);
        return out_fail(err, err_size, CLINK_ERR_ARG, "output format %d: not %s", (int) o->format,
                        names);
    }
    if (!ops->available())
        return out_fail(err, err_size, CLINK_ERR_ARG, "%s", ops->unavailable);
    if (o->nsections < 0 || o->nsections > CLINK_SECTIONS_MAX ||
        (o->nsections > 0 && o->sections == NULL))
        return out_fail(err, err_size, CLINK_ERR_ARG, "output sections: %d, at most %d",
                        o->nsections, CLINK_SECTIONS_MAX);
    return CLINK_OK;
}

/* buf = DIR/NAME (incomplete: DIR/NAME.incomplete); 0, or -1 when it does not fit */
static int file_path(char *buf, const char *dir, const char *name, int incomplete)
{
    int n = snprintf(buf, OUT_PATH_MAX, "%s/%s%s", dir, name, incomplete ? ".incomplete" : "");
    return n >= 0 && n < OUT_PATH_MAX ? 0 : -1;
}

/* the paths of the format's files and summary.json (every format's names must fit) */
static clink_status set_paths(clink_recorder *r, const char *dir, char *err, size_t err_size)
{
    char scratch[OUT_PATH_MAX];
    int i, k, bad = 0;

    for (k = 0; output_writers[k] != NULL; k++)
        for (i = 0; output_writers[k]->files[i] != NULL; i++)
            bad |= file_path(scratch, dir, output_writers[k]->files[i], 1) != 0;
    for (i = 0; r->ops->files[i] != NULL; i++) {
        bad |= file_path(r->tmp[i], dir, r->ops->files[i], 1) != 0;
        bad |= file_path(r->final[i], dir, r->ops->files[i], 0) != 0;
    }
    bad |= file_path(r->tmp[i], dir, summary_name, 1) != 0;
    bad |= file_path(r->final[i], dir, summary_name, 0) != 0;
    r->nfiles = i + 1;
    if (bad)
        return out_fail(err, err_size, CLINK_ERR_ARG, "%s: directory name too long (%s)", dir,
                        strerror(ENAMETOOLONG));
    return CLINK_OK;
}

/* DIR/NAME, DIR/NAME.incomplete and the hidden name of earlier versions removed */
static clink_status remove_one(const char *dir, const char *name, char *err, size_t err_size)
{
    char path[OUT_PATH_MAX], tmp[OUT_PATH_MAX], legacy[OUT_PATH_MAX];

    if (file_path(path, dir, name, 0) != 0 || file_path(tmp, dir, name, 1) != 0)
        return out_fail(err, err_size, CLINK_ERR_ARG, "%s: directory name too long (%s)", dir,
                        strerror(ENAMETOOLONG));
    if (remove_if_there(path) != 0)
        return out_fail(err, err_size, CLINK_ERR_IO,
                        "%s: cannot remove the previous run's file: %s", path, strerror(errno));
    /* a killed run's leftovers: ours, and the hidden names of earlier versions */
    snprintf(legacy, sizeof legacy, "%s/.%s.tmp", dir, name);
    if (remove_if_there(tmp) != 0 || remove_if_there(legacy) != 0)
        return out_fail(err, err_size, CLINK_ERR_IO,
                        "%s: cannot remove an unfinished run's file: %s", tmp, strerror(errno));
    return CLINK_OK;
}

/* the previous run's results (whatever their format) and a killed run's leftovers */
static clink_status remove_previous(const char *dir, char *err, size_t err_size)
{
    /* summary.json first, so that no state of an interrupted removal leaves a summary beside
       files it does not describe */
    clink_status st = remove_one(dir, summary_name, err, err_size);
    int i, k;

    for (k = 0; output_writers[k] != NULL && st == CLINK_OK; k++)
        for (i = 0; output_writers[k]->files[i] != NULL && st == CLINK_OK; i++)
            st = remove_one(dir, output_writers[k]->files[i], err, err_size);
    return st;
}

/* the column table, the row and the phases of the last row */
static int alloc_columns(clink_recorder *r)
{
    output_list_columns(r); /* counts */
    r->cols = calloc((size_t) r->ncols, sizeof *r->cols);
    r->row = calloc((size_t) r->ncols, sizeof *r->row);
    r->phase = calloc((size_t) r->ncontacts + 1, sizeof *r->phase);
    r->onset = malloc((4 * (size_t) r->ncontacts + 1) * sizeof *r->onset);
    r->fn_col = calloc((size_t) r->ncontacts + 1, sizeof *r->fn_col);
    r->last = calloc((size_t) r->ncols, sizeof *r->last);
    if (r->fn_col == NULL || r->last == NULL || output_row_layout(r) != 0)
        return -1;
    if (r->cols == NULL || r->row == NULL || r->phase == NULL || r->onset == NULL)
        return -1;
    for (int k = 0; k <= 4 * r->ncontacts; k++)
        r->onset[k] = NAN;
    output_list_columns(r);
    /* auto: the event rows while a row is narrow (their number grows with the contacts) */
    if (r->opt.rows == CLINK_ROWS_AUTO) {
        r->rows_auto = 1;
        r->opt.rows =
            r->ncols <= CLINK_ROWS_EVENTS_COLUMNS_MAX ? CLINK_ROWS_EVENTS : CLINK_ROWS_GRID;
    }
    return 0;
}

/* the format's writer opened: its files created, what precedes the rows written */
static clink_status open_writer(clink_recorder *r, char *err, size_t err_size)
{
    const char *tmp[OUT_FILES_MAX], *shown[OUT_FILES_MAX];
    out_writer_setup s;
    int i;

    for (i = 0; i < r->nfiles; i++) {
        tmp[i] = r->tmp[i];
        shown[i] = r->final[i];
    }
    s.tmp = tmp;
    s.shown = shown;
    s.cols = r->cols;
    s.ncols = r->ncols;
    r->w = r->ops->open(&s, err, err_size);
    return r->w != NULL ? CLINK_OK : CLINK_ERR_IO;
}

/* a recorder for model with its counts, no file touched yet; NULL when out of memory */
static clink_recorder *recorder_new(const clink_model *model, const clink_output_options *opt)
{
    clink_recorder *r = calloc(1, sizeof *r);

    if (r == NULL)
        return NULL;
    r->model = model;
    r->opt = *opt;
    r->ops = output_writer_find(opt->format);
    r->nbodies = clink_model_count(model, CLINK_ENTITY_BODY);
    r->njoints = clink_model_count(model, CLINK_ENTITY_JOINT);
    r->ndrivers = clink_model_count(model, CLINK_ENTITY_DRIVER);
    r->npairs = clink_model_count(model, CLINK_ENTITY_CONTACT_PAIR);
    r->ncontacts = clink_model_contact_count(model);
    r->finished = 1; /* nothing of ours to remove yet */
    return r;
}

clink_status clink_recorder_create(const clink_model *model, const char *dir,
                                   const clink_output_options *options, clink_recorder **rec,
                                   char *err, size_t err_size)
{
    clink_output_options opt;
    clink_recorder *r;
    clink_status st;

    if (rec == NULL)
        return out_fail(err, err_size, CLINK_ERR_ARG, "clink_recorder_create: rec is NULL");
    *rec = NULL;
    if (model == NULL || dir == NULL || dir[0] == '\0')
        return out_fail(err, err_size, CLINK_ERR_ARG, "clink_recorder_create: no model or dir");
    opt = options != NULL ? *options : clink_default_output_options();
    st = check_options(&opt, err, err_size);
    if (st != CLINK_OK)
        return st;
    r = recorder_new(model, &opt);
    if (r == NULL)
        return out_fail(err, err_size, CLINK_ERR_NOMEM, "out of memory");
    st = set_paths(r, dir, err, err_size);
    if (st == CLINK_OK)
        st = remove_previous(dir, err, err_size);
    if (st == CLINK_OK && (alloc_columns(r) != 0 || output_sections_setup(r) != 0))
        st = out_fail(err, err_size, CLINK_ERR_NOMEM, "out of memory");
    if (st == CLINK_OK) {
        r->finished = 0;
        st = open_writer(r, err, err_size);
    }
    if (st != CLINK_OK) {
        recorder_free(r);
        return st;
    }
    *rec = r;
    return CLINK_OK;
}

const char *clink_recorder_error(const clink_recorder *rec)
{
    return rec != NULL ? rec->msg : "";
}

int clink_recorder_columns(const clink_recorder *rec)
{
    return rec != NULL ? rec->ncols : 0;
}

clink_output_rows clink_recorder_rows(const clink_recorder *rec)
{
    return rec != NULL ? rec->opt.rows : CLINK_ROWS_GRID;
}

/* ---- finishing ------------------------------------------------------------ */

/* summary.json from the summary in memory */
static clink_status write_summary_file(clink_recorder *r, const out_file *summary)
{
    int i = r->nfiles - 1;
    out_file f;

    if (output_file_open(&f, r->tmp[i]) != 0)
        return file_error(r, i, "cannot create", errno);
    output_file_bytes(&f, summary->buf, summary->len);
    output_file_close(&f);
    if (f.err != 0)
        return file_error(r, i, "cannot write", f.err);
    return CLINK_OK;
}

/* the rows and impacts left and the summary handed to the writer, which closes its files;
   then summary.json */
static clink_status close_all(clink_recorder *r, const clink_sim *sim, const clink_run_info *info)
{
    out_file summary;
    clink_status st = CLINK_OK;
    void *w;

    if (sim != NULL)
        st = output_write_impacts(r, sim);
    if (st == CLINK_OK)
        st = output_flush_pending(r, 1); /* a run that stopped between grid rows keeps them */
    if (st == CLINK_OK)
        st = output_sections_write(r);
    if (st != CLINK_OK)
        return st;
    if (output_file_memory(&summary) != 0)
        return file_error(r, r->nfiles - 1, "cannot write", ENOMEM);
    output_write_summary(r, &summary, sim, info);
    if (summary.err != 0)
        st = file_error(r, r->nfiles - 1, "cannot write", summary.err);
    if (st == CLINK_OK) {
        w = r->w;
        r->w = NULL; /* finish releases it either way */
        if (r->ops->finish(w, summary.buf, r->msg, sizeof r->msg) != 0)
            st = CLINK_ERR_IO;
    }
    if (st == CLINK_OK)
        st = write_summary_file(r, &summary);
    free(summary.buf);
    return st;
}

clink_status clink_recorder_finish(clink_recorder *r, const clink_sim *sim,
                                   const clink_run_info *info)
{
    clink_status st;
    int i;

    if (r == NULL)
        return CLINK_ERR_ARG;
    if (info == NULL || r->finished) {
        snprintf(r->msg, sizeof r->msg, "clink_recorder_finish: %s",
                 info == NULL ? "info is NULL" : "recorder already finished");
        return CLINK_ERR_ARG;
    }
    if (r->w == NULL)
        return CLINK_ERR_IO; /* a finish failed before: its message stays */
    st = close_all(r, sim, info);
    if (st != CLINK_OK)
        return st;
    /* summary.json last: it appears only beside the files it describes */
    for (i = 0; i < r->nfiles; i++) {
        if (output_sections_absent(r, i))
            continue; /* the Poincare table's file of a run without sections */
        if (rename(r->tmp[i], r->final[i]) != 0) {
            int e = errno;
            int j;
            for (j = 0; j < i; j++) /* no half set of results; the rename error is reported */
                remove(r->final[j]);
            return file_error(r, i, "cannot rename into place", e);
        }
    }
    r->finished = 1;
    return CLINK_OK;
}

void clink_recorder_destroy(clink_recorder **rec)
{
    if (rec == NULL || *rec == NULL)
        return;
    recorder_free(*rec);
    *rec = NULL;
}
