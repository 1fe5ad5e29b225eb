/* Equations of motion (src/dynamics): saddle-point solve, forces, singular constraints. */
#include "ensure.h"

#include "dynamics/dynamics.h"

/* body of mass 2 kg, J 0.5 kg m^2 hinged to ground at the origin, centre at (L, 0) */
static clink_model *hinged_body(double L, int redundant)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.mass = 2.0;
    bd.inertia = 0.5;
    bd.x = L;
    clink_model_builder_add_body(b, &bd, NULL);
    bd.x = 2.0 * L;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_joint_def jd = clink_default_joint_def();
    jd.name = "pivot";
    jd.body_a = 0;
    jd.body_b = 1;
    jd.point_b[0] = -L;
    clink_model_builder_add_joint(b, &jd, NULL);
    jd.name = "elbow";
    jd.body_a = 1;
    jd.body_b = 2;
    jd.point_a[0] = L;
    jd.point_b[0] = -L;
    jd.point_b[1] = 0.0;
    clink_model_builder_add_joint(b, &jd, NULL);
    if (redundant) {
        jd = clink_default_joint_def();
        jd.name = "second_pivot";
        jd.body_a = 0;
        jd.body_b = 1;
        jd.point_b[0] = -L;
        clink_model_builder_add_joint(b, &jd, NULL);
    }
    clink_model *m = NULL;
    clink_model_builder_finalize(b, &m);
    clink_model_builder_destroy(&b);
    return m;
}

TEST(free_body_falls_with_gravity_and_feels_no_constraint)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.mass = 3.0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_model_builder_set_gravity(b, 1.0, -9.81);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    dyn_system *s = dyn_create(m);
    double q[3] = {0.1, 0.2, 0.3}, v[3] = {1, 2, 3}, a[3];
    ENSURE(dyn_accelerations(s, 0.0, q, v, a, NULL) == CLINK_OK);
    ENSURE_NEAR(a[0], 1.0, 1e-14);
    ENSURE_NEAR(a[1], -9.81, 1e-14);
    ENSURE_NEAR(a[2], 0.0, 1e-14);
    dyn_destroy(&s);
    ENSURE(s == NULL);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}

TEST(double_pendulum_released_horizontal_matches_the_hand_solution)
{
    /*
     * Two links (m, J, centres at L and 2L along x) at rest, horizontal. At
     * rest the centripetal terms vanish; with the absolute angles th1, th2
     * (accelerations a1, a2) the equations (Lagrange, centres at distance L
     * from each joint) are
     *   (J + m L^2 + m (2L)^2) a1 + 2 m L^2 a2 = -3 m g L
     *   2 m L^2 a1 + (J + m L^2) a2 = -m g L
     * (y accelerations of the centres: L a1 and 2 L a1 + L a2).
     */
    double L = 0.4, m = 2.0, J = 0.5, g = 9.81;
    clink_model *mod = hinged_body(L, 0);
    dyn_system *s = dyn_create(mod);
    double q[6] = {L, 0, 0, 2 * L, 0, 0}, v[6] = {0}, a[6], lam[4];
    ENSURE(dyn_accelerations(s, 0.0, q, v, a, lam) == CLINK_OK);
    double A11 = J + m * L * L + 4 * m * L * L, A12 = 2 * m * L * L, A22 = J + m * L * L;
    double b1 = -3 * m * g * L, b2 = -m * g * L, det = A11 * A22 - A12 * A12;
    double a1 = (b1 * A22 - A12 * b2) / det, a2 = (A11 * b2 - A12 * b1) / det;
    ENSURE_NEAR(a[2], a1, 1e-12);
    ENSURE_NEAR(a[5], a2, 1e-12);
    ENSURE_NEAR(a[1], L * a1, 1e-12);
    ENSURE_NEAR(a[4], 2 * L * a1 + L * a2, 1e-12);
    /* the pivot carries the vertical force: lambda_y = total m (a_y) - m g sum */
    ENSURE_NEAR(lam[1], m * (a[1] + a[4]) + 2 * m * g, 1e-10);
    dyn_destroy(&s);
    clink_model_destroy(&mod);
}

