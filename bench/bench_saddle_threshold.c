/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: the size below which the dense Schur complement beats KLU on the
 * saddle-point system (DYN_SCHUR_MAX_ROWS in src/dynamics/dynamics.h). Two
 * families, m constraint rows each: a chain of n links hanging from ground
 * (revolute joints, m = 2 n) and the same chain closed by a revolute to ground
 * and driven at its first joint (m = 2 n + 3, a closed loop like the
 * mechanisms of models/). One call is dyn_accelerations at a new q (forces,
 * constraint evaluation, one factorisation, one solve); the two solvers run
 * interleaved in blocks, the median of 7 blocks is reported per call, with the
 * ratio KLU / Schur. Writes OUTDIR/saddle_threshold.json.
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "dynamics/dynamics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static clink_model *chain(int n, int closed)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.mass = 0.3;
    bd.inertia = 1e-3;
    for (int i = 1; i <= n; i++) {
        bd.x = 0.1 * i - 0.05;
        clink_model_builder_add_body(b, &bd, NULL);
    }
    for (int i = 1; i <= n; i++) {
        clink_joint_def jd = clink_default_joint_def();
        jd.body_a = i - 1;
        jd.body_b = i;
        jd.point_a[0] = i == 1 ? 0.0 : 0.05;
        jd.point_b[0] = -0.05;
        clink_model_builder_add_joint(b, &jd, NULL);
    }
    if (closed) {
        clink_joint_def jd = clink_default_joint_def();
        jd.body_a = n;
        jd.body_b = 0;
        jd.point_a[0] = 0.05;
        jd.point_b[0] = 0.1 * n;
        clink_model_builder_add_joint(b, &jd, NULL);
        clink_driver_def dd = clink_default_driver_def();
        dd.target = CLINK_DRIVE_JOINT_ANGLE;
        dd.joint = 0;
        dd.function.type = CLINK_FUNCTION_LINEAR;
        dd.function.c[1] = 1.0;
        clink_model_builder_add_driver(b, &dd, NULL);
    }
    clink_model *m = NULL;
    clink_model_builder_finalize(b, &m);
    clink_model_builder_destroy(&b);
    return m;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* seconds per call of one block of `reps` calls at perturbed states */
static double block(dyn_system *s, int nq, double *q, double *v, double *a, int reps)
{
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        q[k % nq] += 1e-12;
        if (dyn_accelerations(s, 0.0, q, v, a, NULL) != CLINK_OK) {
            fprintf(stderr, "bench_saddle_threshold: %s\n", dyn_error(s));
            exit(1);
        }
    }
    return (bench_now() - t0) / reps;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    char path[1024];
    snprintf(path, sizeof path, "%s/saddle_threshold.json", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_saddle_threshold: cannot write %s\n", path);
        return 1;
    }
    fprintf(f, "{\"case\": \"saddle solve, Schur complement vs KLU, per dyn_accelerations\",\n "
               "\"rows\": [\n");
    printf("%-7s %4s %4s %12s %12s %8s %8s\n", "family", "nq", "m", "schur_us", "klu_us",
           "klu/schur", "refined");
    const int sizes[] = {1, 2, 3, 4, 6, 8, 10, 12, 14, 16, 18, 20, 24, 28, 32, 40};
    int nsizes = (int) (sizeof sizes / sizeof sizes[0]), first = 1;
    for (int closed = 0; closed < 2; closed++)
        for (int i = 0; i < nsizes; i++) {
            int n = sizes[i];
            if (closed && n < 3)
                continue;
            clink_model *m = chain(n, closed);
            if (!m) {
                fprintf(stderr, "bench_saddle_threshold: model\n");
                return 1;
            }
            int nq = 3 * n, nc = clink_model_constraint_count(m);
            dyn_system *sa = dyn_create(m), *sb = dyn_create(m);
            if (!sa || !sb || dyn_set_solver(sa, DYN_SOLVER_SCHUR) != CLINK_OK ||
                dyn_set_solver(sb, DYN_SOLVER_KLU) != CLINK_OK) {
                fprintf(stderr, "bench_saddle_threshold: out of memory\n");
                return 1;
            }
            double *q = calloc((size_t) nq, sizeof(double));
            double *v = calloc((size_t) nq, sizeof(double));
            double *a = calloc((size_t) nq, sizeof(double));
            for (int k = 1; k <= n; k++) {
                q[3 * (k - 1)] = 0.1 * k - 0.05;
                q[3 * (k - 1) + 2] = k % 2 ? 0.5 : -0.4; /* zigzag: the closed loop is regular */
                v[3 * (k - 1) + 1] = 0.1 * k;
                v[3 * (k - 1) + 2] = 1.0;
            }
            int reps = 200000 / (nc + 4);
            double ts[7], tk[7];
            for (int b = 0; b < 7; b++) {
                ts[b] = block(sa, nq, q, v, a, reps);
                tk[b] = block(sb, nq, q, v, a, reps);
            }
            qsort(ts, 7, sizeof(double), cmp_double);
            qsort(tk, 7, sizeof(double), cmp_double);
            dyn_factor_stats fs;
            dyn_factor_counts(sa, &fs);
            double refined = (double) fs.refined / (double) fs.schur;
            printf("%-7s %4d %4d %12.3f %12.3f %8.2f %8.2f\n", closed ? "closed" : "open", nq, nc,
                   ts[3] * 1e6, tk[3] * 1e6, tk[3] / ts[3], refined);
            fprintf(f,
                    "%s  {\"family\": \"%s\", \"nq\": %d, \"rows\": %d, \"schur_us\": %.4g, "
                    "\"klu_us\": %.4g, \"ratio\": %.4g, \"refined\": %.3g}",
                    first ? "" : ",\n", closed ? "closed" : "open", nq, nc, ts[3] * 1e6,
                    tk[3] * 1e6, tk[3] / ts[3], refined);
            first = 0;
            free(q);
            free(v);
            free(a);
            dyn_destroy(&sa);
            dyn_destroy(&sb);
            clink_model_destroy(&m);
        }
    fprintf(f, "\n]}\n");
    fclose(f);
    return 0;
}
