/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The convex polygon's pair geometry (src/kinematics/contact_polygon.c) against closed
 * forms: penetrations, normals and points of a rectangle on a line, of a circle against
 * a square's edge, corner and inside, of a square's corner into another square, in both
 * orders; the rates against central differences of the penetration along a rigid motion
 * (step 1e-6 s, tolerance 1e-7 m/s); the exact derivatives (kinematics_contact_eval_diff)
 * against closed forms and against central differences of the geometry in each of the 12
 * inputs (step 1e-7, tolerance 1e-6 of the entry's scale); the shape table's check of a
 * polygon (too few vertices, not convex, crossing itself, clockwise reordered); the
 * registry's pairs and contact points.
 */
#include "ensure.h"
#include "kinematics/geometry_checks.h"

#include "kinematics/contact_shapes.h"

#include <math.h>
#include <string.h>

/* a rectangle of half-sizes hx, hy centred on its body, counter-clockwise */
static const double box_v[4][2] = {{-0.2, -0.1}, {0.2, -0.1}, {0.2, 0.1}, {-0.2, 0.1}};
static const double square_v[4][2] = {{-0.1, -0.1}, {0.1, -0.1}, {0.1, 0.1}, {-0.1, 0.1}};

static kinematics_shape polygon(const double (*v)[2], int n, int vertex)
{
    kinematics_shape s;
    memset(&s, 0, sizeof s);
    s.kind = CLINK_SHAPE_POLYGON;
    s.v = v;
    s.nv = n;
    s.vertex = vertex;
    return s;
}

static kinematics_shape shape(clink_shape_type kind, double x, double y, double nx, double ny,
                              double r)
{
    kinematics_shape s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.a[0] = x, s.a[1] = y;
    s.nrm[0] = nx, s.nrm[1] = ny;
    s.r = r;
    return s;
}

static kinematics_pose pose(double x, double y, double phi, double xd, double yd, double phid)
{
    kinematics_pose p = {{x, y, phi}, {xd, yd, phid}};
    return p;
}

TEST(a_rectangle_on_a_line_penetrates_by_each_vertex_depth)
{
    kinematics_shape floor = shape(CLINK_SHAPE_LINE, 0, 0, 0, 1, 0);
    kinematics_pose pg = pose(0, 0, 0, 0, 0, 0);
    const double th = 0.3, y = 0.15;
    kinematics_pose pb = pose(0.4, y, th, 0, 0, 0);
    for (int j = 0; j < 4; j++) {
        kinematics_shape box = polygon(box_v, 4, j + 1);
        kinematics_contact c;
        ENSURE(kinematics_contact_eval(&floor, &pg, &box, &pb, &c) == 0);
        /* the vertex's height: y + sin(th) vx + cos(th) vy */
        double h = y + sin(th) * box_v[j][0] + cos(th) * box_v[j][1];
        ENSURE_NEAR(c.delta, -h, 1e-15);
        ENSURE_NEAR(c.n[0], 0.0, 0.0);
        ENSURE_NEAR(c.n[1], 1.0, 0.0);
        ENSURE_NEAR(c.p_b[0], 0.4 + cos(th) * box_v[j][0] - sin(th) * box_v[j][1], 1e-15);
        ENSURE_NEAR(c.p_a[1], 0.0, 1e-15);
    }
    /* the whole polygon (vertex 0): the deepest vertex, the first at th = 0.3 */
    kinematics_shape box = polygon(box_v, 4, 0);
    kinematics_contact c;
    ENSURE(kinematics_contact_eval(&floor, &pg, &box, &pb, &c) == 0);
    ENSURE_NEAR(c.delta, -(y - sin(th) * 0.2 - cos(th) * 0.1), 1e-15);
}

TEST(a_circle_meets_a_square_at_its_edge_its_corner_and_from_inside)
{
    kinematics_shape sq = polygon(square_v, 4, 0);
    kinematics_pose pa = pose(1.0, 2.0, 0.5, 0, 0, 0), pb = pose(0, 0, 0, 0, 0, 0);
    const double r = 0.05, c5 = cos(0.5), s5 = sin(0.5);
    /* the circle's centre at body point (u, v) of the square */
    const double at[3][2] = {{0.14, 0.03}, {0.13, 0.13}, {0.08, 0.02}};
    const double delta[3] = {0.05 - 0.04, 0.05 - sqrt(2.0) * 0.03, 0.05 + 0.02};
    const double nl[3][2] = {{1, 0}, {0.70710678118654752, 0.70710678118654752}, {1, 0}};
    for (int k = 0; k < 3; k++) {
        kinematics_shape ci = shape(CLINK_SHAPE_CIRCLE, 1.0 + c5 * at[k][0] - s5 * at[k][1],
                                    2.0 + s5 * at[k][0] + c5 * at[k][1], 0, 0, r);
        kinematics_contact c;
        ENSURE(kinematics_contact_eval(&sq, &pa, &ci, &pb, &c) == 0);
        ENSURE_NEAR(c.delta, delta[k], 1e-14);
        ENSURE_NEAR(c.n[0], c5 * nl[k][0] - s5 * nl[k][1], 1e-12);
        ENSURE_NEAR(c.n[1], s5 * nl[k][0] + c5 * nl[k][1], 1e-12);
    }
}

TEST(a_corner_of_one_square_into_another_in_either_order)
{
    /* B turned by 45 degrees above A: its lowest corner 0.01 below A's top edge */
    const double d = 0.1 * sqrt(2.0);
    kinematics_pose pa = pose(0, 0, 0, 0, 0, 0),
                    pb = pose(0.02, 0.1 + d - 0.01, 0.78539816339744831, 0, 0, 0);
    /* B's vertex 1 (-0.1, -0.1) turned by 45 degrees is its lowest: (0, -d) */
    kinematics_shape a = polygon(square_v, 4, 0), b = polygon(square_v, 4, 1);
    kinematics_contact c, r;
    ENSURE(kinematics_contact_eval(&a, &pa, &b, &pb, &c) == 0);
    ENSURE_NEAR(c.delta, 0.01, 1e-14);
    ENSURE_NEAR(c.n[0], 0.0, 1e-15);
    ENSURE_NEAR(c.n[1], 1.0, 1e-15); /* A's top edge pushes B up */
    ENSURE_NEAR(c.p_b[0], 0.02, 1e-14);
    ENSURE_NEAR(c.p_a[1], 0.1, 1e-14);
    /* the same contact with the roles swapped: A's vertex into B */
    kinematics_shape a1 = polygon(square_v, 4, 1), b0 = polygon(square_v, 4, 0);
    ENSURE(kinematics_contact_eval(&b0, &pb, &a1, &pa, &r) == 0);
    kinematics_shape bb = polygon(square_v, 4, 0), aa = polygon(square_v, 4, 1);
    kinematics_contact s;
    /* (B as A, A's vertex 1 as B) is a vertex of B-side into A-side: compare with the
       reversed evaluation of (A with vertex into B) */
    ENSURE(kinematics_contact_eval(&aa, &pa, &bb, &pb, &s) == 0);
    ENSURE_NEAR(s.delta, r.delta, 1e-15);
    ENSURE_NEAR(s.n[0], -r.n[0], 1e-15);
    ENSURE_NEAR(s.n[1], -r.n[1], 1e-15);
    ENSURE_NEAR(s.p_a[0], r.p_b[0], 1e-15);
    ENSURE_NEAR(s.p_b[1], r.p_a[1], 1e-15);
    /* A's vertex 1 lies far outside B: apart */
    ENSURE(s.delta < 0.0);
}

TEST(polygon_pairs_have_exact_rates_and_derivatives)
{
    kinematics_shape floor = shape(CLINK_SHAPE_LINE, 0.1, -0.2, 0.6, 0.8, 0);
    kinematics_shape ci = shape(CLINK_SHAPE_CIRCLE, 0.01, -0.02, 0, 0, 0.05);
    kinematics_pose pa = pose(0.1, -0.05, 0.3, 0.7, -0.4, 2.5);
    kinematics_pose pb = pose(0.15, 0.02, -0.8, -0.3, 0.9, -1.7);
    for (int j = 1; j <= 4; j++) {
        kinematics_shape box = polygon(box_v, 4, j);
        check_rate(&floor, pa, &box, pb);
        check_diff(&floor, pa, &box, pb);
    }
    /* the circle against the square's edge, corner, inside (body points of the square) */
    kinematics_shape sq = polygon(square_v, 4, 0);
    const double at[3][2] = {{0.14, 0.03}, {0.13, 0.13}, {0.08, 0.02}};
    for (int k = 0; k < 3; k++) {
        kinematics_pose pc = pose(0, 0, 0.4, -0.3, 0.9, -1.7);
        double c = cos(pa.q[2]), s = sin(pa.q[2]);
        pc.q[0] = pa.q[0] + c * at[k][0] - s * at[k][1] - 0.01;
        pc.q[1] = pa.q[1] + s * at[k][0] + c * at[k][1] + 0.02;
        check_rate(&sq, pa, &ci, pc);
        check_diff(&sq, pa, &ci, pc);
    }
    /* a vertex of B into A, and of A into B (the reversed evaluation) */
    const double d = 0.1 * sqrt(2.0);
    kinematics_pose qa = pose(0.01, 0.02, 0.1, 0.7, -0.4, 2.5);
    kinematics_pose qb = pose(0.03, 0.1 + d - 0.01, 0.78539816339744831 + 0.12, -0.3, 0.9, -1.7);
    kinematics_shape a0 = polygon(square_v, 4, 0), b1 = polygon(square_v, 4, 1);
    check_rate(&a0, qa, &b1, qb);
    check_diff(&a0, qa, &b1, qb);
    kinematics_shape a1 = polygon(square_v, 4, 1), b0 = polygon(square_v, 4, 0);
    check_rate(&b0, qb, &a1, qa);
    check_diff(&b0, qb, &a1, qa);
    check_rate(&a1, qa, &b0, qb);
    check_diff(&a1, qa, &b0, qb);
}

TEST(a_vertex_on_a_line_has_the_closed_form_derivatives)
{
    /* delta = -(n . (q_B + R(phi) v - a)) with n = (0, 1): d/dy_B = -1,
       d/dphi_B = -(cos(phi) v_x - sin(phi) v_y), d/dx_B = 0 */
    kinematics_shape floor = shape(CLINK_SHAPE_LINE, 0, 0, 0, 1, 0);
    kinematics_shape box = polygon(box_v, 4, 2);
    kinematics_pose pb = pose(0.3, 0.05, 0.4, 0, 0, 0);
    kinematics_contact_diff d;
    ENSURE(kinematics_contact_eval_diff(&floor, NULL, &box, &pb, &d) == 0);
    ENSURE_NEAR(d.delta.d[3], 0.0, 1e-15);
    ENSURE_NEAR(d.delta.d[4], -1.0, 1e-15);
    ENSURE_NEAR(d.delta.d[5], -(cos(0.4) * 0.2 - sin(0.4) * -0.1), 1e-15);
    /* delta_dot = -(yd + phid (cos(phi) v_x - sin(phi) v_y)): d/dphid_B */
    ENSURE_NEAR(d.delta_dot.d[11], -(cos(0.4) * 0.2 - sin(0.4) * -0.1), 1e-15);
}

static clink_shape_def polygon_def(const double *xy, int n)
{
    clink_shape_def s;
    memset(&s, 0, sizeof s);
    s.type = CLINK_SHAPE_POLYGON;
    s.nvertices = n;
    for (int i = 0; i < n; i++)
        s.vertices[i][0] = xy[2 * i], s.vertices[i][1] = xy[2 * i + 1];
    return s;
}

TEST(the_shape_table_checks_polygons_and_orders_them_counter_clockwise)
{
    const kinematics_shape_class *pc = kinematics_shape_class_find("polygon");
    ENSURE(pc != NULL && pc->type == CLINK_SHAPE_POLYGON);
    char msg[200];
    clink_status st;
    const double two[] = {0, 0, 1, 0};
    clink_shape_def s = polygon_def(two, 2);
    ENSURE(pc->check(&s, msg, sizeof msg, &st) == -1 && st == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "2 vertices") != NULL);
    const double dent[] = {-1, -1, 1, -1, 0, -0.5, 1, 1, -1, 1};
    s = polygon_def(dent, 5);
    ENSURE(pc->check(&s, msg, sizeof msg, &st) == -1 && strstr(msg, "not convex") != NULL);
    const double bow[] = {-1, -1, 1, 1, 1, -1, -1, 1};
    s = polygon_def(bow, 4);
    ENSURE(pc->check(&s, msg, sizeof msg, &st) == -1 && strstr(msg, "not convex") != NULL);
    const double star[] = {0, 1, 0.588, -0.809, -0.951, 0.309, 0.951, 0.309, -0.588, -0.809};
    s = polygon_def(star, 5);
    ENSURE(pc->check(&s, msg, sizeof msg, &st) == -1 && strstr(msg, "crosses itself") != NULL);
    const double line3[] = {0, 0, 1, 0, 2, 0};
    s = polygon_def(line3, 3);
    ENSURE(pc->check(&s, msg, sizeof msg, &st) == -1);
    const double cw[] = {-1, -1, -1, 1, 1, 1, 1, -1};
    s = polygon_def(cw, 4);
    ENSURE(pc->check(&s, msg, sizeof msg, &st) == 0);
    ENSURE(s.vertices[0][0] == 1 && s.vertices[0][1] == -1); /* reversed */
    ENSURE(s.vertices[1][0] == 1 && s.vertices[1][1] == 1);
}

