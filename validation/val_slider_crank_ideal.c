/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Validation: the ideal slider-crank at 5000 rpm (docs/contact-mechanics.md).
 *
 * Closed-form kinematics of the slider (crank r, rod l, crank angle theta = omega t,
 * s = sqrt(l^2 - r^2 sin^2 theta)):
 *   x   = r cos theta + s
 *   x'  = -r omega sin theta - r^2 omega sin theta cos theta / s
 *   x'' = -r omega^2 cos theta - r^2 omega^2 [(cos^2 - sin^2) / s + r^2 sin^2 cos^2 / s^3]
 * compared at 2400 outputs over two revolutions with tolerance 1e-8 of each
 * quantity's amplitude (r, r omega, r omega^2 (1 + r / l)).
 *
 * Driver torque by the principle of virtual power, derived here independently
 * of the kernel: with the rod angle beta = asin(-r sin theta / l),
 *   beta' = -r omega cos theta / s,
 *   beta'' = r omega^2 sin theta / s - r^3 omega^2 sin theta cos^2 theta / s^3,
 * the rod centre G = (A + B) / 2 (A the crank pin, B the piston pin) and the
 * crank turning uniformly,
 *   T omega = sum_i (m_i a_i . v_i + J_i phi_i'' phi_i') + sum_i m_i g v_iy,
 * tolerance 1e-8 of the torque amplitude.
 */
#include "slider_crank_model.h"
#include "vjson.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

static const double PI = 3.14159265358979323846;

typedef struct sc_exact {
    double x, xd, xdd, torque;
} sc_exact;

static sc_exact exact(double th, double w)
{
    const double r = SC_R, l = SC_L, g = 9.81;
    const double m1 = 0.30, m2 = 0.21, m3 = 0.14, J2 = 2.5e-4;
    double sn = sin(th), cs = cos(th), s = sqrt(l * l - r * r * sn * sn);
    sc_exact e;
    e.x = r * cs + s;
    e.xd = -r * w * sn - r * r * w * sn * cs / s;
    e.xdd = -r * w * w * cs -
            r * r * w * w * ((cs * cs - sn * sn) / s + r * r * sn * sn * cs * cs / (s * s * s));
    double bd = -r * w * cs / s;
    double bdd = r * w * w * sn / s - r * r * r * w * w * sn * cs * cs / (s * s * s);
    /* crank pin A and piston pin B */
    double vA[2] = {-r * w * sn, r * w * cs}, aA[2] = {-r * w * w * cs, -r * w * w * sn};
    double vB[2] = {e.xd, 0.0}, aB[2] = {e.xdd, 0.0};
    double vG[2] = {0.5 * (vA[0] + vB[0]), 0.5 * (vA[1] + vB[1])};
    double aG[2] = {0.5 * (aA[0] + aB[0]), 0.5 * (aA[1] + aB[1])};
    double vC[2] = {0.5 * vA[0], 0.5 * vA[1]}; /* crank centre */
    double power = m2 * (aG[0] * vG[0] + aG[1] * vG[1]) + J2 * bdd * bd + m3 * aB[0] * vB[0] +
                   g * (m1 * vC[1] + m2 * vG[1]);
    e.torque = power / w;
    return e;
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v =
        vjson_open(out, "slider_crank_ideal",
                   "Ideal slider-crank at 5000 rpm: closed-form kinematics, inverse dynamics");
    const double r = SC_R, l = SC_L;
    double w = 5000.0 * 2.0 * PI / 60.0;
    clink_settings_def s = clink_default_settings_def();
    s.rtol = 1e-10;
    s.atol = 1e-12;
    s.method = CLINK_METHOD_BDF; /* the validation's integrator, not auto's choice */
    s.drift = CLINK_DRIFT_PROJECTION;
    char err[512] = "";
    clink_model *m = slider_crank_model(w, &s, err, sizeof err);
    clink_sim *sim = NULL;
    if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    double dq0, dv0;
    clink_sim_assembly(sim, &dq0, &dv0);
    double t_end = 2.0 * 2.0 * PI / w;
    int n = 2400, ok = 1;
    double ex = 0, exd = 0, exdd = 0, et = 0, tamp = 0, maxviol = 0;
    clock_t c0 = clock();
    for (int i = 1; i <= n; i++) {
        double t = t_end * i / n;
        if (clink_sim_advance(sim, t) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            ok = 0;
            break;
        }
        double q[3], vel[3], a[3], T, pv;
        clink_sim_body_state(sim, 3, q, vel);
        clink_sim_body_acceleration(sim, 3, a);
        clink_sim_driver_force(sim, 0, &T);
        sc_exact e = exact(w * t, w);
        ex = fmax(ex, fabs(q[0] - e.x));
        exd = fmax(exd, fabs(vel[0] - e.xd));
        exdd = fmax(exdd, fabs(a[0] - e.xdd));
        et = fmax(et, fabs(T - e.torque));
        tamp = fmax(tamp, fabs(e.torque));
        clink_sim_constraint_violation(sim, &pv, NULL);
        maxviol = fmax(maxviol, pv);
    }
    double wall = (double) (clock() - c0) / CLOCKS_PER_SEC;
    double ax = r, axd = r * w, axdd = r * w * w * (1.0 + r / l);
    vjson_row(v, "max |x - x_exact| / r over two revolutions", ex / ax, 0.0, 1e-8, "-");
    vjson_row(v, "max |v - v_exact| / (r omega)", exd / axd, 0.0, 1e-8, "-");
    vjson_row(v, "max |a - a_exact| / (r omega^2 (1 + r/l))", exdd / axdd, 0.0, 1e-8, "-");
    vjson_row(v, "max |T - T_virtual_work| / max |T|", et / tamp, 0.0, 1e-8, "-");
    vjson_row(v, "max |Phi| at outputs", maxviol, 0.0, 1e-12, "m");
    vjson_info(v, "max |T| (driver torque amplitude)", tamp, "N m");
    vjson_info(v, "assembly correction of velocities |dv| (started at rest)", dv0, "mixed");
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    vjson_info(v, "steps", (double) st.steps, "-");
    vjson_info(v, "rhs evaluations", (double) st.rhs_evals, "-");
    vjson_info(v, "rhs evaluations for the FD Jacobian", (double) st.rhs_evals_jac, "-");
    vjson_info(v, "projections", (double) st.proj_evals, "-");
    vjson_info(v, "KLU full factorisations", (double) st.klu_factors, "-");
    vjson_info(v, "KLU refactorisations", (double) st.klu_refactors, "-");
    vjson_info(v, "wall time (CPU)", wall, "s");
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    int rc = vjson_close(v);
    return ok ? rc : 1;
}
