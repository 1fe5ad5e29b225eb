/*
 * kinematics.h: constraint equations of joints and drivers.
 *
 * Every constraint row r involves at most two bodies a and b with coordinates
 * q = (x, y, phi). A row gives its value Phi_r(q, t), its Jacobian with respect
 * to (x_a, y_a, phi_a) and (x_b, y_b, phi_b), the right-hand side of the
 * velocity equation nu_r = -dPhi_r/dt (Phi_q qdot = nu) and the right-hand side
 * of the acceleration equation gamma_r = -(Phi_q qdot)_q qdot - 2 Phi_qt qdot -
 * Phi_tt (Phi_q qdd = gamma), as in Nikravesh, Computer-Aided Analysis of
 * Mechanical Systems (1988), ch. 6-7. Ground (body 0) has the pose (0, 0, 0) at
 * rest and contributes no columns.
 *
 * Joints form a family with a const class table (Chipmunk-style): number of
 * equations and the three evaluations; each type lives in its own file
 * (joint_revolute.c, joint_translational.c, joint_weld.c), drivers in driver.c.
 */
#ifndef CLINK_KINEMATICS_H
#define CLINK_KINEMATICS_H

#include "model/model_internal.h"

#include <math.h>

/* position and velocity of one body */
typedef struct kin_pose {
    double x, y, phi; /* m, m, rad */
    double vx, vy, w; /* m/s, m/s, rad/s */
} kin_pose;

/* one row of the constraint Jacobian: derivatives wrt body a and body b coordinates */
typedef struct kin_row {
    double ja[3], jb[3];
} kin_row;

/* the class of a joint type: neq rows; outputs are arrays of neq */
typedef struct kin_joint_class {
    const char *name;
    int neq;
    void (*phi)(const clink_joint_def *j, const kin_pose *a, const kin_pose *b, double *phi);
    void (*jacobian)(const clink_joint_def *j, const kin_pose *a, const kin_pose *b, kin_row *jac);
    void (*gamma)(const clink_joint_def *j, const kin_pose *a, const kin_pose *b, double *gamma);
} kin_joint_class;

extern const kin_joint_class kin_revolute_class;
extern const kin_joint_class kin_translational_class;
extern const kin_joint_class kin_weld_class;

/* the class of a joint type (NULL for an unknown type) */
const kin_joint_class *kin_joint_class_of(clink_joint_type type);

/* ---- small planar helpers ------------------------------------------------- */

/* A(phi) s: body vector s rotated into the global frame */
static inline void kin_rot(double phi, const double s[2], double out[2])
{
    double c = cos(phi), sn = sin(phi);
    out[0] = c * s[0] - sn * s[1];
    out[1] = sn * s[0] + c * s[1];
}

/* global position of body point s and A s (its arm from the centre of mass) */
static inline void kin_point(const kin_pose *p, const double s[2], double arm[2], double r[2])
{
    kin_rot(p->phi, s, arm);
    r[0] = p->x + arm[0];
    r[1] = p->y + arm[1];
}

/* ---- the whole constraint set of a model ---------------------------------- */

/*
 * Bodies of each constraint row (a, b; 0 = ground) for rows 0..m-1 of the
 * model (joints first, then drivers); rows_a and rows_b are arrays of m.
 */
void kin_row_bodies(const clink_model *m, int *rows_a, int *rows_b);

/* the joint (>= 0) or driver (-1 - index) that owns constraint row r */
int kin_row_owner(const clink_model *m, int r);

/*
 * Evaluates the constraints at time t for coordinates q and velocities v
 * (arrays of ncoords, body i >= 1 at 3 (i - 1)). Each output is optional
 * (NULL): phi, nu, gamma arrays of m; jac array of m rows.
 */
void kin_eval(const clink_model *m, double t, const double *q, const double *v, double *phi,
              kin_row *jac, double *nu, double *gamma);

/* the pose of body i from q and v (ground: zeros) */
void kin_pose_of(const double *q, const double *v, int body, kin_pose *p);

#endif
