/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the Ma-Liu elastoplastic law (src/contact/elastoplastic.c): the paper
 * 003 constants, continuity of the loading and unloading curves, the residual
 * indentation, the energy balance of one impact, and bad material input.
 * Materials: Wang, Liu and Liu (2022), Table 1 under the reading of the reading in
 * docs/elastoplastic.md (R1 = -20.5 mm concave so that R = R1 R2 / (R1 - R2) in magnitude = 0.82
 * m).
 */
#include "clink/elastoplastic.h"

#include "ensure.h"

/* every field NaN ("not given"), as clink_contact_params_init() does */
static void params_clear(clink_contact_params *p)
{
    p->K = p->n = p->e = p->chi = p->c = p->alpha = p->v_ref = NAN;
    p->E1 = p->E2 = p->nu1 = p->nu2 = p->R1 = p->R2 = NAN;
    p->eta1 = p->eta2 = p->Y = p->psi = p->xi = NAN;
}

static void paper_params(clink_contact_params *p)
{
    params_clear(p);
    p->E1 = 2.0e11;
    p->E2 = 6.5e10;
    p->nu1 = 0.29;
    p->nu2 = 0.33;
    p->R1 = -2.05e-2;
    p->R2 = 2.00e-2;
    p->Y = 3.0e7;
    p->psi = 3.0;
    p->xi = 13.0;
}

static clink_maliu paper_law(void)
{
    clink_contact_params p;
    clink_maliu ml;
    char msg[256] = "";

    paper_params(&p);
    ENSURE(clink_maliu_init(&ml, &p, msg, sizeof msg) == CLINK_OK);
    return ml;
}

/* m = steel density times the volume of the 20 mm sphere (the reading in docs/elastoplastic.md) */
static double paper_mass(void)
{
    return 7800.0 * 4.0 / 3.0 * 3.14159265358979323846 * 0.02 * 0.02 * 0.02;
}

TEST(maliu_constants_match_seed_003_reading)
{
    clink_maliu ml = paper_law();

    /* E* and R are exact arithmetic of the inputs: 1e-12 */
    ENSURE_REL(ml.E, 5.46785e10, 1e-5);
    ENSURE_REL(ml.R, 0.82, 1e-12);
    /* published delta_y 1.5788e-6 (5 digits): half a unit of the last digit */
    ENSURE_NEAR(ml.delta_y, 1.5788e-6, 0.00005e-6);
    ENSURE_REL(ml.delta_p, 169.0 / 2.0 * ml.delta_y, 1e-14);
    ENSURE(ml.delta_c > ml.delta_y && ml.delta_c < ml.delta_p);
}

TEST(loading_force_and_slope_are_continuous_at_delta_y_and_delta_p)
{
    clink_maliu ml = paper_law();
    double h = 1e-9, dy = ml.delta_y, dp = ml.delta_p;
    double s_below, s_above;

    ENSURE_REL(clink_maliu_load_force(&ml, dy * (1 - h)), clink_maliu_load_force(&ml, dy), 1e-8);
    ENSURE_REL(clink_maliu_load_force(&ml, dp * (1 - h)), clink_maliu_load_force(&ml, dp), 1e-8);
    ENSURE_REL(clink_maliu_load_force(&ml, dy), ml.F_y, 1e-12);
    ENSURE_REL(clink_maliu_load_force(&ml, dp), ml.F_p, 1e-12);
    /* the elastoplastic branch leaves delta_y with the Hertz slope pi R p_y */
    s_below = (clink_maliu_load_force(&ml, dy) - clink_maliu_load_force(&ml, dy * (1 - 1e-6))) /
              (dy * 1e-6);
    s_above = (clink_maliu_load_force(&ml, dy * (1 + 1e-6)) - clink_maliu_load_force(&ml, dy)) /
              (dy * 1e-6);
    ENSURE_REL(s_below, s_above, 1e-5);
}

TEST(loading_work_is_the_integral_of_the_loading_force)
{
    clink_maliu ml = paper_law();
    double d_end = 2.5 * ml.delta_p, sum = 0.0, x;
    int i, n = 200000;

    /* midpoint rule, O(h^2): 1e-8 relative is ample at 2e5 panels */
    for (i = 0; i < n; i++) {
        x = (i + 0.5) * d_end / n;
        sum += clink_maliu_load_force(&ml, x) * d_end / n;
    }
    ENSURE_REL(clink_maliu_load_work(&ml, d_end), sum, 1e-8);
    ENSURE_REL(clink_maliu_load_work(&ml, ml.delta_y), 0.4 * ml.F_y * ml.delta_y, 1e-12);
}

