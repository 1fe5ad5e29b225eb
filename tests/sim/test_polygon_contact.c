/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Polygons in a simulation, against closed forms:
 *   - a box dropped flat onto a wider box fixed to the ground (polygon against polygon,
 *     the falling box as shape A: its corners into the fixed box, the registry's reversed
 *     evaluation): its two lower corners' impacts begin together and last and penetrate as
 *     the linear oscillator of mass m on 2K under gravity (as validation/val_box_drop.c for
 *     the floor), within 1e-6 relative; the fixed box's corners, outside the falling
 *     box's width, never touch;
 *   - a ball dropped onto the top edge of a rectangle fixed to the ground (polygon against
 *     circle): the largest penetration of an undamped Hertz contact,
 *     (5 m v^2 / (4 K))^(2/5), within 2 g T / v (gravity during the contact T, relative),
 *     and the ball leaves at the speed it came (elastic).
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static clink_sim *load(const char *xml, clink_model **m)
{
    char err[512];
    clink_sim *sim = NULL;
    if (clink_xml_load_memory_with(xml, strlen(xml), "test.xml", NULL, 0, NULL, m, NULL, err,
                                   sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    if (clink_sim_create(*m, NULL, &sim, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return sim;
}

static void run_until(clink_sim *sim, int impacts, double t_max)
{
    while (clink_sim_impact_count(sim) < impacts && clink_sim_time(sim) < t_max)
        ENSURE(clink_sim_advance(sim, clink_sim_time(sim) + 1e-4) == CLINK_OK);
}

static const char box_on_box[] =
    "<mechanism name=\"box_on_box\">"
    "<settings t_end=\"1\" method=\"bdf\" rtol=\"1e-10\" atol=\"1e-13\" drift=\"projection\"/>"
    "<gravity g=\"0 -9.81\"/>"
    "<bodies><body name=\"box\" mass=\"2\" inertia=\"0.0333\" x=\"0\" y=\"0.15\"/></bodies>"
    "<contacts><pair name=\"stack\">"
    "<polygon body=\"box\" vertices=\"-0.2 -0.1  0.2 -0.1  0.2 0.1  -0.2 0.1\"/>"
    "<polygon body=\"ground\" vertices=\"-0.5 -0.2  0.5 -0.2  0.5 0  -0.5 0\"/>"
    "<law name=\"hertz\" K=\"1e8\" n=\"1\"/>"
    "</pair></contacts></mechanism>";

TEST(a_box_dropped_flat_on_a_box_bounces_as_the_linear_oscillator)
{
    clink_model *m = NULL;
    clink_sim *sim = load(box_on_box, &m);
    ENSURE(sim != NULL);
    if (!sim)
        return;
    ENSURE(clink_model_contact_count(m) == 8);
    ENSURE(strcmp(clink_model_contact_name(m, 0), "stack.a_vertex1") == 0);
    ENSURE(strcmp(clink_model_contact_name(m, 7), "stack.b_vertex4") == 0);
    run_until(sim, 2, 0.5);
    const double g = 9.81, mass = 2.0, K = 1e8, v = sqrt(2.0 * g * 0.05);
    const double w0 = sqrt(2.0 * K / mass), s = mass * g / (2.0 * K), A = hypot(s, v / w0);
    clink_impact_record r[2];
    ENSURE(clink_sim_impact_count(sim) == 2);
    ENSURE(clink_sim_impact(sim, 0, &r[0]) == CLINK_OK &&
           clink_sim_impact(sim, 1, &r[1]) == CLINK_OK);
    ENSURE_NEAR(r[0].t_onset, r[1].t_onset, 1e-12);
    for (int k = 0; k < 2; k++) {
        /* the falling box's lower corners, a_vertex1 and a_vertex2 */
        ENSURE(r[k].contact == 0 || r[k].contact == 1);
        ENSURE_NEAR(r[k].t_onset, sqrt(2.0 * 0.05 / g), 1e-8);
        ENSURE_NEAR(r[k].delta_max / (s + A), 1.0, 1e-6);
        ENSURE_NEAR(r[k].duration * w0 / (acos(-1.0) + 2.0 * asin(s / A)), 1.0, 1e-6);
        ENSURE_NEAR(r[k].restitution, 1.0, 1e-6);
    }
    double q[3], qd[3];
    clink_sim_body_state(sim, 1, q, qd);
    ENSURE_NEAR(q[2], 0.0, 1e-12);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

static const char ball_on_block[] =
    "<mechanism name=\"ball_on_block\">"
    "<settings t_end=\"1\" method=\"bdf\" rtol=\"1e-10\" atol=\"1e-13\" drift=\"projection\"/>"
    "<gravity g=\"0 -9.81\"/>"
    "<bodies><body name=\"ball\" mass=\"1\" inertia=\"0.001\" x=\"0.03\" y=\"0.15\"/></bodies>"
    "<contacts><pair name=\"drop\">"
    "<circle body=\"ball\" radius=\"0.05\"/>"
    "<polygon body=\"ground\" vertices=\"-0.3 -0.1  0.3 -0.1  0.3 0  -0.3 0\"/>"
    "<law name=\"hertz\" K=\"1e9\"/>"
    "</pair></contacts></mechanism>";

TEST(a_ball_dropped_on_a_block_penetrates_as_hertz_says)
{
    clink_model *m = NULL;
    clink_sim *sim = load(ball_on_block, &m);
    ENSURE(sim != NULL);
    if (!sim)
        return;
    ENSURE(clink_model_contact_count(m) == 1);
    run_until(sim, 1, 0.5);
    const double g = 9.81, K = 1e9, v = sqrt(2.0 * g * 0.1);
    clink_impact_record r;
    ENSURE(clink_sim_impact(sim, 0, &r) == CLINK_OK);
    ENSURE_NEAR(r.v_impact / v, 1.0, 1e-6);
    double tol = 2.0 * g * r.duration / v;
    ENSURE_NEAR(r.delta_max / pow(5.0 * v * v / (4.0 * K), 0.4), 1.0, tol);
    ENSURE_NEAR(r.restitution, 1.0, 1e-6);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
