/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The hydrodynamic force of a journal bearing, short or long (below the short one). Short:
 * the hydrodynamic force of a short journal bearing (Ocvirk's solution of Reynolds' equation,
 * Pinkus and Sternlicht 1961; the form Flores et al. 2009 use for lubricated revolute
 * clearance joints): a journal of radius R in a bearing of radial clearance c and length
 * L, film viscosity mu, eccentricity ratio eps = |e| / c in [0, 1), its rate eps_dot, and
 * Omega = omega_journal + omega_bearing - 2 gamma_dot (rad/s), gamma the angle of the line
 * of centres (the direction of e, bearing centre to journal centre). The pressure
 * p = 6 mu c / h^3 [eps_dot cos theta - eps Omega / 2 sin theta] (z^2 - L^2 / 4),
 * h = c (1 + eps cos theta), theta from the thickest film, has its negative part set to zero
 * (Gumbel's half-Sommerfeld condition): the film carries load on the half where the bracket
 * is negative, which turns with the squeeze and with the sense of rotation. With
 * K = mu R L^3 / c^2 and I_ab the integrals of (sin or cos)(sin or cos) / (1 + eps cos)^3
 * over that half,
 *
 *   F_r = -K (eps_dot I_cc - eps Omega / 2 I_sc),   F_t = -K (eps_dot I_sc - eps Omega / 2 I_ss),
 *
 * which on the pi-film 0 < theta < pi (eps_dot = 0, Omega > 0) are Ocvirk's closed forms
 *
 *   F_r = -K [ eps^2 Omega / (1 - eps^2)^2 + pi (1 + 2 eps^2) eps_dot / (2 (1 - eps^2)^(5/2)) ]
 *   F_t =  K [ pi eps Omega / (4 (1 - eps^2)^(3/2)) + 2 eps eps_dot / (1 - eps^2)^2 ].
 *
 * F_r along e (negative: pushes the journal back to the centre), F_t along e turned by
 * +90 degrees (counter-clockwise), N, on the journal (the bearing takes the opposite).
 * Pure functions; docs/contact-laws.md, "Hydrodynamic journal bearing".
 */
#ifndef CLINK_LUBRICATION_H
#define CLINK_LUBRICATION_H

#include "clink/clink.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The short-bearing force on the journal (above) into *F_r, *F_t (N). CLINK_ERR_RANGE
 * unless mu, R, L, c > 0 and 0 <= eps < 1 (finite); the forces are then NaN.
 */
CLINK_API clink_status clink_short_bearing_force(double mu, double R, double L, double c,
                                                 double eps, double eps_dot, double Omega,
                                                 double *F_r, double *F_t);

/*
 * The steady load capacity of the short bearing (eps_dot = 0, Omega = omega), N:
 * W = mu omega R L^3 / (4 c^2) eps / (1 - eps^2)^2 sqrt(pi^2 (1 - eps^2) + 16 eps^2)
 * (Ocvirk), and its attitude angle, the angle between the load and the line of centres,
 * tan(phi) = pi sqrt(1 - eps^2) / (4 eps) (rad). NaN for invalid input.
 */
CLINK_API double clink_short_bearing_load(double mu, double omega, double R, double L, double c,
                                          double eps);
CLINK_API double clink_short_bearing_attitude(double eps);

/*
 * The long (infinitely long, Sommerfeld) bearing with the same conventions and the same
 * pi-film, the pressure zero at both of its ends (Pinkus and Sternlicht 1961; the form of
 * Flores et al. 2009), K' = mu R^3 L / c^2:
 *
 *   F_r = -12 K' [ eps^2 Omega / ((2 + eps^2)(1 - eps^2))
 *                  + eps_dot (pi / 2 - 8 / (pi (2 + eps^2))) / (1 - eps^2)^(3/2) ]
 *   F_t =  12 K' [ pi eps Omega / (2 (2 + eps^2) sqrt(1 - eps^2))
 *                  + 2 eps eps_dot / ((2 + eps^2)(1 - eps^2)) ]
 *
 * Errors as for the short bearing. Its steady load capacity (N) and attitude angle (rad):
 * W = 6 mu omega R^3 L / c^2 eps sqrt(pi^2 - eps^2 (pi^2 - 4)) / ((2 + eps^2)(1 - eps^2)),
 * tan(phi) = pi sqrt(1 - eps^2) / (2 eps) (the half-Sommerfeld solution).
 */
CLINK_API clink_status clink_long_bearing_force(double mu, double R, double L, double c, double eps,
                                                double eps_dot, double Omega, double *F_r,
                                                double *F_t);
CLINK_API double clink_long_bearing_load(double mu, double omega, double R, double L, double c,
                                         double eps);
CLINK_API double clink_long_bearing_attitude(double eps);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_LUBRICATION_H */
