/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The life simulation of a worn guide (models/slider_crank_translational_wear.xml; docs/wear.md,
 * "Life simulation of a guide"): the translational clearance slider-crank's guide worn by
 * clink_wear_life.
 *
 * (a) Extrapolation against observation: CYCLES cycles as one update of factor CYCLES from 2
 * (the default), 10 and 50 observed cycles, against the same CYCLES cycles every one of them
 * observed (each cycle's wear counted once, factor 1 per cycle; the feedback of the tenths of
 * a um they wear is negligible, as for the bore, docs/wear.md). The worn volume of the guide
 * (both surfaces) within 5% from 2 observed cycles and 1% from 10; the profile (the low-pass
 * of each surface at 36 knots; the largest knot difference over the deepest knot of the
 * observed run) within 15% from 50 and shrinking with the cycles observed (from 50 below a
 * third of that from 2). The bounds are the scatter of the impacts from cycle to cycle: the
 * worn volume per cycle is steady to a few percent, but where the corners strike the guide
 * moves from cycle to cycle, so that a profile from 2 cycles is far from the mean of 300
 * (0.90 of the deepest knot, an info row; docs/wear.md); over a life of many updates the
 * samples average, which (b) checks. The bounds were set after a first run measured 2.8%,
 * 0.3%, 0.10 and 0.11.
 *
 * (b) Grid and update factor: LIFE cycles with the guide's 300 cells and updates of at most 2% of
 * the clearance against 600 cells and 1%, each update observing 8 cycles (as the bore's check,
 * val_wear_slider_crank.c): worn volumes and the profiles at 36 knots within stated bounds.
 */
#define _POSIX_C_SOURCE 200809L

#include "vjson.h"

#include "clink/wear.h"
#include "wear/wear_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODEL  CLINK_SOURCE_DIR "/models/slider_crank_translational_wear.xml"
#define KNOTS  36
#define CYCLES 300
#define LIFE   20000

/* under AddressSanitizer the runs are about five times slower: (b), the longer half, is left
   to the optimised build there (the address checks still see every path of (a)) */
#if defined(__SANITIZE_ADDRESS__)
#define GUIDE_LIFE_SKIP_B 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GUIDE_LIFE_SKIP_B 1
#endif
#endif
#ifndef GUIDE_LIFE_SKIP_B
#define GUIDE_LIFE_SKIP_B 0
#endif

/* the last guide rows of DIR/wear_profile.csv as the low-pass at KNOTS knots per surface */
static int last_profile(const char *dir, double knots[2][KNOTS])
{
    char path[1100], *line = NULL;
    size_t cap = 0;
    snprintf(path, sizeof path, "%s/wear_profile.csv", dir);
    FILE *f = fopen(path, "r");
    int found = 0;
    while (f && getline(&line, &cap, f) > 0) {
        char *p = strstr(line, ",guide_lower,");
        int s = 0;
        if (!p && (p = strstr(line, ",guide_upper,")))
            s = 1;
        if (!p)
            continue;
        p += 13;
        int n = (int) strtol(p, &p, 10);
        double *g = malloc((size_t) n * sizeof *g);
        if (!g)
            break;
        for (int k = 0; k < n; k++)
            g[k] = strtod(p + 1, &p);
        found |= (wear_guide_smooth(g, n, KNOTS, knots[s]) == 0) << s;
        free(g);
    }
    if (f)
        fclose(f);
    free(line);
    return found == 3 ? 0 : -1;
}

/* the summary's worn volume of both guide surfaces */
static double summary_volume(const char *dir)
{
    char path[1100], buf[8192];
    snprintf(path, sizeof path, "%s/wear_summary.json", dir);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    const char *a = strstr(buf, "\"volume_lower\": "), *b = strstr(buf, "\"volume_upper\": ");
    return a && b ? strtod(a + 16, NULL) + strtod(b + 16, NULL) : NAN;
}

