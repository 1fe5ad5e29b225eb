/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adams_integ.c: method="adams" behind the ops of integrator.h on the plain-array Adams of
 * adams_core.c, which reproduces CVODE 6.4.1's Adams as cvode_setup.c configures it: the
 * problem's error weights (or rtol |y| + atol), at most order 6 when the problem crosses
 * its events where the force is only C^1 (cvode_setup.c, "Adams order"; 12 otherwise),
 * max, min and first steps, the stop time, re-initialisation at events. The events are
 * located by the root search of cvode_events.c on this integrator (its host: the time,
 * the first step, the dense output and its partial sums, one step), the stiffness
 * estimates of cvode_watch.c are made the same way here (the fixed-point iterates'
 * |w df| / |w dy|, LSODA's), and the counters are summed across re-initialisations as
 * cvode_step.c sums CVODE's: the same steps, states, events, outputs and counts as the
 * CVODE integrator with method="adams" (tests/integrators/test_adams.c), without
 * CVODE's generic vectors and solver objects, so a step of a small mechanism costs a
 * fraction of CVODE's outside the right-hand side.
 *
 * Messages keep CVODE's words and flag names (cvode_ode.c): the name is "CVODE-Adams".
 */
#include "integrators/adams/adams.h"
#include "integrators/cvode/cvode_events.h"
#include "integrators/cvode/cvode_ode.h"
#include "integrators/integ_common.h"
#include "integrators/integrator.h"

#include <cvode/cvode.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the highest order with rough events (cvode_setup.c's CVODE_ADAMS_EVENT_ORDER) */
#define ADAMS_EVENT_ORDER 6

/* the stiffness estimates (cvode_watch.c's, Adams only) */
typedef integ_lip adams_watch;

typedef struct adams_integ {
    integ base; /* base.y: the state returned (n) */
    integ_problem p;
    integ_config c;
    adams_core core;
    cvode_events ev;
    adams_watch w;
    ode_counters banked; /* the core's counters summed before each re-initialisation */
    int tstop_set;
    double t_stop;
} adams_integ;

static adams_integ *adams_of(integ *in)
{
    return (adams_integ *) in;
}

static const adams_integ *adams_of_const(const integ *in)
{
    return (const adams_integ *) in;
}

/* ---- callbacks of the core ----------------------------------------------------- */

/* cvode_watch_rhs: a further iterate at the same time gives |w df| / |w dy| */
static void adams_watch_rhs(adams_integ *a, double t, const double *y, const double *f)
{
    integ_lip_observe(&a->w, a->core.ewt_last, a->p.n, t, y, f);
}

static int adams_rhs(void *data, double t, const double *y, double *yd)
{
    adams_integ *a = data;
    int rc = a->p.rhs(a->p.data, t, y, yd);
    if (rc == 0 && a->c.watch) /* observed, not changed */
        adams_watch_rhs(a, t, y, yd);
    return rc;
}

/* the problem's weights, or CVODE's scalar tolerances: 1 / (rtol |y| + atol) */
static void adams_weights(void *data, const double *y, double *w)
{
    adams_integ *a = data;
    if (a->p.weights) {
        a->p.weights(a->p.data, y, w);
        return;
    }
    for (int i = 0; i < a->p.n; i++)
        w[i] = 1.0 / ((fabs(y[i]) * a->c.rtol) + a->c.atol);
}

/* ---- the event search's host (cvode_events.h) ----------------------------------- */

static int adams_host_now(void *data, double *tn, double *h)
{
    adams_integ *a = data;
    *tn = a->core.tn;
    if (h)
        *h = a->core.hu;
    return 0;
}

static int adams_host_init_step(void *data, double *h0)
{
    *h0 = ((adams_integ *) data)->core.h0u;
    return 0;
}

static int adams_host_dense(void *data, double t, int k, double *out)
{
    return adams_core_dky(&((adams_integ *) data)->core, t, k, out);
}

static void adams_host_dense_some(void *data, double t, const int *pairs, int npairs, double *state)
{
    adams_core_dky_some(&((adams_integ *) data)->core, t, pairs, npairs, state);
}

static int adams_host_one_step(void *data, double tout, double *tret)
{
    adams_integ *a = data;
    return adams_core_step(&a->core, tout, a->base.y, tret);
}

/* ---- the ops --------------------------------------------------------------------- */

static clink_status adams_set_limits(integ *in, const integ_config *c, char *msg, size_t n)
{
    (void) msg;
    (void) n;
    adams_integ *a = adams_of(in);
    a->c.rtol = c->rtol;
    a->c.atol = c->atol;
    /* as cvode_set_limits: a limit given replaces the last, none leaves it */
    if (c->max_step > 0.0)
        adams_core_set_max_step(&a->core, c->max_step);
    if (c->min_step > 0.0)
        adams_core_set_min_step(&a->core, c->min_step);
    if (c->first_step > 0.0)
        a->core.hin = c->first_step;
    return CLINK_OK;
}

static void adams_destroy(integ *in)
{
    adams_integ *a = adams_of(in);
    if (!a)
        return;
    adams_core_free(&a->core);
    cvode_events_destroy(&a->ev);
    free(a->w.y);
    free(a->base.y);
    free(a);
}

/* the arrays of the state, the core, the watch and the event search */
static clink_status adams_setup(adams_integ *a, double t0, const double *y0, char *msg, size_t n)
{
    int N = a->p.n;
    int qmax = a->p.nevents > 0 && a->p.rough_events ? ADAMS_EVENT_ORDER : ADAMS_QMAX;
    a->base.y = malloc((size_t) (N > 0 ? N : 1) * sizeof(double));
    if (!a->base.y || adams_core_alloc(&a->core, N, qmax) != 0)
        return CLINK_ERR_NOMEM;
    memcpy(a->base.y, y0, (size_t) N * sizeof(double));
    a->core.rhs = adams_rhs;
    a->core.weights = adams_weights;
    a->core.data = a;
    adams_core_reinit(&a->core, t0, y0);
    if (a->c.watch && !(a->w.y = malloc(2 * (size_t) (N > 0 ? N : 1) * sizeof(double))))
        return CLINK_ERR_NOMEM;
    a->w.f = a->w.y ? a->w.y + N : NULL;
    clink_status st = adams_set_limits(&a->base, &a->c, msg, n);
    events_host host = {
        .data = a,
        .now = adams_host_now,
        .init_step = adams_host_init_step,
        .dense = adams_host_dense,
        .dense_some = adams_host_dense_some,
        .one_step = adams_host_one_step,
    };
    cvode_events_init(&a->ev, &a->p, a->base.y, &host, &a->t_stop, a->core.msg, sizeof a->core.msg);
    if (st != CLINK_OK || !a->p.nevents)
        return st;
    if (cvode_events_create(&a->ev) != CLINK_OK)
        return CLINK_ERR_NOMEM;
    cvode_events_restart(&a->ev, a->base.y);
    return CLINK_OK;
}

static integ *adams_create(const integ_problem *p, const integ_config *c, double t0,
                           const double *y0, clink_status *st, char *msg, size_t n)
{
    adams_integ *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(msg, n, "clink_sim_create: out of memory");
        *st = CLINK_ERR_NOMEM;
        return NULL;
    }
    a->base.ops = &integrator_adams_ops;
    a->p = *p;
    a->c = *c;
    *st = adams_setup(a, t0, y0, msg, n);
    if (*st != CLINK_OK) {
        if (*st == CLINK_ERR_NOMEM)
            snprintf(msg, n, "clink_sim_create: out of memory");
        adams_destroy(&a->base);
        return NULL;
    }
    return &a->base;
}

