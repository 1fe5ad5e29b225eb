/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the contact-law laboratory (src/lab/): closed
 * forms of the undamped Hertz impact and of Feng's power-law Tsuji impact, the
 * exact Hunt-Crossley calibration, the energy balance, zero-force separation, the
 * exact Kelvin-Voigt restitution, every law of the catalogue against CVODE,
 * calibration, and error handling.
 */
#include "ensure.h"

#include "clink/contact.h"
#include "clink/elastoplastic.h"
#include "clink/feng.h"
#include "clink/lab.h"

#include <math.h>
#include <string.h>

static const clink_law *law(const char *name)
{
    const clink_law *l = clink_law_find(name);
    ENSURE(l != NULL);
    return l;
}

static void params_k_n(clink_contact_params *p, double K, double n)
{
    clink_contact_params_init(p);
    p->K = K;
    p->n = n;
}

TEST(undamped_hertz_rebounds_with_unit_restitution_and_the_exact_peak_force)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_result r;
    double K = 2.46e10, m = 0.54, v = 0.5;
    double dmax = pow(5.0 * m * v * v / (4.0 * K), 0.4);

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    params_k_n(&p, K, 1.5);
    ENSURE(clink_lab_impact(lab, law("hertz"), &p, m, v, NULL, &r) == CLINK_OK);
    ENSURE_NEAR(r.e_out, 1.0, 1e-9);
    ENSURE_REL(r.delta_max, dmax, 1e-9);
    ENSURE_REL(r.F_max, K * pow(dmax, 1.5), 1e-8);
    ENSURE_NEAR(r.E_diss_compression, 0.0, 1e-9 * r.E_impact);
    ENSURE_NEAR(r.E_diss_restitution, 0.0, 1e-9 * r.E_impact);
    ENSURE(r.energy_residual < 1e-9);
    ENSURE(r.separated == 1);
    ENSURE_NEAR(r.delta_residual, 0.0, 1e-15);
    /* the undamped pulse is symmetric: peak force at half the duration */
    ENSURE_REL(r.t_F_max, 0.5 * r.duration, 1e-8);
    clink_lab_destroy(&lab);
    ENSURE(lab == NULL);
}

TEST(energy_dissipated_in_compression_and_restitution_adds_up_to_the_kinetic_energy_lost)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_result r;
    double m = 0.046, v = 0.3;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    params_k_n(&p, 5.5e9, 1.5);
    p.e = 0.7;
    ENSURE(clink_lab_impact(lab, law("hunt-crossley"), &p, m, v, NULL, &r) == CLINK_OK);
    ENSURE(r.e_out > 0.0 && r.e_out < 1.0);
    ENSURE(r.E_diss_compression > 0.0 && r.E_diss_restitution > 0.0);
    ENSURE_REL(r.E_diss_compression + r.E_diss_restitution + r.E_residual,
               r.E_impact * (1.0 - r.e_out * r.e_out), 1e-9);
    /* the damping work integrated along the trajectory is the same energy */
    ENSURE_REL(r.W_damping, r.E_diss_compression + r.E_diss_restitution, 1e-8);
    ENSURE(r.energy_residual < 1e-9);
    ENSURE(r.F_max > 0.0 && r.t_F_max < r.t_compression);
    clink_lab_destroy(&lab);
}

TEST(zero_force_separation_leaves_residual_penetration_at_zero_force)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_result r;
    double K = 1e8, m = 1.0, v = 1.0;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    params_k_n(&p, K, 1.5);
    p.e = 0.5;
    ENSURE(clink_lab_impact(lab, law("poursina-nikravesh"), &p, m, v, NULL, &r) == CLINK_OK);
    ENSURE(r.delta_residual > 0.0);
    ENSURE(r.damping_is_c == 1);
    /* separation where c delta_dot + K delta^n = 0 */
    ENSURE_NEAR(r.damping * r.v_out + K * pow(r.delta_residual, 1.5), 0.0, 1e-8 * r.F_max);
    ENSURE(r.E_residual > 0.0);
    ENSURE_REL(r.E_residual, K * pow(r.delta_residual, 2.5) / 2.5, 1e-9);
    clink_lab_destroy(&lab);
}

