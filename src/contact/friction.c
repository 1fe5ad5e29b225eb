/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tangential friction: the generic code of the friction catalogue (include/clink/friction.h,
 * docs/friction.md). Every law is a row with hooks (friction_table.h); this file reads the
 * row of params->kind and nothing else:
 *   F_t = force(v, F_n, z, z') where F_n > 0, else 0 (a tension-allowed normal law pulling
 *         produces no friction), with z' = rate(v, z) for a dynamic law (its state follows
 *         the slip whatever F_n), 0 for a static one;
 *   d z' / d z = decay(v); the states per contact, the row's info.states;
 *   the check: mu >= 0 for every law, then the row's own ranges.
 * It also holds what several rows share: the Stribeck curve
 * mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta) (Armstrong-Helouvry, Dupont and Canudas
 * de Wit 1994) and the checks of its parameters and of the regularisation speed v1.
 */
#include "contact/friction_table.h"

#include <math.h>
#include <stdio.h>

clink_friction_params clink_default_friction_params(void)
{
    clink_friction_params p;

    p.kind = CLINK_FRICTION_NONE;
    p.mu = 0.0;
    p.v0 = 1e-4;
    p.v1 = 1e-3;
    p.mu_s = NAN;
    p.v_s = NAN;
    p.delta = 2.0;
    p.sigma0 = NAN;
    p.sigma1 = 0.0;
    p.sigma2 = 0.0;
    return p;
}

/* ---- shared by the rows ----------------------------------------------------------- */

double contact_friction_stribeck_mu(const clink_friction_params *p, double v)
{
    double r = fabs(v) / p->v_s;
    double e = p->delta == 2.0 ? r * r : pow(r, p->delta);
    return p->mu + (p->mu_s - p->mu) * exp(-e);
}

const char *contact_friction_check_v1(const clink_friction_params *p)
{
    if (!isfinite(p->v1) || !(p->v1 > 0.0))
        return "friction v1: the regularisation speed must be a finite speed > 0 m/s";
    return NULL;
}

const char *contact_friction_check_stribeck_curve(const clink_friction_params *p)
{
    if (isnan(p->mu_s))
        return "friction mu_s: the static coefficient is required by this law";
    if (!isfinite(p->mu_s) || p->mu_s < p->mu)
        return "friction mu_s: must be a finite number >= mu (the static coefficient is not "
               "below the kinetic one)";
    if (isnan(p->v_s))
        return "friction v_s: the Stribeck velocity is required by this law";
    if (!isfinite(p->v_s) || !(p->v_s > 0.0))
        return "friction v_s: the Stribeck velocity must be a finite speed > 0 m/s";
    if (!isfinite(p->delta) || !(p->delta > 0.0))
        return "friction delta: the Stribeck exponent must be a finite number > 0";
    if (!isfinite(p->sigma2) || p->sigma2 < 0.0)
        return "friction sigma2: the viscous coefficient must be a finite number >= 0 N s/m";
    return NULL;
}

/* ---- the generic code --------------------------------------------------------------- */

clink_status clink_friction_check(const clink_friction_params *params, char *msg, size_t msg_size)
{
    const struct contact_friction_law *law = contact_friction_law_of(params->kind);
    const char *what = NULL;

    if (params->kind == CLINK_FRICTION_NONE)
        return CLINK_OK;
    if (law == NULL)
        what = "friction kind: unknown";
    else if (!isfinite(params->mu) || params->mu < 0.0)
        what = "friction mu: must be a finite number >= 0";
    else if (law->check)
        what = law->check(params);
    if (what == NULL)
        return CLINK_OK;
    if (msg != NULL && msg_size > 0)
        snprintf(msg, msg_size, "%s", what);
    return CLINK_ERR_RANGE;
}

int clink_friction_state_count(const clink_friction_params *params)
{
    const struct contact_friction_law *law = contact_friction_law_of(params->kind);
    return law ? law->info.states : 0;
}

double clink_friction_state_decay(const clink_friction_params *p, double v_t)
{
    const struct contact_friction_law *law = contact_friction_law_of(p->kind);
    return law && law->decay ? law->decay(p, v_t) : 0.0;
}

double clink_friction_force_state(const clink_friction_params *p, double v_t, double f_n, double z,
                                  double *zdot)
{
    const struct contact_friction_law *law = contact_friction_law_of(p->kind);
    double zd = 0.0, f = 0.0;

    if (law != NULL) {
        if (law->rate)
            zd = law->rate(p, v_t, z);
        if (f_n > 0.0 && law->force)
            f = law->force(p, v_t, f_n, z, zd);
    }
    if (zdot)
        *zdot = zd;
    return f;
}

double clink_friction_force(const clink_friction_params *params, double v_t, double f_n)
{
    const struct contact_friction_law *law = contact_friction_law_of(params->kind);

    /* a static law: the force hook alone */
    if (law != NULL && law->rate == NULL)
        return f_n > 0.0 && law->force ? law->force(params, v_t, f_n, 0.0, 0.0) : 0.0;
    return clink_friction_force_state(params, v_t, f_n, 0.0, NULL);
}

double contact_friction_viscous(const clink_friction_params *p, double v)
{
    const struct contact_friction_law *law = contact_friction_law_of(p->kind);
    return law && law->viscous ? law->viscous(p, v) : 0.0;
}

double contact_friction_state_scale(const clink_friction_params *p)
{
    const struct contact_friction_law *law = contact_friction_law_of(p->kind);
    return law && law->state_scale ? law->state_scale(p) : 0.0;
}

int contact_friction_slope_at_rest(const clink_friction_params *p)
{
    const struct contact_friction_law *law = contact_friction_law_of(p->kind);
    return law ? law->slope_at_rest : 0;
}
