/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * val_bouncing_ball: a ball on a sinusoidally vibrating table (models/bouncing_ball_table.xml,
 * Holmes 1982; Luck and Mehta 1993) against the closed forms of its period-1 orbit, with
 * clink's Poincare sections (stroboscopic, at the table's period T = 2 pi / w).
 *
 * The model: table s(t) = A sin(w t), impacts instantaneous with Newton's restitution e on
 * the relative velocity (the impulse treatment; the driven table does not recoil),
 * Gamma = A w^2 / g. A period-1 orbit (one impact per period at phase phi) leaves the table
 * at u = g T / 2 and meets it again T later at w = -g T / 2; the impact law
 * u = (1 + e) s' - e w gives A w cos(phi) = (1 - e) g T / (2 (1 + e)), so
 *   cos(phi) = Gamma_1 / Gamma,  Gamma_1 = pi (1 - e) / (1 + e)      (existence)
 * with the stable orbit at sin(phi) > 0. Linearising the exact impact map about it
 * (impact time and take-off velocity) gives det J = e^2 and
 *   trace J = 1 + e^2 - (1 + e)^2 Gamma sin(phi),
 * so the orbit loses stability by period doubling (an eigenvalue -1: trace = -(1 + e^2)) at
 *   Gamma_2 = sqrt(Gamma_1^2 + (2 (1 + e^2) / (1 + e)^2)^2).
 * (Holmes 1982 derives Gamma_1 and this threshold for the high-bounce map, where impacts
 * happen at a fixed level; for the exact map the same two values follow, as derived here
 * and as in Luck and Mehta 1993.)
 *
 * Checks, each able to fail:
 *   - on the orbit: for Gamma from 1.02 Gamma_1 to 0.98 Gamma_2 the stroboscopic samples
 *     settle on one point (spread below 1e-9 m), which is the closed-form orbit's ball
 *     height and velocity at phase 0 (1e-7 m, 1e-7 m/s), and the impacts come at phase phi;
 *   - its stability: the ratio of successive deviations of the samples (the dominant
 *     eigenvalue of J, real there) against the closed form at Gamma = 1.50;
 *   - the threshold: period 1 at 0.98 Gamma_2, period 2 at 1.02 Gamma_2, and the period-2
 *     split d (d^2 linear in Gamma past a flip) extrapolated to zero at Gamma_2 within 0.5%;
 *   - below existence (0.95 Gamma_1) no period-1 orbit is reached;
 *   - the samples against a tight run (rtol 1e-12): 1e-8 m.
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI   3.14159265358979323846
#define NPTS 4096

static const double g = 9.81, e = 0.5, R = 0.01, W = 10.0 * PI;

/* the samples of one run: the ball's y and vy at the strobe times */
typedef struct run {
    int n, ok;
    double y[NPTS], vy[NPTS];
    double t_imp_last; /* the last impact's onset */
} run;

static clink_status keep(void *data, int section, long count, double t, const double *y, int nq)
{
    run *r = data;
    (void) section;
    (void) count;
    (void) t;
    if (r->n < NPTS) {
        r->y[r->n] = y[4]; /* ball (body 2): q[3..5] */
        r->vy[r->n] = y[nq + 4];
        r->n++;
    }
    return CLINK_OK;
}

/* the closed-form period-1 orbit at Gamma: ball y and vy at phase 0; phi; 0 when none */
static int orbit(double gam, double *y, double *vy, double *phi)
{
    double T = 2.0 * PI / W, A = gam * g / (W * W), g1 = PI * (1.0 - e) / (1.0 + e);
    if (gam < g1)
        return 0;
    *phi = acos(g1 / gam);
    double u = g * T / 2.0, tau = T - *phi / W;
    *y = A * sin(*phi) + R + u * tau - 0.5 * g * tau * tau;
    *vy = u - g * tau;
    return 1;
}

/* runs the model at Gamma for n periods from the orbit of Gamma0 (its velocity times kick),
   sampling every period from the first; rtol given */
