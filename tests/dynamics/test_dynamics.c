/* SPDX-License-Identifier: BSD-3-Clause */
/* Equations of motion (src/dynamics): saddle-point solve, forces, singular constraints.
   Over 800 lines: the module's tests share their model fixtures (hinged_body, parallelogram)
   and the saddle solvers' cross-checks their random mechanisms. */
#include "ensure.h"

#include "dynamics/dynamics.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

TEST(a_redundant_pivot_shares_the_load_in_the_minimum_norm_set)
{
    /*
     * The double pendulum with its pivot given twice: the accelerations are those
     * of the model without the repeated pivot, the two pivots carry one half each
     * of the first one's reaction (the least-norm split), and the repeated rows
     * are named.
     */
    double L = 0.4, q[6] = {L, 0, 0, 2 * L, 0, 0}, v[6] = {0.3, -0.2, 0.5, 0.1, 0.2, -0.4};
    clink_model *m1 = hinged_body(L, 0), *m2 = hinged_body(L, 1);
    ENSURE(m1 != NULL && m2 != NULL);
    if (!m1 || !m2)
        return;
    dyn_solver which[2] = {DYN_SOLVER_SCHUR, DYN_SOLVER_KLU};
    for (int i = 0; i < 2; i++) {
        dyn_system *s1 = dyn_create(m1), *s2 = dyn_create(m2);
        ENSURE(dyn_set_solver(s2, which[i]) == CLINK_OK);
        double qp[6], vp[6], a1[6], a2[6], l1[4], l2[6];
        memcpy(qp, q, sizeof q);
        memcpy(vp, v, sizeof v);
        ENSURE(dyn_project(s2, 1.25, qp, vp, 1e-13, 20, NULL, NULL) == CLINK_OK);
        ENSURE(dyn_accelerations(s1, 1.25, qp, vp, a1, l1) == CLINK_OK);
        ENSURE(dyn_accelerations(s2, 1.25, qp, vp, a2, l2) == CLINK_OK);
        for (int c = 0; c < 6; c++)
            ENSURE_NEAR(a2[c], a1[c], 1e-11 * (1.0 + fabs(a1[c])));
        for (int k = 0; k < 2; k++) {
            ENSURE_NEAR(l2[k], 0.5 * l1[k], 1e-10 * (1.0 + fabs(l1[k])));
            ENSURE_NEAR(l2[4 + k], 0.5 * l1[k], 1e-10 * (1.0 + fabs(l1[k])));
            ENSURE_NEAR(l2[2 + k], l1[2 + k], 1e-10 * (1.0 + fabs(l1[k])));
        }
        dyn_factor_stats st;
        dyn_factor_counts(s2, &st);
        ENSURE(st.deficient >= 1 && st.max_deficiency == 2);
        char names[256];
        ENSURE(dyn_dependent_rows(s2, 1.25, qp, names, sizeof names) == 2);
        ENSURE(strstr(names, "second_pivot") != NULL);
        /* an impulse moves the bodies as it moves the model without the repeated pivot */
        double f[6] = {1, 0, 0, 0, 0, 0}, dv1[6], dv2[6];
        ENSURE(dyn_impulse_response(s1, 1.25, qp, f, dv1) == CLINK_OK);
        ENSURE(dyn_impulse_response(s2, 1.25, qp, f, dv2) == CLINK_OK);
        for (int c = 0; c < 6; c++)
            ENSURE_NEAR(dv2[c], dv1[c], 1e-12);
        dyn_destroy(&s1);
        dyn_destroy(&s2);
    }
    clink_model_destroy(&m1);
    clink_model_destroy(&m2);
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

/* ---- Schur complement against KLU ------------------------------------------ */

/* deterministic uniform numbers in [lo, hi) (64-bit LCG, Knuth's constants) */
static double uniform(unsigned long long *state, double lo, double hi)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double) (*state >> 11) / 9007199254740992.0;
}

/*
 * A random mechanism: nb bodies (masses 0.05-5 kg, inertias 1e-5-1e-1 kg m^2)
 * in a chain, each joined to the one before (body 1 to ground) by a revolute or
 * a translational joint with random points and axes, one revolute closing the
 * loop from the last body to ground, and a driver on the first joint's angle or
 * displacement. Rows: 2 nb + 3 <= 3 nb for nb >= 3.
 */
static clink_model *random_mechanism_with(unsigned long long *rng, int nb, int close, int drive)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    for (int i = 1; i <= nb; i++) {
        bd.mass = uniform(rng, 0.05, 5.0);
        bd.inertia = uniform(rng, 1e-5, 1e-1);
        bd.x = 0.1 * i;
        clink_model_builder_add_body(b, &bd, NULL);
    }
    int first_type = 0;
    for (int i = 1; i <= nb + close; i++) {
        clink_joint_def jd = clink_default_joint_def();
        jd.body_a = i - 1;
        jd.body_b = i <= nb ? i : 0;
        if (i == nb + 1)
            jd.body_a = nb;
        jd.type = (i <= nb && uniform(rng, 0.0, 1.0) < 0.3) ? CLINK_JOINT_TRANSLATIONAL
                                                            : CLINK_JOINT_REVOLUTE;
        if (i == 1)
            first_type = jd.type;
        for (int k = 0; k < 2; k++) {
            jd.point_a[k] = uniform(rng, -0.2, 0.2);
            jd.point_b[k] = uniform(rng, -0.2, 0.2);
        }
        double th = uniform(rng, 0.0, 6.283185307179586);
        jd.axis_a[0] = cos(th);
        jd.axis_a[1] = sin(th);
        clink_model_builder_add_joint(b, &jd, NULL);
    }
    clink_driver_def dd = clink_default_driver_def();
    dd.target = first_type == CLINK_JOINT_REVOLUTE ? CLINK_DRIVE_JOINT_ANGLE
                                                   : CLINK_DRIVE_JOINT_DISPLACEMENT;
    dd.joint = 0;
    dd.function.type = CLINK_FUNCTION_HARMONIC;
    dd.function.c[1] = 0.3;
    dd.function.c[2] = 7.0;
    if (drive)
        clink_model_builder_add_driver(b, &dd, NULL);
    clink_model *m = NULL;
    clink_model_builder_finalize(b, &m);
    clink_model_builder_destroy(&b);
    return m;
}

