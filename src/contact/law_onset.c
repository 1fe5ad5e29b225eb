/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The phase changes of a generic law: at contact onset the row's rule fixes the
 * damping coefficient chi of F = K delta^n + chi delta^m delta_dot from the
 * restitution e, the stiffness K, the impact velocity v(-) and the effective mass
 * (Alves et al. 2015, Table 1; Poursina and Nikravesh 2020, Eq. 49; Feng 2026, Eq. 14):
 *
 *   Hunt-Crossley family  chi = f(e) K / v,  m = n (f(e) of the row, law_catalogue.c);
 *   Tsuji family          chi = alpha sqrt(K m_eff), m = (n-1)/2, alpha of Feng (2026), Eq. 14;
 *   linear dashpot        chi = c or 2 xi(e) sqrt(K m_eff), n = 1, m = 0;
 *   Jankowski             chi = 2 xi_J sqrt(K m_eff), m = 1/4, only while delta_dot > 0,
 *                         xi_J = 9 sqrt(5)/2 (1-e^2) / (e (e (9 pi - 16) + 16));
 *   Kuwabara-Kono         chi = K (3 eta2 - eta1)^2 / (3 (3 eta2 + 2 eta1))
 *                         (1 - nu)(1 - 2 nu) / (E nu^2), m = 1/2;
 *   Poursina-Nikravesh    chi = c_opt (Eq. 49), m = 0, separation at zero force.
 *
 * Laws whose chi ~ 1/v use v = max(v_impact, v_ref) (v_ref default 1e-3 m/s), so
 * a resting contact (v_impact = 0) gets a large but finite damping, never NaN.
 * Then the end of compression (delta_max kept) and the release at separation
 * (the residual penetration of a zero-force separation kept). Which rules take
 * the damping from e (clink_law_has_restitution_rule) is here too; what they reach
 * is computed by the laboratory (src/lab/lab_restitution.c).
 */
#include "contact/law_private.h"

#include "clink/feng.h"

#include <math.h>

/* ---- onset -------------------------------------------------------------------------- */

/* the damping coefficient the law's rule fixes at onset (K, n checked; v = max(v_impact, v_ref)) */
double contact_law_onset_damping(const struct clink_law *law, const clink_contact_params *params,
                                 double K, double n, double v_impact, double m_eff, double v)
{
    double chi = 0;

    switch (law->rule) {
    case CLINK_RULE_NONE:
    case CLINK_RULE_HOOK:
        chi = 0;
        break;
    case CLINK_RULE_CHI:
        chi = params->chi;
        break;
    case CLINK_RULE_CHI_MASS:
        chi = params->chi * m_eff;
        break;
    case CLINK_RULE_K_OVER_V:
        chi = law->factor(params->e) * K / v;
        break;
    case CLINK_RULE_TSUJI: {
        double alpha =
            CONTACT_GIVEN(params->alpha) ? params->alpha : clink_feng_alpha(params->e, n);
        chi = alpha * sqrt(K * m_eff);
        break;
    }
    case CLINK_RULE_LINEAR_XI:
        if (CONTACT_GIVEN(params->c))
            chi = params->c;
        else
            chi = 2 * clink_contact_damping_ratio(params->e) * sqrt(K * m_eff);
        break;
    case CLINK_RULE_C:
        chi = params->c;
        break;
    case CLINK_RULE_POURSINA:
        chi = clink_contact_poursina_c_opt(params->e, n, K, v_impact, m_eff);
        break;
    case CLINK_RULE_JANKOWSKI:
        chi = 2 * contact_law_jankowski_xi(params->e) * sqrt(K * m_eff);
        break;
    case CLINK_RULE_VISCOSITY:
        if (CONTACT_GIVEN(params->chi)) {
            chi = params->chi;
        } else {
            double e1 = params->eta1, e2 = params->eta2, nu = params->nu1;
            chi = K / 3 * (3 * e2 - e1) * (3 * e2 - e1) / (3 * e2 + 2 * e1) * (1 - nu) *
                  (1 - 2 * nu) / (params->E1 * nu * nu);
        }
        break;
    }
    return chi;
}

