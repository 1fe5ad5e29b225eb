/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The translational clearance joint (include/clink/model.h): its checks, the eight
 * corner-surface contacts it expands into with their names, its outputs (lateral offset
 * and tilt), and a slider dropped in its guide coming to rest on two adjacent corners at
 * the offset the clearance and the law's static penetration give.
 */
#include "ensure.h"

#include "clink/model.h"
#include "clink/sim.h"

#include <math.h>
#include <string.h>

/* a free slider (0.14 kg) and a ground guide along x; gravity g (m/s^2) down */
static clink_model_builder *slider_builder(double g)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.name = "slider";
    bd.mass = 0.14;
    bd.inertia = 1e-4;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_model_builder_set_gravity(b, 0.0, -g);
    return b;
}

static clink_translational_clearance_def guide_def(void)
{
    clink_translational_clearance_def d = clink_default_translational_clearance_def();
    d.name = "guide";
    d.guide_body = 0;
    d.slider_body = 1;
    d.length = 0.05;
    d.height = 0.04;
    d.clearance = 1e-4;
    d.law = "hertz";
    d.params.K = 1e11;
    d.params.n = 1.5;
    return d;
}

TEST(translational_clearance_refuses_bad_geometry_with_a_message)
{
    clink_model_builder *b = slider_builder(9.81);
    clink_translational_clearance_def d = guide_def();
    d.clearance = 0.0;
    ENSURE(clink_model_builder_add_translational_clearance(b, &d, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "clearance 0 m is out of range") != NULL);
    d = guide_def();
    d.axis[0] = d.axis[1] = 0.0;
    ENSURE(clink_model_builder_add_translational_clearance(b, &d, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "axis has zero length") != NULL);
    d = guide_def();
    d.guide_length = 0.049;
    ENSURE(clink_model_builder_add_translational_clearance(b, &d, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "longer than its guide") != NULL);
    d = guide_def();
    d.params.K = NAN;
    ENSURE(clink_model_builder_add_translational_clearance(b, &d, NULL) == CLINK_ERR_ARG);
    ENSURE(strstr(clink_model_builder_error(b), "stiffness missing") != NULL);
    clink_model_builder_destroy(&b);
}

TEST(translational_clearance_expands_into_eight_named_corner_contacts)
{
    clink_model_builder *b = slider_builder(9.81);
    clink_translational_clearance_def d = guide_def();
    clink_model *m = NULL;
    int id = -1;
    d.axis[0] = 2.0; /* normalised by the builder */
    ENSURE(clink_model_builder_add_translational_clearance(b, &d, &id) == CLINK_OK && id == 0);
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    ENSURE(clink_model_count(m, CLINK_ENTITY_TRANSLATIONAL_CLEARANCE) == 1);
    ENSURE(clink_model_element_count(m) == 1);
    ENSURE(clink_model_element_kind(m, 0) == CLINK_ELEMENT_TRANSLATIONAL_CLEARANCE);
    ENSURE_STR_EQ(clink_model_element_kind_name(CLINK_ELEMENT_TRANSLATIONAL_CLEARANCE),
                  "translational_clearance");
    ENSURE(clink_model_contact_count(m) == 8);
    ENSURE_STR_EQ(clink_model_contact_name(m, 0), "guide.corner1_lower");
    ENSURE_STR_EQ(clink_model_contact_name(m, 3), "guide.corner2_upper");
    for (int i = 0; i < 8; i++)
        ENSURE(clink_model_contact_element(m, i) == 0);
    clink_translational_clearance_def got;
    ENSURE(clink_model_translational_clearance(m, 0, &got) == CLINK_OK);
    ENSURE(got.axis[0] == 1.0 && got.axis[1] == 0.0);
    ENSURE_STR_EQ(got.name, "guide");
    /* outputs: slider centre 30 um above the mid-line, turned by 1 mrad */
    double qa[3] = {0, 0, 0}, qb[3] = {0.1, 3e-5, 1e-3}, v[2];
    const char *unit;
    ENSURE(clink_model_element_output_count(m, 0) == 2);
    ENSURE_STR_EQ(clink_model_element_output_name(m, 0, 1, &unit), "tilt");
    ENSURE_STR_EQ(unit, "rad");
    ENSURE(clink_model_element_outputs(m, 0, qa, qb, v) == CLINK_OK);
    ENSURE_NEAR(v[0], 3e-5, 1e-15);
    ENSURE_NEAR(v[1], 1e-3, 1e-15);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}

/*
 * Dropped from the centre, the slider lands flat on the lower surface and rests on its
 * two lower corners: offset -(c + delta_s) with the static penetration of each corner
 * carrying half the weight, delta_s = (m g / (2 K))^(1/n); the upper corners stay open.
 */
TEST(a_slider_dropped_in_its_guide_rests_on_two_adjacent_corners)
{
    clink_model_builder *b = slider_builder(9.81);
    clink_translational_clearance_def d = guide_def();
    d.law = "hunt-crossley";
    d.params.e = 0.5;
    clink_model *m = NULL;
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_model_builder_add_translational_clearance(b, &d, NULL) == CLINK_OK);
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.5) == CLINK_OK);
    double q[3], qd[3], qa[3] = {0, 0, 0}, out[2];
    ENSURE(clink_sim_body_state(sim, 1, q, qd) == CLINK_OK);
    ENSURE(clink_model_element_outputs(m, 0, qa, q, out) == CLINK_OK);
    double ds = pow(0.14 * 9.81 / (2.0 * 1e11), 1.0 / 1.5);
    ENSURE_REL(out[0], -(1e-4 + ds), 1e-3);
    ENSURE_NEAR(out[1], 0.0, 1e-9);
    int lower = 0, upper = 0;
    for (int i = 0; i < clink_model_contact_count(m); i++) {
        clink_contact_info ci;
        ENSURE(clink_sim_contact(sim, i, &ci) == CLINK_OK);
        const char *n = clink_model_contact_name(m, i);
        if (ci.delta > 0.0 && strstr(n, "lower"))
            lower++;
        if (ci.delta > 0.0 && strstr(n, "upper"))
            upper++;
    }
    ENSURE(lower == 2 && upper == 0);
    ENSURE(clink_sim_impact_count(sim) >= 2);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}