/* the random mechanism above with its closing joint and its driver */
static clink_model *random_mechanism(unsigned long long *rng, int nb)
{
    return random_mechanism_with(rng, nb, 1, 1);
}

static double max_abs(const double *x, int n)
{
    double w = 0.0;
    for (int i = 0; i < n; i++)
        w = fmax(w, fabs(x[i]));
    return w;
}

/*
 * Backward error of a solution (qdd, lambda) of M qdd = g + Phi_q^T lambda,
 * Phi_q qdd = gamma - 2 alpha Phi_dot - beta^2 Phi, from the model's own
 * constraint evaluation, in long double: max residual over
 * max(|M| |qdd| + |Phi_q^T| |lambda| + |g|, |Phi_q| |qdd| + |gamma_B|) per row.
 */
static double saddle_backward_error(const clink_model *m, dyn_system *s, double alpha, double beta,
                                    double t, const double *q, const double *v, const double *a,
                                    const double *lam)
{
    int nq = m->ncoords, nc = m->nconstraints, ra[64], rb[64];
    double g[64], phi[64], nu[64], gam[64];
    kin_row jac[64];
    dyn_applied_forces(s, t, q, v, g, NULL);
    kin_eval(m, t, q, v, phi, jac, nu, gam);
    kin_row_bodies(m, ra, rb);
    long double res[64] = {0}, mag[64] = {0}, worst = 0.0L;
    for (int c = 0; c < nq; c++) {
        double mc =
            c % 3 == 2 ? m->d.bodies[c / 3 + 1].def.inertia : m->d.bodies[c / 3 + 1].def.mass;
        res[c] = (long double) mc * a[c] - g[c];
        mag[c] = fabsl((long double) mc * a[c]) + fabs(g[c]);
    }
    for (int r = 0; r < nc; r++) {
        long double jq = 0.0L, jv = 0.0L, jm = 0.0L;
        for (int k = 0; k < 6; k++) {
            int body = k < 3 ? ra[r] : rb[r];
            if (body <= 0)
                continue;
            int c = 3 * (body - 1) + k % 3;
            double j = k < 3 ? jac[r].ja[k] : jac[r].jb[k - 3];
            res[c] -= (long double) j * lam[r];
            mag[c] += fabsl((long double) j * lam[r]);
            jq += (long double) j * a[c];
            jm += fabsl((long double) j * a[c]);
            jv += (long double) j * v[c];
        }
        long double gb = gam[r] - 2.0L * alpha * (jv - nu[r]) - (long double) beta * beta * phi[r];
        worst = fmaxl(worst, fabsl(jq - gb) / (jm + fabsl(gb)));
    }
    for (int c = 0; c < nq; c++)
        worst = fmaxl(worst, fabsl(res[c]) / mag[c]);
    return (double) worst;
}

TEST(schur_complement_and_klu_solve_random_mechanisms_to_a_backward_error_below_1e_11)
{
    /*
     * 40 random mechanisms of 3 to 14 bodies at random (unassembled) states,
     * where Phi_q can be nearly rank deficient (multipliers up to 1e8 N for
     * accelerations of 1e4 m/s^2). Both solvers are backward stable: the
     * residual of the saddle system per row is below 1e-11 of the size of its
     * terms (long double; KLU leaves up to 1.5e-12 here, the Schur complement
     * 2.6e-9 in one near-singular case without its refinement step). Their solutions agree to 1e-6
     * of the largest component (a forward difference of condition number x 1e-16; a wrong sign,
     * index or factor shows at order 1); accelerations, projected errors and impulse responses all
     * compared.
     */
    unsigned long long rng = 12345;
    int compared = 0;
    for (int trial = 0; trial < 40; trial++) {
        int nb = 3 + trial % 12;
        clink_model *m = random_mechanism(&rng, nb);
        ENSURE(m != NULL);
        if (!m)
            continue;
        int nq = 3 * nb, nc = clink_model_constraint_count(m);
        dyn_system *sa = dyn_create(m), *sb = dyn_create(m);
        ENSURE(dyn_set_solver(sa, DYN_SOLVER_SCHUR) == CLINK_OK);
        ENSURE(dyn_set_solver(sb, DYN_SOLVER_KLU) == CLINK_OK);
        ENSURE(dyn_uses_schur(sa) && !dyn_uses_schur(sb));
        dyn_set_baumgarte(sa, 3.0, 4.0);
        dyn_set_baumgarte(sb, 3.0, 4.0);
        double q[42], v[42], aa[42], ab[42], la[45], lb[45], ea[42], eb[42], va[42], vb[42];
        double escale = 0.0, fscale = 0.0;
        for (int c = 0; c < nq; c++) {
            q[c] = uniform(&rng, -0.5, 0.5);
            v[c] = uniform(&rng, -3.0, 3.0);
            ea[c] = eb[c] = uniform(&rng, -1e-3, 1e-3);
            escale = fmax(escale, fabs(ea[c]));
            double mc =
                c % 3 == 2 ? m->d.bodies[c / 3 + 1].def.inertia : m->d.bodies[c / 3 + 1].def.mass;
            fscale = fmax(fscale, fabs(v[c]) / mc);
        }
        double t = uniform(&rng, 0.0, 1.0);
        clink_status s1 = dyn_accelerations(sa, t, q, v, aa, la);
        clink_status s2 = dyn_accelerations(sb, t, q, v, ab, lb);
        ENSURE(s1 == CLINK_OK && s2 == CLINK_OK);
        if (s1 == CLINK_OK && s2 == CLINK_OK) {
            ENSURE(saddle_backward_error(m, sa, 3.0, 4.0, t, q, v, aa, la) < 1e-11);
            ENSURE(saddle_backward_error(m, sb, 3.0, 4.0, t, q, v, ab, lb) < 1e-11);
            double sa_ = max_abs(ab, nq), sl = max_abs(lb, nc);
            for (int c = 0; c < nq; c++)
                ENSURE_NEAR(aa[c], ab[c], 1e-6 * sa_);
            for (int r = 0; r < nc; r++)
                ENSURE_NEAR(la[r], lb[r], 1e-6 * sl);
            compared++;
        }
        ENSURE(dyn_project_error(sa, t, q, ea, NULL) == CLINK_OK);
        ENSURE(dyn_project_error(sb, t, q, eb, NULL) == CLINK_OK);
        for (int c = 0; c < nq; c++)
            ENSURE_NEAR(ea[c], eb[c], 1e-6 * escale);
        ENSURE(dyn_impulse_response(sa, t, q, v, va) == CLINK_OK);
        ENSURE(dyn_impulse_response(sb, t, q, v, vb) == CLINK_OK);
        for (int c = 0; c < nq; c++)
            ENSURE_NEAR(va[c], vb[c], 1e-6 * fscale);
        dyn_destroy(&sa);
        dyn_destroy(&sb);
        clink_model_destroy(&m);
    }
    ENSURE(compared == 40);
}

