/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: the N-four-bar of the IFToMM multibody benchmark library (problem
 * A02, models/n_four_bar.xml, N = 40: 81 bodies, 242 constraint rows, 20 s, 400
 * outputs). Runs, at several relative tolerances (atol = rtol / 100):
 *   bdf-analytic   BDF + projection, analytic Jacobian (dyn_jacobian)
 *   bdf-fd         BDF + projection, forward differences of the right-hand side
 *   adams          Adams + Baumgarte (alpha = beta = 5 1/s)
 * and counts CVODE's right-hand sides, those spent on Jacobians (analytic: one
 * evaluation of the accelerations per Jacobian; finite differences: one per
 * column, 2 x 243), steps, Jacobian evaluations and CPU time (median of NREP;
 * the machine is shared). Accuracy: x and y of the top B0 of crank_0 at the
 * 400 outputs against a reference run (BDF + projection, analytic Jacobian,
 * rtol 1e-11, atol 1e-13), max abs error in m, and the largest |energy balance|
 * in J. Writes OUTDIR/n_four_bar.json. Usage: bench_n_four_bar [OUTDIR [NREP [bdf]]].
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/sim.h"
#include "clink/xml.h"
#include "sim/sim_jac.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU seconds after which a run is given up (Adams crawls after the singular positions) */
#define CPU_LIMIT 60.0

typedef struct run_out {
    int ok;
    double t_reached;
    double cpu, err, balance;
    clink_sim_stats st;
} run_out;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* B0 = the top of crank_0 (body 1, half-length 0.5 m along its x axis) */
static void b0(const clink_sim *sim, double out[2])
{
    double q[3];
    clink_sim_body_state(sim, 1, q, NULL);
    out[0] = q[0] + 0.5 * cos(q[2]);
    out[1] = q[1] + 0.5 * sin(q[2]);
}

