/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Benchmark: the horizontal granular chain of Wang, Liu and Liu (2022), Sect. 5.2
 * (validation/granular_chain_model.h: stainless steel beads, elastic Hertz law
 * at every contact, striker at 1.77 m/s, Adams, rtol 1e-8, atol 1e-13) at
 * N = 70, 700 and 7000 beads. For each N: the time to build the model, the
 * time to create the simulation, then clink_sim_advance() in steps of 1 us
 * over a simulated window, reporting wall time per simulated millisecond and
 * per CVODE step, CVODE steps, right-hand sides, contact events, impacts and
 * the memory high-water mark (getrusage ru_maxrss: the process's cumulative
 * maximum, so the figure for N includes whatever the smaller runs before it
 * reached). The window is 0.4 ms for every N except where WINDOW below says
 * otherwise: the peak of the solitary wave is at about contact 60 after
 * 0.4 ms, so the work per step of the long chains is dominated by the beads at
 * rest, which is what the growth ratios cost(700)/cost(70) and
 * cost(7000)/cost(700) show (per simulated millisecond, per step and per
 * right-hand side; per step it should grow about linearly with N for a kernel
 * that is O(N) per step). Each run also reports where the wave is at the end
 * (the contact of the largest force) and how many contacts start in permanent
 * contact, which must be 0: the beads of a long chain sit at large |x|, and the
 * rounding of their positions overlaps touching beads by up to 4.5e-15 m at
 * N = 7000; the onset level grows with the size of the coordinates so that such
 * contacts start open (before that fix, 2133 of 6999 contacts started permanent
 * and the wave's arrival there was no event). With 0, the event and impact
 * counts of the three N are equal (the wave is the same).
 *
 *
 * The side-by-side benchmark against Simbody (bench/chain_side_by_side.py) runs
 * the same chain at a given tolerance and samples the forces of the sensor
 * contacts of chain_sensors.h every 1 us into a CSV file, reporting wall time,
 * steps, right-hand sides and the memory high-water mark of the process (one
 * chain per process, so the figure is that chain's) as a JSON line.
 *
 * Both modes read only the contacts' information (the forces of the sensors, the largest
 * force and the permanent contacts), so each asks for outputs at CLINK_OUTPUT_CONTACTS
 * (clink_sim_set_outputs): no accelerations, reactions, energies or constraint violation
 * are computed at the outputs; the sensors mode reads three contacts and lists them
 * (clink_sim_set_output_contacts), as Simbody's side of the benchmark realizes each sample
 * only to Stage::Position and evaluates its three sensor forces. The integration and the
 * contacts' information are the same bits as with the complete outputs.
 *
 *   bench_granular_chain OUTDIR            the three chains, OUTDIR/granular_chain.json
 *   bench_granular_chain OUTDIR N WINDOW   one chain of N beads over WINDOW s (for profiling)
 *   bench_granular_chain CSV N WINDOW RTOL ATOL sensors
 *                                          one chain at rtol, atol; sensor forces into CSV
 * A last argument "window" (after WINDOW, or after sensors) runs with the window of the
 * state (settings window on: docs/kernel.md, "Work in proportion to what moves").
 */
#include "bench_clock.h" /* first: it sets _POSIX_C_SOURCE */

#include "chain_sensors.h"
#include "clink/sim.h"
#include "granular_chain_model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define DT 1e-6 /* s, the step of clink_sim_advance() */

typedef struct chain_result {
    int n;
    double window;   /* simulated s */
    double build_s;  /* granular_chain_model(), wall s */
    double create_s; /* clink_sim_create(), wall s */
    double wall_s;   /* the advance loop, wall s */
    double per_ms;   /* wall s per simulated ms */
    double per_step; /* wall s per CVODE step */
    double per_rhs;  /* wall s per right-hand side */
    clink_sim_stats st;
    int impacts;
    int persistent0;   /* contacts in permanent contact at t = 0 (overlap of the touching beads
                          beyond the onset level, from the rounding of the positions) */
    int peak_contact;  /* contact of the largest force at the end (where the wave is) */
    double peak_force; /* N */
    long maxrss_kib;   /* ru_maxrss after the run, KiB (cumulative maximum of the process) */
} chain_result;

static long maxrss_kib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

/* one chain of n beads over window s; 0 on success */
/* contacts in permanent contact now (*persistent) and the contact of the largest force
   (*peak, *peak_force, N), each optional; 0, or -1 with a message */
static int scan_contacts(const clink_sim *sim, int n, int *persistent, int *peak,
                         double *peak_force)
{
    int ncon = clink_sim_contact_count(sim), np = 0, kp = -1;
    double fp = 0.0;
    for (int k = 0; k < ncon; k++) {
        clink_contact_info ci;
        if (clink_sim_contact(sim, k, &ci) != CLINK_OK) {
            fprintf(stderr, "bench_granular_chain: N = %d: contact %d: %s\n", n, k,
                    clink_sim_error(sim));
            return -1;
        }
        np += ci.persistent != 0;
        if (ci.fn > fp) {
            fp = ci.fn;
            kp = k;
        }
    }
    if (persistent)
        *persistent = np;
    if (peak)
        *peak = kp;
    if (peak_force)
        *peak_force = fp;
    return 0;
}

/* 1: the window of the state (a last argument "window") */
static int bench_window;

static int run_chain(int n, double window, chain_result *r)
{
    char err[512] = "";
    granular_law law = granular_hertz();
    clink_settings_def s = granular_settings(window);
    s.window = bench_window;
    r->n = n;
    r->window = window;

    double t0 = bench_now();
    clink_model *m = granular_chain_model(n, GRANULAR_V, &law, &s, err, sizeof err);
    r->build_s = bench_now() - t0;
    if (!m) {
        fprintf(stderr, "bench_granular_chain: N = %d: model: %s\n", n, err);
        return -1;
    }

    clink_sim *sim = NULL;
    t0 = bench_now();
    clink_status cs = clink_sim_create(m, &s, &sim, err, sizeof err);
    r->create_s = bench_now() - t0;
    if (cs != CLINK_OK) {
        fprintf(stderr, "bench_granular_chain: N = %d: sim: %s\n", n, err);
        clink_model_destroy(&m);
        return -1;
    }
    if (clink_sim_set_outputs(sim, CLINK_OUTPUT_CONTACTS) != CLINK_OK) {
        fprintf(stderr, "bench_granular_chain: N = %d: %s\n", n, clink_sim_error(sim));
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
        return -1;
    }

    if (scan_contacts(sim, n, &r->persistent0, NULL, NULL) != 0) {
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
        return -1;
    }

    long nt = lround(window / DT);
    t0 = bench_now();
    for (long i = 1; i <= nt; i++) {
        if (clink_sim_advance(sim, (double) i * DT) != CLINK_OK) {
            fprintf(stderr, "bench_granular_chain: N = %d: %s\n", n, clink_sim_error(sim));
            clink_sim_destroy(&sim);
            clink_model_destroy(&m);
            return -1;
        }
    }
    r->wall_s = bench_now() - t0;

    clink_sim_stats_get(sim, &r->st);
    r->impacts = clink_sim_impact_count(sim);
    r->per_ms = r->wall_s / (window * 1e3);
    r->per_step = r->st.steps > 0 ? r->wall_s / (double) r->st.steps : NAN;
    r->per_rhs = r->st.rhs_evals > 0 ? r->wall_s / (double) r->st.rhs_evals : NAN;
    r->maxrss_kib = maxrss_kib();
    if (scan_contacts(sim, n, NULL, &r->peak_contact, &r->peak_force) != 0) {
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
        return -1;
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    if (r->impacts < 0 || r->st.steps <= 0) {
        fprintf(stderr, "bench_granular_chain: N = %d: no steps or bad impact count\n", n);
        return -1;
    }
    printf(
        "N = %5d  window %.3g ms%s: build %.3f s, create %.3f s, advance %.3f s wall "
        "(%.4g s per simulated ms, %.3g us per step), %ld steps, %ld rhs, %ld events, "
        "%d impacts, maxrss %ld KiB; wave at contact %d (%.2f N); %d contacts permanent at t = 0\n",
        n, window * 1e3, window < 0.4e-3 ? " (shortened)" : "", r->build_s, r->create_s, r->wall_s,
        r->per_ms, r->per_step * 1e6, r->st.steps, r->st.rhs_evals, r->st.contact_events,
        r->impacts, r->maxrss_kib, r->peak_contact, r->peak_force, r->persistent0);
    fflush(stdout);
    return 0;
}

static int write_json(const char *outdir, const chain_result *r, int nr)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/granular_chain.json", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_granular_chain: cannot write %s\n", path);
        return -1;
    }
    fprintf(f,
            "{\"case\": \"granular chain of Wang, Liu and Liu (2022), Sect. 5.2, elastic Hertz, "
            "striker %.3g m/s, "
            "Adams rtol 1e-8 atol 1e-13, advanced in steps of %.3g s\",\n"
            " \"window_note\": \"simulated window 0.4 ms unless window_s says less (shortened "
            "to keep the run short); the peak of the wave is at about contact 60 after 0.4 ms\",\n"
            " \"maxrss_note\": \"ru_maxrss after each run: the process's cumulative maximum, "
            "KiB\",\n"
            " \"events_note\": \"contacts_permanent_at_t0: touching beads whose overlap from the "
            "rounding of the initial positions exceeds the onset level (which grows with the "
            "coordinates' size, so it must be 0); peak_contact locates the wave at the end\",\n"
            " \"runs\": [\n",
            GRANULAR_V, DT);
    for (int i = 0; i < nr; i++) {
        const chain_result *c = &r[i];
        fprintf(f,
                "  {\"n\": %d, \"window_s\": %.6g, \"shortened\": %s, \"build_s\": %.6g, "
                "\"create_s\": %.6g, \"wall_s\": %.6g, \"wall_s_per_sim_ms\": %.6g, "
                "\"wall_s_per_step\": %.6g, \"wall_s_per_rhs\": %.6g, \"steps\": %ld, "
                "\"rhs_evals\": %ld, \"contact_events\": %ld, \"cvode_reinits\": %ld, "
                "\"error_test_fails\": %ld, \"nonlin_iters\": %ld, \"last_order\": %d, "
                "\"klu_refactors\": %ld, \"impacts\": %d, \"maxrss_kib\": %ld, "
                "\"peak_contact\": %d, \"peak_force_N\": %.6g, \"contacts_permanent_at_t0\": "
                "%d}%s\n",
                c->n, c->window, c->window < 0.4e-3 ? "true" : "false", c->build_s, c->create_s,
                c->wall_s, c->per_ms, c->per_step, c->per_rhs, c->st.steps, c->st.rhs_evals,
                c->st.contact_events, c->st.contact_reinits, c->st.error_test_fails,
                c->st.nonlin_iters, c->st.last_order, c->st.klu_refactors, c->impacts,
                c->maxrss_kib, c->peak_contact, c->peak_force, c->persistent0,
                i + 1 < nr ? "," : "");
    }
    fprintf(f, " ]");
    if (nr == 3) {
        fprintf(f,
                ",\n \"ratios\": {\"per_sim_ms_700_over_70\": %.6g, "
                "\"per_sim_ms_7000_over_700\": %.6g, \"per_step_700_over_70\": %.6g, "
                "\"per_step_7000_over_700\": %.6g, \"per_rhs_700_over_70\": %.6g, "
                "\"per_rhs_7000_over_700\": %.6g}",
                r[1].per_ms / r[0].per_ms, r[2].per_ms / r[1].per_ms, r[1].per_step / r[0].per_step,
                r[2].per_step / r[1].per_step, r[1].per_rhs / r[0].per_rhs,
                r[2].per_rhs / r[1].per_rhs);
    }
    fprintf(f, "\n}\n");
    if (fclose(f) != 0) {
        fprintf(stderr, "bench_granular_chain: error writing %s\n", path);
        return -1;
    }
    return 0;
}

