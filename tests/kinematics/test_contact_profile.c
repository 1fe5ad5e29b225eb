/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The curved shapes (src/kinematics/contact_profile.c): the motion laws against their closed
 * forms and differences; a flat face and a roller on a law cam against the law (the lift
 * where they touch, the pressure angle of the roller's normal); a table cam of constant
 * radius against the circle's closed forms; a table cam with a concave dent against a
 * brute-force distance; the arc (convex, concave, beyond its ends) against closed forms;
 * the exact derivatives of every pair against central differences of the geometry in each
 * of the 12 inputs (step 1e-7, tolerance 1e-6); the rates against differences of the
 * penetration along a rigid motion; the checks (a table not closed, a spline through its
 * centre, an undercut roller cam, a flat-face cam with a cusp).
 */
#include "ensure.h"
#include "kinematics/geometry_checks.h"

#include "kinematics/contact_profile.h"

#include <math.h>
#include <string.h>

static const double PI_ = 3.141592653589793;

static kinematics_pose pose(double x, double y, double phi, double xd, double yd, double phid)
{
    kinematics_pose p = {{x, y, phi}, {xd, yd, phid}};
    return p;
}

static kinematics_shape simple(clink_shape_type kind, double x, double y, double nx, double ny,
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

/* a law cam: base 30 mm, lift 10 mm, rise 120 deg, dwell 30, fall 120 */
static clink_shape_def law_cam(clink_motion_law law, clink_follower_kind f, double rr)
{
    clink_shape_def d;
    memset(&d, 0, sizeof d);
    d.type = CLINK_SHAPE_PROFILE;
    d.angle[0] = 0.5 * PI_;
    d.profile.kind = CLINK_PROFILE_LAW;
    d.profile.base_radius = 0.03;
    d.profile.lift = 0.01;
    d.profile.rise = 2.0 * PI_ / 3.0;
    d.profile.dwell = PI_ / 6.0;
    d.profile.fall = 2.0 * PI_ / 3.0;
    d.profile.rise_law = d.profile.fall_law = law;
    d.profile.follower = f;
    d.profile.roller_radius = rr;
    return d;
}

TEST(motion_laws_match_their_closed_forms_and_differences)
{
    clink_shape_def d = law_cam(CLINK_MOTION_HARMONIC, CLINK_FOLLOWER_FLAT, 0);
    const double h = 0.01, b = 2.0 * PI_ / 3.0;
    double s[4];
    /* harmonic mid-rise: h/2, peak velocity h pi / (2 b), zero acceleration */
    kinematics_profile_law(&d.profile, 0.5 * b, s);
    ENSURE_NEAR(s[0], 0.5 * h, 1e-15);
    ENSURE_NEAR(s[1], 0.5 * h * PI_ / b, 1e-15);
    ENSURE_NEAR(s[2], 0.0, 1e-15);
    /* the high dwell and the low dwell */
    kinematics_profile_law(&d.profile, b + 0.1, s);
    ENSURE_NEAR(s[0], h, 0.0);
    kinematics_profile_law(&d.profile, 6.0, s);
    ENSURE_NEAR(s[0], 0.0, 0.0);
    /* cycloidal: peak acceleration 2 pi h / b^2 at a quarter of the rise */
    d = law_cam(CLINK_MOTION_CYCLOIDAL, CLINK_FOLLOWER_FLAT, 0);
    kinematics_profile_law(&d.profile, 0.25 * b, s);
    ENSURE_NEAR(s[2], 2.0 * PI_ * h / (b * b), 1e-12);
    /* every law: derivatives against central differences in rise and fall */
    for (int law = 0; law < 3; law++) {
        d = law_cam((clink_motion_law) law, CLINK_FOLLOWER_FLAT, 0);
        double at[] = {0.3, 1.1, 2.7, 3.5};
        for (int i = 0; i < 4; i++) {
            double sp[4], sm[4], e = 1e-5;
            kinematics_profile_law(&d.profile, at[i], s);
            kinematics_profile_law(&d.profile, at[i] + e, sp);
            kinematics_profile_law(&d.profile, at[i] - e, sm);
            for (int k = 0; k < 3; k++)
                ENSURE_NEAR(s[k + 1], (sp[k] - sm[k]) / (2 * e), 1e-6 * (1.0 + fabs(s[k + 1])));
        }
    }
}

TEST(a_flat_face_and_a_roller_on_a_law_cam_read_the_lift)
{
    for (int law = 0; law < 3; law++) {
        clink_shape_def df = law_cam((clink_motion_law) law, CLINK_FOLLOWER_FLAT, 0);
        clink_shape_def dr = law_cam((clink_motion_law) law, CLINK_FOLLOWER_ROLLER, 0.008);
        kinematics_shape cf, cr;
        kinematics_shape_of(&df, 0, &cf);
        kinematics_shape_of(&dr, 0, &cr);
        for (double phi = 0.05; phi < 6.2; phi += 0.37) {
            double s[4];
            kinematics_profile_law(&df.profile, phi, s);
            kinematics_pose cam = pose(0, 0, phi, 0, 0, 0);
            /* the flat face at height Y, 1 mm into the cam: delta = 30 mm + s - Y */
            double Y = 0.03 + s[0] - 0.001;
            kinematics_shape face = simple(CLINK_SHAPE_LINE, 0, 0, 0, -1, 0);
            kinematics_pose fp = pose(0.002, Y, 0, 0, 0, 0);
            kinematics_contact c;
            ENSURE(kinematics_contact_eval(&face, &fp, &cf, &cam, &c) == 0);
            ENSURE_NEAR(c.delta, 0.001, 1e-14);
            /* the roller touching at the lift: delta 0, the normal at the pressure angle
               tan a = s' / (R_b + r_r + s) */
            kinematics_shape roller = simple(CLINK_SHAPE_CIRCLE, 0, 0, 0, 0, 0.008);
            kinematics_pose rp = pose(0, 0.038 + s[0], 0, 0, 0, 0);
            ENSURE(kinematics_contact_eval(&cr, &cam, &roller, &rp, &c) == 0);
            ENSURE_NEAR(c.delta, 0.0, 1e-14);
            double a = atan2(c.n[0], c.n[1]);
            ENSURE_NEAR(tan(a), -s[1] / (0.038 + s[0]), 1e-10);
        }
    }
}

/* a table of n + 1 points of radius rho(angle) */
static clink_shape_def table_cam(int n, double (*rho)(double))
{
    clink_shape_def d;
    memset(&d, 0, sizeof d);
    d.type = CLINK_SHAPE_PROFILE;
    d.profile.kind = CLINK_PROFILE_TABLE;
    d.profile.npoints = n + 1;
    for (int i = 0; i <= n; i++) {
        d.profile.angles[i] = 2.0 * PI_ * i / n;
        d.profile.radii[i] = rho(d.profile.angles[i]);
    }
    d.profile.radii[n] = d.profile.radii[0];
    return d;
}

static double round_rho(double t)
{
    (void) t;
    return 0.05;
}

/* a cam with a concave dent around 90 deg */
static double dent_rho(double t)
{
    return 0.05 - 0.006 * exp(-8.0 * (t - 0.5 * PI_) * (t - 0.5 * PI_));
}

TEST(a_table_cam_of_constant_radius_is_a_circle_and_a_dent_is_concave)
{
    clink_shape_def d = table_cam(12, round_rho);
    char msg[200];
    clink_status st;
    ENSURE(kinematics_profile_check(&d, msg, sizeof msg, &st) == 0);
    kinematics_shape cam, roller = simple(CLINK_SHAPE_CIRCLE, 0, 0, 0, 0, 0.01);
    kinematics_shape_of(&d, 0, &cam);
    ENSURE_NEAR(cam.r, 0.05, 1e-12); /* its size: the radius of curvature */
    kinematics_pose pa = pose(0.1, -0.2, 0.4, 0, 0, 0),
                    pb = pose(0.1 + 0.05, -0.2 + 0.02, 0, 0, 0, 0);
    kinematics_contact c;
    ENSURE(kinematics_contact_eval(&cam, &pa, &roller, &pb, &c) == 0);
    double dist = hypot(0.05, 0.02);
    ENSURE_NEAR(c.delta, 0.06 - dist, 1e-13);
    ENSURE_NEAR(c.n[0], 0.05 / dist, 1e-12);
    ENSURE_NEAR(c.n[1], 0.02 / dist, 1e-12);
    /* the dent: the distance to a dense polyline of the spline, a roller of 5 mm in it */
    d = table_cam(36, dent_rho);
    ENSURE(kinematics_profile_check(&d, msg, sizeof msg, &st) == 0);
    kinematics_shape_of(&d, 0, &cam);
    double convex, concave;
    kinematics_profile_radii(&cam, &convex, &concave);
    ENSURE(isfinite(concave) && concave > 0.005);
    roller.r = 0.005;
    for (double dx = -0.004; dx <= 0.004; dx += 0.002) {
        kinematics_pose rp = pose(dx, 0.0495, 0, 0, 0, 0), cp = pose(0, 0, 0, 0, 0, 0);
        ENSURE(kinematics_contact_eval(&cam, &cp, &roller, &rp, &c) == 0);
        double best = INFINITY, X[2], X1[2], X2[2];
        for (int i = 0; i < 400000; i++) {
            kinematics_profile_point(&cam, 2.0 * PI_ * i / 400000, X, X1, X2);
            best = fmin(best, hypot(X[0] - dx, X[1] - 0.0495));
        }
        /* the centre is outside the dent's surface? inside it: the spline passes above */
        kinematics_profile_point(&cam, atan2(0.0495, dx), X, X1, X2);
        double sign = hypot(X[0], X[1]) > hypot(dx, 0.0495) ? -1.0 : 1.0;
        ENSURE_NEAR(c.delta, 0.005 - sign * best, 2e-9);
    }
}

TEST(an_arc_is_its_circle_within_its_span_and_its_ends_beyond)
{
    kinematics_shape arc = simple(CLINK_SHAPE_ARC, 0.01, 0, 0, 0, 0.05);
    arc.ang[0] = -0.5, arc.ang[1] = 1.0;
    kinematics_shape ball = simple(CLINK_SHAPE_CIRCLE, 0, 0, 0, 0, 0.01);
    kinematics_pose pa = pose(0, 0, 0, 0, 0, 0);
    kinematics_contact c;
    /* within the span: two circles, delta = R + r - d */
    kinematics_pose pb = pose(0.01 + 0.055 * cos(0.3), 0.055 * sin(0.3), 0, 0, 0, 0);
    ENSURE(kinematics_contact_eval(&arc, &pa, &ball, &pb, &c) == 0);
    ENSURE_NEAR(c.delta, 0.005, 1e-15);
    ENSURE_NEAR(c.n[0], cos(0.3), 1e-14);
    /* concave: a bore segment, delta = d - (R - r) */
    arc.concave = 1;
    pb = pose(0.01 + 0.043 * cos(0.3), 0.043 * sin(0.3), 0, 0, 0, 0);
    ENSURE(kinematics_contact_eval(&arc, &pa, &ball, &pb, &c) == 0);
    ENSURE_NEAR(c.delta, 0.003, 1e-15);
    ENSURE_NEAR(c.n[0], -cos(0.3), 1e-14);
    /* beyond the end at 1.0 rad: the end point, delta = r - |c - e| */
    pb = pose(0.01 + 0.05 * cos(1.2), 0.05 * sin(1.2), 0, 0, 0, 0);
    ENSURE(kinematics_contact_eval(&arc, &pa, &ball, &pb, &c) == 0);
    double ex = 0.01 + 0.05 * cos(1.0), ey = 0.05 * sin(1.0);
    ENSURE_NEAR(c.delta, 0.01 - hypot(pb.q[0] - ex, pb.q[1] - ey), 1e-15);
    /* continuity at the end: the two sides agree */
    kinematics_contact c1, c2;
    kinematics_pose p1 = pose(0.01 + 0.047 * cos(1.0 - 1e-9), 0.047 * sin(1.0 - 1e-9), 0, 0, 0, 0);
    kinematics_pose p2 = pose(0.01 + 0.047 * cos(1.0 + 1e-9), 0.047 * sin(1.0 + 1e-9), 0, 0, 0, 0);
    ENSURE(kinematics_contact_eval(&arc, &pa, &ball, &p1, &c1) == 0);
    ENSURE(kinematics_contact_eval(&arc, &pa, &ball, &p2, &c2) == 0);
    ENSURE_NEAR(c1.delta, c2.delta, 1e-10);
    ENSURE_NEAR(c1.n[1], c2.n[1], 1e-8);
}

TEST(curved_pairs_have_exact_rates_and_derivatives)
{
    kinematics_pose pa = pose(0.01, -0.02, 0.7, 0.3, -0.2, 4.0);
    kinematics_pose pb;
    /* the roller on each law cam at three angles, touching and 0.5 mm in */
    for (int law = 0; law < 3; law++) {
        clink_shape_def dr = law_cam((clink_motion_law) law, CLINK_FOLLOWER_ROLLER, 0.008);
        clink_shape_def df = law_cam((clink_motion_law) law, CLINK_FOLLOWER_FLAT, 0);
        kinematics_shape cr, cf;
        kinematics_shape_of(&dr, 0, &cr);
        kinematics_shape_of(&df, 0, &cf);
        kinematics_shape roller = simple(CLINK_SHAPE_CIRCLE, 0.001, 0, 0, 0, 0.0085);
        kinematics_shape face = simple(CLINK_SHAPE_LINE, 0.002, -0.001, 0.3, -1.0, 0);
        double fn = hypot(0.3, 1.0);
        face.nrm[0] /= fn, face.nrm[1] /= fn;
        for (double phi = 0.4; phi < 6.0; phi += 1.3) {
            double R = 0.042;
            pb = pose(0.01 - R * sin(phi), -0.02 + R * cos(phi), 0.2, -0.5, 0.8, -3.0);
            check_diff(&cr, pa, &roller, pb);
            check_rate(&cr, pa, &roller, pb);
            pb = pose(0.01 - 0.03 * sin(phi), -0.02 + 0.04 * cos(phi), 0.5 - phi, -0.5, 0.8, -3.0);
            check_diff(&face, pb, &cf, pa);
            check_rate(&face, pb, &cf, pa);
        }
    }
    /* the dented table cam: the roller in the dent (concave) and on the round part */
    clink_shape_def d = table_cam(36, dent_rho);
    char msg[200];
    clink_status st;
    ENSURE(kinematics_profile_check(&d, msg, sizeof msg, &st) == 0);
    kinematics_shape cam, roller = simple(CLINK_SHAPE_CIRCLE, 0, 0, 0, 0, 0.005);
    kinematics_shape_of(&d, 0, &cam);
    kinematics_pose cp = pose(0, 0, 0, 0.1, 0.2, 1.5);
    check_diff(&cam, cp, &roller, pose(0.001, 0.0492, 0.1, 0.3, -0.1, 2.0));
    check_rate(&cam, cp, &roller, pose(0.001, 0.0492, 0.1, 0.3, -0.1, 2.0));
    check_diff(&cam, cp, &roller, pose(0.05, -0.01, 0.1, 0.3, -0.1, 2.0));
    /* the arc, convex and concave, within and beyond its span */
    kinematics_shape arc = simple(CLINK_SHAPE_ARC, 0.01, 0.002, 0, 0, 0.05);
    arc.ang[0] = -0.5, arc.ang[1] = 1.0;
    kinematics_shape ball = simple(CLINK_SHAPE_CIRCLE, 0.001, 0, 0, 0, 0.01);
    for (int cc = 0; cc < 2; cc++) {
        arc.concave = cc;
        double rr = cc ? 0.043 : 0.058;
        for (double b = -0.3; b < 1.5; b += 0.5) {
            kinematics_pose pc =
                pose(0.01 + rr * cos(b + 0.7), -0.02 + rr * sin(b + 0.7), 0.3, 0.2, 0.1, -1.0);
            check_diff(&arc, pa, &ball, pc);
            check_rate(&arc, pa, &ball, pc);
        }
    }
}

TEST(profiles_not_closed_crossing_themselves_or_undercut_are_refused)
{
    char msg[300];
    clink_status st;
    clink_shape_def d = table_cam(12, round_rho);
    d.profile.radii[12] = 0.051;
    ENSURE(kinematics_profile_check(&d, msg, sizeof msg, &st) == -1);
    ENSURE(strstr(msg, "not closed") != NULL);
    d = table_cam(12, round_rho);
    d.profile.angles[12] = 5.0;
    ENSURE(kinematics_profile_check(&d, msg, sizeof msg, &st) == -1);
    ENSURE(strstr(msg, "not closed") != NULL);
    d = table_cam(12, round_rho);
    d.profile.radii[4] = -0.01;
    ENSURE(kinematics_profile_check(&d, msg, sizeof msg, &st) == -1);
    ENSURE(strstr(msg, "intersects itself") != NULL);
    /* a roller cam with a sharp rise: a small base circle and a large roller undercut */
    d = law_cam(CLINK_MOTION_CYCLOIDAL, CLINK_FOLLOWER_ROLLER, 0.02);
    d.profile.base_radius = 0.005;
    d.profile.rise = 0.3;
    ENSURE(kinematics_profile_check(&d, msg, sizeof msg, &st) == -1);
    ENSURE(strstr(msg, "undercut") != NULL);
    d = law_cam(CLINK_MOTION_CYCLOIDAL, CLINK_FOLLOWER_FLAT, 0);
    d.profile.base_radius = 0.005;
    d.profile.rise = 0.3;
    ENSURE(kinematics_profile_check(&d, msg, sizeof msg, &st) == -1);
    ENSURE(strstr(msg, "cusp") != NULL);
    d = law_cam(CLINK_MOTION_POLY345, CLINK_FOLLOWER_FLAT, 0);
    ENSURE(kinematics_profile_check(&d, msg, sizeof msg, &st) == 0);
    /* the registry's new pairs, with exact derivatives */
    ENSURE(kinematics_pair_of(CLINK_SHAPE_PROFILE, CLINK_SHAPE_CIRCLE)->diff != NULL);
    ENSURE(kinematics_pair_of(CLINK_SHAPE_LINE, CLINK_SHAPE_PROFILE)->diff != NULL);
    ENSURE(kinematics_pair_of(CLINK_SHAPE_ARC, CLINK_SHAPE_CIRCLE)->diff != NULL);
    ENSURE(kinematics_pair_of(CLINK_SHAPE_CIRCLE, CLINK_SHAPE_PROFILE) == NULL);
}
