/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A simulation in use (src/sim/sim.c: sim_enter, sim_leave): a call that changes a
 * simulation while another call holds it, from the impact callback of that call or from
 * another thread, is refused with CLINK_ERR_STATE and a message saying "in use" and by
 * what, and changes nothing: the run then goes on and ends bit-identical to one never
 * disturbed. The tests with two threads carry the label threads as well, so that
 * scripts/test-all runs them under ThreadSanitizer.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NSTEPS = 50 };
static const double T_END = 0.5; /* the ball drop bounces several times by then */

static clink_model *load(const char *name)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/models/%s", CLINK_SOURCE_DIR, name);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m)
        fprintf(stderr, "%s\n", err);
    return m;
}

/* the state of body 1 at T_END and the impacts of a run advanced in NSTEPS steps */
typedef struct outcome {
    double q[3], v[3];
    int impacts;
    clink_status status;
} outcome;

static outcome finish(clink_sim *sim, clink_status st)
{
    outcome o = {.status = st};
    clink_sim_body_state(sim, 1, o.q, o.v);
    o.impacts = clink_sim_impact_count(sim);
    return o;
}

static outcome lone_run(const clink_model *m)
{
    clink_sim *sim = NULL;
    outcome o = {.status = clink_sim_create(m, NULL, &sim, NULL, 0)};
    if (o.status != CLINK_OK)
        return o;
    clink_status st = CLINK_OK;
    for (int k = 1; k <= NSTEPS && st == CLINK_OK; k++)
        st = clink_sim_advance(sim, T_END * k / NSTEPS);
    o = finish(sim, st);
    clink_sim_destroy(&sim);
    return o;
}

static int same(const outcome *a, const outcome *b)
{
    return a->status == b->status && a->impacts == b->impacts &&
           memcmp(a->q, b->q, sizeof a->q) == 0 && memcmp(a->v, b->v, sizeof a->v) == 0;
}

/* ---- re-entry from the impact callback -------------------------------------------- */

typedef struct reentry {
    clink_sim *sim;
    int calls;
    clink_status advance, outputs, stop;
    int destroy_kept; /* clink_sim_destroy left the simulation alone */
    char msg_advance[512], msg_destroy[512];
} reentry;

static void on_impact_reenter(void *data, const clink_impact_record *rec)
{
    reentry *r = data;
    if (r->calls++ > 0)
        return;
    r->advance = clink_sim_advance(r->sim, rec->t_onset + 1.0);
    snprintf(r->msg_advance, sizeof r->msg_advance, "%s", clink_sim_error(r->sim));
    clink_sim *handle = r->sim;
    clink_sim_destroy(&handle);
    r->destroy_kept = handle == r->sim;
    snprintf(r->msg_destroy, sizeof r->msg_destroy, "%s", clink_sim_error(r->sim));
    r->outputs = clink_sim_set_outputs(r->sim, CLINK_OUTPUT_STATE);
    r->stop = clink_sim_set_stop_time(r->sim, 0.1);
}

