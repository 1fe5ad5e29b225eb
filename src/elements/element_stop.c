/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_stop.c: a joint stop acting through a contact law (Ambrosio and Pombo 2018,
 * "A unified formulation for mechanical joints with and without clearances/bushings
 * and/or stops in the framework of multibody systems"): the travel of a point of one
 * body along an axis of another is limited at a lower and/or an upper position.
 *
 * In body1 coordinates, u = axis / |axis| is the direction of travel through point1
 * (p1); the stopped point is point2 (p2) of body2, its travel s = u . (p2 - p1) (world
 * frame, u and p1 carried by body1). Each limit is a plane of body1 normal to u:
 *   lower: the line through p1 + lower u with normal +u (penetration lower - s),
 *   upper: the line through p1 + upper u with normal -u (penetration s - upper),
 * against p2 as a zero-radius circle of body2 (one or two point-on-line contacts,
 * named NAME.lower and NAME.upper). The stiffness K is given (a point on a plane has
 * no Hertz formula). The stop adds no constraint: the joint that guides the motion
 * (a <translational>, or none) is a separate element.
 *
 * Output: the travel s (m).
 */
#include "elements/element.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void stop_bodies(const element_def *u, int *a, int *b)
{
    *a = u->stop.body1;
    *b = u->stop.body2;
}

static clink_status stop_check(element_def *u, const char *name, char *msg, size_t size)
{
    clink_stop_def *d = &u->stop;
    if (!element_finite2(d->point1) || !element_finite2(d->point2) || !element_finite2(d->axis) ||
        isinf(d->lower) || isinf(d->upper))
        return snprintf(msg, size, "stop '%s': non-finite point, axis or limit", name),
               CLINK_ERR_RANGE;
    double l = hypot(d->axis[0], d->axis[1]);
    if (!(l > 0.0))
        return snprintf(msg, size, "stop '%s': axis has zero length; give the direction of travel",
                        name),
               CLINK_ERR_RANGE;
    if (isnan(d->lower) && isnan(d->upper))
        return snprintf(msg, size, "stop '%s': no limit; give lower, upper or both (m)", name),
               CLINK_ERR_RANGE;
    if (!isnan(d->lower) && !isnan(d->upper) && !(d->lower < d->upper))
        return snprintf(msg, size, "stop '%s': lower %g m is not below upper %g m", name, d->lower,
                        d->upper),
               CLINK_ERR_RANGE;
    d->axis[0] /= l;
    d->axis[1] /= l;
    return CLINK_OK;
}

static element_stiffness stop_radii(const element_def *u, double R[4])
{
    (void) u;
    R[0] = R[1] = R[2] = R[3] = NAN;
    return ELEMENT_STIFFNESS_GIVEN;
}

static int stop_ncontacts(const element_def *u)
{
    return !isnan(u->stop.lower) + !isnan(u->stop.upper);
}

static void stop_expand(const element_def *u, element_contact *out)
{
    const clink_stop_def *d = &u->stop;
    const double lim[2] = {d->lower, d->upper};
    int k = 0;

    for (int side = 0; side < 2; side++) { /* 0 lower, 1 upper */
        if (isnan(lim[side]))
            continue;
        element_contact *c = &out[k++];
        double s = side ? -1.0 : 1.0; /* the plane's normal points back into the travel */
        snprintf(c->part, sizeof c->part, "%s", side ? "upper" : "lower");
        c->body_a = d->body1;
        c->body_b = d->body2;
        c->sa.type = CLINK_SHAPE_LINE;
        c->sa.a[0] = d->point1[0] + lim[side] * d->axis[0];
        c->sa.a[1] = d->point1[1] + lim[side] * d->axis[1];
        c->sa.normal[0] = s * d->axis[0];
        c->sa.normal[1] = s * d->axis[1];
        c->sb.type = CLINK_SHAPE_CIRCLE;
        c->sb.a[0] = d->point2[0];
        c->sb.a[1] = d->point2[1];
        c->sb.radius = 0.0;
    }
}

static const char *const stop_output_names[] = {"travel"};
static const char *const stop_output_units[] = {"m"};

static void stop_outputs(const element_def *u, const double qa[3], const double qb[3],
                         double *values)
{
    const clink_stop_def *d = &u->stop;
    double ca = cos(qa[2]), sa = sin(qa[2]), cb = cos(qb[2]), sb = sin(qb[2]);
    double p1[2] = {qa[0] + ca * d->point1[0] - sa * d->point1[1],
                    qa[1] + sa * d->point1[0] + ca * d->point1[1]};
    double p2[2] = {qb[0] + cb * d->point2[0] - sb * d->point2[1],
                    qb[1] + sb * d->point2[0] + cb * d->point2[1]};
    double ux = ca * d->axis[0] - sa * d->axis[1], uy = sa * d->axis[0] + ca * d->axis[1];

    values[0] = ux * (p2[0] - p1[0]) + uy * (p2[1] - p1[1]);
}

/* a two-sided stop's size is its range upper - lower (a point beyond it has passed the
   other limit too); a one-sided stop has none (the start check then takes the model's) */
static double stop_size(const element_def *u)
{
    const clink_stop_def *d = &u->stop;
    return isnan(d->lower) || isnan(d->upper) ? 0.0 : d->upper - d->lower;
}

/* the definition's fields: <stop name body1 point1 axis body2 point2 lower upper> */
#define STOP_AT_(m) offsetof(clink_stop_def, m)
static const element_field stop_fields[] = {
    {.attr = "body1", .type = ELEMENT_FIELD_BODY, .offset = STOP_AT_(body1), .dflt = {0}},
    {.attr = "point1", .type = ELEMENT_FIELD_POINT, .offset = STOP_AT_(point1), .unit = "m"},
    {.attr = "axis", .type = ELEMENT_FIELD_POINT, .offset = STOP_AT_(axis), .dflt = {1, 0}},
    {.attr = "body2", .type = ELEMENT_FIELD_BODY, .offset = STOP_AT_(body2), .dflt = {1}},
    {.attr = "point2", .type = ELEMENT_FIELD_POINT, .offset = STOP_AT_(point2), .unit = "m"},
    {.attr = "lower",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = STOP_AT_(lower),
     .unit = "m",
     .dflt = {NAN}},
    {.attr = "upper",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = STOP_AT_(upper),
     .unit = "m",
     .dflt = {NAN}},
};

const element_class element_stop = {
    .kind = CLINK_ELEMENT_STOP,
    .name = "stop",
    .word = "stop",
    .unnamed = "stop",
    .entity = CLINK_ENTITY_STOP,
    .cookie = CLINK_DEF_COOKIE + 9,
    .size = sizeof(clink_stop_def),
    .fields = stop_fields,
    .nfields = sizeof stop_fields / sizeof stop_fields[0],
    .bodies = stop_bodies,
    .check = stop_check,
    .radii = stop_radii,
    .k_missing = "stiffness missing; give K (N/m^n): a point on a plane has no Hertz formula",
    .ncontacts = stop_ncontacts,
    .expand = stop_expand,
    .noutputs = 1,
    .output_names = stop_output_names,
    .output_units = stop_output_units,
    .outputs = stop_outputs,
    .contact_size = stop_size,
};
