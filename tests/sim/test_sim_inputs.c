/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host's inputs and user force (src/sim/sim_inputs.c): a joint torque against the
 * closed form of a rotor, the slope, a load scaled by an input and by a time function, a
 * driver's rate and value, the restart at an input change (order 1 from the output time, a
 * set that changes nothing restarts nothing, the run equals one that stopped at that time),
 * a user force equal to the spring-damper it imitates (with and without its Jacobian), and
 * a failing or NaN-returning callback stopping the run with its name and the time.
 */
#include "ensure.h"

#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"
#include "sim/sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* a rotor: one body (J = 0.02 about its centre) on a pivot at its centre, no gravity; a
   torque input, a scaled torque load, and a second rotor with a spring-damper to ground */
static const char *ROTOR =
    "<mechanism name=\"rotor\">"
    "<settings t_end=\"1\" output_step=\"1e-3\" method=\"adams\" rtol=\"1e-10\" atol=\"1e-12\""
    " drift=\"baumgarte\"/>"
    "<gravity g=\"0 0\"/>"
    "<bodies><body name=\"wheel\" mass=\"2\" inertia=\"0.02\"/>"
    "<body name=\"slider\" mass=\"0.5\" inertia=\"0.01\" x=\"1\" y=\"0\"/></bodies>"
    "<joints><revolute name=\"pin\" body1=\"ground\" point1=\"0 0\" body2=\"wheel\" "
    "point2=\"0 0\"/>"
    "<translational name=\"guide\" body1=\"ground\" point1=\"0 0\" body2=\"slider\" point2=\"0 0\""
    " axis=\"1 0\"/></joints>"
    "<loads><torque name=\"bias\" body=\"wheel\" value=\"0.5\">"
    "<ramp start=\"0\" end=\"1\" from=\"0\" to=\"1\"/></torque>"
    "<spring_damper name=\"spring\" body1=\"ground\" point1=\"0 0\" body2=\"slider\" "
    "stiffness=\"0\" damping=\"0\" length=\"1\"/></loads>"
    "<inputs><input name=\"motor\" type=\"joint_torque\" joint=\"pin\" initial=\"0\"/>"
    "<input name=\"gain\" type=\"load\" load=\"bias\" initial=\"0\"/>"
    "<input name=\"push\" type=\"joint_force\" joint=\"guide\" initial=\"0\"/></inputs>"
    "</mechanism>";

