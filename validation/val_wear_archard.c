/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Archard's closed form (docs/wear.md, check (a)): models/journal_bearing_wear.xml, a journal
 * of m = 10 kg under gravity (F = m g = 98.1 N) turned at omega = 100 rad/s in a fixed bore
 * (R_b = 10 mm, R_j = 9.5 mm, frictionless: it rests at the bottom), k_D = 1e-13 m^2/N, axial
 * length L = 10 mm, E* = 1.137e11 Pa, a grid of 4096 cells. After the load settles (0.05 s)
 * the wear is observed over four turns, T = 8 pi / omega, every 2e-5 s. Closed forms (Archard
 * 1953 with Hertz's line contact, Johnson 1985, Sect. 4.3):
 *   sliding distance s = omega R_j T, worn volume V = k_D F s on each surface (rel. 1e-6: the
 *   force and speed are constant once settled; CVODE's rtol is 1e-9);
 *   half-width a = sqrt(4 F R* / (pi L E*)), R* = R_j R_b / (R_b - R_j); the bore's peak depth
 *   k_D p0 v T with p0 = 2 F / (pi a L) (rel. 2e-3: a cell of 0.106 a / R averages the
 *   ellipse, 4.7e-4, and its centre may miss the contact by half a cell, 1.4e-3: here -90 deg
 *   falls on a cell boundary, the worst case); and that cell's depth against the ellipse's
 *   mean over the cell by Simpson's rule (1000 intervals; rel. 1e-5);
 *   the worn arc's centre at -90 deg (within one cell) and its angular spread: the elliptic
 *   strip's standard deviation a / (2 R_b), widened by the cells to sqrt((a/2R)^2 + d^2/12)
 *   (rel. 2e-2);
 *   the journal, turned through whole turns, worn uniformly: max / min - 1 below 2e-3 (the
 *   strips of successive samples are 0.002 rad apart, 1/15 of the strip's width).
 * And (e), the friction's dissipation against the wear work (friction_balance).
 */
#include "vjson.h"

#include "clink/wear.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * (e) The wear work is part of the friction's dissipation: with Coulomb friction mu = 0.1
 * (an override) the journal turns at 0.95 m/s, beyond the friction law's transition
 * speed, so the friction dissipates mu F v: its dissipation over the observation,
 * integrated by CVODE with the state (clink_energy.contact_friction), against mu times the
 * wear work integral of F v dt, sampled by the wear's trapezoid every 2e-5 s (rel. 1e-4).
 */
static int friction_balance(vjson *v, const char *outdir)
{
    const char *sets[] = {"revolute_clearance[bearing].friction.mu=0.1"};
    char err[512];
    clink_model *m = NULL;
    clink_sim *sim = NULL;
    clink_wear *w = NULL;
    clink_energy e0, e1;
    (void) outdir;
    if (clink_xml_load_with(CLINK_SOURCE_DIR "/models/journal_bearing_wear.xml", sets, 1, NULL, &m,
                            NULL, err, sizeof err) != CLINK_OK ||
        clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK ||
        clink_wear_create(m, &w, err, sizeof err) != CLINK_OK)
        return fprintf(stderr, "%s\n", err), -1;
    int ok = clink_sim_advance(sim, 0.05) == CLINK_OK && clink_wear_observe(w, sim) == CLINK_OK &&
             clink_sim_energy(sim, &e0) == CLINK_OK;
    for (long k = 1; ok && k <= 12566; k++)
        ok = clink_sim_advance(sim, 0.05 + 2e-5 * k) == CLINK_OK &&
             clink_wear_observe(w, sim) == CLINK_OK;
    ok = ok && clink_sim_energy(sim, &e1) == CLINK_OK;
    if (!ok)
        return fprintf(stderr, "%s\n", clink_sim_error(sim)), -1;
    vjson_row_rel(v, "friction dissipation (mu = 0.1) against mu times the wear work",
                  e1.contact_friction - e0.contact_friction, 0.1 * clink_wear_work(w, 0), 1e-4,
                  "J");
    clink_wear_destroy(&w);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return 0;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const double PI = 3.141592653589793, m = 10.0, g = 9.81, w = 100.0, Rb = 0.010, Rj = 0.0095;
    const double kd = 1e-13, L = 0.01, Es = 1.137e11, t0 = 0.05, T = 8.0 * PI / w, dt = 2e-5;
    char err[512];
    clink_model *model =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/journal_bearing_wear.xml", err, sizeof err);
    clink_sim *sim = model ? vsim_create(&model) : NULL;
    clink_wear *wear = NULL;
    if (!sim || clink_wear_create(model, &wear, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", model ? err : err);
        return 1;
    }
    clink_sim_set_outputs(sim, CLINK_OUTPUT_CONTACTS);
    int ok = clink_sim_advance(sim, t0) == CLINK_OK && clink_wear_observe(wear, sim) == CLINK_OK;
    long nsteps = lround(T / dt);
    for (long k = 1; ok && k <= nsteps; k++)
        ok = clink_sim_advance(sim, t0 + T * k / nsteps) == CLINK_OK &&
             clink_wear_observe(wear, sim) == CLINK_OK;
    if (!ok) {
        fprintf(stderr, "%s\n", clink_sim_error(sim));
        return 1;
    }
    vjson *v = vjson_open(outdir, "wear_archard", "Archard wear of a loaded turning journal");
    if (!v)
        return 1;
    double F = m * g, s = w * Rj * T, V = kd * F * s;
    double Rs = Rj * Rb / (Rb - Rj), a = sqrt(4.0 * F * Rs / (PI * L * Es));
    double p0 = 2.0 * F / (PI * a * L);
    vjson_row_rel(v, "sliding distance in contact", clink_wear_sliding(wear, 0), s, 1e-6, "m");
    vjson_row_rel(v, "worn volume of the bore", clink_wear_volume(wear, 0, CLINK_WEAR_BORE), V,
                  1e-6, "m^3");
    vjson_row_rel(v, "worn volume of the journal", clink_wear_volume(wear, 0, CLINK_WEAR_JOURNAL),
                  V, 1e-6, "m^3");
    int n = clink_wear_grid(wear, 0, CLINK_WEAR_BORE, NULL);
    double *h = malloc(2 * (size_t) n * sizeof *h), d = 2.0 * PI / n;
    if (!h)
        return 1;
    clink_wear_grid(wear, 0, CLINK_WEAR_BORE, h);
    clink_wear_grid(wear, 0, CLINK_WEAR_JOURNAL, h + n);
    /* the bore: peak, centre and spread of the worn arc (angles about -90 deg) */
    double top = 0.0, sum = 0.0, mean = 0.0, var = 0.0;
    for (int k = 0; k < n; k++) {
        double th = remainder((k + 0.5) * d + 0.5 * PI, 2.0 * PI);
        top = fmax(top, h[k]);
        sum += h[k];
        mean += h[k] * th;
    }
    mean /= sum;
    for (int k = 0; k < n; k++) {
        double th = remainder((k + 0.5) * d + 0.5 * PI, 2.0 * PI);
        var += h[k] * (th - mean) * (th - mean);
    }
    vjson_row_rel(v, "peak depth of the bore (loaded arc)", top, kd * p0 * w * Rj * T, 2e-3, "m");
    /* the ellipse's mean over the cell [-90 deg, -90 deg + d] (x = 0 .. R d), Simpson */
    double simpson = 0.0, X = Rb * d;
    for (int i = 0; i <= 1000; i++) {
        double x = X * i / 1000, u = fmin(1.0, x / a);
        double wt = (i == 0 || i == 1000) ? 1.0 : (i % 2 ? 4.0 : 2.0);
        simpson += wt * p0 * sqrt(1.0 - u * u);
    }
    simpson *= X / 3000.0 / X;
    int cell = (int) lround(1.5 * PI / d);
    vjson_row_rel(v, "depth of the cell beside -90 deg", h[cell], kd * simpson * w * Rj * T, 1e-5,
                  "m");
    vjson_row(v, "centre of the worn arc from -90 deg", mean, 0.0, d, "rad");
    vjson_row_rel(v, "angular spread of the worn arc", sqrt(var / sum),
                  sqrt(pow(a / (2.0 * Rb), 2) + d * d / 12.0), 2e-2, "rad");
    double jmax = 0.0, jmin = INFINITY;
    for (int k = 0; k < n; k++)
        jmax = fmax(jmax, h[n + k]), jmin = fmin(jmin, h[n + k]);
    vjson_row(v, "journal non-uniformity max/min - 1", jmax / jmin - 1.0, 0.0, 2e-3, "-");
    vjson_row_rel(v, "journal mean depth", 0.5 * (jmax + jmin), V / (2.0 * PI * Rj * L), 2e-3, "m");
    vjson_info(v, "strip half-width a", a, "m");
    if (friction_balance(v, outdir) != 0)
        return 1;
    vjson_info(v, "peak force", clink_wear_peak_force(wear, 0), "N");
    free(h);
    clink_wear_destroy(&wear);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return vjson_close(v);
}
