/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CVODE's vector operations compiled with clink (src/integrators/cvode/cvode_vector.c) against
 * SUNDIALS' own serial kernels, bit for bit, on pseudo-random vectors: every
 * special case of the linear sum (a, b = +-1, a = b, a = -b, the general case), the
 * in-place forms CVODE uses (z = x, z = y), the fused operations against the
 * library's fallbacks, and the reductions.
 */
#include "ensure.h"

#include "integrators/cvode/cvode_integ.h"
#include "integrators/cvode/cvode_ode.h"

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

enum { NV = 37 };

static unsigned long long rng_state = 88172645463325252ULL;

static double rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double) (rng_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static void fill(N_Vector v, double scale)
{
    double *d = N_VGetArrayPointer(v);
    for (int i = 0; i < NV; i++)
        d[i] = scale * rnd() * pow(10.0, 3.0 * rnd());
    d[3] = 0.0;
}

static int same(N_Vector a, N_Vector b)
{
    return memcmp(N_VGetArrayPointer(a), N_VGetArrayPointer(b), NV * sizeof(double)) == 0;
}

/* the test's working vectors of length n: v[0] SUNDIALS' serial kernels (ref), v[1] clink's
   (fast), v[2..4] clones of ref, v[5..7] clones of fast; 0 if one could not be made */
static int make_vectors(SUNContext ctx, sunindextype n, N_Vector v[8])
{
    v[0] = N_VNew_Serial(n, ctx);
    v[1] = N_VNew_Serial(n, ctx);
    ENSURE(v[0] != NULL && v[1] != NULL);
    if (v[0] == NULL || v[1] == NULL)
        return 0;
    ode_vector_use_fast_ops(v[1]);
    for (int i = 2; i < 8; i++) {
        v[i] = N_VClone(v[i < 5 ? 0 : 1]);
        ENSURE(v[i] != NULL);
        if (v[i] == NULL)
            return 0;
    }
    return 1;
}

/* the test's working vectors, all freed at once */
static void destroy_vectors(N_Vector *v, int n)
{
    for (int i = 0; i < n; i++)
        N_VDestroy(v[i]);
}

static void copy(N_Vector from, N_Vector to)
{
    memcpy(N_VGetArrayPointer(to), N_VGetArrayPointer(from), NV * sizeof(double));
}

TEST(cvode_vector_operations_compiled_with_clink_give_the_bits_of_the_sundials_serial_kernels)
{
    SUNContext ctx;
    ENSURE(SUNContext_Create(NULL, &ctx) == 0);
    N_Vector v[8];
    if (!make_vectors(ctx, NV, v))
        return;
    N_Vector ref = v[0], fast = v[1], rx = v[2], ry = v[3], rz = v[4];
    N_Vector fx = v[5], fy = v[6], fz = v[7];
    const double coef[] = {1.0, -1.0, 0.3, -0.3, 2.0, 0.0, 1.0 / 3.0, -7.25};
    int ncoef = (int) (sizeof coef / sizeof coef[0]), cases = 0, differ_naive = 0;
    for (int ia = 0; ia < ncoef; ia++)
        for (int ib = 0; ib < ncoef; ib++)
            for (int alias = 0; alias < 3; alias++) {
                double a = coef[ia], b = coef[ib];
                fill(rx, 1.0);
                fill(ry, 3.0);
                fill(rz, 1.0);
                copy(rx, fx);
                copy(ry, fy);
                copy(rz, fz);
                N_Vector rzz = alias == 0 ? rz : (alias == 1 ? rx : ry);
                N_Vector fzz = alias == 0 ? fz : (alias == 1 ? fx : fy);
                N_VLinearSum_Serial(a, rx, b, ry, rzz);
                N_VLinearSum(a, fx, b, fy, fzz);
                ENSURE(same(rzz, fzz));
                cases++;
                if (alias == 0 && a == b && a != 1.0 && a != -1.0 && a != 0.0) {
                    /* the special case matters: a x + b y rounds differently */
                    const double *xd = N_VGetArrayPointer(rx), *yd = N_VGetArrayPointer(ry);
                    const double *zd = N_VGetArrayPointer(rz);
                    for (int i = 0; i < NV; i++)
                        differ_naive += (a * xd[i]) + (b * yd[i]) != zd[i];
                }
            }
    ENSURE(cases == 3 * ncoef * ncoef);
    ENSURE(differ_naive > 0);
    for (int ic = 0; ic < ncoef; ic++) {
        fill(rx, 1.0);
        copy(rx, fx);
        N_VScale_Serial(coef[ic], rx, rz);
        N_VScale(coef[ic], fx, fz);
        ENSURE(same(rz, fz));
        N_VScale_Serial(coef[ic], rx, rx);
        N_VScale(coef[ic], fx, fx);
        ENSURE(same(rx, fx));
    }
    /* element-wise operations and reductions */
    fill(rx, 1.0);
    fill(ry, 2.0);
    copy(rx, fx);
    copy(ry, fy);
    N_VProd_Serial(rx, ry, rz);
    N_VProd(fx, fy, fz);
    ENSURE(same(rz, fz));
    N_VDiv_Serial(rx, ry, rz);
    N_VDiv(fx, fy, fz);
    ENSURE(same(rz, fz));
    N_VAbs_Serial(rx, rz);
    N_VAbs(fx, fz);
    ENSURE(same(rz, fz));
    N_VAddConst_Serial(rx, 0.7, rz);
    N_VAddConst(fx, 0.7, fz);
    ENSURE(same(rz, fz));
    N_VCompare_Serial(0.5, rx, rz);
    N_VCompare(0.5, fx, fz);
    ENSURE(same(rz, fz));
    N_VConst_Serial(0.25, rz);
    N_VConst(0.25, fz);
    ENSURE(same(rz, fz));
    ENSURE(N_VInvTest_Serial(rx, rz) == N_VInvTest(fx, fz)); /* element 3 is 0 */
    ENSURE(same(rz, fz));
    N_VInv_Serial(ry, rz);
    N_VInv(fy, fz);
    ENSURE(same(rz, fz));
    ENSURE(N_VMaxNorm_Serial(rx) == N_VMaxNorm(fx));
    ENSURE(N_VMin_Serial(rx) == N_VMin(fx));
    ENSURE(N_VMinQuotient_Serial(ry, rx) == N_VMinQuotient(fy, fx));
    /* fused operations against the library's fallbacks (a scale, then axpys) */
    enum { NF = 5 };
    N_Vector rX[NF], fX[NF], rZ[NF], fZ[NF];
    double c[NF] = {1.0, -1.0, 0.3, 2.0, -7.25};
    for (int k = 0; k < NF; k++) {
        rX[k] = N_VClone(ref);
        fX[k] = N_VClone(fast);
        rZ[k] = N_VClone(ref);
        fZ[k] = N_VClone(fast);
        fill(rX[k], 1.0 + k);
        copy(rX[k], fX[k]);
    }
    N_VScale_Serial(c[0], rX[0], rz);
    for (int k = 1; k < NF; k++)
        N_VLinearSum_Serial(c[k], rX[k], 1.0, rz, rz);
    ENSURE(N_VLinearCombination(NF, c, fX, fz) == 0);
    ENSURE(same(rz, fz));
    for (int k = 0; k < NF; k++)
        N_VLinearSum_Serial(c[k], rx, 1.0, rX[k], rZ[k]);
    ENSURE(N_VScaleAddMulti(NF, c, fx, fX, fZ) == 0);
    for (int k = 0; k < NF; k++)
        ENSURE(same(rZ[k], fZ[k]));
    for (int k = 0; k < NF; k++) {
        N_VDestroy(rX[k]);
        N_VDestroy(fX[k]);
        N_VDestroy(rZ[k]);
        N_VDestroy(fZ[k]);
    }
    destroy_vectors(v, 8);
    SUNContext_Free(&ctx);
}

/* the vectors' first n elements random (one in five zero) */
static void fill_n(N_Vector v, int n, double scale)
{
    double *d = N_VGetArrayPointer(v);
    for (int i = 0; i < n; i++)
        d[i] = rnd() < -0.6 ? 0.0 : scale * rnd() * pow(10.0, 3.0 * rnd());
}

static int same_n(N_Vector a, N_Vector b, int n)
{
    return memcmp(N_VGetArrayPointer(a), N_VGetArrayPointer(b), (size_t) n * sizeof(double)) == 0;
}

/* the norm by its definition, one component after the other (the loop cvode_setup.c had) */
static double wrms_moving_plain(const double *x, const double *w, int n)
{
    double sum = 0.0;
    int moving = 0;
    for (int i = 0; i < n; i++) {
        double p = x[i] * w[i];
        if (p != 0.0) {
            sum += p * p;
            moving++;
        }
    }
    return moving ? sqrt(sum / (double) moving) : 0.0;
}

/*
 * The kernels' loops run several elements per iteration (unrolled, in SSE2 or AVX registers)
 * with a remainder: every length from 1 to 40 takes each path. The linear sums CVODE calls
 * most (z = x, z = y and a new z), the scalings and the error norm against SUNDIALS' serial
 * kernels and the norm's definition, bit for bit.
 */
TEST(cvode_vector_kernels_and_error_norm_give_the_same_bits_at_every_length_from_1_to_40)
{
    SUNContext ctx;
    ENSURE(SUNContext_Create(NULL, &ctx) == 0);
    const double coef[] = {1.0, -1.0, 0.3, -7.25};
    int ncoef = (int) (sizeof coef / sizeof coef[0]), cases = 0, zero_norms = 0;
    for (int n = 1; n <= 40; n++) {
        N_Vector v[8];
        if (!make_vectors(ctx, n, v))
            break;
        N_Vector rx = v[2], ry = v[3], rz = v[4];
        N_Vector fx = v[5], fy = v[6], fz = v[7];
        for (int ia = 0; ia < ncoef; ia++)
            for (int ib = 0; ib < ncoef; ib++)
                for (int alias = 0; alias < 3; alias++) {
                    fill_n(rx, n, 1.0);
                    fill_n(ry, n, 3.0);
                    fill_n(rz, n, 1.0);
                    memcpy(N_VGetArrayPointer(fx), N_VGetArrayPointer(rx), (size_t) n * 8);
                    memcpy(N_VGetArrayPointer(fy), N_VGetArrayPointer(ry), (size_t) n * 8);
                    memcpy(N_VGetArrayPointer(fz), N_VGetArrayPointer(rz), (size_t) n * 8);
                    N_Vector rzz = alias == 0 ? rz : (alias == 1 ? rx : ry);
                    N_Vector fzz = alias == 0 ? fz : (alias == 1 ? fx : fy);
                    N_VLinearSum_Serial(coef[ia], rx, coef[ib], ry, rzz);
                    N_VLinearSum(coef[ia], fx, coef[ib], fy, fzz);
                    ENSURE(same_n(rzz, fzz, n));
                    cases++;
                }
        for (int ic = 0; ic < ncoef; ic++) {
            fill_n(rx, n, 1.0);
            memcpy(N_VGetArrayPointer(fx), N_VGetArrayPointer(rx), (size_t) n * 8);
            N_VScale_Serial(coef[ic], rx, rz);
            N_VScale(coef[ic], fx, fz);
            ENSURE(same_n(rz, fz, n));
            N_VScale_Serial(coef[ic], rx, rx);
            N_VScale(coef[ic], fx, fx);
            ENSURE(same_n(rx, fx, n));
        }
        /* the error norm: random errors with zeros, and all zero */
        for (int k = 0; k < 2; k++) {
            fill_n(fx, n, k == 0 ? 1e-3 : 0.0);
            fill_n(fy, n, 1e6);
            double want = wrms_moving_plain(N_VGetArrayPointer(fx), N_VGetArrayPointer(fy), n);
            double got = cvode_wrms_moving(fx, fy);
            ENSURE(memcmp(&want, &got, sizeof want) == 0);
            zero_norms += want == 0.0;
        }
        destroy_vectors(v, 8);
    }
    ENSURE(cases == 40 * 3 * ncoef * ncoef);
    ENSURE(zero_norms >= 40); /* the all-zero errors: no moving component */
    SUNContext_Free(&ctx);
}
