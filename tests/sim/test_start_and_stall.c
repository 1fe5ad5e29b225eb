/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stall diagnosis names a load before it blames a contact's stiffness
 * (src/sim/sim_check.c, sim_check_stall_loads; docs/development.md, "Reliability"):
 *   - a spring of 1e15 N/m on a 1 g bead (time scale sqrt(m/k) = 1e-9 s) stops the run
 *     at max_steps with a message naming the spring and its stiffness;
 *   - a force of 1e12 N whirling a 1 g arm is named with its value;
 *   - a spring of ordinary stiffness in a run stopped by a small max_steps is not blamed.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <stdio.h>

static clink_model *load(const char *xml)
{
    char err[512];
    clink_model *m = NULL;
    if (clink_xml_load_memory(xml, strlen(xml), "start_and_stall.xml", &m, NULL, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "model: %s\n", err);
        return NULL;
    }
    return m;
}

/* runs the model to t_end in steps of 1e-3 s: the status of the first failing advance,
   its message copied into msg */
static clink_status run(const char *xml, char *msg, size_t size)
{
    clink_model *m = load(xml);
    clink_sim *sim = NULL;
    char err[512];
    clink_status st = m ? clink_sim_create(m, NULL, &sim, err, sizeof err) : CLINK_ERR_MODEL;
    msg[0] = '\0';
    if (st != CLINK_OK)
        snprintf(msg, size, "%s", m ? err : "no model");
    for (int k = 1; k <= 1000 && st == CLINK_OK; k++) {
        st = clink_sim_advance(sim, 1e-3 * k);
        if (st != CLINK_OK)
            snprintf(msg, size, "%s", clink_sim_error(sim));
    }
    fprintf(stderr, "message: %s\n", msg);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return st;
}

/* a 1 g bead on a spring of stiffness k from the ground, stretched 1 mm */
static clink_status bead(const char *k, const char *max_steps, char *msg, size_t size)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"bead\"><settings t_end=\"1\" output_step=\"1e-3\" "
             "max_steps=\"%s\"/><gravity g=\"0 0\"/><bodies><body name=\"bead\" "
             "mass=\"0.001\" inertia=\"1e-7\" x=\"0.101\" y=\"0\"/></bodies><loads>"
             "<spring_damper name=\"tether\" body1=\"ground\" point1=\"0 0\" body2=\"bead\" "
             "point2=\"0 0\" stiffness=\"%s\" length=\"0.1\"/></loads></mechanism>",
             max_steps, k);
    return run(xml, msg, size);
}

TEST(a_spring_of_1e15_n_per_m_on_a_gram_is_named_as_the_stalls_cause)
{
    char msg[1024];
    ENSURE(bead("1e15", "1e5", msg, sizeof msg) == CLINK_ERR_SOLVER);
    ENSURE(strstr(msg, "more steps than max_steps") != NULL);
    ENSURE(strstr(msg, "likely cause: load 'tether': its stiffness 1e+15 N/m on 0.001 kg") != NULL);
    ENSURE(strstr(msg, "sqrt(m/k) = 1e-09 s") != NULL);
    ENSURE(strstr(msg, "not smooth") == NULL);
}

TEST(a_force_of_1e12_n_on_a_gram_is_named_as_the_stalls_cause)
{
    char msg[1024];
    const char *xml =
        "<mechanism name=\"arm\"><settings t_end=\"1\" output_step=\"1e-3\" max_steps=\"1e5\"/>"
        "<bodies><body name=\"arm\" mass=\"0.001\" inertia=\"1e-7\" x=\"0.05\" y=\"0\"/>"
        "</bodies><joints><revolute name=\"pivot\" body1=\"ground\" point1=\"0 0\" "
        "body2=\"arm\" point2=\"-0.05 0\"/></joints><loads><force name=\"shove\" body=\"arm\" "
        "point=\"0.05 0\" value=\"0 1e12\"/></loads></mechanism>";
    ENSURE(run(xml, msg, sizeof msg) == CLINK_ERR_SOLVER);
    ENSURE(strstr(msg, "likely cause: load 'shove': its value 1e+12 N on 0.001 kg") != NULL);
}

TEST(an_ordinary_spring_in_a_run_stopped_by_max_steps_is_not_blamed)
{
    /* k = 100 N/m on 1 g: sqrt(m/k) = 3.2 ms, above 1e-3 of t_end */
    char msg[1024];
    ENSURE(bead("100", "50", msg, sizeof msg) == CLINK_ERR_SOLVER);
    ENSURE(strstr(msg, "more steps than max_steps") != NULL);
    ENSURE(strstr(msg, "tether") == NULL);
}
