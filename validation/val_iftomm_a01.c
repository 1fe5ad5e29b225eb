/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Validation: IFToMM benchmark A01, the simple pendulum over 2000 s.
 *
 * The model models/iftomm_a01.xml (a uniform rod whose centre of oscillation is
 * the benchmark's point mass at 1 m; see the model) is run with its own settings
 * (Adams, Baumgarte, rtol 1e-10), and the position of the point at 1 m from the
 * pivot is compared every 0.1 s with the exact solution of
 * theta'' = -(g / L) cos(theta) released at rest from the horizontal: with phi
 * the angle from the downward vertical (phi0 = pi / 2), k = sin(phi0 / 2),
 * omega = sqrt(g / L) and u = K(k) - omega t,
 *   sin(phi / 2) = k sn(u, k),  x = 2 L k sn(u) dn(u),  y = -L (1 - 2 k^2 sn(u)^2)
 * (the pendulum in Jacobi elliptic functions, e.g. Lawden, Elliptic Functions
 * and Applications, 1989, ch. 5), sn and dn computed here by the
 * arithmetic-geometric mean (Abramowitz and Stegun 1964, 16.4) after reducing u
 * modulo the period 4 K. Checked: the largest distance between the two over the
 * run below the benchmark's high-precision threshold 1e-3 m; the energy drift
 * (with the work of the Baumgarte terms booked) below 1e-6 of m g L. Reported:
 * the CPU time of the run and CVODE's counts, and the same figures for BDF with
 * projection at the same rtol.
 */
#include "clink/sim.h"
#include "clink/xml.h"
#include "iftomm_reference.h"
#include "vjson.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <time.h>

static const double G = IFTOMM_A01_G;

typedef struct a01_result {
    double max_err, energy_drift, cpu;
    clink_sim_stats st;
    int ok;
} a01_result;

static a01_result run(const clink_model *m, const clink_settings_def *set)
{
    a01_result r = {0};
    clink_sim *sim = NULL;
    char err[512];
    if (clink_sim_create(m, set, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return r;
    }
    const double t_end = 2000.0, dt = 0.1;
    const int n = (int) lround(t_end / dt);
    r.ok = 1;
    clock_t c0 = clock();
    for (int i = 1; i <= n; i++) {
        double t = i * dt;
        if (clink_sim_advance(sim, t) != CLINK_OK) {
            fprintf(stderr, "t = %g: %s\n", t, clink_sim_error(sim));
            r.ok = 0;
            break;
        }
        double x, y, xe, ye;
        iftomm_a01_point(sim, &x, &y);
        iftomm_a01_exact(t, &xe, &ye);
        r.max_err = fmax(r.max_err, hypot(x - xe, y - ye));
        clink_energy e;
        clink_sim_energy(sim, &e);
        r.energy_drift = fmax(r.energy_drift, fabs(e.balance) / (1.0 * G * 0.75));
    }
    r.cpu = (double) (clock() - c0) / CLOCKS_PER_SEC;
    clink_sim_stats_get(sim, &r.st);
    clink_sim_destroy(&sim);
    return r;
}

static void report(vjson *v, const char *tag, const a01_result *r)
{
    char q[160];
    snprintf(q, sizeof q, "%s: CPU time of the 2000 s run", tag);
    vjson_info(v, q, r->cpu, "s");
    snprintf(q, sizeof q, "%s: steps", tag);
    vjson_info(v, q, (double) r->st.steps, "-");
    snprintf(q, sizeof q, "%s: rhs evaluations", tag);
    vjson_info(v, q, (double) (r->st.rhs_evals + r->st.rhs_evals_jac), "-");
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(out, "iftomm_a01", "IFToMM A01: simple pendulum over 2000 s");
    char err[512];
    clink_model *m =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/iftomm_a01.xml", err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    /* the reference against itself at a quarter period: the mass at the bottom, (0, -1) */
    double xq, yq;
    iftomm_a01_exact(iftomm_a01_quarter_period(), &xq, &yq);
    vjson_row(v, "closed form: position after a quarter period (x, bottom)", xq, 0.0, 1e-12, "m");
    vjson_row(v, "closed form: position after a quarter period (y, bottom)", yq, -1.0, 1e-12, "m");
    clink_settings_def set = clink_model_settings(m);
    if (argc > 2) { /* exploring: another rtol (atol 1e-2 rtol) */
        set.rtol = atof(argv[2]);
        set.atol = 1e-2 * set.rtol;
    }
    vjson_info(v, "rtol (atol = rtol / 100)", set.rtol, "-");
    a01_result a = run(m, &set);
    vjson_row(v, "Adams + Baumgarte: max |r - r_exact| over 2000 s", a.ok ? a.max_err : NAN, 0.0,
              1e-3, "m");
    vjson_row(v, "Adams + Baumgarte: max |energy balance| / (m g d)", a.ok ? a.energy_drift : NAN,
              0.0, 1e-6, "-");
    report(v, "Adams + Baumgarte", &a);
    set.method = CLINK_METHOD_BDF;
    set.drift = CLINK_DRIFT_PROJECTION;
    a01_result b = run(m, &set);
    vjson_info(v, "BDF + projection: max |r - r_exact| over 2000 s", b.ok ? b.max_err : NAN, "m");
    report(v, "BDF + projection", &b);
    clink_model_destroy(&m);
    int rc = vjson_close(v);
    return a.ok && b.ok ? rc : 1;
}
