/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_ode.c: the CVODE set-up shared by the CVODE integrator and the impact laboratory
 * (cvode_ode.h): creation with a handler that keeps CVODE's messages, flag names, and
 * the counters read and summed across re-initialisations.
 */
#include "integrators/cvode/cvode_ode.h"

#include <cvode/cvode_proj.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CVODE's own error and warning messages are not printed: the last one is kept */
static void ode_err_handler(int code, const char *module, const char *function, char *msg,
                            void *data)
{
    ode_log *log = data;

    snprintf(log->msg, sizeof log->msg, "%s %s (%d): %s", module, function, code, msg);
}

void *ode_create(SUNContext ctx, int bdf, CVRhsFn f, double t0, N_Vector y0, void *user_data,
                 ode_log *log, int *flag, const char **call)
{
    void *cv = CVodeCreate(bdf ? CV_BDF : CV_ADAMS, ctx);
    int rc;

    log->msg[0] = '\0';
    if (!cv) {
        *flag = CV_MEM_FAIL;
        *call = "CVodeCreate";
        return NULL;
    }
    if ((rc = CVodeSetErrHandlerFn(cv, ode_err_handler, log)) != CV_SUCCESS)
        *call = "CVodeSetErrHandlerFn";
    else if ((rc = CVodeInit(cv, f, t0, y0)) != CV_SUCCESS)
        *call = "CVodeInit";
    else if ((rc = CVodeSetUserData(cv, user_data)) != CV_SUCCESS)
        *call = "CVodeSetUserData";
    if (rc != CV_SUCCESS) {
        *flag = rc;
        CVodeFree(&cv);
        return NULL;
    }
    *flag = CV_SUCCESS;
    *call = NULL;
    return cv;
}

const char *ode_flag_name(int flag, char *buf, size_t n)
{
    char *name = CVodeGetReturnFlagName(flag); /* SUNDIALS mallocs the name */

    snprintf(buf, n, "%s", name ? name : "unknown flag");
    free(name);
    return buf;
}

void ode_counters_get(void *cv, int newton, int projection, ode_counters *c)
{
    long v = 0;
    int o = 0;
    sunrealtype h = 0.0;

    memset(c, 0, sizeof *c);
    if (CVodeGetNumSteps(cv, &v) == CV_SUCCESS)
        c->steps = v;
    if (CVodeGetNumRhsEvals(cv, &v) == CV_SUCCESS)
        c->rhs_evals = v;
    if (CVodeGetNumGEvals(cv, &v) == CV_SUCCESS)
        c->root_evals = v;
    if (CVodeGetNumLinSolvSetups(cv, &v) == CV_SUCCESS)
        c->lin_setups = v;
    if (CVodeGetNumErrTestFails(cv, &v) == CV_SUCCESS)
        c->error_test_fails = v;
    if (CVodeGetNumNonlinSolvIters(cv, &v) == CV_SUCCESS)
        c->nonlin_iters = v;
    if (CVodeGetNumNonlinSolvConvFails(cv, &v) == CV_SUCCESS)
        c->nonlin_fails = v;
    if (newton && CVodeGetNumJacEvals(cv, &v) == CV_SUCCESS)
        c->jac_evals = v;
    if (projection) {
        if (CVodeGetNumProjEvals(cv, &v) == CV_SUCCESS)
            c->proj_evals = v;
        if (CVodeGetNumProjFails(cv, &v) == CV_SUCCESS)
            c->proj_fails = v;
    }
    if (CVodeGetLastStep(cv, &h) == CV_SUCCESS)
        c->last_step = h;
    if (CVodeGetLastOrder(cv, &o) == CV_SUCCESS)
        c->last_order = o;
}

void ode_counters_add(ode_counters *bank, const ode_counters *c, int add_solver)
{
    bank->steps += c->steps;
    bank->rhs_evals += c->rhs_evals;
    bank->root_evals += c->root_evals;
    bank->lin_setups += c->lin_setups;
    bank->error_test_fails += c->error_test_fails;
    bank->nonlin_iters += c->nonlin_iters;
    bank->nonlin_fails += c->nonlin_fails;
    if (add_solver) {
        bank->jac_evals += c->jac_evals;
        bank->proj_evals += c->proj_evals;
        bank->proj_fails += c->proj_fails;
    }
}
