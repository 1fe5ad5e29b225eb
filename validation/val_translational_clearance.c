/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * val_translational_clearance: the translational clearance joint of Flores, Ambrosio,
 * Claro and Lankarani (2008) on models/slider_crank_translational_clearance.xml (the
 * mechanism of Flores, Leine and Glocker 2010, Table 1; 0.04 s, nearly one crank
 * revolution at 150 rad/s).
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
 * 4. The first eight impacts of the shipped model (friction mu = 0.01 included) against
 *    the independent SciPy reference validation/ref_slider_crank_translational.py
 *    (its own two coordinates, DOP853 at rtol 1e-10, its own event location): onset,
 *    approach speed, peak force, largest penetration, duration and the contact (corner
 *    and surface). The first two impacts are an exact tie (the slider, pinned at its
 *    centre of mass, cannot tilt before its first contact: corners 3 and 4 reach the
 *    upper surface at one instant); inside a tie the impacts are matched by contact.
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
                        "length=\"0.10\" height=\"0.05\" clearance=\"%s\" guide_length=\"0.6\">"
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

enum { NS = 4000 }; /* samples every 10 us over 0.04 s */

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

#define REF_T_END 0.0075 /* s: the first 8 impacts of the shipped model end by 0.00718 s */
#define REF_N     8
#define REF_TIE   1e-9 /* s: onsets this close are one simultaneous group */

/* the code 2 (corner - 1) + (1 if upper) of a contact named "..corner<k>_<lower|upper>" */
static int corner_code(const char *name)
{
    const char *c = name ? strstr(name, "corner") : NULL;
    if (!c || c[6] < '1' || c[6] > '4')
        return -1;
    return 2 * (c[6] - '1') + (strstr(c, "_upper") != NULL);
}

/* the clink impact matching reference impact i: clink's i-th, or within the group of
   reference impacts simultaneous with i (an exact tie, whose order is arbitrary in both)
   the one on the same contact */
static int match(const clink_sim *s, const clink_model *m, const vref *ref, int i, int n)
{
    char key[32];
    snprintf(key, sizeof key, "%d.t", i + 1);
    double t = vref_get(ref, key);
    snprintf(key, sizeof key, "%d.contact", i + 1);
    int code = (int) vref_get(ref, key), g0 = i, g1 = i + 1;
    for (;; g0--) {
        snprintf(key, sizeof key, "%d.t", g0);
        if (g0 == 0 || !(fabs(vref_get(ref, key) - t) <= REF_TIE))
            break;
    }
    for (;; g1++) {
        snprintf(key, sizeof key, "%d.t", g1 + 1);
        if (!(fabs(vref_get(ref, key) - t) <= REF_TIE))
            break;
    }
    for (int k = g0; k < g1 && k < n; k++) {
        clink_impact_record r;
        if (clink_sim_impact(s, k, &r) == CLINK_OK &&
            corner_code(clink_model_contact_name(m, r.contact)) == code)
            return k;
    }
    return i;
}

