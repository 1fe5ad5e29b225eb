/*
 * Weld joint: body b fixed to body a. The points coincide as in the revolute
 * joint and the relative angle is held:
 *
 *   Phi_1,2 = r_b + A_b s_b - r_a - A_a s_a     (Jacobian and gamma: joint_revolute.c)
 *   Phi_3   = phi_b - phi_a - angle0,  dPhi_3/dphi_a = -1, dPhi_3/dphi_b = 1, gamma_3 = 0
 */
#include "kinematics/kinematics.h"

static void weld_phi(const clink_joint_def *j, const kin_pose *a, const kin_pose *b, double *phi)
{
    kin_revolute_class.phi(j, a, b, phi);
    phi[2] = b->phi - a->phi - j->angle0;
}

static void weld_jacobian(const clink_joint_def *j, const kin_pose *a, const kin_pose *b,
                          kin_row *jac)
{
    kin_revolute_class.jacobian(j, a, b, jac);
    jac[2] = (kin_row){{0.0, 0.0, -1.0}, {0.0, 0.0, 1.0}};
}

static void weld_gamma(const clink_joint_def *j, const kin_pose *a, const kin_pose *b,
                       double *gamma)
{
    kin_revolute_class.gamma(j, a, b, gamma);
    gamma[2] = 0.0;
}

const kin_joint_class kin_weld_class = {"weld", 3, weld_phi, weld_jacobian, weld_gamma};
