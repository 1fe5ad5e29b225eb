/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Contact geometry between body-fixed planar shapes: penetration, its rate,
 * normal, tangent, contact points and slip velocity (see contact_geometry.h for
 * the formulas and sign conventions).
 *
 * The pair functions are reached through the registry at the end of the evaluation
 * section (registry[A][B], contact_shapes.h): one entry per ordered pair of shapes with
 * its geometry, its exact derivatives or NULL (central differences in the simulation's
 * Jacobian) and its contact points; the polygon's entries are in contact_polygon.c.
 *
 * Closest points of two segments follow the clamped parametric solution of the
 * 2-by-2 least-squares problem |(a1 + s u) - (a2 + t v)|^2 -> min over s, t in
 * [0, 1] (as in Ericson, Real-Time Collision Detection, Sect. 5.1.9).
 */
#include "kinematics/contact_geometry.h"
#include "kinematics/contact_polygon.h"
#include "kinematics/contact_profile.h"
#include "kinematics/contact_shapes.h"

#include <math.h>

/* world position of a body-frame point (rot = cos, sin of the body's angle) */
static void to_world(const kinematics_pose *p, const double rot[2], const double local[2],
                     double w[2])
{
    double c = rot[0], s = rot[1];

    w[0] = p->q[0] + c * local[0] - s * local[1];
    w[1] = p->q[1] + s * local[0] + c * local[1];
}

/* world direction of a body-frame direction */
static void rotate(const double rot[2], const double local[2], double w[2])
{
    double c = rot[0], s = rot[1];

    w[0] = c * local[0] - s * local[1];
    w[1] = s * local[0] + c * local[1];
}

/* velocity of the material point of the body now at world point w */
static void point_velocity(const kinematics_pose *p, const double w[2], double v[2])
{
    v[0] = p->qd[0] - p->qd[2] * (w[1] - p->q[1]);
    v[1] = p->qd[1] + p->qd[2] * (w[0] - p->q[0]);
}

static double clamp01(double x)
{
    return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
}

/* closest points q1 on segment a1-b1 and q2 on segment a2-b2 */
static void closest_segments(const double a1[2], const double b1[2], const double a2[2],
                             const double b2[2], double q1[2], double q2[2])
{
    double u[2] = {b1[0] - a1[0], b1[1] - a1[1]};
    double v[2] = {b2[0] - a2[0], b2[1] - a2[1]};
    double w[2] = {a1[0] - a2[0], a1[1] - a2[1]};
    double uu = u[0] * u[0] + u[1] * u[1], vv = v[0] * v[0] + v[1] * v[1];
    double uv = u[0] * v[0] + u[1] * v[1];
    double uw = u[0] * w[0] + u[1] * w[1], vw = v[0] * w[0] + v[1] * w[1];
    double s, t, den = uu * vv - uv * uv;

    if (uu <= 0.0 && vv <= 0.0) {
        s = t = 0.0;
    } else if (uu <= 0.0) {
        s = 0.0;
        t = clamp01(vw / vv);
    } else if (vv <= 0.0) {
        t = 0.0;
        s = clamp01(-uw / uu);
    } else {
        /* parallel segments (den = 0): any s, take s = 0 */
        s = den > 1e-300 * uu * vv ? clamp01((uv * vw - vv * uw) / den) : 0.0;
        t = (uv * s + vw) / vv;
        if (t < 0.0) {
            t = 0.0;
            s = clamp01(-uw / uu);
        } else if (t > 1.0) {
            t = 1.0;
            s = clamp01((uv - uw) / uu);
        }
    }
    q1[0] = a1[0] + s * u[0];
    q1[1] = a1[1] + s * u[1];
    q2[0] = a2[0] + t * v[0];
    q2[1] = a2[1] + t * v[1];
}

/* fill delta_dot, contact points, tangent and slip from n, q_a, q_b and the radii */
static void finish(const kinematics_pose *pa, const kinematics_pose *pb, const double qa[2],
                   const double qb[2], double ra, double rb, double rate_sign,
                   kinematics_contact *out)
{
    double vqa[2], vqb[2], vpa[2], vpb[2];

    point_velocity(pa, qa, vqa);
    point_velocity(pb, qb, vqb);
    out->delta_dot = rate_sign * (out->n[0] * (vqb[0] - vqa[0]) + out->n[1] * (vqb[1] - vqa[1]));
    out->t[0] = -out->n[1];
    out->t[1] = out->n[0];
    /* surface points: each core point moved by its radius towards the other body */
    out->p_a[0] = qa[0] + ra * out->n[0];
    out->p_a[1] = qa[1] + ra * out->n[1];
    out->p_b[0] = qb[0] - rb * out->n[0];
    out->p_b[1] = qb[1] - rb * out->n[1];
    point_velocity(pa, out->p_a, vpa);
    point_velocity(pb, out->p_b, vpb);
    out->v_t = out->t[0] * (vpb[0] - vpa[0]) + out->t[1] * (vpb[1] - vpa[1]);
}

