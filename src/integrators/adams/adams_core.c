/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adams_core.c: CVODE's Adams-Moulton method (variable step, variable order q <= 12,
 * Nordsieck form) on plain double arrays. The algorithm follows SUNDIALS 6.4.1's
 * src/cvode/cvode.c, cvode_nls.c and sunnonlinsol_fixedpoint.c (Copyright (c) 2002-2022,
 * Lawrence Livermore National Security and Southern Methodist University, BSD-3-Clause;
 * Hindmarsh et al. 2005) as clink configures CVODE for Adams
 * (cvode_setup.c), and does each floating-point operation in the same order, so that
 * every step has CVODE's bits:
 *
 *   prediction   zn_(j-1) += zn_j, k = 1 .. q, j = q .. k (the Pascal triangle);
 *   coefficients l_j and the test quantities tq_1 .. tq_5 of the variable-step Adams
 *                polynomials (cvSetAdams: cvAdamsStart, cvAltSum, cvAdamsFinish);
 *   corrector    fixed point on the correction a: a <- rl1 (h f(tn, zn_0 + a) - zn_1),
 *                at most 3 iterations, converged when del min(1, crate) / tq_4 <= 1,
 *                crate = max(0.3 crate, del / del_prev), diverged when del > 2 del_prev
 *                (cvNlsConvTest), del the weighted RMS of the change;
 *   error test   |a| tq_2 <= 1 in the weighted RMS norm (cvode_wrms_moving's: the
 *                components of zero weighted error left out), else the step retried
 *                with eta = 1 / ((6 dsm)^(1/L) + 1e-6) (at most 7 failures; order 1
 *                and a new zn_1 after 3);
 *   completion   zn_j += l_j a, then the step and order of the next from the ratios at
 *                orders q - 1, q, q + 1 every q + 1 steps (cvPrepareNextStep,
 *                cvChooseEta, cvSetEta with the limits 1.5, 0.1, 10 and 10^4 at the
 *                first step), the history rescaled by eta^j (cvRescale) and adjusted
 *                for an order change (cvAdjustAdams);
 *   first step   cvHin's iteration on |h^2 y'' / 2| = 1 with its bounds;
 *   output       CVode's one-step mode with a stop time (the step that would pass it
 *                shortened to (tstop - tn)(1 - 4 u)), CVodeGetDky's sums.
 *
 * The vector operations are those of cvode_vector.c written on arrays: each element's
 * operations are the ones its kernels do for the scalars CVODE passes (a linear sum
 * x + b y as x + b y, a (x - y) when b = -a, ...), so the results have the same bits.
 */
#include "integrators/adams/adams.h"
#include "integrators/integ_common.h"

#include "integrators/cvode/cvode_compat.h"

#include <cvode/cvode.h>

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#endif

/* element-wise loops in SIMD registers (as cvode_vector.c's): each element's operations are
   the same, so are the bits (fused multiply-adds are off: -ffp-contract=off); sums over the
   elements (the norm) stay in order */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

/* CVODE's constants (cvode.c, cvode_impl.h, cvode_nls.c) */
#define AD_UROUND     DBL_EPSILON
#define AD_FUZZ       100.0
#define AD_HLB        100.0
#define AD_HUB        0.1
#define AD_HBIAS      0.5
#define AD_HIN_ITERS  4
#define AD_CORTES     0.1
#define AD_MAXCOR     3
#define AD_CRDOWN     0.3
#define AD_RDIV       2.0
#define AD_ETA_MAX_FX 1.5
#define AD_ETA_MAX_FS 10000.0
#define AD_ETA_MAX_GS 10.0
#define AD_ETA_MIN    0.1
#define AD_ETA_MAX_EF 0.2
#define AD_ETA_MIN_EF 0.1
#define AD_ETA_CF     0.25
#define AD_SMALL_NEF  2
#define AD_ONEPSM     1.000001
#define AD_ADDON      0.000001
#define AD_BIAS1      6.0
#define AD_BIAS2      6.0
#define AD_BIAS3      10.0
#define AD_LONG_WAIT  10
#define AD_MXNCF      10
#define AD_MXNEF      7
#define AD_MXNEF1     3
#define AD_MXHNIL     10

/* SUNMAX and SUNMIN (not fmax, fmin: a NaN goes the way the comparison says) */
#define AD_MAX(a, b) ((a) > (b) ? (a) : (b))
#define AD_MIN(a, b) ((a) < (b) ? (a) : (b))

/* cvStep's internal outcomes (cvode_impl.h's values do not matter outside) */
enum { AD_DO_ERROR_TEST = 2, AD_PREDICT_AGAIN = 3, AD_TRY_AGAIN = 5 };
enum { AD_FIRST_CALL = 6, AD_PREV_CONV_FAIL = 7, AD_PREV_ERR_FAIL = 8 };
/* the corrector's: converged, go on, failed recoverably (SUN_NLS_*), f recoverable */
enum { AD_NLS_SUCCESS = 0, AD_NLS_CONTINUE = 901, AD_NLS_CONV_RECVR = 902, AD_RHS_RECVR = 9 };

/* ---- vector operations (cvode_vector.c's, element by element) ------------- */

