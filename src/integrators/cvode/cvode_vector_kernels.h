/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_vector_kernels.h: the hot element-wise operations of cvode_vector.c (linear sum,
 * scaling, linear combination, scale-add-multi), included there once per instruction set:
 * VEC_FN(name) names this copy's functions and VEC_TARGET is their target attribute (none
 * for the baseline SSE2 copy, AVX for the other). The source, and so every element's
 * operations and their order, is the same in both copies: only the width of the registers
 * the loops run in differs, and an IEEE sum or product of two doubles has the same bits in
 * either (fused multiply-adds are off: -ffp-contract=off). No include guard: included twice.
 */

/* y <- a x + y, the library's Vaxpy (its a = 1 and a = -1 cases round alike) */
VEC_TARGET static void VEC_FN(axpy)(double a, const double *restrict x, double *restrict y,
                                    sunindextype n)
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

VEC_TARGET static void VEC_FN(ode_linear_sum)(sunrealtype a, N_Vector x, sunrealtype b, N_Vector y,
                                              N_Vector z)
{
    sunindextype n = len(x);
    /* x <- x + b y first, CVODE's most frequent call (with z = x = y and a = b = 1 both
       branches compute x + x) */
    if (a == 1.0 && z == x) {
        VEC_FN(axpy)(b, dat(y), dat(x), n);
        return;
    }
    if (b == 1.0 && z == y) {
        VEC_FN(axpy)(a, dat(x), dat(y), n);
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

VEC_TARGET static void VEC_FN(ode_scale)(sunrealtype c, N_Vector x, N_Vector z)
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

/* z = c[0] X[0] + c[1] X[1] + ..., summed in that order */
VEC_TARGET static int VEC_FN(ode_linear_combination)(int nvec, sunrealtype *c, N_Vector *X,
                                                     N_Vector z)
{
    VEC_FN(ode_scale)(c[0], X[0], z);
    double *zd = dat(z);
    sunindextype n = len(z);
    for (int k = 1; k < nvec; k++)
        VEC_FN(axpy)(c[k], dat(X[k]), zd, n);
    return 0;
}

/* Z[k] = a[k] x + Y[k] */
VEC_TARGET static int VEC_FN(ode_scale_add_multi)(int nvec, sunrealtype *a, N_Vector x, N_Vector *Y,
                                                  N_Vector *Z)
{
    for (int k = 0; k < nvec; k++)
        VEC_FN(ode_linear_sum)(a[k], x, 1.0, Y[k], Z[k]);
    return 0;
}
