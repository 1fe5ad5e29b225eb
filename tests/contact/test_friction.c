/* SPDX-License-Identifier: BSD-3-Clause */
/* The friction catalogue: Ambrosio's modified Coulomb friction (dead band, linear ramp, full
   Coulomb), the other laws, the descriptor and the checks. */
#include "ensure.h"

#include "clink/friction.h"

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
