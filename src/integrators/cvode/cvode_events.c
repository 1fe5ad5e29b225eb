/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_events.c: the location of events (the zeros of the problem's event functions,
 * two per group: a contact's, contacts.c) for the CVODE integrator. It mirrors the
 * root search of SUNDIALS 6.4.1's CVODE (src/cvode/cvode.c); 7.1's search is the same
 * algorithm, so the results agree there too, but a change of CVODE's search in a later
 * version must be followed here.
 *
 * CVODE runs without root functions. cvode_events_step stands for one call of
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
 * are not monitored), with the state at each trial time from CVodeGetDky
 * summed only for the coordinates and rates of those contacts' bodies (dky,
 * an N_Vector whose linear combination computes just those components, in the
 * order and with the arithmetic of cvode_vector.c's: the same bits). CVODE
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
#include "integrators/cvode/cvode_integ.h"

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
/* vectors of a Nordsieck history at most: order 12 (Adams) and 1 */
#define CVODE_MAX_NORDSIECK 13

/*
 * CVodeGetDky's sum for the components a search reads only: the operation
 * N_VLinearCombination of the vector dky (its content the integrator), z = c[0] X[0] +
 * c[1] X[1] + ... summed in that order as cvode_vector.c sums every component (the same
 * bits), written at the components' places in the problem's event_state.
 */
static int rt_lincomb(int nvec, sunrealtype *c, N_Vector *X, N_Vector z)
{
    cvode_integ *s = z->content;
    const double *x[CVODE_MAX_NORDSIECK];
    if (nvec > CVODE_MAX_NORDSIECK)
        return -1;
    for (int k = 0; k < nvec; k++)
        x[k] = ode_data(X[k]);
    for (int j = 0; j < s->ev.ncomp; j++) {
        int r = s->ev.comp[2 * j];
        double acc = c[0] * x[0][r];
        for (int k = 1; k < nvec; k++)
            acc += c[k] * x[k][r];
        s->p.event_state[s->ev.comp[2 * j + 1]] = acc;
    }
    return 0;
}

/* all root functions at (t, y), y CVODE's state */
static int rt_eval_all(cvode_integ *s, double t, N_Vector y, double *g)
{
    return s->p.events(s->p.data, t, ode_data(y), g);
}

clink_status cvode_events_create(cvode_integ *s)
{
    int n = 2 * s->ev.ngroups;
    s->ev.nrt = n;
    s->ev.glo = calloc((size_t) n, sizeof(double));
    s->ev.ghi = calloc((size_t) n, sizeof(double));
    s->ev.grout = calloc((size_t) n, sizeof(double));
    s->ev.rootdir = calloc((size_t) n, sizeof(int));
    s->ev.iroots = calloc((size_t) n, sizeof(int));
    s->ev.gactive = malloc((size_t) n);
    s->ev.list = calloc((size_t) s->ev.ngroups, sizeof(int));
    s->ev.ytry = N_VClone(s->ycv);
    s->ev.ystep = N_VClone(s->ycv);
    s->ev.ydense = N_VClone(s->ycv);
    s->ev.comp = calloc((size_t) (s->ev.ngroups * s->p.event_inputs_max) * 2 + 1, sizeof(int));
    s->ev.dky = N_VNewEmpty(s->ctx);
    if (!s->ev.glo || !s->ev.ghi || !s->ev.grout || !s->ev.rootdir || !s->ev.iroots ||
        !s->ev.gactive || !s->ev.list || !s->ev.ytry || !s->ev.ystep || !s->ev.ydense ||
        !s->ev.comp || !s->ev.dky)
        return CLINK_ERR_NOMEM;
    s->ev.dky->content = s;
    s->ev.dky->ops->nvlinearcombination = rt_lincomb;
    memset(s->ev.gactive, 1, (size_t) n); /* CVodeRootInit: all monitored */
    cvode_events_directions(s);
    return CLINK_OK;
}

