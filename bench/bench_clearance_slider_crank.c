/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: the slider-crank with a revolute clearance joint against a SciPy
 * implementation of the same equations (bench/scipy_slider_crank.py), 0.1 s at
 * 5000 rpm, two cases:
 *   literature  models/slider_crank_clearance_frictionless.xml with gravity set
 *               to zero (the frictionless, gravity-free case of the clearance
 *               literature),
 *   shipped     models/slider_crank_clearance.xml as shipped (friction 0.01,
 *               gravity).
 * clink runs each model with its own <settings>, stopping at every output step
 * as `clink run` does; SciPy runs solve_ivp (LSODA, the model's rtol and atol,
 * Baumgarte with clink's alpha = beta = 5 1/s because solve_ivp cannot project)
 * with output at the end only, restarting at each impact onset; clink also
 * runs with output at the end only, for the ratio at equal output. The runs
 * alternate (clink, clink at the end, SciPy, ...), REPS of each; the medians of CPU time
 * (the machine is shared: wall time is printed too) give the ratio SciPy /
 * clink. Accuracy: the number of leading impact onsets of clink and SciPy that
 * agree within 1 us. Also printed: clink's steps, right-hand sides (and those
 * of the finite-difference Jacobian), contact events and impacts.
 * Both codes run at the model's rtol, not at matched accuracy: the ratio at matched
 * accuracy, each code's tolerance chosen by the robust rule, is bench/slider_crank_defaults.py's.
 * Writes OUTDIR/clearance_slider_crank.json. Usage:
 *   bench_clearance_slider_crank [OUTDIR [REPS]]
 *   bench_clearance_slider_crank --once MODEL.xml
 * --once: one library call (clink_sim_create, clink_sim_advance to the model's
 * t_end, the model's own settings, auto included) and one line of JSON: its CPU
 * time, the settings used (rtol, atol printed with %.17g) and the impact onsets
 * (bench/slider_crank_defaults.py times the library call with it).
 * (SciPy: Debian's /usr/bin/python3 with python3-scipy, else python3 in PATH).
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define T_END  0.1
#define MAXIMP 1024

typedef struct result {
    double cpu, wall;
    int nimp;
    double onset[MAXIMP];
    long steps, rhs, rhs_fd, events;
} result;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* the model file's text, with the gravity element replaced by "0 0" when no_gravity */
static char *model_text(const char *path, int no_gravity, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 16);
    size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    if (!buf || n == 0) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (no_gravity) {
        char *g = strstr(buf, "<gravity g=\"");
        char *end = g ? strstr(g, "/>") : NULL;
        if (!g || !end) {
            free(buf);
            return NULL;
        }
        const char *repl = "<gravity g=\"0 0\"";
        size_t head = (size_t) (g - buf), rl = strlen(repl);
        memmove(buf + head + rl, end, strlen(end) + 1);
        memcpy(buf + head, repl, rl);
        n = strlen(buf);
    }
    *len = n;
    return buf;
}

static int run_clink(const clink_model *m, int at_end, result *r)
{
    char err[512];
    clink_sim *sim = NULL;
    clink_settings_def s = clink_model_settings(m);
    if (clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "bench_clearance_slider_crank: %s\n", err);
        return 1;
    }
    double w0 = bench_now(), c0 = cpu_now();
    int nout = at_end ? 1 : (int) lround(T_END / s.output_step);
    for (int i = 1; i <= nout; i++)
        if (clink_sim_advance(sim, T_END * i / nout) != CLINK_OK) {
            fprintf(stderr, "bench_clearance_slider_crank: %s\n", clink_sim_error(sim));
            clink_sim_destroy(&sim);
            return 1;
        }
    r->cpu = cpu_now() - c0;
    r->wall = bench_now() - w0;
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    r->steps = st.steps;
    r->rhs = st.rhs_evals;
    r->rhs_fd = st.rhs_evals_jac;
    r->events = st.contact_events;
    r->nimp = clink_sim_impact_count(sim);
    if (r->nimp > MAXIMP)
        r->nimp = MAXIMP;
    for (int i = 0; i < r->nimp; i++) {
        clink_impact_record rec;
        clink_sim_impact(sim, i, &rec);
        r->onset[i] = rec.t_onset;
    }
    clink_sim_destroy(&sim);
    return 0;
}

static double json_number(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(line, pat);
    return p ? strtod(p + strlen(pat), NULL) : NAN;
}

