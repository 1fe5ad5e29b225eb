/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pin in a slot with clearance (<slot_clearance>, include/clink/model.h): its two
 * contacts are the walls at +-width / 2 from the mid-line against the pin's circle; its
 * stiffness from materials is Hertz's of a cylinder on a plane,
 *   K = 4 / (3 (s1 + s2)) sqrt(r),  s_k = (1 - nu_k^2) / E_k;
 * a pin released in the middle of models/slot_clearance_settle.xml comes to rest on the
 * lower wall at the offset -(c / 2 + m g / K) of the Kelvin-Voigt law; a pin wider than
 * its slot is refused.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/model.h"
#include "clink/sim.h"

#include <math.h>
#include <string.h>

/* a slot on the ground along (0, 2) (normalised by the builder) and a pin on body 1 */
static clink_model_builder *slot_builder(clink_slot_clearance_def *d)
{
    clink_model_builder *b = clink_model_builder_create();
    if (!b)
        return NULL;
    clink_body_def bd = clink_default_body_def();
    bd.mass = 1.0;
    bd.inertia = 1e-3;
    clink_model_builder_add_body(b, &bd, NULL);
    *d = clink_default_slot_clearance_def();
    d->name = "gap";
    d->slot_body = 0;
    d->pin_body = 1;
    d->slot_point[0] = 0.5;
    d->axis[1] = 2.0;
    d->axis[0] = 0.0;
    d->width = 0.03;
    d->pin_radius = 0.01;
    d->law = "hertz";
    return b;
}

TEST(slot_clearance_walls_face_the_pin_and_hertz_follows_from_materials)
{
    clink_slot_clearance_def d;
    clink_model_builder *b = slot_builder(&d);
    clink_model *m = NULL;
    ENSURE(b != NULL);
    if (!b)
        return;
    d.params.E1 = 200e9;
    d.params.nu1 = 0.3;
    d.params.E2 = 70e9;
    d.params.nu2 = 0.33;
    ENSURE(clink_model_builder_add_slot_clearance(b, &d, NULL) == CLINK_OK);
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    if (m) {
        ENSURE(clink_model_count(m, CLINK_ENTITY_SLOT_CLEARANCE) == 1);
        ENSURE(clink_model_contact_count(m) == 2);
        ENSURE_STR_EQ(clink_model_contact_name(m, 0), "gap.lower");
        ENSURE_STR_EQ(clink_model_contact_name(m, 1), "gap.upper");
        clink_slot_clearance_def got;
        ENSURE(clink_model_slot_clearance(m, 0, &got) == CLINK_OK);
        ENSURE(got.axis[0] == 0.0 && got.axis[1] == 1.0);
        double s = (1 - 0.3 * 0.3) / 200e9 + (1 - 0.33 * 0.33) / 70e9;
        ENSURE_NEAR(got.params.K, 4.0 / (3.0 * s) * sqrt(0.01), 1e-12 * got.params.K);
        /* the slot runs along y through (0.5, 0): its normal n = (-1, 0); a pin at x = 0.49
           is 0.01 m off the mid-line on the n side */
        const double qa[3] = {0, 0, 0}, qb[3] = {0.49, 0.3, 1.0};
        double off = NAN;
        ENSURE(clink_model_element_outputs(m, 0, qa, qb, &off) == CLINK_OK);
        ENSURE_NEAR(off, 0.01, 1e-15);
    }
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}

TEST(slot_clearance_refuses_a_pin_as_wide_as_its_slot)
{
    clink_slot_clearance_def d;
    clink_model_builder *b = slot_builder(&d);
    ENSURE(b != NULL);
    if (!b)
        return;
    d.params.K = 1e9;
    d.width = 0.02;
    ENSURE(clink_model_builder_add_slot_clearance(b, &d, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "leaves no clearance") != NULL);
    d.width = 0.03;
    d.pin_radius = 0.0;
    ENSURE(clink_model_builder_add_slot_clearance(b, &d, NULL) == CLINK_ERR_RANGE);
    clink_model_builder_destroy(&b);
}

TEST(a_pin_released_in_its_slot_rests_on_the_lower_wall_under_its_weight)
{
    clink_model *m = test_model_file("slot_clearance_settle.xml");
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (sim) {
        const double qa[3] = {0, 0, 0};
        double q[3], v[3], off = NAN;
        ENSURE(clink_sim_advance(sim, 0.3) == CLINK_OK);
        ENSURE(clink_sim_body_state(sim, 1, q, v) == CLINK_OK);
        ENSURE(clink_model_element_outputs(m, 0, qa, q, &off) == CLINK_OK);
        /* K delta = m g on the lower wall: 0.5 mm of clearance below the centre, and delta */
        ENSURE_NEAR(off, -(0.0005 + 9.81 / 1e6), 1e-10);
        ENSURE(fabs(v[1]) < 1e-8);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
