/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_events.c: the location of events (the zeros of the problem's event functions,
 * two per group: a contact's, contacts.c) for the integrators of CVODE's methods: CVODE
 * itself (cvode_step.c) and the plain-array Adams (src/integrators/adams), each given to
 * the search as a few callbacks (events_host, cvode_events.h: the time, the dense output
 * and its partial sums, one step without events). It mirrors the
 * root search of SUNDIALS 6.4.1's CVODE (src/cvode/cvode.c); 7.1's search is the same
 * algorithm, so the results agree there too, but a change of CVODE's search in a later
 * version must be followed here.
 *
 * The integrator runs without root functions. cvode_events_step stands for one call of
 * CVode(CV_ONE_STEP) with roots and reproduces the root search of CVODE 6.4
 * (cvode.c: cvRcheck1, cvRcheck2, cvRcheck3, cvRootfind) step for step: the same
 * evaluation times, the same Illinois iteration (tolerance ttol = 100 uround
 * (|tn| + |h|), the same weights alpha, the same function driving the secant: the
 * one with the largest |g_hi / (g_hi - g_lo)|), the same directions, the same
 * handling of functions exactly zero (CVODE's "smallest step" look-ahead at the
 * start and after a root; functions zero at a start and staying zero are not
 * monitored until they move), the same returns (a root before the step's end is
 * returned first, the rest of the step is searched at the next call; the end of a
 * step at the stop time is returned after the roots in it). What differs is the
 * work: after each step all functions are evaluated once at (tn, y_n), CVODE's
 * own state there (no interpolation), and the Illinois iterations evaluate only
 * the functions of the contacts whose functions changed sign over the step (or
 * are not monitored), with the state at each trial time from the dense output
 * (CVodeGetDky) summed only for the coordinates and rates of those contacts' bodies
 * (the host's dense_some: the same sums in the same order, so the same bits). CVODE
 * evaluates and scans all 2N functions at every iteration; the other contacts'
 * values cannot change the root it finds unless one of their functions has two
 * zeros inside one step (a sign change and back, which neither search sees at the
 * step's ends); CVODE could then find that pair through another function's
 * bracket, this search does not.
 *
 * Evaluations: all functions once per step and twice per root (at the root, as
 * CVODE's cvRcheck2, and at the step's end again, since the root changed the
 * contact's phase), some at each iteration; the problem counts both (system_roots:
 * against its guard on events without a completed step).
 */
#include "integrators/cvode/cvode_events.h"

#include <cvode/cvode.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cvRcheck2 and cvRootfind's results */
enum { RT_NONE = 0, RT_FOUND = 1, RT_CLOSE = 3, RT_FAIL = -1 };

#define RT_UROUND DBL_EPSILON
#define RT_FUZZ   100.0 /* CVODE's FUZZ_FACTOR (troundoff) */
/* all root functions at (t, y), y CVODE's state */
static int rt_eval_all(cvode_events *e, double t, const double *y, double *g)
{
    return e->p->events(e->p->data, t, y, g);
}

void cvode_events_init(cvode_events *e, const integ_problem *p, double *y, const events_host *host,
                       const double *t_stop, char *msg, size_t msg_size)
{
    memset(e, 0, sizeof *e);
    e->p = p;
    e->y = y;
    e->host = *host;
    e->t_stop = t_stop;
    e->msg = msg;
    e->msg_size = msg_size;
}

clink_status cvode_events_create(cvode_events *e)
{
    const integ_problem *p = e->p;
    int n = p->nevents, N = p->n;
    e->ngroups = n / 2;
    e->nrt = n;
    e->glo = calloc((size_t) n, sizeof(double));
    e->ghi = calloc((size_t) n, sizeof(double));
    e->grout = calloc((size_t) n, sizeof(double));
    e->rootdir = calloc((size_t) n, sizeof(int));
    e->iroots = calloc((size_t) n, sizeof(int));
    e->gactive = malloc((size_t) n);
    e->list = calloc((size_t) e->ngroups, sizeof(int));
    e->ytry = calloc((size_t) N, sizeof(double));
    e->ystep = calloc((size_t) N, sizeof(double));
    e->ydense = calloc((size_t) N, sizeof(double));
    e->comp = calloc((size_t) (e->ngroups * p->event_inputs_max) * 2 + 1, sizeof(int));
    if (!e->glo || !e->ghi || !e->grout || !e->rootdir || !e->iroots || !e->gactive || !e->list ||
        !e->ytry || !e->ystep || !e->ydense || !e->comp)
        return CLINK_ERR_NOMEM;
    memset(e->gactive, 1, (size_t) n); /* CVodeRootInit: all monitored */
    cvode_events_directions(e);
    return CLINK_OK;
}

void cvode_events_destroy(cvode_events *e)
{
    free(e->glo);
    free(e->ghi);
    free(e->grout);
    free(e->rootdir);
    free(e->iroots);
    free(e->gactive);
    free(e->list);
    free(e->ytry);
    free(e->ystep);
    free(e->ydense);
    free(e->comp);
    e->comp = NULL;
    e->glo = e->ghi = e->grout = NULL;
    e->rootdir = e->iroots = e->list = NULL;
    e->gactive = NULL;
    e->ytry = e->ystep = e->ydense = NULL;
}

void cvode_events_directions(cvode_events *e)
{
    if (e->p->event_directions) /* none without events (a snapshot of a model without contacts) */
        e->p->event_directions(e->p->data, e->rootdir);
}

void cvode_events_restart(cvode_events *e, const double *y0)
{
    /* CVodeInit / CVodeReInit: no step yet, no root returned (gactive and the directions
       are kept, as CVODE keeps them) */
    memcpy(e->ystep, y0, (size_t) e->p->n * sizeof(double));
    e->yend = 0;
    e->dense = 0;
    e->fresh = 1;
    e->irfnd = 0;
    e->zero0 = 0;
    e->tstop = 0;
}

/* 1 if function i counts for a root given its value g at the right end (cvRootfind's test) */
static int rt_sign_change(const cvode_events *e, int i, double g)
{
    return e->glo[i] * g < 0.0 && (double) e->rootdir[i] * e->glo[i] <= 0.0;
}

static int rt_zero(const cvode_events *e, int i, double g)
{
    return fabs(g) == 0.0 && (double) e->rootdir[i] * e->glo[i] <= 0.0;
}

/*
 * Scans the functions of the listed contacts at g (ghi or grout): *zroot if one is zero,
 * returns 1 if one changed sign against glo, *imax the one with the largest
 * |g / (g - glo)| (the first of equals, in the order of the functions)
 */
static int rt_scan(const cvode_events *e, int nlist, const double *g, int *zroot, int *imax)
{
    double maxfrac = 0.0;
    int sgnchg = 0;
    *zroot = 0;
    for (int j = 0; j < nlist; j++)
        for (int i = 2 * e->list[j]; i < 2 * e->list[j] + 2; i++) {
            if (!e->gactive[i])
                continue;
            if (fabs(g[i]) == 0.0) {
                if ((double) e->rootdir[i] * e->glo[i] <= 0.0)
                    *zroot = 1;
            } else if (rt_sign_change(e, i, g[i])) {
                double gfrac = fabs(g[i] / (g[i] - e->glo[i]));
                if (gfrac > maxfrac) {
                    sgnchg = 1;
                    maxfrac = gfrac;
                    *imax = i;
                }
            }
        }
    return sgnchg;
}

/* the contacts a search must evaluate: a function that changed sign or is zero at thi (in
   its direction), or one not monitored; in increasing order */
static int rt_candidates(cvode_events *e)
{
    int n = 0;
    for (int k = 0; k < e->ngroups; k++) {
        int take = 0;
        for (int i = 2 * k; i < 2 * k + 2; i++)
            if (!e->gactive[i] || rt_zero(e, i, e->ghi[i]) || rt_sign_change(e, i, e->ghi[i]))
                take = 1;
        if (take)
            e->list[n++] = k;
    }
    return n;
}

/*
 * cvRootfind on [tlo, thi] (glo, ghi at the ends, ttol) over the listed contacts:
 * RT_FOUND with *trout the root (the right end of the last bracket, at most ttol wide, or
 * an exact zero) and iroots set, RT_NONE with *trout = thi, RT_FAIL. grout holds g at
 * *trout (the others keep g at thi); with RT_NONE, ghi does.
 */
static int rt_find(cvode_events *e, int nlist, double tlo, double thi, double ttol, double *trout)
{
    int n = e->nrt, imax = 0, zroot = 0;
    double *glo = e->glo, *ghi = e->ghi, *grout = e->grout;
    int sgnchg = rt_scan(e, nlist, ghi, &zroot, &imax);
    if (!sgnchg) {
        *trout = thi;
        if (!zroot)
            return RT_NONE; /* g(trout) is ghi (not copied to grout) */
        memcpy(grout, ghi, (size_t) n * sizeof(double));
        memset(e->iroots, 0, (size_t) n * sizeof(int));
        for (int j = 0; j < nlist; j++)
            for (int i = 2 * e->list[j]; i < 2 * e->list[j] + 2; i++)
                if (e->gactive[i] && rt_zero(e, i, ghi[i]))
                    e->iroots[i] = glo[i] > 0 ? -1 : 1;
        return RT_FOUND;
    }
    double alph = 1.0;
    int side = 0, sideprev = -1;
    for (;;) {
        if (fabs(thi - tlo) <= ttol)
            break;
        if (sideprev == side)
            alph = side == 2 ? alph * 2.0 : alph * 0.5;
        else
            alph = 1.0;
        double tmid = thi - (thi - tlo) * ghi[imax] / (ghi[imax] - alph * glo[imax]);
        if (fabs(tmid - tlo) < 0.5 * ttol) {
            double fracint = fabs(thi - tlo) / ttol;
            double fracsub = fracint > 5.0 ? 0.1 : 0.5 / fracint;
            tmid = tlo + fracsub * (thi - tlo);
        }
        if (fabs(thi - tmid) < 0.5 * ttol) {
            double fracint = fabs(thi - tlo) / ttol;
            double fracsub = fracint > 5.0 ? 0.1 : 0.5 / fracint;
            tmid = thi - fracsub * (thi - tlo);
        }
        e->host.dense_some(e->host.data, tmid, e->comp, e->ncomp, e->p->event_state);
        if (e->p->events_some(e->p->data, tmid, e->list, nlist, grout) != 0)
            return RT_FAIL;
        sideprev = side;
        sgnchg = rt_scan(e, nlist, grout, &zroot, &imax);
        if (sgnchg || zroot) {
            /* a sign change in (tlo, tmid), or none but a zero at tmid: tmid the right end */
            thi = tmid;
            for (int j = 0; j < nlist; j++) {
                int i = 2 * e->list[j];
                ghi[i] = grout[i];
                ghi[i + 1] = grout[i + 1];
            }
            if (!sgnchg)
                break;
            side = 1;
            if (fabs(thi - tlo) <= ttol)
                break;
            continue;
        }
        /* the sign change is in (tmid, thi) */
        tlo = tmid;
        for (int j = 0; j < nlist; j++) {
            int i = 2 * e->list[j];
            glo[i] = grout[i];
            glo[i + 1] = grout[i + 1];
        }
        side = 2;
        if (fabs(thi - tlo) <= ttol)
            break;
    }
    *trout = thi;
    memcpy(grout, ghi, (size_t) n * sizeof(double));
    memset(e->iroots, 0, (size_t) n * sizeof(int));
    for (int j = 0; j < nlist; j++)
        for (int i = 2 * e->list[j]; i < 2 * e->list[j] + 2; i++) {
            if (!e->gactive[i])
                continue;
            if (rt_zero(e, i, ghi[i]) || rt_sign_change(e, i, ghi[i]))
                e->iroots[i] = glo[i] > 0 ? -1 : 1;
        }
    return RT_FOUND;
}

/* the pairs of components the listed groups read into comp, and those components of the
   problem's event state at tn (ystep): the others are read by no listed group or are
   constant, so the state is filled whole once only (events_load) and the search's work
   grows with the groups it evaluates, not with the state */
static void rt_prepare(cvode_events *e, int nlist)
{
    const double *y = e->ystep;
    if (!e->loaded) {
        e->p->events_load(e->p->data, y);
        e->loaded = 1;
    }
    e->ncomp = e->p->event_inputs(e->p->data, e->list, nlist, e->comp);
    for (int j = 0; j < e->ncomp; j++)
        e->p->event_state[e->comp[2 * j + 1]] = y[e->comp[2 * j]];
}

/*
 * cvRcheck3 (CV_ONE_STEP): the search over [tlo, tn] with all functions evaluated at tn on
 * CVODE's state there (ystep). RT_FOUND with ycv the state at the root and tlo the
 * root, RT_NONE with tlo = tn, RT_FAIL.
 */
static int rt_check3(cvode_events *e, double tn, double h)
{
    if (rt_eval_all(e, tn, e->ystep, e->ghi) != 0)
        return RT_FAIL;
    double ttol = (fabs(tn) + fabs(h)) * RT_UROUND * 100.0;
    int nlist = rt_candidates(e);
    if (nlist > 0)
        rt_prepare(e, nlist);
    double trout = tn;
    int ier = rt_find(e, nlist, e->tlo, tn, ttol, &trout);
    if (ier == RT_FAIL)
        return RT_FAIL;
    const double *gr = ier == RT_NONE ? e->ghi : e->grout;
    for (int i = 0; i < e->nrt; i++)
        if (!e->gactive[i] && gr[i] != 0.0)
            e->gactive[i] = 1;
    e->tlo = trout;
    if (ier == RT_NONE) {
        /* glo = g(tn): the arrays exchanged, not copied (ghi is evaluated afresh) */
        double *g = e->glo;
        e->glo = e->ghi;
        e->ghi = g;
        return RT_NONE;
    }
    /* glo = g(trout) for the contacts evaluated; the others keep g(tn): a root makes the
       next call evaluate all of them at trout again (rt_check2) */
    memcpy(e->glo, e->grout, (size_t) e->nrt * sizeof(double));
    (void) e->host.dense(e->host.data, trout, 0, e->y);
    return RT_FOUND;
}

/*
 * cvRcheck2: after a root at tlo, all functions evaluated there again; those exactly zero
 * are looked at a tolerance later. RT_FOUND (a new zero there: returned at tlo, ycv the
 * state a tolerance later, as CVODE returns it), RT_CLOSE (a function zero at both),
 * RT_NONE, RT_FAIL.
 */
static int rt_check2(cvode_events *e, double tn, double h)
{
    double tlo = e->tlo;
    (void) e->host.dense(e->host.data, tlo, 0, e->ytry);
    if (rt_eval_all(e, tlo, e->ytry, e->glo) != 0)
        return RT_FAIL;
    int zroot = 0;
    memset(e->iroots, 0, (size_t) e->nrt * sizeof(int));
    for (int i = 0; i < e->nrt; i++)
        if (e->gactive[i] && fabs(e->glo[i]) == 0.0) {
            zroot = 1;
            e->iroots[i] = 1;
        }
    if (!zroot)
        return RT_NONE;
    double ttol = (fabs(tn) + fabs(h)) * RT_UROUND * 100.0;
    double smallh = h > 0.0 ? ttol : -ttol;
    double tplus = tlo + smallh;
    if ((tplus - tn) * h >= 0.0) {
        /* beyond tn: CVODE extrapolates with its zn[1] = h y'(tn); here h times the
           derivative of the dense output at tn (the same to rounding) */
        double hratio = smallh / h;
        double b = hratio * h;
        (void) e->host.dense(e->host.data, tn, 1, e->y);
        for (int i = 0; i < e->p->n; i++)
            e->ytry[i] += b * e->y[i];
    } else {
        (void) e->host.dense(e->host.data, tplus, 0, e->ytry);
    }
    if (rt_eval_all(e, tplus, e->ytry, e->ghi) != 0)
        return RT_FAIL;
    zroot = 0;
    for (int i = 0; i < e->nrt; i++) {
        if (!e->gactive[i])
            continue;
        if (fabs(e->ghi[i]) == 0.0) {
            if (e->iroots[i] == 1)
                return RT_CLOSE;
            zroot = 1;
            e->iroots[i] = 1;
        } else if (e->iroots[i] == 1) {
            e->glo[i] = e->ghi[i];
        }
    }
    memcpy(e->y, e->ytry, (size_t) e->p->n * sizeof(double));
    return zroot ? RT_FOUND : RT_NONE;
}

/*
 * cvRcheck1: all functions at the start (t0, ystep) before the first step; those exactly
 * zero are not monitored until they move (the look-ahead, rt_check1_ahead, after the
 * step). RT_NONE or RT_FAIL.
 */
static int rt_check1(cvode_events *e, double t0)
{
    memset(e->iroots, 0, (size_t) e->nrt * sizeof(int));
    e->tlo = t0;
    if (rt_eval_all(e, t0, e->ystep, e->glo) != 0)
        return RT_FAIL;
    e->zero0 = 0;
    for (int i = 0; i < e->nrt; i++)
        if (fabs(e->glo[i]) == 0.0) {
            e->zero0 = 1;
            e->gactive[i] = 0;
        }
    return RT_NONE;
}

/*
 * cvRcheck1's look-ahead for functions zero at t0: g at t0 + max(ttol / |h0|, 0.1) h0 on
 * the first-order extrapolation y0 + hratio h0 y'(t0) (h0 CVODE's initial step, y'(t0) the
 * right-hand side there, evaluated again); those nonzero there are monitored from there.
 * CVODE does it before its first step, this after it: the same values as long as the
 * right-hand side at t0 does not depend on what the step evaluated.
 */
static int rt_check1_ahead(cvode_events *e, double t0)
{
    double h0 = 0.0;
    if (e->host.init_step(e->host.data, &h0) != 0 || h0 == 0.0)
        return RT_NONE;
    double ttol = (fabs(t0) + fabs(h0)) * RT_UROUND * 100.0;
    double hratio = fmax(ttol / fabs(h0), 0.1);
    double tplus = t0 + hratio * h0;
    if (e->p->rhs(e->p->data, t0, e->ystep, e->ytry) != 0)
        return RT_FAIL;
    for (int i = 0; i < e->p->n; i++)
        e->ytry[i] *= h0;
    for (int i = 0; i < e->p->n; i++)
        e->ytry[i] = (hratio * e->ytry[i]) + e->ystep[i];
    if (rt_eval_all(e, tplus, e->ytry, e->ghi) != 0)
        return RT_FAIL;
    for (int i = 0; i < e->nrt; i++)
        if (!e->gactive[i] && fabs(e->ghi[i]) != 0.0) {
            e->gactive[i] = 1;
            e->glo[i] = e->ghi[i];
        }
    return RT_NONE;
}

/* the current time and step of CVODE (its h is the last step until the next one starts) */
static int rt_now(cvode_events *e, double *tn, double *h)
{
    return e->host.now(e->host.data, tn, h) != 0 ? -1 : 0;
}

/* *rc = flag; 1 (rt_before_step returns without a step) */
static int rt_flag(int *rc, int flag)
{
    *rc = flag;
    return 1;
}

/* CVode's checks before a step (cvRcheck2, cvRcheck3 on the rest of the last root's step,
   the stop time after roots): 1 when they return without a step (*rc CVODE's flag, *tret
   the time), 0 when CVODE must step */
static int rt_before_step(cvode_events *e, double *tret, int *rc)
{
    double tn = 0.0, h = 0.0;
    /* CVode's checks before a step: the rest of the last root's step */
    if (rt_now(e, &tn, &h) != 0)
        return rt_flag(rc, CV_MEM_NULL);
    double troundoff = RT_FUZZ * RT_UROUND * (fabs(tn) + fabs(h));
    int irfndp = e->irfnd;
    if (e->irfnd) {
        int r = rt_check2(e, tn, h);
        if (r == RT_FAIL)
            return rt_flag(rc, CV_RTFUNC_FAIL);
        if (r == RT_CLOSE) {
            snprintf(e->msg, e->msg_size, "Root found at and very near t = %g.", e->tlo);
            return rt_flag(rc, CV_ILL_INPUT);
        }
        if (r == RT_FOUND) {
            *tret = e->tretlast = e->tlo;
            return rt_flag(rc, CV_ROOT_RETURN);
        }
    }
    if (fabs(tn - e->tretlast) > troundoff) {
        int r = rt_check3(e, tn, h);
        if (r == RT_FAIL)
            return rt_flag(rc, CV_RTFUNC_FAIL);
        if (r == RT_FOUND) {
            e->irfnd = 1;
            *tret = e->tretlast = e->tlo;
            return rt_flag(rc, CV_ROOT_RETURN);
        }
        e->irfnd = 0;
        if (irfndp) {
            *tret = e->tretlast = tn;
            memcpy(e->y, e->ystep, (size_t) e->p->n * sizeof(double));
            return rt_flag(rc, CV_SUCCESS);
        }
    }
    if (fabs(tn - e->tretlast) > troundoff) {
        *tret = e->tretlast = tn;
        memcpy(e->y, e->ystep, (size_t) e->p->n * sizeof(double));
        return rt_flag(rc, CV_SUCCESS);
    }
    if (e->tstop) {
        /* CVODE stopped at t_stop in the step of the roots returned since */
        e->tstop = 0;
        (void) e->host.dense(e->host.data, *e->t_stop, 0, e->y);
        *tret = e->tretlast = *e->t_stop;
        return rt_flag(rc, CV_TSTOP_RETURN);
    }
    return 0;
}

int cvode_events_step(cvode_events *e, double tout, double *tret)
{
    double tcv = *tret;
    e->yend = 0;
    e->dense = 0;
    if (!e->nrt) {
        int rc = e->host.one_step(e->host.data, tout, &tcv);
        *tret = tcv;
        return rc;
    }
    double tn = 0.0, h = 0.0;
    if (!e->fresh) {
        int rc0 = 0;
        if (rt_before_step(e, tret, &rc0))
            return rc0;
    } else {
        double t0 = 0.0;
        if (e->host.now(e->host.data, &t0, NULL) != 0)
            return CV_MEM_NULL;
        e->tretlast = t0;
        if (rt_check1(e, t0) == RT_FAIL)
            return CV_RTFUNC_FAIL;
    }
    int rc = e->host.one_step(e->host.data, tout, &tcv);
    if (rc < 0) {
        *tret = tcv;
        return rc;
    }
    if (e->fresh) {
        e->fresh = 0;
        double t0 = e->tlo;
        if (e->zero0 && rt_check1_ahead(e, t0) == RT_FAIL)
            return CV_RTFUNC_FAIL;
    }
    memcpy(e->ystep, e->y, (size_t) e->p->n * sizeof(double));
    /* in CV_ONE_STEP, CV_SUCCESS returns zn[0] at tn (a stop at t_stop: CV_TSTOP_RETURN) */
    e->yend = rc == CV_SUCCESS;
    e->yend_t = tcv;
    if (rt_now(e, &tn, &h) != 0)
        return CV_MEM_NULL;
    int r = rt_check3(e, tn, h);
    if (r == RT_FAIL)
        return CV_RTFUNC_FAIL;
    if (r == RT_FOUND) {
        e->irfnd = 1;
        e->tstop = rc == CV_TSTOP_RETURN;
        *tret = e->tretlast = e->tlo;
        return CV_ROOT_RETURN;
    }
    *tret = e->tretlast = tcv;
    return rc;
}
