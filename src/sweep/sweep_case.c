/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_case.c: one case of a sweep, run in the calling process (a child of the
 * pool): the model loaded with the case's overrides, the simulation integrated to
 * t_end and sampled on the output grid as `clink run` samples it, and the case's
 * result: its status (ok, failed at a time with its cause, invalid input) and the
 * summary quantities (impacts, the largest contact force of the impact records and
 * the output times, the largest body acceleration |(ax, ay)| and |energy residual|
 * at the output times, the first impact's restitution, the integrator steps), with
 * its wall time. When the sweep keeps outputs, the case also writes what `clink run`
 * writes into DIR/cases/NNNNNN.
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_internal.h"

#include "clink/clink.h"
#include "clink/model.h"
#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

double sweep_now(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* the directory of case k's outputs */
static void sweep_case_dir(const char *dir, long k, char *buf, size_t size)
{
    snprintf(buf, size, "%s/cases/%06ld", dir, k);
}

/* energies that overflow double precision (a mass or inertia near 1e308): 1 with res's
   cause, else 0 */
static int sweep_energy_overflow(const clink_sim *sim, sweep_result *res)
{
    static const char *const names[] = {"kinetic",        "gravity",         "spring",
                                        "work_drivers",   "work_loads",      "balance",
                                        "contact_stored", "contact_damping", "contact_friction"};
    clink_energy e;
    if (clink_sim_energy(sim, &e) != CLINK_OK)
        return 0;
    const double v[] = {e.kinetic,        e.gravity,         e.spring,
                        e.work_drivers,   e.work_loads,      e.balance,
                        e.contact_stored, e.contact_damping, e.contact_friction};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i])) {
            snprintf(res->cause, sizeof res->cause,
                     "implausible result at t = %.17g s: the %s energy is not finite (%g J): a "
                     "mass, inertia, stiffness or speed beyond what double precision holds",
                     clink_sim_time(sim), names[i], v[i]);
            res->q[SWEEP_Q_ENERGY] = NAN; /* not measured: an empty field */
            return 1;
        }
    return 0;
}

/* the largest contact force, body acceleration and |energy residual| at this sample */
static void sweep_sample(const clink_sim *sim, int bodies, sweep_result *res)
{
    clink_energy e;
    int contacts = clink_sim_contact_count(sim);

    for (int c = 0; c < contacts; c++) {
        clink_contact_info info;
        if (clink_sim_contact(sim, c, &info) == CLINK_OK && fabs(info.fn) > res->q[SWEEP_Q_FORCE])
            res->q[SWEEP_Q_FORCE] = fabs(info.fn);
    }
    for (int b = 1; b <= bodies; b++) {
        double a[3];
        if (clink_sim_body_acceleration(sim, b, a) == CLINK_OK &&
            hypot(a[0], a[1]) > res->q[SWEEP_Q_ACCEL])
            res->q[SWEEP_Q_ACCEL] = hypot(a[0], a[1]);
    }
    if (clink_sim_energy(sim, &e) == CLINK_OK && fabs(e.balance) > res->q[SWEEP_Q_ENERGY])
        res->q[SWEEP_Q_ENERGY] = fabs(e.balance);
}

