/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Constraint equations (src/dynamics/constraints.c): for every joint and driver type the
 * Jacobian, nu and gamma are checked against finite differences of Phi along
 * q(t) = q0 + v t (qdd = 0), where dPhi/dt = Phi_q v - nu and
 * d2Phi/dt2 = -gamma. Central differences with h = 1e-4 s leave an error of
 * order h^2 |Phi'''| ~ 1e-8 plus rounding 1e-16/h^2 ~ 1e-8: tolerance 1e-6.
 * The table of the bodies' cos and sin the constraints share with the contacts (kin_trig)
 * is checked against rotations computed afresh, bit for bit.
 */
#include "ensure.h"

#include "dynamics/constraints.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* a joint of type t between bodies 1 and 2 in a general position (points off the centres,
   an oblique axis, an angle offset) */
static clink_joint_def general_joint(clink_joint_type t)
{
    clink_joint_def jd = clink_default_joint_def();
    jd.type = t;
    jd.body_a = 1;
    jd.body_b = 2;
    jd.point_a[0] = 0.3;
    jd.point_a[1] = -0.1;
    jd.point_b[0] = 0.05;
    jd.point_b[1] = 0.2;
    jd.axis_a[0] = 0.6;
    jd.axis_a[1] = 0.8;
    jd.angle0 = 0.2;
    return jd;
}

/* two free bodies joined by general_joint(t); NULL if it cannot be built */
static clink_model *one_joint_model(clink_joint_type t)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_joint_def jd = general_joint(t);
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_OK);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    return m;
}

/* four bodies; one of each joint type and of each driver target */
static clink_model *every_constraint_model(void)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    for (int i = 0; i < 4; i++)
        ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_joint_def jd = general_joint(CLINK_JOINT_TRANSLATIONAL);
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_OK); /* joint 0 */
    jd = clink_default_joint_def();
    jd.body_a = 2;
    jd.body_b = 3;
    jd.point_a[0] = -0.4;
    jd.point_b[1] = 0.25;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_OK); /* joint 1 revolute */
    jd.type = CLINK_JOINT_WELD;
    jd.body_a = 1;
    jd.body_b = 4;
    jd.angle0 = -0.3;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_OK); /* joint 2 weld */
    clink_driver_def dd = clink_default_driver_def();
    dd.target = CLINK_DRIVE_JOINT_DISPLACEMENT;
    dd.joint = 0;
    dd.function =
        (clink_function){.type = CLINK_FUNCTION_HARMONIC, .n = 0, .c = {0.1, 0.05, 7.0, 0.3}};
    ENSURE(clink_model_builder_add_driver(b, &dd, NULL) == CLINK_OK);
    dd.target = CLINK_DRIVE_JOINT_ANGLE;
    dd.joint = 1;
    dd.function =
        (clink_function){.type = CLINK_FUNCTION_POLYNOMIAL, .n = 3, .c = {0.2, 3.0, -1.5}};
    ENSURE(clink_model_builder_add_driver(b, &dd, NULL) == CLINK_OK);
    dd.target = CLINK_DRIVE_BODY_COORDINATE;
    dd.body = 1;
    dd.coordinate = 1;
    dd.function = (clink_function){.type = CLINK_FUNCTION_LINEAR, .n = 0, .c = {0.5, 2.0}};
    ENSURE(clink_model_builder_add_driver(b, &dd, NULL) == CLINK_OK);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    return m;
}

/* Phi_q x for row r */
static double row_dot(const kin_row *jr, int a, int bb, const double *x)
{
    double y = 0.0;
    for (int k = 0; k < 3; k++) {
        if (a > 0)
            y += jr->ja[k] * x[3 * (a - 1) + k];
        if (bb > 0)
            y += jr->jb[k] * x[3 * (bb - 1) + k];
    }
    return y;
}

TEST(every_joint_and_driver_jacobian_nu_and_gamma_match_finite_differences)
{
    clink_model *m = every_constraint_model();
    ENSURE(m != NULL);
    if (!m)
        return;
    int nq = m->ncoords, nc = m->nconstraints;
    ENSURE(nc == 2 + 2 + 3 + 3);
    double q0[12], v[12], qp[12], qm[12];
    for (int i = 0; i < nq; i++) {
        q0[i] = 0.3 * sin(1.7 * i + 0.4);
        v[i] = 1.1 * cos(2.3 * i + 0.1);
    }
    kin_row jac[16];
    double phi0[16], phip[16], phim[16], nu[16], gamma[16];
    int ra[16], rb[16];
    kin_row_bodies(m, ra, rb);
    double t0 = 0.37, h = 1e-4;
    kin_eval(m, t0, q0, v, phi0, jac, nu, gamma);
    for (int i = 0; i < nq; i++) {
        qp[i] = q0[i] + h * v[i];
        qm[i] = q0[i] - h * v[i];
    }
    kin_eval(m, t0 + h, qp, NULL, phip, NULL, NULL, NULL);
    kin_eval(m, t0 - h, qm, NULL, phim, NULL, NULL, NULL);
    for (int r = 0; r < nc; r++) {
        double dphi = (phip[r] - phim[r]) / (2.0 * h);
        double ddphi = (phip[r] - 2.0 * phi0[r] + phim[r]) / (h * h);
        ENSURE_NEAR(row_dot(&jac[r], ra[r], rb[r], v) - dphi, nu[r], 1e-6);
        ENSURE_NEAR(ddphi, -gamma[r], 1e-5);
    }
    /* each Jacobian column by central differences in one coordinate */
    for (int c = 0; c < nq; c++) {
        memcpy(qp, q0, sizeof qp);
        memcpy(qm, q0, sizeof qm);
        qp[c] += h;
        qm[c] -= h;
        kin_eval(m, t0, qp, NULL, phip, NULL, NULL, NULL);
        kin_eval(m, t0, qm, NULL, phim, NULL, NULL, NULL);
        double e[12] = {0};
        e[c] = 1.0;
        for (int r = 0; r < nc; r++)
            ENSURE_NEAR(row_dot(&jac[r], ra[r], rb[r], e), (phip[r] - phim[r]) / (2.0 * h), 1e-7);
    }
    clink_model_destroy(&m);
}

TEST(revolute_joint_is_satisfied_when_its_points_coincide)
{
    clink_joint_def jd = clink_default_joint_def();
    jd.point_a[0] = 1.0;
    jd.point_b[0] = -0.5;
    kin_pose a, b;
    joint_pose_set(&a, 0.0, 0.0, PI / 2, 0, 0, 0);
    joint_pose_set(&b, -0.5, 1.0, PI, 0, 0, 0);
    double phi[2];
    joint_class_of(CLINK_JOINT_REVOLUTE)->phi(&jd, &a, &b, phi);
    /* point_a at (0, 1); point_b at (-0.5, 1) + A(pi)(-0.5, 0) = (0, 1) */
    ENSURE_NEAR(phi[0], 0.0, 1e-15);
    ENSURE_NEAR(phi[1], 0.0, 1e-15);
}

TEST(translational_displacement_driver_measures_along_the_axis)
{
    clink_model *m = every_constraint_model();
    ENSURE(m != NULL);
    if (!m)
        return;
    double q[12] = {0}, phi[16];
    /* body 1 at origin, phi 0: axis (0.6, 0.8); put point_b of body 2 at point_a + 0.5 axis */
    q[3 * 1 + 2] = 0.2; /* body 2 angle = angle0 */
    double sb[2] = {0.05, 0.2}, arm[2];
    kin_rot(0.2, sb, arm);
    q[3] = 0.3 + 0.5 * 0.6 - arm[0];
    q[4] = -0.1 + 0.5 * 0.8 - arm[1];
    kin_eval(m, 0.0, q, NULL, phi, NULL, NULL, NULL);
    ENSURE_NEAR(phi[0], 0.0, 1e-14); /* on the line */
    ENSURE_NEAR(phi[1], 0.0, 1e-14); /* angle held */
    double f0;
    clink_function f = {.type = CLINK_FUNCTION_HARMONIC, .n = 0, .c = {0.1, 0.05, 7.0, 0.3}};
    clink_function_eval(&f, 0.0, &f0, NULL, NULL);
    ENSURE_NEAR(phi[m->driver_row[0]], 0.5 - f0, 1e-14);
    clink_model_destroy(&m);
}

TEST(every_joint_type_of_the_table_matches_finite_differences)
{
    /* one joint of each type between two free bodies in a general position */
    for (int t = 0; t < CLINK_JOINT_TYPE_COUNT_; t++) {
        clink_model *m = one_joint_model((clink_joint_type) t);
        ENSURE(m != NULL);
        if (!m)
            continue;
        int nc = m->nconstraints;
        ENSURE(nc == joint_class_of((clink_joint_type) t)->neq);
        double q0[6], v[6], qp[6], qm[6], phi0[3], phip[3], phim[3], nu[3], gamma[3];
        kin_row jac[3];
        int ra[3], rb[3];
        for (int i = 0; i < 6; i++) {
            q0[i] = 0.3 * sin(1.7 * i + 0.4);
            v[i] = 1.1 * cos(2.3 * i + 0.1);
        }
        kin_row_bodies(m, ra, rb);
        double h = 1e-4;
        kin_eval(m, 0.0, q0, v, phi0, jac, nu, gamma);
        for (int i = 0; i < 6; i++) {
            qp[i] = q0[i] + h * v[i];
            qm[i] = q0[i] - h * v[i];
        }
        kin_eval(m, 0.0, qp, NULL, phip, NULL, NULL, NULL);
        kin_eval(m, 0.0, qm, NULL, phim, NULL, NULL, NULL);
        for (int r = 0; r < nc; r++) {
            ENSURE_NEAR(nu[r], 0.0, 0.0); /* joints are scleronomic */
            ENSURE_NEAR(row_dot(&jac[r], ra[r], rb[r], v), (phip[r] - phim[r]) / (2.0 * h), 1e-6);
            ENSURE_NEAR((phip[r] - 2.0 * phi0[r] + phim[r]) / (h * h), -gamma[r], 1e-5);
        }
        for (int c = 0; c < 6; c++) {
            memcpy(qp, q0, sizeof qp);
            memcpy(qm, q0, sizeof qm);
            qp[c] += h;
            qm[c] -= h;
            kin_eval(m, 0.0, qp, NULL, phip, NULL, NULL, NULL);
            kin_eval(m, 0.0, qm, NULL, phim, NULL, NULL, NULL);
            double e[6] = {0};
            e[c] = 1.0;
            for (int r = 0; r < nc; r++)
                ENSURE_NEAR(row_dot(&jac[r], ra[r], rb[r], e), (phip[r] - phim[r]) / (2.0 * h),
                            1e-7);
        }
        clink_model_destroy(&m);
    }
}

/*
 * The second-derivative hooks of every row of a model (kin_eval_second) against
 * central differences: H_r column k against the Jacobian row, d gamma / dq
 * against gamma, and d gamma / dv = -2 H_r v against gamma.
 */
static void check_second_derivatives(const clink_model *m, const double *q0, const double *v0)
{
    int nq = m->ncoords, nc = m->nconstraints;
    enum { MAXQ = 12, MAXR = 16 };
    ENSURE(nq <= MAXQ && nc <= MAXR);
    if (nq > MAXQ || nc > MAXR)
        return;
    joint_hessian hess[MAXR];
    kin_row gq[MAXR], jp[MAXR], jm[MAXR];
    double gp[MAXR], gm[MAXR], qp[MAXQ], qm[MAXQ], vp[MAXQ], vm[MAXQ];
    int ra[MAXR], rb[MAXR];
    kin_row_bodies(m, ra, rb);
    double t0 = 0.37, h = 1e-5;
    kin_eval_second(m, t0, q0, v0, hess, gq);
    for (int r = 0; r < nc; r++)
        for (int i = 0; i < 6; i++)
            for (int k = 0; k < 6; k++)
                ENSURE_NEAR(hess[r].h[i][k], hess[r].h[k][i], 0.0); /* symmetric */
    for (int c = 0; c < nq; c++) {
        memcpy(qp, q0, (size_t) nq * sizeof(double));
        memcpy(qm, q0, (size_t) nq * sizeof(double));
        memcpy(vp, v0, (size_t) nq * sizeof(double));
        memcpy(vm, v0, (size_t) nq * sizeof(double));
        qp[c] += h;
        qm[c] -= h;
        kin_eval(m, t0, qp, v0, NULL, jp, NULL, gp);
        kin_eval(m, t0, qm, v0, NULL, jm, NULL, gm);
        for (int r = 0; r < nc; r++) {
            /* the slot of coordinate c in row r */
            int body = c / 3 + 1, k = -1;
            if (ra[r] == body)
                k = c % 3;
            else if (rb[r] == body)
                k = 3 + c % 3;
            if (k < 0)
                continue;
            for (int i = 0; i < 6; i++) {
                double fd = ((i < 3 ? jp[r].ja[i] : jp[r].jb[i - 3]) -
                             (i < 3 ? jm[r].ja[i] : jm[r].jb[i - 3])) /
                            (2.0 * h);
                ENSURE_NEAR(hess[r].h[i][k], fd, 1e-8);
            }
            double gqk = k < 3 ? gq[r].ja[k] : gq[r].jb[k - 3];
            ENSURE_NEAR(gqk, (gp[r] - gm[r]) / (2.0 * h), 1e-7);
        }
        vp[c] += h;
        vm[c] -= h;
        kin_eval(m, t0, q0, vp, NULL, NULL, NULL, gp);
        kin_eval(m, t0, q0, vm, NULL, NULL, NULL, gm);
        for (int r = 0; r < nc; r++) {
            int body = c / 3 + 1, k = -1;
            if (ra[r] == body)
                k = c % 3;
            else if (rb[r] == body)
                k = 3 + c % 3;
            double dgv = 0.0;
            if (k >= 0)
                for (int i = 0; i < 6; i++) {
                    int bi = i < 3 ? ra[r] : rb[r];
                    double vi = bi > 0 ? v0[3 * (bi - 1) + i % 3] : 0.0;
                    dgv -= 2.0 * hess[r].h[k][i] * vi;
                }
            ENSURE_NEAR(dgv, (gp[r] - gm[r]) / (2.0 * h), 1e-7);
        }
    }
}

TEST(every_joint_type_and_driver_second_derivative_hooks_match_finite_differences)
{
    double q0[12], v[12];
    for (int i = 0; i < 12; i++) {
        q0[i] = 0.3 * sin(1.7 * i + 0.4);
        v[i] = 1.1 * cos(2.3 * i + 0.1);
    }
    for (int t = 0; t < CLINK_JOINT_TYPE_COUNT_; t++) {
        const joint_class *jc = joint_class_of((clink_joint_type) t);
        ENSURE(jc->hessian != NULL && jc->gamma_q != NULL);
        clink_model *m = one_joint_model((clink_joint_type) t);
        ENSURE(m != NULL);
        if (!m)
            continue;
        check_second_derivatives(m, q0, v);
        clink_model_destroy(&m);
    }
    /* the drivers (and the joints again, some on ground) */
    clink_model *m = every_constraint_model();
    ENSURE(m != NULL);
    if (!m)
        return;
    check_second_derivatives(m, q0, v);
    clink_model_destroy(&m);
}

/* kin_eval_trig with a table of cos and sin against kin_eval computing them, at (q, v): 0 when
   Phi, the Jacobian, nu and gamma are the same bits */
static int trig_differs(const clink_model *m, kin_trig *tr, double t, const double *q,
                        const double *v)
{
    kin_row ja[16], jb[16];
    double pa[16], pb[16], na[16], nb[16], ga[16], gb[16];
    int nc = m->nconstraints;
    kin_eval(m, t, q, v, pa, ja, na, ga);
    kin_eval_trig(m, NULL, tr, t, q, v, pb, jb, nb, gb);
    size_t d = (size_t) nc * sizeof(double);
    return memcmp(pa, pb, d) != 0 || memcmp(ja, jb, (size_t) nc * sizeof(kin_row)) != 0 ||
           memcmp(na, nb, d) != 0 || memcmp(ga, gb, d) != 0;
}

/* the table the constraints share with the contacts (kin_trig) serves a body's cos and sin
   only for the same bits of its angle: the constraints are the same bits as computed afresh
   through a sequence of states where angles change by one ulp, from +0 to -0, not at all,
   or come back (a table that kept its first entries fails at the first change) */
TEST(the_shared_table_of_cos_and_sin_gives_the_constraints_of_fresh_rotations)
{
    clink_model *m = every_constraint_model();
    ENSURE(m != NULL);
    if (!m)
        return;
    int nq = m->ncoords, nb = m->d.nbodies;
    double t_[12] = {0}, q[12], v[12];
    unsigned char ok[8] = {0};
    ENSURE(nq <= 12 && nb <= 8);
    kin_trig tr = {t_, ok};
    for (int i = 0; i < nq; i++) {
        q[i] = 0.3 * sin(1.7 * i + 0.4);
        v[i] = 1.1 * cos(2.3 * i + 0.1);
    }
    int bad = trig_differs(m, &tr, 0.1, q, v);
    /* body 2's angle one ulp up: its entry must be computed again */
    q[5] = nextafter(q[5], 1.0);
    bad += trig_differs(m, &tr, 0.1, q, v);
    /* positions and velocities change, angles not: the entries serve */
    q[0] += 0.25;
    v[2] = -v[2];
    bad += trig_differs(m, &tr, 0.2, q, v);
    /* an angle of -0 after +0 (the same cos, a sine of the other sign) */
    q[2] = 0.0;
    bad += trig_differs(m, &tr, 0.2, q, v);
    q[2] = -0.0;
    bad += trig_differs(m, &tr, 0.2, q, v);
    /* every angle moved, then back to the first state */
    for (int b = 1; b < nb; b++)
        q[3 * (b - 1) + 2] += 0.7 * b;
    bad += trig_differs(m, &tr, 0.3, q, v);
    for (int i = 0; i < nq; i++)
        q[i] = 0.3 * sin(1.7 * i + 0.4);
    bad += trig_differs(m, &tr, 0.1, q, v);
    ENSURE(bad == 0);
    for (int b = 1; b < nb; b++)
        ENSURE(ok[b] == 1); /* every body went through the table */
    clink_model_destroy(&m);
}
