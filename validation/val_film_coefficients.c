/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Validation: the linearised film of a short journal bearing (clink_film_coefficients_compute,
 * src/analysis/analysis_film.c) at three eccentricity ratios, 0.2, 0.5 and 0.8.
 *
 * The load is set from the short bearing's load-Sommerfeld-number relation written here,
 * (L / D)^2 S = (1 - eps^2)^2 / (pi eps sqrt(pi^2 (1 - eps^2) + 16 eps^2)),
 * S = mu N L D / W (R / c)^2 (Ocvirk; Pinkus and Sternlicht 1961); clink's steady position
 * must return eps (1e-10) and the attitude angle tan(phi) = pi sqrt(1 - eps^2) / (4 eps)
 * (1e-10 rad). Its eight dimensionless coefficients K c / W and C c omega / W, turned into the
 * frame (u, v) with the load along -v, against
 *   - the textbook closed forms (Friswell, Penny, Garvey and Lees 2010), relative 1e-12: both
 *     sides analytic, the slack only for rounding in the pressure integrals;
 *   - central differences of Ocvirk's closed-form force in NumPy with its own frame and steady
 *     position (validation/ref_film_coefficients.py, step 1e-6), relative 1e-8 (its truncation
 *     and rounding are ~1e-10).
 * Skipped (77) when NumPy is missing.
 */
#include "clink/analysis.h"
#include "clink/model.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>

static const double PI = 3.14159265358979323846;

/* S at eps from the load-Sommerfeld-number relation (the file comment) */
static double sommerfeld(const clink_film_bearing *b, double eps)
{
    double s = 1.0 - eps * eps, D = 2.0 * b->radius;
    double SLD = s * s / (PI * eps * sqrt(PI * PI * s + 16.0 * eps * eps));
    return SLD * (D / b->length) * (D / b->length);
}

/* W from S = mu N L D / W (R / c)^2 */
static double short_load(const clink_film_bearing *b, double eps)
{
    double D = 2.0 * b->radius, N = b->omega / (2.0 * PI), S = sommerfeld(b, eps);
    return b->viscosity * N * b->length * D * (b->radius / b->clearance) *
           (b->radius / b->clearance) / S;
}

static void one_eps(vjson *v, const vref *ref, double eps)
{
    clink_film_bearing b = {CLINK_LUBRICATION_SHORT, 0.02, 0.025, 0.01, 5e-5, 300.0, 0.0};
    clink_film_coefficients f;
    char q[128];
    b.load = short_load(&b, eps);
    clink_status st = clink_film_coefficients_compute(&b, &f);
    snprintf(q, sizeof q, "eps %g: status", eps);
    vjson_check(v, q, st, "CLINK_OK", st == CLINK_OK, "-");
    if (st != CLINK_OK)
        return;
    snprintf(q, sizeof q, "eps %g: steady eccentricity ratio", eps);
    vjson_row(v, q, f.eccentricity, eps, 1e-10, "-");
    snprintf(q, sizeof q, "eps %g: attitude angle", eps);
    vjson_row(v, q, f.attitude, atan2(PI * sqrt(1.0 - eps * eps), 4.0 * eps), 1e-10, "rad");
    snprintf(q, sizeof q, "eps %g: Sommerfeld number", eps);
    vjson_row_rel(v, q, f.sommerfeld, sommerfeld(&b, eps), 1e-9, "-");
    snprintf(q, sizeof q, "eps %g: bisection steps", eps);
    vjson_info(v, q, f.iterations, "-");
    /* (u, v) = (y, -x): K' = T K T^T, T = [0 1; -1 0] */
    const double *K = f.stiffness, *C = f.damping;
    double ku[4] = {K[3], -K[2], -K[1], K[0]}, cu[4] = {C[3], -C[2], -C[1], C[0]};
    const char *n[4] = {"uu", "uv", "vu", "vv"};
    double ks = b.clearance / b.load, cs = b.clearance * b.omega / b.load;
    for (int i = 0; i < 4; i++) {
        char key[64];
        snprintf(key, sizeof key, "cf.%g.k_%s", eps, n[i]);
        snprintf(q, sizeof q, "eps %g: k_%s closed form", eps, n[i]);
        vjson_row_rel(v, q, ku[i] * ks, vref_get(ref, key), 1e-12, "-");
        snprintf(key, sizeof key, "cf.%g.c_%s", eps, n[i]);
        snprintf(q, sizeof q, "eps %g: c_%s closed form", eps, n[i]);
        vjson_row_rel(v, q, cu[i] * cs, vref_get(ref, key), 1e-12, "-");
        snprintf(key, sizeof key, "fd.%g.k_%s", eps, n[i]);
        snprintf(q, sizeof q, "eps %g: k_%s NumPy differences", eps, n[i]);
        vjson_row_rel(v, q, ku[i] * ks, vref_get(ref, key), 1e-8, "-");
        snprintf(key, sizeof key, "fd.%g.c_%s", eps, n[i]);
        snprintf(q, sizeof q, "eps %g: c_%s NumPy differences", eps, n[i]);
        vjson_row_rel(v, q, cu[i] * cs, vref_get(ref, key), 1e-8, "-");
    }
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    if (vref_run(out, "ref_film_coefficients.py", "") != 0) {
        fprintf(stderr, "ref_film_coefficients.py failed (NumPy missing?): skipped\n");
        return 77;
    }
    vref *ref = vref_load(out, "film_coefficients_ref.csv");
    if (ref == NULL) {
        fprintf(stderr, "film_coefficients_ref.csv: not readable\n");
        return 1;
    }
    vjson *v = vjson_open(out, "film_coefficients",
                          "Short-bearing film stiffness and damping against closed forms");
    if (v == NULL) {
        vref_free(ref);
        return 1;
    }
    one_eps(v, ref, 0.2);
    one_eps(v, ref, 0.5);
    one_eps(v, ref, 0.8);
    vref_free(ref);
    return vjson_close(v);
}