static clink_model *load_text(const char *text)
{
    clink_model *m = NULL;
    char err[512];
    if (clink_xml_load_memory(text, strlen(text), "rotor.xml", &m, NULL, err, sizeof err) !=
        CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return m;
}

static clink_sim *start(const clink_model *m)
{
    clink_sim *s = NULL;
    char err[512];
    if (clink_sim_create(m, NULL, &s, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return s;
}

TEST(a_joint_torque_input_turns_a_rotor_as_the_closed_form_says)
{
    clink_model *m = load_text(ROTOR);
    ENSURE(m != NULL);
    ENSURE(clink_model_input_count(m) == 3);
    ENSURE_STR_EQ(clink_model_input_name(m, 0), "motor");
    ENSURE(clink_model_input_kind(m, 1) == CLINK_INPUT_LOAD_SCALE);
    clink_sim *s = start(m);
    ENSURE(s != NULL);
    int motor = clink_sim_input_index(s, "motor");
    ENSURE(motor == 0 && clink_sim_input_index(s, "nothing") == -1);
    ENSURE(clink_sim_advance(s, 0.1) == CLINK_OK);
    double q[3], v[3];
    ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
    ENSURE(v[2] == 0.0); /* the load's gain is 0, the motor's torque too */
    /* 0.3 N m from t = 0.1 with slope 1 N m/s: omega = (0.3 dt + dt^2 / 2) / J */
    ENSURE(clink_sim_set_input(s, motor, 0.3, 1.0) == CLINK_OK);
    ENSURE(clink_sim_advance(s, 0.3) == CLINK_OK);
    ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
    double dt = 0.2;
    ENSURE_REL(v[2], (0.3 * dt + 0.5 * dt * dt) / 0.02, 1e-8);
    ENSURE_REL(q[2], (0.15 * dt * dt + dt * dt * dt / 6.0) / 0.02, 1e-7);
    double u, sl;
    ENSURE(clink_sim_input(s, motor, &u, &sl) == CLINK_OK);
    ENSURE_NEAR(u, 0.5, 1e-15);
    ENSURE(sl == 1.0);
    /* the work of the input is in the loads' work: the balance stays closed */
    clink_energy e;
    ENSURE(clink_sim_energy(s, &e) == CLINK_OK);
    ENSURE_NEAR(e.work_loads, e.kinetic, 1e-9);
    ENSURE(fabs(e.balance) < 1e-9);
    ENSURE(clink_sim_set_input(s, 7, 1.0, 0.0) == CLINK_ERR_ARG);
    ENSURE(clink_sim_set_input(s, motor, NAN, 0.0) == CLINK_ERR_ARG);
    ENSURE(clink_sim_set_input_by_name(s, "moter", 1.0, 0.0) == CLINK_ERR_NOT_FOUND);
    ENSURE(strstr(clink_sim_error(s), "'motor', 'gain', 'push'") != NULL);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

TEST(a_load_is_scaled_by_its_time_function_and_by_its_input)
{
    clink_model *m = load_text(ROTOR);
    clink_sim *s = start(m);
    ENSURE(s != NULL);
    /* torque 0.5 (gain) ramp(t) = 0.5 g t: omega = 0.25 g t^2 / J */
    ENSURE(clink_sim_set_input_by_name(s, "gain", 2.0, 0.0) == CLINK_OK);
    ENSURE(clink_sim_advance(s, 0.4) == CLINK_OK);
    double q[3], v[3];
    clink_sim_body_state(s, 1, q, v);
    ENSURE_REL(v[2], 0.25 * 2.0 * 0.16 / 0.02, 1e-8);
    /* a joint force along the guide: the slider accelerates at F / m */
    ENSURE(clink_sim_set_input_by_name(s, "push", 1.5, 0.0) == CLINK_OK);
    ENSURE(clink_sim_advance(s, 0.6) == CLINK_OK);
    clink_sim_body_state(s, 2, q, v);
    ENSURE_REL(v[0], 1.5 / 0.5 * 0.2, 1e-8);
    ENSURE_NEAR(v[1], 0.0, 1e-12);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* body 1's state at t_end of a run that changes motor to 0.4 at t1 (stop_at_t1: with a stop
   time at t1, so that the integrator stops there) */
static void run_with_change(const clink_model *m, double t1, double t_end, int stop_at_t1,
                            int same_value_at_t1, double q[3], double v[3], long *restarts)
{
    clink_sim *s = start(m);
    if (stop_at_t1)
        clink_sim_set_stop_time(s, t1);
    for (double t = 0.05; t <= t1 + 1e-12; t += 0.05)
        clink_sim_advance(s, t);
    if (stop_at_t1)
        clink_sim_set_stop_time(s, t_end);
    clink_sim_set_input(s, 0, same_value_at_t1 ? 0.0 : 0.4, 0.0);
    clink_sim_set_input(s, 1, 1.0, 0.0); /* from 0 at t1: the ramped bias */
    for (double t = t1 + 0.05; t <= t_end + 1e-12; t += 0.05)
        clink_sim_advance(s, t);
    clink_sim_body_state(s, 1, q, v);
    *restarts = s->inp.restarts;
    clink_sim_destroy(&s);
}

TEST(an_input_change_restarts_the_integrator_at_the_output_time_with_order_one)
{
    clink_model *m = load_text(ROTOR);
    clink_sim *s = start(m);
    ENSURE(clink_sim_set_input(s, 1, 1.0, 0.0) == CLINK_OK);
    ENSURE(clink_sim_advance(s, 0.2) == CLINK_OK);
    double tn = 0.0, h = 0.0;
    s->in->ops->now(s->in, &tn, &h);
    ENSURE(tn > 0.2); /* outputs do not steer the integrator: it is ahead */
    /* setting the value it has changes nothing; a new one is a discontinuity */
    ENSURE(clink_sim_set_input(s, 1, 1.0, 0.0) == CLINK_OK);
    ENSURE(!s->inp.changed);
    ENSURE(clink_sim_set_input(s, 0, 0.2, 0.0) == CLINK_OK);
    ENSURE(s->inp.changed);
    ENSURE(sim_inputs_restart(s) == CLINK_OK);
    s->in->ops->now(s->in, &tn, &h);
    ENSURE(tn == 0.2); /* back at the output time */
    double tret = 0.0;
    ENSURE(s->in->ops->step(s->in, 0.3, &tret) >= 0);
    s->in->ops->now(s->in, &tn, &h);
    ENSURE_NEAR(tn - h, 0.2, 1e-15); /* the first step starts at 0.2 */
    clink_sim_stats st;
    clink_sim_stats_get(s, &st);
    ENSURE(st.last_order == 1);
    ENSURE(s->inp.restarts == 2); /* the gain's change at t = 0, and this one */
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

TEST(a_run_with_an_input_change_equals_one_that_stopped_at_that_time)
{
    clink_model *m = load_text(ROTOR);
    double qa[3], va[3], qb[3], vb[3], qc[3], vc[3], qd[3], vd[3];
    long ra, rb, rc, rd;
    run_with_change(m, 0.3, 0.6, 0, 0, qa, va, &ra);
    run_with_change(m, 0.3, 0.6, 1, 0, qb, vb, &rb);
    ENSURE(ra == 1 && rb == 1);
    /* the runs differ only by the interpolation at 0.3 (the stopped one has none) */
    ENSURE_REL(va[2], vb[2], 1e-9);
    ENSURE_REL(qa[2], qb[2], 1e-9);
    /* the closed form: motor 0.4 and bias 0.5 ramp(t) from 0.3 on */
    double w = (0.4 * 0.3 + 0.5 * 0.5 * (0.36 - 0.09)) / 0.02;
    ENSURE_REL(va[2], w, 1e-8);
    /* setting the value an input has is no change: the same bits as a run never set */
    run_with_change(m, 0.3, 0.6, 0, 1, qc, vc, &rc);
    clink_sim *s = start(m);
    for (double t = 0.05; t <= 0.3 + 1e-12; t += 0.05)
        clink_sim_advance(s, t);
    clink_sim_set_input(s, 1, 1.0, 0.0);
    for (double t = 0.35; t <= 0.6 + 1e-12; t += 0.05)
        clink_sim_advance(s, t);
    clink_sim_body_state(s, 1, qd, vd);
    rd = s->inp.restarts;
    clink_sim_destroy(&s);
    ENSURE(rc == 1 && rd == 1);
    ENSURE(memcmp(qc, qd, sizeof qc) == 0 && memcmp(vc, vd, sizeof vc) == 0);
    clink_model_destroy(&m);
}

/* a wheel driven at 10 rad/s, with the driver's rate and value as inputs */
static const char *DRIVEN =
    "<mechanism name=\"driven\">"
    "<settings t_end=\"1\" output_step=\"1e-3\" method=\"bdf\" rtol=\"1e-10\" atol=\"1e-12\""
    " drift=\"projection\"/>"
    "<gravity g=\"0 -9.81\"/>"
    "<bodies><body name=\"wheel\" mass=\"2\" inertia=\"0.02\" x=\"0.1\" omega=\"10\"/></bodies>"
    "<joints><revolute name=\"pin\" body1=\"ground\" point1=\"0 0\" body2=\"wheel\" "
    "point2=\"-0.1 0\"/></joints>"
    "<drivers><driver name=\"motor\" type=\"angle\" joint=\"pin\"><linear rate=\"10\"/>"
    "</driver></drivers>"
    "<inputs><input name=\"speed\" type=\"driver_rate\" driver=\"motor\"/>"
    "<input name=\"angle\" type=\"driver_value\" driver=\"motor\"/></inputs>"
    "</mechanism>";

TEST(driver_inputs_set_the_rate_and_the_position_a_driver_prescribes)
{
    clink_model *m = load_text(DRIVEN);
    clink_sim *s = start(m);
    ENSURE(s != NULL);
    double q[3], v[3], u, sl;
    ENSURE(clink_sim_input(s, 0, &u, &sl) == CLINK_OK);
    ENSURE(isnan(u)); /* not set: the driver follows its own function */
    ENSURE(clink_sim_advance(s, 0.2) == CLINK_OK);
    ENSURE(clink_sim_set_input_by_name(s, "speed", 20.0, 0.0) == CLINK_OK);
    ENSURE(clink_sim_advance(s, 0.3) == CLINK_OK);
    clink_sim_body_state(s, 1, q, v);
    ENSURE_NEAR(v[2], 20.0, 1e-9);
    ENSURE_NEAR(q[2], 2.0 + 20.0 * 0.1, 1e-9);
    /* the position: a jump to 1 rad, then 1 + 5 (t - 0.3), projected at the restart */
    ENSURE(clink_sim_set_input_by_name(s, "angle", 1.0, 5.0) == CLINK_OK);
    ENSURE(clink_sim_advance(s, 0.4) == CLINK_OK);
    clink_sim_body_state(s, 1, q, v);
    ENSURE_NEAR(q[2], 1.5, 1e-9);
    ENSURE_NEAR(v[2], 5.0, 1e-9);
    ENSURE_NEAR(q[0], 0.1 * cos(1.5), 1e-9);
    double f;
    ENSURE(clink_sim_driver_force(s, 0, &f) == CLINK_OK);
    ENSURE_NEAR(f, 2.0 * 9.81 * 0.1 * cos(1.5), 1e-6); /* holds the weight at constant speed */
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* the user force of these tests: a spring-damper on the slider (body 2) along x */
typedef struct spring {
    double k, c, length;
    int calls, fail_after_t; /* fail_after_t: 1 returns -1, 2 NaN after t = 0.1 */
} spring;

static int spring_force(void *data, double t, int n, const double *q, const double *v, double *f)
{
    spring *sp = data;
    sp->calls++;
    ENSURE(n == 6);
    if (sp->fail_after_t && t > 0.1)
        return sp->fail_after_t == 1 ? -1 : (f[3] = NAN, 0);
    f[3] = -sp->k * (q[3] - sp->length) - sp->c * v[3];
    return 0;
}

static int spring_jacobian(void *data, double t, int n, const double *q, const double *v,
                           double *dfdq, double *dfdv)
{
    const spring *sp = data;
    (void) t, (void) q, (void) v;
    dfdq[3 * n + 3] = -sp->k;
    dfdv[3 * n + 3] = -sp->c;
    return 0;
}

/* the slider's x at t_end with the spring as a user force */
static double spring_run(const clink_model *m, spring *sp, int with_jac, double t_end,
                         clink_status *st, char *msg, size_t size)
{
    clink_settings_def set = clink_model_settings(m);
    set.method = with_jac < 0 ? CLINK_METHOD_ADAMS : CLINK_METHOD_BDF; /* BDF: Newton */
    set.drift = with_jac < 0 ? CLINK_DRIFT_BAUMGARTE : CLINK_DRIFT_PROJECTION;
    clink_sim *s = NULL;
    ENSURE(clink_sim_create(m, &set, &s, NULL, 0) == CLINK_OK);
    ENSURE(clink_sim_set_user_force(s, "spring", spring_force,
                                    with_jac > 0 ? spring_jacobian : NULL, sp) == CLINK_OK);
    *st = CLINK_OK;
    for (int k = 1; k <= 100 && *st == CLINK_OK; k++)
        *st = clink_sim_advance(s, t_end * k / 100);
    snprintf(msg, size, "%s", clink_sim_error(s));
    double q[3], v[3];
    clink_sim_body_state(s, 2, q, v);
    clink_sim_destroy(&s);
    return q[0];
}

TEST(a_user_force_moves_the_slider_as_the_damped_oscillator_it_makes)
{
    clink_model *m = load_text(ROTOR);
    spring sp = {.k = 50.0, .c = 0.5, .length = 1.2};
    clink_status st;
    char msg[512];
    double x = spring_run(m, &sp, 0, 0.5, &st, msg, sizeof msg);
    ENSURE(st == CLINK_OK);
    /* m x'' = -k (x - L) - c x', x(0) - L = -0.2 at rest */
    double w0 = 10.0, z = 0.5 / (2.0 * 0.5 * w0), wd = w0 * sqrt(1.0 - z * z), t = 0.5;
    double ref = 1.2 - 0.2 * exp(-z * w0 * t) * (cos(wd * t) + z * w0 / wd * sin(wd * t));
    ENSURE_NEAR(x, ref, 1e-8);
    int calls_fd = sp.calls;
    sp.calls = 0;
    double xj = spring_run(m, &sp, 1, 0.5, &st, msg, sizeof msg);
    ENSURE(st == CLINK_OK);
    ENSURE_NEAR(xj, ref, 1e-8);
    ENSURE(sp.calls < calls_fd); /* the Jacobian saves the difference quotients' calls */
    clink_model_destroy(&m);
}

TEST(a_user_force_that_fails_or_returns_nan_stops_the_run_with_its_name_and_time)
{
    clink_model *m = load_text(ROTOR);
    spring sp = {.k = 50.0, .c = 0.5, .length = 1.2, .fail_after_t = 1};
    clink_status st;
    char msg[512];
    spring_run(m, &sp, 0, 0.5, &st, msg, sizeof msg);
    ENSURE(st == CLINK_ERR_SOLVER);
    ENSURE(strstr(msg, "user force 'spring' failed (returned -1) at t = 0.10") != NULL);
    sp.fail_after_t = 2;
    spring_run(m, &sp, 1, 0.5, &st, msg, sizeof msg);
    ENSURE(st == CLINK_ERR_NONFINITE);
    ENSURE(strstr(msg, "user force 'spring' returned a non-finite force (body 2, component 0) "
                       "at t = 0.10") != NULL);
    /* Adams (the fixed-point iteration retries a failed right-hand side): the same stop */
    spring_run(m, &sp, -1, 0.5, &st, msg, sizeof msg);
    ENSURE(st == CLINK_ERR_NONFINITE);
    ENSURE(strstr(msg, "user force 'spring' returned a non-finite force") != NULL);
    clink_model_destroy(&m);
}

static int push_x(void *data, double t, int n, const double *q, const double *v, double *f)
{
    (void) data, (void) t, (void) n, (void) q, (void) v;
    f[0] = 1.0;
    return 0;
}

TEST(a_user_force_on_a_coordinate_the_model_holds_fixed_is_refused)
{
    static const char *BALL = "<mechanism name=\"ball\"><gravity g=\"0 -9.81\"/>"
                              "<bodies><body name=\"ball\" mass=\"1\" inertia=\"0.1\"/>"
                              "</bodies></mechanism>";
    clink_model *m = load_text(BALL);
    clink_sim *s = start(m);
    ENSURE(clink_sim_set_user_force(s, "wind", push_x, NULL, NULL) == CLINK_OK);
    ENSURE(clink_sim_advance(s, 0.1) == CLINK_ERR_MODEL);
    ENSURE(strstr(clink_sim_error(s), "user force 'wind' acts on x of body 1") != NULL);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* the clearance slider-crank driven by its torque input: through impacts */
TEST(a_torque_change_during_impacts_continues_as_a_run_stopped_there)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/examples/slider_crank_clearance_torque.xml", CLINK_SOURCE_DIR);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    ENSURE(m != NULL);
    double w[2][3];
    for (int stop = 0; stop < 2; stop++) {
        clink_sim *s = start(m);
        double t1 = 2e-3, t2 = 2.5e-3, q[3];
        if (stop)
            clink_sim_set_stop_time(s, t1);
        for (int k = 1; k <= 200; k++)
            ENSURE(clink_sim_advance(s, t1 * k / 200) == CLINK_OK);
        if (stop)
            clink_sim_set_stop_time(s, 1.0);
        ENSURE(clink_sim_set_input(s, 0, 40.0, 0.0) == CLINK_OK);
        for (int k = 1; k <= 50; k++)
            ENSURE(clink_sim_advance(s, t1 + (t2 - t1) * k / 50) == CLINK_OK);
        clink_sim_body_state(s, 1, q, w[stop]);
        ENSURE(clink_sim_impact_count(s) > 0);
        clink_sim_destroy(&s);
    }
    ENSURE_REL(w[0][2], w[1][2], 1e-6);
    clink_model_destroy(&m);
}

TEST(a_recorder_advance_in_steps_mode_restarts_after_an_input_change_too)
{
    clink_model *m = load_text(ROTOR);
    char dir[1024], err[512];
    snprintf(dir, sizeof dir, "%s/test_sim_inputs_rows", CLINK_BINARY_DIR);
    mkdir(dir, 0777);
    clink_output_options o = clink_default_output_options();
    o.rows = CLINK_ROWS_STEPS;
    clink_recorder *rec = NULL;
    ENSURE(clink_recorder_create(m, dir, &o, &rec, err, sizeof err) == CLINK_OK);
    clink_sim *s = start(m);
    ENSURE(clink_recorder_advance(rec, s, 0.1) == CLINK_OK);
    long before = s->inp.restarts;
    ENSURE(clink_sim_set_input(s, 0, 0.3, 0.0) == CLINK_OK);
    ENSURE(clink_recorder_advance(rec, s, 0.3) == CLINK_OK);
    ENSURE(s->inp.restarts == before + 1 && !s->inp.changed);
    double q[3], v[3];
    clink_sim_body_state(s, 1, q, v);
    ENSURE_REL(v[2], 0.3 * 0.2 / 0.02, 1e-8);
    clink_recorder_destroy(&rec);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}
