/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The hydrodynamic force of a journal bearing (include/clink/lubrication.h), from Reynolds'
 * equation with h = c (1 + eps cos theta), theta from the thickest film in the direction of
 * rotation, the film's pressure integrated over the pi-film 0 < theta < pi (Gumbel's
 * half-Sommerfeld condition) with the integrals of Booker:
 * int sin^2 / (1 + eps cos)^3 = pi / (2 (1 - eps^2)^(3/2)), int sin cos / (..)^3 =
 * -2 eps / (1 - eps^2)^2, int cos^2 / (..)^3 = pi (1 + 2 eps^2) / (2 (1 - eps^2)^(5/2)).
 *
 * Short bearing (Ocvirk; Pinkus and Sternlicht 1961): no circumferential pressure flow,
 *   p(theta, z) = 6 mu c / h^3 [eps_dot cos theta - eps Omega / 2 sin theta] (z^2 - L^2 / 4),
 * integrated over the axial length (the z integral gives -L^3 / 6). Its sign is that of
 * -g, g = eps_dot cos theta - eps Omega / 2 sin theta = rho cos(theta - alpha), so Gumbel's
 * condition (negative pressures set to zero) keeps exactly the half alpha + pi/2 < theta <
 * alpha + 3 pi/2, which turns with the squeeze and the sense of rotation (the pi-film
 * 0 < theta < pi when eps_dot = 0 and Omega > 0; Daniel, Machado and Cavalca 2016 take the
 * film's ends at the pressure's zeros likewise). With I_ab = int over that half of
 * (sin or cos)^a (sin or cos)^b / (1 + eps cos)^3,
 *   F_r = -K (eps_dot I_cc - eps Omega / 2 I_sc),  F_t = -K (eps_dot I_sc - eps Omega / 2 I_ss),
 * K = mu R L^3 / c^2; on the pi-film they are the closed forms below. The integrals on any
 * interval come from Sommerfeld's substitution cos theta = (cos psi - eps) / (1 - eps cos
 * psi), which turns every integrand into a trigonometric polynomial in psi (short_half).
 * Since the pressure is zero at both ends of the half, moving the ends adds nothing to the
 * derivatives: d F / d eps_dot and d F / d Omega are the integrals themselves, and d F / d eps
 * needs the integrals with (1 + eps cos)^4 (J_abc).
 *
 * Long bearing (Sommerfeld; Pinkus and Sternlicht 1961, the form of Flores et al. 2009): no
 * axial flow, d/dtheta (h^3 dp/dtheta) = 12 mu R^2 c (eps_dot cos theta - eps Omega / 2
 * sin theta), p = 0 at both ends of the pi-film (theta = 0 and pi; this fixes the constant
 * of h^3 p' = 12 mu R^2 c (eps_dot sin + eps Omega / 2 cos + C)); its forces
 *   F_r = -12 K' [ eps^2 Omega / ((2 + eps^2)(1 - eps^2))
 *                  + eps_dot (pi / 2 - 8 / (pi (2 + eps^2))) / (1 - eps^2)^(3/2) ]
 *   F_t =  12 K' [ pi eps Omega / (2 (2 + eps^2) sqrt(1 - eps^2))
 *                  + 2 eps eps_dot / ((2 + eps^2)(1 - eps^2)) ],   K' = mu R^3 L / c^2.
 * tests/contact/test_lubrication.c integrates both pressure fields itself.
 *
 * The papers' fixed pi-film (film="pi", LUBRICATION_SHORT_PI): the short bearing's closed
 * forms above taken on 0 < theta < pi whatever the signs of eps_dot and Omega (short_pi);
 * where Omega < 0 its radial rotation term is positive, the journal pulled outwards (the
 * film integrated over the sub-ambient half): docs/contact-laws.md.
 *
 * Both forces are linear in eps_dot and Omega, F = A(eps) Omega + B(eps) eps_dot: their
 * derivatives in (eps, eps_dot, Omega) (lubrication_film) are A' Omega + B' eps_dot, B, A.
 */
#include "contact/lubrication.h"
#include "clink/lubrication.h"

#include <math.h>
#include <stddef.h>

#define LUB_PI 3.14159265358979323846

static int lub_ok(double mu, double R, double L, double c, double eps)
{
    return mu > 0 && R > 0 && L > 0 && c > 0 && isfinite(mu) && isfinite(R) && isfinite(L) &&
           isfinite(c) && eps >= 0 && eps < 1;
}

static void long_force(double K, double eps, double eps_dot, double Omega, double *F_r, double *F_t)
{
    double s = 1.0 - eps * eps, q = 2.0 + eps * eps, rs = sqrt(s);
    *F_r = -12.0 * K *
           (eps * eps * Omega / (q * s) + eps_dot * (0.5 * LUB_PI - 8.0 / (LUB_PI * q)) / (s * rs));
    *F_t = 12.0 * K * (LUB_PI * eps * Omega / (2.0 * q * rs) + 2.0 * eps * eps_dot / (q * s));
}

