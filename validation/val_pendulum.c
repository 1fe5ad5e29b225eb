/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Validation: a physical pendulum at large amplitude.
 *
 * A rigid body (m = 1 kg, J = 0.01 kg m^2 about its centre) hinged to ground at
 * a point L = 1 m from its centre of mass, released from rest at theta0 = 2.5
 * rad (143 degrees) under g = 9.81 m/s^2. Exact period (e.g. Landau-Lifshitz
 * Mechanics Sect. 11, for the physical pendulum with omega0^2 = m g L / (J + m L^2)):
 *   T = 4 K(k) / omega0,  k = sin(theta0 / 2),
 * K the complete elliptic integral of the first kind, computed here with the
 * arithmetic-geometric mean: K(k) = pi / (2 AGM(1, sqrt(1 - k^2))).
 *
 * The simulated period is measured from the turning points (angular velocity
 * zero), located by cubic Hermite interpolation of omega(t) between outputs
 * (omega and its derivative are known at every output) and bisection. The run
 * uses BDF with projection (rtol 1e-11, atol 1e-13, maximum step 1 ms: with
 * longer steps BDF's error estimate lets the phase error grow past 1e-8 over
 * 100 periods; measured, see docs/api.md); 10 periods give the period
 * (tolerance 1e-8 relative), 100 periods the energy drift |E(t) - E(0)| / (m g L)
 * (tolerance 1e-7: the global error of a BDF run at rtol 1e-11 grows about
 * linearly, ~1e-9 per period).
 */
#include "clink/sim.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

static const double PI = 3.14159265358979323846;

static double agm(double a, double b)
{
    for (int i = 0; i < 60 && fabs(a - b) > 1e-16 * a; i++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return 0.5 * (a + b);
}

static double ellipk(double k)
{
    return PI / (2.0 * agm(1.0, sqrt(1.0 - k * k)));
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v =
        vjson_open(out, "pendulum",
                   "Physical pendulum at 143 degrees: elliptic-integral period, energy drift");
    double m = 1.0, J = 0.01, L = 1.0, g = 9.81, th0 = 2.5;
    double w0 = sqrt(m * g * L / (J + m * L * L));
    double T_ref = 4.0 * ellipk(sin(0.5 * th0)) / w0;

    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.name = "pendulum";
    bd.mass = m;
    bd.inertia = J;
    bd.x = L * sin(th0);
    bd.y = -L * cos(th0);
    bd.phi = th0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_joint_def jd = clink_default_joint_def();
    jd.body_a = 0;
    jd.body_b = 1;
    jd.point_b[1] = L; /* the body's y axis points from the centre to the pivot */
    clink_model_builder_add_joint(b, &jd, NULL);
    clink_model_builder_set_gravity(b, 0.0, -g);
    clink_settings_def s = clink_default_settings_def();
    s.rtol = 1e-11;
    s.atol = 1e-13;
    s.max_step = 1e-3;
    s.method = CLINK_METHOD_BDF; /* the validation's integrator, not auto's choice */
    s.drift = CLINK_DRIFT_PROJECTION;
    clink_model_builder_set_settings(b, &s);
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    char err[512];
    if (clink_model_builder_finalize(b, &model) != CLINK_OK) {
        fprintf(stderr, "%s\n", clink_model_builder_error(b));
        return 1;
    }
    if (clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    clock_t c0 = clock();
    double h = 2e-3, t = 0.0, wprev = 0.0, aprev = 0.0, E0 = NAN, drift10 = 0.0, drift100 = 0.0;
    double turning[256];
    int nturn = 0, ok = 1;
    double q[3], vv[3], a[3];
    clink_energy e;
    clink_sim_energy(sim, &e);
    E0 = e.kinetic + e.gravity;
    clink_sim_body_acceleration(sim, 1, a);
    aprev = a[2];
    turning[nturn++] = 0.0;
    double t_end = 100.0 * T_ref + 0.5 * h;
    double maxviol = 0.0;
    for (int i = 1; t < t_end; i++) {
        double tn = i * h;
        if (clink_sim_advance(sim, tn) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            ok = 0;
            break;
        }
        clink_sim_body_state(sim, 1, q, vv);
        clink_sim_body_acceleration(sim, 1, a);
        if (i > 1 && (vv[2] > 0) != (wprev > 0) && nturn < 256)
            turning[nturn++] = t + vhermite_root(wprev, aprev, vv[2], a[2], tn - t);
        wprev = vv[2];
        aprev = a[2];
        t = tn;
        clink_sim_energy(sim, &e);
        double d = fabs(e.kinetic + e.gravity - E0) / (m * g * L);
        if (t <= 10.0 * T_ref)
            drift10 = fmax(drift10, d);
        drift100 = fmax(drift100, d);
        double pv;
        clink_sim_constraint_violation(sim, &pv, NULL);
        maxviol = fmax(maxviol, pv);
    }
    double wall = (double) (clock() - c0) / CLOCKS_PER_SEC;
    /* turning points 0, T/2, T, ...: the 20th after t = 0 is 10 periods */
    double T10 = nturn > 20 ? turning[20] / 10.0 : NAN;
    double T100 = nturn > 200 ? turning[200] / 100.0 : NAN;
    vjson_row_rel(v, "period over 10 periods (BDF, projection)", T10, T_ref, 1e-8, "s");
    vjson_row_rel(v, "period over 100 periods (BDF, projection)", T100, T_ref, 1e-8, "s");
    vjson_row(v, "max |E - E0| / (m g L) over 10 periods", drift10, 0.0, 1e-8, "-");
    vjson_row(v, "max |E - E0| / (m g L) over 100 periods", drift100, 0.0, 1e-7, "-");
    vjson_row(v, "max |Phi| at outputs over 100 periods", maxviol, 0.0, 1e-12, "m");
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    vjson_info(v, "K(k) by AGM", ellipk(sin(0.5 * th0)), "-");
    vjson_info(v, "steps", (double) st.steps, "-");
    vjson_info(v, "rhs evaluations", (double) st.rhs_evals, "-");
    vjson_info(v, "rhs evaluations for the FD Jacobian", (double) st.rhs_evals_jac, "-");
    vjson_info(v, "Jacobian evaluations", (double) st.jac_evals, "-");
    vjson_info(v, "projections", (double) st.proj_evals, "-");
    vjson_info(v, "error test failures", (double) st.error_test_fails, "-");
    vjson_info(v, "wall time (CPU) of the 100-period run", wall, "s");
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    clink_model_builder_destroy(&b);
    int rc = vjson_close(v);
    return ok ? rc : 1;
}
