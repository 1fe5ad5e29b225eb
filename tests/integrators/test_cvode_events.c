/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink's own event location (src/integrators/cvode/cvode_events.c) against closed forms:
 *   - two balls in free flight reach the floor 1 us apart, inside one CVODE step: the
 *     earlier onset is handled first (the other contact still open between them), each
 *     at its own time to 1e-12 s;
 *   - a ball bouncing under gravity with the impulse treatment (e = 0.5, CVODE
 *     re-initialised at every impact): each onset at the time of the parabolas to
 *     1e-12 s, and no event where the onset function rises through zero as the ball
 *     leaves the floor (the directions);
 *   - a ball starting exactly at the onset level and moving away (its onset function
 *     exactly zero at the start): no event there, the function monitored again once
 *     it moves, the next onset at its closed-form time;
 *   - the guard against events without a completed step counts the search's partial
 *     evaluations and stops the run with its message;
 *   - Adams keeps to order 6 where the problem has events (contacts) and goes above it
 *     without (cvode_setup.c, "Adams order");
 *   - the dense output at the end of the last step, taken from the integrator's own state
 *     there (cvode_step.c, cvode_dense_at_end; adams_integ.c, adams_dense_at_end), and a
 *     second one at the same time inside the step, from the sum kept, have the bits of the
 *     integrator's full sum (CVodeGetDky's, or the plain-array core's for method="adams").
 * The search runs on CVODE or on the plain-array Adams (method="adams"): the tests read
 * whichever the simulation made.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "sim/sim_internal.h"
#include "sim/sim_output.h"
#include "integrators/adams/adams.h"
#include "integrators/cvode/cvode_integ.h"

#include <cvode/cvode.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the event search of the integrator (CVODE's, or the plain-array Adams) */
static const cvode_events *search_of(const integ *in)
{
    if (in->ops == &integrator_cvode_ops)
        return &((const cvode_integ *) in)->ev;
    ENSURE(in->ops == &integrator_adams_ops);
    return adams_integ_events(in);
}

/* the model of xml (*m, for the caller to destroy) started; NULL (a failed check) if either
   fails */
