/* SPDX-License-Identifier: BSD-3-Clause */
/* The friction catalogue: Ambrosio's modified Coulomb friction (dead band, linear ramp, full
   Coulomb), the other laws, the descriptor and the checks. */
#include "ensure.h"

#include "contact/friction_table.h"
#include "clink/xml.h"
#include "clink/sim.h"

#include <math.h>
#include <string.h>

static clink_friction_params ambrosio(double mu)
{
    clink_friction_params p = clink_default_friction_params();
    p.kind = CLINK_FRICTION_AMBROSIO;
    p.mu = mu;
    return p;
}

TEST(friction_is_zero_inside_the_dead_band_and_full_above_v1)
{
    clink_friction_params p = ambrosio(0.01);

    ENSURE_NEAR(clink_friction_force(&p, 0.0, 100.0), 0.0, 0.0);
    ENSURE_NEAR(clink_friction_force(&p, 0.5e-4, 100.0), 0.0, 0.0);
    ENSURE_NEAR(clink_friction_force(&p, 2.0, 100.0), -1.0, 1e-15);
    ENSURE_NEAR(clink_friction_force(&p, -2.0, 100.0), 1.0, 1e-15);
}

TEST(friction_ramps_linearly_between_the_two_thresholds)
{
    clink_friction_params p = ambrosio(0.2);

    /* halfway between v0 = 1e-4 and v1 = 1e-3 */
    ENSURE_NEAR(clink_friction_correction(&p, 5.5e-4), 0.5, 1e-12);
    ENSURE_NEAR(clink_friction_force(&p, -5.5e-4, 10.0), 1.0, 1e-12);
    /* continuous at both thresholds */
    ENSURE_NEAR(clink_friction_correction(&p, 1e-4 * (1 + 1e-12)), 0.0, 1e-8);
    ENSURE_NEAR(clink_friction_correction(&p, 1e-3 * (1 - 1e-12)), 1.0, 1e-8);
}

TEST(friction_vanishes_without_compression_or_when_disabled)
{
    clink_friction_params p = ambrosio(0.3), none = clink_default_friction_params();

    ENSURE_NEAR(clink_friction_force(&p, 1.0, 0.0), 0.0, 0.0);
    ENSURE_NEAR(clink_friction_force(&p, 1.0, -5.0), 0.0, 0.0);
    ENSURE_NEAR(clink_friction_force(&none, 1.0, 5.0), 0.0, 0.0);
}

TEST(friction_check_names_the_parameter_out_of_range)
{
    clink_friction_params p = ambrosio(-0.1);
    char msg[128] = "";

    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "mu") != NULL);
    p = ambrosio(0.1);
    p.v1 = p.v0;
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "v1") != NULL);
    p = ambrosio(0.1);
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_OK);
}

/* ---- the catalogue ------------------------------------------------------------ */

static clink_friction_params law(clink_friction_kind kind, double mu)
{
    clink_friction_params p = clink_default_friction_params();
    p.kind = kind;
    p.mu = mu;
    p.mu_s = 1.5 * mu;
    p.v_s = 1e-3;
    p.sigma0 = 1e5;
    return p;
}

TEST(friction_catalogue_finds_every_law_by_name_alias_and_kind)
{
    ENSURE(clink_friction_law_count() == 8);
    for (size_t i = 0; i < clink_friction_law_count(); i++) {
        const clink_friction_law_info *f = clink_friction_law_at(i);
        ENSURE(clink_friction_law_find(f->name) == f);
        ENSURE(clink_friction_law_of(f->kind) == f);
        ENSURE(f->sticking[0] != '\0');
        ENSURE((f->states > 0) == (f->reset[0] != '\0'));
    }
    ENSURE(clink_friction_law_find("ambrosio")->kind == CLINK_FRICTION_AMBROSIO);
    ENSURE(clink_friction_law_find("lugree") == NULL);
    ENSURE(clink_friction_law_at(clink_friction_law_count()) == NULL);
}

TEST(friction_descriptor_lists_every_parameter_at_its_offset)
{
    clink_friction_params p = clink_default_friction_params();
    const clink_friction_param *d = clink_friction_param_find("sigma1");
    ENSURE(d != NULL);
    *(double *) ((char *) &p + d->offset) = 42.0;
    ENSURE_NEAR(p.sigma1, 42.0, 0.0);
    ENSURE(clink_friction_param_find("v_s") != NULL);
    ENSURE(clink_friction_param_find("K") == NULL);
    ENSURE(clink_friction_param_count() == 9);
}

