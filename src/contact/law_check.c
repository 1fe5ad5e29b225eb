/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The checks of a law's params (clink_law_check): the stiffness K, given or from the
 * materials, and the exponent n against the row; what the row's damping rule needs
 * (chi, c, e, alpha or the viscosities eta1, eta2 with E1 and nu1); the options every
 * law accepts (v_ref, zero_force). Each problem is one line "KEY: problem; valid
 * range" of the message (contact_law_complain).
 */
#include "contact/law_private.h"
#include "contact/material.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

clink_status contact_law_complain(char *msg, size_t msg_size, const char *fmt, ...)
{
    va_list ap;
    size_t used;

    if (msg == NULL || msg_size == 0)
        return CLINK_ERR_RANGE;
    used = 0;
    while (used < msg_size && msg[used] != '\0')
        used++;
    if (used >= msg_size - 1)
        return CLINK_ERR_RANGE;
    if (used > 0) {
        msg[used++] = '\n';
        msg[used] = '\0';
    }
    va_start(ap, fmt);
    vsnprintf(msg + used, msg_size - used, fmt, ap);
    va_end(ap);
    return CLINK_ERR_RANGE;
}

static int e_ok(double e)
{
    return e > 0 && e <= 1;
}

static void need_e(const struct clink_law *law, const clink_contact_params *params, int *bad,
                   char *msg, size_t msg_size, const char *alternative)
{
    if (!CONTACT_GIVEN(params->e)) {
        contact_law_complain(msg, msg_size,
                             "e: missing; law '%s' needs the restitution e in (0, 1]%s", law->name,
                             alternative);
        *bad = 1;
    } else if (!e_ok(params->e)) {
        contact_law_complain(msg, msg_size, "e: %g is out of range; 0 < e <= 1", params->e);
        *bad = 1;
    }
}

static void need_nonneg(const struct clink_law *law, const char *key, double value,
                        const char *unit, int *bad, char *msg, size_t msg_size,
                        const char *alternative)
{
    if (!CONTACT_GIVEN(value)) {
        contact_law_complain(msg, msg_size, "%s: missing; law '%s' needs %s >= 0 (%s)%s", key,
                             law->name, key, unit, alternative);
        *bad = 1;
    } else if (!(value >= 0) || !isfinite(value)) {
        contact_law_complain(msg, msg_size, "%s: %g is out of range; %s >= 0 (%s)", key, value, key,
                             unit);
        *bad = 1;
    }
}

/* K (given or from materials) and the exponent n; 1 if anything is wrong, with the complaint */
static int check_stiffness(const struct clink_law *law, const clink_contact_params *params,
                           char *msg, size_t msg_size)
{
    int bad = 0;
    double K, n;
    char kmsg[256];

    /* stiffness */
    kmsg[0] = '\0';
    if (clink_contact_params_stiffness(params, &K, kmsg, sizeof(kmsg)) != CLINK_OK) {
        contact_law_complain(msg, msg_size, "%s", kmsg);
        bad = 1;
    }

    /* stiffness exponent */
    if (CONTACT_GIVEN(params->n)) {
        if (!law->n_free) {
            if (params->n != law->n) {
                contact_law_complain(
                    msg, msg_size, "n: %g is out of range; law '%s' has the fixed exponent n = %g",
                    params->n, law->name, law->n);
                bad = 1;
            }
        } else if (!(params->n >= 1) || !(params->n <= law->n_max) || !isfinite(params->n)) {
            if (isinf(law->n_max))
                contact_law_complain(msg, msg_size, "n: %g is out of range; n >= 1", params->n);
            else
                contact_law_complain(msg, msg_size, "n: %g is out of range; 1 <= n <= %g",
                                     params->n, law->n_max);
            bad = 1;
        }
    }
    n = contact_law_n_of(law, params);
    if (!CONTACT_GIVEN(params->K) && n != 1.5 && CONTACT_GIVEN(params->E1)) {
        contact_law_complain(
            msg, msg_size, "K: Hertz stiffness from materials needs n = 3/2 (n is %g); give K", n);
        bad = 1;
    }

    return bad;
}

/* the viscosities eta1, eta2 with E1 and nu1 from which the viscosity rule derives chi */
static int check_viscosities(const clink_contact_params *params, char *msg, size_t msg_size)
{
    int bad = 0;

    if (!(params->eta1 >= 0) || !isfinite(params->eta1)) {
        contact_law_complain(msg, msg_size, "eta1: %g is out of range; eta1 >= 0 (Pa s)",
                             params->eta1);
        bad = 1;
    }
    if (!(params->eta2 >= 0) || !isfinite(params->eta2) ||
        !(3 * params->eta2 + 2 * params->eta1 > 0)) {
        contact_law_complain(msg, msg_size,
                             "eta2: %g is out of range; eta2 >= 0 (Pa s), 3 eta2 + 2 eta1 > 0",
                             params->eta2);
        bad = 1;
    }
    if (!contact_modulus_ok(params->E1)) {
        contact_law_complain(msg, msg_size, "E1: %g is out of range; E1 > 0 (Pa)", params->E1);
        bad = 1;
    }
    /* the rule for nu, and nu1 > 0: the damping divides by nu1^2 */
    if (!(contact_poisson_ok(params->nu1) && params->nu1 > 0)) {
        contact_law_complain(msg, msg_size, "nu1: %g is out of range; 0 < nu1 < 0.5", params->nu1);
        bad = 1;
    }
    return bad;
}

