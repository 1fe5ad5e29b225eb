/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink_sim_state_get / _set (src/sim/sim_state.c) and clink_lyapunov (src/sim/sim_lyapunov.c):
 * a state set on a free body is the state got back and the run goes on from it (the ball's
 * free flight after a set velocity follows the parabola of that velocity); a constrained state
 * is projected onto the constraints; wrong sizes, non-finite values and bad Lyapunov options
 * are refused.
 */
#include "ensure.h"
#include "test_models.h"

#include <math.h>
#include <string.h>

TEST(a_state_set_is_the_state_got_and_the_run_goes_on_from_it)
{
    clink_model *m = test_model_file("ball_drop.xml");
    clink_sim *s = test_sim_start(m);
    double y[6], z[6];
    ENSURE(clink_sim_advance(s, 0.01) == CLINK_OK);
    ENSURE(clink_sim_state_get(s, y, 6) == CLINK_OK);
    y[4] = 1.0; /* vy: 1 m/s up */
    ENSURE(clink_sim_state_set(s, y, 6) == CLINK_OK);
    ENSURE(clink_sim_state_get(s, z, 6) == CLINK_OK);
    ENSURE(memcmp(y, z, sizeof y) == 0);
    /* free flight for 0.05 s: y + vy t - g t^2 / 2 */
    ENSURE(clink_sim_advance(s, 0.06) == CLINK_OK);
    ENSURE(clink_sim_state_get(s, z, 6) == CLINK_OK);
    ENSURE_NEAR(z[1], y[1] + 0.05 - 0.5 * 9.81 * 0.0025, 1e-8);
    ENSURE_NEAR(z[4], 1.0 - 9.81 * 0.05, 1e-8);
    y[2] = NAN;
    ENSURE(clink_sim_state_set(s, y, 6) == CLINK_ERR_ARG);
    ENSURE(clink_sim_state_set(s, y, 5) == CLINK_ERR_ARG);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

TEST(a_constrained_state_set_is_projected_onto_the_constraints)
{
    clink_model *m = test_model_file("pendulum.xml");
    clink_sim *s = test_sim_start(m);
    double y[6];
    ENSURE(clink_sim_state_get(s, y, 6) == CLINK_OK);
    y[0] += 1e-3; /* off the pivot's circle */
    ENSURE(clink_sim_state_set(s, y, 6) == CLINK_OK);
    double pos = 1.0, vel = 1.0;
    clink_sim_constraint_violation(s, &pos, &vel);
    ENSURE(pos < 1e-12);
    ENSURE(clink_sim_advance(s, 0.1) == CLINK_OK);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

TEST(lyapunov_options_out_of_range_are_refused)
{
    clink_model *m = test_model_file("pendulum.xml");
    clink_lyapunov_options o = clink_default_lyapunov_options();
    clink_lyapunov_result r;
    char err[256];
    o.every = 0.1;
    o.t_end = 0.05;
    ENSURE(clink_lyapunov(m, NULL, &o, NULL, NULL, &r, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(strstr(err, "t_end") != NULL);
    o.t_end = 2.0;
    o.d0 = 0.0;
    ENSURE(clink_lyapunov(m, NULL, &o, NULL, NULL, &r, err, sizeof err) == CLINK_ERR_ARG);
    clink_model_destroy(&m);
}