TEST(friction_static_laws_saturate_at_coulomb_and_stribeck_peaks_at_mu_s)
{
    clink_friction_params r = law(CLINK_FRICTION_RAMP, 0.2), t = law(CLINK_FRICTION_TANH, 0.2);
    clink_friction_params s = law(CLINK_FRICTION_STRIBECK, 0.2);
    ENSURE_NEAR(clink_friction_force(&r, 0.5e-3, 10.0), -1.0, 1e-15);
    ENSURE_NEAR(clink_friction_force(&r, -1.0, 10.0), 2.0, 1e-15);
    ENSURE_NEAR(clink_friction_force(&t, 1e-3, 10.0), -2.0 * tanh(1.0), 1e-15);
    /* at the end of the ramp the Stribeck curve is near mu_s = 0.3; far above v_s, mu */
    s.v1 = 1e-6;
    ENSURE_NEAR(clink_friction_force(&s, 1e-6, 10.0), -3.0 * 1.0, 1e-5);
    ENSURE_NEAR(clink_friction_force(&s, 1.0, 10.0), -2.0, 1e-12);
    s.sigma2 = 0.5;
    ENSURE_NEAR(clink_friction_force(&s, 1.0, 10.0), -2.5, 1e-12);
    ENSURE(clink_friction_state_count(&s) == 0);
}

TEST(friction_lugre_steady_state_is_the_stribeck_curve)
{
    clink_friction_params p = law(CLINK_FRICTION_LUGRE, 0.2);
    p.sigma1 = 300.0;
    p.sigma2 = 0.1;
    ENSURE(clink_friction_state_count(&p) == 1);
    for (double v = -2e-3; v <= 2e-3; v += 1e-3) {
        if (v == 0.0)
            continue;
        double mu = 0.2 + 0.1 * exp(-(v / 1e-3) * (v / 1e-3));
        double z = (v > 0 ? mu : -mu) / 1e5, zd;
        double f = clink_friction_force_state(&p, v, 10.0, z, &zd);
        ENSURE_NEAR(zd, 0.0, 1e-15);
        ENSURE_NEAR(f, -10.0 * (v > 0 ? mu : -mu) - 0.1 * v, 1e-12);
        ENSURE_NEAR(clink_friction_state_decay(&p, v), -1e5 * fabs(v) / mu, 1e-9);
    }
}

TEST(friction_check_refuses_each_law_s_bad_parameters)
{
    char msg[160] = "";
    clink_friction_params p = law(CLINK_FRICTION_STRIBECK, 0.2);
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_OK);
    p.mu_s = 0.1;
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "mu_s") != NULL);
    p = law(CLINK_FRICTION_STRIBECK, 0.2);
    p.v_s = 0.0;
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "v_s") != NULL);
    p = law(CLINK_FRICTION_LUGRE, 0.2);
    p.sigma1 = -1.0;
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "sigma1") != NULL);
    p = law(CLINK_FRICTION_DAHL, 0.2);
    p.sigma0 = NAN;
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "sigma0") != NULL);
    p = law(CLINK_FRICTION_TANH, 0.2);
    p.v1 = 0.0;
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "v1") != NULL);
}

/* ---- the rows' hooks (src/contact/friction_table.h), for every law ---------------- */

/* params in range for every law of the catalogue, of the given kind */
static clink_friction_params valid(size_t kind)
{
    clink_friction_params p = law((clink_friction_kind) kind, 0.2);
    p.sigma1 = 300.0;
    p.sigma2 = 0.1;
    return p;
}

TEST(friction_rows_are_in_kind_order_with_the_hooks_their_states_need)
{
    ENSURE(CONTACT_FRICTION_LAWS == clink_friction_law_count());
    for (size_t i = 0; i < clink_friction_law_count(); i++) {
        const struct contact_friction_law *row = contact_friction_table[i];
        ENSURE(clink_friction_law_at(i) == &row->info);
        ENSURE((size_t) row->info.kind == i);
        ENSURE(contact_friction_law_of((clink_friction_kind) i) == row);
        int dynamic = row->info.states > 0;
        ENSURE(dynamic == (row->rate != NULL) && dynamic == (row->decay != NULL));
        ENSURE(dynamic == (row->state_scale != NULL));
        ENSURE((row->force == NULL) == (row->info.kind == CLINK_FRICTION_NONE));
    }
    ENSURE(contact_friction_law_of((clink_friction_kind) CONTACT_FRICTION_LAWS) == NULL);
    ENSURE(contact_friction_law_of((clink_friction_kind) -1) == NULL);
}

