/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * val_bouncing_ball_doublings: the period-doubling cascade of the ball on a vibrating table
 * (models/bouncing_ball_table.xml, docs/nonlinear.md) and its Feigenbaum ratio, located by
 * clink's simulation with its stroboscopic Poincare section (at the table's period T).
 *
 * The k-th doubling threshold G_k of the table's acceleration Gamma = A w^2 / g is where the
 * period-P orbit (P = 2^(k-1) table periods) loses stability, its Floquet multiplier mu (the
 * eigenvalue of the P-period map's Jacobian that goes to -1) crossing -1. clink measures mu on
 * the stable side: started a little off the orbit, the iterates z_j of the P-period map (the
 * ball's height every P samples) approach it as z_j - z* ~ mu^j (the other multiplier, of
 * modulus e^(2P) / |mu|, dies out at once), so the ratio of successive differences
 * (z_{j+2} - z_{j+1}) / (z_{j+1} - z_j) is mu; the median of the ratios whose differences lie
 * between 1e-8 m (above the integration's noise, rtol 1e-10) and 1e-4 m (the linear range).
 * Gamma is marched up the branch, each run starting from the last one's final sample (the
 * orbit continued), the steps shrinking to half the distance to the linear extrapolation of
 * the flip, until mu < -0.95 (with the third last point below -0.9). The P-period map's
 * Jacobian has determinant e^(2P) (Newton's law scales the relative velocity by e at each of
 * the P impacts; the other factors telescope over an orbit; val_bouncing_ball.c derives it for
 * P = 1), so its trace is tr = mu + e^(2P) / mu, smoother in Gamma than mu (for P = 1 it is
 * linear in sqrt(Gamma^2 - Gamma_1^2)); the parabola through the last three (Gamma, tr) is
 * solved for tr = -(1 + e^(2P)) (mu = -1): G_k. Past G_k the run is pushed onto the period-2P
 * orbit, a twentieth of G_k - G_{k-1} further, for the next threshold.
 *
 * Checks, each able to fail:
 *   - G_1 against the closed form Gamma_2 = sqrt(Gamma_1^2 + (2 (1 + e^2) / (1 + e)^2)^2)
 *     (val_bouncing_ball.c);
 *   - G_1 .. G_4 against the independent exact impact map (validation/ref_bouncing_ball_map.py:
 *     the period-P orbit by Newton's method on the map, its multiplier from the Jacobians, set
 *     to -1 by Brent's method; no code shared with clink) within 2e-5 (a 300th of the
 *     smallest interval G_4 - G_3, so the ratios below move by less than 1.5%);
 *   - the Feigenbaum ratios delta_k = (G_k - G_{k-1}) / (G_{k+1} - G_k), k = 2, 3, against
 *     delta = 4.6692 (Feigenbaum 1978) within 10% (the first ratios of a cascade approach the
 *     limit from a few per cent).
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI   3.14159265358979323846
#define NMAX 8192
/* under AddressSanitizer the runs are about five times slower: there only G_1 and G_2 are
   located (no ratio), the memory checks being the point of that build */
#if defined(__SANITIZE_ADDRESS__)
#define NTHR 2
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NTHR 2
#endif
#endif
#ifndef NTHR
#define NTHR 4
#endif
#define NSTEP 40

static const double g = 9.81, e = 0.5, W = 10.0 * PI;

/* the ball's height and velocity at the strobe times t = T, 2 T, ... of one run */
typedef struct strobe {
    int n;
    double y[NMAX], vy[NMAX];
} strobe;

static clink_status keep(void *data, int section, long count, double t, const double *y, int nq)
{
    strobe *r = data;
    (void) section;
    (void) count;
    (void) t;
    if (r->n < NMAX) {
        r->y[r->n] = y[4]; /* ball (body 2): q[3..5] */
        r->vy[r->n] = y[nq + 4];
        r->n++;
    }
    return CLINK_OK;
}

/* runs the model at Gamma for n periods from the ball's (y0, vy0) at t = 0; 0 on success */
static int run_from(double gam, double y0, double vy0, int periods, strobe *r)
{
    char sets[3][96], err[512];
    const char *sp[3] = {sets[0], sets[1], sets[2]};
    double T = 2.0 * PI / W;
    r->n = 0;
    snprintf(sets[0], sizeof sets[0], "driver[shaker].harmonic.amplitude=%.17g", gam * g / (W * W));
    snprintf(sets[1], sizeof sets[1], "body[ball].y=%.17g", y0);
    snprintf(sets[2], sizeof sets[2], "body[ball].vy=%.17g", vy0);
    clink_model *m = NULL;
    if (clink_xml_load_with(CLINK_SOURCE_DIR "/models/bouncing_ball_table.xml", sp, 3, NULL, &m,
                            NULL, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    clink_settings_def set = clink_model_settings(m);
    set.t_end = periods * T;
    clink_sim *s = NULL;
    if (clink_sim_create(m, &set, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(&m);
        return -1;
    }
    clink_section_def d = clink_default_section_def();
    d.period = T;
    int rc = clink_sim_add_section(s, &d, keep, r, NULL) == CLINK_OK &&
                     clink_sim_advance(s, periods * T) == CLINK_OK
                 ? 0
                 : -1;
    if (rc != 0)
        fprintf(stderr, "Gamma %.6f: %s\n", gam, clink_sim_error(s));
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
    return rc;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* the multiplier of the period-P orbit from the samples (see the header), NaN when fewer than
   five ratios lie in the linear range or they disagree (not on the orbit) */
static double multiplier(const strobe *r, int P)
{
    static double rat[NMAX];
    int m = 0;
    for (int i = r->n - 1 - 3 * P; i >= 0; i -= P) {
        double d0 = r->y[i + P] - r->y[i], d1 = r->y[i + 2 * P] - r->y[i + P];
        if (fabs(d0) > 1e-8 && fabs(d0) < 1e-4 && fabs(d1) > 1e-9)
            rat[m++] = d1 / d0;
    }
    if (m < 5)
        return NAN;
    qsort(rat, (size_t) m, sizeof rat[0], cmp);
    double med = rat[m / 2];
    /* the middle half of the ratios within 1e-3 of the median: one mode, on the orbit */
    if (fabs(rat[m / 4] - med) > 1e-3 || fabs(rat[(3 * m) / 4] - med) > 1e-3)
        return NAN;
    return med;
}

/* G where the parabola (or line, n = 2) through the last points (x, mu) reaches the level */
static double extrapolate(const double *x, const double *mu, int n, double level)
{
    if (n < 3)
        return x[n - 1] + (level - mu[n - 1]) * (x[n - 1] - x[n - 2]) / (mu[n - 1] - mu[n - 2]);
    double x0 = x[n - 3], x1 = x[n - 2], x2 = x[n - 1], m0 = mu[n - 3], m1 = mu[n - 2],
           m2 = mu[n - 1];
    /* Newton's divided differences: mu = m2 + b (G - x2) + c (G - x2) (G - x1) */
    double b = (m2 - m1) / (x2 - x1),
           c = ((m2 - m1) / (x2 - x1) - (m1 - m0) / (x1 - x0)) / (x2 - x0);
    double G = x2 + (level - m2) / b; /* Newton's iterations from the linear root */
    for (int it = 0; it < 50; it++) {
        double f = m2 + b * (G - x2) + c * (G - x2) * (G - x1) - level;
        double df = b + c * (2.0 * G - x2 - x1);
        G -= f / df;
    }
    return G;
}

/* the searcher's state: the ball's start on the current orbit and its Gamma */
typedef struct branch {
    double gam, y0, vy0;
    int P;
} branch;

/* 1 when the last samples repeat with period P (on the period-P orbit, or near it) */
static int periodic(const strobe *r, int P)
{
    for (int i = r->n - 1; i >= r->n - 2 * P && i - P >= 0; i--)
        if (fabs(r->y[i] - r->y[i - P]) > 1e-6)
            return 0;
    return r->n > 3 * P;
}

/* marches Gamma up the period-P branch from b (on it) by at most step, continuing the orbit,
   until mu < -0.95 (where the second multiplier, e^(2P) / |mu|, is negligible); the points
   with -1 < mu < -0.5 approach the linear extrapolation of mu to -1 halfway each time.
   Returns G_k and leaves b at the last stable point; NaN on failure. */
static double threshold(branch *b, double step, strobe *r)
{
    double x[NSTEP], mu[NSTEP], tr[NSTEP], gam = b->gam, det = pow(e, 2.0 * b->P);
    int n = 0;
    for (int it = 0; it < 4 * NSTEP && n < NSTEP; it++) {
        /* enough iterates for the deviation to decay from 1e-5 m through the linear range */
        int iter = n > 0 ? (int) fmin(1000.0, fmax(260.0, 12.0 / -log(-mu[n - 1]))) : 260;
        if (run_from(gam, b->y0, b->vy0 * (1.0 + 1e-4), b->P * iter, r) != 0)
            return NAN;
        if (!periodic(r, b->P)) { /* past the flip: back off halfway */
            gam = 0.5 * (gam + b->gam);
            if (gam - b->gam < 1e-9)
                return NAN;
            continue;
        }
        b->gam = gam;
        b->y0 = r->y[r->n - 1];
        b->vy0 = r->vy[r->n - 1];
        double m = multiplier(r, b->P);
        printf("  P %d Gamma %.8f mu %.6f\n", b->P, gam, m);
        fflush(stdout);
        if (!isnan(m) && m < -0.5 && m > -1.0) {
            x[n] = gam;
            tr[n] = m + det / m;
            mu[n++] = m;
        }
        if (n >= 3 && mu[n - 1] < -0.95 && mu[n - 3] < -0.9)
            return extrapolate(x, tr, n, -(1.0 + det));
        double next = gam + step;
        if (n >= 2) {
            double lin = extrapolate(x + n - 2, tr + n - 2, 2, -(1.0 + det));
            if (lin > gam)
                next = gam + fmin(step, 0.5 * (lin - gam));
        }
        gam = next;
    }
    return NAN;
}

/* the first NTHR thresholds by clink; 0 on success */
static int cascade(double *G)
{
    strobe *r = calloc(1, sizeof *r);
    double g1 = PI * (1.0 - e) / (1.0 + e), T = 2.0 * PI / W;
    /* the period-1 orbit at Gamma = 1.50 in closed form (real multipliers there) */
    branch b = {1.50, 0.0, g * T / 2.0, 1};
    double phi = acos(g1 / b.gam), tau = T - phi / W, A = b.gam * g / (W * W);
    b.y0 = A * sin(phi) + 0.01 + b.vy0 * tau - 0.5 * g * tau * tau;
    b.vy0 = b.vy0 - g * tau;
    double step = 0.004;
    int rc = 0;
    for (int k = 0; k < NTHR && rc == 0; k++) {
        G[k] = threshold(&b, step, r);
        if (isnan(G[k])) {
            rc = -1;
            break;
        }
        printf("G_%d = %.8f\n", k + 1, G[k]);
        /* onto the period-2P orbit: a little past G_k, settled from the last orbit's state */
        double span = k == 0 ? 0.2 : G[k] - G[k - 1];
        b.gam = G[k] + span / 20.0;
        b.P *= 2;
        step = span / 40.0;
        if (run_from(b.gam, b.y0, b.vy0 * (1.0 + 1e-3), b.P * 400, r) != 0) {
            rc = -1;
            break;
        }
        b.y0 = r->y[r->n - 1];
        b.vy0 = r->vy[r->n - 1];
    }
    free(r);
    return rc;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "bouncing_ball_doublings",
                          "Ball on a vibrating table: the first period doublings and their "
                          "Feigenbaum ratio, against the exact impact map");
    if (!v)
        return 1;
    double G[NTHR];
    for (int k = 0; k < NTHR; k++)
        G[k] = NAN;
    cascade(G);
    double g1 = PI * (1.0 - e) / (1.0 + e);
    double g2 = sqrt(g1 * g1 + pow(2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e)), 2.0));
    vjson_row(v, "G_1: period 1 -> 2 (closed form Gamma_2)", G[0], g2, 2e-5, "-");
    vref *ref = NULL;
    char args[96];
    snprintf(args, sizeof args, "--thresholds %d --out bouncing_ball_map_thresholds.csv", NTHR);
    if (vref_run(outdir, "ref_bouncing_ball_map.py", args) == 0)
        ref = vref_load(outdir, "bouncing_ball_map_thresholds.csv");
    for (int k = 0; k < NTHR; k++) {
        char q[128], key[32];
        snprintf(key, sizeof key, "gamma.%d", k + 1);
        snprintf(q, sizeof q, "G_%d: period %d -> %d (exact impact map)", k + 1, 1 << k, 2 << k);
        vjson_row(v, q, G[k], ref ? vref_get(ref, key) : NAN, 2e-5, "-");
    }
    for (int k = 1; k + 1 < NTHR; k++) {
        char q[128];
        double d = (G[k] - G[k - 1]) / (G[k + 1] - G[k]);
        snprintf(q, sizeof q, "delta_%d = (G_%d - G_%d) / (G_%d - G_%d) (Feigenbaum)", k + 1, k + 1,
                 k, k + 2, k + 1);
        vjson_row_rel(v, q, d, 4.669201609, 0.10, "-");
    }
    vref_free(ref);
    return vjson_close(v);
}