/* external contact of two cores given by their closest points */
static void external(const kinematics_pose *pa, const kinematics_pose *pb, const double qa[2],
                     const double qb[2], double ra, double rb, kinematics_contact *out)
{
    double d[2] = {qb[0] - qa[0], qb[1] - qa[1]};
    double dist = hypot(d[0], d[1]);

    if (dist > 0.0) {
        out->n[0] = d[0] / dist;
        out->n[1] = d[1] / dist;
    } else { /* coincident cores: any direction is as good */
        out->n[0] = 1.0;
        out->n[1] = 0.0;
    }
    out->delta = ra + rb - dist;
    finish(pa, pb, qa, qb, ra, rb, -1.0, out);
}

int kinematics_contact_eval(const kinematics_shape *sa, const kinematics_pose *pa,
                            const kinematics_shape *sb, const kinematics_pose *pb,
                            kinematics_contact *out)
{
    double ra[2] = {cos(pa->q[2]), sin(pa->q[2])}, rb[2] = {cos(pb->q[2]), sin(pb->q[2])};

    return kinematics_contact_eval_rot(sa, pa, ra, sb, pb, rb, out);
}

/* a line (shape A) against the core of B from a2 to b2: the deepest point of the core */
static void contact_line(const kinematics_shape *sa, const kinematics_pose *pa,
                         const double rot_a[2], const kinematics_shape *sb,
                         const kinematics_pose *pb, const double a2[2], const double b2[2],
                         kinematics_contact *out)
{
    double a1[2], qa[2], qb[2];
    double nw[2], s1, s2;

    to_world(pa, rot_a, sa->a, a1);
    rotate(rot_a, sa->nrm, nw);
    /* the deepest point of B's core: signed heights above the line */
    s1 = nw[0] * (a2[0] - a1[0]) + nw[1] * (a2[1] - a1[1]);
    s2 = nw[0] * (b2[0] - a1[0]) + nw[1] * (b2[1] - a1[1]);
    if (s2 < s1) {
        qb[0] = b2[0], qb[1] = b2[1];
        s1 = s2;
    } else {
        qb[0] = a2[0], qb[1] = a2[1];
    }
    /* foot of the perpendicular on the line, a material point of A */
    qa[0] = qb[0] - s1 * nw[0];
    qa[1] = qb[1] - s1 * nw[1];
    out->n[0] = nw[0];
    out->n[1] = nw[1];
    out->delta = sb->r - s1;
    finish(pa, pb, qa, qb, 0.0, sb->r, -1.0, out);
}

/* a bore (shape A) around the circle of B centred at a2 */
static int contact_bore(const kinematics_shape *sa, const kinematics_pose *pa,
                        const double rot_a[2], const kinematics_shape *sb,
                        const kinematics_pose *pb, const double a2[2], kinematics_contact *out)
{
    double qa[2], qb[2];
    double e[2], dist;

    if (sb->kind != CLINK_SHAPE_CIRCLE)
        return -1;
    to_world(pa, rot_a, sa->a, qa);
    qb[0] = a2[0], qb[1] = a2[1];
    e[0] = qb[0] - qa[0];
    e[1] = qb[1] - qa[1];
    dist = hypot(e[0], e[1]);
    if (dist > 0.0) {
        out->n[0] = -e[0] / dist;
        out->n[1] = -e[1] / dist;
    } else { /* centred journal: far from contact, direction arbitrary */
        out->n[0] = -1.0;
        out->n[1] = 0.0;
    }
    out->delta = dist - (sa->r - sb->r);
    /* the bore's surface point lies at distance R_A from its centre along -n */
    finish(pa, pb, qa, qb, -sa->r, sb->r, -1.0, out);
    return 0;
}

/* ---- the pair functions of the registry (contact_shapes.h) ------------------- */

