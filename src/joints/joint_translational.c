/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Translational (prismatic) joint: point P_b (s_b on body b) moves along the
 * line through P_a (s_a on body a) with direction u_a (unit, body a
 * coordinates), and the relative angle is held. With d = r_b + A_b s_b - r_a -
 * A_a s_a, e = A_a u_a (global axis), n = perp(e) (global normal) and
 * de/dphi_a = n, dn/dphi_a = -e:
 *
 *   Phi_1 = n . d
 *   Phi_2 = phi_b - phi_a - angle0
 *   dPhi_1/d(r_a, phi_a) = ( -n,  -e . d - n . B_a s_a )
 *   dPhi_1/d(r_b, phi_b) = (  n,   n . B_b s_b )
 *   dPhi_2/dphi_a = -1, dPhi_2/dphi_b = 1
 *   gamma_1 = n . (A_b s_b w_b^2 - A_a s_a w_a^2) + 2 w_a e . d_dot + w_a^2 n . d
 *   gamma_2 = 0
 *
 * Second derivatives of Phi_1 (de/dphi_a = n, dn/dphi_a = -e, d(A s)/dphi =
 * perp(A s), d perp(A s)/dphi = -A s; coordinates 0-5 = x_a, y_a, phi_a, x_b,
 * y_b, phi_b), all others zero:
 *   H[0][2] = e_x, H[1][2] = e_y, H[3][2] = -e_x, H[4][2] = -e_y,
 *   H[2][2] = -n . d + 2 e . perp(A_a s_a) + n . A_a s_a,
 *   H[2][5] = -e . perp(A_b s_b),  H[5][5] = -n . A_b s_b,
 * and with c = A_b s_b w_b^2 - A_a s_a w_a^2:
 *   d gamma_1 / d(r_a) = -w_a^2 n,  d gamma_1 / d(r_b) = w_a^2 n,
 *   d gamma_1 / dphi_b = (w_b^2 + w_a^2) n . perp(A_b s_b) - 2 w_a w_b e . A_b s_b,
 *   d gamma_1 / dphi_a = -e . c - w_a^2 n . perp(A_a s_a) + 2 w_a (n . d_dot + w_a e . A_a s_a)
 *                        - w_a^2 (e . d + n . perp(A_a s_a)).
 * Row 2 is linear.
 *
 * (Nikravesh 1988, Sect. 6.3, written with the relative vector d.) Joint
 * coordinate: the displacement e . d along the axis (m).
 */
#include "joints/joint.h"

/* d, its time derivative, axis e and normal n in the global frame */
static void geometry(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                     double d[2], double dd[2], double e[2], double n[2], double aa[2],
                     double ab[2])
{
    double ra[2], rb[2];
    joint_point(a, j->point_a, aa, ra);
    joint_point(b, j->point_b, ab, rb);
    d[0] = rb[0] - ra[0];
    d[1] = rb[1] - ra[1];
    /* d_dot = v_b + w_b perp(A_b s_b) - v_a - w_a perp(A_a s_a) */
    dd[0] = b->vx - b->w * ab[1] - a->vx + a->w * aa[1];
    dd[1] = b->vy + b->w * ab[0] - a->vy - a->w * aa[0];
    joint_rot(a, j->axis_a, e);
    n[0] = -e[1];
    n[1] = e[0];
}

static void translational_phi(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                              double *phi)
{
    double d[2], dd[2], e[2], n[2], aa[2], ab[2];
    geometry(j, a, b, d, dd, e, n, aa, ab);
    phi[0] = n[0] * d[0] + n[1] * d[1];
    phi[1] = b->phi - a->phi - j->angle0;
}

static void translational_jacobian(const clink_joint_def *j, const joint_pose *a,
                                   const joint_pose *b, joint_row *jac)
{
    double d[2], dd[2], e[2], n[2], aa[2], ab[2];
    geometry(j, a, b, d, dd, e, n, aa, ab);
    /* B s = perp(A s) = (-(A s)_y, (A s)_x) */
    double nba = -n[0] * aa[1] + n[1] * aa[0];
    double nbb = -n[0] * ab[1] + n[1] * ab[0];
    double ed = e[0] * d[0] + e[1] * d[1];
    jac[0] = (joint_row){{-n[0], -n[1], -ed - nba}, {n[0], n[1], nbb}};
    jac[1] = (joint_row){{0.0, 0.0, -1.0}, {0.0, 0.0, 1.0}};
}

