/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rk8_integ.c: method="rk8", the Dormand-Prince pair of order 8 (rk8.c; Hairer,
 * Norsett and Wanner 1993, Sect. II.10) behind the ops table of integrator.h, with
 * its own step control: a step is accepted when the RMS over the components of
 * e_i / sc_i is at most 1, e the pair's error estimate (orders 5 and 3 combined) and
 * sc_i = max(1 / w_i(y0), 1 / w_i(y1)) from the problem's error weights w (rtol
 * |y| + atol for a mechanism), or atol + rtol max(|y0|, |y1|) without them; the
 * settings' max_step bounds the steps. The first step is Hairer's estimate (the
 * same book, Sect. II.4: from |y0|, |f(y0)| and a difference quotient of f), unless
 * the configuration gives one.
 *
 * The dense output is the pair's own of order 7 (three more evaluations of f in a
 * step that is asked for one); its derivative is the interpolant's.
 *
 * What it cannot do is in its capabilities (CLINK_METHOD_TABLE: none): no event
 * location (a model with contacts is refused before creation, src/sim/sim.c, and
 * here as well), no projection (drift="projection" is refused; Baumgarte or none
 * instead), no Jacobian (an explicit method: stiff problems take tiny steps), no
 * resizable state.
 */
#include "integrators/integrator.h"
#include "integrators/rk8/rk8.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* return codes of step, dense, reinit (besides integrator.h's) */
enum { RK8_RHS_FAIL = -1, RK8_NOT_IN_STEP = -2, RK8_BAD_STOP = -3, RK8_TOO_SMALL = -4 };

typedef struct rk8_integ {
    integ base; /* base.y: the state at tn (or a dense output) */
    integ_problem p;
    rk8 rk;
    double rtol, atol, max_step, min_step;
    double t_stop;
    int tstop_set;
    double *w0, *w1;           /* n: weights at a step's two ends */
    double h_next;             /* the step to try after a (re)start (0: estimate) */
    long steps_base, rhs_base; /* counters set by set_counters, minus rk's then */
    char why[128];             /* the right-hand side's last failure */
    char msg[256];
} rk8_integ;

static rk8_integ *rk8_of(integ *in)
{
    return (rk8_integ *) in;
}

static const rk8_integ *rk8_of_const(const integ *in)
{
    return (const rk8_integ *) in;
}

static int rk8_rhs(void *ctx, double x, const double *y, double *f)
{
    rk8_integ *r = ctx;
    int rc = r->p.rhs(r->p.data, x, y, f);
    if (rc != 0)
        snprintf(r->why, sizeof r->why, "the right-hand side failed at t = %.9g s (%d)", x, rc);
    return rc;
}

/* the error scale from the problem's weights at the step's two ends */
static void rk8_scale(void *ctx, const double *y0, const double *y1, double *sc)
{
    rk8_integ *r = ctx;
    r->p.weights(r->p.data, y0, r->w0);
    r->p.weights(r->p.data, y1, r->w1);
    for (int i = 0; i < r->p.n; i++)
        sc[i] = fmax(1.0 / r->w0[i], 1.0 / r->w1[i]);
}

/* RMS of v / sc at y (the scale of y alone) */
static double rk8_rms(rk8_integ *r, const double *y, const double *v)
{
    double sum = 0.0;
    int n = r->p.n;
    if (r->p.weights)
        r->p.weights(r->p.data, y, r->w0);
    for (int i = 0; i < n; i++) {
        double sc = r->p.weights ? 1.0 / r->w0[i] : r->atol + r->rtol * fabs(y[i]);
        sum += (v[i] / sc) * (v[i] / sc);
    }
    return n ? sqrt(sum / n) : 0.0;
}

/* Hairer's first step from (t, y) with f = f(t, y) in rk.f; towards tout */
static double rk8_first_step(rk8_integ *r, double t, double tout)
{
    rk8 *rk = &r->rk;
    int n = r->p.n;
    double d0 = rk8_rms(r, rk->y, rk->y), d1 = rk8_rms(r, rk->y, rk->f);
    double h = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
    double span = fabs(tout - t) > 0.0 ? fabs(tout - t) : INFINITY;
    if (r->max_step > 0.0)
        span = fmin(span, r->max_step);
    h = fmin(h, span);
    /* an explicit Euler step and the change of f over it */
    double *y1 = rk->yt, *f1 = rk->sc;
    for (int i = 0; i < n; i++)
        y1[i] = rk->y[i] + h * rk->f[i];
    rk->n_rhs++;
    if (rk8_rhs(r, t + h, y1, f1) != 0)
        return h * 1e-3;
    for (int i = 0; i < n; i++)
        f1[i] = (f1[i] - rk->f[i]) / h;
    double d2 = rk8_rms(r, rk->y, f1), dm = fmax(d1, d2);
    double h1 = dm <= 1e-15 ? fmax(1e-6, h * 1e-3) : pow(0.01 / dm, 1.0 / 8.0);
    return fmin(fmin(100.0 * h, h1), span);
}