/* B's core in world coordinates: a2 to b2 (a circle's is the point a2 = b2) */
static void core_b(const kinematics_shape *sb, const kinematics_pose *pb, const double rot_b[2],
                   double a2[2], double b2[2])
{
    to_world(pb, rot_b, sb->a, a2);
    if (sb->kind == CLINK_SHAPE_CAPSULE)
        to_world(pb, rot_b, sb->b, b2);
    else
        b2[0] = a2[0], b2[1] = a2[1];
}

/* two circles: closest_segments' s = t = 0 with u = v = 0, so q = a + 0 * 0 */
static int pair_circles(const kinematics_shape *sa, const kinematics_pose *pa,
                        const double rot_a[2], const kinematics_shape *sb,
                        const kinematics_pose *pb, const double rot_b[2], kinematics_contact *out)
{
    double a1[2], a2[2], b2[2], qa[2], qb[2];

    core_b(sb, pb, rot_b, a2, b2);
    to_world(pa, rot_a, sa->a, a1);
    qa[0] = a1[0] + 0.0, qa[1] = a1[1] + 0.0;
    qb[0] = a2[0] + 0.0, qb[1] = a2[1] + 0.0;
    external(pa, pb, qa, qb, sa->r, sb->r, out);
    return 0;
}

/* circles and capsules: the closest points of the two cores (segments or points) */
static int pair_segments(const kinematics_shape *sa, const kinematics_pose *pa,
                         const double rot_a[2], const kinematics_shape *sb,
                         const kinematics_pose *pb, const double rot_b[2], kinematics_contact *out)
{
    double a1[2], b1[2], a2[2], b2[2], qa[2], qb[2];

    core_b(sb, pb, rot_b, a2, b2);
    to_world(pa, rot_a, sa->a, a1);
    if (sa->kind == CLINK_SHAPE_CAPSULE)
        to_world(pa, rot_a, sa->b, b1);
    else
        b1[0] = a1[0], b1[1] = a1[1];
    closest_segments(a1, b1, a2, b2, qa, qb);
    external(pa, pb, qa, qb, sa->r, sb->r, out);
    return 0;
}

/* a line against a circle or a capsule: the deepest point of its core */
static int pair_line(const kinematics_shape *sa, const kinematics_pose *pa, const double rot_a[2],
                     const kinematics_shape *sb, const kinematics_pose *pb, const double rot_b[2],
                     kinematics_contact *out)
{
    double a2[2], b2[2];

    core_b(sb, pb, rot_b, a2, b2);
    contact_line(sa, pa, rot_a, sb, pb, a2, b2, out);
    return 0;
}

/* a bore around a circle */
static int pair_bore(const kinematics_shape *sa, const kinematics_pose *pa, const double rot_a[2],
                     const kinematics_shape *sb, const kinematics_pose *pb, const double rot_b[2],
                     kinematics_contact *out)
{
    double a2[2], b2[2];

    if (sb->prof) /* a worn pin (contact_profile.c) */
        return kinematics_pair_worn_pin(sa, pa, rot_a, sb, pb, rot_b, out);
    if (sa->prof) /* a worn bore (contact_profile.c) */
        return kinematics_pair_worn_bore_circle(sa, pa, rot_a, sb, pb, rot_b, out);
    core_b(sb, pb, rot_b, a2, b2);
    return contact_bore(sa, pa, rot_a, sb, pb, a2, out);
}

static int diff_round(const kinematics_shape *sa, const kinematics_pose *pa,
                      const kinematics_shape *sb, const kinematics_pose *pb,
                      kinematics_contact_diff *out);

/* a line around a circle: a worn guide's through its stand-in (contact_profile.c) */
static int pair_line_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                            const double rot_a[2], const kinematics_shape *sb,
                            const kinematics_pose *pb, const double rot_b[2],
                            kinematics_contact *out)
{
    if (sa->prof)
        return kinematics_pair_worn_line(sa, pa, rot_a, sb, pb, rot_b, out);
    return pair_line(sa, pa, rot_a, sb, pb, rot_b, out);
}

static int diff_line_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                            const kinematics_shape *sb, const kinematics_pose *pb,
                            kinematics_contact_diff *out)
{
    if (sa->prof)
        return kinematics_diff_worn_line(sa, pa, sb, pb, out);
    return diff_round(sa, pa, sb, pb, out);
}

