/*
 * sim.c: the CVODE driver (include/clink/sim.h).
 *
 * First-order system y = (q, v, W_d, W_l), N = 2 nq + 2:
 *   q' = v,  v' = qdd(t, q, v) from the saddle-point system (dynamics.h),
 *   W_d' = lambda . nu (power of the drivers), W_l' = power of the
 *   non-conservative applied loads,
 * so the energy balance T + V - W_d - W_l = const checks the integration. The
 * works are part of the error test (same tolerances, J): taken out of it, a
 * fully driven mechanism (no degree of freedom, so nothing else to control
 * after projection) takes steps far too long for the works to mean anything.
 *
 * Methods (SUNDIALS 6.4): Adams-Moulton with the fixed-point nonlinear solver;
 * BDF with Newton and a sparse direct solver (SUNLinSol_KLU) on the Jacobian
 * df/dy, whose pattern is [0 I; dqdd/dq dqdd/dv] plus the work rows. The
 * lower blocks (generally dense within a closed loop) are analytic
 * (dyn_jacobian: one evaluation of the accelerations and one saddle solve per
 * column with the factorisation at (t, q)); the upper identity is exact; the
 * work rows and columns are left zero (the works feed nothing back). The
 * earlier forward differences of the right-hand side, one per column, remain
 * for comparison (sim_use_fd_jacobian, sim_jac.h).
 *
 * Drift: projection through CVodeSetProjFn (BDF only; SUNDIALS 6.4 returns
 * CV_ILL_INPUT for Adams), the correction minimal in the metric of M
 * (dyn_project), the error estimate projected too; or Baumgarte in the
 * right-hand side. The right-hand side returns 1 (recoverable) for a singular
 * saddle point or a non-finite value, so CVODE retries with a smaller step.
 *
 * Contact (sim_contact.c): contact forces enter through dyn_set_external();
 * y carries two more components per contact (energy dissipated by its damping
 * and by its friction); CVodeRootInit with two root functions per contact;
 * with contacts clink_sim_advance() steps with CV_ONE_STEP (to track the
 * force peaks), hands each root to the contact state machine and calls
 * CVodeReInit only when it reports a jump of the right-hand side.
 */
#include "clink/sim.h"
#include "dynamics/dynamics.h"
#include "sim/sim_contact.h"
#include "sim/sim_jac.h"

#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* positions are projected until max |Phi| <= this (m or rad) */
#define SIM_PROJECTION_TOL  1e-13
#define SIM_PROJECTION_ITER 20

struct clink_sim {
    const clink_model *m;
    clink_settings_def set;
    dyn_system *dyn;
    int nq, nc, N;
    SUNContext ctx;
    void *cvode;
    N_Vector y, ytmp;
    SUNMatrix J;
    SUNLinearSolver LS;
    SUNNonlinearSolver NLS;
    double t;
    double *qdd, *lambda; /* at the current time */
    double *fd_f0, *fd_f1;
    double e0; /* energy at t = 0 */
    simc *sc;  /* contacts (sim_contact.c) */
    int ncon;  /* number of contacts */
    long reinits;
    double dq0, dv0;
    long rhs_fd;
    int jac_fd;      /* 1: finite-difference Jacobian (sim_use_fd_jacobian) */
    double *jq, *jv; /* d qdd / dq and d qdd / dv, nq x nq column-major */
    char msg[512];
    char cvode_msg[512]; /* the last message of CVODE (sim_cvode_err) */
};

static void sim_msg(clink_sim *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
}

const char *clink_sim_error(const clink_sim *sim)
{
    return sim ? sim->msg : "no simulation";
}

/* ---- CVODE callbacks ------------------------------------------------------ */

