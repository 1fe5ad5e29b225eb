/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * val_translational_clearance: the translational clearance joint of Flores, Ambrosio,
 * Claro and Lankarani (2008) on models/slider_crank_translational_clearance.xml (one
 * crank revolution at 5000 rpm, 0.012 s).
 *
 * 1. Energy balance with no dissipation: the law replaced by Hertz's (elastic, no
 *    damping), no friction; the residual T + V - W_drivers + U of clink_sim_energy over
 *    the run against 1e-6 of the largest kinetic energy (rtol 1e-9, atol 1e-12).
 * 2. Convergence to the ideal translational joint as the clearance tends to 0: slider
 *    position and crank torque against the closed-form ideal slider-crank (the same
 *    mechanism as val_slider_crank_ideal, Nikravesh 1988 ch. 8 kinematics and the power
 *    balance), largest errors over the revolution for c = 40, 20, 10 um (K raised so
 *    that the static penetration stays below the clearance); the measured rate
 *    log2(err(2c) / err(c)) must be positive for both (convergence) and is reported.
 * 3. The paper's qualitative findings as numbers: impacts on both guide surfaces; the
 *    tilt bounded by the clearance geometry, |tilt| <= asin((H + 2c + 2 delta_max) /
 *    sqrt(L^2 + H^2)) - atan(H / L) (opposite corners on opposite surfaces).
 * An independent reference of the first eight impacts (SciPy) is to be wired here as
 * validation/ref_slider_crank_translational.py (vref_run / vref_load).
 */
#include "clink/sim.h"
#include "clink/xml.h"
#include "slider_crank_model.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* the shipped model's text, its <law> and <friction> of the clearance joint replaced */
static char *model_text(const char *law, const char *clearance, int ideal)
{
    const char *path = CLINK_SOURCE_DIR "/models/slider_crank_translational_clearance.xml";
    FILE *f = fopen(path, "rb");
    char *src = NULL, *out = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (src = calloc((size_t) n + 1, 1)) && fread(src, 1, (size_t) n, f) == (size_t) n &&
        (out = calloc((size_t) n + 2048, 1))) {
        char *a = strstr(src, "<translational_clearance"),
             *b = strstr(src, "</translational_clearance>");
        if (a && b) {
            *a = '\0';
            b += strlen("</translational_clearance>");
            if (ideal)
                sprintf(out,
                        "%s<translational name=\"guide\" body1=\"ground\" point1=\"0 0\" "
                        "body2=\"slider\" point2=\"0 0\" axis=\"1 0\"/>%s",
                        src, b);
            else
                sprintf(out,
                        "%s<translational_clearance name=\"guide\" guide=\"ground\" "
                        "guide_point=\"0 0\" axis=\"1 0\" slider=\"slider\" slider_point=\"0 0\" "
                        "length=\"0.05\" height=\"0.04\" clearance=\"%s\" guide_length=\"0.3\">"
                        "%s</translational_clearance>%s",
                        src, clearance, law, b);
        } else {
            free(out);
            out = NULL;
        }
    }
    free(src);
    if (fclose(f) != 0) {
        free(out);
        out = NULL;
    }
    return out;
}

enum { NS = 1200 }; /* samples every 10 us over one revolution */

typedef struct run_result {
    double e_max, res_max; /* largest kinetic energy and |balance|, J */
    double x[NS], tq[NS];  /* slider position m, crank torque N m */
    double tilt_max, delta_max;
    int lower, upper; /* impacts on the lower and upper surface */
    int ok;
} run_result;