/* S = J M^-1 J^T (lower triangle, nc x nc) by row pairs and slots in the order the
   Schur complement path promises: for i, j <= i, slot si of row i, slot sj of row j */
static void dense_schur_matrix(const kin_row *jac, const int *ra, const int *rb, const double *minv,
                               int nc, double *S)
{
    for (int i = 0; i < nc; i++)
        for (int j = 0; j <= i; j++) {
            double acc = 0.0;
            for (int si = 0; si < 6; si++) {
                int bi = si < 3 ? ra[i] : rb[i];
                if (bi <= 0)
                    continue;
                int ci = 3 * (bi - 1) + si % 3;
                for (int sj = 0; sj < 6; sj++) {
                    int bj = sj < 3 ? ra[j] : rb[j];
                    if (bj > 0 && 3 * (bj - 1) + sj % 3 == ci) {
                        double ji = si < 3 ? jac[i].ja[si] : jac[i].jb[si - 3];
                        double jj = sj < 3 ? jac[j].ja[sj] : jac[j].jb[sj - 3];
                        acc += ji * jj * minv[ci];
                    }
                }
            }
            S[i * nc + j] = acc;
        }
}

/*
 * The reference of the Schur complement path on [M J^T; J 0][x; z] = [f; 0]: dense
 * Cholesky of S over every entry, forward and back substitution, x = M^-1 (f - J^T z).
 */
static void dense_schur_solve(const kin_row *jac, const int *ra, const int *rb, const double *minv,
                              int nq, int nc, double *S, double *x)
{
    double z[64];
    dense_schur_matrix(jac, ra, rb, minv, nc, S);
    for (int j = 0; j < nc; j++) {
        double d = S[j * nc + j];
        for (int k = 0; k < j; k++)
            d -= S[j * nc + k] * S[j * nc + k];
        double piv = sqrt(d);
        S[j * nc + j] = piv;
        for (int i = j + 1; i < nc; i++) {
            double y = S[i * nc + j];
            for (int k = 0; k < j; k++)
                y -= S[i * nc + k] * S[j * nc + k];
            S[i * nc + j] = y / piv;
        }
    }
    for (int r = 0; r < nc; r++) {
        double w = -0.0;
        for (int slot = 0; slot < 6; slot++) {
            int b = slot < 3 ? ra[r] : rb[r], c = 3 * (b - 1) + slot % 3;
            if (b > 0)
                w += (slot < 3 ? jac[r].ja[slot] : jac[r].jb[slot - 3]) * minv[c] * x[c];
        }
        for (int k = 0; k < r; k++)
            w -= S[r * nc + k] * z[k];
        z[r] = w / S[r * nc + r];
    }
    for (int r = nc - 1; r >= 0; r--) {
        for (int k = r + 1; k < nc; k++)
            z[r] -= S[k * nc + r] * z[k];
        z[r] /= S[r * nc + r];
    }
    for (int r = 0; r < nc; r++)
        for (int slot = 0; slot < 6; slot++) {
            int b = slot < 3 ? ra[r] : rb[r], c = 3 * (b - 1) + slot % 3;
            if (b > 0)
                x[c] -= (slot < 3 ? jac[r].ja[slot] : jac[r].jb[slot - 3]) * z[r];
        }
    for (int c = 0; c < nq; c++)
        x[c] *= minv[c];
}

/*
 * The impulse response of m through the Schur complement path at a random state against
 * the dense reference above: 1 when equal bit for bit, 0 when they differ, -1 when the
 * solve took a refinement step or the rank-revealing path (the reference has neither)
 */
static int schur_matches_dense(const clink_model *m, unsigned long long *rng)
{
    int nq = m->ncoords, nc = clink_model_constraint_count(m), same = -1;
    dyn_system *s = dyn_create(m);
    ENSURE(dyn_set_solver(s, DYN_SOLVER_SCHUR) == CLINK_OK);
    double q[42], f[42], dv[42], x[42], minv[42], S[64 * 64];
    int ra[64], rb[64];
    kin_row jac[64];
    for (int c = 0; c < nq; c++) {
        q[c] = uniform(rng, -0.5, 0.5);
        f[c] = x[c] = uniform(rng, -3.0, 3.0);
        const clink_body_def *bd = &m->d.bodies[c / 3 + 1].def;
        minv[c] = 1.0 / (c % 3 == 2 ? bd->inertia : bd->mass);
    }
    double t = uniform(rng, 0.0, 1.0);
    dyn_factor_stats before, after;
    dyn_factor_counts(s, &before);
    ENSURE(dyn_impulse_response(s, t, q, f, dv) == CLINK_OK);
    dyn_factor_counts(s, &after);
    if (after.refined == before.refined && after.rankdef == before.rankdef) {
        kin_row_bodies(m, ra, rb);
        kin_eval(m, t, q, NULL, NULL, jac, NULL, NULL);
        dense_schur_solve(jac, ra, rb, minv, nq, nc, S, x);
        same = memcmp(x, dv, (size_t) nq * sizeof(double)) == 0;
    }
    dyn_destroy(&s);
    return same;
}

