/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fixed-step RK4 integrator (src/integrators/rk4) behind the ops table of
 * integrator.h, against CVODE on the shipped pendulum and four-bar:
 *   - the state (q, v of every body) after t (pendulum 1 s, four-bar 0.2 s) with steps
 *     of 2 ms and 1 ms (drift control by projection after each step) agrees with
 *     CVODE's Adams at rtol 1e-13 (Baumgarte; 1e-12 from a run of RK4 at 0.1 ms,
 *     where BDF at rtol 1e-12 is off by 2e-9 to 5e-8) within a bound that follows
 *     from the step: RK4's global error is C h^4; the bound is (w h)^4 w t, w the
 *     largest angular rate of the run (3.8 rad/s and 30 rad/s: w h = 0.06 at most),
 *     which the measured errors (2.9e-10 and 7.2e-6 at 2 ms) keep 10 to 50 times
 *     below. The four-bar's horizon is 0.2 s: over 1 s its crank-rocker passes near
 *     a toggle position, where the error of a 2 ms step is not yet in the asymptotic
 *     range (an apparent order near 6);
 *   - the convergence order measured from the two steps, log2(e(2 ms) / e(1 ms)), is
 *     4 within 0.3 (measured 4.02 and 3.97);
 *   - a model with contacts is refused (RK4 has no event location), and so is a
 *     missing step (max_step 0);
 *   - clink_method_name gives the words of the model files.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the model of file (models/), NULL (a failed check) if it does not load */
static clink_model *load(const char *file)
{
    clink_model *m = test_model_file(file);
    ENSURE(m != NULL);
    return m;
}

/* q and v of every body (3 each) after t_end with the method (step h for RK4); the largest
   angular rate seen at the outputs into *wmax. CLINK_OK or the first failure */
static clink_status run(const clink_model *m, clink_method method, double h, double t_end,
                        double *state, int nb, double *wmax)
{
    clink_settings_def s = clink_model_settings(m);
    s.method = method;
    s.drift = method == CLINK_METHOD_RK4 ? CLINK_DRIFT_PROJECTION : CLINK_DRIFT_BAUMGARTE;
    s.rtol = 1e-13;
    s.atol = 1e-14;
    s.max_step = method == CLINK_METHOD_RK4 ? h : 0.0;
    s.max_steps = 1e7;
    clink_sim *sim = NULL;
    char err[512];
    clink_status st = clink_sim_create(m, &s, &sim, err, sizeof err);
    if (st != CLINK_OK) {
        fprintf(stderr, "create: %s\n", err);
        return st;
    }
    *wmax = 0.0;
    for (int k = 1; st == CLINK_OK && k <= 100; k++) {
        st = clink_sim_advance(sim, t_end * k / 100.0);
        for (int b = 1; st == CLINK_OK && b <= nb; b++) {
            double q[3], v[3];
            clink_sim_body_state(sim, b, q, v);
            if (fabs(v[2]) > *wmax)
                *wmax = fabs(v[2]);
        }
    }
    if (st != CLINK_OK)
        fprintf(stderr, "advance: %s\n", clink_sim_error(sim));
    for (int b = 1; st == CLINK_OK && b <= nb; b++)
        clink_sim_body_state(sim, b, state + 6 * (b - 1), state + 6 * (b - 1) + 3);
    clink_sim_destroy(&sim);
    return st;
}

/* the largest difference between two states of nb bodies */
static double max_diff(const double *a, const double *b, int nb)
{
    double e = 0.0;
    for (int i = 0; i < 6 * nb; i++)
        e = fmax(e, fabs(a[i] - b[i]));
    return e;
}

/* RK4 at 2 ms and 1 ms against Adams: each error within (w h)^4 w t, the order 4 +- 0.3 */
static void check_against_cvode(const char *file, int nb, double t_end)
{
    clink_model *m = load(file);
    if (!m)
        return;
    const double h1 = 2e-3, h2 = 1e-3;
    double ref[18], y1[18], y2[18], w = 0.0, w1 = 0.0, w2 = 0.0;
    ENSURE(nb <= 3);
    ENSURE(run(m, CLINK_METHOD_ADAMS, 0.0, t_end, ref, nb, &w) == CLINK_OK);
    ENSURE(run(m, CLINK_METHOD_RK4, h1, t_end, y1, nb, &w1) == CLINK_OK);
    ENSURE(run(m, CLINK_METHOD_RK4, h2, t_end, y2, nb, &w2) == CLINK_OK);
    double e1 = max_diff(y1, ref, nb), e2 = max_diff(y2, ref, nb);
    double order = log2(e1 / e2);
    double b1 = pow(w * h1, 4.0) * w * t_end, b2 = pow(w * h2, 4.0) * w * t_end;
    fprintf(stderr,
            "%s: w %.3g rad/s, error %.3g (bound %.3g) at %g s, %.3g (bound %.3g) at %g s, "
            "order %.3f\n",
            file, w, e1, b1, h1, e2, b2, h2, order);
    ENSURE(e1 <= b1);
    ENSURE(e2 <= b2);
    ENSURE_NEAR(order, 4.0, 0.3);
    clink_model_destroy(&m);
}

TEST(rk4_pendulum_matches_cvode_within_its_step_bound_and_converges_at_order_four)
{
    check_against_cvode("pendulum.xml", 1, 1.0);
}

TEST(rk4_four_bar_matches_cvode_within_its_step_bound_and_converges_at_order_four)
{
    check_against_cvode("four_bar.xml", 3, 0.2);
}

TEST(rk4_refuses_a_model_with_contacts_and_a_missing_step)
{
    clink_model *m = load("ball_drop.xml");
    if (!m)
        return;
    clink_settings_def s = clink_model_settings(m);
    s.method = CLINK_METHOD_RK4;
    s.max_step = 1e-4;
    clink_sim *sim = NULL;
    char err[512];
    ENSURE(clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(sim == NULL);
    ENSURE(strstr(err, "rk4") != NULL && strstr(err, "contacts") != NULL);
    clink_model_destroy(&m);
    m = load("pendulum.xml");
    if (!m)
        return;
    s = clink_model_settings(m);
    s.method = CLINK_METHOD_RK4;
    s.max_step = 0.0;
    ENSURE(clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strstr(err, "max_step") != NULL);
    clink_model_destroy(&m);
}

TEST(method_names_are_the_words_of_the_model_files)
{
    ENSURE_STR_EQ(clink_method_name(CLINK_METHOD_BDF), "bdf");
    ENSURE_STR_EQ(clink_method_name(CLINK_METHOD_ADAMS), "adams");
    ENSURE_STR_EQ(clink_method_name(CLINK_METHOD_RK4), "rk4");
    ENSURE(clink_method_name((clink_method) 7) == NULL);
}
