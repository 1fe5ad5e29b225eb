/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * chain_sensors.h: what the three programs of the side-by-side chain benchmark
 * share (bench_granular_chain.c for clink, simbody_chain.cpp for Simbody 3.7,
 * bench_chain_reference.c for the reference): the elastic Hertz chain's numbers
 * (those of validation/granular_chain_model.h, which bench_granular_chain.c
 * checks at run time), its two Hertz stiffnesses, the simulated window of the
 * benchmark (2 R N / 730 s, the time the solitary wave needs to cross the chain),
 * the sensor contacts and the sampling of their forces. Plain C, so that the C
 * programs and the C++ one read the same definitions.
 *
 * Contacts are numbered as in granular_chain_model.h: k = 0 striker - bead 1,
 * k = 1..n-1 bead k - bead k+1, k = n bead n - wall. The sensors are the contacts
 * at 10%, 50% and 90% of the part of the chain the wave reaches in the window
 * (all of it for the benchmark's window; a shortened window, as for N = 7000 here,
 * keeps the sensors where the wave gets to, far from the striker in a long chain
 * whose beads sit up to 33 m from the origin). Every program samples the sensor
 * forces every CHAIN_DT from CHAIN_DT to the end of the window and writes them
 * as CSV (t, then one column per sensor); scripts compare the histories and the
 * peaks, computed the same way for all three.
 */
#ifndef CLINK_BENCH_CHAIN_SENSORS_H
#define CLINK_BENCH_CHAIN_SENSORS_H

#include <math.h>
#include <stdio.h>

#define CHAIN_R 2.38e-3 /* bead radius, m */
/* bead mass, kg: 4/3 pi R^3 rho, rho = 8000 kg/m^3 (as validation/granular_chain_model.h) */
#define CHAIN_MASS    (4.0 / 3.0 * 3.14159265358979323846 * CHAIN_R * CHAIN_R * CHAIN_R * 8000.0)
#define CHAIN_E       193e9 /* Young's modulus, Pa */
#define CHAIN_NU      0.3   /* Poisson's ratio */
#define CHAIN_GAP     10e-6 /* striker to bead 1 at t = 0, m */
#define CHAIN_V       1.77  /* striker speed, m/s (towards -x) */
#define CHAIN_DT      1e-6  /* sampling of the sensor forces, s */
#define CHAIN_SPEED   730.0 /* the benchmark's wave speed for the window, m/s */
#define CHAIN_NSENSOR 3

/* Hertz stiffness K = 4 / (3 (s1 + s2)) sqrt(R*), s = (1 - nu^2) / E: bead to bead
   (R* = R / 2, 4.8775e9 N/m^1.5) and bead to wall (R* = R), N/m^1.5 */
static inline double chain_k_bead(void)
{
    return 4.0 / (3.0 * 2.0 * (1.0 - CHAIN_NU * CHAIN_NU) / CHAIN_E) * sqrt(0.5 * CHAIN_R);
}

static inline double chain_k_wall(void)
{
    return 4.0 / (3.0 * 2.0 * (1.0 - CHAIN_NU * CHAIN_NU) / CHAIN_E) * sqrt(CHAIN_R);
}

/* x of the centre of bead i at t = 0 (1..n; i = n + 1 the striker), m */
static inline double chain_x0(int n, int i)
{
    return i <= n ? (2.0 * (n - i) + 1.0) * CHAIN_R : (2.0 * n + 1.0) * CHAIN_R + CHAIN_GAP;
}

/* the benchmark's window for n beads, 2 R n / 730 s, rounded to whole samples */
static inline double chain_window(int n)
{
    return CHAIN_DT * floor(2.0 * CHAIN_R * n / CHAIN_SPEED / CHAIN_DT);
}

/* the sensor contacts for n beads over window w s, into s[CHAIN_NSENSOR] */
static inline void chain_sensors(int n, double w, int *s)
{
    static const double frac[CHAIN_NSENSOR] = {0.1, 0.5, 0.9};
    double reached = fmin((double) n, w * CHAIN_SPEED / (2.0 * CHAIN_R));
    for (int j = 0; j < CHAIN_NSENSOR; j++) {
        int k = (int) lround(frac[j] * reached);
        s[j] = k < 1 ? 1 : k > n - 1 ? n - 1 : k;
    }
}

/* number of samples in window w */
static inline long chain_samples(double w)
{
    return lround(w / CHAIN_DT);
}

/* CSV header: t and the sensor contacts */
static inline void chain_csv_header(FILE *f, const int *s)
{
    fprintf(f, "t");
    for (int j = 0; j < CHAIN_NSENSOR; j++)
        fprintf(f, ",c%d", s[j]);
    fprintf(f, "\n");
}

static inline void chain_csv_row(FILE *f, double t, const double *fs)
{
    fprintf(f, "%.9e", t);
    for (int j = 0; j < CHAIN_NSENSOR; j++)
        fprintf(f, ",%.17g", fs[j]);
    fprintf(f, "\n");
}

/* the process's memory high-water mark (VmHWM of /proc/self/status), KiB; -1 if unknown */
static inline long chain_vmhwm_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

#endif
