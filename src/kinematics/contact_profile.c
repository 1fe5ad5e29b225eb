/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_profile.c: the curved shapes, the circular arc and the cam profile, and their
 * pair geometry (entries of the registry in contact_geometry.c, contact_shapes.h).
 *
 * Arc: centre a, radius R, the span from ang[0] counter-clockwise to ang[1]. Against a
 * circle of centre c: when c's direction from a lies within the span the contact is that
 * of the whole circle (convex: two circles, delta = R + r - |c - a|) or of a bore (concave:
 * delta = |c - a| - (R - r)); outside the span, that of the nearer end point (a circle of
 * radius 0). delta and n are continuous across the span's ends (at an end the end point
 * lies on the ray from a through c, so both give r -+ (|c - a| - R) along the same n).
 *
 * Profile: a closed curve X(tau), tau in [0, 2 pi), in the body frame about the centre a,
 * turned by ang[0]; the cam surface is X moved inwards by an offset o along its outward
 * normal N = (X'_y, -X'_x) / |X'|:
 *
 *   table        X = rho(tau) u,  rho the periodic cubic spline through (angle, radius)
 *                (second derivatives from the cyclic tridiagonal system of the periodic
 *                end conditions, de Boor 1978), o = 0;
 *   law, roller  X = (R_b + r_r + s(-tau)) u, the pitch curve of a translating radial
 *                roller follower of radius r_r, o = r_r;
 *   law, flat    X = p u + p' u_perp, p(tau) = R_b + s(-tau): the envelope of a flat face
 *                normal to the travel at distance p (its support function), o = 0;
 *                |X'| = p + p'' is the radius of curvature (> 0 required: no cusp);
 *
 * with u = (cos(tau + ang[0]), sin(tau + ang[0])), u_perp = (-u_y, u_x), s the motion law
 * (rise-dwell-fall-dwell, each rise or fall harmonic, cycloidal or 3-4-5 polynomial). The
 * law is laid clockwise (s(-tau)), so a follower on a fixed line through the cam's centre
 * reads s(phi) when the cam has turned counter-clockwise by phi.
 *
 * Profile against a circle (a roller of radius r, centre c): the closest point X(tau*) of
 * the core to c, found in the profile's body frame by sampling 128 points and Newton's
 * method on f(tau) = X' . (X - c) = 0 (f' = X'' . (X - c) + |X'|^2), kept inside the
 * bracket of the best sample's neighbours by bisection (a concave part, where the distance
 * has a maximum, is never left for the wrong root). Then delta = r - o - N . (c - X). Line
 * against profile (a flat face of outward normal n): the deepest point of the core, the
 * minimum of g(tau) = n . X(tau) (Newton on g' = n . X' = 0 in its bracket; the flat law's
 * is exact: u(tau*) = -n), delta = -(g - n . a_line) - o.
 *
 * Both reduce at tau* to a pair of the registry with its exact derivatives: the profile is
 * replaced by its osculating circle (centre X - N / kappa, radius 1 / kappa - o) where the
 * core is convex (kappa > 0), by the osculating bore (centre X + N / |kappa|, radius
 * 1 / |kappa| + o) where it is concave, by the tangent line where it is flat. The
 * osculating circle has second-order contact with the curve, so delta, n, the contact
 * points and their first derivatives (the normal's turn as tau* slides, through the
 * curvature) are the profile's; the derivative entries (diff_round) give them exactly.
 */
#include "kinematics/contact_profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TWO_PI_ 6.283185307179586

/* ---- the motion law ---------------------------------------------------------- */

/* one normalised rise f(x), x in [0, 1], and its derivatives f', f'', f''' into f */
static void law_unit(clink_motion_law law, double x, double f[4])
{
    const double pi = 3.141592653589793;
    switch (law) {
    case CLINK_MOTION_HARMONIC:
        f[0] = 0.5 * (1.0 - cos(pi * x));
        f[1] = 0.5 * pi * sin(pi * x);
        f[2] = 0.5 * pi * pi * cos(pi * x);
        f[3] = -0.5 * pi * pi * pi * sin(pi * x);
        return;
    case CLINK_MOTION_CYCLOIDAL:
        f[0] = x - sin(TWO_PI_ * x) / TWO_PI_;
        f[1] = 1.0 - cos(TWO_PI_ * x);
        f[2] = TWO_PI_ * sin(TWO_PI_ * x);
        f[3] = TWO_PI_ * TWO_PI_ * cos(TWO_PI_ * x);
        return;
    default: /* 3-4-5 polynomial */
        f[0] = x * x * x * (10.0 - 15.0 * x + 6.0 * x * x);
        f[1] = 30.0 * x * x * (1.0 - 2.0 * x + x * x);
        f[2] = 60.0 * x * (1.0 - 3.0 * x + 2.0 * x * x);
        f[3] = 60.0 - 360.0 * x + 360.0 * x * x;
        return;
    }
}

void kinematics_profile_law(const clink_profile_def *p, double phi, double s[4])
{
    double f[4], h = p->lift;
    phi = fmod(phi, TWO_PI_);
    if (phi < 0.0)
        phi += TWO_PI_;
    double b0 = p->rise, b1 = b0 + p->dwell, b2 = b1 + p->fall;
    memset(s, 0, 4 * sizeof *s);
    if (phi < b0) {
        law_unit(p->rise_law, phi / b0, f);
        for (int k = 0; k < 4; k++)
            s[k] = h * f[k] / pow(b0, k);
    } else if (phi < b1) {
        s[0] = h;
    } else if (phi < b2) {
        law_unit(p->fall_law, (phi - b1) / p->fall, f);
        s[0] = h * (1.0 - f[0]);
        for (int k = 1; k < 4; k++)
            s[k] = -h * f[k] / pow(p->fall, k);
    }
}

double kinematics_profile_offset(const clink_profile_def *p)
{
    return p->kind == CLINK_PROFILE_LAW && p->follower == CLINK_FOLLOWER_ROLLER ? p->roller_radius
                                                                                : 0.0;
}

/* ---- the periodic spline --------------------------------------------------------- */

/* the periodic spline's moments m (n points, the last closing the first): the cyclic
   tridiagonal system solved densely (n <= CLINK_PROFILE_MAX_POINTS) */