/* what the law's damping rule needs (chi, c, e, alpha or the viscosities) */
static int check_damping(const struct clink_law *law, const clink_contact_params *params, char *msg,
                         size_t msg_size)
{
    int bad = 0;

    switch (law->rule) {
    case CLINK_RULE_NONE:
    case CLINK_RULE_HOOK:
        break;
    case CLINK_RULE_CHI:
        need_nonneg(law, "chi", params->chi, "N s/m^(m+1)", &bad, msg, msg_size, "");
        break;
    case CLINK_RULE_CHI_MASS:
        need_nonneg(law, "chi", params->chi, "1/(m s)", &bad, msg, msg_size, "");
        break;
    case CLINK_RULE_K_OVER_V:
    case CLINK_RULE_JANKOWSKI:
    case CLINK_RULE_POURSINA:
        need_e(law, params, &bad, msg, msg_size, "");
        break;
    case CLINK_RULE_TSUJI:
        if (CONTACT_GIVEN(params->alpha)) {
            if (!(params->alpha >= 0) || !isfinite(params->alpha)) {
                contact_law_complain(msg, msg_size, "alpha: %g is out of range; alpha >= 0",
                                     params->alpha);
                bad = 1;
            }
        } else {
            need_e(law, params, &bad, msg, msg_size, " (or alpha >= 0)");
        }
        break;
    case CLINK_RULE_LINEAR_XI:
        if (CONTACT_GIVEN(params->c))
            need_nonneg(law, "c", params->c, "N s/m", &bad, msg, msg_size, "");
        else
            need_e(law, params, &bad, msg, msg_size, " (or the damping c >= 0, N s/m)");
        break;
    case CLINK_RULE_C:
        need_nonneg(law, "c", params->c, "N s/m", &bad, msg, msg_size, "");
        break;
    case CLINK_RULE_VISCOSITY:
        if (CONTACT_GIVEN(params->chi)) {
            need_nonneg(law, "chi", params->chi, "N s/m^1.5", &bad, msg, msg_size, "");
        } else if (!CONTACT_GIVEN(params->eta1) && !CONTACT_GIVEN(params->eta2)) {
            contact_law_complain(msg, msg_size,
                                 "chi: missing; law '%s' needs chi >= 0 (N s/m^1.5) or the "
                                 "viscosities eta1, eta2 (Pa s) with E1 (Pa) and nu1",
                                 law->name);
            bad = 1;
        } else {
            bad |= check_viscosities(params, msg, msg_size);
        }
        break;
    }

    return bad;
}

/* the options every law accepts: v_ref and zero_force */
static int check_options(const clink_contact_params *params, char *msg, size_t msg_size)
{
    int bad = 0;

    if (CONTACT_GIVEN(params->v_ref) && !(params->v_ref > 0 && isfinite(params->v_ref))) {
        contact_law_complain(msg, msg_size, "v_ref: %g is out of range; v_ref > 0 (m/s)",
                             params->v_ref);
        bad = 1;
    }
    if (CONTACT_GIVEN(params->zero_force) && params->zero_force != 0 && params->zero_force != 1) {
        contact_law_complain(msg, msg_size, "zero_force: %g is out of range; 0 or 1",
                             params->zero_force);
        bad = 1;
    }
    return bad;
}

clink_status contact_law_default_check(const struct clink_law *law,
                                       const clink_contact_params *params, char *msg,
                                       size_t msg_size)
{
    int bad = check_stiffness(law, params, msg, msg_size);

    bad |= check_damping(law, params, msg, msg_size);
    bad |= check_options(params, msg, msg_size);
    return bad ? CLINK_ERR_RANGE : CLINK_OK;
}

clink_status clink_law_check(const clink_law *law, const clink_contact_params *params, char *msg,
                             size_t msg_size)
{
    if (msg != NULL && msg_size > 0)
        msg[0] = '\0';
    if (law == NULL || params == NULL) {
        if (msg != NULL && msg_size > 0)
            snprintf(msg, msg_size, "law or params is NULL");
        return CLINK_ERR_ARG;
    }
    if (law->check != NULL)
        return law->check(law, params, msg, msg_size);
    return contact_law_default_check(law, params, msg, msg_size);
}
