/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rk4.c: the classical Runge-Kutta method of order 4 at a fixed step h (Kutta
 * 1901), behind the ops table of integrator.h:
 *
 *   k1 = f(t, y),  k2 = f(t + h/2, y + h/2 k1),  k3 = f(t + h/2, y + h/2 k2),
 *   k4 = f(t + h, y + h k3),  y+ = y + h/6 (k1 + 2 k2 + 2 k3 + k4),
 *
 * the global error O(h^4) for a smooth right-hand side. With a projection (the
 * drift control `projection`) each step's end is moved onto the constraints by the
 * problem's correction. f at the step's end is evaluated once and serves as the
 * next step's k1 (four evaluations per step), and with the two ends' states and
 * rates as the dense output: the cubic Hermite interpolant on the last step
 * (error O(h^4) as well). The last step is shortened to land on a stop time.
 *
 * For non-stiff mechanisms without contacts: a fixed step cannot follow the
 * time scale of a contact law, so a problem with events is refused (use BDF or
 * Adams). There is no error control: the settings' rtol and atol are not used,
 * the step is the settings' max_step.
 */
#include "integrators/integrator.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* return codes of step, dense, reinit (besides integrator.h's) */
enum { RK4_RHS_FAIL = -1, RK4_NOT_IN_STEP = -2, RK4_BAD_STOP = -3 };

typedef struct rk4_integ {
    integ base;      /* base.y: the state at tn (or a dense output) */
    integ_problem p; /* the problem */
    double h;        /* s: the step */
    double tn, hl;   /* the time reached and the last step (0: none since a start) */
    double t_stop;   /* s */
    int tstop_set;
    double *yn, *fn;  /* n: the state at tn and its rate */
    double *y0, *f0;  /* n: the same at the last step's start */
    double *k, *ytmp; /* 3 n: k2, k3, k4; n: a stage's state */
    double *corr;     /* n: a projection's correction */
    long steps, rhs_evals, proj_evals;
    char msg[256];
} rk4_integ;

static rk4_integ *rk4_of(integ *in)
{
    return (rk4_integ *) in;
}

static const rk4_integ *rk4_of_const(const integ *in)
{
    return (const rk4_integ *) in;
}

static int rk4_f(rk4_integ *r, double t, const double *y, double *yd)
{
    r->rhs_evals++;
    int rc = r->p.rhs(r->p.data, t, y, yd);
    if (rc != 0)
        snprintf(r->msg, sizeof r->msg, "the right-hand side failed at t = %.9g s", t);
    return rc;
}

/* y + c k into ytmp */
static void rk4_stage(const rk4_integ *r, const double *y, double c, const double *k)
{
    for (int i = 0; i < r->p.n; i++)
        r->ytmp[i] = y[i] + c * k[i];
}

/* the new state onto the constraints (when the problem projects) and its rate */
static int rk4_finish(rk4_integ *r, double t)
{
    int n = r->p.n;
    if (r->p.project) {
        r->proj_evals++;
        if (r->p.project(r->p.data, t, r->yn, r->corr, NULL) != 0) {
            snprintf(r->msg, sizeof r->msg, "the projection failed at t = %.9g s", t);
            return RK4_RHS_FAIL;
        }
        for (int i = 0; i < n; i++)
            r->yn[i] += r->corr[i];
    }
    return rk4_f(r, t, r->yn, r->fn) != 0 ? RK4_RHS_FAIL : 0;
}