/* the weighted RMS norm of clink's CVODE vectors (cvode_setup.c, cvode_wrms_moving):
   squares summed in order, their count where x w is not zero */
static inline double ad_wrms(const double *x, const double *w, int n)
{
    return integ_wrms_moving(x, w, n);
}

/* SUNRpowerR: 0 for a base <= 0 */
static double ad_powr(double base, double e)
{
    return base <= 0.0 ? 0.0 : pow(base, e);
}

/* y += a x */
static void ad_axpy(double a, const double *x, double *y, int n)
{
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

static void ad_copy(const double *x, double *y, int n)
{
    memcpy(y, x, (size_t) n * sizeof(double));
}

/* the last message, as clink's CVODE error handler keeps it (cvode_ode.c) */
static void ad_msg(adams_core *c, int code, const char *fn, const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(c->msg, sizeof c->msg, "CVODE %s (%d): %s", fn, code, text);
}

/* the element-wise loops (adams_kernels.h): with SSE2 two doubles per register (else one),
   and an AVX copy of four where the compiler can target it, taken at run time when the
   processor has it (adams_core_alloc); the same bits in every copy */
#ifdef __SSE2__
#define VK_T     __m128d
#define VK_W     2
#define VK_LOAD  _mm_loadu_pd
#define VK_STORE _mm_storeu_pd
#define VK_ADD   _mm_add_pd
#define VK_SUB   _mm_sub_pd
#define VK_MUL   _mm_mul_pd
#define VK_SET1  _mm_set1_pd
#else
#define VK_T           double
#define VK_W           1
#define VK_LOAD(p)     (*(p))
#define VK_STORE(p, v) (*(p) = (v))
#define VK_ADD(a, b)   ((a) + (b))
#define VK_SUB(a, b)   ((a) - (b))
#define VK_MUL(a, b)   ((a) * (b))
#define VK_SET1(a)     (a)
#endif
#define VK(name) ad_##name##_base
#define VK_TARGET
#include "integrators/adams/adams_kernels.h" /* undefines VK and VK_* */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define AD_AVX    1
#define VK(name)  ad_##name##_avx
#define VK_TARGET __attribute__((target("avx")))
#define VK_T      __m256d
#define VK_W      4
#define VK_LOAD   _mm256_loadu_pd
#define VK_STORE  _mm256_storeu_pd
#define VK_ADD    _mm256_add_pd
#define VK_SUB    _mm256_sub_pd
#define VK_MUL    _mm256_mul_pd
#define VK_SET1   _mm256_set1_pd
#include "integrators/adams/adams_kernels.h" /* undefines VK and VK_* */
#endif

/* ---- set-up --------------------------------------------------------------- */

int adams_core_alloc(adams_core *c, int n, int qmax)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->qmax = qmax < 1 ? 1 : qmax > ADAMS_QMAX ? ADAMS_QMAX : qmax;
    int nvec = c->qmax + 1 + 6;
    double *block = calloc((size_t) nvec * (size_t) (n > 0 ? n : 1), sizeof(double));
    if (!block)
        return -1;
    for (int j = 0; j <= c->qmax; j++)
        c->zn[j] = block + (size_t) j * n;
    double *p = block + (size_t) (c->qmax + 1) * n;
    c->ewt = p;
    c->acor = p + n;
    c->tempv = p + 2 * n;
    c->ftemp = p + 3 * n;
    c->y = p + 4 * n;
    c->delta = p + 5 * n;
    c->k_pascal = ad_pascal_base;
    c->k_correct = ad_correct_base;
    c->k_update = ad_update_base;
#ifdef AD_AVX
    if (__builtin_cpu_supports("avx")) {
        c->k_pascal = ad_pascal_avx;
        c->k_correct = ad_correct_avx;
        c->k_update = ad_update_avx;
    }
#endif
    return 0;
}

void adams_core_free(adams_core *c)
{
    free(c->zn[0]);
    c->zn[0] = NULL;
}

void adams_core_reinit(adams_core *c, double t0, const double *y0)
{
    c->tn = t0;
    c->q = 1;
    c->L = 2;
    c->qwait = c->L;
    c->etamax = AD_ETA_MAX_FS;
    c->qu = 0;
    c->hu = 0.0;
    c->tolsf = 1.0;
    ad_copy(y0, c->zn[0], c->n);
    c->nst = c->nfe = c->ncfn = c->netf = c->nni = c->nnf = c->nhnil = 0;
    c->nscon = 0;
    c->h0u = 0.0;
    c->next_h = 0.0;
    c->next_q = 0;
}

void adams_core_set_max_step(adams_core *c, double hmax)
{
    c->hmax_inv = hmax > 0.0 ? 1.0 / hmax : 0.0;
}

void adams_core_set_min_step(adams_core *c, double hmin)
{
    c->hmin = hmin > 0.0 ? hmin : 0.0;
}

int adams_core_set_stop_time(adams_core *c, double tstop)
{
    if (c->nst > 0 && (tstop - c->tn) * c->h < 0.0) {
        ad_msg(c, CV_ILL_INPUT, "CVodeSetStopTime",
               "The value tstop = %lg is behind current t = %lg in the direction of integration.",
               tstop, c->tn);
        return CV_ILL_INPUT;
    }
    c->tstop = tstop;
    c->tstopset = 1;
    return CV_SUCCESS;
}

