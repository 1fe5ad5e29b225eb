/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the files of the generic law code share and nothing else reads (private to
 * src/contact/law_*.c): the exponents a row gives with its params, Jankowski's
 * damping ratio (Alves et al. 2015, Table 1) and the damping coefficient a row's
 * rule fixes at onset.
 *
 * The generic code, one job per file:
 *   law_descriptor.c  the parameter descriptor (clink_contact_param_*)
 *   law_catalogue.c   the rows and the lookup (clink_law_find, _at, _get_info)
 *   law_check.c       the params' checks (clink_law_check, contact_law_complain)
 *   law_onset.c       onset, end of compression, release (the phase changes)
 *   law_cache.c       the constants derived once per contact (contact_law_prepare)
 *   law_force.c       force, force pair, stored energy, separation function
 */
#ifndef CLINK_CONTACT_LAW_PRIVATE_H
#define CLINK_CONTACT_LAW_PRIVATE_H

#include "contact/law_table.h"

#include <math.h>

/* the exponent n the law uses with these params (NaN if params.n is invalid) */
static inline double contact_law_n_of(const struct clink_law *law,
                                      const clink_contact_params *params)
{
    if (law->n_free && CONTACT_GIVEN(params->n))
        return params->n;
    return law->n;
}

/* the damping exponent m of the row for the stiffness exponent n */
static inline double contact_law_m_of(const struct clink_law *law, double n)
{
    switch (law->m_rule) {
    case CLINK_M_EQUALS_N:
        return n;
    case CLINK_M_TSUJI:
        return (n - 1) / 2;
    case CLINK_M_FIXED:
        break;
    }
    return law->m;
}

/* Jankowski's damping ratio (Alves et al. 2015, Table 1, the factor after "2") */
static inline double contact_law_jankowski_xi(double e)
{
    return 4.5 * sqrt(5.0) * (1 - e * e) / (e * (e * (9 * CONTACT_PI - 16) + 16));
}

/*
 * The damping coefficient the law's rule fixes at onset (K, n checked; v =
 * max(v_impact, v_ref)); law_cache.c calls it with v_impact = 0 and m_eff = 1 for
 * the rules that read neither.
 */
double contact_law_onset_damping(const struct clink_law *law, const clink_contact_params *params,
                                 double K, double n, double v_impact, double m_eff, double v);

#endif /* CLINK_CONTACT_LAW_PRIVATE_H */
