/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wear_model.c: a model's clearance joint given its worn bore (clink_model_set_worn_bore,
 * include/clink/wear.h): the depth knots stored in the joint's <wear> definition and the
 * bore of its contact made the periodic spline of radius R_b + depth
 * (kinematics_worn_bore_profile, src/kinematics/contact_profile.c), checked: depths >= 0
 * and short of the wall, and a surface the journal touches at one point (its radius of
 * curvature, where convex, above the journal's radius; sampled at 4096 angles). Likewise
 * the worn pin (clink_model_set_worn_pin): the journal's radius minus its depth knots
 * (kinematics_worn_pin_profile), convex and of radius of curvature everywhere below the
 * bore's smallest (it touches the bore at one point).
 */
#include "clink/wear.h"
#include "elements/element.h"
#include "kinematics/contact_profile.h"
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* nonzero (with err) when the worn pin of d does not fit a bore of smallest radius of
   curvature rho */
static int wear_model_pin_misfit(const clink_clearance_joint_def *d, double rho, const char *name,
                                 char *err, size_t size)
{
    clink_profile_def p;
    if (d->wear.pin_nknots == 0)
        return 0;
    kinematics_worn_pin_profile(&p, d->journal_radius, d->wear.pin_nknots, d->wear.pin_depth);
    double rp = kinematics_worn_pin_max_radius(&p);
    if (rp < rho)
        return 0;
    snprintf(err, size,
             "clearance joint '%s': the worn pin's largest radius of curvature %g m reaches the "
             "bore's smallest %g m (the pin would rest on two points, or it is not convex); use "
             "fewer knots or smaller updates",
             name, rp, rho);
    return 1;
}

/* the depth knots of a worn surface: >= 0, finite and short of the wall (and of the
   journal's radius for the pin); 0, or -1 with err */
static int wear_model_knots_check(const clink_clearance_joint_def *d, const char *name,
                                  const char *what, int nknots, const double *knots, char *err,
                                  size_t size)
{
    for (int i = 0; i < nknots; i++) {
        if (!(knots[i] >= 0.0) || !isfinite(knots[i]))
            return snprintf(err, size,
                            "clearance joint '%s': worn %s depth %g m at knot %d is out of "
                            "range; >= 0",
                            name, what, knots[i], i),
                   -1;
        if (!(knots[i] < d->wear.wall) || !(knots[i] < d->journal_radius))
            return snprintf(err, size,
                            "clearance joint '%s': worn %s depth %g m at %.4g deg reaches the "
                            "wall thickness %g m (or the journal radius %g m): it is worn through",
                            name, what, knots[i], 360.0 * i / nknots, d->wear.wall,
                            d->journal_radius),
                   -1;
    }
    return 0;
}

/* the element of revolute clearance joint `joint` into *e, when the joint and the number of
   knots are in range; 0, or -1 with err (what: "worn pin", "worn bore") */
static int wear_model_joint(const clink_model *m, int joint, int nknots, const double *knots,
                            const char *what, int *e, char *err, size_t size)
{
    const int kind = CLINK_ELEMENT_REVOLUTE_CLEARANCE;
    if (!m || joint < 0 || joint >= m->d.nof_kind[kind] || (nknots > 0 && !knots) ||
        (nknots != 0 && (nknots < 8 || nknots > CLINK_WEAR_MAX_KNOTS)))
        return snprintf(err, size, "%s: joint %d or %d knots out of range", what, joint, nknots),
               -1;
    *e = m->d.of_kind[kind][joint];
    return 0;
}

clink_status clink_model_set_worn_pin(clink_model *m, int joint, int nknots, const double *knots,
                                      char *err, size_t size)
{
    char dummy[8];
    if (!err)
        err = dummy, size = sizeof dummy;
    int e = -1;
    if (wear_model_joint(m, joint, nknots, knots, "worn pin", &e, err, size) != 0)
        return CLINK_ERR_ARG;
    clink_clearance_joint_def *d = &m->d.elems[e].def.revolute_clearance, t;
    const char *name = m->d.elems[e].label;
    if (wear_model_knots_check(d, name, "pin", nknots, knots, err, size) != 0)
        return CLINK_ERR_RANGE;
    t = *d;
    t.wear.pin_nknots = nknots;
    for (int i = 0; i < nknots; i++)
        t.wear.pin_depth[i] = knots[i];
    clink_profile_def p, bore;
    memset(&p, 0, sizeof p);
    double rho = d->bearing_radius;
    if (d->wear.nknots > 0) {
        kinematics_worn_bore_profile(&bore, d->bearing_radius, d->wear.nknots, d->wear.depth);
        rho = kinematics_worn_bore_min_radius(&bore);
    }
    if (wear_model_pin_misfit(&t, rho, name, err, size))
        return CLINK_ERR_RANGE;
    if (nknots > 0)
        kinematics_worn_pin_profile(&p, d->journal_radius, nknots, knots);
    d->wear.pin_nknots = nknots;
    for (int i = 0; i < nknots; i++)
        d->wear.pin_depth[i] = knots[i];
    for (int k = 0; k < m->d.ncontacts; k++)
        if (m->d.contacts[k].element == e)
            m->d.contacts[k].geo.sb.profile = p;
    return CLINK_OK;
}

clink_status clink_model_set_worn_bore(clink_model *m, int joint, int nknots, const double *knots,
                                       char *err, size_t size)
{
    char dummy[8];
    if (!err)
        err = dummy, size = sizeof dummy;
    int e = -1;
    if (wear_model_joint(m, joint, nknots, knots, "worn bore", &e, err, size) != 0)
        return CLINK_ERR_ARG;
    clink_clearance_joint_def *d = &m->d.elems[e].def.revolute_clearance;
    const char *name = m->d.elems[e].label;
    for (int i = 0; i < nknots; i++) {
        if (!(knots[i] >= 0.0) || !isfinite(knots[i]))
            return snprintf(err, size,
                            "clearance joint '%s': worn depth %g m at knot %d is out "
                            "of range; >= 0",
                            name, knots[i], i),
                   CLINK_ERR_RANGE;
        if (!(knots[i] < d->wear.wall))
            return snprintf(err, size,
                            "clearance joint '%s': worn depth %g m at %.4g deg reaches the wall "
                            "thickness %g m: the bearing is worn through",
                            name, knots[i], 360.0 * i / nknots, d->wear.wall),
                   CLINK_ERR_RANGE;
    }
    clink_profile_def p;
    memset(&p, 0, sizeof p);
    if (nknots > 0) {
        kinematics_worn_bore_profile(&p, d->bearing_radius, nknots, knots);
        double rho = kinematics_worn_bore_min_radius(&p);
        if (!(rho > d->journal_radius))
            return snprintf(err, size,
                            "clearance joint '%s': the worn bore's smallest radius of curvature "
                            "%g m is below the journal radius %g m (the journal would bridge the "
                            "groove); use fewer knots or smaller updates",
                            name, rho, d->journal_radius),
                   CLINK_ERR_RANGE;
    }
    if (wear_model_pin_misfit(d,
                              nknots > 0 ? kinematics_worn_bore_min_radius(&p) : d->bearing_radius,
                              name, err, size))
        return CLINK_ERR_RANGE;
    d->wear.nknots = nknots;
    for (int i = 0; i < nknots; i++)
        d->wear.depth[i] = knots[i];
    for (int k = 0; k < m->d.ncontacts; k++)
        if (m->d.contacts[k].element == e)
            m->d.contacts[k].geo.sa.profile = p;
    return CLINK_OK;
}

clink_status clink_model_set_worn_guide(clink_model *m, int joint, int nknots, const double *lower,
                                        const double *upper, char *err, size_t size)
{
    char dummy[8];
    if (!err)
        err = dummy, size = sizeof dummy;
    const int kind = CLINK_ELEMENT_TRANSLATIONAL_CLEARANCE;
    if (!m || joint < 0 || joint >= m->d.nof_kind[kind] || (nknots > 0 && (!lower || !upper)) ||
        (nknots != 0 && (nknots < 2 || nknots > CLINK_WEAR_MAX_KNOTS)))
        return snprintf(err, size, "worn guide: joint %d or %d knots out of range", joint, nknots),
               CLINK_ERR_ARG;
    int e = m->d.of_kind[kind][joint];
    clink_translational_clearance_def *d = &m->d.elems[e].def.translational_clearance, t = *d;
    t.guide_nknots = nknots;
    for (int i = 0; i < nknots; i++) {
        t.guide_depth[0][i] = lower[i];
        t.guide_depth[1][i] = upper[i];
    }
    clink_status st = element_worn_guide_check(&t, m->d.elems[e].label, err, size);
    if (st != CLINK_OK)
        return st;
    *d = t;
    /* the element's contacts, corner k against the lower (even) and upper (odd) surface */
    int first = -1;
    for (int k = 0; k < m->d.ncontacts; k++) {
        if (m->d.contacts[k].element != e)
            continue;
        if (first < 0)
            first = k;
        clink_shape_def *sa = &m->d.contacts[k].geo.sa;
        memset(&sa->profile, 0, sizeof sa->profile);
        if (nknots > 0) {
            kinematics_worn_line_profile(&sa->profile, d->guide_length, nknots,
                                         d->guide_depth[(k - first) % 2]);
            sa->b[0] = d->axis[0], sa->b[1] = d->axis[1];
            sa->angle[0] = d->guide_length;
        }
    }
    return CLINK_OK;
}
