/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flex_beam.c: the two-node planar Reissner beam element (Reissner 1972; Simo and Vu-Quoc
 * 1986) with one-point (reduced) integration, its strain energy, force, stiffness and
 * Kelvin-Voigt damping (equations in flex.h and docs/flexible.md).
 *
 * With a = d . t and b = d . n (d = r_b - r_a, t and n at theta_m = (theta_a + theta_b) / 2):
 *   da/dr_a = -t, da/dr_b = t, da/dtheta_a = da/dtheta_b = b / 2,
 *   db/dr_a = -n, db/dr_b = n, db/dtheta_a = db/dtheta_b = -a / 2,
 * and the second derivatives (dt/dtheta_m = n, dn/dtheta_m = -t):
 *   d2a/dr_a dtheta = -n / 2, d2a/dr_b dtheta = n / 2, d2a/dtheta dtheta = -a / 4,
 *   d2b/dr_a dtheta = t / 2, d2b/dr_b dtheta = -t / 2, d2b/dtheta dtheta = -b / 4,
 * for either theta; eps = a / l - 1, gamma = b / l, kappa = (theta_b - theta_a) / l (linear,
 * no second derivative). With the section forces N_i = S_i (e_i + tau edot_i), S = (EA, kGA,
 * EI), edot_i = grad e_i . v:
 *   g = -l sum N_i grad e_i,
 *   dg/dq = -l sum (grad e_i (S_i (grad e_i + tau H_i v))^T + N_i H_i),
 *   dg/dv = -l sum S_i tau grad e_i grad e_i^T.
 */
#include "flex/flex.h"

#include <math.h>
#include <string.h>

void flex_beam_strains(const flex_section *s, const double q[6], double e[3], double grad[3][6])
{
    double dx = q[3] - q[0], dy = q[4] - q[1], tm = 0.5 * (q[2] + q[5]);
    double t[2] = {cos(tm), sin(tm)}, n[2] = {-t[1], t[0]};
    double a = dx * t[0] + dy * t[1], b = dx * n[0] + dy * n[1], il = 1.0 / s->l;
    e[0] = a * il - 1.0;
    e[1] = b * il;
    e[2] = (q[5] - q[2]) * il;
    if (!grad)
        return;
    double ga[6] = {-t[0], -t[1], 0.5 * b, t[0], t[1], 0.5 * b};
    double gb[6] = {-n[0], -n[1], -0.5 * a, n[0], n[1], -0.5 * a};
    double gk[6] = {0.0, 0.0, -1.0, 0.0, 0.0, 1.0};
    for (int j = 0; j < 6; j++) {
        grad[0][j] = ga[j] * il;
        grad[1][j] = gb[j] * il;
        grad[2][j] = gk[j] * il;
    }
}

void flex_beam_section(const flex_section *s, const double q[6], const double v[6], double e[3],
                       double edot[3], double sec[3], double grad[3][6])
{
    double own[3][6], (*g)[6] = grad ? grad : own, stiff[3] = {s->ea, s->ga, s->ei};
    flex_beam_strains(s, q, e, g);
    for (int i = 0; i < 3; i++) {
        edot[i] = 0.0;
        for (int j = 0; j < 6; j++)
            edot[i] += g[i][j] * v[j];
        sec[i] = stiff[i] * (e[i] + s->tau * edot[i]);
    }
}

double flex_beam_energy(const flex_section *s, const double q[6])
{
    double e[3];
    flex_beam_strains(s, q, e, NULL);
    return 0.5 * s->l * (s->ea * e[0] * e[0] + s->ga * e[1] * e[1] + s->ei * e[2] * e[2]);
}

/* the Hessians (times l) of eps (h[0]) and gamma (h[1]) at q */
static void beam_hessians(const double q[6], double h[2][6][6])
{
    double dx = q[3] - q[0], dy = q[4] - q[1], tm = 0.5 * (q[2] + q[5]);
    double t[2] = {cos(tm), sin(tm)}, n[2] = {-t[1], t[0]};
    double a = dx * t[0] + dy * t[1], b = dx * n[0] + dy * n[1];
    memset(h, 0, sizeof(double) * 72);
    /* position (rows 0, 1, 3, 4) against rotation (columns 2, 5), and rotation twice */
    const int th[2] = {2, 5};
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 2; c++) {
            int j = th[c];
            h[0][k][j] = h[0][j][k] = -0.5 * n[k];
            h[0][3 + k][j] = h[0][j][3 + k] = 0.5 * n[k];
            h[1][k][j] = h[1][j][k] = 0.5 * t[k];
            h[1][3 + k][j] = h[1][j][3 + k] = -0.5 * t[k];
        }
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 2; r++) {
            h[0][th[r]][th[c]] = -0.25 * a;
            h[1][th[r]][th[c]] = -0.25 * b;
        }
}

double flex_beam_force(const flex_section *s, const double q[6], const double v[6], double g[6],
                       double kq[6][6], double kv[6][6])
{
    double e[3], grad[3][6], ed[3], sec[3], stiff[3] = {s->ea, s->ga, s->ei};
    double power = 0.0;
    flex_beam_section(s, q, v, e, ed, sec, grad);
    for (int i = 0; i < 3; i++)
        power -= s->l * stiff[i] * s->tau * ed[i] * ed[i];
    for (int j = 0; j < 6; j++)
        g[j] = -s->l * (sec[0] * grad[0][j] + sec[1] * grad[1][j] + sec[2] * grad[2][j]);
    if (kv)
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++) {
                double x = 0.0;
                for (int i = 0; i < 3; i++)
                    x += stiff[i] * grad[i][r] * grad[i][c];
                kv[r][c] = -s->l * s->tau * x;
            }
    if (!kq)
        return power;
    /* the Hessians are of a and b; those of eps and gamma are them over l */
    double h[2][6][6], hv[2][6];
    beam_hessians(q, h);
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 6; c++) {
            hv[i][c] = 0.0;
            for (int j = 0; j < 6; j++)
                hv[i][c] += h[i][c][j] * v[j] / s->l;
        }
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            double x = 0.0;
            for (int i = 0; i < 3; i++) {
                double dn = grad[i][c] + (i < 2 ? s->tau * hv[i][c] : 0.0);
                x += grad[i][r] * stiff[i] * dn;
            }
            x += (sec[0] * h[0][r][c] + sec[1] * h[1][r][c]) / s->l;
            kq[r][c] = -s->l * x;
        }
    return power;
}
