/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Validation: equilibrium and linearisation of a four-bar with a diagonal spring-damper
 * (models/four_bar_spring.xml), after the linearisation problem of the IFToMM multibody
 * benchmark library. The benchmark's published equilibrium and eigenvalues could not be read,
 * so the model has its own dimensions and the reference is an independent derivation in the
 * minimal coordinate (the crank angle) with NumPy/SciPy, validation/ref_four_bar_spring.py:
 * loop closure by circle intersection, velocity coefficients of the loop, V'(th) = 0 by
 * brentq, K = V'', M(th) and C(th) = c_d (dl/dth)^2, lambda = (-C + sqrt(C^2 - 4 M K)) / (2 M).
 * clink solves the same problem in body coordinates (Newton on the constrained equations from
 * a start at 60 degrees, which lies next to an unstable equilibrium: the fallback's
 * relaxation reaches the stable one) and linearises on the null space of Phi_q.
 * Skipped (77) when SciPy is missing.
 */
#include "clink/analysis.h"
#include "clink/xml.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    if (vref_run(out, "ref_four_bar_spring.py", "") != 0) {
        fprintf(stderr, "ref_four_bar_spring.py failed (NumPy/SciPy missing?): skipped\n");
        return 77;
    }
    vref *ref = vref_load(out, "four_bar_spring_ref.csv");
    vjson *v = vjson_open(out, "analysis_four_bar_spring",
                          "Four-bar with a diagonal spring-damper: equilibrium and eigenvalue "
                          "against an independent minimal-coordinate derivation");
    clink_model *m = clink_model_load_xml(CLINK_SOURCE_DIR "/models/four_bar_spring.xml", NULL, 0);
    clink_analysis *a = NULL;
    clink_equilibrium_result r;
    clink_mode md = {NAN, NAN, NAN, NAN, NAN, 0, 0};
    double q[9] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    char err[512];
    if (m == NULL || clink_analysis_create(m, NULL, &a, err, sizeof err) != CLINK_OK ||
        clink_analysis_equilibrium(a, NULL, &r) != CLINK_OK ||
        clink_analysis_modes(a) != CLINK_OK || clink_analysis_mode(a, 0, &md, NULL) != CLINK_OK)
        fprintf(stderr, "%s\n", a != NULL ? clink_analysis_error(a) : "cannot load the model");
    else
        clink_analysis_state(a, q, NULL);
    double two_pi = 2.0 * 3.14159265358979323846;
    vjson_row(v, "equilibrium crank angle", remainder(q[2], two_pi),
              remainder(vref_get(ref, "theta"), two_pi), 1e-10, "rad");
    vjson_row(v, "equilibrium coupler angle", q[5], vref_get(ref, "theta3"), 1e-10, "rad");
    vjson_row(v, "equilibrium rocker angle", q[8], vref_get(ref, "theta4"), 1e-10, "rad");
    vjson_row_rel(v, "eigenvalue real part", md.re, vref_get(ref, "lambda_re"), 1e-7, "1/s");
    vjson_row_rel(v, "eigenvalue imaginary part", md.im, vref_get(ref, "lambda_im"), 1e-8, "1/s");
    vjson_check(v, "stable", r.stable, "reduced stiffness positive definite", r.stable == 1, "-");
    vjson_info(v, "Newton iterations", r.iterations, "-");
    vjson_info(v, "dynamic relaxation steps (from the unstable equilibrium near the start)",
               r.fallback_steps, "-");
    vjson_info(v, "residual", r.residual, "N");
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
    vref_free(ref);
    return vjson_close(v);
}
