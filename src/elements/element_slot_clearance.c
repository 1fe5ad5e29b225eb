/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_slot_clearance.c: a pin in a straight slot with clearance (the play of a Scotch
 * yoke or of a pin-in-slot joint), treated as the translational clearance joint of Flores,
 * Ambrosio, Claro and Lankarani (2008) treats a slider: the pin meets each wall through the
 * contact law, with no constraint equation.
 *
 * In slot coordinates, u = axis / |axis| is the slot's direction and n = (-u_y, u_x) its
 * normal; its walls are the lines through g +- (w/2) n (g = slot_point, w = width), the
 * upper one with outward normal -n, the lower one with +n (the slot's solid lies beyond
 * them). The pin is a circle of radius r at p (pin coordinates); against each wall its
 * penetration is r - dist(p, wall) (two circle-on-line contacts, named NAME.lower and
 * NAME.upper), so the pin moves freely across the clearance c = w - 2 r. A cylinder on a
 * plane has Hertz's radii R1 = infinity (the wall) and R2 = r: the stiffness follows from
 * the materials when K is not given.
 *
 * Output: the offset e_n = n_w . (p_w - g_w) (m) of the pin centre from the mid-line; the
 * pin touches a wall at |e_n| = c / 2.
 */
#include "elements/element.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void slot_bodies(const element_def *u, int *a, int *b)
{
    *a = u->slot_clearance.slot_body;
    *b = u->slot_clearance.pin_body;
}

static clink_status slot_check(element_def *u, const char *name, char *msg, size_t size)
{
    clink_slot_clearance_def *d = &u->slot_clearance;
    const char *w = "slot clearance joint";
    if (!element_finite2(d->slot_point) || !element_finite2(d->pin_point) ||
        !element_finite2(d->axis) || !isfinite(d->width) || !isfinite(d->pin_radius))
        return snprintf(msg, size, "%s '%s': non-finite point, axis or size", w, name),
               CLINK_ERR_RANGE;
    double l = hypot(d->axis[0], d->axis[1]);
    if (!(l > 0.0))
        return snprintf(msg, size, "%s '%s': axis has zero length; give the slot's direction", w,
                        name),
               CLINK_ERR_RANGE;
    if (!(d->pin_radius > 0.0))
        return snprintf(msg, size, "%s '%s': pin_radius %g m is out of range; > 0", w, name,
                        d->pin_radius),
               CLINK_ERR_RANGE;
    if (!(d->width > 2.0 * d->pin_radius))
        return snprintf(msg, size,
                        "%s '%s': width %g m leaves no clearance for the pin (diameter %g m); "
                        "width > 2 pin_radius",
                        w, name, d->width, 2.0 * d->pin_radius),
               CLINK_ERR_RANGE;
    d->axis[0] /= l;
    d->axis[1] /= l;
    return CLINK_OK;
}

static element_stiffness slot_radii(const element_def *u, double R[4])
{
    R[0] = R[2] = INFINITY;
    R[1] = R[3] = u->slot_clearance.pin_radius;
    return ELEMENT_STIFFNESS_EXTERNAL;
}

static int slot_ncontacts(const element_def *u)
{
    (void) u;
    return 2;
}

static void slot_expand(const element_def *u, element_contact *out)
{
    const clink_slot_clearance_def *d = &u->slot_clearance;
    double nx = -d->axis[1], ny = d->axis[0];

    for (int side = 0; side < 2; side++) { /* 0 lower, 1 upper */
        element_contact *c = &out[side];
        double s = side ? 1.0 : -1.0;
        snprintf(c->part, sizeof c->part, "%s", side ? "upper" : "lower");
        c->body_a = d->slot_body;
        c->body_b = d->pin_body;
        c->sa.type = CLINK_SHAPE_LINE;
        c->sa.a[0] = d->slot_point[0] + s * 0.5 * d->width * nx;
        c->sa.a[1] = d->slot_point[1] + s * 0.5 * d->width * ny;
        c->sa.normal[0] = -s * nx;
        c->sa.normal[1] = -s * ny;
        c->sb.type = CLINK_SHAPE_CIRCLE;
        c->sb.a[0] = d->pin_point[0];
        c->sb.a[1] = d->pin_point[1];
        c->sb.radius = d->pin_radius;
    }
}

static const char *const slot_output_names[] = {"offset"};
static const char *const slot_output_units[] = {"m"};

static void slot_outputs(const element_def *u, const double qa[3], const double qb[3],
                         double *values)
{
    const clink_slot_clearance_def *d = &u->slot_clearance;
    double g[2], p[2], ca = cos(qa[2]), sa = sin(qa[2]);
    element_world_point(qa, 1, d->slot_point, g);
    element_world_point(qb, 1, d->pin_point, p);
    double n[2] = {-(sa * d->axis[0] + ca * d->axis[1]), ca * d->axis[0] - sa * d->axis[1]};
    values[0] = n[0] * (p[0] - g[0]) + n[1] * (p[1] - g[1]);
}

/* the definition's fields: <slot_clearance name slot slot_point axis pin pin_point width
   pin_radius slot_material pin_material> */
#define SLOT_AT_(m) offsetof(clink_slot_clearance_def, m)
static const element_field slot_fields[] = {
    {.attr = "slot", .type = ELEMENT_FIELD_BODY, .offset = SLOT_AT_(slot_body), .dflt = {0}},
    {.attr = "slot_point",
     .type = ELEMENT_FIELD_POINT,
     .offset = SLOT_AT_(slot_point),
     .unit = "m"},
    {.attr = "axis", .type = ELEMENT_FIELD_POINT, .offset = SLOT_AT_(axis), .dflt = {1, 0}},
    {.attr = "pin", .type = ELEMENT_FIELD_BODY, .offset = SLOT_AT_(pin_body), .dflt = {1}},
    {.attr = "pin_point", .type = ELEMENT_FIELD_POINT, .offset = SLOT_AT_(pin_point), .unit = "m"},
    {.attr = "width",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = SLOT_AT_(width),
     .unit = "m",
     .flags = ELEMENT_REQUIRED},
    {.attr = "pin_radius",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = SLOT_AT_(pin_radius),
     .unit = "m",
     .flags = ELEMENT_REQUIRED},
    {.attr = "slot_material", .type = ELEMENT_FIELD_MATERIAL, .slot = 0, .of = 0},
    {.attr = "pin_material", .type = ELEMENT_FIELD_MATERIAL, .slot = 1, .of = 3},
};

const element_class element_slot_clearance = {
    .kind = CLINK_ELEMENT_SLOT_CLEARANCE,
    .name = "slot_clearance",
    .word = "slot clearance joint",
    .unnamed = "slot",
    .entity = CLINK_ENTITY_SLOT_CLEARANCE,
    .cookie = CLINK_DEF_COOKIE + 20,
    .size = sizeof(clink_slot_clearance_def),
    .fields = slot_fields,
    .nfields = sizeof slot_fields / sizeof slot_fields[0],
    .bodies = slot_bodies,
    .check = slot_check,
    .radii = slot_radii,
    .ncontacts = slot_ncontacts,
    .expand = slot_expand,
    .noutputs = 1,
    .output_names = slot_output_names,
    .output_units = slot_output_units,
    .outputs = slot_outputs,
};
