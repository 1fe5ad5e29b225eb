/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The friction-law catalogue: the table of the rows (struct contact_friction_law,
 * friction_table.h: what a law is and its hooks) in kind order, the lookups by index, name,
 * alias and kind, and the friction-parameter descriptor (key, offset in
 * clink_friction_params, unit), through which the XML reader, the command line and the
 * Python package read and list the parameters by name (include/clink/friction.h).
 * The rows and their equations are in friction_laws.c and the files CONTACT_FRICTION_ROWS
 * names; the generic code that calls their hooks is in friction.c.
 */
#include "contact/friction_table.h"

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

/* the rows in kind order (friction_table.h) */
#define ROW_REF_(sym) &sym,
const struct contact_friction_law *const contact_friction_table[CONTACT_FRICTION_LAWS] = {
    CONTACT_FRICTION_ROWS(ROW_REF_)};
#undef ROW_REF_

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
    return CONTACT_FRICTION_LAWS;
}

const clink_friction_law_info *clink_friction_law_at(size_t i)
{
    return i < CONTACT_FRICTION_LAWS ? &contact_friction_table[i]->info : NULL;
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
    for (size_t i = 0; name != NULL && i < CONTACT_FRICTION_LAWS; i++)
        if (strcmp(contact_friction_table[i]->info.name, name) == 0 ||
            has_alias(contact_friction_table[i]->info.aliases, name))
            return &contact_friction_table[i]->info;
    return NULL;
}

const clink_friction_law_info *clink_friction_law_of(clink_friction_kind kind)
{
    const struct contact_friction_law *law = contact_friction_law_of(kind);
    return law ? &law->info : NULL;
}