static int run_scipy(const char *model, int no_gravity, const clink_settings_def *s, result *r)
{
    char dir[1024], cmd[4096];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    const char *py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    snprintf(
        cmd, sizeof cmd,
        "%s '%s/scipy_slider_crank.py' '%s' --t-end %.17g --rtol %.17g --atol %.17g --alpha %.17g "
        "--beta %.17g%s",
        py, dir, model, T_END, s->rtol, s->atol,
        s->drift == CLINK_DRIFT_BAUMGARTE ? s->baumgarte_alpha : 5.0,
        s->drift == CLINK_DRIFT_BAUMGARTE ? s->baumgarte_beta : 5.0,
        no_gravity ? " --no-gravity" : "");
    FILE *pipe = popen(cmd, "r");
    if (!pipe) {
        fprintf(stderr, "bench_clearance_slider_crank: cannot run %s\n", cmd);
        return 1;
    }
    static char line[1 << 16];
    int ok = fgets(line, sizeof line, pipe) != NULL;
    if (pclose(pipe) != 0 || !ok) {
        fprintf(stderr, "bench_clearance_slider_crank: %s failed\n", cmd);
        return 1;
    }
    r->cpu = json_number(line, "cpu_s");
    r->wall = json_number(line, "wall_s");
    r->rhs = (long) json_number(line, "rhs");
    r->nimp = 0;
    const char *p = strstr(line, "\"onsets\": [");
    if (p) {
        p += strlen("\"onsets\": [");
        char *end;
        while (r->nimp < MAXIMP) {
            double x = strtod(p, &end);
            if (end == p)
                break;
            r->onset[r->nimp++] = x;
            p = end;
            while (*p == ',' || *p == ' ')
                p++;
        }
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* --once: the library call on MODEL as a user makes it, one JSON line on stdout */
static int run_once(const char *path)
{
    char err[512];
    clink_model *m = NULL;
    clink_sim *sim = NULL;
    if (clink_xml_load(path, &m, NULL, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "bench_clearance_slider_crank: %s\n", err);
        return 1;
    }
    double t_end = clink_model_settings(m).t_end;
    double c0 = cpu_now();
    if (clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK ||
        clink_sim_advance(sim, t_end) != CLINK_OK) {
        fprintf(stderr, "bench_clearance_slider_crank: %s\n", sim ? clink_sim_error(sim) : err);
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
        return 1;
    }
    double cpu = cpu_now() - c0;
    clink_settings_def s = clink_sim_settings(sim);
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    printf("{\"cpu_s\": %.17g, \"method\": \"%s\", \"drift\": \"%s\", \"rtol\": %.17g, "
           "\"atol\": %.17g, \"steps\": %ld, \"rhs\": %ld, \"onsets\": [",
           cpu, clink_method_name(s.method),
           s.drift == CLINK_DRIFT_PROJECTION  ? "projection"
           : s.drift == CLINK_DRIFT_BAUMGARTE ? "baumgarte"
                                              : "none",
           s.rtol, s.atol, (long) st.steps, (long) st.rhs_evals);
    int n = clink_sim_impact_count(sim);
    for (int i = 0; i < n; i++) {
        clink_impact_record rec;
        clink_sim_impact(sim, i, &rec);
        printf("%s%.17g", i ? ", " : "", rec.t_onset);
    }
    printf("]}\n");
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--once") == 0)
        return run_once(argv[2]);
    const char *outdir = argc > 1 ? argv[1] : ".";
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (reps < 1 || reps > 99)
        reps = 3;
    const struct {
        const char *tag, *file;
        int no_gravity;
    } cases[2] = {{"literature (frictionless, no gravity)",
                   CLINK_SOURCE_DIR "/models/slider_crank_clearance_frictionless.xml", 1},
                  {"shipped (friction 0.01, gravity)",
                   CLINK_SOURCE_DIR "/models/slider_crank_clearance.xml", 0}};
    char path[1024];
    snprintf(path, sizeof path, "%s/clearance_slider_crank.json", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_clearance_slider_crank: cannot write %s\n", path);
        return 1;
    }
    fprintf(f,
            "{\"case\": \"slider-crank with a clearance joint, %g s at 5000 rpm, clink "
            "against SciPy\",\n \"runs\": [\n",
            T_END);
    for (int k = 0; k < 2; k++) {
        size_t len = 0;
        char err[512];
        char *text = model_text(cases[k].file, cases[k].no_gravity, &len);
        clink_model *m = NULL;
        if (!text || clink_xml_load_memory(text, len, cases[k].file, &m, NULL, err, sizeof err) !=
                         CLINK_OK) {
            fprintf(stderr, "bench_clearance_slider_crank: %s: %s\n", cases[k].file,
                    text ? err : "cannot read");
            free(text);
            return 1;
        }
        free(text);
        clink_settings_def s = clink_model_settings(m);
        double cc[99], cw[99], ce[99], sc[99], sw[99];
        result rc, re, rs;
        for (int i = 0; i < reps; i++) {
            if (run_clink(m, 0, &rc) != 0 || run_clink(m, 1, &re) != 0 ||
                run_scipy(cases[k].file, cases[k].no_gravity, &s, &rs))
                return 1;
            cc[i] = rc.cpu;
            cw[i] = rc.wall;
            ce[i] = re.cpu;
            sc[i] = rs.cpu;
            sw[i] = rs.wall;
        }
        qsort(ce, (size_t) reps, sizeof(double), cmp_double);
        qsort(cc, (size_t) reps, sizeof(double), cmp_double);
        qsort(cw, (size_t) reps, sizeof(double), cmp_double);
        qsort(sc, (size_t) reps, sizeof(double), cmp_double);
        qsort(sw, (size_t) reps, sizeof(double), cmp_double);
        int agree = 0;
        while (agree < rc.nimp && agree < rs.nimp &&
               fabs(rc.onset[agree] - rs.onset[agree]) <= 1e-6)
            agree++;
        double ratio = sc[reps / 2] / cc[reps / 2];
        const char *meth = clink_method_name(s.method);
        const char *drift = s.drift == CLINK_DRIFT_PROJECTION  ? "projection"
                            : s.drift == CLINK_DRIFT_BAUMGARTE ? "baumgarte"
                                                               : "none";
        printf("%s: clink %s+%s rtol %g atol %g, output every %g s: %.3f s CPU (%.3f s wall), "
               "%ld steps, %ld rhs (+%ld FD Jacobian), %ld events, %d impacts\n",
               cases[k].tag, meth, drift, s.rtol, s.atol, s.output_step, cc[reps / 2], cw[reps / 2],
               rc.steps, rc.rhs, rc.rhs_fd, rc.events, rc.nimp);
        printf(
            "  SciPy LSODA + Baumgarte, output at the end: %.3f s CPU (%.3f s wall), %ld rhs, %d "
            "impacts\n",
            sc[reps / 2], sw[reps / 2], rs.rhs, rs.nimp);
        printf("  clink with output at the end only: %.3f s CPU, %ld steps, %d impacts\n",
               ce[reps / 2], re.steps, re.nimp);
        printf("  ratio SciPy / clink (median CPU of %d alternating runs): %.1f as shipped, %.1f "
               "both with output at the end; leading impact onsets agreeing within 1 us: %d\n",
               reps, ratio, sc[reps / 2] / ce[reps / 2], agree);
        fprintf(f,
                "%s  {\"case\": \"%s\", \"clink_settings\": \"%s+%s rtol %.17g atol %.17g\", "
                "\"clink_cpu_s\": %.5g, \"clink_wall_s\": %.5g, \"clink_cpu_s_output_at_end\": "
                "%.5g, \"scipy_cpu_s\": %.5g, \"scipy_wall_s\": %.5g, \"ratio\": %.3g, "
                "\"ratio_output_at_end\": %.3g, \"steps\": %ld, \"rhs_evals\": %ld, "
                "\"rhs_evals_fd_jacobian\": %ld, \"contact_events\": %ld, \"impacts\": %d, "
                "\"scipy_rhs\": %ld, \"scipy_impacts\": %d, \"onsets_agree_1us\": %d, "
                "\"reps\": %d}",
                k ? ",\n" : "", cases[k].tag, meth, drift, s.rtol, s.atol, cc[reps / 2],
                cw[reps / 2], ce[reps / 2], sc[reps / 2], sw[reps / 2], ratio,
                sc[reps / 2] / ce[reps / 2], rc.steps, rc.rhs, rc.rhs_fd, rc.events, rc.nimp,
                rs.rhs, rs.nimp, agree, reps);
        clink_model_destroy(&m);
    }
    fprintf(f, "\n]}\n");
    fclose(f);
    return 0;
}
