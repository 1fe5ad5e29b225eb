/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Closed forms of the power-law Tsuji contact oscillator (Feng 2026, Feng (2026))
 *
 *   m x'' + alpha sqrt(m K) x^((p-1)/2) x' + K x^p = 0,  x(0) = 0, x'(0) = v0,
 *
 * with Omega0 = sqrt(K/m), q = 2/(p+1), A = ((p+1)/2)^(1/(p+1)),
 * a = alpha_eff = alpha / sqrt(2(p+1)) (Eq. 8), s = sqrt(1 - a^2), phi = atan(s/a):
 *
 *   e          = exp(-pi a / s)                                           (Eq. 13)
 *   alpha      = sqrt(2(p+1)) (-ln e) / sqrt(pi^2 + ln^2 e)                (Eq. 14)
 *   delta_max  = A (v0/Omega0)^q exp(-2 a phi / ((p+1) s))                 (Eq. 15)
 *   E_load     = m v0^2 / 2 (1 - exp(-2 a phi / s))                        (Eq. 16)
 *   E_unload   = m v0^2 e^2 / 2 (exp(2 a (pi - phi) / s) - 1)    (Eq. 17, corrected)
 *   tau        = int_0^(pi/Omega1) A q x(s)^(q-1) ds,                      (Eq. 24)
 *                x(s) = v0/Omega1 exp(-a Omega0 s) sin(Omega1 s), Omega1 = Omega0 s
 *   tau(a = 0) = 2A / ((p+1) Omega0) (v0/Omega0)^(-(p-1)/(p+1)) B(1/(p+1), 1/2)  (Eq. 34)
 *   dt_crit    = 4/(p+1) A / Omega0 (v0/Omega0)^(-(p-1)/(p+1))             (Eq. 32)
 *   dt_crit / tau(a = 0) = 2 / B(1/(p+1), 1/2)                             (Eq. 35)
 *
 * Eq. 17 as printed has the exponent's sign flipped and a spurious power -1; the
 * corrected form above follows from E_unload = K delta_max^(p+1)/(p+1) - m (e v0)^2/2
 * and Eq. 16 (the readings in docs/contact-laws.md).
 *
 * With u = Omega1 s the duration is
 *   tau = A q / Omega1 (v0/Omega1)^(q-1) int_0^pi exp((1-q) b u) sin(u)^(q-1) du,
 * b = a / s, whose integrand is singular like u^(q-1) at both ends for p > 1; the
 * tanh-sinh (double-exponential) rule integrates such end-point singularities to
 * near machine precision, with the distance to each end computed without
 * cancellation.
 */
#include "clink/feng.h"

#include <math.h>
#include <stddef.h>

#define FENG_PI   3.14159265358979323846
#define FENG_PI_2 1.57079632679489661923

double clink_feng_alpha(double e, double p)
{
    double l;

    if (!(e > 0) || !(e <= 1) || !(p >= 1) || !isfinite(p))
        return NAN;
    l = log(e);
    if (l == 0)
        return 0;
    /* -l / sqrt(pi^2 + l^2) = 1 / sqrt(1 + (pi/l)^2): finite as e -> 0 */
    return sqrt(2 * (p + 1)) / sqrt(1 + (FENG_PI / l) * (FENG_PI / l));
}

double clink_feng_restitution(double alpha, double p)
{
    double a;

    if (!(alpha >= 0) || !isfinite(alpha) || !(p >= 1) || !isfinite(p))
        return NAN;
    a = alpha / sqrt(2 * (p + 1));
    if (a >= 1)
        return 0;
    return exp(-FENG_PI * a / sqrt(1 - a * a));
}

double clink_feng_beta(double a, double b)
{
    if (!(a > 0) || !(b > 0))
        return NAN;
    return tgamma(a) * tgamma(b) / tgamma(a + b);
}

/* int_0^pi exp(c u) sin(u)^(q-1) du by the tanh-sinh rule, c >= 0, 0 < q <= 1 */
static double feng_duration_integral(double q, double c)
{
    double prev = NAN, h = 0.5;
    int level;

    for (level = 0; level < 12; level++) {
        double sum = 0;
        long j, jmax = (long) (7.0 / h);

        for (j = -jmax; j <= jmax; j++) {
            double t = j * h;
            double z = FENG_PI_2 * sinh(t);
            double ez = exp(-2 * fabs(z)); /* in (0, 1] */
            /* distances from u to 0 and to pi: u = pi / (1 + exp(-2 z)) */
            double d_near = FENG_PI * ez / (1 + ez); /* distance to the nearer end */
            double u = z >= 0 ? FENG_PI - d_near : d_near;
            double logw, logf;

            if (!(d_near > 0))
                continue;
            /* du/dt = pi/2 * pi/2 cosh(t) sech^2(z), sech^2(z) = 4 ez / (1 + ez)^2 */
            logw = log(FENG_PI_2 * FENG_PI_2 * cosh(t) * 4) + log(ez) - 2 * log1p(ez);
            logf = c * u + (q - 1) * log(sin(d_near));
            sum += exp(logw + logf);
        }
        sum *= h;
        if (level > 2 && fabs(sum - prev) <= 1e-14 * fabs(sum))
            return sum;
        prev = sum;
        h *= 0.5;
    }
    return prev;
}

clink_status clink_feng_evaluate(double p, double K, double m, double v0, double alpha,
                                 clink_feng_forms *out)
{
    double q, A, a, s, phi, w0, w1, b, half_mv2, scale;

    if (out == NULL)
        return CLINK_ERR_ARG;
    if (!(p >= 1) || !isfinite(p) || !(K > 0) || !isfinite(K) || !(m > 0) || !isfinite(m) ||
        !(v0 > 0) || !isfinite(v0) || !(alpha >= 0) || !isfinite(alpha))
        return CLINK_ERR_RANGE;
    a = alpha / sqrt(2 * (p + 1));
    if (!(a < 1))
        return CLINK_ERR_RANGE;

    q = 2 / (p + 1);
    A = pow((p + 1) / 2, 1 / (p + 1));
    s = sqrt(1 - a * a);
    phi = atan2(s, a); /* pi/2 at a = 0 */
    w0 = sqrt(K / m);
    w1 = w0 * s;
    b = a / s;
    half_mv2 = 0.5 * m * v0 * v0;
    scale = pow(v0 / w0, -(p - 1) / (p + 1));

    out->q = q;
    out->A = A;
    out->alpha_eff = a;
    out->e = exp(-FENG_PI * b);
    out->delta_max = A * pow(v0 / w0, q) * exp(-2 * b * phi / (p + 1));
    out->F_max_elastic = K * pow(out->delta_max, p);
    out->E_load = -half_mv2 * expm1(-2 * b * phi);
    out->E_unload = half_mv2 * out->e * out->e * expm1(2 * b * (FENG_PI - phi));
    out->duration_undamped = 2 * A / ((p + 1) * w0) * scale * clink_feng_beta(1 / (p + 1), 0.5);
    out->duration = A * q / w1 * pow(v0 / w1, q - 1) * feng_duration_integral(q, (1 - q) * b);
    out->dt_crit = 4 / (p + 1) * A / w0 * scale;
    out->dt_crit_ratio = 2 / clink_feng_beta(1 / (p + 1), 0.5);
    return CLINK_OK;
}
