/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Contact geometry: penetration, rate, normal, contact points and slip for every
 * supported pair of shapes. Rates are checked against a central difference of
 * the penetration along a rigid motion (step 1e-6 s, error O(h^2) ~ 1e-10 of
 * the velocities used here: tolerance 1e-7 m/s). The circle-circle branch is
 * also checked against the general segment path (a capsule of zero length) bit for
 * bit, on pseudo-random poses.
 */
#include "ensure.h"
#include "kinematics/geometry_checks.h"

#include "kinematics/contact_geometry.h"

static kinematics_shape circle(double x, double y, double r)
{
    kinematics_shape s = {
        CLINK_SHAPE_CIRCLE, {x, y}, {0, 0}, {0, 0}, r, 0, 0, NULL, {0, 0}, 0, NULL};
    return s;
}

static kinematics_shape capsule(double ax, double ay, double bx, double by, double r)
{
    kinematics_shape s = {
        CLINK_SHAPE_CAPSULE, {ax, ay}, {bx, by}, {0, 0}, r, 0, 0, NULL, {0, 0}, 0, NULL};
    return s;
}

static kinematics_shape line(double x, double y, double nx, double ny)
{
    kinematics_shape s = {CLINK_SHAPE_LINE, {x, y}, {0, 0}, {nx, ny}, 0, 0, 0, NULL,
                          {0, 0},           0,      NULL};
    return s;
}

static kinematics_shape bore(double x, double y, double r)
{
    kinematics_shape s = {CLINK_SHAPE_BORE, {x, y}, {0, 0}, {0, 0}, r, 0, 0, NULL, {0, 0}, 0, NULL};
    return s;
}

static kinematics_pose pose(double x, double y, double phi, double xd, double yd, double phid)
{
    kinematics_pose p = {{x, y, phi}, {xd, yd, phid}};
    return p;
}

TEST(two_circles_overlap_by_the_sum_of_radii_minus_the_distance)
{
    kinematics_shape a = circle(0, 0, 0.02), b = circle(0, 0, 0.02);
    kinematics_pose pa = pose(0, 0, 0, 0.15, 0, 0), pb = pose(0.039, 0, 0, -0.15, 0, 0);
    kinematics_contact c;

    ENSURE(kinematics_contact_eval(&a, &pa, &b, &pb, &c) == 0);
    ENSURE_NEAR(c.delta, 0.001, 1e-15);
    ENSURE_NEAR(c.delta_dot, 0.3, 1e-15); /* approaching at 0.15 + 0.15 m/s */
    ENSURE_NEAR(c.n[0], 1.0, 1e-15);      /* the force pushes B along +x */
    ENSURE_NEAR(c.p_a[0], 0.02, 1e-15);
    ENSURE_NEAR(c.p_b[0], 0.019, 1e-15);
    ENSURE_NEAR(c.v_t, 0.0, 1e-15);
}

TEST(circle_rolling_without_slip_on_a_line_has_zero_slip_velocity)
{
    const double r = 0.1, w = 3.0;
    kinematics_shape ground = line(0, 0, 0, 1), wheel = circle(0, 0, r);
    kinematics_pose pg = pose(0, 0, 0, 0, 0, 0), pw = pose(0.5, r - 1e-4, 0.3, -w * r, 0, w);
    kinematics_contact c;

    ENSURE(kinematics_contact_eval(&ground, &pg, &wheel, &pw, &c) == 0);
    ENSURE_NEAR(c.delta, 1e-4, 1e-15);
    ENSURE_NEAR(c.v_t, 0.0, 1e-15);
    ENSURE_NEAR(c.p_a[0], 0.5, 1e-15);
    ENSURE_NEAR(c.p_a[1], 0.0, 1e-15);
    /* sliding: the wheel skids forward at 1 m/s without turning */
    pw = pose(0.5, r, 0, 1.0, 0, 0);
    ENSURE(kinematics_contact_eval(&ground, &pg, &wheel, &pw, &c) == 0);
    ENSURE_NEAR(c.v_t, -1.0, 1e-15); /* t = (-n_y, n_x) = (-1, 0) */
}

