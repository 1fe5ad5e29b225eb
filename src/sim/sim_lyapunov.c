/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_lyapunov.c: the largest Lyapunov exponent of a model's response by two trajectories
 * with renormalisation (Benettin et al. 1980; docs/nonlinear.md). A reference simulation A
 * and a perturbed one B run side by side through every impact. After the transient (settle)
 * B is set to A's state plus d0 along u = (1, ..., 1) / sqrt(m) over the m components asked
 * for (options.coordinates; clink_sim_state_set, projected onto the constraints), and every `every`
 * seconds the distance d_i = |y_B - y_A| (Euclidean, over those components) is measured and B set
 * back to y_A + d0' (y_B - y_A) / d_i, d0' the distance right after the last set; the exponent is
 * the mean growth rate lambda = sum_i ln(d_i / d0'_i) / (t - t_settle), and its error the standard
 * error of the means of 10 equal batches of the intervals (the rates of neighbouring intervals are
 * correlated; batch means are less so). The callback receives the running estimate after each
 * interval: the convergence curve. A is set to its own state at every set of B: both are
 * projected onto the constraints and restarted alike, so that neither A's drift from the
 * constraints (under Baumgarte's control) nor the restart enters the distance.
 */
#include "clink/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LY_BATCHES 10

/* nonzero when component i of y = (q, v) (n of them) is among the coordinates asked for */
static int ly_used(unsigned mask, int i, int n)
{
    int k = (i % (n / 2)) % 3 + (i >= n / 2 ? 3 : 0);
    return mask == 0 || (mask >> k) & 1u;
}

/* the distance |b - a| over the components used */
static double ly_distance(const double *a, const double *b, int n, unsigned mask)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        if (ly_used(mask, i, n))
            s += (b[i] - a[i]) * (b[i] - a[i]);
    return sqrt(s);
}

/* the standard error of the batch means of the rates g (n) */
static double ly_error(const double *g, long n)
{
    long per = n / LY_BATCHES;
    if (per < 1)
        return NAN;
    double m[LY_BATCHES], mean = 0.0, var = 0.0;
    for (int b = 0; b < LY_BATCHES; b++) {
        m[b] = 0.0;
        for (long i = b * per; i < (b + 1) * per; i++)
            m[b] += g[i] / (double) per;
        mean += m[b] / LY_BATCHES;
    }
    for (int b = 0; b < LY_BATCHES; b++)
        var += (m[b] - mean) * (m[b] - mean) / (LY_BATCHES - 1);
    return sqrt(var / LY_BATCHES);
}

/* B set to A's state plus d0 along the diagonal; the distance after the set into *d */
static clink_status ly_perturb(clink_sim *a, clink_sim *b, double *ya, double *yb, int n, double d0,
                               unsigned mask, double *d)
{
    clink_status st = clink_sim_state_get(a, ya, n);
    /* A set to its own state: projected and restarted as B is (see ly_loop) */
    if (st == CLINK_OK)
        st = clink_sim_state_set(a, ya, n);
    if (st == CLINK_OK)
        st = clink_sim_state_get(a, ya, n);
    int used = 0;
    for (int i = 0; i < n; i++)
        used += ly_used(mask, i, n);
    for (int i = 0; st == CLINK_OK && i < n; i++)
        yb[i] = ya[i] + (ly_used(mask, i, n) ? d0 / sqrt((double) (used ? used : 1)) : 0.0);
    if (st == CLINK_OK)
        st = clink_sim_state_set(b, yb, n);
    if (st == CLINK_OK)
        st = clink_sim_state_get(b, yb, n);
    *d = ly_distance(ya, yb, n, mask);
    return st;
}

/* the intervals after the transient: the rates into g, the sum of logs into *sum */
static clink_status ly_loop(clink_sim *a, clink_sim *b, const clink_lyapunov_options *o, double *ya,
                            double *yb, int n, double *g, long ni, clink_lyapunov_fn fn, void *data,
                            double *sum, char *err, size_t en)
{
    double dset = 0.0;
    clink_status st = ly_perturb(a, b, ya, yb, n, o->d0, o->coordinates, &dset);
    for (long i = 1; st == CLINK_OK && i <= ni; i++) {
        double t = o->settle + (double) i * o->every;
        st = clink_sim_advance(a, t);
        if (st == CLINK_OK)
            st = clink_sim_advance(b, t);
        if (st == CLINK_OK)
            st = clink_sim_state_get(a, ya, n);
        if (st == CLINK_OK)
            st = clink_sim_state_get(b, yb, n);
        if (st != CLINK_OK)
            break;
        double d = ly_distance(ya, yb, n, o->coordinates);
        if (!(d > 0.0) || !(dset > 0.0) || !isfinite(d)) {
            snprintf(err, en, "t = %.9g s: the trajectories coincide or diverged (d = %g)", t, d);
            return CLINK_ERR_NONFINITE;
        }
        g[i - 1] = log(d / dset) / o->every;
        *sum += log(d / dset);
        if (fn)
            fn(data, t, *sum / (t - o->settle));
        /* A and B restarted alike: a state set projects onto the constraints, so A is set to
           its own state first (else A's drift from the constraints, which Baumgarte's control
           bounds but does not remove, would enter the distance at every set), then B at d0
           along the separation from A's projected state */
        for (int k = 0; k < n; k++)
            yb[k] = ly_used(o->coordinates, k, n) ? o->d0 * (yb[k] - ya[k]) / d : 0.0;
        st = clink_sim_state_set(a, ya, n);
        if (st == CLINK_OK)
            st = clink_sim_state_get(a, ya, n);
        for (int k = 0; k < n; k++)
            yb[k] += ya[k];
        if (st == CLINK_OK)
            st = clink_sim_state_set(b, yb, n);
        if (st == CLINK_OK)
            st = clink_sim_state_get(b, yb, n);
        dset = ly_distance(ya, yb, n, o->coordinates);
    }
    if (st != CLINK_OK && !err[0])
        snprintf(err, en, "%s", clink_sim_error(clink_sim_error(a)[0] ? a : b));
    return st;
}

clink_lyapunov_options clink_default_lyapunov_options(void)
{
    clink_lyapunov_options o = {1e-8, 0.0, 0.0, 0.0, 0u};
    return o;
}

clink_status clink_lyapunov(const clink_model *model, const clink_settings_def *settings,
                            const clink_lyapunov_options *o, clink_lyapunov_fn fn, void *data,
                            clink_lyapunov_result *r, char *err, size_t en)
{
    if (err && en)
        err[0] = '\0';
    if (!model || !o || !r || !(o->d0 > 0.0) || !(o->every > 0.0) || !(o->settle >= 0.0) ||
        !(o->t_end > o->settle + o->every)) {
        snprintf(err, en, "lyapunov: d0 > 0, every > 0, settle >= 0, t_end > settle + every");
        return CLINK_ERR_ARG;
    }
    memset(r, 0, sizeof *r);
    clink_sim *a = NULL, *b = NULL;
    clink_status st = clink_sim_create(model, settings, &a, err, en);
    if (st == CLINK_OK)
        st = clink_sim_create(model, settings, &b, err, en);
    int n = 3 * (clink_model_count(model, CLINK_ENTITY_BODY) - 1) * 2;
    long ni = (long) floor((o->t_end - o->settle) / o->every + 1e-9);
    double *ya = malloc((size_t) n * sizeof *ya), *yb = malloc((size_t) n * sizeof *yb);
    double *g = malloc((size_t) ni * sizeof *g), sum = 0.0;
    if (st == CLINK_OK && (!ya || !yb || !g))
        st = CLINK_ERR_NOMEM;
    if (st == CLINK_OK && o->settle > 0.0) {
        st = clink_sim_advance(a, o->settle);
        if (st == CLINK_OK)
            st = clink_sim_advance(b, o->settle);
        if (st != CLINK_OK)
            snprintf(err, en, "%s", clink_sim_error(a));
    }
    if (st == CLINK_OK)
        st = ly_loop(a, b, o, ya, yb, n, g, ni, fn, data, &sum, err, en);
    if (st == CLINK_OK) {
        r->lambda = sum / ((double) ni * o->every);
        r->error = ly_error(g, ni);
        r->intervals = ni;
    }
    free(ya);
    free(yb);
    free(g);
    clink_sim_destroy(&a);
    clink_sim_destroy(&b);
    return st;
}
