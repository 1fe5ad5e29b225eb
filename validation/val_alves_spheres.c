/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Alves et al. (2015) Sect. 4: direct central impact of two aluminium
 * spheres (R 20 mm, 0.092 kg each, +-0.15 m/s, so m_eff = 0.046 kg and an
 * approach speed of 0.3 m/s; K = 5.5e9 N/m^1.5, cr = 0.7) for every law of
 * Table 1 with a damping factor defined by cr (Anagnostopoulos is left out: its
 * spring is linear, K in N/m, and the example's K is Hertzian). Reported: the
 * post-impact relative velocity and the peak force of each law; checked: the
 * qualitative claims of Figs. 3-4 and the text (Hertz rebounds at -0.3 m/s; Lee-Wang
 * is the most elastic and Gharib-Hurmuzlu the most dissipative law; Herbert-
 * McWhannell, Gonthier, Zhiying-Qishao and Flores rebound "at -0.2 m/s", read here
 * as within 0.02 m/s, the resolution of the printed figure). Writes the loops
 * (alves_spheres_loops.csv) for the figures like Figs. 3-4.
 */
#include "vjson.h"

#include "clink/contact.h"
#include "clink/lab.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NL 11

typedef struct loop_ctx {
    FILE *f;
    const char *law;
} loop_ctx;

static void loop_sample(void *ctx, double t, double d, double dd, double F)
{
    loop_ctx *c = ctx;
    fprintf(c->f, "%s,%.17g,%.17g,%.17g,%.17g\n", c->law, t, d, dd, F);
}

int main(int argc, char **argv)
{
    const char *laws[NL] = {"hertz",
                            "hunt-crossley",
                            "herbert-mcwhannell",
                            "lee-wang",
                            "lankarani-nikravesh",
                            "gonthier",
                            "zhiying-qishao",
                            "flores",
                            "gharib-hurmuzlu",
                            "tsuji",
                            "jankowski"};
    const double m_eff = 0.092 * 0.092 / (0.092 + 0.092), v0 = 0.3;
    const char *outdir = argc > 1 ? argv[1] : ".";
    double vout[NL], Fmax[NL];
    clink_lab *lab = NULL;
    vjson *v;
    char q[160], path[1024];
    loop_ctx lc;
    int i, failed = 0, most_elastic = 0, most_diss = 0;

    v = vjson_open(outdir, "alves_spheres", "Alves et al. (2015) two aluminium spheres");
    if (v == NULL || clink_lab_create(&lab) != CLINK_OK)
        return 1;
    snprintf(path, sizeof path, "%s/alves_spheres_loops.csv", outdir);
    lc.f = fopen(path, "w");
    if (lc.f != NULL)
        fprintf(lc.f, "law,t [s],delta [m],delta_dot [m/s],F [N]\n");
    for (i = 0; i < NL; i++) {
        const clink_law *law = clink_law_find(laws[i]);
        clink_contact_params p;
        clink_lab_options o;
        clink_lab_result r;
        clink_contact_params_init(&p);
        p.K = 5.5e9;
        p.n = 1.5;
        p.e = 0.7;
        clink_lab_options_init(&o);
        if (lc.f != NULL) {
            lc.law = laws[i];
            o.sample = loop_sample;
            o.sample_ctx = &lc;
            o.samples_per_step = 2;
        }
        if (law == NULL || clink_lab_impact(lab, law, &p, m_eff, v0, &o, &r) != CLINK_OK) {
            fprintf(stderr, "%s: %s\n", laws[i], law ? clink_lab_error(lab) : "unknown");
            r.v_out = NAN;
            r.F_max = NAN;
            r.e_out = NAN;
            failed = 1;
        }
        vout[i] = r.v_out;
        Fmax[i] = r.F_max;
        snprintf(q, sizeof q, "v_out %s", laws[i]);
        vjson_info(v, q, r.v_out, "m/s");
        snprintf(q, sizeof q, "F_max %s", laws[i]);
        vjson_info(v, q, r.F_max, "N");
        snprintf(q, sizeof q, "e_out %s (target 0.7)", laws[i]);
        vjson_info(v, q, r.e_out, "-");
    }
    if (lc.f != NULL)
        fclose(lc.f);
    vjson_row(v, "v_out hertz (Fig. 4: -0.3 m/s)", vout[0], -0.3, 1e-9, "m/s");
    /* among the dissipative laws of Figs. 3-4 (indices 1..8) */
    for (i = 1; i <= 8; i++) {
        if (vout[i] < vout[most_elastic] || most_elastic == 0)
            most_elastic = i;
        if (vout[i] > vout[most_diss] || most_diss == 0)
            most_diss = i;
    }
    vjson_check(v, "most elastic law of Figs. 3-4 is lee-wang (largest |v_out|)",
                vout[most_elastic], "index of lee-wang",
                strcmp(laws[most_elastic], "lee-wang") == 0, "m/s");
    vjson_check(v, "most dissipative law of Figs. 3-4 is gharib-hurmuzlu (smallest |v_out|)",
                vout[most_diss], "index of gharib-hurmuzlu",
                strcmp(laws[most_diss], "gharib-hurmuzlu") == 0, "m/s");
    for (i = 0; i < NL; i++) {
        if (strcmp(laws[i], "herbert-mcwhannell") == 0 || strcmp(laws[i], "gonthier") == 0 ||
            strcmp(laws[i], "zhiying-qishao") == 0 || strcmp(laws[i], "flores") == 0) {
            snprintf(q, sizeof q, "v_out %s near -0.2 m/s (Fig. 4)", laws[i]);
            vjson_row(v, q, vout[i], -0.2, 0.02, "m/s");
        }
    }
    /* every dissipative law's peak force lies below the elastic (Hertz) one */
    for (i = 1; i < NL; i++) {
        snprintf(q, sizeof q, "F_max %s below Hertz", laws[i]);
        vjson_check(v, q, Fmax[i], "< F_max hertz", Fmax[i] < Fmax[0], "N");
    }
    clink_lab_destroy(&lab);
    return vjson_close(v) || failed;
}
