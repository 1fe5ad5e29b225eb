/*
 * The threading contract (docs/api.md): one simulation per thread, and a model
 * may be shared by simulations running in different threads at the same time.
 *
 * Two threads each create a simulation of one shared model (the clearance
 * slider-crank, with contact events and re-initialisations, and the ball drop)
 * and advance it; their trajectories must be bit-identical to the same run done
 * alone, before any thread started. In the ThreadSanitizer build (scripts/test-all,
 * -DCLINK_SANITIZE=thread) any data race between the two is reported and fails
 * the test, so the contract is checked, not only written.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NSAMPLES = 40 };

typedef struct run {
    const clink_model *model;
    double t_end;
    double q[NSAMPLES][3], v[NSAMPLES][3]; /* body 1 at each sample */
    int impacts;
    long steps;
    clink_status status;
    char msg[256];
} run;

/* advances one simulation of r->model to r->t_end in NSAMPLES equal steps */
static void *run_model(void *arg)
{
    run *r = arg;
    clink_sim *sim = NULL;

    r->status = clink_sim_create(r->model, NULL, &sim, r->msg, sizeof r->msg);
    if (r->status != CLINK_OK)
        return NULL;
    for (int k = 0; k < NSAMPLES; k++) {
        r->status = clink_sim_advance(sim, r->t_end * (k + 1) / NSAMPLES);
        if (r->status < 0) {
            snprintf(r->msg, sizeof r->msg, "%s", clink_sim_error(sim));
            break;
        }
        clink_sim_body_state(sim, 1, r->q[k], r->v[k]);
    }
    clink_sim_stats stats;
    clink_sim_stats_get(sim, &stats);
    r->steps = stats.steps;
    r->impacts = clink_sim_impact_count(sim);
    clink_sim_destroy(&sim);
    return NULL;
}

static clink_model *load(const char *name)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/models/%s", CLINK_SOURCE_DIR, name);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m)
        fprintf(stderr, "%s\n", err);
    return m;
}

/* runs `threads` simulations of one model at once and compares each with a lone run */
static void check_shared_model(const char *name, double t_end, int threads)
{
    clink_model *m = load(name);
    ENSURE(m != NULL);
    if (!m)
        return;
    run alone = {.model = m, .t_end = t_end};
    run_model(&alone);
    ENSURE(alone.status >= 0);

    run *rs = calloc((size_t) threads, sizeof *rs);
    pthread_t *th = calloc((size_t) threads, sizeof *th);
    ENSURE(rs != NULL && th != NULL);
    if (rs && th) {
        for (int i = 0; i < threads; i++) {
            rs[i].model = m;
            rs[i].t_end = t_end;
            ENSURE(pthread_create(&th[i], NULL, run_model, &rs[i]) == 0);
        }
        for (int i = 0; i < threads; i++)
            ENSURE(pthread_join(th[i], NULL) == 0);
        for (int i = 0; i < threads; i++) {
            ENSURE(rs[i].status == alone.status);
            ENSURE(rs[i].impacts == alone.impacts);
            ENSURE(rs[i].steps == alone.steps);
            /* bit-identical: the same operations in the same order, whatever the other
               thread does */
            ENSURE(memcmp(rs[i].q, alone.q, sizeof alone.q) == 0);
            ENSURE(memcmp(rs[i].v, alone.v, sizeof alone.v) == 0);
        }
    }
    free(rs);
    free(th);
    clink_model_destroy(&m);
}

TEST(two_simulations_of_one_model_in_two_threads_match_a_lone_run)
{
    /* 20 ms of the clearance slider-crank: contact onsets, separations, impacts */
    check_shared_model("slider_crank_clearance.xml", 0.02, 2);
}

TEST(simulations_of_a_contact_model_in_four_threads_match_a_lone_run)
{
    check_shared_model("ball_drop.xml", 0.5, 4);
}