static int sim_rhs(realtype t, N_Vector y, N_Vector ydot, void *ud)
{
    clink_sim *s = ud;
    const double *yy = N_VGetArrayPointer(y);
    double *yd = N_VGetArrayPointer(ydot);
    int nq = s->nq;
    clink_status st = dyn_accelerations(s->dyn, t, yy, yy + nq, yd + nq, s->lambda);
    if (st != CLINK_OK) {
        sim_msg(s, "%s", dyn_error(s->dyn));
        return st == CLINK_ERR_NOMEM ? -1 : 1;
    }
    memcpy(yd, yy + nq, (size_t) nq * sizeof(double));
    double pd = 0.0;
    for (int k = 0; k < s->m->d.ndrivers; k++) {
        double f, fd, fdd;
        clink_function_eval(&s->m->d.drivers[k].def.function, t, &f, &fd, &fdd);
        pd += s->lambda[s->m->driver_row[k]] * fd;
    }
    yd[2 * nq] = pd;
    yd[2 * nq + 1] = dyn_last_power_loads(s->dyn);
    if (s->ncon)
        simc_dissipation_rates(s->sc, yd + 2 * nq + 2);
    for (int i = 0; i < s->N; i++)
        if (!isfinite(yd[i]))
            return 1;
    return 0;
}

/* column pointers of the sparse Jacobian pattern (see the file comment) */
static void jac_pattern(clink_sim *s, SUNMatrix J)
{
    int nq = s->nq, N = s->N;
    sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
    sunindextype *ri = SUNSparseMatrix_IndexValues(J);
    sunindextype p = 0;
    for (int j = 0; j < N; j++) {
        cp[j] = p;
        if (j < nq) {
            ri[p++] = j; /* diagonal (zero) */
            for (int i = nq; i < N; i++)
                ri[p++] = i;
        } else if (j < 2 * nq) {
            ri[p++] = j - nq; /* dq'/dv = I */
            for (int i = nq; i < N; i++)
                ri[p++] = i;
        } else {
            ri[p++] = j; /* work columns: diagonal only (zero) */
        }
    }
    cp[N] = p;
}

void sim_use_fd_jacobian(clink_sim *s, int on)
{
    if (s)
        s->jac_fd = on != 0;
}

/* the analytic Jacobian into the pattern (work rows and columns zero) */
static int sim_jac_analytic(clink_sim *s, realtype t, N_Vector y, SUNMatrix J)
{
    int nq = s->nq, N = s->N;
    const double *yy = N_VGetArrayPointer(y);
    clink_status st = dyn_jacobian(s->dyn, t, yy, yy + nq, s->jq, s->jv);
    s->rhs_fd++; /* one evaluation of the accelerations */
    if (st != CLINK_OK) {
        sim_msg(s, "%s", dyn_error(s->dyn));
        return st == CLINK_ERR_NOMEM ? -1 : 1;
    }
    realtype *x = SUNSparseMatrix_Data(J);
    sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
    for (int j = 0; j < 2 * nq; j++) {
        sunindextype p = cp[j];
        x[p++] = j < nq ? 0.0 : 1.0;
        const double *col = j < nq ? s->jq + (size_t) j * nq : s->jv + (size_t) (j - nq) * nq;
        for (int i = 0; i < nq; i++)
            x[p++] = col[i];
        for (int i = 2 * nq; i < N; i++)
            x[p++] = 0.0;
    }
    for (int j = 2 * nq; j < N; j++)
        x[cp[j]] = 0.0;
    return 0;
}

static int sim_jac(realtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
                   N_Vector t2, N_Vector t3)
{
    (void) t2;
    (void) t3;
    clink_sim *s = ud;
    int nq = s->nq, N = s->N;
    jac_pattern(s, J);
    if (!s->jac_fd)
        return sim_jac_analytic(s, t, y, J);
    realtype *x = SUNSparseMatrix_Data(J);
    sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
    double *yy = N_VGetArrayPointer(y);
    const double *f0 = N_VGetArrayPointer(fy);
    double *f1 = N_VGetArrayPointer(t1);
    double rtol = s->set.rtol, atol = s->set.atol;
    for (int j = 0; j < 2 * nq; j++) {
        sunindextype p = cp[j];
        x[p++] = j < nq ? 0.0 : 1.0;
        double yj = yy[j];
        double h = sqrt(2.2e-16) * fmax(fabs(yj), fmax(atol / rtol, 1e-8));
        yy[j] = yj + h;
        h = yy[j] - yj;
        int rc = sim_rhs(t, y, t1, s);
        s->rhs_fd++;
        yy[j] = yj;
        if (rc != 0)
            return rc;
        for (int i = nq; i < N; i++)
            x[p++] = (f1[i] - f0[i]) / h;
    }
    for (int j = 2 * nq; j < N; j++)
        x[cp[j]] = 0.0;
    /* restore the multipliers of the unperturbed state */
    return 0;
}

