/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_gear_pair.c: a spur gear pair with backlash, the single-degree-of-freedom mesh
 * of Kahraman and Singh (1990) between two bodies on their own revolute joints: gear 1
 * (base radius r_b1, centre c1 on body1) meshes externally with gear 2 (r_b2, c2 on body2).
 * Along the line of action the teeth's relative displacement, the dynamic transmission
 * error, is
 *
 *   x = r_b1 (phi1 - angle1) + r_b2 (phi2 - angle2)       (m; 0: centred in the backlash)
 *
 * and the mesh force is the contact law's F(delta, delta_dot) on two flanks with the
 * backlash 2b as a dead zone (Kahraman and Singh's f(x) = x - b, 0, x + b):
 *
 *   drive flank:  delta = x - b,   along n_d =  cos(alpha) t + sin(alpha) e
 *   back flank:   delta = -x - b,  along n_b = -cos(alpha) t + sin(alpha) e
 *
 * (e the unit vector from c1 to c2, t = e turned by +90 deg, alpha the pressure angle;
 * the force acts on gear 2 along n at the pitch point P = c1 + e |c2 - c1| r_b1 /
 * (r_b1 + r_b2), whose moment arm about each centre is its base radius: the torques are
 * -/+ r_b2 F on gear 2 and -/+ r_b1 F on gear 1, the bearings take the force). The two
 * contacts (NAME.drive, NAME.back) are the pair of flank shapes of the registry
 * (src/kinematics/contact_profile.c), each with its own impacts. The mesh stiffness is
 * the law's K, constant (N/m along the line of action): it must be given; mesh damping is
 * the law's (a Kelvin-Voigt c). Outputs: dte (x, m) from the poses, mesh_force (N, the
 * magnitude of the mesh's force on gear 2) from the forces.
 */
#include "elements/element.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void gear_bodies(const element_def *u, int *a, int *b)
{
    *a = u->gear_pair.body1;
    *b = u->gear_pair.body2;
}

static clink_status gear_check_mesh(clink_gear_pair_def *d, const char *name, char *msg,
                                    size_t size);

static clink_status gear_check(element_def *u, const char *name, char *msg, size_t size)
{
    clink_gear_pair_def *d = &u->gear_pair;
    if (!element_finite2(d->center1) || !element_finite2(d->center2) || !isfinite(d->angle1) ||
        !isfinite(d->angle2))
        return snprintf(msg, size, "gear pair '%s': non-finite centre or angle", name),
               CLINK_ERR_RANGE;
    if (!(d->base_radius1 > 0.0) || !(d->base_radius2 > 0.0) || isinf(d->base_radius1) ||
        isinf(d->base_radius2))
        return snprintf(msg, size, "gear pair '%s': base radii %g and %g m must be > 0", name,
                        d->base_radius1, d->base_radius2),
               CLINK_ERR_RANGE;
    if (!(d->pressure_angle > 0.0 && d->pressure_angle < 1.5707963267948966))
        return snprintf(msg, size,
                        "gear pair '%s': pressure angle %g rad is out of range; 0 < angle < pi/2",
                        name, d->pressure_angle),
               CLINK_ERR_RANGE;
    if (!(d->backlash >= 0.0) || isinf(d->backlash))
        return snprintf(msg, size, "gear pair '%s': backlash %g m is negative; backlash >= 0", name,
                        d->backlash),
               CLINK_ERR_RANGE;
    if (d->internal && !(d->base_radius2 > d->base_radius1))
        return snprintf(msg, size,
                        "gear pair '%s': an internal pair's ring (gear 2) needs a base radius "
                        "larger than the pinion's: %g m <= %g m",
                        name, d->base_radius2, d->base_radius1),
               CLINK_ERR_RANGE;
    return gear_check_mesh(d, name, msg, size);
}

/* nonzero when x is given (not NaN) */
static int given(double x)
{
    return !isnan(x);
}

/*
 * The contact ratio from the addendum radii (tip circles) r_a1, r_a2, the base radii and the
 * operating centre distance C = (r_b1 + iota r_b2) / cos(alpha) (iota -1: internal): the
 * length of the path of contact over the base pitch p_b = 2 pi r_b1 / z1,
 *   external: (sqrt(r_a1^2 - r_b1^2) + sqrt(r_a2^2 - r_b2^2) - C sin(alpha)) / p_b,
 *   internal: (sqrt(r_a1^2 - r_b1^2) - sqrt(r_a2^2 - r_b2^2) + C sin(alpha)) / p_b
 * (the ring's tip circle lies inside its pitch circle).
 */
static double gear_contact_ratio(const clink_gear_pair_def *d)
{
    double io = d->internal ? -1.0 : 1.0;
    double C = fabs(d->base_radius1 + io * d->base_radius2) / cos(d->pressure_angle);
    double l1 = sqrt(d->addendum_radius1 * d->addendum_radius1 - d->base_radius1 * d->base_radius1);
    double l2 = sqrt(d->addendum_radius2 * d->addendum_radius2 - d->base_radius2 * d->base_radius2);
    double pb = 2.0 * 3.141592653589793 * d->base_radius1 / d->teeth1;
    return (l1 + io * l2 - io * C * sin(d->pressure_angle)) / pb;
}

/* the addendum radii: each beyond its base circle, a ring's inside its pitch circle */
static clink_status gear_check_addenda(const clink_gear_pair_def *d, const char *name, char *msg,
                                       size_t size)
{
    if (d->teeth1 <= 0)
        return snprintf(msg, size,
                        "gear pair '%s': addendum radii need teeth1 (the base pitch 2 pi r_b1 / "
                        "teeth1)",
                        name),
               CLINK_ERR_RANGE;
    if (!(d->addendum_radius1 > d->base_radius1) || !(d->addendum_radius2 > d->base_radius2) ||
        isinf(d->addendum_radius1) || isinf(d->addendum_radius2))
        return snprintf(msg, size,
                        "gear pair '%s': addendum radii %g and %g m must exceed the base radii "
                        "%g and %g m",
                        name, d->addendum_radius1, d->addendum_radius2, d->base_radius1,
                        d->base_radius2),
               CLINK_ERR_RANGE;
    if (d->internal && !(d->addendum_radius2 < d->base_radius2 / cos(d->pressure_angle)))
        return snprintf(msg, size,
                        "gear pair '%s': the ring's addendum radius %g m must lie inside its "
                        "pitch circle (%g m)",
                        name, d->addendum_radius2, d->base_radius2 / cos(d->pressure_angle)),
               CLINK_ERR_RANGE;
    return CLINK_OK;
}

/* the mesh cycle's fields (docs/gears-cams.md): the contact ratio (computed from the addendum
   radii when not given) >= 1, the amplitude, smoothing and phase */
static clink_status gear_check_mesh(clink_gear_pair_def *d, const char *name, char *msg,
                                    size_t size)
{
    if (d->teeth1 < 0)
        return snprintf(msg, size, "gear pair '%s': teeth1 %d is negative", name, d->teeth1),
               CLINK_ERR_RANGE;
    if (!given(d->contact_ratio) && (given(d->addendum_radius1) || given(d->addendum_radius2))) {
        clink_status st = gear_check_addenda(d, name, msg, size);
        if (st != CLINK_OK)
            return st;
        d->contact_ratio = gear_contact_ratio(d);
    }
    if (given(d->contact_ratio) && !(d->contact_ratio >= 1.0 && d->contact_ratio < 1e3))
        return snprintf(msg, size,
                        "gear pair '%s': contact ratio %.6g is below 1 (the next pair of teeth "
                        "would mesh only after the last has left); contact ratio >= 1",
                        name, d->contact_ratio),
               CLINK_ERR_RANGE;
    double a = d->stiffness_amplitude, w = d->mesh_smoothing;
    if (!(a >= 0.0 && a < INFINITY) || !(w >= 0.0 && w < 1.0) ||
        !(d->mesh_phase >= 0.0 && d->mesh_phase < 1.0))
        return snprintf(msg, size,
                        "gear pair '%s': stiffness_amplitude %g must be >= 0, mesh_smoothing %g "
                        "and mesh_phase %g in [0, 1)",
                        name, a, w, d->mesh_phase),
               CLINK_ERR_RANGE;
    if (a == 0.0)
        return CLINK_OK;
    if (d->teeth1 <= 0 || !given(d->contact_ratio))
        return snprintf(msg, size,
                        "gear pair '%s': a stiffness_amplitude needs teeth1 and a contact ratio "
                        "(contact_ratio, or addendum_radius1 and addendum_radius2)",
                        name),
               CLINK_ERR_RANGE;
    double f = d->contact_ratio - floor(d->contact_ratio);
    if (!(1.0 - 2.0 * a * f > 0.0))
        return snprintf(msg, size,
                        "gear pair '%s': stiffness_amplitude %g leaves the stiffness of the "
                        "fewer teeth 1 - 2 a (contact ratio - n) = %g of the mean, not > 0",
                        name, a, 1.0 - 2.0 * a * f),
               CLINK_ERR_RANGE;
    if (w > fmin(f, 1.0 - f))
        return snprintf(msg, size,
                        "gear pair '%s': mesh_smoothing %g exceeds the shorter of the two parts "
                        "of the cycle, %g",
                        name, w, fmin(f, 1.0 - f)),
               CLINK_ERR_RANGE;
    return CLINK_OK;
}

static element_stiffness gear_radii(const element_def *u, double R[4])
{
    (void) u;
    R[0] = R[1] = R[2] = R[3] = NAN;
    return ELEMENT_STIFFNESS_GIVEN;
}

static int gear_ncontacts(const element_def *u)
{
    (void) u;
    return 2;
}

/* one gear's flank shape: side 0 drive, 1 back */
static void flank(clink_shape_def *s, const double c[2], double rb, double angle,
                  const clink_gear_pair_def *d, int side)
{
    s->type = CLINK_SHAPE_FLANK;
    s->a[0] = c[0];
    s->a[1] = c[1];
    s->radius = rb;
    s->angle[0] = angle;
    s->angle[1] = d->pressure_angle;
    s->concave = side;
    s->normal[0] = 0.5 * d->backlash;
    /* the mesh cycle (src/kinematics/contact_flank.c): {z1, phase}, {d, a}, {w, internal} */
    double cr = d->contact_ratio;
    s->vertices[0][0] = d->stiffness_amplitude > 0.0 ? d->teeth1 : 0.0;
    s->vertices[0][1] = d->mesh_phase;
    s->vertices[1][0] = d->stiffness_amplitude > 0.0 ? cr - floor(cr) : 0.0;
    s->vertices[1][1] = d->stiffness_amplitude;
    s->vertices[2][0] = d->mesh_smoothing;
    s->vertices[2][1] = d->internal ? 1.0 : 0.0;
}

static void gear_expand(const element_def *u, element_contact *out)
{
    const clink_gear_pair_def *d = &u->gear_pair;
    for (int side = 0; side < 2; side++) {
        element_contact *c = &out[side];
        snprintf(c->part, sizeof c->part, "%s", side ? "back" : "drive");
        c->body_a = d->body1;
        c->body_b = d->body2;
        flank(&c->sa, d->center1, d->base_radius1, d->angle1, d, side);
        flank(&c->sb, d->center2, d->base_radius2, d->angle2, d, side);
    }
}

static const char *const gear_output_names[] = {"dte", "mesh_force"};
static const char *const gear_output_units[] = {"m", "N"};

static void gear_outputs(const element_def *u, const double qa[3], const double qb[3],
                         double *values)
{
    const clink_gear_pair_def *d = &u->gear_pair;
    values[0] = d->base_radius1 * (qa[2] - d->angle1) +
                (d->internal ? -1.0 : 1.0) * (d->base_radius2 * (qb[2] - d->angle2));
}

static void gear_force_outputs(const element_def *u, const element_forces *f, double *values)
{
    (void) u;
    values[1] = hypot(f->dry[0], f->dry[1]);
}

/* the definition's fields: <gear_pair name body1 center1 base_radius1 body2 center2
   base_radius2 pressure_angle backlash angle1 angle2> */
#define GEAR_AT_(m) offsetof(clink_gear_pair_def, m)
static const char *const gear_flags[] = {"false", "true", "0", "1", NULL};
static const element_field gear_fields[] = {
    {.attr = "body1", .type = ELEMENT_FIELD_BODY, .offset = GEAR_AT_(body1), .dflt = {1}},
    {.attr = "center1", .type = ELEMENT_FIELD_POINT, .offset = GEAR_AT_(center1), .unit = "m"},
    {.attr = "base_radius1",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = GEAR_AT_(base_radius1),
     .unit = "m"},
    {.attr = "body2", .type = ELEMENT_FIELD_BODY, .offset = GEAR_AT_(body2), .dflt = {2}},
    {.attr = "center2", .type = ELEMENT_FIELD_POINT, .offset = GEAR_AT_(center2), .unit = "m"},
    {.attr = "base_radius2",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = GEAR_AT_(base_radius2),
     .unit = "m"},
    {.attr = "pressure_angle",
     .type = ELEMENT_FIELD_ANGLE,
     .offset = GEAR_AT_(pressure_angle),
     .unit = "rad",
     .dflt = {0.3490658503988659}}, /* 20 deg */
    {.attr = "backlash", .type = ELEMENT_FIELD_NUMBER, .offset = GEAR_AT_(backlash), .unit = "m"},
    {.attr = "angle1", .type = ELEMENT_FIELD_ANGLE, .offset = GEAR_AT_(angle1), .unit = "rad"},
    {.attr = "angle2", .type = ELEMENT_FIELD_ANGLE, .offset = GEAR_AT_(angle2), .unit = "rad"},
    /* the mesh cycle (docs/gears-cams.md): a ring as gear 2, gear 1's teeth (a whole number,
       gear_file), the contact ratio or the tip circles it follows from, the stiffness wave */
    {.attr = "internal",
     .type = ELEMENT_FIELD_WORDS,
     .offset = GEAR_AT_(internal),
     .words = gear_flags},
    {.attr = "teeth1", .type = ELEMENT_FIELD_FILE_NUMBER, .unit = "", .slot = 0},
    {.attr = "contact_ratio",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = GEAR_AT_(contact_ratio),
     .unit = "",
     .dflt = {NAN}},
    {.attr = "addendum_radius1",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = GEAR_AT_(addendum_radius1),
     .unit = "m",
     .dflt = {NAN}},
    {.attr = "addendum_radius2",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = GEAR_AT_(addendum_radius2),
     .unit = "m",
     .dflt = {NAN}},
    {.attr = "stiffness_amplitude",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = GEAR_AT_(stiffness_amplitude),
     .unit = ""},
    {.attr = "mesh_smoothing",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = GEAR_AT_(mesh_smoothing),
     .unit = ""},
    {.attr = "mesh_phase",
     .type = ELEMENT_FIELD_NUMBER,
     .offset = GEAR_AT_(mesh_phase),
     .unit = ""},
};
enum { GEAR_ANGLE1 = 8, GEAR_ANGLE2 = 9, GEAR_TEETH1 = 11 };

/* in a file, the angles default to the bodies' initial angles (the teeth centred in the
   backlash at the start), and the centres' initial distance must be (r_b1 + r_b2) /
   cos(pressure_angle), the operating centre distance of the two base circles ((r_b2 - r_b1)
   / cos(pressure_angle) for a ring) */
static clink_status gear_file(element_def *u, element_file *f, char *msg, size_t size)
{
    clink_gear_pair_def *d = &u->gear_pair;
    double c[2][2];

    double z = f->number[0];
    d->internal %= 2; /* "0", "1" as "false", "true" */
    if ((f->given >> GEAR_TEETH1) & 1) {
        if (!(z == floor(z) && z >= 0.0 && z <= 1e6))
            return snprintf(msg, size, "teeth1 = %g is not a whole number >= 0", z),
                   CLINK_ERR_MODEL;
        d->teeth1 = (int) z;
    }
    if (!((f->given >> GEAR_ANGLE1) & 1))
        d->angle1 = f->pose[0][2];
    if (!((f->given >> GEAR_ANGLE2) & 1))
        d->angle2 = f->pose[1][2];
    for (int g = 0; g < 2; g++) {
        const double *p = f->pose[g], *cb = g ? d->center2 : d->center1;
        c[g][0] = p[0] + cos(p[2]) * cb[0] - sin(p[2]) * cb[1];
        c[g][1] = p[1] + sin(p[2]) * cb[0] + cos(p[2]) * cb[1];
    }
    double dist = hypot(c[1][0] - c[0][0], c[1][1] - c[0][1]);
    double need =
        (d->internal ? d->base_radius2 - d->base_radius1 : d->base_radius1 + d->base_radius2) /
        cos(d->pressure_angle);
    if (d->base_radius1 > 0.0 && d->base_radius2 > 0.0 && d->pressure_angle > 0.0 &&
        d->pressure_angle < 1.5707963267948966 && !(fabs(dist - need) <= 1e-9 * need))
        return snprintf(msg, size,
                        "centre distance %.9g m does not fit the base radii and pressure angle: "
                        "(%s) / cos(pressure_angle) = %.9g m",
                        dist, d->internal ? "r_b2 - r_b1" : "r_b1 + r_b2", need),
               CLINK_ERR_MODEL;
    return CLINK_OK;
}

const element_class element_gear_pair = {
    .kind = CLINK_ELEMENT_GEAR_PAIR,
    .name = "gear_pair",
    .word = "gear pair",
    .unnamed = "gear_pair",
    .entity = CLINK_ENTITY_GEAR_PAIR,
    .cookie = CLINK_DEF_COOKIE + 14,
    .size = sizeof(clink_gear_pair_def),
    .fields = gear_fields,
    .nfields = sizeof gear_fields / sizeof gear_fields[0],
    .file = gear_file,
    .bodies = gear_bodies,
    .check = gear_check,
    .radii = gear_radii,
    .k_missing = "mesh stiffness missing; give K (N/m along the line of action)",
    .ncontacts = gear_ncontacts,
    .expand = gear_expand,
    .noutputs = 2,
    .output_names = gear_output_names,
    .output_units = gear_output_units,
    .outputs = gear_outputs,
    .force_first = 1,
    .force_outputs = gear_force_outputs,
};
