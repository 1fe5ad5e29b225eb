/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_table.c: the contact element table, generated from CLINK_ELEMENT_KINDS
 * (include/clink/model.h): row i is the class of element kind i, defined in
 * src/elements/element_<name>.c; and what every class shares: the default definition from
 * its field rows.
 */
#include "elements/element.h"

#include "clink/contact.h"
#include "clink/friction.h"

#include <math.h>
#include <string.h>

#define ELEMENT_DECLARE_(NAME, name, api, ENTITY, word) extern const element_class element_##name;
CLINK_ELEMENT_KINDS(ELEMENT_DECLARE_)
#undef ELEMENT_DECLARE_

#define ELEMENT_ROW_(NAME, name, api, ENTITY, word) &element_##name,
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

void element_default(const element_class *ec, element_def *d)
{
    memset(d, 0, ec->size);
    clink_element_base *b = element_base(d);
    clink_contact_params_init(&b->params);
    b->friction = clink_default_friction_params();
    b->treatment = CLINK_CONTACT_CONTINUOUS;
    b->restitution = NAN;
    b->cookie = ec->cookie;
    /* each row's default where its value lives in the definition */
    for (int i = 0; i < ec->nfields; i++) {
        const element_field *f = &ec->fields[i];
        char *at = (char *) d + f->offset;
        switch (f->type) {
        case ELEMENT_FIELD_POINT:
            ((double *) (void *) at)[1] = f->dflt[1];
            /* fall through */
        case ELEMENT_FIELD_NUMBER:
        case ELEMENT_FIELD_ANGLE:
            ((double *) (void *) at)[0] = f->dflt[0];
            break;
        case ELEMENT_FIELD_BODY:
        case ELEMENT_FIELD_WORDS:
            *(int *) (void *) at = (int) f->dflt[0];
            break;
        case ELEMENT_FIELD_SHAPE:
            *(int *) (void *) ((char *) d + f->of) = (int) f->dflt[0];
            break;
        case ELEMENT_FIELD_BEAM: /* its first node and element count */
            *(int *) (void *) at = (int) f->dflt[0];
            *(int *) (void *) ((char *) d + f->of) = (int) f->dflt[1];
            break;
        case ELEMENT_FIELD_WEAR: {
            /* no wear (kd 0), its defaults (docs/wear.md) */
            clink_wear_def *w = (clink_wear_def *) (void *) at;
            w->modulus = NAN;
            w->wall = INFINITY;
            w->grid = 360;
            break;
        }
        case ELEMENT_FIELD_MATERIAL:
        case ELEMENT_FIELD_FILE_NUMBER:
            break;
        }
    }
}

int element_field_find(const element_class *ec, const char *attr)
{
    for (int i = 0; attr && i < ec->nfields; i++)
        if (ec->fields[i].attr && strcmp(ec->fields[i].attr, attr) == 0)
            return i;
    return -1;
}
