/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the short bearing's fixed pi-film (src/contact/lubrication.c, short_pi;
 * film="pi" of a lubricated joint): its forces against the short-bearing pressure field
 * integrated here over the fixed half 0 < theta < pi, negative pressures kept (Simpson's
 * rule: the field is smooth there); its derivatives in (eps, eps_dot, Omega) against central
 * differences of the forces; the same force as Gumbel's film where both load the same half
 * (eps_dot = 0, Omega > 0); and the region it pulls the journal outwards, Omega < 0, where
 * its radial force is the opposite of Gumbel's.
 */
#include "clink/lubrication.h"
#include "clink/model.h"
#include "contact/lubrication.h"

#include "ensure.h"

#include <math.h>

#define PI 3.14159265358979323846

static const double mu = 0.04, R = 0.01, L = 0.04, c = 5e-5;

/* the force on the journal of p = 6 mu c / h^3 [eps_dot cos - eps Omega / 2 sin]
   (z^2 - L^2 / 4) over 0 < theta < pi, |z| < L / 2, theta from the thickest film (opposite
   to e); along e and along e turned by +90 degrees */
static void pi_quadrature(double eps, double eps_dot, double Omega, double *F_r, double *F_t)
{
    const int nt = 20000;
    double fa = 0, fb = 0;
    for (int i = 0; i <= nt; i++) {
        double th = PI * i / nt, wt = (i == 0 || i == nt) ? 1 : (i % 2 ? 4 : 2);
        double h = c * (1 + eps * cos(th));
        double g = 6 * mu * c / (h * h * h) * (eps_dot * cos(th) - 0.5 * eps * Omega * sin(th));
        double pz = -g * L * L * L / 6.0; /* the integral of z^2 - L^2 / 4 over the length */
        fa += wt * (-pz * cos(th) * R);
        fb += wt * (-pz * sin(th) * R);
    }
    *F_r = -fa * PI / (3.0 * nt); /* along e = -a */
    *F_t = -fb * PI / (3.0 * nt); /* along e turned by +90 degrees = -b */
}

TEST(the_pi_film_is_the_pressure_integrated_over_the_fixed_half)
{
    const double eps[] = {0.1, 0.5, 0.8, 0.9}, rates[] = {0.0, 30.0, -50.0}, Om[] = {500, -200, 0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                lubrication_force F;
                double qr, qt;
                ENSURE(lubrication_film(LUBRICATION_SHORT_PI, mu, R, L, c, eps[i], rates[j], Om[k],
                                        &F) == 0);
                pi_quadrature(eps[i], rates[j], Om[k], &qr, &qt);
                double scale = fabs(qr) + fabs(qt) + 1e-300;
                ENSURE_NEAR(F.F[0], qr, 1e-8 * scale);
                ENSURE_NEAR(F.F[1], qt, 1e-8 * scale);
            }
}

TEST(the_pi_films_derivatives_are_its_forces_differences)
{
    const double pts[][3] = {{0.3, 20.0, 400.0}, {0.7, -40.0, -150.0}, {0.9, 5.0, 80.0}};
    for (int p = 0; p < 3; p++) {
        lubrication_force F;
        ENSURE(lubrication_film(LUBRICATION_SHORT_PI, mu, R, L, c, pts[p][0], pts[p][1], pts[p][2],
                                &F) == 0);
        for (int v = 0; v < 3; v++) {
            double xp[3] = {pts[p][0], pts[p][1], pts[p][2]}, xm[3] = {xp[0], xp[1], xp[2]};
            double h = v == 0 ? 1e-6 : 1e-4 * (fabs(xp[v]) + 1.0);
            xp[v] += h;
            xm[v] -= h;
            lubrication_force Fp, Fm;
            ENSURE(lubrication_film(LUBRICATION_SHORT_PI, mu, R, L, c, xp[0], xp[1], xp[2], &Fp) ==
                   0);
            ENSURE(lubrication_film(LUBRICATION_SHORT_PI, mu, R, L, c, xm[0], xm[1], xm[2], &Fm) ==
                   0);
            for (int i = 0; i < 2; i++) {
                double fd = (Fp.F[i] - Fm.F[i]) / (2.0 * h);
                /* central differences: h^2 times the third derivative, 1e-6 of the slope */
                ENSURE_NEAR(F.dF[i][v], fd, 1e-6 * (fabs(fd) + 1e-3));
            }
        }
    }
}

TEST(
    the_pi_film_equals_gumbels_where_both_load_the_same_half_and_pulls_outwards_for_omega_below_zero)
{
    for (double eps = 0.1; eps < 0.95; eps += 0.2) {
        lubrication_force pi, gumbel;
        /* eps_dot = 0, Omega > 0: Gumbel's half of positive pressure is 0 < theta < pi */
        ENSURE(lubrication_film(LUBRICATION_SHORT_PI, mu, R, L, c, eps, 0.0, 300.0, &pi) == 0);
        ENSURE(lubrication_film(CLINK_LUBRICATION_SHORT, mu, R, L, c, eps, 0.0, 300.0, &gumbel) ==
               0);
        ENSURE_NEAR(pi.F[0], gumbel.F[0], 1e-12 * fabs(gumbel.F[0]));
        ENSURE_NEAR(pi.F[1], gumbel.F[1], 1e-12 * fabs(gumbel.F[1]));
        ENSURE(pi.F[0] < 0.0); /* pushes the journal back to the centre */
        /* Omega < 0: the pi-film integrates the sub-ambient half, its radial force points
           outwards, the opposite of Gumbel's (which loads the other half) */
        ENSURE(lubrication_film(LUBRICATION_SHORT_PI, mu, R, L, c, eps, 0.0, -300.0, &pi) == 0);
        ENSURE(lubrication_film(CLINK_LUBRICATION_SHORT, mu, R, L, c, eps, 0.0, -300.0, &gumbel) ==
               0);
        ENSURE(pi.F[0] > 0.0 && gumbel.F[0] < 0.0);
        ENSURE_NEAR(pi.F[0], -gumbel.F[0], 1e-12 * fabs(gumbel.F[0]));
    }
}
