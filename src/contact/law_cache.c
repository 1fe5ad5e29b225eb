/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-contact constant cache of a generic law (contact_law_cache): K, the
 * exponents n and m, v_ref and the factor of the damping rule that depends on
 * neither v_impact nor m_eff, derived once per contact (contact_law_prepare), and
 * the onset from them (contact_law_onset_cached), the same state bit for bit as
 * clink_law_onset (law_onset.c): the same operations on the same values.
 */
#include "contact/law_private.h"

#include "clink/feng.h"

#include <math.h>
#include <string.h>

void contact_law_prepare(const struct clink_law *law, const clink_contact_params *params,
                         contact_law_cache *lc)
{
    double K;

    memset(lc, 0, sizeof *lc);
    if (law == NULL || params == NULL || law->onset != NULL || law->force != NULL ||
        clink_law_check(law, params, NULL, 0) != CLINK_OK ||
        clink_contact_params_stiffness(params, &K, NULL, 0) != CLINK_OK)
        return;
    lc->K = K;
    lc->n = contact_law_n_of(law, params);
    lc->m = contact_law_m_of(law, lc->n);
    lc->v_ref = CONTACT_GIVEN(params->v_ref) ? params->v_ref : CLINK_CONTACT_V_REF_DEFAULT;
    /* the factors of onset_damping's expressions, grouped as C evaluates them there */
    switch (law->rule) {
    case CLINK_RULE_K_OVER_V:
        lc->pre = law->factor(params->e) * K;
        break;
    case CLINK_RULE_TSUJI:
        lc->pre = CONTACT_GIVEN(params->alpha) ? params->alpha : clink_feng_alpha(params->e, lc->n);
        break;
    case CLINK_RULE_LINEAR_XI:
        if (!CONTACT_GIVEN(params->c))
            lc->pre = 2 * clink_contact_damping_ratio(params->e);
        break;
    case CLINK_RULE_JANKOWSKI:
        lc->pre = 2 * contact_law_jankowski_xi(params->e);
        break;
    case CLINK_RULE_NONE:
    case CLINK_RULE_HOOK:
    case CLINK_RULE_CHI:
    case CLINK_RULE_CHI_MASS:
    case CLINK_RULE_C:
    case CLINK_RULE_POURSINA:
    case CLINK_RULE_VISCOSITY:
        break;
    }
    /* the rules that read neither v_impact nor m_eff */
    lc->chi = contact_law_onset_damping(law, params, K, lc->n, 0.0, 1.0, lc->v_ref);
    lc->generic = 1;
}

/* onset_damping from the cached constants (the same operations on the same values) */
static double cached_damping(const struct clink_law *law, const clink_contact_params *params,
                             const contact_law_cache *lc, double v_impact, double m_eff, double v)
{
    switch (law->rule) {
    case CLINK_RULE_CHI_MASS:
        return params->chi * m_eff;
    case CLINK_RULE_K_OVER_V:
        return lc->pre / v;
    case CLINK_RULE_TSUJI:
    case CLINK_RULE_JANKOWSKI:
        return lc->pre * sqrt(lc->K * m_eff);
    case CLINK_RULE_LINEAR_XI:
        return CONTACT_GIVEN(params->c) ? params->c : lc->pre * sqrt(lc->K * m_eff);
    case CLINK_RULE_POURSINA:
        return clink_contact_poursina_c_opt(params->e, lc->n, lc->K, v_impact, m_eff);
    case CLINK_RULE_NONE:
    case CLINK_RULE_HOOK:
    case CLINK_RULE_CHI:
    case CLINK_RULE_C:
    case CLINK_RULE_VISCOSITY:
        break;
    }
    return lc->chi;
}

clink_status contact_law_onset_cached(const struct clink_law *law,
                                      const clink_contact_params *params,
                                      const contact_law_cache *lc, double v_impact, double m_eff,
                                      clink_contact_state *state)
{
    double chi, v;

    if (lc == NULL || !lc->generic)
        return clink_law_onset(law, params, v_impact, m_eff, state);
    if (state == NULL)
        return CLINK_ERR_ARG;
    /* contact_law_default_onset's checks in its order (the params passed theirs once) */
    if (!isfinite(v_impact) || !isfinite(m_eff))
        return CLINK_ERR_NONFINITE;
    if (v_impact < 0 || !(m_eff > 0))
        return CLINK_ERR_RANGE;
    v = v_impact > lc->v_ref ? v_impact : lc->v_ref;
    chi = cached_damping(law, params, lc, v_impact, m_eff, v);
    if (!isfinite(chi))
        return CLINK_ERR_NONFINITE;
    state->phase = CLINK_CONTACT_COMPRESSION;
    state->v_impact = v_impact;
    state->m_eff = m_eff;
    state->chi = lc->m == 0 ? 0 : chi;
    state->c = lc->m == 0 ? chi : 0;
    state->delta_max = 0;
    state->F_max = 0;
    state->delta_sep = 0;
    state->K = lc->K;
    state->n = lc->n;
    state->m = lc->m;
    return CLINK_OK;
}
