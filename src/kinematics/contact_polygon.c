/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_polygon.c: the pair geometry of the convex polygon (vertices v_0 .. v_{m-1}
 * counter-clockwise in body coordinates, no rounding radius), vertex-into-edge contacts
 * as Box2D's polygon manifolds and Flores et al. (2008)'s slider corners make them.
 *
 * Edge i runs from v_i to v_{i+1}; its outward unit normal in body coordinates is
 * n_i = (e_y, -e_x) / |e|, e = v_{i+1} - v_i. A point p (in the polygon's body frame)
 * has the height h_i(p) = n_i . (p - v_i) above edge i; it is inside when every h_i < 0.
 *
 *   line - polygon:    one contact per vertex v_j of the polygon against the half-plane,
 *                      delta_j = -n . (v_j - a) (a line against a circle of radius 0 at
 *                      v_j): smooth.
 *   polygon - circle:  the circle's centre c against the polygon's boundary. Outside: the
 *                      closest point of the boundary, on an edge (delta = r - h_i(c), n the
 *                      edge's normal) or at a vertex (delta = r - |c - v_j|, n along c - v_j);
 *                      continuous with its first derivative across the change of feature.
 *                      Inside (the centre past the boundary, a deep penetration): the edge
 *                      of largest h_i; the normal jumps where two edges tie (the polygon's
 *                      medial axis).
 *   polygon - polygon: one contact per vertex of either polygon against the other,
 *                      delta = -max_i h_i(v) over the other's edges (the depth below the
 *                      nearest edge; < 0 outside), n the normal of that edge, the force at
 *                      the vertex and at its foot on the edge. Not smooth where two edges
 *                      tie: inside, on the bisector of a corner of the other polygon (a deep
 *                      penetration); outside, in the region beyond a corner, where delta < 0
 *                      and no force acts. Two polygons crossing with no vertex of either
 *                      inside the other (a thin bar across another) have no contact: this
 *                      model sees vertices only, so penetrations must stay small against
 *                      the polygons' sizes (a stiff law does that).
 *
 * Each case reduces to a line against a point or a point against a point of the
 * registry (a line against a circle of radius 0, two circles), evaluated and
 * differentiated exactly by those entries (contact_geometry.c); the feature is chosen
 * first, in the polygon's body frame. Where the roles are reversed (a vertex of A into
 * B), the pair is evaluated as (B, A) and turned back: n = -n', t = -t', the points
 * swapped, delta, delta_dot and v_t unchanged.
 */
#include "kinematics/contact_polygon.h"

#include <math.h>
#include <string.h>

/* outward unit normal of edge i of polygon s, body frame */
static void edge_normal(const kinematics_shape *s, int i, double n[2])
{
    const double *a = s->v[i], *b = s->v[(i + 1) % s->nv];
    double e[2] = {b[0] - a[0], b[1] - a[1]}, l = hypot(e[0], e[1]);
    n[0] = e[1] / l;
    n[1] = -e[0] / l;
}

/* world point w in the body frame of the body at pose p, rotation rot */
static void to_local(const kinematics_pose *p, const double rot[2], const double w[2], double l[2])
{
    double d[2] = {w[0] - p->q[0], w[1] - p->q[1]};
    l[0] = rot[0] * d[0] + rot[1] * d[1];
    l[1] = -rot[1] * d[0] + rot[0] * d[1];
}

static void to_world(const kinematics_pose *p, const double rot[2], const double l[2], double w[2])
{
    w[0] = p->q[0] + rot[0] * l[0] - rot[1] * l[1];
    w[1] = p->q[1] + rot[1] * l[0] + rot[0] * l[1];
}

/* the edge of polygon s with the largest height of body-frame point l; *h its height */
static int highest_edge(const kinematics_shape *s, const double l[2], double *h)
{
    int best = 0;
    *h = -INFINITY;
    for (int i = 0; i < s->nv; i++) {
        double n[2];
        edge_normal(s, i, n);
        double hi = n[0] * (l[0] - s->v[i][0]) + n[1] * (l[1] - s->v[i][1]);
        if (hi > *h) {
            *h = hi;
            best = i;
        }
    }
    return best;
}