static void ad_weights(adams_core *c, const double *y, double *w)
{
    c->weights(c->data, y, w);
    c->ewt_last = w;
}

/* ---- the first step (cvHin) ----------------------------------------------- */

/* cvUpperBoundH0: |h0| at most 0.1 tdist and such that a forward Euler step changes no
   component by more than 0.1 |y| + 1 / w */
static double ad_upper_bound_h0(adams_core *c, double tdist)
{
    int n = c->n;
    double *t1 = c->tempv, *t2 = c->acor;
    for (int i = 0; i < n; i++)
        t2[i] = fabs(c->zn[0][i]);
    ad_weights(c, c->zn[0], t1);
    for (int i = 0; i < n; i++)
        t1[i] = 1.0 / t1[i];
    ad_axpy(AD_HUB, t2, t1, n);
    for (int i = 0; i < n; i++)
        t2[i] = fabs(c->zn[1][i]);
    double hub_inv = 0.0;
    for (int i = 0; i < n; i++) {
        t1[i] = t2[i] / t1[i];
        if (fabs(t1[i]) > hub_inv)
            hub_inv = fabs(t1[i]);
    }
    double hub = AD_HUB * tdist;
    if (hub * hub_inv > 1.0)
        hub = 1.0 / hub_inv;
    return hub;
}

/* cvYddNorm: |y''| estimated by a difference of f over hg; 0, AD_RHS_RECVR or < 0 */
static int ad_ydd_norm(adams_core *c, double hg, double *yddnrm)
{
    int n = c->n;
    for (int i = 0; i < n; i++)
        c->y[i] = hg * c->zn[1][i] + c->zn[0][i];
    int rc = c->rhs(c->data, c->tn + hg, c->y, c->tempv);
    c->nfe++;
    if (rc < 0)
        return CV_RHSFUNC_FAIL;
    if (rc > 0)
        return AD_RHS_RECVR;
    double a = 1.0 / hg;
    for (int i = 0; i < n; i++)
        c->tempv[i] = a * (c->tempv[i] - c->zn[1][i]);
    *yddnrm = ad_wrms(c->tempv, c->ewt, n);
    return CV_SUCCESS;
}

/* cvHin's iteration from the geometric mean of the bounds; *hnew */
static int ad_hin_iterate(adams_core *c, int sign, double hg, double hub, double *hnew)
{
    double hs = hg, yddnrm = 0.0;
    for (int count1 = 1; count1 <= AD_HIN_ITERS; count1++) {
        int ok = 0;
        for (int count2 = 1; count2 <= AD_HIN_ITERS; count2++) {
            int rc = ad_ydd_norm(c, hg * sign, &yddnrm);
            if (rc < 0)
                return CV_RHSFUNC_FAIL;
            if (rc == CV_SUCCESS) {
                ok = 1;
                break;
            }
            hg *= 0.2;
        }
        if (!ok) {
            if (count1 <= 2)
                return CV_REPTD_RHSFUNC_ERR;
            *hnew = hs;
            break;
        }
        hs = hg;
        *hnew = yddnrm * hub * hub > 2.0 ? sqrt(2.0 / yddnrm) : sqrt(hg * hub);
        if (count1 == AD_HIN_ITERS)
            break;
        double hrat = *hnew / hg;
        if (hrat > 0.5 && hrat < 2.0)
            break;
        if (count1 > 1 && hrat > 2.0) {
            *hnew = hg;
            break;
        }
        hg = *hnew;
    }
    return CV_SUCCESS;
}

static int ad_hin(adams_core *c, double tout)
{
    double tdiff = tout - c->tn;
    if (tdiff == 0.0)
        return CV_TOO_CLOSE;
    int sign = tdiff > 0.0 ? 1 : -1;
    double tdist = fabs(tdiff);
    double tround = AD_UROUND * AD_MAX(fabs(c->tn), fabs(tout));
    if (tdist < 2.0 * tround)
        return CV_TOO_CLOSE;
    double hlb = AD_HLB * tround;
    double hub = ad_upper_bound_h0(c, tdist);
    double hg = sqrt(hlb * hub);
    if (hub < hlb) {
        c->h = sign == -1 ? -hg : hg;
        return CV_SUCCESS;
    }
    double hnew = hg;
    int rc = ad_hin_iterate(c, sign, hg, hub, &hnew);
    if (rc != CV_SUCCESS)
        return rc;
    double h0 = AD_HBIAS * hnew;
    if (h0 < hlb)
        h0 = hlb;
    if (h0 > hub)
        h0 = hub;
    c->h = sign == -1 ? -h0 : h0;
    return CV_SUCCESS;
}

/* ---- the step's parts ------------------------------------------------------ */

/* cvRescale: zn_j *= eta^j, h = hscale eta */
static void ad_rescale(adams_core *c)
{
    double f = c->eta;
    for (int j = 1; j <= c->q; j++) {
        double *z = c->zn[j];
        for (int i = 0; i < c->n; i++)
            z[i] *= f;
        f = c->eta * f;
    }
    c->h = c->hscale * c->eta;
    c->next_h = c->h;
    c->hscale = c->h;
    c->nscon = 0;
}

