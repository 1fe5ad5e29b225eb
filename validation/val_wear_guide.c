/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Archard's closed form for a translational clearance joint's guide (docs/wear.md, "The
 * translational clearance joint"): models/guide_wear.xml, a slider of m = 1 kg resting on
 * its two lower corners (F / 2 = m g / 2 each) on the guide's lower surface, driven along it
 * at v = 0.1 m/s, frictionless; k_D = 1e-13 m^2/N, axial width L = 10 mm, 200 cells of dx =
 * 1 mm over the 200 mm guide. Observed every dt = 1e-4 s over T = 1 s after 0.05 s (the
 * slider starts on the surface and settles within 5 ms). Closed forms (Archard 1953):
 *   the corners' sliding distance 2 v T, the lower surface's worn volume k_D F v T and each
 *   lower corner's k_D (F / 2) v T (rel. 1e-6: the load and speed are constant; CVODE's rtol
 *   is 1e-10), the upper surface and the upper corners unworn (0);
 *   the depth of every cell both corners passed whole: each corner lays k_D (F / 2) v dt
 *   / (L dx) per observation, and dx / (v dt) = 10 observations fall in each cell (the start
 *   is offset by a quarter of an observation's travel so that none falls on a boundary),
 *   so k_D F / L (rel. 1e-6); a cell one corner alone passed, half that.
 */
#include "vjson.h"

#include "clink/wear.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const double F = 9.81, v = 0.1, kd = 1e-13, L = 0.01, T = 1.0, t0 = 0.05;
    char err[512];
    clink_model *m =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/guide_wear.xml", err, sizeof err);
    clink_sim *sim = NULL;
    clink_wear *w = NULL;
    if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK ||
        clink_wear_create(m, &w, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    clink_sim_set_outputs(sim, CLINK_OUTPUT_CONTACTS);
    int ok = clink_sim_advance(sim, t0) == CLINK_OK && clink_wear_observe(w, sim) == CLINK_OK;
    for (long k = 1; ok && k <= 10000; k++)
        ok = clink_sim_advance(sim, t0 + T * k / 10000) == CLINK_OK &&
             clink_wear_observe(w, sim) == CLINK_OK;
    if (!ok) {
        fprintf(stderr, "%s\n", clink_sim_error(sim));
        return 1;
    }
    vjson *out = vjson_open(outdir, "wear_guide", "Archard wear of a translational joint's guide");
    double h[200], up[200];
    if (!out || clink_wear_guide_count(w) != 1 ||
        clink_wear_guide_grid(w, 0, CLINK_WEAR_LOWER, h) != 200 ||
        clink_wear_guide_grid(w, 0, CLINK_WEAR_UPPER, up) != 200)
        return 1;
    vjson_row_rel(out, "corners' sliding distance in contact", clink_wear_guide_tally(w, 0, 0),
                  2.0 * v * T, 1e-6, "m");
    vjson_row_rel(out, "worn volume of the lower surface",
                  clink_wear_guide_volume(w, 0, CLINK_WEAR_LOWER), kd * F * v * T, 1e-6, "m^3");
    for (int c = 0; c < 2; c++) {
        char what[64];
        snprintf(what, sizeof what, "worn volume of lower corner %d", c + 1);
        vjson_row_rel(out, what, clink_wear_guide_volume(w, 0, CLINK_WEAR_CORNER1 + c),
                      0.5 * kd * F * v * T, 1e-6, "m^3");
    }
    double top = 0.0, umax = 0.0;
    for (int i = 0; i < 200; i++)
        umax = fmax(umax, fabs(up[i]));
    vjson_row(out, "upper surface and corners unworn",
              umax + clink_wear_guide_volume(w, 0, CLINK_WEAR_UPPER) +
                  clink_wear_guide_volume(w, 0, CLINK_WEAR_CORNER1 + 2) +
                  clink_wear_guide_volume(w, 0, CLINK_WEAR_CORNER1 + 3),
              0.0, 0.0, "m");
    /* both corners passed the cells [-24, 35] mm whole: cells 76 .. 134; the rear corner
       alone [-64, -25] mm: cells 36 .. 74 (it starts inside cell 35) */
    double dev = 0.0, dev1 = 0.0;
    for (int i = 76; i <= 134; i++)
        dev = fmax(dev, fabs(h[i] / (kd * F / L) - 1.0)), top = fmax(top, h[i]);
    for (int i = 36; i <= 74; i++)
        dev1 = fmax(dev1, fabs(h[i] / (0.5 * kd * F / L) - 1.0));
    vjson_row(out, "cells both corners passed: largest |depth / (k_D F / L) - 1|", dev, 0.0, 1e-6,
              "-");
    vjson_row(out, "cells one corner passed: largest |depth / (k_D F / 2L) - 1|", dev1, 0.0, 1e-6,
              "-");
    vjson_info(out, "deepest cell", top, "m");
    vjson_info(out, "volume beyond the grid", clink_wear_guide_tally(w, 0, 3), "m^3");
    clink_wear_destroy(&w);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return vjson_close(out);
}
