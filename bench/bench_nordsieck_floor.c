/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_nordsieck_floor.c: what an Adams step costs outside the right-hand side, CVODE's
 * (clink's CVODE integrator, its vector kernels included) against a plain-array
 * Adams-Moulton method in Nordsieck form. A measurement for docs/performance.md
 * ("Small mechanisms: the per-step floor"), not an integrator of clink: the prototype has
 * no events, no stop time and no restart, which an integrator behind the table needs.
 *
 * The prototype is the variable-step, variable-order Adams of LSODE (Hindmarsh 1983): the
 * Nordsieck array z_j = h^j y^(j) / j!, j = 0 .. q, predicted by the Pascal triangle,
 * corrected by fixed-point iteration on y = z_0 + l_0 e, h f(y) = z_1 + e, the local error
 * |e| / tq_2 in the weighted RMS norm (w_i = 1 / (rtol |y_i| + atol)) tested against 1,
 * then z_j += l_j e; a step change rescales z_j by eta^j, and every q + 1 steps the step
 * ratios of orders q - 1, q and q + 1 are compared (the coefficients l and tq of each order
 * come from LSODE's Adams polynomials, computed once).
 *
 * The problem: ten uncoupled oscillators x_i'' = -w_i^2 x_i, w_i = 1 + i, over 10 s
 * (n = 20: the size of the clearance slider-crank's state), so that the right-hand side
 * is cheap and separate (bench_rhs) and the exact solution gives the accuracy. Both codes
 * also evaluate their dense output once per step, at the middle of the step (what
 * `clink run`'s probe of a row costs). Run under callgrind: the report's inclusive counts
 * of nordsieck_run, cvode_run and bench_rhs give the instructions per step outside the
 * right-hand side:
 *
 *   valgrind --tool=callgrind --callgrind-out-file=X build/bench/bench_nordsieck_floor
 *   callgrind_annotate --inclusive=yes --tree=calling X
 *
 * Output: a JSON array, one object per code (steps, right-hand sides, the largest error
 * against the exact solution over the steps' ends).
 */
#include "integrators/integrator.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NB = 20, NPOS = 10, QMAX = 12 };

static const double T_END = 10.0;

/* the frequency of oscillator i */
static double omega(int i)
{
    return 1.0 + (double) i;
}

/* the right-hand side: x' = v, v' = -w^2 x; not inlined, so that callgrind counts it apart */
__attribute__((noinline)) static void bench_rhs(const double *y, double *yd)
{
    for (int i = 0; i < NPOS; i++) {
        double w = omega(i);
        yd[i] = y[NPOS + i];
        yd[NPOS + i] = -w * w * y[i];
    }
}

/* the exact state at t from x = 1, v = 0 */
static void exact(double t, double *y)
{
    for (int i = 0; i < NPOS; i++) {
        double w = omega(i);
        y[i] = cos(w * t);
        y[NPOS + i] = -w * sin(w * t);
    }
}

/* the largest difference from the exact state at t, relative to the amplitude */
static double error_at(double t, const double *y)
{
    double ye[NB], e = 0.0;
    exact(t, ye);
    for (int i = 0; i < NB; i++) {
        double a = i < NPOS ? 1.0 : omega(i - NPOS);
        double d = fabs(y[i] - ye[i]) / a;
        e = d > e ? d : e;
    }
    return e;
}

/* ---- the prototype: LSODE's Adams in Nordsieck form on plain arrays -------------------- */

typedef struct nord {
    double z[QMAX + 1][NB], acor[NB], y[NB], f[NB], w[NB], dense[NB];
    double elco[QMAX + 1][QMAX + 1], tesco[QMAX + 1][3], el[QMAX + 1], tq[3];
    double t, h, rtol, atol, crate;
    int q, ialth;
    long steps, rhs, fails;
} nord;

/* LSODE's cfode for Adams: el (q + 1 coefficients) and the test constants of each order q */
static void nord_coefficients(nord *s)
{
    double pc[QMAX + 1] = {1.0}, rqfac = 1.0;
    memset(s->elco, 0, sizeof s->elco);
    memset(s->tesco, 0, sizeof s->tesco);
    s->elco[1][0] = 1.0;
    s->elco[1][1] = 1.0;
    s->tesco[1][1] = 2.0;
    s->tesco[2][0] = 1.0;
    for (int nq = 2; nq <= QMAX; nq++) {
        double rq1fac = rqfac, fm = (double) (nq - 1), pint, xpin, sign = 1.0;
        rqfac /= nq;
        /* p(x) (x + nq - 1), p(x) = (x + 1) ... (x + nq - 2) */
        pc[nq - 1] = 0.0;
        for (int i = nq - 1; i >= 1; i--)
            pc[i] = pc[i - 1] + fm * pc[i];
        pc[0] = fm * pc[0];
        pint = pc[0];
        xpin = pc[0] / 2.0;
        for (int i = 1; i < nq; i++) {
            sign = -sign;
            pint += sign * pc[i] / (i + 1);
            xpin += sign * pc[i] / (i + 2);
        }
        s->elco[nq][0] = pint * rq1fac;
        s->elco[nq][1] = 1.0;
        for (int i = 1; i < nq; i++)
            s->elco[nq][i + 1] = rq1fac * pc[i] / (i + 1);
        double agamq = rqfac * xpin, ragq = 1.0 / agamq;
        s->tesco[nq][1] = ragq;
        if (nq < QMAX)
            s->tesco[nq + 1][0] = ragq * rqfac / (nq + 1);
        s->tesco[nq - 1][2] = ragq;
    }
}

/* the weighted RMS norm of v */
static double nord_norm(const nord *s, const double *v)
{
    double sum = 0.0;
    for (int i = 0; i < NB; i++) {
        double x = v[i] * s->w[i];
        sum += x * x;
    }
    return sqrt(sum / NB);
}

static void nord_set_order(nord *s, int q)
{
    s->q = q;
    memcpy(s->el, s->elco[q], sizeof s->el);
    memcpy(s->tq, s->tesco[q], sizeof s->tq);
}

/* z_j scaled by eta^j: the step h becomes eta h */
static void nord_rescale(nord *s, double eta)
{
    double r = 1.0;
    for (int j = 1; j <= s->q; j++) {
        r *= eta;
        for (int i = 0; i < NB; i++)
            s->z[j][i] *= r;
    }
    s->h *= eta;
}

/* the predictor (Pascal's triangle) forward (dir 1) or taken back (dir -1) */
static void nord_pascal(nord *s, int dir)
{
    for (int k = 1; k <= s->q; k++)
        for (int j = s->q; j >= k; j--) {
            double *a = s->z[j - 1];
            const double *b = s->z[j];
            if (dir > 0)
                for (int i = 0; i < NB; i++)
                    a[i] += b[i];
            else
                for (int i = 0; i < NB; i++)
                    a[i] -= b[i];
        }
}

/* the fixed-point corrector: 0 when converged, acor the correction */
static int nord_correct(nord *s)
{
    double delp = 0.0, conit = 0.5 / (s->q + 2);
    memcpy(s->y, s->z[0], sizeof s->y);
    memset(s->acor, 0, sizeof s->acor);
    for (int m = 0; m < 3; m++) {
        double d[NB];
        bench_rhs(s->y, s->f);
        s->rhs++;
        for (int i = 0; i < NB; i++) {
            double g = s->h * s->f[i] - s->z[1][i];
            d[i] = g - s->acor[i];
            s->acor[i] = g;
            s->y[i] = s->z[0][i] + s->el[0] * g;
        }
        double del = nord_norm(s, d);
        if (m > 0)
            s->crate = fmax(0.2 * s->crate, del / delp);
        if (del * fmin(1.0, 1.5 * s->crate) / (s->tq[1] * conit) <= 1.0)
            return 0;
        if (m >= 1 && del > 2.0 * delp)
            return 1;
        delp = del;
    }
    return 1;
}

/* the step ratio and order for what follows, every q + 1 steps (LSODE's rules) */
static void nord_select(nord *s, double dsm)
{
    if (--s->ialth > 0) {
        if (s->ialth == 1 && s->q < QMAX)
            memcpy(s->z[QMAX], s->acor, sizeof s->acor);
        return;
    }
    double rhsm = 1.0 / (1.2 * pow(dsm, 1.0 / (s->q + 1)) + 1.2e-6), rhdn = 0.0, rhup = 0.0;
    if (s->q > 1)
        rhdn = 1.0 / (1.3 * pow(nord_norm(s, s->z[s->q]) / s->tq[0], 1.0 / s->q) + 1.3e-6);
    if (s->q < QMAX) {
        double d[NB];
        for (int i = 0; i < NB; i++)
            d[i] = s->acor[i] - s->z[QMAX][i];
        rhup = 1.0 / (1.4 * pow(nord_norm(s, d) / s->tq[2], 1.0 / (s->q + 2)) + 1.4e-6);
    }
    int newq = s->q;
    double rh = rhsm;
    if (rhup > rh && rhup > rhdn) {
        newq = s->q + 1;
        rh = rhup;
    } else if (rhdn > rh) {
        newq = s->q - 1;
        rh = rhdn;
    }
    s->ialth = 3;
    if (rh < 1.1)
        return;
    rh = fmin(rh, 10.0);
    if (newq > s->q) {
        for (int i = 0; i < NB; i++)
            s->z[newq][i] = s->acor[i] * s->el[newq] / (newq + 1);
    }
    nord_set_order(s, newq);
    nord_rescale(s, rh);
    s->ialth = newq + 1;
}

/* one step: 0 */
__attribute__((noinline)) static int nord_step(nord *s)
{
    for (;;) {
        for (int i = 0; i < NB; i++)
            s->w[i] = 1.0 / (s->rtol * fabs(s->z[0][i]) + s->atol);
        nord_pascal(s, 1);
        s->t += s->h;
        int diverged = nord_correct(s);
        double dsm = diverged ? 0.0 : nord_norm(s, s->acor) / s->tq[1];
        if (!diverged && dsm <= 1.0) {
            for (int j = 0; j <= s->q; j++)
                for (int i = 0; i < NB; i++)
                    s->z[j][i] += s->el[j] * s->acor[i];
            s->steps++;
            nord_select(s, dsm);
            return 0;
        }
        /* rejected: the prediction taken back, a smaller step */
        s->fails++;
        nord_pascal(s, -1);
        s->t -= s->h;
        double eta = diverged ? 0.25 : 1.0 / (1.2 * pow(dsm, 1.0 / (s->q + 1)) + 1.2e-6);
        nord_rescale(s, fmax(0.1, fmin(eta, 0.9)));
        s->ialth = s->q + 1;
    }
}

/* the dense output at t inside the last step: sum_j z_j ((t - tn) / h)^j by Horner */
__attribute__((noinline)) static void nord_dense(nord *s, double t)
{
    double r = (t - s->t) / s->h;
    for (int i = 0; i < NB; i++) {
        double v = s->z[s->q][i];
        for (int j = s->q - 1; j >= 0; j--)
            v = v * r + s->z[j][i];
        s->dense[i] = v;
    }
}

__attribute__((noinline)) static void nordsieck_run(double rtol, double *err, long *steps,
                                                    long *rhs)
{
    static nord s;
    memset(&s, 0, sizeof s);
    nord_coefficients(&s);
    nord_set_order(&s, 1);
    s.rtol = rtol;
    s.atol = rtol * 1e-3;
    s.crate = 0.7;
    s.ialth = 2;
    exact(0.0, s.z[0]);
    bench_rhs(s.z[0], s.f);
    s.rhs++;
    s.h = 1e-4 * sqrt(rtol / 1e-8);
    for (int i = 0; i < NB; i++)
        s.z[1][i] = s.h * s.f[i];
    double e = 0.0, sink = 0.0;
    while (s.t < T_END) {
        nord_step(&s);
        nord_dense(&s, s.t - 0.5 * s.h);
        sink += s.dense[0];
        double ei = error_at(s.t, s.z[0]);
        e = ei > e ? ei : e;
    }
    *err = e + 0.0 * sink;
    *steps = s.steps;
    *rhs = s.rhs;
}

/* ---- CVODE's Adams through clink's integrator table ----------------------------------- */

typedef struct cv_data {
    double rtol, atol;
} cv_data;

static int cv_rhs(void *data, double t, const double *y, double *yd)
{
    (void) data;
    (void) t;
    bench_rhs(y, yd);
    return 0;
}

static void cv_weights(void *data, const double *y, double *w)
{
    const cv_data *d = data;
    for (int i = 0; i < NB; i++)
        w[i] = 1.0 / (d->rtol * fabs(y[i]) + d->atol);
}

__attribute__((noinline)) static int cvode_run(double rtol, double *err, long *steps, long *rhs)
{
    cv_data d = {rtol, rtol * 1e-3};
    integ_problem p;
    integ_config c;
    memset(&p, 0, sizeof p);
    memset(&c, 0, sizeof c);
    p.data = &d;
    p.n = NB;
    p.npos = NPOS;
    p.rhs = cv_rhs;
    p.weights = cv_weights;
    c.method = CLINK_METHOD_ADAMS;
    c.rtol = d.rtol;
    c.atol = d.atol;
    double y0[NB];
    exact(0.0, y0);
    /* CVODE's own Adams (method="adams" runs src/integrators/adams, its bits on plain arrays) */
    const integ_ops *ops = &integrator_cvode_ops;
    clink_status st = CLINK_OK;
    char msg[256] = "";
    integ *in = ops == NULL ? NULL : ops->create(&p, &c, 0.0, y0, &st, msg, sizeof msg);
    if (in == NULL) {
        fprintf(stderr, "bench_nordsieck_floor: CVODE: %s\n", msg);
        return 1;
    }
    double t = 0.0, e = 0.0, sink = 0.0;
    while (t < T_END) {
        int rc = ops->step(in, T_END, &t);
        if (rc < 0) {
            fprintf(stderr, "bench_nordsieck_floor: CVODE step failed (%d) at t = %g\n", rc, t);
            ops->destroy(in);
            return 1;
        }
        double ei = error_at(t, in->y);
        e = ei > e ? ei : e;
        double tn = 0.0, h = 0.0;
        if (ops->now(in, &tn, &h) == 0 && ops->dense(in, tn - 0.5 * h, 0) == 0)
            sink += in->y[0];
    }
    integ_stats s;
    ops->stats(in, &s);
    ops->destroy(in);
    *err = e + 0.0 * sink;
    *steps = s.steps;
    *rhs = s.rhs_evals;
    return 0;
}

/* the two codes at rtol, a JSON array of one object each, to out */
static int run_both(double rtol, FILE *out)
{
    double err = 0.0;
    long steps = 0, rhs = 0;
    nordsieck_run(rtol, &err, &steps, &rhs);
    fprintf(out,
            "[{\"code\": \"nordsieck\", \"rtol\": %.17g, \"steps\": %ld, \"rhs\": %ld, "
            "\"max_error\": %.3e},\n",
            rtol, steps, rhs, err);
    if (cvode_run(rtol, &err, &steps, &rhs) != 0)
        return 1;
    fprintf(out,
            " {\"code\": \"cvode_adams\", \"rtol\": %.17g, \"steps\": %ld, \"rhs\": %ld, "
            "\"max_error\": %.3e}]\n",
            rtol, steps, rhs, err);
    return 0;
}

/* bench_nordsieck_floor [--rtol R | OUTDIR]: stdout, or OUTDIR/nordsieck_floor.json */
int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--rtol") == 0)
        return run_both(atof(argv[2]), stdout);
    if (argc < 2)
        return run_both(1e-9, stdout);
    char path[4096];
    snprintf(path, sizeof path, "%s/nordsieck_floor.json", argv[1]);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    int rc = run_both(1e-9, f);
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return rc;
}
