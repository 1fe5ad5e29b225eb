/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The laboratory's impact through the integrator table (src/integrators/integrator.h):
 * the methods adams and bdf of the options (CVODE's Adams with fixed-point iteration,
 * BDF with Newton), on request or as the fallback of the Runge-Kutta one, run by the
 * same integrator as the mechanisms', given the impact as a problem of 4 components:
 *
 *   y = (delta, delta', W, D),  W' = F delta',  D' = (F(delta, delta') - F(delta, 0)) delta',
 *
 * one position delta and its rate (npos = 1), W the work of the contact force (energy
 * balance check: m v^2/2 - m v_out^2/2 = W at separation) and D the work of its
 * rate-dependent part (the damping). Error weights 1 / (rtol |y_i| + atol_i), atol_i
 * rtol times the impact's scales (dscale, v0, the kinetic energy). BDF's Jacobian
 * df/dy: the rows of delta'', W', D' in the columns of delta and delta' by forward
 * differences of the right-hand side (the columns of W and D are zero).
 * Events, two groups of two functions, all falling (direction + to -):
 *   group 0, compression:  g0 = delta' (end of compression), g1 = dF/dt (force
 *                          maximum, dF/dt = F_delta delta' + F_rate delta'', partials
 *                          by central differences of the pure law function);
 *   group 1, restitution:  g2 = clink_law_separation() (zero penetration, zero force
 *                          or elastoplastic residual), g3 = 1;
 * the functions of the phase not in progress are 1. The integrator is re-initialised at
 * the end of compression only when the law's force changes there (a probe before and
 * after clink_law_end_compression()). The stored energy U(a, b) = integral of F(s, 0) ds
 * over [a, b] is the adaptive Gauss-Kronrod 7-15 quadrature of the law.
 */
#include "lab/lab_private.h"

#include "integrators/integrator.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the problem ----------------------------------------------------------- */

static int lab_p_rhs(void *data, double t, const double *Y, double *D)
{
    const clink_lab *lab = data;
    double F = lab_force(lab, Y[0], Y[1]);
    double F0 = lab_force(lab, Y[0], 0.0);

    (void) t;
    if (!isfinite(F) || !isfinite(F0) || !isfinite(Y[0]) || !isfinite(Y[1]))
        return 1; /* recoverable: the integrator retries with a smaller step */
    D[0] = Y[1];
    D[1] = -F / lab->m;
    D[2] = F * Y[1];
    D[3] = (F - F0) * Y[1];
    return 0;
}

static void lab_p_weights(void *data, const double *y, double *w)
{
    const clink_lab *lab = data;
    for (int i = 0; i < LAB_NEQ; i++)
        w[i] = 1.0 / (lab->rtol * fabs(y[i]) + lab->atol[i]);
}

/* rows delta'', W', D' (as 0, 1, 2) in the columns of delta and delta' */
static const long *lab_p_jacobian_pattern(void *data, const int **rows, long *version)
{
    static const long colptr[2] = {0, 3};
    static const int r[3] = {0, 1, 2};
    (void) data;
    *rows = r;
    *version = 1;
    return colptr;
}

/* forward differences of the right-hand side in delta and delta' */
static int lab_p_jacobian(void *data, double t, double *y, const double *fy, double *tmp,
                          double *vals, const long *start)
{
    clink_lab *lab = data;
    double w[LAB_NEQ];
    lab_p_weights(lab, y, w);
    for (int j = 0; j < 2; j++) {
        double yj = y[j], inc = sqrt(DBL_EPSILON) * fmax(fabs(yj), 1.0 / w[j]);
        y[j] = yj + inc;
        int rc = lab_p_rhs(lab, t, y, tmp);
        y[j] = yj;
        if (rc != 0)
            return rc;
        for (int k = 0; k < 3; k++)
            vals[start[j] + k] = (tmp[1 + k] - fy[1 + k]) / inc;
    }
    return 0;
}

static void lab_p_directions(void *data, int *dirs)
{
    (void) data;
    for (int k = 0; k < 4; k++)
        dirs[k] = -1;
}

/* group k's two functions at the state Y into g */
static void lab_p_group(const clink_lab *lab, int k, const double *Y, double *g)
{
    g[0] = g[1] = 1.0;
    if (k == 0 && lab->phase == LAB_PHASE_COMPRESSION) {
        double F = lab_force(lab, Y[0], Y[1]);
        g[0] = Y[1];
        g[1] = lab_force_rate(lab, Y[0], Y[1], F);
    } else if (k == 1 && lab->phase == LAB_PHASE_RESTITUTION) {
        g[0] = Y[0] >= 0.0 ? clink_law_separation(lab->law, lab->params, &lab->state, Y[0], Y[1])
                           : Y[0];
    }
    if (!isfinite(g[0]))
        g[0] = 1.0; /* keep the root finder away from an undefined point */
    if (!isfinite(g[1]))
        g[1] = 1.0;
}

static int lab_p_events(void *data, double t, const double *y, double *g)
{
    clink_lab *lab = data;
    (void) t;
    lab->n_gevals++;
    lab_p_group(lab, 0, y, g);
    lab_p_group(lab, 1, y, g + 2);
    return 0;
}

static void lab_p_events_load(void *data, const double *y)
{
    clink_lab *lab = data;
    memcpy(lab->ev_state, y, sizeof lab->ev_state);
}

/* both groups read delta and delta' */
static int lab_p_event_inputs(void *data, const int *groups, int n, int *pairs)
{
    (void) data;
    (void) groups;
    int m = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 2; i++, m++) {
            pairs[2 * m] = i;
            pairs[2 * m + 1] = i;
        }
    return m;
}

