/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_table.c: the contact element table, generated from CLINK_ELEMENT_KINDS
 * (include/clink/model.h): row i is the class of element kind i, defined in
 * src/elements/element_<name>.c.
 */
#include "elements/element.h"

#include <math.h>
#include <string.h>

#define ELEMENT_DECLARE_(NAME, name, entity) extern const element_class element_##name;
CLINK_ELEMENT_KINDS(ELEMENT_DECLARE_)
#undef ELEMENT_DECLARE_

#define ELEMENT_ROW_(NAME, name, entity) &element_##name,
static const element_class *const element_table[CLINK_ELEMENT_KIND_COUNT_] = {
    CLINK_ELEMENT_KINDS(ELEMENT_ROW_)};
#undef ELEMENT_ROW_

const element_class *element_class_of(clink_element_kind kind)
{
    if ((int) kind < 0 || kind >= CLINK_ELEMENT_KIND_COUNT_)
        return NULL;
    return element_table[kind];
}

const element_class *element_class_find(const char *name)
{
    for (int i = 0; name && i < CLINK_ELEMENT_KIND_COUNT_; i++)
        if (strcmp(element_table[i]->name, name) == 0)
            return element_table[i];
    return NULL;
}

const element_class *element_class_of_entity(clink_entity entity)
{
    for (int i = 0; i < CLINK_ELEMENT_KIND_COUNT_; i++)
        if (element_table[i]->entity == entity)
            return element_table[i];
    return NULL;
}

int element_finite2(const double *x)
{
    return isfinite(x[0]) && isfinite(x[1]);
}

void element_world_point(const double *q, int b, const double s[2], double out[2])
{
    const double *p = b > 0 ? q + 3 * (b - 1) : NULL;
    double c = p ? cos(p[2]) : 1.0, sn = p ? sin(p[2]) : 0.0;
    out[0] = (p ? p[0] : 0.0) + c * s[0] - sn * s[1];
    out[1] = (p ? p[1] : 0.0) + sn * s[0] + c * s[1];
}
