/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The short bearing's half-Sommerfeld (Gumbel) condition when the journal turns backwards
 * (src/contact/lubrication.c). Half-Sommerfeld keeps the film where the short-bearing
 * pressure p = 6 mu c / h^3 [eps_dot cos - eps Omega / 2 sin] (z^2 - L^2 / 4) is positive
 * and sets the rest to zero. For a pure rotation (eps_dot = 0) that is 0 < theta < pi when
 * Omega > 0 and pi < theta < 2 pi when Omega < 0 (theta from the thickest film): the
 * wedge's radial force pushes the journal towards the bearing centre for either sense,
 * F_r = -K eps^2 |Omega| / (1 - eps^2)^2, K = mu R L^3 / c^2.
 * clink_short_bearing_force once integrated 0 < theta < pi whatever the sign of Omega: for
 * Omega < 0 it integrated the sub-ambient half, and its F_r pulled the journal outwards
 * (found by validation/ref_lubricated_slider_crank.py: in the shipped lubricated
 * slider-crank Omega < 0 about a quarter of the time). With squeeze the positive half turns
 * (its ends at the zeros of the bracket): the third test checks that too, and the force's
 * continuity as Omega changes sign.
 */
#include "clink/lubrication.h"

#include "ensure.h"

#include <math.h>

#define PI 3.14159265358979323846

/* the force on the journal from the positive part of the pressure, by Simpson's rule over
   0 < theta < 2 pi (the z integral of p is -mu c L^3 g / h^3 with g the bracket) */
static void positive_film(double mu, double R, double L, double c, double eps, double eps_dot,
                          double Omega, double *F_r, double *F_t)
{
    const int n = 20000;
    double fr = 0.0, ft = 0.0;
    for (int i = 0; i <= n; i++) {
        double th = 2.0 * PI * i / n, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        double h = c * (1.0 + eps * cos(th));
        double P =
            -mu * c * L * L * L * (eps_dot * cos(th) - 0.5 * eps * Omega * sin(th)) / (h * h * h);
        if (P < 0.0)
            P = 0.0;
        /* -p n R, n = -(cos theta e_r + sin theta e_t) */
        fr += w * P * R * cos(th);
        ft += w * P * R * sin(th);
    }
    *F_r = fr * 2.0 * PI / (3.0 * n);
    *F_t = ft * 2.0 * PI / (3.0 * n);
}

static void compare_with(double eps, double eps_dot, double Omega)
{
    const double mu = 0.4, R = 0.0095, L = 0.04, c = 5e-4;
    double Fr, Ft, Fr_ref, Ft_ref;
    ENSURE(clink_short_bearing_force(mu, R, L, c, eps, eps_dot, Omega, &Fr, &Ft) == CLINK_OK);
    positive_film(mu, R, L, c, eps, eps_dot, Omega, &Fr_ref, &Ft_ref);
    double scale = fabs(Fr_ref) + fabs(Ft_ref);
    ENSURE_NEAR(Fr, Fr_ref, 1e-6 * scale);
    ENSURE_NEAR(Ft, Ft_ref, 1e-6 * scale);
}

static void compare(double Omega)
{
    const double mu = 0.4, R = 0.0095, L = 0.04, c = 5e-4, eps = 0.5;
    double Fr, Ft, Fr_ref, Ft_ref;
    ENSURE(clink_short_bearing_force(mu, R, L, c, eps, 0.0, Omega, &Fr, &Ft) == CLINK_OK);
    positive_film(mu, R, L, c, eps, 0.0, Omega, &Fr_ref, &Ft_ref);
    ENSURE(Fr_ref < 0.0); /* towards the bearing centre, for either sense */
    ENSURE_REL(Fr, Fr_ref, 1e-6);
    ENSURE_REL(Ft, Ft_ref, 1e-6);
}

TEST(the_short_bearing_film_keeps_the_positive_pressure_for_forward_rotation)
{
    /* K = 0.9728 N s, eps = 0.5: F_r = -43.24 N, F_t = +58.83 N */
    compare(100.0);
}

TEST(the_short_bearing_film_keeps_the_positive_pressure_for_backward_rotation)
{
    /* expected F_r = -43.24 N (inwards), F_t = -58.83 N; the pi-film formula gave +43.24 N */
    compare(-100.0);
}

TEST(the_short_bearing_film_turns_with_the_squeeze_and_is_continuous_in_omega)
{
    const double eps[] = {0.05, 0.5, 0.9}, rates[] = {-80.0, -3.0, 0.0, 4.0, 60.0};
    const double Om[] = {-300.0, -1.0, 0.0, 2.0, 250.0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 5; k++)
                if (rates[j] != 0.0 || Om[k] != 0.0)
                    compare_with(eps[i], rates[j], Om[k]);
    /* across Omega = 0 with squeeze: no jump (the half turns continuously) */
    const double mu = 0.4, R = 0.0095, L = 0.04, c = 5e-4;
    double a[2], b[2];
    clink_short_bearing_force(mu, R, L, c, 0.5, 7.0, -1e-9, &a[0], &a[1]);
    clink_short_bearing_force(mu, R, L, c, 0.5, 7.0, 1e-9, &b[0], &b[1]);
    ENSURE_NEAR(a[0], b[0], 1e-8 * fabs(a[0]));
    ENSURE_NEAR(a[1], b[1], 1e-8 * fabs(a[0]));
}
