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

/*
 * The friction of joint d at poses a, b (bodies a, b) whose neq constraint rows have the
 * Jacobian rows jac and the multipliers lam (the constraint force on b is jb . lam): the
 * normal force into *fn (N), the generalised forces added to ga and gb (3 each; NULL for
 * the ground). Returns the friction power (W, <= 0).
 */
double joint_friction_add(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                          const joint_row *jac, const double *lam, int neq, double *ga, double *gb,
                          double *fn);

/* the normal force the joint's friction reads from the multipliers (see joint_friction_add) */
double joint_friction_normal(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                             const joint_row *jac, const double *lam, int neq);

#endif
