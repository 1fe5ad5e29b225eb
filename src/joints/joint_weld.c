/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Weld joint: body b fixed to body a. The points coincide as in the revolute
 * joint and the relative angle is held:
 *
 *   Phi_1,2 = r_b + A_b s_b - r_a - A_a s_a     (Jacobian and gamma: joint_revolute.c)
 *   Phi_3   = phi_b - phi_a - angle0,  dPhi_3/dphi_a = -1, dPhi_3/dphi_b = 1, gamma_3 = 0
 *
 * Second derivatives: rows 1-2 as the revolute joint, row 3 linear (zero).
 */
#include "joints/joint.h"

extern const joint_class joint_revolute;

static void weld_phi(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                     double *phi)
{
    joint_revolute.phi(j, a, b, phi);
    phi[2] = b->phi - a->phi - j->angle0;
}

static void weld_jacobian(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                          joint_row *jac)
{
    joint_revolute.jacobian(j, a, b, jac);
    jac[2] = (joint_row){{0.0, 0.0, -1.0}, {0.0, 0.0, 1.0}};
}

static void weld_gamma(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                       double *gamma)
{
    joint_revolute.gamma(j, a, b, gamma);
    gamma[2] = 0.0;
}

static void weld_hessian(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                         joint_hessian *hess)
{
    joint_revolute.hessian(j, a, b, hess);
    hess[2] = (joint_hessian){{{0.0}}};
}

static void weld_gamma_q(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                         joint_row *gq)
{
    joint_revolute.gamma_q(j, a, b, gq);
    gq[2] = (joint_row){{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
}

const joint_class joint_weld = {
    .type = CLINK_JOINT_WELD,
    .name = "weld",
    .neq = 3,
    .fields = JOINT_FIELD_POINT_A | JOINT_FIELD_POINT_B | JOINT_FIELD_ANGLE0,
    .required = 0,
    .check = NULL,
    .phi = weld_phi,
    .jacobian = weld_jacobian,
    .gamma = weld_gamma,
    .hessian = weld_hessian,
    .gamma_q = weld_gamma_q,
};
