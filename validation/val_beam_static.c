/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Static cantilever under a tip load, through the beam elements of src/flex/ (docs/flexible.md):
 *
 * Small load (linear): a stubby steel cantilever (L = 1 m, b x h = 10 x 100 mm, so that shear
 * adds 0.8 % to the deflection) under P = 100 N, solved by clink_analysis_equilibrium (Newton),
 * against the Timoshenko closed form delta = P L^3 / (3 E I) + P L / (k G A) (Timoshenko
 * and Gere 1972) for N = 4, 8, 16, 32 elements: the error of the two-node element with one-point
 * integration falls as N^-2 (the rate is measured), the finest mesh within 5e-4.
 *
 * Large load (elastica): a slender cantilever (10 x 10 mm) under alpha = P L^2 / EI = 2 and 5,
 * the load ramped in 0.5 s and the beam brought to rest by Kelvin-Voigt damping (retardation
 * time 2 / omega_1: the first mode critically damped) in a BDF run, against the elastica of
 * Bisshopp and Drucker (1945) computed by shooting in validation/ref_beam_elastica.py; the
 * tip deflection's error falls as N^-2 (measured on N = 4, 8, 16), N = 16 within 2e-3 of L.
 * The same large loads by clink_analysis_equilibrium from the straight beam (16 elements):
 * against the elastica, against the damped run's rest (a different path to the same discretised
 * equilibrium), and with Newton cut to 4 iterations so that the continuation in the loads takes
 * over and must reach the same pose.
 */
#include "vjson.h"

#include "beam_model.h"

#include "clink/analysis.h"
#include "clink/model.h"
#include "clink/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct beam_case {
    double L, b, h, E, nu, rho, k;
} beam_case;

static double area(const beam_case *c)
{
    return c->b * c->h;
}
static double second_moment(const beam_case *c)
{
    return c->b * c->h * c->h * c->h / 12.0;
}

/* the cantilever of n elements clamped at x = 0, tip load (0, -P) ramped over t_ramp (0: at
   once), retardation time tau, no gravity, BDF to t_end; NULL on failure */
static clink_model *cantilever(const beam_case *c, int n, double P, double t_ramp, double tau,
                               double t_end, int *tip)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_beam_def d = clink_default_beam_def();
    d.name = "beam";
    d.to[0] = c->L;
    d.elements = n;
    d.area = area(c);
    d.second_moment = second_moment(c);
    d.E = c->E;
    d.G = c->E / (2.0 * (1.0 + c->nu));
    d.density = c->rho;
    d.shear_factor = c->k;
    d.damping = tau;
    int first = -1;
    clink_status st = beam_model_add(b, &d, 1, &first);
    clink_force_def f = clink_default_force_def();
    f.type = CLINK_FORCE_POINT;
    f.body_a = first + n;
    f.fy = -P;
    if (t_ramp > 0.0) {
        f.scale.type = CLINK_FUNCTION_SMOOTH_STEP;
        f.scale.c[0] = 0.0;
        f.scale.c[1] = t_ramp;
        f.scale.c[2] = 0.0;
        f.scale.c[3] = 1.0;
    }
    if (st == CLINK_OK)
        st = clink_model_builder_add_force(b, &f, NULL);
    if (st == CLINK_OK)
        st = beam_model_settings(b, t_end, t_end / 10.0, 1e-12);
    clink_model *m = NULL;
    if (st == CLINK_OK)
        st = clink_model_builder_finalize(b, &m);
    if (st != CLINK_OK)
        fprintf(stderr, "cantilever: %s\n", clink_model_builder_error(b));
    clink_model_builder_destroy(&b);
    *tip = first + n;
    return m;
}

/* the tip's static displacement (dx, dy, m) by clink_analysis_equilibrium from the straight
   beam, with tolerance tol (0: the default) and at most max_it Newton iterations before the
   continuation in the loads; the result's fallback, its steps and the Newton iterations into
   counts; -1 on failure */
