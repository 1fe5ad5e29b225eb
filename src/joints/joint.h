/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * joint.h: the joint class table, one row per clink_joint_type.
 *
 * A layer below the model: it includes only public headers, so that the model
 * builder (equation counts, checks), the XML reader (element names, attributes),
 * the kinematics (constraint rows) and the dynamics read the same row. Each
 * class lives in its own file src/joints/joint_<name>.c, which opens with its
 * equations and defines `const joint_class joint_<name>`; the list of types is
 * CLINK_JOINT_TYPES in include/clink/model.h (the enum and this table are both
 * generated from it).
 *
 * Every class writes neq constraint rows Phi_r(q) = 0 between body a and body b
 * (poses with q = (x, y, phi), m and rad, and their rates), the Jacobian rows with
 * respect to (x_a, y_a, phi_a) and (x_b, y_b, phi_b), and the right-hand side of
 * the acceleration equation gamma_r = -(Phi_q qdot)_q qdot (joints are
 * scleronomic: nu = 0), as in Nikravesh, Computer-Aided Analysis of Mechanical
 * Systems (1988), ch. 6-7.
 *
 * The analytic Jacobian of the equations of motion (dynamics.h,
 * dyn_jacobian) needs two more evaluations per class: the Hessian of each row,
 * H_r = d^2 Phi_r / dq dq over the six coordinates (x_a, y_a, phi_a, x_b, y_b,
 * phi_b), from which d(Phi_q^T mu)/dq = sum_r mu_r H_r and d(Phi_q a)/dq =
 * (H_r a)_r follow for any mu and a, and gamma_r = -v^T H_r v, so
 * d gamma_r / dv = -2 H_r v; and d gamma_r / dq (at the poses' velocities).
 */
#ifndef CLINK_JOINTS_JOINT_H
#define CLINK_JOINTS_JOINT_H

#include "clink/model.h"

#include <math.h>
#include <stddef.h>

/* most equations of any joint class (sizes of callers' stack arrays) */
enum { JOINT_MAX_EQUATIONS = 3 };

/* position and velocity of one body, with the rotation of its frame evaluated once */
typedef struct joint_pose {
    double x, y, phi; /* m, m, rad */
    double vx, vy, w; /* m/s, m/s, rad/s */
    double c, s;      /* cos(phi), sin(phi) */
} joint_pose;

/* one row of the constraint Jacobian: derivatives wrt body a and body b coordinates */
typedef struct joint_row {
    double ja[3], jb[3];
} joint_row;

/* second derivatives of one row over (x_a, y_a, phi_a, x_b, y_b, phi_b), symmetric */
typedef struct joint_hessian {
    double h[6][6];
} joint_hessian;

/* the fields of clink_joint_def a class reads besides the bodies (bit set) */
typedef enum joint_field {
    JOINT_FIELD_POINT_A = 1 << 0, /* point_a, m (XML point1) */
    JOINT_FIELD_POINT_B = 1 << 1, /* point_b, m (XML point2) */
    JOINT_FIELD_AXIS_A = 1 << 2,  /* axis_a, - (XML axis) */
    JOINT_FIELD_ANGLE0 = 1 << 3,  /* angle0, rad (XML angle; default: the initial phi_b - phi_a,
                                     a gear's phi_b + ratio phi_a) */
    JOINT_FIELD_RATIO = 1 << 4    /* ratio, - (XML ratio) */
} joint_field;

typedef struct joint_class {
    clink_joint_type type;
    const char *name;  /* the XML element and the word in messages */
    int neq;           /* constraint equations, 1..JOINT_MAX_EQUATIONS */
    unsigned fields;   /* joint_field bits the class reads */
    unsigned required; /* joint_field bits that must be given in a file (no default) */
    /*
     * Checks and normalises a definition (bodies already checked); NULL when any
     * finite values do. Returns NULL, or what is wrong ("axis_a has zero length").
     */
    const char *(*check)(clink_joint_def *def);
    /* outputs are arrays of neq */
    void (*phi)(const clink_joint_def *j, const joint_pose *a, const joint_pose *b, double *phi);
    void (*jacobian)(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                     joint_row *jac);
    void (*gamma)(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                  double *gamma);
    /* H_r for the neq rows (zero-filled by the caller is not assumed: every entry written) */
    void (*hessian)(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                    joint_hessian *hess);
    /* d gamma_r / d(q_a, q_b) at the velocities of the poses, neq rows */
    void (*gamma_q)(const clink_joint_def *j, const joint_pose *a, const joint_pose *b,
                    joint_row *gq);
} joint_class;

/* the class of a joint type; NULL for a value outside the enum */
const joint_class *joint_class_of(clink_joint_type type);

/* the class whose name is `name` (an XML element); NULL if none */
const joint_class *joint_class_find(const char *name);

/* ---- small planar helpers ------------------------------------------------- */

/* sets a pose with cos(phi) and sin(phi) given (c, s: computed by the caller from phi) */
static inline void joint_pose_set_cs(joint_pose *p, double x, double y, double phi, double vx,
                                     double vy, double w, double c, double s)
{
    *p = (joint_pose){.x = x, .y = y, .phi = phi, .vx = vx, .vy = vy, .w = w, .c = c, .s = s};
}

/* sets a pose and its rotation */
static inline void joint_pose_set(joint_pose *p, double x, double y, double phi, double vx,
                                  double vy, double w)
{
    joint_pose_set_cs(p, x, y, phi, vx, vy, w, cos(phi), sin(phi));
}

/* A(phi) s: body vector s rotated into the global frame */
static inline void joint_rot(const joint_pose *p, const double s[2], double out[2])
{
    out[0] = p->c * s[0] - p->s * s[1];
    out[1] = p->s * s[0] + p->c * s[1];
}

/* global position r of body point s and its arm A s from the centre of mass */
static inline void joint_point(const joint_pose *p, const double s[2], double arm[2], double r[2])
{
    joint_rot(p, s, arm);
    r[0] = p->x + arm[0];
    r[1] = p->y + arm[1];
}

/* perp(u) = (-u_y, u_x) dotted with w */
static inline double joint_perp_dot(const double u[2], const double w[2])
{
    return -u[1] * w[0] + u[0] * w[1];
}

static inline double joint_dot(const double u[2], const double w[2])
{
    return u[0] * w[0] + u[1] * w[1];
}

#endif