/* cvAdjustAdams (through cvAdjustOrder): an order increase zeroes zn_L; a decrease
   subtracts multiples of zn_q from zn_2 .. zn_(q-1) */
static void ad_adjust_order(adams_core *c, int deltaq)
{
    if (c->q == 2 && deltaq != 1)
        return;
    if (deltaq == 1) {
        memset(c->zn[c->L], 0, (size_t) c->n * sizeof(double));
        return;
    }
    double *l = c->l, xi, hsum = 0.0;
    for (int i = 0; i <= c->qmax; i++)
        l[i] = 0.0;
    l[1] = 1.0;
    for (int j = 1; j <= c->q - 2; j++) {
        hsum += c->tau[j];
        xi = hsum / c->hscale;
        for (int i = j + 1; i >= 1; i--)
            l[i] = l[i] * xi + l[i - 1];
    }
    for (int j = 1; j <= c->q - 2; j++)
        l[j + 1] = c->q * (l[j] / (j + 1));
    for (int j = 2; j < c->q; j++)
        ad_axpy(-l[j], c->zn[c->q], c->zn[j], c->n);
}

static void ad_adjust_params(adams_core *c)
{
    if (c->qprime != c->q) {
        ad_adjust_order(c, c->qprime - c->q);
        c->q = c->qprime;
        c->L = c->q + 1;
        c->qwait = c->L;
    }
    ad_rescale(c);
}

/* cvPredict */
static void ad_predict(adams_core *c)
{
    c->tn += c->h;
    if (c->tstopset && (c->tn - c->tstop) * c->h > 0.0)
        c->tn = c->tstop;
    c->k_pascal(c->zn, c->q, c->n, 0);
}

/* cvRestore: the prediction undone */
static void ad_restore(adams_core *c, double saved_t)
{
    c->tn = saved_t;
    c->k_pascal(c->zn, c->q, c->n, 1);
}

/* cvAltSum: sum_i (-1)^i a_i / (i + k), i = 0 .. iend */
static double ad_alt_sum(int iend, const double *a, int k)
{
    if (iend < 0)
        return 0.0;
    double sum = 0.0;
    int sign = 1;
    for (int i = 0; i <= iend; i++) {
        sum += sign * (a[i] / (i + k));
        sign = -sign;
    }
    return sum;
}

/* cvAdamsStart: the coefficients of prod_(j < q) (1 + x / xi_j); returns the sum of the
   last q - 1 steps and h */
static double ad_adams_start(adams_core *c, double *m)
{
    double hsum = c->h;
    m[0] = 1.0;
    for (int i = 1; i <= c->q; i++)
        m[i] = 0.0;
    for (int j = 1; j < c->q; j++) {
        if (j == c->q - 1 && c->qwait == 1) {
            double sum = ad_alt_sum(c->q - 2, m, 2);
            c->tq[1] = c->q * sum / m[c->q - 2];
        }
        double xi_inv = c->h / hsum;
        for (int i = j; i >= 1; i--)
            m[i] += m[i - 1] * xi_inv;
        hsum += c->tau[j];
    }
    return hsum;
}

/* cvSetAdams with cvAdamsFinish, then cvSet's rl1 and gamma */
static void ad_set(adams_core *c)
{
    if (c->q == 1) {
        c->l[0] = c->l[1] = c->tq[1] = c->tq[5] = 1.0;
        c->tq[2] = 0.5;
        c->tq[3] = 1.0 / 12.0;
        c->tq[4] = AD_CORTES / c->tq[2];
    } else {
        double m[ADAMS_LMAX], M[3];
        double hsum = ad_adams_start(c, m);
        M[0] = ad_alt_sum(c->q - 1, m, 1);
        M[1] = ad_alt_sum(c->q - 1, m, 2);
        double M0_inv = 1.0 / M[0];
        c->l[0] = 1.0;
        for (int i = 1; i <= c->q; i++)
            c->l[i] = M0_inv * (m[i - 1] / i);
        double xi = hsum / c->h;
        double xi_inv = 1.0 / xi;
        c->tq[2] = M[1] * M0_inv / xi;
        c->tq[5] = xi / c->l[c->q];
        if (c->qwait == 1) {
            for (int i = c->q; i >= 1; i--)
                m[i] += m[i - 1] * xi_inv;
            M[2] = ad_alt_sum(c->q, m, 2);
            c->tq[3] = M[2] * M0_inv / c->L;
        }
        c->tq[4] = AD_CORTES / c->tq[2];
    }
    c->rl1 = 1.0 / c->l[1];
    c->gamma = c->h * c->rl1;
}

/* cvNlsConvTest at iteration m: AD_NLS_SUCCESS, AD_NLS_CONTINUE or AD_NLS_CONV_RECVR */
static int ad_conv_test(adams_core *c, int m, double tol)
{
    double del = ad_wrms(c->delta, c->ewt, c->n);
    if (m > 0)
        c->crate = AD_MAX(AD_CRDOWN * c->crate, del / c->delp);
    double dcon = del * AD_MIN(1.0, c->crate) / tol;
    if (dcon <= 1.0) {
        c->acnrm = m == 0 ? del : ad_wrms(c->acor, c->ewt, c->n);
        return AD_NLS_SUCCESS;
    }
    if (m >= 1 && del > AD_RDIV * c->delp)
        return AD_NLS_CONV_RECVR;
    c->delp = del;
    return AD_NLS_CONTINUE;
}

