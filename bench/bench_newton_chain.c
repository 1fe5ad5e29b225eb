/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: BDF on a revolute chain, the Newton system solved in the saddle form
 * (src/dynamics/newton_saddle.c) against the sparse Newton matrix I - gamma J of the
 * other path (J's blocks dense over the chain) and against Adams (no Newton matrix).
 *
 * The chain: N bars of 1 m, 1 kg, 1 kg m^2 in a row along x, pinned to the ground by the
 * first, under gravity, BDF with projection at rtol 1e-8 (the defaults), T_END of motion
 * (default 0.05 s). Each case runs in a child process so that its peak memory is its own
 * (the child's getrusage): CPU seconds, peak resident MB, steps, Newton iterations,
 * linear solver set-ups, Jacobians, the entries of K and of its LU factors per body, and
 * the largest difference of any body's x, y from the first case's run of the same N.
 *
 * Usage: bench_newton_chain [OUTDIR [T_END [N,N,... [MODES [SPARSE_MAX]]]]]; MODES a comma
 * list of saddle, sparse, adams (default saddle,sparse,adams); sparse is skipped above
 * SPARSE_MAX bodies (default 300: at 1000 it takes minutes and 0.9 GB, its J has
 * 2 (9 N^2 + 3 N) entries, 7 GB at 5000). Writes OUTDIR/newton_chain.json.
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/sim.h"
#include "clink/xml.h"
#include "dynamics/newton_saddle.h"
#include "sim/sim_internal.h"
#include "sim/sim_jac.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* the sparse path above this many bodies is not run (default) */
#define SPARSE_MAX_BODIES 300

typedef struct chain_out {
    int ok;
    double cpu, maxdiff, mb;
    long steps, iters, setups, jacs, knnz, fnnz;
} chain_out;

/* the chain's model text (malloc'd) */
static char *chain_xml(int n, double t_end, const char *method)
{
    size_t cap = 512 + 200 * (size_t) n, len = 0;
    char *x = malloc(cap);
    if (!x)
        return NULL;
    len += (size_t) snprintf(x + len, cap - len,
                             "<mechanism name=\"chain\"><settings t_end=\"%g\" output_step=\"%g\" "
                             "method=\"%s\"/><gravity g=\"0 -9.81\"/><bodies>",
                             t_end, t_end, method);
    for (int i = 0; i < n; i++)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<body name=\"b%d\" mass=\"1\" inertia=\"1\" x=\"%d\"/>", i, i);
    len += (size_t) snprintf(x + len, cap - len,
                             "</bodies><joints><revolute name=\"pin\" body1=\"ground\" "
                             "body2=\"b0\" point1=\"-0.5 0\" point2=\"-0.5 0\"/>");
    for (int i = 1; i < n; i++)
        len += (size_t) snprintf(x + len, cap - len,
                                 "<revolute name=\"j%d\" body1=\"b%d\" body2=\"b%d\" "
                                 "point1=\"0.5 0\" point2=\"-0.5 0\"/>",
                                 i, i - 1, i);
    snprintf(x + len, cap - len, "</joints></mechanism>");
    return x;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* one run (in the child): the positions into pos (2 n), the counts into r */
static int chain_run(int n, double t_end, const char *mode, double *pos, chain_out *r)
{
    char err[512];
    int adams = strcmp(mode, "adams") == 0;
    char *xml = chain_xml(n, t_end, adams ? "adams" : "bdf");
    clink_model *m = NULL;
    if (!xml || clink_xml_load_memory(xml, strlen(xml), "chain.xml", &m, NULL, err, sizeof err) !=
                    CLINK_OK) {
        fprintf(stderr, "bench_newton_chain: %s\n", xml ? err : "out of memory");
        free(xml);
        return 1;
    }
    free(xml);
    clink_settings_def set = clink_model_settings(m);
    clink_sim *sim = NULL;
    double t0 = cpu_now();
    int rc = 1;
    if (clink_sim_create(m, &set, &sim, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "bench_newton_chain: %s\n", err);
    else if (!adams && sim_use_saddle_newton(sim, strcmp(mode, "saddle") == 0
                                                      ? SYSTEM_NEWTON_ON
                                                      : SYSTEM_NEWTON_OFF) != CLINK_OK)
        fprintf(stderr, "bench_newton_chain: %s\n", clink_sim_error(sim));
    else if (clink_sim_advance(sim, t_end) != CLINK_OK)
        fprintf(stderr, "bench_newton_chain: %s\n", clink_sim_error(sim));
    else
        rc = 0;
    r->cpu = cpu_now() - t0;
    if (rc == 0) {
        clink_sim_stats st;
        clink_sim_stats_get(sim, &st);
        r->steps = st.steps;
        r->iters = st.nonlin_iters;
        r->setups = st.lin_setups;
        r->jacs = st.jac_evals;
        if (sim->sys->newton) {
            dyn_newton_stats ns;
            dyn_newton_get_stats(sim->sys->newton, &ns);
            r->knnz = ns.nnz;
            r->fnnz = ns.factor_nnz;
        }
        for (int b = 1; b <= n; b++) {
            double q[3];
            clink_sim_body_state(sim, b, q, NULL);
            pos[2 * (b - 1)] = q[0];
            pos[2 * (b - 1) + 1] = q[1];
        }
        r->ok = 1;
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return rc;
}

/* a case in a child process: its result, positions and peak memory (MB) through a pipe */
static int chain_case(int n, double t_end, const char *mode, double *pos, chain_out *r, double *mb)
{
    int fd[2];
    memset(r, 0, sizeof *r);
    if (pipe(fd) != 0)
        return 1;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        close(fd[0]);
        int rc = chain_run(n, t_end, mode, pos, r);
        struct rusage ru;
        r->mb = getrusage(RUSAGE_SELF, &ru) == 0 ? (double) ru.ru_maxrss / 1024.0 : 0.0;
        if (write(fd[1], r, sizeof *r) != (ssize_t) sizeof *r ||
            (r->ok && write(fd[1], pos, 2 * (size_t) n * sizeof(double)) !=
                          (ssize_t) (2 * (size_t) n * sizeof(double))))
            rc = 1;
        _exit(rc);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "rb");
    int got = f && fread(r, sizeof *r, 1, f) == 1 &&
              (!r->ok || fread(pos, sizeof(double), 2 * (size_t) n, f) == 2 * (size_t) n);
    if (f)
        fclose(f);
    int status = 0;
    if (waitpid(pid, &status, 0) < 0)
        return 1;
    *mb = r->mb;
    return got && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    double t_end = argc > 2 ? atof(argv[2]) : 0.05;
    char nlist[256], mlist[64];
    snprintf(nlist, sizeof nlist, "%s", argc > 3 ? argv[3] : "100,300,1000,3000,5000");
    snprintf(mlist, sizeof mlist, "%s", argc > 4 ? argv[4] : "saddle,sparse,adams");
    int sparse_max = argc > 5 ? atoi(argv[5]) : SPARSE_MAX_BODIES;
    char path[1024];
    snprintf(path, sizeof path, "%s/newton_chain.json", outdir);
    FILE *js = fopen(path, "w");
    if (!js) {
        perror(path);
        return 1;
    }
    fprintf(js, "{\"t_end\": %g, \"cases\": [", t_end);
    printf("%6s %-7s %9s %8s %6s %6s %6s %5s %7s %7s %10s\n", "N", "mode", "CPU s", "MB", "steps",
           "iters", "setups", "jacs", "K/body", "LU/body", "max dx m");
    int first = 1, fail = 0;
    char *nsave = NULL;
    for (char *ns = strtok_r(nlist, ",", &nsave); ns; ns = strtok_r(NULL, ",", &nsave)) {
        int n = atoi(ns);
        double *ref = malloc(2 * (size_t) n * sizeof(double));
        double *pos = malloc(2 * (size_t) n * sizeof(double));
        int have_ref = 0;
        char ml[64];
        snprintf(ml, sizeof ml, "%s", mlist);
        char *save = NULL;
        for (char *mode = strtok_r(ml, ",", &save); ref && pos && mode;
             mode = strtok_r(NULL, ",", &save)) {
            if (strcmp(mode, "sparse") == 0 && n > sparse_max)
                continue;
            chain_out r;
            double mb = 0.0;
            int rc = chain_case(n, t_end, mode, have_ref ? pos : ref, &r, &mb);
            if (rc != 0 || !r.ok) {
                printf("%6d %-7s failed\n", n, mode);
                fail = 1;
                continue;
            }
            for (int i = 0; have_ref && i < 2 * n; i++)
                r.maxdiff = fmax(r.maxdiff, fabs(pos[i] - ref[i]));
            have_ref = 1;
            printf("%6d %-7s %9.3f %8.1f %6ld %6ld %6ld %5ld %7.1f %7.1f %10.3g\n", n, mode, r.cpu,
                   mb, r.steps, r.iters, r.setups, r.jacs, (double) r.knnz / n, (double) r.fnnz / n,
                   r.maxdiff);
            fflush(stdout);
            fprintf(js,
                    "%s\n {\"n\": %d, \"mode\": \"%s\", \"cpu_s\": %.4f, \"peak_mb\": %.1f, "
                    "\"steps\": %ld, \"newton_iters\": %ld, \"lin_setups\": %ld, \"jac_evals\": "
                    "%ld, \"k_nnz\": %ld, \"lu_nnz\": %ld, \"max_position_diff_m\": %.3g}",
                    first ? "" : ",", n, mode, r.cpu, mb, r.steps, r.iters, r.setups, r.jacs,
                    r.knnz, r.fnnz, r.maxdiff);
            first = 0;
        }
        free(ref);
        free(pos);
    }
    fprintf(js, "\n]}\n");
    if (fclose(js) != 0) {
        perror(path);
        return 1;
    }
    return fail;
}
