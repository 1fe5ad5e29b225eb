/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_shapes.c: the shape table (contact_shapes.h), one row per clink_shape_type:
 *
 *   circle   <circle center radius>          round, central   R = radius, size radius
 *   capsule  <capsule point1 point2 radius>                   R = radius (as a sphere's)
 *   line     <line point normal>             flat, central    R = INFINITY, no size
 *   bore     (clearance joints only)         round, central   R = radius (internal)
 *   polygon  <polygon vertices>                               R = INFINITY (flat edges),
 *                                                             size: half its shortest edge
 *   arc      <arc center radius angles concave>               R = radius (-radius concave)
 *   profile  <profile center angle table | law ...>           R = size = the smallest convex
 *                                                             radius of curvature
 *
 * Each row's check refuses what the geometry cannot use: a radius <= 0, a capsule whose
 * ends coincide, a zero normal, a polygon with fewer than 3 or more than
 * CLINK_SHAPE_MAX_VERTICES vertices, with coincident or collinear neighbours, or not
 * convex (the cross products of consecutive edges change sign, or the boundary winds
 * around more than once); it orders a clockwise polygon counter-clockwise.
 */
#include "kinematics/contact_shapes.h"
#include "kinematics/contact_profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FIELD_(attr, kind, member, x, y)                                                           \
    {                                                                                              \
        attr, kind, offsetof(clink_shape_def, member),                                             \
        {                                                                                          \
            x, y                                                                                   \
        }                                                                                          \
    }

static int check_round(clink_shape_def *s, char *msg, size_t size, clink_status *st)
{
    *st = CLINK_ERR_RANGE;
    if (!(s->radius > 0.0))
        return snprintf(msg, size, "radius %g m is out of range; radius > 0", s->radius), -1;
    if (s->type == CLINK_SHAPE_CAPSULE && s->a[0] == s->b[0] && s->a[1] == s->b[1])
        return snprintf(msg, size, "capsule ends coincide; use a circle"), -1;
    return 0;
}

static int check_line(clink_shape_def *s, char *msg, size_t size, clink_status *st)
{
    double l = hypot(s->normal[0], s->normal[1]);
    *st = CLINK_ERR_RANGE;
    if (!(l > 0.0))
        return snprintf(msg, size, "line normal is zero; give its outward normal"), -1;
    s->normal[0] /= l;
    s->normal[1] /= l;
    return 0;
}

static int check_bore(clink_shape_def *s, char *msg, size_t size, clink_status *st)
{
    (void) s;
    *st = CLINK_ERR_ARG;
    return snprintf(msg, size,
                    "is a bore, which only a clearance joint has "
                    "(clink_model_builder_add_clearance_joint)"),
           -1;
}

static int check_flank(clink_shape_def *s, char *msg, size_t size, clink_status *st)
{
    (void) s;
    *st = CLINK_ERR_ARG;
    return snprintf(msg, size,
                    "is a gear's flank, which only a gear pair has "
                    "(clink_model_builder_add_gear_pair)"),
           -1;
}

/* twice the signed area of the polygon */
static double polygon_area2(const clink_shape_def *s)
{
    double a = 0.0;
    for (int i = 0; i < s->nvertices; i++) {
        const double *p = s->vertices[i], *q = s->vertices[(i + 1) % s->nvertices];
        a += p[0] * q[1] - q[0] * p[1];
    }
    return a;
}

/* z of (v_{i+1} - v_i) x (v_{i+2} - v_{i+1}) */
static double turn(const clink_shape_def *s, int i)
{
    int n = s->nvertices;
    const double *a = s->vertices[i], *b = s->vertices[(i + 1) % n], *c = s->vertices[(i + 2) % n];
    return (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
}

static int check_polygon(clink_shape_def *s, char *msg, size_t size, clink_status *st)
{
    int n = s->nvertices;
    *st = CLINK_ERR_RANGE;
    if (n < 3 || n > CLINK_SHAPE_MAX_VERTICES)
        return snprintf(msg, size, "polygon has %d vertices; it needs 3 to %d", n,
                        CLINK_SHAPE_MAX_VERTICES),
               -1;
    for (int i = 0; i < n; i++)
        if (!isfinite(s->vertices[i][0]) || !isfinite(s->vertices[i][1]))
            return snprintf(msg, size, "polygon vertex %d is not finite", i + 1), -1;
    double area = polygon_area2(s), sign = area > 0.0 ? 1.0 : -1.0;
    for (int i = 0; i < n; i++)
        if (!(sign * turn(s, i) > 0.0))
            return snprintf(msg, size,
                            "polygon is not convex at vertex %d (vertices in order around a "
                            "convex outline, no three on a line)",
                            (i + 1) % n + 1),
                   -1;
    /* turning the same way at every vertex and winding once: the angles sum to 2 pi */
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        const double *a = s->vertices[i], *b = s->vertices[(i + 1) % n],
                     *c = s->vertices[(i + 2) % n];
        total +=
            fabs(atan2(turn(s, i), (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1])));
    }
    if (fabs(total - 6.283185307179586) > 1e-6)
        return snprintf(msg, size, "polygon is not convex: its outline crosses itself"), -1;
    if (area < 0.0) /* clockwise: reverse */
        for (int i = 0; i < n / 2; i++)
            for (int k = 0; k < 2; k++) {
                double x = s->vertices[i][k];
                s->vertices[i][k] = s->vertices[n - 1 - i][k];
                s->vertices[n - 1 - i][k] = x;
            }
    return 0;
}

