/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: work against precision of the integration settings on the shipped
 * mechanisms (models/pendulum.xml, double_pendulum.xml, four_bar.xml,
 * slider_crank.xml, slider_crank_clearance.xml and its frictionless twin), to
 * choose their <settings>. For each model, each of BDF + projection, BDF +
 * Baumgarte (alpha = beta = 5 1/s) and Adams + Baumgarte, and rtol 1e-5 ...
 * 1e-10 (atol in the model's ratio to rtol), the model runs to its t_end with
 * its output step, and is compared with a reference run (BDF + projection,
 * rtol 1e-12) at every output:
 *   err_pos   max |x - x_ref|, |y - y_ref| of every body centre, m (for the
 *             clearance joints, whose motion is chaotic after ~10 ms, up to
 *             t_cmp = 10 ms),
 *   onsets    number of leading impact onsets within 1 us of the reference's,
 *   balance   max |energy balance residual| / max kinetic energy over the run
 *             (the validation bounds it for the slider-cranks),
 *   drift     max |Phi| at the outputs, m.
 * Cost: CVODE right-hand sides (with those of the finite-difference Jacobian)
 * and the CPU time of the process (the machine is shared), median of 3 runs.
 *
 * The IFToMM benchmarks (names iftomm_a01, iftomm_a02, iftomm_a03) are measured
 * against their independent references instead (validation/iftomm_reference.h):
 * A01 the largest distance of the mass from the elliptic closed form over 2000 s
 * (every 0.1 s), A02 the largest distance of B0 from the minimal-coordinate
 * solution over 20 s (every 0.05 s), A03 the largest angle error at 0.03 s
 * against the test set's reference; Adams + Baumgarte (not for A02, where it
 * stops at the flat positions) and BDF + projection at rtol 1e-4 ... 1e-12
 * (atol rtol / 100), with the right-hand sides and the CPU
 * time (median of 3) of each: Hairer's work-precision diagrams (docs/accuracy.md).
 *
 * Writes OUTDIR/work_precision.json; prints one table per model.
 * Usage: bench_work_precision [OUTDIR [MODEL ...]] (MODEL: a name in models/ or
 * iftomm_a01 ... iftomm_a03; default: the six shipped models and the three
 * benchmarks).
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/sim.h"
#include "clink/xml.h"
#include "iftomm_reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NREP   3
#define MAXIMP 4096