TEST(linear_damper_with_zero_force_separation_matches_the_exact_kelvin_voigt_restitution)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_options o;
    clink_lab_result r;
    double xi[] = {0.05, 0.3, 0.7071, 0.9, 1.5, 3.0};
    size_t i;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    for (i = 0; i < sizeof xi / sizeof xi[0]; i++) {
        params_k_n(&p, 1e4, 1.0);
        p.c = 2.0 * xi[i] * sqrt(1e4 * 2.0);
        clink_lab_options_init(&o);
        ENSURE(clink_lab_impact(lab, law("hertz-linear-damper"), &p, 2.0, 0.1, &o, &r) == CLINK_OK);
        ENSURE_NEAR(r.e_out, clink_contact_kv_restitution_zero_force(xi[i]), 1e-9);
    }
    clink_lab_destroy(&lab);
}

TEST(calibration_reaches_the_target_restitution_to_1e_9)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_calibration cal;
    const char *names[] = {"hunt-crossley", "lankarani-nikravesh", "flores", "power-law-tsuji",
                           "poursina-nikravesh"};
    size_t i;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        params_k_n(&p, 5.5e9, 1.5);
        ENSURE(clink_lab_calibrate(lab, law(names[i]), &p, 0.046, 0.3, 0.4, NULL, &cal) ==
               CLINK_OK);
        ENSURE_NEAR(cal.e_achieved, 0.4, 1e-9);
        ENSURE(cal.damping > 0.0);
    }
    clink_lab_destroy(&lab);
}

TEST(power_law_tsuji_calibrated_alpha_equals_feng_equation_14)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_calibration cal;
    double e = 0.3, pexp = 2.0, ln = log(e);
    double alpha14 = sqrt(2.0 * (pexp + 1.0)) * (-ln) /
                     sqrt(3.14159265358979323846 * 3.14159265358979323846 + ln * ln);

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    params_k_n(&p, 1e6, pexp);
    ENSURE(clink_lab_calibrate(lab, law("power-law-tsuji"), &p, 1.0, 1.0, e, NULL, &cal) ==
           CLINK_OK);
    ENSURE_REL(cal.alpha, alpha14, 1e-7);
    ENSURE_NEAR(cal.e_law, e, 1e-9);
    clink_lab_destroy(&lab);
}

static void count_samples(void *ctx, double t, double d, double dd, double F)
{
    double *last = ctx;
    ENSURE(t >= last[0]);
    ENSURE(isfinite(d) && isfinite(dd) && isfinite(F));
    last[0] = t;
    last[1] += 1.0;
}

TEST(loop_samples_arrive_in_time_order)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_options o;
    clink_lab_result r;
    double state[2] = {0.0, 0.0};

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    params_k_n(&p, 5.5e9, 1.5);
    p.e = 0.7;
    clink_lab_options_init(&o);
    o.sample = count_samples;
    o.sample_ctx = state;
    o.samples_per_step = 3;
    ENSURE(clink_lab_impact(lab, law("flores"), &p, 0.046, 0.3, &o, &r) == CLINK_OK);
    ENSURE(state[1] > 3.0 * (double) r.n_steps);
    ENSURE_NEAR(state[0], r.duration, 1e-15);
    clink_lab_destroy(&lab);
}

TEST(bad_input_returns_an_error_with_a_message)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_result r;
    clink_lab_calibration cal;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    params_k_n(&p, 1e9, 1.5);
    ENSURE(clink_lab_impact(lab, law("hertz"), &p, 0.0, 1.0, NULL, &r) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_lab_error(lab), "mass") != NULL);
    ENSURE(clink_lab_impact(lab, law("hertz"), &p, 1.0, NAN, NULL, &r) == CLINK_ERR_RANGE);
    ENSURE(clink_lab_impact(lab, law("hertz"), &p, 1.0, -1.0, NULL, &r) == CLINK_ERR_RANGE);
    ENSURE(clink_lab_impact(lab, NULL, &p, 1.0, 1.0, NULL, &r) == CLINK_ERR_ARG);
    clink_contact_params_init(&p); /* no stiffness */
    ENSURE(clink_lab_impact(lab, law("hertz"), &p, 1.0, 1.0, NULL, &r) < 0);
    ENSURE(clink_lab_error(lab)[0] != '\0');
    params_k_n(&p, 1e9, 1.5);
    ENSURE(clink_lab_calibrate(lab, law("hunt-crossley"), &p, 1.0, 1.0, 1.5, NULL, &cal) ==
           CLINK_ERR_RANGE);
    ENSURE(clink_lab_calibrate(lab, law("hunt-crossley"), &p, 1.0, 1.0, 0.0, NULL, &cal) ==
           CLINK_ERR_RANGE);
    ENSURE(clink_lab_calibrate(lab, law("hertz"), &p, 1.0, 1.0, 0.5, NULL, &cal) == CLINK_ERR_ARG);
    clink_lab_destroy(&lab);
    clink_lab_destroy(&lab); /* NULL is accepted */
}

