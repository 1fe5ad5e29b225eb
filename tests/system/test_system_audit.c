/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The energy audit's book of the drift control (src/system/system_audit.c): the power
 * booked, lambda . (Phi_q v - nu), plus the powers of the loads and drivers is the rate of
 * change of the mechanical energy at a state off the constraints (central differences of
 * the energy along (v, qdd)), with Baumgarte terms and without.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "sim/sim_internal.h"

#include <math.h>
#include <stdlib.h>

/* the rate of the energy against the booked powers at a state off the constraints */
static void power_identity(const char *file, clink_drift drift)
{
    char err[512];
    clink_model *m = clink_model_load_xml(file, err, sizeof err);
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_settings_def set = clink_model_settings(m);
    set.drift = drift;
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK);
    if (!sim) {
        clink_model_destroy(&m);
        return;
    }
    dyn_system *dyn = sim->sys->dyn;
    int nq = sim->sys->nq, nc = sim->sys->nc;
    double *w = calloc(5 * (size_t) nq + (size_t) nc, sizeof(double));
    ENSURE(w != NULL);
    if (w) {
        double *q = w, *v = w + nq, *qdd = w + 2 * nq, *x = w + 3 * nq, *lambda = w + 5 * nq;
        double t = 0.013;
        /* off the constraints by 1e-3 in positions, 1e-2 in rates */
        for (int i = 0; i < nq; i++) {
            q[i] = sim->out.y[i] + 1e-3 * sin(1.0 + i);
            v[i] = sim->out.y[nq + i] + 1e-2 * cos(2.0 + i);
        }
        ENSURE(dyn_accelerations(dyn, t, q, v, qdd, lambda) == CLINK_OK);
        dyn_energy de;
        dyn_energies(dyn, t, q, v, lambda, &de);
        double booked = dyn_constraint_power(dyn, v, lambda) + de.power_loads + de.power_drivers;
        double h = 1e-6, ed[2];
        for (int k = 0; k < 2; k++) {
            double s = k ? h : -h;
            for (int i = 0; i < nq; i++) {
                x[i] = q[i] + s * v[i];
                x[nq + i] = v[i] + s * qdd[i];
            }
            ed[k] = dyn_mechanical_energy(dyn, x, x + nq);
        }
        double rate = (ed[1] - ed[0]) / (2.0 * h);
        double drift_power = dyn_constraint_power(dyn, v, lambda);
        printf("%s: dE/dt %.9e W, booked %.9e W (of it on the drift %.3e W)\n", file, rate, booked,
               drift_power);
        ENSURE(fabs(drift_power) > 1e-4 * fabs(rate)); /* the drift's term matters here */
        ENSURE_NEAR(booked, rate, 1e-6 * fabs(rate) + 1e-9);
    }
    free(w);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(energy_audit_constraint_power_is_the_energy_rate_off_the_constraints)
{
    power_identity(CLINK_SOURCE_DIR "/models/pendulum.xml", CLINK_DRIFT_NONE);
    power_identity(CLINK_SOURCE_DIR "/models/pendulum.xml", CLINK_DRIFT_BAUMGARTE);
    power_identity(CLINK_SOURCE_DIR "/models/four_bar.xml", CLINK_DRIFT_BAUMGARTE);
    power_identity(CLINK_SOURCE_DIR "/models/slider_crank.xml", CLINK_DRIFT_BAUMGARTE);
    power_identity(CLINK_SOURCE_DIR "/models/slider_crank.xml", CLINK_DRIFT_NONE);
}
