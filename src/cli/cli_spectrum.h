/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli_spectrum.h: the amplitude spectrum of `clink spectrum` (cli_spectrum.c): resampling
 * onto a uniform grid, window, FFT, one-sided amplitudes and refined peaks.
 */
#ifndef CLINK_CLI_SPECTRUM_H
#define CLINK_CLI_SPECTRUM_H

typedef struct cli_spectrum {
    double *amp; /* n: the one-sided amplitude at f_k = k df, in the signal's unit */
    long n;      /* bins (N / 2) */
    long N;      /* uniform samples (a power of two) */
    long rows;   /* rows of the signal in the window */
    double dt;   /* s: the uniform spacing */
    double df;   /* Hz: the resolution 1 / (t1 - t0) */
    int hann;    /* 1: Hann window, 0: rectangular */
    double mean; /* the mean of the resampled signal */
} cli_spectrum;

typedef struct cli_spectrum_peak {
    double f, amp; /* Hz and the signal's unit, refined between bins */
} cli_spectrum_peak;

/* the spectrum of x(t) (n rows, t ascending) over [t0, t1); 0, -1 fewer than 8 rows in the
   window, -2 out of memory */
int cli_spectrum_compute(const double *t, const double *x, long n, double t0, double t1, int hann,
                         cli_spectrum *sp);

/* the largest peaks (local maxima above 1e-3 of the largest bin, f > 0), largest first, at
   most max; their count */
int cli_spectrum_peaks(const cli_spectrum *sp, cli_spectrum_peak *peaks, int max);

void cli_spectrum_free(cli_spectrum *sp);

#endif