TEST(the_schur_path_gives_the_bits_of_the_dense_factorisation)
{
    /*
     * The Schur complement path forms S by blocks of shared bodies and factors it
     * over the pattern of L only; both are exact reorganisations of the dense
     * computation (same products, same order, zeros skipped only where they
     * change nothing). Impulse responses of the 40 random mechanisms against the
     * dense reference above, bit for bit (trials whose solve took a refinement
     * step are skipped: the reference has none).
     */
    unsigned long long rng = 777;
    int compared = 0;
    for (int trial = 0; trial < 40; trial++) {
        int nb = 3 + trial % 12;
        clink_model *m = random_mechanism(&rng, nb);
        ENSURE(m != NULL);
        if (!m)
            continue;
        int same = schur_matches_dense(m, &rng);
        ENSURE(same != 0);
        compared += same == 1;
        clink_model_destroy(&m);
    }
    printf("%d of 40 impulse responses compared bit for bit\n", compared);
    ENSURE(compared >= 30);
}

TEST(the_schur_path_of_the_smallest_systems_gives_the_bits_of_the_dense_factorisation)
{
    /*
     * Up to 8 rows the substitutions of the Schur path are unrolled for the row count
     * (schur_lltsolve): the same operations, so the same bits as the dense reference.
     * Random chains of 1 to 4 bodies, open or closed to ground, with a driver or
     * without (at most as many rows as coordinates), give every row count from 2 to 8
     * and 9, 10 beyond (through the loops).
     */
    static const int shape[10][3] = {{1, 0, 0}, {1, 0, 1}, {2, 0, 0}, {2, 0, 1}, {2, 1, 0},
                                     {3, 0, 0}, {3, 0, 1}, {3, 1, 0}, {3, 1, 1}, {4, 1, 0}};
    unsigned long long rng = 31337;
    int compared = 0, seen[12] = {0};
    for (int trial = 0; trial < 120; trial++) {
        const int *sh = shape[trial % 10];
        int nb = sh[0], close = sh[1], drive = sh[2];
        clink_model *m = random_mechanism_with(&rng, nb, close, drive);
        ENSURE(m != NULL);
        if (!m)
            continue;
        int nc = clink_model_constraint_count(m), same = schur_matches_dense(m, &rng);
        ENSURE(same != 0);
        if (same == 1 && nc < 12) {
            compared++;
            seen[nc]++;
        }
        clink_model_destroy(&m);
    }
    printf("%d of 120 impulse responses compared bit for bit\n", compared);
    ENSURE(compared >= 100);
    for (int nc = 2; nc <= 8; nc++)
        ENSURE(seen[nc] > 0);
}

/* the bits of two doubles equal */
static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

TEST(the_audit_power_from_the_right_hand_side_is_the_bits_of_dyn_constraint_power)
{
    /*
     * dyn_rhs_constraint_power reuses the Phi_q v that dyn_accelerations formed with
     * Baumgarte's terms; on 40 random mechanisms at random (unassembled) states, with
     * Baumgarte (the reuse), without (the fallback) and after an impulse response (Phi_q
     * evaluated anew: the fallback again), it gives dyn_constraint_power's bits.
     */
    unsigned long long rng = 424242;
    int reused = 0;
    for (int trial = 0; trial < 40; trial++) {
        int nb = 3 + trial % 12;
        clink_model *m = random_mechanism(&rng, nb);
        ENSURE(m != NULL);
        if (!m)
            continue;
        int nq = 3 * nb;
        dyn_system *s = dyn_create(m);
        ENSURE(s != NULL);
        double q[42], v[42], a[42], lam[45], dv[42];
        for (int c = 0; c < nq; c++) {
            q[c] = uniform(&rng, -0.5, 0.5);
            v[c] = uniform(&rng, -3.0, 3.0);
        }
        double t = uniform(&rng, 0.0, 1.0);
        for (int baum = 0; baum < 2 && s; baum++) {
            dyn_set_baumgarte(s, baum ? 3.0 : 0.0, baum ? 4.0 : 0.0);
            ENSURE(dyn_accelerations(s, t, q, v, a, lam) == CLINK_OK);
            double p = dyn_rhs_constraint_power(s, v, lam);
            ENSURE(same_bits(p, dyn_constraint_power(s, v, lam)));
            ENSURE(p != 0.0); /* off the manifold: the power is not trivially zero */
            reused += baum;
        }
        if (s) {
            ENSURE(dyn_impulse_response(s, t, q, v, dv) == CLINK_OK);
            ENSURE(same_bits(dyn_rhs_constraint_power(s, v, lam), dyn_constraint_power(s, v, lam)));
        }
        dyn_destroy(&s);
        clink_model_destroy(&m);
    }
    ENSURE(reused == 40);
}

TEST(the_rank_revealing_path_solves_full_rank_random_mechanisms_as_klu_does)
{
    /*
     * The 40 random mechanisms of the test above through the rank-revealing
     * fallback forced at every factorisation (DYN_SOLVER_RANK): it finds the rows
     * independent in all 40 (none is within a sine of 1e-6 of the others),
     * accelerations and multipliers agree with KLU's to 1e-6 of the largest
     * component and its backward error is below 1e-11, as for the two sparse paths.
     */
    unsigned long long rng = 12345;
    int compared = 0;
    for (int trial = 0; trial < 40; trial++) {
        int nb = 3 + trial % 12;
        clink_model *m = random_mechanism(&rng, nb);
        ENSURE(m != NULL);
        if (!m)
            continue;
        int nq = 3 * nb, nc = clink_model_constraint_count(m);
        dyn_system *sa = dyn_create(m), *sb = dyn_create(m);
        ENSURE(dyn_set_solver(sa, DYN_SOLVER_RANK) == CLINK_OK);
        ENSURE(dyn_set_solver(sb, DYN_SOLVER_KLU) == CLINK_OK);
        dyn_set_baumgarte(sa, 3.0, 4.0);
        dyn_set_baumgarte(sb, 3.0, 4.0);
        double q[42], v[42], aa[42], ab[42], la[45], lb[45], e[42];
        for (int c = 0; c < nq; c++) {
            q[c] = uniform(&rng, -0.5, 0.5);
            v[c] = uniform(&rng, -3.0, 3.0);
            e[c] = uniform(&rng, -1e-3, 1e-3); /* drawn to follow the test above */
        }
        (void) e;
        double t = uniform(&rng, 0.0, 1.0);
        clink_status s1 = dyn_accelerations(sa, t, q, v, aa, la);
        clink_status s2 = dyn_accelerations(sb, t, q, v, ab, lb);
        ENSURE(s2 == CLINK_OK);
        dyn_factor_stats st;
        dyn_factor_counts(sa, &st);
        ENSURE(st.rankdef == 1);
        if (s1 == CLINK_OK && s2 == CLINK_OK && st.deficient == 0) {
            ENSURE(saddle_backward_error(m, sa, 3.0, 4.0, t, q, v, aa, la) < 1e-11);
            double sa_ = max_abs(ab, nq), sl = max_abs(lb, nc);
            for (int c = 0; c < nq; c++)
                ENSURE_NEAR(aa[c], ab[c], 1e-6 * sa_);
            for (int r = 0; r < nc; r++)
                ENSURE_NEAR(la[r], lb[r], 1e-6 * sl);
            compared++;
        }
        dyn_destroy(&sa);
        dyn_destroy(&sb);
        clink_model_destroy(&m);
    }
    ENSURE(compared == 40);
}