/* cvNls with SUNNonlinSol_FixedPoint (m = 0): the correction acor, y = zn_0 + acor;
   AD_NLS_SUCCESS or AD_NLS_CONV_RECVR (a failing f too, as the fixed-point solver returns
   it) */
static int ad_nls(adams_core *c)
{
    int n = c->n, rc = AD_NLS_CONV_RECVR;
    long iters = 0;
    c->crate = 1.0;
    memset(c->acor, 0, (size_t) n * sizeof(double));
    const double *z0 = c->zn[0], *z1 = c->zn[1];
    for (int i = 0; i < n; i++)
        c->y[i] = z0[i] + c->acor[i];
    for (int m = 0; m < AD_MAXCOR; m++) {
        int f = c->rhs(c->data, c->tn, c->y, c->ftemp);
        c->nfe++;
        if (f != 0) {
            rc = AD_NLS_CONV_RECVR;
            break;
        }
        /* in one pass: acor = rl1 (h f - zn_1), its change delta from the last (the
           solver's yprev) and y = zn_0 + acor for the next iteration, which is also
           cvNls's final state */
        c->k_update(c->ftemp, z0, z1, c->acor, c->delta, c->y, c->rl1, c->h, n);
        iters++;
        rc = ad_conv_test(c, m, c->tq[4]);
        if (rc != AD_NLS_CONTINUE)
            break;
        rc = AD_NLS_CONV_RECVR; /* the iterations run out */
    }
    c->nni += iters;
    if (rc != AD_NLS_SUCCESS) {
        c->nnf++;
        return AD_NLS_CONV_RECVR;
    }
    return AD_NLS_SUCCESS; /* y = zn_0 + acor (the loop's last pass) */
}

/* cvHandleNFlag: AD_DO_ERROR_TEST, AD_PREDICT_AGAIN or CV_CONV_FAILURE */
static int ad_handle_nflag(adams_core *c, int *nflag, double saved_t, int *ncf)
{
    if (*nflag == AD_NLS_SUCCESS)
        return AD_DO_ERROR_TEST;
    c->ncfn++;
    ad_restore(c, saved_t);
    (*ncf)++;
    c->etamax = 1.0;
    if (fabs(c->h) <= c->hmin * AD_ONEPSM || *ncf == AD_MXNCF)
        return CV_CONV_FAILURE;
    c->eta = AD_MAX(AD_ETA_CF, c->hmin / fabs(c->h));
    *nflag = AD_PREV_CONV_FAIL;
    ad_rescale(c);
    return AD_PREDICT_AGAIN;
}

/* cvDoErrorTest: CV_SUCCESS, AD_TRY_AGAIN, CV_ERR_FAILURE or an f failure */
static int ad_error_test(adams_core *c, int *nflag, double saved_t, int *nef, double *dsmp)
{
    double dsm = c->acnrm * c->tq[2];
    *dsmp = dsm;
    if (dsm <= 1.0)
        return CV_SUCCESS;
    (*nef)++;
    c->netf++;
    *nflag = AD_PREV_ERR_FAIL;
    ad_restore(c, saved_t);
    if (fabs(c->h) <= c->hmin * AD_ONEPSM || *nef == AD_MXNEF)
        return CV_ERR_FAILURE;
    c->etamax = 1.0;
    if (*nef <= AD_MXNEF1) {
        c->eta = 1.0 / (ad_powr(AD_BIAS2 * dsm, 1.0 / c->L) + AD_ADDON);
        c->eta = AD_MAX(AD_ETA_MIN_EF, AD_MAX(c->eta, c->hmin / fabs(c->h)));
        if (*nef >= AD_SMALL_NEF)
            c->eta = AD_MIN(c->eta, AD_ETA_MAX_EF);
        ad_rescale(c);
        return AD_TRY_AGAIN;
    }
    if (c->q > 1) {
        c->eta = AD_MAX(AD_ETA_MIN_EF, c->hmin / fabs(c->h));
        ad_adjust_order(c, -1);
        c->L = c->q;
        c->q--;
        c->qwait = c->L;
        ad_rescale(c);
        return AD_TRY_AGAIN;
    }
    /* at order 1: zn_1 = h f(tn, zn_0) afresh */
    c->eta = AD_MAX(AD_ETA_MIN_EF, c->hmin / fabs(c->h));
    c->h *= c->eta;
    c->next_h = c->h;
    c->hscale = c->h;
    c->qwait = AD_LONG_WAIT;
    c->nscon = 0;
    int rc = c->rhs(c->data, c->tn, c->zn[0], c->tempv);
    c->nfe++;
    if (rc < 0)
        return CV_RHSFUNC_FAIL;
    if (rc > 0)
        return CV_UNREC_RHSFUNC_ERR;
    for (int i = 0; i < c->n; i++)
        c->zn[1][i] = c->h * c->tempv[i];
    return AD_TRY_AGAIN;
}