static void translational_gamma(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                                double *gamma)
{
    double d[2], dd[2], e[2], n[2], aa[2], ab[2];
    geometry(j, a, b, d, dd, e, n, aa, ab);
    double cx = ab[0] * b->w * b->w - aa[0] * a->w * a->w;
    double cy = ab[1] * b->w * b->w - aa[1] * a->w * a->w;
    gamma[0] = n[0] * cx + n[1] * cy + 2.0 * a->w * (e[0] * dd[0] + e[1] * dd[1]) +
               a->w * a->w * (n[0] * d[0] + n[1] * d[1]);
    gamma[1] = 0.0;
}

static void translational_hessian(const clink_joint_def *j, const joint_pose *a,
                                  const joint_pose *b, joint_hessian *hess)
{
    double d[2], dd[2], e[2], n[2], aa[2], ab[2];
    geometry(j, a, b, d, dd, e, n, aa, ab);
    joint_hessian h = {{{0.0}}};
    h.h[0][2] = h.h[2][0] = e[0];
    h.h[1][2] = h.h[2][1] = e[1];
    h.h[3][2] = h.h[2][3] = -e[0];
    h.h[4][2] = h.h[2][4] = -e[1];
    h.h[2][2] = -joint_dot(n, d) + 2.0 * joint_perp_dot(aa, e) + joint_dot(n, aa);
    h.h[2][5] = h.h[5][2] = -joint_perp_dot(ab, e);
    h.h[5][5] = -joint_dot(n, ab);
    hess[0] = h;
    hess[1] = (joint_hessian){{{0.0}}};
}

static void translational_gamma_q(const clink_joint_def *j, const joint_pose *a,
                                  const joint_pose *b, joint_row *gq)
{
    double d[2], dd[2], e[2], n[2], aa[2], ab[2];
    geometry(j, a, b, d, dd, e, n, aa, ab);
    double wa = a->w, wb = b->w, wa2 = wa * wa, wb2 = wb * wb;
    double c[2] = {ab[0] * wb2 - aa[0] * wa2, ab[1] * wb2 - aa[1] * wa2};
    double gpb = (wb2 + wa2) * joint_perp_dot(ab, n) - 2.0 * wa * wb * joint_dot(e, ab);
    double gpa = -joint_dot(e, c) - wa2 * joint_perp_dot(aa, n) +
                 2.0 * wa * (joint_dot(n, dd) + wa * joint_dot(e, aa)) -
                 wa2 * (joint_dot(e, d) + joint_perp_dot(aa, n));
    gq[0] = (joint_row){{-wa2 * n[0], -wa2 * n[1], gpa}, {wa2 * n[0], wa2 * n[1], gpb}};
    gq[1] = (joint_row){{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
}

/* the axis must have a direction; it is stored normalised */
static const char *translational_check(clink_joint_def *def)
{
    double len = hypot(def->axis_a[0], def->axis_a[1]);
    if (!(len > 1e-12))
        return "axis_a has zero length";
    def->axis_a[0] /= len;
    def->axis_a[1] /= len;
    return NULL;
}

const joint_class joint_translational = {
    .type = CLINK_JOINT_TRANSLATIONAL,
    .name = "translational",
    .neq = 2,
    .fields = JOINT_FIELD_POINT_A | JOINT_FIELD_POINT_B | JOINT_FIELD_AXIS_A | JOINT_FIELD_ANGLE0,
    .required = JOINT_FIELD_AXIS_A,
    .check = translational_check,
    .phi = translational_phi,
    .jacobian = translational_jacobian,
    .gamma = translational_gamma,
    .hessian = translational_hessian,
    .gamma_q = translational_gamma_q,
};
