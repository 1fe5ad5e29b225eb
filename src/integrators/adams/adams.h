/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adams.h: the variable-step, variable-order Adams-Moulton method in Nordsieck form of
 * CVODE (SUNDIALS 6.4.1, cvode.c; Hindmarsh et al. 2005) on plain double arrays
 * (adams_core.c), and the integrator of integrator.h built on it (adams_integ.c).
 *
 * The core reproduces CVODE's Adams path as clink configures it (cvode_setup.c: the
 * fixed-point corrector without acceleration, the problem's error weights, a maximum
 * order, maximum, minimum and initial steps, a stop time, one step per call) operation
 * for operation, so that its steps, states, dense output and counters have the bits of
 * CVODE's (tests/integrators/test_adams.c). It has no root search of its own: the
 * integrator runs the one of cvode_events.c on its dense output.
 */
#ifndef CLINK_ADAMS_H
#define CLINK_ADAMS_H

#include "integrators/integrator.h"

#include <stddef.h>

/* CVODE's Adams orders: at most 12, so 13 columns of the Nordsieck array */
enum { ADAMS_QMAX = 12, ADAMS_LMAX = ADAMS_QMAX + 1 };

/* right-hand side f(t, y) into yd: 0, > 0 (recoverable), < 0 (as integ_problem.rhs) */
typedef int (*adams_rhs_fn)(void *data, double t, const double *y, double *yd);
/* error weights at y into w (the problem's weights) */
typedef void (*adams_weights_fn)(void *data, const double *y, double *w);

typedef struct adams_core {
    int n, qmax;
    adams_rhs_fn rhs;
    adams_weights_fn weights;
    void *data;
    double *zn[ADAMS_LMAX];                 /* the Nordsieck array: zn[j] = h^j y^(j) / j! at tn */
    double *ewt, *acor, *tempv, *ftemp, *y; /* CVODE's vectors of the same names */
    double *delta;                          /* the fixed-point iteration's last change */
    const double *ewt_last;                 /* the array weights was last written into */
    double tn, h, hprime, next_h, eta, hscale, hu, h0u, hin, hmin, hmax_inv;
    double etamax, etaq, etaqm1, etaqp1, saved_tq5, rl1, gamma, crate, delp, acnrm;
    double tstop, tretlast, tolsf;
    double tau[ADAMS_LMAX + 1], tq[6], l[ADAMS_LMAX];
    int q, qprime, next_q, qwait, L, qu, indx_acor, tstopset;
    long nst, nfe, ncfn, netf, nni, nnf, nhnil;
    long nscon;
    char msg[512]; /* the last error or warning, in CVODE's words */
    /* the element-wise loops for this processor (adams_kernels.h: SSE2 or AVX copies) */
    void (*k_pascal)(double *const *zn, int q, int n, int sub);
    void (*k_correct)(double *const *zn, const double *l, const double *acor, int q, int n);
    void (*k_update)(const double *f, const double *z0, const double *z1, double *acor,
                     double *delta, double *y, double rl1, double h, int n);
} adams_core;

/* the arrays (n, a maximum order qmax <= 12) and CVODE's defaults; 0 or -1 (memory) */
int adams_core_alloc(adams_core *c, int n, int qmax);
void adams_core_free(adams_core *c);
/* CVodeInit / CVodeReInit at (t0, y0): order 1, counters zero, no history */
void adams_core_reinit(adams_core *c, double t0, const double *y0);
/* CVodeSetMaxStep, CVodeSetMinStep, CVodeSetInitStep, CVodeSetStopTime (0 or CV_ILL_INPUT) */
void adams_core_set_max_step(adams_core *c, double hmax);
void adams_core_set_min_step(adams_core *c, double hmin);
int adams_core_set_stop_time(adams_core *c, double tstop);
/* CVode(CV_ONE_STEP) without root functions: CV_SUCCESS, CV_TSTOP_RETURN or a CVODE
   failure flag; *tret the time returned, yout the state there */
int adams_core_step(adams_core *c, double tout, double *yout, double *tret);
/* CVodeGetDky: the k-th derivative of the interpolant at t into dky (n); CV_SUCCESS,
   CV_BAD_K or CV_BAD_T */
int adams_core_dky(adams_core *c, double t, int k, double *dky);
/* CVodeGetDky(t, 0) for the components pairs[2 j] only (j < npairs), each written to
   out[pairs[2 j + 1]]: the same sums, in the same order */
void adams_core_dky_some(const adams_core *c, double t, const int *pairs, int npairs, double *out);

/* tests: the core and the event search of an integrator of integrator_adams_ops */
struct cvode_events;
adams_core *adams_integ_core(integ *in);
const struct cvode_events *adams_integ_events(const integ *in);

#endif