/* 4. the first REF_N impacts against validation/ref_slider_crank_translational.py */
static int reference_impacts(vjson *v, const char *outdir)
{
    char path[1024], err[512], q[160], key[32];
    snprintf(path, sizeof path, "%s/models/slider_crank_translational_clearance.xml",
             CLINK_SOURCE_DIR);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    clink_sim *s = NULL;
    if (!m || clink_sim_create(m, NULL, &s, err, sizeof err) != CLINK_OK ||
        clink_sim_advance(s, REF_T_END) != CLINK_OK) {
        fprintf(stderr, "val_translational_clearance: %s\n", s ? clink_sim_error(s) : err);
        clink_sim_destroy(&s);
        clink_model_destroy(&m);
        return 1;
    }
    char args[1400];
    snprintf(args, sizeof args,
             "--model '%s' --t-end %g --json translational_clearance_ref.json "
             "--csv translational_clearance_ref.csv --output-step 0",
             path, REF_T_END);
    vref *ref = vref_run(outdir, "ref_slider_crank_translational.py", args)
                    ? NULL
                    : vref_load(outdir, "translational_clearance_ref.csv");
    int n = clink_sim_impact_count(s), n_ref = ref ? (int) vref_get(ref, "n") : 0;
    vjson_check(v, "reference: impacts in [0, 0.0075] s, clink", n, "= the reference's", n == n_ref,
                "-");
    vjson_info(v, "reference: impacts in [0, 0.0075] s", n_ref, "-");
    static const char *const what[5] = {"onset time", "approach speed", "peak force",
                                        "largest penetration", "duration"};
    static const char *const keys[5] = {"t", "v", "F_max", "delta_max", "duration"};
    static const char *const units[5] = {"s", "m/s", "N", "m", "s"};
    /* onset 1e-9 s absolute; relative: speed, penetration and duration 1e-5, peak force
       1e-3 (clink's F_max is the largest force at its accepted steps, not located: a step h
       from the peak of an impact of duration T misses (pi h / T)^2 / 2 of it, and impact 6
       lasts only 18 us). Largest deviations measured: 4.8e-11 s, 4.0e-7, 9.8e-5, 1.3e-7
       and 4.5e-8. Without friction the first two peak forces would both be 2138.3 N (the
       tie symmetric), 0.4 % and 0.6 % off the references: the rows see the friction. */
    static const double tol[5] = {1e-9, 1e-5, 1e-3, 1e-5, 1e-5};
    for (int i = 0; i < REF_N; i++) {
        clink_impact_record r;
        memset(&r, 0, sizeof r);
        r.contact = -1;
        int k = ref ? match(s, m, ref, i, n) : i;
        int got = k < n && clink_sim_impact(s, k, &r) == CLINK_OK;
        const double val[5] = {r.t_onset, r.v_impact, r.F_max, r.delta_max, r.duration};
        for (int j = 0; j < 5; j++) {
            snprintf(key, sizeof key, "%d.%s", i + 1, keys[j]);
            snprintf(q, sizeof q, "impact %d %s, reference", i + 1, what[j]);
            double ref_val = got ? vref_get(ref, key) : NAN;
            if (j == 0)
                vjson_row(v, q, val[j], ref_val, tol[j], units[j]);
            else
                vjson_row_rel(v, q, val[j], ref_val, tol[j], units[j]);
        }
        snprintf(key, sizeof key, "%d.contact", i + 1);
        int code = got ? corner_code(clink_model_contact_name(m, r.contact)) : -1;
        int rcode = ref ? (int) vref_get(ref, key) : -2;
        char want[64];
        snprintf(want, sizeof want, "= %d (corner%d_%s)", rcode, rcode / 2 + 1,
                 rcode % 2 ? "upper" : "lower");
        snprintf(q, sizeof q, "impact %d contact 2 (corner - 1) + upper", i + 1);
        vjson_check(v, q, code, want, got && code == rcode, "-");
    }
    vref_free(ref);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
    return ref == NULL;
}

int main(int argc, char **argv)
{
    static run_result ideal, r, conv[3];
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "translational_clearance",
                          "Translational clearance joint (Flores, Ambrosio, Claro and Lankarani "
                          "2008): slider-crank of Flores, Leine and Glocker (2010)");
    char *text;

    /* 1. energy balance, elastic law, no friction */
    text = model_text("<law name=\"hertz\" K=\"1e11\" n=\"1.5\"/>", "1e-4", 0);
    run(text, &r);
    free(text);
    vjson_check(v, "run without dissipation completes", r.ok, "the run reaches 0.04 s", r.ok, "-");
    vjson_row(v, "energy residual max |T+V-W+U| / max T", r.res_max / fmax(r.e_max, 1e-300), 0.0,
              1e-6, "-");
    /* 3. the paper's findings: impacts on both surfaces, the tilt within the geometry */
    vjson_check(v, "impacts on the lower surface", r.lower, ">= 1", r.lower >= 1, "-");
    vjson_check(v, "impacts on the upper surface", r.upper, ">= 1", r.upper >= 1, "-");
    double L = 0.10, H = 0.05, c = 1e-4;
    double bound = asin((H + 2.0 * c + 2.0 * r.delta_max) / hypot(L, H)) - atan(H / L);
    vjson_check(v, "largest |tilt| (rad) within the opposite-corner bound", r.tilt_max,
                "<= asin((H + 2c + 2 delta_max) / hypot(L, H)) - atan(H / L)",
                r.tilt_max <= bound && r.tilt_max > 0.0, "rad");
    vjson_info(v, "opposite-corner tilt bound", bound, "rad");

    /* 2. convergence to the ideal joint */
    text = model_text(NULL, NULL, 1);
    run(text, &ideal);
    free(text);
    vjson_check(v, "ideal run completes", ideal.ok, "the run reaches 0.04 s", ideal.ok, "-");
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
    int failed = reference_impacts(v, outdir);
    return vjson_close(v) || failed;
}