/* cvCompleteStep */
static void ad_complete_step(adams_core *c)
{
    c->nst++;
    c->nscon++;
    c->hu = c->h;
    c->qu = c->q;
    for (int i = c->q; i >= 2; i--)
        c->tau[i] = c->tau[i - 1];
    if (c->q == 1 && c->nst > 1)
        c->tau[2] = c->tau[1];
    c->tau[1] = c->h;
    c->k_correct(c->zn, c->l, c->acor, c->q, c->n);
    c->qwait--;
    if (c->qwait == 1 && c->q != c->qmax) {
        ad_copy(c->acor, c->zn[c->qmax], c->n);
        c->saved_tq5 = c->tq[5];
        c->indx_acor = c->qmax;
    }
}

/* cvSetEta */
static void ad_set_eta(adams_core *c)
{
    if (c->eta > 0.0 && c->eta < AD_ETA_MAX_FX) {
        c->eta = 1.0;
        c->hprime = c->h;
        return;
    }
    if (c->eta >= AD_ETA_MAX_FX) {
        c->eta = AD_MIN(c->eta, c->etamax);
        c->eta /= AD_MAX(1.0, fabs(c->h) * c->hmax_inv * c->eta);
    } else {
        c->eta = AD_MAX(c->eta, AD_ETA_MIN);
        c->eta = AD_MAX(c->eta, c->hmin / fabs(c->h));
    }
    c->hprime = c->h * c->eta;
    if (c->qprime < c->q)
        c->nscon = 0;
}

/* cvComputeEtaqm1, cvComputeEtaqp1 and cvChooseEta: the order of the next step */
static void ad_choose_order(adams_core *c)
{
    c->etaqm1 = 0.0;
    if (c->q > 1) {
        double ddn = ad_wrms(c->zn[c->q], c->ewt, c->n) * c->tq[1];
        c->etaqm1 = 1.0 / (ad_powr(AD_BIAS1 * ddn, 1.0 / c->q) + AD_ADDON);
    }
    c->etaqp1 = 0.0;
    if (c->q != c->qmax && c->saved_tq5 != 0.0) {
        double r = c->h / c->tau[2], p = 1.0;
        for (int i = 1; i <= c->L; i++)
            p *= r;
        double cquot = (c->tq[5] / c->saved_tq5) * p;
        for (int i = 0; i < c->n; i++)
            c->tempv[i] = (-cquot * c->zn[c->qmax][i]) + c->acor[i];
        double dup = ad_wrms(c->tempv, c->ewt, c->n) * c->tq[3];
        c->etaqp1 = 1.0 / (ad_powr(AD_BIAS3 * dup, 1.0 / (c->L + 1)) + AD_ADDON);
    }
    double etam = AD_MAX(c->etaqm1, AD_MAX(c->etaq, c->etaqp1));
    if (etam > 0.0 && etam < AD_ETA_MAX_FX) {
        c->eta = 1.0;
        c->qprime = c->q;
    } else if (etam == c->etaq) {
        c->eta = c->etaq;
        c->qprime = c->q;
    } else if (etam == c->etaqm1) {
        c->eta = c->etaqm1;
        c->qprime = c->q - 1;
    } else {
        c->eta = c->etaqp1;
        c->qprime = c->q + 1;
    }
}

/* cvPrepareNextStep */
static void ad_prepare_next(adams_core *c, double dsm)
{
    if (c->etamax == 1.0) {
        c->qwait = c->qwait > 2 ? c->qwait : 2;
        c->qprime = c->q;
        c->hprime = c->h;
        c->eta = 1.0;
        return;
    }
    c->etaq = 1.0 / (ad_powr(AD_BIAS2 * dsm, 1.0 / c->L) + AD_ADDON);
    if (c->qwait != 0) {
        c->eta = c->etaq;
        c->qprime = c->q;
    } else {
        c->qwait = 2;
        ad_choose_order(c);
    }
    ad_set_eta(c);
}

/* cvStep: one step, retried after failures; CV_SUCCESS or a CVODE failure flag */
static int ad_step(adams_core *c)
{
    int ncf = 0, nef = 0, nflag = AD_FIRST_CALL;
    double dsm = 0.0;
    if (c->nst > 0 && c->hprime != c->h)
        ad_adjust_params(c);
    double saved_t = c->tn;
    for (;;) {
        ad_predict(c);
        ad_set(c);
        nflag = ad_nls(c);
        int k = ad_handle_nflag(c, &nflag, saved_t, &ncf);
        if (k == AD_PREDICT_AGAIN)
            continue;
        if (k != AD_DO_ERROR_TEST)
            return k;
        int e = ad_error_test(c, &nflag, saved_t, &nef, &dsm);
        if (e == AD_TRY_AGAIN)
            continue;
        if (e != CV_SUCCESS)
            return e;
        break;
    }
    ad_complete_step(c);
    ad_prepare_next(c, dsm);
    c->etamax = AD_ETA_MAX_GS; /* CVODE's eta_max_es and eta_max_gs are both 10 */
    for (int i = 0; i < c->n; i++)
        c->acor[i] *= c->tq[2];
    return CV_SUCCESS;
}

/* ---- CVode in one-step mode ------------------------------------------------- */

