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

static element_common gear_common(element_def *u)
{
    clink_gear_pair_def *d = &u->gear_pair;
    element_common c = {&d->name,      &d->law,         &d->params, &d->friction,
                        &d->treatment, &d->restitution, &d->cookie};
    return c;
}

static void gear_bodies(const element_def *u, int *a, int *b)
{
    *a = u->gear_pair.body1;
    *b = u->gear_pair.body2;
}

static clink_status gear_check(element_def *u, const char *name, char *msg, size_t size)
{
    const clink_gear_pair_def *d = &u->gear_pair;
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
    values[0] = d->base_radius1 * (qa[2] - d->angle1) + d->base_radius2 * (qb[2] - d->angle2);
}

static void gear_force_outputs(const element_def *u, const element_forces *f, double *values)
{
    (void) u;
    values[1] = hypot(f->dry[0], f->dry[1]);
}

const element_class element_gear_pair = {
    .kind = CLINK_ELEMENT_GEAR_PAIR,
    .name = "gear_pair",
    .word = "gear pair",
    .unnamed = "gear_pair",
    .entity = CLINK_ENTITY_GEAR_PAIR,
    .cookie = CLINK_DEF_COOKIE + 14,
    .common = gear_common,
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
