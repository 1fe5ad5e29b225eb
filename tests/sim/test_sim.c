/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulation API (include/clink/sim.h): CVODE driver, drift control, errors. */
#include "ensure.h"

#include "clink/sim.h"

/*
 * Pendulum: point-like bob (J small) of mass m on a massless pin at distance L
 * from the pivot at the origin; body frame y axis points to the pivot.
 * offset displaces the initial position (to test assembly).
 */
static clink_model *pendulum(double theta0, double offset, clink_method method, clink_drift drift)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    double L = 1.0;
    bd.name = "bob";
    bd.mass = 1.0;
    bd.inertia = 1e-3;
    bd.x = L * sin(theta0) + offset;
    bd.y = -L * cos(theta0);
    bd.phi = theta0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_joint_def jd = clink_default_joint_def();
    jd.name = "pivot";
    jd.body_a = 0;
    jd.body_b = 1;
    jd.point_b[1] = L;
    clink_model_builder_add_joint(b, &jd, NULL);
    clink_settings_def s = clink_default_settings_def();
    s.rtol = 1e-10;
    s.atol = 1e-12;
    s.method = method;
    s.drift = drift;
    clink_model_builder_set_settings(b, &s);
    clink_model *m = NULL;
    clink_model_builder_finalize(b, &m);
    clink_model_builder_destroy(&b);
    return m;
}

TEST(pendulum_with_projection_keeps_energy_and_constraints_over_ten_seconds)
{
    clink_model *m = pendulum(2.0, 0.0, CLINK_METHOD_BDF, CLINK_DRIFT_PROJECTION);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    if (!sim)
        return;
    for (int i = 1; i <= 10; i++)
        ENSURE(clink_sim_advance(sim, (double) i) == CLINK_OK);
    ENSURE_NEAR(clink_sim_time(sim), 10.0, 0.0);
    double pos, vel;
    clink_sim_constraint_violation(sim, &pos, &vel);
    ENSURE(pos <= 1e-12);
    ENSURE(vel <= 1e-12);
    clink_energy e;
    ENSURE(clink_sim_energy(sim, &e) == CLINK_OK);
    /* |balance| relative to the swing's energy m g L (1 - cos 2) ~ 14 J */
    ENSURE(fabs(e.balance) <= 1e-5);
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    ENSURE(st.steps > 0 && st.rhs_evals > 0 && st.proj_evals > 0 && st.jac_evals > 0);
    clink_sim_destroy(&sim);
    ENSURE(sim == NULL);
    clink_model_destroy(&m);
}

TEST(adams_with_baumgarte_follows_the_bdf_projection_run)
{
    clink_model *m1 = pendulum(1.0, 0.0, CLINK_METHOD_BDF, CLINK_DRIFT_PROJECTION);
    clink_model *m2 = pendulum(1.0, 0.0, CLINK_METHOD_ADAMS, CLINK_DRIFT_BAUMGARTE);
    clink_sim *s1 = NULL, *s2 = NULL;
    ENSURE(clink_sim_create(m1, NULL, &s1, NULL, 0) == CLINK_OK);
    ENSURE(clink_sim_create(m2, NULL, &s2, NULL, 0) == CLINK_OK);
    if (!s1 || !s2)
        return;
    ENSURE(clink_sim_advance(s1, 2.0) == CLINK_OK);
    ENSURE(clink_sim_advance(s2, 2.0) == CLINK_OK);
    double q1[3], q2[3];
    clink_sim_body_state(s1, 1, q1, NULL);
    clink_sim_body_state(s2, 1, q2, NULL);
    /* both at rtol 1e-10: the angles agree to well within 1e-6 rad */
    ENSURE_NEAR(q1[2], q2[2], 1e-6);
    clink_sim_destroy(&s1);
    clink_sim_destroy(&s2);
    clink_model_destroy(&m1);
    clink_model_destroy(&m2);
}

