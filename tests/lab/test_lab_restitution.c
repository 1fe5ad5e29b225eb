/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a law's own damping rule reaches (clink_law_achieved_restitution,
 * clink_law_restitution_range_find) against an independent result: for the
 * Hunt-Crossley family, F = K delta^n (1 + f(e) delta_dot / v), the energy
 * balance of m v dv = -F dx integrates in closed form (the delta^n factor
 * cancels, so the restitution depends on f alone, for every n, m, K, v):
 *   integral_0^1 s / (1 + f s) ds = integral_0^e_out s / (1 - f s) ds,
 * that is (f - ln(1 + f)) / f^2 = (-f e_out - ln(1 - f e_out)) / f^2,
 * solved here by bisection. The factors f(e) are typed again from Alves et al.
 * (2015), Table 1, and Hu and Guo (2015); the ends of the reached intervals come
 * from a scan of the closed form with a step of 1e-4.
 */
#include "ensure.h"

#include "clink/contact.h"

#include <math.h>
#include <string.h>

/* e_out of the Hunt-Crossley impact with factor f (chi = f K / v) */
static double hc_restitution(double f)
{
    double lhs, lo = 0, hi;

    if (f <= 0)
        return 1.0;
    lhs = (f - log1p(f)) / (f * f);
    hi = fmin(1.0, 1.0 / f);
    for (int i = 0; i < 200; i++) {
        double u = 0.5 * (lo + hi);
        double g = (-f * u - log1p(-f * u)) / (f * f);
        if (g < lhs)
            lo = u;
        else
            hi = u;
    }
    return 0.5 * (lo + hi);
}

typedef struct hc_law {
    const char *name;
    double (*factor)(double e);
} hc_law;

static double f_hc(double e)
{
    return 1.5 * (1 - e);
}
static double f_ln(double e)
{
    return 0.75 * (1 - e * e);
}
static double f_flores(double e)
{
    return 1.6 * (1 - e) / e;
}
static double f_huguo(double e)
{
    return 1.5 * (1 - e) / e;
}
static double f_gonthier(double e)
{
    return (1 - e * e) / e;
}
static double f_gharib(double e)
{
    return 1 / e;
}

static const hc_law hc_laws[] = {
    {"hunt-crossley", f_hc}, {"lankarani-nikravesh", f_ln}, {"flores", f_flores},
    {"hu-guo", f_huguo},     {"gonthier", f_gonthier},      {"gharib-hurmuzlu", f_gharib},
};

TEST(lankarani_nikravesh_asked_for_0_8_rebounds_with_0_847_as_the_energy_balance_says)
{
    const clink_law *ln = clink_law_find("lankarani-nikravesh");
    double e_out = NAN, want = hc_restitution(f_ln(0.8));

    ENSURE(ln != NULL && clink_law_has_restitution_rule(ln));
    ENSURE(clink_law_achieved_restitution(ln, NULL, 0.8, &e_out) == CLINK_OK);
    ENSURE_NEAR(want, 0.8471, 1e-4);
    ENSURE_NEAR(e_out, want, 1e-6);
    /* any exponent: the delta^n factor cancels */
    clink_contact_params p;
    clink_contact_params_init(&p);
    p.n = 1.1;
    p.K = 3e5;
    ENSURE(clink_law_achieved_restitution(ln, &p, 0.8, &e_out) == CLINK_OK);
    ENSURE_NEAR(e_out, want, 1e-6);
}

TEST(the_reached_intervals_of_the_hunt_crossley_family_match_the_closed_form)
{
    for (size_t k = 0; k < sizeof hc_laws / sizeof hc_laws[0]; k++) {
        const clink_law *law = clink_law_find(hc_laws[k].name);
        clink_law_restitution_range r;
        double lo[8], hi[8];
        int count = 0, prev = 0;

        ENSURE(law != NULL);
        ENSURE(clink_law_restitution_range_find(law, NULL, 0, &r) == CLINK_OK);
        ENSURE(r.tolerance == CLINK_LAW_RESTITUTION_TOL && r.e_min == 0.02);
        /* the closed form scanned over the same requests, e = 0.02 .. 1 */
        for (int i = 0; i <= 9800; i++) {
            double e = 0.02 + 1e-4 * i;
            int meets = fabs(hc_restitution(hc_laws[k].factor(e)) - e) <= 0.01;
            if (meets && !prev && count < 8)
                lo[count++] = e;
            if (meets)
                hi[count - 1] = e;
            prev = meets;
        }
        printf("  %-20s closed form:", hc_laws[k].name);
        for (int i = 0; i < count; i++)
            printf(" [%.4f, %.4f]", lo[i], hi[i]);
        printf("; found:");
        for (int i = 0; i < r.count; i++)
            printf(" [%.4f, %.4f]", r.lo[i], r.hi[i]);
        printf("\n");
        ENSURE(r.count == count);
        for (int i = 0; i < count && i < r.count; i++) {
            ENSURE_NEAR(r.lo[i], lo[i], 1.2e-3);
            ENSURE_NEAR(r.hi[i], hi[i], 1.2e-3);
        }
    }
}

TEST(exact_rules_reach_every_restitution_and_laws_without_a_rule_are_refused)
{
    static const char *const exact[] = {"gonthier-exact", "tsuji", "power-law-tsuji",
                                        "kelvin-voigt"};
    static const char *const none[] = {"hertz",         "ristow", "lee-herrmann",
                                       "kuwabara-kono", "ma-liu", "wang-liu"};
    clink_law_restitution_range r;
    double e_out;

    for (size_t k = 0; k < sizeof exact / sizeof exact[0]; k++) {
        ENSURE(clink_law_restitution_range_find(clink_law_find(exact[k]), NULL, 0, &r) == CLINK_OK);
        ENSURE(r.count == 1 && r.lo[0] == 0.02 && r.hi[0] == 1.0);
        ENSURE(fabs(r.worst_error) < 1e-6);
        ENSURE(clink_law_restitution_range_has(&r, 0.5));
        ENSURE(!clink_law_restitution_range_has(&r, 0.01));
    }
    for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
        const clink_law *law = clink_law_find(none[k]);
        ENSURE(!clink_law_has_restitution_rule(law));
        ENSURE(clink_law_restitution_range_find(law, NULL, 0, &r) == CLINK_ERR_ARG);
        ENSURE(clink_law_achieved_restitution(law, NULL, 0.5, &e_out) == CLINK_ERR_ARG);
    }
    ENSURE(clink_law_achieved_restitution(clink_law_find("flores"), NULL, 0, &e_out) ==
           CLINK_ERR_ARG);
    ENSURE(clink_law_achieved_restitution(clink_law_find("flores"), NULL, 1.5, &e_out) ==
           CLINK_ERR_ARG);
}
