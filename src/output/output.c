/*
 * The run recorder of include/clink/output.h: time series CSV, impact log CSV
 * and summary JSON of one simulation. Nothing is computed here but bookkeeping:
 * every number comes from the simulation API (state, accelerations, joint
 * reactions, driver forces, energies, constraint violation, CVODE statistics);
 * the recorder keeps the maxima over the samples (|Phi|, |Phi_q v - nu|,
 * |energy balance|). Files go to ".NAME.tmp" in the directory and are renamed
 * at the end; numbers are printed with %.17g so equal runs give equal bytes.
 */
#include "clink/output.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUT_FILES = 3, OUT_PATH_MAX = 4096 };

static const char *const out_names[OUT_FILES] = {"timeseries.csv", "impacts.csv", "summary.json"};

struct clink_recorder {
    const clink_model *model;
    clink_output_options opt;
    char tmp[OUT_FILES][OUT_PATH_MAX];
    char final[OUT_FILES][OUT_PATH_MAX];
    FILE *ts, *imp;
    int nbodies, njoints, ndrivers;
    int npairs, ncontacts; /* contact pairs, then clearance joints */
    int impacts_written;
    long rows;
    double max_pos, max_vel, max_balance, last_balance;
    int finished;
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
    char name[CLINK_NAME_MAX + 16];
    int i, k;

    fputs("t [s]", r->ts);
    for (i = 1; i < r->nbodies; i++) {
        entity_name(r->model, CLINK_ENTITY_BODY, i, name, sizeof name);
        for (k = 0; k < 6; k++)
            fprintf(r->ts, ",%s.%s", name, body_cols[k]);
        if (r->opt.accelerations)
            for (k = 0; k < 3; k++)
                fprintf(r->ts, ",%s.%s", name, acc_cols[k]);
    }
    if (r->opt.reactions) {
        for (i = 0; i < r->njoints; i++) {
            entity_name(r->model, CLINK_ENTITY_JOINT, i, name, sizeof name);
            fprintf(r->ts, ",%s.Fx [N],%s.Fy [N],%s.M [N m]", name, name, name);
        }
        for (i = 0; i < r->ndrivers; i++) {
            clink_driver_def d;
            int angular = 0;
            entity_name(r->model, CLINK_ENTITY_DRIVER, i, name, sizeof name);
            if (clink_model_driver(r->model, i, &d) == CLINK_OK)
                angular = d.target == CLINK_DRIVE_JOINT_ANGLE ||
                          (d.target == CLINK_DRIVE_BODY_COORDINATE && d.coordinate == 2);
            fprintf(r->ts, ",%s.F [%s]", name, angular ? "N m" : "N");
        }
    }
    for (i = 0; i < r->ncontacts; i++) {
        contact_name(r, i, name, sizeof name);
        fprintf(r->ts, ",%s.delta [m],%s.delta_dot [m/s],%s.Fn [N],%s.Ft [N],%s.phase [-]", name,
                name, name, name, name);
        if (i >= r->npairs)
            fprintf(r->ts, ",%s.ex [m],%s.ey [m]", name, name);
    }
    if (r->opt.energies)
        fputs(",energy.kinetic [J],energy.gravity [J],energy.spring [J],"
              "energy.work_drivers [J],energy.work_loads [J],energy.residual [J]",
              r->ts);
    if (r->opt.energies && r->ncontacts > 0)
        fputs(",energy.contact_stored [J],energy.contact_damping [J],"
              "energy.contact_friction [J]",
              r->ts);
    fputs(",constraint.position [m],constraint.velocity [m/s]\n", r->ts);

    fputs("t [s],pair,v_impact [m/s],v_separation [m/s],restitution [-],delta_max [m],"
          "F_max [N],duration [s],dissipated [J]\n",
          r->imp);
}

clink_status clink_recorder_create(const clink_model *model, const char *dir,
                                   const clink_output_options *options, clink_recorder **rec,
                                   char *err, size_t err_size)
{
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
    for (i = 0; i < OUT_FILES; i++) {
        int a = snprintf(r->tmp[i], OUT_PATH_MAX, "%s/.%s.tmp", dir, out_names[i]);
        int b = snprintf(r->final[i], OUT_PATH_MAX, "%s/%s", dir, out_names[i]);
        if (a < 0 || a >= OUT_PATH_MAX || b < 0 || b >= OUT_PATH_MAX) {
            free(r);
            return out_fail(err, err_size, CLINK_ERR_ARG, "%s: directory name too long", dir);
        }
    }
    r->ts = fopen(r->tmp[0], "w");
    if (r->ts == NULL) {
        clink_status st = out_fail(err, err_size, CLINK_ERR_IO, "%s: cannot write: %s", r->tmp[0],
                                   strerror(errno));
        free(r);
        return st;
    }
    r->imp = fopen(r->tmp[1], "w");
    if (r->imp == NULL) {
        clink_status st = out_fail(err, err_size, CLINK_ERR_IO, "%s: cannot write: %s", r->tmp[1],
                                   strerror(errno));
        fclose(r->ts);
        remove(r->tmp[0]);
        free(r);
        return st;
    }
    write_header(r);
    *rec = r;
    return CLINK_OK;
}

