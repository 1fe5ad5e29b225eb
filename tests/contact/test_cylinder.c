/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the conformal cylinder laws (src/contact/cylinder.c): each logarithmic law's
 * explicit delta(F), written again here from the formulas of Pereira, Ramalho and Ambrosio
 * (2011) as docs/contact-laws.md reads them, against the force the library solves for; the
 * limits where two laws must coincide; the small-penetration asymptotes of the explicit laws;
 * the load limit; the stored energy by quadrature; the checks of the geometry, L and the
 * clearance; and the restitution of the Lankarani-Nikravesh hysteresis F_el (1 + chi v), which
 * does not depend on F_el: chi = d(e) / (e v) (Gonthier et al. 2004) gives e exactly, which
 * the laboratory's calibration must find for every law.
 */
#include "clink/contact.h"
#include "clink/lab.h"
#include "contact/cylinder.h"

#include "ensure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

static const char *const cylinder_laws[] = {
    "johnson-cylinder", "radzimovsky",           "goldsmith",
    "esdu-78035",       "dubowsky-freudenstein", "lankarani-flores-cylinder",
    "pereira",          "liu-zhang-wang",        "bai-zhao"};
enum { NLAWS = sizeof cylinder_laws / sizeof cylinder_laws[0] };

/* steel journal of 9.5 mm in a steel bearing of 10 mm (clearance 0.5 mm), L = 20 mm */
static clink_contact_params journal(double Rj, double Rb, double L)
{
    clink_contact_params p;
    clink_contact_params_init(&p);
    p.E1 = 2.07e11;
    p.E2 = 2.07e11;
    p.nu1 = 0.29;
    p.nu2 = 0.29;
    p.R1 = Rj;
    p.R2 = -Rb;
    p.L = L;
    p.e = 0.9;
    return p;
}

static double estar(const clink_contact_params *p)
{
    return 1.0 / ((1 - p->nu1 * p->nu1) / p->E1 + (1 - p->nu2 * p->nu2) / p->E2);
}

static const clink_law *law(const char *name)
{
    const clink_law *l = clink_law_find(name);
    ENSURE(l != NULL);
    return l;
}

/* the elastic force F_el(delta) of a law (onset at 1 m/s, delta_dot = 0) */
static double elastic(const char *name, const clink_contact_params *p, double delta)
{
    clink_contact_state s;
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law(name), p, 1.0, 1.0, &s) == CLINK_OK);
    return clink_law_force(law(name), p, &s, delta, 0.0);
}

/* delta(F) of the logarithmic laws, written from the formulas (internal pair) */
static double delta_of(const char *name, const clink_contact_params *p, double F)
{
    double Es = estar(p), L = p->L, Rj = p->R1, Rb = -p->R2, dR = Rb - Rj, Rs = Rj * Rb / dR;
    double b = sqrt(4 * F * Rs / (PI * L * Es));

    if (strcmp(name, "johnson-cylinder") == 0)
        return F / (PI * L * Es) * (log(4 * PI * L * Es * dR / F) - 1);
    if (strcmp(name, "radzimovsky") == 0)
        return F / (PI * L * Es) * (2.0 / 3.0 + log(4 * Rj / b) + log(4 * Rb / b));
    if (strcmp(name, "goldsmith") == 0)
        return F / (PI * L * Es) * (log(PI * Es * L * L * L / (F * Rs)) + 1);
    if (strcmp(name, "esdu-78035") == 0)
        return F / (L * Es) * (log(4 * PI * L * Es * dR / F) + 1);
    /* Dubowsky and Freudenstein, with sigma = (1 - nu^2) / (pi E) */
    double sig = (1 - p->nu1 * p->nu1) / (PI * p->E1) + (1 - p->nu2 * p->nu2) / (PI * p->E2);
    return F * sig / L * (log(L * L * L * dR / (F * Rj * Rb * sig)) + 1);
}

TEST(each_logarithmic_law_inverts_its_written_delta_of_f)
{
    static const char *const logs[] = {"johnson-cylinder", "radzimovsky", "goldsmith", "esdu-78035",
                                       "dubowsky-freudenstein"};
    clink_contact_params p = journal(9.5e-3, 10e-3, 20e-3);

    for (size_t i = 0; i < 5; i++)
        for (double F = 1e-3; F <= 2e5; F *= 3.7) {
            double d = delta_of(logs[i], &p, F);
            ENSURE(d > 0);
            ENSURE_REL(elastic(logs[i], &p, d), F, 1e-12);
        }
}