TEST(displaced_initial_position_is_assembled_and_the_correction_reported)
{
    clink_model *m = pendulum(0.5, 0.01, CLINK_METHOD_BDF, CLINK_DRIFT_PROJECTION);
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, NULL, &sim, NULL, 0) == CLINK_OK);
    if (!sim)
        return;
    double dq, dv, pos;
    clink_sim_assembly(sim, &dq, &dv);
    ENSURE(dq > 1e-3 && dq < 2e-2);
    clink_sim_constraint_violation(sim, &pos, NULL);
    ENSURE(pos <= 1e-13);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(impossible_assembly_is_an_error_with_a_message)
{
    /* the bob's x is driven to 5 m while it hangs on a 1 m pin */
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.y = -1.0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_joint_def jd = clink_default_joint_def();
    jd.body_b = 1;
    jd.point_b[1] = 1.0;
    clink_model_builder_add_joint(b, &jd, NULL);
    clink_driver_def dd = clink_default_driver_def();
    dd.body = 1;
    dd.coordinate = 0;
    dd.function.c[0] = 5.0;
    clink_model_builder_add_driver(b, &dd, NULL);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_sim *sim = NULL;
    char err[256] = "";
    clink_status st = clink_sim_create(m, NULL, &sim, err, sizeof err);
    ENSURE(st == CLINK_ERR_ASSEMBLY || st == CLINK_ERR_SINGULAR);
    ENSURE(sim == NULL);
    ENSURE(strlen(err) > 10);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}

TEST(redundant_joints_are_handled_and_named_with_minimum_norm_reactions)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.y = -1.0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_model_builder_add_body(b, &bd, NULL);
    clink_joint_def jd = clink_default_joint_def();
    jd.body_b = 1;
    jd.point_b[1] = 1.0;
    jd.name = "pin";
    clink_model_builder_add_joint(b, &jd, NULL);
    jd.name = "pin_again";
    clink_model_builder_add_joint(b, &jd, NULL);
    jd.name = "link";
    jd.body_a = 1;
    jd.body_b = 2;
    jd.point_b[1] = 0.0;
    clink_model_builder_add_joint(b, &jd, NULL);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_sim *sim = NULL;
    char err[256] = "";
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    char names[256];
    ENSURE(clink_sim_redundant_constraints(sim, names, sizeof names) == 2);
    ENSURE(strstr(names, "pin_again") != NULL);
    ENSURE(clink_sim_advance(sim, 0.5) == CLINK_OK);
    double fa[3], fb[3];
    ENSURE(clink_sim_joint_reaction(sim, 0, fa) == CLINK_OK);
    ENSURE(clink_sim_joint_reaction(sim, 1, fb) == CLINK_OK);
    ENSURE_NEAR(fa[1], fb[1], 1e-9); /* the minimum-norm set shares the load equally */
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}

TEST(projection_with_adams_is_refused_by_the_simulation)
{
    clink_model *m = pendulum(0.5, 0.0, CLINK_METHOD_BDF, CLINK_DRIFT_PROJECTION);
    clink_settings_def s = clink_model_settings(m);
    s.method = CLINK_METHOD_ADAMS;
    clink_sim *sim = NULL;
    char err[256] = "";
    ENSURE(clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_ERR_ARG);
    /* the methods that project are named (the methods' table: bdf and rk4) */
    ENSURE(strstr(err, "bdf, rk4") != NULL && strstr(err, "adams") != NULL);
    clink_model_destroy(&m);
}

