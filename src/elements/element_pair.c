/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_pair.c: the contact pair, shape_a on body_a against shape_b on body_b (any
 * pair of the registry in src/kinematics/contact_shapes.h: circles, capsules, a line as
 * shape_a, polygons, arcs and cam profiles against circles, a profile against a line), one
 * contact, or one per vertex of a polygon against a line or a polygon
 * (src/kinematics/contact_polygon.c). A circle against a profile or a concave arc must be
 * smaller than the smallest concave radius of curvature it rolls in.
 *
 * Stiffness from materials (Alves et al. 2015, Eqs. 3-4):
 *   K = 4 / (3 (s1 + s2)) sqrt(R*),  1/R* = 1/R1 + 1/R2,  s_k = (1 - nu_k^2) / E_k,
 * R_k the radius of shape k (INFINITY for a line; a capsule's radius as a sphere's),
 * unless params.R1, R2 are given. Two flat shapes (a line or a polygon's edge against a
 * polygon's vertex) have no Hertz radius: params.K must be given.
 */
#include "elements/element.h"
#include "kinematics/contact_profile.h"
#include "kinematics/contact_shapes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void pair_bodies(const element_def *u, int *a, int *b)
{
    *a = u->pair.body_a;
    *b = u->pair.body_b;
}

/* checks a shape by its row of the shape table; normalises it in *s; which: "shape_a" */
static clink_status check_shape(const char *name, const char *which, clink_shape_def *s, char *msg,
                                size_t size)
{
    const kinematics_shape_class *sc = kinematics_shape_class_of(s->type);
    if (!sc)
        return snprintf(msg, size, "contact pair '%s': %s type %d is not a shape type", name, which,
                        (int) s->type),
               CLINK_ERR_RANGE;
    if (!element_finite2(s->a) || !element_finite2(s->b) || !element_finite2(s->normal) ||
        !isfinite(s->radius))
        return snprintf(msg, size, "contact pair '%s': %s has a non-finite value", name, which),
               CLINK_ERR_RANGE;
    char why[200];
    clink_status st = CLINK_OK;
    if (sc->check(s, why, sizeof why, &st) != 0)
        return snprintf(msg, size, "contact pair '%s': %s %s", name, which, why), st;
    return CLINK_OK;
}

static double shape_radius(const clink_shape_def *s)
{
    return kinematics_shape_class_of(s->type)->radius(s);
}

/* a roller must fit the hollows it rolls in: its radius below the smallest concave radius
   of curvature of a profile's surface, below a concave arc's radius */
static clink_status check_fit(const char *name, const clink_contact_pair_def *d, char *msg,
                              size_t size)
{
    double r = d->shape_b.radius, concave = INFINITY, convex;
    if (d->shape_b.type != CLINK_SHAPE_CIRCLE)
        return CLINK_OK;
    if (d->shape_a.type == CLINK_SHAPE_PROFILE) {
        kinematics_shape s;
        kinematics_shape_of(&d->shape_a, 0, &s);
        kinematics_profile_radii(&s, &convex, &concave);
    } else if (d->shape_a.type == CLINK_SHAPE_ARC && d->shape_a.concave) {
        concave = d->shape_a.radius;
    }
    if (r < concave)
        return CLINK_OK;
    return snprintf(msg, size,
                    "contact pair '%s': the circle's radius %g m is not below the %s's smallest "
                    "concave radius of curvature %g m: it cannot roll in its hollow (undercut)",
                    name, r, kinematics_shape_class_of(d->shape_a.type)->name, concave),
           CLINK_ERR_RANGE;
}

static clink_status pair_check(element_def *u, const char *name, char *msg, size_t size)
{
    clink_contact_pair_def *d = &u->pair;
    clink_status st = check_shape(name, "shape_a", &d->shape_a, msg, size);
    if (st == CLINK_OK)
        st = check_shape(name, "shape_b", &d->shape_b, msg, size);
    if (st != CLINK_OK)
        return st;
    clink_shape_type ta = d->shape_a.type, tb = d->shape_b.type;
    if (kinematics_pair_of(ta, tb) && d->treatment == CLINK_CONTACT_CONTINUOUS &&
        isnan(d->params.K) && isinf(shape_radius(&d->shape_a)) && isinf(shape_radius(&d->shape_b)))
        return snprintf(msg, size,
                        "contact pair '%s': a %s's vertex against a %s has no Hertz radius; give "
                        "the stiffness K",
                        name, kinematics_shape_class_of(tb)->name,
                        ta == CLINK_SHAPE_LINE ? "line" : "polygon's edge"),
               CLINK_ERR_ARG;
    if (kinematics_pair_of(ta, tb))
        return check_fit(name, d, msg, size);
    if (ta == CLINK_SHAPE_LINE && tb == CLINK_SHAPE_LINE)
        return snprintf(msg, size,
                        "contact pair '%s': two lines are not a contact geometry (use a circle "
                        "or capsule)",
                        name),
               CLINK_ERR_MODEL;
    if (tb == CLINK_SHAPE_LINE)
        return snprintf(msg, size,
                        "contact pair '%s': a line may only be shape_a (swap the bodies)", name),
               CLINK_ERR_MODEL;
    const char *na = kinematics_shape_class_of(ta)->name, *nb = kinematics_shape_class_of(tb)->name;
    if (kinematics_pair_of(tb, ta))
        return snprintf(msg, size,
                        "contact pair '%s': a %s against a %s is given as shape_a %s, shape_b %s "
                        "(swap the bodies)",
                        name, na, nb, nb, na),
               CLINK_ERR_MODEL;
    return snprintf(msg, size, "contact pair '%s': a %s against a %s is not a contact geometry",
                    name, na, nb),
           CLINK_ERR_MODEL;
}

/* a vertex or a line on a flat side has no Hertz radius: K must be given */
static element_stiffness pair_radii(const element_def *u, double R[4])
{
    R[0] = R[2] = shape_radius(&u->pair.shape_a);
    R[1] = R[3] = shape_radius(&u->pair.shape_b);
    if (isinf(R[0]) && isinf(R[1]))
        return ELEMENT_STIFFNESS_GIVEN;
    return ELEMENT_STIFFNESS_EXTERNAL;
}

static int pair_ncontacts(const element_def *u)
{
    return kinematics_pair_npoints(&u->pair.shape_a, &u->pair.shape_b);
}

/* one contact per pair, or one per vertex (named "vertexJ", "a_vertexJ", "b_vertexJ") */
static void pair_expand(const element_def *u, element_contact *out)
{
    const clink_contact_pair_def *d = &u->pair;
    int n = pair_ncontacts(u);
    for (int i = 0; i < n; i++) {
        element_contact *c = &out[i];
        c->body_a = d->body_a;
        c->body_b = d->body_b;
        c->sa = d->shape_a;
        c->sb = d->shape_b;
        kinematics_pair_point(&d->shape_a, &d->shape_b, i, &c->vertex_a, &c->vertex_b);
        int both = d->shape_a.type == CLINK_SHAPE_POLYGON && d->shape_b.type == CLINK_SHAPE_POLYGON;
        if (c->vertex_a > 0 || c->vertex_b > 0)
            snprintf(c->part, sizeof c->part, "%svertex%d",
                     both ? (c->vertex_a > 0 ? "a_" : "b_") : "",
                     c->vertex_a > 0 ? c->vertex_a : c->vertex_b);
    }
}

/* the definition's fields: <pair name> holding two shape elements (the shape table's, each
   with body= and material=) in either order; pair_file puts them in the registry's */
#define PAIR_AT_(m) offsetof(clink_contact_pair_def, m)
static const element_field pair_fields[] = {
    {.type = ELEMENT_FIELD_SHAPE,
     .offset = PAIR_AT_(shape_a),
     .slot = 0,
     .of = PAIR_AT_(body_a),
     .dflt = {0}},
    {.type = ELEMENT_FIELD_SHAPE,
     .offset = PAIR_AT_(shape_b),
     .slot = 1,
     .of = PAIR_AT_(body_b),
     .dflt = {1}},
};

/* the API takes a pair in the registry's order (a line first, a polygon before a circle):
   the file may give the shapes in either, so they swap with their bodies and materials */
static clink_status pair_file(element_def *u, element_file *f, char *msg, size_t size)
{
    clink_contact_pair_def *d = &u->pair;
    (void) msg;
    (void) size;
    int swap = !kinematics_pair_of(d->shape_a.type, d->shape_b.type) &&
               kinematics_pair_of(d->shape_b.type, d->shape_a.type);
    if (d->shape_b.type == CLINK_SHAPE_LINE && d->shape_a.type != CLINK_SHAPE_LINE)
        swap = 1;
    if (swap) {
        clink_shape_def s = d->shape_a;
        int b = d->body_a, m = f->material[0];
        d->shape_a = d->shape_b;
        d->shape_b = s;
        d->body_a = d->body_b;
        d->body_b = b;
        f->material[0] = f->material[1];
        f->material[1] = m;
    }
    return CLINK_OK;
}

/* a cam (a profile shape on either side): the first separation of each turn of its body */
static int pair_output_count(const element_def *u)
{
    const clink_contact_pair_def *d = &u->pair;
    return d->shape_a.type == CLINK_SHAPE_PROFILE || d->shape_b.type == CLINK_SHAPE_PROFILE;
}

static const char *const pair_output_names[] = {"first_separation"};
static const char *const pair_output_units[] = {"s"};

/* the cam's output comes from the simulation's events (turn_output) */
static void pair_outputs(const element_def *u, const double qa[3], const double qb[3],
                         double *values)
{
    (void) qa;
    (void) qb;
    if (pair_output_count(u))
        values[0] = NAN;
}

const element_class element_pair = {
    .kind = CLINK_ELEMENT_PAIR,
    .name = "pair",
    .word = "contact pair",
    .unnamed = "pair",
    .entity = CLINK_ENTITY_CONTACT_PAIR,
    .cookie = CLINK_DEF_COOKIE + 6,
    .size = sizeof(clink_contact_pair_def),
    .fields = pair_fields,
    .nfields = sizeof pair_fields / sizeof pair_fields[0],
    .section = "contacts",
    .file = pair_file,
    .bodies = pair_bodies,
    .check = pair_check,
    .radii = pair_radii,
    .k_missing = NULL,
    .ncontacts = pair_ncontacts,
    .expand = pair_expand,
    .noutputs = 1,
    .output_names = pair_output_names,
    .output_units = pair_output_units,
    .outputs = pair_outputs,
    .output_count = pair_output_count,
    .turn_output = 1,
};
