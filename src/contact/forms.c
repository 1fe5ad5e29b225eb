/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Contact parameters, stiffness from materials and geometry, and the closed forms
 * the laws and the laboratory share:
 *
 *   Hertz stiffness (Alves et al. 2015, Eqs. 3-4)  K = 4 / (3 (s1 + s2)) sqrt(R*),
 *       s_k = (1 - nu_k^2) / E_k, 1/R* = 1/R1 + 1/R2 (R < 0: concave, journal bearing);
 *   undamped power-law impact            delta_max = ((n+1) m v^2 / (2 K))^(1/(n+1));
 *   linear damping ratio                 xi(e) = -ln e / sqrt(pi^2 + ln^2 e);
 *   Kelvin-Voigt with zero-force separation (Butcher and Segalman (2000), Poursina and
 *       Nikravesh (2020), Eq. 55, corrected in the readings in docs/contact-laws.md);
 *   Poursina-Nikravesh optimal damping (Poursina and Nikravesh 2020, Eqs. 46, 47, 49);
 *   exact Hunt-Crossley calibration d(e) (Poursina and Nikravesh 2020, Eqs. 18-19).
 */
#include "contact/law_table.h"
#include "contact/material.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- parameters ------------------------------------------------------------- */

void clink_contact_params_init(clink_contact_params *params)
{
    size_t i;

    if (params == NULL)
        return;
    memset(params, 0, sizeof(*params));
    for (i = 0; i < clink_contact_param_count(); i++)
        *(double *) ((char *) params + clink_contact_param_at(i)->offset) = NAN;
}

clink_status clink_contact_params_set(clink_contact_params *params, const char *key, double value)
{
    if (params == NULL || key == NULL)
        return CLINK_ERR_ARG;
    const clink_contact_param *d = clink_contact_param_find(key);
    if (d == NULL)
        return CLINK_ERR_NOT_FOUND;
    /* a plane is a radius of +infinity; nothing else may be non-finite */
    if (!isfinite(value) &&
        !((strcmp(key, "R1") == 0 || strcmp(key, "R2") == 0) && value == INFINITY))
        return CLINK_ERR_NONFINITE;
    *(double *) ((char *) params + d->offset) = value;
    return CLINK_OK;
}

size_t clink_contact_params_key_count(void)
{
    return clink_contact_param_count();
}

const char *clink_contact_params_key(size_t i)
{
    return i < clink_contact_param_count() ? clink_contact_param_at(i)->key : NULL;
}

void clink_contact_state_init(clink_contact_state *state)
{
    if (state != NULL)
        memset(state, 0, sizeof(*state));
}

/* ---- stiffness and mass ----------------------------------------------------- */

int contact_modulus_ok(double E)
{
    return isfinite(E) && E > 0;
}

int contact_poisson_ok(double nu)
{
    return nu > -1 && nu < 0.5;
}

int contact_yield_ok(double Y)
{
    return isfinite(Y) && Y > 0;
}

static int material_ok(double E, double nu)
{
    return contact_modulus_ok(E) && contact_poisson_ok(nu);
}

clink_status clink_contact_stiffness_hertz(double E1, double nu1, double E2, double nu2, double R1,
                                           double R2, double *K)
{
    double s, curv;

    if (K == NULL)
        return CLINK_ERR_ARG;
    if (!material_ok(E1, nu1) || !material_ok(E2, nu2) || isnan(R1) || isnan(R2) || R1 == 0 ||
        R2 == 0 || R1 == -INFINITY || R2 == -INFINITY)
        return CLINK_ERR_RANGE;
    /* curvature sum 1/R1 + 1/R2 (1/INFINITY = 0); must be positive for a contact */
    curv = 1.0 / R1 + 1.0 / R2;
    if (!(curv > 0) || !isfinite(curv))
        return CLINK_ERR_RANGE;
    s = (1 - nu1 * nu1) / E1 + (1 - nu2 * nu2) / E2;
    *K = 4.0 / (3.0 * s) * sqrt(1.0 / curv);
    return CLINK_OK;
}