/*
 * The chain of n beads over window s at rtol, atol for the side-by-side benchmark:
 * the forces of the sensor contacts every CHAIN_DT into csv, the figures as one
 * JSON line on stdout; 0 on success.
 */
static int run_sensors(int n, double window, double rtol, double atol, const char *csv)
{
    /* chain_sensors.h describes the same chain as granular_chain_model.h */
    if (CHAIN_R != GRANULAR_R || CHAIN_MASS != GRANULAR_MASS || CHAIN_E != GRANULAR_E ||
        CHAIN_NU != GRANULAR_NU || CHAIN_GAP != GRANULAR_GAP || CHAIN_V != GRANULAR_V ||
        chain_x0(n, 1) != granular_x(n, 1) || chain_x0(n, n + 1) != granular_x(n, n + 1)) {
        fprintf(stderr, "bench_granular_chain: chain_sensors.h and granular_chain_model.h "
                        "differ\n");
        return -1;
    }
    char err[512] = "";
    granular_law law = granular_hertz();
    clink_settings_def s = granular_settings(window);
    s.window = bench_window;
    s.rtol = rtol;
    s.atol = atol;
    double t0 = bench_now();
    clink_model *m = granular_chain_model(n, GRANULAR_V, &law, &s, err, sizeof err);
    if (!m) {
        fprintf(stderr, "bench_granular_chain: N = %d: model: %s\n", n, err);
        return -1;
    }
    clink_sim *sim = NULL;
    if (clink_sim_create(m, &s, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "bench_granular_chain: N = %d: sim: %s\n", n, err);
        clink_model_destroy(&m);
        return -1;
    }
    if (clink_sim_set_outputs(sim, CLINK_OUTPUT_CONTACTS) != CLINK_OK) {
        fprintf(stderr, "bench_granular_chain: N = %d: %s\n", n, clink_sim_error(sim));
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
        return -1;
    }
    double build_s = bench_now() - t0;

    int sens[CHAIN_NSENSOR];
    chain_sensors(n, window, sens);
    long ns = chain_samples(window);
    double *samples = malloc((size_t) ns * CHAIN_NSENSOR * sizeof(double));
    int rc = samples && clink_sim_contact_count(sim) == n + 1 ? 0 : -1;
    if (rc != 0)
        fprintf(stderr, "bench_granular_chain: out of memory or wrong contact count\n");
    if (rc == 0 && clink_sim_set_output_contacts(sim, sens, CHAIN_NSENSOR) != CLINK_OK) {
        fprintf(stderr, "bench_granular_chain: N = %d: %s\n", n, clink_sim_error(sim));
        rc = -1;
    }
    t0 = bench_now();
    for (long i = 1; i <= ns && rc == 0; i++) {
        if (clink_sim_advance(sim, (double) i * CHAIN_DT) != CLINK_OK) {
            fprintf(stderr, "bench_granular_chain: N = %d: %s\n", n, clink_sim_error(sim));
            rc = -1;
            break;
        }
        for (int j = 0; j < CHAIN_NSENSOR; j++) {
            clink_contact_info ci;
            if (clink_sim_contact(sim, sens[j], &ci) != CLINK_OK) {
                fprintf(stderr, "bench_granular_chain: N = %d: %s\n", n, clink_sim_error(sim));
                rc = -1;
                break;
            }
            samples[(size_t) (i - 1) * CHAIN_NSENSOR + (size_t) j] = ci.fn;
        }
    }
    double wall_s = bench_now() - t0;
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    clink_window_stats ws;
    clink_sim_window_get(sim, &ws);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);

    FILE *f = rc == 0 ? fopen(csv, "w") : NULL;
    if (rc == 0 && !f) {
        fprintf(stderr, "bench_granular_chain: %s: %s\n", csv, strerror(errno));
        rc = -1;
    }
    if (f) {
        chain_csv_header(f, sens);
        for (long i = 1; i <= ns; i++)
            chain_csv_row(f, (double) i * CHAIN_DT, &samples[(size_t) (i - 1) * CHAIN_NSENSOR]);
        if (fclose(f) != 0) {
            fprintf(stderr, "bench_granular_chain: %s: %s\n", csv, strerror(errno));
            rc = -1;
        }
    }
    free(samples);
    if (rc == 0)
        printf("{\"code\": \"clink\", \"n\": %d, \"window_s\": %.9g, \"integrator\": "
               "\"adams\", \"rtol\": %.3g, \"atol\": %.3g, \"build_s\": %.6g, \"wall_s\": "
               "%.6g, \"steps\": %ld, \"rhs_evals\": %ld, \"error_test_fails\": %ld, "
               "\"contact_events\": %ld, \"maxrss_kib\": %ld, \"vmhwm_kib\": %ld, "
               "\"window\": %d, \"restarts\": %ld, \"mean_awake\": %.6g}\n",
               n, window, rtol, atol, build_s, wall_s, st.steps, st.rhs_evals, st.error_test_fails,
               st.contact_events, maxrss_kib(), chain_vmhwm_kib(), ws.in_use, ws.restarts,
               ws.mean_awake);
    return rc;
}