TEST(redundant_pivot_is_reported_as_singular_naming_the_joint_and_time)
{
    clink_model *m = hinged_body(0.4, 1);
    ENSURE(m != NULL);
    if (!m)
        return;
    dyn_system *s = dyn_create(m);
    double q[6] = {0.4, 0, 0, 0.8, 0, 0}, v[6] = {0}, a[6], lam[6];
    ENSURE(dyn_accelerations(s, 1.25, q, v, a, lam) == CLINK_ERR_SINGULAR);
    ENSURE(strstr(dyn_error(s), "second_pivot") != NULL);
    ENSURE(strstr(dyn_error(s), "1.25") != NULL);
    dyn_destroy(&s);
    clink_model_destroy(&m);
}

TEST(baumgarte_term_shifts_the_constraint_acceleration_by_minus_beta_squared_phi)
{
    /* one body on a revolute pin displaced by 1 mm in y: Phi_y = 1e-3 */
    clink_model *m = hinged_body(0.4, 0);
    dyn_system *s = dyn_create(m);
    double q[6] = {0.4, 1e-3, 0, 0.8, 1e-3, 0}, v[6] = {0}, a0[6], a1[6];
    ENSURE(dyn_accelerations(s, 0.0, q, v, a0, NULL) == CLINK_OK);
    dyn_set_baumgarte(s, 0.0, 10.0);
    ENSURE(dyn_accelerations(s, 0.0, q, v, a1, NULL) == CLINK_OK);
    /* the pivot's y row, Phi = y_1 - L sin(phi_1), Jacobian (0, 1, -L) at phi_1 = 0:
       Phi_q qdd changes by -beta^2 Phi while the other rows keep their values */
    double dphi_dd = (a1[1] - a0[1]) - 0.4 * (a1[2] - a0[2]);
    ENSURE_NEAR(dphi_dd, -100.0 * 1e-3, 1e-12);
    dyn_destroy(&s);
    clink_model_destroy(&m);
}

TEST(projection_assembles_a_displaced_pendulum_onto_its_pivot)
{
    clink_model *m = hinged_body(0.4, 0);
    dyn_system *s = dyn_create(m);
    double q[6] = {0.41, 0.02, 0.05, 0.79, 0.01, -0.02}, v[6] = {1, 0, 0, 0, 0, 0};
    double dq, dv, pos, vel;
    ENSURE(dyn_project(s, 0.0, q, v, 1e-13, 20, &dq, &dv) == CLINK_OK);
    dyn_violation(s, 0.0, q, v, &pos, &vel);
    ENSURE(pos <= 1e-13);
    ENSURE(vel <= 1e-13);
    ENSURE(dq > 1e-3 && dv > 0.1);
    dyn_destroy(&s);
    clink_model_destroy(&m);
}

TEST(spring_damper_force_pulls_the_points_together_above_its_free_length)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.x = 2.0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_model_builder_set_gravity(b, 0.0, 0.0);
    clink_force_def fd = clink_default_force_def();
    fd.type = CLINK_FORCE_SPRING_DAMPER;
    fd.body_a = 0;
    fd.body_b = 1;
    fd.k = 100.0;
    fd.c = 3.0;
    fd.free_length = 1.5;
    fd.actuator = 2.0;
    fd.point_b[1] = 0.1; /* off the centre: the force also makes a torque */
    clink_model_builder_add_force(b, &fd, NULL);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    dyn_system *s = dyn_create(m);
    double q[3] = {2.0, -0.1, 0.0}, v[3] = {0.5, 0.0, 0.0}, g[3], p;
    /* point at (2, 0): l = 2, ldot = 0.5, tension = 100*0.5 + 3*0.5 + 2 = 53.5 */
    ENSURE(dyn_applied_forces(s, 0.0, q, v, g, &p) == 0);
    ENSURE_NEAR(g[0], -53.5, 1e-12);
    ENSURE_NEAR(g[1], 0.0, 1e-12);
    ENSURE_NEAR(g[2], 0.1 * 53.5, 1e-12); /* arm (0, 0.1) x (-53.5, 0) */
    ENSURE_NEAR(p, -(3.0 * 0.5 + 2.0) * 0.5, 1e-12);
    dyn_energy e;
    dyn_energies(s, 0.0, q, v, NULL, &e);
    ENSURE_NEAR(e.spring, 0.5 * 100.0 * 0.25, 1e-12);
    ENSURE_NEAR(e.kinetic, 0.125, 1e-15);
    dyn_destroy(&s);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}
