/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contact-law laboratory: one two-body central impact integrated to separation,
 * by default with the Dormand-Prince 8(5,3) pair of rk8.c (a series start in
 * t^(1/q), the approach to separation in (delta - offset)^(1/q), events on the
 * dense output; see "the Runge-Kutta laboratory" below and docs/laboratory.md),
 * on request or as a fallback with CVODE as described next.
 *
 *   m delta'' = -F(delta, delta', state),   delta(0) = 0, delta'(0) = v > 0,
 *
 * the "contact oscillator" of Feng (2026, Eq. 1), Alves et al. (Eq. 1 with the
 * two-sphere and steel-ball examples) and Poursina and Nikravesh (2020, Eqs. 8,
 * 20-23). The state vector of the CVODE methods is
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
 * For delta < 0 (only inside a step that crosses a separation at zero
 * penetration) the force is continued as -F(-delta, -delta'), a C1 extension, so
 * the step that brackets the root sees a smooth right-hand side.
 *
 * Energies: U(a, b) = integral of F(s, 0) ds over [a, b] with the restitution
 * state is the energy stored elastically (clink_law_stored_energy(), exact, for the
 * Runge-Kutta method; adaptive Gauss-Kronrod 7-15 of the law for CVODE).
 * E_diss_compression = m v^2/2 - U(0, delta_max); E_residual = U(0, delta_sep);
 * E_diss_restitution = U(0, delta_max) - m v_out^2/2 - E_residual.
 *
 * Calibration: Brent's method on e_out(damping) - e_target over a bracket
 * [0, x] grown by factors of 4 from the law's own coefficient (Poursina and
 * Nikravesh's Eq. 23 solved as a root instead of a minimisation).
 */
#include "clink/lab.h"

#include "contact/law_table.h"
#include "lab/rk8.h"
#include "ode/ode.h"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LAB_NEQ = 4, LAB_MAX_STEPS = 2000000 };
/* length of the series start in contact time scales dscale / v (0.03 ... 1 measured:
   0.3 needs the fewest steps, by one or two) */
#define LAB_SERIES_SPAN 0.3
/* the approach to separation in delta starts below this fraction of delta_max ... */
#define LAB_END_SPAN 0.3
/* ... with the bodies parting faster than this fraction of v */
#define LAB_END_RATE 1e-2
enum { LAB_PHASE_COMPRESSION = 1, LAB_PHASE_RESTITUTION = 2 };

struct clink_lab {
    SUNContext sunctx;
    N_Vector y, atol, ytmp;
    void *mem[2];           /* CVODE memory per method, created on first use */
    SUNNonlinearSolver nls; /* fixed point, for Adams */
    SUNMatrix jac;          /* dense, for BDF */
    SUNLinearSolver ls;     /* dense, for BDF */
    char msg[512];
    ode_log cvlog; /* CVODE's last message */
    /* the run in progress (read by the callbacks) */
    const clink_law *law;
    const clink_contact_params *params;
    clink_contact_state state;
    int phase;
    double m, v0, dscale;
    /* the Runge-Kutta integrator: y = (delta, delta', W) against x = t^(1/q) */
    lab_rk8 rk;
    int var, q;    /* the integration variable (LAB_VAR_*) and the power of its substitution */
    double offset; /* delta at separation in the approach stretch (LAB_VAR_U) */
    double brk[CONTACT_LAW_MAX_KINKS]; /* penetrations where the force has a kink */
    int n_break;
};

/* ---- helpers -------------------------------------------------------------- */

static clink_status lab_fail(clink_lab *lab, clink_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static clink_status lab_fail(clink_lab *lab, clink_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lab->msg, sizeof lab->msg, fmt, ap);
    va_end(ap);
    return st;
}

/* the law's force, continued to delta < 0 as -F(-delta, -rate) */
static double lab_force(const clink_lab *lab, double delta, double rate)
{
    if (delta >= 0.0)
        return clink_law_force(lab->law, lab->params, &lab->state, delta, rate);
    return -clink_law_force(lab->law, lab->params, &lab->state, -delta, -rate);
}

/* dF/dt along the trajectory, by central differences of the pure force law */
static double lab_force_rate(const clink_lab *lab, double delta, double rate, double force)
{
    double h = 1e-6 * fmax(fabs(delta), 1e-3 * lab->dscale);
    double k = 1e-6 * fmax(fabs(rate), 1e-3 * lab->v0);
    double dFdd, dFdr;

    if (delta - h >= 0.0)
        dFdd = (lab_force(lab, delta + h, rate) - lab_force(lab, delta - h, rate)) / (2.0 * h);
    else
        dFdd = (lab_force(lab, delta + h, rate) - force) / h;
    dFdr = (lab_force(lab, delta, rate + k) - lab_force(lab, delta, rate - k)) / (2.0 * k);
    return dFdd * rate + dFdr * (-force / lab->m);
}

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

/* ---- workspace ------------------------------------------------------------ */

clink_status clink_lab_create(clink_lab **out)
{
    clink_lab *lab;

    if (out == NULL)
        return CLINK_ERR_ARG;
    *out = NULL;
    lab = calloc(1, sizeof *lab);
    if (lab == NULL)
        return CLINK_ERR_NOMEM;
    if (SUNContext_Create(NULL, &lab->sunctx) != 0) {
        free(lab);
        return CLINK_ERR_SOLVER;
    }
    lab->y = N_VNew_Serial(LAB_NEQ, lab->sunctx);
    lab->atol = N_VNew_Serial(LAB_NEQ, lab->sunctx);
    lab->ytmp = N_VNew_Serial(LAB_NEQ, lab->sunctx);
    if (lab->y == NULL || lab->atol == NULL || lab->ytmp == NULL) {
        clink_lab_destroy(&lab);
        return CLINK_ERR_NOMEM;
    }
    *out = lab;
    return CLINK_OK;
}

void clink_lab_destroy(clink_lab **plab)
{
    clink_lab *lab;
    int i;

    if (plab == NULL || *plab == NULL)
        return;
    lab = *plab;
    for (i = 0; i < 2; i++)
        if (lab->mem[i] != NULL)
            CVodeFree(&lab->mem[i]);
    if (lab->nls != NULL)
        SUNNonlinSolFree(lab->nls);
    if (lab->ls != NULL)
        SUNLinSolFree(lab->ls);
    if (lab->jac != NULL)
        SUNMatDestroy(lab->jac);
    if (lab->y != NULL)
        N_VDestroy(lab->y);
    if (lab->atol != NULL)
        N_VDestroy(lab->atol);
    if (lab->ytmp != NULL)
        N_VDestroy(lab->ytmp);
    if (lab->sunctx != NULL)
        SUNContext_Free(&lab->sunctx);
    free(lab);
    *plab = NULL;
}

const char *clink_lab_error(const clink_lab *lab)
{
    return lab != NULL ? lab->msg : "no laboratory workspace";
}

void clink_lab_options_init(clink_lab_options *o)
{
    if (o == NULL)
        return;
    memset(o, 0, sizeof *o);
    o->rtol = 1e-12;
    o->method = CLINK_LAB_RK8;
    o->damping = NAN;
    o->sample = NULL;
    o->sample_ctx = NULL;
    o->samples_per_step = 1;
    o->t_max_factor = 1e4;
}

/* creates (first use) or re-initialises the CVODE memory of a method at t = 0 */
static clink_status lab_cvode_start(clink_lab *lab, int bdf, double t_max, double rtol)
{
    void *mem = lab->mem[bdf];
    int flag;
    int dirs[2] = {-1, -1};

    if (mem == NULL) {
        const char *call;
        mem = ode_create(lab->sunctx, bdf, lab_rhs, 0.0, lab->y, lab, &lab->cvlog, &flag, &call);
        if (mem == NULL)
            return lab_fail(lab, CLINK_ERR_SOLVER, "%s failed (%d)", call, flag);
        lab->mem[bdf] = mem;
        if ((flag = CVodeRootInit(mem, 2, lab_roots)) != CV_SUCCESS)
            return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeRootInit failed (%d)", flag);
        if (bdf) {
            lab->jac = SUNDenseMatrix(LAB_NEQ, LAB_NEQ, lab->sunctx);
            lab->ls = SUNLinSol_Dense(lab->y, lab->jac, lab->sunctx);
            if (lab->jac == NULL || lab->ls == NULL)
                return lab_fail(lab, CLINK_ERR_NOMEM, "dense linear solver: out of memory");
            if ((flag = CVodeSetLinearSolver(mem, lab->ls, lab->jac)) != CV_SUCCESS)
                return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetLinearSolver failed (%d)", flag);
        } else {
            lab->nls = SUNNonlinSol_FixedPoint(lab->y, 0, lab->sunctx);
            if (lab->nls == NULL)
                return lab_fail(lab, CLINK_ERR_NOMEM, "fixed-point solver: out of memory");
            if ((flag = CVodeSetNonlinearSolver(mem, lab->nls)) != CV_SUCCESS)
                return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetNonlinearSolver failed (%d)", flag);
        }
    } else if ((flag = CVodeReInit(mem, 0.0, lab->y)) != CV_SUCCESS) {
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeReInit failed (%d)", flag);
    }
    if ((flag = CVodeSetRootDirection(mem, dirs)) != CV_SUCCESS)
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetRootDirection failed (%d)", flag);
    if ((flag = CVodeSVtolerances(mem, rtol, lab->atol)) != CV_SUCCESS)
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSVtolerances failed (%d)", flag);
    if ((flag = CVodeSetStopTime(mem, t_max)) != CV_SUCCESS)
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetStopTime failed (%d)", flag);
    if ((flag = CVodeSetMaxNumSteps(mem, 100000)) != CV_SUCCESS)
        return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeSetMaxNumSteps failed (%d)", flag);
    return CLINK_OK;
}

/* 1 if the static force at the rung d stores at least energy2 / 2 */
static int lab_scale_holds(const clink_lab *lab, double d, double energy2)
{
    double Fd = lab_force(lab, d, 0.0);

    return isfinite(Fd) && Fd * d >= energy2;
}

/* the first rung i < 400 of d_i = 1e-12 1.5^i at which lab_scale_holds(), or -1 */
static int lab_scale_rung(const clink_lab *lab, double energy2)
{
    double rung[400], d = 1e-12, K = lab->state.K, n = lab->state.n;
    int i, i0 = 0;

    for (i = 0; i < 400; i++) {
        rung[i] = d;
        d *= 1.5;
    }
    if (K > 0.0 && n > 0.0 && isfinite(K) && isfinite(n)) {
        double guess = pow(energy2 / K, 1.0 / (n + 1.0));
        if (guess > 1e-12 && isfinite(guess))
            i0 = (int) fmin(399.0, floor(log(guess / 1e-12) / log(1.5))) - 3;
        if (i0 < 0)
            i0 = 0;
    }
    while (i0 > 0 && lab_scale_holds(lab, rung[i0], energy2))
        i0--;
    for (i = i0; i < 400; i++)
        if (lab_scale_holds(lab, rung[i], energy2))
            return i;
    return -1;
}

/* which coefficient the law uses after onset: 0 chi, 1 c, -1 none (probe of the force) */
static int lab_damping_kind(clink_lab *lab)
{
    clink_contact_state saved = lab->state;
    double d = 0.5 * lab->dscale, r = 0.5 * lab->v0;
    double F0 = lab_force(lab, d, r), F1;
    int kind = -1;
    clink_law_info info;

    /* a law with no damping term of the shape chi delta^m delta_dot and no
       coefficient set at onset (Hertz, Ma-Liu) has nothing to calibrate */
    clink_law_get_info(lab->law, &info);
    if (isnan(info.m) && saved.chi == 0.0 && saved.c == 0.0)
        return -1;
    lab->state.chi = 2.0 * fabs(saved.chi) + 1.0;
    F1 = lab_force(lab, d, r);
    lab->state = saved;
    if (F1 != F0 && isfinite(F1)) {
        kind = 0;
    } else {
        lab->state.c = 2.0 * fabs(saved.c) + 1.0;
        F1 = lab_force(lab, d, r);
        lab->state = saved;
        if (F1 != F0 && isfinite(F1))
            kind = 1;
    }
    return kind;
}

static void lab_emit(clink_lab *lab, const clink_lab_options *o, double t, const double *Y)
{
    if (o->sample != NULL)
        o->sample(o->sample_ctx, t, Y[0], Y[1], lab_force(lab, Y[0], Y[1]));
}

/* ---- the Runge-Kutta laboratory ---------------------------------------------- */

/*
 * The integration variable x of each stretch (lab->var):
 *   LAB_VAR_S  onset:    x = t^(1/q),                    y = (delta, delta', W);
 *   LAB_VAR_T  middle:   x = t,                          y = (delta, delta', W);
 *   LAB_VAR_U  approach to separation: x = -u, delta = offset + u^q,
 *                                                        y = (t, delta', W),
 * where W is the work of the contact force. x always increases.
 */
enum { LAB_VAR_T = 0, LAB_VAR_S = 1, LAB_VAR_U = 2 };

/* x^k for a small whole k >= 0 */
static double lab_ipow(double x, int k)
{
    double r = 1.0;

    while (k-- > 0)
        r *= x;
    return r;
}

/* (t, delta, delta', W) of a point (x, y) of the current stretch */
static void lab_point(const clink_lab *lab, double x, const double *y, double *pt)
{
    if (lab->var == LAB_VAR_U) {
        pt[0] = y[0];
        pt[1] = lab->offset + lab_ipow(-x, lab->q);
    } else {
        pt[0] = lab->var == LAB_VAR_S ? lab_ipow(x, lab->q) : x;
        pt[1] = y[0];
    }
    pt[2] = y[1];
    pt[3] = y[2];
}

static int lab_rk_rhs(void *ctx, double x, const double *y, double *f)
{
    const clink_lab *lab = ctx;
    double J, F, d;

    if (lab->var == LAB_VAR_U) {
        /* d delta / du = J, dt/du = J / delta', and x = -u */
        double u = -x;
        J = (double) lab->q * lab_ipow(u, lab->q - 1);
        d = lab->offset + lab_ipow(u, lab->q);
        F = lab_force(lab, d, y[1]);
        if (!isfinite(F) || !(y[1] < 0.0))
            return 1;
        f[0] = -J / y[1];
        f[1] = F * J / (lab->m * y[1]);
        f[2] = -F * J;
        return 0;
    }
    J = lab->var == LAB_VAR_S ? (double) lab->q * lab_ipow(x, lab->q - 1) : 1.0;
    F = lab_force(lab, y[0], y[1]);
    if (!isfinite(F) || !isfinite(y[0]) || !isfinite(y[1]))
        return 1;
    f[0] = J * y[1];
    f[1] = -J * F / lab->m;
    f[2] = J * F * y[1];
    return 0;
}

/*
 * The smallest q <= 8 that makes q n and q m whole numbers for the stiffness
 * exponent n and the damping exponent m fixed at onset (8 if none does): with
 * x = t^(1/q) the onset expansion delta = v t + a t^(2+m) + b t^(1+n) + ...
 * becomes a power series in x, smooth at x = 0; the same holds at separation
 * for x = (delta - offset)^(1/q).
 */
static int lab_onset_power(const clink_lab *lab)
{
    double ex[2];
    int q, k;

    ex[0] = lab->state.n;
    ex[1] = lab->state.chi != 0.0 ? lab->state.m : 0.0;
    for (q = 1; q <= 8; q++) {
        for (k = 0; k < 2; k++) {
            double a = (double) q * ex[k];
            if (isfinite(a) && a > 0.0 && fabs(a - nearbyint(a)) > 1e-9)
                break;
        }
        if (k == 2)
            return q;
    }
    return 8;
}

/* the root functions on the dense output of one step */
enum {
    LAB_G_RATE = 0,
    LAB_G_SEPARATION = 1,
    LAB_G_FORCE_RATE = 2,
    LAB_G_FORCE_POLY = 3,
    LAB_G_BREAK = 4
};

/* breakpoint k: positive before it is reached in the current phase */
static double lab_break_fn(const clink_lab *lab, int k, double d)
{
    return lab->phase == LAB_PHASE_COMPRESSION ? lab->brk[k] - d : d - lab->brk[k];
}

typedef struct lab_dense_fn {
    clink_lab *lab;
    const lab_rk8_step *step;
    int kind;
} lab_dense_fn;

static double lab_separation_fn(const clink_lab *lab, double d, double v)
{
    double g = d >= 0.0 ? clink_law_separation(lab->law, lab->params, &lab->state, d, v) : d;
    return isfinite(g) ? g : 1.0;
}

static double lab_peak_fn(const clink_lab *lab, double d, double v)
{
    double g = lab_force_rate(lab, d, v, lab_force(lab, d, v));
    return isfinite(g) ? g : 1.0;
}

/*
 * The sign of dF/dt from the dense output alone: F = -m delta'' and the
 * interpolant of delta' is a polynomial, so dF/dt is -m times the second
 * derivative of that polynomial in t (in x = t^(1/q): (v_xx J - v_x J_x) / J^3,
 * J = dt/dx, whose sign is that of the numerator). No force evaluation.
 */
static double lab_force_poly(const clink_lab *lab, const lab_rk8_step *s, double x)
{
    double v1, v2, J, J1;

    lab_rk8_eval_derivs(&lab->rk, s, x, 1, &v1, &v2);
    if (lab->var != LAB_VAR_S)
        return -v2;
    J = (double) lab->q * lab_ipow(x, lab->q - 1);
    J1 = (double) lab->q * (double) (lab->q - 1) * lab_ipow(x, lab->q - 2);
    return -(v2 * J - v1 * J1);
}

static double lab_dense_g(const lab_dense_fn *d, double x)
{
    double y[LAB_RK8_NMAX], pt[4];

    if (d->kind == LAB_G_FORCE_POLY)
        return lab_force_poly(d->lab, d->step, x);
    lab_rk8_eval(&d->lab->rk, d->step, x, y);
    lab_point(d->lab, x, y, pt);
    if (d->kind == LAB_G_RATE)
        return pt[2];
    if (d->kind == LAB_G_SEPARATION)
        return lab_separation_fn(d->lab, pt[1], pt[2]);
    if (d->kind >= LAB_G_BREAK)
        return lab_break_fn(d->lab, d->kind - LAB_G_BREAK, pt[1]);
    return lab_peak_fn(d->lab, pt[1], pt[2]);
}

/*
 * Brent's method (Brent 1973, Ch. 4), shared by the event location and the
 * calibration: the bracket [b, c] with the last iterate a, their values, and the
 * last two steps d and e. The callers keep their own sign test, tolerance and
 * stopping rule, and evaluate the function at each new b.
 */
typedef struct lab_brent {
    double a, b, c, fa, fb, fc, d, e;
} lab_brent;

/* restarts c at a when b and c are on one side (same_side), then keeps |f(b)| <= |f(c)| */
static void lab_brent_bracket(lab_brent *z, int same_side)
{
    if (same_side) {
        z->c = z->a;
        z->fc = z->fa;
        z->d = z->b - z->a;
        z->e = z->d;
    }
    if (fabs(z->fc) < fabs(z->fb)) {
        z->a = z->b;
        z->b = z->c;
        z->c = z->a;
        z->fa = z->fb;
        z->fb = z->fc;
        z->fc = z->fa;
    }
}

/* the next b: inverse quadratic or secant interpolation when it is safe, else bisection */
static void lab_brent_advance(lab_brent *z, double tol, double mid)
{
    double p, q, r, s;
    if (fabs(z->e) >= tol && fabs(z->fa) > fabs(z->fb)) {
        s = z->fb / z->fa;
        if (z->a == z->c) {
            p = 2.0 * mid * s;
            q = 1.0 - s;
        } else {
            q = z->fa / z->fc;
            r = z->fb / z->fc;
            p = s * (2.0 * mid * q * (q - r) - (z->b - z->a) * (r - 1.0));
            q = (q - 1.0) * (r - 1.0) * (s - 1.0);
        }
        if (p > 0.0)
            q = -q;
        else
            p = -p;
        if (2.0 * p < fmin(3.0 * mid * q - fabs(tol * q), fabs(z->e * q))) {
            z->e = z->d;
            z->d = p / q;
        } else {
            z->d = mid;
            z->e = mid;
        }
    } else {
        z->d = mid;
        z->e = mid;
    }
    z->a = z->b;
    z->fa = z->fb;
    z->b += fabs(z->d) > tol ? z->d : (mid > 0.0 ? tol : -tol);
}

/*
 * The zero of g on [a, b] with g(a) > 0 >= g(b), to a few units in the last place
 * of x; returns the side of the final bracket where g <= 0, so that an event is
 * never placed before its crossing.
 */
static double lab_zero(const lab_dense_fn *d, double a, double b, double fa, double fb)
{
    lab_brent z = {a, b, a, fa, fb, fa, b - a, b - a};

    for (int it = 0; it < 100; it++) {
        lab_brent_bracket(&z, (z.fb > 0.0) == (z.fc > 0.0));
        double tol = 4.0 * DBL_EPSILON * fabs(z.b) + 1e-300;
        double mid = 0.5 * (z.c - z.b);
        if (fabs(mid) <= tol || z.fb == 0.0)
            break;
        lab_brent_advance(&z, tol, mid);
        z.fb = lab_dense_g(d, z.b);
    }
    return z.fb <= 0.0 ? z.b : z.c;
}

/* F_max at a zero of dF/dt inside a step whose start has dF/dt > 0 */
static void lab_peak_in_step(clink_lab *lab, lab_rk8_step *s, double x_end, double g_start,
                             clink_lab_result *res)
{
    lab_dense_fn d;
    double g_p0, g_end, x, y[LAB_RK8_NMAX], pt[4], F;

    if (!(g_start > 0.0) || lab_rk8_dense(&lab->rk, s) != 0)
        return;
    d.lab = lab;
    d.step = s;
    /* on the interpolant first; with the law's partials if its signs do not bracket */
    d.kind = LAB_G_FORCE_POLY;
    g_p0 = lab_dense_g(&d, s->x0);
    g_end = lab_dense_g(&d, x_end);
    if (g_p0 > 0.0 && g_end <= 0.0) {
        x = lab_zero(&d, s->x0, x_end, g_p0, g_end);
    } else {
        d.kind = LAB_G_FORCE_RATE;
        g_end = lab_dense_g(&d, x_end);
        if (g_end > 0.0)
            return;
        x = lab_zero(&d, s->x0, x_end, g_start, g_end);
    }
    lab_rk8_eval(&lab->rk, s, x, y);
    lab_point(lab, x, y, pt);
    F = lab_force(lab, pt[1], pt[2]);
    if (F > res->F_max) {
        res->F_max = F;
        res->t_F_max = pt[0];
    }
}

/* a force maximum in the step s (ending at x_e) or in the one before it */
static void lab_peak_search(clink_lab *lab, lab_rk8_step *s, double x_e, clink_lab_result *res)
{
    lab_rk8_step *prev = lab_rk8_last(&lab->rk, 1);
    double pt[4], g_a;

    lab_point(lab, s->x0, s->y0, pt);
    g_a = lab_peak_fn(lab, pt[1], pt[2]);
    if (g_a > 0.0) {
        lab_peak_in_step(lab, s, x_e, g_a, res);
    } else if (prev != NULL) {
        lab_point(lab, prev->x0, prev->y0, pt);
        lab_peak_in_step(lab, prev, prev->x0 + prev->h, lab_peak_fn(lab, pt[1], pt[2]), res);
    }
}

/*
 * Penetrations at which the law's force has a jump in its derivative, so that no
 * step straddles them (an explicit pair's error estimate does not see a kink):
 * the law reports them (its kinks hook; none for a smooth law).
 */
static void lab_breakpoints(clink_lab *lab)
{
    lab->n_break = lab->law->kinks != NULL ? lab->law->kinks(lab->law, lab->params, lab->brk) : 0;
}

/* 1 if the separation function is delta minus a constant (zero penetration, residual) */
static int lab_separation_is_offset(const clink_lab *lab, double d_max)
{
    double v = -0.1 * lab->v0;
    double g1 = lab_separation_fn(lab, 0.5 * d_max, v),
           g2 = lab_separation_fn(lab, 0.25 * d_max, v);

    return fabs((g1 - g2) - 0.25 * d_max) <= 1e-12 * d_max;
}

/*
 * 1 if the force is not analytic through delta = 0 as the step that crosses a
 * separation sees it: fractional exponents (q > 1), or whole ones whose
 * continuation -F(-delta, -delta') is not the polynomial itself (n even or m odd)
 */
static int lab_end_is_singular(const clink_lab *lab)
{
    double m = lab->state.chi != 0.0 ? lab->state.m : 0.0;

    return lab->q > 1 || fmod(lab->state.n, 2.0) != 1.0 || fmod(m, 2.0) != 0.0;
}

static clink_status lab_rk_fail(clink_lab *lab, clink_lab_result *res, clink_status st,
                                const char *what, double t)
{
    res->n_steps = lab->rk.n_steps;
    res->n_rhs = lab->rk.n_rhs;
    res->n_err_fails = lab->rk.n_rejects;
    return lab_fail(lab, st, "%s: %s at t = %.6g s", clink_law_name(lab->law), what, t);
}

/* the state of an RK8 run carried from one step to the next */
typedef struct lab_rk_walk {
    double T0;                             /* kinetic energy at impact (J) */
    double t_scale;                        /* the contact's time scale dscale / v0 (s) */
    double t_max;                          /* no separation by then: the run fails (s) */
    double x_switch;                       /* end of the series start in x = t^(1/q) */
    double pt[4];                          /* (t, delta, delta', W) at the end of the last step */
    double g_sep;                          /* the separation function there (restitution) */
    double Fa;                             /* the force there (compression) */
    double U_c_max;                        /* stored energy at delta_max on the loading curve */
    double saved_t, saved_y[LAB_RK8_NMAX]; /* where the approach in u left t */
    int spp;                               /* loop points per step */
    int rising;                            /* the force has been rising (compression) */
    int end_ok;                            /* the approach in u may be tried */
} lab_rk_walk;

/* the run's scales and tolerances, the first stretch (in t or x = t^(1/q)), its first point */
static clink_status lab_rk_init(clink_lab *lab, const clink_lab_options *o, lab_rk_walk *w,
                                clink_lab_result *res)
{
    lab_rk8 *rk = &lab->rk;
    double y[LAB_RK8_NMAX] = {0.0, lab->v0, 0.0};
    double F;

    memset(w, 0, sizeof *w);
    w->T0 = 0.5 * lab->m * lab->v0 * lab->v0;
    w->t_scale = lab->dscale / lab->v0;
    w->t_max = o->t_max_factor * 3.2 * w->t_scale;
    w->x_switch = 0.0;
    w->g_sep = 1.0;
    w->pt[2] = lab->v0;
    w->spp =
        o->samples_per_step < 1 ? 1 : (o->samples_per_step > 1000 ? 1000 : o->samples_per_step);
    w->rising = 1;

    memset(rk, 0, sizeof *rk);
    rk->rhs = lab_rk_rhs;
    rk->ctx = lab;
    rk->rtol = o->rtol;
    rk->atol[0] = o->rtol * lab->dscale;
    rk->atol[1] = o->rtol * lab->v0;
    rk->atol[2] = o->rtol * w->T0;
    lab->phase = LAB_PHASE_COMPRESSION;
    lab->q = lab_onset_power(lab);
    lab_breakpoints(lab);
    lab->offset = 0.0;
    lab->var = lab->q > 1 ? LAB_VAR_S : LAB_VAR_T;
    if (lab->var == LAB_VAR_S)
        w->x_switch = pow(LAB_SERIES_SPAN * w->t_scale, 1.0 / (double) lab->q);
    if (lab_rk8_start(rk, 0.0, y, lab->var == LAB_VAR_S ? 0.25 * w->x_switch : 0.05 * w->t_scale) !=
        0)
        return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite at onset", 0.0);

    F = lab_force(lab, 0.0, lab->v0);
    res->F_max = F;
    res->t_F_max = 0.0;
    res->F_min = F;
    w->Fa = F;
    lab_emit(lab, o, 0.0, y);
    return CLINK_OK;
}

/*
 * The first event on the step s, which ends at *px_e with the state y_e: 1 end of
 * compression (delta' = 0), 2 separation, 3 a breakpoint of the law's force, 0
 * none. At an event, *px_e and y_e move to it by a step of the pair, not from the
 * dense output: the integration restarts from there.
 */
static clink_status lab_rk_events(clink_lab *lab, lab_rk_walk *w, lab_rk8_step *s, double *px_e,
                                  double *y_e, int *pevent, clink_lab_result *res)
{
    lab_rk8 *rk = &lab->rk;
    lab_dense_fn d;
    double x_e = *px_e, x_ev = x_e, g_b = 1.0;
    int event = 0, k;

    if (lab->var == LAB_VAR_U) {
        *pevent = x_e >= 0.0 ? 2 : 0;
        return CLINK_OK;
    }
    d.lab = lab;
    d.step = s;
    if (lab->phase == LAB_PHASE_COMPRESSION && s->y0[1] > 0.0 && s->y1[1] <= 0.0) {
        d.kind = LAB_G_RATE;
        if (lab_rk8_dense(rk, s) != 0)
            return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", w->pt[0]);
        x_ev = lab_zero(&d, s->x0, x_e, s->y0[1], s->y1[1]);
        event = 1;
    }
    if (lab->phase == LAB_PHASE_RESTITUTION) {
        lab_point(lab, x_e, y_e, w->pt);
        g_b = lab_separation_fn(lab, w->pt[1], w->pt[2]);
        if (w->g_sep > 0.0 && g_b <= 0.0) {
            d.kind = LAB_G_SEPARATION;
            if (lab_rk8_dense(rk, s) != 0)
                return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", w->pt[0]);
            x_ev = lab_zero(&d, s->x0, x_e, w->g_sep, g_b);
            event = 2;
        }
    }
    for (k = 0; k < lab->n_break; k++) {
        double ga = lab_break_fn(lab, k, s->y0[0]), gb = lab_break_fn(lab, k, s->y1[0]);
        if (ga > 0.0 && gb <= 0.0) {
            double x_k;
            d.kind = LAB_G_BREAK + k;
            if (lab_rk8_dense(rk, s) != 0)
                return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", w->pt[0]);
            x_k = lab_zero(&d, s->x0, x_e, ga, gb);
            if (event == 0 || x_k < x_ev) {
                x_ev = x_k;
                event = 3;
            }
        }
    }
    if (event != 0) {
        x_e = x_ev;
        if (lab_rk8_step_to(rk, s, x_e, y_e) != 0)
            return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", w->pt[0]);
    } else if (lab->phase == LAB_PHASE_RESTITUTION) {
        w->g_sep = g_b;
    }
    *px_e = x_e;
    *pevent = event;
    return CLINK_OK;
}

/* the loop: points inside the step s (to x_e) from the dense output, then its end */
static clink_status lab_rk_sample(clink_lab *lab, const clink_lab_options *o, const lab_rk_walk *w,
                                  lab_rk8_step *s, double x_e, clink_lab_result *res)
{
    int j;

    if (o->sample == NULL)
        return CLINK_OK;
    if (w->spp > 1 && lab_rk8_dense(&lab->rk, s) != 0)
        return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", w->pt[0]);
    for (j = 1; j < w->spp; j++) {
        double xs = s->x0 + (x_e - s->x0) * (double) j / (double) w->spp;
        double ys[LAB_RK8_NMAX], ps[4];
        lab_rk8_eval(&lab->rk, s, xs, ys);
        lab_point(lab, xs, ys, ps);
        lab_emit(lab, o, ps[0], ps + 1);
    }
    lab_emit(lab, o, w->pt[0], w->pt + 1);
    return CLINK_OK;
}

/*
 * The force's extremes at the step's end; in compression, a force maximum when F
 * fell after rising, or dF/dt <= 0 at the end of compression or of the series
 * start: dF/dt = 0 lies in this step or the one before.
 */
static void lab_rk_forces(clink_lab *lab, lab_rk_walk *w, lab_rk8_step *s, double x_e, int event,
                          clink_lab_result *res)
{
    double F_e = lab_force(lab, w->pt[1], w->pt[2]);

    if (F_e > res->F_max) {
        res->F_max = F_e;
        res->t_F_max = w->pt[0];
    }
    if (F_e < res->F_min)
        res->F_min = F_e;
    if (lab->phase == LAB_PHASE_COMPRESSION) {
        int at_end =
            event == 1 || event == 3 || (lab->var == LAB_VAR_S && lab->rk.x >= w->x_switch);
        if (w->rising && (F_e < w->Fa || (at_end && lab_peak_fn(lab, w->pt[1], w->pt[2]) <= 0.0))) {
            lab_peak_search(lab, s, x_e, res);
            w->rising = 0;
        } else {
            w->rising = F_e > w->Fa;
        }
        w->Fa = F_e;
    }
}

/* end of compression at x_e: the law's state moves on; on in t from the event */
static clink_status lab_rk_end_compression(clink_lab *lab, lab_rk_walk *w, double x_e,
                                           clink_lab_result *res)
{
    lab_rk8 *rk = &lab->rk;
    double *pt = w->pt;
    double h =
        fmin(rk->h * (lab->var == LAB_VAR_S ? (double) lab->q * lab_ipow(x_e, lab->q - 1) : 1.0),
             0.5 * w->t_scale);
    double yt[LAB_RK8_NMAX] = {pt[1], pt[2], pt[3]};

    res->delta_max = pt[1];
    res->t_compression = pt[0];
    w->U_c_max = clink_law_stored_energy(lab->law, lab->params, &lab->state, pt[1]);
    clink_law_end_compression(lab->law, lab->params, pt[1], &lab->state);
    lab->phase = LAB_PHASE_RESTITUTION;
    lab->var = LAB_VAR_T;
    w->g_sep = lab_separation_fn(lab, pt[1], pt[2]);
    w->end_ok = lab_end_is_singular(lab) && lab_separation_is_offset(lab, pt[1]);
    if (lab_rk8_start(rk, pt[0], yt, h) != 0)
        return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", pt[0]);
    res->n_reinit++;
    return CLINK_OK;
}

/* a breakpoint of the force at x_e: no step straddles it; on in t from there */
static clink_status lab_rk_breakpoint(clink_lab *lab, lab_rk_walk *w, double x_e,
                                      clink_lab_result *res)
{
    lab_rk8 *rk = &lab->rk;
    double *pt = w->pt;
    double h = rk->h * (lab->var == LAB_VAR_S ? (double) lab->q * lab_ipow(x_e, lab->q - 1) : 1.0);
    double yt[LAB_RK8_NMAX] = {pt[1], pt[2], pt[3]};

    lab->var = LAB_VAR_T;
    if (lab->phase == LAB_PHASE_RESTITUTION)
        w->g_sep = lab_separation_fn(lab, pt[1], pt[2]);
    if (lab_rk8_start(rk, pt[0], yt, h) != 0)
        return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", pt[0]);
    res->n_reinit++;
    return CLINK_OK;
}

/*
 * The change of variable after a step without event: at the end of the series
 * start, on in t; close to a separation at delta = offset with the bodies parting,
 * on in u = (delta - offset)^(1/q) down to u = 0, the separation itself.
 */
static clink_status lab_rk_switch(clink_lab *lab, const clink_lab_options *o, lab_rk_walk *w,
                                  double x_e, const double *y_e, clink_lab_result *res)
{
    lab_rk8 *rk = &lab->rk;
    double *pt = w->pt;

    if (lab->var == LAB_VAR_S && rk->x >= w->x_switch) {
        double h = rk->h * (double) lab->q * lab_ipow(x_e, lab->q - 1);
        double yt[LAB_RK8_NMAX] = {pt[1], pt[2], pt[3]};
        lab->var = LAB_VAR_T;
        if (lab_rk8_start(rk, pt[0], yt, h) != 0)
            return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", pt[0]);
    } else if (lab->var == LAB_VAR_T && w->end_ok && w->g_sep > 0.0 &&
               w->g_sep <= LAB_END_SPAN * res->delta_max && pt[2] < -LAB_END_RATE * lab->v0) {
        double u1 = pow(w->g_sep, 1.0 / (double) lab->q);
        double yu[LAB_RK8_NMAX] = {pt[0], pt[2], pt[3]};
        w->saved_t = pt[0];
        memcpy(w->saved_y, y_e, sizeof w->saved_y);
        lab->offset = pt[1] - w->g_sep;
        lab->var = LAB_VAR_U;
        rk->atol[0] = o->rtol * w->t_scale;
        /* first step: the last step in t carried over, du = |delta'| dt / (q u^(q-1)) */
        double h_u = fmin(u1, rk->h * fabs(pt[2]) / ((double) lab->q * lab_ipow(u1, lab->q - 1)));
        if (lab_rk8_start(rk, -u1, yu, h_u) != 0) {
            lab->var = LAB_VAR_T;
            w->end_ok = 0;
            rk->atol[0] = o->rtol * lab->dscale;
            if (lab_rk8_start(rk, w->saved_t, w->saved_y, 0.01 * w->t_scale) != 0)
                return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", pt[0]);
        }
    }
    return CLINK_OK;
}

/* the result at separation, pt = (t, delta, delta', W): rebound, residual, energy balance */
static void lab_rk_separation(clink_lab *lab, const clink_lab_options *o, lab_rk_walk *w,
                              clink_lab_result *res)
{
    lab_rk8 *rk = &lab->rk;
    double *pt = w->pt, T0 = w->T0, U_max, U_res, T_sep;

    res->n_steps = rk->n_steps;
    res->n_rhs = rk->n_rhs;
    res->n_err_fails = rk->n_rejects;
    res->separated = 1;
    res->duration = pt[0];
    /* an overdamped contact creeps back to delta = 0 and the root falls on round-off:
       no rebound */
    if (pt[2] > 0.0 && pt[2] <= 1e3 * o->rtol * lab->v0)
        pt[2] = 0.0;
    res->v_out = pt[2];
    res->e_out = pt[2] != 0.0 ? -pt[2] / lab->v0 : 0.0;
    res->delta_residual = pt[1] > 0.0 ? pt[1] : 0.0;
    res->E_impact = T0;
    U_max = clink_law_stored_energy(lab->law, lab->params, &lab->state, res->delta_max);
    U_res = clink_law_stored_energy(lab->law, lab->params, &lab->state, res->delta_residual);
    T_sep = 0.5 * lab->m * pt[2] * pt[2];
    res->E_residual = U_res;
    res->E_diss_compression = T0 - U_max;
    res->E_diss_restitution = U_max - T_sep - U_res;
    /* the work of F(d, d') - F(d, 0): the work of F less that of the static force along
       the path, the loading curve up to delta_max and the restitution curve back */
    res->W_damping = pt[3] - (w->U_c_max - U_max + U_res);
    res->energy_residual = fabs(T0 - T_sep - pt[3]) / T0;
    clink_law_release(lab->law, lab->params, res->delta_residual, &lab->state);
}

/*
 * One impact by the Dormand-Prince 8(5,3) pair: steps to the first event, the
 * event's restart, the changes of variable, until separation.
 */
static clink_status lab_rk_run(clink_lab *lab, const clink_lab_options *o, clink_lab_result *res)
{
    lab_rk8 *rk = &lab->rk;
    lab_rk_walk w;
    long nsteps = 0;
    clink_status st;

    st = lab_rk_init(lab, o, &w, res);
    if (st != CLINK_OK)
        return st;
    for (;;) {
        lab_rk8_step *s;
        double x_lim = lab->var == LAB_VAR_S ? w.x_switch : (lab->var == LAB_VAR_U ? 0.0 : w.t_max);
        double x_e, y_e[LAB_RK8_NMAX];
        int event = 0;

        if (++nsteps > LAB_MAX_STEPS)
            return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "too many steps", w.pt[0]);
        if (lab_rk8_advance(rk, x_lim) != 0) {
            if (lab->var == LAB_VAR_U) {
                /* the approach in delta failed (delta' near zero): on in t */
                lab->var = LAB_VAR_T;
                w.end_ok = 0;
                if (lab_rk8_start(rk, w.saved_t, w.saved_y, 0.01 * w.t_scale) != 0)
                    return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", w.saved_t);
                continue;
            }
            return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "step size below the resolution of t",
                               w.pt[0]);
        }
        s = lab_rk8_last(rk, 0);
        x_e = rk->x;
        memcpy(y_e, s->y1, sizeof y_e);
        /* events on this step, the first one wins */
        st = lab_rk_events(lab, &w, s, &x_e, y_e, &event, res);
        if (st != CLINK_OK)
            return st;
        lab_point(lab, x_e, y_e, w.pt);
        st = lab_rk_sample(lab, o, &w, s, x_e, res);
        if (st != CLINK_OK)
            return st;
        lab_rk_forces(lab, &w, s, x_e, event, res);
        if (event == 1) {
            st = lab_rk_end_compression(lab, &w, x_e, res);
            if (st != CLINK_OK)
                return st;
            continue;
        }
        if (event == 2)
            break;
        if (event == 3) {
            st = lab_rk_breakpoint(lab, &w, x_e, res);
            if (st != CLINK_OK)
                return st;
            continue;
        }
        st = lab_rk_switch(lab, o, &w, x_e, y_e, res);
        if (st != CLINK_OK)
            return st;
        if (lab->var == LAB_VAR_T && rk->x >= w.t_max)
            return lab_rk_fail(lab, res, CLINK_ERR_NO_CONVERGENCE,
                               "no separation (the contact is overdamped or sticks)", rk->x);
    }
    lab_rk_separation(lab, o, &w, res);
    return CLINK_OK;
}

