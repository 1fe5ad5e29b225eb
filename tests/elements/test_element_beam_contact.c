/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The beam contact (src/elements/element_beam_contact.c; docs/flexible.md, "Contact on the
 * centreline") built through the C API: a ball falling at 2 m/s onto the middle of the first
 * of two elements of a free steel beam (no gravity) goes through the per-contact state machine
 * of that element's contact alone: open, compression, restitution, open again (one impact
 * record, of NAME.e0, its approach speed the ball's 2 m/s at the onset to 1e-9, one lobe, a
 * restitution below 1), while the other element's contact stays open; the definition reads
 * back; and the builder refuses a negative radius, a node beyond the bodies, the circle on a
 * node of its beam, friction and the impulse treatment.
 */
#include "ensure.h"

#include "clink/model.h"
#include "clink/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* a beam of 2 elements (nodes 1..3) and a ball (body 4); the contact's definition into *bc */
static clink_model_builder *ball_and_beam(clink_beam_contact_def *bc)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_beam_def bd = clink_default_beam_def();
    bd.name = "beam";
    bd.to[0] = 0.2;
    bd.elements = 2;
    bd.area = 1e-4;
    bd.second_moment = 8.333333333e-10;
    bd.E = 207e9;
    bd.G = 207e9 / 2.6;
    bd.density = 7800;
    bd.damping = 1e-6;
    int first = -1, ball = -1;
    ENSURE(clink_model_builder_add_beam(b, &bd, &first) == CLINK_OK && first == 1);
    clink_body_def body = clink_default_body_def();
    body.name = "ball";
    body.mass = 0.032673;
    body.inertia = 1.30692e-6;
    body.x = 0.05;
    body.y = 0.0155;
    body.vy = -2.0;
    ENSURE(clink_model_builder_add_body(b, &body, &ball) == CLINK_OK && ball == 4);
    ENSURE(clink_model_builder_set_gravity(b, 0.0, 0.0) == CLINK_OK);
    *bc = clink_default_beam_contact_def();
    bc->name = "hit";
    bc->law = "lankarani-nikravesh";
    bc->params.K = 8.76e9;
    bc->params.e = 0.8;
    bc->body = ball;
    bc->radius = 0.01;
    bc->node_first = first;
    bc->elements = 2;
    bc->half_thickness = 0.005;
    return b;
}

TEST(a_ball_on_a_beam_element_goes_through_its_contacts_state_machine)
{
    clink_beam_contact_def bc;
    clink_model_builder *b = ball_and_beam(&bc);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_add_beam_contact(b, &bc, NULL) == CLINK_OK);
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    if (!m)
        return;
    clink_beam_contact_def got;
    ENSURE(clink_model_beam_contact(m, 0, &got) == CLINK_OK);
    ENSURE(got.node_first == 1 && got.elements == 2 && got.body == 4 && got.radius == 0.01);
    ENSURE(clink_model_contact_count(m) == 2);
    ENSURE_STR_EQ(clink_model_contact_name(m, 0), "hit.e0");
    ENSURE_STR_EQ(clink_model_contact_name(m, 1), "hit.e1");
    clink_settings_def set = clink_model_settings(m);
    set.method = CLINK_METHOD_BDF;
    set.rtol = 1e-8;
    set.atol = 1e-12;
    clink_sim *sim = NULL;
    char err[512];
    ENSURE(clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK);
    /* the phases of contact 0 in the order seen, and whether contact 1 ever left OPEN */
    int seen[8], nseen = 0, other = 0;
    for (int k = 1; sim && k <= 500; k++) {
        ENSURE(clink_sim_advance(sim, k * 1e-6) == CLINK_OK);
        clink_contact_info c0, c1;
        clink_sim_contact(sim, 0, &c0);
        clink_sim_contact(sim, 1, &c1);
        if (nseen == 0 || (seen[nseen - 1] != (int) c0.phase && nseen < 8))
            seen[nseen++] = (int) c0.phase;
        other |= c1.phase != CLINK_CONTACT_OPEN;
    }
    ENSURE(nseen == 4);
    ENSURE(seen[0] == CLINK_CONTACT_OPEN && seen[1] == CLINK_CONTACT_COMPRESSION &&
           seen[2] == CLINK_CONTACT_RESTITUTION && seen[3] == CLINK_CONTACT_OPEN);
    ENSURE(!other);
    ENSURE(clink_sim_impact_count(sim) == 1);
    clink_impact_record r;
    if (clink_sim_impact(sim, 0, &r) == CLINK_OK) {
        printf("impact of contact %d at %.9g s: v %.9g m/s -> %.9g m/s (e %.4f), %.3g s\n",
               r.contact, r.t_onset, r.v_impact, r.v_separation, r.restitution, r.duration);
        ENSURE(r.contact == 0);
        ENSURE_NEAR(r.v_impact, 2.0, 1e-9);
        ENSURE(r.lobes == 1 && r.restitution > 0.5 && r.restitution < 1.0 && r.duration > 0.0);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* the builder's refusal of definition bc: its status, and its message holds `words` */
static void refused(const clink_beam_contact_def *bc, clink_status want, const char *words)
{
    clink_beam_contact_def unused;
    clink_model_builder *b = ball_and_beam(&unused);
    clink_status st = clink_model_builder_add_beam_contact(b, bc, NULL);
    const char *msg = clink_model_builder_error(b);
    if (st != want || !strstr(msg, words))
        fprintf(stderr, "status %d: %s\n", (int) st, msg);
    ENSURE(st == want);
    ENSURE(strstr(msg, words) != NULL);
    clink_model_builder_destroy(&b);
}

TEST(the_builder_refuses_bad_beam_contacts)
{
    clink_beam_contact_def bc, d;
    clink_model_builder *b = ball_and_beam(&bc);
    clink_model_builder_destroy(&b);
    d = bc;
    d.radius = -0.01;
    refused(&d, CLINK_ERR_RANGE, "must be >= 0");
    d = bc;
    d.elements = 5; /* nodes 1 .. 6: body 6 does not exist */
    refused(&d, CLINK_ERR_RANGE, "does not exist");
    d = bc;
    d.body = 2;
    refused(&d, CLINK_ERR_RANGE, "one of the beam's nodes");
    d = bc;
    d.friction.kind = CLINK_FRICTION_AMBROSIO;
    d.friction.mu = 0.3;
    refused(&d, CLINK_ERR_MODEL, "friction");
    d = bc;
    d.treatment = CLINK_CONTACT_PIECEWISE;
    d.restitution = 0.8;
    refused(&d, CLINK_ERR_MODEL, "impulse");
}