static int rk8_step_op(integ *in, double tout, double *tret)
{
    rk8_integ *r = rk8_of(in);
    rk8 *rk = &r->rk;
    if (!(rk->h > 0.0))
        rk->h = rk8_first_step(r, rk->x, tout);
    /* the horizon: the stop time, or a few steps ahead (the control never meets it) */
    double x_end = r->tstop_set ? r->t_stop : rk->x + 4.0 * rk->h;
    if (r->tstop_set && !(x_end > rk->x))
        return RK8_BAD_STOP;
    r->why[0] = '\0';
    if (rk8_advance(rk, x_end) != 0) {
        snprintf(r->msg, sizeof r->msg, "the step fell below the resolution of t = %.9g s%s%s",
                 rk->x, r->why[0] ? ": " : "", r->why);
        return RK8_TOO_SMALL;
    }
    if (r->min_step > 0.0 && rk8_last(rk, 0)->h < r->min_step && rk->x != x_end) {
        snprintf(r->msg, sizeof r->msg, "the step %.3g s fell below min_step %.3g s",
                 rk8_last(rk, 0)->h, r->min_step);
        return RK8_TOO_SMALL;
    }
    memcpy(r->base.y, rk->y, (size_t) r->p.n * sizeof(double));
    *tret = rk->x;
    return r->tstop_set && rk->x == r->t_stop ? INTEG_TSTOP : INTEG_SUCCESS;
}

/* the pair's dense output on the last step (k = 0) or its derivative (k = 1) */
static int rk8_dense_op(integ *in, double t, int k)
{
    rk8_integ *r = rk8_of(in);
    rk8 *rk = &r->rk;
    rk8_step *s = rk8_last(rk, 0);
    if (t == rk->x && k == 0) {
        memcpy(r->base.y, rk->y, (size_t) r->p.n * sizeof(double));
        return 0;
    }
    if (!s || t < s->x0 - 1e-12 * fabs(s->x0) || t > rk->x || k < 0 || k > 1)
        return RK8_NOT_IN_STEP;
    if (rk8_dense(rk, s) != 0)
        return RK8_RHS_FAIL;
    if (k == 0) {
        rk8_eval(rk, s, t, r->base.y);
        return 0;
    }
    for (int i = 0; i < r->p.n; i++) {
        double d2;
        rk8_eval_derivs(rk, s, t, i, &r->base.y[i], &d2);
    }
    return 0;
}

static int rk8_reinit_op(integ *in, double t, const double *y)
{
    rk8_integ *r = rk8_of(in);
    memcpy(r->base.y, y, (size_t) r->p.n * sizeof(double));
    if (r->rk.h > 0.0)
        r->h_next = r->rk.h; /* the step the control proposed last */
    /* h 0 at a first start without first_step: estimated at the first step */
    int rc = rk8_start(&r->rk, t, y, r->h_next);
    return rc != 0 ? RK8_RHS_FAIL : 0;
}

static void rk8_set_counters(integ *in, const integ_stats *st)
{
    rk8_integ *r = rk8_of(in);
    r->steps_base = st->steps - r->rk.n_steps;
    r->rhs_base = st->rhs_evals - r->rk.n_rhs;
}

static clink_status rk8_set_limits(integ *in, const integ_config *c, char *msg, size_t n)
{
    rk8_integ *r = rk8_of(in);
    if (!(c->max_step >= 0.0) || !(c->min_step >= 0.0) ||
        (!r->p.weights && (!(c->rtol > 0.0) || !(c->atol > 0.0)))) {
        snprintf(msg, n, "settings: method rk8 needs rtol, atol > 0 and max_step, min_step >= 0");
        return CLINK_ERR_RANGE;
    }
    r->rtol = c->rtol;
    r->atol = c->atol;
    r->max_step = c->max_step;
    r->min_step = c->min_step;
    r->rk.h_max = c->max_step;
    r->rk.rtol = c->rtol;
    for (int i = 0; i < r->p.n; i++)
        r->rk.atol[i] = c->atol;
    if (c->first_step > 0.0)
        r->h_next = c->first_step;
    return CLINK_OK;
}

static int rk8_set_stop_time(integ *in, double t_stop)
{
    rk8_integ *r = rk8_of(in);
    r->t_stop = t_stop;
    r->tstop_set = 1;
    return 0;
}

static const int *rk8_events_found(const integ *in)
{
    (void) in;
    return NULL; /* no events (CLINK_CAP_EVENTS: refused at creation) */
}

static void rk8_events_changed(integ *in)
{
    (void) in;
}

