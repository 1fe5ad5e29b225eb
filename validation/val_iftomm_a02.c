/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Validation: IFToMM benchmark A02, the N-four-bar mechanism (N = 40), 20 s.
 *
 * models/n_four_bar.xml: 41 vertical links (cranks, 1 m, 1 kg, pivots at (i, 0))
 * and 40 couplers (1 m, 1 kg) joining their tips, released upright with the tip
 * B0 of the first crank moving along +x at 1 m/s under g = 9.81 m/s^2. Every
 * crank turns by the same angle theta (from the horizontal) and every coupler
 * translates with the tips, so the motion has one minimal coordinate: with
 * J_O = m L^2 / 3 about a pivot,
 *   T = (41 J_O + 40 m L^2) theta'^2 / 2,  V = (41 m L / 2 + 40 m L) g sin(theta),
 *   theta'' = -c cos(theta),  c = g (41 / 2 + 40) / (41 / 3 + 40),
 * theta(0) = pi / 2, theta'(0) = -1 rad/s: theta'^2 = 1 + 2 c (1 - sin theta) > 0,
 * so the cranks turn over and over, through the horizontal positions (theta = 0,
 * pi) where the 242 constraint rows lose 40 of their rank and the mobility jumps
 * from 1 to 41. The reference integrates this equation independently, by the
 * classical fourth-order Runge-Kutta method at h = 1e-4 s (its error is estimated
 * by the same at 2e-4 s and reported).
 *
 * Checked, with BDF and projection at rtol 1e-9 over 20 s (400 outputs): the
 * run does not stop; the position of B0 within the benchmark's
 * high-precision threshold (1e-3 m) of the reference at every output; its
 * velocity within 1e-3 m/s; no drift (max |Phi| <= 1e-10 m at the outputs); the
 * energy balance (projections booked) within 1e-6 of the largest kinetic energy.
 * Reported: CPU time, CVODE's counts, and the same at the model's own settings
 * (rtol 1e-8, chosen for speed: B0 within 7.5e-4 m, its velocity 5e-3 m/s).
 */
#include "clink/sim.h"
#include "clink/xml.h"
#include "iftomm_reference.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#define A02_OUTPUTS 400

typedef struct a02_result {
    double perr, verr, viol, bal, cpu, t_stop;
    clink_sim_stats st;
    int ok;
} a02_result;

/* the model at settings set over 20 s against the reference theta, w at the outputs */
static a02_result run(const clink_model *m, const clink_settings_def *set, const double *th,
                      const double *w)
{
    a02_result r = {0};
    clink_sim *sim = NULL;
    char err[512];
    if (clink_sim_create(m, set, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return r;
    }
    double escale = 0.0;
    r.ok = 1;
    clock_t c0 = clock();
    for (int k = 0; k < A02_OUTPUTS; k++) {
        double t = (k + 1) * 0.05;
        if (clink_sim_advance(sim, t) != CLINK_OK) {
            fprintf(stderr, "t = %g: %s\n", t, clink_sim_error(sim));
            r.ok = 0;
            break;
        }
        double b[2], bv[2], p;
        iftomm_a02_b0(sim, b, bv);
        r.perr = fmax(r.perr, hypot(b[0] - cos(th[k]), b[1] - sin(th[k])));
        r.verr = fmax(r.verr, hypot(bv[0] + sin(th[k]) * w[k], bv[1] - cos(th[k]) * w[k]));
        clink_sim_constraint_violation(sim, &p, NULL);
        r.viol = fmax(r.viol, p);
        clink_energy e;
        clink_sim_energy(sim, &e);
        r.bal = fmax(r.bal, fabs(e.balance));
        escale = fmax(escale, e.kinetic);
    }
    r.bal /= escale > 0.0 ? escale : 1.0;
    r.cpu = (double) (clock() - c0) / CLOCKS_PER_SEC;
    r.t_stop = clink_sim_time(sim);
    clink_sim_stats_get(sim, &r.st);
    clink_sim_destroy(&sim);
    return r;
}

static void report(vjson *v, const char *tag, const a02_result *r)
{
    char q[160];
    snprintf(q, sizeof q, "%s: CPU time of the 20 s run", tag);
    vjson_info(v, q, r->cpu, "s");
    snprintf(q, sizeof q, "%s: steps", tag);
    vjson_info(v, q, (double) r->st.steps, "-");
    snprintf(q, sizeof q, "%s: rhs evaluations (Jacobian included)", tag);
    vjson_info(v, q, (double) (r->st.rhs_evals + r->st.rhs_evals_jac), "-");
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(out, "iftomm_a02", "IFToMM A02: N-four-bar mechanism, N = 40, 20 s");
    char err[512];
    clink_model *m =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/n_four_bar.xml", err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const double dt = 0.05;
    static double th[A02_OUTPUTS], w[A02_OUTPUTS], th2[A02_OUTPUTS], w2[A02_OUTPUTS];
    iftomm_a02_reference(dt, 500, A02_OUTPUTS, th, w);
    iftomm_a02_reference(dt, 250, A02_OUTPUTS, th2, w2);
    double ref_err = 0.0, turns = (0.5 * IFTOMM_PI - th[A02_OUTPUTS - 1]) / (2.0 * IFTOMM_PI);
    for (int k = 0; k < A02_OUTPUTS; k++)
        ref_err = fmax(ref_err, fabs(th[k] - th2[k]));
    vjson_info(v, "reference: |theta(h) - theta(2h)| (its error is 1/15 of it)", ref_err, "rad");
    vjson_info(v, "reference: crank turns in 20 s", turns, "-");
    clink_settings_def set = clink_model_settings(m);
    a02_result r8 = run(m, &set, th, w);
    set.rtol = 1e-9;
    set.atol = 1e-11;
    a02_result r9 = run(m, &set, th, w);
    int ok = r8.ok && r9.ok;
    vjson_check(v, "rtol 1e-9: runs 20 s through the singular positions", r9.ok ? 20.0 : r9.t_stop,
                "no stop", r9.ok, "s");
    vjson_row(v, "rtol 1e-9: max |B0 - B0_ref| over 20 s", r9.ok ? r9.perr : NAN, 0.0, 1e-3, "m");
    vjson_row(v, "rtol 1e-9: max |v_B0 - v_B0_ref| over 20 s", r9.ok ? r9.verr : NAN, 0.0, 1e-3,
              "m/s");
    vjson_row(v, "rtol 1e-9: max |Phi| at the outputs", r9.ok ? r9.viol : NAN, 0.0, 1e-10, "m");
    vjson_row(v, "rtol 1e-9: max |energy balance| / max T", r9.ok ? r9.bal : NAN, 0.0, 1e-6, "-");
    report(v, "rtol 1e-9", &r9);
    vjson_check(v, "model settings (rtol 1e-8): runs 20 s", r8.ok ? 20.0 : r8.t_stop, "no stop",
                r8.ok, "s");
    vjson_info(v, "model settings (rtol 1e-8): max |B0 - B0_ref| over 20 s", r8.perr, "m");
    vjson_info(v, "model settings (rtol 1e-8): max |v_B0 - v_B0_ref| over 20 s", r8.verr, "m/s");
    vjson_info(v, "model settings (rtol 1e-8): max |energy balance| / max T", r8.bal, "-");
    report(v, "model settings (rtol 1e-8)", &r8);
    clink_model_destroy(&m);
    int rc = vjson_close(v);
    return ok ? rc : 1;
}