/*
 * The parallelogram of cranks of length c at ground pivots x = 0, d, 2d (the
 * third, in the middle, redundant: 12 equations of rank 11 on 12 coordinates) and a
 * coupler of length 2d joining their tips, cranks at angle th0. Masses 1 kg for
 * the cranks, 2 kg for the coupler; uniform bars.
 */
static clink_model *parallelogram(double th0, const clink_settings_def *set)
{
    const double c = 0.5, d = 0.5;
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    const char *names[3] = {"crank_0", "crank_1", "crank_2"};
    for (int i = 0; i < 3; i++) {
        bd.name = names[i];
        bd.mass = 1.0;
        bd.inertia = c * c / 12.0;
        bd.x = i * d + 0.5 * c * cos(th0);
        bd.y = 0.5 * c * sin(th0);
        bd.phi = th0;
        clink_model_builder_add_body(b, &bd, NULL);
    }
    bd.name = "coupler";
    bd.mass = 2.0;
    bd.inertia = 2.0 * (2 * d) * (2 * d) / 12.0;
    bd.x = d + c * cos(th0);
    bd.y = c * sin(th0);
    bd.phi = 0.0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_joint_def jd = clink_default_joint_def();
    const char *ground[3] = {"O0", "O1", "O2"}, *tip[3] = {"A0", "A1", "A2"};
    for (int i = 0; i < 3; i++) {
        jd.name = ground[i];
        jd.body_a = 0;
        jd.body_b = i + 1;
        jd.point_a[0] = i * d;
        jd.point_a[1] = 0.0;
        jd.point_b[0] = -0.5 * c;
        jd.point_b[1] = 0.0;
        clink_model_builder_add_joint(b, &jd, NULL);
        jd.name = tip[i];
        jd.body_a = i + 1;
        jd.body_b = 4;
        jd.point_a[0] = 0.5 * c;
        jd.point_b[0] = (i - 1) * d;
        clink_model_builder_add_joint(b, &jd, NULL);
    }
    if (set)
        clink_model_builder_set_settings(b, set);
    clink_model *m = NULL;
    clink_model_builder_finalize(b, &m);
    clink_model_builder_destroy(&b);
    return m;
}

/* a unit vector n with A n = 0 for the rows x cols matrix A (row-major) of nullity 1 */
static void null_vector(double *A, int rows, int cols, double *n)
{
    int piv_col[32], rank = 0;
    for (int c = 0; c < cols && rank < rows; c++) {
        int best = rank;
        for (int r = rank; r < rows; r++)
            if (fabs(A[r * cols + c]) > fabs(A[best * cols + c]))
                best = r;
        if (fabs(A[best * cols + c]) < 1e-10)
            continue; /* a free column */
        for (int k = 0; k < cols; k++) {
            double x = A[rank * cols + k];
            A[rank * cols + k] = A[best * cols + k];
            A[best * cols + k] = x;
        }
        for (int r = 0; r < rows; r++) {
            if (r == rank)
                continue;
            double f = A[r * cols + c] / A[rank * cols + c];
            for (int k = 0; k < cols; k++)
                A[r * cols + k] -= f * A[rank * cols + k];
        }
        piv_col[rank++] = c;
    }
    /* the first free column set to 1, the pivot columns solved from the reduced rows */
    int is_piv[32] = {0}, free_col = -1;
    for (int r = 0; r < rank; r++)
        is_piv[piv_col[r]] = 1;
    for (int c = 0; c < cols && free_col < 0; c++)
        if (!is_piv[c])
            free_col = c;
    double norm = 0.0;
    for (int c = 0; c < cols; c++)
        n[c] = c == free_col ? 1.0 : 0.0;
    for (int r = 0; r < rank; r++)
        n[piv_col[r]] = -A[r * cols + free_col] / A[r * cols + piv_col[r]];
    for (int c = 0; c < cols; c++)
        norm += n[c] * n[c];
    for (int c = 0; c < cols; c++)
        n[c] /= sqrt(norm);
}

