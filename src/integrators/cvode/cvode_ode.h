/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_ode.h: the CVODE set-up of the CVODE integrator (cvode_setup.c; the
 * impact laboratory's Adams and BDF run through that integrator, src/lab/lab_integ.c):
 * creation with the error handler that keeps CVODE's last message on the
 * caller's handle instead of printing it, return-flag names, and CVODE's
 * counters read (each getter checked) and summed across re-initialisations.
 * The names keep the prefix ode_ of the laboratory's former CVODE driver.
 */
#ifndef CLINK_CVODE_ODE_H
#define CLINK_CVODE_ODE_H

#include "integrators/cvode/cvode_compat.h"
#include "integrators/integrator.h"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include <stddef.h>

/* CVODE's last error or warning message, "MODULE FUNCTION (CODE): TEXT" */
typedef struct ode_log {
    char msg[512];
    void *warnings; /* SUNDIALS 7: the file the context's logger writes warnings to (a FILE *
                       read by ode_log_drain), NULL when they are not kept */
    long read;      /* bytes of it read so far */
} ode_log;

/*
 * CVodeCreate (Adams or BDF), the error handler writing into *log,
 * CVodeInit(f, t0, y0) and the user data. NULL on failure with *flag CVODE's
 * return flag (CV_MEM_FAIL when CVodeCreate failed) and *call the name of the
 * failing call.
 */
void *ode_create(SUNContext ctx, int bdf, CVRhsFn f, double t0, N_Vector y0, void *user_data,
                 ode_log *log, int *flag, const char **call);

/*
 * SUNDIALS 7: CVODE's warnings (which go to the context's logger, on stdout unless told
 * otherwise) into an unlinked temporary file that ode_log_drain reads, so that they reach
 * log->msg as in 6.4 (whose error handler receives them). Without this call ode_create
 * sends them to /dev/null. Nothing to do on 6.4. 0, or -1 when the file cannot be had
 * (the warnings are then dropped).
 */
int ode_log_keep_warnings(SUNContext ctx, ode_log *log);
/* the last warning written since the last call into log->msg (SUNDIALS 7; nothing on 6.4) */
void ode_log_drain(SUNContext ctx, ode_log *log);
/* closes the warnings' file */
void ode_log_close(ode_log *log);

/* CVODE's name of a return flag, copied into buf */
const char *ode_flag_name(int flag, char *buf, size_t n);

/* the kind of failure a CVODE return flag is (integ_ops.failure) */
integ_failure ode_failure_kind(int flag);

/* CVODE's counters since its last (re-)initialisation */
typedef struct ode_counters {
    long steps, rhs_evals, root_evals, lin_setups, error_test_fails, nonlin_iters, nonlin_fails;
    long jac_evals;              /* with a linear solver (newton != 0) */
    long proj_evals, proj_fails; /* with a projection function (projection != 0) */
    double last_step;            /* s */
    int last_order;
} ode_counters;

/* reads the counters; one whose getter fails is 0 */
void ode_counters_get(void *cvode, int newton, int projection, ode_counters *c);

/* bank += c for the counters CVodeReInit resets (steps, evaluations, failures, iterations;
   the Jacobian and projection counters only when add_solver: they reset at the first step
   after a re-initialisation, not at CVodeReInit) */
void ode_counters_add(ode_counters *bank, const ode_counters *c, int add_solver);

/* st = bank + c, the counters since creation (integ_ops.stats), the last step and order c's */
void ode_counters_stats(const ode_counters *bank, const ode_counters *c, integ_stats *st);

/* bank = st - c, so that ode_counters_stats gives st again (integ_ops.set_counters); the
   Jacobian and projection counters less c's only when sub_solver (not between a
   re-initialisation and its first step, where the solver's counters still hold their old
   values but will restart) */
void ode_counters_bank(ode_counters *bank, const ode_counters *c, const integ_stats *st,
                       int sub_solver);

/*
 * Replaces the element-wise operations of a serial vector (and so of every clone
 * CVODE makes of it) by ode_vector.c's optimised ones, which give the same bits
 * as SUNDIALS' serial kernels (ode_vector.c says why).
 */
void ode_vector_use_fast_ops(N_Vector v);

/*
 * The elements and the length of one of CVODE's vectors, read from the serial content
 * directly: every vector CVODE hands to clink's callbacks is a clone of a serial vector
 * (N_VNew_Serial), and the library's N_VGetArrayPointer and N_VGetLength are calls into an
 * unoptimised build (about 20 instructions each, several per right-hand side).
 */
static inline double *ode_data(N_Vector v)
{
    return NV_DATA_S(v);
}

static inline sunindextype ode_length(N_Vector v)
{
    return NV_LENGTH_S(v);
}

#endif