/* a bore's derivatives: a worn bore's through its stand-in (contact_profile.c) */
static int diff_bore(const kinematics_shape *sa, const kinematics_pose *pa,
                     const kinematics_shape *sb, const kinematics_pose *pb,
                     kinematics_contact_diff *out)
{
    if (sb->prof)
        return kinematics_diff_worn_pin(sa, pa, sb, pb, out);
    if (sa->prof)
        return kinematics_diff_worn_bore_circle(sa, pa, sb, pb, out);
    return diff_round(sa, pa, sb, pb, out);
}

/*
 * The registry: [A][B] the geometry of shape A against shape B, its exact derivatives
 * (NULL: central differences in the simulation's Jacobian), the number of its contact
 * points and their vertex features (NULL: one, the whole shapes).
 */
#define C_ CLINK_SHAPE_CIRCLE
#define K_ CLINK_SHAPE_CAPSULE
#define L_ CLINK_SHAPE_LINE
#define B_ CLINK_SHAPE_BORE
#define P_ CLINK_SHAPE_POLYGON
#define A_ CLINK_SHAPE_ARC
#define F_ CLINK_SHAPE_PROFILE
#define N_ CLINK_SHAPE_TYPE_COUNT_
static const kinematics_pair_entry registry[N_][N_] = {
    [C_][C_] = {pair_circles, diff_round, NULL, NULL},
    [C_][K_] = {pair_segments, NULL, NULL, NULL},
    [K_][C_] = {pair_segments, NULL, NULL, NULL},
    [K_][K_] = {pair_segments, NULL, NULL, NULL},
    [L_][C_] = {pair_line_circle, diff_line_circle, NULL, NULL},
    [L_][K_] = {pair_line, NULL, NULL, NULL},
    [B_][C_] = {pair_bore, diff_bore, NULL, NULL},
    [L_][P_] = {kinematics_pair_line_polygon, kinematics_diff_line_polygon,
                kinematics_points_vertices_b, kinematics_point_vertex_b},
    [P_][C_] = {kinematics_pair_polygon_circle, kinematics_diff_polygon_circle, NULL, NULL},
    [P_][P_] = {kinematics_pair_polygons, kinematics_diff_polygons, kinematics_points_vertices_ab,
                kinematics_point_vertex_ab},
    [A_][C_] = {kinematics_pair_arc_circle, kinematics_diff_arc_circle, NULL, NULL},
    [F_][C_] = {kinematics_pair_profile_circle, kinematics_diff_profile_circle, NULL, NULL},
    [L_][F_] = {kinematics_pair_line_profile, kinematics_diff_line_profile, NULL, NULL},
    [CLINK_SHAPE_FLANK][CLINK_SHAPE_FLANK] = {kinematics_pair_flanks, kinematics_diff_flanks, NULL,
                                              NULL, kinematics_flank_stiffness},
};
#undef C_
#undef K_
#undef L_
#undef B_
#undef P_
#undef A_
#undef F_
#undef N_

const kinematics_pair_entry *kinematics_pair_of(clink_shape_type a, clink_shape_type b)
{
    if ((unsigned) a >= CLINK_SHAPE_TYPE_COUNT_ || (unsigned) b >= CLINK_SHAPE_TYPE_COUNT_ ||
        registry[a][b].eval == NULL)
        return NULL;
    return &registry[a][b];
}

int kinematics_pair_npoints(const clink_shape_def *a, const clink_shape_def *b)
{
    const kinematics_pair_entry *e = kinematics_pair_of(a->type, b->type);
    return !e ? 0 : e->npoints ? e->npoints(a, b) : 1;
}

void kinematics_pair_point(const clink_shape_def *a, const clink_shape_def *b, int i, int *va,
                           int *vb)
{
    const kinematics_pair_entry *e = kinematics_pair_of(a->type, b->type);
    *va = *vb = 0;
    if (e && e->point)
        e->point(a, b, i, va, vb);
}

int kinematics_contact_eval_rot(const kinematics_shape *sa, const kinematics_pose *pa,
                                const double rot_a[2], const kinematics_shape *sb,
                                const kinematics_pose *pb, const double rot_b[2],
                                kinematics_contact *out)
{
    const kinematics_pair_entry *e = kinematics_pair_of(sa->kind, sb->kind);
    out->share = 0.0; /* no third body */
    return e ? e->eval(sa, pa, rot_a, sb, pb, rot_b, out) : -1;
}

/* ---- the direct path of two circles (kinematics_contact_circles) ------------- */

