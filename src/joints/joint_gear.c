/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ideal gear: the rotations of body a and body b coupled by a ratio, as two gears rolling
 * without slip or backlash on pitch circles of radii r_a and r_b whose centres are held by
 * the bodies' own joints (revolute joints on a common carrier, the ground):
 *
 *   Phi   = phi_b + ratio phi_a - angle0                             (1 equation)
 *   Phi_q = [ 0  0  ratio | 0  0  1 ]
 *   gamma = 0, H = 0, d gamma / dq = 0 (linear in the coordinates)
 *
 * ratio = r_a / r_b for an external pair (the gears turn in opposite senses), -r_a / r_b
 * for an internal one (a pinion in a ring gear, the same sense); then omega_b = -ratio
 * omega_a. Equivalent to r_a phi_a + r_b phi_b = const (external), the rolling condition of
 * Chrono's gear link and Box2D's gear joint for two revolute joints. Its reaction (the
 * multiplier) is the torque the teeth pass to body b; the contact force along the line of
 * action, r_b times it, is not modelled (no bearing load from the mesh).
 */
#include "joints/joint.h"

static const char *gear_check(clink_joint_def *def)
{
    if (!(def->ratio != 0.0) || !isfinite(def->ratio))
        return "gear ratio must be finite and non-zero (r_a / r_b external, -r_a / r_b internal)";
    return NULL;
}

static void gear_phi(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                     double *phi)
{
    phi[0] = b->phi + j->ratio * a->phi - j->angle0;
}

static void gear_jacobian(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                          joint_row *jac)
{
    (void) a;
    (void) b;
    jac[0] = (joint_row){{0.0, 0.0, j->ratio}, {0.0, 0.0, 1.0}};
}

static void gear_gamma(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                       double *gamma)
{
    (void) j;
    (void) a;
    (void) b;
    gamma[0] = 0.0;
}

static void gear_hessian(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                         joint_hessian *hess)
{
    (void) j;
    (void) a;
    (void) b;
    hess[0] = (joint_hessian){{{0.0}}};
}

static void gear_gamma_q(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                         joint_row *gq)
{
    (void) j;
    (void) a;
    (void) b;
    gq[0] = (joint_row){{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
}

const joint_class joint_gear = {
    .type = CLINK_JOINT_GEAR,
    .name = "gear",
    .neq = 1,
    .fields = JOINT_FIELD_ANGLE0 | JOINT_FIELD_RATIO,
    .required = JOINT_FIELD_RATIO,
    .check = gear_check,
    .phi = gear_phi,
    .jacobian = gear_jacobian,
    .gamma = gear_gamma,
    .hessian = gear_hessian,
    .gamma_q = gear_gamma_q,
};