static int newton_tip(const beam_case *c, int n, double P, double tol, int max_it, double out[2],
                      int counts[3])
{
    int tip, rc = -1;
    clink_model *m = cantilever(c, n, P, 0.0, 0.0, 1.0, &tip);
    clink_analysis *a = NULL;
    char err[512];
    if (m && clink_analysis_create(m, NULL, &a, err, sizeof err) == CLINK_OK) {
        clink_equilibrium_options o = clink_default_equilibrium_options();
        o.tolerance = tol;
        o.max_iterations = max_it;
        clink_equilibrium_result r;
        if (clink_analysis_equilibrium(a, &o, &r) == CLINK_OK) {
            double q[3 * 40];
            clink_analysis_state(a, q, NULL);
            out[0] = q[3 * (tip - 1)] - c->L;
            out[1] = q[3 * (tip - 1) + 1];
            counts[0] = r.fallback;
            counts[1] = r.fallback_steps;
            counts[2] = r.iterations;
            rc = 0;
        } else {
            fprintf(stderr, "equilibrium (%d elements): %s\n", n, clink_analysis_error(a));
        }
    } else if (m) {
        fprintf(stderr, "analysis: %s\n", err);
    }
    clink_analysis_destroy(&a);
    clink_model_destroy(&m);
    return rc;
}

/* the tip's static deflection (downwards, m) under a small load by Newton; NaN on failure */
static double linear_tip(const beam_case *c, int n, double P)
{
    double tip[2];
    int counts[3];
    /* the tolerance above the rounding of the axial forces (EA 1e-16) */
    return newton_tip(c, n, P, 1e-7 * P, 50, tip, counts) == 0 ? -tip[1] : NAN;
}

/* the tip's displacement (dx, dy, m) at rest after the damped run, and its final speed */
static int large_tip(const beam_case *c, int n, double P, double out[3])
{
    double EI = c->E * second_moment(c), mu = c->rho * area(c);
    double omega1 = 1.87510407 * 1.87510407 * sqrt(EI / (mu * pow(c->L, 4)));
    int tip;
    clink_model *m = cantilever(c, n, P, 0.5, 2.0 / omega1, 3.0, &tip);
    clink_sim *sim = m ? vsim_create(&m) : NULL;
    if (!sim)
        return -1;
    int rc = clink_sim_advance(sim, 3.0) == CLINK_OK ? 0 : -1;
    if (rc)
        fprintf(stderr, "run (%d elements): %s\n", n, clink_sim_error(sim));
    double q[3], v[3];
    clink_sim_body_state(sim, tip, q, v);
    out[0] = q[0] - c->L;
    out[1] = q[1];
    out[2] = hypot(v[0], v[1]);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return rc;
}

static void small_load(vjson *v)
{
    const beam_case c = {1.0, 0.01, 0.1, 2.07e11, 0.3, 7800.0, 5.0 / 6.0};
    double P = 100.0, G = c.E / (2.0 * (1.0 + c.nu));
    double bend = P * pow(c.L, 3) / (3.0 * c.E * second_moment(&c));
    double shear = P * c.L / (c.k * G * area(&c));
    double ref = bend + shear, err[4], d[4];
    const int ns[4] = {4, 8, 16, 32};
    char q[96];
    vjson_info(v, "linear: shear share of the Timoshenko deflection", shear / ref, "-");
    for (int i = 0; i < 4; i++) {
        d[i] = linear_tip(&c, ns[i], P);
        err[i] = fabs(d[i] - ref) / ref;
        snprintf(q, sizeof q, "linear: tip deflection, %d elements, relative error", ns[i]);
        vjson_info(v, q, err[i], "-");
    }
    vjson_row_rel(v, "linear: tip deflection, 32 elements (Timoshenko)", d[3], ref, 5e-4, "m");
    for (int i = 1; i < 4; i++) {
        snprintf(q, sizeof q, "linear: convergence rate %d -> %d elements", ns[i - 1], ns[i]);
        vjson_row(v, q, log2(err[i - 1] / err[i]), 2.0, 0.1, "-");
    }
}

/* the same 16-element cantilever by clink_analysis_equilibrium from the straight beam: against
   the elastica, against the damped run's rest (a different path to the same discretised
   equilibrium), and with Newton cut to 4 iterations so that the continuation in the loads
   takes over (the same pose) */