int kinematics_contact_circles_ok(const kinematics_shape *s, int body)
{
    return s->kind == CLINK_SHAPE_CIRCLE && !s->prof &&
           (body <= 0 || (s->a[0] == 0.0 && s->a[1] == 0.0));
}

void kinematics_point_force(const double q[3], const double p[2], const double f[2], double Q[3])
{
    Q[0] = f[0];
    Q[1] = f[1];
    Q[2] = (p[0] - q[0]) * f[1] - (p[1] - q[1]) * f[0];
}

/* ---- derivatives (kinematics_contact_eval_diff) ---------------------------- */

typedef kinematics_dual kd;

static kd kd_const(double x)
{
    kd r;
    r.v = x;
    for (int i = 0; i < KINEMATICS_NDIFF; i++)
        r.d[i] = 0.0;
    return r;
}

kinematics_dual kinematics_dual_add(kinematics_dual a, kinematics_dual b)
{
    a.v += b.v;
    for (int i = 0; i < KINEMATICS_NDIFF; i++)
        a.d[i] += b.d[i];
    return a;
}

kinematics_dual kinematics_dual_sub(kinematics_dual a, kinematics_dual b)
{
    a.v -= b.v;
    for (int i = 0; i < KINEMATICS_NDIFF; i++)
        a.d[i] -= b.d[i];
    return a;
}

kinematics_dual kinematics_dual_mul(kinematics_dual a, kinematics_dual b)
{
    kd r;
    r.v = a.v * b.v;
    for (int i = 0; i < KINEMATICS_NDIFF; i++)
        r.d[i] = a.d[i] * b.v + a.v * b.d[i];
    return r;
}

kinematics_dual kinematics_dual_scale(kinematics_dual a, double s)
{
    a.v *= s;
    for (int i = 0; i < KINEMATICS_NDIFF; i++)
        a.d[i] *= s;
    return a;
}

#define KD_ADD   kinematics_dual_add
#define KD_SUB   kinematics_dual_sub
#define KD_MUL   kinematics_dual_mul
#define KD_SCALE kinematics_dual_scale

/* a / b */
static kd kd_div(kd a, kd b)
{
    kd r;
    r.v = a.v / b.v;
    for (int i = 0; i < KINEMATICS_NDIFF; i++)
        r.d[i] = (a.d[i] - r.v * b.d[i]) / b.v;
    return r;
}

/* |(x, y)| (> 0) */
static kd kd_norm(kd x, kd y)
{
    kd r;
    r.v = hypot(x.v, y.v);
    for (int i = 0; i < KINEMATICS_NDIFF; i++)
        r.d[i] = (x.v * x.d[i] + y.v * y.d[i]) / r.v;
    return r;
}

/* a body's pose as duals: coordinates seeded at slot 3 side, rates at 6 + 3 side */
typedef struct kd_pose {
    kd q[3], qd[3], c, s;
} kd_pose;

static void kd_pose_of(const kinematics_pose *p, int side, kd_pose *o)
{
    for (int k = 0; k < 3; k++) {
        o->q[k] = kd_const(p ? p->q[k] : 0.0);
        o->qd[k] = kd_const(p ? p->qd[k] : 0.0);
        if (p) {
            o->q[k].d[3 * side + k] = 1.0;
            o->qd[k].d[6 + 3 * side + k] = 1.0;
        }
    }
    double phi = p ? p->q[2] : 0.0;
    o->c = kd_const(cos(phi));
    o->s = kd_const(sin(phi));
    if (p) {
        o->c.d[3 * side + 2] = -sin(phi);
        o->s.d[3 * side + 2] = cos(phi);
    }
}

/* world position of a body-frame point */
static void kd_to_world(const kd_pose *p, const double l[2], kd w[2])
{
    w[0] = KD_ADD(p->q[0], KD_SUB(KD_SCALE(p->c, l[0]), KD_SCALE(p->s, l[1])));
    w[1] = KD_ADD(p->q[1], KD_ADD(KD_SCALE(p->s, l[0]), KD_SCALE(p->c, l[1])));
}

/* velocity of the material point of the body now at w */
static void kd_point_velocity(const kd_pose *p, const kd w[2], kd v[2])
{
    v[0] = KD_SUB(p->qd[0], KD_MUL(p->qd[2], KD_SUB(w[1], p->q[1])));
    v[1] = KD_ADD(p->qd[1], KD_MUL(p->qd[2], KD_SUB(w[0], p->q[0])));
}