TEST(the_bracketed_newton_solve_is_exact_monotone_and_refuses_past_the_load_limit)
{
    /* delta = A F (ln(B / F) + c) with Johnson's constants of the journal above */
    double A = 1.0 / 3e9, B = 1e8, c = -1.0, limit = A * B * exp(c - 1), prev = 0;
    int it, worst = 0;

    ENSURE(contact_cylinder_solve_log(A, B, c, 0.0, &it) == 0.0);
    ENSURE(contact_cylinder_solve_log(A, B, c, -1e-9, NULL) == 0.0);
    for (double x = 1e-9; x < 1.0; x *= 1.5) {
        double d = x * limit, F = contact_cylinder_solve_log(A, B, c, d, &it);
        ENSURE(isfinite(F) && F > prev);
        ENSURE_NEAR(A * F * (log(B / F) + c), d, 1e-14 * d);
        prev = F;
        worst = it > worst ? it : worst;
    }
    ENSURE(worst <= 12); /* the cost: at most a dozen logarithms */
    /* next to the maximum of delta(F), where Newton's steps shrink (delta'(F_limit) = 0) */
    double Fl = contact_cylinder_solve_log(A, B, c, limit * (1 - 1e-9), &it);
    ENSURE_REL(Fl, B * exp(c - 1), 1e-4);
    ENSURE_NEAR(A * Fl * (log(B / Fl) + c), limit * (1 - 1e-9), 1e-14 * limit);
    ENSURE(it <= 100);
    ENSURE(isnan(contact_cylinder_solve_log(A, B, c, limit * (1 + 1e-9), NULL)));
    /* the law beyond its load limit: NaN, never a wrong root (Johnson: 4 dR / e^2) */
    clink_contact_params p = journal(9.5e-3, 10e-3, 20e-3);
    ENSURE(isfinite(elastic("johnson-cylinder", &p, 0.99 * 4 * 0.5e-3 * exp(-2.0))));
    ENSURE(isnan(elastic("johnson-cylinder", &p, 1.01 * 4 * 0.5e-3 * exp(-2.0))));
}

TEST(laws_that_must_coincide_do)
{
    clink_contact_params p = journal(9.5e-3, 10e-3, 20e-3);
    double Es = estar(&p), L = p.L;

    for (double d = 1e-8; d < 1e-4; d *= 2.3) {
        /* Goldsmith's R* is Dubowsky and Freudenstein's Rj Rb / dR for a journal */
        ENSURE_REL(elastic("goldsmith", &p, d), elastic("dubowsky-freudenstein", &p, d), 1e-12);
        /* Radzimovsky with the Hertz half-width is Johnson plus 5/3 F / (pi L E*) */
        double F = elastic("radzimovsky", &p, d);
        ENSURE_REL(delta_of("johnson-cylinder", &p, F) + 5.0 / 3.0 * F / (PI * L * Es), d, 1e-12);
        /* the Lankarani-Flores form is Hertz with the journal-bearing stiffness */
        double K;
        ENSURE(clink_contact_stiffness_journal_bearing(p.E1, p.nu1, p.E2, p.nu2, 9.5e-3, 10e-3,
                                                       &K) == CLINK_OK);
        ENSURE_REL(elastic("lankarani-flores-cylinder", &p, d), K * pow(d, 1.5), 1e-12);
    }
}

TEST(explicit_laws_follow_their_small_penetration_asymptotes)
{
    clink_contact_params p = journal(9.5e-3, 10e-3, 20e-3);
    double Es = estar(&p), L = p.L, dR = 0.5e-3;

    for (double d = 1e-9; d < 1e-6; d *= 3) {
        /* Liu et al.: F -> pi/2 E* L d^1.5 / sqrt(2 dR) (1 - d / (2 dR)) */
        double liu = 0.5 * PI * Es * L * pow(d, 1.5) / sqrt(2 * dR);
        ENSURE_NEAR(elastic("liu-zhang-wang", &p, d) / liu, 1.0 - d / (2 * dR), 1e-6);
        /* Bai and Zhao: K_n -> 3 pi sqrt(2) / 8 E* sqrt(d / dR), F = K_n d^1.5 */
        double bz = 3 * PI * sqrt(2.0) / 8 * Es * sqrt(d / dR) * pow(d, 1.5);
        ENSURE_NEAR(elastic("bai-zhao", &p, d) / bz, 1.0, 3 * d / dR);
    }
}