static void run(const char *text, run_result *rr)
{
    run_result r;
    memset(&r, 0, sizeof r);
    clink_model *m = NULL;
    clink_sim *sim = NULL;
    char err[512];
    if (!text ||
        clink_xml_load_memory(text, strlen(text), "val.xml", &m, NULL, err, sizeof err) !=
            CLINK_OK ||
        clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "val_translational_clearance: %s\n", err);
        clink_model_destroy(&m);
        *rr = r;
        return;
    }
    int el = clink_model_element_count(m) > 0 ? 0 : -1;
    r.ok = 1;
    for (int k = 1; k <= NS && r.ok; k++) {
        double t = 1e-5 * k, q[3], v[3], q0[3] = {0, 0, 0}, out[2], tq;
        clink_energy e;
        if (clink_sim_advance(sim, t) != CLINK_OK || clink_sim_energy(sim, &e) != CLINK_OK ||
            clink_sim_body_state(sim, 3, q, v) != CLINK_OK ||
            clink_sim_driver_force(sim, 0, &tq) != CLINK_OK) {
            r.ok = 0;
            break;
        }
        r.e_max = fmax(r.e_max, e.kinetic);
        r.res_max = fmax(r.res_max, fabs(e.balance));
        r.x[k - 1] = q[0];
        r.tq[k - 1] = tq;
        if (el >= 0 && clink_model_element_outputs(m, el, q0, q, out) == CLINK_OK)
            r.tilt_max = fmax(r.tilt_max, fabs(out[1]));
    }
    for (int i = 0; i < clink_sim_impact_count(sim); i++) {
        clink_impact_record rec;
        if (clink_sim_impact(sim, i, &rec) != CLINK_OK)
            continue;
        const char *n = clink_model_contact_name(m, rec.contact);
        r.lower += strstr(n, "lower") != NULL;
        r.upper += strstr(n, "upper") != NULL;
        r.delta_max = fmax(r.delta_max, rec.delta_max);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    *rr = r;
}

/* largest |a - b| over the samples */
static double maxdiff(const double *a, const double *b)
{
    double d = 0.0;
    for (int i = 0; i < NS; i++)
        d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

int main(int argc, char **argv)
{
    static run_result ideal, r, conv[3];
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "translational_clearance",
                          "Translational clearance joint (Flores, Ambrosio, Claro and Lankarani "
                          "2008): slider-crank at 5000 rpm");
    char *text;

    /* 1. energy balance, elastic law, no friction */
    text = model_text("<law name=\"hertz\" K=\"1e11\" n=\"1.5\"/>", "1e-4", 0);
    run(text, &r);
    free(text);
    vjson_check(v, "run without dissipation completes", r.ok, "the run reaches 0.012 s", r.ok, "-");
    vjson_row(v, "energy residual max |T+V-W+U| / max T", r.res_max / fmax(r.e_max, 1e-300), 0.0,
              1e-6, "-");
    /* 3. the paper's findings: impacts on both surfaces, the tilt within the geometry */
    vjson_check(v, "impacts on the lower surface", r.lower, ">= 1", r.lower >= 1, "-");
    vjson_check(v, "impacts on the upper surface", r.upper, ">= 1", r.upper >= 1, "-");
    double L = 0.05, H = 0.04, c = 1e-4;
    double bound = asin((H + 2.0 * c + 2.0 * r.delta_max) / hypot(L, H)) - atan(H / L);
    vjson_check(v, "largest |tilt| (rad) within the opposite-corner bound", r.tilt_max,
                "<= asin((H + 2c + 2 delta_max) / hypot(L, H)) - atan(H / L)",
                r.tilt_max <= bound && r.tilt_max > 0.0, "rad");
    vjson_info(v, "opposite-corner tilt bound", bound, "rad");

    /* 2. convergence to the ideal joint */
    text = model_text(NULL, NULL, 1);
    run(text, &ideal);
    free(text);
    vjson_check(v, "ideal run completes", ideal.ok, "the run reaches 0.012 s", ideal.ok, "-");
    static const char *const cs[3] = {"4e-5", "2e-5", "1e-5"};
    double ex[3], et[3];
    for (int i = 0; i < 3; i++) {
        text = model_text("<law name=\"lankarani-nikravesh\" K=\"1e12\" n=\"1.5\" e=\"0.9\"/>",
                          cs[i], 0);
        run(text, &conv[i]);
        free(text);
        ex[i] = maxdiff(conv[i].x, ideal.x);
        et[i] = maxdiff(conv[i].tq, ideal.tq);
        char q[96];
        snprintf(q, sizeof q, "c = %s m: max |x - x_ideal|", cs[i]);
        vjson_info(v, q, ex[i], "m");
        snprintf(q, sizeof q, "c = %s m: max |torque - torque_ideal|", cs[i]);
        vjson_info(v, q, et[i], "N m");
    }
    double rx = log2(ex[1] / ex[2]), rt = log2(et[0] / et[2]) / 2.0;
    vjson_check(v, "slider position: measured rate log2(err(2c)/err(c)), c = 10 um", rx, "> 0.5",
                conv[2].ok && rx > 0.5, "-");
    vjson_check(v, "crank torque: measured rate over 40 -> 10 um", rt, "> 0",
                conv[2].ok && rt > 0.0, "-");
    return vjson_close(v);
}