TEST(feng_impacts_match_the_closed_forms_for_several_exponents_and_restitutions)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_result r;
    clink_feng_forms fz;
    const double ps[] = {1.0, 1.25, 1.5, 2.0, 2.5}, es[] = {0.3, 0.6, 0.9};
    size_t i, j;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    for (i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (j = 0; j < sizeof es / sizeof es[0]; j++) {
            params_k_n(&p, 1e6, ps[i]);
            p.e = es[j];
            ENSURE(clink_lab_impact(lab, law("power-law-tsuji"), &p, 1.0, 1.0, NULL, &r) ==
                   CLINK_OK);
            ENSURE(clink_feng_evaluate(ps[i], 1e6, 1.0, 1.0, clink_feng_alpha(es[j], ps[i]), &fz) ==
                   CLINK_OK);
            /* Eq. 14 gives the restitution exactly: the error is the integration's */
            ENSURE_NEAR(r.e_out, es[j], 1e-9);
            ENSURE_REL(r.delta_max, fz.delta_max, 1e-9);
            ENSURE_REL(r.duration, fz.duration, 1e-9);
            ENSURE_REL(r.E_diss_compression, fz.E_load, 1e-7);
            ENSURE(r.energy_residual < 1e-9);
        }
    clink_lab_destroy(&lab);
}

TEST(the_exact_hunt_crossley_calibration_gives_its_restitution_at_loose_tolerance)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_options o;
    clink_lab_result r;
    const double es[] = {0.2, 0.5, 0.8, 0.95};
    size_t j;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    clink_lab_options_init(&o);
    o.rtol = 1e-9;
    for (j = 0; j < sizeof es / sizeof es[0]; j++) {
        params_k_n(&p, 5.5e9, 1.5);
        p.e = es[j];
        ENSURE(clink_lab_impact(lab, law("gonthier-exact"), &p, 0.046, 0.3, &o, &r) == CLINK_OK);
        ENSURE_NEAR(r.e_out, es[j], 1e-8);
        ENSURE(r.n_steps < 60);
    }
    clink_lab_destroy(&lab);
}

/* every parameter any law of the catalogue needs (the Ma-Liu values of Wang, Liu and Liu 2022) */
static void params_all(clink_contact_params *p)
{
    clink_contact_params_init(p);
    p->K = 1e9;
    p->e = 0.7;
    p->E1 = 2.0e11;
    p->E2 = 6.5e10;
    p->nu1 = 0.29;
    p->nu2 = 0.33;
    p->R1 = -2.05e-2;
    p->R2 = 2.00e-2;
    p->Y = 3.0e7;
    p->psi = 3.0;
    p->xi = 13.0;
    p->L = 0.02; /* the cylinder laws' axial length */
}

