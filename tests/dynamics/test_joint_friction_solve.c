/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The friction of ideal joints with a dynamic law (src/dynamics/joint_friction_solve.c,
 * src/joints/joint_friction.c; docs/friction.md, "Joint friction"):
 *   - a joint with lugre or dahl owns one component of the integrated state, after the
 *     contacts' energy block and before the audit; a static law owns none;
 *   - at a given state (angle, rate, bristle deflection z) the right-hand side gives
 *     z' = v - sigma0 |v| z / mu(v) and the angular acceleration of the fixed point of
 *     friction and reaction, here solved independently by bisection on the pendulum's
 *     scalar equation, and books the friction power with the loads;
 *   - the integrator's Jacobian carries the bristle decay -sigma0 |v| / mu(v) on the
 *     state's diagonal, and the state's row in the columns of the joint's body;
 *   - a pendulum on a dahl joint swings down and its energy balance closes;
 *   - a snapshot carries the bristle state: a restored run continues bit for bit.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "sim/sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double M = 1.0, J = 1.0 / 12.0, L = 0.5, G = 9.81, R_PIN = 0.02, P = 1.5;
static const double MU = 0.3, MU_S = 0.4, V_S = 1e-3, S0 = 1e5, S1 = 300.0, S2 = 0.05;

/* a bob hanging at theta from a pin at the origin, with the law's attributes */
static clink_model *pendulum(double theta, const char *law)
{
    char xml[2048];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"jf\"><settings t_end=\"2\" output_step=\"1e-2\" method=\"bdf\" "
             "rtol=\"1e-9\" atol=\"1e-13\" drift=\"projection\"/><gravity g=\"0 %.17g\"/>"
             "<bodies><body name=\"bob\" mass=\"1\" inertia=\"%.17g\" x=\"%.17g\" y=\"%.17g\" "
             "phi=\"%.17g\"/></bodies><joints><revolute name=\"pin\" body1=\"ground\" "
             "body2=\"bob\" point2=\"0 %.17g\" friction_radius=\"%g\" friction_preload=\"%g\">"
             "<friction %s/></revolute></joints></mechanism>",
             -G, J, L * sin(theta), -L * cos(theta), theta, L, R_PIN, P, law);
    clink_model *m = NULL;
    char err[512];
    if (clink_xml_load_memory(xml, strlen(xml), "jf.xml", &m, NULL, err, sizeof err) != CLINK_OK)
        printf("%s\n", err);
    return m;
}

static const char *LUGRE = "type=\"lugre\" mu=\"0.3\" mu_s=\"0.4\" v_s=\"1e-3\" sigma0=\"1e5\" "
                           "sigma1=\"300\" sigma2=\"0.05\"";

static clink_sim *start(const clink_model *m)
{
    clink_sim *sim = NULL;
    char err[512];
    if (m && clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK)
        printf("%s\n", err);
    return sim;
}

static double stribeck(double v)
{
    return MU + (MU_S - MU) * exp(-(v / V_S) * (v / V_S));
}

TEST(a_joint_with_a_dynamic_friction_law_owns_one_state_after_the_contacts_block)
{
    clink_model *ml = pendulum(0.2, LUGRE);
    clink_model *md = pendulum(0.2, "type=\"dahl\" mu=\"0.3\" sigma0=\"1e5\"");
    clink_model *mt = pendulum(0.2, "type=\"coulomb-tanh\" mu=\"0.3\" v1=\"1e-5\"");
    clink_sim *sl = start(ml), *sd = start(md), *st = start(mt);
    ENSURE(sl && sd && st);
    if (sl && sd && st) {
        ENSURE(st->sys->njz == 0 && st->sys->nfz == 0);
        ENSURE(sl->sys->njz == 1 && sl->sys->nfz == 1 && sd->sys->njz == 1);
        ENSURE(sl->sys->N == st->sys->N + 1 && sd->sys->N == st->sys->N + 1);
        ENSURE(sl->sys->jz0 == 2); /* no contacts: right after W_d, W_l */
        ENSURE(dyn_joint_friction_state_of(sl->sys->dyn, 0) == 0);
        ENSURE(dyn_joint_friction_state_of(st->sys->dyn, 0) == -1);
        ENSURE(sl->out.y[2 * sl->sys->nq + sl->sys->jz0] == 0.0); /* z starts at 0 */
    }
    clink_sim_destroy(&sl);
    clink_sim_destroy(&sd);
    clink_sim_destroy(&st);
    clink_model_destroy(&ml);
    clink_model_destroy(&md);
    clink_model_destroy(&mt);
}

/* the pendulum's equation at theta = 0, rate w, deflection z: the residual of alpha */
static double hanging_residual(double alpha, double w, double z, double *torque)
{
    double v = R_PIN * w, zd = v - S0 * fabs(v) * z / stribeck(v);
    double fn = hypot(M * L * alpha, M * (L * w * w + G)) + P;
    *torque = R_PIN * (-fn * (S0 * z + S1 * zd) - S2 * v);
    return (J + M * L * L) * alpha - *torque;
}

