/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink tangential friction at a contact: a catalogue of friction laws (docs/friction.md).
 *
 * v_t is the tangential slip velocity of body B relative to body A at the contact (m/s),
 * F_n >= 0 the normal force (N); every law gives the tangential force F_t on B along the
 * tangent (N), opposite to the slip; A receives the opposite force. With mu(v) the
 * Stribeck curve mu_k + (mu_s - mu_k) exp(-(|v| / v_s)^delta) and mu_k = mu:
 *
 *   coulomb         Ambrosio's modified Coulomb law (Ambrosio 2003; Flores et al. 2008):
 *                   F_t = -mu c_d(|v_t|) F_n sign(v_t), c_d 0 below v0, 1 above v1,
 *                   linear between (the default law of <friction type="coulomb">);
 *   coulomb-ramp    F_t = -mu F_n sat(v_t / v1), sat(x) = max(-1, min(1, x));
 *   coulomb-tanh    F_t = -mu F_n tanh(v_t / v1);
 *   stribeck        F_t = -F_n mu(v_t) sat(v_t / v1) - sigma2 v_t (Stribeck and viscous);
 *   lugre           F_t = -F_n (sigma0 z + sigma1 z') - sigma2 v_t,
 *                   z' = v_t - sigma0 |v_t| z / mu(v_t) (Canudas de Wit, Olsson, Astrom and
 *                   Lischinsky 1995, per unit normal force: sigma0 1/m, sigma1 s/m);
 *   dahl            F_t = -F_n sigma0 z, z' = v_t - sigma0 |v_t| z / mu (Dahl 1968, the
 *                   exponent 1 form, per unit normal force);
 *   stribeck-tanh   F_t = -F_n mu(v_t) tanh(v_t / v1) - sigma2 v_t (the Stribeck curve
 *                   regularised by tanh, eps = v1).
 *
 * The dynamic laws (lugre, dahl) carry one internal state z per contact (the mean bristle
 * deflection, m), integrated with the mechanism; it is set to 0 at the onset of a contact.
 * In an ideal joint (always touching) z starts at 0 and is never reset.
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
    CLINK_FRICTION_NONE = 0,     /* frictionless */
    CLINK_FRICTION_AMBROSIO = 1, /* modified Coulomb with two velocity thresholds */
    CLINK_FRICTION_RAMP = 2,     /* Coulomb with a linear ramp through zero up to v1 */
    CLINK_FRICTION_TANH = 3,     /* Coulomb regularised by tanh(v / v1) */
    CLINK_FRICTION_STRIBECK = 4, /* Stribeck curve and viscous term, ramp up to v1 */
    CLINK_FRICTION_LUGRE = 5,    /* LuGre (one internal state) */
    CLINK_FRICTION_DAHL = 6,     /* Dahl (one internal state) */
    /* Stribeck curve and viscous term, tanh(v / v1) through zero */
    CLINK_FRICTION_STRIBECK_TANH = 7
} clink_friction_kind;

typedef struct clink_friction_params {
    clink_friction_kind kind;
    double mu; /* (kinetic) coefficient of friction, - (>= 0) */
    double v0; /* coulomb: below this slip speed no friction acts, m/s (>= 0) */
    double v1; /* regularisation speed: full friction above it, m/s (> v0, > 0) */
    /* the catalogue's other laws (a law reads only its own; defaults in
       clink_default_friction_params) */
    double mu_s;   /* static coefficient, - (>= mu) */
    double v_s;    /* Stribeck velocity, m/s (> 0) */
    double delta;  /* Stribeck exponent, - (> 0; default 2) */
    double sigma0; /* bristle stiffness per unit normal force, 1/m (> 0) */
    double sigma1; /* bristle damping per unit normal force, s/m (>= 0; default 0) */
    double sigma2; /* viscous coefficient, N s/m (>= 0; default 0) */
} clink_friction_params;

/* Frictionless, with v0 = 1e-4 m/s, v1 = 1e-3 m/s, delta = 2, sigma1 = sigma2 = 0 and
   mu_s, v_s, sigma0 not given (NaN). */
CLINK_API clink_friction_params clink_default_friction_params(void);

/* Checks the ranges the law of params->kind reads; one line naming the parameter into msg
   (if not NULL) on error. */
CLINK_API clink_status clink_friction_check(const clink_friction_params *params, char *msg,
                                            size_t msg_size);

/* The dynamic correction coefficient c_d in [0, 1] of the coulomb law at slip speed |v_t|. */
CLINK_API double clink_friction_correction(const clink_friction_params *params, double v_t);

/* Tangential force on B (N, along the tangent) for slip v_t (m/s) and normal force f_n (N);
   a dynamic law is evaluated at z = 0. */
CLINK_API double clink_friction_force(const clink_friction_params *params, double v_t, double f_n);

/* Internal states of the law (0 or 1). */
CLINK_API int clink_friction_state_count(const clink_friction_params *params);

/* Tangential force on B at slip v_t, normal force f_n and internal state z (m; ignored by
   a static law); *zdot (may be NULL) receives dz/dt (m/s; 0 for a static law). */
CLINK_API double clink_friction_force_state(const clink_friction_params *params, double v_t,
                                            double f_n, double z, double *zdot);

/* d(dz/dt)/dz at slip v_t (1/s; 0 for a static law): -sigma0 |v_t| / mu(v_t). */
CLINK_API double clink_friction_state_decay(const clink_friction_params *params, double v_t);

/* ---- the catalogue -------------------------------------------------------------- */

/* One friction parameter: its key (the XML attribute), offset in clink_friction_params
   and unit. */
typedef struct clink_friction_param {
    const char *key;
    size_t offset;
    const char *unit;
} clink_friction_param;

CLINK_API size_t clink_friction_param_count(void);
CLINK_API const clink_friction_param *clink_friction_param_at(size_t i);
CLINK_API const clink_friction_param *clink_friction_param_find(const char *key);

/* What a law of the catalogue is (static strings). */
typedef struct clink_friction_law_info {
    const char *name;
    clink_friction_kind kind;
    const char *aliases; /* comma-separated, "" if none */
    const char *title;
    const char *formula;
    const char *required;
    const char *optional;
    const char *sticking; /* whether it can hold static friction, one line */
    int states;           /* internal states per contact */
    const char *reset;    /* what happens to the state at contact onset ("" if none) */
    const char *reference;
} clink_friction_law_info;

CLINK_API size_t clink_friction_law_count(void);
/* the i-th law (0 .. count - 1), or NULL */
CLINK_API const clink_friction_law_info *clink_friction_law_at(size_t i);
/* a law by name or alias (NULL: unknown); "none" is the frictionless row */
CLINK_API const clink_friction_law_info *clink_friction_law_find(const char *name);
/* the row of a kind (NULL: unknown) */
CLINK_API const clink_friction_law_info *clink_friction_law_of(clink_friction_kind kind);

#ifdef __cplusplus
}
#endif

#endif