/* the settings of a simulation are checked as the model's: rtol in (0, 1), atol finite > 0 */
TEST(rtol_outside_zero_one_and_atol_not_finite_are_refused_by_the_simulation)
{
    clink_model *m = pendulum(0.5, 0.0, CLINK_METHOD_BDF, CLINK_DRIFT_PROJECTION);
    const double rtols[] = {1.0, 1e300, INFINITY, 0.0, -1e-8, NAN};
    for (size_t i = 0; i < sizeof rtols / sizeof rtols[0]; i++) {
        clink_settings_def s = clink_model_settings(m);
        s.rtol = rtols[i];
        clink_sim *sim = NULL;
        char err[256] = "";
        ENSURE(clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_ERR_RANGE);
        ENSURE(sim == NULL);
        ENSURE(strstr(err, "rtol") != NULL && strstr(err, "(0, 1)") != NULL);
    }
    const double atols[] = {INFINITY, 0.0, NAN};
    for (size_t i = 0; i < sizeof atols / sizeof atols[0]; i++) {
        clink_settings_def s = clink_model_settings(m);
        s.atol = atols[i];
        clink_sim *sim = NULL;
        char err[256] = "";
        ENSURE(clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_ERR_RANGE);
        ENSURE(sim == NULL);
    }
    clink_settings_def s = clink_model_settings(m);
    s.rtol = 0.5; /* loose but inside the range */
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, &s, &sim, NULL, 0) == CLINK_OK);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(hanging_pendulum_at_rest_carries_its_weight_in_the_pivot)
{
    clink_model *m = pendulum(0.0, 0.0, CLINK_METHOD_BDF, CLINK_DRIFT_PROJECTION);
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, NULL, &sim, NULL, 0) == CLINK_OK);
    if (!sim)
        return;
    ENSURE(clink_sim_advance(sim, 0.5) == CLINK_OK);
    double f[3], a[3];
    ENSURE(clink_sim_joint_reaction(sim, 0, f) == CLINK_OK);
    ENSURE_NEAR(f[0], 0.0, 1e-9);
    ENSURE_NEAR(f[1], 9.81, 1e-9);
    ENSURE_NEAR(f[2], 0.0, 1e-9);
    ENSURE(clink_sim_body_acceleration(sim, 1, a) == CLINK_OK);
    ENSURE_NEAR(a[1], 0.0, 1e-9);
    ENSURE(clink_sim_joint_reaction(sim, 3, f) == CLINK_ERR_ARG);
    ENSURE(clink_sim_advance(sim, 0.2) == CLINK_ERR_ARG); /* backwards */
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(mass_on_a_spring_slider_oscillates_with_period_two_pi_sqrt_m_over_k)
{
    /* body on a horizontal translational joint with a spring to ground, no gravity */
    double mass = 2.0, k = 50.0, x0 = 0.1;
    clink_model_builder *b = clink_model_builder_create();
    clink_model_builder_set_gravity(b, 0.0, 0.0);
    clink_body_def bd = clink_default_body_def();
    bd.mass = mass;
    bd.x = 1.0 + x0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_joint_def jd = clink_default_joint_def();
    jd.type = CLINK_JOINT_TRANSLATIONAL;
    jd.body_b = 1;
    clink_model_builder_add_joint(b, &jd, NULL);
    clink_force_def fd = clink_default_force_def();
    fd.type = CLINK_FORCE_SPRING_DAMPER;
    fd.body_a = 0;
    fd.body_b = 1;
    fd.k = k;
    fd.free_length = 1.0;
    clink_model_builder_add_force(b, &fd, NULL);
    clink_settings_def s = clink_default_settings_def();
    s.rtol = 1e-10;
    s.atol = 1e-12;
    clink_model_builder_set_settings(b, &s);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, NULL, &sim, NULL, 0) == CLINK_OK);
    if (!sim)
        return;
    double T = 2.0 * 3.14159265358979323846 * sqrt(mass / k), q[3];
    ENSURE(clink_sim_advance(sim, 0.25 * T) == CLINK_OK);
    clink_sim_body_state(sim, 1, q, NULL);
    ENSURE_NEAR(q[0], 1.0, 1e-7);
    ENSURE(clink_sim_advance(sim, 3.0 * T) == CLINK_OK);
    clink_sim_body_state(sim, 1, q, NULL);
    ENSURE_NEAR(q[0], 1.0 + x0, 1e-7);
    clink_energy e;
    clink_sim_energy(sim, &e);
    ENSURE_NEAR(e.spring + e.kinetic, 0.5 * k * x0 * x0, 1e-7);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}
