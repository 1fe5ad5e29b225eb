/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Archard's closed form with the elastic (Winkler) foundation's pressure (docs/wear.md, check
 * (a) with <wear pressure="winkler" layer="0.001">): models/journal_bearing_wear_winkler.xml,
 * the journal of models/journal_bearing_wear.xml (m = 10 kg under gravity, F = m g = 98.1 N, omega
 * = 100 rad/s, R_b = 10 mm, R_j = 9.5 mm, frictionless, k_D = 1e-13 m^2/N, L = 10 mm, E* = 1.137e11
 * Pa, 4096 cells), observed over four turns, T = 8 pi / omega, every 2e-5 s after 0.05 s.
 * The worn volume does not depend on the pressure's shape: V = k_D F s on each surface, s =
 * omega R_j T (rel. 1e-6, as with Hertz's strip). The foundation of thickness b = 1 mm (Johnson
 * 1985): p(x) = (E* / b) (a^2 - x^2) / (2 R*), a = (3 F R* b / (2 L E*))^(1/3), p0 = 3 F /
 * (4 a L); the bore's peak depth k_D p0 v T (rel. 1e-3: a cell of 0.05 a / R_b averages the
 * parabola, 2e-4, and its centre may miss the contact by half a cell, 7e-4); the depth of the
 * cell beside -90 deg against the parabola's exact mean over the cell (rel. 1e-5); the worn
 * arc's spread, the parabola's standard deviation a / sqrt(5) over R_b widened by the cells
 * (rel. 2e-2); and Hertz's strip, half as wide (its a = 0.145 mm against 0.29 mm), giving the
 * same volume but a deeper peak (the ratio of the peaks, 4 a_W / (3 pi a_H) of the pressures'
 * p0 ratio inverted, within 2e-3).
 */
#include "vjson.h"

#include "clink/wear.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* observes the model file over four turns: its wear into *out */
static int observe(const char *file, clink_wear **out)
{
    char err[512];
    clink_model *m = clink_model_load_xml(file, err, sizeof err);
    clink_sim *sim = NULL;
    if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK ||
        clink_wear_create(m, out, err, sizeof err) != CLINK_OK)
        return fprintf(stderr, "%s\n", err), -1;
    clink_sim_set_outputs(sim, CLINK_OUTPUT_CONTACTS);
    const double t0 = 0.05, T = 8.0 * 3.141592653589793 / 100.0;
    long nsteps = lround(T / 2e-5);
    int ok = clink_sim_advance(sim, t0) == CLINK_OK && clink_wear_observe(*out, sim) == CLINK_OK;
    for (long k = 1; ok && k <= nsteps; k++)
        ok = clink_sim_advance(sim, t0 + T * k / nsteps) == CLINK_OK &&
             clink_wear_observe(*out, sim) == CLINK_OK;
    if (!ok)
        fprintf(stderr, "%s\n", clink_sim_error(sim));
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return ok ? 0 : -1;
}

/* the bore's grid of w: its peak and its spread about -90 deg (rad) */
static void bore_shape(const clink_wear *w, double *h, int n, double *top, double *spread)
{
    const double PI = 3.141592653589793, d = 2.0 * PI / n;
    double sum = 0.0, mean = 0.0, var = 0.0;
    clink_wear_grid(w, 0, CLINK_WEAR_BORE, h);
    *top = 0.0;
    for (int k = 0; k < n; k++) {
        double th = remainder((k + 0.5) * d + 0.5 * PI, 2.0 * PI);
        *top = fmax(*top, h[k]);
        sum += h[k];
        mean += h[k] * th;
    }
    mean /= sum;
    for (int k = 0; k < n; k++) {
        double th = remainder((k + 0.5) * d + 0.5 * PI, 2.0 * PI);
        var += h[k] * (th - mean) * (th - mean);
    }
    *spread = sqrt(var / sum);
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const double PI = 3.141592653589793, F = 10.0 * 9.81, w = 100.0, Rb = 0.010, Rj = 0.0095;
    const double kd = 1e-13, L = 0.01, Es = 1.137e11, b = 1e-3, T = 8.0 * PI / w;
    clink_wear *ww = NULL, *wh = NULL;
    if (observe(CLINK_SOURCE_DIR "/models/journal_bearing_wear_winkler.xml", &ww) != 0 ||
        observe(CLINK_SOURCE_DIR "/models/journal_bearing_wear.xml", &wh) != 0)
        return 1;
    vjson *v =
        vjson_open(outdir, "wear_winkler", "Archard wear with the elastic foundation's pressure");
    int n = clink_wear_grid(ww, 0, CLINK_WEAR_BORE, NULL);
    double *h = malloc((size_t) n * sizeof *h), d = 2.0 * PI / n;
    if (!v || !h)
        return 1;
    double s = w * Rj * T, V = kd * F * s, Rs = Rj * Rb / (Rb - Rj);
    double a = cbrt(1.5 * F * Rs * b / (L * Es)), p0 = 3.0 * F / (4.0 * a * L);
    double aH = sqrt(4.0 * F * Rs / (PI * L * Es)), p0H = 2.0 * F / (PI * aH * L);
    vjson_row_rel(v, "sliding distance in contact", clink_wear_sliding(ww, 0), s, 1e-6, "m");
    vjson_row_rel(v, "worn volume of the bore (winkler)", clink_wear_volume(ww, 0, CLINK_WEAR_BORE),
                  V, 1e-6, "m^3");
    vjson_row_rel(v, "worn volume of the journal (winkler)",
                  clink_wear_volume(ww, 0, CLINK_WEAR_JOURNAL), V, 1e-6, "m^3");
    double top, spread, topH, spreadH;
    bore_shape(ww, h, n, &top, &spread);
    vjson_row_rel(v, "peak depth of the bore (winkler)", top, kd * p0 * w * Rj * T, 1e-3, "m");
    /* the parabola's exact mean over the cell [-90 deg, -90 deg + d]: x = 0 .. X */
    double X = fmin(Rb * d, a), mean = p0 * (X - X * X * X / (3.0 * a * a)) / (Rb * d);
    int cell = (int) lround(1.5 * PI / d);
    vjson_row_rel(v, "depth of the cell beside -90 deg (winkler)", h[cell], kd * mean * w * Rj * T,
                  1e-5, "m");
    vjson_row_rel(v, "angular spread of the worn arc (winkler)", spread,
                  sqrt(pow(a / (sqrt(5.0) * Rb), 2) + d * d / 12.0), 2e-2, "rad");
    bore_shape(wh, h, n, &topH, &spreadH);
    vjson_row_rel(v, "worn volume, winkler against hertz",
                  clink_wear_volume(ww, 0, CLINK_WEAR_BORE),
                  clink_wear_volume(wh, 0, CLINK_WEAR_BORE), 1e-6, "m^3");
    vjson_row_rel(v, "peak depth, winkler over hertz", top / topH, p0 / p0H, 2e-3, "-");
    vjson_info(v, "foundation half-width a", a, "m");
    vjson_info(v, "Hertz half-width a", aH, "m");
    free(h);
    clink_wear_destroy(&ww);
    clink_wear_destroy(&wh);
    return vjson_close(v);
}
