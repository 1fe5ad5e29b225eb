/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_translational_clearance.c: the translational joint with clearance of Flores,
 * Ambrosio, Claro and Lankarani (2008, J. Comput. Nonlinear Dyn. 3, 011007): a
 * rectangular slider (length L along the guide, height H across it) between the two
 * parallel surfaces of a guide.
 *
 * In guide coordinates, u = axis / |axis| is the guide's direction and n = (-u_y, u_x)
 * its normal; the guide's surfaces are the lines through g +- (H/2 + c) n (g =
 * guide_point, c = clearance), the upper one with outward normal -n, the lower one
 * with +n (the guide's solid lies beyond them). In slider coordinates, with the same
 * u and n (the slider is aligned when its angle equals the guide's), the corners are
 *   s_k = s + sx_k (L/2) u + sy_k (H/2) n,
 *   (sx, sy) = (-, -), (+, -), (+, +), (-, +) for k = 1 .. 4.
 * Each corner meets each surface (eight contacts, a zero-radius circle against a
 * line): free flight, one corner, two adjacent corners on one surface and two
 * opposite corners on opposite surfaces all arise as the paper's four cases. A corner
 * on a plane has no Hertz formula: the stiffness K is given (the paper: the
 * Lankarani-Nikravesh law with a given K; docs/contact-mechanics.md).
 *
 * Outputs: the lateral offset e_n = n_w . (c_s - g_w) (m) of the slider centre c_s from
 * the mid-line and the tilt phi_slider - phi_guide wrapped into (-pi, pi] (rad).
 */
#include "elements/element.h"
#include "kinematics/contact_profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void tc_bodies(const element_def *u, int *a, int *b)
{
    *a = u->translational_clearance.guide_body;
    *b = u->translational_clearance.slider_body;
}

/* Archard wear of the guide (clink_wear_def, docs/wear.md): a coefficient >= 0 and, with
   wear, an axial length, a grid and a guide length to lay it over; no worn profile, no
   foundation (a corner is a point load) */
static clink_status tc_wear_check(const clink_translational_clearance_def *d, const char *name,
                                  char *msg, size_t size)
{
    const clink_wear_def *w = &d->wear;
    const char *t = "translational clearance joint";
    if (!(w->kd >= 0.0) || !isfinite(w->kd))
        return snprintf(msg, size, "%s '%s': wear coefficient k/H = %g m^2/N is out of range; >= 0",
                        t, name, w->kd),
               CLINK_ERR_RANGE;
    if (w->kd == 0.0)
        return CLINK_OK;
    if (w->nknots != 0 || w->pin_nknots != 0 || w->pressure != CLINK_WEAR_HERTZ)
        return snprintf(msg, size,
                        "%s '%s': <wear> depth, pin_depth and pressure are a revolute "
                        "clearance joint's; a guide's wear is accumulated, not fed back",
                        t, name),
               CLINK_ERR_MODEL;
    if (!(w->length > 0.0) || !isfinite(w->length))
        return snprintf(msg, size,
                        "%s '%s': wear length %g m is out of range; > 0 (the contact's axial "
                        "width)",
                        t, name, w->length),
               CLINK_ERR_RANGE;
    if (w->grid < 16 || w->grid > 100000)
        return snprintf(msg, size, "%s '%s': wear grid of %d cells; 16 .. 100000", t, name,
                        w->grid),
               CLINK_ERR_RANGE;
    if (!(d->guide_length > 0.0))
        return snprintf(msg, size, "%s '%s': <wear> needs guide_length (the grid spans the guide)",
                        t, name),
               CLINK_ERR_MODEL;
    return CLINK_OK;
}

/* a worn guide (clink_model_set_worn_guide): depths >= 0, finite and short of the wall, a
   guide length to lay them over, and grooves whose radius of curvature exceeds the
   clearance (a corner then has one closest point); CLINK_OK or CLINK_ERR_RANGE with msg */
clink_status element_worn_guide_check(const clink_translational_clearance_def *d, const char *name,
                                      char *msg, size_t size)
{
    const char *t = "translational clearance joint";
    if (d->guide_nknots == 0)
        return CLINK_OK;
    if (d->guide_nknots < 2 || d->guide_nknots > CLINK_WEAR_MAX_KNOTS || !(d->guide_length > 0.0))
        return snprintf(msg, size,
                        "%s '%s': a worn guide needs 2 .. %d knots and guide_length (got %d, %g m)",
                        t, name, CLINK_WEAR_MAX_KNOTS, d->guide_nknots, d->guide_length),
               CLINK_ERR_RANGE;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < d->guide_nknots; i++) {
            double h = d->guide_depth[s][i];
            if (!(h >= 0.0) || !isfinite(h) || !(h < d->wear.wall))
                return snprintf(msg, size,
                                "%s '%s': worn guide depth %g m (%s surface, knot %d) is out of "
                                "range; 0 <= depth < wall thickness %g m",
                                t, name, h, s ? "upper" : "lower", i, d->wear.wall),
                       CLINK_ERR_RANGE;
        }
    /* the curvature h'' of each surface's spline at its knots (its extremes, the spline's
       second derivative being linear between them) */
    for (int s = 0; s < 2; s++) {
        clink_profile_def p;
        kinematics_worn_line_profile(&p, d->guide_length, d->guide_nknots, d->guide_depth[s]);
        for (int i = 0; i < d->guide_nknots; i++)
            if (fabs(p.moments[i]) * d->clearance >= 1.0)
                return snprintf(msg, size,
                                "%s '%s': the worn guide's radius of curvature %g m (%s surface, "
                                "knot %d) is below the clearance %g m",
                                t, name, 1.0 / fabs(p.moments[i]), s ? "upper" : "lower", i,
                                d->clearance),
                       CLINK_ERR_RANGE;
    }
    return CLINK_OK;
}

static clink_status tc_check(element_def *u, const char *name, char *msg, size_t size)
{
    clink_translational_clearance_def *d = &u->translational_clearance;
    const char *w = "translational clearance joint";
    if (!element_finite2(d->guide_point) || !element_finite2(d->slider_point) ||
        !element_finite2(d->axis) || !isfinite(d->length) || !isfinite(d->height) ||
        !isfinite(d->clearance) || isinf(d->guide_length))
        return snprintf(msg, size, "%s '%s': non-finite point, axis or size", w, name),
               CLINK_ERR_RANGE;
    double l = hypot(d->axis[0], d->axis[1]);
    if (!(l > 0.0))
        return snprintf(msg, size, "%s '%s': axis has zero length; give the guide's direction", w,
                        name),
               CLINK_ERR_RANGE;
    if (!(d->length > 0.0) || !(d->height > 0.0))
        return snprintf(msg, size,
                        "%s '%s': slider length %g m and height %g m are out of range; > 0", w,
                        name, d->length, d->height),
               CLINK_ERR_RANGE;
    if (!(d->clearance > 0.0))
        return snprintf(msg, size, "%s '%s': clearance %g m is out of range; clearance > 0", w,
                        name, d->clearance),
               CLINK_ERR_RANGE;
    if (!isnan(d->guide_length) && !(d->length <= d->guide_length))
        return snprintf(msg, size,
                        "%s '%s': slider length %g m is longer than its guide allows "
                        "(guide_length %g m)",
                        w, name, d->length, d->guide_length),
               CLINK_ERR_RANGE;
    clink_status st = tc_wear_check(d, name, msg, size);
    if (st == CLINK_OK)
        st = element_worn_guide_check(d, name, msg, size);
    if (st != CLINK_OK)
        return st;
    d->axis[0] /= l;
    d->axis[1] /= l;
    return CLINK_OK;
}

static element_stiffness tc_radii(const element_def *u, double R[4])
{
    (void) u;
    R[0] = R[1] = R[2] = R[3] = NAN;
    return ELEMENT_STIFFNESS_GIVEN;
}

static int tc_ncontacts(const element_def *u)
{
    (void) u;
    return 8;
}

static void tc_expand(const element_def *u, element_contact *out)
{
    const clink_translational_clearance_def *d = &u->translational_clearance;
    static const double sx[4] = {-1.0, 1.0, 1.0, -1.0}, sy[4] = {-1.0, -1.0, 1.0, 1.0};
    double ux = d->axis[0], uy = d->axis[1], nx = -uy, ny = ux;
    double off = 0.5 * d->height + d->clearance;

    for (int k = 0; k < 4; k++)
        for (int side = 0; side < 2; side++) { /* 0 lower, 1 upper */
            element_contact *c = &out[2 * k + side];
            double s = side ? 1.0 : -1.0;
            snprintf(c->part, sizeof c->part, "corner%d_%s", k + 1, side ? "upper" : "lower");
            c->body_a = d->guide_body;
            c->body_b = d->slider_body;
            c->sa.type = CLINK_SHAPE_LINE;
            c->sa.a[0] = d->guide_point[0] + s * off * nx;
            c->sa.a[1] = d->guide_point[1] + s * off * ny;
            c->sa.normal[0] = -s * nx;
            c->sa.normal[1] = -s * ny;
            if (d->guide_nknots > 0) { /* the worn guide (docs/wear.md) */
                kinematics_worn_line_profile(&c->sa.profile, d->guide_length, d->guide_nknots,
                                             d->guide_depth[side]);
                c->sa.b[0] = ux, c->sa.b[1] = uy; /* the axis */
                c->sa.angle[0] = d->guide_length;
            }
            c->sb.type = CLINK_SHAPE_CIRCLE;
            c->sb.a[0] =
                d->slider_point[0] + sx[k] * 0.5 * d->length * ux + sy[k] * 0.5 * d->height * nx;
            c->sb.a[1] =
                d->slider_point[1] + sx[k] * 0.5 * d->length * uy + sy[k] * 0.5 * d->height * ny;
            c->sb.radius = 0.0;
        }
}

static const char *const tc_output_names[] = {"offset", "tilt"};
static const char *const tc_output_units[] = {"m", "rad"};

static void tc_outputs(const element_def *u, const double qa[3], const double qb[3], double *values)
{
    const clink_translational_clearance_def *d = &u->translational_clearance;
    double ca = cos(qa[2]), sa = sin(qa[2]), cb = cos(qb[2]), sb = sin(qb[2]);
    double g[2] = {qa[0] + ca * d->guide_point[0] - sa * d->guide_point[1],
                   qa[1] + sa * d->guide_point[0] + ca * d->guide_point[1]};
    double c[2] = {qb[0] + cb * d->slider_point[0] - sb * d->slider_point[1],
                   qb[1] + sb * d->slider_point[0] + cb * d->slider_point[1]};
    double n[2] = {-(sa * d->axis[0] + ca * d->axis[1]), ca * d->axis[0] - sa * d->axis[1]};
    const double pi = 3.14159265358979323846;
    double tilt = remainder(qb[2] - qa[2], 2.0 * pi);

    values[0] = n[0] * (c[0] - g[0]) + n[1] * (c[1] - g[1]);
    values[1] = tilt == -pi ? pi : tilt;
}

/* the ideal translational joint at positions q (start="ideal", src/system/system_ideal.c):
   through p_g + o n (n the guide's normal, o the slider's offset from the mid-line) along
   the axis u, holding phi_s - phi_g at its tilt at q, or through p_g at tilt 0 when centred
   (on the mid-line, aligned) */
static void tc_ideal_joint(const element_def *u_def, const double *q, int centred,
                           clink_joint_def *j)
{
    const clink_translational_clearance_def *d = &u_def->translational_clearance;
    const double *qg = d->guide_body > 0 ? q + 3 * (d->guide_body - 1) : NULL;
    const double *qs = d->slider_body > 0 ? q + 3 * (d->slider_body - 1) : NULL;
    double len = hypot(d->axis[0], d->axis[1]), u[2] = {d->axis[0] / len, d->axis[1] / len};
    double n[2] = {-u[1], u[0]}, pg[2], ps[2], phi = qg ? qg[2] : 0.0;
    element_world_point(q, d->guide_body, d->guide_point, pg);
    element_world_point(q, d->slider_body, d->slider_point, ps);
    /* the normal in the world frame, A_g n */
    double ng[2] = {cos(phi) * n[0] - sin(phi) * n[1], sin(phi) * n[0] + cos(phi) * n[1]};
    double offset = centred ? 0.0 : ng[0] * (ps[0] - pg[0]) + ng[1] * (ps[1] - pg[1]);
    j->type = CLINK_JOINT_TRANSLATIONAL;
    j->body_a = d->guide_body;
    j->body_b = d->slider_body;
    j->point_a[0] = d->guide_point[0] + offset * n[0];
    j->point_a[1] = d->guide_point[1] + offset * n[1];
    memcpy(j->point_b, d->slider_point, sizeof j->point_b);
    memcpy(j->axis_a, u, sizeof j->axis_a);
    j->angle0 = centred ? 0.0 : (qs ? qs[2] : 0.0) - (qg ? qg[2] : 0.0);
}

/* centring the slider moves its reference point by up to hypot(clearance, length) and turns
   it by up to the largest tilt its guide allows, 2 atan(2 clearance / length) */
static void tc_centring(const element_def *u, double *move, double *tilt)
{
    const clink_translational_clearance_def *t = &u->translational_clearance;
    *move = hypot(t->clearance, t->length);
    *tilt = 2.0 * atan(2.0 * t->clearance / t->length);
}

/* a corner's size is the slider's half-height, as a circle's is its radius: a corner sunk
   that far into the wall has taken the slider's mid-line through it */
static double tc_size(const element_def *u)
{
    return 0.5 * u->translational_clearance.height;
}

/* the definition's fields: <translational_clearance name guide guide_point axis slider
   slider_point length height clearance guide_length slider_material guide_material> */
#define TC_AT_(m) offsetof(clink_translational_clearance_def, m)
static const element_field tc_fields[] = {
    {.attr = "guide", .type = ELEMENT_FIELD_BODY, .offset = TC_AT_(guide_body), .dflt = {0}},
    {.attr = "guide_point",
     .type = ELEMENT_FIELD_POINT,
     .offset = TC_AT_(guide_point),
     .unit = "m"},
    {.attr = "axis", .type = ELEMENT_FIELD_POINT, .offset = TC_AT_(axis), .dflt = {1, 0}},
    {.attr = "slider", .type = ELEMENT_FIELD_BODY, .offset = TC_AT_(slider_body), .dflt = {1}},
    {.attr = "slider_point",
     .type = ELEMENT_FIELD_POINT,
     .offset = TC_AT_(slider_point),
     .unit = "m"},
    {.attr = "length",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = TC_AT_(length),
     .unit = "m",
     .flags = ELEMENT_REQUIRED},
    {.attr = "height",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = TC_AT_(height),
     .unit = "m",
     .flags = ELEMENT_REQUIRED},
    {.attr = "clearance",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = TC_AT_(clearance),
     .unit = "m",
     .flags = ELEMENT_REQUIRED},
    {.attr = "guide_length",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = TC_AT_(guide_length),
     .unit = "m",
     .dflt = {NAN}},
    /* the slider's material is a journal's (E1, nu1), the guide's a bearing's (E2, nu2) */
    {.attr = "slider_material", .type = ELEMENT_FIELD_MATERIAL, .slot = 0, .of = 3},
    {.attr = "guide_material", .type = ELEMENT_FIELD_MATERIAL, .slot = 1, .of = 0},
    /* Archard wear of the guide (docs/wear.md), read whole by src/xml/xml_wear.c */
    {.type = ELEMENT_FIELD_WEAR,
     .offset = TC_AT_(wear),
     .child = "wear",
     .of = (int) TC_AT_(guide_nknots),
     .depths = TC_AT_(guide_depth)},
};

const element_class element_translational_clearance = {
    .guide = 1,
    .kind = CLINK_ELEMENT_TRANSLATIONAL_CLEARANCE,
    .name = "translational_clearance",
    .word = "translational clearance joint",
    .unnamed = "tclearance",
    .entity = CLINK_ENTITY_TRANSLATIONAL_CLEARANCE,
    .cookie = CLINK_DEF_COOKIE + 8,
    .size = sizeof(clink_translational_clearance_def),
    .fields = tc_fields,
    .nfields = sizeof tc_fields / sizeof tc_fields[0],
    .bodies = tc_bodies,
    .check = tc_check,
    .radii = tc_radii,
    .k_missing = "stiffness missing; give K (N/m^n): a corner on a plane has no Hertz formula",
    .ncontacts = tc_ncontacts,
    .expand = tc_expand,
    .noutputs = 2,
    .output_names = tc_output_names,
    .output_units = tc_output_units,
    .outputs = tc_outputs,
    .ideal_joint = tc_ideal_joint,
    .centring = tc_centring,
    .approach = "slider approaching the guide",
    .contact_size = tc_size,
};