static void spline_moments(const double *x, const double *y, int n, double *m)
{
    enum { N_ = CLINK_PROFILE_MAX_POINTS };
    double A[N_][N_ + 1];
    int N = n - 1;
    memset(A, 0, sizeof A);
    for (int j = 0; j < N; j++) {
        int jp = (j + N - 1) % N, jn = (j + 1) % N;
        double hp = x[j == 0 ? N : j] - x[j == 0 ? N - 1 : j - 1], hn = x[j + 1] - x[j];
        A[j][jp] += hp;
        A[j][j] += 2.0 * (hp + hn);
        A[j][jn] += hn;
        A[j][N] = 6.0 * ((y[j + 1] - y[j]) / hn - (y[j] - y[j == 0 ? N - 1 : j - 1]) / hp);
    }
    /* Gaussian elimination with partial pivoting (diagonally dominant: always regular) */
    for (int k = 0; k < N; k++) {
        int p = k;
        for (int i = k + 1; i < N; i++)
            if (fabs(A[i][k]) > fabs(A[p][k]))
                p = i;
        for (int c = 0; c <= N; c++) {
            double t = A[k][c];
            A[k][c] = A[p][c];
            A[p][c] = t;
        }
        for (int i = k + 1; i < N; i++) {
            double f = A[i][k] / A[k][k];
            for (int c = k; c <= N; c++)
                A[i][c] -= f * A[k][c];
        }
    }
    for (int k = N - 1; k >= 0; k--) {
        double v = A[k][N];
        for (int c = k + 1; c < N; c++)
            v -= A[k][c] * m[c];
        m[k] = v / A[k][k];
    }
    m[N] = m[0];
}

/* the spline at tau: rho, rho', rho'' into r */
static void spline_eval(const clink_profile_def *p, double tau, double r[3])
{
    const double *x = p->angles, *y = p->radii, *m = p->moments;
    int lo = 0, hi = p->npoints - 1;
    tau = fmod(tau, TWO_PI_);
    if (tau < 0.0)
        tau += TWO_PI_;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (x[mid] <= tau)
            lo = mid;
        else
            hi = mid;
    }
    double h = x[hi] - x[lo], A = (x[hi] - tau) / h, B = 1.0 - A;
    r[0] =
        A * y[lo] + B * y[hi] + ((A * A * A - A) * m[lo] + (B * B * B - B) * m[hi]) * h * h / 6.0;
    r[1] = (y[hi] - y[lo]) / h - (3.0 * A * A - 1.0) / 6.0 * h * m[lo] +
           (3.0 * B * B - 1.0) / 6.0 * h * m[hi];
    r[2] = A * m[lo] + B * m[hi];
}

/* ---- the curve ------------------------------------------------------------------- */

void kinematics_profile_point(const kinematics_shape *s, double tau, double X[2], double X1[2],
                              double X2[2])
{
    const clink_profile_def *p = s->prof;
    double u[2] = {cos(tau + s->ang[0]), sin(tau + s->ang[0])}, w[2] = {-u[1], u[0]};
    double r[3], c0, c1;
    if (p->kind == CLINK_PROFILE_LAW && p->follower == CLINK_FOLLOWER_FLAT) {
        double sl[4];
        kinematics_profile_law(p, -tau, sl);
        double q = p->base_radius + sl[0], q1 = -sl[1], q2 = sl[2], q3 = -sl[3];
        for (int k = 0; k < 2; k++) {
            X[k] = s->a[k] + q * u[k] + q1 * w[k];
            X1[k] = (q + q2) * w[k];
            X2[k] = (q1 + q3) * w[k] - (q + q2) * u[k];
        }
        return;
    }
    if (p->kind == CLINK_PROFILE_LAW) {
        double sl[4];
        kinematics_profile_law(p, -tau, sl);
        r[0] = p->base_radius + p->roller_radius + sl[0];
        r[1] = -sl[1];
        r[2] = sl[2];
    } else {
        spline_eval(p, tau, r);
    }
    c0 = r[2] - r[0];
    c1 = 2.0 * r[1];
    for (int k = 0; k < 2; k++) {
        X[k] = s->a[k] + r[0] * u[k];
        X1[k] = r[1] * u[k] + r[0] * w[k];
        X2[k] = c0 * u[k] + c1 * w[k];
    }
}

/* signed curvature of the core (> 0 convex) and its outward unit normal at tau */
static double core_curvature(const double X1[2], const double X2[2], double N[2])
{
    double l = hypot(X1[0], X1[1]);
    N[0] = X1[1] / l;
    N[1] = -X1[0] / l;
    return (X1[0] * X2[1] - X1[1] * X2[0]) / (l * l * l);
}

void kinematics_profile_radii(const kinematics_shape *s, double *convex, double *concave)
{
    double o = kinematics_profile_offset(s->prof), X[2], X1[2], X2[2], N[2];
    *convex = *concave = INFINITY;
    for (int i = 0; i < 4096; i++) {
        kinematics_profile_point(s, TWO_PI_ * i / 4096.0, X, X1, X2);
        double k = core_curvature(X1, X2, N);
        if (k > 0.0)
            *convex = fmin(*convex, 1.0 / k - o);
        else if (k < 0.0)
            *concave = fmin(*concave, -1.0 / k + o);
    }
}

/* ---- checks ---------------------------------------------------------------------- */

int kinematics_arc_check(clink_shape_def *s, char *msg, size_t size, clink_status *st)
{
    *st = CLINK_ERR_RANGE;
    if (!(s->radius > 0.0))
        return snprintf(msg, size, "arc radius %g m is out of range; radius > 0", s->radius), -1;
    double span = s->angle[1] - s->angle[0];
    if (!isfinite(span) || !(span > 0.0) || span > TWO_PI_ * (1.0 + 1e-12))
        return snprintf(msg, size,
                        "arc span %g rad (angle2 - angle1) is out of range; 0 < span <= 2 pi",
                        span),
               -1;
    if (s->concave != 0 && s->concave != 1)
        return snprintf(msg, size, "arc concave flag %d is neither 0 nor 1", s->concave), -1;
    return 0;
}

