/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Revolute joint: point P_a (body coordinates s_a on body a) coincides with
 * point P_b (s_b on body b). With A(phi) the rotation matrix and B = dA/dphi
 * (B s = perp(A s), perp(x, y) = (-y, x)):
 *
 *   Phi   = r_b + A_b s_b - r_a - A_a s_a                              (2 equations)
 *   Phi_q = [ -I  -B_a s_a | I  B_b s_b ]
 *   gamma = A_b s_b w_b^2 - A_a s_a w_a^2
 *
 * Second derivatives (d^2 A s / dphi^2 = -A s): the only non-zero entries of
 * H_r are d^2 Phi_r / dphi_a^2 = (A_a s_a)_r and d^2 Phi_r / dphi_b^2 =
 * -(A_b s_b)_r; d gamma / dphi_a = -B_a s_a w_a^2, d gamma / dphi_b =
 * B_b s_b w_b^2 (no dependence on x, y).
 *
 * (Nikravesh 1988, Sect. 6.2). Joint coordinate: the relative angle phi_b - phi_a.
 * The weld joint (joint_weld.c) reuses these rows.
 */
#include "joints/joint.h"

static void revolute_phi(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                         double *phi)
{
    double arm[2], ra[2], rb[2];
    joint_point(a, j->point_a, arm, ra);
    joint_point(b, j->point_b, arm, rb);
    phi[0] = rb[0] - ra[0];
    phi[1] = rb[1] - ra[1];
}

static void revolute_jacobian(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                              joint_row *jac)
{
    double aa[2], ab[2];
    joint_rot(a, j->point_a, aa);
    joint_rot(b, j->point_b, ab);
    /* B s = (-(A s)_y, (A s)_x) */
    jac[0] = (joint_row){{-1.0, 0.0, aa[1]}, {1.0, 0.0, -ab[1]}};
    jac[1] = (joint_row){{0.0, -1.0, -aa[0]}, {0.0, 1.0, ab[0]}};
}

static void revolute_gamma(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                           double *gamma)
{
    double aa[2], ab[2];
    joint_rot(a, j->point_a, aa);
    joint_rot(b, j->point_b, ab);
    gamma[0] = ab[0] * b->w * b->w - aa[0] * a->w * a->w;
    gamma[1] = ab[1] * b->w * b->w - aa[1] * a->w * a->w;
}

static void revolute_hessian(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                             joint_hessian *hess)
{
    double aa[2], ab[2];
    joint_rot(a, j->point_a, aa);
    joint_rot(b, j->point_b, ab);
    for (int r = 0; r < 2; r++) {
        hess[r] = (joint_hessian){{{0.0}}};
        hess[r].h[2][2] = aa[r];
        hess[r].h[5][5] = -ab[r];
    }
}

static void revolute_gamma_q(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                             joint_row *gq)
{
    double aa[2], ab[2];
    joint_rot(a, j->point_a, aa);
    joint_rot(b, j->point_b, ab);
    double wa2 = a->w * a->w, wb2 = b->w * b->w;
    /* B s = (-(A s)_y, (A s)_x) */
    gq[0] = (joint_row){{0.0, 0.0, aa[1] * wa2}, {0.0, 0.0, -ab[1] * wb2}};
    gq[1] = (joint_row){{0.0, 0.0, -aa[0] * wa2}, {0.0, 0.0, ab[0] * wb2}};
}

const joint_class joint_revolute = {
    .type = CLINK_JOINT_REVOLUTE,
    .name = "revolute",
    .neq = 2,
    .fields = JOINT_FIELD_POINT_A | JOINT_FIELD_POINT_B,
    .required = 0,
    .check = NULL,
    .phi = revolute_phi,
    .jacobian = revolute_jacobian,
    .gamma = revolute_gamma,
    .hessian = revolute_hessian,
    .gamma_q = revolute_gamma_q,
};
