/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the short journal bearing (src/contact/lubrication.c): the forces against
 * the pressure field of the short-bearing Reynolds equation integrated here numerically
 * (Simpson's rule over the film angle and the axial coordinate, the pi-film 0 < theta < pi),
 * the steady load capacity and attitude angle of Ocvirk against the forces, and the
 * refusal of bad input.
 */
#include "clink/lubrication.h"

#include "ensure.h"

#include <math.h>

#define PI 3.14159265358979323846

/*
 * The force on the journal by quadrature of p = 6 mu c / h^3 [eps_dot cos - eps Omega / 2 sin]
 * (z^2 - L^2 / 4) over 0 < theta < pi, |z| < L/2; theta from the thickest film, which lies
 * opposite to e. Along e: the pressure pushes the journal surface inwards, -p n R dtheta dz,
 * n = (cos theta, sin theta) in the frame (a = -e / |e|, b = a turned by +90 degrees).
 */
static void quadrature(double mu, double R, double L, double c, double eps, double eps_dot,
                       double Omega, double *F_r, double *F_t)
{
    const int nt = 4000, nz = 40;
    double fa = 0, fb = 0;
    for (int i = 0; i <= nt; i++) {
        double th = PI * i / nt, wt = (i == 0 || i == nt) ? 1 : (i % 2 ? 4 : 2);
        double h = c * (1 + eps * cos(th));
        double g = 6 * mu * c / (h * h * h) * (eps_dot * cos(th) - 0.5 * eps * Omega * sin(th));
        double pz = 0;
        for (int k = 0; k <= nz; k++) {
            double z = -0.5 * L + L * k / nz, wz = (k == 0 || k == nz) ? 1 : (k % 2 ? 4 : 2);
            pz += wz * g * (z * z - 0.25 * L * L);
        }
        pz *= L / (3.0 * nz);
        fa += wt * (-pz * cos(th) * R);
        fb += wt * (-pz * sin(th) * R);
    }
    fa *= PI / (3.0 * nt);
    fb *= PI / (3.0 * nt);
    /* along e = -a; along e turned by +90 degrees = -b */
    *F_r = -fa;
    *F_t = -fb;
}

TEST(short_bearing_forces_are_the_integrated_pressure_field)
{
    const double mu = 0.04, R = 0.01, L = 0.04, c = 5e-5;
    const double eps[] = {0.1, 0.5, 0.8, 0.9}, rates[] = {0.0, 30.0, -50.0}, Om[] = {500, -200, 0};

    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                double fr, ft, qr, qt;
                ENSURE(clink_short_bearing_force(mu, R, L, c, eps[i], rates[j], Om[k], &fr, &ft) ==
                       CLINK_OK);
                quadrature(mu, R, L, c, eps[i], rates[j], Om[k], &qr, &qt);
                double scale = fabs(qr) + fabs(qt) + 1e-300;
                ENSURE_NEAR(fr, qr, 1e-6 * scale);
                ENSURE_NEAR(ft, qt, 1e-6 * scale);
            }
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