static int check_table(clink_profile_def *p, char *msg, size_t size)
{
    int n = p->npoints;
    if (n < 4 || n > CLINK_PROFILE_MAX_POINTS)
        return snprintf(msg, size, "profile has %d points; it needs 4 to %d (the last at 360 deg)",
                        n, CLINK_PROFILE_MAX_POINTS),
               -1;
    for (int i = 0; i < n; i++)
        if (!isfinite(p->angles[i]) || !isfinite(p->radii[i]))
            return snprintf(msg, size, "profile point %d is not finite", i + 1), -1;
    if (p->angles[0] != 0.0 || fabs(p->angles[n - 1] - TWO_PI_) > 1e-9)
        return snprintf(msg, size,
                        "profile is not closed: its angles run from %g to %g deg; they must run "
                        "from 0 to 360",
                        p->angles[0] * 57.29577951308232, p->angles[n - 1] * 57.29577951308232),
               -1;
    p->angles[n - 1] = TWO_PI_;
    if (fabs(p->radii[n - 1] - p->radii[0]) > 1e-12 * fabs(p->radii[0]))
        return snprintf(msg, size,
                        "profile is not closed: radius %g m at 360 deg differs from %g m at 0",
                        p->radii[n - 1], p->radii[0]),
               -1;
    p->radii[n - 1] = p->radii[0];
    for (int i = 1; i < n; i++)
        if (!(p->angles[i] > p->angles[i - 1]))
            return snprintf(msg, size, "profile angles are not increasing at point %d", i + 1), -1;
    spline_moments(p->angles, p->radii, n, p->moments);
    /* a polar curve with rho > 0 winds once around its centre; rho <= 0 crosses it */
    for (int i = 0; i < 4096; i++) {
        double r[3];
        spline_eval(p, TWO_PI_ * i / 4096.0, r);
        if (!(r[0] > 0.0))
            return snprintf(msg, size,
                            "profile intersects itself: its spline passes through its centre "
                            "near %.4g deg (radius %g m)",
                            360.0 * i / 4096.0, r[0]),
                   -1;
    }
    return 0;
}

static int check_law(clink_profile_def *p, char *msg, size_t size)
{
    if (!(p->base_radius > 0.0) || !(p->lift > 0.0) || !isfinite(p->lift))
        return snprintf(msg, size, "profile base_radius %g m and lift %g m must be > 0",
                        p->base_radius, p->lift),
               -1;
    if (!(p->rise > 0.0) || !(p->fall > 0.0) || !(p->dwell >= 0.0) ||
        !(p->rise + p->dwell + p->fall <= TWO_PI_ * (1.0 + 1e-12)))
        return snprintf(msg, size,
                        "profile spans rise %g, dwell %g, fall %g rad: rise, fall > 0, dwell >= 0, "
                        "their sum <= 2 pi",
                        p->rise, p->dwell, p->fall),
               -1;
    if ((unsigned) p->rise_law > CLINK_MOTION_POLY345 ||
        (unsigned) p->fall_law > CLINK_MOTION_POLY345 ||
        (unsigned) p->follower > CLINK_FOLLOWER_FLAT)
        return snprintf(msg, size, "profile law or follower kind out of range"), -1;
    if (p->follower == CLINK_FOLLOWER_ROLLER && !(p->roller_radius > 0.0))
        return snprintf(msg, size, "profile roller_radius %g m must be > 0 for a roller follower",
                        p->roller_radius),
               -1;
    return 0;
}

/* the cam surface must not cross itself: a convex radius of curvature of the core larger
   than the offset (roller: no undercut), a flat-face profile convex everywhere (no cusp) */
static int check_curvature(const clink_shape_def *d, char *msg, size_t size)
{
    kinematics_shape s;
    kinematics_shape_of(d, 0, &s);
    const clink_profile_def *p = &d->profile;
    double o = kinematics_profile_offset(p), X[2], X1[2], X2[2], N[2];
    int flat = p->kind == CLINK_PROFILE_LAW && p->follower == CLINK_FOLLOWER_FLAT;
    for (int i = 0; i < 4096; i++) {
        double tau = TWO_PI_ * i / 4096.0, deg = fmod(360.0 - 360.0 * i / 4096.0, 360.0);
        kinematics_profile_point(&s, tau, X, X1, X2);
        double k = core_curvature(X1, X2, N);
        double w[2] = {-sin(tau + s.ang[0]), cos(tau + s.ang[0])};
        if (flat && !(X1[0] * w[0] + X1[1] * w[1] > 0.0))
            return snprintf(msg, size,
                            "profile intersects itself: a flat-faced follower's cam has a cusp at "
                            "cam angle %.4g deg (base + s + s'' <= 0); raise base_radius",
                            deg),
                   -1;
        if (k > 0.0 && !(1.0 / k > o))
            return snprintf(msg, size,
                            "profile intersects itself (undercut): the pitch curve's radius of "
                            "curvature %g m at cam angle %.4g deg is below the roller radius %g m; "
                            "raise base_radius",
                            1.0 / k, deg, o),
                   -1;
    }
    return 0;
}

int kinematics_profile_check(clink_shape_def *s, char *msg, size_t size, clink_status *st)
{
    clink_profile_def *p = &s->profile;
    *st = CLINK_ERR_RANGE;
    if (!isfinite(s->angle[0]))
        return snprintf(msg, size, "profile angle is not finite"), -1;
    int rc = p->kind == CLINK_PROFILE_TABLE ? check_table(p, msg, size)
             : p->kind == CLINK_PROFILE_LAW
                 ? check_law(p, msg, size)
                 : (snprintf(msg, size, "profile kind out of range"), -1);
    return rc != 0 ? rc : check_curvature(s, msg, size);
}

/* ---- the pair functions ------------------------------------------------------------- */

/* the frame of a body: origin and (cos, sin) of its angle (NULL pose: the ground at 0) */
static void frame_of(const kinematics_pose *p, double o[2], double rot[2])
{
    o[0] = p ? p->q[0] : 0.0;
    o[1] = p ? p->q[1] : 0.0;
    rot[0] = p ? cos(p->q[2]) : 1.0;
    rot[1] = p ? sin(p->q[2]) : 0.0;
}

