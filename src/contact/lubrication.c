/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The short journal bearing's hydrodynamic force (include/clink/lubrication.h): Reynolds'
 * equation without the circumferential pressure flow (Ocvirk; Pinkus and Sternlicht 1961),
 * with h = c (1 + eps cos theta), theta from the thickest film in the direction of rotation,
 *
 *   p(theta, z) = 6 mu c / h^3 [eps_dot cos theta - eps Omega / 2 sin theta] (z^2 - L^2 / 4),
 *
 * integrated over the axial length (the z integral gives -L^3 / 6) and over the pi-film
 * 0 < theta < pi (Gumbel's condition of the steady case), with the integrals of Booker:
 * int sin^2 / (1 + eps cos)^3 = pi / (2 (1 - eps^2)^(3/2)), int sin cos / (..)^3 =
 * -2 eps / (1 - eps^2)^2, int cos^2 / (..)^3 = pi (1 + 2 eps^2) / (2 (1 - eps^2)^(5/2)).
 * The forces of Flores et al. (2009) follow; tests/contact/test_lubrication.c integrates
 * the pressure field itself.
 */
#include "clink/lubrication.h"

#include <math.h>
#include <stddef.h>

#define LUB_PI 3.14159265358979323846

static int lub_ok(double mu, double R, double L, double c, double eps)
{
    return mu > 0 && R > 0 && L > 0 && c > 0 && isfinite(mu) && isfinite(R) && isfinite(L) &&
           isfinite(c) && eps >= 0 && eps < 1;
}

clink_status clink_short_bearing_force(double mu, double R, double L, double c, double eps,
                                       double eps_dot, double Omega, double *F_r, double *F_t)
{
    double K, s, s2;

    if (F_r == NULL || F_t == NULL)
        return CLINK_ERR_ARG;
    *F_r = *F_t = NAN;
    if (!lub_ok(mu, R, L, c, eps) || !isfinite(eps_dot) || !isfinite(Omega))
        return CLINK_ERR_RANGE;
    K = mu * R * L * L * L / (c * c);
    s = 1.0 - eps * eps;
    s2 = s * s;
    *F_r = -K * (eps * eps * Omega / s2 +
                 LUB_PI * (1.0 + 2.0 * eps * eps) * eps_dot / (2.0 * s2 * sqrt(s)));
    *F_t = K * (LUB_PI * eps * Omega / (4.0 * s * sqrt(s)) + 2.0 * eps * eps_dot / s2);
    return CLINK_OK;
}

double clink_short_bearing_load(double mu, double omega, double R, double L, double c, double eps)
{
    double s;

    if (!lub_ok(mu, R, L, c, eps) || !isfinite(omega))
        return NAN;
    s = 1.0 - eps * eps;
    return mu * omega * R * L * L * L / (4.0 * c * c) * eps / (s * s) *
           sqrt(LUB_PI * LUB_PI * s + 16.0 * eps * eps);
}

double clink_short_bearing_attitude(double eps)
{
    if (!(eps > 0 && eps < 1))
        return NAN;
    return atan2(LUB_PI * sqrt(1.0 - eps * eps), 4.0 * eps);
}