TEST(every_law_of_the_catalogue_gives_the_same_impact_as_cvode)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_options o_rk, o_cv;
    clink_lab_result a, b;
    char msg[512];
    size_t i, runs = 0;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    clink_lab_options_init(&o_rk);
    clink_lab_options_init(&o_cv);
    ENSURE(o_rk.method == CLINK_LAB_RK8);
    o_cv.method = CLINK_LAB_ADAMS;
    for (i = 0; i < clink_law_count(); i++) {
        const clink_law *l = clink_law_at(i);
        const char *name = clink_law_name(l);
        params_all(&p);
        if (clink_law_check(l, &p, msg, sizeof msg) != CLINK_OK) {
            /* laws with a coefficient given directly */
            if (strstr(msg, "chi") != NULL)
                p.chi = 1e3;
            if (strstr(msg, "c:") != NULL || strstr(msg, "c ") != NULL)
                p.c = 50.0;
            if (strstr(msg, "eta") != NULL)
                p.chi = 1e3;
        }
        if (clink_law_check(l, &p, msg, sizeof msg) != CLINK_OK) {
            ENSURE_STR_EQ(msg, "");
            continue;
        }
        ENSURE(clink_lab_impact(lab, l, &p, 0.5, 0.5, &o_rk, &a) == CLINK_OK);
        ENSURE(clink_lab_impact(lab, l, &p, 0.5, 0.5, &o_cv, &b) == CLINK_OK);
        if (!(a.separated && b.separated)) {
            ENSURE_STR_EQ(name, "did not separate");
            continue;
        }
        runs++;
        ENSURE_NEAR(a.e_out, b.e_out, 1e-8);
        ENSURE_REL(a.delta_max, b.delta_max, 1e-8);
        ENSURE_REL(a.F_max, b.F_max, 1e-7);
        ENSURE_REL(a.duration, b.duration, 1e-8);
        ENSURE_NEAR(a.t_F_max, b.t_F_max, 1e-8 * b.duration);
        ENSURE_NEAR(a.delta_residual, b.delta_residual, 1e-9 * b.delta_max);
        ENSURE_NEAR(a.E_diss_compression, b.E_diss_compression, 1e-8 * b.E_impact);
        ENSURE_NEAR(a.E_diss_restitution, b.E_diss_restitution, 1e-8 * b.E_impact);
        ENSURE_NEAR(a.W_damping, b.W_damping, 1e-8 * b.E_impact);
        ENSURE(a.energy_residual < 1e-9);
    }
    ENSURE(runs == clink_law_count());
    clink_lab_destroy(&lab);
}

TEST(ma_liu_impacts_match_the_closed_form_with_their_residual_indentation)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_result r;
    clink_maliu ml;
    clink_maliu_impact cf;
    const double vs[] = {0.05, 0.5, 4.0, 8.0}, m = 0.26138;
    size_t j;

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    params_all(&p);
    ENSURE(clink_maliu_init(&ml, &p, NULL, 0) == CLINK_OK);
    for (j = 0; j < sizeof vs / sizeof vs[0]; j++) {
        ENSURE(clink_lab_impact(lab, law("ma-liu"), &p, m, vs[j], NULL, &r) == CLINK_OK);
        ENSURE(clink_maliu_impact_solve(&ml, m, vs[j], &cf) == CLINK_OK);
        /* rate-independent: the kinematic restitution is the energetic one */
        ENSURE_NEAR(r.e_out, cf.restitution, 1e-9);
        ENSURE_REL(r.delta_max, cf.delta_max, 1e-9);
        ENSURE_REL(r.F_max, cf.F_max, 1e-9);
        ENSURE_NEAR(r.delta_residual, cf.delta_r, 1e-9 * cf.delta_max);
        ENSURE_NEAR(r.E_diss_compression + r.E_diss_restitution, cf.dissipated, 1e-9 * cf.energy);
    }
    clink_lab_destroy(&lab);
}

TEST(feng_restitution_within_1e_8_at_rtol_1e_8_in_few_steps)
{
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_options o;
    clink_lab_result r;
    const double es[] = {0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
    size_t j;

    /* the accuracy the benchmark asks for, at a tolerance ten times looser */
    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    clink_lab_options_init(&o);
    o.rtol = 1e-8;
    for (j = 0; j < sizeof es / sizeof es[0]; j++) {
        params_k_n(&p, 1e6, 1.5);
        p.e = es[j];
        ENSURE(clink_lab_impact(lab, law("power-law-tsuji"), &p, 1.0, 1.0, &o, &r) == CLINK_OK);
        ENSURE_NEAR(r.e_out, es[j], 1e-8);
        ENSURE(r.n_steps <= 30); /* CVODE Adams: 175 steps at e = 0.5, |e err| 7.6e-7 */
    }
    clink_lab_destroy(&lab);
}