/* edge i of polygon s as a line shape, vertex j as a point (a circle of radius 0) */
static kinematics_shape edge_line(const kinematics_shape *s, int i)
{
    kinematics_shape l;
    memset(&l, 0, sizeof l);
    l.kind = CLINK_SHAPE_LINE;
    l.a[0] = s->v[i][0], l.a[1] = s->v[i][1];
    edge_normal(s, i, l.nrm);
    return l;
}

static kinematics_shape vertex_point(const kinematics_shape *s, int j)
{
    kinematics_shape c;
    memset(&c, 0, sizeof c);
    c.kind = CLINK_SHAPE_CIRCLE;
    c.a[0] = s->v[j][0], c.a[1] = s->v[j][1];
    return c;
}

/* the registry's line-point and point-point entries */
static const kinematics_pair_entry *line_point(void)
{
    return kinematics_pair_of(CLINK_SHAPE_LINE, CLINK_SHAPE_CIRCLE);
}

static const kinematics_pair_entry *point_point(void)
{
    return kinematics_pair_of(CLINK_SHAPE_CIRCLE, CLINK_SHAPE_CIRCLE);
}

static void rot_of(const kinematics_pose *p, double r[2])
{
    r[0] = p ? cos(p->q[2]) : 1.0;
    r[1] = p ? sin(p->q[2]) : 0.0;
}

/* ---- line - polygon ---------------------------------------------------------- */

/* the vertex of contact sb (1 + index), or the deepest below the line */
static int line_vertex(const kinematics_shape *sa, const kinematics_pose *pa, const double rot_a[2],
                       const kinematics_shape *sb, const kinematics_pose *pb, const double rot_b[2])
{
    if (sb->vertex > 0)
        return sb->vertex - 1;
    double a[2], n[2] = {rot_a[0] * sa->nrm[0] - rot_a[1] * sa->nrm[1],
                         rot_a[1] * sa->nrm[0] + rot_a[0] * sa->nrm[1]};
    to_world(pa, rot_a, sa->a, a);
    int best = 0;
    double hmin = INFINITY;
    for (int j = 0; j < sb->nv; j++) {
        double w[2];
        to_world(pb, rot_b, sb->v[j], w);
        double h = n[0] * (w[0] - a[0]) + n[1] * (w[1] - a[1]);
        if (h < hmin)
            hmin = h, best = j;
    }
    return best;
}

int kinematics_pair_line_polygon(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const double rot_a[2], const kinematics_shape *sb,
                                 const kinematics_pose *pb, const double rot_b[2],
                                 kinematics_contact *out)
{
    kinematics_shape p = vertex_point(sb, line_vertex(sa, pa, rot_a, sb, pb, rot_b));
    return line_point()->eval(sa, pa, rot_a, &p, pb, rot_b, out);
}

int kinematics_diff_line_polygon(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const kinematics_shape *sb, const kinematics_pose *pb,
                                 kinematics_contact_diff *out)
{
    static const kinematics_pose rest = {{0, 0, 0}, {0, 0, 0}};
    double ra[2], rb[2];
    rot_of(pa, ra);
    rot_of(pb, rb);
    kinematics_shape p =
        vertex_point(sb, line_vertex(sa, pa ? pa : &rest, ra, sb, pb ? pb : &rest, rb));
    return line_point()->diff(sa, pa, &p, pb, out);
}

/* ---- polygon - circle --------------------------------------------------------- */

/*
 * The feature of polygon sa closest to body-frame point c: an edge (*edge >= 0) or a
 * vertex (returns its index, *edge = -1)
 */