static double radius_arc(const clink_shape_def *s)
{
    return s->concave ? -s->radius : s->radius;
}

/* the smallest convex radius of curvature of the profile's surface */
static double radius_profile(const clink_shape_def *s)
{
    kinematics_shape k;
    kinematics_shape_of(s, 0, &k);
    return k.r;
}

static double radius_of(const clink_shape_def *s)
{
    return s->radius;
}

static double radius_flat(const clink_shape_def *s)
{
    (void) s;
    return INFINITY;
}

static double size_of(const kinematics_shape *s)
{
    return s->r;
}

static double size_none(const kinematics_shape *s)
{
    (void) s;
    return INFINITY;
}

static double size_polygon(const kinematics_shape *s)
{
    double m = INFINITY;
    for (int i = 0; i < s->nv; i++) {
        const double *a = s->v[i], *b = s->v[(i + 1) % s->nv];
        m = fmin(m, 0.5 * hypot(b[0] - a[0], b[1] - a[1]));
    }
    return m;
}

static double length_none(const kinematics_shape *s)
{
    (void) s;
    return 0.0;
}

#define ROUND_   KINEMATICS_SHAPE_ROUND
#define FLAT_    KINEMATICS_SHAPE_FLAT
#define CENTRAL_ KINEMATICS_SHAPE_CENTRAL
#define VEC2_    KINEMATICS_FIELD_VEC2
#define NUM_     KINEMATICS_FIELD_NUMBER

static const kinematics_shape_class shape_table[CLINK_SHAPE_TYPE_COUNT_] = {
    [CLINK_SHAPE_CIRCLE] = {CLINK_SHAPE_CIRCLE,
                            "circle",
                            "circle",
                            {FIELD_("center", VEC2_, a, 0.0, 0.0),
                             FIELD_("radius", NUM_, radius, NAN, NAN)},
                            2,
                            ROUND_ | CENTRAL_,
                            check_round,
                            radius_of,
                            size_of,
                            size_of},
    [CLINK_SHAPE_CAPSULE] = {CLINK_SHAPE_CAPSULE,
                             "capsule",
                             "capsule",
                             {FIELD_("point1", VEC2_, a, NAN, NAN),
                              FIELD_("point2", VEC2_, b, NAN, NAN),
                              FIELD_("radius", NUM_, radius, NAN, NAN)},
                             3,
                             0,
                             check_round,
                             radius_of,
                             size_of,
                             size_of},
    [CLINK_SHAPE_LINE] = {CLINK_SHAPE_LINE,
                          "line",
                          "line",
                          {FIELD_("point", VEC2_, a, 0.0, 0.0),
                           FIELD_("normal", VEC2_, normal, NAN, NAN)},
                          2,
                          FLAT_ | CENTRAL_,
                          check_line,
                          radius_flat,
                          size_none,
                          length_none},
    [CLINK_SHAPE_BORE] = {CLINK_SHAPE_BORE,
                          "bore",
                          NULL,
                          {{0}},
                          0,
                          ROUND_ | CENTRAL_,
                          check_bore,
                          radius_of,
                          size_of,
                          size_of},
    [CLINK_SHAPE_POLYGON] = {CLINK_SHAPE_POLYGON,
                             "polygon",
                             "polygon",
                             {FIELD_("vertices", KINEMATICS_FIELD_VERTICES, vertices, NAN, NAN)},
                             1,
                             0,
                             check_polygon,
                             radius_flat,
                             size_polygon,
                             size_of},
    [CLINK_SHAPE_ARC] = {CLINK_SHAPE_ARC,
                         "arc",
                         "arc",
                         {FIELD_("center", VEC2_, a, 0.0, 0.0),
                          FIELD_("radius", NUM_, radius, NAN, NAN),
                          FIELD_("angles", KINEMATICS_FIELD_ANGLES, angle, NAN, NAN),
                          FIELD_("concave", KINEMATICS_FIELD_FLAG, concave, 0.0, 0.0)},
                         4,
                         0,
                         kinematics_arc_check,
                         radius_arc,
                         size_of,
                         size_of},
    [CLINK_SHAPE_PROFILE] = {CLINK_SHAPE_PROFILE,
                             "profile",
                             "profile",
                             {FIELD_("center", VEC2_, a, 0.0, 0.0),
                              FIELD_("angle", KINEMATICS_FIELD_ANGLE, angle, 0.0, 0.0),
                              FIELD_("table", KINEMATICS_FIELD_PROFILE, profile, NAN, NAN)},
                             3,
                             0,
                             kinematics_profile_check,
                             radius_profile,
                             size_of,
                             size_of},
    [CLINK_SHAPE_FLANK] =
        {CLINK_SHAPE_FLANK, "flank", NULL, {{0}}, 0, 0, check_flank, radius_flat, size_of, size_of},
};

