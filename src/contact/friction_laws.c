/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The friction catalogue's first laws as rows with hooks (friction_table.h, docs/friction.md):
 *   none          F_t = 0;
 *   coulomb       F_t = -mu c_d(|v|) F_n sign(v), c_d rising linearly from 0 at v0 to 1 at
 *                 v1 (Ambrosio 2003; Flores et al. 2008);
 *   coulomb-ramp  F_t = -mu F_n sat(v / v1);   coulomb-tanh  F_t = -mu F_n tanh(v / v1);
 *   stribeck      F_t = -F_n mu(v) sat(v / v1) - sigma2 v,
 *                 mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta)
 *                 (Armstrong-Helouvry, Dupont and Canudas de Wit 1994);
 *   lugre         F_t = -F_n (sigma0 z + sigma1 z') - sigma2 v, z' = v - sigma0 |v| z / mu(v)
 *                 (Canudas de Wit, Olsson, Astrom and Lischinsky 1995, per unit normal force);
 *   dahl          F_t = -F_n sigma0 z, z' = v - sigma0 |v| z / mu (Dahl 1968, exponent 1).
 * Each row's force hook is called with F_n > 0 only (friction.c gives 0 otherwise).
 */
#include "contact/friction_table.h"

#include <math.h>
#include <stddef.h>

#define STRIBECK_MU "mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta)"
#define ONSET_RESET "z = 0 at the onset of every contact (no memory across a separation)"

/* ---- none ------------------------------------------------------------------------ */

const struct contact_friction_law contact_friction_none = {
    .info = {"none", CLINK_FRICTION_NONE, "frictionless", "no friction", "F_t = 0", "", "",
             "cannot hold static friction: there is none", 0, "", ""},
};

/* ---- coulomb (Ambrosio's dead band) ------------------------------------------------- */

double clink_friction_correction(const clink_friction_params *params, double v_t)
{
    double s = fabs(v_t);

    if (s <= params->v0)
        return 0.0;
    if (s >= params->v1)
        return 1.0;
    return (s - params->v0) / (params->v1 - params->v0);
}

static double coulomb_force(const clink_friction_params *p, double v, double f_n, double z,
                            double zdot)
{
    (void) z;
    (void) zdot;
    double cd = clink_friction_correction(p, v);
    if (cd == 0.0)
        return 0.0;
    return v > 0.0 ? -p->mu * cd * f_n : p->mu * cd * f_n;
}

static const char *coulomb_check(const clink_friction_params *p)
{
    if (!isfinite(p->v0) || p->v0 < 0.0)
        return "friction v0: must be a finite speed >= 0 m/s";
    if (!isfinite(p->v1) || p->v1 <= p->v0)
        return "friction v1: must be a finite speed greater than v0 (m/s)";
    return NULL;
}

const struct contact_friction_law contact_friction_coulomb = {
    .info = {"coulomb", CLINK_FRICTION_AMBROSIO, "ambrosio,coulomb-deadband",
             "Coulomb with Ambrosio's dead band",
             "F_t = -mu c_d(|v|) F_n sign(v), c_d = 0 below v0, 1 above v1, linear between", "mu",
             "v0, v1", "cannot hold static friction: no force at all below v0", 0, "",
             "Ambrosio (2003); Flores et al. (2008)"},
    .force = coulomb_force,
    .check = coulomb_check,
};

/* ---- coulomb-ramp, coulomb-tanh ------------------------------------------------------ */

static double ramp_force(const clink_friction_params *p, double v, double f_n, double z,
                         double zdot)
{
    (void) z;
    (void) zdot;
    return -p->mu * f_n * contact_friction_sat(v / p->v1);
}

const struct contact_friction_law contact_friction_ramp = {
    .info = {"coulomb-ramp", CLINK_FRICTION_RAMP, "", "Coulomb regularised by a linear ramp",
             "F_t = -mu F_n sat(v / v1)", "mu", "v1",
             "cannot hold static friction exactly: creeps at v = v1 F / (mu F_n) under a load F < "
             "mu F_n",
             0, "", "Coulomb (1785); regularised as in Ambrosio (2003)"},
    .force = ramp_force,
    .check = contact_friction_check_v1,
};

static double tanh_force(const clink_friction_params *p, double v, double f_n, double z,
                         double zdot)
{
    (void) z;
    (void) zdot;
    return -p->mu * f_n * tanh(v / p->v1);
}

const struct contact_friction_law contact_friction_tanh = {
    .info = {"coulomb-tanh", CLINK_FRICTION_TANH, "", "Coulomb regularised by tanh",
             "F_t = -mu F_n tanh(v / v1)", "mu", "v1",
             "cannot hold static friction exactly: creeps at v = v1 atanh(F / (mu F_n)) under a "
             "load F < mu F_n",
             0, "", "Coulomb (1785); regularised by tanh"},
    .force = tanh_force,
    .check = contact_friction_check_v1,
};

/* ---- stribeck -------------------------------------------------------------------- */

static double stribeck_force(const clink_friction_params *p, double v, double f_n, double z,
                             double zdot)
{
    (void) z;
    (void) zdot;
    return -f_n * contact_friction_stribeck_mu(p, v) * contact_friction_sat(v / p->v1) -
           p->sigma2 * v;
}

/* -sigma2 v, the part of stribeck's and lugre's force that does not scale with F_n */
static double sigma2_viscous(const clink_friction_params *p, double v)
{
    return -p->sigma2 * v;
}

static const char *stribeck_check(const clink_friction_params *p)
{
    const char *w = contact_friction_check_v1(p);
    return w ? w : contact_friction_check_stribeck_curve(p);
}

const struct contact_friction_law contact_friction_stribeck = {
    .info = {"stribeck", CLINK_FRICTION_STRIBECK, "stribeck-viscous",
             "Stribeck curve with viscous friction",
             "F_t = -F_n mu(v) sat(v / v1) - sigma2 v, " STRIBECK_MU, "mu, mu_s, v_s",
             "delta, sigma2, v1",
             "cannot hold static friction exactly: creeps at about v = v1 F / (mu_s F_n) under a "
             "load F < mu_s F_n",
             0, "", "Armstrong-Helouvry, Dupont and Canudas de Wit (1994); ramp at v1"},
    .force = stribeck_force,
    .check = stribeck_check,
    .viscous = sigma2_viscous,
    .slope_at_rest = 1,
};

/* ---- lugre, dahl: the bristle state z --------------------------------------------- */

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

/* the steady deflection's size max(mu, mu_s) / sigma0 (m), 0 without sigma0 */
static double bristle_scale(const clink_friction_params *p)
{
    if (!(p->sigma0 > 0.0))
        return 0.0;
    double mu = p->mu_s > p->mu ? p->mu_s : p->mu;
    return mu / p->sigma0;
}

static double lugre_rate(const clink_friction_params *p, double v, double z)
{
    return v - p->sigma0 * fabs(v) * z / contact_friction_stribeck_mu(p, v);
}

static double lugre_decay(const clink_friction_params *p, double v)
{
    return -p->sigma0 * fabs(v) / contact_friction_stribeck_mu(p, v);
}

static double lugre_force(const clink_friction_params *p, double v, double f_n, double z,
                          double zdot)
{
    return -f_n * (p->sigma0 * z + p->sigma1 * zdot) - p->sigma2 * v;
}

static const char *lugre_check(const clink_friction_params *p)
{
    const char *w = contact_friction_check_v1(p);
    if (w == NULL)
        w = check_bristles(p);
    return w ? w : contact_friction_check_stribeck_curve(p);
}

const struct contact_friction_law contact_friction_lugre = {
    .info = {"lugre", CLINK_FRICTION_LUGRE, "", "LuGre (dynamic, bristle state z)",
             "F_t = -F_n (sigma0 z + sigma1 z') - sigma2 v, z' = v - sigma0 |v| z / "
             "mu(v), " STRIBECK_MU,
             "mu, mu_s, v_s, sigma0", "delta, sigma1, sigma2",
             "holds static friction: a load below mu_s F_n gives the presliding displacement z = "
             "F / (sigma0 F_n)",
             1, ONSET_RESET,
             "Canudas de Wit, Olsson, Astrom and Lischinsky (1995), per unit normal force"},
    .force = lugre_force,
    .rate = lugre_rate,
    .decay = lugre_decay,
    .state_scale = bristle_scale,
    .check = lugre_check,
    .viscous = sigma2_viscous,
};

static double dahl_rate(const clink_friction_params *p, double v, double z)
{
    return v - p->sigma0 * fabs(v) * z / p->mu;
}

static double dahl_decay(const clink_friction_params *p, double v)
{
    return -p->sigma0 * fabs(v) / p->mu;
}

static double dahl_force(const clink_friction_params *p, double v, double f_n, double z,
                         double zdot)
{
    (void) v;
    (void) zdot;
    return -f_n * p->sigma0 * z;
}

const struct contact_friction_law contact_friction_dahl = {
    .info = {"dahl", CLINK_FRICTION_DAHL, "", "Dahl (dynamic, bristle state z)",
             "F_t = -F_n sigma0 z, z' = v - sigma0 |v| z / mu", "mu, sigma0", "",
             "holds static friction only approximately: below mu F_n it has no damping, rings "
             "in the bristle spring and ratchets (drift under vibration); no Stribeck peak",
             1, ONSET_RESET, "Dahl (1968), exponent 1, per unit normal force"},
    .force = dahl_force,
    .rate = dahl_rate,
    .decay = dahl_decay,
    .state_scale = bristle_scale,
    .check = check_bristles,
};