TEST(a_lugre_joint_gives_the_bristle_rate_and_the_fixed_point_of_friction_and_reaction)
{
    clink_model *m = pendulum(0.0, LUGRE);
    clink_sim *sim = start(m);
    ENSURE(sim != NULL);
    if (sim) {
        mechsys *s = sim->sys;
        double y[16] = {0}, yd[16] = {0}, w = 0.03, z = 1.7e-6, tq = 0.0;
        ENSURE(s->nr == 3 && s->Nr <= 16);
        y[1] = -L;
        y[3] = w * L; /* the bob's centre moves with the pin's rotation */
        y[5] = w;
        y[2 * 3 + s->jz0] = z;
        ENSURE(system_rhs(s, 0.0, y, yd) == 0);
        double v = R_PIN * w, zd = v - S0 * fabs(v) * z / stribeck(v);
        ENSURE_REL(yd[2 * 3 + s->jz0], zd, 1e-14);
        /* the fixed point, solved by bisection on alpha (independent of clink's iteration) */
        double lo = -100.0, hi = 100.0;
        for (int it = 0; it < 200; it++) {
            double mid = 0.5 * (lo + hi);
            if (hanging_residual(mid, w, z, &tq) > 0.0)
                hi = mid;
            else
                lo = mid;
        }
        double alpha = 0.5 * (lo + hi);
        hanging_residual(alpha, w, z, &tq);
        printf("alpha %.17g (bisection %.17g), z' %.17g\n", yd[5], alpha, yd[2 * 3 + s->jz0]);
        ENSURE_REL(yd[5], alpha, 1e-11);
        ENSURE_REL(yd[2 * 3 + 1], tq * w, 1e-10); /* the friction power booked in W_l' */
        /* the bristle decay on the Jacobian's diagonal, and the state's row in the bob's
           columns of the pattern */
        double diag[16] = {0};
        system_jacobian_diagonal(s, diag);
        ENSURE_REL(diag[s->jz0], -S0 * fabs(v) / stribeck(v), 1e-14);
        const int *rows = NULL;
        long version = 0;
        ENSURE(system_jacobian_pattern(s, &rows, &version) != NULL);
        for (int j = 0; j < 3; j++)
            ENSURE(system_pattern_find(s, j, s->nr + s->jz0) >= 0);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_pendulum_on_a_dahl_joint_swings_down_with_its_energy_balance_closed)
{
    clink_model *m = pendulum(0.3, "type=\"dahl\" mu=\"0.3\" sigma0=\"1e5\"");
    clink_sim *sim = start(m);
    ENSURE(sim != NULL);
    if (sim) {
        clink_energy e0, e;
        ENSURE(clink_sim_energy(sim, &e0) == CLINK_OK);
        double q[3], v[3], amp = 0.0, w_prev = 0.0;
        int reversals = 0;
        for (int i = 1; i <= 200; i++) {
            ENSURE(clink_sim_advance(sim, i * 1e-2) == CLINK_OK);
            clink_sim_body_state(sim, 1, q, v);
            if (w_prev * v[2] < 0.0 && reversals++ == 1)
                amp = fabs(q[2]);
            w_prev = v[2];
        }
        ENSURE(clink_sim_energy(sim, &e) == CLINK_OK);
        double b0 = e0.kinetic + e0.gravity - e0.work_loads;
        double b = e.kinetic + e.gravity - e.work_loads;
        double scale = M * G * L * (1.0 - cos(0.3));
        printf("amplitude after two reversals %.9g rad, balance %.3g J of %.3g J, friction work "
               "%.6g J\n",
               amp, b - b0, scale, e.work_loads);
        ENSURE(reversals >= 2);
        /* Coulomb's loss per half swing is about 2 r mu (m g + P) / (m g l) = 0.0276 rad */
        ENSURE(amp > 0.3 - 3 * 0.0276 && amp < 0.3 - 1 * 0.0276);
        ENSURE(e.work_loads < -0.2 * scale); /* friction took energy out */
        ENSURE(fabs(b - b0) <= 1e-7 * scale);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_snapshot_carries_the_bristle_state_of_a_lugre_joint)
{
    clink_model *m = pendulum(0.3, LUGRE);
    clink_sim *a = start(m), *b = start(m);
    ENSURE(a && b);
    if (a && b) {
        ENSURE(clink_sim_advance(a, 0.5) == CLINK_OK);
        double z = a->out.y[2 * a->sys->nq + a->sys->jz0];
        printf("z at 0.5 s: %.9g m\n", z);
        ENSURE(fabs(z) > 1e-7); /* sliding: z near mu(v) / sigma0 = 3 um */
        size_t n = clink_sim_state_size(a);
        void *buf = malloc(n);
        ENSURE(buf != NULL);
        if (buf) {
            ENSURE(clink_sim_state_save(a, buf, n) == CLINK_OK);
            ENSURE(clink_sim_state_restore(b, buf, n) == CLINK_OK);
            ENSURE(b->out.y[2 * b->sys->nq + b->sys->jz0] == z);
            ENSURE(clink_sim_advance(a, 1.0) == CLINK_OK && clink_sim_advance(b, 1.0) == CLINK_OK);
            double qa[3], va[3], qb[3], vb[3];
            clink_sim_body_state(a, 1, qa, va);
            clink_sim_body_state(b, 1, qb, vb);
            ENSURE(qa[2] == qb[2] && va[2] == vb[2]);
            free(buf);
        }
    }
    clink_sim_destroy(&a);
    clink_sim_destroy(&b);
    clink_model_destroy(&m);
}
