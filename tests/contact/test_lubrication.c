/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the short journal bearing (src/contact/lubrication.c): the forces against
 * the pressure field of the short-bearing Reynolds equation integrated here numerically
 * (Simpson's rule over the film angle and the axial coordinate, the pressure's positive part
 * over the whole circle: Gumbel's condition),
 * the steady load capacity and attitude angle of Ocvirk against the forces, and the
 * refusal of bad input; the long bearing likewise (its Reynolds equation integrated here,
 * the half-Sommerfeld load and attitude, its Sommerfeld number); the pure-squeeze limit of
 * both at the bearing centre; and the finite bearing, solved here by finite differences,
 * bounded by both.
 */
#include "clink/lubrication.h"
#include "contact/lubrication.h"

#include "ensure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

/*
 * The force on the journal by quadrature of p = 6 mu c / h^3 [eps_dot cos - eps Omega / 2 sin]
 * (z^2 - L^2 / 4), its negative values set to zero, over 0 < theta < 2 pi, |z| < L/2 (the
 * kink where it turns negative costs Simpson's rule accuracy: 40000 intervals); theta from
 * the thickest film, which lies
 * opposite to e. Along e: the pressure pushes the journal surface inwards, -p n R dtheta dz,
 * n = (cos theta, sin theta) in the frame (a = -e / |e|, b = a turned by +90 degrees).
 */
static void quadrature(double mu, double R, double L, double c, double eps, double eps_dot,
                       double Omega, double *F_r, double *F_t)
{
    const int nt = 40000, nz = 40;
    double fa = 0, fb = 0;
    for (int i = 0; i <= nt; i++) {
        double th = 2.0 * PI * i / nt, wt = (i == 0 || i == nt) ? 1 : (i % 2 ? 4 : 2);
        double h = c * (1 + eps * cos(th));
        double g = 6 * mu * c / (h * h * h) * (eps_dot * cos(th) - 0.5 * eps * Omega * sin(th));
        double pz = 0;
        for (int k = 0; k <= nz; k++) {
            double z = -0.5 * L + L * k / nz, wz = (k == 0 || k == nz) ? 1 : (k % 2 ? 4 : 2);
            pz += wz * g * (z * z - 0.25 * L * L);
        }
        pz *= L / (3.0 * nz);
        if (pz < 0.0)
            pz = 0.0; /* cavitation */
        fa += wt * (-pz * cos(th) * R);
        fb += wt * (-pz * sin(th) * R);
    }
    fa *= 2.0 * PI / (3.0 * nt);
    fb *= 2.0 * PI / (3.0 * nt);
    /* along e = -a; along e turned by +90 degrees = -b */
    *F_r = -fa;
    *F_t = -fb;
}

/* a bearing's force (clink_short_bearing_force, clink_long_bearing_force) and the quadrature
   of its pressure field, with the same arguments */
typedef clink_status (*bearing_force_fn)(double mu, double R, double L, double c, double eps,
                                         double eps_dot, double Omega, double *F_r, double *F_t);
typedef void (*bearing_quad_fn)(double mu, double R, double L, double c, double eps, double eps_dot,
                                double Omega, double *F_r, double *F_t);

/* the force against the quadrature at 36 combinations of eps, eps_dot and Omega, to 1e-6 */
static void check_against_quadrature(bearing_force_fn force, bearing_quad_fn quad)
{
    const double mu = 0.04, R = 0.01, L = 0.04, c = 5e-5;
    const double eps[] = {0.1, 0.5, 0.8, 0.9}, rates[] = {0.0, 30.0, -50.0}, Om[] = {500, -200, 0};

    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                double fr, ft, qr, qt;
                ENSURE(force(mu, R, L, c, eps[i], rates[j], Om[k], &fr, &ft) == CLINK_OK);
                quad(mu, R, L, c, eps[i], rates[j], Om[k], &qr, &qt);
                double scale = fabs(qr) + fabs(qt) + 1e-300;
                ENSURE_NEAR(fr, qr, 1e-6 * scale);
                ENSURE_NEAR(ft, qt, 1e-6 * scale);
            }
}

TEST(short_bearing_forces_are_the_integrated_pressure_field)
{
    check_against_quadrature(clink_short_bearing_force, quadrature);
}

