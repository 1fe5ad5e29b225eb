/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the Dormand-Prince pair of order 8 (src/integrators/rk8/):
 *   - the stepper at fixed steps (every step accepted, h_max the step) on the harmonic
 *     oscillator y'' = -y, whose solution cos t is known: the error at t = 10 falls by
 *     2^8 when the step halves (observed order 8 +- 0.3), and is below the bound
 *     (h^8 t, the local error's h^9 summed over t / h steps);
 *   - method="rk8" on models/spring_mass_rk8.xml against its closed form
 *     x(t) = 0.1 + 0.02 cos(10 t) at every output, and its dense output between steps;
 *   - what rk8 cannot do (no events, no projection: its capabilities) is refused with a
 *     message naming the method and what is missing.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "integrators/rk8/rk8.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* y = (x, x'), f = (x', -x) */
static int oscillator(void *ctx, double t, const double *y, double *f)
{
    (void) ctx;
    (void) t;
    f[0] = y[1];
    f[1] = -y[0];
    return 0;
}

/* the error at t_end of n fixed steps from y = (1, 0) against cos, -sin */
static double oscillator_error(int n, double t_end)
{
    rk8 rk;
    double y0[2] = {1.0, 0.0}, h = t_end / n;
    ENSURE(rk8_init(&rk, 2) == 0);
    rk.rhs = oscillator;
    rk.rtol = 0.0;
    rk.atol[0] = rk.atol[1] = 1e30; /* every step accepted */
    rk.h_max = h;
    ENSURE(rk8_start(&rk, 0.0, y0, h) == 0);
    while (rk.x < t_end)
        ENSURE(rk8_advance(&rk, t_end) == 0);
    ENSURE(rk.n_steps >= n && rk.n_steps <= n + 1 && rk.n_rejects == 0);
    double e = fmax(fabs(rk.y[0] - cos(t_end)), fabs(rk.y[1] + sin(t_end)));
    rk8_free(&rk);
    return e;
}

TEST(rk8_converges_at_order_eight_on_the_harmonic_oscillator)
{
    const double t_end = 10.0;
    double e1 = oscillator_error(10, t_end), e2 = oscillator_error(20, t_end);
    double e3 = oscillator_error(40, t_end);
    fprintf(stderr, "rk8 errors at h = 1, 0.5, 0.25: %.3g %.3g %.3g, orders %.3f %.3f\n", e1, e2,
            e3, log2(e1 / e2), log2(e2 / e3));
    ENSURE(e2 <= pow(0.5, 8) * t_end);
    /* above round-off (40 steps of 1e-16: 4e-15) by 250, so that the ratio measures the
       method */
    ENSURE(e3 > 1e-12);
    ENSURE_NEAR(log2(e1 / e2), 8.0, 0.3);
    ENSURE_NEAR(log2(e2 / e3), 8.0, 0.3);
}

/* the model of file (models/), NULL (a failed check) if it does not load */
static clink_model *load(const char *file)
{
    clink_model *m = test_model_file(file);
    ENSURE(m != NULL);
    return m;
}

TEST(rk8_runs_the_spring_mass_model_to_its_closed_form)
{
    clink_model *m = load("spring_mass_rk8.xml");
    if (!m)
        return;
    clink_settings_def s = clink_model_settings(m);
    ENSURE(s.method == CLINK_METHOD_RK8);
    clink_sim *sim = NULL;
    char err[512];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    double emax = 0.0;
    /* outputs at 0.01 s and between them (the dense output of order 7) */
    for (int k = 1; sim && k <= 400; k++) {
        double t = 0.005 * k, q[3], v[3];
        ENSURE(clink_sim_advance(sim, t) == CLINK_OK);
        ENSURE(clink_sim_body_state(sim, 1, q, v) == CLINK_OK);
        emax = fmax(emax, fabs(q[0] - (0.1 + 0.02 * cos(10.0 * t))));
        emax = fmax(emax, fabs(v[0] + 0.2 * sin(10.0 * t)) / 10.0);
        ENSURE(q[1] == 0.0 && q[2] == 0.0);
    }
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    fprintf(stderr, "spring-mass rk8: largest error %.3g m, %ld steps\n", emax, (long) st.steps);
    /* rtol 1e-10 of the 0.12 m position over three periods: the global error within
       100 rtol |x| (1.2e-9 m) */
    ENSURE(emax < 1.2e-9);
    ENSURE(st.steps > 0 && st.steps < 1000); /* an order-8 step, not a fixed small one */
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(rk8_refuses_contacts_and_projection_by_its_capabilities)
{
    clink_model *m = load("ball_drop.xml");
    if (!m)
        return;
    clink_settings_def s = clink_model_settings(m);
    s.method = CLINK_METHOD_RK8;
    s.drift = CLINK_DRIFT_NONE;
    clink_sim *sim = NULL;
    char err[512];
    ENSURE(clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(sim == NULL);
    ENSURE(strstr(err, "rk8") != NULL && strstr(err, "event") != NULL &&
           strstr(err, "contacts") != NULL);
    clink_model_destroy(&m);
    m = load("pendulum.xml");
    if (!m)
        return;
    s = clink_model_settings(m);
    s.method = CLINK_METHOD_RK8;
    s.drift = CLINK_DRIFT_PROJECTION;
    ENSURE(clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(strstr(err, "rk8") != NULL && strstr(err, "projection") != NULL);
    /* with baumgarte it runs */
    s.drift = CLINK_DRIFT_BAUMGARTE;
    ENSURE(clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.5) == CLINK_OK);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