/* strict parse of a positive number; 0 on success */
static int parse_positive(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    return (end == s || *end != '\0' || errno != 0 || !isfinite(*x) || *x <= 0.0) ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    /* simulated window per N, s */
    static const int NS[3] = {70, 700, 7000};
    static const double WINDOW[3] = {0.4e-3, 0.4e-3, 0.4e-3};
    chain_result r[3];

    if ((argc == 5 || argc == 8) && strcmp(argv[argc - 1], "window") == 0) {
        bench_window = 1;
        argc--;
    }
    if (argc == 4) {
        double n, w;
        if (parse_positive(argv[2], &n) != 0 || n != floor(n) || n > 1e6 ||
            parse_positive(argv[3], &w) != 0 || w < DT) {
            fprintf(stderr, "usage: bench_granular_chain OUTDIR [N WINDOW_S]\n");
            return 2;
        }
        if (run_chain((int) n, w, &r[0]) != 0)
            return 1;
        return write_json(outdir, r, 1) != 0;
    }
    if (argc == 7 && strcmp(argv[6], "sensors") == 0) {
        double n, w, rtol, atol;
        if (parse_positive(argv[2], &n) != 0 || n != floor(n) || n < 2 || n > 1e6 ||
            parse_positive(argv[3], &w) != 0 || w < CHAIN_DT ||
            parse_positive(argv[4], &rtol) != 0 || parse_positive(argv[5], &atol) != 0) {
            fprintf(stderr, "usage: bench_granular_chain CSV N WINDOW_S RTOL ATOL sensors\n");
            return 2;
        }
        return run_sensors((int) n, w, rtol, atol, argv[1]) != 0;
    }
    if (argc > 2) {
        fprintf(stderr, "usage: bench_granular_chain OUTDIR [N WINDOW_S]\n");
        return 2;
    }
    for (int i = 0; i < 3; i++)
        if (run_chain(NS[i], WINDOW[i], &r[i]) != 0)
            return 1;
    printf("growth, per simulated ms: cost(700)/cost(70) = %.3g, cost(7000)/cost(700) = %.3g\n",
           r[1].per_ms / r[0].per_ms, r[2].per_ms / r[1].per_ms);
    printf("growth, per CVODE step:   cost(700)/cost(70) = %.3g, cost(7000)/cost(700) = %.3g\n",
           r[1].per_step / r[0].per_step, r[2].per_step / r[1].per_step);
    printf("growth, per rhs:          cost(700)/cost(70) = %.3g, cost(7000)/cost(700) = %.3g\n",
           r[1].per_rhs / r[0].per_rhs, r[2].per_rhs / r[1].per_rhs);
    return write_json(outdir, r, 3) != 0;
}
