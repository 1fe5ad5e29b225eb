/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A circle against a beam element's centreline (src/kinematics/contact_segment.c): the
 * penetration and normal against an independent evaluation (the distance to the segment
 * minimised over a fine grid of points along it, then by golden section); the exact
 * derivatives of delta, delta_dot, n and s against central differences of the geometry over
 * each of the 18 inputs (step 1e-7, error O(h^2): tolerance 1e-6 of the entries' scale), with
 * the circle off its body's origin on a turning body, at an interior and at a clamped
 * closest point; and the elements' regions at a shared node: one element only carries a
 * circle near a convex corner, with the same penetration on both sides of the node's
 * cross-section.
 */
#include "ensure.h"

#include "kinematics/contact_segment.h"

#include <math.h>

static kinematics_pose pose(double x, double y, double th, double vx, double vy, double w)
{
    kinematics_pose p = {{x, y, th}, {vx, vy, w}};
    return p;
}

/* the distance from c to the segment a-b minimised independently of the projection */
static double distance_by_search(const double a[2], const double b[2], const double c[2],
                                 double *s_out)
{
    double best = INFINITY, sb = 0.0;
    for (int i = 0; i <= 1000; i++) {
        double s = i / 1000.0, p[2] = {a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1])};
        double d = hypot(c[0] - p[0], c[1] - p[1]);
        if (d < best) {
            best = d;
            sb = s;
        }
    }
    double lo = fmax(0.0, sb - 1e-3), hi = fmin(1.0, sb + 1e-3), g = (sqrt(5.0) - 1.0) / 2.0;
    for (int k = 0; k < 200; k++) {
        double s1 = hi - g * (hi - lo), s2 = lo + g * (hi - lo);
        double d1 = hypot(c[0] - a[0] - s1 * (b[0] - a[0]), c[1] - a[1] - s1 * (b[1] - a[1]));
        double d2 = hypot(c[0] - a[0] - s2 * (b[0] - a[0]), c[1] - a[1] - s2 * (b[1] - a[1]));
        if (d1 < d2)
            hi = s2;
        else
            lo = s1;
    }
    *s_out = 0.5 * (lo + hi);
    return hypot(c[0] - a[0] - *s_out * (b[0] - a[0]), c[1] - a[1] - *s_out * (b[1] - a[1]));
}

TEST(segment_penetration_and_normal_agree_with_a_search_along_the_segment)
{
    kinematics_segment sg = {.radius = 0.01, .centre = {0.002, -0.001}, .h = 0.004, .ends = 3};
    const double cases[][3] = {{0.03, 0.012, 0.7}, {-0.02, 0.01, 0.1}, {0.13, -0.02, 2.0}};
    for (int k = 0; k < 3; k++) {
        kinematics_pose n0 = pose(0.0, 0.0, 0.2, 0, 0, 0), n1 = pose(0.1, 0.02, 0.2, 0, 0, 0);
        kinematics_pose pc = pose(cases[k][0], cases[k][1], cases[k][2], 0, 0, 0);
        kinematics_contact g;
        ENSURE(kinematics_segment_eval(&sg, &n0, &n1, &pc, &g) == 0);
        double co = cos(pc.q[2]), si = sin(pc.q[2]);
        double c[2] = {pc.q[0] + co * sg.centre[0] - si * sg.centre[1],
                       pc.q[1] + si * sg.centre[0] + co * sg.centre[1]};
        double s, d = distance_by_search(n0.q, n1.q, c, &s);
        ENSURE_NEAR(g.delta, sg.radius + sg.h - d, 1e-12);
        ENSURE_NEAR(g.share, s, 1e-9);
        double p[2] = {n0.q[0] + s * (n1.q[0] - n0.q[0]), n0.q[1] + s * (n1.q[1] - n0.q[1])};
        ENSURE_NEAR(g.n[0], (c[0] - p[0]) / d, 1e-8);
        ENSURE_NEAR(g.n[1], (c[1] - p[1]) / d, 1e-8);
    }
}

