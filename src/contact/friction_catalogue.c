/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The friction-law catalogue as data: one row (clink_friction_law_info) per law, with its
 * formula, parameters, whether it can hold static friction and what happens to its state
 * at contact onset; and the friction-parameter descriptor (key, offset in
 * clink_friction_params, unit), through which the XML reader, the command line and the
 * Python package read and list the parameters by name (include/clink/friction.h).
 * The laws' equations are in friction.c; their references: Ambrosio (2003); Flores et al.
 * (2008); Armstrong-Helouvry, Dupont and Canudas de Wit (1994) for the Stribeck curve;
 * Canudas de Wit, Olsson, Astrom and Lischinsky (1995) for LuGre; Dahl (1968).
 */
#include "clink/friction.h"

#include <stddef.h>
#include <string.h>

#define PARAM_(f, unit)                                                                            \
    {                                                                                              \
#f, offsetof(clink_friction_params, f), unit                                               \
    }
static const clink_friction_param params_table[] = {
    PARAM_(mu, "-"),       PARAM_(mu_s, "-"),     PARAM_(v0, "m/s"),
    PARAM_(v1, "m/s"),     PARAM_(v_s, "m/s"),    PARAM_(delta, "-"),
    PARAM_(sigma0, "1/m"), PARAM_(sigma1, "s/m"), PARAM_(sigma2, "N s/m"),
};
#undef PARAM_
enum { PARAMS_COUNT = sizeof params_table / sizeof params_table[0] };

#define STRIBECK_MU "mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta)"
#define ONSET_RESET "z = 0 at the onset of every contact (no memory across a separation)"

static const clink_friction_law_info laws_table[] = {
    {"none", CLINK_FRICTION_NONE, "frictionless", "no friction", "F_t = 0", "", "",
     "cannot hold static friction: there is none", 0, "", ""},
    {"coulomb", CLINK_FRICTION_AMBROSIO, "ambrosio,coulomb-deadband",
     "Coulomb with Ambrosio's dead band",
     "F_t = -mu c_d(|v|) F_n sign(v), c_d = 0 below v0, 1 above v1, linear between", "mu", "v0, v1",
     "cannot hold static friction: no force at all below v0", 0, "",
     "Ambrosio (2003); Flores et al. (2008)"},
    {"coulomb-ramp", CLINK_FRICTION_RAMP, "", "Coulomb regularised by a linear ramp",
     "F_t = -mu F_n sat(v / v1)", "mu", "v1",
     "cannot hold static friction exactly: creeps at v = v1 F / (mu F_n) under a load F < mu F_n",
     0, "", "Coulomb (1785); regularised as in Ambrosio (2003)"},
    {"coulomb-tanh", CLINK_FRICTION_TANH, "", "Coulomb regularised by tanh",
     "F_t = -mu F_n tanh(v / v1)", "mu", "v1",
     "cannot hold static friction exactly: creeps at v = v1 atanh(F / (mu F_n)) under a load "
     "F < mu F_n",
     0, "", "Coulomb (1785); regularised by tanh"},
    {"stribeck", CLINK_FRICTION_STRIBECK, "stribeck-viscous",
     "Stribeck curve with viscous friction",
     "F_t = -F_n mu(v) sat(v / v1) - sigma2 v, " STRIBECK_MU, "mu, mu_s, v_s", "delta, sigma2, v1",
     "cannot hold static friction exactly: creeps at about v = v1 F / (mu_s F_n) under a load F "
     "< mu_s F_n",
     0, "", "Armstrong-Helouvry, Dupont and Canudas de Wit (1994); ramp at v1"},
    {"lugre", CLINK_FRICTION_LUGRE, "", "LuGre (dynamic, bristle state z)",
     "F_t = -F_n (sigma0 z + sigma1 z') - sigma2 v, z' = v - sigma0 |v| z / mu(v), " STRIBECK_MU,
     "mu, mu_s, v_s, sigma0", "delta, sigma1, sigma2",
     "holds static friction: a load below mu_s F_n gives the presliding displacement z = F / "
     "(sigma0 F_n)",
     1, ONSET_RESET, "Canudas de Wit, Olsson, Astrom and Lischinsky (1995), per unit normal force"},
    {"dahl", CLINK_FRICTION_DAHL, "", "Dahl (dynamic, bristle state z)",
     "F_t = -F_n sigma0 z, z' = v - sigma0 |v| z / mu", "mu, sigma0", "",
     "holds static friction only approximately: below mu F_n it has no damping, rings in the "
     "bristle spring and ratchets (drift under vibration); no Stribeck peak",
     1, ONSET_RESET, "Dahl (1968), exponent 1, per unit normal force"},
};
enum { LAWS_COUNT = sizeof laws_table / sizeof laws_table[0] };

size_t clink_friction_param_count(void)
{
    return PARAMS_COUNT;
}

const clink_friction_param *clink_friction_param_at(size_t i)
{
    return i < PARAMS_COUNT ? &params_table[i] : NULL;
}

const clink_friction_param *clink_friction_param_find(const char *key)
{
    for (size_t i = 0; key != NULL && i < PARAMS_COUNT; i++)
        if (strcmp(params_table[i].key, key) == 0)
            return &params_table[i];
    return NULL;
}

size_t clink_friction_law_count(void)
{
    return LAWS_COUNT;
}

const clink_friction_law_info *clink_friction_law_at(size_t i)
{
    return i < LAWS_COUNT ? &laws_table[i] : NULL;
}

/* nonzero if name is one of the comma-separated aliases */
static int has_alias(const char *aliases, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = aliases; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t) (end - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

const clink_friction_law_info *clink_friction_law_find(const char *name)
{
    for (size_t i = 0; name != NULL && i < LAWS_COUNT; i++)
        if (strcmp(laws_table[i].name, name) == 0 || has_alias(laws_table[i].aliases, name))
            return &laws_table[i];
    return NULL;
}

const clink_friction_law_info *clink_friction_law_of(clink_friction_kind kind)
{
    for (size_t i = 0; i < LAWS_COUNT; i++)
        if (laws_table[i].kind == kind)
            return &laws_table[i];
    return NULL;
}
