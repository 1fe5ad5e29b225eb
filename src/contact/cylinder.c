/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Conformal cylinder contact laws: two cylinders of axial length L with parallel axes,
 * a journal of radius Rj in a bearing of radius Rb (internal, clearance dR = Rb - Rj)
 * or two convex cylinders R1, R2 (external, dR = R1 + R2), as compared by Pereira,
 * Ramalho and Ambrosio (2011). E* = 1 / ((1 - nu1^2)/E1 + (1 - nu2^2)/E2), relative
 * radius R* = Rj Rb / dR (internal) or R1 R2 / (R1 + R2) (external). The elastic forces:
 *
 *   johnson-cylinder        delta = F / (pi L E*) [ln(4 pi L E* dR / F) - 1]   (Johnson 1985)
 *   radzimovsky             delta = F / (pi L E*) [2/3 + ln(4 R1 / b) + ln(4 R2 / b)],
 *                           b = sqrt(4 F R* / (pi L E*)) the Hertz half-width (Radzimovsky)
 *   goldsmith               delta = F / (pi L E*) [ln(pi E* L^3 / (F R*)) + 1]  (Goldsmith 1960)
 *   esdu-78035              delta = F / (L E*) [ln(4 pi L E* dR / F) + 1]       (ESDU-78035 1978)
 *   dubowsky-freudenstein   delta = F / (pi L E*) [ln(pi E* L^3 dR / (F Rj Rb)) + 1]
 *   lankarani-flores-cylinder  F = 4/3 E* sqrt(R*) delta^(3/2) (the sphere form with the
 *                           journal's R*, Lankarani and Nikravesh 1990, Flores et al. 2006)
 *   pereira                 F = (a dR + b) L E* delta^n / dR in mm and N/mm^2 (Pereira et al.
 *                           2011): internal a = 0.965, b = 0.0965 mm, n = Y dR^(-0.005),
 *                           Y = 1.51 (ln(1000 dR))^(-0.151) for 0.005 <= dR <= 0.34954 mm,
 *                           Y = 0.0151 dR + 1.151 for 0.34954 <= dR <= 10 mm; external
 *                           a = 0.39, b = 0.85 mm, n = 1.094
 *   liu-zhang-wang          F = pi/2 E* L delta sqrt(delta / (2 (dR + delta)))  (Liu et al. 2006)
 *   bai-zhao                F = K_n delta^(3/2), K_n = pi/8 E* sqrt(2 delta (3 dR + 2 delta)^2
 *                           / (dR + delta)^3)  (Bai and Zhao 2012, as printed: SI units)
 *
 * The five logarithmic laws share the implicit form delta = A F (ln(B / F) + c), solved for F
 * by a bracketed Newton iteration (contact_cylinder_solve_log): delta(F) is concave and has
 * its maximum delta_limit = A B e^(c - 1) at F_limit = B e^(c - 1) (the load limit of
 * Pereira et al. 2011); beyond it no force exists and the law gives NaN. Damping, the
 * Lankarani-Nikravesh hysteresis that Pereira et al. (2011) and Bai and Zhao (2012) use:
 * F = F_el(delta) (1 + chi delta_dot), chi = 3 (1 - e^2) / (4 v) fixed at onset, or chi
 * given (s/m). The energy stored, integral_0^delta F_el: delta F / 2 - A F^2 / 4 for the
 * logarithmic laws (from integrating delta(F) by parts), K delta^(n+1) / (n+1) for the power
 * laws, Gauss-Legendre quadrature in s = delta t^2 for Liu's and Bai-Zhao's.
 * The rows' n (clink_law_info.n_default) is the leading exponent at small delta, for
 * information: 1 for the logarithmic laws and Pereira's (whose n comes from the clearance),
 * 3/2 for Lankarani-Flores and Liu et al., 2 for Bai-Zhao; it cannot be set.
 * The formulas as read: docs/contact-laws.md, "Cylinder laws".
 */
#include "contact/cylinder.h"
#include "contact/law_private.h"
#include "contact/material.h"

#include <math.h>
#include <stdio.h>

/* ---- the pair ------------------------------------------------------------------------ */

int contact_cylinder_pair_of(const clink_contact_params *p, contact_cylinder_pair *q)
{
    double r1 = p->R1, r2 = p->R2;

    if (!contact_modulus_ok(p->E1) || !contact_modulus_ok(p->E2) || !contact_poisson_ok(p->nu1) ||
        !contact_poisson_ok(p->nu2) || !isfinite(r1) || !isfinite(r2) || r1 == 0.0 || r2 == 0.0 ||
        (r1 < 0.0 && r2 < 0.0))
        return -1;
    q->internal = r1 < 0.0 || r2 < 0.0;
    if (q->internal) {
        q->Rj = r1 > 0.0 ? r1 : r2;
        q->Rb = r1 > 0.0 ? -r2 : -r1;
        q->dR = q->Rb - q->Rj;
        if (!(q->dR > 0.0))
            return -1;
    } else {
        q->Rj = r1;
        q->Rb = r2;
        q->dR = r1 + r2;
    }
    q->Rs = q->Rj * q->Rb / q->dR;
    q->Es = 1.0 / ((1.0 - p->nu1 * p->nu1) / p->E1 + (1.0 - p->nu2 * p->nu2) / p->E2);
    q->L = p->L;
    return 0;
}

/* ---- the implicit logarithmic laws ------------------------------------------------------ */

double contact_cylinder_solve_log(double A, double B, double c, double delta, int *iterations)
{
    double F_limit = B * exp(c - 1.0), lo = 0.0, hi = F_limit, F, x;

    if (iterations != NULL)
        *iterations = 0;
    if (!(delta > 0.0))
        return 0.0;
    if (!(delta <= A * F_limit) || !(A > 0.0) || !(B > 0.0))
        return NAN; /* beyond the load limit: no force has this penetration */
    /* first guess: one fixed-point step of F = delta / (A (ln(B / F) + c)) from F = delta / A */
    x = log(B * A / delta) + c;
    F = x > 1.0 ? delta / (A * x) : 0.5 * F_limit;
    if (!(F > 0.0 && F < F_limit))
        F = 0.5 * F_limit;
    for (int k = 1; k <= 100; k++) {
        double lg = log(B / F) + c, g = A * F * lg - delta, gp = A * (lg - 1.0), Fn;

        if (iterations != NULL)
            *iterations = k;
        if (g == 0.0)
            return F;
        if (g > 0.0)
            hi = F;
        else
            lo = F;
        Fn = gp > 0.0 ? F - g / gp : NAN;
        if (!(Fn > lo && Fn < hi))
            Fn = 0.5 * (lo + hi); /* Newton left the bracket: bisect */
        if (fabs(Fn - F) <= CONTACT_CYLINDER_RTOL * Fn || hi - lo <= CONTACT_CYLINDER_RTOL * hi)
            return Fn;
        F = Fn;
    }
    return NAN; /* not converged: said, not guessed */
}

enum cyl_form {
    CYL_JOHNSON,
    CYL_RADZIMOVSKY,
    CYL_GOLDSMITH,
    CYL_ESDU,
    CYL_DUBOWSKY,
    CYL_LANKARANI,
    CYL_PEREIRA,
    CYL_LIU,
    CYL_BAI_ZHAO
};

extern const struct clink_law clink_law_johnson_cylinder, clink_law_radzimovsky,
    clink_law_goldsmith, clink_law_esdu_78035, clink_law_dubowsky_freudenstein,
    clink_law_lankarani_flores, clink_law_pereira, clink_law_liu_zhang_wang, clink_law_bai_zhao;

static enum cyl_form form_of(const struct clink_law *law)
{
    const struct clink_law *const rows[] = {
        &clink_law_johnson_cylinder, &clink_law_radzimovsky,           &clink_law_goldsmith,
        &clink_law_esdu_78035,       &clink_law_dubowsky_freudenstein, &clink_law_lankarani_flores,
        &clink_law_pereira,          &clink_law_liu_zhang_wang,        &clink_law_bai_zhao};
    for (int i = 0; i < (int) (sizeof rows / sizeof rows[0]); i++)
        if (rows[i] == law)
            return (enum cyl_form) i;
    return CYL_JOHNSON;
}

/* the constants A (m/N), B (N), c of delta = A F (ln(B / F) + c); 0, or -1 for a power law */
static int log_coefficients(enum cyl_form f, const contact_cylinder_pair *q, double *A, double *B,
                            double *c)
{
    double piLE = CONTACT_PI * q->L * q->Es;

    *A = 1.0 / piLE;
    switch (f) {
    case CYL_JOHNSON:
        *B = 4.0 * piLE * q->dR;
        *c = -1.0;
        return 0;
    case CYL_RADZIMOVSKY: /* ln(4 R1 / b) + ln(4 R2 / b) = ln(16 R1 R2 / b^2) */
        *B = 4.0 * piLE * q->Rj * q->Rb / q->Rs;
        *c = 2.0 / 3.0;
        return 0;
    case CYL_GOLDSMITH:
        *B = CONTACT_PI * q->Es * q->L * q->L * q->L / q->Rs;
        *c = 1.0;
        return 0;
    case CYL_DUBOWSKY:
        *B = CONTACT_PI * q->Es * q->L * q->L * q->L * q->dR / (q->Rj * q->Rb);
        *c = 1.0;
        return 0;
    case CYL_ESDU:
        *A = 1.0 / (q->L * q->Es);
        *B = 4.0 * piLE * q->dR;
        *c = 1.0;
        return 0;
    case CYL_LANKARANI:
    case CYL_PEREIRA:
    case CYL_LIU:
    case CYL_BAI_ZHAO:
        break;
    }
    return -1;
}

/* Pereira et al. (2011): the exponent n and the factor K (N/m^n) of F = K delta^n */
static void pereira_constants(const contact_cylinder_pair *q, double *K, double *n)
{
    double dr = 1e3 * q->dR, a, b; /* mm */

    if (q->internal) {
        double Y = dr <= 0.34954 ? 1.51 * pow(log(1000.0 * dr), -0.151) : 0.0151 * dr + 1.151;
        a = 0.965;
        b = 0.0965;
        *n = Y * pow(dr, -0.005);
    } else {
        a = 0.39;
        b = 0.85;
        *n = 1.094;
    }
    /* F (N) = (a dr + b) / dr L (mm) E* (N/mm^2) delta (mm)^n, delta in m */
    *K = (a * dr + b) / dr * (1e3 * q->L) * (1e-6 * q->Es) * pow(1e3, *n);
}

/* the elastic force F_el(delta) of an explicit law, N */
static double explicit_force(enum cyl_form f, const contact_cylinder_pair *q, double d)
{
    double K, n;

    switch (f) {
    case CYL_LANKARANI:
        return 4.0 / 3.0 * q->Es * sqrt(q->Rs) * d * sqrt(d);
    case CYL_PEREIRA:
        pereira_constants(q, &K, &n);
        return K * pow(d, n);
    case CYL_LIU:
        return 0.5 * CONTACT_PI * q->Es * q->L * d * sqrt(d / (2.0 * (q->dR + d)));
    case CYL_BAI_ZHAO: {
        double s = 3.0 * q->dR + 2.0 * d, r = q->dR + d;
        return 0.125 * CONTACT_PI * q->Es * sqrt(2.0 * d * s * s / (r * r * r)) * d * sqrt(d);
    }
    case CYL_JOHNSON:
    case CYL_RADZIMOVSKY:
    case CYL_GOLDSMITH:
    case CYL_ESDU:
    case CYL_DUBOWSKY:
        break;
    }
    return NAN;
}

/* F_el(delta) of the law with these params: 0 for delta <= 0, NaN past the load limit */
static double elastic_force(const struct clink_law *law, const clink_contact_params *params,
                            double delta)
{
    contact_cylinder_pair q;
    enum cyl_form f = form_of(law);
    double A, B, c;

    if (!(delta > 0.0))
        return 0.0;
    if (contact_cylinder_pair_of(params, &q) != 0)
        return NAN;
    if (log_coefficients(f, &q, &A, &B, &c) == 0)
        return contact_cylinder_solve_log(A, B, c, delta, NULL);
    return explicit_force(f, &q, delta);
}

/* ---- the hooks ------------------------------------------------------------------------ */

/* the geometry of the pair against the row's; 1 and a complaint if it does not apply */
static int check_geometry(const struct clink_law *law, const clink_contact_params *p, char *msg,
                          size_t size)
{
    int internal = p->R1 < 0.0 || p->R2 < 0.0;

    if (p->R1 < 0.0 && p->R2 < 0.0)
        return contact_law_complain(msg, size,
                                    "R1, R2: both concave (%g, %g m); one cylinder "
                                    "must be convex",
                                    p->R1, p->R2),
               1;
    if (internal && law->geometry == CLINK_LAW_GEOMETRY_CYL_EXTERNAL)
        return contact_law_complain(msg, size,
                                    "R1, R2: law '%s' applies to two convex cylinders "
                                    "(cylinder-external), not to a journal in a bearing",
                                    law->name),
               1;
    if (!internal && law->geometry == CLINK_LAW_GEOMETRY_CYL_INTERNAL)
        return contact_law_complain(msg, size,
                                    "R1, R2: law '%s' applies to a journal in a bearing "
                                    "(cylinder-internal: one radius negative, R2 = -R_bearing); "
                                    "the pair is two convex cylinders (R1 = %g m, R2 = %g m)",
                                    law->name, p->R1, p->R2),
               1;
    if (internal && !(fabs(p->R1 < 0.0 ? p->R1 : p->R2) > (p->R1 < 0.0 ? p->R2 : p->R1)))
        return contact_law_complain(msg, size,
                                    "R1, R2: the bearing (%g m) must be larger than "
                                    "the journal (%g m)",
                                    fabs(fmin(p->R1, p->R2)), fmax(p->R1, p->R2)),
               1;
    return 0;
}

/* Pereira et al.'s fit: internal clearances 0.005 mm <= dR <= 10 mm (the range of Y) */
static int check_pereira(const struct clink_law *law, const clink_contact_params *p, char *msg,
                         size_t size)
{
    contact_cylinder_pair q;

    if (form_of(law) != CYL_PEREIRA || contact_cylinder_pair_of(p, &q) != 0 || !q.internal)
        return 0;
    if (q.dR >= 0.005e-3 && q.dR <= 10e-3)
        return 0;
    return contact_law_complain(msg, size,
                                "R1, R2: clearance %g m is outside the range of law '%s' "
                                "(the fit of Pereira et al. 2011): 5e-06 m <= clearance <= 0.01 m",
                                q.dR, law->name),
           1;
}

/* nonzero for the laws that read the axial length L */
static int reads_L(const struct clink_law *law)
{
    enum cyl_form f = form_of(law);
    return f != CYL_LANKARANI && f != CYL_BAI_ZHAO;
}

/* the materials, radii and L, in this order; 1 with the first problem's complaint */
static int check_pair(const struct clink_law *law, const clink_contact_params *p, char *msg,
                      size_t size)
{
    const char *const mk[] = {"E1", "E2"}, *const nk[] = {"nu1", "nu2"}, *const rk[] = {"R1", "R2"};
    const double E[] = {p->E1, p->E2}, nu[] = {p->nu1, p->nu2}, R[] = {p->R1, p->R2};

    for (int i = 0; i < 2; i++)
        if (!contact_modulus_ok(E[i]))
            return contact_law_complain(msg, size,
                                        "%s: %g is missing or out of range; law '%s' needs %s > 0 "
                                        "(Pa)",
                                        mk[i], E[i], law->name, mk[i]),
                   1;
    for (int i = 0; i < 2; i++)
        if (!contact_poisson_ok(nu[i]))
            return contact_law_complain(msg, size,
                                        "%s: %g is missing or out of range; -1 < %s < 0.5", nk[i],
                                        nu[i], nk[i]),
                   1;
    for (int i = 0; i < 2; i++)
        if (!isfinite(R[i]) || R[i] == 0.0)
            return contact_law_complain(msg, size,
                                        "%s: %g is missing or out of range; law '%s' needs a "
                                        "finite radius != 0 (m; negative: the bearing)",
                                        rk[i], R[i], law->name),
                   1;
    if (reads_L(law) && (!(p->L > 0.0) || !isfinite(p->L)))
        return contact_law_complain(msg, size,
                                    "L: %g is missing or out of range; law '%s' needs the axial "
                                    "length L > 0 (m)",
                                    p->L, law->name),
               1;
    return check_geometry(law, p, msg, size) || check_pereira(law, p, msg, size);
}

/* the damping (e or chi), the options and n; 1 with the first problem's complaint */
static int check_damping_options(const struct clink_law *law, const clink_contact_params *p,
                                 char *msg, size_t size)
{
    if (CONTACT_GIVEN(p->chi) && !(p->chi >= 0.0 && isfinite(p->chi)))
        return contact_law_complain(msg, size, "chi: %g is out of range; chi >= 0 (s/m)", p->chi),
               1;
    if (!CONTACT_GIVEN(p->chi) && !CONTACT_GIVEN(p->e))
        return contact_law_complain(msg, size,
                                    "e: missing; law '%s' needs the restitution e in (0, 1] (or "
                                    "chi >= 0, s/m)",
                                    law->name),
               1;
    if (!CONTACT_GIVEN(p->chi) && !(p->e > 0.0 && p->e <= 1.0))
        return contact_law_complain(msg, size, "e: %g is out of range; 0 < e <= 1", p->e), 1;
    if (CONTACT_GIVEN(p->v_ref) && !(p->v_ref > 0.0 && isfinite(p->v_ref)))
        return contact_law_complain(msg, size, "v_ref: %g is out of range; v_ref > 0 (m/s)",
                                    p->v_ref),
               1;
    if (CONTACT_GIVEN(p->n))
        return contact_law_complain(msg, size,
                                    "n: law '%s' has no exponent to set (the geometry sets the "
                                    "force)",
                                    law->name),
               1;
    return 0;
}

/* the first problem of the params, one line (K, if given, is not read) */
static clink_status cyl_check(const struct clink_law *law, const clink_contact_params *p, char *msg,
                              size_t size)
{
    if (check_pair(law, p, msg, size) || check_damping_options(law, p, msg, size))
        return CLINK_ERR_RANGE;
    return CLINK_OK;
}

static clink_status cyl_onset(const struct clink_law *law, const clink_contact_params *p,
                              double v_impact, double m_eff, clink_contact_state *state)
{
    double v_ref, v;
    clink_status st;

    if (!isfinite(v_impact) || !isfinite(m_eff))
        return CLINK_ERR_NONFINITE;
    if (v_impact < 0 || !(m_eff > 0))
        return CLINK_ERR_RANGE;
    st = clink_law_check(law, p, NULL, 0);
    if (st != CLINK_OK)
        return st;
    v_ref = CONTACT_GIVEN(p->v_ref) ? p->v_ref : CLINK_CONTACT_V_REF_DEFAULT;
    v = v_impact > v_ref ? v_impact : v_ref;
    state->phase = CLINK_CONTACT_COMPRESSION;
    state->v_impact = v_impact;
    state->m_eff = m_eff;
    /* Lankarani-Nikravesh's hysteresis factor, divided by the stiffness: s/m */
    state->chi = CONTACT_GIVEN(p->chi) ? p->chi : 0.75 * (1.0 - p->e * p->e) / v;
    state->c = 0;
    state->delta_max = 0;
    state->F_max = 0;
    state->delta_sep = 0;
    state->K = 0; /* no single stiffness: the force is F_el(delta) of the geometry */
    state->n = 0;
    state->m = NAN;
    return CLINK_OK;
}

static double cyl_force(const struct clink_law *law, const clink_contact_params *p,
                        const clink_contact_state *state, double delta, double delta_dot)
{
    double f;

    if (state->phase == CLINK_CONTACT_OPEN || state->phase == CLINK_CONTACT_RELEASED ||
        !(delta > 0.0))
        return 0;
    f = elastic_force(law, p, delta) * (1.0 + state->chi * delta_dot);
    return f > 0 || isnan(f) ? f : 0;
}

/* Gauss-Legendre nodes and weights on [0, 1], 8 points */
static const double gl_x[8] = {0.019855071751231856, 0.10166676129318664, 0.2372337950418355,
                               0.4082826787521751,   0.5917173212478249,  0.7627662049581645,
                               0.8983332387068134,   0.9801449282487681};
static const double gl_w[8] = {0.05061426814518813, 0.11119051722668724, 0.15685332293894363,
                               0.18134189168918100, 0.18134189168918100, 0.15685332293894363,
                               0.11119051722668724, 0.05061426814518813};

static double cyl_stored(const struct clink_law *law, const clink_contact_params *p,
                         const clink_contact_state *state, double delta)
{
    contact_cylinder_pair q;
    enum cyl_form f = form_of(law);
    double A, B, c, K, n, u = 0.0;

    (void) state;
    if (contact_cylinder_pair_of(p, &q) != 0)
        return NAN;
    if (log_coefficients(f, &q, &A, &B, &c) == 0) {
        double F = contact_cylinder_solve_log(A, B, c, delta, NULL);
        return 0.5 * delta * F - 0.25 * A * F * F;
    }
    if (f == CYL_LANKARANI)
        return 4.0 / 3.0 * q.Es * sqrt(q.Rs) * pow(delta, 2.5) / 2.5;
    if (f == CYL_PEREIRA) {
        pereira_constants(&q, &K, &n);
        return K * pow(delta, n + 1.0) / (n + 1.0);
    }
    /* s = delta t^2: integral_0^1 F(delta t^2) 2 delta t dt, a smooth integrand */
    for (int i = 0; i < 8; i++)
        u += gl_w[i] * explicit_force(f, &q, delta * gl_x[i] * gl_x[i]) * 2.0 * delta * gl_x[i];
    return u;
}

/* ---- the rows ---------------------------------------------------------------------------- */

#define CYL_REQUIRED                                                                               \
    "E1, E2, nu1, nu2, R1, R2 (journal R1 > 0, bearing R2 = -R_bearing < 0), L, e (or chi)"
#define CYL_REQUIRED_NO_L                                                                          \
    "E1, E2, nu1, nu2, R1, R2 (journal R1 > 0, bearing R2 = -R_bearing < 0), e (or chi)"
#define CYL_DAMPING                                                                                \
    "F = F_el (1 + chi delta_dot), chi = 3 (1 - e^2) / (4 v) (Lankarani-Nikravesh), or chi given " \
    "(s/m)"

#define CYL_ROW(sym, nm, ti, fo, ref, geo, req, n0)                                                \
    const struct clink_law sym = {                                                                 \
        .name = nm,                                                                                \
        .aliases = "",                                                                             \
        .title = ti,                                                                               \
        .formula = fo,                                                                             \
        .damping = CYL_DAMPING,                                                                    \
        .reference = ref,                                                                          \
        .required = req,                                                                           \
        .optional = "chi, v_ref",                                                                  \
        .separation_rule = "zero penetration",                                                     \
        .n = n0,                                                                                   \
        .n_max = NAN,                                                                              \
        .m_rule = CLINK_M_FIXED,                                                                   \
        .m = NAN,                                                                                  \
        .rule = CLINK_RULE_HOOK,                                                                   \
        .sep = CLINK_SEP_DELTA,                                                                    \
        .check = cyl_check,                                                                        \
        .onset = cyl_onset,                                                                        \
        .force = cyl_force,                                                                        \
        .stored = cyl_stored,                                                                      \
        .geometry = geo,                                                                           \
    }

#define CYL_LOG_NOTE " (implicit: F by bracketed Newton; NaN past the load limit)"

CYL_ROW(clink_law_johnson_cylinder, "johnson-cylinder", "Johnson (1985), cylinders",
        "delta = F / (pi L E*) [ln(4 pi L E* dR / F) - 1]" CYL_LOG_NOTE,
        "Johnson (1985), pp. 99-104; Pereira, Ramalho and Ambrosio (2011)",
        CLINK_LAW_GEOMETRY_CYL_BOTH, CYL_REQUIRED, 1.0);
CYL_ROW(clink_law_radzimovsky, "radzimovsky", "Radzimovsky (1953)",
        "delta = F / (pi L E*) [2/3 + ln(4 R1 / b) + ln(4 R2 / b)], b = sqrt(4 F R* / (pi L "
        "E*))" CYL_LOG_NOTE,
        "Radzimovsky (1953); Pereira, Ramalho and Ambrosio (2011)", CLINK_LAW_GEOMETRY_CYL_BOTH,
        CYL_REQUIRED, 1.0);
CYL_ROW(clink_law_goldsmith, "goldsmith", "Goldsmith (1960)",
        "delta = F / (pi L E*) [ln(pi E* L^3 / (F R*)) + 1]" CYL_LOG_NOTE,
        "Goldsmith (1960); Pereira, Ramalho and Ambrosio (2011)", CLINK_LAW_GEOMETRY_CYL_BOTH,
        CYL_REQUIRED, 1.0);
CYL_ROW(clink_law_esdu_78035, "esdu-78035", "ESDU-78035 (1978)",
        "delta = F / (L E*) [ln(4 pi L E* dR / F) + 1]" CYL_LOG_NOTE,
        "ESDU-78035 (1978); Pereira, Ramalho and Ambrosio (2011)", CLINK_LAW_GEOMETRY_CYL_BOTH,
        CYL_REQUIRED, 1.0);
CYL_ROW(clink_law_dubowsky_freudenstein, "dubowsky-freudenstein",
        "Dubowsky and Freudenstein (1971)",
        "delta = F / (pi L E*) [ln(pi E* L^3 dR / (F Rj Rb)) + 1]" CYL_LOG_NOTE,
        "Dubowsky and Freudenstein (1971); Pereira, Ramalho and Ambrosio (2011)",
        CLINK_LAW_GEOMETRY_CYL_INTERNAL, CYL_REQUIRED, 1.0);
CYL_ROW(clink_law_lankarani_flores, "lankarani-flores-cylinder",
        "Lankarani and Nikravesh (1990); Flores et al. (2006), journal in bearing",
        "F = 4/3 E* sqrt(Rj Rb / dR) delta^(3/2) (L not read)",
        "Lankarani and Nikravesh (1990); Flores, Ambrosio, Claro and Lankarani (2006); Pereira, "
        "Ramalho and Ambrosio (2011)",
        CLINK_LAW_GEOMETRY_CYL_INTERNAL, CYL_REQUIRED_NO_L, 1.5);
CYL_ROW(clink_law_pereira, "pereira", "Pereira, Ramalho and Ambrosio (2011), power law",
        "F = (a dR + b) L E* delta^n / dR (mm, N/mm^2); internal a = 0.965, b = 0.0965, "
        "n = Y dR^-0.005, Y(dR); external a = 0.39, b = 0.85, n = 1.094",
        "Pereira, Ramalho and Ambrosio (2011)", CLINK_LAW_GEOMETRY_CYL_BOTH, CYL_REQUIRED, 1.0);
CYL_ROW(clink_law_liu_zhang_wang, "liu-zhang-wang", "Liu, Zhang and Wang (2006)",
        "F = pi/2 E* L delta sqrt(delta / (2 (dR + delta)))",
        "Liu, Zhang and Wang (2006); Pereira, Ramalho and Ambrosio (2011)",
        CLINK_LAW_GEOMETRY_CYL_INTERNAL, CYL_REQUIRED, 1.5);
CYL_ROW(clink_law_bai_zhao, "bai-zhao", "Bai and Zhao (2012), hybrid",
        "F = K_n delta^(3/2), K_n = pi/8 E* sqrt(2 delta (3 dR + 2 delta)^2 / (dR + delta)^3) "
        "(SI units, L not read)",
        "Bai and Zhao (2012)", CLINK_LAW_GEOMETRY_CYL_INTERNAL, CYL_REQUIRED_NO_L, 2.0);
