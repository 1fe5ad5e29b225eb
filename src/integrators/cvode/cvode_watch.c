/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_watch.c: what CVODE's steps are limited by, for the method switches of auto
 * (src/sim/sim_auto.c), measured as LSODA measures it (Petzold 1983): the last step's
 * size h, order q and error test ratio (the weighted norm of CVodeGetEstLocalErrors, the
 * quantity CVODE's error test compares with 1) and an estimate L of the Lipschitz
 * constant of f in the error weights w:
 *
 *   Adams  the fixed-point iteration's successive iterates y_m at one time t:
 *          L = |w (f(y_m) - f(y_m-1))| / |w (y_m - y_m-1)| (RMS norms), the largest of a
 *          step's. The iteration ycor_m+1 = gamma f(y_m) + ... is a power iteration on
 *          gamma df/dy, so the ratio approaches the spectral radius where it matters: when
 *          h L is large enough to slow the iteration (LSODA's pdest, its rate / |h l_1|).
 *          Only values the integrator computed anyway are read: nothing is evaluated.
 *   BDF    a power iteration on D J D^-1 (J = df/dy just formed, D = diag(w)) from the last
 *          iterate, CVODE_WATCH_POWER products of the sparse J: the spectral radius as
 *          sqrt(|B^2 v| / |v|) over the last two (a complex pair of the dominant modulus
 *          rotates v, its modulus stays); LSODA takes a weighted norm of J, an upper bound.
 *
 * Nothing here changes a step: with integ_config.watch = 0 none of it runs.
 */
#include "integrators/cvode/cvode_integ.h"

#include <cvode/cvode.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the products of J per power iteration */
#define CVODE_WATCH_POWER 8

int cvode_watch_create(cvode_integ *cv)
{
    size_t n = (size_t) cv->p.n;
    cvode_watch *w = &cv->w;
    w->l.y = malloc(4 * n * sizeof(double));
    w->ele = N_VClone(cv->ycv);
    if (!w->l.y || !w->ele)
        return -1;
    w->l.f = w->l.y + n;
    w->u = w->l.f + n;
    w->v = w->u + n;
    for (size_t i = 0; i < n; i++)
        w->v[i] = 1.0;
    return 0;
}

void cvode_watch_free(cvode_integ *cv)
{
    free(cv->w.l.y);
    if (cv->w.ele)
        N_VDestroy(cv->w.ele);
}

void cvode_watch_rhs(cvode_integ *cv, double t, const double *y, const double *f)
{
    integ_lip_observe(&cv->w.l, cv->w.ewt, cv->p.n, t, y, f);
}

/* u = D J D^-1 v; returns |u| / |v| (RMS) */
static double cvode_watch_product(cvode_integ *cv, SUNMatrix J, const double *v, double *u)
{
    const sunrealtype *x = SUNSparseMatrix_Data(J);
    const sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
    const sunindextype *ri = SUNSparseMatrix_IndexValues(J);
    const double *ew = cv->w.ewt;
    int n = cv->p.n;
    double nv = 0.0, nu = 0.0;
    memset(u, 0, (size_t) n * sizeof(double));
    for (int j = 0; j < n; j++) {
        double vj = v[j] / ew[j];
        nv += v[j] * v[j];
        for (sunindextype k = cp[j]; k < cp[j + 1]; k++)
            u[ri[k]] += x[k] * vj;
    }
    for (int i = 0; i < n; i++) {
        u[i] *= ew[i];
        nu += u[i] * u[i];
    }
    return nv > 0.0 ? sqrt(nu / nv) : 0.0;
}

void cvode_watch_jacobian(cvode_integ *cv, SUNMatrix J)
{
    cvode_watch *w = &cv->w;
    int n = cv->p.n;
    if (!w->ewt || n <= 0)
        return;
    double r1 = 0.0, r0 = 0.0;
    for (int k = 0; k < CVODE_WATCH_POWER; k++) {
        r0 = r1;
        r1 = cvode_watch_product(cv, J, w->v, w->u);
        if (!(r1 > 0.0) || !isfinite(r1)) { /* J v = 0, or not finite: start again next time */
            for (int i = 0; i < n; i++)
                w->v[i] = 1.0;
            w->rho = 0.0;
            return;
        }
        /* u normalised to |u| = 1 (RMS) as the next v */
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += w->u[i] * w->u[i];
        s = sqrt((double) n / s);
        for (int i = 0; i < n; i++)
            w->v[i] = w->u[i] * s;
    }
    w->rho = sqrt(r0 * r1);
}

int cvode_watch_stiffness(integ *in, integ_stiffness *st)
{
    cvode_integ *cv = (cvode_integ *) in;
    cvode_watch *w = &cv->w;
    sunrealtype h = 0.0;
    int q = 0;
    memset(st, 0, sizeof *st);
    if (!w->ele || !w->ewt || CVodeGetLastStep(cv->mem, &h) != CV_SUCCESS ||
        CVodeGetLastOrder(cv->mem, &q) != CV_SUCCESS || !(h > 0.0) || q < 1 ||
        CVodeGetEstLocalErrors(cv->mem, w->ele) != CV_SUCCESS)
        return -1;
    /* the error test's norm (cvode_setup.c: the RMS over the components that carry one) */
    const double *e = N_VGetArrayPointer(w->ele);
    double sum = 0.0;
    long moving = 0;
    for (int i = 0; i < cv->p.n; i++) {
        double p = e[i] * w->ewt[i];
        if (p != 0.0) {
            sum += p * p;
            moving++;
        }
    }
    st->h = h;
    st->order = q;
    st->err = moving ? sqrt(sum / (double) moving) : 0.0;
    if (integrator_caps(cv->c.method) & CLINK_CAP_JACOBIAN)
        st->lip = w->rho;
    else {
        st->lip = integ_lip_take(&w->l);
    }
    return 0;
}