TEST(delta_max_inverts_the_loading_work_in_every_phase)
{
    clink_maliu ml = paper_law();
    double targets[] = {0.3 * ml.delta_y, 1.5 * ml.delta_y, 40.0 * ml.delta_y, 3.0 * ml.delta_p};
    double d;
    int i;

    for (i = 0; i < 4; i++) {
        ENSURE(clink_maliu_delta_max(&ml, clink_maliu_load_work(&ml, targets[i]), &d) == CLINK_OK);
        ENSURE_REL(d, targets[i], 1e-12);
    }
    ENSURE(clink_maliu_delta_max(&ml, -1.0, &d) == CLINK_ERR_RANGE);
}

TEST(unloading_starts_at_the_loading_force_and_ends_at_delta_r)
{
    clink_maliu ml = paper_law();
    clink_maliu_unload u;
    double dm[] = {0.5 * ml.delta_y, 2.0 * ml.delta_y, 10.0 * ml.delta_y,
                   0.9 * ml.delta_p, ml.delta_p,       5.0 * ml.delta_p};
    int i;

    for (i = 0; i < 6; i++) {
        clink_maliu_unload_from(&ml, dm[i], &u);
        ENSURE_REL(clink_maliu_unload_force(&ml, &u, dm[i]), clink_maliu_load_force(&ml, dm[i]),
                   1e-12);
        ENSURE(u.delta_r >= 0.0 && u.delta_r < dm[i]);
        ENSURE(clink_maliu_unload_force(&ml, &u, u.delta_r) == 0.0);
        ENSURE(u.R_e >= ml.R * (1 - 1e-12));
    }
}

TEST(residual_indentation_is_never_negative_and_grows_with_delta_max)
{
    clink_maliu ml = paper_law();
    clink_maliu_unload u;
    double prev = 0.0, d;
    int i, ok = 1;

    for (i = 0; i <= 2000; i++) {
        d = ml.delta_y * pow(1000.0, i / 2000.0);
        clink_maliu_unload_from(&ml, d, &u);
        if (!(u.delta_r >= prev))
            ok = 0;
        prev = u.delta_r;
    }
    ENSURE(ok);
}

TEST(unloading_radius_is_continuous_at_delta_p)
{
    clink_maliu ml = paper_law();
    clink_maliu_unload a, b;

    clink_maliu_unload_from(&ml, ml.delta_p * (1 - 1e-12), &a);
    clink_maliu_unload_from(&ml, ml.delta_p, &b);
    ENSURE_REL(a.R_e, b.R_e, 1e-9);
    ENSURE_REL(a.delta_r, b.delta_r, 1e-9);
}

TEST(impact_energy_balance_holds_and_restitution_stays_in_range)
{
    clink_maliu ml = paper_law();
    clink_maliu_impact r;
    double m = paper_mass(), v;
    int ok = 1;

    for (v = 0.001; v < 50.0; v *= 1.07) {
        ENSURE(clink_maliu_impact_solve(&ml, m, v, &r) == CLINK_OK);
        if (!(r.restitution > 0.0 && r.restitution <= 1.0))
            ok = 0;
        if (!(fabs(r.work_unload + r.dissipated - r.energy) <= 1e-12 * r.energy))
            ok = 0;
        if (!(fabs(clink_maliu_load_work(&ml, r.delta_max) - r.energy) <= 1e-10 * r.energy))
            ok = 0;
        if (!(fabs(r.restitution * r.restitution * r.energy - r.work_unload) <= 1e-10 * r.energy))
            ok = 0;
    }
    ENSURE(ok);
    ENSURE(clink_maliu_impact_solve(&ml, 0.0, 1.0, &r) == CLINK_ERR_RANGE);
}