static int lab_p_events_some(void *data, double t, const int *groups, int n, double *g)
{
    clink_lab *lab = data;
    (void) t;
    lab->n_gevals++;
    for (int k = 0; k < n; k++)
        lab_p_group(lab, groups[k], lab->ev_state, g + 2 * groups[k]);
    return 0;
}

static integ_problem lab_problem(clink_lab *lab)
{
    integ_problem p = {0};
    p.data = lab;
    p.n = LAB_NEQ;
    p.npos = 1;
    p.rhs = lab_p_rhs;
    p.weights = lab_p_weights;
    p.jacobian = lab_p_jacobian;
    p.jacobian_pattern = lab_p_jacobian_pattern;
    p.nevents = 4;
    p.event_directions = lab_p_directions;
    p.events = lab_p_events;
    p.events_load = lab_p_events_load;
    p.event_inputs = lab_p_event_inputs;
    p.event_inputs_max = 2;
    p.events_some = lab_p_events_some;
    p.event_state = lab->ev_state;
    return p;
}

/* ---- the stored energy --------------------------------------------------------- */

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

/* ---- the run -------------------------------------------------------------------- */

/* the integrator's counters into the result */
static void lab_add_stats(clink_lab *lab, integ *in, clink_lab_result *res)
{
    integ_stats c;

    in->ops->stats(in, &c);
    res->n_steps += c.steps;
    res->n_rhs += c.rhs_evals;
    res->n_root_evals += lab->n_gevals;
    res->n_err_fails += c.error_test_fails;
    res->n_nonlin_iters += c.nonlin_iters;
    res->n_nonlin_fails += c.nonlin_fails;
    res->n_jac_evals += c.jac_evals;
}

/* the initial state (delta, delta', W_total, W_damping), its tolerances and the integrator */
static integ *lab_run_init(clink_lab *lab, const clink_lab_options *o, clink_method method,
                           double t_max, clink_status *st)
{
    double Y[LAB_NEQ] = {0.0, lab->v0, 0.0, 0.0};
    double T0 = 0.5 * lab->m * lab->v0 * lab->v0;
    integ_problem p = lab_problem(lab);
    integ_config c = {.method = method, .rtol = o->rtol, .atol = o->rtol};
    const integ_ops *ops = integrator_for(method);
    char msg[256];

    lab->rtol = o->rtol;
    lab->atol[0] = o->rtol * lab->dscale;
    lab->atol[1] = o->rtol * lab->v0;
    lab->atol[2] = o->rtol * T0;
    lab->atol[3] = o->rtol * T0;
    lab->phase = LAB_PHASE_COMPRESSION;
    lab->n_gevals = 0;
    integ *in = ops ? ops->create(&p, &c, 0.0, Y, st, msg, sizeof msg) : NULL;
    if (!in) {
        *st = lab_fail(lab, ops ? *st : CLINK_ERR_ARG, "%s", ops ? msg : "no integrator");
        return NULL;
    }
    if (in->ops->set_stop_time(in, t_max) < 0) {
        in->ops->destroy(in);
        *st = lab_fail(lab, CLINK_ERR_SOLVER, "%s refused the stop time %.6g s", ops->name, t_max);
        return NULL;
    }
    *st = CLINK_OK;
    return in;
}

/* the loop's points of a step (interpolated ones inside, then its end Y), the force's
   extremes; the dense output overwrites in->y */
