/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: one impact with event location, Feng's power-law Tsuji oscillator
 * (Feng 2026, Eq. 1) at p = 1.5, m = 1 kg, K = 1e6 N/m^1.5, v0 = 1 m/s, alpha from
 * Eq. 14 for each target restitution e = 0.3, 0.4, ..., 0.9, against SciPy's
 * solve_ivp(DOP853, events) on the same equation (bench/scipy_impact.py, found
 * next to this file through __FILE__), at matched accuracy: for each e and each
 * code, the loosest relative tolerance of the same ladder (1e-13 ... 1e-6) such
 * that it and every tighter one give |e_out - e| <= 1e-8, e being exact by Eq. 14. Then five
 * interleaved rounds (clink, SciPy, clink, ...) of timing; the medians per e and their ratio are
 * printed and written to OUTDIR/impact.json with the accuracy each code reached and the step
 * statistics (target: SciPy / clink >= 100).
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/contact.h"
#include "clink/feng.h"
#include "clink/lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NE = 7, ROUNDS = 5, BATCH = 2000 };

static const double ladder[] = {1e-6,  3e-7,  1e-7,  3e-8,  1e-8,  3e-9, 1e-9,
                                3e-10, 1e-10, 3e-11, 1e-11, 1e-12, 1e-13};