TEST(every_friction_law_accepts_valid_parameters_and_refuses_a_negative_mu)
{
    char msg[160] = "";
    for (size_t i = 1; i < clink_friction_law_count(); i++) {
        clink_friction_params p = valid(i);
        ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_OK);
        p.mu = -0.1;
        ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE);
        ENSURE(strstr(msg, "friction mu") != NULL);
    }
}

/* the split the contact Jacobian makes: F_t - viscous(v) is F_n times a function of (v, z) */
TEST(every_friction_law_less_its_viscous_part_scales_with_the_normal_force)
{
    const double vs[] = {-2e-2, -7e-4, -1e-5, 0.0, 3e-6, 4e-4, 1e-3, 5e-2};
    for (size_t i = 1; i < clink_friction_law_count(); i++) {
        clink_friction_params p = valid(i);
        for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
            double z = 1e-6, visc = contact_friction_viscous(&p, vs[k]);
            double f1 = clink_friction_force_state(&p, vs[k], 3.0, z, NULL) - visc;
            double f2 = clink_friction_force_state(&p, vs[k], 6.0, z, NULL) - visc;
            ENSURE_NEAR(f2, 2.0 * f1, 1e-13 * (1.0 + fabs(f1)));
        }
    }
    /* the viscous part is there (stribeck, lugre: -sigma2 v) */
    clink_friction_params s = valid(CLINK_FRICTION_STRIBECK);
    ENSURE_NEAR(contact_friction_viscous(&s, 2.0), -0.2, 1e-15);
}

TEST(every_dynamic_friction_law_decays_at_the_slope_of_its_rate_in_the_state)
{
    for (size_t i = 1; i < clink_friction_law_count(); i++) {
        clink_friction_params p = valid(i);
        if (clink_friction_state_count(&p) == 0) {
            ENSURE(clink_friction_state_decay(&p, 1e-3) == 0.0);
            ENSURE(contact_friction_state_scale(&p) == 0.0);
            continue;
        }
        /* the scale is the steady deflection's size max(mu, mu_s) / sigma0 */
        ENSURE_REL(contact_friction_state_scale(&p), fmax(p.mu, p.mu_s) / p.sigma0, 1e-15);
        for (double v = -3e-3; v <= 3e-3; v += 1.5e-3) {
            double z = 1e-6, h = 1e-9, zp, zm;
            clink_friction_force_state(&p, v, 1.0, z + h, &zp);
            clink_friction_force_state(&p, v, 1.0, z - h, &zm);
            ENSURE_NEAR(clink_friction_state_decay(&p, v), (zp - zm) / (2.0 * h),
                        1e-6 * (1.0 + fabs(clink_friction_state_decay(&p, v))));
        }
    }
}

/* ---- stribeck-tanh: F_t = -F_n mu(v) tanh(v / eps) - sigma2 v ----------------------- */

static clink_friction_params stribeck_tanh(double delta, double eps, double sigma2)
{
    clink_friction_params p = clink_default_friction_params();
    p.kind = CLINK_FRICTION_STRIBECK_TANH;
    p.mu = 0.2;
    p.mu_s = 0.3;
    p.v_s = 1e-2;
    p.delta = delta;
    p.v1 = eps;
    p.sigma2 = sigma2;
    return p;
}

/* the law written anew from its formula (mu_k = 0.2, mu_s = 0.3, v_s = 1e-2 m/s) */
static double st_force(double delta, double eps, double s2, double fn, double v)
{
    double mu = 0.2 + 0.1 * exp(-pow(fabs(v) / 1e-2, delta));
    return -fn * mu * tanh(v / eps) - s2 * v;
}

/* its slope: -F_n (mu'(v) tanh(v / eps) + mu(v) (1 - tanh^2(v / eps)) / eps) - sigma2 */
static double st_slope(double delta, double eps, double s2, double fn, double v)
{
    double r = fabs(v) / 1e-2, e = exp(-pow(r, delta)), th = tanh(v / eps);
    double dmu = v == 0.0 ? 0.0 : -0.1 * e * delta * pow(r, delta - 1.0) / 1e-2 * (v > 0 ? 1 : -1);
    return -fn * (dmu * th + (0.2 + 0.1 * e) * (1.0 - th * th) / eps) - s2;
}

