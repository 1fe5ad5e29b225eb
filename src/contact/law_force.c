/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The force of a generic law, F = K delta^n + chi delta^m delta_dot (Alves et al.
 * 2015, Eq. 1), with the constants of the contact's state: clamped at zero unless
 * the law may pull, the pair F(delta, delta_dot), F(delta, 0) with each power of
 * delta computed once (contact_law_force_pair, per right-hand side of a
 * simulation), the energy stored elastically, integral_0^delta F(s, 0) ds, and the
 * separation function whose zero ends the contact (zero penetration or zero force).
 */
#include "contact/law_private.h"

#include <math.h>

/* dpos^m, where pn is dpos^n or NaN when not computed: the same bits as pow(dpos, m),
   without a second pow when the two exponents are equal (the damping of most laws goes
   with the spring's power) */
static double power_again(double dpos, double m, double n, double pn)
{
    return m == n && !isnan(pn) ? pn : pow(dpos, m);
}

double contact_law_default_raw_force(const struct clink_law *law,
                                     const clink_contact_params *params,
                                     const clink_contact_state *state, double delta,
                                     double delta_dot)
{
    double dpos = delta > 0 ? delta : 0;
    double spring, damper, pn = NAN;

    (void) params;
    /* a linear spring that may pull continues through delta = 0 so that the root
       delta = 0 is located on a smooth function; power laws stop at zero */
    if (state->n == 1 && law->can_pull) {
        spring = state->K * delta;
    } else {
        pn = pow(dpos, state->n);
        spring = state->K * pn;
    }
    if (law->compression_only && !(delta_dot > 0))
        damper = 0;
    else if (state->m == 0)
        damper = state->c * delta_dot;
    else if (state->chi == 0)
        damper = 0;
    else
        damper = state->chi * power_again(dpos, state->m, state->n, pn) * delta_dot;
    return spring + damper;
}

double contact_law_default_force(const struct clink_law *law, const clink_contact_params *params,
                                 const clink_contact_state *state, double delta, double delta_dot)
{
    double f;

    if (state->phase == CLINK_CONTACT_OPEN || state->phase == CLINK_CONTACT_RELEASED)
        return 0;
    f = contact_law_default_raw_force(law, params, state, delta, delta_dot);
    if (law->can_pull && !(law->sep == CLINK_SEP_OPTION && params->zero_force == 1))
        return f;
    return f > 0 || isnan(f) ? f : 0; /* NaN passes: the caller must see it */
}

double clink_law_force(const clink_law *law, const clink_contact_params *params,
                       const clink_contact_state *state, double delta, double delta_dot)
{
    double f;

    if (law == NULL || params == NULL || state == NULL)
        return 0;
    if (law->force != NULL)
        f = law->force(law, params, state, delta, delta_dot);
    else
        f = contact_law_default_force(law, params, state, delta, delta_dot);
    /* a NaN is returned as it is: the simulation stops naming the contact, the law and
       the time (contacts.c), instead of integrating a force that is not there */
    return f;
}

/* contact_law_default_force's clamp of a raw force */
static double clamped(const struct clink_law *law, const clink_contact_params *params, double f)
{
    if (law->can_pull && !(law->sep == CLINK_SEP_OPTION && params->zero_force == 1))
        return f;
    return f > 0 || isnan(f) ? f : 0;
}

double contact_law_force_pair(const struct clink_law *law, const clink_contact_params *params,
                              const clink_contact_state *state, double delta, double delta_dot,
                              double *f0)
{
    double dpos = delta > 0 ? delta : 0;
    double spring, damper = 0, damper0 = 0;

    if (law == NULL || params == NULL || state == NULL || law->force != NULL) {
        *f0 = clink_law_force(law, params, state, delta, 0.0);
        return clink_law_force(law, params, state, delta, delta_dot);
    }
    if (state->phase == CLINK_CONTACT_OPEN || state->phase == CLINK_CONTACT_RELEASED) {
        *f0 = 0;
        return 0;
    }
    /* contact_law_default_raw_force at delta_dot and at 0 */
    double pn = NAN;
    if (state->n == 1 && law->can_pull) {
        spring = state->K * delta;
    } else {
        pn = pow(dpos, state->n);
        spring = state->K * pn;
    }
    if (state->m == 0) {
        if (!law->compression_only)
            damper0 = state->c * 0.0;
        if (!law->compression_only || delta_dot > 0)
            damper = state->c * delta_dot;
    } else if (state->chi != 0 && (!law->compression_only || delta_dot > 0)) {
        double cp = state->chi * power_again(dpos, state->m, state->n, pn);
        if (!law->compression_only)
            damper0 = cp * 0.0;
        damper = cp * delta_dot;
    }
    *f0 = clamped(law, params, spring + damper0);
    return clamped(law, params, spring + damper);
}

double clink_law_stored_energy(const clink_law *law, const clink_contact_params *params,
                               const clink_contact_state *state, double delta)
{
    double u;

    if (law == NULL || params == NULL || state == NULL || !(delta > 0) ||
        state->phase == CLINK_CONTACT_OPEN || state->phase == CLINK_CONTACT_RELEASED)
        return 0;
    if (law->stored != NULL)
        u = law->stored(law, params, state, delta);
    else
        u = state->K * pow(delta, state->n + 1) / (state->n + 1);
    return isfinite(u) ? u : 0;
}

double contact_law_default_separation(const struct clink_law *law,
                                      const clink_contact_params *params,
                                      const clink_contact_state *state, double delta,
                                      double delta_dot)
{
    int at_force =
        law->sep == CLINK_SEP_FORCE || (law->sep == CLINK_SEP_OPTION && params->zero_force == 1);

    if (!at_force || state->phase == CLINK_CONTACT_OPEN || state->phase == CLINK_CONTACT_RELEASED)
        return delta;
    return contact_law_default_raw_force(law, params, state, delta, delta_dot);
}

double clink_law_separation(const clink_law *law, const clink_contact_params *params,
                            const clink_contact_state *state, double delta, double delta_dot)
{
    if (law == NULL || params == NULL || state == NULL)
        return delta;
    if (law->separation != NULL)
        return law->separation(law, params, state, delta, delta_dot);
    return contact_law_default_separation(law, params, state, delta, delta_dot);
}
