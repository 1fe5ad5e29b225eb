/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_vector.c: CVODE's element-wise vector operations on a serial N_Vector, compiled
 * with clink (ode_vector_use_fast_ops). Each operation computes every element with the
 * same floating-point operations in the same order as SUNDIALS 6.4's serial vector
 * (its special cases of a and b included, such as c (x + y) when a = b, which rounds
 * differently from a x + b y), so the results are bit for bit those of the library's
 * own kernels. The reason is speed only: Debian's libsundials_nvecserial is built
 * without optimisation (every element is loaded from and stored to the stack, about
 * 21 instructions per element of a linear sum against 2 to 3 here), and CVODE's
 * vector operations were most of the instructions of a long granular chain.
 *
 * The fused operations (linear combination, scale-add-multi) are the library's
 * fallbacks (sundials_nvector.c: a scale, then one axpy per further vector) done in
 * the same order, vector by vector, so they round identically as well.
 */
#include "integrators/cvode/cvode_ode.h"

#include <math.h>
#include <string.h>

/* element-wise loops in SIMD registers: the same operations per element, so the same
   bits (fused multiply-adds are off for the whole library: -ffp-contract=off); the hot
   loops of the linear sum and the scaling unrolled twice (four elements per iteration in
   SSE2: CVODE's vectors are short for a small mechanism, about 20 elements for the
   clearance slider-crank, where the loop's own increment and test were a third of the
   instructions) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#define VEC_UNROLL _Pragma("GCC unroll 2")
#else
#define VEC_UNROLL
#endif

static sunindextype len(N_Vector v)
{
    return NV_LENGTH_S(v);
}

static double *dat(N_Vector v)
{
    return NV_DATA_S(v);
}

/* y <- a x + y, the library's Vaxpy (its a = 1 and a = -1 cases round alike) */
static void axpy(double a, const double *restrict x, double *restrict y, sunindextype n)
{
    if (a == 1.0) {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            y[i] += x[i];
    } else if (a == -1.0) {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            y[i] -= x[i];
    } else {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            y[i] += a * x[i];
    }
}

static void ode_linear_sum(sunrealtype a, N_Vector x, sunrealtype b, N_Vector y, N_Vector z)
{
    sunindextype n = len(x);
    /* x <- x + b y first, CVODE's most frequent call (with z = x = y and a = b = 1 both
       branches compute x + x) */
    if (a == 1.0 && z == x) {
        axpy(b, dat(y), dat(x), n);
        return;
    }
    if (b == 1.0 && z == y) {
        axpy(a, dat(x), dat(y), n);
        return;
    }
    const double *xd = dat(x), *yd = dat(y);
    double *zd = dat(z);
    if (a == 1.0 && b == 1.0) {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] = xd[i] + yd[i];
    } else if ((a == 1.0 && b == -1.0) || (a == -1.0 && b == 1.0)) {
        const double *p = a == 1.0 ? xd : yd, *m = a == 1.0 ? yd : xd; /* p - m */
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] = p[i] - m[i];
    } else if (a == 1.0 || b == 1.0) {
        double c = a == 1.0 ? b : a;
        const double *u = a == 1.0 ? yd : xd, *w = a == 1.0 ? xd : yd; /* c u + w */
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] = (c * u[i]) + w[i];
    } else if (a == -1.0 || b == -1.0) {
        double c = a == -1.0 ? b : a;
        const double *u = a == -1.0 ? yd : xd, *w = a == -1.0 ? xd : yd; /* c u - w */
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] = (c * u[i]) - w[i];
    } else if (a == b) {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] = a * (xd[i] + yd[i]);
    } else if (a == -b) {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] = a * (xd[i] - yd[i]);
    } else {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] = (a * xd[i]) + (b * yd[i]);
    }
}

static void ode_const(sunrealtype c, N_Vector z)
{
    double *zd = dat(z);
    for (sunindextype i = 0, n = len(z); i < n; i++)
        zd[i] = c;
}

static void ode_prod(N_Vector x, N_Vector y, N_Vector z)
{
    const double *xd = dat(x), *yd = dat(y);
    double *zd = dat(z);
    for (sunindextype i = 0, n = len(x); i < n; i++)
        zd[i] = xd[i] * yd[i];
}

static void ode_div(N_Vector x, N_Vector y, N_Vector z)
{
    const double *xd = dat(x), *yd = dat(y);
    double *zd = dat(z);
    for (sunindextype i = 0, n = len(x); i < n; i++)
        zd[i] = xd[i] / yd[i];
}

