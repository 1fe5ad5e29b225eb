/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Functions of time (src/timefn/timefn.c) against closed forms: ramp and smooth step with
 * their derivatives, linear tables, the natural cubic spline (a three-point case solved by
 * hand, linear data reproduced exactly, sin sampled finely), piecewise cubics, the copies
 * the builder keeps, and the refusal of tables whose times do not increase.
 */
#include "ensure.h"

#include "clink/model.h"
#include "timefn/timefn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void eval3(const clink_function *f, double t, double out[3])
{
    clink_function_eval(f, t, &out[0], &out[1], &out[2]);
}

TEST(ramp_and_smooth_step_follow_their_formulas_with_rate_and_acceleration)
{
    clink_function f = {.type = CLINK_FUNCTION_RAMP, .n = 4, .c = {1.0, 3.0, 2.0, 6.0}};
    double o[3];
    eval3(&f, 0.5, o);
    ENSURE(o[0] == 2.0 && o[1] == 0.0 && o[2] == 0.0);
    eval3(&f, 2.5, o);
    ENSURE_NEAR(o[0], 2.0 + 4.0 * 0.75, 1e-15);
    ENSURE_NEAR(o[1], 2.0, 1e-15);
    eval3(&f, 3.5, o);
    ENSURE(o[0] == 6.0 && o[1] == 0.0);
    f.type = CLINK_FUNCTION_SMOOTH_STEP;
    double x = 0.3, t = 1.0 + 2.0 * x;
    eval3(&f, t, o);
    ENSURE_NEAR(o[0], 2.0 + 4.0 * (10 * pow(x, 3) - 15 * pow(x, 4) + 6 * pow(x, 5)), 1e-14);
    ENSURE_NEAR(o[1], 4.0 * (30 * x * x - 60 * pow(x, 3) + 30 * pow(x, 4)) / 2.0, 1e-13);
    ENSURE_NEAR(o[2], 4.0 * (60 * x - 180 * x * x + 120 * pow(x, 3)) / 4.0, 1e-12);
    /* continuous at the ends: value, rate and acceleration */
    eval3(&f, 1.0 + 1e-9, o);
    ENSURE_NEAR(o[0], 2.0, 1e-12);
    ENSURE_NEAR(o[1], 0.0, 1e-12);
    ENSURE_NEAR(o[2], 0.0, 1e-6);
}

TEST(a_linear_table_interpolates_and_holds_its_end_values)
{
    double ts[] = {0.0, 1.0, 3.0}, vs[] = {1.0, 3.0, -1.0};
    clink_function f = {
        .type = CLINK_FUNCTION_TABLE_LINEAR, .npoints = 3, .times = ts, .values = vs};
    double o[3];
    eval3(&f, 0.25, o);
    ENSURE_NEAR(o[0], 1.5, 1e-15);
    ENSURE_NEAR(o[1], 2.0, 1e-15);
    eval3(&f, 2.0, o);
    ENSURE_NEAR(o[0], 1.0, 1e-15);
    ENSURE_NEAR(o[1], -2.0, 1e-15);
    eval3(&f, -1.0, o);
    ENSURE(o[0] == 1.0 && o[1] == 0.0);
    eval3(&f, 5.0, o);
    ENSURE(o[0] == -1.0 && o[1] == 0.0);
}

TEST(the_natural_spline_through_three_points_matches_the_hand_solution)
{
    /* (0, 0), (1, 1), (2, 0): M1 = 6 (-1 - 1) / 4 = -3, on [0, 1] s = x + M1 (x^3 - x) / 6 */
    double ts[] = {0.0, 1.0, 2.0}, vs[] = {0.0, 1.0, 0.0}, m[3];
    ENSURE(timefn_spline_moments(ts, vs, 3, m) == 0);
    ENSURE(m[0] == 0.0 && m[2] == 0.0);
    ENSURE_NEAR(m[1], -3.0, 1e-15);
    clink_function f = {
        .type = CLINK_FUNCTION_TABLE_SPLINE, .npoints = 3, .times = ts, .values = vs};
    double o[3], x = 0.5;
    eval3(&f, x, o); /* moments computed at the call (a hand-made definition) */
    ENSURE_NEAR(o[0], x - 0.5 * (x * x * x - x), 1e-15);
    ENSURE_NEAR(o[1], 1.0 - 0.5 * (3 * x * x - 1.0), 1e-15);
    ENSURE_NEAR(o[2], -3.0 * x, 1e-15);
    /* the builder's copy carries the moments and gives the same bits */
    clink_function g = f;
    ENSURE(timefn_copy(&g) == 0);
    ENSURE(g.moments != NULL && g.times != ts);
    double p[3];
    eval3(&g, x, p);
    ENSURE(p[0] == o[0] && p[1] == o[1] && p[2] == o[2]);
    timefn_free(&g);
}