clink_status clink_contact_stiffness_sphere_plane(double E1, double nu1, double E2, double nu2,
                                                  double R, double *K)
{
    if (!(R > 0) || !isfinite(R))
        return CLINK_ERR_RANGE;
    return clink_contact_stiffness_hertz(E1, nu1, E2, nu2, R, INFINITY, K);
}

clink_status clink_contact_stiffness_journal_bearing(double E1, double nu1, double E2, double nu2,
                                                     double R_journal, double R_bearing, double *K)
{
    double s;

    if (K == NULL)
        return CLINK_ERR_ARG;
    if (!material_ok(E1, nu1) || !material_ok(E2, nu2) || !(R_journal > 0) ||
        !isfinite(R_bearing) || !(R_bearing > R_journal))
        return CLINK_ERR_RANGE;
    /* written as in the clearance-joint literature; equals hertz(R1, -R_bearing) */
    s = (1 - nu1 * nu1) / E1 + (1 - nu2 * nu2) / E2;
    *K = 4.0 / (3.0 * s) * sqrt(R_journal * R_bearing / (R_bearing - R_journal));
    return CLINK_OK;
}

clink_status clink_contact_params_stiffness(const clink_contact_params *params, double *K,
                                            char *msg, size_t msg_size)
{
    if (params == NULL || K == NULL)
        return CLINK_ERR_ARG;
    if (CONTACT_GIVEN(params->K)) {
        if (!(params->K > 0) || !isfinite(params->K)) {
            if (msg != NULL && msg_size > 0)
                snprintf(msg, msg_size, "K: %g is out of range; K > 0 (N/m^n)", params->K);
            return CLINK_ERR_RANGE;
        }
        *K = params->K;
        return CLINK_OK;
    }
    if (CONTACT_GIVEN(params->E1) && CONTACT_GIVEN(params->E2) && CONTACT_GIVEN(params->nu1) &&
        CONTACT_GIVEN(params->nu2) && CONTACT_GIVEN(params->R1) && CONTACT_GIVEN(params->R2)) {
        if (clink_contact_stiffness_hertz(params->E1, params->nu1, params->E2, params->nu2,
                                          params->R1, params->R2, K) == CLINK_OK)
            return CLINK_OK;
        if (msg != NULL && msg_size > 0)
            snprintf(msg, msg_size,
                     "K: materials out of range; E1, E2 > 0 (Pa), -1 < nu1, nu2 < 0.5, "
                     "R1, R2 nonzero (m, INFINITY for a plane, negative concave) with "
                     "1/R1 + 1/R2 > 0");
        return CLINK_ERR_RANGE;
    }
    if (msg != NULL && msg_size > 0)
        snprintf(msg, msg_size,
                 "K: missing; give K > 0 (N/m^n) or all of E1, E2 (Pa), nu1, nu2, R1, R2 (m)");
    return CLINK_ERR_ARG;
}

double clink_contact_effective_mass(double m1, double m2)
{
    if (!(m1 > 0) || !(m2 > 0))
        return NAN;
    if (isinf(m1) && isinf(m2))
        return NAN;
    if (isinf(m1))
        return m2;
    if (isinf(m2))
        return m1;
    return m1 * m2 / (m1 + m2);
}

/* ---- closed forms ----------------------------------------------------------- */

double clink_contact_undamped_delta_max(double K, double n, double m, double v)
{
    if (!(K > 0) || !(n >= 1) || !(m > 0) || !(v >= 0) || !isfinite(K) || !isfinite(n) ||
        !isfinite(m) || !isfinite(v))
        return NAN;
    /* energy balance m v^2 / 2 = K delta_max^(n+1) / (n+1) */
    return pow((n + 1) * m * v * v / (2 * K), 1 / (n + 1));
}

double clink_contact_undamped_force_max(double K, double n, double m, double v)
{
    double d = clink_contact_undamped_delta_max(K, n, m, v);

    return isnan(d) ? NAN : K * pow(d, n);
}