/* finish() in duals: rate, tangent, surface points and slip from n, the core points, radii */
static void kd_finish(const kd_pose *pa, const kd_pose *pb, const kd qa[2], const kd qb[2],
                      double ra, double rb, kinematics_contact_diff *out)
{
    kd vqa[2], vqb[2], vpa[2], vpb[2];
    kd_point_velocity(pa, qa, vqa);
    kd_point_velocity(pb, qb, vqb);
    out->delta_dot = KD_SCALE(KD_ADD(KD_MUL(out->n[0], KD_SUB(vqb[0], vqa[0])),
                                     KD_MUL(out->n[1], KD_SUB(vqb[1], vqa[1]))),
                              -1.0);
    out->t[0] = KD_SCALE(out->n[1], -1.0);
    out->t[1] = out->n[0];
    for (int k = 0; k < 2; k++) {
        out->p_a[k] = KD_ADD(qa[k], KD_SCALE(out->n[k], ra));
        out->p_b[k] = KD_SUB(qb[k], KD_SCALE(out->n[k], rb));
    }
    kd_point_velocity(pa, out->p_a, vpa);
    kd_point_velocity(pb, out->p_b, vpb);
    out->v_t = KD_ADD(KD_MUL(out->t[0], KD_SUB(vpb[0], vpa[0])),
                      KD_MUL(out->t[1], KD_SUB(vpb[1], vpa[1])));
}

/* circle or bore against a circle, a line against a circle: the cores are points */
static int diff_round(const kinematics_shape *sa, const kinematics_pose *pa,
                      const kinematics_shape *sb, const kinematics_pose *pb,
                      kinematics_contact_diff *out)
{
    kd_pose A, B;
    kd ca[2], cb[2];
    if (sb->kind != CLINK_SHAPE_CIRCLE)
        return -1;
    kd_pose_of(pa, 0, &A);
    kd_pose_of(pb, 1, &B);
    kd_to_world(&B, sb->a, cb);
    if (sa->kind == CLINK_SHAPE_LINE) {
        kd nw[2], qa[2];
        kd_to_world(&A, sa->a, ca);
        /* the normal rotated with A */
        nw[0] = KD_SUB(KD_SCALE(A.c, sa->nrm[0]), KD_SCALE(A.s, sa->nrm[1]));
        nw[1] = KD_ADD(KD_SCALE(A.s, sa->nrm[0]), KD_SCALE(A.c, sa->nrm[1]));
        kd s1 = KD_ADD(KD_MUL(nw[0], KD_SUB(cb[0], ca[0])), KD_MUL(nw[1], KD_SUB(cb[1], ca[1])));
        for (int k = 0; k < 2; k++) {
            qa[k] = KD_SUB(cb[k], KD_MUL(s1, nw[k]));
            out->n[k] = nw[k];
        }
        out->delta = KD_SUB(kd_const(sb->r), s1);
        kd_finish(&A, &B, qa, cb, 0.0, sb->r, out);
        return 0;
    }
    if (sa->kind != CLINK_SHAPE_CIRCLE && sa->kind != CLINK_SHAPE_BORE)
        return -1;
    kd_to_world(&A, sa->a, ca);
    kd d[2] = {KD_SUB(cb[0], ca[0]), KD_SUB(cb[1], ca[1])};
    if (!(hypot(d[0].v, d[1].v) > 0.0))
        return -1;
    kd dist = kd_norm(d[0], d[1]);
    int bore = sa->kind == CLINK_SHAPE_BORE;
    /* external: n = d / |d|, delta = r_A + r_B - |d|; bore: n = -d / |d|,
       delta = |d| - (R_A - r_B), the bore's surface at -R_A along n */
    for (int k = 0; k < 2; k++)
        out->n[k] = KD_SCALE(kd_div(d[k], dist), bore ? -1.0 : 1.0);
    out->delta =
        bore ? KD_SUB(dist, kd_const(sa->r - sb->r)) : KD_SUB(kd_const(sa->r + sb->r), dist);
    kd_finish(&A, &B, ca, cb, bore ? -sa->r : sa->r, sb->r, out);
    return 0;
}

int kinematics_contact_eval_diff(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const kinematics_shape *sb, const kinematics_pose *pb,
                                 kinematics_contact_diff *out)
{
    const kinematics_pair_entry *e = kinematics_pair_of(sa->kind, sb->kind);
    return e && e->diff ? e->diff(sa, pa, sb, pb, out) : -1;
}