TEST(paper_impacts_at_4_and_8_m_per_s_give_the_published_restitution)
{
    clink_maliu ml = paper_law();
    clink_maliu_impact r;

    /* printed to 4 decimals: half a unit of the last digit */
    ENSURE(clink_maliu_impact_solve(&ml, paper_mass(), 4.0, &r) == CLINK_OK);
    ENSURE_NEAR(r.restitution, 0.6909, 0.00005);
    ENSURE_NEAR(r.dissipated, 1.0929, 0.00005);
    ENSURE_NEAR(r.delta_max, 1.1152e-4, 0.00005e-4);
    ENSURE_NEAR(r.F_max, 4.1710e4, 0.00005e4);
    ENSURE(r.phase == 1);
    ENSURE(clink_maliu_impact_solve(&ml, paper_mass(), 8.0, &r) == CLINK_OK);
    ENSURE_NEAR(r.restitution, 0.6309, 0.00005);
    ENSURE_NEAR(r.dissipated, 5.0348, 0.00005);
    ENSURE_NEAR(r.F_max, 8.6858e4, 0.00005e4);
    ENSURE(r.phase == 2);
}

TEST(elastic_impact_restitutes_all_energy)
{
    clink_maliu ml = paper_law();
    clink_maliu_impact r;
    double v = 0.5 * sqrt(2.0 * clink_maliu_load_work(&ml, ml.delta_y) / paper_mass());

    ENSURE(clink_maliu_impact_solve(&ml, paper_mass(), v, &r) == CLINK_OK);
    ENSURE(r.phase == 0);
    ENSURE_NEAR(r.restitution, 1.0, 1e-12);
    ENSURE(r.delta_r == 0.0);
}

TEST(restitution_falls_with_impact_velocity_beyond_delta_c)
{
    clink_maliu ml = paper_law();
    clink_maliu_impact r;
    double prev = 1.0, v;
    int ok = 1;

    for (v = 0.5; v < 30.0; v *= 1.1) {
        clink_maliu_impact_solve(&ml, paper_mass(), v, &r);
        if (r.restitution > prev + 1e-12)
            ok = 0;
        prev = r.restitution;
    }
    ENSURE(ok);
}

TEST(granular_chain_constants_match_seed_003_section_5_2)
{
    clink_contact_params p;
    clink_maliu ml;
    clink_maliu_impact r;

    params_clear(&p);
    p.E1 = p.E2 = 193e9;
    p.nu1 = p.nu2 = 0.3;
    p.R1 = p.R2 = 2.38e-3;
    p.Y = 900e6;
    p.psi = 2.84;
    p.xi = 13.0;
    ENSURE(clink_maliu_init(&ml, &p, NULL, 0) == CLINK_OK);
    ENSURE_NEAR(ml.delta_y, 5.4822e-7, 0.00005e-7);
    ENSURE_NEAR(ml.delta_p, 4.6324e-5, 0.00005e-5);
    /* "the CoR was identified as 0.81": striker mass 0.45 g at 1.77 m/s */
    clink_maliu_impact_solve(&ml, 0.45e-3, 1.77, &r);
    ENSURE_NEAR(r.restitution, 0.81, 0.005);
}

static clink_status init_with(char key, double value, char *msg, size_t n)
{
    clink_contact_params p;
    clink_maliu ml;

    paper_params(&p);
    switch (key) {
    case 'Y':
        p.Y = value;
        break;
    case 'p':
        p.psi = value;
        break;
    case 'x':
        p.xi = value;
        break;
    case 'R':
        p.R1 = value;
        break;
    case 'n':
        p.nu2 = value;
        break;
    case 'E':
        p.E1 = value;
        break;
    default:
        break;
    }
    return clink_maliu_init(&ml, &p, msg, n);
}

TEST(bad_material_input_gives_one_clear_line)
{
    char msg[256];

    msg[0] = 0;
    ENSURE(init_with('Y', 7e10, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "Y = 7e+10") != NULL && strstr(msg, "(0, E*)") != NULL);
    msg[0] = 0;
    ENSURE(init_with('p', 0.5, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "psi = 0.5") != NULL);
    msg[0] = 0;
    ENSURE(init_with('x', 1.2, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "xi = 1.2") != NULL);
    msg[0] = 0;
    ENSURE(init_with('R', -0.01, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "make no contact") != NULL);
    msg[0] = 0;
    ENSURE(init_with('n', 0.7, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "nu2 = 0.7") != NULL);
    msg[0] = 0;
    ENSURE(init_with('E', -1.0, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "E1 = -1") != NULL);
    msg[0] = 0;
    ENSURE(init_with('p', 50.0, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "psi = 50") != NULL);
    ENSURE(strchr(msg, '\n') == NULL);
}