static int rk8_now(const integ *in, double *tn, double *h)
{
    const rk8_integ *r = rk8_of_const(in);
    const rk8_step *s = r->rk.n_valid > 0 ? &r->rk.buf[r->rk.cur] : NULL;
    *tn = r->rk.x;
    if (h)
        *h = s ? s->h : 0.0;
    return 0;
}

static long rk8_steps(const integ *in)
{
    const rk8_integ *r = rk8_of_const(in);
    return r->steps_base + r->rk.n_steps;
}

static void rk8_stats(const integ *in, integ_stats *st)
{
    const rk8_integ *r = rk8_of_const(in);
    memset(st, 0, sizeof *st);
    st->steps = r->steps_base + r->rk.n_steps;
    st->rhs_evals = r->rhs_base + r->rk.n_rhs;
    st->error_test_fails = r->rk.n_rejects;
    st->last_step = r->rk.n_valid > 0 ? r->rk.buf[r->rk.cur].h : 0.0;
    st->last_order = 8;
}

static const char *rk8_code_name(int rc, char *buf, size_t n)
{
    const char *name = rc == RK8_RHS_FAIL      ? "RK8_RHS_FAIL"
                       : rc == RK8_NOT_IN_STEP ? "RK8_NOT_IN_STEP"
                       : rc == RK8_BAD_STOP    ? "RK8_BAD_STOP"
                       : rc == RK8_TOO_SMALL   ? "RK8_TOO_SMALL"
                       : rc == INTEG_SUCCESS   ? "RK8_SUCCESS"
                       : rc == INTEG_TSTOP     ? "RK8_TSTOP_RETURN"
                                               : "unknown code";
    snprintf(buf, n, "%s", name);
    return buf;
}

static integ_failure rk8_failure(integ *in, int rc, double *h, char *flag, size_t n,
                                 const char **cause)
{
    const rk8_integ *r = rk8_of_const(in);
    *h = r->rk.h;
    rk8_code_name(rc, flag, n);
    *cause = r->msg;
    return rc == RK8_TOO_SMALL ? INTEG_FAIL_STEP : INTEG_FAIL_OTHER;
}

static void rk8_destroy(integ *in)
{
    rk8_integ *r = rk8_of(in);
    if (!r)
        return;
    rk8_free(&r->rk);
    free(r->base.y);
    free(r->w0);
    free(r->w1);
    free(r);
}

static integ *rk8_create(const integ_problem *p, const integ_config *c, double t0, const double *y0,
                         clink_status *st, char *msg, size_t n)
{
    if (p->nevents > 0 || p->project) {
        snprintf(msg, n, "settings: method rk8 has no %s: use method bdf%s",
                 p->nevents > 0 ? "event location (a model with contacts)" : "projection",
                 p->nevents > 0 ? " or adams" : ", or drift baumgarte");
        *st = CLINK_ERR_ARG;
        return NULL;
    }
    rk8_integ *r = calloc(1, sizeof *r);
    size_t nn = (size_t) (p->n > 0 ? p->n : 1);
    if (r) {
        r->base.ops = &integrator_rk8_ops;
        r->p = *p;
        r->base.y = calloc(nn, sizeof(double));
        r->w0 = calloc(nn, sizeof(double));
        r->w1 = calloc(nn, sizeof(double));
    }
    if (!r || !r->base.y || !r->w0 || !r->w1 || rk8_init(&r->rk, p->n) != 0) {
        rk8_destroy(r ? &r->base : NULL);
        snprintf(msg, n, "clink_sim_create: out of memory");
        *st = CLINK_ERR_NOMEM;
        return NULL;
    }
    r->rk.rhs = rk8_rhs;
    r->rk.scale = p->weights ? rk8_scale : NULL;
    r->rk.ctx = r;
    *st = rk8_set_limits(&r->base, c, msg, n);
    if (*st == CLINK_OK && rk8_reinit_op(&r->base, t0, y0) != 0) {
        snprintf(msg, n, "rk8: %s", r->why);
        *st = CLINK_ERR_SOLVER;
    }
    if (*st != CLINK_OK) {
        rk8_destroy(&r->base);
        return NULL;
    }
    return &r->base;
}

const integ_ops integrator_rk8_ops = {
    .name = "RK8",
    .create = rk8_create,
    .set_limits = rk8_set_limits,
    .set_stop_time = rk8_set_stop_time,
    .step = rk8_step_op,
    .events_found = rk8_events_found,
    .events_changed = rk8_events_changed,
    .dense = rk8_dense_op,
    .reinit = rk8_reinit_op,
    .set_counters = rk8_set_counters,
    .now = rk8_now,
    .steps = rk8_steps,
    .stats = rk8_stats,
    .failure = rk8_failure,
    .code_name = rk8_code_name,
    .destroy = rk8_destroy,
};
