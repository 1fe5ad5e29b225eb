/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The revolute clearance joint (src/elements/element_revolute_clearance.c): a journal in
 * a bearing. Its checks (a clearance that is not positive is refused, the stiffness is
 * taken from the materials by clink_contact_stiffness_journal_bearing) and a free journal
 * crossing the clearance and rebounding from the wall with the restitution the laboratory
 * (src/lab/lab.c) gives for the same impact.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/contact.h"
#include "clink/lab.h"
#include "clink/model.h"
#include "clink/sim.h"

/* body 1's journal of the given radius in a 10 mm steel bearing on the ground,
   Lankarani-Nikravesh with e = 0.9, the stiffness from the materials */
static clink_clearance_joint_def steel_pin(double journal_radius)
{
    clink_clearance_joint_def j = clink_default_clearance_joint_def();
    j.journal_body = 1;
    j.bearing_body = 0;
    j.journal_radius = journal_radius;
    j.bearing_radius = 0.010;
    j.law = "lankarani-nikravesh";
    j.params.e = 0.9;
    j.params.E1 = j.params.E2 = 207e9;
    j.params.nu1 = j.params.nu2 = 0.3;
    return j;
}

TEST(clearance_joint_needs_positive_clearance_and_takes_stiffness_from_materials)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    clink_model_builder_add_body(b, &bd, NULL);
    clink_clearance_joint_def j = steel_pin(0.010);
    j.name = "pin";
    ENSURE(clink_model_builder_add_clearance_joint(b, &j, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "clearance") != NULL);
    j.journal_radius = 0.0095;
    ENSURE(clink_model_builder_add_clearance_joint(b, &j, NULL) == CLINK_OK);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_clearance_joint_def got;
    ENSURE(clink_model_clearance_joint(m, 0, &got) == CLINK_OK);
    double K = 0.0;
    ENSURE(clink_contact_stiffness_journal_bearing(207e9, 0.3, 207e9, 0.3, 0.0095, 0.010, &K) ==
           CLINK_OK);
    ENSURE_NEAR(got.params.K, K, 1e-9 * K);
    ENSURE(strcmp(got.law, "lankarani-nikravesh") == 0);
    ENSURE(clink_model_find(m, CLINK_ENTITY_CLEARANCE_JOINT, "pin") == 0);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}

/* the journal's contact reports its eccentricity (the columns ex, ey), as the element class
   says, and a ball-on-floor pair's does not; out of range: 0 */
TEST(a_journal_contact_reports_its_eccentricity_and_a_pair_contact_does_not)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    clink_model_builder_add_body(b, &bd, NULL);
    clink_contact_pair_def c = clink_default_contact_pair_def();
    c.body_a = 0;
    c.body_b = 1;
    c.shape_a.type = CLINK_SHAPE_LINE;
    c.shape_a.normal[1] = 1.0;
    c.shape_b.type = CLINK_SHAPE_CIRCLE;
    c.shape_b.radius = 0.01;
    c.law = "hertz";
    c.params.K = 1e9;
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    clink_clearance_joint_def j = steel_pin(0.0095);
    ENSURE(clink_model_builder_add_clearance_joint(b, &j, NULL) == CLINK_OK);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    ENSURE(clink_model_contact_count(m) == 2);
    for (int k = 0; k < 2; k++) {
        int kind = clink_model_element_kind(m, clink_model_contact_element(m, k));
        ENSURE(clink_model_contact_has_eccentricity(m, k) ==
               (kind == CLINK_ELEMENT_REVOLUTE_CLEARANCE));
    }
    ENSURE(clink_model_contact_has_eccentricity(m, 2) == 0);
    ENSURE(clink_model_contact_has_eccentricity(m, -1) == 0);
    ENSURE(clink_model_contact_has_eccentricity(NULL, 0) == 0);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}

/*
 * A free journal (R 9.5 mm, 0.1 kg) in a fixed bearing (R 10 mm), no gravity,
 * moving at 0.5 m/s along x from the centre: it crosses the clearance, hits the
 * wall normally after 0.5 mm / 0.5 m/s = 1 ms and rebounds along -x with the
 * law's restitution (Lankarani-Nikravesh calibrated for e = 0.9 at this speed,
 * approximately: checked against the laboratory's value for the same impact).
 */
TEST(a_journal_in_a_bearing_rebounds_from_the_wall_as_the_laboratory_says)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_model_builder_set_gravity(b, 0.0, 0.0);
    clink_body_def bd = clink_default_body_def();
    bd.mass = 0.1;
    bd.inertia = 1e-5;
    bd.vx = 0.5;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_clearance_joint_def j = steel_pin(0.0095);
    ENSURE(clink_model_builder_add_clearance_joint(b, &j, NULL) == CLINK_OK);
    clink_settings_def s = test_adams_settings(1e-11, 1e-14);
    clink_model *m = test_finish(b, &s);
    ENSURE(m != NULL);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 1.5e-3) == CLINK_OK);
    ENSURE(clink_sim_impact_count(sim) == 1);
    clink_impact_record r;
    clink_sim_impact(sim, 0, &r);
    ENSURE_NEAR(r.t_onset, 1e-3, 1e-9);
    ENSURE_NEAR(r.v_impact, 0.5, 1e-9);
    clink_clearance_joint_def got;
    clink_model_clearance_joint(m, 0, &got);
    clink_lab *lab = NULL;
    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    clink_lab_result lr;
    ENSURE(clink_lab_impact(lab, clink_law_find("lankarani-nikravesh"), &got.params, 0.1, 0.5, NULL,
                            &lr) == CLINK_OK);
    ENSURE_NEAR(r.restitution, lr.e_out, 1e-6);
    double q[3], v[3];
    clink_sim_body_state(sim, 1, q, v);
    ENSURE_NEAR(v[0], -lr.e_out * 0.5, 1e-6);
    clink_lab_destroy(&lab);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