TEST(advance_and_destroy_from_the_impact_callback_are_refused_and_the_run_goes_on)
{
    clink_model *m = load("ball_drop.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    outcome alone = lone_run(m);
    ENSURE(alone.status == CLINK_OK && alone.impacts > 0);

    reentry r = {0};
    ENSURE(clink_sim_create(m, NULL, &r.sim, NULL, 0) == CLINK_OK);
    clink_sim_set_impact_callback(r.sim, on_impact_reenter, &r);
    clink_status st = CLINK_OK;
    for (int k = 1; k <= NSTEPS && st == CLINK_OK; k++)
        st = clink_sim_advance(r.sim, T_END * k / NSTEPS);
    ENSURE(st == CLINK_OK);
    ENSURE(r.calls > 0);
    ENSURE(r.advance == CLINK_ERR_STATE);
    ENSURE(strstr(r.msg_advance, "in use") != NULL);
    ENSURE(strstr(r.msg_advance, "clink_sim_advance called") != NULL);
    ENSURE(r.destroy_kept);
    ENSURE(strstr(r.msg_destroy, "clink_sim_destroy called") != NULL);
    ENSURE(strstr(r.msg_destroy, "in use by clink_sim_advance") != NULL);
    ENSURE(r.outputs == CLINK_ERR_STATE);
    ENSURE(r.stop == CLINK_ERR_STATE);
    /* nothing changed: the level, the stop time and the run are those of a lone run */
    ENSURE(clink_sim_output_level(r.sim) == CLINK_OUTPUT_ALL);
    outcome o = finish(r.sim, st);
    ENSURE(same(&o, &alone));
    ENSURE(strstr(clink_sim_error(r.sim), "in use") == NULL); /* the refusal is over */
    clink_sim_destroy(&r.sim);
    ENSURE(r.sim == NULL);
    clink_model_destroy(&m);
}

/* ---- two threads on one simulation ------------------------------------------------ */

/* the second thread tries while the first holds the simulation in its impact callback */
typedef struct meeting {
    clink_sim *sim;
    atomic_int inside; /* 1: the first thread is in its callback; 2: the second is done */
    clink_status advance, destroy_kept, outputs;
    char msg[512];
} meeting;

static void on_impact_wait(void *data, const clink_impact_record *rec)
{
    (void) rec;
    meeting *w = data;
    int expected = 0;
    if (!atomic_compare_exchange_strong(&w->inside, &expected, 1))
        return;
    while (atomic_load(&w->inside) != 2)
        ; /* the second thread tries its calls now */
}

static void *second_thread(void *arg)
{
    meeting *w = arg;
    while (atomic_load(&w->inside) != 1)
        ;
    w->advance = clink_sim_advance(w->sim, T_END);
    snprintf(w->msg, sizeof w->msg, "%s", clink_sim_error(w->sim));
    clink_sim *handle = w->sim;
    clink_sim_destroy(&handle);
    w->destroy_kept = handle == w->sim;
    w->outputs = clink_sim_set_outputs(w->sim, CLINK_OUTPUT_STATE);
    atomic_store(&w->inside, 2);
    return NULL;
}

TEST(a_second_thread_advancing_a_simulation_in_use_is_refused)
{
    clink_model *m = load("ball_drop.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    outcome alone = lone_run(m);
    meeting w = {0};
    atomic_init(&w.inside, 0);
    ENSURE(clink_sim_create(m, NULL, &w.sim, NULL, 0) == CLINK_OK);
    clink_sim_set_impact_callback(w.sim, on_impact_wait, &w);
    pthread_t th;
    ENSURE(pthread_create(&th, NULL, second_thread, &w) == 0);
    clink_status st = CLINK_OK;
    for (int k = 1; k <= NSTEPS && st == CLINK_OK; k++)
        st = clink_sim_advance(w.sim, T_END * k / NSTEPS);
    if (atomic_load(&w.inside) == 0)
        atomic_store(&w.inside, 1); /* no impact: let the second thread go (and fail) */
    ENSURE(pthread_join(th, NULL) == 0);
    ENSURE(w.advance == CLINK_ERR_STATE);
    ENSURE(strstr(w.msg, "clink_sim_advance called while the simulation is in use by "
                         "clink_sim_advance") != NULL);
    ENSURE(w.destroy_kept);
    ENSURE(w.outputs == CLINK_ERR_STATE);
    outcome o = finish(w.sim, st);
    ENSURE(same(&o, &alone));
    clink_sim_destroy(&w.sim);
    ENSURE(w.sim == NULL);
    clink_model_destroy(&m);
}

/* both threads advance one simulation through the same grid, free-running */
typedef struct racer {
    clink_sim *sim;
    int ok, refused, behind, other;
} racer;

static void *race(void *arg)
{
    racer *r = arg;
    for (int k = 1; k <= NSTEPS; k++) {
        clink_status st = clink_sim_advance(r->sim, T_END * k / NSTEPS);
        if (st == CLINK_OK)
            r->ok++;
        else if (st == CLINK_ERR_STATE)
            r->refused++;
        else if (st == CLINK_ERR_ARG)
            r->behind++; /* the other thread was there first */
        else
            r->other++;
    }
    return NULL;
}

TEST(two_threads_advancing_one_simulation_never_corrupt_it)
{
    clink_model *m = load("ball_drop.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    outcome alone = lone_run(m);
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, NULL, &sim, NULL, 0) == CLINK_OK);
    racer r[2] = {{sim, 0, 0, 0, 0}, {sim, 0, 0, 0, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        ENSURE(pthread_create(&th[i], NULL, race, &r[i]) == 0);
    for (int i = 0; i < 2; i++)
        ENSURE(pthread_join(th[i], NULL) == 0);
    /* every call was done, refused or found its time passed; no CVODE error, no other */
    ENSURE(r[0].other == 0 && r[1].other == 0);
    ENSURE(r[0].ok + r[1].ok >= 1);
    ENSURE(clink_sim_time(sim) == T_END);
    outcome o = finish(sim, CLINK_OK);
    ENSURE(same(&o, &alone));
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