static void to_world(const double o[2], const double rot[2], const double l[2], double w[2])
{
    w[0] = o[0] + rot[0] * l[0] - rot[1] * l[1];
    w[1] = o[1] + rot[1] * l[0] + rot[0] * l[1];
}

static void to_local(const double o[2], const double rot[2], const double w[2], double l[2])
{
    double d[2] = {w[0] - o[0], w[1] - o[1]};
    l[0] = rot[0] * d[0] + rot[1] * d[1];
    l[1] = -rot[1] * d[0] + rot[0] * d[1];
}

/* f and f' of the stationarity condition at tau: closest point to c (deepest = 0) or the
   minimum of c . X (deepest = 1, c a direction) */
static void stationary(const kinematics_shape *s, int deepest, const double c[2], double tau,
                       double *f, double *fp)
{
    double X[2], X1[2], X2[2];
    kinematics_profile_point(s, tau, X, X1, X2);
    if (deepest) {
        *f = c[0] * X1[0] + c[1] * X1[1];
        *fp = c[0] * X2[0] + c[1] * X2[1];
    } else {
        double d[2] = {X[0] - c[0], X[1] - c[1]};
        *f = X1[0] * d[0] + X1[1] * d[1];
        *fp = X2[0] * d[0] + X2[1] * d[1] + X1[0] * X1[0] + X1[1] * X1[1];
    }
}

/* Newton's method on the stationarity condition from tau, kept inside [lo, hi] by bisection */
static double refine_tau(const kinematics_shape *s, int deepest, const double c[2], double lo,
                         double hi, double tau)
{
    for (int it = 0; it < 60; it++) {
        double f, fp;
        stationary(s, deepest, c, tau, &f, &fp);
        if (f == 0.0)
            break;
        if (f < 0.0)
            lo = tau;
        else
            hi = tau;
        double next = fp > 0.0 ? tau - f / fp : 0.5 * (lo + hi);
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        int done = fabs(next - tau) <= 1e-15 * TWO_PI_;
        tau = next;
        if (done)
            break;
    }
    return tau;
}

/* the parameter of the minimum: the best of 128 samples, then Newton's method kept inside
   the bracket of its neighbours by bisection */
static double minimum_tau(const kinematics_shape *s, int deepest, const double c[2])
{
    enum { M = 128 };
    double best = INFINITY, X[2], X1[2], X2[2];
    int ib = 0;
    for (int i = 0; i < M; i++) {
        kinematics_profile_point(s, TWO_PI_ * i / M, X, X1, X2);
        double v = deepest ? c[0] * X[0] + c[1] * X[1]
                           : (X[0] - c[0]) * (X[0] - c[0]) + (X[1] - c[1]) * (X[1] - c[1]);
        if (v < best)
            best = v, ib = i;
    }
    return refine_tau(s, deepest, c, TWO_PI_ * (ib - 1) / M, TWO_PI_ * (ib + 1) / M,
                      TWO_PI_ * ib / M);
}

/*
 * The shape of the registry that stands for the profile s at tau, in its body frame: the
 * osculating circle (convex), bore (concave; only as A) or, where the core is flat to
 * 1e-4 of its size, the tangent line (as A) or the surface point (as B).
 */
static void osculating(const kinematics_shape *s, double tau, int as_b, kinematics_shape *t)
{
    double X[2], X1[2], X2[2], N[2], o = kinematics_profile_offset(s->prof);
    kinematics_profile_point(s, tau, X, X1, X2);
    double k = core_curvature(X1, X2, N), L = hypot(X[0] - s->a[0], X[1] - s->a[1]);
    memset(t, 0, sizeof *t);
    t->kind = CLINK_SHAPE_CIRCLE;
    if (fabs(k) * L > 1e-4 && (k > 0.0 || !as_b)) {
        t->kind = k > 0.0 ? CLINK_SHAPE_CIRCLE : CLINK_SHAPE_BORE;
        t->a[0] = X[0] - N[0] / k;
        t->a[1] = X[1] - N[1] / k;
        t->r = k > 0.0 ? 1.0 / k - o : -1.0 / k + o;
    } else if (!as_b) {
        t->kind = CLINK_SHAPE_LINE;
        t->a[0] = X[0] - o * N[0];
        t->a[1] = X[1] - o * N[1];
        t->nrm[0] = N[0];
        t->nrm[1] = N[1];
    } else {
        t->a[0] = X[0] - o * N[0];
        t->a[1] = X[1] - o * N[1];
    }
}

/* the circle B's centre in A's frame; -1 when B is not a circle (poses may be NULL in a
   derivative) */
static int circle_centre_in_a(const kinematics_pose *pa, const kinematics_shape *sb,
                              const kinematics_pose *pb, double cl[2])
{
    double oa[2], ra[2], ob[2], rb[2], c[2];
    if (sb->kind != CLINK_SHAPE_CIRCLE)
        return -1;
    frame_of(pa, oa, ra);
    frame_of(pb, ob, rb);
    to_world(ob, rb, sb->a, c);
    to_local(oa, ra, c, cl);
    return 0;
}

/* A's stand-in t against the circle B, by one of the *_circle_feature below */
typedef int (*circle_feature_fn)(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const kinematics_shape *sb, const kinematics_pose *pb,
                                 kinematics_shape *t);

/* the contact of A against the circle B: that of A's stand-in (a circle, bore or line) */
static int feature_circle_pair(circle_feature_fn feature, const kinematics_shape *sa,
                               const kinematics_pose *pa, const double rot_a[2],
                               const kinematics_shape *sb, const kinematics_pose *pb,
                               const double rot_b[2], kinematics_contact *out)
{
    kinematics_shape t;
    if (feature(sa, pa, sb, pb, &t) != 0)
        return -1;
    return kinematics_pair_of(t.kind, CLINK_SHAPE_CIRCLE)->eval(&t, pa, rot_a, sb, pb, rot_b, out);
}

/* its derivatives, the same way */
static int feature_circle_diff(circle_feature_fn feature, const kinematics_shape *sa,
                               const kinematics_pose *pa, const kinematics_shape *sb,
                               const kinematics_pose *pb, kinematics_contact_diff *out)
{
    kinematics_shape t;
    if (feature(sa, pa, sb, pb, &t) != 0)
        return -1;
    return kinematics_pair_of(t.kind, CLINK_SHAPE_CIRCLE)->diff(&t, pa, sb, pb, out);
}

