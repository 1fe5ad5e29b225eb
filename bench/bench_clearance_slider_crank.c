/*
 * Benchmark: the slider-crank with a revolute clearance joint
 * (models/slider_crank_clearance.xml: 0.5 mm radial clearance between rod and
 * slider, Lankarani-Nikravesh e = 0.9, friction 0.01, 5000 rpm), 0.1 s of
 * simulated time with outputs every 1e-5 s. Reports the wall time, CVODE steps,
 * right-hand sides (and those of the finite-difference Jacobian), contact
 * events, re-initialisations and impacts. Writes OUTDIR/clearance_slider_crank.json.
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "clink/sim.h"
#include "clink/xml.h"

#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    char err[512] = "";
    clink_model *m = clink_model_load_xml(CLINK_SOURCE_DIR "/models/slider_crank_clearance.xml",
                                          err, sizeof err);
    clink_sim *sim = NULL;
    if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "bench_clearance_slider_crank: %s\n", err);
        clink_model_destroy(&m);
        return 1;
    }
    double t0 = bench_now();
    int nout = 10000;
    for (int i = 1; i <= nout; i++) {
        if (clink_sim_advance(sim, 0.1 * i / nout) != CLINK_OK) {
            fprintf(stderr, "bench_clearance_slider_crank: %s\n", clink_sim_error(sim));
            return 1;
        }
    }
    double wall = bench_now() - t0;
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    int nimp = clink_sim_impact_count(sim);
    char path[1024];
    snprintf(path, sizeof path, "%s/clearance_slider_crank.json", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_clearance_slider_crank: cannot write %s\n", path);
        return 1;
    }
    fprintf(f,
            "{\"case\": \"slider-crank with a clearance joint, 0.1 s at 5000 rpm\",\n"
            " \"wall_s\": %.6g, \"steps\": %ld, \"rhs_evals\": %ld, \"rhs_evals_fd_jacobian\": "
            "%ld,\n \"contact_events\": %ld, \"cvode_reinits\": %ld, \"impacts\": %d}\n",
            wall, st.steps, st.rhs_evals, st.rhs_evals_jac, st.contact_events, st.contact_reinits,
            nimp);
    fclose(f);
    printf("clearance slider-crank 0.1 s at 5000 rpm: %.3f s wall, %ld steps, %ld rhs (+%ld for "
           "the FD Jacobian), %ld events, %d impacts\n",
           wall, st.steps, st.rhs_evals, st.rhs_evals_jac, st.contact_events, nimp);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return 0;
}