static void put(FILE *f, double v)
{
    fprintf(f, ",%.17g", v);
}

/* appends the impacts recorded since the last call to impacts.csv */
static void write_impacts(clink_recorder *r, const clink_sim *sim)
{
    char name[CLINK_NAME_MAX + 16];
    clink_impact_record rec;
    int n = clink_sim_impact_count(sim);

    for (; r->impacts_written < n; r->impacts_written++) {
        if (clink_sim_impact(sim, r->impacts_written, &rec) != CLINK_OK)
            break;
        contact_name(r, rec.contact, name, sizeof name);
        fprintf(r->imp, "%.17g,%s", rec.t_onset, name);
        put(r->imp, rec.v_impact);
        put(r->imp, rec.v_separation);
        put(r->imp, rec.restitution);
        put(r->imp, rec.delta_max);
        put(r->imp, rec.F_max);
        put(r->imp, rec.duration);
        put(r->imp, rec.dissipated);
        fputc('\n', r->imp);
    }
}

clink_status clink_recorder_sample(clink_recorder *r, const clink_sim *sim)
{
    double q[3], v[3], a[3], pos = 0, vel = 0;
    int i, k;
    clink_status st;

    if (r == NULL || sim == NULL || r->finished)
        return CLINK_ERR_ARG;
    fprintf(r->ts, "%.17g", clink_sim_time(sim));
    for (i = 1; i < r->nbodies; i++) {
        st = clink_sim_body_state(sim, i, q, v);
        if (st != CLINK_OK)
            return st;
        for (k = 0; k < 3; k++)
            put(r->ts, q[k]);
        for (k = 0; k < 3; k++)
            put(r->ts, v[k]);
        if (r->opt.accelerations) {
            st = clink_sim_body_acceleration(sim, i, a);
            if (st != CLINK_OK)
                return st;
            for (k = 0; k < 3; k++)
                put(r->ts, a[k]);
        }
    }
    if (r->opt.reactions) {
        for (i = 0; i < r->njoints; i++) {
            st = clink_sim_joint_reaction(sim, i, a);
            if (st != CLINK_OK)
                return st;
            for (k = 0; k < 3; k++)
                put(r->ts, a[k]);
        }
        for (i = 0; i < r->ndrivers; i++) {
            double f = 0;
            st = clink_sim_driver_force(sim, i, &f);
            if (st != CLINK_OK)
                return st;
            put(r->ts, f);
        }
    }
    for (i = 0; i < r->ncontacts; i++) {
        clink_contact_info ci;
        st = clink_sim_contact(sim, i, &ci);
        if (st != CLINK_OK)
            return st;
        put(r->ts, ci.delta);
        put(r->ts, ci.delta_dot);
        put(r->ts, ci.fn);
        put(r->ts, ci.ft);
        put(r->ts, ci.persistent ? 4.0 : (double) ci.phase);
        if (i >= r->npairs) {
            put(r->ts, ci.eccentricity[0]);
            put(r->ts, ci.eccentricity[1]);
        }
    }
    write_impacts(r, sim);
    if (r->opt.energies) {
        clink_energy e;
        st = clink_sim_energy(sim, &e);
        if (st != CLINK_OK)
            return st;
        put(r->ts, e.kinetic);
        put(r->ts, e.gravity);
        put(r->ts, e.spring);
        put(r->ts, e.work_drivers);
        put(r->ts, e.work_loads);
        put(r->ts, e.balance);
        if (r->ncontacts > 0) {
            put(r->ts, e.contact_stored);
            put(r->ts, e.contact_damping);
            put(r->ts, e.contact_friction);
        }
        r->last_balance = e.balance;
        if (fabs(e.balance) > r->max_balance)
            r->max_balance = fabs(e.balance);
    }
    clink_sim_constraint_violation(sim, &pos, &vel);
    put(r->ts, pos);
    put(r->ts, vel);
    fputc('\n', r->ts);
    if (pos > r->max_pos)
        r->max_pos = pos;
    if (vel > r->max_vel)
        r->max_vel = vel;
    r->rows++;
    if (ferror(r->ts))
        return CLINK_ERR_IO;
    return CLINK_OK;
}