/* cvHandleFailure's messages; returns flag */
static int ad_failure(adams_core *c, int flag)
{
    switch (flag) {
    case CV_ERR_FAILURE:
        ad_msg(c, flag, "CVode",
               "At t = %lg and h = %lg, the error test failed repeatedly or with |h| = hmin.",
               c->tn, c->h);
        break;
    case CV_CONV_FAILURE:
        ad_msg(c, flag, "CVode",
               "At t = %lg and h = %lg, the corrector convergence test failed repeatedly or "
               "with |h| = hmin.",
               c->tn, c->h);
        break;
    case CV_RHSFUNC_FAIL:
        ad_msg(c, flag, "CVode",
               "At t = %lg, the right-hand side routine failed in an unrecoverable manner.", c->tn);
        break;
    case CV_UNREC_RHSFUNC_ERR:
        ad_msg(c, flag, "CVode",
               "At t = %lg, the right-hand side failed in a recoverable manner, but no "
               "recovery is possible.",
               c->tn);
        break;
    case CV_REPTD_RHSFUNC_ERR:
        ad_msg(c, flag, "CVode", "At t = %lg repeated recoverable right-hand side function errors.",
               c->tn);
        break;
    case CV_TOO_CLOSE:
        ad_msg(c, flag, "CVode", "tout too close to t0 to start integration.");
        break;
    default:
        break;
    }
    return flag;
}

/* CVode's first-call block: f at t0, the first step (given, or cvHin), its bounds */
static int ad_first_call(adams_core *c, double tout, double *tret)
{
    c->tretlast = *tret = c->tn;
    ad_weights(c, c->zn[0], c->ewt);
    int rc = c->rhs(c->data, c->tn, c->zn[0], c->zn[1]);
    c->nfe++;
    if (rc < 0) {
        ad_msg(c, CV_RHSFUNC_FAIL, "CVode",
               "At t = %lg, the right-hand side routine failed in an unrecoverable manner.", c->tn);
        return CV_RHSFUNC_FAIL;
    }
    if (rc > 0) {
        ad_msg(c, CV_FIRST_RHSFUNC_ERR, "CVode",
               "The right-hand side routine failed at the first call.");
        return CV_FIRST_RHSFUNC_ERR;
    }
    if (c->tstopset && (c->tstop - c->tn) * (tout - c->tn) <= 0.0) {
        ad_msg(c, CV_ILL_INPUT, "CVode",
               "The value tstop = %lg is behind current t = %lg in the direction of integration.",
               c->tstop, c->tn);
        return CV_ILL_INPUT;
    }
    c->h = c->hin;
    if (c->h != 0.0 && (tout - c->tn) * c->h < 0.0) {
        ad_msg(c, CV_ILL_INPUT, "CVode", "h0 and tout - t0 inconsistent.");
        return CV_ILL_INPUT;
    }
    if (c->h == 0.0) {
        double tout_hin = tout;
        if (c->tstopset && (tout - c->tn) * (tout - c->tstop) > 0.0)
            tout_hin = c->tstop;
        rc = ad_hin(c, tout_hin);
        if (rc != CV_SUCCESS)
            return ad_failure(c, rc);
    }
    double rh = fabs(c->h) * c->hmax_inv;
    if (rh > 1.0)
        c->h /= rh;
    if (fabs(c->h) < c->hmin)
        c->h *= c->hmin / fabs(c->h);
    if (c->tstopset && (c->tn + c->h - c->tstop) * c->h > 0.0)
        c->h = (c->tstop - c->tn) * (1.0 - 4.0 * AD_UROUND);
    c->hscale = c->h;
    c->h0u = c->h;
    c->hprime = c->h;
    for (int i = 0; i < c->n; i++)
        c->zn[1][i] *= c->h;
    return CV_SUCCESS;
}

/* the stop time reached (within roundoff): 1 with the return made, else the next step
   shortened to end at it */
static int ad_at_stop(adams_core *c, double *yout, double *tret, int *rc)
{
    double troundoff = AD_FUZZ * AD_UROUND * (fabs(c->tn) + fabs(c->h));
    if (fabs(c->tn - c->tstop) <= troundoff) {
        if (adams_core_dky(c, c->tstop, 0, yout) != CV_SUCCESS) {
            ad_msg(c, CV_ILL_INPUT, "CVode",
                   "The value tstop = %lg is behind current t = %lg in the direction of "
                   "integration.",
                   c->tstop, c->tn);
            *rc = CV_ILL_INPUT;
            return 1;
        }
        c->tretlast = *tret = c->tstop;
        c->tstopset = 0;
        *rc = CV_TSTOP_RETURN;
        return 1;
    }
    if ((c->tn + c->hprime - c->tstop) * c->h > 0.0) {
        c->hprime = (c->tstop - c->tn) * (1.0 - 4.0 * AD_UROUND);
        c->eta = c->hprime / c->h;
    }
    return 0;
}

