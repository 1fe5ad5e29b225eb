/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink tangential friction at a contact: none, or Coulomb friction regularised
 * as in Ambrosio's modified Coulomb law (used throughout the clearance-joint
 * literature: Ambrosio (2003); Flores et al. (2008)).
 *
 *   F_t = -mu c_d(|v_t|) F_n v_t / |v_t|,
 *   c_d = 0                          for |v_t| <= v0,
 *   c_d = (|v_t| - v0) / (v1 - v0)   for v0 < |v_t| < v1,
 *   c_d = 1                          for |v_t| >= v1.
 *
 * v_t is the tangential slip velocity of body B relative to body A at the
 * contact (m/s), F_n >= 0 the normal force (N); the result is the tangential
 * force on B along the tangent (N), opposite to the slip; A receives the
 * opposite force. Below v0 the law gives no force at all, so it cannot hold a
 * contact in stick: it is a model of sliding friction with a dead band that
 * keeps the equations free of the sign discontinuity at v_t = 0.
 *
 * Parameters and the state are plain data owned by the caller.
 */
#ifndef CLINK_FRICTION_H
#define CLINK_FRICTION_H

#include "clink/clink.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum clink_friction_kind {
    CLINK_FRICTION_NONE = 0,    /* frictionless */
    CLINK_FRICTION_AMBROSIO = 1 /* modified Coulomb with two velocity thresholds */
} clink_friction_kind;

typedef struct clink_friction_params {
    clink_friction_kind kind;
    double mu; /* coefficient of friction, - (>= 0) */
    double v0; /* below this slip speed no friction acts, m/s (>= 0) */
    double v1; /* above this slip speed full Coulomb friction acts, m/s (> v0) */
} clink_friction_params;

/* Frictionless, with the thresholds v0 = 1e-4 m/s and v1 = 1e-3 m/s ready for use. */
CLINK_API clink_friction_params clink_default_friction_params(void);

/* Checks the ranges; one line naming the parameter into msg (if not NULL) on error. */
CLINK_API clink_status clink_friction_check(const clink_friction_params *params, char *msg,
                                            size_t msg_size);

/* The dynamic correction coefficient c_d in [0, 1] at slip speed |v_t|. */
CLINK_API double clink_friction_correction(const clink_friction_params *params, double v_t);

/* Tangential force on B (N, along the tangent) for slip v_t (m/s) and normal force f_n (N). */
CLINK_API double clink_friction_force(const clink_friction_params *params, double v_t, double f_n);

#ifdef __cplusplus
}
#endif

#endif
