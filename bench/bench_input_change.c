/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: the cost of an input change (docs/api.md, "An input change restarts the
 * integrator"). The clearance slider-crank driven by its torque input
 * (examples/slider_crank_clearance_torque.xml: Adams, rtol 1e-9, atol 1e-12, as the
 * clearance benchmark of the literature) under the PD loop of examples/pd_crank.c holding
 * 5000 rpm, output step 1e-5 s. One simulation, the advances interleaved: the even ones
 * follow a change of the torque (the controller's new value: the integrator restarts at the
 * output time), the odd ones follow none (the torque held: the integrator continues). The
 * CPU time of each advance (CLOCK_PROCESS_CPUTIME_ID) and its integrator steps are kept;
 * reported are the medians of each kind over the run (0.024 s, two turns: 1200 of each),
 * their ratio, and the means. Both kinds run at the same tolerances on the same stretch of
 * the trajectory, so they reach the same accuracy. The machine may be shared: the medians
 * of interleaved advances keep the ratio while the load changes.
 * Writes OUTDIR/input_change.json.
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { NSTEPS = 2400 };

static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return bench_now();
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double *x, int n)
{
    qsort(x, (size_t) n, sizeof *x, cmp);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static double mean(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s / n;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const double PI = 3.14159265358979323846, w = 5000.0 * 2.0 * PI / 60.0, h = 1e-5;
    const double kp = 2.5e5, kd = 20.0;
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/examples/slider_crank_clearance_torque.xml", CLINK_SOURCE_DIR);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    clink_sim *sim = NULL;
    if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "bench_input_change: %s\n", err);
        return 1;
    }
    static double cpu[2][NSTEPS / 2], steps[2][NSTEPS / 2];
    double q[3], v[3], theta0, tau = 0.0;
    clink_sim_body_state(sim, 1, q, v);
    theta0 = q[2];
    clink_sim_stats st;
    for (int k = 0; k < NSTEPS; k++) {
        int change = k % 2 == 0;
        if (change) { /* the controller's new torque, held over two output steps */
            clink_sim_body_state(sim, 1, q, v);
            tau = kp * (theta0 + w * (k * h) - q[2]) + kd * (w - v[2]);
        }
        clink_sim_stats_get(sim, &st);
        long s0 = st.steps;
        double c0 = cpu_now();
        clink_status rc = clink_sim_set_input(sim, 0, tau, 0.0);
        if (rc == CLINK_OK)
            rc = clink_sim_advance(sim, (k + 1) * h);
        double c1 = cpu_now();
        if (rc != CLINK_OK) {
            fprintf(stderr, "bench_input_change: %s\n", clink_sim_error(sim));
            return 1;
        }
        clink_sim_stats_get(sim, &st);
        cpu[!change][k / 2] = c1 - c0;
        steps[!change][k / 2] = (double) (st.steps - s0);
    }
    clink_sim_body_state(sim, 1, q, v);
    int n = NSTEPS / 2;
    double mean_c[2] = {mean(cpu[0], n), mean(cpu[1], n)};
    double mean_s[2] = {mean(steps[0], n), mean(steps[1], n)};
    double med_c[2] = {median(cpu[0], n), median(cpu[1], n)};
    double med_s[2] = {median(steps[0], n), median(steps[1], n)};
    printf("input change: %d advances of %g s each kind, crank at %.1f rpm at the end\n", n, h,
           v[2] * 30.0 / PI);
    printf("  with a change:    median %.3g ms CPU, %.0f steps (means %.3g ms, %.1f steps)\n",
           1e3 * med_c[0], med_s[0], 1e3 * mean_c[0], mean_s[0]);
    printf("  without a change: median %.3g ms CPU, %.0f steps (means %.3g ms, %.1f steps)\n",
           1e3 * med_c[1], med_s[1], 1e3 * mean_c[1], mean_s[1]);
    printf("  ratio of the medians %.3f, of the means %.3f\n", med_c[0] / med_c[1],
           mean_c[0] / mean_c[1]);
    char out[1024];
    snprintf(out, sizeof out, "%s/input_change.json", outdir);
    FILE *f = fopen(out, "w");
    if (!f) {
        fprintf(stderr, "bench_input_change: cannot write %s\n", out);
        return 1;
    }
    fprintf(f,
            "{\"advances_each\": %d, \"output_step\": %g,\n"
            " \"median_cpu_change\": %.6g, \"median_cpu_held\": %.6g, \"ratio_median\": %.4f,\n"
            " \"mean_cpu_change\": %.6g, \"mean_cpu_held\": %.6g, \"ratio_mean\": %.4f,\n"
            " \"median_steps_change\": %.6g, \"median_steps_held\": %.6g,\n"
            " \"mean_steps_change\": %.6g, \"mean_steps_held\": %.6g}\n",
            n, h, med_c[0], med_c[1], med_c[0] / med_c[1], mean_c[0], mean_c[1],
            mean_c[0] / mean_c[1], med_s[0], med_s[1], mean_s[0], mean_s[1]);
    if (fclose(f) != 0) {
        fprintf(stderr, "bench_input_change: cannot write %s\n", out);
        return 1;
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return 0;
}
