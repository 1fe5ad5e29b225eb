/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The linearised film of a lubricated journal bearing (include/clink/analysis.h,
 * docs/analysis.md "Film stiffness and damping"): the steady journal position under a load W
 * at a shaft speed omega, and the 2 x 2 stiffness K_ij = -dF_i/dx_j and damping
 * C_ij = -dF_i/dxdot_j of the film force F about it (Lund's bearing coefficients).
 *
 * Frame: x along the load (the direction it pushes the journal), y = x turned +90 degrees,
 * the journal centre at p = e (cos gamma, sin gamma) from the bearing centre, moving at v.
 * The film force of src/contact/lubrication.c is F = F_r e_r + F_t e_t with e_r = p / |p|,
 * e_t = e_r turned +90 degrees, a function of eps = |p| / c, eps_dot = e_r . v / c and
 * Omega = omega - 2 gamma_dot, gamma_dot = e_t . v / |p|.
 *
 * Steady position: v = 0, |F(eps, 0, omega)| = W solved for eps by bisection (|F| grows
 * monotonically from 0 at eps = 0 to infinity as eps -> 1), then gamma so that F = -W e_x:
 * gamma = pi - atan2(F_t, F_r) (the attitude angle, in the sense of rotation).
 *
 * Coefficients by the chain rule, analytically (lubrication_film's derivatives in eps,
 * eps_dot, Omega). At v = 0 the rates eps_dot and gamma_dot do not depend on p, so
 *   dF/dp = (dF_r/deps e_r + dF_t/deps e_t) e_r^T / c + (F_r e_t - F_t e_r) e_t^T / |p|,
 *   dF/dv = (dF_r/deps_dot e_r + dF_t/deps_dot e_t) e_r^T / c
 *           - 2 (dF_r/dOmega e_r + dF_t/dOmega e_t) e_t^T / |p|.
 */
#include "clink/analysis.h"
#include "clink/lubrication.h"
#include "contact/lubrication.h"

#include <math.h>
#include <stddef.h>

#define FILM_PI 3.14159265358979323846

/* |F| at eps in the steady state (eps_dot = 0), or NaN */
static double film_magnitude(int theory, double mu, double R, double L, double c, double eps,
                             double omega)
{
    lubrication_force f;
    if (lubrication_film(theory, mu, R, L, c, eps, 0.0, omega, &f) != 0)
        return NAN;
    return hypot(f.F[0], f.F[1]);
}

/* the steady eccentricity ratio by bisection on |F| = W; its iterations, or -1 when the
   load is beyond what the film carries below eps_max */
static int film_steady_eps(int theory, double mu, double R, double L, double c, double omega,
                           double W, double *eps)
{
    const double eps_max = 1.0 - 1e-12;
    double lo = 0.0, hi = eps_max;
    int it = 0;
    if (!(film_magnitude(theory, mu, R, L, c, hi, omega) >= W))
        return -1;
    /* to the resolution of double in eps (the midpoint equal to an end) */
    while (it < 200) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        double m = film_magnitude(theory, mu, R, L, c, mid, omega);
        if (!isfinite(m))
            return -1;
        if (m < W)
            lo = mid;
        else
            hi = mid;
        it++;
    }
    *eps = 0.5 * (lo + hi);
    return it;
}

/* K = -dF/dp and C = -dF/dv (row-major) at eps, gamma, v = 0 (the file comment) */
static int film_linearise(int theory, double mu, double R, double L, double c, double omega,
                          double eps, double gamma, double K[4], double C[4])
{
    lubrication_force f;
    if (lubrication_film(theory, mu, R, L, c, eps, 0.0, omega, &f) != 0)
        return -1;
    double er[2] = {cos(gamma), sin(gamma)}, et[2] = {-sin(gamma), cos(gamma)};
    double e = eps * c;
    for (int i = 0; i < 2; i++) {
        double a_eps = f.dF[0][0] * er[i] + f.dF[1][0] * et[i];
        double a_geo = f.F[0] * et[i] - f.F[1] * er[i];
        double a_sq = f.dF[0][1] * er[i] + f.dF[1][1] * et[i];
        double a_om = f.dF[0][2] * er[i] + f.dF[1][2] * et[i];
        for (int j = 0; j < 2; j++) {
            K[2 * i + j] = -(a_eps * er[j] / c + a_geo * et[j] / e);
            C[2 * i + j] = -(a_sq * er[j] / c - 2.0 * a_om * et[j] / e);
        }
    }
    for (int k = 0; k < 4; k++)
        if (!isfinite(K[k]) || !isfinite(C[k]))
            return -1;
    return 0;
}

clink_status clink_film_bearing_of_joint(const clink_model *model, int joint, double omega,
                                         double load, clink_film_bearing *out)
{
    clink_clearance_joint_def d;
    if (model == NULL || out == NULL)
        return CLINK_ERR_ARG;
    clink_status st = clink_model_clearance_joint(model, joint, &d);
    if (st != CLINK_OK)
        return st;
    if (!(d.lubrication.viscosity > 0))
        return CLINK_ERR_MODEL;
    out->theory = d.lubrication.theory;
    out->viscosity = d.lubrication.viscosity;
    out->radius = d.journal_radius;
    out->length = d.lubrication.length;
    out->clearance = d.bearing_radius - d.journal_radius;
    out->omega = omega;
    out->load = load;
    return CLINK_OK;
}

clink_status clink_film_coefficients_compute(const clink_film_bearing *bearing,
                                             clink_film_coefficients *out)
{
    if (bearing == NULL || out == NULL)
        return CLINK_ERR_ARG;
    const clink_film_bearing *b = bearing;
    double mu = b->viscosity, R = b->radius, L = b->length, c = b->clearance;
    double omega = b->omega, W = b->load;
    if ((b->theory != CLINK_LUBRICATION_SHORT && b->theory != CLINK_LUBRICATION_LONG) ||
        !(mu > 0) || !(R > 0) || !(L > 0) || !(c > 0) || !(W > 0) || !isfinite(mu) ||
        !isfinite(R) || !isfinite(L) || !isfinite(c) || !isfinite(W) || !isfinite(omega) ||
        omega == 0.0)
        return CLINK_ERR_RANGE;
    double eps = 0.0;
    int it = film_steady_eps(b->theory, mu, R, L, c, omega, W, &eps);
    if (it < 0)
        return CLINK_ERR_NO_CONVERGENCE;
    lubrication_force f;
    if (lubrication_film(b->theory, mu, R, L, c, eps, 0.0, omega, &f) != 0)
        return CLINK_ERR_NO_CONVERGENCE;
    double gamma = FILM_PI - atan2(f.F[1], f.F[0]);
    if (gamma > FILM_PI)
        gamma -= 2.0 * FILM_PI;
    out->eccentricity = eps;
    out->attitude = gamma;
    out->position[0] = eps * c * cos(gamma);
    out->position[1] = eps * c * sin(gamma);
    out->force[0] = f.F[0] * cos(gamma) - f.F[1] * sin(gamma);
    out->force[1] = f.F[0] * sin(gamma) + f.F[1] * cos(gamma);
    out->iterations = it;
    /* Sommerfeld number S = mu N L D / W (R / c)^2, N = |omega| / (2 pi) rev/s */
    out->sommerfeld = mu * fabs(omega) / (2.0 * FILM_PI) * L * 2.0 * R / W * (R / c) * (R / c);
    if (film_linearise(b->theory, mu, R, L, c, omega, eps, gamma, out->stiffness, out->damping) !=
        0)
        return CLINK_ERR_NO_CONVERGENCE;
    return CLINK_OK;
}
