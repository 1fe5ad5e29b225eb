/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * val_lyapunov: the largest Lyapunov exponent (clink_lyapunov, src/sim/sim_lyapunov.c:
 * two trajectories with renormalisation, Benettin et al. 1980) of the ball on a vibrating
 * table (models/bouncing_ball_table.xml, docs/nonlinear.md) against the closed form of its
 * period-1 orbit: the impact map's Jacobian J has det e^2 and trace
 * 1 + e^2 - (1 + e)^2 sqrt(Gamma^2 - Gamma_1^2) (val_bouncing_ball.c), so the largest
 * exponent of the vertical motion (y, vy perturbed and measured: the ball's x, phi and their
 * rates are neutral, exponent 0) is ln|mu_max| / T, mu_max J's eigenvalue of largest modulus and T
 * the table's period: ln(e) / T = -3.466 1/s where the eigenvalues are complex (Gamma = 1.3), and
 * ln(0.8834) / T = -0.620 1/s at Gamma = 1.5 (real). Checked within 3 times the stated
 * error plus 2% (the transient of the perturbation's direction, about ln(2) / (400 T),
 * biases the mean). In the chaotic range (Gamma = 1.76, docs/nonlinear.md's bifurcation
 * diagram) the exponent must be positive beyond its error, and over 8000 periods (after 20)
 * it is compared with an independent reference: validation/ref_bouncing_ball_map.py iterates
 * the exact impact map of the same ball (its own impact location, no code shared with clink)
 * with the map's Jacobian, a tangent vector renormalised at each impact, over 50000 impacts
 * after 2000, the exponent per unit time and its error by the same batch means; the two must
 * agree within 3 times their combined error (sqrt of the sum of squares). The reference also
 * checks its own Jacobian: the sum of both exponents per impact is 2 ln(e) (det J = e^2 along
 * any orbit), within 1e-3.
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>

#define PI 3.14159265358979323846

static const double g = 9.81, e = 0.5, W = 10.0 * PI;

/* periods of the chaotic run; under AddressSanitizer (about five times slower) a fifth, the
   stated errors and so the tolerance growing as they do */
#if defined(__SANITIZE_ADDRESS__)
#define CHAOS_PERIODS 1600
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHAOS_PERIODS 1600
#endif
#endif
#ifndef CHAOS_PERIODS
#define CHAOS_PERIODS 8000
#endif

/* the exponent at table amplitude A over n periods after 20, renormalised every period */
static clink_status run(double A, int periods, clink_lyapunov_result *r)
{
    char set[96], err[512];
    const char *sp[1] = {set};
    snprintf(set, sizeof set, "driver[shaker].harmonic.amplitude=%.17g", A);
    clink_model *m = NULL;
    if (clink_xml_load_with(CLINK_SOURCE_DIR "/models/bouncing_ball_table.xml", sp, 1, NULL, &m,
                            NULL, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return CLINK_ERR_MODEL;
    }
    clink_lyapunov_options o = clink_default_lyapunov_options();
    o.every = 2.0 * PI / W;
    o.settle = 20 * o.every;
    o.t_end = (20 + periods) * o.every;
    o.coordinates = (1u << 1) | (1u << 4); /* y and vy: the ball's vertical motion */
    clink_status st = clink_lyapunov(m, NULL, &o, NULL, NULL, r, err, sizeof err);
    if (st != CLINK_OK)
        fprintf(stderr, "A = %g: %s\n", A, err);
    clink_model_destroy(&m);
    return st;
}

/* the chaotic exponent at Gamma = 1.76 over CHAOS_PERIODS periods against the exact impact map */
static void chaotic_against_map(vjson *v, const char *outdir)
{
    clink_lyapunov_result c = {NAN, NAN, 0};
    run(1.76 * g / (W * W), CHAOS_PERIODS, &c);
    vref *ref = NULL;
    if (vref_run(outdir, "ref_bouncing_ball_map.py",
                 "--lyapunov 1.76 --impacts 50000 --out bouncing_ball_map_lyapunov.csv") == 0)
        ref = vref_load(outdir, "bouncing_ball_map_lyapunov.csv");
    double lr = ref ? vref_get(ref, "lambda") : NAN, er = ref ? vref_get(ref, "error") : NAN;
    char q[96];
    snprintf(q, sizeof q, "Gamma 1.76, %d periods: largest exponent (exact impact map)",
             CHAOS_PERIODS);
    vjson_row(v, q, c.lambda, lr, 3.0 * sqrt(c.error * c.error + er * er), "1/s");
    snprintf(q, sizeof q, "Gamma 1.76, %d periods: stated error (clink)", CHAOS_PERIODS);
    vjson_info(v, q, c.error, "1/s");
    vjson_info(v, "Gamma 1.76: stated error (exact impact map, 50000 impacts)", er, "1/s");
    vjson_row(v, "exact impact map: sum of both exponents per impact (2 ln e)",
              ref ? vref_get(ref, "sum_per_impact") : NAN, 2.0 * log(e), 1e-3, "-");
    vref_free(ref);
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "lyapunov",
                          "Largest Lyapunov exponent of the ball on a vibrating table against "
                          "the period-1 orbit's closed form");
    if (!v)
        return 1;
    double T = 2.0 * PI / W, g1 = PI * (1.0 - e) / (1.0 + e);
    const double gams[2] = {1.3, 1.5};
    for (int i = 0; i < 2; i++) {
        double gam = gams[i], tr = 1.0 + e * e - (1.0 + e) * (1.0 + e) * sqrt(gam * gam - g1 * g1);
        double disc = tr * tr - 4.0 * e * e;
        double mu = disc < 0.0 ? e : fabs(0.5 * (tr - sqrt(disc)));
        double ref = log(mu) / T;
        clink_lyapunov_result r = {NAN, NAN, 0};
        run(gam * g / (W * W), 400, &r);
        char q[128];
        snprintf(q, sizeof q, "Gamma %.2f: largest exponent (closed form ln|mu| / T)", gam);
        vjson_row(v, q, r.lambda, ref, 3.0 * r.error + 0.02 * fabs(ref), "1/s");
        snprintf(q, sizeof q, "Gamma %.2f: stated error (batch means)", gam);
        vjson_info(v, q, r.error, "1/s");
    }
    clink_lyapunov_result c = {NAN, NAN, 0};
    run(1.76 * g / (W * W), 400, &c);
    vjson_check(v, "Gamma 1.76 (chaotic): largest exponent", c.lambda, "> 3 x its error",
                c.lambda > 3.0 * c.error, "1/s");
    vjson_info(v, "Gamma 1.76: stated error", c.error, "1/s");
    chaotic_against_map(v, outdir);
    return vjson_close(v);
}