/* the checks of CVode's loop before a step: 0, or a failure (the return made) */
static int ad_before_step(adams_core *c, double *yout, double *tret)
{
    c->next_h = c->h;
    c->next_q = c->q;
    if (c->nst > 0)
        ad_weights(c, c->zn[0], c->ewt);
    double nrm = ad_wrms(c->zn[0], c->ewt, c->n);
    c->tolsf = AD_UROUND * nrm;
    if (c->tolsf > 1.0) {
        ad_msg(c, CV_TOO_MUCH_ACC, "CVode", "At t = %lg, too much accuracy requested.", c->tn);
        c->tretlast = *tret = c->tn;
        ad_copy(c->zn[0], yout, c->n);
        c->tolsf *= 2.0;
        return CV_TOO_MUCH_ACC;
    }
    c->tolsf = 1.0;
    if (c->tn + c->h == c->tn) {
        c->nhnil++;
        if (c->nhnil <= AD_MXHNIL)
            ad_msg(c, CV_WARNING, "CVode",
                   "Internal t = %lg and h = %lg are such that t + h = t on the next step. "
                   "The solver will continue anyway.",
                   c->tn, c->h);
        if (c->nhnil == AD_MXHNIL)
            ad_msg(c, CV_WARNING, "CVode",
                   "The above warning has been issued mxhnil times and will not be issued "
                   "again for this problem.");
    }
    return 0;
}

int adams_core_step(adams_core *c, double tout, double *yout, double *tret)
{
    int rc = 0;
    if (c->nst == 0) {
        rc = ad_first_call(c, tout, tret);
        if (rc != CV_SUCCESS)
            return rc;
    } else {
        double troundoff = AD_FUZZ * AD_UROUND * (fabs(c->tn) + fabs(c->h));
        if (fabs(c->tn - c->tretlast) > troundoff) {
            c->tretlast = *tret = c->tn;
            ad_copy(c->zn[0], yout, c->n);
            return CV_SUCCESS;
        }
        if (c->tstopset && ad_at_stop(c, yout, tret, &rc))
            return rc;
    }
    rc = ad_before_step(c, yout, tret);
    if (rc != 0)
        return rc;
    int kflag = ad_step(c);
    if (kflag != CV_SUCCESS) {
        rc = ad_failure(c, kflag);
        c->tretlast = *tret = c->tn;
        ad_copy(c->zn[0], yout, c->n);
        return rc;
    }
    if (c->tstopset) {
        double troundoff = AD_FUZZ * AD_UROUND * (fabs(c->tn) + fabs(c->h));
        if (fabs(c->tn - c->tstop) <= troundoff)
            c->tn = c->tstop;
        if (ad_at_stop(c, yout, tret, &rc))
            return rc;
    }
    c->tretlast = *tret = c->tn;
    ad_copy(c->zn[0], yout, c->n);
    c->next_q = c->qprime;
    c->next_h = c->hprime;
    return CV_SUCCESS;
}

/* ---- dense output ---------------------------------------------------------- */

/* CVodeGetDky's coefficients c_j of zn_j, j = q .. k, in the order it sums them; the
   count */
static int ad_dky_coefs(const adams_core *c, double t, int k, double *cv)
{
    int nvec = 0;
    double s = (t - c->tn) / c->h;
    for (int j = c->q; j >= k; j--) {
        double v = 1.0;
        for (int i = j; i >= j - k + 1; i--)
            v *= i;
        for (int i = 0; i < j - k; i++)
            v *= s;
        cv[nvec++] = v;
    }
    return nvec;
}

int adams_core_dky(adams_core *c, double t, int k, double *dky)
{
    if (k < 0 || k > c->q) {
        ad_msg(c, CV_BAD_K, "CVodeGetDky", "Illegal value for k.");
        return CV_BAD_K;
    }
    double tfuzz = AD_FUZZ * AD_UROUND * (fabs(c->tn) + fabs(c->hu));
    if (c->hu < 0.0)
        tfuzz = -tfuzz;
    double tp = c->tn - c->hu - tfuzz, tn1 = c->tn + tfuzz;
    if ((t - tp) * (t - tn1) > 0.0) {
        ad_msg(c, CV_BAD_T, "CVodeGetDky",
               "Illegal value for t.t = %lg is not between tcur - hu = %lg and tcur = %lg.", t,
               c->tn - c->hu, c->tn);
        return CV_BAD_T;
    }
    double cv[ADAMS_LMAX];
    int nvec = ad_dky_coefs(c, t, k, cv), n = c->n;
    const double *x0 = c->zn[c->q];
    for (int i = 0; i < n; i++)
        dky[i] = cv[0] * x0[i];
    for (int v = 1; v < nvec; v++)
        ad_axpy(cv[v], c->zn[c->q - v], dky, n);
    if (k == 0)
        return CV_SUCCESS;
    double r = 1.0;
    for (int i = 1; i <= k; i++)
        r *= c->h;
    r = 1.0 / r;
    for (int i = 0; i < n; i++)
        dky[i] *= r;
    return CV_SUCCESS;
}

void adams_core_dky_some(const adams_core *c, double t, const int *pairs, int npairs, double *out)
{
    double cv[ADAMS_LMAX];
    int nvec = ad_dky_coefs(c, t, 0, cv);
    for (int j = 0; j < npairs; j++) {
        int r = pairs[2 * j];
        double acc = cv[0] * c->zn[c->q][r];
        for (int v = 1; v < nvec; v++)
            acc += cv[v] * c->zn[c->q - v][r];
        out[pairs[2 * j + 1]] = acc;
    }
}