/* a JSON string literal */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s != NULL && *s != '\0'; s++) {
        unsigned char ch = (unsigned char) *s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* a finite number, or null (JSON has no NaN) */
static void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

static int write_summary(const clink_recorder *r, const clink_sim *sim, const clink_run_info *in)
{
    static const char *const methods[] = {"bdf", "adams"};
    static const char *const drifts[] = {"projection", "baumgarte", "none"};
    clink_sim_stats st;
    clink_settings_def set = clink_model_settings(r->model);
    double dq = 0, dv = 0;
    FILE *f = fopen(r->tmp[2], "w");
    int ok;

    if (f == NULL)
        return -1;
    memset(&st, 0, sizeof st);
    if (sim != NULL) {
        clink_sim_stats_get(sim, &st);
        clink_sim_assembly(sim, &dq, &dv);
    }
    fputs("{\n  \"model\": ", f);
    json_string(f, in->model_name);
    fputs(",\n  \"source\": ", f);
    if (in->source != NULL)
        json_string(f, in->source);
    else
        fputs("null", f);
    fprintf(f, ",\n  \"status\": \"%s\"", in->failed ? "failed" : "ok");
    fputs(",\n  \"message\": ", f);
    if (in->message != NULL)
        json_string(f, in->message);
    else
        fputs("null", f);
    fputs(",\n  \"t_end_requested\": ", f);
    json_number(f, in->t_end);
    fputs(",\n  \"t_end_reached\": ", f);
    json_number(f, sim != NULL ? clink_sim_time(sim) : 0.0);
    fprintf(f, ",\n  \"method\": \"%s\",\n  \"drift\": \"%s\"",
            methods[set.method == CLINK_METHOD_ADAMS], drifts[(int) set.drift % 3]);
    fputs(",\n  \"rtol\": ", f);
    json_number(f, set.rtol);
    fputs(",\n  \"atol\": ", f);
    json_number(f, set.atol);
    fprintf(f, ",\n  \"output_rows\": %ld", r->rows);
    fprintf(f, ",\n  \"steps\": %ld", st.steps);
    fprintf(f, ",\n  \"rhs_calls\": %ld", st.rhs_evals);
    fprintf(f, ",\n  \"rhs_calls_jacobian\": %ld", st.rhs_evals_jac);
    fprintf(f, ",\n  \"error_test_failures\": %ld", st.error_test_fails);
    fprintf(f, ",\n  \"projections\": %ld", st.proj_evals);
    fprintf(f, ",\n  \"root_events\": %ld", st.contact_events);
    fprintf(f, ",\n  \"cvode_reinits\": %ld", st.contact_reinits);
    fprintf(f, ",\n  \"impacts\": %d", sim != NULL ? clink_sim_impact_count(sim) : 0);
    fputs(",\n  \"max_constraint_violation_position\": ", f);
    json_number(f, r->max_pos);
    fputs(",\n  \"max_constraint_violation_velocity\": ", f);
    json_number(f, r->max_vel);
    fputs(",\n  \"energy_residual_final\": ", f);
    json_number(f, r->last_balance);
    fputs(",\n  \"energy_residual_max_abs\": ", f);
    json_number(f, r->max_balance);
    fputs(",\n  \"assembly_correction_position\": ", f);
    json_number(f, dq);
    fputs(",\n  \"assembly_correction_velocity\": ", f);
    json_number(f, dv);
    fputs(",\n  \"wall_time\": ", f);
    if (in->wall_time >= 0)
        json_number(f, in->wall_time);
    else
        fputs("null", f);
    fputs("\n}\n", f);
    ok = !ferror(f);
    if (fclose(f) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

clink_status clink_recorder_finish(clink_recorder *r, const clink_sim *sim,
                                   const clink_run_info *info, char *err, size_t err_size)
{
    int i, bad = 0;

    if (r == NULL || info == NULL || r->finished)
        return out_fail(err, err_size, CLINK_ERR_ARG, "clink_recorder_finish: bad arguments");
    if (sim != NULL)
        write_impacts(r, sim);
    if (ferror(r->ts) || fclose(r->ts) != 0)
        bad = 1;
    r->ts = NULL;
    if (ferror(r->imp) || fclose(r->imp) != 0)
        bad = 1;
    r->imp = NULL;
    if (bad)
        return out_fail(err, err_size, CLINK_ERR_IO, "%s: write error", r->tmp[0]);
    if (write_summary(r, sim, info) != 0)
        return out_fail(err, err_size, CLINK_ERR_IO, "%s: write error", r->tmp[2]);
    for (i = 0; i < OUT_FILES; i++)
        if (rename(r->tmp[i], r->final[i]) != 0)
            return out_fail(err, err_size, CLINK_ERR_IO, "%s: cannot rename: %s", r->final[i],
                            strerror(errno));
    r->finished = 1;
    return CLINK_OK;
}

void clink_recorder_destroy(clink_recorder **rec)
{
    clink_recorder *r;
    int i;

    if (rec == NULL || *rec == NULL)
        return;
    r = *rec;
    if (r->ts != NULL)
        fclose(r->ts);
    if (r->imp != NULL)
        fclose(r->imp);
    if (!r->finished)
        for (i = 0; i < OUT_FILES; i++)
            remove(r->tmp[i]);
    free(r);
    *rec = NULL;
}
