/*
 * The run recorder of include/clink/output.h: time series CSV, impact log CSV
 * and summary JSON of one simulation. Nothing is computed here but bookkeeping:
 * every number comes from the simulation API (state, accelerations, joint
 * reactions, driver forces, energies, constraint violation, CVODE statistics);
 * the recorder keeps the maxima over the samples (|Phi|, |Phi_q v - nu|,
 * |energy balance|); the summary's "warnings" are the caller's
 * (clink_run_info).
 *
 * Protocol: creating a recorder first removes the previous run's results in the
 * directory (summary.json first) and any leftover "NAME.incomplete" of a run
 * that was killed; the files are then written as "NAME.incomplete" and renamed
 * to their names at the end, summary.json last. Numbers are written with the
 * shortest decimal that reads back to the same double (output/fmt_double.c)
 * into the recorder's own buffers, handed to the C library 64 KiB at a time.
 * The first write error of a file is kept (errno) and reported with the file's
 * final name.
 */
#include "clink/output.h"

#include "output/fmt_double.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUT_FILES = 3, OUT_PATH_MAX = 4096, OUT_BUF = 1 << 16, OUT_MSG = OUT_PATH_MAX + 256 };
enum { OUT_TS = 0, OUT_IMP = 1, OUT_SUM = 2 };

static const char *const out_names[OUT_FILES] = {"timeseries.csv", "impacts.csv", "summary.json"};

/* one output file with its own buffer */
typedef struct out_file {
    FILE *f;
    char *buf;
    size_t len;
    int err; /* errno of the first failure, 0 while none */
} out_file;