TEST(journal_in_a_bore_penetrates_by_eccentricity_minus_radial_clearance)
{
    kinematics_shape bearing = bore(0, 0, 0.010), journal = circle(0, 0, 0.0095);
    kinematics_pose pb = pose(0.2, 0.1, 0.7, 0, 0, 0), pj = pose(0.2, 0.1, -0.4, 0, 0, 0);
    kinematics_contact c;

    ENSURE(kinematics_contact_eval(&bearing, &pb, &journal, &pj, &c) == 0);
    ENSURE_NEAR(c.delta, -0.0005, 1e-15); /* centred: the whole clearance is free */
    pj.q[1] += 0.0006;                    /* journal 0.6 mm above the bore centre */
    pj.qd[1] = 2.0;
    ENSURE(kinematics_contact_eval(&bearing, &pb, &journal, &pj, &c) == 0);
    ENSURE_NEAR(c.delta, 0.0001, 1e-12);
    ENSURE_NEAR(c.delta_dot, 2.0, 1e-12);
    ENSURE_NEAR(c.n[1], -1.0, 1e-15); /* the bore pushes the journal down */
    ENSURE_NEAR(c.p_a[1], 0.1 + 0.010, 1e-12);
    ENSURE_NEAR(c.p_b[1], 0.1 + 0.0006 + 0.0095, 1e-12);
}

TEST(capsule_on_a_line_touches_at_its_deepest_end)
{
    kinematics_shape ground = line(0, 0, 0, 1), rod = capsule(-0.5, 0, 0.5, 0, 0.01);
    kinematics_pose pg = pose(0, 0, 0, 0, 0, 0), pr = pose(0, 0.05, 0.1, 0, 0, 0);
    kinematics_contact c;

    ENSURE(kinematics_contact_eval(&ground, &pg, &rod, &pr, &c) == 0);
    /* end (-0.5, 0) rotated by 0.1 rad sits lowest */
    ENSURE_NEAR(c.delta, 0.01 - (0.05 - 0.5 * sin(0.1)), 1e-14);
    ENSURE_NEAR(c.p_a[0], -0.5 * cos(0.1), 1e-14);
}

TEST(crossing_capsules_are_closest_at_their_intersection)
{
    kinematics_shape a = capsule(-1, 0, 1, 0, 0.01), b = capsule(0, -1, 0, 1, 0.02);
    kinematics_pose pa = pose(0, 0, 0, 0, 0, 0), pb = pose(0.3, 0.2, 0, 0, 0, 0);
    kinematics_contact c;

    ENSURE(kinematics_contact_eval(&a, &pa, &b, &pb, &c) == 0);
    ENSURE_NEAR(c.delta, 0.03, 1e-15);
    /* parallel capsules one above the other */
    b = capsule(-0.5, 0, 0.5, 0, 0.02);
    pb = pose(0.2, 0.025, 0, 0, 0, 0);
    ENSURE(kinematics_contact_eval(&a, &pa, &b, &pb, &c) == 0);
    ENSURE_NEAR(c.delta, 0.005, 1e-15);
    ENSURE_NEAR(c.n[1], 1.0, 1e-15);
}

TEST(penetration_rate_is_the_time_derivative_of_penetration_for_every_pair)
{
    kinematics_shape c1 = circle(0.01, -0.02, 0.05), c2 = circle(-0.03, 0.01, 0.04);
    kinematics_shape k1 = capsule(-0.2, 0.01, 0.25, -0.03, 0.02);
    kinematics_shape k2 = capsule(-0.1, 0.0, 0.1, 0.05, 0.015);
    kinematics_shape l1 = line(0.1, -0.2, 0.6, 0.8), bo = bore(0.02, 0.01, 0.06);
    kinematics_pose pa = pose(0.1, -0.05, 0.3, 0.7, -0.4, 2.5);
    kinematics_pose pb = pose(0.15, 0.02, -0.8, -0.3, 0.9, -1.7);

    check_rate(&c1, pa, &c2, pb);
    check_rate(&k1, pa, &c2, pb);
    check_rate(&c1, pa, &k2, pb);
    check_rate(&k1, pa, &k2, pb);
    check_rate(&l1, pa, &c2, pb);
    check_rate(&l1, pa, &k2, pb);
    check_rate(&bo, pa, &c2, pb);
}

