/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element_revolute_clearance.c: the revolute joint with radial clearance, a journal
 * (circle of radius R_j on journal_body) inside a bearing (bore of radius R_b > R_j on
 * bearing_body): one contact, the bore as shape A (Flores and Ambrosio 2004).
 *
 * Internal contact: with e = c_journal - c_bearing, delta = |e| - (R_b - R_j)
 * (src/kinematics/contact_geometry.h); the eccentricity e is in clink_contact_info.
 * Stiffness from materials: the internal-contact Hertz form with R1 = R_j and
 * R2 = -R_b, K = 4 / (3 (s1 + s2)) sqrt(R_j R_b / (R_b - R_j))
 * (clink_contact_stiffness_journal_bearing); the radii of curvature params.R1, R2 (read
 * by the elastoplastic laws) default to R_j and -R_b (concave).
 *
 * A lubricated joint (clink_lubrication_def: viscosity > 0) has five outputs: the
 * eccentricity ratio eps = |e| / c and the minimum film thickness h_min = c - |e| (m,
 * negative when the journal is into the bore) from the poses; and from the forces at the
 * output's state (element_forces) the film force on the journal, F_x and F_y in the world
 * frame (N), and the dry contact's share of the joint's force, |F_dry| / (|F_dry| +
 * |F_film|) in [0, 1] (0 when both vanish). Its film force is src/contacts/contacts_lubrication.c.
 */
#include "elements/element.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static element_common rev_common(element_def *u)
{
    clink_clearance_joint_def *d = &u->revolute_clearance;
    element_common c = {&d->name,      &d->law,         &d->params, &d->friction,
                        &d->treatment, &d->restitution, &d->cookie};
    return c;
}

static void rev_bodies(const element_def *u, int *a, int *b)
{
    *a = u->revolute_clearance.journal_body;
    *b = u->revolute_clearance.bearing_body;
}

/* the film's parameters (a lubricated joint only): mu, L > 0, a known theory, transition
   in (0, 1) */
static clink_status lub_check(const clink_lubrication_def *l, const char *name, char *msg,
                              size_t size)
{
    if (l->viscosity == 0.0)
        return CLINK_OK;
    if (!(l->viscosity > 0.0) || !isfinite(l->viscosity))
        return snprintf(msg, size, "clearance joint '%s': viscosity %g Pa s is out of range; > 0",
                        name, l->viscosity),
               CLINK_ERR_RANGE;
    if (!(l->length > 0.0) || !isfinite(l->length))
        return snprintf(msg, size, "clearance joint '%s': bearing length %g m is out of range; > 0",
                        name, l->length),
               CLINK_ERR_RANGE;
    if (l->theory != CLINK_LUBRICATION_SHORT && l->theory != CLINK_LUBRICATION_LONG)
        return snprintf(msg, size, "clearance joint '%s': unknown lubrication theory %d", name,
                        l->theory),
               CLINK_ERR_RANGE;
    if (l->jacobian != CLINK_LUBRICATION_JACOBIAN_DIFFERENCES &&
        l->jacobian != CLINK_LUBRICATION_JACOBIAN_ANALYTIC)
        return snprintf(msg, size, "clearance joint '%s': unknown lubrication jacobian %d", name,
                        l->jacobian),
               CLINK_ERR_RANGE;
    if (!(l->transition > 0.0 && l->transition < 1.0))
        return snprintf(msg, size,
                        "clearance joint '%s': transition %g is out of range; 0 < transition < 1",
                        name, l->transition),
               CLINK_ERR_RANGE;
    return CLINK_OK;
}

static clink_status rev_check(element_def *u, const char *name, char *msg, size_t size)
{
    const clink_clearance_joint_def *d = &u->revolute_clearance;
    if (!element_finite2(d->journal_point) || !element_finite2(d->bearing_point) ||
        !isfinite(d->journal_radius) || !isfinite(d->bearing_radius))
        return snprintf(msg, size, "clearance joint '%s': non-finite point or radius", name),
               CLINK_ERR_RANGE;
    if (!(d->journal_radius > 0.0))
        return snprintf(msg, size, "clearance joint '%s': journal radius %g m is out of range; > 0",
                        name, d->journal_radius),
               CLINK_ERR_RANGE;
    if (!(d->bearing_radius - d->journal_radius > 0.0))
        return snprintf(msg, size,
                        "clearance joint '%s': clearance %g m (bearing radius %g m - journal "
                        "radius %g m) is out of range; clearance > 0",
                        name, d->bearing_radius - d->journal_radius, d->bearing_radius,
                        d->journal_radius),
               CLINK_ERR_RANGE;
    return lub_check(&d->lubrication, name, msg, size);
}