static int rk4_step(integ *in, double tout, double *tret)
{
    (void) tout; /* a fixed step: the horizon does not size it */
    rk4_integ *r = rk4_of(in);
    int n = r->p.n, stop = 0;
    double h = r->h;
    if (r->tstop_set && r->tn + h >= r->t_stop) {
        h = r->t_stop - r->tn;
        stop = 1;
        if (!(h > 0.0))
            return RK4_BAD_STOP;
    }
    double *k2 = r->k, *k3 = r->k + n, *k4 = r->k + 2 * n;
    memcpy(r->y0, r->yn, (size_t) n * sizeof(double));
    memcpy(r->f0, r->fn, (size_t) n * sizeof(double));
    double t = r->tn;
    rk4_stage(r, r->y0, 0.5 * h, r->f0);
    if (rk4_f(r, t + 0.5 * h, r->ytmp, k2) != 0)
        return RK4_RHS_FAIL;
    rk4_stage(r, r->y0, 0.5 * h, k2);
    if (rk4_f(r, t + 0.5 * h, r->ytmp, k3) != 0)
        return RK4_RHS_FAIL;
    rk4_stage(r, r->y0, h, k3);
    if (rk4_f(r, t + h, r->ytmp, k4) != 0)
        return RK4_RHS_FAIL;
    for (int i = 0; i < n; i++)
        r->yn[i] = r->y0[i] + h / 6.0 * (r->f0[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    double t1 = stop ? r->t_stop : t + h;
    int rc = rk4_finish(r, t1);
    if (rc != 0)
        return rc;
    r->tn = t1;
    r->hl = h;
    r->steps++;
    memcpy(r->base.y, r->yn, (size_t) n * sizeof(double));
    *tret = t1;
    return stop ? INTEG_TSTOP : INTEG_SUCCESS;
}

/* the cubic Hermite interpolant of the last step (k = 0) or its derivative (k = 1) */
static int rk4_dense(integ *in, double t, int k)
{
    rk4_integ *r = rk4_of(in);
    double h = r->hl, t0 = r->tn - h;
    if (t == r->tn && k == 0) {
        memcpy(r->base.y, r->yn, (size_t) r->p.n * sizeof(double));
        return 0;
    }
    if (!(h > 0.0) || t < t0 - 1e-12 * fabs(t0) || t > r->tn || k < 0 || k > 1)
        return RK4_NOT_IN_STEP;
    double s = (t - t0) / h, s2 = s * s, s3 = s2 * s;
    double a0, b0, a1, b1; /* weights of y0, h f0, y1, h f1 */
    if (k == 0) {
        a0 = 2.0 * s3 - 3.0 * s2 + 1.0;
        b0 = s3 - 2.0 * s2 + s;
        a1 = -2.0 * s3 + 3.0 * s2;
        b1 = s3 - s2;
    } else {
        a0 = (6.0 * s2 - 6.0 * s) / h;
        b0 = (3.0 * s2 - 4.0 * s + 1.0) / h;
        a1 = (-6.0 * s2 + 6.0 * s) / h;
        b1 = (3.0 * s2 - 2.0 * s) / h;
    }
    for (int i = 0; i < r->p.n; i++)
        r->base.y[i] = a0 * r->y0[i] + b0 * h * r->f0[i] + a1 * r->yn[i] + b1 * h * r->fn[i];
    return 0;
}

static int rk4_reinit(integ *in, double t, const double *y)
{
    rk4_integ *r = rk4_of(in);
    memcpy(r->yn, y, (size_t) r->p.n * sizeof(double));
    memcpy(r->base.y, y, (size_t) r->p.n * sizeof(double));
    r->tn = t;
    r->hl = 0.0;
    return rk4_f(r, t, r->yn, r->fn) != 0 ? RK4_RHS_FAIL : 0;
}

static void rk4_set_counters(integ *in, const integ_stats *st)
{
    rk4_integ *r = rk4_of(in);
    r->steps = st->steps;
    r->rhs_evals = st->rhs_evals;
    r->proj_evals = st->proj_evals;
}

static clink_status rk4_set_limits(integ *in, const integ_config *c, char *msg, size_t n)
{
    rk4_integ *r = rk4_of(in);
    if (!(c->step > 0.0) || !isfinite(c->step)) {
        snprintf(msg, n, "settings: method rk4 needs its fixed step as max_step > 0 (got %g s)",
                 c->step);
        return CLINK_ERR_RANGE;
    }
    r->h = c->step;
    return CLINK_OK;
}

static int rk4_set_stop_time(integ *in, double t_stop)
{
    rk4_integ *r = rk4_of(in);
    r->t_stop = t_stop;
    r->tstop_set = 1;
    return 0;
}

static const int *rk4_events_found(const integ *in)
{
    (void) in;
    return NULL; /* no events (refused at creation) */
}

static void rk4_events_changed(integ *in)
{
    (void) in;
}

static int rk4_now(const integ *in, double *tn, double *h)
{
    const rk4_integ *r = rk4_of_const(in);
    *tn = r->tn;
    if (h)
        *h = r->hl;
    return 0;
}

static long rk4_steps(const integ *in)
{
    return rk4_of_const(in)->steps;
}

static void rk4_stats(const integ *in, integ_stats *st)
{
    const rk4_integ *r = rk4_of_const(in);
    memset(st, 0, sizeof *st);
    st->steps = r->steps;
    st->rhs_evals = r->rhs_evals;
    st->proj_evals = r->proj_evals;
    st->last_step = r->hl;
    st->last_order = 4;
}

static const char *rk4_code_name(int rc, char *buf, size_t n)
{
    const char *name = rc == RK4_RHS_FAIL      ? "RK4_RHS_FAIL"
                       : rc == RK4_NOT_IN_STEP ? "RK4_NOT_IN_STEP"
                       : rc == RK4_BAD_STOP    ? "RK4_BAD_STOP"
                       : rc == INTEG_SUCCESS   ? "RK4_SUCCESS"
                       : rc == INTEG_TSTOP     ? "RK4_TSTOP_RETURN"
                                               : "unknown code";
    snprintf(buf, n, "%s", name);
    return buf;
}

static integ_failure rk4_failure(integ *in, int rc, double *h, char *flag, size_t n,
                                 const char **cause)
{
    const rk4_integ *r = rk4_of_const(in);
    *h = r->h;
    rk4_code_name(rc, flag, n);
    *cause = r->msg;
    return INTEG_FAIL_OTHER;
}

static void rk4_destroy(integ *in)
{
    rk4_integ *r = rk4_of(in);
    if (!r)
        return;
    free(r->base.y);
    free(r->yn);
    free(r->fn);
    free(r->y0);
    free(r->f0);
    free(r->k);
    free(r->ytmp);
    free(r->corr);
    free(r);
}

static integ *rk4_create(const integ_problem *p, const integ_config *c, double t0, const double *y0,
                         clink_status *st, char *msg, size_t n)
{
    if (p->nevents > 0) {
        snprintf(msg, n,
                 "settings: method rk4 has no event location: a model with contacts "
                 "needs method bdf or adams");
        *st = CLINK_ERR_ARG;
        return NULL;
    }
    rk4_integ *r = calloc(1, sizeof *r);
    size_t nn = (size_t) (p->n > 0 ? p->n : 1);
    if (r) {
        r->base.ops = &integrator_rk4_ops;
        r->p = *p;
        r->base.y = calloc(nn, sizeof(double));
        r->yn = calloc(nn, sizeof(double));
        r->fn = calloc(nn, sizeof(double));
        r->y0 = calloc(nn, sizeof(double));
        r->f0 = calloc(nn, sizeof(double));
        r->k = calloc(3 * nn, sizeof(double));
        r->ytmp = calloc(nn, sizeof(double));
        r->corr = calloc(nn, sizeof(double));
    }
    if (!r || !r->base.y || !r->yn || !r->fn || !r->y0 || !r->f0 || !r->k || !r->ytmp || !r->corr) {
        rk4_destroy(r ? &r->base : NULL);
        snprintf(msg, n, "clink_sim_create: out of memory");
        *st = CLINK_ERR_NOMEM;
        return NULL;
    }
    *st = rk4_set_limits(&r->base, c, msg, n);
    if (*st == CLINK_OK && rk4_reinit(&r->base, t0, y0) != 0) {
        snprintf(msg, n, "rk4: %s", r->msg);
        *st = CLINK_ERR_SOLVER;
    }
    if (*st != CLINK_OK) {
        rk4_destroy(&r->base);
        return NULL;
    }
    return &r->base;
}

const integ_ops integrator_rk4_ops = {
    .name = "RK4",
    .create = rk4_create,
    .set_limits = rk4_set_limits,
    .set_stop_time = rk4_set_stop_time,
    .step = rk4_step,
    .events_found = rk4_events_found,
    .events_changed = rk4_events_changed,
    .dense = rk4_dense,
    .reinit = rk4_reinit,
    .set_counters = rk4_set_counters,
    .now = rk4_now,
    .steps = rk4_steps,
    .stats = rk4_stats,
    .failure = rk4_failure,
    .code_name = rk4_code_name,
    .destroy = rk4_destroy,
};
