/*
 * The effect of the contact bookkeeping (docs/contact-mechanics.md, "Bookkeeping") on the
 * slider-crank with a clearance joint and friction, 0.1 s at 5000 rpm:
 *   shipped     models/slider_crank_clearance.xml as shipped (friction 0.01, gravity),
 *   no gravity  the same with gravity set to zero (the case of the issue that asked for
 *               the literature's bookkeeping).
 * Each case runs twice side by side, with CLINK_BOOKKEEPING_EPISODES and
 * CLINK_BOOKKEEPING_HYSTERESIS, sampled every 1 us: impact records (those ending in
 * permanent contact, those with more than one lobe), penetration up-crossings at the
 * samples, time in contact (samples with delta > 0), peak |slider acceleration| at the
 * samples, contact events, steps, the first sample where a body's x or y differs between
 * the two runs by more than 1e-6 m, and the records with an onset between 8 and 10.5 ms.
 * Not a timing: the figures are deterministic. Writes OUTDIR/bookkeeping.json. Usage:
 *   bench_bookkeeping [OUTDIR]
 */
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_END  0.1
#define SAMPLE 1e-6

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
        if (rec.t_onset < 8e-3 || rec.t_onset > 10.5e-3)
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
static int run_case(const char *name, int no_gravity, FILE *json, int last)
{
    char err[512], path[1024];
    snprintf(path, sizeof path, "%s/models/slider_crank_clearance.xml", CLINK_SOURCE_DIR);
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
        if (json) {
            fprintf(json, "  \"%s\": {\n    \"positions_part_by_1e-6_m_at\": %.6g,\n", name,
                    t_diff);
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
    int rc = run_case("shipped", 0, json, 0) || run_case("no gravity", 1, json, 1);
    if (json) {
        fprintf(json, "}\n");
        fclose(json);
    }
    return rc ? 1 : 0;
}
