/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The energy audit's book of the drift control (clink_energy.work_stabilisation,
 * src/system/system_audit.c) against the energy the drift control actually moved, in
 * each drift mode (none, Baumgarte, projection; BDF throughout, atol = rtol / 100):
 *   booked    work_stabilisation at t_end;
 *   actual    the change of the balance's other terms, T + V - W_drivers - W_loads
 *             + the contacts' terms, from 0 to t_end: what no applied load accounts for;
 *   residual  actual - booked (clink_energy.balance): the integration error alone when
 *             the book is right, so it shrinks with rtol.
 * Models: models/pendulum.xml (2 s), models/four_bar.xml (2 s) and
 * bench/slider_crank_clearance_crank_rod.xml (the clearance at the crank-rod joint,
 * 0.048 s); for the last, the booked work and the actual change summed over the output
 * intervals (1e-5 s) with no contact force at either end ("flight"). Not a timing: the
 * figures are deterministic. Writes OUTDIR/energy_audit.json. Usage:
 *   bench_energy_audit [OUTDIR]
 */
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXON 512

typedef struct audit {
    double booked, actual, residual, booked_flight, actual_flight;
    long steps;
    int ok;
    int nonset;          /* contact onsets (penetration up-crossings between outputs) */
    double onset[MAXON]; /* their times, linear between the outputs, s */
} audit;

/* the penetration of contact 0 (-1: the model has none) */
static double penetration(const clink_sim *sim)
{
    clink_contact_info ci;
    if (clink_sim_contact_count(sim) < 1 || clink_sim_contact(sim, 0, &ci) != CLINK_OK)
        return -1.0;
    return ci.delta;
}

/* the balance's terms other than work_stabilisation, J */
static double accounted(const clink_energy *e)
{
    return e->kinetic + e->gravity + e->spring - e->work_drivers - e->work_loads +
           e->contact_stored + e->contact_damping + e->contact_friction;
}

/* one run of path to t_end in drift mode drift at rtol, sampled every dt */
static audit run(const char *path, clink_drift drift, double rtol, double t_end, double dt)
{
    static audit a;
    memset(&a, 0, sizeof a);
    char err[512];
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return a;
    }
    clink_settings_def set = clink_model_settings(m);
    set.method = CLINK_METHOD_BDF;
    set.drift = drift;
    set.rtol = rtol;
    set.atol = rtol / 100.0;
    set.t_end = t_end;
    clink_sim *sim = NULL;
    if (clink_sim_create(m, &set, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(&m);
        return a;
    }
    clink_energy e0, ep, e;
    clink_sim_energy(sim, &e0);
    ep = e0;
    double dp = penetration(sim);
    int n = (int) lround(t_end / dt);
    for (int i = 1; i <= n; i++) {
        if (clink_sim_advance(sim, t_end * i / n) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            break;
        }
        clink_sim_energy(sim, &e);
        if (ep.contact_stored == 0.0 && e.contact_stored == 0.0) {
            a.booked_flight += e.work_stabilisation - ep.work_stabilisation;
            a.actual_flight += accounted(&e) - accounted(&ep);
        }
        ep = e;
        double d = penetration(sim);
        if (dp <= 0.0 && d > 0.0 && a.nonset < MAXON)
            a.onset[a.nonset++] = t_end * (i - d / (d - dp)) / n;
        dp = d;
        a.ok = i == n;
    }
    a.booked = ep.work_stabilisation - e0.work_stabilisation;
    a.actual = accounted(&ep) - accounted(&e0);
    a.residual = ep.balance;
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    a.steps = st.steps;
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return a;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    static const struct {
        const char *name, *file;
        double t_end, dt, rtol[3];
    } models[] = {
        {"pendulum", CLINK_SOURCE_DIR "/models/pendulum.xml", 2.0, 0.01, {1e-4, 1e-6, 1e-8}},
        {"four_bar", CLINK_SOURCE_DIR "/models/four_bar.xml", 2.0, 0.01, {1e-4, 1e-6, 1e-8}},
        {"slider_crank_crank_rod",
         CLINK_SOURCE_DIR "/bench/slider_crank_clearance_crank_rod.xml",
         0.048,
         1e-5,
         {1e-8, 1e-10, 0.0}},
    };
    static const char *drift_name[] = {"none", "baumgarte", "projection"};
    static const clink_drift drifts[] = {CLINK_DRIFT_NONE, CLINK_DRIFT_BAUMGARTE,
                                         CLINK_DRIFT_PROJECTION};
    char out[1024];
    snprintf(out, sizeof out, "%s/energy_audit.json", dir);
    FILE *f = fopen(out, "w");
    if (!f) {
        perror(out);
        return 1;
    }
    fprintf(f, "[\n");
    int first = 1, failed = 0;
    printf("%-24s %-10s %6s %12s %12s %12s %12s %12s %7s\n", "model", "drift", "rtol", "booked",
           "actual", "residual", "booked_fl", "actual_fl", "steps");
    /* the impact onsets of a tight reference: BDF without drift control at rtol 1e-12 */
    static audit ref;
    ref = run(models[2].file, CLINK_DRIFT_NONE, 1e-12, models[2].t_end, models[2].dt);
    printf("reference (none, rtol 1e-12): %d onsets, residual %.4e J\n", ref.nonset, ref.residual);
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
        for (int d = 0; d < 3; d++)
            for (int r = 0; r < 3 && models[k].rtol[r] > 0.0; r++) {
                double rtol = models[k].rtol[r];
                audit a = run(models[k].file, drifts[d], rtol, models[k].t_end, models[k].dt);
                failed |= !a.ok;
                printf("%-24s %-10s %6.0e %12.4e %12.4e %12.4e %12.4e %12.4e %7ld\n",
                       models[k].name, drift_name[d], rtol, a.booked, a.actual, a.residual,
                       a.booked_flight, a.actual_flight, a.steps);
                int agree = 0; /* leading onsets within 1e-6 s of the reference's */
                while (k == 2 && agree < a.nonset && agree < ref.nonset &&
                       fabs(a.onset[agree] - ref.onset[agree]) <= 1e-6)
                    agree++;
                if (k == 2)
                    printf("    onsets %d, leading ones within 1 us of the reference %d, first "
                           "differing at %.6g s\n",
                           a.nonset, agree, agree < a.nonset ? a.onset[agree] : NAN);
                fprintf(
                    f,
                    "%s  {\"model\": \"%s\", \"drift\": \"%s\", \"rtol\": %.17g, \"booked\": %.6e, "
                    "\"actual\": %.6e, \"residual\": %.6e, \"booked_flight\": %.6e, "
                    "\"actual_flight\": %.6e, \"steps\": %ld, \"onsets\": %d, \"onsets_agreeing\": "
                    "%d, "
                    "\"completed\": %s}",
                    first ? "" : ",\n", models[k].name, drift_name[d], rtol, a.booked, a.actual,
                    a.residual, a.booked_flight, a.actual_flight, a.steps, a.nonset, agree,
                    a.ok ? "true" : "false");
                first = 0;
            }
    fprintf(f, "\n]\n");
    if (fclose(f) != 0) {
        perror(out);
        return 1;
    }
    return failed;
}
