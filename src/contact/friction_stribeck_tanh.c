/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tanh-regularised Stribeck law of the friction catalogue (friction_table.h,
 * docs/friction.md):
 *
 *   F_t = -F_n mu(v) tanh(v / v1) - sigma2 v,   mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta),
 *
 * the Stribeck curve of Armstrong-Helouvry, Dupont and Canudas de Wit (1994) with its sign
 * smoothed by tanh (as coulomb-tanh smooths Coulomb's): smooth in v (the stribeck row's
 * linear ramp has a kink at |v| = v1), with slope
 * dF_t/dv = -F_n (mu'(v) tanh(v / v1) + mu(v) / (v1 cosh^2(v / v1))) - sigma2. The kinetic
 * coefficient mu_k of the usual notation is mu, the regularisation speed eps is v1.
 */
#include "contact/friction_table.h"

#include <math.h>
#include <stddef.h>

static double stribeck_tanh_force(const clink_friction_params *p, double v, double f_n, double z,
                                  double zdot)
{
    (void) z;
    (void) zdot;
    return -f_n * contact_friction_stribeck_mu(p, v) * tanh(v / p->v1) - p->sigma2 * v;
}

static double stribeck_tanh_viscous(const clink_friction_params *p, double v)
{
    return -p->sigma2 * v;
}

static const char *stribeck_tanh_check(const clink_friction_params *p)
{
    const char *w = contact_friction_check_v1(p);
    return w ? w : contact_friction_check_stribeck_curve(p);
}

const struct contact_friction_law contact_friction_stribeck_tanh = {
    .info = {"stribeck-tanh", CLINK_FRICTION_STRIBECK_TANH, "",
             "Stribeck curve regularised by tanh, with viscous friction",
             "F_t = -F_n mu(v) tanh(v / v1) - sigma2 v, "
             "mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta)",
             "mu, mu_s, v_s", "delta, sigma2, v1",
             "cannot hold static friction exactly: creeps at about v = v1 atanh(F / (mu_s F_n)) "
             "under a load F < mu_s F_n",
             0, "", "Armstrong-Helouvry, Dupont and Canudas de Wit (1994); regularised by tanh"},
    .force = stribeck_tanh_force,
    .check = stribeck_tanh_check,
    .viscous = stribeck_tanh_viscous,
    .slope_at_rest = 1,
};