/* case k's model and simulation with its overrides: 0, or -1 with res's status and cause */
static int sweep_case_load(const sweep_spec *s, const long *idx, clink_model **model,
                           clink_xml_summary *sum, clink_settings_def *set, clink_sim **sim,
                           sweep_result *res)
{
    char sets_buf[SWEEP_MAX_PARAMS][CLINK_XML_OVERRIDE_MAX], err[1024];
    const char *sets[SWEEP_MAX_PARAMS];
    clink_status st;

    for (int i = 0; i < s->n_params; i++) {
        int w = snprintf(sets_buf[i], sizeof sets_buf[i], "%s=%s", s->params[i].path,
                         s->params[i].values[idx[i]]);
        if (w < 0 || (size_t) w >= sizeof sets_buf[i]) {
            snprintf(res->cause, sizeof res->cause, "override '%s=...' longer than %d bytes",
                     s->params[i].path, CLINK_XML_OVERRIDE_MAX - 1);
            return -1;
        }
        sets[i] = sets_buf[i];
    }
    if (clink_xml_load_with(s->model, sets, s->n_params, NULL, model, sum, err, sizeof err) !=
        CLINK_OK) {
        snprintf(res->cause, sizeof res->cause, "%s", err);
        return -1;
    }
    *set = clink_model_settings(*model);
    if (set->output_step > set->t_end) {
        snprintf(res->cause, sizeof res->cause, "output step %g s is larger than the end time %g s",
                 set->output_step, set->t_end);
        return -1;
    }
    st = clink_sim_create(*model, set, sim, err, sizeof err);
    if (st != CLINK_OK) {
        int input = st == CLINK_ERR_ASSEMBLY || st == CLINK_ERR_SINGULAR || st == CLINK_ERR_ARG ||
                    st == CLINK_ERR_RANGE || st == CLINK_ERR_MODEL || st == CLINK_ERR_NONFINITE;
        res->status = input ? "invalid" : "failed";
        snprintf(res->cause, sizeof res->cause, "%s", err);
        return -1;
    }
    return 0;
}

/* the recorder of case k's outputs (its directory made): 0, or -1 with res's status and cause */
static int sweep_case_recorder(const char *dir, long k, const clink_model *model,
                               const clink_xml_summary *sum, clink_recorder **rec,
                               sweep_result *res)
{
    clink_output_options opt = clink_default_output_options();
    char err[1024], cdir[4200];

    sweep_case_dir(dir, k, cdir, sizeof cdir);
    opt.reactions = sum->out_reactions;
    opt.energies = sum->out_energies;
    opt.sections = sum->sections; /* Poincare sections: the case's poincare.csv */
    opt.nsections = sum->nsections;
    if (mkdir(cdir, 0777) != 0 && errno != EEXIST) {
        res->status = "failed";
        snprintf(res->cause, sizeof res->cause, "cannot create %.900s: %s", cdir, strerror(errno));
        return -1;
    }
    if (clink_recorder_create(model, cdir, &opt, rec, err, sizeof err) != CLINK_OK) {
        res->status = "failed";
        snprintf(res->cause, sizeof res->cause, "%s", err);
        return -1;
    }
    return 0;
}

/* sim integrated to t_end, sampled on the output grid: 1 if it failed (res's cause), else 0 */
static int sweep_case_integrate(const clink_model *model, clink_sim *sim, clink_recorder *rec,
                                const clink_settings_def *set, sweep_result *res)
{
    int bodies = clink_model_count(model, CLINK_ENTITY_BODY), failed = 0;
    long n_out = (long) floor(set->t_end / set->output_step * (1.0 + 1e-12));
    clink_status st;

    sweep_sample(sim, bodies, res);
    st = rec != NULL ? clink_recorder_watch(rec, sim) : CLINK_OK; /* its Poincare sections */
    if (st == CLINK_OK && rec != NULL)
        st = clink_recorder_sample(rec, sim);
    failed = sweep_energy_overflow(sim, res);
    for (long j = 1; j <= n_out + 1 && st == CLINK_OK && !failed; j++) {
        double t = j <= n_out ? (double) j * set->output_step : set->t_end;
        if (t > set->t_end)
            t = set->t_end;
        if (t <= clink_sim_time(sim))
            continue;
        st = clink_sim_advance(sim, t);
        if (st != CLINK_OK) {
            failed = 1;
            snprintf(res->cause, sizeof res->cause, "%s", clink_sim_error(sim));
            break;
        }
        sweep_sample(sim, bodies, res);
        if (rec != NULL)
            st = clink_recorder_sample(rec, sim);
        failed = sweep_energy_overflow(sim, res);
    }
    if (st != CLINK_OK && !failed) {
        failed = 1;
        snprintf(res->cause, sizeof res->cause, "%s",
                 rec != NULL ? clink_recorder_error(rec) : clink_status_string(st));
    }
    return failed;
}

