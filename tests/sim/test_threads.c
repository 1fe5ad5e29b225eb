/* SPDX-License-Identifier: BSD-3-Clause */
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

/* ---- const getters of one simulation read from two threads at once ------------- */

typedef struct reader {
    const clink_sim *sim;
    double sum; /* a digest of everything read, compared between the threads */
} reader;

static void *read_all(void *arg)
{
    reader *r = arg;
    const clink_sim *s = r->sim;
    double acc = 0.0;
    for (int rep = 0; rep < 50; rep++) {
        double q[3], v[3], a[3], f[3], pos, vel, dq, dv;
        clink_energy e;
        clink_sim_stats st;
        acc += clink_sim_time(s);
        for (int b = 1; b <= 3; b++) {
            if (clink_sim_body_state(s, b, q, v) == CLINK_OK)
                acc += q[0] + q[1] + q[2] + v[0] + v[1] + v[2];
            if (clink_sim_body_acceleration(s, b, a) == CLINK_OK)
                acc += a[0] + a[1] + a[2];
        }
        for (int j = 0; j < 2; j++)
            if (clink_sim_joint_reaction(s, j, f) == CLINK_OK)
                acc += f[0] + f[1] + f[2];
        if (clink_sim_energy(s, &e) == CLINK_OK)
            acc += e.kinetic + e.balance;
        clink_sim_constraint_violation(s, &pos, &vel);
        clink_sim_assembly(s, &dq, &dv);
        clink_sim_stats_get(s, &st);
        acc += pos + vel + dq + dv + (double) st.steps;
        for (int k = 0; k < clink_sim_contact_count(s); k++) {
            clink_contact_info info;
            if (clink_sim_contact(s, k, &info) == CLINK_OK)
                acc += info.delta + info.fn;
        }
        for (int k = 0; k < clink_sim_impact_count(s); k++) {
            clink_impact_record rec;
            if (clink_sim_impact(s, k, &rec) == CLINK_OK)
                acc += rec.t_onset + rec.F_max;
        }
    }
    r->sum = acc;
    return NULL;
}

TEST(const_getters_of_one_simulation_may_be_read_from_two_threads)
{
    /* the contract allows reading one simulation from several threads while none advances
       it: the getters read what the last advance computed and write nothing */
    clink_model *m = load("slider_crank_clearance.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    if (sim && clink_sim_advance(sim, 0.01) == CLINK_OK) {
        reader r[2] = {{sim, 0.0}, {sim, 0.0}};
        pthread_t th[2];
        for (int i = 0; i < 2; i++)
            ENSURE(pthread_create(&th[i], NULL, read_all, &r[i]) == 0);
        for (int i = 0; i < 2; i++)
            ENSURE(pthread_join(th[i], NULL) == 0);
        reader alone = {sim, 0.0};
        read_all(&alone);
        ENSURE(memcmp(&r[0].sum, &alone.sum, sizeof alone.sum) == 0);
        ENSURE(memcmp(&r[1].sum, &alone.sum, sizeof alone.sum) == 0);
    } else {
        ENSURE(!"the clearance slider-crank did not advance to 10 ms");
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