TEST(pereira_exponent_and_stiffness_follow_the_clearance_and_are_continuous)
{
    /* internal: n = Y dR^-0.005 (dR in mm), Y's two branches meet at dR = 0.34954 mm */
    double Rb = 10e-3, d = 1e-6;
    clink_contact_params a = journal(Rb - 0.34954e-3 * (1 - 1e-9), Rb, 20e-3);
    clink_contact_params b = journal(Rb - 0.34954e-3 * (1 + 1e-9), Rb, 20e-3);
    ENSURE_REL(elastic("pereira", &a, d), elastic("pereira", &b, d), 1e-6);
    /* written out at dR = 0.5 mm: Y = 0.0151 * 0.5 + 1.151, n = Y 0.5^-0.005 */
    clink_contact_params p = journal(9.5e-3, 10e-3, 20e-3);
    double Y = 0.0151 * 0.5 + 1.151, n = Y * pow(0.5, -0.005);
    double F = (0.965 * 0.5 + 0.0965) / 0.5 * 20.0 * estar(&p) * 1e-6 * pow(d * 1e3, n);
    ENSURE_REL(elastic("pereira", &p, d), F, 1e-12);
    /* and at dR = 0.1 mm: Y = 1.51 (ln 100)^-0.151 */
    clink_contact_params q = journal(9.9e-3, 10e-3, 20e-3);
    Y = 1.51 * pow(log(100.0), -0.151);
    n = Y * pow(0.1, -0.005);
    F = (0.965 * 0.1 + 0.0965) / 0.1 * 20.0 * estar(&q) * 1e-6 * pow(d * 1e3, n);
    ENSURE_REL(elastic("pereira", &q, d), F, 1e-12);
}

TEST(the_stored_energy_of_every_cylinder_law_is_the_integral_of_its_elastic_force)
{
    clink_contact_params p = journal(9.5e-3, 10e-3, 20e-3);

    for (size_t i = 0; i < NLAWS; i++) {
        clink_contact_state s;
        clink_contact_state_init(&s);
        ENSURE(clink_law_onset(law(cylinder_laws[i]), &p, 0.5, 1.0, &s) == CLINK_OK);
        for (double d = 1e-7; d < 3e-5; d *= 4) {
            /* Simpson in s = d t^2 (smooth integrand), 4000 intervals */
            double sum = 0;
            int n = 4000;
            for (int k = 0; k <= n; k++) {
                double t = (double) k / n, w = (k == 0 || k == n) ? 1 : (k % 2 ? 4 : 2);
                sum +=
                    w * clink_law_force(law(cylinder_laws[i]), &p, &s, d * t * t, 0.0) * 2 * d * t;
            }
            ENSURE_REL(clink_law_stored_energy(law(cylinder_laws[i]), &p, &s, d), sum / (3.0 * n),
                       2e-7);
        }
    }
}

TEST(cylinder_laws_name_their_geometry)
{
    ENSURE_STR_EQ(clink_law_geometry(law("hertz")), "point");
    ENSURE_STR_EQ(clink_law_geometry(law("johnson-cylinder")), "cylinder");
    ENSURE_STR_EQ(clink_law_geometry(law("dubowsky-freudenstein")), "cylinder-internal");
    ENSURE_STR_EQ(clink_law_geometry(law("bai-zhao")), "cylinder-internal");
    ENSURE(clink_law_geometry(NULL) == NULL);
    for (size_t i = 0; i < NLAWS; i++)
        ENSURE(strncmp(clink_law_geometry(law(cylinder_laws[i])), "cylinder", 8) == 0);
}

/* the check's message of law name with params p (which must fail) */
static const char *refusal(const char *name, const clink_contact_params *p)
{
    static char msg[512];
    ENSURE(clink_law_check(law(name), p, msg, sizeof msg) == CLINK_ERR_RANGE);
    return msg;
}