/* whether sim has an implausible finding: 1 (with res's cause) or 0 */
static int sweep_case_implausible(const clink_sim *sim, sweep_result *res)
{
    for (int i = 0; i < clink_sim_finding_count(sim); i++) {
        clink_sim_finding f;
        if (clink_sim_finding_get(sim, i, &f) == CLINK_OK &&
            f.severity == CLINK_FINDING_IMPLAUSIBLE) {
            snprintf(res->cause, sizeof res->cause, "implausible result: %s", f.message);
            return 1;
        }
    }
    return 0;
}

/* res's impact count, largest impact force, first restitution and integrator steps */
static void sweep_case_impacts(const clink_sim *sim, sweep_result *res)
{
    clink_sim_stats stats;

    res->q[SWEEP_Q_IMPACTS] = clink_sim_impact_count(sim);
    res->q[SWEEP_Q_RESTITUTION] = NAN;
    for (int i = 0; i < clink_sim_impact_count(sim); i++) {
        clink_impact_record ir;
        if (clink_sim_impact(sim, i, &ir) != CLINK_OK)
            continue;
        if (ir.F_max > res->q[SWEEP_Q_FORCE])
            res->q[SWEEP_Q_FORCE] = ir.F_max;
        if (i == 0)
            res->q[SWEEP_Q_RESTITUTION] = ir.restitution;
    }
    clink_sim_stats_get(sim, &stats);
    res->q[SWEEP_Q_STEPS] = (double) stats.steps;
}

/* the recorder finished with the run's information; a failure to finish fails the case */
static void sweep_case_finish_outputs(const sweep_spec *s, const long *idx, clink_sim *sim,
                                      clink_recorder *rec, const clink_xml_summary *sum,
                                      const clink_settings_def *set, int failed, sweep_result *res)
{
    const char *paths[SWEEP_MAX_PARAMS], *values[SWEEP_MAX_PARAMS];
    clink_run_info info;

    memset(&info, 0, sizeof info);
    info.model_name = sum->name;
    info.source = s->model;
    info.failed = failed;
    info.message = failed ? res->cause : NULL;
    info.t_end = set->t_end;
    info.wall_time = -1.0;
    info.settings = set;
    for (int i = 0; i < s->n_params; i++) {
        paths[i] = s->params[i].path;
        values[i] = s->params[i].values[idx[i]];
    }
    info.override_paths = paths;
    info.override_values = values;
    info.override_count = s->n_params;
    if (clink_recorder_finish(rec, sim, &info) != CLINK_OK && !failed) {
        res->status = "failed";
        res->t_failed = clink_sim_time(sim);
        snprintf(res->cause, sizeof res->cause, "%s", clink_recorder_error(rec));
    }
}

/*
 * Runs case k in this process: loads the model with the case's overrides, integrates it to
 * t_end, sampling the quantities on the output grid as `clink run` does (and writing its
 * outputs to DIR/cases/NNNNNN when the sweep keeps them).
 */
void sweep_case_run(const sweep_spec *s, const char *dir, long k, sweep_result *res)
{
    long idx[SWEEP_MAX_PARAMS];
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    clink_recorder *rec = NULL;
    clink_xml_summary sum;
    clink_settings_def set;
    double t0 = sweep_now();
    int failed;

    memset(res, 0, sizeof *res);
    res->status = "invalid";
    sweep_case_values(s, k, idx);
    if (sweep_case_load(s, idx, &model, &sum, &set, &sim, res) != 0)
        goto done;
    if (s->keep && sweep_case_recorder(dir, k, model, &sum, &rec, res) != 0)
        goto done;
    res->status = "ok";
    res->has_q = 1;
    failed = sweep_case_integrate(model, sim, rec, &set, res);
    /* an implausible finding fails a run that otherwise finished, as in `clink run` */
    if (!failed)
        failed = sweep_case_implausible(sim, res);
    sweep_case_impacts(sim, res);
    if (failed) {
        res->status = "failed";
        res->t_failed = clink_sim_time(sim);
    }
    if (rec != NULL)
        sweep_case_finish_outputs(s, idx, sim, rec, &sum, &set, failed, res);

done:
    clink_recorder_destroy(&rec);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    res->wall = sweep_now() - t0;
}