static void newton_large(vjson *v, const beam_case *c, double P, const char *alpha_s, double rdx,
                         double rdy, const double run[3])
{
    double tip[2] = {NAN, NAN}, cont[2] = {NAN, NAN};
    int nt[3] = {-1, 0, 0}, ct[3] = {-1, 0, 0};
    char q[128];
    newton_tip(c, 16, P, 0.0, 50, tip, nt);
    newton_tip(c, 16, P, 0.0, 4, cont, ct);
    snprintf(q, sizeof q, "elastica alpha %s: equilibrium, Newton iterations", alpha_s);
    vjson_info(v, q, nt[2], "-");
    snprintf(q, sizeof q, "elastica alpha %s: continuation, load steps", alpha_s);
    vjson_info(v, q, ct[1], "-");
    snprintf(q, sizeof q, "elastica alpha %s: continuation, Newton iterations", alpha_s);
    vjson_info(v, q, ct[2], "-");
    snprintf(q, sizeof q, "elastica alpha %s: equilibrium tip dy, 16 elements", alpha_s);
    vjson_row(v, q, tip[1], rdy, 2e-3 * c->L, "m");
    snprintf(q, sizeof q, "elastica alpha %s: equilibrium tip dx, 16 elements", alpha_s);
    vjson_row(v, q, tip[0], rdx, 2e-3 * c->L, "m");
    snprintf(q, sizeof q, "elastica alpha %s: equilibrium against the damped run's rest", alpha_s);
    /* the run ends at a tip speed below 1e-7 m/s with the first mode critically damped
       (omega_1 about 16 1/s): what it has still to travel is below 1e-8 m */
    vjson_row(v, q, hypot(tip[0] - run[0], tip[1] - run[1]), 0.0, 1e-7, "m");
    snprintf(q, sizeof q, "elastica alpha %s: continuation in the loads used (Newton cut to 4)",
             alpha_s);
    vjson_check(v, q, ct[0], "fallback 2", ct[0] == 2 && nt[0] == 0, "-");
    snprintf(q, sizeof q, "elastica alpha %s: continuation against Newton", alpha_s);
    vjson_row(v, q, hypot(cont[0] - tip[0], cont[1] - tip[1]), 0.0, 1e-9 * c->L, "m");
}

static void large_load(vjson *v, const vref *ref, const char *alpha_s, double alpha)
{
    const beam_case c = {1.0, 0.01, 0.01, 2.07e11, 0.3, 7800.0, 5.0 / 6.0};
    double EI = c.E * second_moment(&c), P = alpha * EI / (c.L * c.L);
    char key[64], q[128];
    snprintf(key, sizeof key, "%s.dy", alpha_s);
    double rdy = vref_get(ref, key) * c.L;
    snprintf(key, sizeof key, "%s.dx", alpha_s);
    double rdx = vref_get(ref, key) * c.L;
    const int ns[3] = {4, 8, 16};
    double err[3], tip[3][3];
    for (int i = 0; i < 3; i++) {
        if (large_tip(&c, ns[i], P, tip[i]) != 0)
            tip[i][0] = tip[i][1] = NAN;
        err[i] = hypot(tip[i][0] - rdx, tip[i][1] - rdy) / c.L;
        snprintf(q, sizeof q, "elastica alpha %s: tip error / L, %d elements", alpha_s, ns[i]);
        vjson_info(v, q, err[i], "-");
    }
    snprintf(q, sizeof q, "elastica alpha %s: tip speed at the end (at rest)", alpha_s);
    vjson_check(v, q, tip[2][2], "< 1e-7 m/s", tip[2][2] < 1e-7, "m/s");
    snprintf(q, sizeof q, "elastica alpha %s: tip dy, 16 elements (Bisshopp and Drucker 1945)",
             alpha_s);
    vjson_row(v, q, tip[2][1], rdy, 2e-3 * c.L, "m");
    snprintf(q, sizeof q, "elastica alpha %s: tip dx, 16 elements", alpha_s);
    vjson_row(v, q, tip[2][0], rdx, 2e-3 * c.L, "m");
    for (int i = 1; i < 3; i++) {
        snprintf(q, sizeof q, "elastica alpha %s: convergence rate %d -> %d elements", alpha_s,
                 ns[i - 1], ns[i]);
        vjson_row(v, q, log2(err[i - 1] / err[i]), 2.0, 0.25, "-");
    }
    newton_large(v, &c, P, alpha_s, rdx, rdy, tip[2]);
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(out, "beam_static",
                          "Cantilever tip deflection: Timoshenko closed form and the elastica "
                          "(Bisshopp and Drucker 1945)");
    small_load(v);
    if (vref_run(out, "ref_beam_elastica.py", "2 5") != 0) {
        fprintf(stderr, "ref_beam_elastica.py failed (NumPy and SciPy needed)\n");
        vjson_check(v, "elastica reference ran", NAN, "exit 0", 0, "-");
        vjson_close(v);
        return 1;
    }
    vref *ref = vref_load(out, "beam_elastica_ref.csv");
    large_load(v, ref, "2", 2.0);
    large_load(v, ref, "5", 5.0);
    vref_free(ref);
    return vjson_close(v);
}
