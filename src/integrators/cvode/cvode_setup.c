/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_setup.c: the CVODE integrator's creation (integrator.h, cvode_integ.h).
 *
 * Methods: Adams-Moulton with the fixed-point nonlinear solver; BDF with Newton
 * and a sparse direct solver (SUNLinSol_KLU) on the Jacobian df/dy, whose pattern
 * is [0 I; dv'/dq dv'/dv] plus the diagonal of the rows after the rates (the
 * problem's energies). The lower blocks hold the rows the problem says may be
 * nonzero (jacobian_pattern: for the mechanism, what its joints, contacts and loads
 * couple, system_pattern.c), so that J grows with the couplings rather than as the
 * square of the coordinates; they come from the problem (system_jacobian: analytic,
 * or forward differences); the upper identity is exact; the columns after the rates
 * hold the rows the problem lists above their diagonals (jacobian_tail_pattern: for the
 * mechanism, d v' / d z of the friction states, the bristle forces' effect on the
 * accelerations) and their diagonals (jacobian_diagonal), or zero. A new pattern (its
 * version changed) is taken at the next Jacobian, with KLU's symbolic analysis redone.
 * A problem that solves the Newton system in its own structure (integ_problem.newton: a
 * mechanism of 100 bodies or more, in the saddle form of its accelerations) gets CVODE's
 * matrix and linear solver from cvode_newton.c instead, J never formed.
 * Drift: projection through CVodeSetProjFn (BDF only; SUNDIALS 6.4 returns CV_ILL_INPUT
 * for Adams); the error estimate is handed to the projection (CVodeSetProjErrEst), which
 * projects it near singular positions only and leaves it whole elsewhere
 * (dyn_project_step).
 *
 * Adams order: at most CVODE_ADAMS_EVENT_ORDER = 6 (CVODE's 12 otherwise) when the problem's
 * integration crosses its events (rough_events: a mechanism's contacts; the laboratory's
 * single impact runs from onset to separation and never crosses one). A contact's force of the
 * Hertz family, K delta^n (1 + c delta_dot) with n = 1.5, is continuous with its first derivatives
 * at onset and separation but its second derivative in delta is unbounded there (delta^-1/2): the
 * coordinates' fourth derivative is, and the differences of order up to 13 an order-12 step rests
 * on span such points. Measured on the frictionless clearance slider-crank without gravity (bench/
 * slider_crank_defaults.py's case, onsets within 1 us of its reference): with order 12
 * rtol 1e-8 and 3.16e-9 met 15 and 26 onsets and the robust rung was 3.16e-10 (35 494
 * steps); with order 6 every rung from 1e-8 meets 26 (23 666 steps at 1e-8), each step
 * costs fewer instructions (CVODE's prediction adds q (q + 1) / 2 vectors), and the granular
 * chain takes as many right-hand sides (N = 70: 1 962 against 2 074; N = 700: 6 838 against
 * 6 923); at the chain's own rtol 1e-8 it costs 7.6% more instructions (docs/kernel.md).
 * Orders 5 and 4 met the target from 1e-8 as well with more steps (25 495, 27 609).
 *
 * Error test: the problem's weights (CVodeWFtolerances) and the weighted root mean
 * square over the components that carry an error (cvode_wrms_moving): the
 * components of exactly zero weighted error (a coordinate that has not changed so
 * far, such as a bead ahead of the wave of a chain, or the dissipation of an elastic
 * contact) are left out of the mean. Over the plain WRMS of all N components the
 * error of the few that move is divided by sqrt(N / moving), so that the steps grew
 * with the number of bodies at rest (the 7000-bead chain took longer steps than the
 * 70-bead one and missed 4 of its 180 contact events); with every component moving
 * it is the plain WRMS.
 *
 * CVODE's vectors are clones of ycv, whose element-wise kernels are cvode_vector.c's
 * (the same bits as SUNDIALS' serial ones, faster).
 */
#include "integrators/cvode/cvode_integ.h"
#include "integrators/integ_common.h"

#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the highest Adams order with events (file comment) */
#define CVODE_ADAMS_EVENT_ORDER 6

/* one CVODE call checked: returns 0 or sets the message and returns CLINK_ERR_SOLVER */
#define CV_CHECK(call)                                                                             \
    do {                                                                                           \
        int cv_rc_ = (call);                                                                       \
        if (cv_rc_ < 0) {                                                                          \
            char flag_[64];                                                                        \
            snprintf(msg, n, "CVODE: %s failed with %d (%s)", #call, cv_rc_,                       \
                     ode_flag_name(cv_rc_, flag_, sizeof flag_));                                  \
            return cv_rc_ == CV_MEM_FAIL ? CLINK_ERR_NOMEM : CLINK_ERR_SOLVER;                     \
        }                                                                                          \
    } while (0)

/* ---- callbacks ------------------------------------------------------------ */

static int cvode_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *ud)
{
    cvode_integ *cv = ud;
    int rc = cv->p.rhs(cv->p.data, t, ode_data(y), ode_data(ydot));
    if (rc == 0 && cv->c.watch) /* observed, not changed (cvode_watch.c) */
        cvode_watch_rhs(cv, t, ode_data(y), ode_data(ydot));
    return rc;
}

static int cvode_ewt(N_Vector y, N_Vector ewt, void *ud)
{
    cvode_integ *cv = ud;
    cv->p.weights(cv->p.data, ode_data(y), ode_data(ewt));
    cv->w.ewt = ode_data(ewt); /* CVODE's own vector, for cvode_watch.c */
    return 0;
}

/*
 * The error norm (see the file comment): sum of p_i^2 over the components whose p_i = x_i w_i
 * is not zero, in the order of i, and their count. The square of a zero p_i is +0, whose sum
 * with the partial sum (never -0: it starts at +0 and adds squares) leaves it unchanged, so
 * every square is added and only the count tests p_i; with SSE2 two components per step
 * (their products and squares in one register each, added to the sum one after the other in
 * order, the count from the lanes' comparison): the same bits as the one-by-one loop.
 */
sunrealtype cvode_wrms_moving(N_Vector x, N_Vector w)
{
    return integ_wrms_moving(ode_data(x), ode_data(w), (long) ode_length(x));
}

/* the rows above the trailing diagonals (the problem's, or none) into cv->tptr, cv->trows and
   their values' room; 0, or -1 when memory runs out */
static int cvode_tail_pattern(cvode_integ *cv)
{
    int nt = cv->p.n - 2 * cv->p.npos;
    cv->tptr = NULL;
    cv->trows = NULL;
    if (cv->p.jacobian_diagonal && nt > 0 && !cv->diag &&
        !(cv->diag = malloc((size_t) nt * sizeof(double))))
        return -1;
    if (!cv->p.jacobian_tail_pattern || nt <= 0)
        return 0;
    cv->tptr = cv->p.jacobian_tail_pattern(cv->p.data, &cv->trows);
    long need = cv->tptr ? cv->tptr[nt] : 0;
    if (need > cv->tcap) {
        double *v = realloc(cv->tvals, (size_t) need * sizeof(double));
        if (!v)
            return -1;
        cv->tvals = v;
        cv->tcap = need;
    }
    return 0;
}

/* the pattern of the sparse Jacobian (see the file comment) into J, reallocated to its size;
   0, or -1 when memory runs out */
static int cvode_jac_pattern(cvode_integ *cv, SUNMatrix J)
{
    int nq = cv->p.npos, N = cv->p.n;
    const int *rows = NULL;
    const long *cptr = cv->p.jacobian_pattern(cv->p.data, &rows, &cv->jversion);
    if (!cptr || cvode_tail_pattern(cv) != 0)
        return -1;
    long ntail = cv->tptr ? cv->tptr[N - 2 * nq] : 0;
    sunindextype nnz = (sunindextype) (2 * (cptr[nq] + nq) + (N - 2 * nq) + ntail);
    if (SUNSparseMatrix_NNZ(J) != nnz && SUNSparseMatrix_Reallocate(J, nnz) != 0)
        return -1;
    sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
    sunindextype *ri = SUNSparseMatrix_IndexValues(J);
    sunindextype p = 0;
    for (int j = 0; j < N; j++) {
        cp[j] = p;
        if (j < 2 * nq) {
            int c = j < nq ? j : j - nq;
            ri[p++] = c; /* the diagonal (zero) or dq'/dv = I */
            cv->jstart[j] = (long) p;
            for (long k = cptr[c]; k < cptr[c + 1]; k++)
                ri[p++] = nq + rows[k];
        } else {
            /* the other columns: the problem's rate rows (d v' / d z), then the diagonal */
            for (long k = cv->tptr ? cv->tptr[j - 2 * nq] : 0;
                 cv->tptr && k < cv->tptr[j - 2 * nq + 1]; k++)
                ri[p++] = nq + cv->trows[k];
            ri[p++] = j;
        }
    }
    cp[N] = p;
    return 0;
}

/* the trailing columns' entries: the problem's rows above the diagonal (cv->tvals) and the
   diagonal, the last entry of each column */
static void cvode_jac_tail(cvode_integ *cv, sunrealtype *x, const sunindextype *cp)
{
    int nq = cv->p.npos, N = cv->p.n;
    cv->p.jacobian_diagonal(cv->p.data, cv->diag);
    for (int j = 2 * nq; j < N; j++) {
        sunindextype at = cp[j];
        for (long k = cv->tptr ? cv->tptr[j - 2 * nq] : 0; cv->tptr && k < cv->tptr[j - 2 * nq + 1];
             k++)
            x[at++] = cv->tvals[k];
        x[cp[j + 1] - 1] = cv->diag[j - 2 * nq];
    }
}

/* the Jacobian into the pattern (asked again when the problem's changed): the upper blocks
   (0 and I) here, the lower ones from the problem; the other columns the problem's rows
   above their diagonals and the diagonals, or zero */
static int cvode_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
                     N_Vector t2, N_Vector t3)
{
    (void) t2;
    (void) t3;
    cvode_integ *cv = ud;
    int nq = cv->p.npos, N = cv->p.n;
    long version = cv->jversion;
    /* CVODE zeroes the column pointers (SUNMatZero): the pattern is written each time */
    if (cvode_jac_pattern(cv, J) != 0)
        return -1;
    /* a new pattern (the host's forces came or went): KLU's symbolic analysis redone */
    if (version != cv->jversion &&
        SUNLinSol_KLUReInit(cv->LS, J, SUNSparseMatrix_NNZ(J), SUNKLU_REINIT_FULL) != 0)
        return -1;
    sunrealtype *x = SUNSparseMatrix_Data(J);
    sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
    for (sunindextype k = 0; k < cp[N]; k++)
        x[k] = 0.0;
    for (int j = nq; j < 2 * nq; j++)
        x[cp[j]] = 1.0;
    int rc = 0;
    /* the trailing columns' rows first: the problem re-evaluates at y for the rest */
    if (cv->tptr && cv->tptr[N - 2 * nq] > 0 && cv->p.jacobian_tail)
        rc = cv->p.jacobian_tail(cv->p.data, t, N_VGetArrayPointer(y), N_VGetArrayPointer(fy),
                                 N_VGetArrayPointer(t1), cv->tvals);
    if (rc == 0)
        rc = cv->p.jacobian(cv->p.data, t, N_VGetArrayPointer(y), N_VGetArrayPointer(fy),
                            N_VGetArrayPointer(t1), x, cv->jstart);
    if (rc == 0 && cv->p.jacobian_diagonal)
        cvode_jac_tail(cv, x, cp);
    if (rc == 0 && cv->c.watch)
        cvode_watch_jacobian(cv, J);
    return rc;
}

int cvode_jacobian_dense(integ *in, double t, const double *y, double *out)
{
    cvode_integ *cv = (cvode_integ *) in;
    int N = cv->p.n, rc = -1;
    if (!cv->J || cv->newton)
        return -1; /* no J formed with the problem's Newton solve */
    N_Vector yv = N_VClone(cv->ycv), fv = N_VClone(cv->ycv), tv = N_VClone(cv->ycv);
    if (yv && fv && tv) {
        memcpy(N_VGetArrayPointer(yv), y, (size_t) N * sizeof(double));
        rc = cvode_rhs(t, yv, fv, cv);
        if (rc == 0)
            rc = cvode_jac(t, yv, fv, cv->J, cv, tv, NULL, NULL);
    }
    if (rc == 0) {
        const sunrealtype *x = SUNSparseMatrix_Data(cv->J);
        const sunindextype *cp = SUNSparseMatrix_IndexPointers(cv->J);
        const sunindextype *ri = SUNSparseMatrix_IndexValues(cv->J);
        memset(out, 0, (size_t) N * (size_t) N * sizeof(double));
        for (int j = 0; j < N; j++)
            for (sunindextype k = cp[j]; k < cp[j + 1]; k++)
                out[(size_t) j * N + ri[k]] += x[k];
    }
    if (yv)
        N_VDestroy(yv);
    if (fv)
        N_VDestroy(fv);
    if (tv)
        N_VDestroy(tv);
    return rc;
}

static int cvode_proj(sunrealtype t, N_Vector ycur, N_Vector corr, sunrealtype eps, N_Vector err,
                      void *ud)
{
    (void) eps;
    cvode_integ *cv = ud;
    return cv->p.project(cv->p.data, t, N_VGetArrayPointer(ycur), N_VGetArrayPointer(corr),
                         err ? N_VGetArrayPointer(err) : NULL);
}

/* ---- set-up --------------------------------------------------------------- */

/* BDF's projection onto the problem's constraints, when it has one */
static clink_status cvode_setup_projection(cvode_integ *cv, char *msg, size_t n)
{
    if (cv->p.project) {
        CV_CHECK(CVodeSetProjFn(cv->mem, cvode_proj));
        /* the estimate reaches the projection, which decides per step whether to project
           it; left whole, CVODE's error test is the one without error projection */
        CV_CHECK(CVodeSetProjErrEst(cv->mem, SUNTRUE));
        cv->projection = 1;
    }
    return CLINK_OK;
}

/* the nonlinear solver: fixed point (Adams) or Newton with KLU on the sparse Jacobian (BDF) */
static clink_status cvode_setup_solvers(cvode_integ *cv, char *msg, size_t n)
{
    if (!(integrator_caps(cv->c.method) & CLINK_CAP_JACOBIAN)) {
        cv->NLS = SUNNonlinSol_FixedPoint(cv->ycv, 0, cv->ctx);
        if (!cv->NLS) {
            snprintf(msg, n, "SUNNonlinSol_FixedPoint failed");
            return CLINK_ERR_NOMEM;
        }
        CV_CHECK(CVodeSetNonlinearSolver(cv->mem, cv->NLS));
        /* with events crossed where the force is C^1 only (contacts: onset and separation)
           at most order CVODE_ADAMS_EVENT_ORDER (see the file comment) */
        if (cv->p.nevents > 0 && cv->p.rough_events)
            CV_CHECK(CVodeSetMaxOrd(cv->mem, CVODE_ADAMS_EVENT_ORDER));
        return CLINK_OK;
    }
    if (cv->p.newton) {
        /* the problem's own Newton solve (cvode_newton.c) */
        int rc = cvode_newton_attach(cv, msg, n);
        if (rc != 0)
            return rc == -1 ? CLINK_ERR_NOMEM : CLINK_ERR_SOLVER;
        return cvode_setup_projection(cv, msg, n);
    }
    int nr = cv->p.npos, N = cv->p.n;
    const int *rows = NULL;
    long version = 0;
    const long *cptr = cv->p.jacobian_pattern(cv->p.data, &rows, &version);
    cv->jstart = malloc((2 * (size_t) nr + 1) * sizeof(long));
    /* in 64 bits: the coupled rows of each position and velocity column, the diagonal */
    long long nnz = cptr ? 2LL * ((long long) cptr[nr] + nr) + (N - 2LL * nr) : 0;
    double bytes = (double) nnz * (double) (sizeof(sunrealtype) + sizeof(sunindextype));
    cv->J = cptr && cv->jstart && nnz <= (long long) (SIZE_MAX / 16)
                ? SUNSparseMatrix(N, N, (sunindextype) nnz, CSC_MAT, cv->ctx)
                : NULL;
    if (!cv->J || cvode_jac_pattern(cv, cv->J) != 0) {
        snprintf(msg, n,
                 "out of memory: the BDF Newton Jacobian (%d x %d, %lld entries, %.3g GB, its "
                 "pattern the couplings of the %d coordinates through joints, contacts and "
                 "loads) cannot be allocated: method=\"adams\" (drift \"baumgarte\" or "
                 "\"none\") needs none",
                 N, N, nnz, bytes / 1e9, nr);
        return CLINK_ERR_NOMEM;
    }
    cv->LS = SUNLinSol_KLU(cv->ycv, cv->J, cv->ctx);
    if (!cv->LS) {
        snprintf(msg, n, "SUNLinSol_KLU failed");
        return CLINK_ERR_NOMEM;
    }
    CV_CHECK(CVodeSetLinearSolver(cv->mem, cv->LS, cv->J));
    CV_CHECK(CVodeSetJacFn(cv->mem, cvode_jac));
    return cvode_setup_projection(cv, msg, n);
}

clink_status cvode_set_limits(integ *in, const integ_config *c, char *msg, size_t n)
{
    cvode_integ *cv = (cvode_integ *) in;
    if (cv->p.weights)
        CV_CHECK(CVodeWFtolerances(cv->mem, cvode_ewt));
    else
        CV_CHECK(CVodeSStolerances(cv->mem, c->rtol, c->atol));
    /* the caller steps one at a time and counts the steps itself */
    CV_CHECK(CVodeSetMaxNumSteps(cv->mem, -1));
    if (c->max_step > 0.0)
        CV_CHECK(CVodeSetMaxStep(cv->mem, c->max_step));
    /* an explicit minimum step bounds CVODE's own steps (its first one included); steps
       shortened to land on a root or a stop time are left to the caller's guard */
    if (c->min_step > 0.0)
        CV_CHECK(CVodeSetMinStep(cv->mem, c->min_step));
    if (c->first_step > 0.0) /* a re-creation that continues a run (src/sim/sim_window.c) */
        CV_CHECK(CVodeSetInitStep(cv->mem, c->first_step));
    return CLINK_OK;
}

/* the context and CVODE's vector, its kernels and norm replaced */
static clink_status cvode_vectors(cvode_integ *cv, const double *y0, char *msg, size_t n)
{
    if (SUNContext_Create(CLINK_SUN_COMM_NULL, &cv->ctx) != 0) {
        snprintf(msg, n, "SUNContext_Create failed");
        return CLINK_ERR_SOLVER;
    }
    cv->ycv = N_VNew_Serial(cv->p.n, cv->ctx);
    if (!cv->ycv) {
        snprintf(msg, n, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    ode_vector_use_fast_ops(cv->ycv);
    cv->ycv->ops->nvwrmsnorm = cvode_wrms_moving;
    cv->base.y = N_VGetArrayPointer(cv->ycv);
    memcpy(cv->base.y, y0, (size_t) cv->p.n * sizeof(double));
    return CLINK_OK;
}

/* CVODE: method, tolerances, limits, solvers, the event search */
static clink_status cvode_setup(cvode_integ *cv, double t0, const double *y0, char *msg, size_t n)
{
    int flag;
    const char *call;
    clink_status st = cvode_vectors(cv, y0, msg, n);
    if (st != CLINK_OK)
        return st;
    (void) ode_log_keep_warnings(cv->ctx, &cv->log); /* else dropped: SUNDIALS 7 only */
    cv->mem = ode_create(cv->ctx, (integrator_caps(cv->c.method) & CLINK_CAP_JACOBIAN) != 0,
                         cvode_rhs, t0, cv->ycv, cv, &cv->log, &flag, &call);
    if (!cv->mem) {
        char name[64];
        snprintf(msg, n, "CVODE: %s failed with %d (%s)", call, flag,
                 ode_flag_name(flag, name, sizeof name));
        return flag == CV_MEM_FAIL ? CLINK_ERR_NOMEM : CLINK_ERR_SOLVER;
    }
    st = cvode_set_limits(&cv->base, &cv->c, msg, n);
    if (st == CLINK_OK && cv->c.watch && cvode_watch_create(cv) != 0) {
        snprintf(msg, n, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    if (st == CLINK_OK)
        st = cvode_setup_solvers(cv, msg, n);
    cvode_events_host(cv); /* also without events: the steps go through it */
    if (st != CLINK_OK || !cv->p.nevents)
        return st;
    /* no CVodeRootInit: the events are located by cvode_events.c */
    if (cvode_events_attach(cv) != CLINK_OK) {
        snprintf(msg, n, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    cvode_events_restart(&cv->ev, cv->base.y);
    return CLINK_OK;
}

void cvode_destroy(integ *in)
{
    cvode_integ *cv = (cvode_integ *) in;
    if (!cv)
        return;
    if (cv->mem)
        CVodeFree(&cv->mem);
    if (cv->LS)
        SUNLinSolFree(cv->LS);
    if (cv->NLS)
        SUNNonlinSolFree(cv->NLS);
    if (cv->J)
        SUNMatDestroy(cv->J);
    free(cv->jstart);
    free(cv->tvals);
    free(cv->diag);
    cvode_watch_free(cv);
    if (cv->ycv)
        N_VDestroy(cv->ycv);
    cvode_events_detach(cv);
    ode_log_close(&cv->log);
    if (cv->ctx)
        SUNContext_Free(&cv->ctx);
    free(cv);
}

integ *cvode_create(const integ_problem *p, const integ_config *c, double t0, const double *y0,
                    clink_status *st, char *msg, size_t n)
{
    cvode_integ *cv = calloc(1, sizeof *cv);
    if (!cv) {
        snprintf(msg, n, "clink_sim_create: out of memory");
        *st = CLINK_ERR_NOMEM;
        return NULL;
    }
    cv->base.ops = &integrator_cvode_ops;
    cv->p = *p;
    cv->c = *c;
    *st = cvode_setup(cv, t0, y0, msg, n);
    if (*st != CLINK_OK) {
        cvode_destroy(&cv->base);
        return NULL;
    }
    return &cv->base;
}
