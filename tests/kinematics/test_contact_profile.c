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

/* contact cw (a worn surface) as cb (the circle it stands for): gap to 1e-13 m, rates to
   1e-12, points to 1e-13 m, normal to ntol */
static void ensure_same_contact(const kinematics_contact *cw, const kinematics_contact *cb,
                                double ntol)
{
    ENSURE_NEAR(cw->delta, cb->delta, 1e-13);
    ENSURE_NEAR(cw->delta_dot, cb->delta_dot, 1e-12);
    ENSURE_NEAR(cw->v_t, cb->v_t, 1e-12);
    for (int k = 0; k < 2; k++) {
        ENSURE_NEAR(cw->n[k], cb->n[k], ntol);
        ENSURE_NEAR(cw->p_a[k], cb->p_a[k], 1e-13);
        ENSURE_NEAR(cw->p_b[k], cb->p_b[k], 1e-13);
    }
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

/* ---- the worn bore (a bore with a profile: docs/wear.md) -------------------------- */

/* the analytic wear of the worn-bore tests: a raised cosine of depth A about theta0, with its
   first two derivatives */
static const double WB_R = 0.01, WB_A = 40e-6, WB_T0 = 1.0;
static void wb_h(double t, double h[3])
{
    h[0] = 0.5 * WB_A * (1.0 + cos(t - WB_T0));
    h[1] = -0.5 * WB_A * sin(t - WB_T0);
    h[2] = -0.5 * WB_A * cos(t - WB_T0);
}

/* a worn bore at body point (0.001, -0.002) through n knots of wb_h (amp scales it) */
static clink_shape_def worn_def(int n, double amp)
{
    clink_shape_def d;
    double depth[CLINK_WEAR_MAX_KNOTS], h[3];
    memset(&d, 0, sizeof d);
    d.type = CLINK_SHAPE_BORE;
    d.a[0] = 0.001, d.a[1] = -0.002;
    d.radius = WB_R;
    for (int i = 0; i < n; i++) {
        wb_h(2.0 * PI_ * i / n, h);
        depth[i] = amp * h[0];
    }
    kinematics_worn_bore_profile(&d.profile, WB_R, n, depth);
    return d;
}

/* the exact surface X(t) = a + (R + h(t)) u(t) and its derivatives, body frame */
static void wb_curve(const double a[2], double t, double X[2], double X1[2], double X2[2])
{
    double h[3], u[2] = {cos(t), sin(t)}, w[2] = {-sin(t), cos(t)};
    wb_h(t, h);
    double r = WB_R + h[0];
    for (int k = 0; k < 2; k++) {
        X[k] = a[k] + r * u[k];
        X1[k] = h[1] * u[k] + r * w[k];
        X2[k] = (h[2] - r) * u[k] + 2.0 * h[1] * w[k];
    }
}

/* the closest point of the exact surface to c: the best of 200000 samples, then Newton on
   X' . (X - c) = 0 with the exact derivatives */
static double wb_closest(const double a[2], const double c[2])
{
    double best = INFINITY, tb = 0.0, X[2], X1[2], X2[2];
    for (int i = 0; i < 200000; i++) {
        double t = 2.0 * PI_ * i / 200000;
        wb_curve(a, t, X, X1, X2);
        double d = hypot(X[0] - c[0], X[1] - c[1]);
        if (d < best)
            best = d, tb = t;
    }
    for (int it = 0; it < 20; it++) {
        wb_curve(a, tb, X, X1, X2);
        double d[2] = {X[0] - c[0], X[1] - c[1]};
        double f = X1[0] * d[0] + X1[1] * d[1];
        double fp = X2[0] * d[0] + X2[1] * d[1] + X1[0] * X1[0] + X1[1] * X1[1];
        tb -= f / fp;
    }
    return tb;
}

TEST(a_worn_bore_of_zero_depth_is_the_circular_bore)
{
    clink_shape_def d = worn_def(36, 0.0), plain = d;
    memset(&plain.profile, 0, sizeof plain.profile);
    kinematics_shape worn, bore, journal = simple(CLINK_SHAPE_CIRCLE, 0, 0, 0, 0, 0.0095);
    kinematics_shape_of(&d, 0, &worn);
    kinematics_shape_of(&plain, 0, &bore);
    ENSURE(worn.prof != NULL && bore.prof == NULL);
    /* the worn bore is neither round nor central; the circular bore is both */
    ENSURE(!kinematics_shape_has(&worn, KINEMATICS_SHAPE_ROUND) &&
           !kinematics_shape_has(&worn, KINEMATICS_SHAPE_CENTRAL));
    ENSURE(kinematics_shape_has(&bore, KINEMATICS_SHAPE_ROUND));
    kinematics_pose pa = pose(0.1, 0.2, 0.3, 0.5, -0.4, 2.0);
    for (double b = 0.1; b < 6.3; b += 0.7) {
        double e = 0.0005 + 1e-5 * sin(3 * b), cs = cos(0.3), sn = sin(0.3);
        double c[2] = {0.1 + cs * 0.001 - sn * -0.002 + e * cos(b),
                       0.2 + sn * 0.001 + cs * -0.002 + e * sin(b)};
        kinematics_pose pb = pose(c[0], c[1], -0.4, 0.1, 0.3, -7.0);
        kinematics_contact cw, cb;
        ENSURE(kinematics_contact_eval(&worn, &pa, &journal, &pb, &cw) == 0);
        ENSURE(kinematics_contact_eval(&bore, &pa, &journal, &pb, &cb) == 0);
        ensure_same_contact(&cw, &cb, 1e-11);
    }
}

/*
 * (c) of docs/wear.md: the worn bore's penetration, normal, contact point and curvature
 * against an independent evaluation of the exact surface the knots sample (a dense search
 * of the closest point refined by Newton on the analytic curve). The spline through 47 knots
 * of the raised cosine interpolates it within 5/384 dtheta^4 max|h''''| = 1e-10 m, its slope
 * within dtheta^3 / 24 max|h''''| (angle 2e-7 rad) and its second derivative within
 * dtheta^2 / 12 max|h''''| (curvature 3e-4 1/m of 100): tolerances 5e-10 m, 2e-6 and 2e-5
 * relative. The contact point slides along the surface by the normal's error divided by
 * 1 / d - kappa (d the journal radius; the conformal contact's 5.3 1/m), up to 4e-8 m:
 * tolerance 5e-8 m.
 */
TEST(a_worn_bore_has_the_gap_normal_and_curvature_of_a_dense_closest_point_search)
{
    clink_shape_def d = worn_def(47, 1.0);
    kinematics_shape worn, journal = simple(CLINK_SHAPE_CIRCLE, 0, 0, 0, 0, 0.0095);
    kinematics_shape_of(&d, 0, &worn);
    const double phi = 0.3, cs = cos(phi), sn = sin(phi);
    kinematics_pose pa = pose(0.1, 0.2, phi, 0, 0, 0);
    int checked = 0;
    for (double b = 0.05; b < 6.3; b += 0.45) {
        double h[3];
        wb_h(b, h);
        /* the journal centre in the bearing's frame, near the worn wall */
        double e = 0.0005 + h[0] + 3e-6 * cos(5 * b);
        double cl[2] = {0.001 + e * cos(b), -0.002 + e * sin(b)};
        kinematics_pose pb =
            pose(0.1 + cs * cl[0] - sn * cl[1], 0.2 + sn * cl[0] + cs * cl[1], 0.7, 0, 0, 0);
        kinematics_contact c;
        ENSURE(kinematics_contact_eval(&worn, &pa, &journal, &pb, &c) == 0);
        double t = wb_closest(d.a, cl), X[2], X1[2], X2[2];
        wb_curve(d.a, t, X, X1, X2);
        double dist = hypot(X[0] - cl[0], X[1] - cl[1]);
        ENSURE_NEAR(c.delta, 0.0095 - dist, 5e-10);
        /* the normal (on the journal: inwards) and the contact point, into the body frame */
        double nl[2] = {cs * c.n[0] + sn * c.n[1], -sn * c.n[0] + cs * c.n[1]};
        double pl[2] = {cs * (c.p_a[0] - 0.1) + sn * (c.p_a[1] - 0.2),
                        -sn * (c.p_a[0] - 0.1) + cs * (c.p_a[1] - 0.2)};
        double l = hypot(X1[0], X1[1]), N[2] = {X1[1] / l, -X1[0] / l};
        ENSURE_NEAR(nl[0], -N[0], 2e-6);
        ENSURE_NEAR(nl[1], -N[1], 2e-6);
        ENSURE_NEAR(pl[0], X[0], 5e-8);
        ENSURE_NEAR(pl[1], X[1], 5e-8);
        /* the curvature of the spline at the contact against the polar formula */
        double rr = WB_R + h[0], Nk[2];
        wb_h(t, h);
        rr = WB_R + h[0];
        double kappa = (rr * rr + 2 * h[1] * h[1] - rr * h[2]) / pow(rr * rr + h[1] * h[1], 1.5);
        double tau = atan2(pl[1] - d.a[1], pl[0] - d.a[0]);
        ENSURE_REL(kinematics_profile_curvature(&worn, tau, Nk), kappa, 2e-5);
        checked++;
    }
    ENSURE(checked == 14);
}

/*
 * The conformal journal-bearing contact's derivatives grow by a factor 1 / (d (1 - kappa d))
 * ~ 2000 1/m each (d the distance of the centre from the wall), so the third derivatives
 * reach 1e10 and geometry_checks.h's step of 1e-7 leaves a truncation error of 1e-5: here
 * the step is 1e-8 (truncation and rounding near 1e-7 each) and the tolerance 1e-6 relative to
 * max(1, |derivative|).
 */
static void worn_check_diff(const kinematics_shape *sa, kinematics_pose pa,
                            const kinematics_shape *sb, kinematics_pose pb)
{
    kinematics_contact_diff d;
    ENSURE(kinematics_contact_eval_diff(sa, &pa, sb, &pb, &d) == 0);
    for (int k = 0; k < KINEMATICS_NDIFF; k++) {
        const double h = 1e-8;
        kinematics_pose a1 = pa, b1 = pb, a2 = pa, b2 = pb;
        *slot(&a1, &b1, k) += h;
        *slot(&a2, &b2, k) -= h;
        kinematics_contact cp, cm;
        ENSURE(kinematics_contact_eval(sa, &a1, sb, &b1, &cp) == 0);
        ENSURE(kinematics_contact_eval(sa, &a2, sb, &b2, &cm) == 0);
        const kinematics_dual *x[5] = {&d.delta, &d.delta_dot, &d.n[0], &d.n[1], &d.v_t};
        double fd[5] = {cp.delta - cm.delta, cp.delta_dot - cm.delta_dot, cp.n[0] - cm.n[0],
                        cp.n[1] - cm.n[1], cp.v_t - cm.v_t};
        for (int i = 0; i < 5; i++)
            ENSURE_NEAR(x[i]->d[k], fd[i] / (2 * h), 1e-6 * fmax(1.0, fabs(x[i]->d[k])));
        for (int i = 0; i < 2; i++) {
            ENSURE_NEAR(d.p_a[i].d[k], (cp.p_a[i] - cm.p_a[i]) / (2 * h),
                        1e-6 * fmax(1.0, fabs(d.p_a[i].d[k])));
            ENSURE_NEAR(d.p_b[i].d[k], (cp.p_b[i] - cm.p_b[i]) / (2 * h),
                        1e-6 * fmax(1.0, fabs(d.p_b[i].d[k])));
        }
    }
    /* the rate: delta along the rigid motion, step 1e-9 s */
    kinematics_contact cp, cm;
    kinematics_pose pap = advance(pa, 1e-9), pam = advance(pa, -1e-9);
    kinematics_pose pbp = advance(pb, 1e-9), pbm = advance(pb, -1e-9);
    ENSURE(kinematics_contact_eval(sa, &pap, sb, &pbp, &cp) == 0);
    ENSURE(kinematics_contact_eval(sa, &pam, sb, &pbm, &cm) == 0);
    ENSURE_NEAR(d.delta_dot.v, (cp.delta - cm.delta) / 2e-9, 1e-6 * fmax(1.0, fabs(d.delta_dot.v)));
}

/* worn_check_diff for a journal (its body point (0.0003, -0.0001)) placed 0.52 mm from the
   bore's centre (body point (0.001, -0.002) of the bore's body at (0.01, -0.02), 0.7 rad) at
   seven directions around it */
static void worn_sweep_diff(const kinematics_shape *bore, const kinematics_shape *journal)
{
    kinematics_pose pa = pose(0.01, -0.02, 0.7, 0.3, -0.2, 4.0);
    for (double b = 0.2; b < 6.3; b += 0.9) {
        double e = 0.00052, cs = cos(0.7), sn = sin(0.7);
        double cl[2] = {0.001 + e * cos(b), -0.002 + e * sin(b)};
        double c[2] = {0.01 + cs * cl[0] - sn * cl[1], -0.02 + sn * cl[0] + cs * cl[1]};
        /* the journal's body point at c: its reference point is offset */
        double psi = 0.2, off[2] = {cos(psi) * 0.0003 + sin(psi) * 0.0001,
                                    sin(psi) * 0.0003 - cos(psi) * 0.0001};
        kinematics_pose pb = pose(c[0] - off[0], c[1] - off[1], psi, -0.5, 0.8, -3.0);
        worn_check_diff(bore, pa, journal, pb);
    }
}

TEST(a_worn_bore_has_exact_rates_and_derivatives)
{
    clink_shape_def d = worn_def(36, 1.0);
    kinematics_shape worn, journal = simple(CLINK_SHAPE_CIRCLE, 0.0003, -0.0001, 0, 0, 0.0095);
    kinematics_shape_of(&d, 0, &worn);
    worn_sweep_diff(&worn, &journal);
}

/* ---- the worn pin (a journal with a profile: docs/wear.md) ------------------------- */

/* the pin's analytic wear: a raised cosine of depth 30 um about 2.5 rad of its frame */
static const double WP_R = 0.0095, WP_A = 30e-6, WP_T0 = 2.5;
static void wp_h(double t, double h[3])
{
    h[0] = 0.5 * WP_A * (1.0 + cos(t - WP_T0));
    h[1] = -0.5 * WP_A * sin(t - WP_T0);
    h[2] = -0.5 * WP_A * cos(t - WP_T0);
}

/* a worn pin at journal point a through n knots of wp_h (amp scales it) */
static clink_shape_def pin_def(int n, double amp, double ax, double ay)
{
    clink_shape_def d;
    double depth[CLINK_WEAR_MAX_KNOTS], h[3];
    memset(&d, 0, sizeof d);
    d.type = CLINK_SHAPE_CIRCLE;
    d.a[0] = ax, d.a[1] = ay;
    d.radius = WP_R;
    for (int i = 0; i < n; i++) {
        wp_h(2.0 * PI_ * i / n, h);
        depth[i] = amp * h[0];
    }
    kinematics_worn_pin_profile(&d.profile, WP_R, n, depth);
    return d;
}

/* the pin's exact surface a + (r - h(s)) u(s), world frame of the pose q */
static void wp_curve(const double a[2], const double q[3], double s, double X[2])
{
    double h[3];
    wp_h(s, h);
    double r = WP_R - h[0], l[2] = {a[0] + r * cos(s), a[1] + r * sin(s)};
    X[0] = q[0] + cos(q[2]) * l[0] - sin(q[2]) * l[1];
    X[1] = q[1] + sin(q[2]) * l[0] + cos(q[2]) * l[1];
}

/* the signed distance of the bearing-frame point c outside the exact worn bore (its closest
   point: the best of 801 samples within 0.02 rad of c's angle, then Newton), and that
   point's parameter into *tb */
static double wb_outside(const double a[2], const double c[2], double *tb)
{
    double best = INFINITY, X[2], X1[2], X2[2], b = atan2(c[1] - a[1], c[0] - a[0]);
    for (int i = -400; i <= 400; i++) {
        double t = b + 0.02 * i / 400;
        wb_curve(a, t, X, X1, X2);
        double d = hypot(X[0] - c[0], X[1] - c[1]);
        if (d < best)
            best = d, *tb = t;
    }
    for (int it = 0; it < 20; it++) {
        wb_curve(a, *tb, X, X1, X2);
        double d[2] = {X[0] - c[0], X[1] - c[1]};
        double f = X1[0] * d[0] + X1[1] * d[1];
        double fp = X2[0] * d[0] + X2[1] * d[1] + X1[0] * X1[0] + X1[1] * X1[1];
        *tb -= f / fp;
    }
    wb_curve(a, *tb, X, X1, X2);
    double l = hypot(X1[0], X1[1]), N[2] = {X1[1] / l, -X1[0] / l};
    return (c[0] - X[0]) * N[0] + (c[1] - X[1]) * N[1];
}

/* the distance of the pin's point s outside the exact worn bore (poses qa, qb) */
static double wp_outside(const double ab[2], const double qa[3], const double ap[2],
                         const double qb[3], double s)
{
    double X[2], l[2], tb, ca = cos(qa[2]), sa = sin(qa[2]);
    wp_curve(ap, qb, s, X);
    l[0] = ca * (X[0] - qa[0]) + sa * (X[1] - qa[1]);
    l[1] = -sa * (X[0] - qa[0]) + ca * (X[1] - qa[1]);
    return wb_outside(ab, l, &tb);
}

/* the pin point (parameter) deepest outside the worn bore: the best of 1000 samples, then
   a golden-section search over the neighbouring samples */
static double wp_deepest(const double ab[2], const double qa[3], const double ap[2],
                         const double qb[3])
{
    double best = -INFINITY, sb = 0.0;
    for (int i = 0; i < 1000; i++) {
        double g = wp_outside(ab, qa, ap, qb, 2.0 * PI_ * i / 1000);
        if (g > best)
            best = g, sb = 2.0 * PI_ * i / 1000;
    }
    double lo = sb - 2.0 * PI_ / 1000, hi = sb + 2.0 * PI_ / 1000, r = 0.5 * (sqrt(5.0) - 1.0);
    for (int it = 0; it < 60; it++) {
        double m1 = hi - r * (hi - lo), m2 = lo + r * (hi - lo);
        double g1 = wp_outside(ab, qa, ap, qb, m1), g2 = wp_outside(ab, qa, ap, qb, m2);
        if (g1 > g2)
            hi = m2;
        else
            lo = m1;
    }
    return 0.5 * (lo + hi);
}

TEST(a_worn_pin_of_zero_depth_is_the_circular_journal)
{
    clink_shape_def dp = pin_def(36, 0.0, 0.0003, -0.0001), db = worn_def(36, 1.0);
    kinematics_shape pin, bore, journal = simple(CLINK_SHAPE_CIRCLE, 0.0003, -0.0001, 0, 0, WP_R);
    kinematics_shape_of(&dp, 0, &pin);
    kinematics_shape_of(&db, 0, &bore);
    ENSURE(pin.prof != NULL && !kinematics_shape_has(&pin, KINEMATICS_SHAPE_ROUND));
    ENSURE(!kinematics_contact_circles_ok(&pin, 0));
    kinematics_pose pa = pose(0.1, 0.2, 0.3, 0.5, -0.4, 2.0);
    for (int worn = 0; worn < 2; worn++) {
        clink_shape_def plain = db;
        if (!worn)
            memset(&plain.profile, 0, sizeof plain.profile);
        kinematics_shape_of(&plain, 0, &bore);
        for (double b = 0.1; b < 6.3; b += 0.7) {
            double e = 0.0005 + 4e-5 * worn + 1e-5 * sin(3 * b), cs = cos(0.3), sn = sin(0.3);
            double c[2] = {0.1 + cs * 0.001 - sn * -0.002 + e * cos(b),
                           0.2 + sn * 0.001 + cs * -0.002 + e * sin(b)};
            kinematics_pose pb = pose(c[0] - 0.0003, c[1] + 0.0001, 0.0, 0.1, 0.3, -7.0);
            kinematics_contact cw, cb;
            ENSURE(kinematics_contact_eval(&bore, &pa, &pin, &pb, &cw) == 0);
            ENSURE(kinematics_contact_eval(&bore, &pa, &journal, &pb, &cb) == 0);
            ensure_same_contact(&cw, &cb, 1e-10);
        }
    }
}

/*
 * Item (c) of docs/wear.md for both surfaces worn at once: the worn pin in the worn bore
 * against an independent evaluation of the exact surfaces the knots sample: the pin point
 * deepest outside the bore by a dense search over the pin (1000 samples, then golden
 * section), each pin point's distance outside the bore by a dense closest-point search on
 * the bore refined by Newton on the analytic curve. Both splines (47 knots of raised cosines
 * of 40 and 30 um) interpolate within 1e-10 m, their slopes within 2e-7 rad, their curvature
 * within 3e-4 1/m (the bore test's bounds above): penetration within 5e-10 m, normal within
 * 4e-6, the contact points within 1e-7 m (the normal's error over the conformal contact's
 * 1 / r_p - kappa_b ~ 5 1/m, for both surfaces), the pin's curvature within 2e-5 relative.
 */
TEST(a_worn_pin_in_a_worn_bore_has_the_gap_normal_and_curvature_of_a_dense_search)
{
    clink_shape_def db = worn_def(47, 1.0), dp = pin_def(47, 1.0, 0.0, 0.0);
    kinematics_shape bore, pin;
    kinematics_shape_of(&db, 0, &bore);
    kinematics_shape_of(&dp, 0, &pin);
    const double phi = 0.3, cs = cos(phi), sn = sin(phi), psi = 0.7;
    kinematics_pose pa = pose(0.1, 0.2, phi, 0, 0, 0);
    int checked = 0;
    for (double b = 0.05; b < 6.3; b += 0.45) {
        double hb[3], hp[3];
        wb_h(b, hb);
        wp_h(b - psi, hp);
        /* the pin centre in the bearing's frame, near the worn wall */
        double e = 0.0005 + hb[0] + hp[0] + 3e-6 * cos(5 * b);
        double cl[2] = {0.001 + e * cos(b), -0.002 + e * sin(b)};
        kinematics_pose pb =
            pose(0.1 + cs * cl[0] - sn * cl[1], 0.2 + sn * cl[0] + cs * cl[1], psi, 0, 0, 0);
        kinematics_contact c;
        ENSURE(kinematics_contact_eval(&bore, &pa, &pin, &pb, &c) == 0);
        double s = wp_deepest(db.a, pa.q, dp.a, pb.q), P[2], pl[2], t;
        wp_curve(dp.a, pb.q, s, P);
        pl[0] = cs * (P[0] - 0.1) + sn * (P[1] - 0.2);
        pl[1] = -sn * (P[0] - 0.1) + cs * (P[1] - 0.2);
        double g = wb_outside(db.a, pl, &t), X[2], X1[2], X2[2];
        wb_curve(db.a, t, X, X1, X2);
        ENSURE_NEAR(c.delta, g, 5e-10);
        double nl[2] = {cs * c.n[0] + sn * c.n[1], -sn * c.n[0] + cs * c.n[1]};
        double al[2] = {cs * (c.p_a[0] - 0.1) + sn * (c.p_a[1] - 0.2),
                        -sn * (c.p_a[0] - 0.1) + cs * (c.p_a[1] - 0.2)};
        double l = hypot(X1[0], X1[1]), N[2] = {X1[1] / l, -X1[0] / l};
        for (int k = 0; k < 2; k++) {
            ENSURE_NEAR(nl[k], -N[k], 4e-6);
            ENSURE_NEAR(al[k], X[k], 1e-7);
            ENSURE_NEAR(c.p_b[k], P[k], 1e-7);
        }
        /* the pin spline's curvature at the contact against the polar formula */
        double Nk[2];
        wp_h(s, hp);
        double rr = WP_R - hp[0], r1 = -hp[1], r2 = -hp[2];
        double kappa = (rr * rr + 2 * r1 * r1 - rr * r2) / pow(rr * rr + r1 * r1, 1.5);
        ENSURE_REL(kinematics_profile_curvature(&pin, s, Nk), kappa, 2e-5);
        checked++;
    }
    ENSURE(checked == 14);
}

TEST(a_worn_pin_has_exact_rates_and_derivatives)
{
    clink_shape_def db = worn_def(36, 1.0), dp = pin_def(36, 1.0, 0.0003, -0.0001);
    kinematics_shape bore, pin;
    kinematics_shape_of(&db, 0, &bore);
    kinematics_shape_of(&dp, 0, &pin);
    for (int worn = 0; worn < 2; worn++) {
        clink_shape_def plain = db;
        if (!worn)
            memset(&plain.profile, 0, sizeof plain.profile);
        kinematics_shape_of(&plain, 0, &bore);
        worn_sweep_diff(&bore, &pin);
    }
}

/* ---- the worn guide (a line with a profile: docs/wear.md) --------------------------- */

/* the guide's analytic wear: a groove of depth 20 um and length 40 mm about x = 10 mm, with
   its first two derivatives */
static void wg_h(double x, double h[3])
{
    const double A = 20e-6, w = 2.0 * PI_ / 0.04, c = 0.01;
    int in = fabs(x - c) < 0.02;
    h[0] = in ? 0.5 * A * (1.0 + cos(w * (x - c))) : 0.0;
    h[1] = in ? -0.5 * A * w * sin(w * (x - c)) : 0.0;
    h[2] = in ? -0.5 * A * w * w * cos(w * (x - c)) : 0.0;
}

/* a worn lower guide surface: through a = (0.002, -0.0105) with axis u at 0.2 rad, normal
   +n, 47 knots of wg_h over 0.2 m */
static clink_shape_def guide_def(double *u)
{
    clink_shape_def d;
    double depth[47], h[3];
    memset(&d, 0, sizeof d);
    u[0] = cos(0.2), u[1] = sin(0.2);
    d.type = CLINK_SHAPE_LINE;
    d.a[0] = 0.002 - 0.0105 * -u[1], d.a[1] = -0.0105 * u[0];
    d.normal[0] = -u[1], d.normal[1] = u[0];
    d.b[0] = u[0], d.b[1] = u[1];
    d.angle[0] = 0.2;
    for (int i = 0; i < 47; i++) {
        wg_h(-0.1 + 0.2 * i / 46, h);
        depth[i] = h[0];
    }
    kinematics_worn_line_profile(&d.profile, 0.2, 47, depth);
    return d;
}

/* the exact surface point at abscissa x and its tangent */
static void wg_curve(const clink_shape_def *d, double x, double X[2], double X1[2], double X2[2])
{
    double h[3];
    wg_h(x, h);
    for (int k = 0; k < 2; k++) {
        X[k] = d->a[k] + x * d->b[k] - h[0] * d->normal[k];
        X1[k] = d->b[k] - h[1] * d->normal[k];
        X2[k] = -h[2] * d->normal[k];
    }
}

/*
 * A corner (a point) on the worn guide against an independent evaluation of the exact
 * groove the knots sample: the closest point by a dense search (20000 samples within 5 mm of
 * the corner's abscissa) refined by Newton on the analytic curve. The natural spline through
 * 47 knots (dx = 4.35 mm) of the raised cosine (h'''' = A w^4 / 2 = 6.1e3 m^-3) interpolates
 * it within 5/384 dx^4 max|h''''| = 2.8e-8 m, its slope within dx^3 / 24 max|h''''| = 2.1e-5
 * rad (measured: 1e-8 m, 1.4e-5): penetration within 3e-8 m, normal within 2e-5, the
 * contact point (on a surface that is flat to 1e-3) within 3e-8 m. The corners stand at
 * 0 .. 20 mm, two knot spacings or more inside the groove's ends (-10 and 30 mm), where the
 * cosine's h'' jumps and these bounds do not hold.
 */
TEST(a_worn_guide_has_the_gap_and_normal_of_a_dense_closest_point_search)
{
    double u[2];
    clink_shape_def d = guide_def(u);
    kinematics_shape guide, corner = simple(CLINK_SHAPE_CIRCLE, 0.01, 0.005, 0, 0, 0.0);
    kinematics_shape_of(&d, 0, &guide);
    ENSURE(guide.prof != NULL);
    int checked = 0;
    for (int j = 0; j < 11; j++) {
        double h[3], x = 0.002 * j;
        wg_h(x, h);
        /* the corner 1 um into the worn surface, at abscissa x (ground guide) */
        double gap = -1e-6 + 3e-7 * sin(300 * x);
        double P[2] = {d.a[0] + x * u[0] - (h[0] + gap) * d.normal[0],
                       d.a[1] + x * u[1] - (h[0] + gap) * d.normal[1]};
        kinematics_pose pb = pose(P[0] - 0.01, P[1] - 0.005, 0.0, 0, 0, 0);
        kinematics_contact c;
        kinematics_pose pa = pose(0, 0, 0, 0, 0, 0);
        ENSURE(kinematics_contact_eval(&guide, &pa, &corner, &pb, &c) == 0);
        double best = INFINITY, tb = x, X[2], X1[2], X2[2];
        for (int i = -10000; i <= 10000; i++) {
            double t = x + 0.005 * i / 10000;
            wg_curve(&d, t, X, X1, X2);
            double dist = hypot(X[0] - P[0], X[1] - P[1]);
            if (dist < best)
                best = dist, tb = t;
        }
        for (int it = 0; it < 20; it++) {
            wg_curve(&d, tb, X, X1, X2);
            double dd[2] = {X[0] - P[0], X[1] - P[1]};
            tb -= (X1[0] * dd[0] + X1[1] * dd[1]) /
                  (X2[0] * dd[0] + X2[1] * dd[1] + X1[0] * X1[0] + X1[1] * X1[1]);
        }
        wg_curve(&d, tb, X, X1, X2);
        double l = hypot(X1[0], X1[1]), N[2] = {-X1[1] / l, X1[0] / l};
        double depth = -((P[0] - X[0]) * N[0] + (P[1] - X[1]) * N[1]);
        ENSURE_NEAR(c.delta, depth, 3e-8);
        for (int k = 0; k < 2; k++) {
            ENSURE_NEAR(c.n[k], N[k], 2e-5);
            ENSURE_NEAR(c.p_a[k], X[k], 3e-8);
        }
        checked++;
    }
    ENSURE(checked == 11);
}

TEST(a_worn_guide_has_exact_rates_and_derivatives)
{
    double u[2];
    clink_shape_def d = guide_def(u);
    kinematics_shape guide, corner = simple(CLINK_SHAPE_CIRCLE, 0.02, -0.01, 0, 0, 0.0);
    kinematics_shape_of(&d, 0, &guide);
    kinematics_pose pa = pose(0.01, -0.02, 0.0, 0.0, 0.0, 0.0);
    /* where the groove's curvature is at least 0.7 of its largest, 0.25 1/m: the stand-in's
       radius (4 to 6 m) then rounds delta within 1e-15 m, below the differences' resolution;
       near the inflections its radius, and so its rounding, grows without bound */
    const double xs[5] = {-0.005, 0.005, 0.01, 0.015, 0.025};
    for (int j = 0; j < 5; j++) {
        double x = xs[j];
        double P[2] = {0.01 + d.a[0] + x * u[0] + 1e-6 * d.normal[0],
                       -0.02 + d.a[1] + x * u[1] + 1e-6 * d.normal[1]};
        kinematics_pose pb = pose(P[0] - 0.02, P[1] + 0.01, 0.0, 0.3, -0.2, 1.5);
        worn_check_diff(&guide, pa, &corner, pb);
    }
}
