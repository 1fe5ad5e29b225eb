/* SPDX-License-Identifier: BSD-3-Clause */
/* The friction catalogue: Ambrosio's modified Coulomb friction (dead band, linear ramp, full
   Coulomb), the other laws, the descriptor and the checks. */
#include "ensure.h"

#include "contact/friction_table.h"

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
    ENSURE(clink_friction_law_count() == 7);
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
