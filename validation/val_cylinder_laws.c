/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The conformal cylinder laws (src/contact/cylinder.c; docs/contact-laws.md, "Cylinder
 * laws"), compared as Pereira, Ramalho and Ambrosio (2011) compare them: a steel journal
 * in a steel bearing of radius 10 mm (E = 207 GPa, nu = 0.29), axial length 20 mm,
 * clearances 10, 100 and 500 um.
 *
 * 1. Force-penetration curves: F at delta = 0.1 ... 20 um of every law against an
 *    independent evaluation (validation/ref_cylinder_laws.py: the formulas written again
 *    in Python, the implicit ones solved by SciPy's brentq; relative 1e-11), and the load
 *    limit of each logarithmic law (the maximum of delta(F), found there numerically):
 *    the C law gives a force just below it and NaN just above. Beside them, Hertz's sphere
 *    law with the journal-bearing stiffness (the form clink used before these laws), as
 *    the ratio F_hertz / F_johnson: how far the point law is from the line-contact one.
 * 2. The slider-crank of models/slider_crank_clearance_frictionless.xml (clearance
 *    0.5 mm, 5000 rpm, 0.048 s) with each law (e = 0.9, L = 20 mm) beside the
 *    Lankarani-Nikravesh (Hertz) run: impacts, peak contact force, largest penetration,
 *    largest eccentricity (the orbit), peak slider acceleration; checked: the run
 *    completes, impacts happen, the energy balance residual stays below 1e-5 of the
 *    crank's kinetic energy scale, and the largest sampled eccentricity (every 10 us) is
 *    the clearance plus 80 to 100 % of the largest penetration of the impact records (the
 *    samples miss the peak of the shortest impacts by up to 10 %).
 *    The orbits go to <outdir>/cylinder_laws_orbit.csv (law, t, ex, ey, fn, slider ax).
 */
#include "vjson.h"

#include "clink/contact.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const laws[] = {
    "johnson-cylinder", "radzimovsky",           "goldsmith",
    "esdu-78035",       "dubowsky-freudenstein", "lankarani-flores-cylinder",
    "pereira",          "liu-zhang-wang",        "bai-zhao"};
enum { NLAWS = sizeof laws / sizeof laws[0] };
static const double clear_um[] = {10.0, 100.0, 500.0};
static const double delta_um[] = {0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0};

#define RB  10e-3
#define LEN 20e-3

static clink_contact_params journal(double c)
{
    clink_contact_params p;
    clink_contact_params_init(&p);
    p.E1 = p.E2 = 2.07e11;
    p.nu1 = p.nu2 = 0.29;
    p.R1 = RB - c;
    p.R2 = -RB;
    p.L = LEN;
    p.e = 0.9;
    return p;
}

/* the elastic force of law l at delta (onset at 1 m/s, delta_dot = 0) */
static double force(const clink_law *l, const clink_contact_params *p, double delta)
{
    clink_contact_state s;
    clink_contact_state_init(&s);
    if (clink_law_onset(l, p, 1.0, 1.0, &s) != CLINK_OK)
        return NAN;
    return clink_law_force(l, p, &s, delta, 0.0);
}

/* part 1 for one clearance: curves, limits and the Hertz ratio */
static void curves(vjson *v, const vref *ref, double c_um)
{
    clink_contact_params p = journal(c_um * 1e-6);
    char q[200], key[96];
    double K;

    clink_contact_stiffness_journal_bearing(p.E1, p.nu1, p.E2, p.nu2, p.R1, RB, &K);
    for (int i = 0; i < NLAWS; i++) {
        const clink_law *l = clink_law_find(laws[i]);
        snprintf(key, sizeof key, "%s.%g.limit", laws[i], c_um);
        double lim = vref_get(ref, key);
        for (size_t k = 0; k < sizeof delta_um / sizeof delta_um[0]; k++) {
            double d = delta_um[k] * 1e-6, F = force(l, &p, d);
            snprintf(key, sizeof key, "%s.%g.%g", laws[i], c_um, delta_um[k]);
            snprintf(q, sizeof q, "%s, c = %g um: F at delta = %g um", laws[i], c_um, delta_um[k]);
            if (isfinite(lim) && d >= lim)
                vjson_check(v, q, isnan(F), "1: NaN (past the load limit)", isnan(F), "-");
            else
                vjson_row_rel(v, q, F, vref_get(ref, key), 1e-11, "N");
        }
        if (!isfinite(lim))
            continue;
        snprintf(q, sizeof q, "%s, c = %g um: load limit delta (SciPy's maximum of delta(F))",
                 laws[i], c_um);
        vjson_info(v, q, lim, "m");
        double below = force(l, &p, lim * (1 - 1e-6)), above = force(l, &p, lim * (1 + 1e-6));
        snprintf(q, sizeof q, "%s, c = %g um: finite just below the limit, NaN just above", laws[i],
                 c_um);
        vjson_check(v, q, isfinite(below) && isnan(above), "1: finite, then NaN",
                    isfinite(below) && isnan(above), "-");
    }
    for (size_t k = 0; k < sizeof delta_um / sizeof delta_um[0]; k++) {
        double d = delta_um[k] * 1e-6, Fj = force(clink_law_find("johnson-cylinder"), &p, d);
        if (!isfinite(Fj))
            continue;
        snprintf(q, sizeof q, "c = %g um, delta = %g um: F_hertz (journal K) / F_johnson", c_um,
                 delta_um[k]);
        vjson_info(v, q, K * pow(d, 1.5) / Fj, "-");
    }
}

/* the slider-crank model with law `name` (e = 0.9, L = 20 mm) written to outdir; 0 or -1 */
static int write_model(const char *outdir, const char *name, char *path, size_t size)
{
    char src[1024], line[1024];
    snprintf(src, sizeof src, "%s/models/slider_crank_clearance_frictionless.xml",
             CLINK_SOURCE_DIR);
    snprintf(path, size, "%s/cylinder_laws_%s.xml", outdir, name);
    FILE *in = fopen(src, "r"), *out = fopen(path, "w");
    int found = 0;
    if (!in || !out) {
        fprintf(stderr, "%s or %s: cannot open\n", src, path);
        if (in)
            fclose(in);
        if (out)
            fclose(out);
        return -1;
    }
    while (fgets(line, sizeof line, in)) {
        char *at = strstr(line, "<law name=\"lankarani-nikravesh\" e=\"0.9\"/>");
        if (at && strcmp(name, "lankarani-nikravesh") != 0) {
            int L = strcmp(name, "bai-zhao") != 0 && strcmp(name, "lankarani-flores-cylinder") != 0;
            fprintf(out, "%.*s<law name=\"%s\" e=\"0.9\"%s/>\n", (int) (at - line), line, name,
                    L ? " L=\"0.02\"" : "");
            found = 1;
        } else {
            fputs(line, out);
        }
    }
    fclose(in);
    return fclose(out) == 0 && (found || strcmp(name, "lankarani-nikravesh") == 0) ? 0 : -1;
}

typedef struct sc_result {
    int impacts;
    double F_max, delta_max, e_max, acc_max, balance_max;
} sc_result;

/* one run of 0.048 s sampled every 10 us; 0, or -1 when it fails */
static int run_slider_crank(const char *outdir, const char *name, FILE *orbit, sc_result *r)
{
    char path[1200], err[512];
    const double T = 0.048, dt = 1e-5;
    clink_sim *s = NULL;
    if (write_model(outdir, name, path, sizeof path) != 0)
        return -1;
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m || clink_sim_create(m, NULL, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", name, err);
        clink_model_destroy(&m);
        return -1;
    }
    int slider = clink_model_find(m, CLINK_ENTITY_BODY, "slider"), rc = 0;
    memset(r, 0, sizeof *r);
    for (int i = 1; i <= (int) lround(T / dt) && rc == 0; i++) {
        clink_contact_info ci;
        clink_energy en;
        double a[3];
        if (clink_sim_advance(s, i * dt) != CLINK_OK || clink_sim_contact(s, 0, &ci) != CLINK_OK ||
            clink_sim_energy(s, &en) != CLINK_OK ||
            clink_sim_body_acceleration(s, slider, a) != CLINK_OK) {
            fprintf(stderr, "%s: %s\n", name, clink_sim_error(s));
            rc = -1;
            break;
        }
        double ecc = hypot(ci.eccentricity[0], ci.eccentricity[1]);
        r->e_max = fmax(r->e_max, ecc);
        r->F_max = fmax(r->F_max, ci.fn);
        r->acc_max = fmax(r->acc_max, fabs(a[0]));
        r->balance_max = fmax(r->balance_max, fabs(en.balance));
        if (orbit)
            fprintf(orbit, "%s,%.8g,%.9g,%.9g,%.9g,%.9g\n", name, i * dt, ci.eccentricity[0],
                    ci.eccentricity[1], ci.fn, a[0]);
    }
    r->impacts = clink_sim_impact_count(s);
    for (int i = 0; i < r->impacts; i++) {
        clink_impact_record ir;
        clink_sim_impact(s, i, &ir);
        r->delta_max = fmax(r->delta_max, ir.delta_max);
        r->F_max = fmax(r->F_max, ir.F_max);
    }
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
    return rc;
}

/* part 2: the slider-crank with each law beside Lankarani-Nikravesh's */
static int slider_cranks(vjson *v, const char *outdir)
{
    const double c = 0.5e-3, w = 523.598775598;
    const double E_scale = 0.5 * (1e-4 + 0.30 * 0.025 * 0.025) * w * w;
    char path[1100], q[200];
    snprintf(path, sizeof path, "%s/cylinder_laws_orbit.csv", outdir);
    FILE *orbit = fopen(path, "w");
    if (!orbit)
        return fprintf(stderr, "%s: cannot write\n", path), -1;
    fprintf(orbit, "law,t [s],ex [m],ey [m],fn [N],slider ax [m/s^2]\n");
    int failed = 0;
    for (int i = -1; i < NLAWS; i++) {
        const char *name = i < 0 ? "lankarani-nikravesh" : laws[i];
        sc_result r = {0, 0, 0, 0, 0, 0};
        int bad = run_slider_crank(outdir, name, orbit, &r) != 0;
        snprintf(q, sizeof q, "slider-crank, %s: run of 0.048 s completes with impacts", name);
        vjson_check(v, q, r.impacts, "> 0 impacts", !bad && r.impacts > 0, "-");
        failed |= bad;
        if (bad)
            continue;
        snprintf(q, sizeof q, "slider-crank, %s: max |energy balance| / (J_pivot w^2 / 2)", name);
        vjson_row(v, q, r.balance_max / E_scale, 0.0, 1e-5, "-");
        snprintf(q, sizeof q, "slider-crank, %s: largest eccentricity - clearance (sampled)", name);
        vjson_check(v, q, r.e_max - c, "in [0.8, 1] x the impacts' largest penetration",
                    r.e_max - c <= r.delta_max * (1 + 1e-9) && r.e_max - c >= 0.8 * r.delta_max,
                    "m");
        snprintf(q, sizeof q, "slider-crank, %s: impacts", name);
        vjson_info(v, q, r.impacts, "-");
        snprintf(q, sizeof q, "slider-crank, %s: peak contact force", name);
        vjson_info(v, q, r.F_max, "N");
        snprintf(q, sizeof q, "slider-crank, %s: largest penetration", name);
        vjson_info(v, q, r.delta_max, "m");
        snprintf(q, sizeof q, "slider-crank, %s: peak slider acceleration", name);
        vjson_info(v, q, r.acc_max, "m/s^2");
    }
    return fclose(orbit) != 0 || failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "cylinder_laws",
                          "Conformal cylinder laws (Pereira, Ramalho and Ambrosio 2011) against "
                          "an independent evaluation, and in the clearance slider-crank");
    if (!v)
        return 1;
    vref *ref = vref_run(outdir, "ref_cylinder_laws.py", "") == 0
                    ? vref_load(outdir, "cylinder_laws_ref.csv")
                    : NULL;
    if (!ref) {
        fprintf(stderr, "ref_cylinder_laws.py failed\n");
        vjson_close(v);
        return 1;
    }
    for (size_t i = 0; i < sizeof clear_um / sizeof clear_um[0]; i++)
        curves(v, ref, clear_um[i]);
    vref_free(ref);
    int rc = slider_cranks(v, outdir);
    return vjson_close(v) != 0 || rc != 0;
}
