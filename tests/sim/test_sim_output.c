/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What an output computes (clink_sim_set_outputs, include/clink/sim.h): the levels
 * CLINK_OUTPUT_STATE and CLINK_OUTPUT_CONTACTS give, at every output of a contact model,
 * the same bits of q, v and (from CONTACTS up) contact information as the complete
 * output, the same integration (steps, right-hand sides, events, impact records); the
 * getters of what a level does not compute are refused with CLINK_ERR_STATE and a
 * message in clink_sim_error(), never answered with stale numbers; a level set between
 * two advances applies from the next output on. The same for a list of the contacts
 * whose information the outputs compute (clink_sim_set_output_contacts).
 *
 * Models: the clearance slider-crank (Adams, Baumgarte, KLU saddle solves, friction,
 * impacts), the double pendulum striking a wall (BDF, projection, analytic Jacobian) and
 * a 70-bead granular chain (Adams, a contact at every bead).
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */

#include "ensure.h"

#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static clink_model *load(const char *name)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/models/%s", CLINK_SOURCE_DIR, name);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m)
        fprintf(stderr, "%s: %s\n", name, err);
    return m;
}

static clink_sim *start(const clink_model *m, clink_output_level level)
{
    char err[512];
    clink_sim *s = NULL;
    if (clink_sim_create(m, NULL, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    if (clink_sim_set_outputs(s, level) != CLINK_OK) {
        fprintf(stderr, "%s\n", clink_sim_error(s));
        clink_sim_destroy(&s);
    }
    return s;
}

/* nonzero if the q and v of every body of a and b are the same bits */
static int same_state(const clink_sim *a, const clink_sim *b, int nbodies)
{
    for (int i = 1; i < nbodies; i++) {
        double qa[3], va[3], qb[3], vb[3];
        if (clink_sim_body_state(a, i, qa, va) != CLINK_OK ||
            clink_sim_body_state(b, i, qb, vb) != CLINK_OK)
            return 0;
        if (memcmp(qa, qb, sizeof qa) != 0 || memcmp(va, vb, sizeof va) != 0)
            return 0;
    }
    return 1;
}

/* nonzero if the information of every contact of a and b is the same bits */
static int same_contacts(const clink_sim *a, const clink_sim *b)
{
    int n = clink_sim_contact_count(a);
    if (n != clink_sim_contact_count(b))
        return 0;
    for (int k = 0; k < n; k++) {
        clink_contact_info ia, ib;
        memset(&ia, 0, sizeof ia);
        memset(&ib, 0, sizeof ib);
        if (clink_sim_contact(a, k, &ia) != CLINK_OK || clink_sim_contact(b, k, &ib) != CLINK_OK)
            return 0;
        if (memcmp(&ia, &ib, sizeof ia) != 0)
            return 0;
    }
    return 1;
}

/* nonzero if the integrations of a and b took the same steps and recorded the same impacts */
static int same_run(const clink_sim *a, const clink_sim *b)
{
    clink_sim_stats sa, sb;
    clink_sim_stats_get(a, &sa);
    clink_sim_stats_get(b, &sb);
    /* (the KLU counts differ: a complete output solves the saddle-point system once more) */
    if (sa.steps != sb.steps || sa.rhs_evals != sb.rhs_evals ||
        sa.contact_events != sb.contact_events || sa.contact_reinits != sb.contact_reinits ||
        sa.error_test_fails != sb.error_test_fails || sa.jac_evals != sb.jac_evals)
        return 0;
    int n = clink_sim_impact_count(a);
    if (n != clink_sim_impact_count(b))
        return 0;
    for (int i = 0; i < n; i++) {
        clink_impact_record ra, rb;
        memset(&ra, 0, sizeof ra);
        memset(&rb, 0, sizeof rb);
        if (clink_sim_impact(a, i, &ra) != CLINK_OK || clink_sim_impact(b, i, &rb) != CLINK_OK ||
            memcmp(&ra, &rb, sizeof ra) != 0)
            return 0;
    }
    return 1;
}

/*
 * Advances one simulation per level in step over `outputs` outputs of dt and compares
 * each lower level with the complete one at every output; returns the number of outputs
 * at which the contacts were in an impact (so that a test can show it covered some).
 */
static int compare_levels(const char *name, double dt, int outputs)
{
    clink_model *m = load(name);
    ENSURE(m != NULL);
    if (!m)
        return 0;
    int nb = clink_model_count(m, CLINK_ENTITY_BODY);
    clink_sim *all = start(m, CLINK_OUTPUT_ALL);
    clink_sim *con = start(m, CLINK_OUTPUT_CONTACTS);
    clink_sim *sta = start(m, CLINK_OUTPUT_STATE);
    ENSURE(all && con && sta);
    int bad_state = 0, bad_contacts = 0, in_impact = 0, fails = 0;
    for (int i = 1; all && con && sta && i <= outputs; i++) {
        double t = dt * i;
        if (clink_sim_advance(all, t) != CLINK_OK || clink_sim_advance(con, t) != CLINK_OK ||
            clink_sim_advance(sta, t) != CLINK_OK) {
            fails++;
            break;
        }
        bad_state += !same_state(all, con, nb) || !same_state(all, sta, nb);
        bad_contacts += !same_contacts(all, con);
        for (int k = 0; k < clink_sim_contact_count(all); k++) {
            clink_contact_info ci;
            if (clink_sim_contact(all, k, &ci) == CLINK_OK && ci.fn > 0.0) {
                in_impact++;
                break;
            }
        }
    }
    ENSURE(fails == 0);
    ENSURE(bad_state == 0);
    ENSURE(bad_contacts == 0);
    if (all && con && sta) {
        ENSURE(same_run(all, con));
        ENSURE(same_run(all, sta));
        ENSURE(clink_sim_output_level(all) == CLINK_OUTPUT_ALL);
        ENSURE(clink_sim_output_level(con) == CLINK_OUTPUT_CONTACTS);
        ENSURE(clink_sim_output_level(sta) == CLINK_OUTPUT_STATE);
        ENSURE(clink_sim_impact_count(all) > 0);
    }
    clink_sim_destroy(&all);
    clink_sim_destroy(&con);
    clink_sim_destroy(&sta);
    clink_model_destroy(&m);
    return in_impact;
}

TEST(every_output_level_gives_the_bits_of_the_complete_output_on_the_clearance_slider_crank)
{
    /* 20 ms at the model's 10 us outputs: free flight, impacts, continuous contact */
    ENSURE(compare_levels("slider_crank_clearance.xml", 1e-5, 2000) > 100);
}

TEST(every_output_level_gives_the_bits_of_the_complete_output_on_a_pendulum_striking_a_wall)
{
    /* BDF with projection: every output is projected, every step factorises the saddle
       matrix; 1.5 s covers the first impacts */
    ENSURE(compare_levels("double_pendulum_impact.xml", 1e-3, 1500) > 0);
}

TEST(every_output_level_gives_the_bits_of_the_complete_output_on_a_granular_chain)
{
    /* 70 beads, 0.2 ms at the model's 1 us outputs: the wave crosses 30 contacts */
    ENSURE(compare_levels("granular_chain.xml", 1e-6, 200) > 150);
}

/* the getters of what the level `level` did not compute at the current output */
static void ensure_refused(const clink_sim *s, clink_output_level level)
{
    double a[3] = {1.0, 1.0, 1.0}, f[3], d = 0.0, pos = 0.0, vel = 0.0;
    clink_energy e;
    clink_contact_info ci;
    ENSURE(clink_sim_output_level(s) == level);
    ENSURE(clink_sim_body_acceleration(s, 1, a) == CLINK_ERR_STATE);
    ENSURE(clink_sim_joint_reaction(s, 0, f) == CLINK_ERR_STATE);
    ENSURE(clink_sim_driver_force(s, 0, &d) == CLINK_ERR_STATE);
    ENSURE(clink_sim_energy(s, &e) == CLINK_ERR_STATE);
    clink_sim_constraint_violation(s, &pos, &vel);
    ENSURE(isnan(pos) && isnan(vel));
    ENSURE(clink_sim_contact(s, 0, &ci) ==
           (level >= CLINK_OUTPUT_CONTACTS ? CLINK_OK : CLINK_ERR_STATE));
    ENSURE(strstr(clink_sim_error(s),
                  level == CLINK_OUTPUT_STATE ? "CLINK_OUTPUT_STATE" : "CLINK_OUTPUT_CONTACTS") !=
           NULL);
    ENSURE(strstr(clink_sim_error(s), "accelerations") != NULL);
    double q[3], v[3];
    ENSURE(clink_sim_body_state(s, 1, q, v) == CLINK_OK);
}

/* the getters of the complete output answer, clink_sim_error() is "" */
static void ensure_complete(const clink_sim *s)
{
    double a[3], f[3], d = 0.0, pos = NAN, vel = NAN;
    clink_energy e;
    clink_contact_info ci;
    ENSURE(clink_sim_output_level(s) == CLINK_OUTPUT_ALL);
    ENSURE(clink_sim_body_acceleration(s, 1, a) == CLINK_OK);
    ENSURE(clink_sim_joint_reaction(s, 0, f) == CLINK_OK);
    ENSURE(clink_sim_driver_force(s, 0, &d) == CLINK_OK);
    ENSURE(clink_sim_energy(s, &e) == CLINK_OK);
    clink_sim_constraint_violation(s, &pos, &vel);
    ENSURE(isfinite(pos) && isfinite(vel));
    ENSURE(clink_sim_contact(s, 0, &ci) == CLINK_OK);
    ENSURE_STR_EQ(clink_sim_error(s), "");
}

TEST(getters_of_what_an_output_level_did_not_compute_are_refused_with_clink_err_state)
{
    clink_model *m = load("slider_crank_clearance.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    ENSURE(clink_model_count(m, CLINK_ENTITY_DRIVER) > 0);
    clink_sim *s = start(m, CLINK_OUTPUT_ALL);
    ENSURE(s != NULL);
    if (s) {
        /* the output at t = 0 is complete whatever the level asked for later */
        ENSURE(clink_sim_set_outputs(s, CLINK_OUTPUT_CONTACTS) == CLINK_OK);
        ensure_complete(s);
        ENSURE(clink_sim_advance(s, 1e-4) == CLINK_OK);
        ensure_refused(s, CLINK_OUTPUT_CONTACTS);
        ENSURE(clink_sim_set_outputs(s, CLINK_OUTPUT_STATE) == CLINK_OK);
        ensure_refused(s, CLINK_OUTPUT_CONTACTS); /* the current output keeps its level */
        ENSURE(clink_sim_advance(s, 2e-4) == CLINK_OK);
        ensure_refused(s, CLINK_OUTPUT_STATE);
        /* levels out of the enumeration: refused with a message, the level unchanged */
        ENSURE(clink_sim_set_outputs(s, (clink_output_level) 0) == CLINK_ERR_ARG);
        ENSURE(strstr(clink_sim_error(s), "clink_sim_set_outputs") != NULL);
        ENSURE(clink_sim_set_outputs(s, (clink_output_level) 4) == CLINK_ERR_ARG);
        ENSURE(clink_sim_advance(s, 3e-4) == CLINK_OK);
        ensure_refused(s, CLINK_OUTPUT_STATE);
        /* a recorder reads everything: its advance is refused below the complete output */
        clink_recorder *rec = NULL;
        char err[512], dir[] = "/tmp/clink_test_outputs_level_XXXXXX";
        ENSURE(mkdtemp(dir) != NULL);
        ENSURE(clink_recorder_create(m, dir, NULL, &rec, err, sizeof err) == CLINK_OK);
        if (rec) {
            ENSURE(clink_recorder_advance(rec, s, 4e-4) == CLINK_ERR_STATE);
            ENSURE(strstr(clink_sim_error(s), "CLINK_OUTPUT_ALL") != NULL);
            ENSURE(clink_recorder_sample(rec, s) == CLINK_ERR_STATE);
            ENSURE(clink_sim_time(s) == 3e-4);
            /* complete outputs of a list of contacts: refused too, then accepted with all */
            int first = 0;
            ENSURE(clink_sim_set_outputs(s, CLINK_OUTPUT_ALL) == CLINK_OK);
            ENSURE(clink_sim_set_output_contacts(s, &first, 1) == CLINK_OK);
            ENSURE(clink_recorder_advance(rec, s, 4e-4) == CLINK_ERR_STATE);
            ENSURE(strstr(clink_sim_error(s), "clink_sim_set_output_contacts") != NULL);
            ENSURE(clink_sim_time(s) == 3e-4);
            ENSURE(clink_sim_set_output_contacts(s, NULL, 0) == CLINK_OK);
            /* the current output (3e-4) is still incomplete: its rows would be stale */
            ENSURE(clink_recorder_advance(rec, s, 4e-4) == CLINK_ERR_STATE);
            ENSURE(clink_sim_time(s) == 3e-4);
            ENSURE(clink_sim_advance(s, 4e-4) == CLINK_OK);
            ensure_complete(s);
            ENSURE(clink_recorder_advance(rec, s, 5e-4) == CLINK_OK);
            ENSURE(clink_sim_time(s) == 5e-4);
            ensure_complete(s);
            clink_recorder_destroy(&rec); /* removes its unfinished files */
        }
        ENSURE(rmdir(dir) == 0);
    }
    clink_sim_destroy(&s);
    /* a NULL handle */
    ENSURE(clink_sim_set_outputs(NULL, CLINK_OUTPUT_ALL) == CLINK_ERR_ARG);
    ENSURE(clink_sim_output_level(NULL) == 0);
    clink_model_destroy(&m);
}

/* the accelerations, energy and contact of body 2 / contact 0 as bits, for comparison */
typedef struct sample {
    double q[3], v[3], a[3], reaction[3], pos, vel;
    clink_energy e;
    clink_contact_info ci;
} sample;

static void take(const clink_sim *s, sample *x)
{
    memset(x, 0, sizeof *x);
    clink_sim_body_state(s, 2, x->q, x->v);
    clink_sim_body_acceleration(s, 2, x->a);
    clink_sim_joint_reaction(s, 1, x->reaction);
    clink_sim_energy(s, &x->e);
    clink_sim_constraint_violation(s, &x->pos, &x->vel);
    clink_sim_contact(s, 0, &x->ci);
}

TEST(switching_the_output_level_mid_run_computes_what_the_new_level_asks_at_the_next_output)
{
    clink_model *m = load("slider_crank_clearance.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    /* the level of each block of 100 outputs of 10 us */
    static const clink_output_level plan[] = {CLINK_OUTPUT_ALL,      CLINK_OUTPUT_STATE,
                                              CLINK_OUTPUT_CONTACTS, CLINK_OUTPUT_ALL,
                                              CLINK_OUTPUT_STATE,    CLINK_OUTPUT_ALL};
    enum { BLOCK = 100, NPLAN = sizeof plan / sizeof plan[0] };
    clink_sim *ref = start(m, CLINK_OUTPUT_ALL);
    clink_sim *sw = start(m, CLINK_OUTPUT_ALL);
    ENSURE(ref && sw);
    int bad = 0, fails = 0, wrong_level = 0, complete = 0, with_contacts = 0;
    for (int b = 0; ref && sw && b < NPLAN && !fails; b++) {
        if (clink_sim_set_outputs(sw, plan[b]) != CLINK_OK)
            fails++;
        for (int i = 1; i <= BLOCK; i++) {
            double t = 1e-5 * (b * BLOCK + i);
            if (clink_sim_advance(ref, t) != CLINK_OK || clink_sim_advance(sw, t) != CLINK_OK) {
                fails++;
                break;
            }
            wrong_level += clink_sim_output_level(sw) != plan[b];
            sample x, y;
            take(ref, &x);
            take(sw, &y);
            bad += memcmp(x.q, y.q, sizeof x.q) != 0 || memcmp(x.v, y.v, sizeof x.v) != 0;
            if (plan[b] >= CLINK_OUTPUT_CONTACTS) {
                bad += memcmp(&x.ci, &y.ci, sizeof x.ci) != 0;
                with_contacts++;
            }
            if (plan[b] == CLINK_OUTPUT_ALL) {
                /* the complete outputs after lower ones: the same bits as a run that never
                   lowered its level (the saddle solve, the energies, the violation) */
                bad += memcmp(x.a, y.a, sizeof x.a) != 0 ||
                       memcmp(x.reaction, y.reaction, sizeof x.reaction) != 0 ||
                       memcmp(&x.e, &y.e, sizeof x.e) != 0 || x.pos != y.pos || x.vel != y.vel;
                complete++;
            } else {
                bad += !isnan(y.pos) || !isnan(y.vel);
            }
        }
    }
    ENSURE(fails == 0);
    ENSURE(wrong_level == 0);
    ENSURE(bad == 0);
    ENSURE(complete == 3 * BLOCK);
    ENSURE(with_contacts == 4 * BLOCK);
    if (ref && sw) {
        ENSURE(same_run(ref, sw));
        ENSURE(clink_sim_finding_count(ref) == clink_sim_finding_count(sw));
    }
    clink_sim_destroy(&ref);
    clink_sim_destroy(&sw);
    clink_model_destroy(&m);
}

TEST(listed_output_contacts_give_the_bits_of_the_complete_output_and_the_others_are_refused)
{
    clink_model *m = load("granular_chain.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    int nb = clink_model_count(m, CLINK_ENTITY_BODY);
    clink_sim *ref = start(m, CLINK_OUTPUT_ALL);
    clink_sim *con = start(m, CLINK_OUTPUT_CONTACTS);
    clink_sim *all = start(m, CLINK_OUTPUT_ALL);
    ENSURE(ref && con && all);
    if (!ref || !con || !all) {
        clink_sim_destroy(&ref);
        clink_sim_destroy(&con);
        clink_sim_destroy(&all);
        clink_model_destroy(&m);
        return;
    }
    int ncon = clink_sim_contact_count(ref);
    ENSURE(ncon == 71);
    static const int list[] = {40, 5, 12, 40}, one = 5, bad[] = {3, 71}, neg = -1;
    ENSURE(clink_sim_set_output_contacts(con, list, 4) == CLINK_OK);
    ENSURE(clink_sim_set_output_contacts(all, &one, 1) == CLINK_OK);
    /* refused lists leave the list in force */
    ENSURE(clink_sim_set_output_contacts(con, bad, 2) == CLINK_ERR_ARG);
    ENSURE(strstr(clink_sim_error(con), "contact 71") != NULL);
    ENSURE(clink_sim_set_output_contacts(con, &neg, 1) == CLINK_ERR_ARG);
    ENSURE(clink_sim_set_output_contacts(con, list, -1) == CLINK_ERR_ARG);
    ENSURE(clink_sim_set_output_contacts(NULL, list, 1) == CLINK_ERR_ARG);
    int bad_bits = 0, bad_refusal = 0, fails = 0, loaded = 0;
    for (int i = 1; i <= 200 && !fails; i++) {
        if (i == 101) /* every contact again, from the next output on */
            ENSURE(clink_sim_set_output_contacts(con, NULL, 0) == CLINK_OK);
        double t = 1e-6 * i;
        if (clink_sim_advance(ref, t) != CLINK_OK || clink_sim_advance(con, t) != CLINK_OK ||
            clink_sim_advance(all, t) != CLINK_OK) {
            fails++;
            break;
        }
        bad_bits += !same_state(ref, con, nb) || !same_state(ref, all, nb);
        for (int k = 0; k < ncon; k++) {
            clink_contact_info a, b, c;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            memset(&c, 0, sizeof c);
            int in_con = i > 100 || k == 40 || k == 5 || k == 12, in_all = k == 5;
            ENSURE(clink_sim_contact(ref, k, &a) == CLINK_OK);
            clink_status sb = clink_sim_contact(con, k, &b), sc = clink_sim_contact(all, k, &c);
            bad_refusal += sb != (in_con ? CLINK_OK : CLINK_ERR_STATE);
            bad_refusal += sc != (in_all ? CLINK_OK : CLINK_ERR_STATE);
            bad_bits += in_con && memcmp(&a, &b, sizeof a) != 0;
            bad_bits += in_all && memcmp(&a, &c, sizeof a) != 0;
            loaded += in_con && a.fn > 0.0;
        }
        /* the complete output of a list: energies and accelerations as the reference's */
        clink_energy ea, ec;
        double aa[3], ac[3];
        ENSURE(clink_sim_energy(ref, &ea) == CLINK_OK && clink_sim_energy(all, &ec) == CLINK_OK);
        ENSURE(clink_sim_body_acceleration(ref, 20, aa) == CLINK_OK &&
               clink_sim_body_acceleration(all, 20, ac) == CLINK_OK);
        bad_bits += memcmp(&ea, &ec, sizeof ea) != 0 || memcmp(aa, ac, sizeof aa) != 0;
        if (i == 100)
            ENSURE(strstr(clink_sim_error(con), "clink_sim_set_output_contacts") != NULL &&
                   strstr(clink_sim_error(all), "clink_sim_set_output_contacts") != NULL);
    }
    ENSURE(fails == 0);
    ENSURE(bad_bits == 0);
    ENSURE(bad_refusal == 0);
    ENSURE(loaded > 100); /* the listed contacts carried the wave */
    ENSURE(same_run(ref, con));
    ENSURE(same_run(ref, all));
    ENSURE(strstr(clink_sim_error(con), "clink_sim_set_output_contacts") == NULL); /* all again */
    clink_sim_destroy(&ref);
    clink_sim_destroy(&con);
    clink_sim_destroy(&all);
    clink_model_destroy(&m);
}
