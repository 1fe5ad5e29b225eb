/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the pair-geometry tests check of every pair (test_contact_geometry.c,
 * test_contact_polygon.c, test_contact_profile.c): delta_dot against a central difference of
 * delta along a rigid motion, with a unit normal and its tangent, and the exact derivatives
 * of kinematics_contact_eval_diff against central differences in each of the 12 inputs.
 * Included by one test program each (static inline functions).
 */
#ifndef CLINK_TESTS_GEOMETRY_CHECKS_H
#define CLINK_TESTS_GEOMETRY_CHECKS_H

#include "ensure.h"
#include "kinematics/contact_geometry.h"

#include <math.h>

/* the pose after time h of rigid motion with constant velocities */
static inline kinematics_pose advance(kinematics_pose p, double h)
{
    for (int i = 0; i < 3; i++)
        p.q[i] += h * p.qd[i];
    return p;
}

/* central difference of delta against delta_dot; the normal a unit vector, the tangent
   orthogonal to it */
static inline void check_rate(const kinematics_shape *sa, kinematics_pose pa,
                              const kinematics_shape *sb, kinematics_pose pb)
{
    const double h = 1e-6;
    kinematics_contact c0, cp, cm;
    kinematics_pose pap = advance(pa, h), pam = advance(pa, -h);
    kinematics_pose pbp = advance(pb, h), pbm = advance(pb, -h);

    ENSURE(kinematics_contact_eval(sa, &pa, sb, &pb, &c0) == 0);
    ENSURE(kinematics_contact_eval(sa, &pap, sb, &pbp, &cp) == 0);
    ENSURE(kinematics_contact_eval(sa, &pam, sb, &pbm, &cm) == 0);
    ENSURE_NEAR(c0.delta_dot, (cp.delta - cm.delta) / (2 * h), 1e-7);
    ENSURE_NEAR(hypot(c0.n[0], c0.n[1]), 1.0, 1e-14);
    ENSURE_NEAR(c0.n[0] * c0.t[0] + c0.n[1] * c0.t[1], 0.0, 1e-14);
}

/* the 12 inputs' values of a pose pair, in the order of kinematics_dual.d */
static inline double *slot(kinematics_pose *pa, kinematics_pose *pb, int k)
{
    kinematics_pose *p = (k % 6) / 3 ? pb : pa;
    return k < 6 ? &p->q[k % 3] : &p->qd[k % 3];
}

/* the exact derivatives against central differences of the geometry in each input */
static inline void check_diff(const kinematics_shape *sa, kinematics_pose pa,
                              const kinematics_shape *sb, kinematics_pose pb)
{
    kinematics_contact_diff d;
    ENSURE(kinematics_contact_eval_diff(sa, &pa, sb, &pb, &d) == 0);
    kinematics_contact c;
    ENSURE(kinematics_contact_eval(sa, &pa, sb, &pb, &c) == 0);
    ENSURE_NEAR(d.delta.v, c.delta, 1e-15);
    ENSURE_NEAR(d.v_t.v, c.v_t, 1e-14);
    for (int k = 0; k < KINEMATICS_NDIFF; k++) {
        const double h = 1e-7;
        kinematics_pose a1 = pa, b1 = pb, a2 = pa, b2 = pb;
        *slot(&a1, &b1, k) += h;
        *slot(&a2, &b2, k) -= h;
        kinematics_contact cp, cm;
        ENSURE(kinematics_contact_eval(sa, &a1, sb, &b1, &cp) == 0);
        ENSURE(kinematics_contact_eval(sa, &a2, sb, &b2, &cm) == 0);
        ENSURE_NEAR(d.delta.d[k], (cp.delta - cm.delta) / (2 * h), 1e-6);
        ENSURE_NEAR(d.delta_dot.d[k], (cp.delta_dot - cm.delta_dot) / (2 * h), 1e-6);
        ENSURE_NEAR(d.n[0].d[k], (cp.n[0] - cm.n[0]) / (2 * h), 1e-6);
        ENSURE_NEAR(d.n[1].d[k], (cp.n[1] - cm.n[1]) / (2 * h), 1e-6);
        for (int i = 0; i < 2; i++) {
            ENSURE_NEAR(d.p_a[i].d[k], (cp.p_a[i] - cm.p_a[i]) / (2 * h), 1e-6);
            ENSURE_NEAR(d.p_b[i].d[k], (cp.p_b[i] - cm.p_b[i]) / (2 * h), 1e-6);
        }
        ENSURE_NEAR(d.v_t.d[k], (cp.v_t - cm.v_t) / (2 * h), 1e-6);
    }
}

#endif
