/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_beam_contact.c: a circle against a beam's centreline (docs/flexible.md, "Contact on
 * the centreline"): one contact per element of the beam, NAME.e0 .. NAME.e{N-1}, between the
 * circle (body B) and the segment from node i (body A) to node i + 1 (the contact's third
 * body), swollen by the beam's half thickness h. The geometry, its regions and derivatives
 * are src/kinematics/contact_segment.c:
 *   delta = R + h - |c - p|,  p = x_i + s (x_{i+1} - x_i),  s the closest point's parameter,
 * the force F n on the circle and -(1 - s) F n, -s F n on the two nodes (the beam's linear
 * interpolation of positions).
 *
 * Stiffness from materials: Hertz's of two cylinders of radii h (E1, nu1: the beam's side)
 * and R (E2, nu2: the circle's), K = 4 / (3 (s1 + s2)) sqrt(R*), when both are positive;
 * else params.K must be given. Frictionless and continuous only: the friction of a segment
 * contact (the slip of the beam's surface, which turns with the cross-sections) and the
 * impulse treatment's solve through three bodies are not written.
 */
#include "elements/element.h"

#include <math.h>
#include <stdio.h>

enum { BEAM_CONTACT_MAX_ELEMENTS = 10000 };

/* the circle's body as B, the beam's last node as A: checking both exist checks every node
   (node_first >= 1 is the class's check) */
static void beam_contact_bodies(const element_def *u, int *a, int *b)
{
    *a = u->beam_contact.node_first + u->beam_contact.elements;
    *b = u->beam_contact.body;
}

static clink_status beam_contact_check(element_def *u, const char *name, char *msg, size_t size)
{
    clink_beam_contact_def *d = &u->beam_contact;
    if (!element_finite2(d->point) || !isfinite(d->radius) || !isfinite(d->half_thickness))
        return snprintf(msg, size, "beam contact '%s': non-finite point, radius or half_thickness",
                        name),
               CLINK_ERR_RANGE;
    if (!(d->radius >= 0.0) || !(d->half_thickness >= 0.0))
        return snprintf(msg, size,
                        "beam contact '%s': radius %g m and half_thickness %g m must be >= 0", name,
                        d->radius, d->half_thickness),
               CLINK_ERR_RANGE;
    if (d->elements < 1 || d->elements > BEAM_CONTACT_MAX_ELEMENTS)
        return snprintf(msg, size, "beam contact '%s': elements = %d must be in 1..%d", name,
                        d->elements, BEAM_CONTACT_MAX_ELEMENTS),
               CLINK_ERR_RANGE;
    if (d->node_first < 1)
        return snprintf(msg, size,
                        "beam contact '%s': the first node %d must be a body (>= 1, not the "
                        "ground)",
                        name, d->node_first),
               CLINK_ERR_RANGE;
    if (d->body >= d->node_first && d->body <= d->node_first + d->elements)
        return snprintf(msg, size,
                        "beam contact '%s': the circle's body %d is one of the beam's nodes "
                        "%d..%d",
                        name, d->body, d->node_first, d->node_first + d->elements),
               CLINK_ERR_RANGE;
    if (d->friction.kind != CLINK_FRICTION_NONE || d->friction.mu > 0.0)
        return snprintf(msg, size,
                        "beam contact '%s': friction is not available (frictionless only)", name),
               CLINK_ERR_MODEL;
    if (d->treatment != CLINK_CONTACT_CONTINUOUS)
        return snprintf(msg, size,
                        "beam contact '%s': the impulse treatment is not available (continuous "
                        "only)",
                        name),
               CLINK_ERR_MODEL;
    return CLINK_OK;
}

static element_stiffness beam_contact_radii(const element_def *u, double R[4])
{
    const clink_beam_contact_def *d = &u->beam_contact;
    R[0] = R[2] = d->half_thickness;
    R[1] = R[3] = d->radius;
    return d->half_thickness > 0.0 && d->radius > 0.0 ? ELEMENT_STIFFNESS_EXTERNAL
                                                      : ELEMENT_STIFFNESS_GIVEN;
}

static int beam_contact_ncontacts(const element_def *u)
{
    return u->beam_contact.elements;
}

/* contact i: node i (A) and node i + 1 (the third body) against the circle (B) */
static void beam_contact_expand(const element_def *u, element_contact *out)
{
    const clink_beam_contact_def *d = &u->beam_contact;
    for (int i = 0; i < d->elements; i++) {
        element_contact *c = &out[i];
        snprintf(c->part, sizeof c->part, "e%d", i);
        c->body_a = d->node_first + i;
        c->body_c = d->node_first + i + 1;
        c->ends = (i == 0 ? 1 : 0) | (i == d->elements - 1 ? 2 : 0);
        c->body_b = d->body;
        /* the segment is read from the nodes (contact_segment.c); as a shape, a capsule of
           radius h at node A's centre (its size and onset level) */
        c->sa.type = CLINK_SHAPE_CAPSULE;
        c->sa.radius = d->half_thickness;
        c->sb.type = CLINK_SHAPE_CIRCLE;
        c->sb.a[0] = d->point[0];
        c->sb.a[1] = d->point[1];
        c->sb.radius = d->radius;
    }
}

static void beam_contact_outputs(const element_def *u, const double qa[3], const double qb[3],
                                 double *values)
{
    (void) u;
    (void) qa;
    (void) qb;
    (void) values;
}

/* the definition's fields: <beam_contact name body point radius beam half_thickness> */
#define BEAM_CONTACT_AT_(m) offsetof(clink_beam_contact_def, m)
static const element_field beam_contact_fields[] = {
    {.attr = "body", .type = ELEMENT_FIELD_BODY, .offset = BEAM_CONTACT_AT_(body), .dflt = {0}},
    {.attr = "point", .type = ELEMENT_FIELD_POINT, .offset = BEAM_CONTACT_AT_(point), .unit = "m"},
    {.attr = "radius",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = BEAM_CONTACT_AT_(radius),
     .unit = "m",
     .flags = ELEMENT_REQUIRED},
    {.attr = "beam",
     .type = ELEMENT_FIELD_BEAM,
     .offset = BEAM_CONTACT_AT_(node_first),
     .of = (int) BEAM_CONTACT_AT_(elements),
     .dflt = {1, 1}},
    {.attr = "half_thickness",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = BEAM_CONTACT_AT_(half_thickness),
     .unit = "m"},
    {.attr = "material", .type = ELEMENT_FIELD_MATERIAL, .slot = 1, .of = 0},
    /* the beam's material (E1, nu1); a node's is none, so it is given here or in <law> */
    {.attr = "beam_material", .type = ELEMENT_FIELD_MATERIAL, .slot = 0, .of = 3},
};

const element_class element_beam_contact = {
    .kind = CLINK_ELEMENT_BEAM_CONTACT,
    .name = "beam_contact",
    .word = "beam contact",
    .unnamed = "beam_contact",
    .entity = CLINK_ENTITY_BEAM_CONTACT,
    .cookie = CLINK_DEF_COOKIE + 21,
    .size = sizeof(clink_beam_contact_def),
    .fields = beam_contact_fields,
    .nfields = sizeof beam_contact_fields / sizeof beam_contact_fields[0],
    .section = "contacts",
    .bodies = beam_contact_bodies,
    .check = beam_contact_check,
    .radii = beam_contact_radii,
    .k_missing = "stiffness missing; give K (N/m^n), or materials with a radius and a "
                 "half_thickness > 0 (Hertz of two cylinders)",
    .ncontacts = beam_contact_ncontacts,
    .expand = beam_contact_expand,
    .noutputs = 0,
    .outputs = beam_contact_outputs,
};