TEST(stribeck_tanh_force_matches_its_closed_form_at_chosen_velocities)
{
    const double vs[] = {-0.3, -1e-2, -1e-4, 0.0, 5e-5, 1e-4, 3e-3, 1e-2, 0.1, 2.0};
    const double deltas[] = {2.0, 1.0, 0.5};
    for (int d = 0; d < 3; d++) {
        clink_friction_params p = stribeck_tanh(deltas[d], 1e-4, 0.05);
        for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
            double f = clink_friction_force(&p, vs[k], 10.0);
            ENSURE_NEAR(f, st_force(deltas[d], 1e-4, 0.05, 10.0, vs[k]), 1e-14 * (1 + fabs(f)));
            /* odd in the slip, and nothing without compression */
            ENSURE(clink_friction_force(&p, -vs[k], 10.0) == -f);
            ENSURE(clink_friction_force(&p, vs[k], -1.0) == 0.0);
        }
    }
    /* at v = v_s (delta 2): mu = mu_k + (mu_s - mu_k) / e, tanh(100) = 1 in doubles */
    clink_friction_params p = stribeck_tanh(2.0, 1e-4, 0.0);
    ENSURE_NEAR(clink_friction_force(&p, 1e-2, 10.0), -10.0 * (0.2 + 0.1 / exp(1.0)), 1e-14);
    /* at v = eps, far below v_s: mu_s tanh(1) to (eps / v_s)^2 (mu_s - mu_k) = 1e-5 */
    ENSURE_NEAR(clink_friction_force(&p, 1e-4, 10.0), -10.0 * 0.3 * tanh(1.0), 10.0 * 1.1e-5);
    ENSURE(clink_friction_state_count(&p) == 0);
    ENSURE(clink_friction_law_find("stribeck-tanh")->kind == CLINK_FRICTION_STRIBECK_TANH);
}

TEST(stribeck_tanh_slope_matches_its_closed_form_and_central_differences)
{
    const double vs[] = {-3e-2, -2e-4, 0.0, 3e-5, 1e-4, 4e-3, 1e-2, 0.2};
    for (int d = 1; d <= 2; d++) {
        clink_friction_params p = stribeck_tanh((double) d, 1e-4, 0.05);
        for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
            double v = vs[k], h = 1e-5 * fmax(fabs(v), 1e-4);
            double diff =
                (clink_friction_force(&p, v + h, 10.0) - clink_friction_force(&p, v - h, 10.0)) /
                (2 * h);
            double exact = st_slope((double) d, 1e-4, 0.05, 10.0, v);
            ENSURE_NEAR(diff, exact, 1e-7 * fabs(exact) + 1e-9);
        }
        /* at rest the tanh's slope alone: -F_n mu_s / eps - sigma2 */
        ENSURE_REL(st_slope((double) d, 1e-4, 0.05, 10.0, 0.0), -10.0 * 0.3 / 1e-4 - 0.05, 1e-15);
    }
}

TEST(stribeck_tanh_gives_mu_k_far_above_v_s_and_mu_s_between_eps_and_v_s)
{
    clink_friction_params p = stribeck_tanh(2.0, 1e-7, 0.0);
    /* v = 100 v_s: exp(-1e4) = 0, the kinetic coefficient exactly */
    ENSURE(clink_friction_force(&p, 1.0, 10.0) == -10.0 * 0.2);
    ENSURE_NEAR(clink_friction_force(&p, -0.3, 4.0), 4.0 * 0.2, 1e-15);
    /* eps << v << v_s: the static coefficient, to (v / v_s)^2 (mu_s - mu_k) = 1e-7 */
    ENSURE_NEAR(clink_friction_force(&p, 1e-5, 10.0) / -10.0, 0.3, 1.1e-7);
    /* and the Stribeck curve falls monotonically between them */
    double prev = 0.3;
    for (double v = 1e-5; v < 1.0; v *= 1.5) {
        double mu = clink_friction_force(&p, v, 1.0) / -1.0;
        ENSURE(mu <= prev && mu >= 0.2);
        prev = mu;
    }
}