TEST(the_spline_reproduces_a_line_and_converges_to_a_sine_at_fourth_order)
{
    double ts[41], vs[41];
    for (int i = 0; i <= 40; i++) {
        ts[i] = 0.1 * i;
        vs[i] = 2.0 - 0.5 * ts[i];
    }
    clink_function f = {
        .type = CLINK_FUNCTION_TABLE_SPLINE, .npoints = 41, .times = ts, .values = vs};
    ENSURE(timefn_copy(&f) == 0);
    double o[3];
    eval3(&f, 1.234, o);
    ENSURE_NEAR(o[0], 2.0 - 0.5 * 1.234, 1e-14);
    ENSURE_NEAR(o[1], -0.5, 1e-13);
    timefn_free(&f);
    /* interior error of sin on a grid h and h/2: the ratio near 16 */
    double err[2];
    for (int k = 0; k < 2; k++) {
        int n = k ? 81 : 41;
        double h = 4.0 / (n - 1), tt[81], yy[81];
        for (int i = 0; i < n; i++) {
            tt[i] = h * i;
            yy[i] = sin(tt[i]);
        }
        clink_function s = {
            .type = CLINK_FUNCTION_TABLE_SPLINE, .npoints = n, .times = tt, .values = yy};
        ENSURE(timefn_copy(&s) == 0);
        err[k] = 0.0;
        for (double t = 1.5; t <= 2.5; t += 0.013) {
            eval3(&s, t, o);
            err[k] = fmax(err[k], fabs(o[0] - sin(t)));
        }
        timefn_free(&s);
    }
    ENSURE(err[0] < 1e-5);
    ENSURE(err[0] / err[1] > 12.0 && err[0] / err[1] < 20.0);
}

TEST(a_piecewise_cubic_evaluates_each_segment_in_its_local_time)
{
    double ts[] = {0.0, 2.0}, cs[] = {1.0, 2.0, 3.0, 4.0, -1.0, 0.5, 0.0, 0.0};
    clink_function f = {.type = CLINK_FUNCTION_PIECEWISE, .npoints = 2, .times = ts, .values = cs};
    double o[3], s = 0.5;
    eval3(&f, s, o);
    ENSURE_NEAR(o[0], 1.0 + 2.0 * s + 3.0 * s * s + 4.0 * s * s * s, 1e-15);
    ENSURE_NEAR(o[1], 2.0 + 6.0 * s + 12.0 * s * s, 1e-15);
    ENSURE_NEAR(o[2], 6.0 + 24.0 * s, 1e-15);
    eval3(&f, 3.0, o);
    ENSURE_NEAR(o[0], -0.5, 1e-15);
    ENSURE_NEAR(o[1], 0.5, 1e-15);
    ENSURE(o[2] == 0.0);
    eval3(&f, -1.0, o); /* segment 0 before its start */
    ENSURE_NEAR(o[0], 1.0 - 2.0 + 3.0 - 4.0, 1e-15);
}

TEST(tables_whose_times_do_not_increase_are_refused_by_the_builder)
{
    double ts[] = {0.0, 0.3, 0.2}, vs[] = {0.0, 1.0, 2.0};
    clink_function f = {
        .type = CLINK_FUNCTION_TABLE_LINEAR, .npoints = 3, .times = ts, .values = vs};
    char msg[160];
    ENSURE(timefn_check(&f, msg, sizeof msg) == 1);
    ENSURE(strstr(msg, "must increase") != NULL);
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_driver_def dd = clink_default_driver_def();
    dd.function = f;
    ENSURE(clink_model_builder_add_driver(b, &dd, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "time 2 (0.2 s) is not after time 1") != NULL);
    ts[2] = 0.5;
    ENSURE(clink_model_builder_add_driver(b, &dd, NULL) == CLINK_OK);
    ts[1] = 99.0; /* the builder copied the table: the model does not see this */
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    clink_driver_def got;
    ENSURE(clink_model_driver(m, 0, &got) == CLINK_OK);
    ENSURE(got.function.npoints == 3 && got.function.times[1] == 0.3);
    double v;
    clink_function_eval(&got.function, 0.4, &v, NULL, NULL);
    ENSURE_NEAR(v, 1.5, 1e-15);
    clink_model_destroy(&m);
}