/* successive values of "key": in text, from *pos on; NAN if absent */
static double json_next(const char *text, const char *key, const char **pos)
{
    char pat[64];
    const char *s;
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    s = strstr(*pos != NULL ? *pos : text, pat);
    if (s == NULL)
        return NAN;
    *pos = s + strlen(pat);
    return strtod(*pos, NULL);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* runs the SciPy script with args; reads its one-line JSON into line */
static int run_scipy(const char *dir, const char *args, char *line, size_t size)
{
    char cmd[4096];
    const char *py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    FILE *pipe;
    int ok;

    snprintf(cmd, sizeof cmd, "%s '%s/scipy_impact.py' %s", py, dir, args);
    pipe = popen(cmd, "r");
    if (pipe == NULL)
        return 0;
    ok = fgets(line, (int) size, pipe) != NULL;
    return pclose(pipe) == 0 && ok;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const double p = 1.5, m = 1.0, K = 1e6, v0 = 1.0, accuracy = 1e-8;
    const double es[NE] = {0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
    const clink_law *law = clink_law_find("power-law-tsuji");
    clink_contact_params prm[NE];
    clink_lab_options o[NE];
    clink_lab_result r[NE];
    clink_lab *lab = NULL;
    double rtol_c[NE], rtol_py[NE], err_c[NE], err_py[NE], nfev_py[NE];
    double t_c[NE][ROUNDS], t_py[NE][ROUNDS], med_c[NE], med_py[NE];
    static char line[16384];
    char dir[1024], args[2048], *slash, path[1100];
    const char *pos;
    size_t i, k;
    int round, j, n;
    FILE *out;

    if (law == NULL || clink_lab_create(&lab) != CLINK_OK)
        return 1;
    snprintf(dir, sizeof dir, "%s", __FILE__);
    slash = strrchr(dir, '/');
    if (slash != NULL)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");

    /* matched accuracy: the loosest rtol of the ladder that reaches it, per e */
    for (i = 0; i < NE; i++) {
        clink_contact_params_init(&prm[i]);
        prm[i].K = K;
        prm[i].n = p;
        prm[i].e = es[i];
        clink_lab_options_init(&o[i]);
        rtol_c[i] = NAN;
        for (k = sizeof ladder / sizeof ladder[0]; k-- > 0;) {
            o[i].rtol = ladder[k];
            if (clink_lab_impact(lab, law, &prm[i], m, v0, &o[i], &r[i]) != CLINK_OK) {
                fprintf(stderr, "bench_impact: %s\n", clink_lab_error(lab));
                return 1;
            }
            if (fabs(r[i].e_out - es[i]) > accuracy)
                break;
            rtol_c[i] = ladder[k];
            err_c[i] = fabs(r[i].e_out - es[i]);
        }
        if (isnan(rtol_c[i]))
            return 1;
    }
    n = snprintf(args, sizeof args, "--find --accuracy %g --es ", accuracy);
    for (i = 0; i < NE; i++)
        n += snprintf(args + n, sizeof args - (size_t) n, "%s%g", i ? "," : "", es[i]);
    if (!run_scipy(dir, args, line, sizeof line)) {
        fprintf(stderr, "bench_impact: the SciPy script failed (python3-scipy installed?)\n");
        return 1;
    }
    pos = NULL;
    for (i = 0; i < NE; i++)
        rtol_py[i] = json_next(line, "rtol", &pos);

    /* interleaved rounds */
    n = snprintf(args, sizeof args, "--reps 5 --es ");
    for (i = 0; i < NE; i++)
        n += snprintf(args + n, sizeof args - (size_t) n, "%s%g", i ? "," : "", es[i]);
    n += snprintf(args + n, sizeof args - (size_t) n, " --rtols ");
    for (i = 0; i < NE; i++)
        n += snprintf(args + n, sizeof args - (size_t) n, "%s%.17g", i ? "," : "", rtol_py[i]);
    for (round = 0; round < ROUNDS; round++) {
        for (i = 0; i < NE; i++) {
            double b0 = bench_now();
            o[i].rtol = rtol_c[i];
            for (j = 0; j < BATCH; j++)
                if (clink_lab_impact(lab, law, &prm[i], m, v0, &o[i], &r[i]) != CLINK_OK)
                    return 1;
            t_c[i][round] = (bench_now() - b0) / BATCH;
        }
        if (!run_scipy(dir, args, line, sizeof line))
            return 1;
        pos = NULL;
        for (i = 0; i < NE; i++) {
            t_py[i][round] = json_next(line, "seconds", &pos);
            err_py[i] = json_next(line, "e_error", &pos);
            nfev_py[i] = json_next(line, "nfev", &pos);
        }
    }
    clink_lab_destroy(&lab);

    snprintf(path, sizeof path, "%s/impact.json", outdir);
    out = fopen(path, "w");
    if (out == NULL)
        return 1;
    fprintf(out,
            "{\n  \"case\": \"Feng p=1.5 m=1 K=1e6 v0=1, |e_out - e| <= 1e-8, medians of %d "
            "interleaved rounds\",\n  \"cases\": [\n",
            ROUNDS);
    printf("Feng p = 1.5, matched accuracy |e_out - e| <= %g; medians of %d interleaved rounds\n",
           accuracy, ROUNDS);
    printf("   e | clink rtol  us/impact  |e err|   steps rhs | SciPy rtol  us/impact  |e err|  "
           "nfev | ratio\n");
    for (i = 0; i < NE; i++) {
        qsort(t_c[i], ROUNDS, sizeof(double), cmp_double);
        qsort(t_py[i], ROUNDS, sizeof(double), cmp_double);
        med_c[i] = t_c[i][ROUNDS / 2];
        med_py[i] = t_py[i][ROUNDS / 2];
        printf(" %.1f | %8.0e %9.2f  %8.1e %5ld %4ld | %8.0e %9.1f  %8.1e %5.0f | %5.0f\n", es[i],
               rtol_c[i], 1e6 * med_c[i], err_c[i], r[i].n_steps, r[i].n_rhs, rtol_py[i],
               1e6 * med_py[i], err_py[i], nfev_py[i], med_py[i] / med_c[i]);
        fprintf(
            out,
            "    {\"e\": %.2f, \"clink_rtol\": %.17g, \"clink_seconds\": %.6e, \"clink_e_error\": "
            "%.3e, \"clink_steps\": %ld, \"clink_rhs\": %ld, \"clink_rejected\": %ld, "
            "\"scipy_rtol\": %.17g, \"scipy_seconds\": %.6e, \"scipy_e_error\": %.3e, "
            "\"scipy_nfev\": %g, \"ratio\": %.1f}%s\n",
            es[i], rtol_c[i], med_c[i], err_c[i], r[i].n_steps, r[i].n_rhs, r[i].n_err_fails,
            rtol_py[i], med_py[i], err_py[i], nfev_py[i], med_py[i] / med_c[i],
            i + 1 < NE ? "," : "");
    }
    fprintf(out, "  ],\n  \"target_ratio\": 100\n}\n");
    fclose(out);
    for (i = 0; i < NE; i++)
        if (!isfinite(med_py[i]))
            return 1;
    return 0;
}