TEST(bad_geometry_length_and_clearance_are_refused_with_the_reason)
{
    clink_contact_params p = journal(9.5e-3, 10e-3, 20e-3);
    for (size_t i = 0; i < NLAWS; i++)
        ENSURE(clink_law_check(law(cylinder_laws[i]), &p, NULL, 0) == CLINK_OK);
    /* L <= 0 for a law that reads it */
    p.L = 0;
    ENSURE(strstr(refusal("johnson-cylinder", &p), "L: 0 is missing or out of range") != NULL);
    p.L = -1e-3;
    ENSURE(strstr(refusal("pereira", &p), "L > 0 (m)") != NULL);
    ENSURE(clink_law_check(law("bai-zhao"), &p, NULL, 0) == CLINK_OK); /* reads no L */
    /* an internal law on two convex cylinders */
    p = journal(9.5e-3, 10e-3, 20e-3);
    p.R2 = 10e-3;
    ENSURE(strstr(refusal("liu-zhang-wang", &p), "cylinder-internal") != NULL);
    ENSURE(clink_law_check(law("johnson-cylinder"), &p, NULL, 0) == CLINK_OK);
    /* a plane or a missing radius */
    p.R2 = INFINITY;
    ENSURE(strstr(refusal("johnson-cylinder", &p), "R2:") == refusal("johnson-cylinder", &p));
    /* a bearing smaller than its journal, both concave */
    p = journal(10e-3, 9.5e-3, 20e-3);
    ENSURE(strstr(refusal("goldsmith", &p), "must be larger") != NULL);
    p.R1 = -9.5e-3;
    ENSURE(strstr(refusal("goldsmith", &p), "both concave") != NULL);
    /* Pereira's fit: 0.005 mm <= clearance <= 10 mm */
    p = journal(10e-3 - 2e-6, 10e-3, 20e-3);
    ENSURE(strstr(refusal("pereira", &p), "outside the range of law 'pereira'") != NULL);
    ENSURE(clink_law_check(law("johnson-cylinder"), &p, NULL, 0) == CLINK_OK);
    p = journal(9e-3, 22e-3, 20e-3); /* clearance 13 mm */
    ENSURE(strstr(refusal("pereira", &p), "0.01 m") != NULL);
    /* no exponent to set; e or chi needed */
    p = journal(9.5e-3, 10e-3, 20e-3);
    p.n = 1.5;
    ENSURE(strstr(refusal("pereira", &p), "n:") != NULL);
    p.n = NAN;
    p.e = NAN;
    ENSURE(strstr(refusal("esdu-78035", &p), "e: missing") != NULL);
    p.chi = 0.1;
    ENSURE(clink_law_check(law("esdu-78035"), &p, NULL, 0) == CLINK_OK);
}

/* Gonthier et al.'s d(e): (1 + d/e) / (1 - d) = exp(d (1 + 1/e)), by bisection */
static double gonthier_d(double e)
{
    double lo = 1e-12, hi = 1 - 1e-12;
    for (int i = 0; i < 200; i++) {
        double m = 0.5 * (lo + hi);
        double f = (1 + m / e) / (1 - m) - exp(m * (1 + 1 / e));
        if (f < 0)
            lo = m;
        else
            hi = m;
    }
    return 0.5 * (lo + hi);
}

TEST(the_hysteresis_restitution_does_not_depend_on_the_law_and_calibrates_exactly)
{
    clink_lab *lab = NULL;
    clink_lab_options o;
    clink_lab_result r, r0;
    clink_lab_calibration cal;
    clink_contact_params p = journal(9.5e-3, 10e-3, 20e-3);
    double v = 0.5, e = 0.9;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    clink_lab_options_init(&o);
    ENSURE(clink_lab_impact(lab, law("johnson-cylinder"), &p, 1.0, v, &o, &r0) == CLINK_OK);
    for (size_t i = 0; i < NLAWS; i++) {
        const clink_law *l = law(cylinder_laws[i]);
        /* Lankarani-Nikravesh's rule: the same e_out whatever F_el */
        ENSURE(clink_lab_impact(lab, l, &p, 1.0, v, &o, &r) == CLINK_OK);
        ENSURE_NEAR(r.e_out, r0.e_out, 1e-8);
        ENSURE(r.e_out > e + 0.01);
        /* chi = d(e) / (e v) gives e exactly */
        clink_contact_params q = p;
        q.chi = gonthier_d(e) / (e * v);
        ENSURE(clink_lab_impact(lab, l, &q, 1.0, v, &o, &r) == CLINK_OK);
        ENSURE_NEAR(r.e_out, e, 1e-8);
        ENSURE(r.energy_residual < 1e-8);
        /* and the laboratory's calibration finds it */
        ENSURE(clink_lab_calibrate(lab, l, &p, 1.0, v, e, &o, &cal) == CLINK_OK);
        ENSURE_REL(cal.damping, gonthier_d(e) / (e * v), 1e-8);
    }
    clink_lab_destroy(&lab);
}
