/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Validation: linearised modes (clink modes, src/analysis/analysis_modes.c) against the
 * transient. For each mode checked, the mechanism is released at rest from its equilibrium
 * displaced by 1e-5 times the mode's shape (largest component 1e-5 rad), integrated by the
 * simulation `clink run` uses (BDF, projection, rtol 1e-12), and the period of the free
 * oscillation is measured from the zero crossings of the displaced coordinate (cubic Hermite
 * interpolation of the output, whose rate and acceleration are known, and bisection) over 20
 * periods. With an amplitude of 1e-5 the nonlinear shift of the frequency is of order 1e-10,
 * so that the measured frequency must agree with the eigenvalue to 1e-6 relative.
 *
 * Cases: the double pendulum of val_analysis_closed_forms (its two modes, each released
 * alone), the slider-crank held by a spring (models/slider_crank_spring.xml).
 */
#include "clink/analysis.h"
#include "clink/sim.h"
#include "clink/xml.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the model of path (angles in radians) with every body at q and at rest, by overrides */
static clink_model *model_at(const char *path, const clink_model *names, const double *q, int nb)
{
    char sets[3 * 64][128], err[512];
    const char *ptr[3 * 64];
    int n = 0;
    clink_model *m = NULL;
    static const char *axis[3] = {"x", "y", "phi"};
    for (int b = 0; b < nb && n + 3 <= 3 * 64; b++)
        for (int k = 0; k < 3; k++) {
            /* the override of a body's attribute: body[NAME].ATTR=VALUE */
            snprintf(sets[n], sizeof sets[n], "body[%s].%s=%.17g",
                     clink_model_name(names, CLINK_ENTITY_BODY, b + 1), axis[k], q[3 * b + k]);
            ptr[n] = sets[n];
            n++;
        }
    if (clink_xml_load_with(path, ptr, n, NULL, &m, NULL, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return m;
}

/* the period of the free oscillation of coordinate c about qeq[c], from the model m */
static double transient_period(clink_model *m, int c, double qeq, double T0)
{
    clink_settings_def s = clink_model_settings(m);
    clink_sim *sim = NULL;
    char err[512];
    s.method = CLINK_METHOD_BDF;
    s.drift = CLINK_DRIFT_PROJECTION;
    s.rtol = 1e-12;
    s.atol = 1e-14;
    s.max_step = T0 / 200;
    if (clink_sim_create(m, &s, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return NAN;
    }
    double h = T0 / 40, tprev = 0.0, wprev = NAN, aprev = NAN, first = NAN, last = NAN;
    int crossings = 0;
    for (int i = 0; i <= 40 * 20 + 20; i++) {
        double t = i * h, qq[3], vv[3], acc[3];
        if (i > 0 && clink_sim_advance(sim, t) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            break;
        }
        clink_sim_body_state(sim, c / 3 + 1, qq, vv);
        clink_sim_body_acceleration(sim, c / 3 + 1, acc);
        double w = qq[c % 3] - qeq, a = vv[c % 3];
        if (i > 0 && (w > 0) != (wprev > 0)) {
            double tc = tprev + vhermite_root(wprev, aprev, w, a, t - tprev);
            if (crossings == 0)
                first = tc;
            last = tc;
            crossings++;
        }
        tprev = t;
        wprev = w;
        aprev = a;
        (void) acc;
    }
    clink_sim_destroy(&sim);
    /* crossings are half a period apart */
    return crossings > 2 ? 2.0 * (last - first) / (crossings - 1) : NAN;
}

/* the modes of path about its equilibrium, and each listed mode's transient */
static void check_model(vjson *v, const char *name, const char *path, int nmodes)
{
    clink_model *m = clink_model_load_xml(path, NULL, 0);
    clink_analysis *a = NULL;
    char err[512], q_name[256];
    clink_equilibrium_result r;
    if (m == NULL || clink_analysis_create(m, NULL, &a, err, sizeof err) != CLINK_OK ||
        clink_analysis_equilibrium(a, NULL, &r) != CLINK_OK ||
        clink_analysis_modes(a) != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", path, a != NULL ? clink_analysis_error(a) : "cannot load");
        vjson_check(v, name, NAN, "equilibrium and modes computed", 0, "-");
        clink_analysis_destroy(&a);
        clink_model_destroy(&m);
        return;
    }
    int nq = clink_analysis_coordinate_count(a), nb = nq / 3;
    double *q = malloc(sizeof *q * (size_t) nq * 3), *shape = q + nq, *q0 = shape + nq;
    clink_analysis_state(a, q, NULL);
    for (int i = 0; i < nmodes; i++) {
        clink_mode md;
        clink_analysis_mode(a, i, &md, shape);
        int c = 0;
        for (int k = 0; k < nq; k++)
            if (fabs(shape[k]) > fabs(shape[c]))
                c = k;
        for (int k = 0; k < nq; k++)
            q0[k] = q[k] + 1e-5 * shape[k];
        clink_model *mt = model_at(path, m, q0, nb);
        double T = mt != NULL ? transient_period(mt, c, q[c], 1.0 / md.frequency) : NAN;
        snprintf(q_name, sizeof q_name, "%s: mode %d frequency, transient vs modes", name, i + 1);
        vjson_row_rel(v, q_name, 1.0 / T, md.frequency, 1e-6, "Hz");
        clink_model_destroy(&mt);
    }
    free(q);
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(out, "analysis_transient",
                          "Linearised modes against the period of a small free oscillation");
    check_model(v, "slider-crank spring", CLINK_SOURCE_DIR "/models/slider_crank_spring.xml", 1);
    check_model(v, "double pendulum", CLINK_SOURCE_DIR "/models/double_pendulum.xml", 2);
    return vjson_close(v);
}
