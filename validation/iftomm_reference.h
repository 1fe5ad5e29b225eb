/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iftomm_reference.h: the independent references of the IFToMM benchmarks A01,
 * A02 and A03, shared by their validation programs (validation/val_iftomm_*.c)
 * and the work-precision benchmark (bench/bench_work_precision.c).
 *
 *   A01  simple pendulum (L = 1 m, g = 9.81 m/s^2, released at rest from the
 *        horizontal): the exact position of the mass in Jacobi elliptic
 *        functions, sn and dn by the descending arithmetic-geometric mean
 *        (Abramowitz and Stegun 1964, 16.4); the measured point of models/iftomm_a01.xml
 *   A02  N-four-bar (N = 40): the one minimal coordinate theta of the cranks,
 *        theta'' = -c cos(theta), integrated by the classical Runge-Kutta method;
 *        the tip B0 of the first crank of models/n_four_bar.xml
 *   A03  Andrews' squeezer: the seven angles at t = 0.03 s of the test set for
 *        initial value problem solvers (Mazzia and Magherini 2008), and the same
 *        angles from a simulation of models/iftomm_a03.xml
 */
#ifndef CLINK_VALIDATION_IFTOMM_REFERENCE_H
#define CLINK_VALIDATION_IFTOMM_REFERENCE_H

#include "clink/sim.h"

#include <math.h>

#define IFTOMM_PI 3.14159265358979323846

static inline double iftomm_agm(double a, double b)
{
    for (int i = 0; i < 60 && fabs(a - b) > 1e-16 * a; i++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return 0.5 * (a + b);
}

/* sn(u | m) and dn(u | m), 0 < m < 1 (Abramowitz and Stegun 1964, 16.4) */
static inline void iftomm_sn_dn(double u, double m, double *sn, double *dn)
{
    double a[16], c[16], b = sqrt(1.0 - m);
    a[0] = 1.0;
    c[0] = sqrt(m);
    int n = 0;
    while (n < 15 && fabs(c[n]) > 1e-17) {
        double an = 0.5 * (a[n] + b);
        c[n + 1] = 0.5 * (a[n] - b);
        b = sqrt(a[n] * b);
        a[++n] = an;
    }
    double phi = ldexp(a[n] * u, n), phi1 = phi;
    for (int i = n; i > 0; i--) {
        phi1 = phi;
        phi = 0.5 * (phi + asin(c[i] / a[i] * sin(phi)));
    }
    *sn = sin(phi);
    *dn = n > 0 ? cos(phi) / cos(phi1 - phi) : 1.0;
}

#define IFTOMM_A01_G 9.81
#define IFTOMM_A01_L 1.0

/* A01: with phi the angle from the downward vertical (phi0 = pi / 2), k = sin(phi0 / 2),
   u = K(k) - sqrt(g / L) t: x = 2 L k sn(u) dn(u), y = -L (1 - 2 k^2 sn(u)^2) */
static inline void iftomm_a01_exact(double t, double *x, double *y)
{
    double k = sin(0.25 * IFTOMM_PI), m = k * k;
    double K = IFTOMM_PI / (2.0 * iftomm_agm(1.0, sqrt(1.0 - m)));
    double u = fmod(K - sqrt(IFTOMM_A01_G / IFTOMM_A01_L) * t, 4.0 * K);
    double sn, dn;
    iftomm_sn_dn(u, m, &sn, &dn);
    *x = 2.0 * IFTOMM_A01_L * k * sn * dn;
    *y = -IFTOMM_A01_L * (1.0 - 2.0 * m * sn * sn);
}

/* A01: the quarter period K(k) / sqrt(g / L), s */
static inline double iftomm_a01_quarter_period(void)
{
    double k = sin(0.25 * IFTOMM_PI);
    return IFTOMM_PI / (2.0 * iftomm_agm(1.0, sqrt(1.0 - k * k))) /
           sqrt(IFTOMM_A01_G / IFTOMM_A01_L);
}

/* A01: the point of models/iftomm_a01.xml that moves as the mass (0.25 m beyond the centre) */
static inline void iftomm_a01_point(const clink_sim *sim, double *x, double *y)
{
    double q[3];
    clink_sim_body_state(sim, 1, q, NULL);
    *x = q[0] + 0.25 * cos(q[2]);
    *y = q[1] + 0.25 * sin(q[2]);
}

/* A02: theta'' = -c cos(theta), J_O = m L^2 / 3, 41 cranks and 40 couplers of 1 kg, 1 m */
#define IFTOMM_A02_C (9.81 * (41.0 / 2.0 + 40.0) / (41.0 / 3.0 + 40.0))

static inline void iftomm_a02_rk4_step(double *th, double *w, double h)
{
    const double c = IFTOMM_A02_C;
    double k1t = *w, k1w = -c * cos(*th);
    double k2t = *w + 0.5 * h * k1w, k2w = -c * cos(*th + 0.5 * h * k1t);
    double k3t = *w + 0.5 * h * k2w, k3w = -c * cos(*th + 0.5 * h * k2t);
    double k4t = *w + h * k3w, k4w = -c * cos(*th + h * k3t);
    *th += h / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
    *w += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
}

/* A02: theta and theta' at the times k dt, k = 1..nout, with nsub steps per interval,
   from theta(0) = pi / 2, theta'(0) = -1 rad/s */
static inline void iftomm_a02_reference(double dt, int nsub, int nout, double *th_out,
                                        double *w_out)
{
    double th = 0.5 * IFTOMM_PI, w = -1.0, h = dt / nsub;
    for (int k = 0; k < nout; k++) {
        for (int i = 0; i < nsub; i++)
            iftomm_a02_rk4_step(&th, &w, h);
        th_out[k] = th;
        w_out[k] = w;
    }
}

/* A02: position and velocity of B0, the tip of crank_0 (body 1) */
static inline void iftomm_a02_b0(const clink_sim *sim, double p[2], double vel[2])
{
    double q[3], qd[3];
    clink_sim_body_state(sim, 1, q, qd);
    p[0] = q[0] + 0.5 * cos(q[2]);
    p[1] = q[1] + 0.5 * sin(q[2]);
    vel[0] = qd[0] - 0.5 * qd[2] * sin(q[2]);
    vel[1] = qd[1] + 0.5 * qd[2] * cos(q[2]);
}

/* A03: beta, Theta, gamma, Phi, delta, Omega, epsilon at t = 0.03 s (the test set) */
static const double IFTOMM_A03_REF[7] = {
    0.1581077119629904e+2, -0.1575637105984298e+2, 0.4082224013073101e-1, -0.5347301163226948e+0,
    0.5244099658805304e+0, 0.5347301163226948e+0,  0.1048080741042263e+1};

/* A03: the seven angles of the test set from the bodies K1..K7 of models/iftomm_a03.xml */
static inline void iftomm_a03_angles(const clink_sim *sim, double ang[7])
{
    double phi[8] = {0.0};
    for (int i = 1; i <= 7; i++) {
        double q[3];
        clink_sim_body_state(sim, i, q, NULL);
        phi[i] = q[2];
    }
    ang[0] = phi[1];
    ang[1] = phi[2] - phi[1];
    ang[2] = phi[3];
    ang[3] = phi[4] - phi[5];
    ang[4] = phi[5];
    ang[5] = phi[6] - phi[7];
    ang[6] = phi[7];
}

#endif
