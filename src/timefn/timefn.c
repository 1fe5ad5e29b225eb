/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * timefn.c: functions of time f(t) with f' and f'' (clink_function): constant, linear,
 * polynomial (Horner for f, f', f''), harmonic, ramp, smooth step, tables and piecewise
 * cubics.
 *
 *   ramp         f = f0 + (f1 - f0) x, x = (t - t0) / (t1 - t0) clamped to [0, 1];
 *   smooth step  f = f0 + (f1 - f0) s(x), s = 10 x^3 - 15 x^4 + 6 x^5 (s', s'' zero at both
 *                ends: the quintic of minimum jerk, Flash and Hogan 1985);
 *   table        linear interpolation, or the natural cubic spline through the points with
 *                second derivatives (moments) M_i from the tridiagonal system
 *                h_{i-1} M_{i-1} + 2 (h_{i-1} + h_i) M_i + h_i M_{i+1} =
 *                6 ((y_{i+1} - y_i) / h_i - (y_i - y_{i-1}) / h_{i-1}), M_0 = M_{n-1} = 0,
 *                and on [t_i, t_{i+1}] with A = (t_{i+1} - t) / h, B = 1 - A
 *                f = A y_i + B y_{i+1} + ((A^3 - A) M_i + (B^3 - B) M_{i+1}) h^2 / 6
 *                (Press, Teukolsky, Vetterling and Flannery 2007, section 3.3); held at the
 *                end values outside the table;
 *   piecewise    segment i: c0 + c1 s + c2 s^2 + c3 s^3, s = t - t_i.
 * The builder keeps each table in one block (times, values, moments) that it owns.
 */
#include "timefn/timefn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int timefn_stride(const clink_function *f)
{
    return f->type == CLINK_FUNCTION_PIECEWISE ? 4 : 1;
}

static int timefn_has_table(const clink_function *f)
{
    return f->type == CLINK_FUNCTION_TABLE_LINEAR || f->type == CLINK_FUNCTION_TABLE_SPLINE ||
           f->type == CLINK_FUNCTION_PIECEWISE;
}

static int timefn_finite(const double *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* the checks of the arrays of a table or piecewise function */
static int timefn_check_table(const clink_function *f, char *msg, size_t size)
{
    int min = f->type == CLINK_FUNCTION_PIECEWISE ? 1 : 2;
    if (f->npoints < min || !f->times || !f->values) {
        snprintf(msg, size, "a %s needs at least %d points (times and values), has %d",
                 f->type == CLINK_FUNCTION_PIECEWISE ? "piecewise function" : "table", min,
                 f->npoints);
        return 1;
    }
    if (!timefn_finite(f->times, f->npoints) ||
        !timefn_finite(f->values, f->npoints * timefn_stride(f))) {
        snprintf(msg, size, "a time or value of the table is not finite");
        return 1;
    }
    for (int i = 1; i < f->npoints; i++)
        if (!(f->times[i] > f->times[i - 1])) {
            snprintf(msg, size,
                     "table times must increase: time %d (%.9g s) is not after time %d "
                     "(%.9g s)",
                     i, f->times[i], i - 1, f->times[i - 1]);
            return 1;
        }
    return 0;
}

int timefn_check(const clink_function *f, char *msg, size_t size)
{
    if ((int) f->type < 0 || f->type >= CLINK_FUNCTION_TYPE_COUNT_) {
        snprintf(msg, size, "function type %d is not in 0..%d", (int) f->type,
                 CLINK_FUNCTION_TYPE_COUNT_ - 1);
        return 1;
    }
    if (f->type == CLINK_FUNCTION_POLYNOMIAL && (f->n < 1 || f->n > CLINK_FUNCTION_MAX_COEFS)) {
        snprintf(msg, size, "polynomial has %d coefficients, valid 1..%d", f->n,
                 CLINK_FUNCTION_MAX_COEFS);
        return 1;
    }
    if (!timefn_finite(f->c, CLINK_FUNCTION_MAX_COEFS)) {
        snprintf(msg, size, "a coefficient is not finite");
        return 1;
    }
    if (f->type == CLINK_FUNCTION_HARMONIC && !(f->c[2] >= 0.0)) {
        snprintf(msg, size, "harmonic frequency %g rad/s must be >= 0", f->c[2]);
        return 1;
    }
    if ((f->type == CLINK_FUNCTION_RAMP || f->type == CLINK_FUNCTION_SMOOTH_STEP) &&
        !(f->c[1] > f->c[0])) {
        snprintf(msg, size, "a ramp's end time %g s must be after its start time %g s", f->c[1],
                 f->c[0]);
        return 1;
    }
    return timefn_has_table(f) ? timefn_check_table(f, msg, size) : 0;
}

int timefn_spline_moments(const double *t, const double *y, int n, double *m)
{
    for (int i = 0; i < n; i++)
        m[i] = 0.0;
    if (n < 3)
        return 0;
    /* Thomas' algorithm on the interior rows; cp holds the eliminated super-diagonal */
    double *cp = malloc((size_t) n * sizeof(double));
    if (!cp)
        return -1;
    cp[0] = 0.0;
    for (int i = 1; i < n - 1; i++) {
        double h0 = t[i] - t[i - 1], h1 = t[i + 1] - t[i];
        double r = 6.0 * ((y[i + 1] - y[i]) / h1 - (y[i] - y[i - 1]) / h0);
        double den = 2.0 * (h0 + h1) - h0 * cp[i - 1];
        cp[i] = h1 / den;
        m[i] = (r - h0 * m[i - 1]) / den;
    }
    for (int i = n - 3; i >= 1; i--)
        m[i] -= cp[i] * m[i + 1];
    free(cp);
    return 0;
}

int timefn_copy(clink_function *f)
{
    if (!timefn_has_table(f)) {
        f->times = f->values = f->moments = NULL;
        f->npoints = 0;
        return 0;
    }
    int n = f->npoints, sv = timefn_stride(f), spline = f->type == CLINK_FUNCTION_TABLE_SPLINE;
    double *b = malloc((size_t) n * (size_t) (1 + sv + spline) * sizeof(double));
    if (!b) {
        f->times = f->values = f->moments = NULL;
        f->npoints = 0;
        return -1;
    }
    memcpy(b, f->times, (size_t) n * sizeof(double));
    memcpy(b + n, f->values, (size_t) (n * sv) * sizeof(double));
    f->times = b;
    f->values = b + n;
    f->moments = NULL;
    if (spline) {
        double *m = b + n + n * sv;
        if (timefn_spline_moments(b, b + n, n, m) != 0) {
            free(b);
            f->times = f->values = NULL;
            f->npoints = 0;
            return -1;
        }
        f->moments = m;
    }
    return 0;
}

void timefn_free(clink_function *f)
{
    if (timefn_has_table(f))
        free((void *) f->times);
    f->times = f->values = f->moments = NULL;
}

/* the segment i with times[i] <= t < times[i + 1] (0 before times[1], n - 1 from the last) */
static int timefn_segment(const double *times, int n, double t)
{
    int lo = 0, hi = n - 1;
    if (t >= times[hi])
        return hi;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* a table at t: held outside, linear or spline inside */
static void timefn_table(const clink_function *f, double t, double out[3])
{
    const double *x = f->times, *y = f->values;
    int n = f->npoints;
    out[1] = out[2] = 0.0;
    if (t <= x[0] || t >= x[n - 1]) {
        out[0] = t <= x[0] ? y[0] : y[n - 1];
        return;
    }
    int i = timefn_segment(x, n, t);
    double h = x[i + 1] - x[i], dy = y[i + 1] - y[i];
    if (f->type == CLINK_FUNCTION_TABLE_LINEAR) {
        out[0] = y[i] + dy * ((t - x[i]) / h);
        out[1] = dy / h;
        return;
    }
    const double *m = f->moments;
    double *own = NULL;
    if (!m) {
        own = malloc((size_t) n * sizeof(double));
        if (!own || timefn_spline_moments(x, y, n, own) != 0) {
            free(own);
            out[0] = out[1] = out[2] = NAN;
            return;
        }
        m = own;
    }
    double A = (x[i + 1] - t) / h, B = 1.0 - A;
    out[0] = A * y[i] + B * y[i + 1] +
             ((A * A * A - A) * m[i] + (B * B * B - B) * m[i + 1]) * h * h / 6.0;
    out[1] =
        dy / h - (3.0 * A * A - 1.0) / 6.0 * h * m[i] + (3.0 * B * B - 1.0) / 6.0 * h * m[i + 1];
    out[2] = A * m[i] + B * m[i + 1];
    free(own);
}

/* ramp (smooth 0) or smooth step (smooth 1) from c[2] at c[0] to c[3] at c[1] */
static void timefn_ramp(const double *c, int smooth, double t, double out[3])
{
    double T = c[1] - c[0], d = c[3] - c[2];
    out[1] = out[2] = 0.0;
    if (t <= c[0] || t >= c[1]) {
        out[0] = t <= c[0] ? c[2] : c[3];
        return;
    }
    double x = (t - c[0]) / T;
    if (!smooth) {
        out[0] = c[2] + d * x;
        out[1] = d / T;
        return;
    }
    double s = x * x * x * (10.0 + x * (-15.0 + 6.0 * x));
    double s1 = 30.0 * x * x * (1.0 - x) * (1.0 - x);
    double s2 = 60.0 * x * (1.0 - x) * (1.0 - 2.0 * x);
    out[0] = c[2] + d * s;
    out[1] = d * s1 / T;
    out[2] = d * s2 / (T * T);
}

/* the new kinds (ramps, tables, piecewise) */
static void timefn_eval_more(const clink_function *f, double t, double out[3])
{
    out[0] = out[1] = out[2] = 0.0;
    if (f->type == CLINK_FUNCTION_RAMP || f->type == CLINK_FUNCTION_SMOOTH_STEP) {
        timefn_ramp(f->c, f->type == CLINK_FUNCTION_SMOOTH_STEP, t, out);
        return;
    }
    if (f->npoints < 1 || !f->times || !f->values) {
        out[0] = out[1] = out[2] = NAN;
        return;
    }
    if (f->type != CLINK_FUNCTION_PIECEWISE) {
        if (f->npoints < 2)
            out[0] = out[1] = out[2] = NAN;
        else
            timefn_table(f, t, out);
        return;
    }
    int i = timefn_segment(f->times, f->npoints, t);
    const double *c = f->values + 4 * i;
    double s = t - f->times[i];
    out[0] = c[0] + s * (c[1] + s * (c[2] + s * c[3]));
    out[1] = c[1] + s * (2.0 * c[2] + 3.0 * s * c[3]);
    out[2] = 2.0 * c[2] + 6.0 * s * c[3];
}

void clink_function_eval(const clink_function *f, double t, double *value, double *rate,
                         double *accel)
{
    double v = 0.0, r = 0.0, a = 0.0;
    switch (f->type) {
    case CLINK_FUNCTION_CONSTANT:
        v = f->c[0];
        break;
    case CLINK_FUNCTION_LINEAR:
        v = f->c[0] + f->c[1] * t;
        r = f->c[1];
        break;
    case CLINK_FUNCTION_POLYNOMIAL:
        /* Horner for f, f', f'' */
        for (int i = f->n - 1; i >= 0; i--) {
            a = a * t + 2.0 * r;
            r = r * t + v;
            v = v * t + f->c[i];
        }
        break;
    case CLINK_FUNCTION_HARMONIC: {
        double w = f->c[2], arg = w * t + f->c[3];
        v = f->c[0] + f->c[1] * sin(arg);
        r = f->c[1] * w * cos(arg);
        a = -f->c[1] * w * w * sin(arg);
        break;
    }
    case CLINK_FUNCTION_RAMP:
    case CLINK_FUNCTION_SMOOTH_STEP:
    case CLINK_FUNCTION_TABLE_LINEAR:
    case CLINK_FUNCTION_TABLE_SPLINE:
    case CLINK_FUNCTION_PIECEWISE: {
        double out[3];
        timefn_eval_more(f, t, out);
        v = out[0];
        r = out[1];
        a = out[2];
        break;
    }
    default:
        break;
    }
    if (value)
        *value = v;
    if (rate)
        *rate = r;
    if (accel)
        *accel = a;
}
