/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_step.c: the ops of integrator.h on a CVODE instance (cvode_integ.h): one
 * step in CV_ONE_STEP mode with the events located (cvode_events.c), the dense
 * output (CVodeGetDky on the Nordsieck history of the last step), the stop time,
 * re-initialisation and the counters.
 *
 * CVodeReInit resets CVODE's counters (steps, right-hand sides, setups, nonlinear
 * iterations and failures, error test failures at once; the Jacobian and projection
 * counts at the first step after it), so they are added to `banked` before each
 * re-initialisation; the solver's counters only when CVODE stepped since the last.
 */
#include "integrators/cvode/cvode_integ.h"

#include <cvode/cvode.h>

#include <math.h>
#include <string.h>

_Static_assert(CV_SUCCESS == INTEG_SUCCESS && CV_TSTOP_RETURN == INTEG_TSTOP &&
                   CV_ROOT_RETURN == INTEG_ROOT,
               "CVODE's returns are integrator.h's");

static cvode_integ *cvode_of(integ *in)
{
    return (cvode_integ *) in;
}

static const cvode_integ *cvode_of_const(const integ *in)
{
    return (const cvode_integ *) in;
}

/* ---- the event search's host (cvode_events.h): CVODE's calls ---------------- */

/* the vectors of a Nordsieck history at most: order 12 (Adams) and 1 */
#define CVODE_MAX_NORDSIECK 13

/*
 * CVodeGetDky's sum for the components a search reads only: the operation
 * N_VLinearCombination of the vector dky (its content the integrator), z = c[0] X[0] +
 * c[1] X[1] + ... summed in that order as cvode_vector.c sums every component (the same
 * bits), written at the components' places in the search's state.
 */
static int cvode_dky_lincomb(int nvec, sunrealtype *c, N_Vector *X, N_Vector z)
{
    cvode_integ *cv = z->content;
    const double *x[CVODE_MAX_NORDSIECK];
    if (nvec > CVODE_MAX_NORDSIECK)
        return -1;
    for (int k = 0; k < nvec; k++)
        x[k] = ode_data(X[k]);
    for (int j = 0; j < cv->dky_npairs; j++) {
        int r = cv->dky_pairs[2 * j];
        double acc = c[0] * x[0][r];
        for (int k = 1; k < nvec; k++)
            acc += c[k] * x[k][r];
        cv->dky_state[cv->dky_pairs[2 * j + 1]] = acc;
    }
    return 0;
}

static int cvode_host_now(void *data, double *tn, double *h)
{
    cvode_integ *cv = data;
    sunrealtype t = 0.0, hl = 0.0;
    if (CVodeGetCurrentTime(cv->mem, &t) != CV_SUCCESS ||
        (h && CVodeGetLastStep(cv->mem, &hl) != CV_SUCCESS))
        return -1;
    *tn = t;
    if (h)
        *h = hl;
    return 0;
}

static int cvode_host_init_step(void *data, double *h0)
{
    cvode_integ *cv = data;
    sunrealtype h = 0.0;
    int rc = CVodeGetActualInitStep(cv->mem, &h);
    *h0 = h;
    return rc == CV_SUCCESS ? 0 : -1;
}

static int cvode_host_dense(void *data, double t, int k, double *out)
{
    cvode_integ *cv = data;
    return CVodeGetDky(cv->mem, t, k, out == cv->base.y ? cv->ycv : cv->ytry);
}

static void cvode_host_dense_some(void *data, double t, const int *pairs, int npairs, double *state)
{
    cvode_integ *cv = data;
    cv->dky_pairs = pairs;
    cv->dky_npairs = npairs;
    cv->dky_state = state;
    (void) CVodeGetDky(cv->mem, t, 0, cv->dky);
}

static int cvode_host_one_step(void *data, double tout, double *tret)
{
    cvode_integ *cv = data;
    sunrealtype t = *tret;
    int rc = CVode(cv->mem, tout, cv->ycv, &t, CV_ONE_STEP);
    *tret = t;
    return rc;
}

