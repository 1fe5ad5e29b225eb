/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pin-in-slot joint: point P_b (the pin, s_b on body b) moves along the line
 * (the slot) through P_a (s_a on body a) with direction u_a (unit, body a
 * coordinates); body b turns freely. It is the first equation of the
 * translational joint (joint_translational.c), whose rows it takes: with
 * d = r_b + A_b s_b - r_a - A_a s_a, e = A_a u_a and n = perp(e),
 *
 *   Phi   = n . d                                                     (1 equation)
 *   dPhi/d(r_a, phi_a) = ( -n,  -e . d - n . B_a s_a )
 *   dPhi/d(r_b, phi_b) = (  n,   n . B_b s_b )
 *   gamma = n . (A_b s_b w_b^2 - A_a s_a w_a^2) + 2 w_a e . d_dot + w_a^2 n . d
 *
 * Phi is the signed distance of the pin from the slot's centre line (m). Joint
 * coordinate: the pin's position e . d along the slot (m). Fields: point_a (a
 * point of the slot's line), point_b (the pin), axis_a (required, normalised by
 * the check). Second derivatives: those of the translational joint's first row.
 */
#include "joints/joint.h"

extern const joint_class joint_translational;

static void pin_slot_phi(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                         double *phi)
{
    double both[2];
    joint_translational.phi(j, a, b, both);
    phi[0] = both[0];
}

static void pin_slot_jacobian(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                              joint_row *jac)
{
    joint_row both[2];
    joint_translational.jacobian(j, a, b, both);
    jac[0] = both[0];
}

static void pin_slot_gamma(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                           double *gamma)
{
    double both[2];
    joint_translational.gamma(j, a, b, both);
    gamma[0] = both[0];
}

/* the slot's direction must be non-zero; stored normalised (as for translational) */
static const char *pin_slot_check(clink_joint_def *def)
{
    return joint_translational.check(def);
}

static void pin_slot_hessian(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                             joint_hessian *hess)
{
    joint_hessian both[2];
    joint_translational.hessian(j, a, b, both);
    hess[0] = both[0];
}

static void pin_slot_gamma_q(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                             joint_row *gq)
{
    joint_row both[2];
    joint_translational.gamma_q(j, a, b, both);
    gq[0] = both[0];
}

const joint_class joint_pin_slot = {
    .type = CLINK_JOINT_PIN_SLOT,
    .name = "pin_slot",
    .neq = 1,
    .fields = JOINT_FIELD_POINT_A | JOINT_FIELD_POINT_B | JOINT_FIELD_AXIS_A,
    .required = JOINT_FIELD_AXIS_A,
    .check = pin_slot_check,
    .phi = pin_slot_phi,
    .jacobian = pin_slot_jacobian,
    .gamma = pin_slot_gamma,
    .hessian = pin_slot_hessian,
    .gamma_q = pin_slot_gamma_q,
};
