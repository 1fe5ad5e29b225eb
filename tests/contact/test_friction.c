/* SPDX-License-Identifier: BSD-3-Clause */
/* Ambrosio's modified Coulomb friction: dead band, linear ramp, full Coulomb. */
#include "ensure.h"

#include "clink/friction.h"

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
