/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_integ.h: the CVODE integrator's instance, shared by its files:
 *
 *   cvode_setup.c   creation: CVODE, tolerances and limits, the nonlinear and linear
 *                   solvers (KLU on the sparse Jacobian), projection, the error norm
 *   cvode_step.c    the ops of integrator.h on a created instance
 *   cvode_events.c  the event search, a mirror of CVODE 6.4's
 *   cvode_vector.c  the serial vector kernels compiled with clink
 *   cvode_ode.c     creation with the error handler, flag names, counters
 *   cvode_watch.c   what the steps are limited by (integ_config.watch, the `stiffness` op)
 *   cvode_newton.c  BDF's Newton system in the problem's own structure (integ_problem.newton)
 */
#ifndef CLINK_CVODE_INTEG_H
#define CLINK_CVODE_INTEG_H

#include "integrators/integrator.h"
#include "integrators/cvode/cvode_compat.h"
#include "integrators/cvode/cvode_events.h"
#include "integrators/cvode/cvode_ode.h"
#include "integrators/integ_common.h"

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>

/* the estimates of what the steps are limited by (cvode_watch.c) */
typedef struct cvode_watch {
    const double *ewt; /* CVODE's error weights, as cvode_ewt last wrote them */
    integ_lip l;       /* Adams: the fixed-point iteration's estimate (l.y: the allocation) */
    double *u, *v;     /* n each: the power iteration's vectors */
    double rho;        /* 1/s: the spectral radius of the last Jacobian (BDF), 0: none */
    N_Vector ele;      /* the local error estimate of the last step */
} cvode_watch;

typedef struct cvode_integ {
    integ base; /* base.y: the data of ycv */
    integ_problem p;
    integ_config c;
    SUNContext ctx;
    void *mem;
    N_Vector ycv; /* CVODE's returns (n) */
    SUNMatrix J;
    long *jstart;     /* 2 npos: where column j's problem entries start in J's data */
    long jversion;    /* the problem's pattern version J holds */
    const long *tptr; /* the problem's rows above the trailing diagonals (jacobian_tail_pattern) */
    const int *trows; /* or NULL, as J holds them */
    double *tvals;    /* their values (tcap), */
    long tcap;        /* allocated, */
    double *diag;     /* and the trailing diagonal (n - 2 npos) */
    SUNLinearSolver LS;
    SUNNonlinearSolver NLS;
    ode_log log;         /* the last message of CVODE */
    ode_counters banked; /* CVODE's counters summed before each re-initialisation */
    int at_reinit;       /* re-initialised and not stepped since */
    int tstop_set;       /* CVodeSetStopTime in force */
    double t_stop;       /* s */
    int projection;      /* CVodeSetProjFn in force */
    int newton;          /* BDF's Newton system solved by the problem (cvode_newton.c) */
    cvode_events ev;     /* the event search (cvode_events.c) on CVODE (cvode_step.c) */
    N_Vector ytry;       /* the search's ytry as CVODE's vector (CVodeGetDky into it) */
    N_Vector dky;        /* CVodeGetDky's output for the search's partial sums: its linear
                            combination writes the components dky_pairs lists only */
    const int *dky_pairs;
    int dky_npairs;
    double *dky_state;
    cvode_watch w; /* the stiffness estimates (cvode_watch.c), with c.watch */
} cvode_integ;

/* cvode_watch.c: the right-hand side f(t, y) just evaluated (its Lipschitz estimate from the
   last evaluation at the same t), the Jacobian just formed in J (its spectral radius), the
   `stiffness` op; cvode_watch_create allocates (0 or -1), cvode_watch_free frees */
int cvode_watch_create(cvode_integ *cv);
void cvode_watch_rhs(cvode_integ *cv, double t, const double *y, const double *f);
void cvode_watch_jacobian(cvode_integ *cv, SUNMatrix J);
int cvode_watch_stiffness(integ *in, integ_stiffness *st);
void cvode_watch_free(cvode_integ *cv);

/* tests: the BDF Newton Jacobian df/dy as CVODE's Newton iteration gets it, at (t, y), dense
   (n x n, column-major) into out; 0, or the problem's failure, or -1 (no Jacobian: Adams,
   the problem's own Newton solve, memory). CVODE's matrix is overwritten (its next set-up forms it
   anew or from its copy) */
int cvode_jacobian_dense(integ *in, double t, const double *y, double *out);

/* the error norm CVODE's vectors use (nvwrmsnorm): the weighted root mean square over the
   components of nonzero weighted error (cvode_setup.c's file comment); public for the tests */
sunrealtype cvode_wrms_moving(N_Vector x, N_Vector w);

/* cvode_newton.c: the problem's Newton solve (integ_problem.newton) as CVODE's matrix and
   linear solver (cv->J, cv->LS) with the Jacobian function; 0, or -1 (out of memory) or -2
   (CVODE refused) with msg */
int cvode_newton_attach(cvode_integ *cv, char *msg, size_t n);

/* cvode_step.c: the event search on CVODE (cvode_events.c's host: cvode_events_host, with
   or without events), its arrays (attach: CLINK_OK or CLINK_ERR_NOMEM; detach frees) */
void cvode_events_host(cvode_integ *cv);
clink_status cvode_events_attach(cvode_integ *cv);
void cvode_events_detach(cvode_integ *cv);

/* the ops of integrator.h that cvode_setup.c implements */
integ *cvode_create(const integ_problem *p, const integ_config *c, double t0, const double *y0,
                    clink_status *st, char *msg, size_t n);
clink_status cvode_set_limits(integ *in, const integ_config *c, char *msg, size_t n);
void cvode_destroy(integ *in);

#endif