static int closest_feature(const kinematics_shape *sa, const double c[2], int *edge)
{
    double h;
    int i = highest_edge(sa, c, &h);
    *edge = i;
    if (h <= 0.0)
        return -1; /* inside: the edge of least depth */
    double best = INFINITY;
    int vertex = -1;
    for (int k = 0; k < sa->nv; k++) {
        const double *a = sa->v[k], *b = sa->v[(k + 1) % sa->nv];
        double e[2] = {b[0] - a[0], b[1] - a[1]}, w[2] = {c[0] - a[0], c[1] - a[1]};
        double t = (e[0] * w[0] + e[1] * w[1]) / (e[0] * e[0] + e[1] * e[1]);
        double tc = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        double d = hypot(w[0] - tc * e[0], w[1] - tc * e[1]);
        if (d < best) {
            best = d;
            *edge = t > 0.0 && t < 1.0 ? k : -1;
            vertex = t <= 0.0 ? k : (k + 1) % sa->nv;
        }
    }
    return *edge >= 0 ? -1 : vertex;
}

/* the feature of sa closest to circle sb's centre as a line or a point shape into *f */
static int polygon_circle_feature(const kinematics_shape *sa, const kinematics_pose *pa,
                                  const double rot_a[2], const kinematics_shape *sb,
                                  const kinematics_pose *pb, const double rot_b[2],
                                  kinematics_shape *f)
{
    double cw[2], cl[2];
    int edge;
    to_world(pb, rot_b, sb->a, cw);
    to_local(pa, rot_a, cw, cl);
    int vertex = closest_feature(sa, cl, &edge);
    *f = edge >= 0 ? edge_line(sa, edge) : vertex_point(sa, vertex);
    return edge >= 0;
}

int kinematics_pair_polygon_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                                   const double rot_a[2], const kinematics_shape *sb,
                                   const kinematics_pose *pb, const double rot_b[2],
                                   kinematics_contact *out)
{
    kinematics_shape f;
    int line = polygon_circle_feature(sa, pa, rot_a, sb, pb, rot_b, &f);
    return (line ? line_point() : point_point())->eval(&f, pa, rot_a, sb, pb, rot_b, out);
}

int kinematics_diff_polygon_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                                   const kinematics_shape *sb, const kinematics_pose *pb,
                                   kinematics_contact_diff *out)
{
    static const kinematics_pose rest = {{0, 0, 0}, {0, 0, 0}};
    double ra[2], rb[2];
    kinematics_shape f;
    rot_of(pa, ra);
    rot_of(pb, rb);
    int line = polygon_circle_feature(sa, pa ? pa : &rest, ra, sb, pb ? pb : &rest, rb, &f);
    return (line ? line_point() : point_point())->diff(&f, pa, sb, pb, out);
}

/* ---- polygon - polygon -------------------------------------------------------- */

/*
 * The contact of polygons sa, sb as "edge of `host` against a vertex of `guest`": host and
 * guest (0 = A, 1 = B), the edge line and the vertex point. The vertex is sb's when
 * sb->vertex > 0, sa's when sa->vertex > 0; with neither, the deepest of all vertices.
 */
typedef struct polygon_contact {
    int guest; /* 1: a vertex of B into A (the registry's order); 0: of A into B (reversed) */
    kinematics_shape edge, vertex;
} polygon_contact;

static double vertex_into(const kinematics_shape *host, const kinematics_pose *ph,
                          const double rot_h[2], const kinematics_shape *guest,
                          const kinematics_pose *pg, const double rot_g[2], int j,
                          polygon_contact *pc)
{
    double w[2], l[2], h;
    to_world(pg, rot_g, guest->v[j], w);
    to_local(ph, rot_h, w, l);
    int i = highest_edge(host, l, &h);
    pc->edge = edge_line(host, i);
    pc->vertex = vertex_point(guest, j);
    return -h;
}

static void polygons_feature(const kinematics_shape *sa, const kinematics_pose *pa,
                             const double ra[2], const kinematics_shape *sb,
                             const kinematics_pose *pb, const double rb[2], polygon_contact *pc)
{
    if (sb->vertex > 0 || sa->vertex > 0) {
        pc->guest = sb->vertex > 0;
        if (pc->guest)
            vertex_into(sa, pa, ra, sb, pb, rb, sb->vertex - 1, pc);
        else
            vertex_into(sb, pb, rb, sa, pa, ra, sa->vertex - 1, pc);
        return;
    }
    double best = -INFINITY;
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < (g ? sb->nv : sa->nv); j++) {
            polygon_contact t;
            double d = g ? vertex_into(sa, pa, ra, sb, pb, rb, j, &t)
                         : vertex_into(sb, pb, rb, sa, pa, ra, j, &t);
            t.guest = g;
            if (d > best)
                best = d, *pc = t;
        }
}