/* Ma-Liu and the Hertz stiffness follow one rule for nu: 0.5 (incompressible) is refused by both */
TEST(maliu_and_hertz_accept_the_same_poisson_ratios)
{
    const double nus[] = {-1.0, -0.999, 0.0, 0.3, 0.4999, 0.5, 0.7, NAN};
    char msg[256];
    int i;

    for (i = 0; i < (int) (sizeof nus / sizeof nus[0]); i++) {
        double K = 0;
        int hertz_ok = clink_contact_stiffness_hertz(2.07e11, nus[i], 2.07e11, 0.3, 0.01, 0.01,
                                                     &K) == CLINK_OK;
        msg[0] = 0;
        int maliu_ok = init_with('n', nus[i], msg, sizeof msg) == CLINK_OK;
        ENSURE(hertz_ok == maliu_ok);
        ENSURE(maliu_ok || isnan(nus[i]) || strstr(msg, "-1 < nu < 0.5") != NULL);
    }
    msg[0] = 0;
    ENSURE(init_with('n', 0.5, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "nu2 = 0.5") != NULL);
}

/* ---- the catalogue rows ---------------------------------------------------- */

TEST(elastoplastic_laws_are_in_the_catalogue)
{
    const char *names[] = {"ma-liu", "wang-liu", "wang-liu-flores"};
    clink_law_info info;
    int i;

    for (i = 0; i < 3; i++) {
        const clink_law *law = clink_law_find(names[i]);
        ENSURE(law != NULL);
        if (law == NULL)
            continue;
        clink_law_get_info(law, &info);
        ENSURE_STR_EQ(info.name, names[i]);
        ENSURE(strstr(info.required, "psi") != NULL && strstr(info.required, "Y") != NULL);
    }
}

TEST(ma_liu_law_check_rejects_yield_above_modulus)
{
    clink_contact_params p;
    char msg[256] = "";

    paper_params(&p);
    p.Y = 1e12;
    ENSURE(clink_law_check(clink_law_find("ma-liu"), &p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "Y = 1e+12") != NULL);
    paper_params(&p);
    p.e = 1.5;
    ENSURE(clink_law_check(clink_law_find("wang-liu"), &p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "e = 1.5") != NULL);
    /* a missing parameter is named, under the name of the law that needs it */
    paper_params(&p);
    p.xi = NAN;
    ENSURE(clink_law_check(clink_law_find("wang-liu"), &p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strncmp(msg, "wang-liu: xi is not given", 25) == 0);
}

TEST(second_compression_reloads_along_the_unloading_curve_until_the_old_maximum)
{
    const clink_law *law = clink_law_find("ma-liu");
    clink_contact_params p;
    clink_contact_state s;
    clink_maliu ml = paper_law();
    clink_maliu_unload u;
    double d1 = 40.0 * ml.delta_y, d2 = 120.0 * ml.delta_y, d;

    paper_params(&p);
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law, &p, 2.0, paper_mass(), &s) == CLINK_OK);
    /* first compression: the virgin loading curve */
    ENSURE_REL(clink_law_force(law, &p, &s, 0.5 * d1, 1.0), clink_maliu_load_force(&ml, 0.5 * d1),
               1e-12);
    clink_law_end_compression(law, &p, d1, &s);
    clink_maliu_unload_from(&ml, d1, &u);
    ENSURE_REL(s.hist_delta_max, d1, 1e-15);
    ENSURE_REL(s.hist_delta_r, u.delta_r, 1e-12);
    ENSURE_REL(s.hist_R, u.R_e, 1e-12);
    ENSURE(s.hist_plastic);
    /* restitution: the unloading curve, zero force and separation at delta_r */
    d = 0.5 * (u.delta_r + d1);
    ENSURE_REL(clink_law_force(law, &p, &s, d, -1.0), clink_maliu_unload_force(&ml, &u, d), 1e-12);
    ENSURE(clink_law_force(law, &p, &s, 0.99 * u.delta_r, -1.0) == 0.0);
    ENSURE_NEAR(clink_law_separation(law, &p, &s, u.delta_r, -1.0), 0.0, 1e-18);
    clink_law_release(law, &p, u.delta_r, &s);
    ENSURE(s.phase == CLINK_CONTACT_RELEASED);

    /* second impact of the same pair: history kept, reload on the unloading curve */
    ENSURE(clink_law_onset(law, &p, 1.0, paper_mass(), &s) == CLINK_OK);
    ENSURE(s.hist_plastic && s.hist_delta_max == d1);
    ENSURE_REL(clink_law_force(law, &p, &s, d, 1.0), clink_maliu_unload_force(&ml, &u, d), 1e-12);
    ENSURE(clink_law_force(law, &p, &s, d, 1.0) < clink_maliu_load_force(&ml, d));
    /* a compression that stays below the old maximum leaves the history alone */
    clink_law_end_compression(law, &p, d, &s);
    ENSURE(s.hist_delta_max == d1);
    ENSURE_REL(clink_law_force(law, &p, &s, 0.9 * d, -1.0),
               clink_maliu_unload_force(&ml, &u, 0.9 * d), 1e-12);
    clink_law_release(law, &p, u.delta_r, &s);

    /* third impact passes the old maximum: virgin curve beyond it, new history */
    ENSURE(clink_law_onset(law, &p, 3.0, paper_mass(), &s) == CLINK_OK);
    ENSURE_REL(clink_law_force(law, &p, &s, d1 * (1 - 1e-12), 1.0),
               clink_law_force(law, &p, &s, d1 * (1 + 1e-12), 1.0), 1e-9);
    ENSURE_REL(clink_law_force(law, &p, &s, 1.5 * d1, 1.0), clink_maliu_load_force(&ml, 1.5 * d1),
               1e-12);
    clink_law_end_compression(law, &p, d2, &s);
    clink_maliu_unload_from(&ml, d2, &u);
    ENSURE_REL(s.hist_delta_max, d2, 1e-15);
    ENSURE_REL(s.hist_delta_r, u.delta_r, 1e-12);
    ENSURE(s.hist_delta_r > 0.0);
}