static int sim_proj(realtype t, N_Vector ycur, N_Vector corr, realtype eps, N_Vector err, void *ud)
{
    (void) eps;
    clink_sim *s = ud;
    int nq = s->nq;
    const double *yc = N_VGetArrayPointer(ycur);
    double *c = N_VGetArrayPointer(corr);
    double *q = s->fd_f0, *v = s->fd_f1;
    memcpy(q, yc, (size_t) nq * sizeof(double));
    memcpy(v, yc + nq, (size_t) nq * sizeof(double));
    clink_status st =
        dyn_project(s->dyn, t, q, v, SIM_PROJECTION_TOL, SIM_PROJECTION_ITER, NULL, NULL);
    if (st != CLINK_OK) {
        sim_msg(s, "%s", dyn_error(s->dyn));
        return 1;
    }
    for (int i = 0; i < nq; i++) {
        c[i] = q[i] - yc[i];
        c[nq + i] = v[i] - yc[nq + i];
    }
    for (int i = 2 * nq; i < s->N; i++)
        c[i] = 0.0;
    if (err) {
        double *e = N_VGetArrayPointer(err);
        st = dyn_project_error(s->dyn, t, q, e, e + nq);
        if (st != CLINK_OK) {
            sim_msg(s, "%s", dyn_error(s->dyn));
            return 1;
        }
    }
    return 0;
}

static int sim_impulse(void *data, double t, const double *q, const double *f, double *dv)
{
    return dyn_impulse_response(data, t, q, f, dv) == CLINK_OK ? 0 : -1;
}

static int sim_roots(realtype t, N_Vector y, realtype *g, void *ud)
{
    clink_sim *s = ud;
    const double *yy = N_VGetArrayPointer(y);
    return simc_roots(s->sc, t, yy, yy + s->nq, g);
}

static int sim_set_directions(clink_sim *s)
{
    int dirs[2 * 64], *d = dirs;
    int nr = simc_nroots(s->sc);
    if (nr > 2 * 64 && !(d = malloc((size_t) nr * sizeof *d)))
        return CV_MEM_FAIL;
    simc_root_directions(s->sc, d);
    int rc = CVodeSetRootDirection(s->cvode, d);
    if (d != dirs)
        free(d);
    return rc;
}

/* ---- lifecycle ------------------------------------------------------------ */

void clink_sim_destroy(clink_sim **sim)
{
    if (!sim || !*sim)
        return;
    clink_sim *s = *sim;
    if (s->cvode)
        CVodeFree(&s->cvode);
    if (s->LS)
        SUNLinSolFree(s->LS);
    if (s->NLS)
        SUNNonlinSolFree(s->NLS);
    if (s->J)
        SUNMatDestroy(s->J);
    if (s->y)
        N_VDestroy(s->y);
    if (s->ytmp)
        N_VDestroy(s->ytmp);
    if (s->ctx)
        SUNContext_Free(&s->ctx);
    dyn_destroy(&s->dyn);
    simc_destroy(&s->sc);
    free(s->qdd);
    free(s->lambda);
    free(s->fd_f0);
    free(s->fd_f1);
    free(s->jq);
    free(s->jv);
    free(s);
    *sim = NULL;
}

static double total_energy(clink_sim *s)
{
    clink_energy e;
    clink_sim_energy(s, &e);
    return e.kinetic + e.gravity + e.spring - e.work_drivers - e.work_loads + e.contact_stored +
           e.contact_damping + e.contact_friction;
}

/* CVODE's name of a return flag, copied into buf (SUNDIALS mallocs the name) */
static const char *sim_flag_name(int flag, char *buf, size_t n)
{
    char *name = CVodeGetReturnFlagName(flag);

    snprintf(buf, n, "%s", name ? name : "unknown flag");
    free(name);
    return buf;
}