static void simulate(double gam, double gam0, double kick, int periods, double rtol, run *r)
{
    char sets[4][96], err[512];
    const char *sp[4];
    double y0, vy0, phi0, T = 2.0 * PI / W;
    r->n = 0;
    r->ok = 0;
    if (!orbit(gam0, &y0, &vy0, &phi0))
        return;
    snprintf(sets[0], sizeof sets[0], "driver[shaker].harmonic.amplitude=%.17g", gam * g / (W * W));
    snprintf(sets[1], sizeof sets[1], "body[ball].y=%.17g", y0);
    snprintf(sets[2], sizeof sets[2], "body[ball].vy=%.17g", vy0 * kick);
    snprintf(sets[3], sizeof sets[3], "settings.rtol=%.17g", rtol);
    for (int i = 0; i < 4; i++)
        sp[i] = sets[i];
    clink_model *m = NULL;
    if (clink_xml_load_with(CLINK_SOURCE_DIR "/models/bouncing_ball_table.xml", sp, 4, NULL, &m,
                            NULL, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    clink_settings_def set = clink_model_settings(m);
    set.atol = rtol * 1e-2;
    set.t_end = periods * T;
    clink_sim *s = NULL;
    if (clink_sim_create(m, &set, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(&m);
        return;
    }
    clink_section_def d = clink_default_section_def();
    d.period = T;
    r->ok = clink_sim_add_section(s, &d, keep, r, NULL) == CLINK_OK &&
            clink_sim_advance(s, periods * T) == CLINK_OK;
    int ni = clink_sim_impact_count(s);
    clink_impact_record rec;
    r->t_imp_last = ni > 0 && clink_sim_impact(s, ni - 1, &rec) == CLINK_OK ? rec.t_onset : NAN;
    if (!r->ok)
        fprintf(stderr, "Gamma %.4f: %s\n", gam, clink_sim_error(s));
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* the spread (max - min) of the last k samples of every second one from offset o */
static double spread(const run *r, int k, int o)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = r->n - 1 - o; i >= 0 && i >= r->n - 2 * k; i -= 2) {
        lo = fmin(lo, r->y[i]);
        hi = fmax(hi, r->y[i]);
    }
    return hi - lo;
}

/* on the orbit at Gamma: rows for the sample point and the impact phase */
static void check_orbit(vjson *v, double gam)
{
    run *r = calloc(1, sizeof *r);
    double y, vy, phi, T = 2.0 * PI / W;
    char q[128];
    orbit(gam, &y, &vy, &phi);
    simulate(gam, gam, 1.05, 300, 1e-10, r);
    snprintf(q, sizeof q, "Gamma %.4f: settles on one point (spread of 40 samples)", gam);
    vjson_check(v, q, r->ok ? fmax(spread(r, 20, 0), spread(r, 20, 1)) : NAN, "< 1e-9 m",
                r->ok && fmax(spread(r, 20, 0), spread(r, 20, 1)) < 1e-9, "m");
    snprintf(q, sizeof q, "Gamma %.4f: ball height at phase 0", gam);
    vjson_row(v, q, r->ok ? r->y[r->n - 1] : NAN, y, 1e-7, "m");
    snprintf(q, sizeof q, "Gamma %.4f: ball velocity at phase 0", gam);
    vjson_row(v, q, r->ok ? r->vy[r->n - 1] : NAN, vy, 1e-7, "m/s");
    snprintf(q, sizeof q, "Gamma %.4f: impact phase phi = acos(Gamma_1 / Gamma)", gam);
    double ph = fmod(r->t_imp_last, T) * W;
    vjson_row(v, q, ph, phi, 1e-6, "rad");
    free(r);
}

/* the period-2 split at Gamma (|y of even samples - y of odd ones| at the end), or NaN */
static double split(double gam, double g2)
{
    run *r = calloc(1, sizeof *r);
    simulate(gam, g2, 1.01, 3000, 1e-10, r);
    double d = r->ok && r->n > 2 ? fabs(r->y[r->n - 1] - r->y[r->n - 2]) : NAN;
    if (r->ok && fmax(spread(r, 20, 0), spread(r, 20, 1)) > 1e-3 * d)
        d = NAN; /* not settled on a period-2 orbit */
    free(r);
    return d;
}

/* the closed-form dominant eigenvalue of the impact map's Jacobian at Gamma */
static double eigen(double gam, double g1)
{
    double tr = 1.0 + e * e - (1.0 + e) * (1.0 + e) * sqrt(gam * gam - g1 * g1);
    double disc = tr * tr - 4.0 * e * e;
    return disc < 0.0 ? NAN : 0.5 * (tr - sqrt(disc)); /* the one of largest modulus (tr < 0) */
}

static void check_threshold(vjson *v, double g1, double g2)
{
    run *r = calloc(1, sizeof *r);
    /* the dominant eigenvalue from the decay of the deviations at Gamma = 1.50 */
    double gam = 1.50, y, vy, phi;
    orbit(gam, &y, &vy, &phi);
    simulate(gam, gam, 1.0005, 120, 1e-11, r);
    double ratio = NAN;
    if (r->ok && r->n > 50)
        ratio = (r->y[41] - y) / (r->y[40] - y);
    vjson_row(v, "Gamma 1.5000: ratio of successive deviations (eigenvalue of J)", ratio,
              eigen(gam, g1), 1e-4, "-");
    /* period 1 just below, period 2 just above */
    simulate(0.98 * g2, 0.98 * g2, 1.02, 600, 1e-10, r);
    double s1 = r->ok ? fmax(spread(r, 20, 0), spread(r, 20, 1)) : NAN;
    double a1 = r->ok ? fabs(r->y[r->n - 1] - r->y[r->n - 2]) : NAN;
    vjson_check(v, "0.98 Gamma_2: period 1 (even and odd samples agree)", fmax(s1, a1), "< 1e-8 m",
                fmax(s1, a1) < 1e-8, "m");
    double d1 = split(1.01 * g2, g2), d2 = split(1.02 * g2, g2), d3 = split(1.03 * g2, g2);
    vjson_check(v, "1.02 Gamma_2: period 2 (even and odd samples split)", d2, "> 1e-4 m", d2 > 1e-4,
                "m");
    /* d^2 = c (Gamma - Gamma_2) near the flip: the least-squares line through the three */
    double x[3] = {1.01 * g2, 1.02 * g2, 1.03 * g2}, z[3] = {d1 * d1, d2 * d2, d3 * d3};
    double mx = (x[0] + x[1] + x[2]) / 3.0, mz = (z[0] + z[1] + z[2]) / 3.0, sxx = 0, sxz = 0;
    for (int i = 0; i < 3; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxz += (x[i] - mx) * (z[i] - mz);
    }
    double slope = sxz / sxx, g2_fit = mx - mz / slope;
    vjson_row_rel(v, "Gamma_2 from the period-2 split (d^2 linear, extrapolated to 0)", g2_fit, g2,
                  5e-3, "-");
    vjson_info(v, "period-2 split at 1.01, 1.02, 1.03 Gamma_2 (1.02)", d2, "m");
    /* below existence: no period-1 orbit (the run ends in resting contact, which the
       impulse treatment refuses, or the samples do not settle) */
    simulate(0.95 * g1, g1, 1.0, 300, 1e-10, r);
    int settled = r->ok && r->n > 40 && fmax(spread(r, 20, 0), spread(r, 20, 1)) < 1e-9;
    vjson_check(v, "0.95 Gamma_1: no period-1 orbit reached", settled, "0", !settled, "-");
    free(r);
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "bouncing_ball",
                          "Ball on a vibrating table: period-1 orbit and its period doubling "
                          "(Holmes 1982; Luck and Mehta 1993)");
    if (!v)
        return 1;
    double g1 = PI * (1.0 - e) / (1.0 + e);
    double g2 = sqrt(g1 * g1 + pow(2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e)), 2.0));
    vjson_info(v, "Gamma_1 = pi (1 - e) / (1 + e), e = 0.5", g1, "-");
    vjson_info(v, "Gamma_2 = sqrt(Gamma_1^2 + (2 (1 + e^2) / (1 + e)^2)^2)", g2, "-");
    check_orbit(v, 1.02 * g1);
    check_orbit(v, 1.30);
    check_orbit(v, 0.98 * g2);
    check_threshold(v, g1, g2);
    /* the samples against a tight run */
    run *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    simulate(1.3, 1.3, 1.05, 40, 1e-10, a);
    simulate(1.3, 1.3, 1.05, 40, 1e-12, b);
    double dmax = a->ok && b->ok && a->n == b->n ? 0.0 : NAN;
    for (int i = 0; !isnan(dmax) && i < a->n; i++)
        dmax = fmax(dmax, fabs(a->y[i] - b->y[i]));
    vjson_row(v, "samples at rtol 1e-10 against rtol 1e-12 (40 periods)", dmax, 0.0, 1e-8, "m");
    free(a);
    free(b);
    return vjson_close(v);
}