static clink_sim *open_sim(const char *xml, clink_model **m)
{
    char err[512];
    clink_sim *sim = NULL;
    *m = NULL;
    if (clink_xml_load_memory(xml, strlen(xml), "roots.xml", m, NULL, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "model: %s\n", err);
    else if (clink_sim_create(*m, NULL, &sim, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "create: %s\n", err);
    ENSURE(sim != NULL);
    return sim;
}

/* advances in steps of dt from the current time up to t_end; the first failure's status */
static clink_status run(clink_sim *sim, double dt, double t_end)
{
    clink_status st = CLINK_OK;
    double t0 = clink_sim_time(sim);
    for (int k = 1; st == CLINK_OK && t0 + k * dt <= t_end * (1.0 + 1e-12); k++)
        st = clink_sim_advance(sim, t0 + k * dt);
    if (st != CLINK_OK)
        fprintf(stderr, "advance: %s\n", clink_sim_error(sim));
    return st;
}

TEST(two_onsets_inside_one_step_are_located_in_order_each_at_its_own_time)
{
    /* no gravity: ball a at 0.15 m, ball b 0.1 nm higher, both at -1 m/s onto the floor
       (radius 0.05 m): onsets at 0.1 s and 0.1000000001 s (plus eps / v, eps = 5e-15 m, the
       onset level) */
    const char *xml =
        "<mechanism name=\"two\"><settings t_end=\"0.2\" output_step=\"1e-2\" method=\"adams\" "
        "drift=\"baumgarte\" "
        "rtol=\"1e-8\" atol=\"1e-12\"/><gravity g=\"0 0\"/><bodies>"
        "<body name=\"a\" mass=\"1\" inertia=\"0.001\" x=\"0\" y=\"0.15\" vy=\"-1\"/>"
        "<body name=\"b\" mass=\"1\" inertia=\"0.001\" x=\"1\" y=\"0.1500000001\" vy=\"-1\"/>"
        "</bodies><contacts>"
        "<pair name=\"a\"><circle body=\"a\" center=\"0 0\" radius=\"0.05\"/>"
        "<line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>"
        "<law name=\"hunt-crossley\" K=\"1e7\" e=\"0.8\"/></pair>"
        "<pair name=\"b\"><circle body=\"b\" center=\"0 0\" radius=\"0.05\"/>"
        "<line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>"
        "<law name=\"hunt-crossley\" K=\"1e7\" e=\"0.8\"/></pair>"
        "</contacts></mechanism>";
    clink_model *m = NULL;
    clink_sim *sim = open_sim(xml, &m);
    if (!sim)
        goto done;
    const double eps = 1e-13 * 0.05;
    const double ta = 0.1 + eps, tb = (0.1500000001 - 0.05) + eps;
    /* between the two onsets: a in contact, b still open, and CVODE's last step covers
       both onsets */
    ENSURE(clink_sim_advance(sim, 0.10000000005) == CLINK_OK);
    clink_contact_info ia, ib;
    ENSURE(clink_sim_contact(sim, 0, &ia) == CLINK_OK);
    ENSURE(clink_sim_contact(sim, 1, &ib) == CLINK_OK);
    ENSURE(ia.phase == CLINK_CONTACT_COMPRESSION);
    ENSURE(ib.phase == CLINK_CONTACT_OPEN);
    double tn = 0.0, h = 0.0;
    ENSURE(sim->in->ops->now(sim->in, &tn, &h) == 0);
    fprintf(stderr, "CVODE's step [%.17g, %.17g] s between the onsets\n", (double) (tn - h),
            (double) tn);
    ENSURE(tn - h < ta && tn > tb);
    ENSURE(run(sim, 1e-2, 0.2) == CLINK_OK);
    ENSURE(clink_sim_impact_count(sim) == 2);
    clink_impact_record r0, r1;
    ENSURE(clink_sim_impact(sim, 0, &r0) == CLINK_OK);
    ENSURE(clink_sim_impact(sim, 1, &r1) == CLINK_OK);
    fprintf(stderr, "onsets %.17g (%.3g off) and %.17g (%.3g off)\n", r0.t_onset, r0.t_onset - ta,
            r1.t_onset, r1.t_onset - tb);
    ENSURE(r0.contact == 0 && r1.contact == 1);
    ENSURE_NEAR(r0.t_onset, ta, 1e-12);
    ENSURE_NEAR(r1.t_onset, tb, 1e-12);
    ENSURE_NEAR(r0.v_impact, 1.0, 1e-9);
    ENSURE_NEAR(r1.v_impact, 1.0, 1e-9);
    clink_sim_stats s;
    clink_sim_stats_get(sim, &s);
    /* all functions once per step at least; the searches evaluated only some */
    ENSURE(s.root_evals >= s.steps);
    ENSURE(s.root_evals_partial > 0);
done:
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_ball_bouncing_with_impulses_meets_the_floor_at_the_times_of_its_parabolas)
{
    /* centre at 0.15 m, radius 0.05 m, g = 9.81, e = 0.5: the first onset after a fall of
       d = 0.1 m + eps at t1 = sqrt(2 d / g), speed v1 = g t1; each bounce leaves at e times
       the arrival speed from the same height and comes back after 2 e^k v1 / g. The first
       onset is the search's alone (1e-12 s); the later ones carry the integration error of
       the flights at rtol 1e-10 (7e-12 s at the second, 8e-11 s at the fourth: 1e-9 s) */
    const char *xml = "<mechanism name=\"bounce\"><settings t_end=\"0.4\" output_step=\"1e-2\" "
                      "method=\"adams\" drift=\"baumgarte\" rtol=\"1e-10\" "
                      "atol=\"1e-13\"/><gravity g=\"0 -9.81\"/><bodies>"
                      "<body name=\"ball\" mass=\"1\" inertia=\"0.001\" x=\"0\" y=\"0.15\"/>"
                      "</bodies><contacts><pair name=\"floor\">"
                      "<circle body=\"ball\" center=\"0 0\" radius=\"0.05\"/>"
                      "<line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>"
                      "<law name=\"hertz\" K=\"1e8\" e=\"0.5\" treatment=\"impulse\"/></pair>"
                      "</contacts></mechanism>";
    clink_model *m = NULL;
    clink_sim *sim = open_sim(xml, &m);
    if (!sim)
        goto done;
    const double g = 9.81, e = 0.5, eps = 1e-13 * 0.05;
    double t = sqrt(2.0 * (0.1 + eps) / g), v = g * sqrt(2.0 * (0.1 + eps) / g);
    ENSURE(run(sim, 1e-2, 0.4) == CLINK_OK);
    int n = clink_sim_impact_count(sim);
    fprintf(stderr, "%d impacts\n", n);
    ENSURE(n == 4); /* onsets at 0.143, 0.286, 0.357, 0.393 s, the fifth at 0.411 s */
    double worst = 0.0;
    for (int k = 0; k < n; k++) {
        clink_impact_record r;
        ENSURE(clink_sim_impact(sim, k, &r) == CLINK_OK);
        fprintf(stderr, "onset %d at %.17g s (closed form %.17g, %.3g off), v %.9g\n", k, r.t_onset,
                t, r.t_onset - t, r.v_impact);
        ENSURE_NEAR(r.t_onset, t, k == 0 ? 1e-12 : 1e-9);
        ENSURE_NEAR(r.v_impact, v, k == 0 ? 1e-12 : 1e-8);
        worst = fmax(worst, fabs(r.t_onset - t));
        t += 2.0 * e * v / g;
        v *= e;
    }
    fprintf(stderr, "largest onset error %.3g s\n", worst);
    clink_sim_stats s;
    clink_sim_stats_get(sim, &s);
    /* one event per impact: none where the ball leaves the floor (g0 rising) */
    ENSURE(s.contact_events == n);
    ENSURE(s.contact_reinits == n);
done:
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_function_zero_at_the_start_waits_until_it_moves_and_finds_the_next_onset)
{
    /* radius 2^-4 m at x = 4 m: the onset level is 16 DBL_EPSILON 4 m = 2^-46 m, and a
       centre at 2^-4 - 2^-46 m puts the penetration exactly at that level: the onset
       function eps - delta is exactly 0 at t = 0. Thrown up at 0.5 m/s, the ball comes back
       to the same height after 2 v / g: the onset there, none at t = 0 */
    char xml[2048];
    double y0 = 0.0625 - ldexp(1.0, -46);
    snprintf(xml, sizeof xml,
             "<mechanism name=\"zero\"><settings t_end=\"0.2\" output_step=\"1e-2\" "
             "method=\"adams\" drift=\"baumgarte\" rtol=\"1e-10\" atol=\"1e-13\"/><gravity g=\"0 "
             "-9.81\"/><bodies>"
             "<body name=\"ball\" mass=\"1\" inertia=\"0.001\" x=\"4\" y=\"%.17g\" vy=\"0.5\"/>"
             "</bodies><contacts><pair name=\"floor\">"
             "<circle body=\"ball\" center=\"0 0\" radius=\"0.0625\"/>"
             "<line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>"
             "<law name=\"hunt-crossley\" K=\"1e7\" e=\"0.8\"/></pair>"
             "</contacts></mechanism>",
             y0);
    clink_model *m = NULL;
    clink_sim *sim = open_sim(xml, &m);
    if (!sim)
        goto done;
    double g0[2] = {1.0, 1.0};
    ENSURE(system_roots_all(sim->sys, 0.0, sim->in->y, g0) == 0);
    fprintf(stderr, "onset function at t = 0: %.3g\n", g0[0]);
    ENSURE(g0[0] == 0.0);
    ENSURE(clink_sim_advance(sim, 1e-2) == CLINK_OK);
    const cvode_events *ev = search_of(sim->in);
    ENSURE(ev->zero0 == 1);      /* seen zero at the start ... */
    ENSURE(ev->gactive[0] == 1); /* ... and monitored since it moved */
    ENSURE(run(sim, 1e-2, 0.2) == CLINK_OK);
    ENSURE(clink_sim_impact_count(sim) >= 1);
    clink_impact_record r;
    ENSURE(clink_sim_impact(sim, 0, &r) == CLINK_OK);
    double ton = 2.0 * 0.5 / 9.81;
    fprintf(stderr, "first onset %.17g s, closed form %.17g s (%.3g off)\n", r.t_onset, ton,
            r.t_onset - ton);
    ENSURE_NEAR(r.t_onset, ton, 1e-12);
    ENSURE_NEAR(r.v_impact, 0.5, 1e-9);
done:
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(events_without_a_completed_step_stop_the_run_counting_partial_evaluations)
{
    /* the guard of SIM_MAX_ROOT_CALLS: a ball reaches the floor at 0.1 s. CVODE is driven
       one step at a time (sim_integrate_to's one-step mode) with the count of evaluations
       since the last completed step set 3 below the limit before each call: a step without
       an event evaluates all functions once and passes; the step that brackets the onset
       adds the search's partial evaluations and must stop the run there */
    const char *xml = "<mechanism name=\"guard\"><settings t_end=\"0.2\" output_step=\"1e-2\" "
                      "method=\"adams\" drift=\"baumgarte\" rtol=\"1e-8\" atol=\"1e-12\"/>"
                      "<gravity g=\"0 0\"/><bodies>"
                      "<body name=\"a\" mass=\"1\" inertia=\"0.001\" x=\"0\" y=\"0.15\" vy=\"-1\"/>"
                      "</bodies><contacts>"
                      "<pair name=\"a\"><circle body=\"a\" center=\"0 0\" radius=\"0.05\"/>"
                      "<line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>"
                      "<law name=\"hunt-crossley\" K=\"1e7\" e=\"0.8\"/></pair>"
                      "</contacts></mechanism>";
    clink_model *m = NULL;
    clink_sim *sim = open_sim(xml, &m);
    if (!sim)
        goto done;
    clink_status st = CLINK_OK;
    double tn = 0.0;
    long partial = 0;
    for (int i = 0; i < 10000 && st == CLINK_OK && tn < 0.2; i++) {
        clink_sim_stats s0;
        clink_sim_stats_get(sim, &s0);
        partial = s0.root_evals_partial;
        sim->sys->root_calls = SYSTEM_MAX_ROOT_CALLS - 3;
        st = sim_integrate_to(sim, 0.2, 1);
        ENSURE(sim->in->ops->now(sim->in, &tn, NULL) == 0);
    }
    const char *msg = clink_sim_error(sim);
    fprintf(stderr, "stopped with CVODE at %.9g s: %s\n", (double) tn, msg);
    ENSURE(st == CLINK_ERR_SOLVER);
    const char *at = strstr(msg, "contact events without a completed step at t = ");
    double t_msg = 0.0;
    ENSURE(at != NULL && sscanf(at + strlen("contact events without a completed step at t = "),
                                "%lf", &t_msg) == 1);
    ENSURE_NEAR(t_msg, 0.1, 1e-6); /* a trial time of the onset's search */
    ENSURE(tn > 0.1);
    clink_sim_stats s1;
    clink_sim_stats_get(sim, &s1);
    ENSURE(s1.root_evals_partial - partial == 2); /* two counted, the third crossed it */
    ENSURE(clink_sim_impact_count(sim) == 0);
done:
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* the highest order Adams (with Baumgarte) reached over t_end on the model file at path,
   sampled after each of 200 advances; -1 when it does not run */
static int highest_adams_order(const char *path, double rtol, double t_end)
{
    char err[512];
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "model: %s\n", err);
        return -1;
    }
    clink_settings_def set = clink_model_settings(m);
    set.method = CLINK_METHOD_ADAMS;
    set.drift = CLINK_DRIFT_BAUMGARTE;
    set.rtol = rtol;
    set.atol = 1e-3 * rtol;
    clink_sim *sim = NULL;
    int top = -1;
    if (clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK) {
        top = 0;
        for (int k = 1; k <= 200; k++) {
            clink_sim_stats st;
            if (clink_sim_advance(sim, t_end * k / 200) != CLINK_OK) {
                fprintf(stderr, "advance: %s\n", clink_sim_error(sim));
                top = -1;
                break;
            }
            clink_sim_stats_get(sim, &st);
            if (st.last_order > top)
                top = st.last_order;
        }
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return top;
}

TEST(adams_keeps_to_order_6_with_contact_events_and_goes_above_without)
{
    /* the clearance slider-crank (a contact: events) over 0.02 s and the double pendulum
       (none) over 2 s, both at rtol 1e-10, where Adams unbounded goes above order 6 */
    int with =
        highest_adams_order(CLINK_SOURCE_DIR "/models/slider_crank_clearance.xml", 1e-10, 0.02);
    int without = highest_adams_order(CLINK_SOURCE_DIR "/models/double_pendulum.xml", 1e-10, 2.0);
    printf("highest Adams order: %d with contact events, %d without\n", with, without);
    ENSURE(with >= 1 && with <= 6);
    ENSURE(without > 6);
}

/* the integrator's own full sum of its dense output at t into ref (its n components, *n):
   CVodeGetDky, or the plain-array core's (adams_core_dky); 0 on success */
static int full_sum(integ *in, double t, double *ref, int *n)
{
    if (in->ops == &integrator_cvode_ops) {
        cvode_integ *cv = (cvode_integ *) in;
        *n = cv->p.n;
        N_Vector v = ref ? N_VMake_Serial(cv->p.n, ref, cv->ctx) : NULL;
        int rc = v ? CVodeGetDky(cv->mem, t, 0, v) : (ref ? -1 : 0);
        if (v)
            N_VDestroy(v);
        return rc;
    }
    adams_core *c = adams_integ_core(in);
    *n = c->n;
    return ref ? adams_core_dky(c, t, 0, ref) : 0;
}

/* the dense output at tn and twice at tn - h/2 after each of n advances of dt on the model
   file at path against the integrator's own full sum (CVodeGetDky's, or the plain-array
   core's): the advances where all agree bit for bit; *ends counts those where the step's own
   state served at tn */
static int dense_at_step_ends(const char *path, int n, double dt, int *ends)
{
    char err[512];
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    clink_sim *sim = NULL;
    int same = -1, nc = 0;
    *ends = 0;
    if (m && clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK) {
        const cvode_events *ev = search_of(sim->in);
        (void) full_sum(sim->in, 0.0, NULL, &nc);
        double *ref = malloc((size_t) nc * sizeof(double));
        size_t bytes = (size_t) nc * sizeof(double);
        same = 0;
        for (int k = 1; k <= n && ref; k++) {
            double tn = 0.0;
            if (clink_sim_advance(sim, k * dt) != CLINK_OK || sim->in->ops->now(sim->in, &tn, NULL))
                break;
            *ends += ev->yend && tn == ev->yend_t;
            if (full_sum(sim->in, tn, ref, &nc) != 0 || sim->in->ops->dense(sim->in, tn, 0) != 0)
                break;
            int end_same = memcmp(ref, sim->in->y, bytes) == 0;
            /* inside the step, twice: the second from the sum kept */
            double h = 0.0, tm = 0.0;
            if (sim->in->ops->now(sim->in, &tn, &h) || full_sum(sim->in, tn - 0.5 * h, ref, &nc))
                break;
            tm = tn - 0.5 * h;
            int mid_same = 1;
            for (int r = 0; r < 2; r++)
                mid_same &= sim->in->ops->dense(sim->in, tm, 0) == 0 && ev->dense &&
                            memcmp(ref, sim->in->y, bytes) == 0;
            same += end_same && mid_same;
        }
        free(ref);
    } else {
        fprintf(stderr, "model: %s\n", err);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return same;
}

TEST(the_dense_output_at_a_step_end_and_at_a_time_asked_again_has_the_bits_of_cvode_own_sum)
{
    /* the clearance slider-crank as shipped (Adams, contact events) over 10 ms */
    int ends = 0;
    int same = dense_at_step_ends(CLINK_SOURCE_DIR "/models/slider_crank_clearance.xml", 1000, 1e-5,
                                  &ends);
    printf("dense output at tn and tn - h/2: %d of 1000 bit for bit, %d from the step's own "
           "state\n",
           same, ends);
    ENSURE(same == 1000);
    ENSURE(ends > 500);
}
