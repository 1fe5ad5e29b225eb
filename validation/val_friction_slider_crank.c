/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The slider-crank with a revolute clearance joint (models/slider_crank_clearance.xml,
 * modified Coulomb friction mu = 0.01) beside the same mechanism with Stribeck friction
 * (mu = 0.01, mu_s = 0.02, v_s = 0.01 m/s, v1 = 1e-3 m/s; written to
 * OUTDIR/slider_crank_clearance_stribeck.xml), each against the independent SciPy
 * reference of validation/ref_slider_crank.py (two degrees of freedom, Lagrange's
 * equations, the same friction law written anew), over the first 0.02 s: the onset time,
 * approach speed, peak force, largest penetration and duration of the first 8 impacts
 * (the orbit of the journal in the bearing as its impacts; tolerances those of
 * val_slider_crank_clearance.c: 1e-7 s, 1e-4, 2e-3, 1e-4, 1e-4 relative), and clink's
 * energy balance T + V - W_d + U + D + R (the friction work R booked) over 0.048 s
 * within 1e-6 of the crank's kinetic energy scale. The friction work and the first peak
 * forces of both laws are reported side by side.
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NFULL   8
#define T_FIRST 0.02

static const char *COULOMB = "<friction type=\"coulomb\" mu=\"0.01\" v0=\"1e-4\" v1=\"1e-3\"/>";
static const char *STRIBECK = "<friction type=\"stribeck\" mu=\"0.01\" mu_s=\"0.02\" v_s=\"0.01\" "
                              "v1=\"1e-3\"/>";

/* writes the shipped model with the Stribeck friction into path; 0 or -1 */
static int write_stribeck(const char *path)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/models/slider_crank_clearance.xml", CLINK_SOURCE_DIR);
    FILE *f = fopen(src, "rb");
    if (!f)
        return -1;
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *at = strstr(text, COULOMB);
    FILE *o = at ? fopen(path, "wb") : NULL;
    if (!o)
        return -1;
    int rc = fwrite(text, 1, (size_t) (at - text), o) != (size_t) (at - text) ||
             fputs(STRIBECK, o) < 0 || fputs(at + strlen(COULOMB), o) < 0;
    return fclose(o) != 0 || rc ? -1 : 0;
}

/* clink's first impacts, energy balance and friction work for the model at path, against
   the reference; 0 or 1 on failure */
static int compare(vjson *v, const char *outdir, const char *path, const char *lab, double *fmax1,
                   double *wf)
{
    char err[512], args[1400], file[200], q[200], key[64];
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    clink_sim *s = NULL;
    if (!m || clink_sim_create(m, NULL, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(&m);
        return 1;
    }
    snprintf(args, sizeof args, "impacts '%s' %s --t-end %g", path, lab, T_FIRST);
    snprintf(file, sizeof file, "%s_ref.csv", lab);
    vref *ref = NULL;
    int rc = clink_sim_advance(s, T_FIRST) != CLINK_OK;
    if (!rc && vref_run(outdir, "ref_slider_crank.py", args) == 0)
        ref = vref_load(outdir, file);
    if (!ref) {
        fprintf(stderr, "%s: %s\n", lab, rc ? clink_sim_error(s) : "no reference");
        clink_sim_destroy(&s);
        clink_model_destroy(&m);
        return 1;
    }
    static const char *const what[5] = {"onset time", "approach speed", "peak force",
                                        "largest penetration", "duration"};
    static const char *const keys[5] = {"t", "v", "F_max", "delta_max", "duration"};
    static const char *const units[5] = {"s", "m/s", "N", "m", "s"};
    static const double tol[5] = {1e-7, 1e-4, 2e-3, 1e-4, 1e-4};
    int n = clink_sim_impact_count(s);
    for (int i = 0; i < n && i < NFULL; i++) {
        clink_impact_record r;
        clink_sim_impact(s, i, &r);
        if (i == 0)
            *fmax1 = r.F_max;
        const double val[5] = {r.t_onset, r.v_impact, r.F_max, r.delta_max, r.duration};
        for (int j = 0; j < 5; j++) {
            snprintf(key, sizeof key, "%d.%s", i + 1, keys[j]);
            snprintf(q, sizeof q, "%s: impact %d %s, reference", lab, i + 1, what[j]);
            if (j == 0)
                vjson_row(v, q, val[j], vref_get(ref, key), tol[j], units[j]);
            else
                vjson_row_rel(v, q, val[j], vref_get(ref, key), tol[j], units[j]);
        }
    }
    snprintf(q, sizeof q, "%s: impacts in %g s (clink, reference)", lab, T_FIRST);
    vjson_check(v, q, n, "at least 8 each", n >= NFULL && vref_get(ref, "n") >= NFULL, "-");
    /* the energy balance over the shipped span */
    const double w = 523.598775598, E_scale = 0.5 * (1e-4 + 0.30 * 0.025 * 0.025) * w * w;
    double worst = 0.0;
    clink_energy e;
    for (int i = 1; i <= 280 && !rc; i++) {
        rc = clink_sim_advance(s, T_FIRST + i * 1e-4) != CLINK_OK;
        clink_sim_energy(s, &e);
        worst = fmax(worst, fabs(e.balance) / E_scale);
    }
    snprintf(q, sizeof q, "%s: energy balance with the friction work booked, / crank energy", lab);
    vjson_row(v, q, worst, 0.0, 1e-6, "-");
    *wf = e.contact_friction;
    vref_free(ref);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
    return rc;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    char path[1024], shipped[1024];
    snprintf(path, sizeof path, "%s/slider_crank_clearance_stribeck.xml", outdir);
    snprintf(shipped, sizeof shipped, "%s/models/slider_crank_clearance.xml", CLINK_SOURCE_DIR);
    if (write_stribeck(path) != 0) {
        fprintf(stderr, "%s: cannot write the Stribeck model\n", path);
        return 1;
    }
    vjson *v = vjson_open(outdir, "friction_slider_crank",
                          "Clearance slider-crank: Stribeck beside Coulomb friction, each "
                          "against the SciPy reference");
    if (!v)
        return 1;
    double f[2] = {NAN, NAN}, wf[2] = {NAN, NAN};
    int failed = compare(v, outdir, shipped, "coulomb", &f[0], &wf[0]);
    failed |= compare(v, outdir, path, "stribeck", &f[1], &wf[1]);
    vjson_info(v, "coulomb: peak force of impact 1", f[0], "N");
    vjson_info(v, "stribeck: peak force of impact 1", f[1], "N");
    vjson_info(v, "coulomb: friction work at 0.048 s", wf[0], "J");
    vjson_info(v, "stribeck: friction work at 0.048 s", wf[1], "J");
    vjson_check(v, "every run completed", failed ? 0 : 1, "no failure", !failed, "-");
    return vjson_close(v);
}