/* runs the model; xy (2 per output) receives B0, ref (or NULL) is compared against */
static int run(const clink_model *m, const clink_settings_def *set, int fd, double *xy,
               const double *ref, run_out *r)
{
    char err[512];
    clink_sim *sim = NULL;
    memset(r, 0, sizeof *r);
    double t0 = cpu_now();
    if (clink_sim_create(m, set, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "bench_n_four_bar: %s\n", err);
        return 1;
    }
    sim_use_fd_jacobian(sim, fd);
    int nout = (int) lround(set->t_end / set->output_step);
    for (int i = 1; i <= nout; i++) {
        if (clink_sim_advance(sim, set->output_step * i) != CLINK_OK) {
            fprintf(stderr, "bench_n_four_bar: %s\n", clink_sim_error(sim));
            clink_sim_destroy(&sim);
            return 1;
        }
        r->t_reached = set->output_step * i;
        if (cpu_now() - t0 > CPU_LIMIT) {
            clink_sim_stats_get(sim, &r->st);
            clink_sim_destroy(&sim);
            r->cpu = cpu_now() - t0;
            return 2;
        }
        double p[2];
        b0(sim, p);
        if (xy) {
            xy[2 * (i - 1)] = p[0];
            xy[2 * (i - 1) + 1] = p[1];
        }
        if (ref)
            r->err = fmax(r->err,
                          fmax(fabs(p[0] - ref[2 * (i - 1)]), fabs(p[1] - ref[2 * (i - 1) + 1])));
        clink_energy e;
        clink_sim_energy(sim, &e);
        r->balance = fmax(r->balance, fabs(e.balance));
    }
    clink_sim_stats_get(sim, &r->st);
    clink_sim_destroy(&sim);
    r->cpu = cpu_now() - t0;
    r->ok = 1;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    int nrep = argc > 2 ? atoi(argv[2]) : 3;
    /* third argument "bdf": leave Adams out (it can stall inside one output interval) */
    int nmeth = argc > 3 && strcmp(argv[3], "bdf") == 0 ? 2 : 3;
    if (nrep < 1 || nrep > 15)
        nrep = 3;
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/models/n_four_bar.xml", CLINK_SOURCE_DIR);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "bench_n_four_bar: %s\n", err);
        return 1;
    }
    clink_settings_def set = clink_model_settings(m);
    int nout = (int) lround(set.t_end / set.output_step);
    double *ref = malloc(2 * (size_t) nout * sizeof(double));
    if (!ref)
        return 1;
    clink_settings_def rs = set;
    rs.method = CLINK_METHOD_BDF;
    rs.drift = CLINK_DRIFT_PROJECTION;
    rs.rtol = 1e-11;
    rs.atol = 1e-13;
    run_out rr;
    if (run(m, &rs, 0, ref, NULL, &rr) != 0)
        return 1;
    printf("reference (BDF + projection, analytic, rtol 1e-11): %ld steps, %ld + %ld rhs, %.2f s "
           "CPU; B0 at 20 s (%.9f, %.9f) m\n",
           rr.st.steps, rr.st.rhs_evals, rr.st.rhs_evals_jac, rr.cpu, ref[2 * nout - 2],
           ref[2 * nout - 1]);
    snprintf(path, sizeof path, "%s/n_four_bar.json", outdir);
    FILE *js = fopen(path, "w");
    if (!js) {
        fprintf(stderr, "bench_n_four_bar: %s: cannot write\n", path);
        return 1;
    }
    fprintf(js, "{\"benchmark\": \"n_four_bar\", \"runs\": [\n");
    static const double rtols[] = {1e-5, 1e-6, 1e-7, 1e-8};
    static const char *names[] = {"bdf-analytic", "bdf-fd", "adams"};
    printf("%-13s %6s %7s %8s %8s %6s %8s %11s %10s\n", "method", "rtol", "steps", "rhs", "rhs_jac",
           "jacs", "cpu_s", "err_B0_m", "balance_J");
    int first = 1;
    for (size_t k = 0; k < sizeof rtols / sizeof rtols[0]; k++)
        for (int meth = 0; meth < nmeth; meth++) {
            clink_settings_def s = set;
            s.rtol = rtols[k];
            s.atol = rtols[k] / 100.0;
            s.method = meth == 2 ? CLINK_METHOD_ADAMS : CLINK_METHOD_BDF;
            s.drift = meth == 2 ? CLINK_DRIFT_BAUMGARTE : CLINK_DRIFT_PROJECTION;
            s.baumgarte_alpha = s.baumgarte_beta = 5.0;
            double cpu[15];
            run_out r = {0};
            int ok = 1;
            int rc = 0;
            for (int rep = 0; rep < nrep && ok; rep++) {
                rc = run(m, &s, meth == 1, NULL, ref, &r);
                ok = rc == 0;
                cpu[rep] = r.cpu;
            }
            if (!ok) {
                printf("%-13s %6.0e %s at t = %.2f s after %ld steps, %ld rhs, %.1f s CPU\n",
                       names[meth], rtols[k], rc == 2 ? "given up" : "failed", r.t_reached,
                       r.st.steps, r.st.rhs_evals, r.cpu);
                fprintf(js,
                        "%s  {\"method\": \"%s\", \"rtol\": %.17g, \"given_up_at_s\": %.3f, "
                        "\"steps\": %ld, \"rhs\": %ld, \"cpu_s\": %.2f}",
                        first ? "" : ",\n", names[meth], rtols[k], r.t_reached, r.st.steps,
                        r.st.rhs_evals, r.cpu);
                first = 0;
                continue;
            }
            qsort(cpu, (size_t) nrep, sizeof cpu[0], cmp_double);
            double med = cpu[nrep / 2];
            printf("%-13s %6.0e %7ld %8ld %8ld %6ld %8.3f %11.3e %10.3e\n", names[meth], rtols[k],
                   r.st.steps, r.st.rhs_evals, r.st.rhs_evals_jac, r.st.jac_evals, med, r.err,
                   r.balance);
            fprintf(js,
                    "%s  {\"method\": \"%s\", \"rtol\": %.17g, \"steps\": %ld, \"rhs\": %ld, "
                    "\"rhs_jacobian\": %ld, \"jacobians\": %ld, \"cpu_s_median\": %.4f, "
                    "\"err_b0_m\": %.4e, \"max_abs_energy_balance_J\": %.4e}",
                    first ? "" : ",\n", names[meth], rtols[k], r.st.steps, r.st.rhs_evals,
                    r.st.rhs_evals_jac, r.st.jac_evals, med, r.err, r.balance);
            first = 0;
            fflush(stdout);
        }
    fprintf(js, "\n]}\n");
    fclose(js);
    free(ref);
    clink_model_destroy(&m);
    return 0;
}