TEST(unsupported_pairs_are_refused)
{
    kinematics_shape l1 = line(0, 0, 0, 1), l2 = line(0, 1, 0, -1), bo = bore(0, 0, 1);
    kinematics_shape k = capsule(0, 0, 1, 0, 0.1);
    kinematics_pose p = pose(0, 0, 0, 0, 0, 0);
    kinematics_contact c;

    ENSURE(kinematics_contact_eval(&l1, &p, &l2, &p, &c) == -1);
    ENSURE(kinematics_contact_eval(&bo, &p, &k, &p, &c) == -1);
    ENSURE(kinematics_contact_eval(&k, &p, &l1, &p, &c) == -1);
}

TEST(point_force_gives_force_and_moment_about_the_centre_of_mass)
{
    double q[3] = {1.0, 2.0, 0.5}, p[2] = {1.5, 2.0}, f[2] = {0.0, 10.0}, Q[3];

    kinematics_point_force(q, p, f, Q);
    ENSURE_NEAR(Q[0], 0.0, 0.0);
    ENSURE_NEAR(Q[1], 10.0, 0.0);
    ENSURE_NEAR(Q[2], 5.0, 1e-15); /* 0.5 m arm times 10 N, counter-clockwise */
}

/* xorshift64, uniform in [-1, 1) */
static unsigned long long rng_state = 88172645463325252ULL;

static double rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double) (rng_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

TEST(circle_against_circle_gives_the_bits_of_the_general_segment_path)
{
    int n = 0;
    for (int k = 0; k < 200; k++) {
        kinematics_shape ca = {CLINK_SHAPE_CIRCLE,
                               {0.01 * rnd(), 0.01 * rnd()},
                               {0, 0},
                               {0, 0},
                               0.02 + 0.01 * rnd(),
                               0,
                               0,
                               NULL,
                               {0, 0},
                               0,
                               NULL};
        kinematics_shape cb = {CLINK_SHAPE_CIRCLE,
                               {0.01 * rnd(), 0.01 * rnd()},
                               {0, 0},
                               {0, 0},
                               0.02 + 0.01 * rnd(),
                               0,
                               0,
                               NULL,
                               {0, 0},
                               0,
                               NULL};
        kinematics_shape sa = ca, sb = cb; /* capsules of zero length: closest_segments */
        sa.kind = sb.kind = CLINK_SHAPE_CAPSULE;
        sa.b[0] = sa.a[0], sa.b[1] = sa.a[1];
        sb.b[0] = sb.a[0], sb.b[1] = sb.a[1];
        kinematics_pose pa = {{rnd(), rnd(), 3.0 * rnd()}, {rnd(), rnd(), 10.0 * rnd()}};
        kinematics_pose pb = {{pa.q[0] + 0.04 * rnd(), pa.q[1] + 0.04 * rnd(), 3.0 * rnd()},
                              {rnd(), rnd(), 10.0 * rnd()}};
        if (k == 0) /* a chain's beads: on the x axis, not turning */
            pa.q[1] = pb.q[1] = pa.q[2] = pb.q[2] = pa.qd[2] = pb.qd[2] = 0.0;
        kinematics_contact g1, g2;
        ENSURE(kinematics_contact_eval(&ca, &pa, &cb, &pb, &g1) == 0);
        ENSURE(kinematics_contact_eval(&sa, &pa, &sb, &pb, &g2) == 0);
        n += memcmp(&g1, &g2, sizeof g1) == 0;
    }
    ENSURE(n == 200);
}