clink_status contact_law_default_onset(const struct clink_law *law,
                                       const clink_contact_params *params, double v_impact,
                                       double m_eff, clink_contact_state *state)
{
    double K, n, m, chi, v_ref, v;
    clink_status st;

    if (!isfinite(v_impact) || !isfinite(m_eff))
        return CLINK_ERR_NONFINITE;
    if (v_impact < 0 || !(m_eff > 0))
        return CLINK_ERR_RANGE;
    st = clink_law_check(law, params, NULL, 0);
    if (st != CLINK_OK)
        return st;
    st = clink_contact_params_stiffness(params, &K, NULL, 0);
    if (st != CLINK_OK)
        return st;
    n = contact_law_n_of(law, params);
    m = contact_law_m_of(law, n);
    v_ref = CONTACT_GIVEN(params->v_ref) ? params->v_ref : CLINK_CONTACT_V_REF_DEFAULT;
    v = v_impact > v_ref ? v_impact : v_ref;

    chi = contact_law_onset_damping(law, params, K, n, v_impact, m_eff, v);
    if (!isfinite(chi))
        return CLINK_ERR_NONFINITE;

    state->phase = CLINK_CONTACT_COMPRESSION;
    state->v_impact = v_impact;
    state->m_eff = m_eff;
    /* a damping exponent m = 0 is a plain linear damper: its coefficient is c */
    state->chi = m == 0 ? 0 : chi;
    state->c = m == 0 ? chi : 0;
    state->delta_max = 0;
    state->F_max = 0;
    state->delta_sep = 0;
    state->K = K;
    state->n = n;
    state->m = m;
    return CLINK_OK;
}

clink_status clink_law_onset(const clink_law *law, const clink_contact_params *params,
                             double v_impact, double m_eff, clink_contact_state *state)
{
    if (law == NULL || params == NULL || state == NULL)
        return CLINK_ERR_ARG;
    if (law->onset != NULL)
        return law->onset(law, params, v_impact, m_eff, state);
    return contact_law_default_onset(law, params, v_impact, m_eff, state);
}

/* 1 if the row's rule derives the damping from the restitution e (clink_law_has_restitution_rule)
 */
int clink_law_has_restitution_rule(const clink_law *law)
{
    if (law == NULL)
        return 0;
    switch (law->rule) {
    case CLINK_RULE_K_OVER_V:
    case CLINK_RULE_TSUJI:
    case CLINK_RULE_LINEAR_XI:
    case CLINK_RULE_POURSINA:
    case CLINK_RULE_JANKOWSKI:
        return 1;
    case CLINK_RULE_HOOK: /* the Wang-Liu dashpots: plastic loading and v_ref as well */
    case CLINK_RULE_NONE:
    case CLINK_RULE_CHI:
    case CLINK_RULE_CHI_MASS:
    case CLINK_RULE_C:
    case CLINK_RULE_VISCOSITY:
        return 0;
    }
    return 0;
}

/* ---- phase changes ------------------------------------------------------------------ */

void contact_law_default_end_compression(const struct clink_law *law,
                                         const clink_contact_params *params, double delta,
                                         clink_contact_state *state)
{
    (void) law;
    (void) params;
    state->phase = CLINK_CONTACT_RESTITUTION;
    if (delta > state->delta_max)
        state->delta_max = delta;
}

void clink_law_end_compression(const clink_law *law, const clink_contact_params *params,
                               double delta, clink_contact_state *state)
{
    if (law == NULL || params == NULL || state == NULL)
        return;
    if (law->end_compression != NULL)
        law->end_compression(law, params, delta, state);
    else
        contact_law_default_end_compression(law, params, delta, state);
}

void contact_law_default_release(const struct clink_law *law, const clink_contact_params *params,
                                 double delta, clink_contact_state *state)
{
    int at_force =
        law->sep == CLINK_SEP_FORCE || (law->sep == CLINK_SEP_OPTION && params->zero_force == 1);

    /* a law separating at delta = 0 leaves nothing (a root located a hair above
       zero is zero); a zero-force separation keeps its residual penetration */
    state->delta_sep = at_force && delta > 0 ? delta : 0;
    state->phase = state->delta_sep > 0 ? CLINK_CONTACT_RELEASED : CLINK_CONTACT_OPEN;
}

void clink_law_release(const clink_law *law, const clink_contact_params *params, double delta,
                       clink_contact_state *state)
{
    if (law == NULL || params == NULL || state == NULL)
        return;
    if (law->release != NULL)
        law->release(law, params, delta, state);
    else
        contact_law_default_release(law, params, delta, state);
}
