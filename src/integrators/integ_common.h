/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * integ_common.h: what CVODE's integrator (src/integrators/cvode/) and the plain-array
 * Adams (src/integrators/adams/) compute alike, one definition for both:
 *
 *   integ_wrms_moving   the weighted RMS norm sqrt(sum (x_i w_i)^2 / m) over the m
 *                       components where x_i w_i != 0 (0 when there are none): the squares
 *                       added one after the other in index order, two products per SSE2
 *                       instruction, so its bits are the plain loop's
 *   integ_lip_observe   the Lipschitz estimate of the fixed-point iteration (cvode_watch.c's
 *                       file comment: LSODA's measure, Petzold 1983): successive iterates at
 *                       one time give |w (f_m - f_m-1)| / |w (y_m - y_m-1)|, the largest of a
 *                       step's kept; a new time makes the last time's the step's estimate
 *   integ_lip_take      the estimate of the last step (or the one before), then forgotten
 */
#ifndef CLINK_INTEG_COMMON_H
#define CLINK_INTEG_COMMON_H

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static inline double integ_wrms_moving(const double *x, const double *w, long n)
{
    double sum = 0.0;
    long long moving = 0;
    long i = 0;
#ifdef __SSE2__
    /* two products and squares per instruction, added one after the other in order; the
       count of the moving components from the lanes' comparison */
    __m128i count = _mm_setzero_si128();
    const __m128d zero = _mm_setzero_pd();
    for (; i + 2 <= n; i += 2) {
        __m128d p = _mm_mul_pd(_mm_loadu_pd(x + i), _mm_loadu_pd(w + i));
        __m128d sq = _mm_mul_pd(p, p);
        sum += _mm_cvtsd_f64(sq);
        sum += _mm_cvtsd_f64(_mm_unpackhi_pd(sq, sq));
        count = _mm_sub_epi64(count, _mm_castpd_si128(_mm_cmpneq_pd(p, zero)));
    }
    long long lanes[2];
    _mm_storeu_si128((__m128i *) lanes, count);
    moving = lanes[0] + lanes[1];
#endif
    for (; i < n; i++) {
        double p = x[i] * w[i];
        sum += p * p;
        moving += p != 0.0;
    }
    return moving ? sqrt(sum / (double) moving) : 0.0;
}

/* the fixed-point iteration's Lipschitz estimate (integ_stiffness.lip) */
typedef struct integ_lip {
    double *y, *f;   /* n each: the last evaluation of f and where */
    double t;        /* its time */
    int have;        /* y, f hold one */
    double lip_step; /* 1/s: the largest estimate at the time t */
    double lip;      /* 1/s: the estimate of the last step that had one, 0: none since asked */
} integ_lip;

/* f = f(t, y) just evaluated; ewt: the error weights (NULL: none yet) */
static inline void integ_lip_observe(integ_lip *w, const double *ewt, int n, double t,
                                     const double *y, const double *f)
{
    if (w->have && t == w->t && ewt) {
        /* a further iterate at the same time: |w df| / |w dy| */
        double num = 0.0, den = 0.0;
        for (int i = 0; i < n; i++) {
            double dy = (y[i] - w->y[i]) * ewt[i], df = (f[i] - w->f[i]) * ewt[i];
            num += df * df;
            den += dy * dy;
        }
        if (den > 0.0 && isfinite(num)) {
            double l = sqrt(num / den);
            if (l > w->lip_step)
                w->lip_step = l;
        }
    } else {
        /* a new time: the last one's estimate is the step's */
        if (w->lip_step > 0.0)
            w->lip = w->lip_step;
        w->lip_step = 0.0;
    }
    memcpy(w->y, y, (size_t) n * sizeof(double));
    memcpy(w->f, f, (size_t) n * sizeof(double));
    w->t = t;
    w->have = 1;
}

static inline double integ_lip_take(integ_lip *w)
{
    double l = w->lip_step > 0.0 ? w->lip_step : w->lip; /* the last step's, or before */
    w->lip = 0.0;
    return l;
}

#endif