TEST(wang_liu_damping_follows_eq_17_with_the_ma_liu_restitution)
{
    const clink_law *law = clink_law_find("wang-liu");
    clink_contact_params p;
    clink_contact_state s;
    clink_maliu ml = paper_law();
    clink_maliu_impact imp;
    double e, d = 1e-5;

    paper_params(&p);
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law, &p, 4.0, paper_mass(), &s) == CLINK_OK);
    clink_maliu_impact_solve(&ml, paper_mass(), 4.0, &imp);
    e = imp.restitution;
    ENSURE_REL(s.chi, 3.0 * ml.Kp * (1.0 - e) / (2.0 * e * 4.0), 1e-12);
    /* Eq. 18 */
    ENSURE_REL(clink_law_force(law, &p, &s, d, 2.0),
               ml.Kp * d * (1.0 + 3.0 * (1.0 - e) / (2.0 * e) * 2.0 / 4.0), 1e-12);
    /* a given e replaces the Ma-Liu one; v_ref sets the velocity of a contact at rest */
    p.e = 0.65;
    p.v_ref = 1.77;
    ENSURE(clink_law_onset(law, &p, 0.0, paper_mass(), &s) == CLINK_OK);
    ENSURE_REL(s.chi, 3.0 * ml.Kp * 0.35 / (2.0 * 0.65 * 1.77), 1e-12);
}

TEST(wang_liu_flores_uses_flores_below_delta_y_and_the_new_dashpot_beyond)
{
    const clink_law *law = clink_law_find("wang-liu-flores");
    clink_contact_params p;
    clink_contact_state s;
    clink_maliu ml = paper_law();
    double e = 0.7, v = 4.0, dd = 1.5, d;

    paper_params(&p);
    p.e = e;
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law, &p, v, paper_mass(), &s) == CLINK_OK);
    d = 0.5 * ml.delta_y;
    ENSURE_REL(clink_law_force(law, &p, &s, d, dd),
               ml.K_hertz * pow(d, 1.5) * (1.0 + 8.0 * (1.0 - e) / (5.0 * e) * dd / v), 1e-12);
    d = 3.0 * ml.delta_y;
    ENSURE_REL(clink_law_force(law, &p, &s, d, dd),
               ml.Kp * d * (1.0 + 3.0 * (1.0 - e) / (2.0 * e) * dd / v), 1e-12);
}

/* Simpson's rule on n intervals of [a, b] of the rate-free force */
static double simpson(const clink_law *l, const clink_contact_params *p,
                      const clink_contact_state *s, double a, double b, int n)
{
    double h = (b - a) / n, sum = 0.0;
    for (int i = 0; i <= n; i++) {
        double c = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
        sum += c * clink_law_force(l, p, s, a + i * h, 0.0);
    }
    return sum * h / 3.0;
}