TEST(short_bearing_steady_load_is_ocvirks_and_pushes_back)
{
    const double mu = 0.04, R = 0.01, L = 0.04, c = 5e-5, w = 500;
    for (double e = 0.05; e < 0.96; e += 0.05) {
        double fr, ft;
        ENSURE(clink_short_bearing_force(mu, R, L, c, e, 0, w, &fr, &ft) == CLINK_OK);
        ENSURE(fr < 0 && ft > 0);
        ENSURE_REL(hypot(fr, ft), clink_short_bearing_load(mu, w, R, L, c, e), 1e-13);
        ENSURE_REL(atan2(ft, -fr), clink_short_bearing_attitude(e), 1e-13);
        /* Ocvirk's load written out again */
        double s = 1 - e * e;
        ENSURE_REL(clink_short_bearing_load(mu, w, R, L, c, e),
                   mu * w * R * L * L * L / (4 * c * c) * e / (s * s) *
                       sqrt(PI * PI * s + 16 * e * e),
                   1e-13);
    }
    /* the attitude angle tends to 90 degrees as eps -> 0 and to 0 as eps -> 1 */
    ENSURE_NEAR(clink_short_bearing_attitude(1e-9), 0.5 * PI, 1e-8);
    ENSURE(clink_short_bearing_attitude(0.999) < 0.04);
    /* squeezing the film (eps_dot > 0) is resisted */
    double fr0, ft0, fr1, ft1;
    clink_short_bearing_force(mu, R, L, c, 0.5, 0, 0, &fr0, &ft0);
    clink_short_bearing_force(mu, R, L, c, 0.5, 10, 0, &fr1, &ft1);
    ENSURE(fr0 == 0 && fr1 < 0);
}

TEST(short_bearing_refuses_bad_input)
{
    double fr = 0, ft = 0;
    ENSURE(clink_short_bearing_force(0, 0.01, 0.04, 5e-5, 0.5, 0, 1, &fr, &ft) == CLINK_ERR_RANGE);
    ENSURE(isnan(fr) && isnan(ft));
    ENSURE(clink_short_bearing_force(0.04, 0.01, -0.04, 5e-5, 0.5, 0, 1, &fr, &ft) ==
           CLINK_ERR_RANGE);
    ENSURE(clink_short_bearing_force(0.04, 0.01, 0.04, 5e-5, 1.0, 0, 1, &fr, &ft) ==
           CLINK_ERR_RANGE);
    ENSURE(clink_short_bearing_force(0.04, 0.01, 0.04, 5e-5, 0.5, NAN, 1, &fr, &ft) ==
           CLINK_ERR_RANGE);
    ENSURE(clink_short_bearing_force(0.04, 0.01, 0.04, 5e-5, 0.5, 0, 1, NULL, &ft) ==
           CLINK_ERR_ARG);
    ENSURE(isnan(clink_short_bearing_load(0.04, 1, 0.01, 0.04, 5e-5, -0.1)));
    ENSURE(isnan(clink_short_bearing_attitude(1.0)));
}

/* ---- the long bearing ------------------------------------------------------------------ */

/*
 * The long bearing's force by quadrature of its Reynolds equation: h^3 p' = 12 mu R^2 c
 * (eps_dot sin + eps Omega / 2 cos + C) / c^3 scaled, C such that p(pi) = 0 = p(0), p by the
 * trapezoidal rule on n intervals, the forces F_r = R L int p cos, F_t = R L int p sin
 * (the frame of quadrature() above).
 */
static void long_quadrature(double mu, double R, double L, double c, double eps, double eps_dot,
                            double Omega, double *F_r, double *F_t)
{
    enum { N = 40000 };
    const double dt = PI / N;
    double i0 = 0, i1 = 0;
    for (int i = 0; i <= N; i++) {
        double th = dt * i, w = (i == 0 || i == N) ? 0.5 : 1.0, h3 = pow(1 + eps * cos(th), 3);
        i0 += w / h3;
        i1 += w * (eps_dot * sin(th) + 0.5 * eps * Omega * cos(th)) / h3;
    }
    double C = -i1 / i0, p = 0, gprev = 0, fr = 0, ft = 0;
    for (int i = 0; i <= N; i++) {
        double th = dt * i, h3 = pow(1 + eps * cos(th), 3);
        double g =
            12 * mu * R * R / (c * c) * (eps_dot * sin(th) + 0.5 * eps * Omega * cos(th) + C) / h3;
        if (i > 0)
            p += 0.5 * dt * (g + gprev);
        gprev = g;
        double w = (i == 0 || i == N) ? 0.5 : 1.0;
        fr += w * p * cos(th);
        ft += w * p * sin(th);
    }
    *F_r = fr * dt * R * L;
    *F_t = ft * dt * R * L;
}

