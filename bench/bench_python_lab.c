/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: the cost of calling the single-impact laboratory from Python. One
 * impact, the two-sphere case of Alves et al. (2015) (hunt-crossley, m = 0.046 kg,
 * v = 0.3 m/s, K = 5.5e9 N/m^1.5, e = 0.7, Dormand-Prince 8), timed per impact
 * over batches of BATCH impacts: in C as `clink impact` does it in process
 * (law lookup, parameters, options, workspace created, impact, workspace
 * released: src/cli/cmd_impact.c without parsing and printing), and through the
 * Python package (clink.impact, bench/python_lab.py, a fresh interpreter per
 * round whose start-up is outside its timing). ROUNDS interleaved rounds (C,
 * Python, C, ...); the medians and their ratio Python / C are printed and
 * written to OUTDIR/python_lab.json (target: ratio <= 1.10). Both must give the
 * same restitution, bit for bit. The Python side finds the package in
 * CLINK_SOURCE_DIR/python and the shared library next to this program's
 * directory (build/libclink.so), unless CLINK_LIBRARY says otherwise.
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/contact.h"
#include "clink/lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ROUNDS = 7, BATCH = 2000, WARM = 200 };

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* one impact as `clink impact` runs it; the achieved restitution, NaN on failure */
static double c_impact(void)
{
    const clink_law *law = clink_law_find("hunt-crossley");
    clink_contact_params p;
    clink_lab_options o;
    clink_lab_result r;
    clink_lab *lab = NULL;
    double e = NAN;

    clink_contact_params_init(&p);
    clink_contact_params_set(&p, "K", 5.5e9);
    clink_contact_params_set(&p, "e", 0.7);
    clink_lab_options_init(&o);
    if (law != NULL && clink_lab_create(&lab) == CLINK_OK &&
        clink_lab_impact(lab, law, &p, 0.046, 0.3, &o, &r) == CLINK_OK)
        e = r.e_out;
    clink_lab_destroy(&lab);
    return e;
}

/* seconds per impact of one C batch; the last restitution into *e */
static double c_batch(double *e)
{
    double t0;
    int i;

    for (i = 0; i < WARM; i++)
        *e = c_impact();
    t0 = bench_now();
    for (i = 0; i < BATCH; i++)
        *e = c_impact();
    return (bench_now() - t0) / BATCH;
}

/* seconds per impact of one Python batch (its JSON line parsed); the restitution's hex
   into e_hex; NaN on failure */
static double py_batch(const char *libpath, char *e_hex, size_t size)
{
    char cmd[8192], line[512];
    const char *py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    const char *s;
    FILE *pipe;
    double t = NAN;

    snprintf(cmd, sizeof cmd,
             "PYTHONPATH='%s/python' CLINK_LIBRARY='%s' %s '%s/bench/python_lab.py' %d",
             CLINK_SOURCE_DIR, libpath, py, CLINK_SOURCE_DIR, BATCH);
    pipe = popen(cmd, "r");
    if (pipe == NULL)
        return NAN;
    if (fgets(line, sizeof line, pipe) != NULL) {
        s = strstr(line, "\"per_impact\": ");
        if (s != NULL)
            t = strtod(s + 14, NULL);
        s = strstr(line, "\"e_out\": \"");
        if (s != NULL)
            snprintf(e_hex, size, "%.*s", (int) strcspn(s + 10, "\""), s + 10);
    }
    if (pclose(pipe) != 0)
        return NAN;
    return t;
}

/* the shared library: CLINK_LIBRARY, else ../libclink.so from this program's directory */
static void find_library(char *buf, size_t size)
{
    const char *env = getenv("CLINK_LIBRARY");
    char exe[4096];
    ssize_t n;
    char *slash;

    if (env != NULL && env[0] != '\0') {
        snprintf(buf, size, "%s", env);
        return;
    }
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    slash = strrchr(exe, '/');
    if (slash != NULL)
        *slash = '\0';
    snprintf(buf, size, "%s/../libclink.so", exe);
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    char libpath[4200], path[4200], e_hex[64] = "", c_hex[64];
    double tc[ROUNDS], tp[ROUNDS], e = NAN, ratio;
    int round;
    FILE *out;

    find_library(libpath, sizeof libpath);
    for (round = 0; round < ROUNDS; round++) {
        tc[round] = c_batch(&e);
        tp[round] = py_batch(libpath, e_hex, sizeof e_hex);
        if (!(tp[round] > 0)) {
            fprintf(stderr, "bench_python_lab: the Python side failed (%s)\n", libpath);
            return 1;
        }
    }
    snprintf(c_hex, sizeof c_hex, "%a", e);
    qsort(tc, ROUNDS, sizeof tc[0], cmp_double);
    qsort(tp, ROUNDS, sizeof tp[0], cmp_double);
    ratio = tp[ROUNDS / 2] / tc[ROUNDS / 2];
    printf("laboratory impact, median of %d interleaved rounds of %d: C %.2f us, Python %.2f us, "
           "ratio %.3f (target <= 1.10); restitution C %s, Python %s\n",
           ROUNDS, BATCH, 1e6 * tc[ROUNDS / 2], 1e6 * tp[ROUNDS / 2], ratio, c_hex, e_hex);
    snprintf(path, sizeof path, "%s/python_lab.json", outdir);
    out = fopen(path, "w");
    if (out == NULL) {
        perror(path);
        return 1;
    }
    fprintf(out,
            "{\n  \"case\": \"hunt-crossley, m 0.046 kg, v 0.3 m/s, K 5.5e9, e 0.7, rk8\",\n"
            "  \"rounds\": %d,\n  \"batch\": %d,\n  \"c_per_impact_median\": %.6e,\n"
            "  \"python_per_impact_median\": %.6e,\n  \"ratio\": %.4f,\n  \"target_ratio\": 1.10\n"
            "}\n",
            ROUNDS, BATCH, tc[ROUNDS / 2], tp[ROUNDS / 2], ratio);
    if (fclose(out) != 0) {
        perror(path);
        return 1;
    }
    return ratio <= 1.10 && strcmp(c_hex, e_hex) == 0 ? 0 : 1;
}
