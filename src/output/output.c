/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run recorder of include/clink/output.h: the time series, the impact log and
 * the summary of one simulation, as CSV (timeseries.csv, impacts.csv) or HDF5
 * (results.h5, output_hdf5.c), with summary.json. Nothing is computed here but
 * bookkeeping: every number comes from the simulation API (state, accelerations,
 * joint reactions, driver forces, energies, constraint violation, CVODE
 * statistics); the recorder keeps the maxima over the rows it sampled (|Phi|,
 * |Phi_q v - nu|, |energy balance|); the summary's "warnings" are the caller's
 * (clink_run_info).
 *
 * Rows: clink_recorder_advance lets the simulation's walk (sim/sim_output.c) stop
 * at the rows the options ask for. With CLINK_ROWS_EVENTS the rows of a grid
 * interval wait in memory for its grid row; the step and interpolated ones are
 * written only when one of them shows a normal force above the interval's grid and
 * event rows by more than OUT_FN_TOLERANCE of its largest force (a peak the other
 * rows miss), the grid and event rows always. An event row's kind (onset, end of
 * compression, separation) is read from the change of the contacts' phases since
 * the last row.
 *
 * Protocol: creating a recorder first removes the previous run's results in the
 * directory (summary.json first, both formats) and any leftover "NAME.incomplete"
 * of a run that was killed; the files are then written as "NAME.incomplete" and
 * renamed to their names at the end, summary.json last. Numbers are written with
 * the shortest decimal that reads back to the same double (output/fmt_double.c)
 * into the recorder's own buffers, handed to the C library 64 KiB at a time. The
 * first write error of a file is kept (errno) and reported with the file's final
 * name.
 */
#include "clink/output.h"

#include "output/fmt_double.h"
#include "output/output_internal.h"
#include "sim/sim_output.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUT_FILES = 4, OUT_PATH_MAX = 4096, OUT_BUF = 1 << 16, OUT_MSG = OUT_PATH_MAX + 256 };
enum { OUT_TS = 0, OUT_IMP = 1, OUT_H5 = 2, OUT_SUM = 3 };

/* CLINK_ROWS_EVENTS keeps the step and interpolated rows of a grid interval only when one of
   them shows a normal force above the rows kept anyway by more than this fraction of the
   interval's largest force (docs/outputs.md, "Rows") */
#define OUT_FN_TOLERANCE 2.5e-3

static const char *const out_names[OUT_FILES] = {"timeseries.csv", "impacts.csv", "results.h5",
                                                 "summary.json"};

const out_dataset output_datasets[OUT_DS_COUNT] = {
    {"time", "simulated time of each row"},
    {"q", "body coordinates: x, y of the reference point in the world frame, phi the angle"},
    {"v", "body velocities: vx, vy of the reference point, omega"},
    {"a", "body accelerations: ax, ay of the reference point, alpha"},
    {"reactions", "joint reactions on body2 of each joint: Fx, Fy (world frame), M"},
    {"driver_forces", "generalised force each driver applies (N, or N m for an angle)"},
    {"contacts/delta", "penetration of each contact (> 0 in contact, negative: the gap)"},
    {"contacts/delta_dot", "penetration rate of each contact (> 0 approaching)"},
    {"contacts/Fn", "normal force of each contact, on body B along the normal"},
    {"contacts/Ft", "friction force of each contact, on body B along the tangent"},
    {"contacts/phase",
     "phase of each contact: 0 open, 1 compression, 2 restitution, 3 released, 4 permanent"},
    {"contacts/eccentricity", "clearance joints: journal centre - bearing centre, world frame"},
    {"energies", "energies and the energy balance's residual"},
    {"constraint_violation", "largest |Phi| (position) and |Phi_q v - nu| (velocity)"},
    {"row_kind", "what put the row there: 0 grid, 1 integrator step, 2 interpolated in an "
                 "impact, 3 impact onset, 4 end of compression, 5 separation, 6 other event"},
};

/* one output file with its own buffer; in memory (f NULL, mem 1) the buffer grows */
typedef struct out_file {
    FILE *f;
    char *buf;
    size_t len, cap;
    int mem;
    int err; /* errno of the first failure, 0 while none */
} out_file;

struct clink_recorder {
    const clink_model *model;
    clink_output_options opt;
    char tmp[OUT_FILES][OUT_PATH_MAX];
    char final[OUT_FILES][OUT_PATH_MAX];
    int used[OUT_FILES];
    out_file file[OUT_FILES];
    out_h5 *h5;
    int nbodies, njoints, ndrivers;
    int npairs, ncontacts; /* contact pairs, then clearance joints */
    int impacts_written;
    out_column *cols;
    int ncols;
    double *row;   /* the row being sampled, ncols values */
    int *phase;    /* each contact's phase column at the last row */
    double *onset; /* sim_output_walk's: onsets, force rates, scratch (4 per contact) */
    int *fn_col;   /* each contact's column of Fn */
    double *pend;  /* CLINK_ROWS_EVENTS: the rows of the grid interval, npend x ncols */
    int npend, cappend;
    double *last;             /* the last row written */
    int have_last;            /* nonzero once a row was written */
    int kind;                 /* the row kind being sampled */
    clink_impact_record *imp; /* HDF5: the impact log, kept until the end */
    int nimp, capimp;
    long rows;
    double max_pos, max_vel, max_balance, last_balance;
    int finished;
    char msg[OUT_MSG];
};