static void ode_scale(sunrealtype c, N_Vector x, N_Vector z)
{
    const double *xd = dat(x);
    double *zd = dat(z);
    sunindextype n = len(x);
    if (z == x) {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] *= c;
    } else if (c == 1.0) {
        memcpy(zd, xd, (size_t) n * sizeof(double)); /* a copy: the same bits */
    } else if (c == -1.0) {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] = -xd[i];
    } else {
        VEC_UNROLL
        for (sunindextype i = 0; i < n; i++)
            zd[i] = c * xd[i];
    }
}

static void ode_abs(N_Vector x, N_Vector z)
{
    const double *xd = dat(x);
    double *zd = dat(z);
    for (sunindextype i = 0, n = len(x); i < n; i++)
        zd[i] = fabs(xd[i]);
}

static void ode_inv(N_Vector x, N_Vector z)
{
    const double *xd = dat(x);
    double *zd = dat(z);
    for (sunindextype i = 0, n = len(x); i < n; i++)
        zd[i] = 1.0 / xd[i];
}

static void ode_add_const(N_Vector x, sunrealtype b, N_Vector z)
{
    const double *xd = dat(x);
    double *zd = dat(z);
    for (sunindextype i = 0, n = len(x); i < n; i++)
        zd[i] = xd[i] + b;
}

static sunrealtype ode_max_norm(N_Vector x)
{
    const double *xd = dat(x);
    double m = 0.0;
    for (sunindextype i = 0, n = len(x); i < n; i++)
        if (fabs(xd[i]) > m)
            m = fabs(xd[i]);
    return m;
}

static sunrealtype ode_min(N_Vector x)
{
    const double *xd = dat(x);
    double m = xd[0];
    for (sunindextype i = 1, n = len(x); i < n; i++)
        if (xd[i] < m)
            m = xd[i];
    return m;
}

static void ode_compare(sunrealtype c, N_Vector x, N_Vector z)
{
    const double *xd = dat(x);
    double *zd = dat(z);
    for (sunindextype i = 0, n = len(x); i < n; i++)
        zd[i] = fabs(xd[i]) >= c ? 1.0 : 0.0;
}

static sunbooleantype ode_inv_test(N_Vector x, N_Vector z)
{
    const double *xd = dat(x);
    double *zd = dat(z);
    sunbooleantype ok = SUNTRUE;
    for (sunindextype i = 0, n = len(x); i < n; i++) {
        if (xd[i] == 0.0)
            ok = SUNFALSE;
        else
            zd[i] = 1.0 / xd[i];
    }
    return ok;
}

static sunrealtype ode_min_quotient(N_Vector num, N_Vector denom)
{
    const double *nd = dat(num), *dd = dat(denom);
    int first = 1;
    double m = SUN_BIG_REAL;
    for (sunindextype i = 0, n = len(num); i < n; i++) {
        if (dd[i] == 0.0)
            continue;
        double qi = nd[i] / dd[i];
        if (first) {
            m = qi;
            first = 0;
        } else if (qi < m) {
            m = qi;
        }
    }
    return m;
}

/* z = c[0] X[0] + c[1] X[1] + ..., summed in that order */
static int ode_linear_combination(int nvec, sunrealtype *c, N_Vector *X, N_Vector z)
{
    ode_scale(c[0], X[0], z);
    double *zd = dat(z);
    sunindextype n = len(z);
    for (int k = 1; k < nvec; k++)
        axpy(c[k], dat(X[k]), zd, n);
    return 0;
}

/* Z[k] = a[k] x + Y[k] */
static int ode_scale_add_multi(int nvec, sunrealtype *a, N_Vector x, N_Vector *Y, N_Vector *Z)
{
    for (int k = 0; k < nvec; k++)
        ode_linear_sum(a[k], x, 1.0, Y[k], Z[k]);
    return 0;
}

void ode_vector_use_fast_ops(N_Vector v)
{
    v->ops->nvlinearsum = ode_linear_sum;
    v->ops->nvconst = ode_const;
    v->ops->nvprod = ode_prod;
    v->ops->nvdiv = ode_div;
    v->ops->nvscale = ode_scale;
    v->ops->nvabs = ode_abs;
    v->ops->nvinv = ode_inv;
    v->ops->nvaddconst = ode_add_const;
    v->ops->nvmaxnorm = ode_max_norm;
    v->ops->nvmin = ode_min;
    v->ops->nvcompare = ode_compare;
    v->ops->nvinvtest = ode_inv_test;
    v->ops->nvminquotient = ode_min_quotient;
    v->ops->nvlinearcombination = ode_linear_combination;
    v->ops->nvscaleaddmulti = ode_scale_add_multi;
}