void cvode_events_destroy(cvode_integ *s)
{
    free(s->ev.glo);
    free(s->ev.ghi);
    free(s->ev.grout);
    free(s->ev.rootdir);
    free(s->ev.iroots);
    free(s->ev.gactive);
    free(s->ev.list);
    if (s->ev.ytry)
        N_VDestroy(s->ev.ytry);
    if (s->ev.ystep)
        N_VDestroy(s->ev.ystep);
    if (s->ev.ydense)
        N_VDestroy(s->ev.ydense);
    free(s->ev.comp);
    if (s->ev.dky) {
        s->ev.dky->content = NULL; /* the simulation, not the vector's */
        N_VFreeEmpty(s->ev.dky);
    }
    s->ev.comp = NULL;
    s->ev.dky = NULL;
    s->ev.glo = s->ev.ghi = s->ev.grout = NULL;
    s->ev.rootdir = s->ev.iroots = s->ev.list = NULL;
    s->ev.gactive = NULL;
    s->ev.ytry = s->ev.ystep = s->ev.ydense = NULL;
}

void cvode_events_directions(cvode_integ *s)
{
    if (s->p.event_directions) /* none without events (a snapshot of a model without contacts) */
        s->p.event_directions(s->p.data, s->ev.rootdir);
}

void cvode_events_restart(cvode_integ *s, N_Vector y0)
{
    /* CVodeInit / CVodeReInit: no step yet, no root returned (gactive and the directions
       are kept, as CVODE keeps them) */
    N_VScale(1.0, y0, s->ev.ystep);
    s->ev.yend = 0;
    s->ev.dense = 0;
    s->ev.fresh = 1;
    s->ev.irfnd = 0;
    s->ev.zero0 = 0;
    s->ev.tstop = 0;
}

/* 1 if function i counts for a root given its value g at the right end (cvRootfind's test) */
static int rt_sign_change(const cvode_integ *s, int i, double g)
{
    return s->ev.glo[i] * g < 0.0 && (double) s->ev.rootdir[i] * s->ev.glo[i] <= 0.0;
}

static int rt_zero(const cvode_integ *s, int i, double g)
{
    return fabs(g) == 0.0 && (double) s->ev.rootdir[i] * s->ev.glo[i] <= 0.0;
}

/*
 * Scans the functions of the listed contacts at g (ghi or grout): *zroot if one is zero,
 * returns 1 if one changed sign against glo, *imax the one with the largest
 * |g / (g - glo)| (the first of equals, in the order of the functions)
 */
