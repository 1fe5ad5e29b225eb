/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_window.c: the window of the state from the simulation's side (settings window="on";
 * docs/kernel.md, "Work in proportion to what moves"): which bodies the integrator carries.
 *
 * A body moves when one of its integrated rates exceeds v_sleep = max(SIM_WINDOW_SPEED,
 * SIM_WINDOW_RTOL rtol) v_ref (v_ref the largest initial speed of a body, or the settle speed
 * if none moves at t = 0; the error control does not resolve speeds below about rtol v_ref)
 * or its acceleration exceeds a_sleep = v_sleep / (SIM_WINDOW_EVERY h), h the last step (it
 * would reach v_sleep before the next look; at t = 0, v_sleep / t_end). The beads in the
 * slow disturbance behind the chain's wave oscillate with amplitudes of about 1e-12 m:
 * v_sleep / t_end kept them awake by their accelerations (227 of 7001 beads awake on
 * average against 75). The window asked for is every body within
 * SIM_WINDOW_HOPS hops of the contact graph from a moving body (a breadth-first search
 * over the contacts from the moving bodies, so its cost follows the window, not the
 * model). Every SIM_WINDOW_EVERY steps the window is looked at (the state and the
 * accelerations at tn from the integrator's dense output), and it changes when
 *   - a sleeping body is within SIM_WINDOW_NEAR hops of a moving one: the window grows by
 *     at least SIM_WINDOW_HOPS - SIM_WINDOW_NEAR hops at once (in chunks, so that restarts
 *     are amortised), or
 *   - at least max(SIM_WINDOW_HOPS, half the awake) bodies are awake outside it: they fall
 *     asleep, their positions held and their rates (below v_sleep) set to 0.
 * A body that wakes starts at rest at its held position. The window's damped contacts'
 * dissipation integrals ride in the state, the others are held (system_window.c); every one
 * is carried over at a change. The integrator cannot change its vector length: it is
 * re-created at tn with the new state (Adams restarts at order 1, its first step the last
 * one before), its counters carried on. A change happens only before a
 * step from tn towards a target after tn, so that no output between the previous step and
 * tn is lost. Roots and outputs are handled over the window's contacts only
 * (sim_window_handle_root, sim_window_output, sim_window_info_contacts).
 */
#include "sim/sim_window.h"

#include "sim/sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sim_window_moving(clink_sim *s, const double *yr, const double *acc);
static int sim_window_reach(clink_sim *s, int n);

/* ---- the integrator's events: the window's contacts (system_window.c) ---- */

static void sim_w_directions(void *data, int *dirs)
{
    system_window_directions(data, dirs);
}

static int sim_w_events(void *data, double t, const double *y, double *g)
{
    return system_window_events(data, t, y, g);
}

static int sim_w_event_inputs(void *data, const int *groups, int n, int *pairs)
{
    return system_window_event_inputs(data, groups, n, pairs);
}

static int sim_w_events_some(void *data, double t, const int *groups, int n, double *g)
{
    return system_window_events_some(data, t, groups, n, g);
}

void sim_window_problem(clink_sim *s, integ_problem *p)
{
    if (!s->sys->win || !s->sys->ncon)
        return;
    p->nevents = 2 * s->sys->win->ncw;
    p->event_directions = sim_w_directions;
    p->events = sim_w_events;
    p->event_inputs = sim_w_event_inputs;
    p->events_some = sim_w_events_some;
}

/* ---- the window ---- */

static clink_status sim_window_alloc(clink_sim *s)
{
    sim_window *w = &s->win;
    int nb = s->sys->win->nb;
    size_t nq1 = (size_t) (s->sys->nq > 0 ? s->sys->nq : 1);
    w->dist = malloc((size_t) nb * sizeof(int));
    w->queue = malloc((size_t) nb * sizeof(int));
    w->next = calloc((size_t) nb, 1);
    w->acc = calloc(nq1, sizeof(double));
    if (!w->dist || !w->queue || !w->next || !w->acc) {
        sim_msg(s, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    for (int b = 0; b < nb; b++)
        w->dist[b] = -1;
    w->stale_out = w->stale_info = 1;
    return CLINK_OK;
}

/* v_sleep and a_sleep from the initial state (full) */
static void sim_window_levels(clink_sim *s, const double *y)
{
    int nq = s->sys->nq;
    double vref = 0.0;
    for (int b = 1; b < s->sys->win->nb; b++) {
        const double *v = y + nq + 3 * (b - 1);
        double sp = hypot(v[0], v[1]);
        if (sp > vref)
            vref = sp;
    }
    if (!(vref > 0.0))
        vref = s->set.settle_speed;
    s->win.v_sleep = fmax(SIM_WINDOW_SPEED, SIM_WINDOW_RTOL * s->set.rtol) * vref;
    s->win.a_sleep = s->win.v_sleep / s->set.t_end;
}

clink_status sim_window_start(clink_sim *s)
{
    mechsys *sys = s->sys;
    clink_status st = system_window_create(sys);
    if (st != CLINK_OK) {
        sim_msg(s, "clink_sim_create: out of memory");
        return st;
    }
    if (!sys->win)
        return CLINK_OK;
    if ((st = sim_window_alloc(s)) != CLINK_OK)
        return st;
    sim_window_levels(s, s->out.y);
    /* the accelerations at t = 0, every body awake; yh as scratch */
    system_reduce(sys, s->out.y, s->loop.yroot);
    if (system_window_rhs(sys, 0.0, s->loop.yroot, s->yh) != 0) {
        sim_msg(s, "initial state: %s", sys->cb_msg);
        return sys->fail != CLINK_OK ? sys->fail : CLINK_ERR_SOLVER;
    }
    memcpy(s->win.acc, s->yh + sys->nr, (size_t) sys->nr * sizeof(double));
    int n = sim_window_reach(s, sim_window_moving(s, s->loop.yroot, s->win.acc));
    if (n == 0)
        return CLINK_OK; /* nothing moves: every body stays awake */
    memset(s->win.next, 0, (size_t) sys->win->nb);
    for (int j = 0; j < n; j++) {
        s->win.next[s->win.queue[j]] = 1;
        s->win.dist[s->win.queue[j]] = -1;
    }
    return system_window_layout(sys, s->win.next, s->out.y) == 0 ? CLINK_OK : CLINK_ERR_NOMEM;
}

void sim_window_get(const clink_sim *s, clink_window_stats *st)
{
    memset(st, 0, sizeof *st);
    if (!s)
        return;
    st->bodies = s->m->d.nbodies - 1;
    snprintf(st->why_not, sizeof st->why_not, "%s", s->sys->win_why);
    const sys_window *w = s->sys->win;
    if (!w)
        return;
    st->in_use = 1;
    st->awake = w->nawake;
    st->restarts = s->win.restarts;
    long steps = s->in->ops->steps(s->in);
    double weighted = s->win.weighted + (double) (steps - s->win.steps_prev) * (double) w->nawake;
    st->mean_awake = steps > 0 ? weighted / (double) steps : (double) w->nawake;
}

clink_status sim_window_output(clink_sim *s, const double *yi)
{
    mechsys *sys = s->sys;
    for (int i = 0; i < sys->Nr; i++)
        if (!isfinite(yi[i])) {
            sim_msg(s, "non-finite state (component %d of the window) at t = %.9g s", i, s->t);
            return CLINK_ERR_NONFINITE;
        }
    if (s->win.stale_out) { /* every component, the held ones too */
        const double *yf = system_full(sys, yi, s->out.y);
        if (yf != s->out.y)
            memcpy(s->out.y, yf, (size_t) sys->N * sizeof(double));
        s->win.stale_out = 0;
        return CLINK_OK;
    }
    int nq = sys->nq, nr = sys->nr;
    for (int i = 0; i < nr; i++) {
        s->out.y[sys->red[i]] = yi[i];
        s->out.y[nq + sys->red[i]] = yi[nr + i];
    }
    system_window_tail_full(sys, yi, s->out.y); /* the held integrals stay as written */
    return CLINK_OK;
}

int sim_window_info_contacts(clink_sim *s, const int **list)
{
    if (!s->sys->win || s->win.stale_info) {
        s->win.stale_info = 0;
        s->win.info_window = 0;
        return -1;
    }
    *list = s->sys->win->con;
    s->win.info_window = 1;
    return s->sys->win->ncw;
}

clink_status sim_window_handle_root(clink_sim *s)
{
    mechsys *sys = s->sys;
    const sys_window *w = sys->win;
    int nq = sys->nq, reinit = 0;
    double *yr = s->loop.yroot;
    /* the callbacks' buffer: the held components written once per layout */
    double *y = (double *) system_full_x(sys, yr);
    contacts_after_step_some(sys->sc, w->con, w->ncw, y, y + nq);
    clink_status st = contacts_handle_roots_some(sys->sc, w->con, w->ncw, s->loop.t_root, y, y + nq,
                                                 y + 2 * nq + 2, s->loop.roots_found, &reinit);
    if (st != CLINK_OK) {
        sim_msg(s, "%s", contacts_error(sys->sc));
        return st;
    }
    system_reduce(sys, y, yr);
    s->in->ops->events_changed(s->in);
    return reinit ? sim_reinit(s, s->loop.t_root) : CLINK_OK;
}

void sim_window_free(clink_sim *s)
{
    free(s->win.dist);
    free(s->win.queue);
    free(s->win.next);
    free(s->win.acc);
}

/* the bodies the rates and accelerations say move (dist 0, queued); their count */
static int sim_window_moving(clink_sim *s, const double *yr, const double *acc)
{
    mechsys *sys = s->sys;
    sim_window *w = &s->win;
    int nr = sys->nr, n = 0;
    for (int i = 0; i < nr; i++) {
        int b = sys->red[i] / 3 + 1;
        if (w->dist[b] == 0)
            continue;
        if (fabs(yr[nr + i]) > w->v_sleep || fabs(acc[i]) > w->a_sleep) {
            w->dist[b] = 0;
            w->queue[n++] = b;
        }
    }
    return n;
}

/* the breadth-first search from the n queued bodies up to SIM_WINDOW_HOPS hops: dist set
   for every body reached; returns how many were reached (queue[0 .. count)) */
static int sim_window_reach(clink_sim *s, int n)
{
    const sys_window *sw = s->sys->win;
    sim_window *w = &s->win;
    const int *rb = s->sys->rt_body;
    int head = 0;
    while (head < n) {
        int b = w->queue[head++];
        if (w->dist[b] >= SIM_WINDOW_HOPS)
            continue;
        for (int j = sw->first[b]; j < sw->first[b + 1]; j++) {
            int k = sw->at[j], o = rb[2 * k] == b ? rb[2 * k + 1] : rb[2 * k];
            if (o > 0 && w->dist[o] < 0) {
                w->dist[o] = w->dist[b] + 1;
                w->queue[n++] = o;
            }
        }
    }
    return n;
}

/* the awake set asked for (next) from the reached bodies; 1 if the window must change */
static int sim_window_decide(clink_sim *s, int n)
{
    const sys_window *sw = s->sys->win;
    sim_window *w = &s->win;
    int grow = 0, inside = 0, awake = 0;
    for (int j = 0; j < n; j++) {
        int b = w->queue[j];
        if (!sw->awake[b] && w->dist[b] <= SIM_WINDOW_NEAR)
            grow = 1;
        inside += sw->awake[b];
    }
    awake = sw->nawake;
    int outside = awake - inside;
    int shrink = outside >= SIM_WINDOW_HOPS && 2 * outside >= awake;
    if (grow || shrink) {
        memset(w->next, 0, (size_t) sw->nb);
        for (int j = 0; j < n; j++)
            w->next[w->queue[j]] = 1;
    }
    for (int j = 0; j < n; j++)
        w->dist[w->queue[j]] = -1;
    return n > 0 && (grow || shrink);
}

/* the integrator re-created at (tn, y) for the awake set next; y full, changed in place */
static clink_status sim_window_restart(clink_sim *s, double tn, double *y)
{
    mechsys *sys = s->sys;
    if (system_window_layout(sys, s->win.next, y) != 0)
        return CLINK_ERR_NOMEM;
    system_reduce(sys, y, s->loop.yroot);
    integ_stats counts;
    const integ_ops *ops = s->in->ops;
    ops->stats(s->in, &counts);
    double tnow = tn, h = 0.0;
    if (ops->now(s->in, &tnow, &h) != 0)
        h = 0.0;
    ops->destroy(s->in);
    s->in = NULL;
    integ_problem p = sim_problem(s);
    integ_config c = sim_config(s);
    c.first_step = SIM_WINDOW_FIRST * h; /* 0 (CVODE's estimate) when unknown */
    clink_status st = CLINK_OK;
    s->in = ops->create(&p, &c, tn, s->loop.yroot, &st, s->msg, sizeof s->msg);
    if (!s->in)
        return st;
    ops->set_counters(s->in, &counts);
    if (s->loop.tstop_set && ops->set_stop_time(s->in, s->loop.t_stop) != 0) {
        sim_msg(s, "window: %s refused the stop time", ops->name);
        return CLINK_ERR_SOLVER;
    }
    s->loop.at_reinit = 1;
    s->win.restarts++;
    s->win.stale_out = s->win.stale_info = 1;
    return CLINK_OK;
}

clink_status sim_window_look(clink_sim *s, double tn)
{
    mechsys *sys = s->sys;
    sim_window *w = &s->win;
    if (!sys->win)
        return CLINK_OK;
    long steps = s->in->ops->steps(s->in);
    w->weighted += (double) (steps - w->steps_prev) * (double) sys->win->nawake;
    w->steps_prev = steps;
    if (s->loop.at_reinit || steps - w->steps_look < SIM_WINDOW_EVERY)
        return CLINK_OK;
    w->steps_look = steps;
    int nr = sys->nr;
    /* the accelerations, then the state (left in the integrator's y), at tn */
    if (s->in->ops->dense(s->in, tn, 1) != 0)
        return CLINK_OK; /* no dense output: looked at after the next step */
    memcpy(w->acc, s->in->y + nr, (size_t) nr * sizeof(double));
    if (s->in->ops->dense(s->in, tn, 0) != 0)
        return CLINK_ERR_INTERNAL;
    /* an acceleration matters when it would reach v_sleep before the next look */
    double tcur = tn, hcur = 0.0;
    if (s->in->ops->now(s->in, &tcur, &hcur) == 0 && hcur > 0.0)
        w->a_sleep = w->v_sleep / (SIM_WINDOW_EVERY * hcur);
    int n = sim_window_moving(s, s->in->y, w->acc);
    n = sim_window_reach(s, n);
    if (!sim_window_decide(s, n))
        return CLINK_OK;
    const double *yf = system_full(sys, s->in->y, s->yh);
    if (yf != s->yh)
        memcpy(s->yh, yf, (size_t) sys->N * sizeof(double));
    return sim_window_restart(s, tn, s->yh);
}