/*
 * CVODE's own error and warning messages are not printed: the last one is kept
 * on the handle and becomes part of the message of a failure.
 */
static void sim_cvode_err(int code, const char *module, const char *function, char *msg, void *ud)
{
    clink_sim *s = ud;

    snprintf(s->cvode_msg, sizeof s->cvode_msg, "%s %s (%d): %s", module, function, code, msg);
}

/* one CVODE call checked: returns 0 or sets the message and returns -1 */
#define CV_CHECK(call)                                                                             \
    do {                                                                                           \
        int cv_rc_ = (call);                                                                       \
        if (cv_rc_ < 0) {                                                                          \
            char flag_[64];                                                                        \
            sim_msg(s, "CVODE: %s failed with %d (%s)", #call, cv_rc_,                             \
                    sim_flag_name(cv_rc_, flag_, sizeof flag_));                                   \
            st = CLINK_ERR_SOLVER;                                                                 \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)

clink_status clink_sim_create(const clink_model *model, const clink_settings_def *settings,
                              clink_sim **sim, char *err, size_t errlen)
{
    clink_status st = CLINK_OK;
    if (err && errlen)
        err[0] = '\0';
    if (!sim) {
        if (err && errlen)
            snprintf(err, errlen, "clink_sim_create: NULL output pointer");
        return CLINK_ERR_ARG;
    }
    *sim = NULL;
    if (!model) {
        if (err && errlen)
            snprintf(err, errlen, "clink_sim_create: NULL model");
        return CLINK_ERR_ARG;
    }
    clink_sim *s = calloc(1, sizeof *s);
    if (!s) {
        if (err && errlen)
            snprintf(err, errlen, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    s->m = model;
    s->set = settings ? *settings : model->d.settings;
    if (s->set.method == CLINK_METHOD_ADAMS && s->set.drift == CLINK_DRIFT_PROJECTION) {
        sim_msg(s, "settings: projection needs BDF (CVodeSetProjFn supports BDF only in "
                   "SUNDIALS 6.4); use Baumgarte with Adams");
        st = CLINK_ERR_ARG;
        goto fail;
    }
    if (!(s->set.rtol > 0.0) || !(s->set.atol > 0.0) || !(s->set.max_step >= 0.0) ||
        !(s->set.settle_speed > 0.0) || !isfinite(s->set.settle_speed)) {
        sim_msg(s,
                "settings: rtol %g, atol %g, settle_speed %g m/s must be > 0 and max_step %g >= 0",
                s->set.rtol, s->set.atol, s->set.settle_speed, s->set.max_step);
        st = CLINK_ERR_RANGE;
        goto fail;
    }
    s->nq = model->ncoords;
    s->nc = model->nconstraints;
    char cerr[128];
    s->sc = simc_create(model, s->set.settle_speed, cerr, sizeof cerr);
    if (!s->sc) {
        sim_msg(s, "%s", cerr);
        st = CLINK_ERR_NOMEM;
        goto fail;
    }
    s->ncon = simc_count(s->sc);
    s->N = 2 * s->nq + 2 + simc_nwork(s->sc);
    int nq = s->nq;
    s->dyn = dyn_create(model);
    s->qdd = calloc((size_t) nq, sizeof(double));
    s->lambda = calloc((size_t) (s->nc > 0 ? s->nc : 1), sizeof(double));
    s->fd_f0 = calloc((size_t) nq, sizeof(double));
    s->fd_f1 = calloc((size_t) nq, sizeof(double));
    if (!s->dyn || !s->qdd || !s->lambda || !s->fd_f0 || !s->fd_f1) {
        sim_msg(s, "clink_sim_create: out of memory");
        st = CLINK_ERR_NOMEM;
        goto fail;
    }
    if (s->set.drift == CLINK_DRIFT_BAUMGARTE)
        dyn_set_baumgarte(s->dyn, s->set.baumgarte_alpha, s->set.baumgarte_beta);
    if (SUNContext_Create(NULL, &s->ctx) != 0) {
        sim_msg(s, "SUNContext_Create failed");
        st = CLINK_ERR_SOLVER;
        goto fail;
    }
    s->y = N_VNew_Serial(s->N, s->ctx);
    s->ytmp = N_VNew_Serial(s->N, s->ctx);
    if (!s->y || !s->ytmp) {
        sim_msg(s, "clink_sim_create: out of memory");
        st = CLINK_ERR_NOMEM;
        goto fail;
    }
    /* initial conditions from the model, projected onto the constraints */
    double *y = N_VGetArrayPointer(s->y);
    for (int i = 1; i < model->d.nbodies; i++) {
        const clink_body_def *b = &model->d.bodies[i].def;
        double *qi = y + 3 * (i - 1), *vi = y + nq + 3 * (i - 1);
        qi[0] = b->x;
        qi[1] = b->y;
        qi[2] = b->phi;
        vi[0] = b->vx;
        vi[1] = b->vy;
        vi[2] = b->omega;
    }
    for (int i = 2 * nq; i < s->N; i++)
        y[i] = 0.0;
    st = dyn_project(s->dyn, 0.0, y, y + nq, SIM_PROJECTION_TOL, 50, &s->dq0, &s->dv0);
    if (st != CLINK_OK) {
        sim_msg(s, "initial conditions: %s", dyn_error(s->dyn));
        if (st != CLINK_ERR_SINGULAR && st != CLINK_ERR_NOMEM)
            st = CLINK_ERR_ASSEMBLY;
        goto fail;
    }
    if (s->ncon) {
        simc_start(s->sc, y, y + nq);
        dyn_set_external(s->dyn, simc_forces, s->sc);
        simc_set_impulse(s->sc, sim_impulse, s->dyn);
    }
    st = dyn_accelerations(s->dyn, 0.0, y, y + nq, s->qdd, s->lambda);
    if (st != CLINK_OK) {
        sim_msg(s, "initial accelerations: %s", dyn_error(s->dyn));
        goto fail;
    }
    /* CVODE */
    s->cvode = CVodeCreate(s->set.method == CLINK_METHOD_ADAMS ? CV_ADAMS : CV_BDF, s->ctx);
    if (!s->cvode) {
        sim_msg(s, "CVodeCreate failed");
        st = CLINK_ERR_SOLVER;
        goto fail;
    }
    CV_CHECK(CVodeSetErrHandlerFn(s->cvode, sim_cvode_err, s));
    CV_CHECK(CVodeInit(s->cvode, sim_rhs, 0.0, s->y));
    CV_CHECK(CVodeSetUserData(s->cvode, s));
    CV_CHECK(CVodeSStolerances(s->cvode, s->set.rtol, s->set.atol));
    CV_CHECK(CVodeSetMaxNumSteps(s->cvode, 1000000));
    if (s->set.max_step > 0.0)
        CV_CHECK(CVodeSetMaxStep(s->cvode, s->set.max_step));
    if (s->set.method == CLINK_METHOD_ADAMS) {
        s->NLS = SUNNonlinSol_FixedPoint(s->y, 0, s->ctx);
        if (!s->NLS) {
            sim_msg(s, "SUNNonlinSol_FixedPoint failed");
            st = CLINK_ERR_SOLVER;
            goto fail;
        }
        CV_CHECK(CVodeSetNonlinearSolver(s->cvode, s->NLS));
    } else {
        sunindextype nnz = (sunindextype) (2 * nq * (1 + s->N - nq) + (s->N - 2 * nq));
        s->J = SUNSparseMatrix(s->N, s->N, nnz, CSC_MAT, s->ctx);
        if (!s->J) {
            sim_msg(s, "SUNSparseMatrix failed");
            st = CLINK_ERR_NOMEM;
            goto fail;
        }
        jac_pattern(s, s->J);
        s->jq = malloc((size_t) nq * (size_t) nq * sizeof(double) + 1);
        s->jv = malloc((size_t) nq * (size_t) nq * sizeof(double) + 1);
        if (!s->jq || !s->jv) {
            sim_msg(s, "clink_sim_create: out of memory");
            st = CLINK_ERR_NOMEM;
            goto fail;
        }
        s->LS = SUNLinSol_KLU(s->y, s->J, s->ctx);
        if (!s->LS) {
            sim_msg(s, "SUNLinSol_KLU failed");
            st = CLINK_ERR_SOLVER;
            goto fail;
        }
        CV_CHECK(CVodeSetLinearSolver(s->cvode, s->LS, s->J));
        CV_CHECK(CVodeSetJacFn(s->cvode, sim_jac));
        if (s->set.drift == CLINK_DRIFT_PROJECTION) {
            CV_CHECK(CVodeSetProjFn(s->cvode, sim_proj));
            CV_CHECK(CVodeSetProjErrEst(s->cvode, SUNTRUE));
        }
    }
    if (s->ncon) {
        CV_CHECK(CVodeRootInit(s->cvode, simc_nroots(s->sc), sim_roots));
        CV_CHECK(sim_set_directions(s));
    }
    s->t = 0.0;
    s->e0 = total_energy(s);
    *sim = s;
    return CLINK_OK;
fail:
    if (err && errlen)
        snprintf(err, errlen, "%s", s->msg);
    clink_sim_destroy(&s);
    return st;
}

/* ---- stepping ------------------------------------------------------------- */

static clink_status sim_cvode_failed(clink_sim *s, int rc, realtype tret)
{
    char cause[512], flag[64];
    snprintf(cause, sizeof cause, "%s", s->msg[0] ? s->msg : s->cvode_msg);
    sim_msg(s, "CVODE stopped at t = %.9g s with %s%s%s", (double) tret,
            sim_flag_name(rc, flag, sizeof flag), cause[0] ? ": " : "", cause);
    return strstr(cause, "redundant") || strstr(cause, "singular") ? CLINK_ERR_SINGULAR
                                                                   : CLINK_ERR_SOLVER;
}

clink_status clink_sim_advance(clink_sim *s, double t)
{
    if (!s)
        return CLINK_ERR_ARG;
    if (!(t > s->t) || !isfinite(t)) {
        sim_msg(s, "advance: target time %.9g s must be finite and after the current time %.9g s",
                t, s->t);
        return CLINK_ERR_ARG;
    }
    s->msg[0] = '\0';
    int rc = CVodeSetStopTime(s->cvode, t);
    if (rc < 0) {
        sim_msg(s, "CVodeSetStopTime failed with %d", rc);
        return CLINK_ERR_SOLVER;
    }
    realtype tret = s->t;
    N_VScale(1.0, s->y, s->ytmp);
    if (s->ncon == 0) {
        rc = CVode(s->cvode, t, s->ytmp, &tret, CV_NORMAL);
        if (rc < 0)
            return sim_cvode_failed(s, rc, tret);
    } else {
        /* one step at a time: the contact state machine sees every step and root */
        int nq = s->nq;
        while (tret < t) {
            rc = CVode(s->cvode, t, s->ytmp, &tret, CV_ONE_STEP);
            if (rc < 0)
                return sim_cvode_failed(s, rc, tret);
            const double *yy = N_VGetArrayPointer(s->ytmp);
            simc_after_step(s->sc, tret, yy, yy + nq);
            if (rc != CV_ROOT_RETURN)
                continue;
            int found[2 * 64], *fd = found, nr = simc_nroots(s->sc), reinit = 0;
            if (nr > 2 * 64 && !(fd = malloc((size_t) nr * sizeof *fd))) {
                sim_msg(s, "contact events: out of memory");
                return CLINK_ERR_NOMEM;
            }
            rc = CVodeGetRootInfo(s->cvode, fd);
            int hrc = 0;
            if (rc == CV_SUCCESS) {
                double *ym = N_VGetArrayPointer(s->ytmp);
                hrc = simc_handle_roots(s->sc, tret, ym, ym + nq, ym + 2 * nq + 2, fd, &reinit);
            }
            if (hrc != 0) {
                if (fd != found)
                    free(fd);
                sim_msg(s, "%s", simc_error(s->sc));
                return CLINK_ERR_SOLVER;
            }
            if (fd != found)
                free(fd);
            if (rc == CV_SUCCESS)
                rc = sim_set_directions(s);
            if (rc == CV_SUCCESS && reinit) {
                rc = CVodeReInit(s->cvode, tret, s->ytmp);
                if (rc == CV_SUCCESS)
                    rc = CVodeSetStopTime(s->cvode, t);
                s->reinits++;
            }
            if (rc != CV_SUCCESS) {
                char flag[64];
                sim_msg(s, "CVODE at a contact event at t = %.9g s failed with %d (%s)",
                        (double) tret, rc, sim_flag_name(rc, flag, sizeof flag));
                return CLINK_ERR_SOLVER;
            }
        }
    }
    N_VScale(1.0, s->ytmp, s->y);
    s->t = tret;
    const double *y = N_VGetArrayPointer(s->y);
    clink_status st = dyn_accelerations(s->dyn, s->t, y, y + s->nq, s->qdd, s->lambda);
    if (st != CLINK_OK) {
        sim_msg(s, "%s", dyn_error(s->dyn));
        return st;
    }
    return CLINK_OK;
}

double clink_sim_time(const clink_sim *sim)
{
    return sim ? sim->t : NAN;
}

/* ---- getters -------------------------------------------------------------- */

clink_status clink_sim_body_state(const clink_sim *s, int body, double q[3], double v[3])
{
    if (!s || body < 0 || body >= s->m->d.nbodies)
        return CLINK_ERR_ARG;
    const double *y = N_VGetArrayPointer(s->y);
    for (int k = 0; k < 3; k++) {
        if (q)
            q[k] = body ? y[3 * (body - 1) + k] : 0.0;
        if (v)
            v[k] = body ? y[s->nq + 3 * (body - 1) + k] : 0.0;
    }
    return CLINK_OK;
}

clink_status clink_sim_body_acceleration(const clink_sim *s, int body, double a[3])
{
    if (!s || !a || body < 0 || body >= s->m->d.nbodies)
        return CLINK_ERR_ARG;
    for (int k = 0; k < 3; k++)
        a[k] = body ? s->qdd[3 * (body - 1) + k] : 0.0;
    return CLINK_OK;
}

clink_status clink_sim_joint_reaction(const clink_sim *s, int joint, double force[3])
{
    if (!s || !force || joint < 0 || joint >= s->m->d.njoints)
        return CLINK_ERR_ARG;
    const clink_joint_def *jd = &s->m->d.joints[joint].def;
    const double *y = N_VGetArrayPointer(s->y);
    kin_pose a, b;
    kin_pose_of(y, y + s->nq, jd->body_a, &a);
    kin_pose_of(y, y + s->nq, jd->body_b, &b);
    const joint_class *jc = joint_class_of(jd->type);
    kin_row jac[JOINT_MAX_EQUATIONS];
    jc->jacobian(jd, &a, &b, jac);
    double g[3] = {0.0, 0.0, 0.0};
    int r0 = s->m->joint_row[joint];
    for (int r = 0; r < jc->neq; r++)
        for (int k = 0; k < 3; k++)
            g[k] += jac[r].jb[k] * s->lambda[r0 + r];
    /* moment about point_b: T - arm x F */
    double arm[2];
    kin_rot(b.phi, jd->point_b, arm);
    force[0] = g[0];
    force[1] = g[1];
    force[2] = g[2] - (arm[0] * g[1] - arm[1] * g[0]);
    return CLINK_OK;
}

clink_status clink_sim_driver_force(const clink_sim *s, int driver, double *force)
{
    if (!s || !force || driver < 0 || driver >= s->m->d.ndrivers)
        return CLINK_ERR_ARG;
    *force = s->lambda[s->m->driver_row[driver]];
    return CLINK_OK;
}

clink_status clink_sim_energy(const clink_sim *s, clink_energy *e)
{
    if (!s || !e)
        return CLINK_ERR_ARG;
    const double *y = N_VGetArrayPointer(s->y);
    dyn_energy de;
    dyn_energies(s->dyn, s->t, y, y + s->nq, s->lambda, &de);
    e->kinetic = de.kinetic;
    e->gravity = de.gravity;
    e->spring = de.spring;
    e->work_drivers = y[2 * s->nq];
    e->work_loads = y[2 * s->nq + 1];
    e->contact_stored = 0.0;
    e->contact_damping = 0.0;
    e->contact_friction = 0.0;
    if (s->ncon) {
        e->contact_stored = simc_stored_energy(s->sc, y, y + s->nq);
        for (int k = 0; k < s->ncon; k++) {
            e->contact_damping += y[2 * s->nq + 2 + 2 * k] + simc_booked(s->sc, k);
            e->contact_friction += y[2 * s->nq + 2 + 2 * k + 1];
        }
    }
    e->balance = e->kinetic + e->gravity + e->spring - e->work_drivers - e->work_loads +
                 e->contact_stored + e->contact_damping + e->contact_friction - s->e0;
    return CLINK_OK;
}

void clink_sim_constraint_violation(const clink_sim *s, double *position, double *velocity)
{
    const double *y = N_VGetArrayPointer(s->y);
    dyn_violation(s->dyn, s->t, y, y + s->nq, position, velocity);
}

void clink_sim_assembly(const clink_sim *s, double *dq_norm, double *dv_norm)
{
    if (dq_norm)
        *dq_norm = s->dq0;
    if (dv_norm)
        *dv_norm = s->dv0;
}

void clink_sim_stats_get(const clink_sim *s, clink_sim_stats *st)
{
    memset(st, 0, sizeof *st);
    long v = 0;
    int o = 0;
    realtype h = 0.0;
    if (CVodeGetNumSteps(s->cvode, &v) == CV_SUCCESS)
        st->steps = v;
    if (CVodeGetNumRhsEvals(s->cvode, &v) == CV_SUCCESS)
        st->rhs_evals = v;
    if (CVodeGetNumLinSolvSetups(s->cvode, &v) == CV_SUCCESS)
        st->lin_setups = v;
    if (CVodeGetNumErrTestFails(s->cvode, &v) == CV_SUCCESS)
        st->error_test_fails = v;
    if (CVodeGetNumNonlinSolvIters(s->cvode, &v) == CV_SUCCESS)
        st->nonlin_iters = v;
    if (CVodeGetNumNonlinSolvConvFails(s->cvode, &v) == CV_SUCCESS)
        st->nonlin_fails = v;
    if (s->LS && CVodeGetNumJacEvals(s->cvode, &v) == CV_SUCCESS)
        st->jac_evals = v;
    if (s->set.drift == CLINK_DRIFT_PROJECTION && s->set.method == CLINK_METHOD_BDF) {
        if (CVodeGetNumProjEvals(s->cvode, &v) == CV_SUCCESS)
            st->proj_evals = v;
        if (CVodeGetNumProjFails(s->cvode, &v) == CV_SUCCESS)
            st->proj_fails = v;
    }
    if (CVodeGetLastStep(s->cvode, &h) == CV_SUCCESS)
        st->last_step = h;
    if (CVodeGetLastOrder(s->cvode, &o) == CV_SUCCESS)
        st->last_order = o;
    st->rhs_evals_jac = s->rhs_fd;
    st->contact_events = simc_events(s->sc);
    st->contact_reinits = s->reinits;
    dyn_counts(s->dyn, &st->klu_factors, &st->klu_refactors);
}

/* ---- contacts ------------------------------------------------------------- */

int clink_sim_contact_count(const clink_sim *s)
{
    return s ? s->ncon : 0;
}

clink_status clink_sim_contact(const clink_sim *s, int contact, clink_contact_info *info)
{
    if (!s || !info || contact < 0 || contact >= s->ncon)
        return CLINK_ERR_ARG;
    const double *y = N_VGetArrayPointer(s->y);
    return simc_info(s->sc, contact, y, y + s->nq, info);
}

int clink_sim_impact_count(const clink_sim *s)
{
    return s ? simc_impact_count(s->sc) : 0;
}

clink_status clink_sim_impact(const clink_sim *s, int i, clink_impact_record *record)
{
    return s ? simc_impact(s->sc, i, record) : CLINK_ERR_ARG;
}

void clink_sim_set_impact_callback(clink_sim *s, clink_impact_fn fn, void *data)
{
    if (s && s->sc)
        simc_set_callback(s->sc, fn, data);
}