static int rt_scan(const cvode_integ *s, int nlist, const double *g, int *zroot, int *imax)
{
    double maxfrac = 0.0;
    int sgnchg = 0;
    *zroot = 0;
    for (int j = 0; j < nlist; j++)
        for (int i = 2 * s->ev.list[j]; i < 2 * s->ev.list[j] + 2; i++) {
            if (!s->ev.gactive[i])
                continue;
            if (fabs(g[i]) == 0.0) {
                if ((double) s->ev.rootdir[i] * s->ev.glo[i] <= 0.0)
                    *zroot = 1;
            } else if (rt_sign_change(s, i, g[i])) {
                double gfrac = fabs(g[i] / (g[i] - s->ev.glo[i]));
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
static int rt_candidates(cvode_integ *s)
{
    int n = 0;
    for (int k = 0; k < s->ev.ngroups; k++) {
        int take = 0;
        for (int i = 2 * k; i < 2 * k + 2; i++)
            if (!s->ev.gactive[i] || rt_zero(s, i, s->ev.ghi[i]) ||
                rt_sign_change(s, i, s->ev.ghi[i]))
                take = 1;
        if (take)
            s->ev.list[n++] = k;
    }
    return n;
}

/*
 * cvRootfind on [tlo, thi] (glo, ghi at the ends, ttol) over the listed contacts:
 * RT_FOUND with *trout the root (the right end of the last bracket, at most ttol wide, or
 * an exact zero) and iroots set, RT_NONE with *trout = thi, RT_FAIL. grout holds g at
 * *trout (the others keep g at thi); with RT_NONE, ghi does.
 */
static int rt_find(cvode_integ *s, int nlist, double tlo, double thi, double ttol, double *trout)
{
    int n = s->ev.nrt, imax = 0, zroot = 0;
    double *glo = s->ev.glo, *ghi = s->ev.ghi, *grout = s->ev.grout;
    int sgnchg = rt_scan(s, nlist, ghi, &zroot, &imax);
    if (!sgnchg) {
        *trout = thi;
        if (!zroot)
            return RT_NONE; /* g(trout) is ghi (not copied to grout) */
        memcpy(grout, ghi, (size_t) n * sizeof(double));
        memset(s->ev.iroots, 0, (size_t) n * sizeof(int));
        for (int j = 0; j < nlist; j++)
            for (int i = 2 * s->ev.list[j]; i < 2 * s->ev.list[j] + 2; i++)
                if (s->ev.gactive[i] && rt_zero(s, i, ghi[i]))
                    s->ev.iroots[i] = glo[i] > 0 ? -1 : 1;
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
        (void) CVodeGetDky(s->mem, tmid, 0, s->ev.dky);
        if (s->p.events_some(s->p.data, tmid, s->ev.list, nlist, grout) != 0)
            return RT_FAIL;
        sideprev = side;
        sgnchg = rt_scan(s, nlist, grout, &zroot, &imax);
        if (sgnchg || zroot) {
            /* a sign change in (tlo, tmid), or none but a zero at tmid: tmid the right end */
            thi = tmid;
            for (int j = 0; j < nlist; j++) {
                int i = 2 * s->ev.list[j];
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
            int i = 2 * s->ev.list[j];
            glo[i] = grout[i];
            glo[i + 1] = grout[i + 1];
        }
        side = 2;
        if (fabs(thi - tlo) <= ttol)
            break;
    }
    *trout = thi;
    memcpy(grout, ghi, (size_t) n * sizeof(double));
    memset(s->ev.iroots, 0, (size_t) n * sizeof(int));
    for (int j = 0; j < nlist; j++)
        for (int i = 2 * s->ev.list[j]; i < 2 * s->ev.list[j] + 2; i++) {
            if (!s->ev.gactive[i])
                continue;
            if (rt_zero(s, i, ghi[i]) || rt_sign_change(s, i, ghi[i]))
                s->ev.iroots[i] = glo[i] > 0 ? -1 : 1;
        }
    return RT_FOUND;
}

/* the pairs of components the listed groups read into comp, and those components of the
   problem's event state at tn (ystep): the others are read by no listed group or are
   constant, so the state is filled whole once only (events_load) and the search's work
   grows with the groups it evaluates, not with the state */
static void rt_prepare(cvode_integ *s, int nlist)
{
    const double *y = ode_data(s->ev.ystep);
    if (!s->ev.loaded) {
        s->p.events_load(s->p.data, y);
        s->ev.loaded = 1;
    }
    s->ev.ncomp = s->p.event_inputs(s->p.data, s->ev.list, nlist, s->ev.comp);
    for (int j = 0; j < s->ev.ncomp; j++)
        s->p.event_state[s->ev.comp[2 * j + 1]] = y[s->ev.comp[2 * j]];
}

/*
 * cvRcheck3 (CV_ONE_STEP): the search over [tlo, tn] with all functions evaluated at tn on
 * CVODE's state there (ystep). RT_FOUND with ycv the state at the root and tlo the
 * root, RT_NONE with tlo = tn, RT_FAIL.
 */
static int rt_check3(cvode_integ *s, double tn, double h)
{
    if (rt_eval_all(s, tn, s->ev.ystep, s->ev.ghi) != 0)
        return RT_FAIL;
    double ttol = (fabs(tn) + fabs(h)) * RT_UROUND * 100.0;
    int nlist = rt_candidates(s);
    if (nlist > 0)
        rt_prepare(s, nlist);
    double trout = tn;
    int ier = rt_find(s, nlist, s->ev.tlo, tn, ttol, &trout);
    if (ier == RT_FAIL)
        return RT_FAIL;
    const double *gr = ier == RT_NONE ? s->ev.ghi : s->ev.grout;
    for (int i = 0; i < s->ev.nrt; i++)
        if (!s->ev.gactive[i] && gr[i] != 0.0)
            s->ev.gactive[i] = 1;
    s->ev.tlo = trout;
    if (ier == RT_NONE) {
        /* glo = g(tn): the arrays exchanged, not copied (ghi is evaluated afresh) */
        double *g = s->ev.glo;
        s->ev.glo = s->ev.ghi;
        s->ev.ghi = g;
        return RT_NONE;
    }
    /* glo = g(trout) for the contacts evaluated; the others keep g(tn): a root makes the
       next call evaluate all of them at trout again (rt_check2) */
    memcpy(s->ev.glo, s->ev.grout, (size_t) s->ev.nrt * sizeof(double));
    (void) CVodeGetDky(s->mem, trout, 0, s->ycv);
    return RT_FOUND;
}

/*
 * cvRcheck2: after a root at tlo, all functions evaluated there again; those exactly zero
 * are looked at a tolerance later. RT_FOUND (a new zero there: returned at tlo, ycv the
 * state a tolerance later, as CVODE returns it), RT_CLOSE (a function zero at both),
 * RT_NONE, RT_FAIL.
 */
static int rt_check2(cvode_integ *s, double tn, double h)
{
    double tlo = s->ev.tlo;
    (void) CVodeGetDky(s->mem, tlo, 0, s->ev.ytry);
    if (rt_eval_all(s, tlo, s->ev.ytry, s->ev.glo) != 0)
        return RT_FAIL;
    int zroot = 0;
    memset(s->ev.iroots, 0, (size_t) s->ev.nrt * sizeof(int));
    for (int i = 0; i < s->ev.nrt; i++)
        if (s->ev.gactive[i] && fabs(s->ev.glo[i]) == 0.0) {
            zroot = 1;
            s->ev.iroots[i] = 1;
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
        (void) CVodeGetDky(s->mem, tn, 1, s->ycv);
        N_VLinearSum(1.0, s->ev.ytry, hratio * h, s->ycv, s->ev.ytry);
    } else {
        (void) CVodeGetDky(s->mem, tplus, 0, s->ev.ytry);
    }
    if (rt_eval_all(s, tplus, s->ev.ytry, s->ev.ghi) != 0)
        return RT_FAIL;
    zroot = 0;
    for (int i = 0; i < s->ev.nrt; i++) {
        if (!s->ev.gactive[i])
            continue;
        if (fabs(s->ev.ghi[i]) == 0.0) {
            if (s->ev.iroots[i] == 1)
                return RT_CLOSE;
            zroot = 1;
            s->ev.iroots[i] = 1;
        } else if (s->ev.iroots[i] == 1) {
            s->ev.glo[i] = s->ev.ghi[i];
        }
    }
    N_VScale(1.0, s->ev.ytry, s->ycv);
    return zroot ? RT_FOUND : RT_NONE;
}

/*
 * cvRcheck1: all functions at the start (t0, ystep) before the first step; those exactly
 * zero are not monitored until they move (the look-ahead, rt_check1_ahead, after the
 * step). RT_NONE or RT_FAIL.
 */
static int rt_check1(cvode_integ *s, double t0)
{
    memset(s->ev.iroots, 0, (size_t) s->ev.nrt * sizeof(int));
    s->ev.tlo = t0;
    if (rt_eval_all(s, t0, s->ev.ystep, s->ev.glo) != 0)
        return RT_FAIL;
    s->ev.zero0 = 0;
    for (int i = 0; i < s->ev.nrt; i++)
        if (fabs(s->ev.glo[i]) == 0.0) {
            s->ev.zero0 = 1;
            s->ev.gactive[i] = 0;
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
static int rt_check1_ahead(cvode_integ *s, double t0)
{
    sunrealtype h0 = 0.0;
    if (CVodeGetActualInitStep(s->mem, &h0) != CV_SUCCESS || h0 == 0.0)
        return RT_NONE;
    double ttol = (fabs(t0) + fabs(h0)) * RT_UROUND * 100.0;
    double hratio = fmax(ttol / fabs(h0), 0.1);
    double tplus = t0 + hratio * h0;
    if (s->p.rhs(s->p.data, t0, N_VGetArrayPointer(s->ev.ystep), N_VGetArrayPointer(s->ev.ytry)) !=
        0)
        return RT_FAIL;
    N_VScale(h0, s->ev.ytry, s->ev.ytry);
    N_VLinearSum(1.0, s->ev.ystep, hratio, s->ev.ytry, s->ev.ytry);
    if (rt_eval_all(s, tplus, s->ev.ytry, s->ev.ghi) != 0)
        return RT_FAIL;
    for (int i = 0; i < s->ev.nrt; i++)
        if (!s->ev.gactive[i] && fabs(s->ev.ghi[i]) != 0.0) {
            s->ev.gactive[i] = 1;
            s->ev.glo[i] = s->ev.ghi[i];
        }
    return RT_NONE;
}

/* the current time and step of CVODE (its h is the last step until the next one starts) */
static int rt_now(cvode_integ *s, sunrealtype *tn, sunrealtype *h)
{
    if (CVodeGetCurrentTime(s->mem, tn) != CV_SUCCESS || CVodeGetLastStep(s->mem, h) != CV_SUCCESS)
        return -1;
    return 0;
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
static int rt_before_step(cvode_integ *s, double *tret, int *rc)
{
    sunrealtype tn = 0.0, h = 0.0;
    /* CVode's checks before a step: the rest of the last root's step */
    if (rt_now(s, &tn, &h) != 0)
        return rt_flag(rc, CV_MEM_NULL);
    double troundoff = RT_FUZZ * RT_UROUND * (fabs(tn) + fabs(h));
    int irfndp = s->ev.irfnd;
    if (s->ev.irfnd) {
        int r = rt_check2(s, tn, h);
        if (r == RT_FAIL)
            return rt_flag(rc, CV_RTFUNC_FAIL);
        if (r == RT_CLOSE) {
            snprintf(s->log.msg, sizeof s->log.msg, "Root found at and very near t = %g.",
                     s->ev.tlo);
            return rt_flag(rc, CV_ILL_INPUT);
        }
        if (r == RT_FOUND) {
            *tret = s->ev.tretlast = s->ev.tlo;
            return rt_flag(rc, CV_ROOT_RETURN);
        }
    }
    if (fabs(tn - s->ev.tretlast) > troundoff) {
        int r = rt_check3(s, tn, h);
        if (r == RT_FAIL)
            return rt_flag(rc, CV_RTFUNC_FAIL);
        if (r == RT_FOUND) {
            s->ev.irfnd = 1;
            *tret = s->ev.tretlast = s->ev.tlo;
            return rt_flag(rc, CV_ROOT_RETURN);
        }
        s->ev.irfnd = 0;
        if (irfndp) {
            *tret = s->ev.tretlast = tn;
            N_VScale(1.0, s->ev.ystep, s->ycv);
            return rt_flag(rc, CV_SUCCESS);
        }
    }
    if (fabs(tn - s->ev.tretlast) > troundoff) {
        *tret = s->ev.tretlast = tn;
        N_VScale(1.0, s->ev.ystep, s->ycv);
        return rt_flag(rc, CV_SUCCESS);
    }
    if (s->ev.tstop) {
        /* CVODE stopped at t_stop in the step of the roots returned since */
        s->ev.tstop = 0;
        (void) CVodeGetDky(s->mem, s->t_stop, 0, s->ycv);
        *tret = s->ev.tretlast = s->t_stop;
        return rt_flag(rc, CV_TSTOP_RETURN);
    }
    return 0;
}

int cvode_events_step(cvode_integ *s, double tout, double *tret)
{
    sunrealtype tcv = *tret;
    s->ev.yend = 0;
    s->ev.dense = 0;
    if (!s->ev.nrt) {
        int rc = CVode(s->mem, tout, s->ycv, &tcv, CV_ONE_STEP);
        *tret = tcv;
        return rc;
    }
    sunrealtype tn = 0.0, h = 0.0;
    if (!s->ev.fresh) {
        int rc0 = 0;
        if (rt_before_step(s, tret, &rc0))
            return rc0;
    } else {
        sunrealtype t0 = 0.0;
        if (CVodeGetCurrentTime(s->mem, &t0) != CV_SUCCESS)
            return CV_MEM_NULL;
        s->ev.tretlast = t0;
        if (rt_check1(s, t0) == RT_FAIL)
            return CV_RTFUNC_FAIL;
    }
    int rc = CVode(s->mem, tout, s->ycv, &tcv, CV_ONE_STEP);
    if (rc < 0) {
        *tret = tcv;
        return rc;
    }
    if (s->ev.fresh) {
        s->ev.fresh = 0;
        sunrealtype t0 = s->ev.tlo;
        if (s->ev.zero0 && rt_check1_ahead(s, t0) == RT_FAIL)
            return CV_RTFUNC_FAIL;
    }
    N_VScale(1.0, s->ycv, s->ev.ystep);
    /* in CV_ONE_STEP, CV_SUCCESS returns zn[0] at tn (a stop at t_stop: CV_TSTOP_RETURN) */
    s->ev.yend = rc == CV_SUCCESS;
    s->ev.yend_t = tcv;
    if (rt_now(s, &tn, &h) != 0)
        return CV_MEM_NULL;
    int r = rt_check3(s, tn, h);
    if (r == RT_FAIL)
        return CV_RTFUNC_FAIL;
    if (r == RT_FOUND) {
        s->ev.irfnd = 1;
        s->ev.tstop = rc == CV_TSTOP_RETURN;
        *tret = s->ev.tretlast = s->ev.tlo;
        return CV_ROOT_RETURN;
    }
    *tret = s->ev.tretlast = tcv;
    return rc;
}