void cvode_events_host(cvode_integ *cv)
{
    events_host host = {
        .data = cv,
        .now = cvode_host_now,
        .init_step = cvode_host_init_step,
        .dense = cvode_host_dense,
        .dense_some = cvode_host_dense_some,
        .one_step = cvode_host_one_step,
    };
    cvode_events_init(&cv->ev, &cv->p, cv->base.y, &host, &cv->t_stop, cv->log.msg,
                      sizeof cv->log.msg);
}

clink_status cvode_events_attach(cvode_integ *cv)
{
    if (cvode_events_create(&cv->ev) != CLINK_OK)
        return CLINK_ERR_NOMEM;
    /* ytry's storage as a vector of CVODE's, with clink's kernels (as a clone of ycv) */
    cv->ytry = N_VMake_Serial(cv->p.n, cv->ev.ytry, cv->ctx);
    cv->dky = N_VNewEmpty(cv->ctx);
    if (!cv->ytry || !cv->dky)
        return CLINK_ERR_NOMEM;
    ode_vector_use_fast_ops(cv->ytry);
    cv->ytry->ops->nvwrmsnorm = cvode_wrms_moving;
    cv->dky->content = cv;
    cv->dky->ops->nvlinearcombination = cvode_dky_lincomb;
    return CLINK_OK;
}

void cvode_events_detach(cvode_integ *cv)
{
    if (cv->ytry)
        N_VDestroy(cv->ytry);
    if (cv->dky) {
        cv->dky->content = NULL; /* the integrator, not the vector's */
        N_VFreeEmpty(cv->dky);
    }
    cv->ytry = cv->dky = NULL;
    cvode_events_destroy(&cv->ev);
}

/* ---- the ops ---------------------------------------------------------------- */

static int cvode_set_stop_time(integ *in, double t_stop)
{
    cvode_integ *cv = cvode_of(in);
    int rc = CVodeSetStopTime(cv->mem, t_stop);
    if (rc == CV_SUCCESS) {
        cv->tstop_set = 1;
        cv->t_stop = t_stop;
    }
    return rc;
}

static int cvode_step(integ *in, double tout, double *tret)
{
    cvode_integ *cv = cvode_of(in);
    int rc = cvode_events_step(&cv->ev, tout, tret);
    if (rc >= 0)
        cv->at_reinit = 0;
    return rc;
}

static const int *cvode_events_found(const integ *in)
{
    return cvode_of_const(in)->ev.iroots;
}

static void cvode_events_changed(integ *in)
{
    cvode_events_directions(&cvode_of(in)->ev);
}

/*
 * 1 when the dense output at t is, bit for bit, CVODE's state at the end of its last
 * step (ystep). At t = tn, CVodeGetDky sums c_q zn[q] + ... + c_1 zn[1] + zn[0] with
 * c_j = s^j, s = (t - tn) / h = 0: the zero products sum to a signed zero z, and
 * z + zn[0] is zn[0] itself wherever zn[0] is not a zero; a zero of zn[0] comes back as
 * +0, or as -0 only when it was -0 and z is -0. So with no -0 in zn[0] (the history is
 * finite after a successful step: its error test fails otherwise) the sum is zn[0],
 * which CV_ONE_STEP copied to ystep unrounded. A probe of the rows at each step's end
 * (sim_output.c) then costs a copy instead of the sum over the whole history.
 */
static int cvode_dense_at_end(const cvode_integ *cv, double t)
{
    if (!cv->ev.yend || t != cv->ev.yend_t)
        return 0;
    const double *y = cv->ev.ystep;
    for (sunindextype i = 0; i < cv->p.n; i++)
        if (y[i] == 0.0 && signbit(y[i]))
            return 0;
    return 1;
}

/*
 * The dense output at t into ycv. Besides the step's end, the last sum is kept (ydense): it
 * depends on CVODE's history, order, step and time alone, which only a step or a
 * re-initialisation changes (both clear it), so a second call at the same t (a row's
 * probe, then its output state) copies it back.
 */