static element_stiffness rev_radii(const element_def *u, double R[4])
{
    R[0] = u->revolute_clearance.journal_radius;
    R[1] = -u->revolute_clearance.bearing_radius;
    R[2] = u->revolute_clearance.journal_radius;
    R[3] = u->revolute_clearance.bearing_radius;
    return ELEMENT_STIFFNESS_INTERNAL;
}

static int rev_ncontacts(const element_def *u)
{
    (void) u;
    return 1;
}

static void rev_expand(const element_def *u, element_contact *out)
{
    const clink_clearance_joint_def *d = &u->revolute_clearance;
    out->body_a = d->bearing_body;
    out->body_b = d->journal_body;
    out->sa.type = CLINK_SHAPE_BORE;
    memcpy(out->sa.a, d->bearing_point, sizeof out->sa.a);
    out->sa.radius = d->bearing_radius;
    out->sb.type = CLINK_SHAPE_CIRCLE;
    memcpy(out->sb.a, d->journal_point, sizeof out->sb.a);
    out->sb.radius = d->journal_radius;
}

static const char *const rev_output_names[] = {"eccentricity_ratio", "film_min", "film_Fx",
                                               "film_Fy", "dry_share"};
static const char *const rev_output_units[] = {"-", "m", "N", "N", "-"};

/* a lubricated joint's outputs (the file comment); a dry joint has none */
static int rev_output_count(const element_def *u)
{
    return u->revolute_clearance.lubrication.viscosity > 0.0 ? 5 : 0;
}

/* the outputs from the forces: film force (world frame) and the dry share */
static void rev_force_outputs(const element_def *u, const element_forces *f, double *values)
{
    (void) u;
    double dry = hypot(f->dry[0], f->dry[1]), film = hypot(f->film[0], f->film[1]);
    values[2] = f->film[0];
    values[3] = f->film[1];
    values[4] = dry + film > 0.0 ? dry / (dry + film) : 0.0;
}

/* the centre of the circle at body coordinates s on the body at pose q, m */
static void rev_centre(const double q[3], const double s[2], double out[2])
{
    double cs = cos(q[2]), sn = sin(q[2]);
    out[0] = q[0] + cs * s[0] - sn * s[1];
    out[1] = q[1] + sn * s[0] + cs * s[1];
}

static void rev_outputs(const element_def *u, const double qa[3], const double qb[3],
                        double *values)
{
    const clink_clearance_joint_def *d = &u->revolute_clearance;
    double cj[2], cb[2], c = d->bearing_radius - d->journal_radius;
    rev_centre(qa, d->journal_point, cj);
    rev_centre(qb, d->bearing_point, cb);
    double e = hypot(cj[0] - cb[0], cj[1] - cb[1]);
    values[0] = e / c;
    values[1] = c - e;
}

const element_class element_revolute_clearance = {
    .kind = CLINK_ELEMENT_REVOLUTE_CLEARANCE,
    .name = "revolute_clearance",
    .word = "clearance joint",
    .unnamed = "clearance",
    .entity = CLINK_ENTITY_CLEARANCE_JOINT,
    .cookie = CLINK_DEF_COOKIE + 7,
    .common = rev_common,
    .bodies = rev_bodies,
    .check = rev_check,
    .radii = rev_radii,
    .k_missing = "stiffness missing; give K (N/m^n) or the materials of journal (E1, nu1) and "
                 "bearing (E2, nu2)",
    .ncontacts = rev_ncontacts,
    .expand = rev_expand,
    .noutputs = 5,
    .output_names = rev_output_names,
    .output_units = rev_output_units,
    .outputs = rev_outputs,
    .output_count = rev_output_count,
    .force_first = 2,
    .force_outputs = rev_force_outputs,
};
