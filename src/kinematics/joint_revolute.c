/*
 * Revolute joint: point P_a (body coordinates s_a on body a) coincides with
 * point P_b (s_b on body b). With A(phi) the rotation matrix and B = dA/dphi
 * (B s = perp(A s), perp(x, y) = (-y, x)):
 *
 *   Phi   = r_b + A_b s_b - r_a - A_a s_a                              (2 equations)
 *   Phi_q = [ -I  -B_a s_a | I  B_b s_b ]
 *   gamma = A_b s_b w_b^2 - A_a s_a w_a^2
 *
 * (Nikravesh 1988, Sect. 6.2). Joint coordinate: the relative angle phi_b - phi_a.
 */
#include "kinematics/kinematics.h"

static void revolute_phi(const clink_joint_def *j, const kin_pose *a, const kin_pose *b,
                         double *phi)
{
    double arm[2], ra[2], rb[2];
    kin_point(a, j->point_a, arm, ra);
    kin_point(b, j->point_b, arm, rb);
    phi[0] = rb[0] - ra[0];
    phi[1] = rb[1] - ra[1];
}

static void revolute_jacobian(const clink_joint_def *j, const kin_pose *a, const kin_pose *b,
                              kin_row *jac)
{
    double aa[2], ab[2];
    kin_rot(a->phi, j->point_a, aa);
    kin_rot(b->phi, j->point_b, ab);
    /* B s = (-(A s)_y, (A s)_x) */
    jac[0] = (kin_row){{-1.0, 0.0, aa[1]}, {1.0, 0.0, -ab[1]}};
    jac[1] = (kin_row){{0.0, -1.0, -aa[0]}, {0.0, 1.0, ab[0]}};
}

static void revolute_gamma(const clink_joint_def *j, const kin_pose *a, const kin_pose *b,
                           double *gamma)
{
    double aa[2], ab[2];
    kin_rot(a->phi, j->point_a, aa);
    kin_rot(b->phi, j->point_b, ab);
    gamma[0] = ab[0] * b->w * b->w - aa[0] * a->w * a->w;
    gamma[1] = ab[1] * b->w * b->w - aa[1] * a->w * a->w;
}

const kin_joint_class kin_revolute_class = {"revolute", 2, revolute_phi, revolute_jacobian,
                                            revolute_gamma};