/* the derivatives at one configuration against central differences over the 18 inputs */
static void check_derivatives(const kinematics_segment *sg, kinematics_pose p[3])
{
    kinematics_segment_diff d;
    ENSURE(kinematics_segment_eval_diff(sg, &p[0], &p[1], &p[2], &d) == 0);
    double scale[5] = {0};
    for (int j = 0; j < KINEMATICS_SEGMENT_NDIFF; j++) {
        scale[0] = fmax(scale[0], fabs(d.delta[j]));
        scale[1] = fmax(scale[1], fabs(d.delta_dot[j]));
        scale[2] = fmax(scale[2], fmax(fabs(d.n[0][j]), fabs(d.n[1][j])));
        scale[3] = fmax(scale[3], fabs(d.s[j]));
    }
    for (int j = 0; j < KINEMATICS_SEGMENT_NDIFF; j++) {
        double h = 1e-7, *x = j >= 9 ? &p[(j % 9) / 3].qd[j % 3] : &p[(j % 9) / 3].q[j % 3];
        double x0 = *x;
        kinematics_contact gp, gm;
        *x = x0 + h;
        ENSURE(kinematics_segment_eval(sg, &p[0], &p[1], &p[2], &gp) == 0);
        *x = x0 - h;
        ENSURE(kinematics_segment_eval(sg, &p[0], &p[1], &p[2], &gm) == 0);
        *x = x0;
        ENSURE_NEAR(d.delta[j], (gp.delta - gm.delta) / (2 * h), 1e-6 * scale[0]);
        ENSURE_NEAR(d.delta_dot[j], (gp.delta_dot - gm.delta_dot) / (2 * h), 1e-6 * scale[1]);
        ENSURE_NEAR(d.n[0][j], (gp.n[0] - gm.n[0]) / (2 * h), 1e-6 * scale[2]);
        ENSURE_NEAR(d.n[1][j], (gp.n[1] - gm.n[1]) / (2 * h), 1e-6 * scale[2]);
        ENSURE_NEAR(d.s[j], (gp.share - gm.share) / (2 * h), 1e-6 * fmax(scale[3], 1.0));
    }
}

TEST(segment_derivatives_agree_with_central_differences_inside_and_at_a_clamped_end)
{
    kinematics_segment sg = {.radius = 0.01, .centre = {0.003, -0.002}, .h = 0.005, .ends = 3};
    /* interior: the centre above the middle of the segment */
    kinematics_pose p[3] = {pose(0.0, 0.001, 0.05, 0.3, -0.2, 4.0),
                            pose(0.1, -0.002, -0.03, -0.1, 0.5, -2.0),
                            pose(0.047, 0.016, 0.4, 0.2, -1.5, 30.0)};
    check_derivatives(&sg, p);
    /* clamped at node 1: the centre beyond the segment's end (the beam's last node) */
    p[2] = pose(0.112, 0.01, -0.6, -0.4, -1.0, -12.0);
    kinematics_contact g;
    ENSURE(kinematics_segment_eval(&sg, &p[0], &p[1], &p[2], &g) == 0);
    ENSURE(g.share == 1.0);
    check_derivatives(&sg, p);
}

TEST(a_circle_near_a_convex_corner_is_carried_by_one_element_with_a_continuous_penetration)
{
    /* nodes (0, 0), (0.1, 0), (0.2, -0.03): the middle node's tangent bisects the corner */
    double th1 = 0.5 * atan2(-0.03, 0.1);
    kinematics_pose n0 = pose(0.0, 0.0, 0.0, 0, 0, 0), n1 = pose(0.1, 0.0, th1, 0, 0, 0);
    kinematics_pose n2 = pose(0.2, -0.03, 2 * th1, 0, 0, 0);
    kinematics_segment e0 = {.radius = 0.01, .h = 0.002, .ends = 1};
    kinematics_segment e1 = {.radius = 0.01, .h = 0.002, .ends = 2};
    /* the circle on the convex side, swept across the middle node's cross-section */
    double t[2] = {cos(th1), sin(th1)}, nrm[2] = {-sin(th1), cos(th1)};
    int carried = 0;
    for (int i = -50; i <= 50; i++) {
        double along = 1e-4 * i, off = 0.011;
        kinematics_segment a = e0, b = e1;
        a.centre[0] = b.centre[0] = 0.1 + along * t[0] + off * nrm[0];
        a.centre[1] = b.centre[1] = along * t[1] + off * nrm[1];
        kinematics_contact g0, g1;
        ENSURE(kinematics_segment_eval(&a, &n0, &n1, NULL, &g0) == 0);
        ENSURE(kinematics_segment_eval(&b, &n1, &n2, NULL, &g1) == 0);
        /* never both (no corner counted twice), and the carrier's penetration is the
           distance to the polyline: the smaller of the two segments' distances */
        ENSURE(!(g0.delta > 0.0 && g1.delta > 0.0));
        double carrier = along < 0.0 ? g0.delta : g1.delta;
        ENSURE(carrier > 0.0);
        carried += carrier > 0.0;
        double c[2] = {a.centre[0], a.centre[1]}, s;
        double dist =
            fmin(distance_by_search(n0.q, n1.q, c, &s), distance_by_search(n1.q, n2.q, c, &s));
        ENSURE_NEAR(0.012 - carrier, dist, 1e-9);
    }
    ENSURE(carried == 101);
}
