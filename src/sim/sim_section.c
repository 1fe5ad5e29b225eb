/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_section.c: Poincare sections (clink_sim_add_section), located inside the
 * integrator's steps without steering them.
 *
 * A section is a scalar g(t, y) whose zeros are the samples:
 *   time     g = t - (start + k T), k = 0, 1, ...: the sample times are known exactly;
 *   driver   g = d (f(t) - (f(0) + d k P)), k = 1, 2, ...: f the driver's prescribed value,
 *            d = +1 or -1 its direction, P the period (2 pi for a crank's revolution);
 *   state    g = y_i - c: a body's coordinate or rate crossing the level c in the direction
 *            asked for.
 * After every call of the integrator's step (a completed step, the rest of a root's step, or
 * a root) g is evaluated at the time it returned and compared with its value at the last
 * such time (or the last restart). A sign change brackets a zero inside the integrator's
 * last step, where its dense output (CVODE: the Nordsieck interpolant, CVodeGetDky) holds;
 * the zero is found by the Illinois variant of regula falsi on the dense output, as CVODE
 * finds its own roots, until the bracket is narrower than CVODE's root tolerance
 * 100 eps (|t| + |h|), and the sample is the state at the bracket's end past the zero. A
 * driver's zero needs only f, a time section none. The state is projected onto the
 * constraints when the drift control is projection, as every output row is.
 *
 * Observing never changes the answer: the integrator is never stopped, re-aimed or
 * re-initialised here, no root function is added to its set, and the integrator's returned
 * state (in->y), which a dense call overwrites, is put back. Every other output of a run is
 * the same, bit for bit, with or without sections (tests/sim/test_sim_section.c).
 *
 * Limits: two zeros of a state section inside one step cancel (as for CVODE's roots); a
 * state jump at a re-initialisation (an impulse) is not a crossing: g restarts from the state
 * after it.
 */
#include "sim/sim_internal.h"
#include "contacts/contacts_snapshot.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Illinois iterations at most (each halves the bracket at worst every second one) */
#define SEC_ITER_MAX 200

typedef struct sim_section {
    clink_section_def def;
    clink_section_fn fn;
    void *data;
    clink_function f; /* driver: its function (borrowed from the model) */
    double f0;        /* driver: f(0) */
    int idx;          /* state: the component of the full state */
    long k;           /* time, driver: the index of the next target */
    long count;       /* crossings located */
    double glast;     /* state: g at the last time */
} sim_section;

struct sim_sections {
    sim_section *v;
    int n;
    double tlast;  /* s: the last time the sections were evaluated at */
    double *y;     /* N: a full state (the sample) */
    double *yb;    /* N: the full state the integrator returned */
    double *ysave; /* Nr: the integrator's returned state, kept across dense calls */
    int saved;
};

clink_section_def clink_default_section_def(void)
{
    clink_section_def d;
    memset(&d, 0, sizeof d);
    d.kind = CLINK_SECTION_TIME;
    d.direction = 1;
    d.body = 1;
    return d;
}

/* ---- the functions -------------------------------------------------------- */

/* the target value of a driver section's next crossing */
static double sec_driver_target(const sim_section *c)
{
    return c->f0 + (double) c->def.direction * (double) c->k * c->def.period;
}

/* g of a driver section at t */
static double sec_driver_g(const sim_section *c, double t)
{
    double f, fd, fdd;
    clink_function_eval(&c->f, t, &f, &fd, &fdd);
    return (double) c->def.direction * (f - sec_driver_target(c));
}

/* 1 when g went from ga to gb across zero in the section's direction */
static int sec_crossed(int dir, double ga, double gb)
{
    if (dir >= 0 && ga < 0.0 && gb >= 0.0)
        return 1;
    return dir <= 0 && ga > 0.0 && gb <= 0.0;
}

/* the full state on the dense output at t into sec->y (the integrator's y kept first) */
static clink_status sec_dense(clink_sim *s, double t)
{
    sim_sections *sec = s->sec;
    if (!sec->saved) {
        memcpy(sec->ysave, s->in->y, (size_t) s->sys->Nr * sizeof(double));
        sec->saved = 1;
    }
    int rc = s->in->ops->dense(s->in, t, 0);
    if (rc != 0) {
        sim_msg(s, "Poincare section: %s's dense output at t = %.17g s failed with %d",
                s->in->ops->name, t, rc);
        return CLINK_ERR_INTERNAL;
    }
    const double *yf = system_full(s->sys, s->in->y, sec->y);
    if (yf != sec->y)
        memcpy(sec->y, yf, (size_t) s->sys->N * sizeof(double));
    return CLINK_OK;
}

/* g of a state section at t on the dense output */
static clink_status sec_state_g(clink_sim *s, const sim_section *c, double t, double *g)
{
    clink_status st = sec_dense(s, t);
    *g = s->sec->y[c->idx] - c->def.value;
    return st;
}

/* g of section c at t: the driver's from its function, the state's from the dense output */
static clink_status sec_g(clink_sim *s, const sim_section *c, double t, double *g)
{
    if (c->def.kind == CLINK_SECTION_DRIVER) {
        *g = sec_driver_g(c, t);
        return CLINK_OK;
    }
    return sec_state_g(s, c, t, g);
}

/*
 * The zero of g in (ta, tb] (ga and gb of opposite signs, or gb zero) by the Illinois
 * variant of regula falsi, until tb - ta <= tol: the end past the zero into *tz.
 */
static clink_status sec_zero(clink_sim *s, const sim_section *c, double ta, double ga, double tb,
                             double gb, double tol, double *tz)
{
    int side = 0;
    for (int it = 0; it < SEC_ITER_MAX && tb - ta > tol && gb != 0.0; it++) {
        double tm = (ta * gb - tb * ga) / (gb - ga);
        /* keep the trial inside the bracket by half the tolerance at least */
        if (!(tm > ta + 0.5 * tol))
            tm = ta + 0.5 * tol;
        if (!(tm < tb - 0.5 * tol))
            tm = tb - 0.5 * tol;
        double gm;
        clink_status st = sec_g(s, c, tm, &gm);
        if (st != CLINK_OK)
            return st;
        if (gm == 0.0 || (gm > 0.0) != (ga > 0.0)) {
            tb = tm, gb = gm;
            if (side == 2)
                ga *= 0.5;
            side = 2;
        } else {
            ta = tm, ga = gm;
            if (side == 1)
                gb *= 0.5;
            side = 1;
        }
    }
    *tz = tb;
    return CLINK_OK;
}

/* ---- samples -------------------------------------------------------------- */

/* the state at t (the step's returned state yb when t is its time tb) to the callback */
static clink_status sec_report(clink_sim *s, sim_section *c, int i, double t, double tb,
                               const double *yb)
{
    sim_sections *sec = s->sec;
    c->count++;
    if (t < c->def.start)
        return CLINK_OK;
    if (t == tb)
        memcpy(sec->y, yb, (size_t) s->sys->N * sizeof(double));
    else {
        clink_status st = sec_dense(s, t);
        if (st != CLINK_OK)
            return st;
    }
    if (s->set.drift == CLINK_DRIFT_PROJECTION && s->sys->nc > 0) {
        clink_status st = system_audit_project(s->sys, t, sec->y);
        if (st != CLINK_OK) {
            sim_msg(s, "Poincare section at t = %.17g s: %s", t, dyn_error(s->sys->dyn));
            return st;
        }
    }
    clink_status st = c->fn ? c->fn(c->data, i, c->count, t, sec->y, s->sys->nq) : CLINK_OK;
    if (st != CLINK_OK && !s->msg[0])
        sim_msg(s, "Poincare section %d: the callback failed at t = %.17g s", i, t);
    return st;
}

/* the crossings of section i in (ta, tb]; yb the full state at tb */
static clink_status sec_scan(clink_sim *s, int i, double ta, double tb, const double *yb,
                             double tol)
{
    sim_section *c = &s->sec->v[i];
    clink_status st = CLINK_OK;
    if (c->def.kind == CLINK_SECTION_TIME) {
        for (;;) {
            double tk = c->def.start + (double) c->k * c->def.period;
            if (tk > tb || st != CLINK_OK)
                break;
            c->k++;
            if (tk > ta)
                st = sec_report(s, c, i, tk, tb, yb);
        }
        return st;
    }
    if (c->def.kind == CLINK_SECTION_DRIVER) {
        while (st == CLINK_OK && sec_driver_g(c, tb) >= 0.0) {
            double tz = tb, ga = sec_driver_g(c, ta);
            if (ga < 0.0)
                st = sec_zero(s, c, ta, ga, tb, sec_driver_g(c, tb), tol, &tz);
            c->k++;
            if (st == CLINK_OK)
                st = sec_report(s, c, i, tz, tb, yb);
            ta = tz;
        }
        return st;
    }
    double ga = c->glast, gb = yb[c->idx] - c->def.value;
    c->glast = gb;
    if (!sec_crossed(c->def.direction, ga, gb))
        return CLINK_OK;
    double tz = tb;
    st = sec_zero(s, c, ta, ga, tb, gb, tol, &tz);
    return st == CLINK_OK ? sec_report(s, c, i, tz, tb, yb) : st;
}

/* the integrator returned at tret (a step's end or a root) with its state in in->y: every
   section's crossings since the last time, the returned state put back after */
clink_status sim_section_check(clink_sim *s, double tret)
{
    sim_sections *sec = s->sec;
    if (!(tret > sec->tlast))
        return CLINK_OK;
    double tn = tret, h = 0.0;
    if (s->in->ops->now(s->in, &tn, &h) != 0)
        h = 0.0;
    double tol = 100.0 * DBL_EPSILON * (fabs(tret) + fabs(h));
    /* the returned state, full, kept apart from the samples' buffer */
    double *yb = sec->yb;
    const double *yf = system_full(s->sys, s->in->y, yb);
    if (yf != yb)
        memcpy(yb, yf, (size_t) s->sys->N * sizeof(double));
    sec->saved = 0;
    clink_status st = CLINK_OK;
    for (int i = 0; i < sec->n && st == CLINK_OK; i++)
        st = sec_scan(s, i, sec->tlast, tret, yb, tol);
    if (sec->saved)
        memcpy(s->in->y, sec->ysave, (size_t) s->sys->Nr * sizeof(double));
    sec->tlast = tret;
    return st;
}

/* the integrator restarted at t from loop.yroot: the sections continue from that state */
void sim_section_restart(clink_sim *s, double t)
{
    sim_sections *sec = s->sec;
    const double *y = system_full(s->sys, s->loop.yroot, sec->y);
    for (int i = 0; i < sec->n; i++)
        if (sec->v[i].def.kind == CLINK_SECTION_STATE)
            sec->v[i].glast = y[sec->v[i].idx] - sec->v[i].def.value;
    sec->tlast = t;
}

/* per section: its kind, the index of its next target and its crossings counted so far; a
   restored simulation's sections continue the count and find no target twice */
void sim_section_snapshot_write(const clink_sim *s, snap_stream *o)
{
    int n = s->sec ? s->sec->n : 0;
    snap_put(o, &n, sizeof n);
    for (int i = 0; i < n; i++) {
        const sim_section *c = &s->sec->v[i];
        int kind = (int) c->def.kind;
        long kc[2] = {c->k, c->count};
        snap_put(o, &kind, sizeof kind);
        snap_put(o, kc, sizeof kc);
    }
}

clink_status sim_section_snapshot_read(clink_sim *s, snap_stream *o)
{
    int n = -1, mine = s->sec ? s->sec->n : 0;
    snap_get(o, &n, sizeof n);
    if (o->bad || n != mine) {
        sim_msg(s, "state restore: the snapshot has %d Poincare sections, the simulation %d", n,
                mine);
        return CLINK_ERR_PARSE;
    }
    for (int i = 0; i < n; i++) {
        sim_section *c = &s->sec->v[i];
        int kind = -1;
        long kc[2] = {0, 0};
        snap_get(o, &kind, sizeof kind);
        snap_get(o, kc, sizeof kc);
        if (o->bad || kind != (int) c->def.kind || kc[0] < 0 || kc[1] < 0) {
            sim_msg(s, "state restore: Poincare section %d differs in kind from the snapshot's", i);
            return CLINK_ERR_PARSE;
        }
        c->k = kc[0];
        c->count = kc[1];
    }
    return CLINK_OK;
}

void sim_section_free(clink_sim *s)
{
    if (!s->sec)
        return;
    free(s->sec->v);
    free(s->sec->y);
    free(s->sec->yb);
    free(s->sec->ysave);
    free(s->sec);
    s->sec = NULL;
}

/* ---- adding ---------------------------------------------------------------- */

/* the definition checked against the model; CLINK_OK or CLINK_ERR_ARG with the message */
static clink_status sec_check(clink_sim *s, const clink_section_def *d)
{
    int nb = clink_model_count(s->m, CLINK_ENTITY_BODY);
    int nd = clink_model_count(s->m, CLINK_ENTITY_DRIVER);
    if (d->kind != CLINK_SECTION_TIME && d->kind != CLINK_SECTION_DRIVER &&
        d->kind != CLINK_SECTION_STATE) {
        sim_msg(s, "Poincare section: kind %d is not time, driver or state", (int) d->kind);
        return CLINK_ERR_ARG;
    }
    if (d->kind != CLINK_SECTION_STATE && !(d->period > 0.0 && isfinite(d->period))) {
        sim_msg(s, "Poincare section: period %g must be finite and > 0", d->period);
        return CLINK_ERR_ARG;
    }
    if (!isfinite(d->start) || !isfinite(d->value) || d->direction < -1 || d->direction > 1) {
        sim_msg(s, "Poincare section: start, value must be finite and direction -1, 0 or 1");
        return CLINK_ERR_ARG;
    }
    if (d->kind == CLINK_SECTION_DRIVER && (d->driver < 0 || d->driver >= nd || !d->direction)) {
        sim_msg(s, "Poincare section: driver %d is not one of the model's %d (direction +-1)",
                d->driver, nd);
        return CLINK_ERR_ARG;
    }
    if (d->kind == CLINK_SECTION_STATE &&
        (d->body < 1 || d->body >= nb || d->coordinate < 0 || d->coordinate > 5)) {
        sim_msg(s, "Poincare section: body %d, coordinate %d: a moving body (1 .. %d) and 0 .. 5",
                d->body, d->coordinate, nb - 1);
        return CLINK_ERR_ARG;
    }
    return CLINK_OK;
}

/* a section of d added to s->sec (created on the first) */
static clink_status sec_add(clink_sim *s, const clink_section_def *d, clink_section_fn fn,
                            void *data)
{
    if (!s->sec) {
        s->sec = calloc(1, sizeof *s->sec);
        if (!s->sec)
            return CLINK_ERR_NOMEM;
        s->sec->y = malloc((size_t) s->sys->N * sizeof(double));
        s->sec->yb = malloc((size_t) s->sys->N * sizeof(double));
        s->sec->ysave = malloc((size_t) s->sys->Nr * sizeof(double));
        s->sec->tlast = s->t;
        if (!s->sec->y || !s->sec->yb || !s->sec->ysave) {
            sim_section_free(s);
            return CLINK_ERR_NOMEM;
        }
    }
    sim_section *v = realloc(s->sec->v, (size_t) (s->sec->n + 1) * sizeof *v);
    if (!v)
        return CLINK_ERR_NOMEM;
    s->sec->v = v;
    sim_section *c = &v[s->sec->n];
    memset(c, 0, sizeof *c);
    c->def = *d;
    c->fn = fn;
    c->data = data;
    int nq = s->sys->nq;
    if (d->kind == CLINK_SECTION_DRIVER) {
        clink_driver_def dd;
        if (clink_model_driver(s->m, d->driver, &dd) != CLINK_OK)
            return CLINK_ERR_ARG;
        c->f = dd.function;
        double fd, fdd;
        clink_function_eval(&c->f, s->t, &c->f0, &fd, &fdd);
        c->k = 1;
    } else if (d->kind == CLINK_SECTION_STATE) {
        int j = 3 * (d->body - 1) + d->coordinate % 3;
        c->idx = d->coordinate < 3 ? j : nq + j;
        c->glast = s->out.y[c->idx] - d->value;
    }
    s->sec->n++;
    return CLINK_OK;
}

clink_status clink_sim_add_section(clink_sim *s, const clink_section_def *def, clink_section_fn fn,
                                   void *data, int *index)
{
    if (!s || !def)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(s, SIM_OP_ADVANCE);
    if (st != CLINK_OK)
        return st;
    if (s->in->ops->steps(s->in) > 0 || s->sys->win) {
        sim_msg(s, "Poincare section: %s",
                s->sys->win ? "not with the window of the state"
                            : "add sections before the first advance");
        st = CLINK_ERR_STATE;
    }
    if (st == CLINK_OK)
        st = sec_check(s, def);
    if (st == CLINK_OK)
        st = sec_add(s, def, fn, data);
    if (st == CLINK_OK && index)
        *index = s->sec->n - 1;
    sim_leave(s);
    return st;
}