const kinematics_shape_class *kinematics_shape_class_of(clink_shape_type type)
{
    if ((unsigned) type >= CLINK_SHAPE_TYPE_COUNT_)
        return NULL;
    return &shape_table[type];
}

const kinematics_shape_class *kinematics_shape_class_find(const char *element)
{
    for (int i = 0; element && i < CLINK_SHAPE_TYPE_COUNT_; i++)
        if (shape_table[i].element && strcmp(shape_table[i].element, element) == 0)
            return &shape_table[i];
    return NULL;
}

const char *clink_shape_type_name(clink_shape_type type)
{
    const kinematics_shape_class *c = kinematics_shape_class_of(type);
    return c ? c->name : NULL;
}

int kinematics_shape_has(const kinematics_shape *s, unsigned t)
{
    const kinematics_shape_class *c = kinematics_shape_class_of(s->kind);
    /* a worn bore or pin is neither round nor central: its normal misses the centre */
    unsigned traits = c ? c->traits : 0u;
    if ((s->kind == CLINK_SHAPE_BORE || s->kind == CLINK_SHAPE_CIRCLE) && s->prof)
        traits &= ~(unsigned) (KINEMATICS_SHAPE_ROUND | KINEMATICS_SHAPE_CENTRAL);
    return (traits & t) != 0;
}

void kinematics_shape_of(const clink_shape_def *d, int vertex, kinematics_shape *s)
{
    memset(s, 0, sizeof *s);
    s->kind = d->type;
    memcpy(s->a, d->a, sizeof s->a);
    memcpy(s->b, d->b, sizeof s->b);
    memcpy(s->nrm, d->normal, sizeof s->nrm);
    s->r = d->radius;
    if (d->type == CLINK_SHAPE_POLYGON) {
        s->r = 0.0;
        s->nv = d->nvertices;
        s->v = (const double(*)[2]) d->vertices;
        s->vertex = vertex;
    }
    memcpy(s->ang, d->angle, sizeof s->ang);
    s->concave = d->concave;
    if ((d->type == CLINK_SHAPE_BORE || d->type == CLINK_SHAPE_CIRCLE ||
         d->type == CLINK_SHAPE_LINE) &&
        d->profile.npoints > 0)
        s->prof = &d->profile;        /* a worn bore, pin or guide (contact_profile.c) */
    if (d->type == CLINK_SHAPE_FLANK) /* its mesh parameters (contact_profile.c) */
        s->v = (const double(*)[2]) d->vertices;
    if (d->type == CLINK_SHAPE_PROFILE) {
        /* its size: the smallest convex radius of curvature of the surface */
        double concave;
        s->prof = &d->profile;
        kinematics_profile_radii(s, &s->r, &concave);
    }
}
