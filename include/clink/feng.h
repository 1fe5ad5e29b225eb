/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Closed forms of the power-law Tsuji contact oscillator (Feng 2026, Feng (2026)):
 *
 *   m x'' + alpha sqrt(m K) x^((p-1)/2) x' + K x^p = 0,  x(0) = 0, x'(0) = v0 > 0,
 *
 * which the substitution x = A y^q, q = 2/(p+1), A = ((p+1)/2)^(1/(p+1)) maps onto
 * a linear spring-dashpot with damping ratio alpha_eff = alpha / sqrt(2 (p+1)).
 * Table of contents:
 *   - calibration      clink_feng_alpha() (Eq. 14), clink_feng_restitution() (Eq. 13)
 *   - one impact       clink_feng_forms, clink_feng_evaluate() (Eqs. 15-17, 24, 32, 34, 35)
 *
 * Units: K in N/m^p, m in kg, v0 in m/s, lengths in m, energies in J, times in s.
 * Pure functions over <math.h>; no state, nothing to free.
 */
#ifndef CLINK_FENG_H
#define CLINK_FENG_H

#include "clink/clink.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The dimensionless damping alpha that gives restitution e (Eq. 14):
 * alpha = sqrt(2 (p+1)) (-ln e) / sqrt(pi^2 + ln^2 e). alpha = 0 at e = 1 and
 * alpha -> sqrt(2 (p+1)) (critical damping) as e -> 0. NaN unless 0 < e <= 1, p >= 1.
 */
CLINK_API double clink_feng_alpha(double e, double p);

/*
 * The restitution that alpha gives (Eq. 13, the inverse of Eq. 14):
 * e = exp(-pi a / sqrt(1 - a^2)), a = alpha / sqrt(2 (p+1)); 0 when a >= 1 (no
 * rebound). NaN unless alpha >= 0, p >= 1.
 */
CLINK_API double clink_feng_restitution(double alpha, double p);

/* Everything Feng's paper gives in closed form (or by quadrature) for one impact. */
typedef struct clink_feng_forms {
    double q;                 /* 2 / (p + 1), - */
    double A;                 /* ((p + 1) / 2)^(1/(p + 1)), - */
    double alpha_eff;         /* alpha / sqrt(2 (p + 1)), - */
    double e;                 /* restitution, Eq. 13, - */
    double delta_max;         /* largest penetration, Eq. 15, m */
    double F_max_elastic;     /* K delta_max^p (the spring force at delta_max), N */
    double E_load;            /* energy dissipated in loading, Eq. 16, J */
    double E_unload;          /* energy dissipated in unloading, Eq. 17 corrected, J */
    double duration_undamped; /* contact duration at alpha = 0, Eq. 34, s */
    double duration;          /* contact duration, quadrature of Eq. 24, s */
    double dt_crit;           /* critical explicit time step, Eq. 32, s */
    double dt_crit_ratio;     /* dt_crit / duration_undamped = 2 / B(1/(p+1), 1/2), Eq. 35 */
} clink_feng_forms;

/*
 * Fills out for exponent p >= 1, stiffness K > 0 (N/m^p), mass m > 0 (kg), impact
 * velocity v0 > 0 (m/s) and damping 0 <= alpha < sqrt(2 (p + 1)) (underdamped;
 * use clink_feng_alpha() to get it from e). Eq. 17 is used in its corrected form
 * E_unload = m v0^2 e^2 / 2 (exp(2 a (pi - phi) / sqrt(1 - a^2)) - 1),
 * phi = atan(sqrt(1 - a^2) / a) (see docs/contact-laws.md). The damped duration is
 * the quadrature of Eq. 24 by the tanh-sinh rule to about 1e-13 relative.
 * Returns CLINK_ERR_RANGE (out untouched) for input outside those ranges.
 */
CLINK_API clink_status clink_feng_evaluate(double p, double K, double m, double v0, double alpha,
                                           clink_feng_forms *out);

/* Beta function B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b) for a, b > 0. */
CLINK_API double clink_feng_beta(double a, double b);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_FENG_H */