/* turns the reversed pair's result (B, A) back into (A, B) */
static void reverse(kinematics_contact *c)
{
    double p[2] = {c->p_a[0], c->p_a[1]};
    for (int k = 0; k < 2; k++) {
        c->n[k] = -c->n[k];
        c->t[k] = -c->t[k];
        c->p_a[k] = c->p_b[k];
        c->p_b[k] = p[k];
    }
}

int kinematics_pair_polygons(const kinematics_shape *sa, const kinematics_pose *pa,
                             const double rot_a[2], const kinematics_shape *sb,
                             const kinematics_pose *pb, const double rot_b[2],
                             kinematics_contact *out)
{
    polygon_contact pc;
    polygons_feature(sa, pa, rot_a, sb, pb, rot_b, &pc);
    if (pc.guest)
        return line_point()->eval(&pc.edge, pa, rot_a, &pc.vertex, pb, rot_b, out);
    if (line_point()->eval(&pc.edge, pb, rot_b, &pc.vertex, pa, rot_a, out) != 0)
        return -1;
    reverse(out);
    return 0;
}

/* the dual slots of A (0-2, 6-8) and B (3-5, 9-11) exchanged, the vectors turned back */
static void reverse_diff(kinematics_contact_diff *c)
{
    kinematics_dual *all[] = {&c->delta,  &c->delta_dot, &c->n[0],   &c->n[1],   &c->t[0], &c->t[1],
                              &c->p_a[0], &c->p_a[1],    &c->p_b[0], &c->p_b[1], &c->v_t};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        for (int s = 0; s < 3; s++)
            for (int r = 0; r < 12; r += 6) {
                double x = all[k]->d[r + s];
                all[k]->d[r + s] = all[k]->d[r + 3 + s];
                all[k]->d[r + 3 + s] = x;
            }
    for (int k = 0; k < 2; k++) {
        kinematics_dual p = c->p_a[k];
        c->n[k] = kinematics_dual_scale(c->n[k], -1.0);
        c->t[k] = kinematics_dual_scale(c->t[k], -1.0);
        c->p_a[k] = c->p_b[k];
        c->p_b[k] = p;
    }
}

int kinematics_diff_polygons(const kinematics_shape *sa, const kinematics_pose *pa,
                             const kinematics_shape *sb, const kinematics_pose *pb,
                             kinematics_contact_diff *out)
{
    static const kinematics_pose rest = {{0, 0, 0}, {0, 0, 0}};
    double ra[2], rb[2];
    polygon_contact pc;
    rot_of(pa, ra);
    rot_of(pb, rb);
    polygons_feature(sa, pa ? pa : &rest, ra, sb, pb ? pb : &rest, rb, &pc);
    if (pc.guest)
        return line_point()->diff(&pc.edge, pa, &pc.vertex, pb, out);
    if (line_point()->diff(&pc.edge, pb, &pc.vertex, pa, out) != 0)
        return -1;
    reverse_diff(out);
    return 0;
}

/* ---- the contact points of the pairs ------------------------------------------- */

int kinematics_points_vertices_b(const clink_shape_def *a, const clink_shape_def *b)
{
    (void) a;
    return b->nvertices;
}

void kinematics_point_vertex_b(const clink_shape_def *a, const clink_shape_def *b, int i, int *va,
                               int *vb)
{
    (void) a;
    (void) b;
    *va = 0;
    *vb = i + 1;
}

int kinematics_points_vertices_ab(const clink_shape_def *a, const clink_shape_def *b)
{
    return a->nvertices + b->nvertices;
}

void kinematics_point_vertex_ab(const clink_shape_def *a, const clink_shape_def *b, int i, int *va,
                                int *vb)
{
    (void) b;
    *va = i < a->nvertices ? i + 1 : 0;
    *vb = i < a->nvertices ? 0 : i - a->nvertices + 1;
}
