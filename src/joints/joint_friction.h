/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * joint_friction.h: friction in ideal revolute and translational joints
 * (clink_joint_def.friction, docs/friction.md "Joint friction"), from the joint's
 * reaction: the check of a definition and the generalised friction forces at a state.
 */
#ifndef CLINK_JOINT_FRICTION_H
#define CLINK_JOINT_FRICTION_H

#include "joints/joint.h"

#include <stddef.h>

/* NULL if the joint's friction is acceptable (or absent), else why (in buf or static) */
const char *joint_friction_check(const clink_joint_def *d, char *buf, size_t n);

/* nonzero if the joint carries friction */
int joint_friction_on(const clink_joint_def *d);

/* the internal states of the joint's friction law (1 for lugre and dahl, else 0) */
int joint_friction_states(const clink_joint_def *d);

/* the slip the joint's friction law reads (m/s): r (omega_b - omega_a) for a revolute
   joint, the velocity of b's slider point relative to a along the axis for a
   translational one */
double joint_friction_slip(const clink_joint_def *d, const joint_pose *a, const joint_pose *b);

/*
 * The friction of joint d at poses a, b (bodies a, b) whose neq constraint rows have the
 * Jacobian rows jac and the multipliers lam (the constraint force on b is jb . lam), with
 * the bristle state z (m; 0 and ignored for a static law): the normal force into *fn (N),
 * z' into *zdot (m/s; may be NULL; 0 for a static law), the generalised forces added to
 * ga and gb (3 each; NULL for the ground). Returns the friction power (W).
 */
double joint_friction_add(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                          const joint_row *jac, const double *lam, int neq, double z, double *zdot,
                          double *ga, double *gb, double *fn);

/* the friction joint_friction_add applies, without applying it: the torque on b (N m,
   revolute) or the force on b along the axis (N, translational), from the same
   expressions in the same order (the same bits) */
double joint_friction_value(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                            const joint_row *jac, const double *lam, int neq, double z);

/* the normal force the joint's friction reads from the multipliers (see joint_friction_add) */
double joint_friction_normal(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                             const joint_row *jac, const double *lam, int neq);

#endif