static int adams_set_stop_time(integ *in, double t_stop)
{
    adams_integ *a = adams_of(in);
    int rc = adams_core_set_stop_time(&a->core, t_stop);
    if (rc == CV_SUCCESS) {
        a->tstop_set = 1;
        a->t_stop = t_stop;
    }
    return rc;
}

static int adams_step(integ *in, double tout, double *tret)
{
    return cvode_events_step(&adams_of(in)->ev, tout, tret);
}

static const int *adams_events_found(const integ *in)
{
    return adams_of_const(in)->ev.iroots;
}

static void adams_events_changed(integ *in)
{
    cvode_events_directions(&adams_of(in)->ev);
}

/* 1 when the dense output at t is the state at the step's end, bit for bit (as
   cvode_step.c's cvode_dense_at_end: no -0 in it) */
static int adams_dense_at_end(const adams_integ *a, double t)
{
    if (!a->ev.yend || t != a->ev.yend_t)
        return 0;
    for (int i = 0; i < a->p.n; i++)
        if (a->ev.ystep[i] == 0.0 && signbit(a->ev.ystep[i]))
            return 0;
    return 1;
}

/* the dense output at t into base.y: at the step's end its state, a second call at the same
   t the sum kept (cvode_step.c's cvode_dense) */
static int adams_dense(integ *in, double t, int k)
{
    adams_integ *a = adams_of(in);
    size_t bytes = (size_t) a->p.n * sizeof(double);
    if (k == 0 && adams_dense_at_end(a, t)) {
        memcpy(a->base.y, a->ev.ystep, bytes);
        return CV_SUCCESS;
    }
    if (k == 0 && a->ev.dense && t == a->ev.tdense) {
        memcpy(a->base.y, a->ev.ydense, bytes);
        return CV_SUCCESS;
    }
    int rc = adams_core_dky(&a->core, t, k, a->base.y);
    if (rc == CV_SUCCESS && k == 0 && a->ev.ydense) {
        memcpy(a->ev.ydense, a->base.y, bytes);
        a->ev.tdense = t;
        a->ev.dense = 1;
    }
    return rc;
}

