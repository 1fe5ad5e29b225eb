/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_pair.c: the contact pair, shape_a on body_a against shape_b on body_b
 * (circles, capsules, a line as shape_a only), one contact.
 *
 * Stiffness from materials (Alves et al. 2015, Eqs. 3-4):
 *   K = 4 / (3 (s1 + s2)) sqrt(R*),  1/R* = 1/R1 + 1/R2,  s_k = (1 - nu_k^2) / E_k,
 * R_k the radius of shape k (INFINITY for a line; a capsule's radius as a sphere's),
 * unless params.R1, R2 are given.
 */
#include "elements/element.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static element_common pair_common(element_def *u)
{
    clink_contact_pair_def *d = &u->pair;
    element_common c = {&d->name,      &d->law,         &d->params, &d->friction,
                        &d->treatment, &d->restitution, &d->cookie};
    return c;
}

static void pair_bodies(const element_def *u, int *a, int *b)
{
    *a = u->pair.body_a;
    *b = u->pair.body_b;
}

/* checks a shape; normalises a line's normal in *s; which: "shape_a" / "shape_b" */
static clink_status check_shape(const char *name, const char *which, clink_shape_def *s, char *msg,
                                size_t size)
{
    if ((int) s->type < 0 || s->type >= CLINK_SHAPE_TYPE_COUNT_)
        return snprintf(msg, size, "contact pair '%s': %s type %d is not a shape type", name, which,
                        (int) s->type),
               CLINK_ERR_RANGE;
    if (!element_finite2(s->a) || !element_finite2(s->b) || !element_finite2(s->normal) ||
        !isfinite(s->radius))
        return snprintf(msg, size, "contact pair '%s': %s has a non-finite value", name, which),
               CLINK_ERR_RANGE;
    switch (s->type) {
    case CLINK_SHAPE_CIRCLE:
    case CLINK_SHAPE_CAPSULE:
        if (!(s->radius > 0.0))
            return snprintf(msg, size,
                            "contact pair '%s': %s radius %g m is out of range; radius > 0", name,
                            which, s->radius),
                   CLINK_ERR_RANGE;
        if (s->type == CLINK_SHAPE_CAPSULE && s->a[0] == s->b[0] && s->a[1] == s->b[1])
            return snprintf(msg, size, "contact pair '%s': %s capsule ends coincide; use a circle",
                            name, which),
                   CLINK_ERR_RANGE;
        return CLINK_OK;
    case CLINK_SHAPE_LINE: {
        double l = hypot(s->normal[0], s->normal[1]);
        if (!(l > 0.0))
            return snprintf(msg, size,
                            "contact pair '%s': %s line normal is zero; give its outward normal",
                            name, which),
                   CLINK_ERR_RANGE;
        s->normal[0] /= l;
        s->normal[1] /= l;
        return CLINK_OK;
    }
    case CLINK_SHAPE_BORE:
        return snprintf(msg, size,
                        "contact pair '%s': %s is a bore, which only a clearance joint has "
                        "(clink_model_builder_add_clearance_joint)",
                        name, which),
               CLINK_ERR_ARG;
    case CLINK_SHAPE_TYPE_COUNT_:
        break;
    }
    return CLINK_ERR_INTERNAL;
}

static clink_status pair_check(element_def *u, const char *name, char *msg, size_t size)
{
    clink_contact_pair_def *d = &u->pair;
    clink_status st = check_shape(name, "shape_a", &d->shape_a, msg, size);
    if (st == CLINK_OK)
        st = check_shape(name, "shape_b", &d->shape_b, msg, size);
    if (st != CLINK_OK)
        return st;
    if (d->shape_a.type == CLINK_SHAPE_LINE && d->shape_b.type == CLINK_SHAPE_LINE)
        return snprintf(msg, size,
                        "contact pair '%s': two lines are not a contact geometry (use a circle "
                        "or capsule)",
                        name),
               CLINK_ERR_MODEL;
    if (d->shape_b.type == CLINK_SHAPE_LINE)
        return snprintf(msg, size,
                        "contact pair '%s': a line may only be shape_a (swap the bodies)", name),
               CLINK_ERR_MODEL;
    return CLINK_OK;
}

static double shape_radius(const clink_shape_def *s)
{
    return s->type == CLINK_SHAPE_LINE ? INFINITY : s->radius;
}

static element_stiffness pair_radii(const element_def *u, double R[4])
{
    R[0] = R[2] = shape_radius(&u->pair.shape_a);
    R[1] = R[3] = shape_radius(&u->pair.shape_b);
    return ELEMENT_STIFFNESS_EXTERNAL;
}

static int pair_ncontacts(const element_def *u)
{
    (void) u;
    return 1;
}

static void pair_expand(const element_def *u, element_contact *out)
{
    out->body_a = u->pair.body_a;
    out->body_b = u->pair.body_b;
    out->sa = u->pair.shape_a;
    out->sb = u->pair.shape_b;
}

const element_class element_pair = {
    .kind = CLINK_ELEMENT_PAIR,
    .name = "pair",
    .word = "contact pair",
    .unnamed = "pair",
    .entity = CLINK_ENTITY_CONTACT_PAIR,
    .cookie = CLINK_DEF_COOKIE + 6,
    .common = pair_common,
    .bodies = pair_bodies,
    .check = pair_check,
    .radii = pair_radii,
    .k_missing = NULL,
    .ncontacts = pair_ncontacts,
    .expand = pair_expand,
    .noutputs = 0,
};
