/*
 * Benchmark: one impact with event location, Feng's power-law Tsuji oscillator
 * (seed 000 Eq. 1) at p = 1.5, e = 0.5 (alpha from Eq. 14), m = 1 kg,
 * K = 1e6 N/m^1.5, v0 = 1 m/s, rtol 1e-12, timed over many repetitions of
 * clink_lab_impact() (one workspace, CVODE memory re-initialised per impact),
 * and in the same run SciPy's solve_ivp(DOP853, events) on the same equation at
 * the same tolerance (bench/scipy_impact.py, found next to this file through
 * __FILE__). Writes OUTDIR/impact.json: seconds per impact for both, the ratio
 * (target: clink >= 100x faster), the accuracy each reached (|e_out - 0.5|, and
 * delta_max against Eq. 15) and the CVODE statistics of one impact.
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/contact.h"
#include "clink/feng.h"
#include "clink/lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* the value of "key": in a one-line JSON object, NAN if absent */
static double json_number(const char *text, const char *key)
{
    char pat[64];
    const char *s;
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    s = strstr(text, pat);
    return s != NULL ? strtod(s + strlen(pat), NULL) : NAN;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const double p = 1.5, e = 0.5, m = 1.0, K = 1e6, v0 = 1.0, rtol = 1e-12;
    const clink_law *law = clink_law_find("power-law-tsuji");
    clink_contact_params prm;
    clink_lab_options o;
    clink_lab_result r;
    clink_feng_forms fz;
    clink_lab *lab = NULL;
    char dir[1024], cmd[2300], line[4096], path[1100];
    double t0, t_clink, best = INFINITY, t_py_mean = NAN, t_py_best = NAN, e_py = NAN, d_py = NAN,
                        nfev_py = NAN;
    int i, reps = 20000;
    FILE *pipe, *out;
    char *slash;
    const char *py;

    if (law == NULL || clink_lab_create(&lab) != CLINK_OK)
        return 1;
    clink_contact_params_init(&prm);
    prm.K = K;
    prm.n = p;
    prm.e = e;
    clink_lab_options_init(&o);
    o.rtol = rtol;
    if (clink_feng_evaluate(p, K, m, v0, clink_feng_alpha(e, p), &fz) != CLINK_OK)
        return 1;
    /* warm-up, then timed repetitions (best of batches of 1000 and the mean) */
    if (clink_lab_impact(lab, law, &prm, m, v0, &o, &r) != CLINK_OK) {
        fprintf(stderr, "bench_impact: %s\n", clink_lab_message(lab));
        return 1;
    }
    t0 = bench_now();
    for (i = 0; i < reps; i += 1000) {
        double b0 = bench_now();
        int j;
        for (j = 0; j < 1000; j++)
            if (clink_lab_impact(lab, law, &prm, m, v0, &o, &r) != CLINK_OK)
                return 1;
        best = fmin(best, (bench_now() - b0) / 1000.0);
    }
    t_clink = (bench_now() - t0) / reps;
    clink_lab_destroy(&lab);

    /* SciPy on the same equation */
    snprintf(dir, sizeof dir, "%s", __FILE__);
    slash = strrchr(dir, '/');
    if (slash != NULL)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    /* Debian's interpreter (python3-scipy), else whatever python3 is first in PATH */
    py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    snprintf(cmd, sizeof cmd, "%s '%s/scipy_impact.py' --reps 20 --rtol %g", py, dir, rtol);
    pipe = popen(cmd, "r");
    if (pipe != NULL) {
        if (fgets(line, sizeof line, pipe) != NULL) {
            t_py_mean = json_number(line, "seconds_per_impact_mean");
            t_py_best = json_number(line, "seconds_per_impact_best");
            e_py = json_number(line, "e_out");
            d_py = json_number(line, "delta_max");
            nfev_py = json_number(line, "nfev");
        }
        pclose(pipe);
    }

    printf("clink (CVODE Adams, rtol %g): %.3f us per impact (best batch %.3f us), "
           "|e_out - 0.5| = %.2e, delta_max rel. err. vs Eq. 15 = %.2e\n",
           rtol, 1e6 * t_clink, 1e6 * best, fabs(r.e_out - e),
           fabs(r.delta_max - fz.delta_max) / fz.delta_max);
    printf("  CVODE: %ld steps, %ld rhs, %ld root evaluations, %ld error-test failures, %ld "
           "nonlinear iterations\n",
           r.n_steps, r.n_rhs, r.n_root_evals, r.n_err_fails, r.n_nonlin_iters);
    printf("SciPy solve_ivp DOP853 (rtol %g): %.3f us per impact (best %.3f us), |e_out - 0.5| = "
           "%.2e, delta_max rel. err. = %.2e, %g rhs\n",
           rtol, 1e6 * t_py_mean, 1e6 * t_py_best, fabs(e_py - e),
           fabs(d_py - fz.delta_max) / fz.delta_max, nfev_py);
    printf("ratio SciPy / clink (means): %.1f  (target >= 100)\n", t_py_mean / t_clink);

    snprintf(path, sizeof path, "%s/impact.json", outdir);
    out = fopen(path, "w");
    if (out == NULL)
        return 1;
    fprintf(out,
            "{\n  \"case\": \"Feng p=1.5 e=0.5 m=1 K=1e6 v0=1, rtol 1e-12\",\n"
            "  \"clink_seconds_per_impact\": %.6e,\n  \"clink_seconds_best_batch\": %.6e,\n"
            "  \"clink_e_error\": %.3e,\n  \"clink_delta_max_rel_error\": %.3e,\n"
            "  \"cvode\": {\"steps\": %ld, \"rhs\": %ld, \"root_evals\": %ld, "
            "\"err_test_fails\": %ld, \"nonlin_iters\": %ld, \"reinit\": %d},\n"
            "  \"scipy_seconds_per_impact\": %.6e,\n  \"scipy_seconds_best\": %.6e,\n"
            "  \"scipy_e_error\": %.3e,\n  \"scipy_delta_max_rel_error\": %.3e,\n"
            "  \"scipy_nfev\": %g,\n  \"ratio\": %.2f,\n  \"target_ratio\": 100\n}\n",
            t_clink, best, fabs(r.e_out - e), fabs(r.delta_max - fz.delta_max) / fz.delta_max,
            r.n_steps, r.n_rhs, r.n_root_evals, r.n_err_fails, r.n_nonlin_iters, r.n_reinit,
            t_py_mean, t_py_best, fabs(e_py - e), fabs(d_py - fz.delta_max) / fz.delta_max, nfev_py,
            t_py_mean / t_clink);
    fclose(out);
    return isfinite(t_py_mean) ? 0 : 1;
}