TEST(long_bearing_forces_are_the_integrated_pressure_field)
{
    check_against_quadrature(clink_long_bearing_force, long_quadrature);
}

/*
 * The steady load: the half-Sommerfeld load capacity and attitude angle, and the Sommerfeld
 * number S = (R / c)^2 mu N / P (N = omega / (2 pi) rev/s, P = W / (2 R L)) of the long
 * bearing, S = (2 + eps^2)(1 - eps^2) / (6 pi eps sqrt(pi^2 - eps^2 (pi^2 - 4))).
 */
TEST(long_bearing_steady_load_is_the_half_sommerfeld_solution)
{
    const double mu = 0.04, R = 0.01, L = 0.04, c = 5e-5, w = 500;
    for (double e = 0.05; e < 0.96; e += 0.05) {
        double fr, ft;
        ENSURE(clink_long_bearing_force(mu, R, L, c, e, 0, w, &fr, &ft) == CLINK_OK);
        ENSURE(fr < 0 && ft > 0);
        double W = clink_long_bearing_load(mu, w, R, L, c, e);
        ENSURE_REL(hypot(fr, ft), W, 1e-13);
        ENSURE_REL(atan2(ft, -fr), clink_long_bearing_attitude(e), 1e-13);
        ENSURE_REL(tan(clink_long_bearing_attitude(e)), PI * sqrt(1 - e * e) / (2 * e), 1e-12);
        double S = (R / c) * (R / c) * mu * (w / (2 * PI)) / (W / (2 * R * L));
        ENSURE_REL(S,
                   (2 + e * e) * (1 - e * e) / (6 * PI * e * sqrt(PI * PI - e * e * (PI * PI - 4))),
                   1e-12);
    }
    /* the attitude tends to 90 degrees as eps -> 0 and to 0 as eps -> 1 */
    ENSURE_NEAR(clink_long_bearing_attitude(1e-9), 0.5 * PI, 1e-8);
    ENSURE(clink_long_bearing_attitude(0.999) < 0.08 &&
           clink_long_bearing_attitude(0.9999) < 0.025);
    ENSURE(isnan(clink_long_bearing_load(0.04, 1, 0.01, 0.04, 5e-5, 1.0)));
    ENSURE(isnan(clink_long_bearing_attitude(0.0)));
    double fr = 0, ft = 0;
    ENSURE(clink_long_bearing_force(0.04, 0.01, 0.04, 5e-5, 1.0, 0, 1, &fr, &ft) ==
           CLINK_ERR_RANGE);
    ENSURE(isnan(fr) && isnan(ft));
}

/*
 * The pure squeeze (Omega = 0): the film resists the approach along e only as eps -> 0, with
 * the force of the film's centre (lubrication_centre): pi K / (2 c) for the short bearing,
 * 12 K' (pi / 2 - 4 / pi) / c for the long one; and a squeeze towards the wall is resisted
 * harder the nearer the wall.
 */
TEST(pure_squeeze_tends_to_the_centre_force_of_each_theory)
{
    const double mu = 0.04, R = 0.01, L = 0.04, c = 5e-5, rate = 20.0;
    for (int theory = 0; theory < 2; theory++) {
        double ed[2] = {rate * c, 0}, f[2];
        lubrication_centre(theory, mu, R, L, c, ed, f);
        double k = theory ? 12 * mu * R * R * R * L / (c * c) * (0.5 * PI - 4 / PI) / c
                          : PI * mu * R * L * L * L / (2 * c * c * c);
        ENSURE_REL(f[0], -k * rate * c, 1e-13);
        ENSURE(f[1] == 0);
        lubrication_force F;
        ENSURE(lubrication_film(theory, mu, R, L, c, 1e-7, rate, 0, &F) == 0);
        ENSURE_REL(F.F[0], f[0], 1e-6);
        ENSURE(fabs(F.F[1]) < 1e-5 * fabs(F.F[0]));
        double prev = 0;
        for (double e = 0.1; e < 0.95; e += 0.1) {
            ENSURE(lubrication_film(theory, mu, R, L, c, e, rate, 0, &F) == 0);
            ENSURE(F.F[0] < prev);
            prev = F.F[0];
        }
    }
}

/*
 * The finite bearing's steady load by finite differences of Reynolds' equation over the
 * pi-film (p = 0 at theta = 0, pi and z = +-L/2), scaled to R = c = mu Omega = 1:
 * d/dtheta (h^3 dp/dtheta) + d/dz (h^3 dp/dz) = -6 eps sin theta; nt x nz intervals, the
 * symmetric system solved by a banded Cholesky factorisation of its negative.
 */
