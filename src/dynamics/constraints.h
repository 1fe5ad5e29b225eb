/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * constraints.h: constraint equations of joints and drivers (the model's constraint set, evaluated
 * at a state; above the model, which it reads).
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
 * Joints form a family with a const class table (Chipmunk-style, src/joints/joint.h):
 * number of equations, the checks and the three evaluations; each type lives in
 * its own file src/joints/joint_<name>.c; drivers are in constraints.c.
 */
#ifndef CLINK_DYNAMICS_CONSTRAINTS_H
#define CLINK_DYNAMICS_CONSTRAINTS_H

#include "joints/joint.h"
#include "model/model_internal.h"

#include <math.h>
#include <string.h>

/* the joint layer's pose (rotation evaluated once) and Jacobian row */
typedef joint_pose kin_pose;
typedef joint_row kin_row;

/*
 * The cos and sin of each body's angle last computed, with the angle's bits: the
 * constraints and the contacts of one system evaluate the same bodies at the same state,
 * so one sincos per body and state serves both (an angle's cos and sin are a function of
 * its bits alone, so the same bits whoever computed them). t holds (phi, cos phi, sin phi)
 * at 3 (body - 1) (the coordinates' layout, ncoords doubles), ok[body] (nbodies) whether
 * they are set. Owned by the contact set (contacts_trig); NULL where there is none.
 */
typedef struct kin_trig {
    double *t;
    unsigned char *ok;
} kin_trig;

/* (cos, sin) of body's angle at q from tr, computed into it when its angle's bits differ;
   body >= 1 */
static inline void kin_trig_of(kin_trig *tr, const double *q, int body, double cs[2])
{
    double *t = tr->t + 3 * (body - 1);
    const double *phi = q + 3 * (body - 1) + 2;
    if (!tr->ok[body] || memcmp(phi, t, sizeof(double)) != 0) {
        double a = *phi; /* one value for both, so that the compiler makes them one sincos */
        t[0] = a;
        t[1] = cos(a);
        t[2] = sin(a);
        tr->ok[body] = 1;
    }
    cs[0] = t[1];
    cs[1] = t[2];
}

/* A(phi) s: body vector s rotated into the global frame (computes cos and sin) */
static inline void kin_rot(double phi, const double s[2], double out[2])
{
    double c = cos(phi), sn = sin(phi);
    out[0] = c * s[0] - sn * s[1];
    out[1] = sn * s[0] + c * s[1];
}

/* global position of body point s and A s (its arm from the centre of mass) */
static inline void kin_point(const kin_pose *p, const double s[2], double arm[2], double r[2])
{
    joint_point(p, s, arm, r);
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

/* kin_eval with the drivers' functions of a simulation (ndrivers of them; NULL: the model's,
   as kin_eval): the host's driver inputs (src/sim/sim_inputs.c) */
void kin_eval_with(const clink_model *m, const clink_function *drivers, double t, const double *q,
                   const double *v, double *phi, kin_row *jac, double *nu, double *gamma);

/* kin_eval_with taking the bodies' cos and sin from trig (NULL: computed; the same bits) */
void kin_eval_trig(const clink_model *m, const clink_function *drivers, kin_trig *trig, double t,
                   const double *q, const double *v, double *phi, kin_row *jac, double *nu,
                   double *gamma);

/*
 * Second derivatives of every row at (t, q, v) for the analytic Jacobian of the
 * equations of motion: hess (array of m) the Hessian H_r over the row's six
 * coordinates (joint.h), gq (array of m) d gamma_r / d(q_a, q_b). Rows are at
 * most quadratic in v, so d gamma_r / dv = -2 H_r v (drivers' f'' depends on t
 * only).
 */
void kin_eval_second(const clink_model *m, double t, const double *q, const double *v,
                     joint_hessian *hess, kin_row *gq);

/* the pose of body i from q and v, with cos and sin of its angle (ground: at rest at 0) */
void kin_pose_of(const double *q, const double *v, int body, kin_pose *p);

#endif
