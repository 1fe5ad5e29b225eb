/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: the ideal slider-crank (docs/contact-mechanics.md, crank
 * 0.05 m, rod 0.12 m) driven at 5000 rpm for 1 s (83.3 revolutions), BDF with
 * projection, rtol 1e-8, atol 1e-10, outputs every 1e-4 s (interpolated from CVODE's
 * dense output: the outputs do not stop the integrator).
 * Reports the wall time of the run, CVODE's right-hand-side count (and those of
 * the finite-difference Jacobian), and the cost of one right-hand side measured
 * separately: 10^5 saddle-point solves (dyn_accelerations: forces, constraint
 * evaluation, factorisation and solve) at states along the run, with the
 * Schur complement (the default at this size) and with KLU, alternating in
 * blocks of 10^4, medians of the blocks.
 * Writes OUTDIR/slider_crank.json.
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "../validation/slider_crank_model.h"
#include "dynamics/dynamics.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const double PI = 3.14159265358979323846, w = 5000.0 * 2.0 * PI / 60.0;
    clink_settings_def s = clink_default_settings_def();
    s.rtol = 1e-8;
    s.atol = 1e-10;
    s.method = CLINK_METHOD_BDF; /* as the header says (auto would take Adams + Baumgarte) */
    s.drift = CLINK_DRIFT_PROJECTION;
    char err[512] = "";
    clink_model *m = slider_crank_model(w, &s, err, sizeof err);
    clink_sim *sim = NULL;
    if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "bench_slider_crank: %s\n", err);
        return 1;
    }
    double t0 = bench_now();
    int nout = 10000;
    for (int i = 1; i <= nout; i++) {
        if (clink_sim_advance(sim, 1.0 * i / nout) != CLINK_OK) {
            fprintf(stderr, "bench_slider_crank: %s\n", clink_sim_error(sim));
            return 1;
        }
    }
    double wall = bench_now() - t0;
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    double pv;
    clink_sim_constraint_violation(sim, &pv, NULL);

    /* one right-hand side: states from the closed form at 1000 crank angles */
    dyn_system *dyns[2] = {dyn_create(m), dyn_create(m)};
    if (!dyns[0] || !dyns[1] || dyn_set_solver(dyns[0], DYN_SOLVER_SCHUR) != CLINK_OK ||
        dyn_set_solver(dyns[1], DYN_SOLVER_KLU) != CLINK_OK) {
        fprintf(stderr, "bench_slider_crank: out of memory\n");
        return 1;
    }
    double q[9], v[9], a[9], lam[9], sink = 0.0, blocks[2][10];
    int nrep = 100000, nblock = 10;
    for (int b = 0; b < nblock; b++)
        for (int k = 0; k < 2; k++) {
            dyn_system *dyn = dyns[k];
            double t1 = bench_now();
            for (int i = b * (nrep / nblock); i < (b + 1) * (nrep / nblock); i++) {
                double th = 2.0 * PI * (i % 1000) / 1000.0, r = SC_R, l = SC_L;
                double sn = sin(th), cs = cos(th), ss = sqrt(l * l - r * r * sn * sn);
                double xb = r * cs + ss, beta = asin(-r * sn / l);
                double xd = -r * w * sn - r * r * w * sn * cs / ss, bd = -r * w * cs / ss;
                double qq[9] = {0.5 * r * cs, 0.5 * r * sn, th, 0.5 * (r * cs + xb),
                                0.5 * r * sn, beta,         xb, 0.0,
                                0.0};
                double vv[9] = {-0.5 * r * w * sn,
                                0.5 * r * w * cs,
                                w,
                                0.5 * (-r * w * sn + xd),
                                0.5 * r * w * cs,
                                bd,
                                xd,
                                0.0,
                                0.0};
                for (int j = 0; j < 9; j++) {
                    q[j] = qq[j];
                    v[j] = vv[j];
                }
                if (dyn_accelerations(dyn, th / w, q, v, a, lam) != CLINK_OK) {
                    fprintf(stderr, "bench_slider_crank: %s\n", dyn_error(dyn));
                    return 1;
                }
                sink += a[6];
            }
            blocks[k][b] = (bench_now() - t1) / (nrep / nblock);
        }
    double med[2];
    for (int k = 0; k < 2; k++) {
        for (int i = 1; i < nblock; i++) /* insertion sort of 10 */
            for (int j = i; j > 0 && blocks[k][j] < blocks[k][j - 1]; j--) {
                double tmp = blocks[k][j];
                blocks[k][j] = blocks[k][j - 1];
                blocks[k][j - 1] = tmp;
            }
        med[k] = 0.5 * (blocks[k][nblock / 2 - 1] + blocks[k][nblock / 2]);
    }
    double per_rhs = med[0];

    char path[1024];
    snprintf(path, sizeof path, "%s/slider_crank.json", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_slider_crank: cannot write %s\n", path);
        return 1;
    }
    fprintf(f,
            "{\"case\": \"ideal slider-crank, 1 s at 5000 rpm, BDF + projection, rtol 1e-8\",\n"
            " \"wall_s\": %.6g, \"steps\": %ld, \"rhs_evals\": %ld, \"rhs_evals_fd_jacobian\": "
            "%ld,\n \"jac_evals\": %ld, \"projections\": %ld, \"klu_factors\": %ld, "
            "\"klu_refactors\": %ld,\n \"seconds_per_rhs\": %.6g, \"seconds_per_rhs_klu\": %.6g, "
            "\"max_abs_phi_end\": %.3g, "
            "\"checksum\": %.6g}\n",
            wall, st.steps, st.rhs_evals, st.rhs_evals_jac, st.jac_evals, st.proj_evals,
            st.klu_factors, st.klu_refactors, per_rhs, med[1], pv, sink);
    fclose(f);
    printf("slider-crank 1 s at 5000 rpm: %.3f s wall, %ld steps, %ld rhs (+%ld for the FD "
           "Jacobian), %.3g us per rhs (KLU: %.3g us, ratio %.2f)\n",
           wall, st.steps, st.rhs_evals, st.rhs_evals_jac, per_rhs * 1e6, med[1] * 1e6,
           med[1] / med[0]);
    dyn_destroy(&dyns[0]);
    dyn_destroy(&dyns[1]);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return 0;
}
