/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One fuzzed simulation (shared by the libFuzzer target tests/fuzz/fuzz_sim.c and
 * the replay of the regressions and the corpus in tests/sim/test_reliability.c):
 * loads size bytes as an XML model from memory and, when it builds, runs it
 * briefly under bounded settings and reads every getter after each advance.
 * Returns 1 when the model was simulated (whatever the status of the run),
 * 0 when it did not load or the simulation could not be created, and -1 when
 * a getter reported a non-finite value after an advance that returned
 * CLINK_OK (why: what and where).
 */
#ifndef CLINK_TESTS_FUZZ_SIM_RUN_H
#define CLINK_TESTS_FUZZ_SIM_RUN_H

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>

/* the bounds of one fuzzed run */
#define FUZZ_SIM_T_END      0.02 /* s, at most (the model's own t_end when shorter) */
#define FUZZ_SIM_MAX_STEPS  2000 /* integrator steps */
#define FUZZ_SIM_WALL_LIMIT 2.0  /* s of wall clock */
#define FUZZ_SIM_OUTPUTS    4    /* advances to equally spaced times */

static int fuzz_sim_finite(const double *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* every getter at the current time: 1 if all finite, else 0 with why */
static int fuzz_sim_read_all(const clink_sim *sim, const clink_model *model, char *why,
                             size_t why_size)
{
    int nb = clink_model_count(model, CLINK_ENTITY_BODY);
    int nj = clink_model_count(model, CLINK_ENTITY_JOINT);
    int nd = clink_model_count(model, CLINK_ENTITY_DRIVER);
    int nc = clink_sim_contact_count(sim);
    int ni = clink_sim_impact_count(sim);
    int nf = clink_sim_finding_count(sim);
    double q[3], v[3], a[3], f[3], x, pos, vel, dq, dv;
    clink_energy e;
    clink_sim_stats stats;
    clink_contact_info info;
    clink_impact_record rec;
    clink_sim_finding fd;

    (void) clink_sim_error(sim);
    clink_sim_stats_get(sim, &stats);
    x = clink_sim_time(sim);
    if (!isfinite(x)) {
        snprintf(why, why_size, "time %g", x);
        return 0;
    }
    for (int b = 0; b < nb; b++) {
        if (clink_sim_body_state(sim, b, q, v) == CLINK_OK &&
            !(fuzz_sim_finite(q, 3) && fuzz_sim_finite(v, 3))) {
            snprintf(why, why_size, "body %d state at t = %g", b, x);
            return 0;
        }
        if (clink_sim_body_acceleration(sim, b, a) == CLINK_OK && !fuzz_sim_finite(a, 3)) {
            snprintf(why, why_size, "body %d acceleration at t = %g", b, x);
            return 0;
        }
    }
    for (int j = 0; j < nj; j++)
        if (clink_sim_joint_reaction(sim, j, f) == CLINK_OK && !fuzz_sim_finite(f, 3)) {
            snprintf(why, why_size, "joint %d reaction at t = %g", j, x);
            return 0;
        }
    for (int d = 0; d < nd; d++)
        if (clink_sim_driver_force(sim, d, f) == CLINK_OK && !isfinite(f[0])) {
            snprintf(why, why_size, "driver %d force at t = %g", d, x);
            return 0;
        }
    if (clink_sim_energy(sim, &e) == CLINK_OK) {
        double all[] = {e.kinetic,        e.gravity,         e.spring,
                        e.work_drivers,   e.work_loads,      e.balance,
                        e.contact_stored, e.contact_damping, e.contact_friction};
        if (!fuzz_sim_finite(all, (int) (sizeof all / sizeof all[0]))) {
            snprintf(why, why_size, "energies at t = %g", x);
            return 0;
        }
    }
    clink_sim_constraint_violation(sim, &pos, &vel);
    clink_sim_assembly(sim, &dq, &dv);
    {
        double all[] = {pos, vel, dq, dv};
        if (!fuzz_sim_finite(all, 4)) {
            snprintf(why, why_size, "constraint violation or assembly at t = %g", x);
            return 0;
        }
    }
    for (int c = 0; c < nc; c++)
        if (clink_sim_contact(sim, c, &info) == CLINK_OK) {
            double all[] = {info.delta,      info.delta_dot, info.fn,         info.ft,
                            info.normal[0],  info.normal[1], info.point_a[0], info.point_a[1],
                            info.point_b[0], info.point_b[1]};
            if (!fuzz_sim_finite(all, (int) (sizeof all / sizeof all[0]))) {
                snprintf(why, why_size, "contact %d at t = %g", c, x);
                return 0;
            }
        }
    for (int i = 0; i < ni; i++)
        if (clink_sim_impact(sim, i, &rec) == CLINK_OK) {
            /* the restitution is NaN by contract below the settle speed */
            double all[] = {rec.t_onset,   rec.duration, rec.v_impact,   rec.v_separation,
                            rec.delta_max, rec.F_max,    rec.dissipated, rec.m_eff};
            if (!fuzz_sim_finite(all, (int) (sizeof all / sizeof all[0]))) {
                snprintf(why, why_size, "impact record %d at t = %g", i, x);
                return 0;
            }
        }
    for (int i = 0; i < nf && i < 64; i++)
        if (clink_sim_finding_get(sim, i, &fd) == CLINK_OK && !isfinite(fd.t)) {
            snprintf(why, why_size, "finding %d at t = %g", i, x);
            return 0;
        }
    return 1;
}

static int fuzz_sim_run(const char *data, size_t size, char *why, size_t why_size)
{
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    clink_settings_def set;
    char err[512];
    int ret = 0;

    why[0] = '\0';
    if (clink_xml_load_memory(data, size, "fuzz.xml", &model, NULL, err, sizeof err) != CLINK_OK)
        return 0;
    set = clink_model_settings(model);
    if (!(set.t_end > 0.0) || set.t_end > FUZZ_SIM_T_END)
        set.t_end = FUZZ_SIM_T_END;
    if (!(set.max_steps > 0.0) || set.max_steps > FUZZ_SIM_MAX_STEPS)
        set.max_steps = FUZZ_SIM_MAX_STEPS;
    if (!(set.wall_limit > 0.0) || set.wall_limit > FUZZ_SIM_WALL_LIMIT)
        set.wall_limit = FUZZ_SIM_WALL_LIMIT;
    if (clink_sim_create(model, &set, &sim, err, sizeof err) == CLINK_OK) {
        ret = 1;
        if (!fuzz_sim_read_all(sim, model, why, why_size))
            ret = -1;
        for (int k = 1; ret == 1 && k <= FUZZ_SIM_OUTPUTS; k++) {
            clink_status st = clink_sim_advance(sim, set.t_end * k / FUZZ_SIM_OUTPUTS);
            if (st == CLINK_OK && !fuzz_sim_read_all(sim, model, why, why_size))
                ret = -1;
            if (st != CLINK_OK) {
                /* the last good state stays readable after an error */
                (void) fuzz_sim_read_all(sim, model, why, why_size);
                why[0] = '\0';
                break;
            }
        }
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return ret;
}

#endif /* CLINK_TESTS_FUZZ_SIM_RUN_H */