/* psi of theta under Sommerfeld's substitution, continued over every turn (psi = theta at
   multiples of pi) */
static double short_psi(double theta, double eps)
{
    double k = nearbyint(theta / (2.0 * LUB_PI)), phi = theta - 2.0 * LUB_PI * k;
    return 2.0 * atan2(sqrt(1.0 - eps) * sin(0.5 * phi), sqrt(1.0 + eps) * cos(0.5 * phi)) +
           2.0 * LUB_PI * k;
}

/* the antiderivatives in psi (x = cos psi - eps): of sin^2, sin x, x^2 (over (1 + eps cos)^3)
   and x^3, sin x^2, sin^2 x (over (1 + eps cos)^4), without their powers of s = 1 - eps^2 */
static void short_antiderivatives(double p, double eps, double A[6])
{
    double sn = sin(p), cs = cos(p), s2 = sin(2.0 * p), x = cs - eps;
    A[0] = 0.5 * p - 0.25 * s2;
    A[1] = 0.5 * sn * sn + eps * cs;
    A[2] = 0.5 * p + 0.25 * s2 - 2.0 * eps * sn + eps * eps * p;
    A[3] = sn - sn * sn * sn / 3.0 - 3.0 * eps * (0.5 * p + 0.25 * s2) + 3.0 * eps * eps * sn -
           eps * eps * eps * p;
    A[4] = -x * x * x / 3.0;
    A[5] = sn * sn * sn / 3.0 - eps * (0.5 * p - 0.25 * s2);
}

/* the short bearing's force and its derivatives on the half of positive pressure (the file
   comment) */
static void short_half(double K, double eps, double eps_dot, double Omega, lubrication_force *o)
{
    double w = 0.5 * eps * Omega, alpha = atan2(-w, eps_dot);
    double pa = short_psi(alpha + 0.5 * LUB_PI, eps), pb = short_psi(alpha + 1.5 * LUB_PI, eps);
    double a[6], b[6], s = 1.0 - eps * eps, rs = sqrt(s);
    short_antiderivatives(pa, eps, a);
    short_antiderivatives(pb, eps, b);
    double Iss = (b[0] - a[0]) / (s * rs), Isc = (b[1] - a[1]) / (s * s);
    double Icc = (b[2] - a[2]) / (s * s * rs), Jccc = (b[3] - a[3]) / (s * s * s * rs);
    double Jscc = (b[4] - a[4]) / (s * s * s), Jssc = (b[5] - a[5]) / (s * s * rs);
    o->F[0] = -K * (eps_dot * Icc - w * Isc);
    o->F[1] = -K * (eps_dot * Isc - w * Iss);
    o->dF[0][0] = K * (0.5 * Omega * Isc + 3.0 * (eps_dot * Jccc - w * Jscc));
    o->dF[1][0] = K * (0.5 * Omega * Iss + 3.0 * (eps_dot * Jscc - w * Jssc));
    o->dF[0][1] = -K * Icc;
    o->dF[1][1] = -K * Isc;
    o->dF[0][2] = 0.5 * K * eps * Isc;
    o->dF[1][2] = 0.5 * K * eps * Iss;
}

clink_status clink_short_bearing_force(double mu, double R, double L, double c, double eps,
                                       double eps_dot, double Omega, double *F_r, double *F_t)
{
    if (F_r == NULL || F_t == NULL)
        return CLINK_ERR_ARG;
    *F_r = *F_t = NAN;
    if (!lub_ok(mu, R, L, c, eps) || !isfinite(eps_dot) || !isfinite(Omega))
        return CLINK_ERR_RANGE;
    lubrication_force o;
    short_half(mu * R * L * L * L / (c * c), eps, eps_dot, Omega, &o);
    *F_r = o.F[0];
    *F_t = o.F[1];
    return CLINK_OK;
}