TEST(a_parallelogram_with_a_redundant_crank_has_minimum_norm_reactions)
{
    /*
     * At a moving state of the parallelogram the multipliers are orthogonal to the
     * self-stress of the redundant loop (the null vector n of Phi_q^T, found here
     * by elimination): the least-norm set of all those that give the same
     * constraint forces. lambda + n gives the same forces and is not orthogonal
     * (so that the check can fail).
     */
    clink_model *m = parallelogram(1.0, NULL);
    ENSURE(m != NULL);
    if (!m)
        return;
    dyn_system *s = dyn_create(m);
    double q[12], v[12] = {0}, a[12], lam[12];
    for (int i = 0; i < 4; i++) {
        q[3 * i] = m->d.bodies[i + 1].def.x;
        q[3 * i + 1] = m->d.bodies[i + 1].def.y;
        q[3 * i + 2] = m->d.bodies[i + 1].def.phi;
    }
    for (int i = 0; i < 3; i++) /* cranks turning at 2 rad/s, a velocity guess */
        v[3 * i + 2] = 2.0;
    ENSURE(dyn_project(s, 0.0, q, v, 1e-13, 20, NULL, NULL) == CLINK_OK);
    ENSURE_NEAR(v[11], 0.0, 1e-12); /* the coupler translates */
    ENSURE(dyn_accelerations(s, 0.0, q, v, a, lam) == CLINK_OK);
    /* Phi_q^T (12 coordinates x 12 rows) */
    kin_row jac[12];
    int ra[12], rb[12];
    double JT[144] = {0}, n[12];
    kin_eval(m, 0.0, q, NULL, NULL, jac, NULL, NULL);
    kin_row_bodies(m, ra, rb);
    for (int r = 0; r < 12; r++)
        for (int k = 0; k < 3; k++) {
            if (ra[r] > 0)
                JT[(3 * (ra[r] - 1) + k) * 12 + r] += jac[r].ja[k];
            if (rb[r] > 0)
                JT[(3 * (rb[r] - 1) + k) * 12 + r] += jac[r].jb[k];
        }
    double JT0[144];
    memcpy(JT0, JT, sizeof JT);
    null_vector(JT, 12, 12, n);
    double res = 0.0, dot = 0.0, lnorm = 0.0;
    for (int c = 0; c < 12; c++) {
        double y = 0.0;
        for (int r = 0; r < 12; r++)
            y += JT0[c * 12 + r] * n[r];
        res = fmax(res, fabs(y));
    }
    ENSURE(res < 1e-12); /* n is a self-stress */
    for (int r = 0; r < 12; r++) {
        dot += lam[r] * n[r];
        lnorm += lam[r] * lam[r];
    }
    lnorm = sqrt(lnorm);
    ENSURE(lnorm > 1.0);
    ENSURE_NEAR(dot, 0.0, 1e-12 * lnorm);
    double dot2 = 0.0;
    for (int r = 0; r < 12; r++)
        dot2 += (lam[r] + n[r]) * n[r];
    ENSURE(fabs(dot2) > 0.5); /* the other sets are not orthogonal */
    dyn_destroy(&s);
    clink_model_destroy(&m);
}

TEST(a_parallelogram_with_a_redundant_crank_runs_and_its_reactions_balance_the_loads)
{
    /*
     * Released from 60 degrees under gravity for 2 s (BDF, projection, rtol
     * 1e-10): it runs, `clink check`'s getter names the one redundant equation, the
     * energy balance closes, and at every output the ground reactions plus gravity
     * equal the rate of change of momentum, sum m_i a_i, of the four bodies.
     */
    clink_settings_def set = clink_default_settings_def();
    set.method = CLINK_METHOD_BDF;
    set.drift = CLINK_DRIFT_PROJECTION;
    set.rtol = 1e-10;
    set.atol = 1e-12;
    clink_model *m = parallelogram(acos(0.5), &set);
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_sim *sim = NULL;
    char err[512] = "";
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    if (!sim) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(&m);
        return;
    }
    char names[256];
    ENSURE(clink_sim_redundant_constraints(sim, names, sizeof names) == 1);
    double worst = 0.0, scale = 0.0, ebal = 0.0, lowest = 1.0;
    for (int k = 1; k <= 200; k++) {
        ENSURE(clink_sim_advance(sim, 0.01 * k) == CLINK_OK);
        double sum[2] = {0.0, -9.81 * 5.0};
        for (int j = 0; j < 3; j++) { /* the ground joints O0, O1, O2: joints 0, 2, 4 */
            double f[3];
            ENSURE(clink_sim_joint_reaction(sim, 2 * j, f) == CLINK_OK);
            sum[0] += f[0];
            sum[1] += f[1];
            scale = fmax(scale, hypot(f[0], f[1]));
        }
        for (int i = 1; i <= 4; i++) {
            double acc[3];
            clink_sim_body_acceleration(sim, i, acc);
            double mass = i == 4 ? 2.0 : 1.0;
            sum[0] -= mass * acc[0];
            sum[1] -= mass * acc[1];
        }
        worst = fmax(worst, hypot(sum[0], sum[1]));
        clink_energy e;
        clink_sim_energy(sim, &e);
        ebal = fmax(ebal, fabs(e.balance));
        double qc[3];
        clink_sim_body_state(sim, 1, qc, NULL);
        lowest = fmin(lowest, qc[2]);
    }
    fprintf(stderr, "momentum residual %.3g N of reactions up to %.3g N; |balance| %.3g J\n", worst,
            scale, ebal);
    ENSURE(scale > 1.0);
    ENSURE(worst < 1e-9 * scale);
    ENSURE(ebal < 1e-6);                /* of a potential energy swing of about 10 J */
    ENSURE(lowest < -0.5 * acos(-1.0)); /* it swung through the bottom */
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(solves_at_the_same_state_reuse_one_factorisation)
{
    /*
     * Accelerations at one (t, q) with two velocities, the projected error and
     * an impulse response there: one factorisation, three reuses, results equal
     * to those of fresh systems; a new q factors again.
     */
    dyn_solver which[2] = {DYN_SOLVER_SCHUR, DYN_SOLVER_KLU};
    for (int i = 0; i < 2; i++) {
        clink_model *m = hinged_body(0.4, 0);
        dyn_system *s = dyn_create(m);
        ENSURE(dyn_set_solver(s, which[i]) == CLINK_OK);
        double q[6] = {0.41, 0.02, 0.05, 0.79, 0.01, -0.02}, v1[6] = {1, 0, 0, 0, 0, 0};
        double v2[6] = {0, 2, 0, 0, 1, 3}, a1[6], a2[6], e[6] = {1e-3, 0, 0, 0, 2e-3, 0}, dv[6];
        ENSURE(dyn_accelerations(s, 0.5, q, v1, a1, NULL) == CLINK_OK);
        ENSURE(dyn_accelerations(s, 0.5, q, v2, a2, NULL) == CLINK_OK);
        ENSURE(dyn_project_error(s, 0.5, q, e, NULL) == CLINK_OK);
        ENSURE(dyn_impulse_response(s, 0.5, q, v2, dv) == CLINK_OK);
        dyn_factor_stats st;
        dyn_factor_counts(s, &st);
        ENSURE(st.schur + st.klu_factor + st.klu_refactor == 1);
        ENSURE(st.reused == 3);
        /* the reused factorisation gives what a fresh one gives */
        dyn_system *f = dyn_create(m);
        ENSURE(dyn_set_solver(f, which[i]) == CLINK_OK);
        double a2f[6], dvf[6];
        ENSURE(dyn_accelerations(f, 0.5, q, v2, a2f, NULL) == CLINK_OK);
        dyn_system *g = dyn_create(m);
        ENSURE(dyn_set_solver(g, which[i]) == CLINK_OK);
        ENSURE(dyn_impulse_response(g, 0.5, q, v2, dvf) == CLINK_OK);
        for (int c = 0; c < 6; c++) {
            ENSURE_NEAR(a2[c], a2f[c], 0.0);
            ENSURE_NEAR(dv[c], dvf[c], 0.0);
        }
        q[2] += 1e-9;
        ENSURE(dyn_accelerations(s, 0.5, q, v1, a1, NULL) == CLINK_OK);
        dyn_factor_counts(s, &st);
        ENSURE(st.schur + st.klu_factor + st.klu_refactor == 2);
        dyn_destroy(&f);
        dyn_destroy(&g);
        dyn_destroy(&s);
        clink_model_destroy(&m);
    }
}