static double finite_load(double eps, double LD, int nt, int nz)
{
    int m = nz - 1, n = (nt - 1) * m;
    double L = 2 * LD, dt = PI / nt, dz = L / nz;
    double *B = calloc((size_t) n * (size_t) (m + 1), sizeof *B),
           *b = calloc((size_t) n, sizeof *b);
    ENSURE(B && b);
    if (!B || !b)
        return NAN;
#define BAND(r, k) B[(size_t) (r) * (size_t) (m + 1) + (size_t) (k)] /* A(r, r - k) */
    for (int i = 1; i < nt; i++) {
        double th = i * dt, hc = pow(1 + eps * cos(th), 3);
        double hp = pow(1 + eps * cos(th + 0.5 * dt), 3), hm = pow(1 + eps * cos(th - 0.5 * dt), 3);
        for (int j = 1; j < nz; j++) {
            int r = (i - 1) * m + (j - 1);
            BAND(r, 0) = (hp + hm) / (dt * dt) + 2 * hc / (dz * dz);
            if (j > 1)
                BAND(r, 1) = -hc / (dz * dz);
            if (i > 1)
                BAND(r, m) = -hm / (dt * dt);
            b[r] = 6 * eps * sin(th);
        }
    }
    /* Cholesky: A = G G^T, G lower with bandwidth m, in place */
    for (int r = 0; r < n; r++) {
        for (int k = m; k >= 0; k--) {
            int col = r - k;
            if (col < 0)
                continue;
            double s = BAND(r, k);
            for (int l = 1; l <= m - k && col - l >= 0; l++)
                s -= BAND(r, k + l) * BAND(col, l);
            BAND(r, k) = k == 0 ? sqrt(s) : s / BAND(col, 0);
        }
    }
    for (int r = 0; r < n; r++) { /* G y = b */
        double s = b[r];
        for (int k = 1; k <= m && r - k >= 0; k++)
            s -= BAND(r, k) * b[r - k];
        b[r] = s / BAND(r, 0);
    }
    for (int r = n - 1; r >= 0; r--) { /* G^T p = y */
        double s = b[r];
        for (int k = 1; k <= m && r + k < n; k++)
            s -= BAND(r + k, k) * b[r + k];
        b[r] = s / BAND(r, 0);
    }
#undef BAND
    double fr = 0, ft = 0;
    for (int i = 1; i < nt; i++) {
        double pz = 0;
        for (int j = 1; j < nz; j++)
            pz += b[(i - 1) * m + (j - 1)] * dz;
        fr += pz * cos(i * dt) * dt;
        ft += pz * sin(i * dt) * dt;
    }
    free(B);
    free(b);
    return hypot(fr, ft);
}

/*
 * Short and long bearings bound the finite one: each theory drops one of the two pressure
 * flows of Reynolds' equation, so each over-predicts the load of a finite bearing, and
 * each is its limit (L/D -> 0 short, L/D -> infinity long). The finite bearing solved here
 * lies below both, within 5 % of the short one at L/D = 0.1 and within 11 % of the long one
 * at L/D = 10; the two closed forms cross where W_short = W_long, at L/D = sqrt(3) as
 * eps -> 0 (W_short / W_long = (L/D)^2 / 3 there).
 */
TEST(short_and_long_bearings_bound_the_finite_bearing)
{
    const double eps[] = {0.2, 0.5, 0.8}, LD[] = {0.1, 0.5, 1.0, 2.0, 10.0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
            double L = 2 * LD[j]; /* R = c = mu = omega = 1 */
            double ws = clink_short_bearing_load(1, 1, 1, L, 1, eps[i]);
            double wl = clink_long_bearing_load(1, 1, 1, L, 1, eps[i]);
            double wf = finite_load(eps[i], LD[j], 120, 60);
            printf("eps %.1f L/D %5.2f: finite / short %.4f, finite / long %.4f\n", eps[i], LD[j],
                   wf / ws, wf / wl);
            ENSURE(wf < ws && wf < wl);
            if (j == 0)
                ENSURE(wf / ws > 0.95);
            if (j == 4)
                ENSURE(wf / wl > 0.89);
        }
    double L = 2 * sqrt(3.0), e = 1e-6;
    ENSURE_REL(clink_short_bearing_load(1, 1, 1, L, 1, e),
               clink_long_bearing_load(1, 1, 1, L, 1, e), 1e-9);
}
