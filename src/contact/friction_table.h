/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The friction-law catalogue as rows with behaviour (internal to the library).
 *
 * Each friction law is one const row `struct contact_friction_law`: what it is (the public
 * clink_friction_law_info: name, formula, parameters, states) and what it does, as hooks:
 *
 *   force        F_t on B (N) at slip v (m/s), normal force f_n > 0 (N), state z (m) and its
 *                rate z' (m/s, the rate hook's value; 0 for a static law); the generic code
 *                gives 0 where f_n is not positive;
 *   rate         z' (m/s) at slip v and state z (NULL: a static law, info.states = 0);
 *   decay        d z' / d z (1/s) at slip v (NULL: a static law);
 *   state_scale  the size of the state (m), for difference steps (NULL: a static law);
 *   check        the ranges the law reads beyond mu >= 0: NULL if fine, else one line naming
 *                the parameter (NULL hook: nothing more to check);
 *   viscous      the part of F_t that does not scale with F_n (N; NULL: none), so that the
 *                integrator's Jacobian splits F_t = F_n phi(v, z) + viscous(v) and
 *                differentiates the first part in F_n exactly;
 *   slope_at_rest  nonzero: the contact Jacobian takes the force's slope in the slip also
 *                where the force is 0 (the slip exactly 0); the rows of coulomb-ramp and
 *                coulomb-tanh leave it out, as they always have.
 *
 * The generic code (friction.c: clink_friction_force_state and the other public functions;
 * src/sim/ and src/joints/ through them and the functions below) reads only the row, so a
 * call site never names a law. The rows are in kind order (the row of kind k is the k-th of
 * the catalogue), which the lookup by kind uses.
 *
 * Adding a law (docs/friction.md, "Adding a friction law"):
 *   1. its kind at the end of clink_friction_kind (include/clink/friction.h);
 *   2. a file src/contact/friction_NAME.c defining `const struct contact_friction_law
 *      contact_friction_NAME = { ... };` (include this header; the info and its hooks);
 *   3. X(contact_friction_NAME) at the end of CONTACT_FRICTION_ROWS below.
 * The XML reader, `clink laws --friction`, the checks of a model and the simulation find it
 * through the catalogue.
 */
#ifndef CLINK_CONTACT_FRICTION_TABLE_H
#define CLINK_CONTACT_FRICTION_TABLE_H

#include "clink/friction.h"

#include <stddef.h>

struct contact_friction_law {
    clink_friction_law_info info;
    double (*force)(const clink_friction_params *p, double v, double f_n, double z, double zdot);
    double (*rate)(const clink_friction_params *p, double v, double z);
    double (*decay)(const clink_friction_params *p, double v);
    double (*state_scale)(const clink_friction_params *p);
    const char *(*check)(const clink_friction_params *p);
    double (*viscous)(const clink_friction_params *p, double v);
    int slope_at_rest;
};

/* every row, in kind order: X(symbol) */
/* clang-format off */
#define CONTACT_FRICTION_ROWS(X)                                                                   \
    X(contact_friction_none)                                                                       \
    X(contact_friction_coulomb)                                                                    \
    X(contact_friction_ramp)                                                                       \
    X(contact_friction_tanh)                                                                       \
    X(contact_friction_stribeck)                                                                   \
    X(contact_friction_lugre)                                                                      \
    X(contact_friction_dahl)                                                                       \
    X(contact_friction_stribeck_tanh)
/* clang-format on */

#define CONTACT_FRICTION_DECLARE_(sym) extern const struct contact_friction_law sym;
CONTACT_FRICTION_ROWS(CONTACT_FRICTION_DECLARE_)
#undef CONTACT_FRICTION_DECLARE_

/* the rows in kind order (friction_catalogue.c) and their count */
#define CONTACT_FRICTION_COUNT_(sym) +1
enum { CONTACT_FRICTION_LAWS = 0 CONTACT_FRICTION_ROWS(CONTACT_FRICTION_COUNT_) };
#undef CONTACT_FRICTION_COUNT_
extern const struct contact_friction_law *const contact_friction_table[CONTACT_FRICTION_LAWS];

/* the row of a kind (NULL: unknown) */
static inline const struct contact_friction_law *contact_friction_law_of(clink_friction_kind kind)
{
    return (size_t) kind < CONTACT_FRICTION_LAWS ? contact_friction_table[kind] : NULL;
}

/* the part of the force at slip v that does not scale with F_n (N; 0 for most laws) */
double contact_friction_viscous(const clink_friction_params *p, double v);

/* the size of the law's state (m; 0 for a static law or one without sigma0) */
double contact_friction_state_scale(const clink_friction_params *p);

/* nonzero if the contact Jacobian takes the force's slope also at a zero force */
int contact_friction_slope_at_rest(const clink_friction_params *p);

/* ---- shared by the rows ----------------------------------------------------------- */

/* mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta) */
double contact_friction_stribeck_mu(const clink_friction_params *p, double v);

/* the checks of v1 > 0 (a regularisation speed) and of the Stribeck curve's parameters
   (mu_s >= mu, v_s > 0, delta > 0, sigma2 >= 0) */
const char *contact_friction_check_v1(const clink_friction_params *p);
const char *contact_friction_check_stribeck_curve(const clink_friction_params *p);

/* sat(x) = max(-1, min(1, x)) */
static inline double contact_friction_sat(double x)
{
    return x > 1.0 ? 1.0 : x < -1.0 ? -1.0 : x;
}

#endif /* CLINK_CONTACT_FRICTION_TABLE_H */