TEST(switching_the_solver_of_one_system_gives_what_a_fresh_system_of_each_solver_gives)
{
    /*
     * Each factorisation keeps its own state (src/dynamics/factor_*.c): one system
     * taken through Schur, KLU, the rank-revealing path and back gives at every
     * step the accelerations and multipliers of a fresh system of that solver at
     * the same state, to 1e-12 of their size (a factorisation of one solver
     * reused by another, or a state lost at a switch, shows at order 1).
     */
    unsigned long long rng = 4242;
    clink_model *m = random_mechanism(&rng, 6);
    ENSURE(m != NULL);
    if (!m)
        return;
    int nq = 18, nc = clink_model_constraint_count(m);
    double q[18], v[18], a[18], af[18], l[21], lf[21];
    for (int c = 0; c < nq; c++) {
        q[c] = uniform(&rng, -0.5, 0.5);
        v[c] = uniform(&rng, -3.0, 3.0);
    }
    dyn_solver order[6] = {DYN_SOLVER_SCHUR, DYN_SOLVER_KLU,  DYN_SOLVER_RANK,
                           DYN_SOLVER_SCHUR, DYN_SOLVER_RANK, DYN_SOLVER_KLU};
    dyn_system *s = dyn_create(m);
    for (int i = 0; i < 6; i++) {
        ENSURE(dyn_set_solver(s, order[i]) == CLINK_OK);
        ENSURE(dyn_uses_schur(s) == (order[i] == DYN_SOLVER_SCHUR));
        dyn_system *f = dyn_create(m);
        ENSURE(dyn_set_solver(f, order[i]) == CLINK_OK);
        ENSURE(dyn_accelerations(s, 0.25, q, v, a, l) == CLINK_OK);
        ENSURE(dyn_accelerations(f, 0.25, q, v, af, lf) == CLINK_OK);
        double sa = max_abs(af, nq), sl = max_abs(lf, nc);
        ENSURE(sa > 0.0 && sl > 0.0);
        for (int c = 0; c < nq; c++)
            ENSURE_NEAR(a[c], af[c], 1e-12 * sa);
        for (int r = 0; r < nc; r++)
            ENSURE_NEAR(l[r], lf[r], 1e-12 * sl);
        dyn_destroy(&f);
    }
    dyn_factor_stats st;
    dyn_factor_counts(s, &st);
    ENSURE(st.schur == 2 && st.rankdef == 2 && st.klu_factor + st.klu_refactor == 2);
    ENSURE(st.reused == 0);
    dyn_destroy(&s);
    clink_model_destroy(&m);
}

TEST(small_systems_take_the_schur_path_and_large_ones_klu)
{
    unsigned long long rng = 99;
    clink_model *small = random_mechanism(&rng, 5);
    int nbig = (DYN_SCHUR_MAX_ROWS - 3) / 2 + 1; /* 2 nbig + 3 rows > DYN_SCHUR_MAX_ROWS */
    clink_model *big = random_mechanism(&rng, nbig);
    ENSURE(small && big);
    if (small && big) {
        ENSURE(clink_model_constraint_count(big) > DYN_SCHUR_MAX_ROWS);
        dyn_system *a = dyn_create(small), *b = dyn_create(big);
        ENSURE(dyn_uses_schur(a));
        ENSURE(!dyn_uses_schur(b));
        dyn_destroy(&a);
        dyn_destroy(&b);
    }
    clink_model_destroy(&small);
    clink_model_destroy(&big);
}

/* The N-four-bar (IFToMM A02) over its first two flat positions (theta = 0 at
   0.72 s, theta = -pi at 1.26 s): the largest distance of the tip B0 of crank_0
   from the one-coordinate solution theta'' = -c cos(theta), and whether the run
   went on to t_end. */
static double n_four_bar_branch_error(clink_method method, clink_drift drift, double t_end,
                                      int *ran)
{
    char err[512];
    clink_model *m =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/n_four_bar.xml", err, sizeof err);
    ENSURE(m != NULL);
    if (!m)
        return NAN;
    clink_settings_def set = clink_model_settings(m);
    set.method = method;
    set.drift = drift;
    set.rtol = 1e-8;
    set.atol = 1e-10;
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK);
    const double c = 9.81 * (41.0 / 2.0 + 40.0) / (41.0 / 3.0 + 40.0), dt = 0.05;
    double th = 0.5 * 3.14159265358979323846, w = -1.0, worst = 0.0;
    *ran = 1;
    for (int k = 1; sim && k * dt <= t_end + 1e-12; k++) {
        for (int i = 0; i < 500; i++) { /* RK4, h = 1e-4 s */
            double h = dt / 500;
            double k1t = w, k1w = -c * cos(th);
            double k2t = w + 0.5 * h * k1w, k2w = -c * cos(th + 0.5 * h * k1t);
            double k3t = w + 0.5 * h * k2w, k3w = -c * cos(th + 0.5 * h * k2t);
            double k4t = w + h * k3w, k4w = -c * cos(th + h * k3t);
            th += h / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
            w += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
        }
        if (clink_sim_advance(sim, k * dt) != CLINK_OK) {
            *ran = 0;
            break;
        }
        double q[3];
        clink_sim_body_state(sim, 1, q, NULL);
        worst =
            fmax(worst, hypot(q[0] + 0.5 * cos(q[2]) - cos(th), q[1] + 0.5 * sin(q[2]) - sin(th)));
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return worst;
}