static int cvode_dense(integ *in, double t, int k)
{
    cvode_integ *cv = cvode_of(in);
    size_t bytes = (size_t) cv->p.n * sizeof(double);
    if (k == 0 && cvode_dense_at_end(cv, t)) {
        memcpy(NV_DATA_S(cv->ycv), cv->ev.ystep, bytes);
        return CV_SUCCESS;
    }
    if (k == 0 && cv->ev.dense && t == cv->ev.tdense) {
        memcpy(NV_DATA_S(cv->ycv), cv->ev.ydense, bytes);
        return CV_SUCCESS;
    }
    int rc = CVodeGetDky(cv->mem, t, k, cv->ycv);
    if (rc == CV_SUCCESS && k == 0 && cv->ev.ydense) {
        memcpy(cv->ev.ydense, NV_DATA_S(cv->ycv), bytes);
        cv->ev.tdense = t;
        cv->ev.dense = 1;
    }
    return rc;
}

/* the counters as they are, the solver's only when with_solver */
static void cvode_counters(const cvode_integ *cv, ode_counters *c)
{
    ode_counters_get(cv->mem, cv->LS != NULL, cv->projection, c);
}

static int cvode_reinit(integ *in, double t, const double *y)
{
    cvode_integ *cv = cvode_of(in);
    ode_counters c;
    cvode_counters(cv, &c);
    ode_counters_add(&cv->banked, &c, !cv->at_reinit);
    cv->ev.yend = cv->ev.dense = 0; /* CVODE's state changes: no dense output kept */
    if (y != cv->base.y)
        memcpy(cv->base.y, y, (size_t) cv->p.n * sizeof(double));
    int rc = CVodeReInit(cv->mem, t, cv->ycv);
    if (rc == CV_SUCCESS && cv->tstop_set)
        rc = CVodeSetStopTime(cv->mem, cv->t_stop);
    if (rc != CV_SUCCESS)
        return rc;
    if (cv->p.nevents)
        cvode_events_restart(&cv->ev, cv->base.y);
    cv->at_reinit = 1;
    return CV_SUCCESS;
}

static void cvode_set_counters(integ *in, const integ_stats *st)
{
    cvode_integ *cv = cvode_of(in);
    ode_counters c;
    cvode_counters(cv, &c);
    /* the bank is what stats adds to CVODE's own counters; the solver's counters restart at
       the first step after a re-initialisation */
    ode_counters_bank(&cv->banked, &c, st, !cv->at_reinit);
}

static int cvode_now(const integ *in, double *tn, double *h)
{
    const cvode_integ *cv = cvode_of_const(in);
    sunrealtype t = 0.0, hl = 0.0;
    int rc = CVodeGetCurrentTime(cv->mem, &t);
    if (rc == CV_SUCCESS && h)
        rc = CVodeGetLastStep(cv->mem, &hl);
    *tn = t;
    if (h)
        *h = hl;
    return rc;
}

static long cvode_steps(const integ *in)
{
    const cvode_integ *cv = cvode_of_const(in);
    long n = 0;
    if (CVodeGetNumSteps(cv->mem, &n) != CV_SUCCESS)
        n = 0;
    return cv->banked.steps + n;
}

static void cvode_stats(const integ *in, integ_stats *st)
{
    const cvode_integ *cv = cvode_of_const(in);
    ode_counters c;
    cvode_counters(cv, &c);
    ode_counters_stats(&cv->banked, &c, st);
}

static integ_failure cvode_failure(integ *in, int rc, double *h, char *flag, size_t n,
                                   const char **cause)
{
    cvode_integ *cv = cvode_of(in);
    ode_log_drain(cv->ctx, &cv->log);
    sunrealtype hc = 0.0;
    if (CVodeGetCurrentStep(cv->mem, &hc) != CV_SUCCESS)
        hc = 0.0;
    *h = hc;
    ode_flag_name(rc, flag, n);
    *cause = cv->log.msg;
    return ode_failure_kind(rc);
}

const integ_ops integrator_cvode_ops = {
    .name = "CVODE",
    .create = cvode_create,
    .set_limits = cvode_set_limits,
    .set_stop_time = cvode_set_stop_time,
    .step = cvode_step,
    .events_found = cvode_events_found,
    .events_changed = cvode_events_changed,
    .dense = cvode_dense,
    .reinit = cvode_reinit,
    .set_counters = cvode_set_counters,
    .now = cvode_now,
    .steps = cvode_steps,
    .stats = cvode_stats,
    .failure = cvode_failure,
    .stiffness = cvode_watch_stiffness,
    .code_name = ode_flag_name,
    .destroy = cvode_destroy,
};