TEST(the_registry_holds_the_pairs_and_their_contact_points)
{
    const double sq[] = {-1, -1, 1, -1, 1, 1, -1, 1}, tri[] = {0, 0, 1, 0, 0, 1};
    clink_shape_def p4 = polygon_def(sq, 4), p3 = polygon_def(tri, 3), li, ci, bo;
    memset(&li, 0, sizeof li);
    li.type = CLINK_SHAPE_LINE;
    ci = li, bo = li;
    ci.type = CLINK_SHAPE_CIRCLE;
    bo.type = CLINK_SHAPE_BORE;
    ENSURE(kinematics_pair_npoints(&li, &p4) == 4);
    ENSURE(kinematics_pair_npoints(&p4, &ci) == 1);
    ENSURE(kinematics_pair_npoints(&p4, &p3) == 7);
    ENSURE(kinematics_pair_npoints(&p4, &li) == 0); /* the line goes first */
    ENSURE(kinematics_pair_npoints(&ci, &p4) == 0); /* the polygon goes first */
    ENSURE(kinematics_pair_npoints(&bo, &p4) == 0);
    ENSURE(kinematics_pair_npoints(&bo, &ci) == 1);
    int va, vb;
    kinematics_pair_point(&p4, &p3, 5, &va, &vb);
    ENSURE(va == 0 && vb == 2);
    kinematics_pair_point(&p4, &p3, 3, &va, &vb);
    ENSURE(va == 4 && vb == 0);
    /* the derivatives: exact for round pairs and polygons, differences for capsules */
    ENSURE(kinematics_pair_of(CLINK_SHAPE_LINE, CLINK_SHAPE_POLYGON)->diff != NULL);
    ENSURE(kinematics_pair_of(CLINK_SHAPE_POLYGON, CLINK_SHAPE_POLYGON)->diff != NULL);
    ENSURE(kinematics_pair_of(CLINK_SHAPE_CAPSULE, CLINK_SHAPE_CAPSULE)->diff == NULL);
    for (int a = 0; a < CLINK_SHAPE_TYPE_COUNT_; a++) {
        const kinematics_shape_class *c = kinematics_shape_class_of((clink_shape_type) a);
        ENSURE(c != NULL && (int) c->type == a);
    }
    ENSURE(kinematics_shape_class_of(CLINK_SHAPE_TYPE_COUNT_) == NULL);
}
