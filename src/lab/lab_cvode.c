/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The laboratory's CVODE integrator (Adams with fixed-point iteration or BDF with
 * Newton and a dense linear solver), on request or as the fallback of the
 * Runge-Kutta one. The state vector is
 *
 *   y = (delta, delta', W, D),  W' = F delta',  D' = (F(delta, delta') - F(delta, 0)) delta',
 *
 * W the work of the contact force (energy balance check: m v^2/2 - m v_out^2/2 = W
 * at separation) and D the work of its rate-dependent part (the damping).
 * Events (CVODE root functions, direction + to -):
 *   compression:  g0 = delta' (end of compression),  g1 = dF/dt (force maximum,
 *                 dF/dt = F_delta delta' + F_rate delta'', partials by central
 *                 differences of the pure law function);
 *   restitution:  g0 = clink_law_separation() (zero penetration, zero force or
 *                 elastoplastic residual).
 * CVODE is re-initialised at the end of compression only when the law's force
 * changes there (a probe before and after clink_law_end_compression()).
 * The stored energy U(a, b) = integral of F(s, 0) ds over [a, b] is the adaptive
 * Gauss-Kronrod 7-15 quadrature of the law.
 */
#include "lab/lab_private.h"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <math.h>

/* ---- workspace ------------------------------------------------------------ */

clink_status lab_cvode_create(clink_lab *lab)
{
    lab_cvode_ws *cv = &lab->cv;

    if (SUNContext_Create(NULL, &cv->sunctx) != 0) {
        cv->sunctx = NULL;
        return CLINK_ERR_SOLVER;
    }
    cv->y = N_VNew_Serial(LAB_NEQ, cv->sunctx);
    cv->atol = N_VNew_Serial(LAB_NEQ, cv->sunctx);
    cv->ytmp = N_VNew_Serial(LAB_NEQ, cv->sunctx);
    if (cv->y == NULL || cv->atol == NULL || cv->ytmp == NULL)
        return CLINK_ERR_NOMEM;
    return CLINK_OK;
}

void lab_cvode_destroy(clink_lab *lab)
{
    lab_cvode_ws *cv = &lab->cv;
    int i;

    for (i = 0; i < 2; i++)
        if (cv->mem[i] != NULL)
            CVodeFree(&cv->mem[i]);
    if (cv->nls != NULL)
        SUNNonlinSolFree(cv->nls);
    if (cv->ls != NULL)
        SUNLinSolFree(cv->ls);
    if (cv->jac != NULL)
        SUNMatDestroy(cv->jac);
    if (cv->y != NULL)
        N_VDestroy(cv->y);
    if (cv->atol != NULL)
        N_VDestroy(cv->atol);
    if (cv->ytmp != NULL)
        N_VDestroy(cv->ytmp);
    if (cv->sunctx != NULL)
        SUNContext_Free(&cv->sunctx);
}

/* ---- the impact ------------------------------------------------------------ */

static int lab_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
    const clink_lab *lab = user_data;
    const double *Y = N_VGetArrayPointer(y);
    double *D = N_VGetArrayPointer(ydot);
    double F = lab_force(lab, Y[0], Y[1]);
    double F0 = lab_force(lab, Y[0], 0.0);

    (void) t;
    if (!isfinite(F) || !isfinite(F0) || !isfinite(Y[0]) || !isfinite(Y[1]))
        return 1; /* recoverable: CVODE retries with a smaller step */
    D[0] = Y[1];
    D[1] = -F / lab->m;
    D[2] = F * Y[1];
    D[3] = (F - F0) * Y[1];
    return 0;
}

static int lab_roots(sunrealtype t, N_Vector y, sunrealtype *g, void *user_data)
{
    const clink_lab *lab = user_data;
    const double *Y = N_VGetArrayPointer(y);

    (void) t;
    if (lab->phase == LAB_PHASE_COMPRESSION) {
        double F = lab_force(lab, Y[0], Y[1]);
        g[0] = Y[1];
        g[1] = lab_force_rate(lab, Y[0], Y[1], F);
    } else {
        g[0] = Y[0] >= 0.0 ? clink_law_separation(lab->law, lab->params, &lab->state, Y[0], Y[1])
                           : Y[0];
        g[1] = 1.0;
    }
    if (!isfinite(g[0]))
        g[0] = 1.0; /* keep the root finder away from an undefined point */
    if (!isfinite(g[1]))
        g[1] = 1.0;
    return 0;
}

/* adaptive Gauss-Kronrod 7-15 of F(s, 0) over [a, b] with the current state */
static const double gk_x[8] = {
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.0};
static const double gk_wk[8] = {
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
static const double gk_wg[4] = {
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
    0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

static double lab_gk15(const clink_lab *lab, double a, double b, double *err)
{
    double c = 0.5 * (a + b), h = 0.5 * (b - a);
    double fc = lab_force(lab, c, 0.0);
    double rk = fc * gk_wk[7], rg = fc * gk_wg[3];
    int j;

    for (j = 0; j < 7; j++) {
        double f1 = lab_force(lab, c - h * gk_x[j], 0.0);
        double f2 = lab_force(lab, c + h * gk_x[j], 0.0);
        rk += gk_wk[j] * (f1 + f2);
        if (j % 2 == 1)
            rg += gk_wg[j / 2] * (f1 + f2);
    }
    *err = fabs((rk - rg) * h);
    return rk * h;
}

static double lab_integrate_force(const clink_lab *lab, double a, double b, double tol, int depth)
{
    double err, r = lab_gk15(lab, a, b, &err);

    if (err <= tol || depth >= 40 || !(b - a > 0.0))
        return r;
    return lab_integrate_force(lab, a, 0.5 * (a + b), 0.5 * tol, depth + 1) +
           lab_integrate_force(lab, 0.5 * (a + b), b, 0.5 * tol, depth + 1);
}

static double lab_stored_energy(const clink_lab *lab, double delta, double e_scale)
{
    if (!(delta > 0.0))
        return 0.0;
    return lab_integrate_force(lab, 0.0, delta, 1e-15 * e_scale, 0);
}

/* adds CVODE's counters since its last (re-)initialisation to the result's */
static void lab_add_stats(void *mem, clink_lab_result *res, int bdf)
{
    ode_counters c;

    ode_counters_get(mem, bdf, 0, &c);
    res->n_steps += c.steps;
    res->n_rhs += c.rhs_evals;
    res->n_root_evals += c.root_evals;
    res->n_err_fails += c.error_test_fails;
    res->n_nonlin_iters += c.nonlin_iters;
    res->n_nonlin_fails += c.nonlin_fails;
    res->n_jac_evals += c.jac_evals;
}

/* creates (first use) or re-initialises the CVODE memory of a method at t = 0 */
static clink_status lab_cvode_start(clink_lab *lab, int bdf, double t_max, double rtol)
{
    void *mem = lab->cv.mem[bdf];
    int flag;
    int dirs[2] = {-1, -1};

    if (mem == NULL) {
        const char *call;
        mem = ode_create(lab->cv.sunctx, bdf, lab_rhs, 0.0, lab->cv.y, lab, &lab->cv.log, &flag,
                         &call);
        if (mem == NULL)
            return lab_fail(lab, CLINK_ERR_SOLVER, "%s failed (%d)", call, flag);
        lab->cv.mem[bdf] = mem;
        if ((flag = CVodeRootInit(mem, 2, lab_roots)) != CV_SUCCESS)
            return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeRootInit failed (%d)", flag);
        if (bdf) {
            lab->cv.jac = SUNDenseMatrix(LAB_NEQ, LAB_NEQ, lab->cv.sunctx);
            lab->cv.ls = SUNLinSol_Dense(lab->cv.y, lab->cv.jac, lab->cv.sunctx);
            if (lab->cv.jac == NULL || lab->cv.ls == NULL)
                return lab_fail(lab, CLINK_ERR_NOMEM, "dense linear solver: out of memory");
            if ((flag = CVodeSetLinearSolver(mem, lab->cv.ls, lab->cv.jac)) != CV_SUCCESS)
                return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetLinearSolver failed (%d)", flag);
        } else {
            lab->cv.nls = SUNNonlinSol_FixedPoint(lab->cv.y, 0, lab->cv.sunctx);
            if (lab->cv.nls == NULL)
                return lab_fail(lab, CLINK_ERR_NOMEM, "fixed-point solver: out of memory");
            if ((flag = CVodeSetNonlinearSolver(mem, lab->cv.nls)) != CV_SUCCESS)
                return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetNonlinearSolver failed (%d)", flag);
        }
    } else if ((flag = CVodeReInit(mem, 0.0, lab->cv.y)) != CV_SUCCESS) {
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeReInit failed (%d)", flag);
    }
    if ((flag = CVodeSetRootDirection(mem, dirs)) != CV_SUCCESS)
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetRootDirection failed (%d)", flag);
    if ((flag = CVodeSVtolerances(mem, rtol, lab->cv.atol)) != CV_SUCCESS)
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSVtolerances failed (%d)", flag);
    if ((flag = CVodeSetStopTime(mem, t_max)) != CV_SUCCESS)
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetStopTime failed (%d)", flag);
    if ((flag = CVodeSetMaxNumSteps(mem, 100000)) != CV_SUCCESS)
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetMaxNumSteps failed (%d)", flag);
    return CLINK_OK;
}

/* the initial state (delta, delta', W_total, W_damping), its tolerances and CVODE */
static clink_status lab_run_init(clink_lab *lab, const clink_lab_options *o, int bdf, double t_max)
{
    double *Y = N_VGetArrayPointer(lab->cv.y);
    double *A = N_VGetArrayPointer(lab->cv.atol);
    double T0 = 0.5 * lab->m * lab->v0 * lab->v0;

    Y[0] = 0.0;
    Y[1] = lab->v0;
    Y[2] = 0.0;
    Y[3] = 0.0;
    A[0] = o->rtol * lab->dscale;
    A[1] = o->rtol * lab->v0;
    A[2] = o->rtol * T0;
    A[3] = o->rtol * T0;
    lab->phase = LAB_PHASE_COMPRESSION;
    lab->cv.log.msg[0] = '\0';
    return lab_cvode_start(lab, bdf, t_max, o->rtol);
}

/* the loop's points of a step (interpolated ones inside, then its end), the force's extremes */
static void lab_run_record(clink_lab *lab, const clink_lab_options *o, void *mem, int spp, int flag,
                           double t_prev, double t, clink_lab_result *res)
{
    double *Y = N_VGetArrayPointer(lab->cv.y);
    double F;

    if (o->sample != NULL && spp > 1 && flag == CV_SUCCESS) {
        int j;
        for (j = 1; j < spp; j++) {
            double ts = t_prev + (t - t_prev) * (double) j / (double) spp;
            if (CVodeGetDky(mem, ts, 0, lab->cv.ytmp) == CV_SUCCESS)
                lab_emit(lab, o, ts, N_VGetArrayPointer(lab->cv.ytmp));
        }
    }
    lab_emit(lab, o, t, Y);
    F = lab_force(lab, Y[0], Y[1]);
    if (F > res->F_max) {
        res->F_max = F;
        res->t_F_max = t;
    }
    if (F < res->F_min)
        res->F_min = F;
}

/*
 * End of compression at t: the law's state machine moves on; CVODE is
 * re-initialised only if the force law changes here.
 */
static clink_status lab_run_end_compression(clink_lab *lab, void *mem, int bdf, double t,
                                            clink_lab_result *res)
{
    double *Y = N_VGetArrayPointer(lab->cv.y);
    double probe_d[2] = {Y[0], 0.5 * Y[0]};
    double probe_r = -0.01 * lab->v0, before[2], after[2];
    int k, jump = 0, flag;

    for (k = 0; k < 2; k++)
        before[k] = lab_force(lab, probe_d[k], probe_r);
    res->delta_max = Y[0];
    res->t_compression = t;
    clink_law_end_compression(lab->law, lab->params, Y[0], &lab->state);
    lab->phase = LAB_PHASE_RESTITUTION;
    for (k = 0; k < 2; k++) {
        after[k] = lab_force(lab, probe_d[k], probe_r);
        if (after[k] != before[k])
            jump = 1;
    }
    if (jump) {
        lab_add_stats(mem, res, bdf);
        if ((flag = CVodeReInit(mem, t, lab->cv.y)) != CV_SUCCESS)
            return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeReInit failed (%d)", flag);
        res->n_reinit++;
    }
    return CLINK_OK;
}

/* the result at separation (t, Y): rebound, residual penetration, energy balance */
static void lab_run_separation(clink_lab *lab, const clink_lab_options *o, double t,
                               clink_lab_result *res)
{
    double *Y = N_VGetArrayPointer(lab->cv.y);
    double T0 = 0.5 * lab->m * lab->v0 * lab->v0;
    double e_scale = T0;
    double U_max, T_sep;

    res->separated = 1;
    res->duration = t;
    /* an overdamped contact creeps back to delta = 0 and the root falls on
       round-off: no rebound */
    if (Y[1] > 0.0 && Y[1] <= 1e3 * o->rtol * lab->v0)
        Y[1] = 0.0;
    res->v_out = Y[1];
    res->e_out = Y[1] != 0.0 ? -Y[1] / lab->v0 : 0.0;
    res->delta_residual = Y[0] > 0.0 ? Y[0] : 0.0;
    res->E_impact = T0;
    U_max = lab_stored_energy(lab, res->delta_max, e_scale);
    T_sep = 0.5 * lab->m * Y[1] * Y[1];
    res->E_residual = lab_stored_energy(lab, res->delta_residual, e_scale);
    res->E_diss_compression = T0 - U_max;
    res->E_diss_restitution = U_max - T_sep - res->E_residual;
    res->W_damping = Y[3];
    res->energy_residual = fabs(T0 - T_sep - Y[2]) / T0;
    clink_law_release(lab->law, lab->params, res->delta_residual, &lab->state);
}

/* one attempt with one method; the caller may retry with BDF */
static clink_status lab_run(clink_lab *lab, const clink_lab_options *o, int bdf,
                            clink_lab_result *res)
{
    double *Y = N_VGetArrayPointer(lab->cv.y);
    double t_scale = lab->dscale / lab->v0;
    double t_max = o->t_max_factor * 3.2 * t_scale;
    double t = 0.0, t_prev = 0.0, F;
    int roots[2], flag, nsteps = 0, spp = o->samples_per_step;
    void *mem;
    clink_status st;

    if (spp < 1)
        spp = 1;
    if (spp > 1000)
        spp = 1000;
    st = lab_run_init(lab, o, bdf, t_max);
    if (st != CLINK_OK)
        return st;
    mem = lab->cv.mem[bdf];

    F = lab_force(lab, 0.0, lab->v0);
    res->F_max = F;
    res->t_F_max = 0.0;
    res->F_min = F;
    lab_emit(lab, o, 0.0, Y);

    for (;;) {
        if (++nsteps > LAB_MAX_STEPS)
            return lab_fail(lab, CLINK_ERR_SOLVER, "more than %d steps in one impact",
                            LAB_MAX_STEPS);
        flag = CVode(mem, t_max, lab->cv.y, &t, CV_ONE_STEP);
        if (flag < 0)
            return lab_fail(lab, CLINK_ERR_SOLVER, "CVODE failed at t = %.6g s (flag %d): %s", t,
                            flag, lab->cv.log.msg);
        if (flag == CV_TSTOP_RETURN) {
            lab_add_stats(mem, res, bdf);
            return lab_fail(lab, CLINK_ERR_NO_CONVERGENCE,
                            "no separation within %.6g s (%.3g times the contact time scale); "
                            "the contact is overdamped or sticks",
                            t, o->t_max_factor);
        }
        lab_run_record(lab, o, mem, spp, flag, t_prev, t, res);
        t_prev = t;
        if (flag != CV_ROOT_RETURN)
            continue;
        if ((flag = CVodeGetRootInfo(mem, roots)) != CV_SUCCESS)
            return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeGetRootInfo failed (%d)", flag);
        if (lab->phase == LAB_PHASE_COMPRESSION && roots[0] != 0) {
            st = lab_run_end_compression(lab, mem, bdf, t, res);
            if (st != CLINK_OK)
                return st;
        } else if (lab->phase == LAB_PHASE_RESTITUTION && roots[0] != 0) {
            break; /* separation */
        }
    }
    lab_add_stats(mem, res, bdf);
    lab_run_separation(lab, o, t, res);
    return CLINK_OK;
}

static clink_status lab_cvode_adams(clink_lab *lab, const clink_lab_options *o,
                                    clink_lab_result *res)
{
    return lab_run(lab, o, 0, res);
}

static clink_status lab_cvode_bdf(clink_lab *lab, const clink_lab_options *o, clink_lab_result *res)
{
    return lab_run(lab, o, 1, res);
}

const lab_integrator lab_integrator_adams = {"adams", lab_cvode_adams};
const lab_integrator lab_integrator_bdf = {"bdf", lab_cvode_bdf};