/* docs/accuracy.md: BDF + projection follows the branch through the flat positions;
   Adams + Baumgarte, off the constraint manifold by the drift the Baumgarte terms
   allow, leaves the branch at the second flat position (B0 2 m away, the crank
   turning back). If this second check fails, the limitation is gone: update
   docs/accuracy.md and docs/kernel.md. */
TEST(the_n_four_bar_keeps_its_branch_through_flat_positions_with_projection_not_baumgarte)
{
    int ran = 0;
    double e_proj = n_four_bar_branch_error(CLINK_METHOD_BDF, CLINK_DRIFT_PROJECTION, 1.5, &ran);
    ENSURE(ran);
    ENSURE(e_proj < 1e-4);
    double e_baum = n_four_bar_branch_error(CLINK_METHOD_ADAMS, CLINK_DRIFT_BAUMGARTE, 1.5, &ran);
    ENSURE(!ran || e_baum > 0.5);
}

/* the largest |Phi| of the model's constraints at (0, q) (v: any rates of the model) */
static double worst_violation(dyn_system *s, const double *q, const double *v)
{
    double p = 0.0;
    dyn_violation(s, 0.0, q, v, &p, NULL);
    return p;
}

TEST(a_step_projection_iterates_once_and_leaves_the_estimate_whole_away_from_singular_positions)
{
    /*
     * project.c: the double pendulum off its constraints by 3e-14 m (below the tolerance
     * 1e-13): dyn_project leaves it there, dyn_project_step takes one Newton iteration
     * (Phi to rounding) and says the estimate stays whole. The parallelogram with a
     * redundant crank (rank-deficient everywhere) says the same at 60 degrees and asks
     * for a projected estimate at 0.5 degrees from its flat position, where a second row
     * becomes dependent (pivot ratio below DYN_ESTIMATE_RATIO).
     */
    clink_model *m = hinged_body(0.4, 0);
    dyn_system *s = dyn_create(m);
    double q0[6] = {0.4, 0.0, 0.0, 1.2, 0.0, 0.0}, v0[6] = {0, 0.8, 2.0, 0, 1.6, 2.0};
    q0[4] += 3e-14;
    double q[6], v[6];
    memcpy(q, q0, sizeof q);
    memcpy(v, v0, sizeof v);
    ENSURE(dyn_project(s, 0.0, q, v, 1e-13, 20, NULL, NULL) == CLINK_OK);
    ENSURE(worst_violation(s, q, v) > 2e-14);
    memcpy(q, q0, sizeof q);
    memcpy(v, v0, sizeof v);
    int project_estimate = -1;
    ENSURE(dyn_project_step(s, 0.0, q, v, 1e-13, 20, &project_estimate) == CLINK_OK);
    /* rounding: coordinates up to 1.2 m, u 1.2 = 2.7e-16 (it leaves 1.1e-16) */
    ENSURE(worst_violation(s, q, v) < 1e-15);
    ENSURE(project_estimate == 0);
    dyn_destroy(&s);
    clink_model_destroy(&m);
    const double angle[2] = {acos(0.5), 0.5 * acos(-1.0) / 180.0};
    for (int k = 0; k < 2; k++) {
        m = parallelogram(angle[k], NULL);
        ENSURE(m != NULL);
        if (!m)
            return;
        s = dyn_create(m);
        double qp[12], vp[12] = {0};
        for (int i = 0; i < 4; i++) {
            qp[3 * i] = m->d.bodies[i + 1].def.x;
            qp[3 * i + 1] = m->d.bodies[i + 1].def.y;
            qp[3 * i + 2] = m->d.bodies[i + 1].def.phi;
        }
        project_estimate = -1;
        ENSURE(dyn_project_step(s, 0.0, qp, vp, 1e-13, 20, &project_estimate) == CLINK_OK);
        ENSURE(project_estimate == k);
        dyn_destroy(&s);
        clink_model_destroy(&m);
    }
}

/* max |Phi| and max |Phi_q v - nu| from the last dyn_accelerations (dyn_violation_last) and
   evaluated anew (dyn_violation) at a state off the constraints: 1 if the bits agree */
static int violation_last_agrees(dyn_system *s, double t, const double *q, const double *v)
{
    double a[16], p1 = -1.0, w1 = -1.0, p2 = -2.0, w2 = -2.0;
    if (dyn_accelerations(s, t, q, v, a, NULL) != CLINK_OK)
        return 0;
    dyn_violation_last(s, v, &p1, &w1);
    dyn_violation(s, t, q, v, &p2, &w2);
    printf("violation at t = %g: %.17g %.17g (last) %.17g %.17g (anew)\n", t, p1, w1, p2, w2);
    return p1 > 0.0 && w1 > 0.0 && memcmp(&p1, &p2, sizeof p1) == 0 &&
           memcmp(&w1, &w2, sizeof w1) == 0;
}

TEST(the_violation_of_the_last_accelerations_has_the_bits_of_a_new_evaluation)
{
    /* the double pendulum and the driven clearance slider-crank (nu depends on t), both off
       their constraints in positions and velocities */
    clink_model *pend = hinged_body(0.4, 0);
    dyn_system *s = dyn_create(pend);
    double q[9] = {0.401, 0.002, 0.1, 0.8, 0.01, 0.2};
    double v[9] = {0.3, -0.2, 1.5, 0.1, 0.4, -2.0};
    ENSURE(violation_last_agrees(s, 0.3, q, v));
    dyn_destroy(&s);
    clink_model_destroy(&pend);
    char err[256];
    clink_model *crank = clink_model_load_xml(CLINK_SOURCE_DIR "/models/slider_crank_clearance.xml",
                                              err, sizeof err);
    ENSURE(crank != NULL);
    if (crank == NULL)
        return;
    s = dyn_create(crank);
    double qc[9] = {0.025, 0.001, 0.02, 0.11, 0.002, -0.01, 0.1701, 0.0003, 0.001};
    double vc[9] = {0.1, 13.0, 523.0, 0.2, 13.1, -218.0, 0.05, 0.01, 0.02};
    ENSURE(violation_last_agrees(s, 1e-3, qc, vc));
    dyn_destroy(&s);
    clink_model_destroy(&crank);
}
