/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli_spectrum.c: the amplitude spectrum of a sampled signal for `clink spectrum`
 * (cmd_spectrum.c; docs/nonlinear.md, "Spectra").
 *
 * The rows of a time series need not be uniform (event rows between grid rows), so the
 * signal x(t) over the window [t0, t1) is first resampled by linear interpolation between
 * its rows onto N = 2^m uniform times t0 + i dt, dt = (t1 - t0) / N, N the smallest power of
 * two not below the rows in the window (never fewer samples than rows). It is then
 * less its mean multiplied by the window w_i (Hann: w_i = 0.5 (1 - cos(2 pi i / N)), or
 * rectangular) and transformed by a radix-2 FFT, X_k = sum_i w_i x_i exp(-2 pi j i k / N). The
 * one-sided amplitude spectrum, scaled so that a sine of amplitude a at a bin frequency shows a, is
 *   A_0 = |mean of x|,  A_k = 2 |X_k| / S (0 < k < N/2),  S = sum_i w_i,
 * at f_k = k / (N dt). Each peak (a local maximum above 1e-3 of the largest) is refined
 * for a tone between two bins: with the Hann window, alpha = A_{k+1} / A_k for the larger
 * neighbour on the right (mirrored on the left), the offset d = (2 alpha - 1) / (alpha + 1)
 * bins and the amplitude A_k pi d (1 - d^2) / sin(pi d) (Grandke 1983, exact for one tone
 * in a Hann window); with the rectangular window none.
 */
#include "cli_spectrum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_PI 3.14159265358979323846

/* x at time t by linear interpolation of the rows (t ascending); i: a search hint */
static double spec_interp(const double *t, const double *x, long n, double tq, long *i)
{
    while (*i + 1 < n - 1 && t[*i + 1] <= tq)
        (*i)++;
    long a = *i, b = a + 1 < n ? a + 1 : a;
    if (b == a || t[b] == t[a])
        return x[a];
    double s = (tq - t[a]) / (t[b] - t[a]);
    return x[a] + s * (x[b] - x[a]);
}

/* in-place radix-2 FFT of re, im (n a power of two) */
static void spec_fft(double *re, double *im, long n)
{
    for (long i = 1, j = 0; i < n; i++) {
        long bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            double tr = re[i], ti = im[i];
            re[i] = re[j], im[i] = im[j];
            re[j] = tr, im[j] = ti;
        }
    }
    for (long len = 2; len <= n; len <<= 1) {
        double ang = -2.0 * SPEC_PI / (double) len;
        for (long i = 0; i < n; i += len)
            for (long k = 0; k < len / 2; k++) {
                double c = cos(ang * (double) k), s = sin(ang * (double) k);
                double *ur = &re[i + k], *ui = &im[i + k];
                double vr = re[i + k + len / 2] * c - im[i + k + len / 2] * s;
                double vi = re[i + k + len / 2] * s + im[i + k + len / 2] * c;
                re[i + k + len / 2] = *ur - vr, im[i + k + len / 2] = *ui - vi;
                *ur += vr, *ui += vi;
            }
    }
}

int cli_spectrum_compute(const double *t, const double *x, long n, double t0, double t1, int hann,
                         cli_spectrum *sp)
{
    memset(sp, 0, sizeof *sp);
    long rows = 0, first = -1;
    for (long i = 0; i < n; i++)
        if (t[i] >= t0 && t[i] < t1) {
            rows++;
            if (first < 0)
                first = i;
        }
    if (rows < 8 || !(t1 > t0))
        return -1;
    long N = 8;
    while (N < rows)
        N <<= 1;
    double *re = malloc((size_t) N * sizeof *re), *im = calloc((size_t) N, sizeof *im);
    sp->amp = malloc((size_t) (N / 2) * sizeof *sp->amp);
    if (!re || !im || !sp->amp) {
        free(re);
        free(im);
        return -2;
    }
    double dt = (t1 - t0) / (double) N, S = 0.0, mean = 0.0;
    long hint = first > 0 ? first - 1 : 0;
    for (long i = 0; i < N; i++) {
        re[i] = spec_interp(t, x, n, t0 + (double) i * dt, &hint);
        mean += re[i] / (double) N;
    }
    /* the mean apart (A_0), so that the window does not leak it into the first bins */
    for (long i = 0; i < N; i++) {
        double w = hann ? 0.5 * (1.0 - cos(2.0 * SPEC_PI * (double) i / (double) N)) : 1.0;
        re[i] = w * (re[i] - mean);
        S += w;
    }
    spec_fft(re, im, N);
    for (long k = 0; k < N / 2; k++)
        sp->amp[k] = k ? 2.0 * hypot(re[k], im[k]) / S : fabs(mean);
    sp->mean = mean;
    free(re);
    free(im);
    sp->n = N / 2;
    sp->N = N;
    sp->rows = rows;
    sp->dt = dt;
    sp->df = 1.0 / (t1 - t0);
    sp->hann = hann;
    return 0;
}

/* the peak at bin k refined (Grandke's interpolation with the Hann window) */
static void spec_refine(const cli_spectrum *sp, long k, cli_spectrum_peak *p)
{
    p->f = (double) k * sp->df;
    p->amp = sp->amp[k];
    if (!sp->hann || k == 0 || k + 1 >= sp->n)
        return;
    int right = sp->amp[k + 1] >= sp->amp[k - 1];
    double alpha = (right ? sp->amp[k + 1] : sp->amp[k - 1]) / sp->amp[k];
    double d = (2.0 * alpha - 1.0) / (alpha + 1.0);
    if (!(d > 1e-9 && d < 1.0))
        return;
    p->amp = sp->amp[k] * SPEC_PI * d * (1.0 - d * d) / sin(SPEC_PI * d);
    p->f = ((double) k + (right ? d : -d)) * sp->df;
}

int cli_spectrum_peaks(const cli_spectrum *sp, cli_spectrum_peak *peaks, int max)
{
    double top = 0.0;
    for (long k = 1; k < sp->n; k++)
        top = fmax(top, sp->amp[k]);
    int np = 0;
    for (long k = 1; k + 1 < sp->n; k++) {
        if (!(sp->amp[k] > sp->amp[k - 1] && sp->amp[k] >= sp->amp[k + 1] &&
              sp->amp[k] > 1e-3 * top))
            continue;
        cli_spectrum_peak p;
        spec_refine(sp, k, &p);
        /* insert by amplitude, largest first, keeping max */
        int at = np < max ? np : max;
        while (at > 0 && peaks[at - 1].amp < p.amp)
            at--;
        if (at >= max)
            continue;
        int last = np < max ? np : max - 1;
        memmove(peaks + at + 1, peaks + at, (size_t) (last - at) * sizeof *peaks);
        peaks[at] = p;
        if (np < max)
            np++;
    }
    return np;
}

void cli_spectrum_free(cli_spectrum *sp)
{
    free(sp->amp);
    sp->amp = NULL;
}
