/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tangential friction: the laws of the catalogue (include/clink/friction.h, docs/friction.md).
 *   coulomb       F_t = -mu c_d(|v_t|) F_n sign(v_t), c_d rising linearly from 0 at v0 to 1
 *                 at v1 (Ambrosio 2003);
 *   coulomb-ramp  F_t = -mu F_n sat(v_t / v1);   coulomb-tanh  F_t = -mu F_n tanh(v_t / v1);
 *   stribeck      F_t = -F_n mu(v_t) sat(v_t / v1) - sigma2 v_t,
 *                 mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta);
 *   lugre         F_t = -F_n (sigma0 z + sigma1 z') - sigma2 v_t, z' = v_t - sigma0 |v_t| z /
 *                 mu(v_t) (Canudas de Wit et al. 1995, per unit normal force);
 *   dahl          F_t = -F_n sigma0 z, z' = v_t - sigma0 |v_t| z / mu (Dahl 1968).
 * A normal force that is not positive (a tension-allowed law pulling) produces no friction;
 * a dynamic law's state still follows the slip then.
 */
#include "clink/friction.h"

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

/* the coulomb law's ranges (the messages of the present law) */
static const char *check_ambrosio(const clink_friction_params *p)
{
    if (!isfinite(p->v0) || p->v0 < 0.0)
        return "friction v0: must be a finite speed >= 0 m/s";
    if (!isfinite(p->v1) || p->v1 <= p->v0)
        return "friction v1: must be a finite speed greater than v0 (m/s)";
    return NULL;
}

/* the Stribeck curve's parameters (stribeck, lugre) */
static const char *check_stribeck_curve(const clink_friction_params *p)
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

/* the bristles' parameters (lugre, dahl) */
static const char *check_bristles(const clink_friction_params *p)
{
    if (!(p->mu > 0.0))
        return "friction mu: this law needs a kinetic coefficient > 0";
    if (isnan(p->sigma0))
        return "friction sigma0: the bristle stiffness is required by this law";
    if (!isfinite(p->sigma0) || !(p->sigma0 > 0.0))
        return "friction sigma0: the bristle stiffness must be a finite number > 0 (1/m)";
    if (!isfinite(p->sigma1) || p->sigma1 < 0.0)
        return "friction sigma1: the bristle damping must be a finite number >= 0 (s/m)";
    return NULL;
}

static const char *check_what(const clink_friction_params *p)
{
    if (p->kind < CLINK_FRICTION_AMBROSIO || p->kind > CLINK_FRICTION_DAHL)
        return "friction kind: unknown";
    if (!isfinite(p->mu) || p->mu < 0.0)
        return "friction mu: must be a finite number >= 0";
    if (p->kind == CLINK_FRICTION_AMBROSIO)
        return check_ambrosio(p);
    if (p->kind != CLINK_FRICTION_DAHL && (!isfinite(p->v1) || !(p->v1 > 0.0)))
        return "friction v1: the regularisation speed must be a finite speed > 0 m/s";
    if (p->kind == CLINK_FRICTION_STRIBECK)
        return check_stribeck_curve(p);
    if (p->kind == CLINK_FRICTION_LUGRE) {
        const char *w = check_bristles(p);
        return w ? w : check_stribeck_curve(p);
    }
    if (p->kind == CLINK_FRICTION_DAHL)
        return check_bristles(p);
    return NULL;
}

clink_status clink_friction_check(const clink_friction_params *params, char *msg, size_t msg_size)
{
    const char *what;

    if (params->kind == CLINK_FRICTION_NONE)
        return CLINK_OK;
    what = check_what(params);
    if (what == NULL)
        return CLINK_OK;
    if (msg != NULL && msg_size > 0)
        snprintf(msg, msg_size, "%s", what);
    return CLINK_ERR_RANGE;
}

double clink_friction_correction(const clink_friction_params *params, double v_t)
{
    double s = fabs(v_t);

    if (s <= params->v0)
        return 0.0;
    if (s >= params->v1)
        return 1.0;
    return (s - params->v0) / (params->v1 - params->v0);
}

/* the present law, its operations unchanged */
static double force_ambrosio(const clink_friction_params *params, double v_t, double f_n)
{
    double cd = clink_friction_correction(params, v_t);
    if (cd == 0.0)
        return 0.0;
    return v_t > 0.0 ? -params->mu * cd * f_n : params->mu * cd * f_n;
}

/* sat(x) = max(-1, min(1, x)) */
static double sat(double x)
{
    return x > 1.0 ? 1.0 : x < -1.0 ? -1.0 : x;
}

/* mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta) */
static double stribeck_mu(const clink_friction_params *p, double v)
{
    double r = fabs(v) / p->v_s;
    double e = p->delta == 2.0 ? r * r : pow(r, p->delta);
    return p->mu + (p->mu_s - p->mu) * exp(-e);
}

int clink_friction_state_count(const clink_friction_params *params)
{
    return params->kind == CLINK_FRICTION_LUGRE || params->kind == CLINK_FRICTION_DAHL;
}

double clink_friction_state_decay(const clink_friction_params *p, double v_t)
{
    if (p->kind == CLINK_FRICTION_LUGRE)
        return -p->sigma0 * fabs(v_t) / stribeck_mu(p, v_t);
    if (p->kind == CLINK_FRICTION_DAHL)
        return -p->sigma0 * fabs(v_t) / p->mu;
    return 0.0;
}

double clink_friction_force_state(const clink_friction_params *p, double v_t, double f_n, double z,
                                  double *zdot)
{
    double zd = 0.0, f = 0.0;
    int pos = f_n > 0.0;

    switch (p->kind) {
    case CLINK_FRICTION_AMBROSIO:
        f = pos ? force_ambrosio(p, v_t, f_n) : 0.0;
        break;
    case CLINK_FRICTION_RAMP:
        f = pos ? -p->mu * f_n * sat(v_t / p->v1) : 0.0;
        break;
    case CLINK_FRICTION_TANH:
        f = pos ? -p->mu * f_n * tanh(v_t / p->v1) : 0.0;
        break;
    case CLINK_FRICTION_STRIBECK:
        f = pos ? -f_n * stribeck_mu(p, v_t) * sat(v_t / p->v1) - p->sigma2 * v_t : 0.0;
        break;
    case CLINK_FRICTION_LUGRE:
        zd = v_t - p->sigma0 * fabs(v_t) * z / stribeck_mu(p, v_t);
        f = pos ? -f_n * (p->sigma0 * z + p->sigma1 * zd) - p->sigma2 * v_t : 0.0;
        break;
    case CLINK_FRICTION_DAHL:
        zd = v_t - p->sigma0 * fabs(v_t) * z / p->mu;
        f = pos ? -f_n * p->sigma0 * z : 0.0;
        break;
    default:
        break;
    }
    if (zdot)
        *zdot = zd;
    return f;
}

double clink_friction_force(const clink_friction_params *params, double v_t, double f_n)
{
    if (params->kind == CLINK_FRICTION_AMBROSIO)
        return f_n > 0.0 ? force_ambrosio(params, v_t, f_n) : 0.0;
    return clink_friction_force_state(params, v_t, f_n, 0.0, NULL);
}
