/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_roots.c: clink's own location of the contact events (the zeros of the root
 * functions of sim_contact.c, two per contact) for the CVODE driver.
 *
 * CVODE runs without root functions. sim_roots_cvode stands for one call of
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
 * summed only for the coordinates and rates of those contacts' bodies (rt_dky,
 * an N_Vector whose linear combination computes just those components, in the
 * order and with the arithmetic of ode_vector.c's: the same bits). CVODE
 * evaluates and scans all 2N functions at every iteration; the other contacts'
 * values cannot change the root it finds unless one of their functions has two
 * zeros inside one step (a sign change and back, which neither search sees at the
 * step's ends); CVODE could then find that pair through another function's
 * bracket, this search does not.
 *
 * Counters: rt_full counts evaluations of all functions (one per step, two per
 * root: at the root, as CVODE's cvRcheck2, and at the step's end again, since the
 * root changed the contact's phase), rt_partial those of some; both count against
 * SIM_MAX_ROOT_CALLS between two completed steps (the guard against events that
 * chatter).
 */
#include "sim/sim_internal.h"

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
#define SIM_MAX_NORDSIECK 13

/*
 * CVodeGetDky's sum for the components a search reads only: the operation
 * N_VLinearCombination of the vector rt_dky (its content the simulation), z = c[0] X[0] +
 * c[1] X[1] + ... summed in that order as ode_vector.c sums every component (the same
 * bits), written at the components' places in the full state rt_yf.
 */
static int rt_lincomb(int nvec, realtype *c, N_Vector *X, N_Vector z)
{
    clink_sim *s = z->content;
    const double *x[SIM_MAX_NORDSIECK];
    if (nvec > SIM_MAX_NORDSIECK)
        return -1;
    for (int k = 0; k < nvec; k++)
        x[k] = N_VGetArrayPointer(X[k]);
    for (int j = 0; j < s->rt_ncomp; j++) {
        int r = s->rt_comp[2 * j];
        double acc = c[0] * x[0][r];
        for (int k = 1; k < nvec; k++)
            acc += c[k] * x[k][r];
        s->rt_yf[s->rt_comp[2 * j + 1]] = acc;
    }
    return 0;
}

/* all root functions at (t, y), y CVODE's state */
static int rt_eval_all(clink_sim *s, double t, N_Vector y, double *g)
{
    return sim_roots_eval(s, t, sim_full_x(s, N_VGetArrayPointer(y)), NULL, 0, g);
}

clink_status sim_roots_create(clink_sim *s)
{
    int n = 2 * s->ncon;
    s->nrt = n;
    s->glo = calloc((size_t) n, sizeof(double));
    s->ghi = calloc((size_t) n, sizeof(double));
    s->grout = calloc((size_t) n, sizeof(double));
    s->rootdir = calloc((size_t) n, sizeof(int));
    s->iroots = calloc((size_t) n, sizeof(int));
    s->gactive = malloc((size_t) n);
    s->rt_list = calloc((size_t) s->ncon, sizeof(int));
    s->ytry = N_VClone(s->ycv);
    s->ystep = N_VClone(s->ycv);
    s->rt_body = calloc((size_t) n, sizeof(int));
    s->rt_inv = calloc((size_t) (s->nq > 0 ? s->nq : 1), sizeof(int));
    s->rt_comp = calloc((size_t) n * 12, sizeof(int)); /* 2 bodies x 6 components, pairs */
    s->rt_yf = calloc((size_t) s->N, sizeof(double));
    s->rt_dky = N_VNewEmpty(s->ctx);
    if (!s->glo || !s->ghi || !s->grout || !s->rootdir || !s->iroots || !s->gactive ||
        !s->rt_list || !s->ytry || !s->ystep || !s->rt_body || !s->rt_inv || !s->rt_comp ||
        !s->rt_yf || !s->rt_dky)
        return CLINK_ERR_NOMEM;
    s->rt_dky->content = s;
    s->rt_dky->ops->nvlinearcombination = rt_lincomb;
    for (int k = 0; k < s->ncon; k++)
        simc_bodies(s->sc, k, &s->rt_body[2 * k], &s->rt_body[2 * k + 1]);
    for (int i = 0; i < s->nq; i++)
        s->rt_inv[i] = -1;
    for (int i = 0; i < s->nr; i++)
        s->rt_inv[s->nr == s->nq ? i : s->red[i]] = i;
    memset(s->gactive, 1, (size_t) n); /* CVodeRootInit: all monitored */
    sim_roots_directions(s);
    return CLINK_OK;
}

void sim_roots_destroy(clink_sim *s)
{
    free(s->glo);
    free(s->ghi);
    free(s->grout);
    free(s->rootdir);
    free(s->iroots);
    free(s->gactive);
    free(s->rt_list);
    if (s->ytry)
        N_VDestroy(s->ytry);
    if (s->ystep)
        N_VDestroy(s->ystep);
    free(s->rt_body);
    free(s->rt_inv);
    free(s->rt_comp);
    free(s->rt_yf);
    if (s->rt_dky) {
        s->rt_dky->content = NULL; /* the simulation, not the vector's */
        N_VFreeEmpty(s->rt_dky);
    }
    s->rt_body = s->rt_inv = s->rt_comp = NULL;
    s->rt_yf = NULL;
    s->rt_dky = NULL;
    s->glo = s->ghi = s->grout = NULL;
    s->rootdir = s->iroots = s->rt_list = NULL;
    s->gactive = NULL;
    s->ytry = s->ystep = NULL;
}

void sim_roots_directions(clink_sim *s)
{
    simc_root_directions(s->sc, s->rootdir);
}

void sim_roots_restart(clink_sim *s, N_Vector y0)
{
    /* CVodeInit / CVodeReInit: no step yet, no root returned (gactive and the directions
       are kept, as CVODE keeps them) */
    N_VScale(1.0, y0, s->ystep);
    s->rt_fresh = 1;
    s->rt_irfnd = 0;
    s->rt_zero0 = 0;
    s->rt_tstop = 0;
}

/* 1 if function i counts for a root given its value g at the right end (cvRootfind's test) */
static int rt_sign_change(const clink_sim *s, int i, double g)
{
    return s->glo[i] * g < 0.0 && (double) s->rootdir[i] * s->glo[i] <= 0.0;
}

static int rt_zero(const clink_sim *s, int i, double g)
{
    return fabs(g) == 0.0 && (double) s->rootdir[i] * s->glo[i] <= 0.0;
}

/*
 * Scans the functions of the listed contacts at g (ghi or grout): *zroot if one is zero,
 * returns 1 if one changed sign against glo, *imax the one with the largest
 * |g / (g - glo)| (the first of equals, in the order of the functions)
 */
static int rt_scan(const clink_sim *s, int nlist, const double *g, int *zroot, int *imax)
{
    double maxfrac = 0.0;
    int sgnchg = 0;
    *zroot = 0;
    for (int j = 0; j < nlist; j++)
        for (int i = 2 * s->rt_list[j]; i < 2 * s->rt_list[j] + 2; i++) {
            if (!s->gactive[i])
                continue;
            if (fabs(g[i]) == 0.0) {
                if ((double) s->rootdir[i] * s->glo[i] <= 0.0)
                    *zroot = 1;
            } else if (rt_sign_change(s, i, g[i])) {
                double gfrac = fabs(g[i] / (g[i] - s->glo[i]));
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
static int rt_candidates(clink_sim *s)
{
    int n = 0;
    for (int k = 0; k < s->ncon; k++) {
        int take = 0;
        for (int i = 2 * k; i < 2 * k + 2; i++)
            if (!s->gactive[i] || rt_zero(s, i, s->ghi[i]) || rt_sign_change(s, i, s->ghi[i]))
                take = 1;
        if (take)
            s->rt_list[n++] = k;
    }
    return n;
}

/*
 * cvRootfind on [tlo, thi] (glo, ghi at the ends, ttol) over the listed contacts:
 * RT_FOUND with *trout the root (the right end of the last bracket, at most ttol wide, or
 * an exact zero) and iroots set, RT_NONE with *trout = thi, RT_FAIL. grout holds g at
 * *trout (the others keep g at thi); with RT_NONE, ghi does.
 */
static int rt_find(clink_sim *s, int nlist, double tlo, double thi, double ttol, double *trout)
{
    int n = s->nrt, imax = 0, zroot = 0;
    double *glo = s->glo, *ghi = s->ghi, *grout = s->grout;
    int sgnchg = rt_scan(s, nlist, ghi, &zroot, &imax);
    if (!sgnchg) {
        *trout = thi;
        if (!zroot)
            return RT_NONE; /* g(trout) is ghi (not copied to grout) */
        memcpy(grout, ghi, (size_t) n * sizeof(double));
        memset(s->iroots, 0, (size_t) n * sizeof(int));
        for (int j = 0; j < nlist; j++)
            for (int i = 2 * s->rt_list[j]; i < 2 * s->rt_list[j] + 2; i++)
                if (s->gactive[i] && rt_zero(s, i, ghi[i]))
                    s->iroots[i] = glo[i] > 0 ? -1 : 1;
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
        (void) CVodeGetDky(s->cvode, tmid, 0, s->rt_dky);
        if (sim_roots_eval(s, tmid, s->rt_yf, s->rt_list, nlist, grout) != 0)
            return RT_FAIL;
        sideprev = side;
        sgnchg = rt_scan(s, nlist, grout, &zroot, &imax);
        if (sgnchg || zroot) {
            /* a sign change in (tlo, tmid), or none but a zero at tmid: tmid the right end */
            thi = tmid;
            for (int j = 0; j < nlist; j++) {
                int i = 2 * s->rt_list[j];
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
            int i = 2 * s->rt_list[j];
            glo[i] = grout[i];
            glo[i + 1] = grout[i + 1];
        }
        side = 2;
        if (fabs(thi - tlo) <= ttol)
            break;
    }
    *trout = thi;
    memcpy(grout, ghi, (size_t) n * sizeof(double));
    memset(s->iroots, 0, (size_t) n * sizeof(int));
    for (int j = 0; j < nlist; j++)
        for (int i = 2 * s->rt_list[j]; i < 2 * s->rt_list[j] + 2; i++) {
            if (!s->gactive[i])
                continue;
            if (rt_zero(s, i, ghi[i]) || rt_sign_change(s, i, ghi[i]))
                s->iroots[i] = glo[i] > 0 ? -1 : 1;
        }
    return RT_FOUND;
}

/* the full state at tn into rt_yf, and the components the listed contacts read (their
   bodies' coordinates and rates, those in CVODE's state) into rt_comp */
static void rt_prepare(clink_sim *s, int nlist)
{
    const double *yf = sim_full(s, N_VGetArrayPointer(s->ystep), s->rt_yf);
    if (yf != s->rt_yf)
        memcpy(s->rt_yf, yf, (size_t) s->N * sizeof(double));
    int n = 0;
    for (int j = 0; j < nlist; j++)
        for (int e = 0; e < 2; e++) {
            int body = s->rt_body[2 * s->rt_list[j] + e];
            for (int d = 0; body > 0 && d < 3; d++) {
                int f = 3 * (body - 1) + d, r = s->rt_inv[f];
                if (r < 0)
                    continue; /* an angle left out: constant, as in rt_yf */
                s->rt_comp[2 * n] = r;
                s->rt_comp[2 * n + 1] = f;
                s->rt_comp[2 * n + 2] = s->nr + r;
                s->rt_comp[2 * n + 3] = s->nq + f;
                n += 2;
            }
        }
    s->rt_ncomp = n;
}

/*
 * cvRcheck3 (CV_ONE_STEP): the search over [tlo, tn] with all functions evaluated at tn on
 * CVODE's state there (ystep). RT_FOUND with ycv the state at the root and rt_tlo the
 * root, RT_NONE with rt_tlo = tn, RT_FAIL.
 */
static int rt_check3(clink_sim *s, double tn, double h)
{
    if (rt_eval_all(s, tn, s->ystep, s->ghi) != 0)
        return RT_FAIL;
    double ttol = (fabs(tn) + fabs(h)) * RT_UROUND * 100.0;
    int nlist = rt_candidates(s);
    if (nlist > 0)
        rt_prepare(s, nlist);
    double trout = tn;
    int ier = rt_find(s, nlist, s->rt_tlo, tn, ttol, &trout);
    if (ier == RT_FAIL)
        return RT_FAIL;
    const double *gr = ier == RT_NONE ? s->ghi : s->grout;
    for (int i = 0; i < s->nrt; i++)
        if (!s->gactive[i] && gr[i] != 0.0)
            s->gactive[i] = 1;
    s->rt_tlo = trout;
    if (ier == RT_NONE) {
        /* glo = g(tn): the arrays exchanged, not copied (ghi is evaluated afresh) */
        double *g = s->glo;
        s->glo = s->ghi;
        s->ghi = g;
        return RT_NONE;
    }
    /* glo = g(trout) for the contacts evaluated; the others keep g(tn): a root makes the
       next call evaluate all of them at trout again (rt_check2) */
    memcpy(s->glo, s->grout, (size_t) s->nrt * sizeof(double));
    (void) CVodeGetDky(s->cvode, trout, 0, s->ycv);
    return RT_FOUND;
}

/*
 * cvRcheck2: after a root at tlo, all functions evaluated there again; those exactly zero
 * are looked at a tolerance later. RT_FOUND (a new zero there: returned at tlo, ycv the
 * state a tolerance later, as CVODE returns it), RT_CLOSE (a function zero at both),
 * RT_NONE, RT_FAIL.
 */
static int rt_check2(clink_sim *s, double tn, double h)
{
    double tlo = s->rt_tlo;
    (void) CVodeGetDky(s->cvode, tlo, 0, s->ytry);
    if (rt_eval_all(s, tlo, s->ytry, s->glo) != 0)
        return RT_FAIL;
    int zroot = 0;
    memset(s->iroots, 0, (size_t) s->nrt * sizeof(int));
    for (int i = 0; i < s->nrt; i++)
        if (s->gactive[i] && fabs(s->glo[i]) == 0.0) {
            zroot = 1;
            s->iroots[i] = 1;
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
        (void) CVodeGetDky(s->cvode, tn, 1, s->ycv);
        N_VLinearSum(1.0, s->ytry, hratio * h, s->ycv, s->ytry);
    } else {
        (void) CVodeGetDky(s->cvode, tplus, 0, s->ytry);
    }
    if (rt_eval_all(s, tplus, s->ytry, s->ghi) != 0)
        return RT_FAIL;
    zroot = 0;
    for (int i = 0; i < s->nrt; i++) {
        if (!s->gactive[i])
            continue;
        if (fabs(s->ghi[i]) == 0.0) {
            if (s->iroots[i] == 1)
                return RT_CLOSE;
            zroot = 1;
            s->iroots[i] = 1;
        } else if (s->iroots[i] == 1) {
            s->glo[i] = s->ghi[i];
        }
    }
    N_VScale(1.0, s->ytry, s->ycv);
    return zroot ? RT_FOUND : RT_NONE;
}

/*
 * cvRcheck1: all functions at the start (t0, ystep) before the first step; those exactly
 * zero are not monitored until they move (the look-ahead, rt_check1_ahead, after the
 * step). RT_NONE or RT_FAIL.
 */
static int rt_check1(clink_sim *s, double t0)
{
    memset(s->iroots, 0, (size_t) s->nrt * sizeof(int));
    s->rt_tlo = t0;
    if (rt_eval_all(s, t0, s->ystep, s->glo) != 0)
        return RT_FAIL;
    s->rt_zero0 = 0;
    for (int i = 0; i < s->nrt; i++)
        if (fabs(s->glo[i]) == 0.0) {
            s->rt_zero0 = 1;
            s->gactive[i] = 0;
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
static int rt_check1_ahead(clink_sim *s, double t0)
{
    realtype h0 = 0.0;
    if (CVodeGetActualInitStep(s->cvode, &h0) != CV_SUCCESS || h0 == 0.0)
        return RT_NONE;
    double ttol = (fabs(t0) + fabs(h0)) * RT_UROUND * 100.0;
    double hratio = fmax(ttol / fabs(h0), 0.1);
    double tplus = t0 + hratio * h0;
    if (sim_rhs_eval(s, t0, s->ystep, s->ytry) != 0)
        return RT_FAIL;
    N_VScale(h0, s->ytry, s->ytry);
    N_VLinearSum(1.0, s->ystep, hratio, s->ytry, s->ytry);
    if (rt_eval_all(s, tplus, s->ytry, s->ghi) != 0)
        return RT_FAIL;
    for (int i = 0; i < s->nrt; i++)
        if (!s->gactive[i] && fabs(s->ghi[i]) != 0.0) {
            s->gactive[i] = 1;
            s->glo[i] = s->ghi[i];
        }
    return RT_NONE;
}

/* the current time and step of CVODE (its h is the last step until the next one starts) */
static int rt_now(clink_sim *s, realtype *tn, realtype *h)
{
    if (CVodeGetCurrentTime(s->cvode, tn) != CV_SUCCESS ||
        CVodeGetLastStep(s->cvode, h) != CV_SUCCESS)
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
static int rt_before_step(clink_sim *s, double *tret, int *rc)
{
    realtype tn = 0.0, h = 0.0;
    /* CVode's checks before a step: the rest of the last root's step */
    if (rt_now(s, &tn, &h) != 0)
        return rt_flag(rc, CV_MEM_NULL);
    double troundoff = RT_FUZZ * RT_UROUND * (fabs(tn) + fabs(h));
    int irfndp = s->rt_irfnd;
    if (s->rt_irfnd) {
        int r = rt_check2(s, tn, h);
        if (r == RT_FAIL)
            return rt_flag(rc, CV_RTFUNC_FAIL);
        if (r == RT_CLOSE) {
            snprintf(s->cvlog.msg, sizeof s->cvlog.msg, "Root found at and very near t = %g.",
                     s->rt_tlo);
            return rt_flag(rc, CV_ILL_INPUT);
        }
        if (r == RT_FOUND) {
            *tret = s->rt_tretlast = s->rt_tlo;
            return rt_flag(rc, CV_ROOT_RETURN);
        }
    }
    if (fabs(tn - s->rt_tretlast) > troundoff) {
        int r = rt_check3(s, tn, h);
        if (r == RT_FAIL)
            return rt_flag(rc, CV_RTFUNC_FAIL);
        if (r == RT_FOUND) {
            s->rt_irfnd = 1;
            *tret = s->rt_tretlast = s->rt_tlo;
            return rt_flag(rc, CV_ROOT_RETURN);
        }
        s->rt_irfnd = 0;
        if (irfndp) {
            *tret = s->rt_tretlast = tn;
            N_VScale(1.0, s->ystep, s->ycv);
            return rt_flag(rc, CV_SUCCESS);
        }
    }
    if (fabs(tn - s->rt_tretlast) > troundoff) {
        *tret = s->rt_tretlast = tn;
        N_VScale(1.0, s->ystep, s->ycv);
        return rt_flag(rc, CV_SUCCESS);
    }
    if (s->rt_tstop) {
        /* CVODE stopped at t_stop in the step of the roots returned since */
        s->rt_tstop = 0;
        (void) CVodeGetDky(s->cvode, s->t_stop, 0, s->ycv);
        *tret = s->rt_tretlast = s->t_stop;
        return rt_flag(rc, CV_TSTOP_RETURN);
    }
    return 0;
}

int sim_roots_cvode(clink_sim *s, double tout, double *tret)
{
    realtype tcv = *tret;
    if (!s->nrt) {
        int rc = CVode(s->cvode, tout, s->ycv, &tcv, CV_ONE_STEP);
        *tret = tcv;
        return rc;
    }
    realtype tn = 0.0, h = 0.0;
    if (!s->rt_fresh) {
        int rc0 = 0;
        if (rt_before_step(s, tret, &rc0))
            return rc0;
    } else {
        realtype t0 = 0.0;
        if (CVodeGetCurrentTime(s->cvode, &t0) != CV_SUCCESS)
            return CV_MEM_NULL;
        s->rt_tretlast = t0;
        if (rt_check1(s, t0) == RT_FAIL)
            return CV_RTFUNC_FAIL;
    }
    int rc = CVode(s->cvode, tout, s->ycv, &tcv, CV_ONE_STEP);
    if (rc < 0) {
        *tret = tcv;
        return rc;
    }
    if (s->rt_fresh) {
        s->rt_fresh = 0;
        realtype t0 = s->rt_tlo;
        if (s->rt_zero0 && rt_check1_ahead(s, t0) == RT_FAIL)
            return CV_RTFUNC_FAIL;
    }
    N_VScale(1.0, s->ycv, s->ystep);
    if (rt_now(s, &tn, &h) != 0)
        return CV_MEM_NULL;
    int r = rt_check3(s, tn, h);
    if (r == RT_FAIL)
        return CV_RTFUNC_FAIL;
    if (r == RT_FOUND) {
        s->rt_irfnd = 1;
        s->rt_tstop = rc == CV_TSTOP_RETURN;
        *tret = s->rt_tretlast = s->rt_tlo;
        return CV_ROOT_RETURN;
    }
    *tret = s->rt_tretlast = tcv;
    return rc;
}