typedef struct run_out {
    int ok;
    double wall;
    long rhs, rhs_fd, steps;
    double *pos; /* (x, y) of every body at every output, or NULL */
    int npos;
    double onset[MAXIMP];
    int nimp;
    double balance, drift;
} run_out;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static int run(const clink_model *m, const clink_settings_def *set, double t_cmp, run_out *r)
{
    char err[512];
    clink_sim *sim = NULL;
    memset(r, 0, sizeof *r);
    if (clink_sim_create(m, set, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "bench_work_precision: %s\n", err);
        return 1;
    }
    int nb = clink_model_count(m, CLINK_ENTITY_BODY) - 1;
    int nout = (int) lround(set->t_end / set->output_step);
    int ncmp = (int) lround(fmin(t_cmp, set->t_end) / set->output_step);
    r->npos = ncmp * nb * 2;
    r->pos = malloc((size_t) (r->npos > 0 ? r->npos : 1) * sizeof(double));
    if (!r->pos) {
        clink_sim_destroy(&sim);
        return 1;
    }
    double tmax = 0.0, t0 = cpu_now();
    for (int i = 1; i <= nout; i++) {
        if (clink_sim_advance(sim, set->output_step * i) != CLINK_OK) {
            fprintf(stderr, "bench_work_precision: %s\n", clink_sim_error(sim));
            clink_sim_destroy(&sim);
            return 1;
        }
        if (i <= ncmp)
            for (int b = 1; b <= nb; b++) {
                double q[3];
                clink_sim_body_state(sim, b, q, NULL);
                r->pos[((i - 1) * nb + b - 1) * 2] = q[0];
                r->pos[((i - 1) * nb + b - 1) * 2 + 1] = q[1];
            }
        clink_energy e;
        clink_sim_energy(sim, &e);
        tmax = fmax(tmax, e.kinetic);
        r->balance = fmax(r->balance, fabs(e.balance));
        double p;
        clink_sim_constraint_violation(sim, &p, NULL);
        r->drift = fmax(r->drift, p);
    }
    r->wall = cpu_now() - t0;
    r->balance /= tmax > 0.0 ? tmax : 1.0;
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    r->rhs = st.rhs_evals;
    r->rhs_fd = st.rhs_evals_jac;
    r->steps = st.steps;
    r->nimp = clink_sim_impact_count(sim);
    if (r->nimp > MAXIMP)
        r->nimp = MAXIMP;
    for (int i = 0; i < r->nimp; i++) {
        clink_impact_record rec;
        clink_sim_impact(sim, i, &rec);
        r->onset[i] = rec.t_onset;
    }
    clink_sim_destroy(&sim);
    r->ok = 1;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* ---- the IFToMM benchmarks against their references ---------------------- */

#define A02_OUT 400

/* one run of benchmark `which` (1, 2, 3) at settings set: its error against the reference */
static int bench_iftomm_run(int which, const clink_model *m, const clink_settings_def *set,
                            const double *th, double *err, double *cpu, long *rhs)
{
    char msg[512];
    clink_sim *sim = NULL;
    if (clink_sim_create(m, set, &sim, msg, sizeof msg) != CLINK_OK) {
        fprintf(stderr, "bench_work_precision: %s\n", msg);
        return 1;
    }
    double e = 0.0, t0 = cpu_now();
    int n = which == 1 ? 20000 : which == 2 ? A02_OUT : 1;
    double dt = which == 1 ? 0.1 : which == 2 ? 0.05 : 0.03;
    for (int k = 1; k <= n; k++) {
        if (clink_sim_advance(sim, k * dt) != CLINK_OK) {
            fprintf(stderr, "bench_work_precision: %s\n", clink_sim_error(sim));
            clink_sim_destroy(&sim);
            return 1;
        }
        if (which == 1) {
            double x, y, xe, ye;
            iftomm_a01_point(sim, &x, &y);
            iftomm_a01_exact(k * dt, &xe, &ye);
            e = fmax(e, hypot(x - xe, y - ye));
        } else if (which == 2) {
            double b[2], bv[2];
            iftomm_a02_b0(sim, b, bv);
            e = fmax(e, hypot(b[0] - cos(th[k - 1]), b[1] - sin(th[k - 1])));
        } else {
            double ang[7];
            iftomm_a03_angles(sim, ang);
            for (int i = 0; i < 7; i++)
                e = fmax(e, fabs(ang[i] - IFTOMM_A03_REF[i]));
        }
    }
    *cpu = cpu_now() - t0;
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    *rhs = st.rhs_evals + st.rhs_evals_jac;
    *err = e;
    clink_sim_destroy(&sim);
    return 0;
}

static int bench_iftomm(FILE *f, int *first, const char *name)
{
    int which = name[9] - '0';
    const char *file = which == 2 ? "n_four_bar" : name;
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, file);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "bench_work_precision: %s\n", err);
        return 1;
    }
    static double th[A02_OUT], w[A02_OUT];
    if (which == 2)
        iftomm_a02_reference(0.05, 500, A02_OUT, th, w);
    clink_settings_def shipped = clink_model_settings(m);
    const char *what = which == 1   ? "max |r - r_exact| over 2000 s, m"
                       : which == 2 ? "max |B0 - B0_ref| over 20 s, m"
                                    : "max angle error at 0.03 s, rad";
    printf("\n%s (%s; shipped: %s rtol %g)\n", name, what, clink_method_name(shipped.method),
           shipped.rtol);
    printf("%-16s %6s %10s %10s %10s\n", "method", "rtol", "cpu_s", "rhs", "error");
    /* A02 with Adams + Baumgarte stops or stalls at the flat positions at most tolerances
       (1e-4, 1e-7 ... 1e-12; the same before the rank-revealing fallback): BDF + projection
       only (docs/accuracy.md) */
    for (int c = which == 2 ? 1 : 0; c < 2; c++)
        for (int e = 4; e <= 12; e++) {
            clink_settings_def s = shipped;
            s.method = c == 0 ? CLINK_METHOD_ADAMS : CLINK_METHOD_BDF;
            s.drift = c == 0 ? CLINK_DRIFT_BAUMGARTE : CLINK_DRIFT_PROJECTION;
            s.rtol = pow(10.0, -e);
            s.atol = 1e-2 * s.rtol;
            const char *tag = c == 0 ? "Adams+Baumgarte" : "BDF+projection";
            double cpus[NREP], error = NAN;
            long rhs = 0;
            int failed = 0;
            for (int rep = 0; rep < NREP && !failed; rep++)
                failed = bench_iftomm_run(which, m, &s, th, &error, &cpus[rep], &rhs) != 0;
            if (failed) {
                printf("%-16s %6.0e   failed\n", tag, s.rtol);
                continue;
            }
            qsort(cpus, NREP, sizeof(double), cmp_double);
            printf("%-16s %6.0e %10.4f %10ld %10.2e\n", tag, s.rtol, cpus[NREP / 2], rhs, error);
            fprintf(f,
                    "%s  {\"model\": \"%s\", \"method\": \"%s\", \"rtol\": %.17g, \"atol\": %.17g, "
                    "\"cpu_s\": %.5g, \"rhs\": %ld, \"error\": %.3g, \"error_kind\": \"%s\"}",
                    *first ? "" : ",\n", name, tag, s.rtol, s.atol, cpus[NREP / 2], rhs, error,
                    what);
            *first = 0;
        }
    clink_model_destroy(&m);
    return 0;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const char *all[] = {"pendulum",
                         "double_pendulum",
                         "four_bar",
                         "slider_crank",
                         "slider_crank_clearance",
                         "slider_crank_clearance_frictionless",
                         "iftomm_a01",
                         "iftomm_a02",
                         "iftomm_a03"};
    const char **names = argc > 2 ? (const char **) argv + 2 : all;
    int nmodels = argc > 2 ? argc - 2 : (int) (sizeof all / sizeof all[0]);
    const double rtols[] = {1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
    const int nrt = (int) (sizeof rtols / sizeof rtols[0]);
    const struct {
        const char *name;
        clink_method method;
        clink_drift drift;
    } combos[3] = {{"BDF+projection", CLINK_METHOD_BDF, CLINK_DRIFT_PROJECTION},
                   {"BDF+Baumgarte", CLINK_METHOD_BDF, CLINK_DRIFT_BAUMGARTE},
                   {"Adams+Baumgarte", CLINK_METHOD_ADAMS, CLINK_DRIFT_BAUMGARTE}};
    char path[1024];
    snprintf(path, sizeof path, "%s/work_precision.json", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_work_precision: cannot write %s\n", path);
        return 1;
    }
    fprintf(f, "{\"case\": \"work against precision of the shipped models' settings\",\n "
               "\"rows\": [\n");
    int first = 1;
    for (int k = 0; k < nmodels; k++) {
        if (strncmp(names[k], "iftomm_a0", 9) == 0) {
            if (bench_iftomm(f, &first, names[k]) != 0)
                return 1;
            continue;
        }
        char file[1024], err[512];
        snprintf(file, sizeof file, "%s/models/%s.xml", CLINK_SOURCE_DIR, names[k]);
        clink_model *m = clink_model_load_xml(file, err, sizeof err);
        if (!m) {
            fprintf(stderr, "bench_work_precision: %s\n", err);
            return 1;
        }
        clink_settings_def shipped = clink_model_settings(m);
        double ratio = shipped.atol / shipped.rtol;
        int clearance = strstr(names[k], "clearance") != NULL;
        double t_cmp = clearance ? 0.01 : shipped.t_end;
        clink_settings_def ref = shipped;
        ref.method = CLINK_METHOD_BDF;
        ref.drift = CLINK_DRIFT_PROJECTION;
        ref.rtol = 1e-12;
        ref.atol = 1e-12 * ratio;
        run_out R;
        if (run(m, &ref, t_cmp, &R) != 0)
            return 1;
        printf("\n%s (t_end %g s; shipped: %s %s rtol %g atol %g; reference rtol 1e-12: %ld rhs, "
               "%d impacts)\n",
               names[k], shipped.t_end, clink_method_name(shipped.method),
               shipped.drift == CLINK_DRIFT_PROJECTION ? "projection" : "baumgarte", shipped.rtol,
               shipped.atol, R.rhs + R.rhs_fd, R.nimp);
        printf("%-16s %6s %10s %10s %9s %9s %9s %6s\n", "method", "rtol", "cpu_s", "rhs",
               "err_pos_m", "balance", "drift_m", "onsets");
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < nrt; i++) {
                clink_settings_def s = shipped;
                s.method = combos[c].method;
                s.drift = combos[c].drift;
                s.rtol = rtols[i];
                s.atol = rtols[i] * ratio;
                double walls[NREP];
                run_out r = {0};
                int failed = 0;
                for (int rep = 0; rep < NREP && !failed; rep++) {
                    free(r.pos);
                    failed = run(m, &s, t_cmp, &r) != 0;
                    walls[rep] = r.wall;
                }
                if (failed) {
                    printf("%-16s %6.0e   failed\n", combos[c].name, rtols[i]);
                    free(r.pos);
                    continue;
                }
                qsort(walls, NREP, sizeof(double), cmp_double);
                double perr = 0.0;
                for (int j = 0; j < r.npos && j < R.npos; j++)
                    perr = fmax(perr, fabs(r.pos[j] - R.pos[j]));
                int agree = 0;
                while (agree < r.nimp && agree < R.nimp &&
                       fabs(r.onset[agree] - R.onset[agree]) <= 1e-6)
                    agree++;
                printf("%-16s %6.0e %10.4f %10ld %9.2e %9.2e %9.2e %6d\n", combos[c].name, rtols[i],
                       walls[NREP / 2], r.rhs + r.rhs_fd, perr, r.balance, r.drift, agree);
                fprintf(
                    f,
                    "%s  {\"model\": \"%s\", \"method\": \"%s\", \"rtol\": %.17g, \"atol\": %.17g, "
                    "\"cpu_s\": %.5g, \"rhs\": %ld, \"rhs_fd\": %ld, \"steps\": %ld, "
                    "\"err_pos_m\": %.3g, \"balance_rel\": %.3g, \"drift_m\": %.3g, "
                    "\"impacts\": %d, \"onsets_agree_1us\": %d, \"t_cmp\": %g}",
                    first ? "" : ",\n", names[k], combos[c].name, s.rtol, s.atol, walls[NREP / 2],
                    r.rhs, r.rhs_fd, r.steps, perr, r.balance, r.drift, r.nimp, agree, t_cmp);
                first = 0;
                free(r.pos);
            }
        free(R.pos);
        clink_model_destroy(&m);
    }
    fprintf(f, "\n]}\n");
    fclose(f);
    return 0;
}