/* one life run into outdir/name; its guide volume (NaN on failure) and profile */
static double life_run(const char *outdir, const char *name, long cycles, int observe,
                       double fraction, const char *grid, double knots[2][KNOTS])
{
    char dir[1024], err[1024];
    const char *sets[1] = {grid};
    clink_wear_options o;
    clink_wear_options_init(&o);
    o.cycles = cycles;
    o.observe = observe;
    o.fraction = fraction;
    o.quiet = 1;
    o.sets = sets;
    o.nsets = grid ? 1 : 0;
    snprintf(dir, sizeof dir, "%s/%s", outdir, name);
    if (clink_wear_life(MODEL, dir, &o, err, sizeof err) != CLINK_OK ||
        last_profile(dir, knots) != 0)
        return fprintf(stderr, "%s\n", err), NAN;
    return summary_volume(dir);
}

/* the largest knot difference of the two profiles over the deepest knot of b */
static double profile_change(double a[2][KNOTS], double b[2][KNOTS], double *top)
{
    double diff = 0.0;
    *top = 0.0;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < KNOTS; k++)
            *top = fmax(*top, b[s][k]), diff = fmax(diff, fabs(a[s][k] - b[s][k]));
    return diff / *top;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "wear_guide_life", "The life simulation of a worn guide");
    if (!v)
        return 1;
    double ka[2][KNOTS], kb[2][KNOTS], top;
    /* (a): every cycle observed, against 2 (the default), 10 and 50 observed */
    double vo = life_run(outdir, "guide_life_observed", CYCLES, CYCLES, 0.02, NULL, kb);
    static const int nobs[3] = {2, 10, 50};
    double err[3], vol[3];
    for (int i = 0; i < 3; i++) {
        char name[64];
        snprintf(name, sizeof name, "guide_life_from_%d", nobs[i]);
        vol[i] = life_run(outdir, name, CYCLES, nobs[i], 0.02, NULL, ka);
        if (isnan(vol[i]) || isnan(vo))
            return 1;
        err[i] = profile_change(ka, kb, &top);
    }
    vjson_row_rel(v, "worn volume of the guide, 300 cycles from 2 observed against all observed",
                  vol[0], vo, 0.05, "m^3");
    vjson_row_rel(v, "worn volume of the guide, 300 cycles from 10 observed against all", vol[1],
                  vo, 0.01, "m^3");
    vjson_info(v, "profile change, 300 cycles from 2 observed against all, of the deepest knot",
               err[0], "-");
    vjson_info(v, "profile change, 300 cycles from 10 observed against all, of the deepest knot",
               err[1], "-");
    vjson_check(v, "profile change, 300 cycles from 50 observed against all, of the deepest knot",
                err[2], "< 0.15", err[2] < 0.15, "-");
    vjson_check(v, "profile change from 50 observed over that from 2 (the sampling's scatter)",
                err[2] / err[0], "< 1/3", err[2] / err[0] < 1.0 / 3.0, "-");
    vjson_info(v, "deepest knot of the guide after 300 observed cycles", top, "m");
    /* (b) */
    if (GUIDE_LIFE_SKIP_B) {
        vjson_info(v, "(b) grid and update halved: not run under AddressSanitizer", 1, "-");
        return vjson_close(v);
    }
    double va = life_run(outdir, "guide_life_a", LIFE, 8, 0.02,
                         "translational_clearance[guide].wear.grid=300", ka);
    double vb = life_run(outdir, "guide_life_b", LIFE, 8, 0.01,
                         "translational_clearance[guide].wear.grid=600", kb);
    if (isnan(va) || isnan(vb))
        return 1;
    double dp = profile_change(ka, kb, &top);
    vjson_row_rel(v, "worn volume of the guide, halved grid and update against the default", vb, va,
                  0.05, "m^3");
    vjson_check(v, "profile change, halved grid and update, of the deepest knot", dp, "< 0.15",
                dp < 0.15, "-");
    vjson_info(v, "deepest knot of the guide after 20000 cycles (600 cells, 1%)", top, "m");
    return vjson_close(v);
}
