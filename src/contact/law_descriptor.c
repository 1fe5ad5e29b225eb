/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contact-parameter descriptor: one row (key, offset in clink_contact_params,
 * unit) per field of the params, so that readers of models, the command line and
 * the Python package set and list the params by name without knowing the struct
 * (clink_contact_param_count, _at, _find).
 */
#include "clink/contact.h"

#include <stddef.h>
#include <string.h>

#define PARAM_(f, unit)                                                                            \
    {                                                                                              \
#f, offsetof(clink_contact_params, f), unit                                                \
    }
static const clink_contact_param params_table[] = {
    PARAM_(K, "N/m^n"), PARAM_(n, "-"),       PARAM_(e, "-"),          PARAM_(chi, "N s/m^(m+1)"),
    PARAM_(c, "N s/m"), PARAM_(alpha, "-"),   PARAM_(v_ref, "m/s"),    PARAM_(E1, "Pa"),
    PARAM_(E2, "Pa"),   PARAM_(nu1, "-"),     PARAM_(nu2, "-"),        PARAM_(R1, "m"),
    PARAM_(R2, "m"),    PARAM_(eta1, "Pa s"), PARAM_(eta2, "Pa s"),    PARAM_(Y, "Pa"),
    PARAM_(psi, "-"),   PARAM_(xi, "-"),      PARAM_(zero_force, "-"), PARAM_(L, "m"),
};
#undef PARAM_
enum { PARAMS_COUNT = sizeof params_table / sizeof params_table[0] };

size_t clink_contact_param_count(void)
{
    return PARAMS_COUNT;
}

const clink_contact_param *clink_contact_param_at(size_t i)
{
    return i < PARAMS_COUNT ? &params_table[i] : NULL;
}

const clink_contact_param *clink_contact_param_find(const char *key)
{
    for (size_t i = 0; key != NULL && i < PARAMS_COUNT; i++)
        if (strcmp(params_table[i].key, key) == 0)
            return &params_table[i];
    return NULL;
}