/* the profile A's stand-in against the circle B */
static int profile_circle_feature(const kinematics_shape *sa, const kinematics_pose *pa,
                                  const kinematics_shape *sb, const kinematics_pose *pb,
                                  kinematics_shape *t)
{
    double cl[2];
    if (circle_centre_in_a(pa, sb, pb, cl) != 0)
        return -1;
    osculating(sa, minimum_tau(sa, 0, cl), 0, t);
    return 0;
}

int kinematics_pair_profile_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                                   const double rot_a[2], const kinematics_shape *sb,
                                   const kinematics_pose *pb, const double rot_b[2],
                                   kinematics_contact *out)
{
    return feature_circle_pair(profile_circle_feature, sa, pa, rot_a, sb, pb, rot_b, out);
}

int kinematics_diff_profile_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                                   const kinematics_shape *sb, const kinematics_pose *pb,
                                   kinematics_contact_diff *out)
{
    return feature_circle_diff(profile_circle_feature, sa, pa, sb, pb, out);
}

/* the profile B's stand-in against the line A */
static void line_profile_feature(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const kinematics_shape *sb, const kinematics_pose *pb,
                                 kinematics_shape *t)
{
    double oa[2], ra[2], ob[2], rb[2], nw[2], nb[2], zero[2] = {0.0, 0.0};
    frame_of(pa, oa, ra);
    frame_of(pb, ob, rb);
    to_world(zero, ra, sa->nrm, nw);
    to_local(zero, rb, nw, nb);
    const clink_profile_def *p = sb->prof;
    double tau = p->kind == CLINK_PROFILE_LAW && p->follower == CLINK_FOLLOWER_FLAT
                     ? atan2(-nb[1], -nb[0]) - sb->ang[0] /* support form: u(tau) = -n */
                     : minimum_tau(sb, 1, nb);
    osculating(sb, tau, 1, t);
}

int kinematics_pair_line_profile(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const double rot_a[2], const kinematics_shape *sb,
                                 const kinematics_pose *pb, const double rot_b[2],
                                 kinematics_contact *out)
{
    kinematics_shape t;
    line_profile_feature(sa, pa, sb, pb, &t);
    return kinematics_pair_of(CLINK_SHAPE_LINE, CLINK_SHAPE_CIRCLE)
        ->eval(sa, pa, rot_a, &t, pb, rot_b, out);
}

int kinematics_diff_line_profile(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const kinematics_shape *sb, const kinematics_pose *pb,
                                 kinematics_contact_diff *out)
{
    kinematics_shape t;
    line_profile_feature(sa, pa, sb, pb, &t);
    return kinematics_pair_of(CLINK_SHAPE_LINE, CLINK_SHAPE_CIRCLE)->diff(sa, pa, &t, pb, out);
}

/* the arc A's stand-in against the circle B: the whole circle or bore within the span,
   else a circle of radius 0 at the nearer end */
static int arc_circle_feature(const kinematics_shape *sa, const kinematics_pose *pa,
                              const kinematics_shape *sb, const kinematics_pose *pb,
                              kinematics_shape *t)
{
    double cl[2];
    if (circle_centre_in_a(pa, sb, pb, cl) != 0)
        return -1;
    double beta = atan2(cl[1] - sa->a[1], cl[0] - sa->a[0]);
    double x = fmod(beta - sa->ang[0], TWO_PI_);
    if (x < 0.0)
        x += TWO_PI_;
    memset(t, 0, sizeof *t);
    memcpy(t->a, sa->a, sizeof t->a);
    t->kind = sa->concave ? CLINK_SHAPE_BORE : CLINK_SHAPE_CIRCLE;
    t->r = sa->r;
    if (x <= sa->ang[1] - sa->ang[0])
        return 0;
    double e[2][2], d[2];
    for (int i = 0; i < 2; i++) {
        e[i][0] = sa->a[0] + sa->r * cos(sa->ang[i]);
        e[i][1] = sa->a[1] + sa->r * sin(sa->ang[i]);
        d[i] = hypot(cl[0] - e[i][0], cl[1] - e[i][1]);
    }
    int i = d[1] < d[0];
    t->kind = CLINK_SHAPE_CIRCLE;
    t->r = 0.0;
    memcpy(t->a, e[i], sizeof t->a);
    return 0;
}

int kinematics_pair_arc_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                               const double rot_a[2], const kinematics_shape *sb,
                               const kinematics_pose *pb, const double rot_b[2],
                               kinematics_contact *out)
{
    return feature_circle_pair(arc_circle_feature, sa, pa, rot_a, sb, pb, rot_b, out);
}

int kinematics_diff_arc_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                               const kinematics_shape *sb, const kinematics_pose *pb,
                               kinematics_contact_diff *out)
{
    return feature_circle_diff(arc_circle_feature, sa, pa, sb, pb, out);
}

/* ---- the worn bore ------------------------------------------------------------------ */

/*
 * A bore with a profile (docs/wear.md): the bearing's inner surface X(tau) = a + rho(tau) u,
 * rho the periodic cubic spline through the radius plus the worn depth at n equally spaced
 * body angles. The journal (a circle of radius r, centre c) lies inside. Its contact is at
 * the closest point X(tau*) of the surface to c (the same search as a cam profile's), and
 * delta = r + N . (c - X) (N the outward normal: the material lies beyond the surface). The
 * surface is replaced at tau* by its osculating shape, seen from inside: where it is convex
 * (kappa > 0, the worn bore everywhere a smooth wear leaves it) the bore of radius 1 / kappa
 * about X - N / kappa; where it bulges inwards (kappa < 0) the circle of radius 1 / |kappa|
 * about the same point; where flat, the tangent line with outward normal -N. Each gives
 * delta = r - |c - X| along the same normal with second-order contact, so delta, n and the
 * points and their first derivatives are the worn surface's (the stand-in's exact entries).
 * Valid while the journal's centre lies on the inner side of the osculating centre (1 / kappa
 * > r where convex): src/wear/ refuses a profile whose radius of curvature falls below the
 * journal's.
 */