/* the initial state (delta, delta', W_total, W_damping), its tolerances and CVODE */
static clink_status lab_run_init(clink_lab *lab, const clink_lab_options *o, int bdf, double t_max)
{
    double *Y = N_VGetArrayPointer(lab->y);
    double *A = N_VGetArrayPointer(lab->atol);
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
    lab->cvlog.msg[0] = '\0';
    return lab_cvode_start(lab, bdf, t_max, o->rtol);
}

/* the loop's points of a step (interpolated ones inside, then its end), the force's extremes */
static void lab_run_record(clink_lab *lab, const clink_lab_options *o, void *mem, int spp, int flag,
                           double t_prev, double t, clink_lab_result *res)
{
    double *Y = N_VGetArrayPointer(lab->y);
    double F;

    if (o->sample != NULL && spp > 1 && flag == CV_SUCCESS) {
        int j;
        for (j = 1; j < spp; j++) {
            double ts = t_prev + (t - t_prev) * (double) j / (double) spp;
            if (CVodeGetDky(mem, ts, 0, lab->ytmp) == CV_SUCCESS)
                lab_emit(lab, o, ts, N_VGetArrayPointer(lab->ytmp));
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
    double *Y = N_VGetArrayPointer(lab->y);
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
        if ((flag = CVodeReInit(mem, t, lab->y)) != CV_SUCCESS)
            return lab_fail(lab, CLINK_ERR_SOLVER, "CVodeReInit failed (%d)", flag);
        res->n_reinit++;
    }
    return CLINK_OK;
}

/* the result at separation (t, Y): rebound, residual penetration, energy balance */
static void lab_run_separation(clink_lab *lab, const clink_lab_options *o, double t,
                               clink_lab_result *res)
{
    double *Y = N_VGetArrayPointer(lab->y);
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
    double *Y = N_VGetArrayPointer(lab->y);
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
    mem = lab->mem[bdf];

    F = lab_force(lab, 0.0, lab->v0);
    res->F_max = F;
    res->t_F_max = 0.0;
    res->F_min = F;
    lab_emit(lab, o, 0.0, Y);

    for (;;) {
        if (++nsteps > LAB_MAX_STEPS)
            return lab_fail(lab, CLINK_ERR_SOLVER, "more than %d steps in one impact",
                            LAB_MAX_STEPS);
        flag = CVode(mem, t_max, lab->y, &t, CV_ONE_STEP);
        if (flag < 0)
            return lab_fail(lab, CLINK_ERR_SOLVER, "CVODE failed at t = %.6g s (flag %d): %s", t,
                            flag, lab->cvlog.msg);
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

/* the checks of the impact's numbers and options, before anything is computed */
static clink_status lab_impact_check(clink_lab *lab, double m_eff, double v_impact,
                                     const clink_lab_options *o)
{
    if (!isfinite(m_eff) || !(m_eff > 0.0))
        return lab_fail(lab, CLINK_ERR_RANGE, "mass: %g is not a positive finite number (kg)",
                        m_eff);
    if (!isfinite(v_impact) || !(v_impact > 0.0))
        return lab_fail(lab, CLINK_ERR_RANGE, "velocity: %g is not a positive finite number (m/s)",
                        v_impact);
    if (!isfinite(o->rtol) || !(o->rtol >= 1e-14 && o->rtol <= 1e-3))
        return lab_fail(lab, CLINK_ERR_RANGE, "rtol: %g is outside [1e-14, 1e-3]", o->rtol);
    if (!(o->t_max_factor > 0.0) || !isfinite(o->t_max_factor))
        return lab_fail(lab, CLINK_ERR_RANGE, "t_max_factor: %g must be positive", o->t_max_factor);
    if (!isnan(o->damping) && !(isfinite(o->damping) && o->damping >= 0.0))
        return lab_fail(lab, CLINK_ERR_RANGE, "damping: %g must be finite and >= 0", o->damping);
    return CLINK_OK;
}

/* the law's damping coefficient into res, and the one of the options in its place */
static clink_status lab_impact_damping(clink_lab *lab, const clink_lab_options *o,
                                       clink_lab_result *res)
{
    int kind = lab_damping_kind(lab);

    {
        clink_law_info info;
        clink_law_get_info(lab->law, &info);
        /* a damping exponent m = 0 makes chi a plain linear damper c (N s/m) */
        res->damping_is_c = kind == 1 || (kind == 0 && info.m == 0.0);
    }
    if (kind == 0)
        res->damping_law = lab->state.chi;
    else if (kind == 1)
        res->damping_law = lab->state.c;
    else
        res->damping_law = 0.0;
    res->damping = res->damping_law;
    if (!isnan(o->damping)) {
        if (kind < 0)
            return lab_fail(lab, CLINK_ERR_ARG, "law %s has no damping coefficient to set",
                            clink_law_name(lab->law));
        if (kind == 0)
            lab->state.chi = o->damping;
        else
            lab->state.c = o->damping;
        res->damping = o->damping;
    }
    return CLINK_OK;
}

/* the integration with the method of the options, retried with BDF if it fails */
static clink_status lab_impact_solve(clink_lab *lab, const clink_lab_options *o,
                                     clink_lab_result *res)
{
    clink_contact_state onset = lab->state;
    clink_status st;

    if (o->method == CLINK_LAB_RK8)
        st = lab_rk_run(lab, o, res);
    else
        st = lab_run(lab, o, o->method == CLINK_LAB_BDF, res);
    if (st == CLINK_ERR_SOLVER && o->method != CLINK_LAB_BDF && o->sample == NULL) {
        /* stiff (heavily damped) impacts: retry with BDF and Newton */
        clink_lab_result keep = *res;
        lab->state = onset;
        memset(res, 0, sizeof *res);
        res->v_impact = keep.v_impact;
        res->damping = keep.damping;
        res->damping_law = keep.damping_law;
        res->damping_is_c = keep.damping_is_c;
        st = lab_run(lab, o, 1, res);
    }
    return st;
}

clink_status clink_lab_impact(clink_lab *lab, const clink_law *law,
                              const clink_contact_params *params, double m_eff, double v_impact,
                              const clink_lab_options *options, clink_lab_result *res)
{
    clink_lab_options defaults;
    const clink_lab_options *o = options;
    char msg[256];
    clink_status st;
    double d;
    int i;

    if (lab == NULL)
        return CLINK_ERR_ARG;
    lab->msg[0] = '\0';
    if (law == NULL || params == NULL || res == NULL)
        return lab_fail(lab, CLINK_ERR_ARG, "law, parameters and result must not be NULL");
    if (o == NULL) {
        clink_lab_options_init(&defaults);
        o = &defaults;
    }
    memset(res, 0, sizeof *res);
    res->damping = NAN;
    res->damping_law = NAN;
    st = lab_impact_check(lab, m_eff, v_impact, o);
    if (st != CLINK_OK)
        return st;
    msg[0] = '\0';
    st = clink_law_check(law, params, msg, sizeof msg);
    if (st != CLINK_OK)
        return lab_fail(lab, st, "%s", msg[0] ? msg : clink_status_string(st));

    lab->law = law;
    lab->params = params;
    lab->m = m_eff;
    lab->v0 = v_impact;
    res->v_impact = v_impact;
    clink_contact_state_init(&lab->state);
    st = clink_law_onset(law, params, v_impact, m_eff, &lab->state);
    if (st != CLINK_OK)
        return lab_fail(lab, st, "contact onset of %s: %s", clink_law_name(law),
                        clink_status_string(st));

    /* length scale: where the elastic force at rest would store the impact energy
       (F d / 2 = m v^2 / 2, exact for a linear spring), the first of the ladder
       1e-12 1.5^i that does; the search starts a few rungs below the power-law
       estimate (m v^2 / K)^(1 / (n + 1)) and goes down while the rung below also
       does (F d grows with d), so that it evaluates a handful of forces, not 50 */
    i = lab_scale_rung(lab, m_eff * v_impact * v_impact);
    if (i < 0)
        return lab_fail(lab, CLINK_ERR_RANGE,
                        "law %s gives no elastic force that can stop the impact",
                        clink_law_name(law));
    for (d = 1e-12; i > 0; i--)
        d *= 1.5;
    lab->dscale = d;

    st = lab_impact_damping(lab, o, res);
    if (st != CLINK_OK)
        return st;
    return lab_impact_solve(lab, o, res);
}

/* ---- calibration ---------------------------------------------------------- */

typedef struct lab_cal_ctx {
    clink_lab *lab;
    const clink_law *law;
    const clink_contact_params *params;
    double m, v, target;
    clink_lab_options opt;
    clink_lab_result last;
    int runs;
} lab_cal_ctx;

static clink_status lab_cal_eval(lab_cal_ctx *c, double x, double *f)
{
    clink_status st;

    c->opt.damping = x;
    c->runs++;
    st = clink_lab_impact(c->lab, c->law, c->params, c->m, c->v, &c->opt, &c->last);
    if (st != CLINK_OK)
        return st;
    *f = c->last.e_out - c->target;
    return CLINK_OK;
}

/* the upper end's scale: the law's own coefficient, or one from the elastic force */
static double lab_cal_scale(const clink_lab *lab, const clink_lab_calibration *cal,
                            const clink_law_info *info, double v_impact)
{
    double x_scale;

    if (cal->damping_law > 0.0 && isfinite(cal->damping_law)) {
        x_scale = cal->damping_law;
    } else {
        double d = lab->dscale, F = lab_force(lab, d, 0.0);
        double mexp = isfinite(info->m) ? info->m : 0.0;
        x_scale = 0.1 * F / (cal->damping_is_c ? v_impact : pow(d, mexp) * v_impact);
        if (!(x_scale > 0.0) || !isfinite(x_scale))
            x_scale = 1.0;
    }
    return x_scale;
}

/*
 * The bracket [a, b] with f(a) > 0 >= f(b), from f(a) > 0 and a first b: b grows
 * by 4 while f(b) > 0 and halves towards a where the contact does not separate.
 */
static clink_status lab_cal_bracket(lab_cal_ctx *c, double *a, double *fa, double *b, double *fb)
{
    clink_status st;
    int i;

    for (i = 0;; i++) {
        st = lab_cal_eval(c, *b, fb);
        if (st != CLINK_OK && st != CLINK_ERR_NO_CONVERGENCE)
            return st;
        if (st == CLINK_ERR_NO_CONVERGENCE) {
            *b = 0.5 * (*a + *b); /* overdamped: no separation; come back */
            if (i > 80)
                return lab_fail(c->lab, CLINK_ERR_NO_CONVERGENCE, "no bracket for the damping");
            continue;
        }
        if (*fb <= 0.0)
            break;
        *a = *b;
        *fa = *fb;
        *b *= 4.0;
        if (i > 80)
            return lab_fail(c->lab, CLINK_ERR_NO_CONVERGENCE,
                            "%s: no damping up to %g reaches e = %g", clink_law_name(c->law), *b,
                            c->target);
    }
    return CLINK_OK;
}

/* Brent's method on [a, b] with f(a) > 0 >= f(b); *b is left at the root */
static clink_status lab_cal_brent(lab_cal_ctx *c, double a, double fa, double *pb, double fb)
{
    lab_brent z = {a, *pb, a, fa, fb, fa, *pb - a, *pb - a};

    for (int i = 0; i < 200; i++) {
        lab_brent_bracket(&z, (z.fb > 0.0 && z.fc > 0.0) || (z.fb < 0.0 && z.fc < 0.0));
        double tol = 2.0 * 1e-16 * fabs(z.b) + 1e-300;
        double m = 0.5 * (z.c - z.b);
        if (fabs(z.fb) <= 1e-11 || fabs(m) <= tol)
            break;
        lab_brent_advance(&z, tol, m);
        clink_status st = lab_cal_eval(c, z.b, &z.fb);
        if (st != CLINK_OK)
            return st;
    }
    *pb = z.b;
    return CLINK_OK;
}

/*
 * The calibration's result at the damping b, found: tightens rtol and starts again
 * where the integration error of e_out is what keeps it from the target.
 */
static clink_status lab_cal_finish(lab_cal_ctx *c, const clink_contact_params *params, double K,
                                   double b, clink_lab_calibration *cal)
{
    clink_status st;
    double fb;

    st = lab_cal_eval(c, b, &fb);
    if (st != CLINK_OK)
        return st;
    cal->damping = b;
    cal->e_achieved = c->last.e_out;
    cal->impact = c->last;
    cal->alpha = b / sqrt(K * c->m);
    cal->iterations = c->runs;
    if (fabs(fb) > 1e-10 && c->opt.rtol >= 1e-13) {
        /* the integration error of e_out is the floor: tighten and start again */
        clink_lab_options tighter = c->opt;
        tighter.rtol = 0.1 * c->opt.rtol;
        return clink_lab_calibrate(c->lab, c->law, params, c->m, c->v, c->target, &tighter, cal);
    }
    if (fabs(fb) > 1e-9)
        return lab_fail(c->lab, CLINK_ERR_NO_CONVERGENCE,
                        "%s: calibration stopped at |e_out - e| = %.3g", clink_law_name(c->law),
                        fabs(fb));
    return CLINK_OK;
}

clink_status clink_lab_calibrate(clink_lab *lab, const clink_law *law,
                                 const clink_contact_params *params, double m_eff, double v_impact,
                                 double e_target, const clink_lab_options *options,
                                 clink_lab_calibration *cal)
{
    clink_contact_params p;
    lab_cal_ctx c;
    clink_status st;
    clink_law_info info;
    double a, b, fa, fb = NAN, K;

    if (lab == NULL)
        return CLINK_ERR_ARG;
    if (law == NULL || params == NULL || cal == NULL)
        return lab_fail(lab, CLINK_ERR_ARG, "law, parameters and result must not be NULL");
    if (!isfinite(e_target) || !(e_target > 0.0 && e_target <= 1.0))
        return lab_fail(lab, CLINK_ERR_RANGE, "target: %g is outside (0, 1]", e_target);
    memset(cal, 0, sizeof *cal);
    cal->e_target = e_target;
    p = *params;
    p.e = e_target;

    memset(&c, 0, sizeof c);
    c.lab = lab;
    c.law = law;
    c.params = &p;
    c.m = m_eff;
    c.v = v_impact;
    c.target = e_target;
    if (options != NULL)
        c.opt = *options;
    else
        clink_lab_options_init(&c.opt);
    c.opt.sample = NULL;

    /* the law's own rule */
    c.opt.damping = NAN;
    st = clink_lab_impact(lab, law, &p, m_eff, v_impact, &c.opt, &cal->impact);
    c.runs++;
    if (st != CLINK_OK)
        return st;
    cal->damping_law = cal->impact.damping_law;
    cal->e_law = cal->impact.e_out;
    cal->damping_is_c = cal->impact.damping_is_c;
    clink_law_get_info(law, &info);
    K = p.K;
    cal->alpha_law = cal->damping_law / sqrt(K * m_eff);

    /* lower end: no damping */
    st = lab_cal_eval(&c, 0.0, &fa);
    if (st == CLINK_ERR_ARG)
        return lab_fail(lab, CLINK_ERR_ARG, "law %s has no damping coefficient to calibrate",
                        clink_law_name(law));
    if (st != CLINK_OK)
        return st;
    a = 0.0;
    if (fabs(fa) <= 1e-10)
        return lab_cal_finish(&c, params, K, 0.0, cal);
    if (fa < 0.0)
        return lab_fail(lab, CLINK_ERR_NO_CONVERGENCE,
                        "%s: even without damping e_out = %.12g < target %.12g",
                        clink_law_name(law), fa + e_target, e_target);

    /* upper end: start above the law's own value so that Brent's method finds the
       root on its own, even where the law's rule is already exact */
    b = 2.0 * lab_cal_scale(lab, cal, &info, v_impact);
    st = lab_cal_bracket(&c, &a, &fa, &b, &fb);
    if (st != CLINK_OK)
        return st;
    if (fabs(fb) > 1e-10) {
        st = lab_cal_brent(&c, a, fa, &b, fb);
        if (st != CLINK_OK)
            return st;
    }
    return lab_cal_finish(&c, params, K, b, cal);
}