struct clink_recorder {
    const clink_model *model;
    clink_output_options opt;
    char tmp[OUT_FILES][OUT_PATH_MAX];
    char final[OUT_FILES][OUT_PATH_MAX];
    out_file file[OUT_FILES];
    int nbodies, njoints, ndrivers;
    int npairs, ncontacts; /* contact pairs, then clearance joints */
    int impacts_written;
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
    return o;
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

/* room for n more bytes in the buffer (n <= OUT_BUF) */
static char *out_room(out_file *of, size_t n)
{
    if (OUT_BUF - of->len < n)
        out_flush(of);
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

/* ---- names ---------------------------------------------------------------- */

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

static void write_header(clink_recorder *r)
{
    static const char *const body_cols[] = {"x [m]",    "y [m]",    "phi [rad]",
                                            "vx [m/s]", "vy [m/s]", "omega [rad/s]"};
    static const char *const acc_cols[] = {"ax [m/s^2]", "ay [m/s^2]", "alpha [rad/s^2]"};
    out_file *ts = &r->file[OUT_TS];
    char name[CLINK_NAME_MAX + 16];
    int i, k;

    out_str(ts, "t [s]");
    for (i = 1; i < r->nbodies; i++) {
        entity_name(r->model, CLINK_ENTITY_BODY, i, name, sizeof name);
        for (k = 0; k < 6; k++)
            out_printf(ts, ",%s.%s", name, body_cols[k]);
        if (r->opt.accelerations)
            for (k = 0; k < 3; k++)
                out_printf(ts, ",%s.%s", name, acc_cols[k]);
    }
    if (r->opt.reactions) {
        for (i = 0; i < r->njoints; i++) {
            entity_name(r->model, CLINK_ENTITY_JOINT, i, name, sizeof name);
            out_printf(ts, ",%s.Fx [N],%s.Fy [N],%s.M [N m]", name, name, name);
        }
        for (i = 0; i < r->ndrivers; i++) {
            clink_driver_def d;
            int angular = 0;
            entity_name(r->model, CLINK_ENTITY_DRIVER, i, name, sizeof name);
            if (clink_model_driver(r->model, i, &d) == CLINK_OK)
                angular = d.target == CLINK_DRIVE_JOINT_ANGLE ||
                          (d.target == CLINK_DRIVE_BODY_COORDINATE && d.coordinate == 2);
            out_printf(ts, ",%s.F [%s]", name, angular ? "N m" : "N");
        }
    }
    for (i = 0; i < r->ncontacts; i++) {
        contact_name(r, i, name, sizeof name);
        out_printf(ts, ",%s.delta [m],%s.delta_dot [m/s],%s.Fn [N],%s.Ft [N],%s.phase [-]", name,
                   name, name, name, name);
        if (i >= r->npairs)
            out_printf(ts, ",%s.ex [m],%s.ey [m]", name, name);
    }
    if (r->opt.energies)
        out_str(ts, ",energy.kinetic [J],energy.gravity [J],energy.spring [J],"
                    "energy.work_drivers [J],energy.work_loads [J],energy.residual [J]");
    if (r->opt.energies && r->ncontacts > 0)
        out_str(ts, ",energy.contact_stored [J],energy.contact_damping [J],"
                    "energy.contact_friction [J]");
    out_str(ts, ",constraint.position [m],constraint.velocity [m/s]\n");

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

    /* cleanup: a file never created gives ENOENT, and destroy has no caller to tell of
       another failure (the .incomplete name still says what the file is) */
    for (i = 0; i < OUT_FILES; i++) {
        out_close(&r->file[i]);
        if (!r->finished)
            remove(r->tmp[i]);
    }
    free(r);
}

clink_status clink_recorder_create(const clink_model *model, const char *dir,
                                   const clink_output_options *options, clink_recorder **rec,
                                   char *err, size_t err_size)
{
    /* the previous run's results: summary.json first, so that no state of an interrupted
       removal leaves a summary beside files it does not describe */
    static const int removal_order[OUT_FILES] = {OUT_SUM, OUT_TS, OUT_IMP};
    char legacy[OUT_PATH_MAX];
    clink_recorder *r;
    int i;

    if (rec == NULL)
        return out_fail(err, err_size, CLINK_ERR_ARG, "clink_recorder_create: rec is NULL");
    *rec = NULL;
    if (model == NULL || dir == NULL || dir[0] == '\0')
        return out_fail(err, err_size, CLINK_ERR_ARG, "clink_recorder_create: no model or dir");
    r = calloc(1, sizeof *r);
    if (r == NULL)
        return out_fail(err, err_size, CLINK_ERR_NOMEM, "out of memory");
    r->model = model;
    r->opt = options != NULL ? *options : clink_default_output_options();
    r->nbodies = clink_model_count(model, CLINK_ENTITY_BODY);
    r->njoints = clink_model_count(model, CLINK_ENTITY_JOINT);
    r->ndrivers = clink_model_count(model, CLINK_ENTITY_DRIVER);
    r->npairs = clink_model_count(model, CLINK_ENTITY_CONTACT_PAIR);
    r->ncontacts = r->npairs + clink_model_count(model, CLINK_ENTITY_CLEARANCE_JOINT);
    r->finished = 1; /* nothing of ours to remove yet */
    for (i = 0; i < OUT_FILES; i++) {
        int a = snprintf(r->tmp[i], OUT_PATH_MAX, "%s/%s.incomplete", dir, out_names[i]);
        int b = snprintf(r->final[i], OUT_PATH_MAX, "%s/%s", dir, out_names[i]);
        if (a < 0 || a >= OUT_PATH_MAX || b < 0 || b >= OUT_PATH_MAX) {
            free(r);
            return out_fail(err, err_size, CLINK_ERR_ARG, "%s: directory name too long (%s)", dir,
                            strerror(ENAMETOOLONG));
        }
    }
    for (i = 0; i < OUT_FILES; i++) {
        int k = removal_order[i];
        if (remove_if_there(r->final[k]) != 0) {
            clink_status st = out_fail(err, err_size, CLINK_ERR_IO,
                                       "%s: cannot remove the previous run's file: %s", r->final[k],
                                       strerror(errno));
            free(r);
            return st;
        }
        /* a killed run's leftovers: ours, and the hidden names of earlier versions */
        snprintf(legacy, sizeof legacy, "%s/.%s.tmp", dir, out_names[k]);
        if (remove_if_there(r->tmp[k]) != 0 || remove_if_there(legacy) != 0) {
            clink_status st = out_fail(err, err_size, CLINK_ERR_IO,
                                       "%s: cannot remove an unfinished run's file: %s", r->tmp[k],
                                       strerror(errno));
            free(r);
            return st;
        }
    }
    r->finished = 0;
    for (i = 0; i < 2; i++) {
        if (out_open(&r->file[i], r->tmp[i]) != 0) {
            clink_status st = out_fail(err, err_size, CLINK_ERR_IO, "%s: cannot create: %s",
                                       r->final[i], strerror(errno));
            recorder_free(r);
            return st;
        }
    }
    write_header(r);
    *rec = r;
    return CLINK_OK;
}

const char *clink_recorder_error(const clink_recorder *rec)
{
    return rec != NULL ? rec->msg : "";
}

/* appends the impacts recorded since the last call to impacts.csv */
static void write_impacts(clink_recorder *r, const clink_sim *sim)
{
    out_file *f = &r->file[OUT_IMP];
    char name[CLINK_NAME_MAX + 16];
    clink_impact_record rec;
    int n = clink_sim_impact_count(sim);

    for (; r->impacts_written < n; r->impacts_written++) {
        if (clink_sim_impact(sim, r->impacts_written, &rec) != CLINK_OK)
            break;
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
}

/* the columns of the bodies: position, velocity and (if asked) acceleration of each */
static clink_status sample_bodies(clink_recorder *r, const clink_sim *sim, out_file *ts)
{
    double q[3], v[3], a[3];
    int i, k;
    clink_status st;

    for (i = 1; i < r->nbodies; i++) {
        st = clink_sim_body_state(sim, i, q, v);
        if (st != CLINK_OK)
            return st;
        for (k = 0; k < 3; k++)
            out_num(ts, q[k]);
        for (k = 0; k < 3; k++)
            out_num(ts, v[k]);
        if (r->opt.accelerations) {
            st = clink_sim_body_acceleration(sim, i, a);
            if (st != CLINK_OK)
                return st;
            for (k = 0; k < 3; k++)
                out_num(ts, a[k]);
        }
    }
    return CLINK_OK;
}

/* the columns of the joint reactions and driver forces */
static clink_status sample_reactions(clink_recorder *r, const clink_sim *sim, out_file *ts)
{
    double a[3];
    int i, k;
    clink_status st;

    for (i = 0; i < r->njoints; i++) {
        st = clink_sim_joint_reaction(sim, i, a);
        if (st != CLINK_OK)
            return st;
        for (k = 0; k < 3; k++)
            out_num(ts, a[k]);
    }
    for (i = 0; i < r->ndrivers; i++) {
        double f = 0;
        st = clink_sim_driver_force(sim, i, &f);
        if (st != CLINK_OK)
            return st;
        out_num(ts, f);
    }
    return CLINK_OK;
}

/* the columns of the contacts (pairs, then clearance joints with their eccentricity) */
static clink_status sample_contacts(clink_recorder *r, const clink_sim *sim, out_file *ts)
{
    int i;
    clink_status st;

    for (i = 0; i < r->ncontacts; i++) {
        clink_contact_info ci;
        st = clink_sim_contact(sim, i, &ci);
        if (st != CLINK_OK)
            return st;
        out_num(ts, ci.delta);
        out_num(ts, ci.delta_dot);
        out_num(ts, ci.fn);
        out_num(ts, ci.ft);
        out_num(ts, ci.persistent ? 4.0 : (double) ci.phase);
        if (i >= r->npairs) {
            out_num(ts, ci.eccentricity[0]);
            out_num(ts, ci.eccentricity[1]);
        }
    }
    return CLINK_OK;
}

/* the energy columns; tracks the largest balance error */
static clink_status sample_energies(clink_recorder *r, const clink_sim *sim, out_file *ts)
{
    clink_energy e;
    clink_status st = clink_sim_energy(sim, &e);

    if (st != CLINK_OK)
        return st;
    out_num(ts, e.kinetic);
    out_num(ts, e.gravity);
    out_num(ts, e.spring);
    out_num(ts, e.work_drivers);
    out_num(ts, e.work_loads);
    out_num(ts, e.balance);
    if (r->ncontacts > 0) {
        out_num(ts, e.contact_stored);
        out_num(ts, e.contact_damping);
        out_num(ts, e.contact_friction);
    }
    r->last_balance = e.balance;
    if (fabs(e.balance) > r->max_balance)
        r->max_balance = fabs(e.balance);
    return CLINK_OK;
}

clink_status clink_recorder_sample(clink_recorder *r, const clink_sim *sim)
{
    out_file *ts;
    double pos = 0, vel = 0;
    clink_status st;

    if (r == NULL)
        return CLINK_ERR_ARG;
    if (sim == NULL || r->finished) {
        snprintf(r->msg, sizeof r->msg, "clink_recorder_sample: %s",
                 sim == NULL ? "sim is NULL" : "recorder already finished");
        return CLINK_ERR_ARG;
    }
    ts = &r->file[OUT_TS];
    if (ts->err != 0)
        return file_error(r, OUT_TS, "cannot write", ts->err);
    out_num0(ts, clink_sim_time(sim));
    st = sample_bodies(r, sim, ts);
    if (st == CLINK_OK && r->opt.reactions)
        st = sample_reactions(r, sim, ts);
    if (st == CLINK_OK)
        st = sample_contacts(r, sim, ts);
    if (st != CLINK_OK)
        return st;
    write_impacts(r, sim);
    if (r->opt.energies) {
        st = sample_energies(r, sim, ts);
        if (st != CLINK_OK)
            return st;
    }
    clink_sim_constraint_violation(sim, &pos, &vel);
    out_num(ts, pos);
    out_num(ts, vel);
    out_char(ts, '\n');
    if (pos > r->max_pos)
        r->max_pos = pos;
    if (vel > r->max_vel)
        r->max_vel = vel;
    r->rows++;
    if (ts->err != 0)
        return file_error(r, OUT_TS, "cannot write", ts->err);
    if (r->file[OUT_IMP].err != 0)
        return file_error(r, OUT_IMP, "cannot write", r->file[OUT_IMP].err);
    return CLINK_OK;
}

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

static void write_summary(clink_recorder *r, const clink_sim *sim, const clink_run_info *in)
{
    static const char *const methods[] = {"bdf", "adams"};
    static const char *const drifts[] = {"projection", "baumgarte", "none"};
    out_file *f = &r->file[OUT_SUM];
    clink_sim_stats st;
    clink_settings_def set = in->settings != NULL ? *in->settings : clink_model_settings(r->model);
    double dq = 0, dv = 0;
    int i, nw = 0;

    memset(&st, 0, sizeof st);
    if (sim != NULL) {
        clink_sim_stats_get(sim, &st);
        clink_sim_assembly(sim, &dq, &dv);
    }
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
    out_printf(f, ",\n  \"method\": \"%s\",\n  \"drift\": \"%s\"",
               methods[set.method == CLINK_METHOD_ADAMS], drifts[(int) set.drift % 3]);
    json_number(f, "rtol", set.rtol);
    json_number(f, "atol", set.atol);
    json_number(f, "max_steps", set.max_steps);
    json_number(f, "min_step", set.min_step);
    json_number(f, "wall_limit", set.wall_limit);
    json_long(f, "output_rows", r->rows);
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
}

clink_status clink_recorder_finish(clink_recorder *r, const clink_sim *sim,
                                   const clink_run_info *info)
{
    int i;

    if (r == NULL)
        return CLINK_ERR_ARG;
    if (info == NULL || r->finished) {
        snprintf(r->msg, sizeof r->msg, "clink_recorder_finish: %s",
                 info == NULL ? "info is NULL" : "recorder already finished");
        return CLINK_ERR_ARG;
    }
    if (sim != NULL)
        write_impacts(r, sim);
    for (i = 0; i < 2; i++) {
        out_close(&r->file[i]);
        if (r->file[i].err != 0)
            return file_error(r, i, "cannot write", r->file[i].err);
    }
    if (out_open(&r->file[OUT_SUM], r->tmp[OUT_SUM]) != 0)
        return file_error(r, OUT_SUM, "cannot create", errno);
    write_summary(r, sim, info);
    out_close(&r->file[OUT_SUM]);
    if (r->file[OUT_SUM].err != 0)
        return file_error(r, OUT_SUM, "cannot write", r->file[OUT_SUM].err);
    /* summary.json last: it appears only beside the files it describes */
    for (i = 0; i < OUT_FILES; i++) {
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
