/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The energy audit's book of the drift control (src/system/system_audit.c):
 *   - the power booked, lambda . (Phi_q v - nu), plus the powers of the loads and drivers
 *     is the rate of change of the mechanical energy at a state off the constraints
 *     (central differences of the energy along (v, qdd)), with Baumgarte terms and without;
 *   - each projection of a run at a loose tolerance books the energy jump it makes, to
 *     rounding: the pendulum's energy in closed form, 1/2 m |v|^2 + 1/2 J omega^2 + m g y,
 *     before and after every projection the integrator asks for;
 *   - the residual of the balance (the integration error once the book is right) falls
 *     with rtol in every drift mode: the pendulum (2 s, rtol 1e-4, 1e-6, 1e-8) and the
 *     slider-crank with the clearance at the crank-rod joint (0.048 s, 1e-8 and 1e-10).
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "integrators/cvode/cvode_integ.h"
#include "sim/sim_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- each projection books its jump ------------------------------------------ */

/* the wrapped projection's record: the worst |booked - closed-form jump| over the energy */
static struct {
    int (*project)(void *, double, const double *, double *, double *);
    int calls, moved;
    double worst, largest;
} wrap;

/* the pendulum of models/pendulum.xml in closed form: m = 1 kg, J = 1/12 kg m^2, g = 9.81 */
static double pendulum_energy(const double *q, const double *v)
{
    return 0.5 * (v[0] * v[0] + v[1] * v[1]) + 0.5 / 12.0 * v[2] * v[2] + 9.81 * q[1];
}

static int wrapped_project(void *data, double t, const double *y, double *corr, double *err)
{
    mechsys *sys = data;
    int rc = wrap.project(data, t, y, corr, err);
    if (rc != 0 || sys->nr != 3 || sys->Nr < 7)
        return rc;
    double q[3], v[3];
    for (int i = 0; i < 3; i++) {
        q[i] = y[i] + corr[i];
        v[i] = y[3 + i] + corr[3 + i];
    }
    double e0 = pendulum_energy(y, y + 3), e1 = pendulum_energy(q, v);
    double jump = e1 - e0, booked = corr[sys->Nr - 1];
    wrap.calls++;
    wrap.moved += jump != 0.0;
    wrap.largest = fmax(wrap.largest, fabs(jump));
    wrap.worst = fmax(wrap.worst, fabs(booked - jump) / (fabs(e0) + fabs(e1)));
    return rc;
}

TEST(energy_audit_each_projection_books_its_energy_jump_to_rounding)
{
    char err[512];
    clink_model *m = clink_model_load_xml(CLINK_SOURCE_DIR "/models/pendulum.xml", err, sizeof err);
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_settings_def set = clink_model_settings(m);
    set.method = CLINK_METHOD_BDF;
    set.drift = CLINK_DRIFT_PROJECTION;
    set.rtol = 1e-4; /* loose: jumps of 1e-6 J and more */
    set.atol = 1e-6;
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(sim && clink_sim_advance(sim, 1e-3) == CLINK_OK);
    if (!sim || !sim->in) {
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
        return;
    }
    ENSURE(sim->sys->nr == 3 && sim->sys->nc == 2);
    cvode_integ *cv = (cvode_integ *) sim->in;
    ENSURE(cv->projection == 1 && cv->p.data == sim->sys);
    memset(&wrap, 0, sizeof wrap);
    wrap.project = cv->p.project;
    cv->p.project = wrapped_project;
    ENSURE(clink_sim_advance(sim, 2.0) == CLINK_OK);
    printf("pendulum, BDF + projection, rtol 1e-4: %d projections (%d moved the energy), largest "
           "jump %.3e J, worst |booked - jump| %.3e of the energy\n",
           wrap.calls, wrap.moved, wrap.largest, wrap.worst);
    ENSURE(wrap.calls > 50 && wrap.moved > 50);
    ENSURE(wrap.largest > 1e-6); /* the jumps are not rounding themselves */
    ENSURE(wrap.worst <= 4.0 * DBL_EPSILON);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* ---- the residual falls with rtol in every drift mode -------------------------- */

/* |balance| at t_end of path in drift mode drift (BDF, atol = rtol / 100); NAN on failure */
static double residual(const char *path, clink_drift drift, double rtol, double t_end)
{
    clink_energy e;
    return test_bdf_energy(path, drift, rtol, t_end, &e) == 0 ? fabs(e.balance) : NAN;
}

TEST(energy_audit_residual_falls_with_rtol_in_every_drift_mode)
{
    static const clink_drift drifts[] = {CLINK_DRIFT_NONE, CLINK_DRIFT_BAUMGARTE,
                                         CLINK_DRIFT_PROJECTION};
    static const char *names[] = {"none", "baumgarte", "projection"};
    const char *pend = CLINK_SOURCE_DIR "/models/pendulum.xml";
    const char *crank = CLINK_SOURCE_DIR "/bench/slider_crank_clearance_crank_rod.xml";
    for (int d = 0; d < 3; d++) {
        double p4 = residual(pend, drifts[d], 1e-4, 2.0), p6 = residual(pend, drifts[d], 1e-6, 2.0);
        double p8 = residual(pend, drifts[d], 1e-8, 2.0);
        double c8 = residual(crank, drifts[d], 1e-8, 0.048);
        double c10 = residual(crank, drifts[d], 1e-10, 0.048);
        printf("%-10s pendulum |balance| %.2e, %.2e, %.2e J (rtol 1e-4, 1e-6, 1e-8); crank-rod "
               "clearance %.2e, %.2e J (1e-8, 1e-10)\n",
               names[d], p4, p6, p8, c8, c10);
        ENSURE(p6 < p4 && p8 < 0.1 * p6);
        ENSURE(c10 < 0.2 * c8);
    }
}