clink_status clink_long_bearing_force(double mu, double R, double L, double c, double eps,
                                      double eps_dot, double Omega, double *F_r, double *F_t)
{
    if (F_r == NULL || F_t == NULL)
        return CLINK_ERR_ARG;
    *F_r = *F_t = NAN;
    if (!lub_ok(mu, R, L, c, eps) || !isfinite(eps_dot) || !isfinite(Omega))
        return CLINK_ERR_RANGE;
    long_force(mu * R * R * R * L / (c * c), eps, eps_dot, Omega, F_r, F_t);
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

double clink_long_bearing_load(double mu, double omega, double R, double L, double c, double eps)
{
    double s;

    if (!lub_ok(mu, R, L, c, eps) || !isfinite(omega))
        return NAN;
    s = 1.0 - eps * eps;
    return 6.0 * mu * omega * R * R * R * L / (c * c) * eps *
           sqrt(LUB_PI * LUB_PI - eps * eps * (LUB_PI * LUB_PI - 4.0)) / ((2.0 + eps * eps) * s);
}

double clink_long_bearing_attitude(double eps)
{
    if (!(eps > 0 && eps < 1))
        return NAN;
    return atan2(LUB_PI * sqrt(1.0 - eps * eps), 2.0 * eps);
}

/* the long bearing's coefficients A, B (F = A Omega + B eps_dot) differentiated in eps */
static void long_slopes(double K, double eps, double dA[2], double dB[2])
{
    double e2 = eps * eps, s = 1.0 - e2, rs = sqrt(s), q = 2.0 + e2, qs = q * s;
    double g = 0.5 * LUB_PI - 8.0 / (LUB_PI * q), dg = 16.0 * eps / (LUB_PI * q * q);
    dA[0] = -24.0 * K * eps * (2.0 + e2 * e2) / (qs * qs);
    dB[0] = -12.0 * K * (dg * s + 3.0 * eps * g) / (s * s * rs);
    dA[1] = 6.0 * K * LUB_PI * (2.0 - e2 + 2.0 * e2 * e2) / (q * q * s * rs);
    dB[1] = 24.0 * K * (2.0 + e2 + 3.0 * e2 * e2) / (qs * qs);
}

/* the short bearing on the fixed pi-film (the papers' closed form, include/clink/
   lubrication.h) and its derivatives, s = 1 - eps^2:
   d(eps^2 / s^2) = 2 eps (1 + eps^2) / s^3, d((1 + 2 eps^2) / s^(5/2)) = eps (9 + 6 eps^2) /
   s^(7/2), d(eps / s^(3/2)) = (1 + 2 eps^2) / s^(5/2), d(eps / s^2) = (1 + 3 eps^2) / s^3 */
static void short_pi(double K, double eps, double eps_dot, double Omega, lubrication_force *o)
{
    double e2 = eps * eps, s = 1.0 - e2, rs = sqrt(s), s2 = s * s, s3 = s2 * s;
    double ar = e2 / s2, br = LUB_PI * (1.0 + 2.0 * e2) / (2.0 * s2 * rs);
    double at = LUB_PI * eps / (4.0 * s * rs), bt = 2.0 * eps / s2;
    o->F[0] = -K * (ar * Omega + br * eps_dot);
    o->F[1] = K * (at * Omega + bt * eps_dot);
    o->dF[0][0] = -K * (2.0 * eps * (1.0 + e2) / s3 * Omega +
                        0.5 * LUB_PI * eps * (9.0 + 6.0 * e2) / (s3 * rs) * eps_dot);
    o->dF[1][0] = K * (0.25 * LUB_PI * (1.0 + 2.0 * e2) / (s2 * rs) * Omega +
                       2.0 * (1.0 + 3.0 * e2) / s3 * eps_dot);
    o->dF[0][1] = -K * br;
    o->dF[1][1] = K * bt;
    o->dF[0][2] = -K * ar;
    o->dF[1][2] = K * at;
}

int lubrication_film(int theory, double mu, double R, double L, double c, double eps,
                     double eps_dot, double Omega, lubrication_force *out)
{
    double dA[2], dB[2], Ar, Br, At, Bt;
    int is_long = theory == CLINK_LUBRICATION_LONG;
    if (!lub_ok(mu, R, L, c, eps) || !isfinite(eps_dot) || !isfinite(Omega))
        return -1;
    double K = is_long ? mu * R * R * R * L / (c * c) : mu * R * L * L * L / (c * c);
    if (theory == LUBRICATION_SHORT_PI) {
        short_pi(K, eps, eps_dot, Omega, out);
        return isfinite(out->F[0]) && isfinite(out->F[1]) ? 0 : -1;
    }
    if (!is_long) {
        short_half(K, eps, eps_dot, Omega, out);
        return isfinite(out->F[0]) && isfinite(out->F[1]) ? 0 : -1;
    }
    long_force(K, eps, eps_dot, Omega, &out->F[0], &out->F[1]);
    long_force(K, eps, 0.0, 1.0, &Ar, &At);
    long_force(K, eps, 1.0, 0.0, &Br, &Bt);
    long_slopes(K, eps, dA, dB);
    out->dF[0][0] = dA[0] * Omega + dB[0] * eps_dot;
    out->dF[0][1] = Br;
    out->dF[0][2] = Ar;
    out->dF[1][0] = dA[1] * Omega + dB[1] * eps_dot;
    out->dF[1][1] = Bt;
    out->dF[1][2] = At;
    return isfinite(out->F[0]) && isfinite(out->F[1]) ? 0 : -1;
}

void lubrication_centre(int theory, double mu, double R, double L, double c, const double ed[2],
                        double f[2])
{
    if (theory == CLINK_LUBRICATION_LONG) {
        double k = 12.0 * mu * R * R * R * L / (c * c) * (0.5 * LUB_PI - 4.0 / LUB_PI) / c;
        f[0] = -k * ed[0];
        f[1] = -k * ed[1];
        return;
    }
    /* -pi K e' / (2 c), K = mu R L^3 / c^2 */
    double k = mu * R * L * L * L / (c * c);
    f[0] = -LUB_PI * k * ed[0] / (2.0 * c);
    f[1] = -LUB_PI * k * ed[1] / (2.0 * c);
}
