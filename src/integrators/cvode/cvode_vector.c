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
 *
 * The hot ones (linear sum, scaling and the fused two, cvode_vector_kernels.h) are
 * compiled twice, for the baseline SSE2 and for AVX, from one source, and
 * ode_vector_use_fast_ops takes the AVX copy when the processor has it: four elements
 * per instruction instead of two, each element's operations the same (an IEEE sum or
 * product of two doubles has one result whatever the register). CVODE's Adams
 * prediction alone is q (q + 1) / 2 linear sums per step on vectors of about 20
 * elements for a small mechanism, where the loops' width and overhead count.
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

/* the hot kernels: the baseline copy, and an AVX copy where the compiler can target it
   (chosen at run time by ode_vector_use_fast_ops when the processor has AVX) */
#define VEC_FN(name) name##_base
#define VEC_TARGET
#include "integrators/cvode/cvode_vector_kernels.h"
#undef VEC_FN
#undef VEC_TARGET
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VEC_AVX      1
#define VEC_FN(name) name##_avx
#define VEC_TARGET   __attribute__((target("avx")))
#include "integrators/cvode/cvode_vector_kernels.h"
#undef VEC_FN
#undef VEC_TARGET
#endif

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

void ode_vector_use_fast_ops(N_Vector v)
{
    v->ops->nvlinearsum = ode_linear_sum_base;
    v->ops->nvconst = ode_const;
    v->ops->nvprod = ode_prod;
    v->ops->nvdiv = ode_div;
    v->ops->nvscale = ode_scale_base;
    v->ops->nvabs = ode_abs;
    v->ops->nvinv = ode_inv;
    v->ops->nvaddconst = ode_add_const;
    v->ops->nvmaxnorm = ode_max_norm;
    v->ops->nvmin = ode_min;
    v->ops->nvcompare = ode_compare;
    v->ops->nvinvtest = ode_inv_test;
    v->ops->nvminquotient = ode_min_quotient;
    v->ops->nvlinearcombination = ode_linear_combination_base;
    v->ops->nvscaleaddmulti = ode_scale_add_multi_base;
#ifdef VEC_AVX
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx")) {
        v->ops->nvlinearsum = ode_linear_sum_avx;
        v->ops->nvscale = ode_scale_avx;
        v->ops->nvlinearcombination = ode_linear_combination_avx;
        v->ops->nvscaleaddmulti = ode_scale_add_multi_avx;
    }
#endif
}