clink_output_options clink_default_output_options(void)
{
    clink_output_options o;
    o.reactions = 1;
    o.energies = 1;
    o.accelerations = 1;
    o.rows = CLINK_ROWS_EVENTS;
    o.dense = 1;
    o.format = CLINK_FORMAT_CSV;
    return o;
}

int clink_output_has_hdf5(void)
{
    return output_h5_available();
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

/* ---- buffered files ------------------------------------------------------- */

/* creates path (which must not exist) for writing; 0, or -1 with errno */
static int out_open(out_file *of, const char *path)
{
    of->len = 0;
    of->err = 0;
    of->mem = 0;
    of->cap = OUT_BUF;
    of->buf = malloc(OUT_BUF);
    if (of->buf == NULL) {
        errno = ENOMEM;
        return -1;
    }
    of->f = fopen(path, "wx");
    if (of->f == NULL) {
        int e = errno;
        free(of->buf);
        of->buf = NULL;
        errno = e;
        return -1;
    }
    /* the recorder buffers: the stream passes each block straight to write() */
    if (setvbuf(of->f, NULL, _IONBF, 0) != 0) {
        /* harmless: the stream keeps its own buffer as well */
    }
    return 0;
}

static void out_flush(out_file *of)
{
    if (of->len > 0 && of->err == 0) {
        errno = 0;
        if (fwrite(of->buf, 1, of->len, of->f) != of->len)
            of->err = errno != 0 ? errno : EIO;
    }
    of->len = 0;
}

/* a file in memory (for the summary, which goes to two places) */
static int out_memory(out_file *of)
{
    memset(of, 0, sizeof *of);
    of->mem = 1;
    of->cap = OUT_BUF;
    of->buf = malloc(OUT_BUF);
    return of->buf != NULL ? 0 : -1;
}

/* the room left in memory: doubled when short; on failure err is set and writes go to the
   start of the buffer again (what was written is lost, the error reported) */
static void out_grow(out_file *of, size_t n)
{
    size_t cap = of->cap;
    char *p;
    while (cap - of->len < n)
        cap *= 2;
    p = realloc(of->buf, cap);
    if (p == NULL) {
        if (of->err == 0)
            of->err = ENOMEM;
        of->len = 0;
        return;
    }
    of->buf = p;
    of->cap = cap;
}

/* room for n more bytes in the buffer (n <= OUT_BUF) */
static char *out_room(out_file *of, size_t n)
{
    if (of->cap - of->len < n) {
        if (of->mem)
            out_grow(of, n);
        else
            out_flush(of);
    }
    return of->buf + of->len;
}

static void out_bytes(out_file *of, const char *s, size_t n)
{
    while (n > 0) {
        size_t chunk = n < OUT_BUF ? n : OUT_BUF;
        memcpy(out_room(of, chunk), s, chunk);
        of->len += chunk;
        s += chunk;
        n -= chunk;
    }
}

static void out_str(out_file *of, const char *s)
{
    out_bytes(of, s, strlen(s));
}

static void out_char(out_file *of, char c)
{
    *out_room(of, 1) = c;
    of->len++;
}

static void out_printf(out_file *of, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void out_printf(out_file *of, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0)
        out_bytes(of, line, (size_t) n < sizeof line ? (size_t) n : sizeof line - 1);
}

/* "," and the shortest round-trip decimal of v */
static void out_num(out_file *of, double v)
{
    char *p = out_room(of, OUTPUT_DOUBLE_MAX + 1);
    *p = ',';
    of->len += 1 + output_format_double(v, p + 1);
}

/* the number alone */
static void out_num0(out_file *of, double v)
{
    of->len += output_format_double(v, out_room(of, OUTPUT_DOUBLE_MAX));
}

/* flushes and closes; the first failure's errno stays in of->err */
static void out_close(out_file *of)
{
    if (of->f != NULL) {
        out_flush(of);
        errno = 0;
        if (fclose(of->f) != 0 && of->err == 0)
            of->err = errno != 0 ? errno : EIO;
        of->f = NULL;
    }
    free(of->buf);
    of->buf = NULL;
}

/* ---- columns ------------------------------------------------------------- */

/* an entity's name for column headers: its own, or KIND + index when unnamed */
static void entity_name(const clink_model *m, clink_entity kind, int id, char *buf, size_t size)
{
    static const char *const word[] = {"body", "joint", "driver", "force", "pair", "clearance"};
    const char *n = clink_model_name(m, kind, id);

    if (n != NULL && n[0] != '\0')
        snprintf(buf, size, "%s", n);
    else
        snprintf(buf, size, "%s%d", word[kind], id);
}

/* contact k: pair k, or clearance joint k - npairs */
static void contact_name(const clink_recorder *r, int k, char *buf, size_t size)
{
    if (k < r->npairs)
        entity_name(r->model, CLINK_ENTITY_CONTACT_PAIR, k, buf, size);
    else
        entity_name(r->model, CLINK_ENTITY_CLEARANCE_JOINT, k - r->npairs, buf, size);
}

/* appends the column "OWNER.QUANTITY" (or QUANTITY when owner is NULL) to r->cols, which has
   room for it (when r->cols is NULL the columns are only counted) */
static void add_col(clink_recorder *r, const char *owner, const char *quantity, const char *unit,
                    int ds)
{
    if (r->cols != NULL) {
        out_column *c = &r->cols[r->ncols];
        if (owner != NULL)
            snprintf(c->name, sizeof c->name, "%s.%s", owner, quantity);
        else
            snprintf(c->name, sizeof c->name, "%s", quantity);
        c->unit = unit;
        c->ds = ds;
    }
    r->ncols++;
}

/* the columns of the time series in order (counted only while r->cols is NULL) */
static void list_columns(clink_recorder *r)
{
    static const char *const energy_cols[] = {
        "kinetic",  "gravity",        "spring",          "work_drivers",    "work_loads",
        "residual", "contact_stored", "contact_damping", "contact_friction"};
    char name[CLINK_NAME_MAX + 16];
    int i, k;

    r->ncols = 0;
    add_col(r, NULL, "t", "s", OUT_DS_TIME);
    for (i = 1; i < r->nbodies; i++) {
        entity_name(r->model, CLINK_ENTITY_BODY, i, name, sizeof name);
        add_col(r, name, "x", "m", OUT_DS_Q);
        add_col(r, name, "y", "m", OUT_DS_Q);
        add_col(r, name, "phi", "rad", OUT_DS_Q);
        add_col(r, name, "vx", "m/s", OUT_DS_V);
        add_col(r, name, "vy", "m/s", OUT_DS_V);
        add_col(r, name, "omega", "rad/s", OUT_DS_V);
        if (r->opt.accelerations) {
            add_col(r, name, "ax", "m/s^2", OUT_DS_A);
            add_col(r, name, "ay", "m/s^2", OUT_DS_A);
            add_col(r, name, "alpha", "rad/s^2", OUT_DS_A);
        }
    }
    if (r->opt.reactions) {
        for (i = 0; i < r->njoints; i++) {
            entity_name(r->model, CLINK_ENTITY_JOINT, i, name, sizeof name);
            add_col(r, name, "Fx", "N", OUT_DS_REACTIONS);
            add_col(r, name, "Fy", "N", OUT_DS_REACTIONS);
            add_col(r, name, "M", "N m", OUT_DS_REACTIONS);
        }
        for (i = 0; i < r->ndrivers; i++) {
            clink_driver_def d;
            int angular = 0;
            entity_name(r->model, CLINK_ENTITY_DRIVER, i, name, sizeof name);
            if (clink_model_driver(r->model, i, &d) == CLINK_OK)
                angular = d.target == CLINK_DRIVE_JOINT_ANGLE ||
                          (d.target == CLINK_DRIVE_BODY_COORDINATE && d.coordinate == 2);
            add_col(r, name, "F", angular ? "N m" : "N", OUT_DS_DRIVERS);
        }
    }
    for (i = 0; i < r->ncontacts; i++) {
        contact_name(r, i, name, sizeof name);
        add_col(r, name, "delta", "m", OUT_DS_DELTA);
        add_col(r, name, "delta_dot", "m/s", OUT_DS_DELTA_DOT);
        if (r->fn_col != NULL)
            r->fn_col[i] = r->ncols;
        add_col(r, name, "Fn", "N", OUT_DS_FN);
        add_col(r, name, "Ft", "N", OUT_DS_FT);
        add_col(r, name, "phase", "-", OUT_DS_PHASE);
        if (i >= r->npairs) {
            add_col(r, name, "ex", "m", OUT_DS_ECC);
            add_col(r, name, "ey", "m", OUT_DS_ECC);
        }
    }
    if (r->opt.energies)
        for (k = 0; k < (r->ncontacts > 0 ? 9 : 6); k++)
            add_col(r, "energy", energy_cols[k], "J", OUT_DS_ENERGIES);
    add_col(r, "constraint", "position", "m", OUT_DS_VIOLATION);
    add_col(r, "constraint", "velocity", "m/s", OUT_DS_VIOLATION);
    add_col(r, "row", "kind", "-", OUT_DS_KIND);
}

static void write_header(clink_recorder *r)
{
    out_file *ts = &r->file[OUT_TS];
    int i;

    for (i = 0; i < r->ncols; i++)
        out_printf(ts, "%s%s [%s]", i ? "," : "", r->cols[i].name, r->cols[i].unit);
    out_char(ts, '\n');
    out_str(&r->file[OUT_IMP],
            "t [s],pair,v_impact [m/s],v_separation [m/s],restitution [-],delta_max [m],"
            "F_max [N],duration [s],dissipated [J],lobes [-]\n");
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

    output_h5_abandon(r->h5);
    r->h5 = NULL;
    /* cleanup: a file never created gives ENOENT, and destroy has no caller to tell of
       another failure (the .incomplete name still says what the file is) */
    for (i = 0; i < OUT_FILES; i++) {
        out_close(&r->file[i]);
        if (!r->finished && r->used[i])
            remove(r->tmp[i]);
    }
    free(r->cols);
    free(r->row);
    free(r->phase);
    free(r->onset);
    free(r->fn_col);
    free(r->last);
    free(r->pend);
    free(r->imp);
    free(r);
}

/* the options checked: the rows, the format and whether this build can write it */
static clink_status check_options(const clink_output_options *o, char *err, size_t err_size)
{
    if ((int) o->rows < CLINK_ROWS_EVENTS || (int) o->rows > CLINK_ROWS_GRID)
        return out_fail(err, err_size, CLINK_ERR_ARG,
                        "output rows %d: not one of events, steps, "
                        "grid",
                        (int) o->rows);
    if (o->dense < 0 || o->dense > 1000)
        return out_fail(err, err_size, CLINK_ERR_RANGE,
                        "output dense = %d rows per step: must be 0 .. 1000", o->dense);
    if ((int) o->format != CLINK_FORMAT_CSV && (int) o->format != CLINK_FORMAT_HDF5)
        return out_fail(err, err_size, CLINK_ERR_ARG, "output format %d: not csv or hdf5",
                        (int) o->format);
    if (o->format == CLINK_FORMAT_HDF5 && !output_h5_available())
        return out_fail(err, err_size, CLINK_ERR_ARG,
                        "HDF5 output: this clink was built without HDF5; install the HDF5 "
                        "library (Debian: apt-get install libhdf5-dev) and build again "
                        "(docs/outputs.md)");
    return CLINK_OK;
}

/* the paths of the four files and which ones the format writes */
static clink_status set_paths(clink_recorder *r, const char *dir, char *err, size_t err_size)
{
    int i;

    for (i = 0; i < OUT_FILES; i++) {
        int a = snprintf(r->tmp[i], OUT_PATH_MAX, "%s/%s.incomplete", dir, out_names[i]);
        int b = snprintf(r->final[i], OUT_PATH_MAX, "%s/%s", dir, out_names[i]);
        if (a < 0 || a >= OUT_PATH_MAX || b < 0 || b >= OUT_PATH_MAX)
            return out_fail(err, err_size, CLINK_ERR_ARG, "%s: directory name too long (%s)", dir,
                            strerror(ENAMETOOLONG));
        r->used[i] = i == OUT_SUM || (i == OUT_H5) == (r->opt.format == CLINK_FORMAT_HDF5);
    }
    return CLINK_OK;
}

/* the previous run's results (whatever their format) and a killed run's leftovers */
static clink_status remove_previous(const clink_recorder *r, const char *dir, char *err,
                                    size_t err_size)
{
    /* summary.json first, so that no state of an interrupted removal leaves a summary beside
       files it does not describe */
    static const int removal_order[OUT_FILES] = {OUT_SUM, OUT_TS, OUT_IMP, OUT_H5};
    char legacy[OUT_PATH_MAX];
    int i;

    for (i = 0; i < OUT_FILES; i++) {
        int k = removal_order[i];
        if (remove_if_there(r->final[k]) != 0)
            return out_fail(err, err_size, CLINK_ERR_IO,
                            "%s: cannot remove the previous run's file: %s", r->final[k],
                            strerror(errno));
        /* a killed run's leftovers: ours, and the hidden names of earlier versions */
        snprintf(legacy, sizeof legacy, "%s/.%s.tmp", dir, out_names[k]);
        if (remove_if_there(r->tmp[k]) != 0 || remove_if_there(legacy) != 0)
            return out_fail(err, err_size, CLINK_ERR_IO,
                            "%s: cannot remove an unfinished run's file: %s", r->tmp[k],
                            strerror(errno));
    }
    return CLINK_OK;
}

/* the column table, the row and the phases of the last row */
static int alloc_columns(clink_recorder *r)
{
    list_columns(r); /* counts */
    r->cols = calloc((size_t) r->ncols, sizeof *r->cols);
    r->row = calloc((size_t) r->ncols, sizeof *r->row);
    r->phase = calloc((size_t) r->ncontacts + 1, sizeof *r->phase);
    r->onset = malloc((4 * (size_t) r->ncontacts + 1) * sizeof *r->onset);
    r->fn_col = calloc((size_t) r->ncontacts + 1, sizeof *r->fn_col);
    r->last = calloc((size_t) r->ncols, sizeof *r->last);
    if (r->fn_col == NULL || r->last == NULL)
        return -1;
    if (r->cols == NULL || r->row == NULL || r->phase == NULL || r->onset == NULL)
        return -1;
    for (int k = 0; k <= 4 * r->ncontacts; k++)
        r->onset[k] = NAN;
    list_columns(r);
    return 0;
}

/* creates the time series' files of the format (CSV: the two CSV files with their headers) */
static clink_status open_files(clink_recorder *r, char *err, size_t err_size)
{
    int i;

    if (r->opt.format == CLINK_FORMAT_HDF5) {
        r->h5 =
            output_h5_create(r->tmp[OUT_H5], r->final[OUT_H5], r->cols, r->ncols, err, err_size);
        if (r->h5 == NULL)
            return CLINK_ERR_IO;
        return CLINK_OK;
    }
    for (i = OUT_TS; i <= OUT_IMP; i++)
        if (out_open(&r->file[i], r->tmp[i]) != 0)
            return out_fail(err, err_size, CLINK_ERR_IO, "%s: cannot create: %s", r->final[i],
                            strerror(errno));
    write_header(r);
    return CLINK_OK;
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
    r = calloc(1, sizeof *r);
    if (r == NULL)
        return out_fail(err, err_size, CLINK_ERR_NOMEM, "out of memory");
    r->model = model;
    r->opt = opt;
    r->nbodies = clink_model_count(model, CLINK_ENTITY_BODY);
    r->njoints = clink_model_count(model, CLINK_ENTITY_JOINT);
    r->ndrivers = clink_model_count(model, CLINK_ENTITY_DRIVER);
    r->npairs = clink_model_count(model, CLINK_ENTITY_CONTACT_PAIR);
    r->ncontacts = r->npairs + clink_model_count(model, CLINK_ENTITY_CLEARANCE_JOINT);
    r->finished = 1; /* nothing of ours to remove yet */
    st = set_paths(r, dir, err, err_size);
    if (st == CLINK_OK)
        st = remove_previous(r, dir, err, err_size);
    if (st == CLINK_OK && alloc_columns(r) != 0)
        st = out_fail(err, err_size, CLINK_ERR_NOMEM, "out of memory");
    if (st != CLINK_OK) {
        recorder_free(r);
        return st;
    }
    r->finished = 0;
    st = open_files(r, err, err_size);
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

/* ---- rows ----------------------------------------------------------------- */

/* HDF5: keeps impact record i (the log is written at the end); -1 when out of memory */
static int keep_impact(clink_recorder *r, const clink_impact_record *rec)
{
    if (r->nimp == r->capimp) {
        int nc = r->capimp ? 2 * r->capimp : 64;
        clink_impact_record *p = realloc(r->imp, (size_t) nc * sizeof *p);
        if (p == NULL)
            return -1;
        r->imp = p;
        r->capimp = nc;
    }
    r->imp[r->nimp++] = *rec;
    return 0;
}

/* the impacts recorded since the last call: to impacts.csv, or kept for results.h5 */
static clink_status write_impacts(clink_recorder *r, const clink_sim *sim)
{
    out_file *f = &r->file[OUT_IMP];
    char name[CLINK_NAME_MAX + 16];
    clink_impact_record rec;
    int n = clink_sim_impact_count(sim);

    for (; r->impacts_written < n; r->impacts_written++) {
        if (clink_sim_impact(sim, r->impacts_written, &rec) != CLINK_OK)
            break;
        if (r->opt.format == CLINK_FORMAT_HDF5) {
            if (keep_impact(r, &rec) != 0) {
                snprintf(r->msg, sizeof r->msg, "%s: keeping the impact log: %s", r->final[OUT_H5],
                         strerror(ENOMEM));
                return CLINK_ERR_IO;
            }
            continue;
        }
        contact_name(r, rec.contact, name, sizeof name);
        out_num0(f, rec.t_onset);
        out_char(f, ',');
        out_str(f, name);
        out_num(f, rec.v_impact);
        out_num(f, rec.v_separation);
        out_num(f, rec.restitution);
        out_num(f, rec.delta_max);
        out_num(f, rec.F_max);
        out_num(f, rec.duration);
        out_num(f, rec.dissipated);
        out_num(f, (double) rec.lobes);
        out_char(f, '\n');
    }
    return CLINK_OK;
}

/* the columns of the bodies: position, velocity and (if asked) acceleration of each */
static clink_status sample_bodies(clink_recorder *r, const clink_sim *sim, double **p)
{
    double q[3], v[3], a[3];
    int i, k;
    clink_status st;

    for (i = 1; i < r->nbodies; i++) {
        st = clink_sim_body_state(sim, i, q, v);
        if (st != CLINK_OK)
            return st;
        for (k = 0; k < 3; k++)
            *(*p)++ = q[k];
        for (k = 0; k < 3; k++)
            *(*p)++ = v[k];
        if (r->opt.accelerations) {
            st = clink_sim_body_acceleration(sim, i, a);
            if (st != CLINK_OK)
                return st;
            for (k = 0; k < 3; k++)
                *(*p)++ = a[k];
        }
    }
    return CLINK_OK;
}

/* the columns of the joint reactions and driver forces */
static clink_status sample_reactions(clink_recorder *r, const clink_sim *sim, double **p)
{
    double a[3];
    int i, k;
    clink_status st;

    for (i = 0; i < r->njoints; i++) {
        st = clink_sim_joint_reaction(sim, i, a);
        if (st != CLINK_OK)
            return st;
        for (k = 0; k < 3; k++)
            *(*p)++ = a[k];
    }
    for (i = 0; i < r->ndrivers; i++) {
        double f = 0;
        st = clink_sim_driver_force(sim, i, &f);
        if (st != CLINK_OK)
            return st;
        *(*p)++ = f;
    }
    return CLINK_OK;
}

/* an event row's kind from the phase of one contact before and after it (0: no change) */
static int event_kind(int before, int after)
{
    int in_before = before == 1 || before == 2;
    if (before == after)
        return 0;
    if (after == 1 && (before == 0 || before == 3))
        return CLINK_ROW_ONSET;
    if (before == 1 && after == 2)
        return CLINK_ROW_PEAK;
    if (in_before && (after == 0 || after == 3))
        return CLINK_ROW_SEPARATION;
    return CLINK_ROW_EVENT;
}

/* the columns of the contacts (pairs, then clearance joints with their eccentricity); an
   event row takes the kind of the first contact whose phase changed in a named way */
static clink_status sample_contacts(clink_recorder *r, const clink_sim *sim, double **p)
{
    int i, event = r->kind == CLINK_ROW_EVENT, named = 0;
    clink_status st;

    for (i = 0; i < r->ncontacts; i++) {
        clink_contact_info ci;
        int phase;
        st = clink_sim_contact(sim, i, &ci);
        if (st != CLINK_OK)
            return st;
        phase = ci.persistent ? 4 : (int) ci.phase;
        *(*p)++ = ci.delta;
        *(*p)++ = ci.delta_dot;
        *(*p)++ = ci.fn;
        *(*p)++ = ci.ft;
        *(*p)++ = (double) phase;
        if (i >= r->npairs) {
            *(*p)++ = ci.eccentricity[0];
            *(*p)++ = ci.eccentricity[1];
        }
        if (event && !named) {
            int k = event_kind(r->phase[i], phase);
            if (k != 0 && k != CLINK_ROW_EVENT) {
                r->kind = k;
                named = 1;
            }
        }
        r->phase[i] = phase;
    }
    return CLINK_OK;
}

/* the energy columns; tracks the largest balance error */
static clink_status sample_energies(clink_recorder *r, const clink_sim *sim, double **p)
{
    clink_energy e;
    clink_status st = clink_sim_energy(sim, &e);

    if (st != CLINK_OK)
        return st;
    *(*p)++ = e.kinetic;
    *(*p)++ = e.gravity;
    *(*p)++ = e.spring;
    *(*p)++ = e.work_drivers;
    *(*p)++ = e.work_loads;
    *(*p)++ = e.balance;
    if (r->ncontacts > 0) {
        *(*p)++ = e.contact_stored;
        *(*p)++ = e.contact_damping;
        *(*p)++ = e.contact_friction;
    }
    r->last_balance = e.balance;
    if (fabs(e.balance) > r->max_balance)
        r->max_balance = fabs(e.balance);
    return CLINK_OK;
}

/* the row of sim's current state into r->row */
static clink_status sample_row(clink_recorder *r, const clink_sim *sim)
{
    double *p = r->row, pos = 0, vel = 0;
    clink_status st;

    *p++ = clink_sim_time(sim);
    st = sample_bodies(r, sim, &p);
    if (st == CLINK_OK && r->opt.reactions)
        st = sample_reactions(r, sim, &p);
    if (st == CLINK_OK)
        st = sample_contacts(r, sim, &p);
    if (st == CLINK_OK && r->opt.energies)
        st = sample_energies(r, sim, &p);
    if (st != CLINK_OK)
        return st;
    clink_sim_constraint_violation(sim, &pos, &vel);
    *p++ = pos;
    *p++ = vel;
    *p++ = (double) r->kind;
    if (pos > r->max_pos)
        r->max_pos = pos;
    if (vel > r->max_vel)
        r->max_vel = vel;
    return CLINK_OK;
}

/* one row of the kind given (CLINK_ROW_EVENT: told apart by the contacts' phases) */
/* writes one row (ncols values) to the time series */
static clink_status write_row(clink_recorder *r, const double *row)
{
    out_file *ts = &r->file[OUT_TS];
    int i;

    r->rows++;
    memcpy(r->last, row, (size_t) r->ncols * sizeof *row);
    r->have_last = 1;
    if (r->opt.format == CLINK_FORMAT_HDF5)
        return output_h5_row(r->h5, row, r->msg, sizeof r->msg) == 0 ? CLINK_OK : CLINK_ERR_IO;
    out_num0(ts, row[0]);
    for (i = 1; i < r->ncols; i++)
        out_num(ts, row[i]);
    out_char(ts, '\n');
    if (ts->err != 0)
        return file_error(r, OUT_TS, "cannot write", ts->err);
    if (r->file[OUT_IMP].err != 0)
        return file_error(r, OUT_IMP, "cannot write", r->file[OUT_IMP].err);
    return CLINK_OK;
}

/* a step or interpolated row (one the grid and the events could do without) */
static int optional_row(const double *row, int ncols)
{
    return row[ncols - 1] == CLINK_ROW_STEP || row[ncols - 1] == CLINK_ROW_DENSE;
}

/* nonzero when an optional pending row holds a normal force above those of the rows kept
   anyway (the last row written, the events, the grid row) by more than OUT_FN_TOLERANCE of
   the interval's largest force: a peak that only the optional rows show */
static int pending_needed(const clink_recorder *r)
{
    const double *row0 = r->have_last ? r->last : r->pend;
    int n = r->npend, nc = r->ncols;

    for (int k = 0; k < r->ncontacts; k++) {
        int c = r->fn_col[k];
        double sure = row0[c], opt = -INFINITY, scale = fabs(row0[c]);
        for (int i = 0; i < n; i++) {
            const double *x = r->pend + (size_t) i * (size_t) nc;
            scale = fmax(scale, fabs(x[c]));
            if (optional_row(x, nc))
                opt = fmax(opt, x[c]);
            else
                sure = fmax(sure, x[c]);
        }
        if (opt - sure > OUT_FN_TOLERANCE * scale)
            return 1;
    }
    return 0;
}

/* writes the pending rows: all when keep_all or when the optional ones are needed, else the
   grid and event rows alone */
static clink_status flush_pending(clink_recorder *r, int keep_all)
{
    clink_status st = CLINK_OK;
    int keep = keep_all || pending_needed(r);

    for (int i = 0; i < r->npend && st == CLINK_OK; i++) {
        const double *x = r->pend + (size_t) i * (size_t) r->ncols;
        if (keep || !optional_row(x, r->ncols))
            st = write_row(r, x);
    }
    r->npend = 0;
    return st;
}

/* CLINK_ROWS_EVENTS: the rows of a grid interval wait for its grid row, which decides */
static clink_status pend_row(clink_recorder *r, int grid)
{
    if (r->npend == r->cappend) {
        int nc = r->cappend ? 2 * r->cappend : 16;
        double *p = realloc(r->pend, (size_t) nc * (size_t) r->ncols * sizeof *p);
        if (p == NULL) {
            clink_status st = flush_pending(r, 1); /* no room to wait: everything is kept */
            if (st != CLINK_OK)
                return st;
        } else {
            r->pend = p;
            r->cappend = nc;
        }
    }
    if (r->npend == r->cappend)
        return write_row(r, r->row);
    memcpy(r->pend + (size_t) r->npend * (size_t) r->ncols, r->row,
           (size_t) r->ncols * sizeof *r->row);
    r->npend++;
    return grid ? flush_pending(r, 0) : CLINK_OK;
}

/* one row of the kind given (CLINK_ROW_EVENT: told apart by the contacts' phases) */
static clink_status record_row(clink_recorder *r, const clink_sim *sim, clink_row_kind kind)
{
    out_file *ts = &r->file[OUT_TS];
    clink_status st;

    if (r->opt.format == CLINK_FORMAT_CSV && ts->err != 0)
        return file_error(r, OUT_TS, "cannot write", ts->err);
    r->kind = (int) kind;
    st = sample_row(r, sim);
    if (st != CLINK_OK)
        return st;
    st = write_impacts(r, sim);
    if (st != CLINK_OK)
        return st;
    if (r->opt.rows == CLINK_ROWS_EVENTS)
        return pend_row(r, kind == CLINK_ROW_GRID);
    return write_row(r, r->row);
}

/* sim_row_fn for sim_output_walk */
static clink_status walk_row(void *data, const clink_sim *sim, clink_row_kind kind)
{
    return record_row(data, sim, kind);
}

/* a call on a recorder that cannot take rows: CLINK_ERR_ARG with the message */
static clink_status refuse(clink_recorder *r, const char *fn, const void *sim)
{
    snprintf(r->msg, sizeof r->msg, "%s: %s", fn,
             sim == NULL ? "sim is NULL" : "recorder already finished");
    return CLINK_ERR_ARG;
}

clink_status clink_recorder_sample(clink_recorder *r, const clink_sim *sim)
{
    if (r == NULL)
        return CLINK_ERR_ARG;
    if (sim == NULL || r->finished)
        return refuse(r, "clink_recorder_sample", sim);
    return record_row(r, sim, CLINK_ROW_GRID);
}

clink_status clink_recorder_advance(clink_recorder *r, clink_sim *sim, double t)
{
    if (r == NULL)
        return CLINK_ERR_ARG;
    if (sim == NULL || r->finished)
        return refuse(r, "clink_recorder_advance", sim);
    r->msg[0] = '\0';
    return sim_output_walk(sim, t, r->opt.rows, r->opt.dense, r->onset, walk_row, r);
}

/* ---- summary -------------------------------------------------------------- */

static void json_string(out_file *f, const char *s)
{
    out_char(f, '"');
    for (; s != NULL && *s != '\0'; s++) {
        unsigned char ch = (unsigned char) *s;
        if (ch == '"' || ch == '\\') {
            out_char(f, '\\');
            out_char(f, (char) ch);
        } else if (ch == '\n') {
            out_str(f, "\\n");
        } else if (ch < 0x20) {
            out_printf(f, "\\u%04x", ch);
        } else {
            out_char(f, (char) ch);
        }
    }
    out_char(f, '"');
}

/* "KEY": a finite number, or null (JSON has no NaN) */
static void json_number(out_file *f, const char *key, double v)
{
    out_printf(f, ",\n  \"%s\": ", key);
    if (isfinite(v))
        out_num0(f, v);
    else
        out_str(f, "null");
}

static void json_long(out_file *f, const char *key, long v)
{
    out_printf(f, ",\n  \"%s\": %ld", key, v);
}

/* ",\n  "overrides": {PATH: VALUE, ...}" of the run's overrides by path, if any */
static void json_overrides(out_file *f, const clink_run_info *in)
{
    int i;

    if (in->override_count <= 0 || in->override_paths == NULL || in->override_values == NULL)
        return;
    out_str(f, ",\n  \"overrides\": {");
    for (i = 0; i < in->override_count; i++) {
        const char *v = in->override_values[i];
        char *end;
        double x = v != NULL ? strtod(v, &end) : NAN;
        out_str(f, i > 0 ? ",\n    " : "\n    ");
        json_string(f, in->override_paths[i]);
        out_str(f, ": ");
        if (v != NULL && end != v && *end == '\0' && isfinite(x))
            out_num0(f, x);
        else
            json_string(f, v);
    }
    out_str(f, "\n  }");
}

/* the run: status, end, settings of the integrator and of the output */
static void write_summary_run(clink_recorder *r, out_file *f, const clink_sim *sim,
                              const clink_run_info *in)
{
    static const char *const methods[] = {"bdf", "adams", "auto"};
    static const char *const drifts[] = {"projection", "baumgarte", "none", "auto"};
    static const char *const rows[] = {"events", "steps", "grid"};
    static const char *const formats[] = {"csv", "hdf5"};
    clink_settings_def set = in->settings != NULL ? *in->settings : clink_model_settings(r->model);

    out_str(f, "{\n  \"model\": ");
    json_string(f, in->model_name);
    out_str(f, ",\n  \"source\": ");
    if (in->source != NULL)
        json_string(f, in->source);
    else
        out_str(f, "null");
    json_overrides(f, in);
    out_printf(f, ",\n  \"status\": \"%s\"",
               in->interrupted ? "interrupted"
               : in->failed    ? "failed"
                               : "ok");
    out_str(f, ",\n  \"message\": ");
    if (in->message != NULL)
        json_string(f, in->message);
    else
        out_str(f, "null");
    json_number(f, "t_end_requested", in->t_end);
    json_number(f, "t_end_reached", sim != NULL ? clink_sim_time(sim) : 0.0);
    int automatic = set.method == CLINK_METHOD_AUTO || set.drift == CLINK_DRIFT_AUTO;
    if (automatic && sim != NULL) /* what auto chose (docs/kernel.md) */
        set = clink_sim_settings(sim);
    out_printf(f, ",\n  \"method\": \"%s\",\n  \"drift\": \"%s\"%s", methods[(int) set.method % 3],
               drifts[(int) set.drift % 4], automatic ? ",\n  \"auto\": true" : "");
    json_number(f, "rtol", set.rtol);
    json_number(f, "atol", set.atol);
    json_number(f, "max_steps", set.max_steps);
    json_number(f, "min_step", set.min_step);
    json_number(f, "wall_limit", set.wall_limit);
    json_number(f, "output_step", set.output_step);
    json_long(f, "output_rows", r->rows);
    out_printf(f, ",\n  \"row_mode\": \"%s\",\n  \"output_format\": \"%s\"",
               rows[(int) r->opt.rows], formats[(int) r->opt.format]);
    json_long(f, "dense_rows_per_step", r->opt.dense);
}

static void write_summary(clink_recorder *r, out_file *f, const clink_sim *sim,
                          const clink_run_info *in)
{
    clink_sim_stats st;
    double dq = 0, dv = 0;
    int i, nw = 0;

    memset(&st, 0, sizeof st);
    if (sim != NULL) {
        clink_sim_stats_get(sim, &st);
        clink_sim_assembly(sim, &dq, &dv);
    }
    write_summary_run(r, f, sim, in);
    json_long(f, "steps", st.steps);
    json_long(f, "rhs_calls", st.rhs_evals);
    json_long(f, "rhs_calls_jacobian", st.rhs_evals_jac);
    json_long(f, "error_test_failures", st.error_test_fails);
    json_long(f, "projections", st.proj_evals);
    json_long(f, "root_events", st.contact_events);
    json_long(f, "cvode_reinits", st.contact_reinits);
    json_long(f, "impacts", sim != NULL ? clink_sim_impact_count(sim) : 0);
    json_number(f, "max_constraint_violation_position", r->max_pos);
    json_number(f, "max_constraint_violation_velocity", r->max_vel);
    json_number(f, "energy_residual_final", r->last_balance);
    json_number(f, "energy_residual_max_abs", r->max_balance);
    json_number(f, "assembly_correction_position", dq);
    json_number(f, "assembly_correction_velocity", dv);
    out_str(f, ",\n  \"warnings\": [");
    for (i = 0; in->warnings != NULL && i < in->warning_count; i++) {
        out_str(f, nw++ ? ",\n    " : "\n    ");
        json_string(f, in->warnings[i]);
    }
    out_str(f, nw ? "\n  ]" : "]");
    if (in->wall_time >= 0)
        json_number(f, "wall_time", in->wall_time);
    else
        out_str(f, ",\n  \"wall_time\": null");
    out_str(f, "\n}\n");
    out_char(f, '\0'); /* a C string for results.h5; not written to summary.json */
    f->len--;
}

/* HDF5: the impact log and the summary into results.h5, which is closed */
static clink_status finish_h5(clink_recorder *r, const out_file *summary)
{
    char(*names)[CLINK_NAME_MAX + 16] = calloc((size_t) r->nimp + 1, sizeof *names);
    const char **ptrs = calloc((size_t) r->nimp + 1, sizeof *ptrs);
    out_h5 *h = r->h5;
    int i, rc;

    r->h5 = NULL;
    if (names == NULL || ptrs == NULL) {
        free(names);
        free(ptrs);
        output_h5_abandon(h);
        return file_error(r, OUT_H5, "cannot write the impact log", ENOMEM);
    }
    for (i = 0; i < r->nimp; i++) {
        contact_name(r, r->imp[i].contact, names[i], sizeof names[i]);
        ptrs[i] = names[i];
    }
    rc = output_h5_finish(h, r->imp, ptrs, r->nimp, summary->buf, r->msg, sizeof r->msg);
    free(names);
    free(ptrs);
    return rc == 0 ? CLINK_OK : CLINK_ERR_IO;
}

/* summary.json from the summary in memory */
static clink_status write_summary_file(clink_recorder *r, const out_file *summary)
{
    out_file *f = &r->file[OUT_SUM];

    if (out_open(f, r->tmp[OUT_SUM]) != 0)
        return file_error(r, OUT_SUM, "cannot create", errno);
    out_bytes(f, summary->buf, summary->len);
    out_close(f);
    if (f->err != 0)
        return file_error(r, OUT_SUM, "cannot write", f->err);
    return CLINK_OK;
}

/* closes the files of the time series and writes the summary in both places */
static clink_status close_all(clink_recorder *r, const clink_sim *sim, const clink_run_info *info)
{
    out_file summary;
    clink_status st = CLINK_OK;
    int i;

    if (sim != NULL)
        st = write_impacts(r, sim);
    if (st == CLINK_OK)
        st = flush_pending(r, 1); /* a run that stopped between grid rows keeps them all */
    for (i = OUT_TS; i <= OUT_IMP && st == CLINK_OK; i++) {
        if (!r->used[i])
            continue;
        out_close(&r->file[i]);
        if (r->file[i].err != 0)
            st = file_error(r, i, "cannot write", r->file[i].err);
    }
    if (st != CLINK_OK)
        return st;
    if (out_memory(&summary) != 0)
        return file_error(r, OUT_SUM, "cannot write", ENOMEM);
    write_summary(r, &summary, sim, info);
    if (summary.err != 0)
        st = file_error(r, OUT_SUM, "cannot write", summary.err);
    if (st == CLINK_OK && r->used[OUT_H5])
        st = finish_h5(r, &summary);
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
    st = close_all(r, sim, info);
    if (st != CLINK_OK)
        return st;
    /* summary.json last: it appears only beside the files it describes */
    for (i = 0; i < OUT_FILES; i++) {
        if (!r->used[i])
            continue;
        if (rename(r->tmp[i], r->final[i]) != 0) {
            int e = errno;
            int j;
            for (j = 0; j < i; j++) /* no half set of results; the rename error is reported */
                if (r->used[j])
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