/* the periodic spline through R + side h_i at n equally spaced angles (side +1: a bore
   worn outwards, -1: a pin worn inwards) */
static void worn_profile(clink_profile_def *p, double R, double side, int n, const double *depth)
{
    memset(p, 0, sizeof *p);
    p->kind = CLINK_PROFILE_TABLE;
    p->npoints = n + 1;
    for (int i = 0; i <= n; i++) {
        p->angles[i] = i == n ? TWO_PI_ : TWO_PI_ * i / n;
        p->radii[i] = R + side * depth[i % n];
    }
    spline_moments(p->angles, p->radii, n + 1, p->moments);
}

void kinematics_worn_bore_profile(clink_profile_def *p, double R, int n, const double *depth)
{
    worn_profile(p, R, 1.0, n, depth);
}

double kinematics_profile_curvature(const kinematics_shape *s, double tau, double N[2])
{
    double X[2], X1[2], X2[2];
    kinematics_profile_point(s, tau, X, X1, X2);
    return core_curvature(X1, X2, N);
}

double kinematics_worn_bore_min_radius(const clink_profile_def *p)
{
    kinematics_shape s;
    double N[2], best = INFINITY;
    memset(&s, 0, sizeof s);
    s.kind = CLINK_SHAPE_BORE;
    s.prof = p;
    for (int i = 0; i < 4096; i++) {
        double k = kinematics_profile_curvature(&s, TWO_PI_ * i / 4096.0, N);
        if (k > 0.0)
            best = fmin(best, 1.0 / k);
    }
    return best;
}

/* the worn bore A's stand-in against the circle B (the comment above) */
static int worn_bore_circle_feature(const kinematics_shape *sa, const kinematics_pose *pa,
                                    const kinematics_shape *sb, const kinematics_pose *pb,
                                    kinematics_shape *t)
{
    double cl[2], X[2], X1[2], X2[2], N[2];
    if (circle_centre_in_a(pa, sb, pb, cl) != 0)
        return -1;
    double tau = minimum_tau(sa, 0, cl);
    kinematics_profile_point(sa, tau, X, X1, X2);
    double k = core_curvature(X1, X2, N), L = hypot(X[0] - sa->a[0], X[1] - sa->a[1]);
    memset(t, 0, sizeof *t);
    if (fabs(k) * L > 1e-4) {
        t->kind = k > 0.0 ? CLINK_SHAPE_BORE : CLINK_SHAPE_CIRCLE;
        t->a[0] = X[0] - N[0] / k;
        t->a[1] = X[1] - N[1] / k;
        t->r = 1.0 / fabs(k);
    } else {
        t->kind = CLINK_SHAPE_LINE;
        memcpy(t->a, X, sizeof t->a);
        t->nrm[0] = -N[0];
        t->nrm[1] = -N[1];
    }
    return 0;
}

int kinematics_pair_worn_bore_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                                     const double rot_a[2], const kinematics_shape *sb,
                                     const kinematics_pose *pb, const double rot_b[2],
                                     kinematics_contact *out)
{
    return feature_circle_pair(worn_bore_circle_feature, sa, pa, rot_a, sb, pb, rot_b, out);
}

int kinematics_diff_worn_bore_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                                     const kinematics_shape *sb, const kinematics_pose *pb,
                                     kinematics_contact_diff *out)
{
    return feature_circle_diff(worn_bore_circle_feature, sa, pa, sb, pb, out);
}

/* ---- the worn pin ------------------------------------------------------------------- */

/*
 * A journal with a profile (docs/wear.md): the pin's surface X_p(s) = a + (r - h_p(s)) u(s),
 * h_p the periodic spline through the pin's worn depth at n equally spaced angles of the
 * journal's frame; convex, its radius of curvature below the bore's everywhere (checked by
 * the element), so that it touches the bore at one point. The contact is the fixed point of
 *   o   the centre of the pin's osculating circle at s (journal's frame; first: its centre),
 *   t   the bore's closest point to o, N its outward normal (a circular bore: N along o - c_b),
 *   s   the pin's support point in the direction N (the point whose outward normal is N),
 * iterated until o moves by less than 1e-13 of the radius (a contraction: o moves by
 * rho_p' ~ the wear's curvature change as s turns, which turns N by that over the distance
 * of o from the bore). There the two surfaces share the normal N along the line through o,
 * and the pair is that of the stand-ins: the pin's osculating circle (radius 1 / kappa_p
 * about o, fixed to the journal) against the bore or the worn bore's stand-in about o. Both
 * have second-order contact with the surfaces they stand for, so delta, n, the points and
 * their first derivatives are those of the two worn surfaces.
 */

void kinematics_worn_pin_profile(clink_profile_def *p, double r, int n, const double *depth)
{
    worn_profile(p, r, -1.0, n, depth);
}

double kinematics_worn_pin_max_radius(const clink_profile_def *p)
{
    kinematics_shape s;
    double N[2], best = 0.0;
    memset(&s, 0, sizeof s);
    s.kind = CLINK_SHAPE_CIRCLE;
    s.prof = p;
    for (int i = 0; i < 4096; i++) {
        double k = kinematics_profile_curvature(&s, TWO_PI_ * i / 4096.0, N);
        if (!(k > 0.0))
            return INFINITY;
        best = fmax(best, 1.0 / k);
    }
    return best;
}

/* the bore A's outward normal (A's frame) at its closest point to cl, from *t when it is
   finite (a local search about it) else from the full search; *t updated */
static void bore_normal(const kinematics_shape *sa, const double cl[2], double *t, double N[2])
{
    if (!sa->prof) {
        double d = hypot(cl[0] - sa->a[0], cl[1] - sa->a[1]);
        N[0] = d > 0.0 ? (cl[0] - sa->a[0]) / d : 1.0;
        N[1] = d > 0.0 ? (cl[1] - sa->a[1]) / d : 0.0;
        return;
    }
    double X[2], X1[2], X2[2], w = TWO_PI_ / 128;
    *t = isfinite(*t) ? refine_tau(sa, 0, cl, *t - w, *t + w, *t) : minimum_tau(sa, 0, cl);
    kinematics_profile_point(sa, *t, X, X1, X2);
    core_curvature(X1, X2, N);
}

