/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The joint stop (<stop>, include/clink/model.h; Ambrosio and Pombo 2018): a slider on
 * an ideal translational joint runs into its upper end stop and back into its lower one
 * through a Gonthier law calibrated to e = 0.7. Each impact's restitution is the law's
 * (the translation makes m_eff the slider's mass exactly), the travel never passes a
 * limit by more than the undamped Hertz penetration of that impact,
 *   delta_H = (5 m v^2 / (4 K))^(2/5)   (1/2 m v^2 = K delta^(5/2) / (5/2)),
 * and bad limits are refused with FILE:LINE.
 */
#include "ensure.h"

#include "clink/model.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* a 1 kg slider at x = 0 moving at 0.5 m/s along x; a stop with `limits` on it */
static const char *model_fmt =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<mechanism name=\"stop\">\n"
    "  <bodies>\n"
    "    <body name=\"slider\" mass=\"1\" inertia=\"0.01\" x=\"0\" y=\"0\" vx=\"0.5\"/>\n"
    "  </bodies>\n"
    "  <joints>\n"
    "    <translational name=\"guide\" body1=\"ground\" point1=\"0 0\" body2=\"slider\" "
    "point2=\"0 0\" axis=\"1 0\"/>\n"
    "    <stop name=\"limit\" body1=\"ground\" point1=\"0 0\" axis=\"2 0\" body2=\"slider\" "
    "point2=\"0 0\" %s>\n"
    "      <law name=\"gonthier-exact\" K=\"1e9\" n=\"1.5\" e=\"0.7\"/>\n"
    "    </stop>\n"
    "  </joints>\n"
    "</mechanism>\n";

static clink_model *load(const char *limits, char *err, size_t size)
{
    char text[2048];
    clink_model *m = NULL;
    snprintf(text, sizeof text, model_fmt, limits);
    if (clink_xml_load_memory(text, strlen(text), "stop.xml", &m, NULL, err, size) != CLINK_OK)
        return NULL;
    return m;
}

TEST(a_slider_rebounds_from_its_end_stops_with_the_laws_restitution)
{
    char err[512];
    clink_model *m = load("lower=\"-0.05\" upper=\"0.05\"", err, sizeof err);
    clink_sim *sim = NULL;
    ENSURE(m != NULL);
    if (!m)
        return;
    ENSURE(clink_model_count(m, CLINK_ENTITY_STOP) == 1);
    ENSURE(clink_model_contact_count(m) == 2);
    ENSURE_STR_EQ(clink_model_contact_name(m, 0), "limit.lower");
    ENSURE_STR_EQ(clink_model_contact_name(m, 1), "limit.upper");
    clink_stop_def got;
    ENSURE(clink_model_stop(m, 0, &got) == CLINK_OK && got.axis[0] == 1.0);
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    const double K = 1e9, mass = 1.0, e = 0.7, v0 = 0.5;
    double beyond_upper = -1.0, beyond_lower = -1.0, q[3], qd[3], s, q0[3] = {0, 0, 0};
    for (int k = 1; k <= 45000; k++) { /* 0.45 s, every 10 us */
        if (clink_sim_advance(sim, 1e-5 * k) != CLINK_OK ||
            clink_sim_body_state(sim, 1, q, qd) != CLINK_OK ||
            clink_model_element_outputs(m, 0, q0, q, &s) != CLINK_OK) {
            ENSURE(0);
            break;
        }
        beyond_upper = fmax(beyond_upper, s - 0.05);
        beyond_lower = fmax(beyond_lower, -0.05 - s);
    }
    ENSURE(clink_sim_impact_count(sim) == 2);
    const double v[2] = {v0, e * v0};
    const char *const where[2] = {"limit.upper", "limit.lower"};
    for (int i = 0; i < 2 && i < clink_sim_impact_count(sim); i++) {
        clink_impact_record r;
        ENSURE(clink_sim_impact(sim, i, &r) == CLINK_OK);
        ENSURE_STR_EQ(clink_model_contact_name(m, r.contact), where[i]);
        ENSURE_REL(r.v_impact, v[i], 1e-6);
        ENSURE_NEAR(r.restitution, e, 1e-5); /* measured 2.2e-7 */
        double dh = pow(5.0 * mass * v[i] * v[i] / (4.0 * K), 0.4);
        ENSURE(r.delta_max <= dh && r.delta_max > 0.5 * dh);
        ENSURE((i == 0 ? beyond_upper : beyond_lower) <= dh);
        ENSURE((i == 0 ? beyond_upper : beyond_lower) > 0.0);
    }
    /* after both impacts: moving up again at e^2 v0 */
    ENSURE_REL(qd[0], e * e * v0, 1e-5);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(bad_stops_are_refused_with_file_and_line)
{
    char err[512];
    ENSURE(load("lower=\"0.05\" upper=\"0.05\"", err, sizeof err) == NULL);
    ENSURE(strstr(err, "stop.xml:8:") == err);
    ENSURE(strstr(err, "lower 0.05 m is not below upper 0.05 m") != NULL);
    ENSURE(load("", err, sizeof err) == NULL);
    ENSURE(strstr(err, "stop.xml:8:") == err);
    ENSURE(strstr(err, "no limit") != NULL);
    ENSURE(load("upper=\"0.05\" axis2=\"0 0\"", err, sizeof err) == NULL);
    ENSURE(strstr(err, "stop.xml:") == err);
}