/*
 * With viscous friction the sliding force has its Stribeck minimum where the curve's fall
 * meets the viscous rise: delta = 1, F_n mu'(v) = -sigma2, so (tanh = 1 there)
 *   v* = v_s ln((mu_s - mu_k) F_n / (sigma2 v_s)),   |F_t|(v*) = F_n mu_k + sigma2 (v_s + v*).
 * The minimum of clink's force by golden-section search against both.
 */
TEST(stribeck_tanh_sliding_force_has_its_minimum_where_the_closed_form_puts_it)
{
    clink_friction_params p = stribeck_tanh(1.0, 1e-4, 0.05);
    const double fn = 10.0, g = 0.5 * (sqrt(5.0) - 1.0);
    double a = 1e-2, b = 1.0;
    for (int it = 0; it < 200 && b - a > 1e-12; it++) {
        double c = b - g * (b - a), d = a + g * (b - a);
        if (-clink_friction_force(&p, c, fn) < -clink_friction_force(&p, d, fn))
            b = d;
        else
            a = c;
    }
    double vmin = 0.5 * (a + b), vstar = 1e-2 * log(0.1 * fn / (0.05 * 1e-2));
    ENSURE_REL(vmin, vstar, 1e-6);
    ENSURE_REL(-clink_friction_force(&p, vmin, fn), fn * 0.2 + 0.05 * (1e-2 + vstar), 1e-12);
}

TEST(stribeck_tanh_check_names_its_bad_parameters)
{
    char msg[160] = "";
    clink_friction_params p = stribeck_tanh(2.0, 1e-4, 0.0);
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_OK);
    p.v1 = 0.0;
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE && strstr(msg, "v1"));
    p = stribeck_tanh(2.0, 1e-4, 0.0);
    p.mu_s = 0.1;
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE && strstr(msg, "mu_s"));
    p = stribeck_tanh(2.0, 1e-4, 0.0);
    p.v_s = NAN;
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE && strstr(msg, "v_s"));
    p = stribeck_tanh(0.0, 1e-4, 0.0);
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE && strstr(msg, "delta"));
    p = stribeck_tanh(2.0, 1e-4, -1.0);
    ENSURE(clink_friction_check(&p, msg, sizeof msg) == CLINK_ERR_RANGE && strstr(msg, "sigma2"));
}

/*
 * models/belt_stick_slip.xml: a block (1 kg, F_n = m g = 9.81 N) on a belt at vb = 0.1 m/s,
 * tied by a spring k = 100 N/m, stribeck-tanh with mu = 0.3, mu_s = 0.5, v_s = 1e-2 m/s,
 * eps = v1 = 1e-4 m/s. While it sticks, the block creeps on the belt at the slip where the
 * law balances the spring, F_n mu(s) tanh(s / eps) = k x (the block's inertia is below
 * 1e-4 of it): s = eps atanh(k x / (F_n mu(s))), solved here by fixed-point iteration from
 * the x the simulation reached. Then the Stribeck curve's fall makes it slip back and
 * stick again.
 */
TEST(stribeck_tanh_belt_model_creeps_at_the_closed_form_slip_then_sticks_and_slips)
{
    char err[512];
    clink_model *m =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/belt_stick_slip.xml", err, sizeof err);
    clink_sim *sim = NULL;
    ENSURE(m != NULL && clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    if (sim == NULL) {
        clink_model_destroy(&m);
        return;
    }
    const double fn = 9.81, k = 100.0, eps = 1e-4, vb = 0.1;
    double q[3], v[3], vmin = 1.0;
    int restuck = 0;
    for (int i = 1; i <= 120; i++) {
        double t = 0.01 * i;
        ENSURE(clink_sim_advance(sim, t) == CLINK_OK);
        clink_sim_body_state(sim, 2, q, v);
        if (i % 10 == 0 && t <= 0.4) {
            double s = 0.0;
            for (int it = 0; it < 50; it++)
                s = eps * atanh(k * q[0] / (fn * (0.3 + 0.2 * exp(-(s / 1e-2) * (s / 1e-2)))));
            ENSURE_REL(vb - v[0], s, 1e-3);
        }
        vmin = fmin(vmin, v[0]);
        /* back on the belt after slipping back */
        restuck = restuck || (vmin < 0.0 && fabs(v[0] - vb) < 10 * eps);
    }
    ENSURE(vmin < -0.1);
    ENSURE(restuck);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
