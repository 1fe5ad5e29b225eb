/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_ode.c: the CVODE set-up of the CVODE integrator (cvode_ode.h): creation with a handler that
 * keeps CVODE's messages, flag names, and the counters read and summed across re-initialisations.
 *
 * CVODE's messages never reach stdout or stderr: the last one is kept on the
 * caller's ode_log. SUNDIALS 6.4 calls one handler per CVODE instance for errors
 * and warnings alike (CVodeSetErrHandlerFn). SUNDIALS 7 calls the context's stack
 * of error handlers (replaced here by one: SUNContext_ClearErrHandlers,
 * SUNContext_PushErrHandler) for errors and writes warnings through the context's
 * logger, by default to stdout; they go to /dev/null, or with
 * ode_log_keep_warnings to an unlinked temporary file that ode_log_drain reads
 * back (before each error, so that the last message is the last one CVODE gave).
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */

#include "integrators/cvode/cvode_ode.h"

#include <cvode/cvode_proj.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if CLINK_SUNDIALS_7
#include <sundials/sundials_errors.h>
#include <sundials/sundials_logger.h>
#include <unistd.h>
#endif

#if CLINK_SUNDIALS_7
/* SUNDIALS 7: the warnings first (they came before), then the error */
static void ode_err_handler(int line, const char *function, const char *file, const char *msg,
                            SUNErrCode code, void *data, SUNContext ctx)
{
    ode_log *log = data;
    (void) line;
    (void) file;
    ode_log_drain(ctx, log);
    snprintf(log->msg, sizeof log->msg, "CVODE %s (%d): %s", function, (int) code, msg);
}

/* the context's handlers replaced by ode_err_handler; its logger's warnings to /dev/null
   unless they are kept already */
static int ode_set_handler(SUNContext ctx, void *cv, ode_log *log)
{
    (void) cv;
    SUNLogger logger = NULL;
    if (SUNContext_ClearErrHandlers(ctx) != SUN_SUCCESS ||
        SUNContext_PushErrHandler(ctx, ode_err_handler, log) != SUN_SUCCESS)
        return CV_ILL_INPUT;
    if (!log->warnings && (SUNContext_GetLogger(ctx, &logger) != SUN_SUCCESS || !logger ||
                           SUNLogger_SetWarningFilename(logger, "/dev/null") != SUN_SUCCESS))
        return CV_ILL_INPUT;
    return CV_SUCCESS;
}

int ode_log_keep_warnings(SUNContext ctx, ode_log *log)
{
    SUNLogger logger = NULL;
    char path[] = "/tmp/clink-cvode-XXXXXX";
    if (SUNContext_GetLogger(ctx, &logger) != SUN_SUCCESS || !logger)
        return -1;
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "r");
    int ok = f && SUNLogger_SetWarningFilename(logger, path) == SUN_SUCCESS;
    if (unlink(path) != 0)
        ok = 0;
    if (!ok) {
        if (f)
            fclose(f);
        else
            close(fd);
        return -1;
    }
    log->warnings = f;
    log->read = 0;
    return 0;
}

void ode_log_drain(SUNContext ctx, ode_log *log)
{
    SUNLogger logger = NULL;
    FILE *f = log->warnings;
    if (!f || SUNContext_GetLogger(ctx, &logger) != SUN_SUCCESS || !logger ||
        SUNLogger_Flush(logger, SUN_LOGLEVEL_WARNING) != SUN_SUCCESS ||
        fseek(f, log->read, SEEK_SET) != 0)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        log->read += (long) n;
        if (n && line[n - 1] == '\n')
            line[n - 1] = '\0';
        /* "[WARNING][rank 0][file:line][function] text" */
        snprintf(log->msg, sizeof log->msg, "CVODE warning: %s", line);
    }
    clearerr(f);
}

void ode_log_close(ode_log *log)
{
    if (log->warnings && fclose(log->warnings) != 0)
        log->msg[0] = '\0';
    log->warnings = NULL;
}
#else
/* SUNDIALS 6.4: CVODE's own error and warning messages are not printed, the last is kept */
static void ode_err_handler(int code, const char *module, const char *function, char *msg,
                            void *data)
{
    ode_log *log = data;

    snprintf(log->msg, sizeof log->msg, "%s %s (%d): %s", module, function, code, msg);
}

static int ode_set_handler(SUNContext ctx, void *cv, ode_log *log)
{
    (void) ctx;
    return CVodeSetErrHandlerFn(cv, ode_err_handler, log);
}

int ode_log_keep_warnings(SUNContext ctx, ode_log *log)
{
    (void) ctx;
    (void) log;
    return 0; /* the error handler receives them */
}

void ode_log_drain(SUNContext ctx, ode_log *log)
{
    (void) ctx;
    (void) log;
}

void ode_log_close(ode_log *log)
{
    log->warnings = NULL;
}
#endif

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
    if ((rc = ode_set_handler(ctx, cv, log)) != CV_SUCCESS)
        *call = CLINK_SUNDIALS_7 ? "SUNContext_PushErrHandler" : "CVodeSetErrHandlerFn";
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

integ_failure ode_failure_kind(int flag)
{
    if (flag == CV_ERR_FAILURE || flag == CV_CONV_FAILURE)
        return INTEG_FAIL_STEP;
    return flag == CV_MEM_FAIL ? INTEG_FAIL_NOMEM : INTEG_FAIL_OTHER;
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

void ode_counters_bank(ode_counters *b, const ode_counters *c, const integ_stats *st,
                       int sub_solver)
{
    b->steps = st->steps - c->steps;
    b->rhs_evals = st->rhs_evals - c->rhs_evals;
    b->lin_setups = st->lin_setups - c->lin_setups;
    b->error_test_fails = st->error_test_fails - c->error_test_fails;
    b->nonlin_iters = st->nonlin_iters - c->nonlin_iters;
    b->nonlin_fails = st->nonlin_fails - c->nonlin_fails;
    b->jac_evals = st->jac_evals - (sub_solver ? c->jac_evals : 0);
    b->proj_evals = st->proj_evals - (sub_solver ? c->proj_evals : 0);
    b->proj_fails = st->proj_fails - (sub_solver ? c->proj_fails : 0);
}

void ode_counters_stats(const ode_counters *b, const ode_counters *c, integ_stats *st)
{
    st->steps = c->steps + b->steps;
    st->rhs_evals = c->rhs_evals + b->rhs_evals;
    st->lin_setups = c->lin_setups + b->lin_setups;
    st->error_test_fails = c->error_test_fails + b->error_test_fails;
    st->nonlin_iters = c->nonlin_iters + b->nonlin_iters;
    st->nonlin_fails = c->nonlin_fails + b->nonlin_fails;
    st->jac_evals = c->jac_evals + b->jac_evals;
    st->proj_evals = c->proj_evals + b->proj_evals;
    st->proj_fails = c->proj_fails + b->proj_fails;
    st->last_step = c->last_step;
    st->last_order = c->last_order;
}
