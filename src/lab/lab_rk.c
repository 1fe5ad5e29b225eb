/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The laboratory's default integrator: one impact by the Dormand-Prince 8(5,3) pair
 * of src/integrators/rk8/rk8.c (Hairer, Norsett and Wanner 1993, Sect. II.10) on
 *
 *   m delta'' = -F(delta, delta', state),   delta(0) = 0, delta'(0) = v > 0,
 *
 * with y = (delta, delta', W), W the work of the contact force. The onset is a
 * series start in x = t^(1/q) (q makes the exponents of the law whole), the
 * approach to a separation at delta = offset is integrated in u = (delta -
 * offset)^(1/q) down to u = 0, and the events (end of compression, separation,
 * the kinks of the law's force, the force maximum) are located by Brent's method
 * (lab_brent.c) on the dense output of the step; see docs/laboratory.md. The
 * energies at separation use the law's exact stored energy
 * (clink_law_stored_energy).
 */
#include "lab/lab_private.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* length of the series start in contact time scales dscale / v (0.03 ... 1 measured:
   0.3 needs the fewest steps, by one or two) */
#define LAB_SERIES_SPAN 0.3
/* the approach to separation in delta starts below this fraction of delta_max ... */
#define LAB_END_SPAN 0.3
/* ... with the bodies parting faster than this fraction of v */
#define LAB_END_RATE 1e-2

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
    const rk8_step *step;
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
static double lab_force_poly(const clink_lab *lab, const rk8_step *s, double x)
{
    double v1, v2, J, J1;

    rk8_eval_derivs(&lab->rk, s, x, 1, &v1, &v2);
    if (lab->var != LAB_VAR_S)
        return -v2;
    J = (double) lab->q * lab_ipow(x, lab->q - 1);
    J1 = (double) lab->q * (double) (lab->q - 1) * lab_ipow(x, lab->q - 2);
    return -(v2 * J - v1 * J1);
}

static double lab_dense_g(const lab_dense_fn *d, double x)
{
    double y[LAB_RK_N], pt[4];

    if (d->kind == LAB_G_FORCE_POLY)
        return lab_force_poly(d->lab, d->step, x);
    rk8_eval(&d->lab->rk, d->step, x, y);
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
static void lab_peak_in_step(clink_lab *lab, rk8_step *s, double x_end, double g_start,
                             clink_lab_result *res)
{
    lab_dense_fn d;
    double g_p0, g_end, x, y[LAB_RK_N], pt[4], F;

    if (!(g_start > 0.0) || rk8_dense(&lab->rk, s) != 0)
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
    rk8_eval(&lab->rk, s, x, y);
    lab_point(lab, x, y, pt);
    F = lab_force(lab, pt[1], pt[2]);
    if (F > res->F_max) {
        res->F_max = F;
        res->t_F_max = pt[0];
    }
}

/* a force maximum in the step s (ending at x_e) or in the one before it */
static void lab_peak_search(clink_lab *lab, rk8_step *s, double x_e, clink_lab_result *res)
{
    rk8_step *prev = rk8_last(&lab->rk, 1);
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
    double T0;                         /* kinetic energy at impact (J) */
    double t_scale;                    /* the contact's time scale dscale / v0 (s) */
    double t_max;                      /* no separation by then: the run fails (s) */
    double x_switch;                   /* end of the series start in x = t^(1/q) */
    double pt[4];                      /* (t, delta, delta', W) at the end of the last step */
    double g_sep;                      /* the separation function there (restitution) */
    double Fa;                         /* the force there (compression) */
    double U_c_max;                    /* stored energy at delta_max on the loading curve */
    double saved_t, saved_y[LAB_RK_N]; /* where the approach in u left t */
    int spp;                           /* loop points per step */
    int rising;                        /* the force has been rising (compression) */
    int end_ok;                        /* the approach in u may be tried */
} lab_rk_walk;

/* the run's scales and tolerances, the first stretch (in t or x = t^(1/q)), its first point */
static clink_status lab_rk_init(clink_lab *lab, const clink_lab_options *o, lab_rk_walk *w,
                                clink_lab_result *res)
{
    rk8 *rk = &lab->rk;
    double y[LAB_RK_N] = {0.0, lab->v0, 0.0};
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

    rk8_reset(rk);
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
    if (rk8_start(rk, 0.0, y, lab->var == LAB_VAR_S ? 0.25 * w->x_switch : 0.05 * w->t_scale) != 0)
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
static clink_status lab_rk_events(clink_lab *lab, lab_rk_walk *w, rk8_step *s, double *px_e,
                                  double *y_e, int *pevent, clink_lab_result *res)
{
    rk8 *rk = &lab->rk;
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
        if (rk8_dense(rk, s) != 0)
            return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", w->pt[0]);
        x_ev = lab_zero(&d, s->x0, x_e, s->y0[1], s->y1[1]);
        event = 1;
    }
    if (lab->phase == LAB_PHASE_RESTITUTION) {
        lab_point(lab, x_e, y_e, w->pt);
        g_b = lab_separation_fn(lab, w->pt[1], w->pt[2]);
        if (w->g_sep > 0.0 && g_b <= 0.0) {
            d.kind = LAB_G_SEPARATION;
            if (rk8_dense(rk, s) != 0)
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
            if (rk8_dense(rk, s) != 0)
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
        if (rk8_step_to(rk, s, x_e, y_e) != 0)
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
                                  rk8_step *s, double x_e, clink_lab_result *res)
{
    int j;

    if (o->sample == NULL)
        return CLINK_OK;
    if (w->spp > 1 && rk8_dense(&lab->rk, s) != 0)
        return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", w->pt[0]);
    for (j = 1; j < w->spp; j++) {
        double xs = s->x0 + (x_e - s->x0) * (double) j / (double) w->spp;
        double ys[LAB_RK_N], ps[4];
        rk8_eval(&lab->rk, s, xs, ys);
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
static void lab_rk_forces(clink_lab *lab, lab_rk_walk *w, rk8_step *s, double x_e, int event,
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
    rk8 *rk = &lab->rk;
    double *pt = w->pt;
    double h =
        fmin(rk->h * (lab->var == LAB_VAR_S ? (double) lab->q * lab_ipow(x_e, lab->q - 1) : 1.0),
             0.5 * w->t_scale);
    double yt[LAB_RK_N] = {pt[1], pt[2], pt[3]};

    res->delta_max = pt[1];
    res->t_compression = pt[0];
    w->U_c_max = clink_law_stored_energy(lab->law, lab->params, &lab->state, pt[1]);
    clink_law_end_compression(lab->law, lab->params, pt[1], &lab->state);
    lab->phase = LAB_PHASE_RESTITUTION;
    lab->var = LAB_VAR_T;
    w->g_sep = lab_separation_fn(lab, pt[1], pt[2]);
    w->end_ok = lab_end_is_singular(lab) && lab_separation_is_offset(lab, pt[1]);
    if (rk8_start(rk, pt[0], yt, h) != 0)
        return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", pt[0]);
    res->n_reinit++;
    return CLINK_OK;
}

/* a breakpoint of the force at x_e: no step straddles it; on in t from there */
static clink_status lab_rk_breakpoint(clink_lab *lab, lab_rk_walk *w, double x_e,
                                      clink_lab_result *res)
{
    rk8 *rk = &lab->rk;
    double *pt = w->pt;
    double h = rk->h * (lab->var == LAB_VAR_S ? (double) lab->q * lab_ipow(x_e, lab->q - 1) : 1.0);
    double yt[LAB_RK_N] = {pt[1], pt[2], pt[3]};

    lab->var = LAB_VAR_T;
    if (lab->phase == LAB_PHASE_RESTITUTION)
        w->g_sep = lab_separation_fn(lab, pt[1], pt[2]);
    if (rk8_start(rk, pt[0], yt, h) != 0)
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
    rk8 *rk = &lab->rk;
    double *pt = w->pt;

    if (lab->var == LAB_VAR_S && rk->x >= w->x_switch) {
        double h = rk->h * (double) lab->q * lab_ipow(x_e, lab->q - 1);
        double yt[LAB_RK_N] = {pt[1], pt[2], pt[3]};
        lab->var = LAB_VAR_T;
        if (rk8_start(rk, pt[0], yt, h) != 0)
            return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", pt[0]);
    } else if (lab->var == LAB_VAR_T && w->end_ok && w->g_sep > 0.0 &&
               w->g_sep <= LAB_END_SPAN * res->delta_max && pt[2] < -LAB_END_RATE * lab->v0) {
        double u1 = pow(w->g_sep, 1.0 / (double) lab->q);
        double yu[LAB_RK_N] = {pt[0], pt[2], pt[3]};
        w->saved_t = pt[0];
        memcpy(w->saved_y, y_e, sizeof w->saved_y);
        lab->offset = pt[1] - w->g_sep;
        lab->var = LAB_VAR_U;
        rk->atol[0] = o->rtol * w->t_scale;
        /* first step: the last step in t carried over, du = |delta'| dt / (q u^(q-1)) */
        double h_u = fmin(u1, rk->h * fabs(pt[2]) / ((double) lab->q * lab_ipow(u1, lab->q - 1)));
        if (rk8_start(rk, -u1, yu, h_u) != 0) {
            lab->var = LAB_VAR_T;
            w->end_ok = 0;
            rk->atol[0] = o->rtol * lab->dscale;
            if (rk8_start(rk, w->saved_t, w->saved_y, 0.01 * w->t_scale) != 0)
                return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", pt[0]);
        }
    }
    return CLINK_OK;
}

/* the result at separation, pt = (t, delta, delta', W): rebound, residual, energy balance */
static void lab_rk_separation(clink_lab *lab, const clink_lab_options *o, lab_rk_walk *w,
                              clink_lab_result *res)
{
    rk8 *rk = &lab->rk;
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
    rk8 *rk = &lab->rk;
    lab_rk_walk w;
    long nsteps = 0;
    clink_status st;

    st = lab_rk_init(lab, o, &w, res);
    if (st != CLINK_OK)
        return st;
    for (;;) {
        rk8_step *s;
        double x_lim = lab->var == LAB_VAR_S ? w.x_switch : (lab->var == LAB_VAR_U ? 0.0 : w.t_max);
        double x_e, y_e[LAB_RK_N];
        int event = 0;

        if (++nsteps > LAB_MAX_STEPS)
            return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "too many steps", w.pt[0]);
        if (rk8_advance(rk, x_lim) != 0) {
            if (lab->var == LAB_VAR_U) {
                /* the approach in delta failed (delta' near zero): on in t */
                lab->var = LAB_VAR_T;
                w.end_ok = 0;
                if (rk8_start(rk, w.saved_t, w.saved_y, 0.01 * w.t_scale) != 0)
                    return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "force not finite", w.saved_t);
                continue;
            }
            return lab_rk_fail(lab, res, CLINK_ERR_SOLVER, "step size below the resolution of t",
                               w.pt[0]);
        }
        s = rk8_last(rk, 0);
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

const lab_integrator lab_integrator_rk8 = {"rk8", lab_rk_run};
