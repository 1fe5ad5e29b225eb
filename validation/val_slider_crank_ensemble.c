/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ensemble view of the chaotic clearance slider-crank
 * (models/slider_crank_clearance_frictionless.xml, 0.1 s at 5000 rpm with gravity).
 *
 * After about 12 ms two runs that differ by rounding no longer follow the same
 * trajectory (docs/contact-mechanics.md), so over 0.1 s one trajectory cannot be
 * compared with another; distributions can. Both clink and the independent
 * implementation (validation/ref_slider_crank.py: the rod angle and the slider
 * position as coordinates, SciPy DOP853, every penetration up-crossing a new
 * impact with its own approach speed, run by this program) integrate an
 * ensemble: the slider's initial position moved by P = 1e-10, 3e-10 and 1e-9 m,
 * each at two tolerances (clink: the model's rtol 1e-9, atol 1e-12, and rtol
 * 1e-10, atol 1e-13; the reference: rtol 1e-9 and 1e-10, atol 1e-3 rtol). Per run:
 * the impacts (penetration up-crossings: clink's impact records), the time in
 * contact (clink: the sum of its impacts' durations; the reference: exact), the
 * time in contact counted on samples every 1e-5 s (both the same way, so that
 * it does not depend on how impacts are recorded) and the peak |slider
 * acceleration| on those samples, over the run (set by the first, deterministic
 * impacts) and from 0.05 s on (in the chaotic regime). Both models: frictionless
 * and with friction (mu 0.01).
 *
 * Checked: for each quantity the ranges [min, max] of clink's six runs and of
 * the reference's six runs overlap. Information: the ranges themselves, and
 * their widths, which measure the spread that chaos alone produces.
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NP   3
#define NTOL 2
#define NRUN (NP * NTOL)
#define NQ   5 /* quantities compared */
/* the sum of clink's impact durations is the time in contact when every contact
   episode is one impact record (CLINK_BOOKKEEPING_EPISODES, the default): checked */
#define CHECK_DURATIONS 1
#define T_END           0.1
#define DT              1e-5
#define LATE            0.05 /* s: start of the window of the late peak acceleration */
#define NMODEL          2
#define SLIDER          "x=\"0.17\""

static const char *const models[NMODEL] = {"slider_crank_clearance_frictionless",
                                           "slider_crank_clearance"};
static const char *const labels[NMODEL] = {"frictionless", "friction 0.01"};
static const double perturbations[NP] = {1e-10, 3e-10, 1e-9};
static const double rtols[NTOL] = {1e-9, 1e-10}, atols[NTOL] = {1e-12, 1e-13};

typedef struct stats {
    double impacts, contact_time, sampled_contact, peak_acc, peak_late;
} stats;

/* the model file's text, or NULL */
static char *read_model(const char *model, size_t *size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, model);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 16);
    *size = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[*size] = '\0';
    return buf;
}

/* one clink run with the slider moved by p at tolerance index k; 0 on success */
static int run(const char *model, const char *text, double p, int k, stats *st)
{
    char err[512], x[64];
    /* the slider's x attribute, the only one equal to 0.17 */
    const char *at = strstr(text, SLIDER);
    if (!at || strstr(at + 1, SLIDER)) {
        fprintf(stderr, "%s: one %s expected\n", model, SLIDER);
        return 1;
    }
    snprintf(x, sizeof x, "x=\"%.17g\"", 0.17 + p);
    size_t pre = (size_t) (at - text), n = strlen(text) + strlen(x) + 1;
    char *buf = malloc(n);
    if (!buf)
        return 1;
    snprintf(buf, n, "%.*s%s%s", (int) pre, text, x, at + strlen(SLIDER));
    clink_model *m = NULL;
    clink_sim *s = NULL;
    clink_status rc = clink_xml_load_memory(buf, strlen(buf), model, &m, NULL, err, sizeof err);
    free(buf);
    clink_settings_def set = m ? clink_model_settings(m) : clink_default_settings_def();
    set.rtol = rtols[k];
    set.atol = atols[k];
    if (rc != CLINK_OK || clink_sim_create(m, &set, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(&m);
        return 1;
    }
    int slider = clink_model_find(m, CLINK_ENTITY_BODY, "slider");
    st->peak_acc = st->sampled_contact = st->peak_late = 0.0;
    int nt = (int) lround(T_END / DT), failed = slider < 0;
    for (int i = 1; i <= nt && !failed; i++) {
        double a[3];
        clink_contact_info ci;
        if (clink_sim_advance(s, i * DT) != CLINK_OK ||
            clink_sim_body_acceleration(s, slider, a) != CLINK_OK ||
            clink_sim_contact(s, 0, &ci) != CLINK_OK) {
            fprintf(stderr, "%s: %s\n", model, clink_sim_error(s));
            failed = 1;
            break;
        }
        st->peak_acc = fmax(st->peak_acc, fabs(a[0]));
        if (i * DT >= LATE - 1e-12)
            st->peak_late = fmax(st->peak_late, fabs(a[0]));
        if (ci.delta > 0.0)
            st->sampled_contact += DT;
    }
    int ni = clink_sim_impact_count(s);
    st->impacts = ni;
    st->contact_time = 0.0;
    for (int i = 0; i < ni; i++) {
        clink_impact_record r;
        clink_sim_impact(s, i, &r);
        st->contact_time += r.duration;
    }
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
    return failed;
}

static void range(const double *x, int n, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        *lo = fmin(*lo, x[i]);
        *hi = fmax(*hi, x[i]);
    }
}