static void lab_run_record(clink_lab *lab, const clink_lab_options *o, integ *in, int spp, int flag,
                           double t_prev, double t, const double *Y, clink_lab_result *res)
{
    double F;

    if (o->sample != NULL && spp > 1 && flag == INTEG_SUCCESS) {
        int j;
        for (j = 1; j < spp; j++) {
            double ts = t_prev + (t - t_prev) * (double) j / (double) spp;
            if (in->ops->dense(in, ts, 0) == 0)
                lab_emit(lab, o, ts, in->y);
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
 * End of compression at (t, Y): the law's state machine moves on; the integrator is
 * re-initialised only if the force law changes here, else told that the events did.
 */
static clink_status lab_run_end_compression(clink_lab *lab, integ *in, double t, const double *Y,
                                            clink_lab_result *res)
{
    double probe_d[2] = {Y[0], 0.5 * Y[0]};
    double probe_r = -0.01 * lab->v0, before[2], after[2];
    int k, jump = 0, rc;

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
    if (!jump) {
        in->ops->events_changed(in);
        return CLINK_OK;
    }
    if ((rc = in->ops->reinit(in, t, Y)) != 0) {
        char flag[64];
        return lab_fail(lab, CLINK_ERR_SOLVER, "%s re-initialisation failed (%d, %s)",
                        in->ops->name, rc, in->ops->code_name(rc, flag, sizeof flag));
    }
    res->n_reinit++;
    return CLINK_OK;
}

/* the result at separation (t, Y): rebound, residual penetration, energy balance */
static void lab_run_separation(clink_lab *lab, const clink_lab_options *o, double t, double *Y,
                               clink_lab_result *res)
{
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

/* a failed step: the integrator's word on it */
static clink_status lab_run_failed(clink_lab *lab, integ *in, int rc, double t)
{
    char flag[64];
    const char *cause = "";
    double h = 0.0;
    in->ops->failure(in, rc, &h, flag, sizeof flag, &cause);
    return lab_fail(lab, CLINK_ERR_SOLVER, "%s failed at t = %.6g s (%s, step %.3g s): %s",
                    in->ops->name, t, flag, h, cause ? cause : "");
}

/* the steps from onset to separation; the caller owns in */
static clink_status lab_run_steps(clink_lab *lab, const clink_lab_options *o, integ *in,
                                  double t_max, clink_lab_result *res)
{
    double Y[LAB_NEQ] = {0.0, lab->v0, 0.0, 0.0};
    double t = 0.0, t_prev = 0.0, F;
    int flag, nsteps = 0, spp = o->samples_per_step;
    clink_status st;

    if (spp < 1)
        spp = 1;
    if (spp > 1000)
        spp = 1000;
    F = lab_force(lab, 0.0, lab->v0);
    res->F_max = F;
    res->t_F_max = 0.0;
    res->F_min = F;
    lab_emit(lab, o, 0.0, Y);
    for (;;) {
        if (++nsteps > LAB_MAX_STEPS)
            return lab_fail(lab, CLINK_ERR_SOLVER, "more than %d steps in one impact",
                            LAB_MAX_STEPS);
        flag = in->ops->step(in, t_max, &t);
        if (flag < 0)
            return lab_run_failed(lab, in, flag, t);
        memcpy(Y, in->y, sizeof Y);
        if (flag == INTEG_TSTOP)
            return lab_fail(lab, CLINK_ERR_NO_CONVERGENCE,
                            "no separation within %.6g s (%.3g times the contact time scale); "
                            "the contact is overdamped or sticks",
                            t, o->t_max_factor);
        lab_run_record(lab, o, in, spp, flag, t_prev, t, Y, res);
        t_prev = t;
        if (flag != INTEG_ROOT)
            continue;
        const int *roots = in->ops->events_found(in);
        if (lab->phase == LAB_PHASE_COMPRESSION && roots[0] != 0) {
            if ((st = lab_run_end_compression(lab, in, t, Y, res)) != CLINK_OK)
                return st;
        } else if (lab->phase == LAB_PHASE_RESTITUTION && roots[2] != 0) {
            break; /* separation */
        }
    }
    lab_run_separation(lab, o, t, Y, res);
    return CLINK_OK;
}

/* one attempt with one method; the caller may retry with BDF */
static clink_status lab_run(clink_lab *lab, const clink_lab_options *o, clink_method method,
                            clink_lab_result *res)
{
    double t_scale = lab->dscale / lab->v0;
    double t_max = o->t_max_factor * 3.2 * t_scale;
    clink_status st;
    integ *in = lab_run_init(lab, o, method, t_max, &st);

    if (!in)
        return st;
    st = lab_run_steps(lab, o, in, t_max, res);
    lab_add_stats(lab, in, res);
    in->ops->destroy(in);
    return st;
}

static clink_status lab_table_adams(clink_lab *lab, const clink_lab_options *o,
                                    clink_lab_result *res)
{
    return lab_run(lab, o, CLINK_METHOD_ADAMS, res);
}

static clink_status lab_table_bdf(clink_lab *lab, const clink_lab_options *o, clink_lab_result *res)
{
    return lab_run(lab, o, CLINK_METHOD_BDF, res);
}

const lab_integrator lab_integrator_adams = {"adams", lab_table_adams};
const lab_integrator lab_integrator_bdf = {"bdf", lab_table_bdf};