/* the stand-ins of the bore A (worn or not) and the worn pin B at the fixed point above */
static int worn_pin_features(const kinematics_shape *sa, const kinematics_pose *pa,
                             const kinematics_shape *sb, const kinematics_pose *pb,
                             kinematics_shape *ta, kinematics_shape *tb)
{
    double oa[2], ra[2], ob[2], rb[2], zero[2] = {0.0, 0.0};
    double o[2] = {sb->a[0], sb->a[1]}, t = NAN, s = NAN, kp = 0.0;
    frame_of(pa, oa, ra);
    frame_of(pb, ob, rb);
    for (int it = 0; it < 100; it++) {
        double ow[2], cl[2], N[2], Nw[2], c[2], P[2], P1[2], P2[2], Np[2];
        to_world(ob, rb, o, ow);
        to_local(oa, ra, ow, cl);
        bore_normal(sa, cl, &t, N);
        to_world(zero, ra, N, Nw);
        to_local(zero, rb, Nw, c);
        c[0] = -c[0], c[1] = -c[1]; /* the support point: the minimum of -N . X_p */
        double w = TWO_PI_ / 128;
        s = isfinite(s) ? refine_tau(sb, 1, c, s - w, s + w, s) : minimum_tau(sb, 1, c);
        kinematics_profile_point(sb, s, P, P1, P2);
        kp = core_curvature(P1, P2, Np);
        if (!(kp > 0.0))
            return -1;
        double next[2] = {P[0] - Np[0] / kp, P[1] - Np[1] / kp};
        int done = hypot(next[0] - o[0], next[1] - o[1]) <= 1e-13 * sb->r;
        o[0] = next[0], o[1] = next[1];
        if (done)
            break;
    }
    memset(tb, 0, sizeof *tb);
    tb->kind = CLINK_SHAPE_CIRCLE;
    tb->a[0] = o[0], tb->a[1] = o[1];
    tb->r = 1.0 / kp;
    if (sa->prof)
        return worn_bore_circle_feature(sa, pa, tb, pb, ta);
    *ta = *sa;
    return 0;
}

int kinematics_pair_worn_pin(const kinematics_shape *sa, const kinematics_pose *pa,
                             const double rot_a[2], const kinematics_shape *sb,
                             const kinematics_pose *pb, const double rot_b[2],
                             kinematics_contact *out)
{
    kinematics_shape ta, tb;
    if (worn_pin_features(sa, pa, sb, pb, &ta, &tb) != 0)
        return -1;
    return kinematics_pair_of(ta.kind, CLINK_SHAPE_CIRCLE)
        ->eval(&ta, pa, rot_a, &tb, pb, rot_b, out);
}

int kinematics_diff_worn_pin(const kinematics_shape *sa, const kinematics_pose *pa,
                             const kinematics_shape *sb, const kinematics_pose *pb,
                             kinematics_contact_diff *out)
{
    kinematics_shape ta, tb;
    if (worn_pin_features(sa, pa, sb, pb, &ta, &tb) != 0)
        return -1;
    return kinematics_pair_of(ta.kind, CLINK_SHAPE_CIRCLE)->diff(&ta, pa, &tb, pb, out);
}

/* ---- the worn guide ------------------------------------------------------------------ */

/*
 * A guide surface with wear (docs/wear.md, "The translational clearance joint"): the line
 * through a with outward normal N0 (towards the slider) and axis u (shape.b) worn by h(x),
 *   X(x) = a + x u - h(x) N0,
 * h the natural cubic spline through the depth at knots equally spaced over the guide (its
 * abscissae from guide_point; beyond the end knots continued linearly: C2, the natural end).
 * Against a corner (a circle, radius r, centre P): the closest point X(x*) by Newton's method
 * on X' . (X - P) = 0 from the projection x0 = (P - a) . u (the slopes are tiny: two or three
 * steps), then the osculating shape at x*, as for the worn bore: the tangent line where the
 * curvature is below 1e-4 of 1 / the guide's size, else the circle (the surface bulging
 * towards the slider) or bore (a groove) of radius 1 / |kappa|; second-order contact, so
 * delta, n, the points and their first derivatives are the worn surface's.
 */

void kinematics_worn_line_profile(clink_profile_def *p, double G, int n, const double *depth)
{
    enum { N_ = CLINK_PROFILE_MAX_POINTS };
    double c[N_], d[N_];
    memset(p, 0, sizeof *p);
    p->kind = CLINK_PROFILE_TABLE;
    p->npoints = n;
    double h = G / (n - 1);
    for (int i = 0; i < n; i++) {
        p->angles[i] = -0.5 * G + h * i;
        p->radii[i] = depth[i];
    }
    /* the natural spline's moments: m_0 = m_{n-1} = 0, h m_{i-1} + 4 h m_i + h m_{i+1} =
       6 (y_{i+1} - 2 y_i + y_{i-1}) / h, by the Thomas algorithm */
    for (int i = 1; i < n - 1; i++) {
        double rhs = 6.0 * (depth[i + 1] - 2.0 * depth[i] + depth[i - 1]) / (h * h);
        double diag = 4.0 - (i > 1 ? c[i - 1] : 0.0);
        c[i] = 1.0 / diag;
        d[i] = (rhs - (i > 1 ? d[i - 1] : 0.0)) / diag;
    }
    p->moments[0] = p->moments[n - 1] = 0.0;
    for (int i = n - 2; i >= 1; i--)
        p->moments[i] = d[i] - (i < n - 2 ? c[i] * p->moments[i + 1] : 0.0);
}

