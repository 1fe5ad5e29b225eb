/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The effect of the contact bookkeeping (docs/contact-mechanics.md, "Bookkeeping") on the
 * slider-crank with a clearance joint, 0.1 s at 5000 rpm:
 *   shipped     models/slider_crank_clearance.xml as shipped (friction 0.01, gravity),
 *   no gravity  the same with gravity set to zero (the case in which the literature's
 *               trajectory was found to be left at 10.48 ms under the hysteresis rule),
 *   frictionless, no gravity  models/slider_crank_clearance_frictionless.xml without
 *               gravity (the literature's case of bench_clearance_slider_crank).
 * Each case runs twice side by side, with CLINK_BOOKKEEPING_EPISODES and
 * CLINK_BOOKKEEPING_HYSTERESIS, sampled every 1 us: impact records (those ending in
 * permanent contact, those with more than one lobe), penetration up-crossings at the
 * samples, time in contact (samples with delta > 0), peak |slider acceleration| at the
 * samples, contact events, steps, the first sample where a body's x or y differs between
 * the two runs by more than 1e-6 m, and the records with an onset between 1.70 and 1.73 ms
 * or between 8 and 10.5 ms.
 * Against the SciPy implementation of the same equations (bench/scipy_slider_crank.py,
 * which books every penetration up-crossing as a new impact damped for its own approach
 * speed, at the model's rtol and atol): the number of leading impact onsets of each mode's
 * records that agree with SciPy's within 1 us (skipped when SciPy cannot run).
 * Not a timing: the figures are deterministic. Writes OUTDIR/bookkeeping.json. Usage:
 *   bench_bookkeeping [OUTDIR]
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE (popen) */

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T_END  0.1
#define SAMPLE 1e-6
#define MAXIMP 1024

typedef struct run {
    clink_sim *sim;
    double t_contact, a_peak, t_peak, last_delta;
    long upx;
} run;

typedef struct summary {
    int records, permanent, multi, lobes_max;
    long upx, events, steps;
    double t_contact, a_peak, t_peak;
} summary;

/* the model file's text, with gravity set to zero when asked; NULL on failure */
static char *model_text(const char *path, int no_gravity)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = calloc(1, 1 << 16);
    size_t n = s ? fread(s, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    if (!s || n == 0) {
        free(s);
        return NULL;
    }
    char *g = strstr(s, "<gravity g=\"0 -9.81\"/>");
    if (no_gravity && g)
        memcpy(g, "<gravity g=\"0 0    \"/>", strlen("<gravity g=\"0 -9.81\"/>"));
    return s;
}

static int start(run *r, const clink_model *m, clink_contact_bookkeeping mode)
{
    clink_settings_def s = clink_model_settings(m);
    char err[256];
    s.contact_bookkeeping = mode;
    s.t_end = T_END;
    memset(r, 0, sizeof *r);
    r->last_delta = -1.0;
    if (clink_sim_create(m, &s, &r->sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "create: %s\n", err);
        return -1;
    }
    return 0;
}

/* advances to t, adds the sample's statistics and the bodies' positions into q */
static int sample(run *r, double t, int slider, double *q)
{
    clink_contact_info ci;
    double v[3], a[3];
    if (clink_sim_advance(r->sim, t) != CLINK_OK) {
        fprintf(stderr, "advance: %s\n", clink_sim_error(r->sim));
        return -1;
    }
    clink_sim_contact(r->sim, 0, &ci);
    if (ci.delta > 0.0)
        r->t_contact += SAMPLE;
    if (ci.delta > 0.0 && !(r->last_delta > 0.0))
        r->upx++;
    r->last_delta = ci.delta;
    clink_sim_body_acceleration(r->sim, slider, a);
    if (fabs(a[0]) > r->a_peak) {
        r->a_peak = fabs(a[0]);
        r->t_peak = t;
    }
    for (int b = 1; b <= 3; b++)
        clink_sim_body_state(r->sim, b, q + 3 * (b - 1), v);
    return 0;
}

/*
 * The impact onsets of the SciPy implementation (bench/scipy_slider_crank.py) of the model
 * at path with its settings s, into onset (at most MAXIMP); their number, or -1 when SciPy
 * cannot run.
 */
static int scipy_onsets(const char *path, int no_gravity, const clink_settings_def *s,
                        double *onset)
{
    char cmd[4096];
    const char *py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    snprintf(cmd, sizeof cmd,
             "%s '%s/bench/scipy_slider_crank.py' '%s' --t-end %.17g --rtol %.17g --atol %.17g "
             "--alpha %.17g "
             "--beta %.17g%s",
             py, CLINK_SOURCE_DIR, path, T_END, s->rtol, s->atol,
             s->drift == CLINK_DRIFT_BAUMGARTE ? s->baumgarte_alpha : 5.0,
             s->drift == CLINK_DRIFT_BAUMGARTE ? s->baumgarte_beta : 5.0,
             no_gravity ? " --no-gravity" : "");
    FILE *pipe = popen(cmd, "r");
    if (!pipe)
        return -1;
    static char line[1 << 16];
    int ok = fgets(line, sizeof line, pipe) != NULL;
    if (pclose(pipe) != 0 || !ok)
        return -1;
    const char *p = strstr(line, "\"onsets\": [");
    if (!p)
        return -1;
    p += strlen("\"onsets\": [");
    int n = 0;
    char *end;
    while (n < MAXIMP) {
        double x = strtod(p, &end);
        if (end == p)
            break;
        onset[n++] = x;
        p = end;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return n;
}

/* leading records of r whose onsets agree with onset[0 .. n - 1] within 1 us */
static int leading_agree(const run *r, const double *onset, int n)
{
    int a = 0;
    clink_impact_record rec;
    while (a < n && clink_sim_impact(r->sim, a, &rec) == CLINK_OK &&
           fabs(rec.t_onset - onset[a]) <= 1e-6)
        a++;
    return a;
}

static void summarise(const run *r, summary *s)
{
    clink_sim_stats st;
    memset(s, 0, sizeof *s);
    s->records = clink_sim_impact_count(r->sim);
    for (int i = 0; i < s->records; i++) {
        clink_impact_record rec;
        clink_sim_impact(r->sim, i, &rec);
        s->permanent += rec.persistent != 0;
        s->multi += rec.lobes > 1;
        s->lobes_max = rec.lobes > s->lobes_max ? rec.lobes : s->lobes_max;
    }
    clink_sim_stats_get(r->sim, &st);
    s->events = st.contact_events;
    s->steps = st.steps;
    s->upx = r->upx;
    s->t_contact = r->t_contact;
    s->a_peak = r->a_peak;
    s->t_peak = r->t_peak;
}

static void print_records(const char *mode, const run *r)
{
    for (int i = 0; i < clink_sim_impact_count(r->sim); i++) {
        clink_impact_record rec;
        clink_sim_impact(r->sim, i, &rec);
        int window = (rec.t_onset > 1.7e-3 && rec.t_onset < 1.73e-3) ||
                     (rec.t_onset > 8e-3 && rec.t_onset < 10.5e-3);
        if (!window)
            continue;
        printf("    %-10s onset %.6f ms  v_impact %.4f m/s  v_sep %.4f m/s  duration %.1f us  "
               "delta_max %.4g m  F_max %.0f N  lobes %d%s\n",
               mode, 1e3 * rec.t_onset, rec.v_impact, rec.v_separation, 1e6 * rec.duration,
               rec.delta_max, rec.F_max, rec.lobes, rec.persistent ? "  (permanent)" : "");
    }
}

static void json_summary(FILE *f, const char *name, const summary *s, int last)
{
    fprintf(f,
            "    \"%s\": {\"records\": %d, \"ending_permanent\": %d, \"with_lobes\": %d, "
            "\"lobes_max\": %d, \"sampled_onsets\": %ld, \"time_in_contact\": %.6g, "
            "\"peak_slider_acceleration\": %.6g, \"at\": %.6g, \"contact_events\": %ld, "
            "\"steps\": %ld}%s\n",
            name, s->records, s->permanent, s->multi, s->lobes_max, s->upx, s->t_contact, s->a_peak,
            s->t_peak, s->events, s->steps, last ? "" : ",");
}

/* one case: both bookkeepings side by side; 0 or -1 */
static int run_case(const char *name, const char *file, int no_gravity, FILE *json, int last)
{
    char err[512], path[1024];
    snprintf(path, sizeof path, "%s/models/%s", CLINK_SOURCE_DIR, file);
    char *text = model_text(path, no_gravity);
    clink_model *m = NULL;
    if (!text || clink_xml_load_memory(text, strlen(text), "slider_crank_clearance.xml", &m, NULL,
                                       err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s: %s\n", path, text ? err : "cannot read");
        free(text);
        return -1;
    }
    free(text);
    int slider = clink_model_find(m, CLINK_ENTITY_BODY, "slider");
    run ep, hy;
    if (start(&ep, m, CLINK_BOOKKEEPING_EPISODES) || start(&hy, m, CLINK_BOOKKEEPING_HYSTERESIS)) {
        clink_model_destroy(&m);
        return -1;
    }
    double t_diff = NAN, qe[9], qh[9];
    long ns = (long) floor(T_END / SAMPLE + 0.5);
    int rc = 0;
    for (long k = 1; k <= ns && rc == 0; k++) {
        double t = (double) k * SAMPLE;
        rc = sample(&ep, t, slider, qe) || sample(&hy, t, slider, qh) ? -1 : 0;
        for (int i = 0; i < 9 && isnan(t_diff) && rc == 0; i++)
            if (i % 3 != 2 && fabs(qe[i] - qh[i]) > 1e-6)
                t_diff = t;
    }
    if (rc == 0) {
        summary se, sh;
        summarise(&ep, &se);
        summarise(&hy, &sh);
        printf("%s: positions part by 1e-6 m at %.6g ms\n", name, 1e3 * t_diff);
        const summary *s[2] = {&se, &sh};
        for (int i = 0; i < 2; i++)
            printf("  %-10s %3d records (%d ending permanent, %d with lobes, at most %d), %ld "
                   "sampled onsets, in contact %.4f s, peak |a_slider| %.4g m/s^2 at %.4f ms, "
                   "%ld events, %ld steps\n",
                   i ? "hysteresis" : "episodes", s[i]->records, s[i]->permanent, s[i]->multi,
                   s[i]->lobes_max, s[i]->upx, s[i]->t_contact, s[i]->a_peak, 1e3 * s[i]->t_peak,
                   s[i]->events, s[i]->steps);
        print_records("episodes", &ep);
        print_records("hysteresis", &hy);
        static double onset[MAXIMP];
        clink_settings_def set = clink_model_settings(m);
        int ns_py = scipy_onsets(path, no_gravity, &set, onset);
        int agree_ep = ns_py >= 0 ? leading_agree(&ep, onset, ns_py) : -1;
        int agree_hy = ns_py >= 0 ? leading_agree(&hy, onset, ns_py) : -1;
        if (ns_py >= 0)
            printf("  SciPy: %d onsets; leading onsets within 1 us: episodes %d, hysteresis %d\n",
                   ns_py, agree_ep, agree_hy);
        else
            printf("  SciPy could not run: no onset comparison\n");
        if (json) {
            fprintf(json, "  \"%s\": {\n    \"positions_part_by_1e-6_m_at\": %.6g,\n", name,
                    t_diff);
            fprintf(json,
                    "    \"scipy_onsets\": %d, \"onsets_agree_1us_episodes\": %d, "
                    "\"onsets_agree_1us_hysteresis\": %d,\n",
                    ns_py, agree_ep, agree_hy);
            json_summary(json, "episodes", &se, 0);
            json_summary(json, "hysteresis", &sh, 1);
            fprintf(json, "  }%s\n", last ? "" : ",");
        }
    }
    clink_sim_destroy(&ep.sim);
    clink_sim_destroy(&hy.sim);
    clink_model_destroy(&m);
    return rc;
}

int main(int argc, char **argv)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/bookkeeping.json", argc > 1 ? argv[1] : ".");
    FILE *json = fopen(path, "w");
    if (!json)
        perror(path);
    else
        fprintf(json, "{\n");
    int rc =
        run_case("shipped", "slider_crank_clearance.xml", 0, json, 0) ||
        run_case("no gravity", "slider_crank_clearance.xml", 1, json, 0) ||
        run_case("frictionless, no gravity", "slider_crank_clearance_frictionless.xml", 1, json, 1);
    if (json) {
        fprintf(json, "}\n");
        fclose(json);
    }
    return rc ? 1 : 0;
}