/* the integral from 0 to d, split at the kinks and jumps (breaks[], ascending): a piece that
   ends at a break stops 1e-13 short of it, so that its end takes the left limit of a jump */
static double stored_piecewise(const clink_law *l, const clink_contact_params *p,
                               const clink_contact_state *s, double d, const double *breaks, int nb)
{
    double a = 0.0, u = 0.0;
    for (int i = 0; i <= nb; i++) {
        double b = i < nb && breaks[i] < d ? breaks[i] : d;
        if (b > a)
            u += simpson(l, p, s, a, b < d ? b * (1.0 - 1e-13) : b, 20000);
        a = b;
        if (b == d)
            break;
    }
    return u;
}

TEST(ma_liu_stored_energy_follows_the_loading_then_the_unloading_curve)
{
    const clink_law *law = clink_law_find("ma-liu");
    clink_contact_params p;
    clink_contact_state s;
    clink_maliu ml = paper_law();
    double d1 = 40.0 * ml.delta_y;

    paper_params(&p);
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law, &p, 2.0, paper_mass(), &s) == CLINK_OK);
    /* loading: the work of Eq. 6 in every phase */
    double br[2] = {ml.delta_y, ml.delta_p};
    double ds[3] = {0.5 * ml.delta_y, 3.0 * ml.delta_y, 2.0 * ml.delta_p};
    for (int i = 0; i < 3; i++) {
        ENSURE_REL(clink_law_stored_energy(law, &p, &s, ds[i]), clink_maliu_load_work(&ml, ds[i]),
                   1e-12);
        ENSURE_REL(clink_law_stored_energy(law, &p, &s, ds[i]),
                   stored_piecewise(law, &p, &s, ds[i], br, 2), 1e-8);
    }
    /* after the end of compression at d1: the unloading curve, zero below delta_r; the drop
       at d1 is the plastic work U - W */
    double u_load = clink_law_stored_energy(law, &p, &s, d1);
    clink_law_end_compression(law, &p, d1, &s);
    clink_maliu_unload u;
    clink_maliu_unload_from(&ml, d1, &u);
    double u_unload = clink_law_stored_energy(law, &p, &s, d1);
    ENSURE_REL(u_unload, clink_maliu_unload_work(&ml, &u), 1e-12);
    ENSURE_REL(u_load - u_unload, clink_maliu_load_work(&ml, d1) - clink_maliu_unload_work(&ml, &u),
               1e-12);
    ENSURE(clink_law_stored_energy(law, &p, &s, 0.9 * u.delta_r) == 0.0);
    double d = 0.5 * (u.delta_r + d1), br2[1] = {u.delta_r};
    ENSURE_REL(clink_law_stored_energy(law, &p, &s, d), stored_piecewise(law, &p, &s, d, br2, 1),
               1e-8);
    /* beyond the old maximum: the unloading curve up to it, the virgin curve after */
    double br3[3] = {u.delta_r, ml.delta_p, d1};
    ENSURE_REL(clink_law_stored_energy(law, &p, &s, 1.5 * d1),
               stored_piecewise(law, &p, &s, 1.5 * d1, br3, 3), 1e-8);
}

TEST(wang_liu_flores_stored_energy_steps_from_hertz_to_kp_at_delta_y)
{
    const clink_law *law = clink_law_find("wang-liu-flores");
    clink_contact_params p;
    clink_contact_state s;
    clink_maliu ml = paper_law();

    paper_params(&p);
    p.e = 0.7;
    clink_contact_state_init(&s);
    ENSURE(clink_law_onset(law, &p, 4.0, paper_mass(), &s) == CLINK_OK);
    double br[1] = {ml.delta_y};
    ENSURE_REL(clink_law_stored_energy(law, &p, &s, 0.5 * ml.delta_y),
               0.4 * ml.K_hertz * pow(0.5 * ml.delta_y, 2.5), 1e-12);
    double d = 30.0 * ml.delta_y;
    ENSURE_REL(clink_law_stored_energy(law, &p, &s, d), stored_piecewise(law, &p, &s, d, br, 1),
               1e-8);
    ENSURE_REL(clink_law_stored_energy(law, &p, &s, d),
               0.4 * ml.K_hertz * pow(ml.delta_y, 2.5) +
                   0.5 * ml.Kp * (d * d - ml.delta_y * ml.delta_y),
               1e-12);
}