/* h, h', h'' of the worn line's spline at abscissa x */
static void worn_line_depth(const clink_profile_def *p, double x, double r[3])
{
    const double *X = p->angles, *y = p->radii, *m = p->moments;
    int n = p->npoints;
    if (x <= X[0] || x >= X[n - 1]) { /* linear beyond the ends (m = 0 there) */
        int e = x <= X[0] ? 0 : n - 1, o = e == 0 ? 1 : n - 2;
        double hh = X[e] - X[o];
        double slope = (y[e] - y[o]) / hh + hh * (2.0 * m[e] + m[o]) / 6.0;
        r[0] = y[e] + slope * (x - X[e]);
        r[1] = slope;
        r[2] = 0.0;
        return;
    }
    double hh = X[1] - X[0];
    int lo = (int) floor((x - X[0]) / hh);
    lo = lo < 0 ? 0 : lo > n - 2 ? n - 2 : lo;
    int hi = lo + 1;
    double A = (X[hi] - x) / hh, B = 1.0 - A;
    r[0] =
        A * y[lo] + B * y[hi] + ((A * A * A - A) * m[lo] + (B * B * B - B) * m[hi]) * hh * hh / 6.0;
    r[1] = (y[hi] - y[lo]) / hh - (3.0 * A * A - 1.0) / 6.0 * hh * m[lo] +
           (3.0 * B * B - 1.0) / 6.0 * hh * m[hi];
    r[2] = A * m[lo] + B * m[hi];
}

void kinematics_worn_line_point(const kinematics_shape *s, double x, double X[2], double X1[2],
                                double X2[2])
{
    double h[3];
    worn_line_depth(s->prof, x, h);
    for (int k = 0; k < 2; k++) {
        X[k] = s->a[k] + x * s->b[k] - h[0] * s->nrm[k];
        X1[k] = s->b[k] - h[1] * s->nrm[k];
        X2[k] = -h[2] * s->nrm[k];
    }
}

/* the worn line A's stand-in against the circle B: the osculating shape (osculating 1) or
   the tangent line (0) at the closest point */
static int worn_line_stand_in(const kinematics_shape *sa, const kinematics_pose *pa,
                              const kinematics_shape *sb, const kinematics_pose *pb, int osculating,
                              kinematics_shape *t)
{
    double cl[2], X[2], X1[2], X2[2];
    if (circle_centre_in_a(pa, sb, pb, cl) != 0)
        return -1;
    double x = (cl[0] - sa->a[0]) * sa->b[0] + (cl[1] - sa->a[1]) * sa->b[1];
    for (int it = 0; it < 20; it++) {
        kinematics_worn_line_point(sa, x, X, X1, X2);
        double d[2] = {X[0] - cl[0], X[1] - cl[1]};
        double f = X1[0] * d[0] + X1[1] * d[1];
        double fp = X2[0] * d[0] + X2[1] * d[1] + X1[0] * X1[0] + X1[1] * X1[1];
        double step = f / fp;
        x -= step;
        if (fabs(step) <= 1e-15 * (1.0 + fabs(x)))
            break;
    }
    kinematics_worn_line_point(sa, x, X, X1, X2);
    /* the outward normal N (towards the slider) and the curvature, > 0 where the surface
       bends away from the slider (a groove: the stand-in a bore) */
    double l = hypot(X1[0], X1[1]), N[2] = {-X1[1] / l, X1[0] / l};
    if (N[0] * sa->nrm[0] + N[1] * sa->nrm[1] < 0.0)
        N[0] = -N[0], N[1] = -N[1];
    double k = (N[0] * X2[0] + N[1] * X2[1]) / (l * l);
    double size = sa->ang[0] > 0.0 ? sa->ang[0] : 1.0;
    memset(t, 0, sizeof *t);
    if (osculating && fabs(k) * size > 1e-4) {
        t->kind = k > 0.0 ? CLINK_SHAPE_BORE : CLINK_SHAPE_CIRCLE;
        t->a[0] = X[0] + N[0] / k;
        t->a[1] = X[1] + N[1] / k;
        t->r = 1.0 / fabs(k);
    } else {
        t->kind = CLINK_SHAPE_LINE;
        memcpy(t->a, X, sizeof t->a);
        memcpy(t->nrm, N, sizeof t->nrm);
    }
    return 0;
}

/* the osculating stand-in (its derivatives are the surface's) */
static int worn_line_feature(const kinematics_shape *sa, const kinematics_pose *pa,
                             const kinematics_shape *sb, const kinematics_pose *pb,
                             kinematics_shape *t)
{
    return worn_line_stand_in(sa, pa, sb, pb, 1, t);
}

/* the geometry through the tangent line: the same delta, normal, points and rates as the
   osculating shape's (the corner's foot on it is the closest point), without the rounding
   of an osculating circle metres wide (about its radius times 1e-16) */
int kinematics_pair_worn_line(const kinematics_shape *sa, const kinematics_pose *pa,
                              const double rot_a[2], const kinematics_shape *sb,
                              const kinematics_pose *pb, const double rot_b[2],
                              kinematics_contact *out)
{
    kinematics_shape t;
    if (worn_line_stand_in(sa, pa, sb, pb, 0, &t) != 0)
        return -1;
    return kinematics_pair_of(CLINK_SHAPE_LINE, CLINK_SHAPE_CIRCLE)
        ->eval(&t, pa, rot_a, sb, pb, rot_b, out);
}

int kinematics_diff_worn_line(const kinematics_shape *sa, const kinematics_pose *pa,
                              const kinematics_shape *sb, const kinematics_pose *pb,
                              kinematics_contact_diff *out)
{
    return feature_circle_diff(worn_line_feature, sa, pa, sb, pb, out);
}

/* ---- drawing ------------------------------------------------------------------------- */

int clink_shape_outline(const clink_shape_def *d, int n, double (*xy)[2])
{
    if (!d || !xy || n < 2)
        return 0;
    if (d->type == CLINK_SHAPE_ARC) {
        for (int i = 0; i < n; i++) {
            double a = d->angle[0] + (d->angle[1] - d->angle[0]) * i / (n - 1);
            xy[i][0] = d->a[0] + d->radius * cos(a);
            xy[i][1] = d->a[1] + d->radius * sin(a);
        }
        return n;
    }
    if (d->type != CLINK_SHAPE_PROFILE)
        return 0;
    kinematics_shape s;
    kinematics_shape_of(d, 0, &s);
    double o = kinematics_profile_offset(&d->profile), X[2], X1[2], X2[2], N[2];
    for (int i = 0; i < n; i++) {
        kinematics_profile_point(&s, TWO_PI_ * i / n, X, X1, X2);
        core_curvature(X1, X2, N);
        xy[i][0] = X[0] - o * N[0];
        xy[i][1] = X[1] - o * N[1];
    }
    return n;
}