/* the ensembles of one model in clink and in the reference, and their rows; 0 on success */
static int ensemble(vjson *v, const char *outdir, const char *model, const char *label)
{
    char q[200], args[1200], crit[160];
    size_t size = 0;
    char *text = read_model(model, &size);
    if (!text) {
        fprintf(stderr, "%s: cannot read the model\n", model);
        return 1;
    }
    double c[NQ][NRUN], r[NQ][NRUN];
    for (int k = 0; k < NTOL; k++)
        for (int j = 0; j < NP; j++) {
            stats st;
            if (run(model, text, perturbations[j], k, &st) != 0) {
                free(text);
                return 1;
            }
            c[0][k * NP + j] = st.impacts;
            c[1][k * NP + j] = st.contact_time;
            c[2][k * NP + j] = st.peak_acc;
            c[3][k * NP + j] = st.sampled_contact;
            c[4][k * NP + j] = st.peak_late;
        }
    free(text);
    snprintf(args, sizeof args,
             "ensemble '%s/models/%s.xml' %s --t-end %g --rtols 1e-9,1e-10 "
             "--perturbations 1e-10,3e-10,1e-9",
             CLINK_SOURCE_DIR, model, model, T_END);
    if (vref_run(outdir, "ref_slider_crank.py", args) != 0)
        return 1;
    snprintf(q, sizeof q, "%s_ensemble_ref.csv", model);
    vref *ref = vref_load(outdir, q);
    if (!ref || (int) vref_get(ref, "runs") != NRUN) {
        fprintf(stderr, "%s: the reference's ensemble is missing or incomplete\n", model);
        vref_free(ref);
        return 1;
    }
    static const char *const keys[NQ] = {"impacts", "contact_time", "peak_acc",
                                         "sampled_contact_time", "peak_acc_late"};
    static const char *const what[NQ] = {"impacts (penetration up-crossings)",
                                         "time in contact (impact durations)",
                                         "peak |slider acceleration| (samples every 1e-5 s)",
                                         "time in contact (samples every 1e-5 s with delta > 0)",
                                         "peak |slider acceleration| from 0.05 s (chaotic)"};
    static const char *const units[NQ] = {"-", "s", "m/s^2", "s", "m/s^2"};
    for (int i = 0; i < NRUN; i++)
        for (int j = 0; j < NQ; j++) {
            char key[64];
            snprintf(key, sizeof key, "%d.%s", i, keys[j]);
            r[j][i] = vref_get(ref, key);
        }
    vref_free(ref);
    for (int j = 0; j < NQ; j++) {
        double clo, chi, rlo, rhi;
        range(c[j], NRUN, &clo, &chi);
        range(r[j], NRUN, &rlo, &rhi);
        snprintf(q, sizeof q, "%s, %s: clink's range, lowest", label, what[j]);
        vjson_info(v, q, clo, units[j]);
        snprintf(q, sizeof q, "%s, %s: clink's range, highest", label, what[j]);
        vjson_info(v, q, chi, units[j]);
        snprintf(q, sizeof q, "%s, %s: reference's range, lowest", label, what[j]);
        vjson_info(v, q, rlo, units[j]);
        snprintf(q, sizeof q, "%s, %s: reference's range, highest", label, what[j]);
        vjson_info(v, q, rhi, units[j]);
        double overlap = fmin(chi, rhi) - fmax(clo, rlo);
        snprintf(q, sizeof q, "%s, %s: overlap of the two ranges", label, what[j]);
        snprintf(crit, sizeof crit, ">= 0 (clink [%.6g, %.6g], reference [%.6g, %.6g])", clo, chi,
                 rlo, rhi);
        if (j == 1 && !CHECK_DURATIONS)
            vjson_info(v, q, overlap, units[j]);
        else
            vjson_check(v, q, overlap, crit, overlap >= 0.0, units[j]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "slider_crank_ensemble",
                          "Clearance slider-crank over 0.1 s: ensembles of clink and of an "
                          "independent implementation");
    if (!v)
        return 1;
    for (int i = 0; i < NMODEL; i++)
        if (ensemble(v, outdir, models[i], labels[i]) != 0)
            return 1;
    return vjson_close(v);
}