/* the core's counters since its last start */
static void adams_counters(const adams_integ *a, ode_counters *c)
{
    memset(c, 0, sizeof *c);
    c->steps = a->core.nst;
    c->rhs_evals = a->core.nfe;
    c->error_test_fails = a->core.netf;
    c->nonlin_iters = a->core.nni;
    c->nonlin_fails = a->core.nnf;
    c->last_step = a->core.hu;
    c->last_order = a->core.qu;
}

static int adams_reinit(integ *in, double t, const double *y)
{
    adams_integ *a = adams_of(in);
    ode_counters c;
    adams_counters(a, &c);
    ode_counters_add(&a->banked, &c, 0);
    a->ev.yend = a->ev.dense = 0;
    if (y != a->base.y)
        memcpy(a->base.y, y, (size_t) a->p.n * sizeof(double));
    adams_core_reinit(&a->core, t, a->base.y);
    if (a->tstop_set) {
        int rc = adams_core_set_stop_time(&a->core, a->t_stop);
        if (rc != CV_SUCCESS)
            return rc;
    }
    if (a->p.nevents)
        cvode_events_restart(&a->ev, a->base.y);
    return CV_SUCCESS;
}

static void adams_set_counters(integ *in, const integ_stats *st)
{
    adams_integ *a = adams_of(in);
    ode_counters c;
    adams_counters(a, &c);
    ode_counters_bank(&a->banked, &c, st, 0); /* no linear solver, no projection: zeros */
}

static int adams_now(const integ *in, double *tn, double *h)
{
    const adams_integ *a = adams_of_const(in);
    *tn = a->core.tn;
    if (h)
        *h = a->core.hu;
    return 0;
}

static long adams_steps(const integ *in)
{
    const adams_integ *a = adams_of_const(in);
    return a->banked.steps + a->core.nst;
}

static void adams_stats(const integ *in, integ_stats *st)
{
    const adams_integ *a = adams_of_const(in);
    ode_counters c; /* the core keeps no solver counters: those of c are zero */
    adams_counters(a, &c);
    ode_counters_stats(&a->banked, &c, st);
}

static integ_failure adams_failure(integ *in, int rc, double *h, char *flag, size_t n,
                                   const char **cause)
{
    adams_integ *a = adams_of(in);
    *h = a->core.next_h; /* CVodeGetCurrentStep */
    ode_flag_name(rc, flag, n);
    *cause = a->core.msg;
    return ode_failure_kind(rc);
}

/* cvode_watch_stiffness for Adams: the last step, its order, the error test's ratio of its
   local error estimate and the iterates' Lipschitz estimate */
static int adams_stiffness(integ *in, integ_stiffness *st)
{
    adams_integ *a = adams_of(in);
    const adams_core *c = &a->core;
    memset(st, 0, sizeof *st);
    if (!a->w.y || !c->ewt_last || !(c->hu > 0.0) || c->qu < 1)
        return -1;
    st->h = c->hu;
    st->order = c->qu;
    /* a component with no error adds +0 to the sum: the same bits as skipping it */
    st->err = integ_wrms_moving(c->acor, c->ewt_last, a->p.n);
    st->lip = integ_lip_take(&a->w);
    return 0;
}

adams_core *adams_integ_core(integ *in)
{
    return &adams_of(in)->core;
}

const cvode_events *adams_integ_events(const integ *in)
{
    return &adams_of_const(in)->ev;
}

const integ_ops integrator_adams_ops = {
    .name = "CVODE-Adams",
    .create = adams_create,
    .set_limits = adams_set_limits,
    .set_stop_time = adams_set_stop_time,
    .step = adams_step,
    .events_found = adams_events_found,
    .events_changed = adams_events_changed,
    .dense = adams_dense,
    .reinit = adams_reinit,
    .set_counters = adams_set_counters,
    .now = adams_now,
    .steps = adams_steps,
    .stats = adams_stats,
    .failure = adams_failure,
    .stiffness = adams_stiffness,
    .code_name = ode_flag_name,
    .destroy = adams_destroy,
};
