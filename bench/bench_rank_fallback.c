/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: the cost of the rank-revealing fallback of the saddle-point solve
 * (src/dynamics/saddle.c) against the sparse paths it stands in for. For the
 * four-bar (models/four_bar.xml, 8 rows, Schur complement), the N-four-bar
 * (models/n_four_bar.xml, 242 rows, KLU) and the parallelogram with a redundant
 * crank (tests/dynamics/test_dynamics.c's, 12 rows of rank 11, where only the fallback
 * can solve), the accelerations at one state are evaluated with a new
 * factorisation each time (q perturbed by 1e-12 between calls), through the
 * model's automatic solver and through the fallback forced (DYN_SOLVER_RANK):
 * CPU time per evaluation, median of 5 repetitions of a batch. Writes
 * OUTDIR/rank_fallback.json.
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/xml.h"
#include "dynamics/dynamics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* CPU seconds per evaluation of the accelerations (new factorisation each), median of 5 */
static double per_eval(const clink_model *m, dyn_solver solver, int n)
{
    int nq = m->ncoords;
    double *q = malloc(4 * (size_t) nq * sizeof(double)), *v = q + nq, *a = v + nq, *l = a + nq;
    double *lam = malloc((size_t) (m->nconstraints + 1) * sizeof(double));
    dyn_system *s = dyn_create(m);
    if (!q || !lam || !s || dyn_set_solver(s, solver) != CLINK_OK) {
        free(q);
        free(lam);
        dyn_destroy(&s);
        return NAN;
    }
    (void) l;
    for (int i = 1; i < m->d.nbodies; i++) {
        const clink_body_def *b = &m->d.bodies[i].def;
        q[3 * (i - 1)] = b->x;
        q[3 * (i - 1) + 1] = b->y;
        q[3 * (i - 1) + 2] = b->phi;
        v[3 * (i - 1)] = b->vx;
        v[3 * (i - 1) + 1] = b->vy;
        v[3 * (i - 1) + 2] = b->omega;
    }
    double times[5];
    for (int rep = 0; rep < 5; rep++) {
        double t0 = cpu_now();
        for (int k = 0; k < n; k++) {
            q[0] += (k % 2 ? -1e-12 : 1e-12);
            if (dyn_accelerations(s, 0.0, q, v, a, lam) != CLINK_OK) {
                fprintf(stderr, "bench_rank_fallback: %s\n", dyn_error(s));
                break;
            }
        }
        times[rep] = (cpu_now() - t0) / n;
    }
    qsort(times, 5, sizeof(double), cmp_double);
    free(q);
    free(lam);
    dyn_destroy(&s);
    return times[2];
}

/* the parallelogram of tests/dynamics/test_dynamics.c: three cranks (one redundant), a coupler */
static clink_model *parallelogram(void)
{
    const double c = 0.5, d = 0.5, th0 = 1.0;
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    for (int i = 0; i < 3; i++) {
        bd.mass = 1.0;
        bd.inertia = c * c / 12.0;
        bd.x = i * d + 0.5 * c * cos(th0);
        bd.y = 0.5 * c * sin(th0);
        bd.phi = th0;
        bd.omega = 2.0;
        bd.vx = -0.5 * c * sin(th0) * 2.0;
        bd.vy = 0.5 * c * cos(th0) * 2.0;
        clink_model_builder_add_body(b, &bd, NULL);
    }
    bd.mass = 2.0;
    bd.inertia = 2.0 / 12.0;
    bd.x = d + c * cos(th0);
    bd.y = c * sin(th0);
    bd.phi = 0.0;
    bd.omega = 0.0;
    bd.vx = -c * sin(th0) * 2.0;
    bd.vy = c * cos(th0) * 2.0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_joint_def jd = clink_default_joint_def();
    for (int i = 0; i < 3; i++) {
        jd.body_a = 0;
        jd.body_b = i + 1;
        jd.point_a[0] = i * d;
        jd.point_b[0] = -0.5 * c;
        clink_model_builder_add_joint(b, &jd, NULL);
        jd.body_a = i + 1;
        jd.body_b = 4;
        jd.point_a[0] = 0.5 * c;
        jd.point_b[0] = (i - 1) * d;
        clink_model_builder_add_joint(b, &jd, NULL);
    }
    clink_model *m = NULL;
    clink_model_builder_finalize(b, &m);
    clink_model_builder_destroy(&b);
    return m;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    char path[1024], err[512];
    const char *names[3] = {"four_bar", "n_four_bar", "parallelogram (redundant)"};
    int batch[3] = {20000, 200, 20000};
    FILE *f;
    snprintf(path, sizeof path, "%s/rank_fallback.json", outdir);
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_rank_fallback: cannot write %s\n", path);
        return 1;
    }
    fprintf(f, "{\"case\": \"rank-revealing fallback against the sparse paths\", \"rows\": [\n");
    printf("%-28s %6s %14s %14s %8s\n", "model", "rows", "auto_us", "fallback_us", "ratio");
    for (int k = 0; k < 3; k++) {
        clink_model *m = NULL;
        if (k < 2) {
            snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, names[k]);
            m = clink_model_load_xml(path, err, sizeof err);
        } else {
            m = parallelogram();
        }
        if (!m) {
            fprintf(stderr, "bench_rank_fallback: %s\n", k < 2 ? err : "parallelogram");
            fclose(f);
            return 1;
        }
        double ta = per_eval(m, DYN_SOLVER_AUTO, batch[k]);
        double tr = per_eval(m, DYN_SOLVER_RANK, batch[k]);
        printf("%-28s %6d %14.3f %14.3f %8.2f\n", names[k], m->nconstraints, 1e6 * ta, 1e6 * tr,
               tr / ta);
        fprintf(f,
                "%s  {\"model\": \"%s\", \"rows\": %d, \"auto_us\": %.4g, \"fallback_us\": %.4g}",
                k ? ",\n" : "", names[k], m->nconstraints, 1e6 * ta, 1e6 * tr);
        clink_model_destroy(&m);
    }
    fprintf(f, "\n]}\n");
    fclose(f);
    return 0;
}