double clink_contact_damping_ratio(double e)
{
    double l;

    if (!(e > 0) || !(e <= 1))
        return NAN;
    l = log(e); /* <= 0; -l / sqrt(pi^2 + l^2) written so that e -> 0 stays finite */
    if (l == 0)
        return 0;
    return 1.0 / sqrt(1.0 + (CONTACT_PI / l) * (CONTACT_PI / l));
}

double clink_contact_kv_restitution_zero_force(double xi)
{
    double s;

    if (!(xi >= 0) || !isfinite(xi))
        return NAN;
    if (xi == 0)
        return 1;
    if (fabs(xi - 1) < 1e-6) {
        /* both branches tend to exp(-2); first-order expansion in (xi - 1): the
           exponent -2 xi g(xi), g = acos(xi)/sqrt(1-xi^2) = 1 - (xi - 1)/3 + ... */
        double d = xi - 1;
        return exp(-2 * (1 + d) * (1 - d / 3));
    }
    if (xi < 1) {
        s = sqrt(1 - xi * xi);
        return exp(-2 * xi * acos(xi) / s);
    }
    s = sqrt(xi * xi - 1);
    /* ((xi - s)/(xi + s))^(xi/s); xi - s = 1/(xi + s) avoids cancellation */
    return exp(xi / s * (-2 * log(xi + s)));
}

double clink_contact_poursina_alpha(double n)
{
    if (!isfinite(n))
        return NAN;
    return (((0.3331 * n - 1.48) * n + 3.077) * n - 2.306) * n + 1.794;
}

double clink_contact_poursina_beta(double n)
{
    if (!(n > 0) || !isfinite(n))
        return NAN;
    return 1.285 * pow(n, 0.2553) - 1.725;
}

double clink_contact_poursina_c_opt(double e, double n, double K, double v, double m)
{
    if (!(e > 0) || !(e <= 1) || !(n >= 1) || !(K > 0) || !(v >= 0) || !(m > 0) || !isfinite(n) ||
        !isfinite(K) || !isfinite(v) || !isfinite(m))
        return NAN;
    return clink_contact_poursina_alpha(n) * (pow(e, clink_contact_poursina_beta(n)) - 1) *
           pow(K * pow(v, n - 1) * pow(m, n), 1 / (n + 1));
}

/*
 * g(d) = ln(1 + d/e) - ln(1 - d) - d (1 + 1/e), whose root in (0, 1) is d(e):
 * g(0) = g'(0) = 0, g''(0) = 1 - 1/e^2 < 0 and g -> +inf as d -> 1, so g < 0 below
 * the root and > 0 above it. For small d the terms cancel to O(d^2); there
 * g(d) / d^2 = sum_{k>=2} d^(k-2) (1 + (-1)^(k+1) e^-k) / k is summed instead
 * (convergent for d < e).
 */
static double gonthier_g_sign(double d, double e)
{
    if (d < 0.1 * e) {
        double sum = -(1 - e) * (1 + e) / (2 * e * e); /* k = 2 term, no cancellation */
        double dk = 1, ek = 1 / (e * e);
        int k;

        for (k = 3; k < 60; k++) {
            double term;

            dk *= d;
            ek /= -e; /* (-1)^(k+1) e^-k for k >= 3 starts at +e^-3 */
            term = dk * (1 + (k % 2 == 1 ? fabs(ek) : -fabs(ek))) / k;
            sum += term;
            if (fabs(term) < 1e-18 * fabs(sum))
                break;
        }
        return sum;
    }
    return log1p(d / e) - log1p(-d) - d * (1 + 1 / e);
}

double clink_contact_gonthier_d(double e)
{
    double lo = 0, hi = 1;
    int i;

    if (!(e > 0) || !(e <= 1))
        return NAN;
    if (e == 1)
        return 0;
    /* bisection on the sign of g: robust for every e in (0, 1); 200 halvings reach
       adjacent doubles whatever the size of d */
    for (i = 0; i < 2000; i++) {
        double mid = 0.5 * (lo + hi);

        if (mid <= lo || mid >= hi)
            break;
        if (gonthier_g_sign(mid, e) < 0)
            lo = mid;
        else
            hi = mid;
    }
    /* lo and hi are adjacent doubles around the root; lo < 1 always */
    return lo;
}
