/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The spin-up of a flexible beam (Simo and Vu-Quoc 1986): a beam of 10 m (EA = 2.8e7 N,
 * EI = 1.4e4 N m^2, rho A = 1.2 kg/m; here kGA = 1e7 N and rho I = 6e-4 kg m, which the paper's
 * Euler-Bernoulli comparison does not need, and Kelvin-Voigt damping with tau = 1e-4 s, which
 * damps the element's shear-rotation and axial vibrations, 1.3e5 and 7.7e3 rad/s, that the
 * integrators would otherwise have to follow, and leaves the first bending mode, 3.8 rad/s, a
 * damping ratio of 2e-4) clamped to a hub that turns by the spin-up law
 *   theta(t) = (omega_s / T_s) (t^2 / 2 + (T_s / 2 pi)^2 (cos(2 pi t / T_s) - 1)), t <= T_s,
 *   theta(t) = omega_s (t - T_s / 2) after, omega_s = 4 rad/s, T_s = 15 s,
 * given to clink as the natural cubic spline through its values every 0.25 s (a driver of
 * node 0's angle, node 0 pinned at the origin). 8 beam elements (src/flex/), BDF at rtol
 * 1e-9. Against validation/ref_beam_spin_up.py, the same discretisation written separately
 * from the element's virtual work and integrated by SciPy's VODE (BDF, order <= 2) at rtol 1e-9:
 * the tip's deflection across the hub's axis and along it every second to 20 s, within 1e-4 m (the
 * deflection peaks at 0.40 m; the two agree within 2e-5 m), and along it within 1e-5 m.
 */
#include "vjson.h"

#include "beam_model.h"

#include "clink/model.h"
#include "clink/sim.h"

#include <math.h>
#include <stdio.h>

static const double PI = 3.14159265358979323846;
enum { NEL = 8, NKNOT = 121 };
static const double T_END = 20.0, STEP = 1.0;

static double spin_law(double t)
{
    const double ws = 4.0, ts = 15.0;
    if (t <= ts)
        return ws / ts * (t * t / 2.0 + pow(ts / (2.0 * PI), 2) * (cos(2.0 * PI * t / ts) - 1.0));
    return ws * (t - ts / 2.0);
}

/* the beam on its hub; NULL on failure */
static clink_model *spin_up_model(int *tip, double *times, double *values)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_beam_def d = clink_default_beam_def();
    d.name = "beam";
    d.to[0] = 10.0;
    d.elements = NEL;
    d.area = 1.0; /* nominal: the products below are what counts */
    d.E = 2.8e7;
    d.second_moment = 1.4e4 / 2.8e7;
    d.G = 1.0e7;
    d.shear_factor = 1.0;
    d.density = 1.2;
    d.damping = 1e-4;
    int first = -1;
    clink_status st = clink_model_builder_set_gravity(b, 0.0, 0.0);
    if (st == CLINK_OK)
        st = clink_model_builder_add_beam(b, &d, &first);
    clink_joint_def j = clink_default_joint_def();
    j.type = CLINK_JOINT_REVOLUTE;
    j.body_a = 0;
    j.body_b = first;
    if (st == CLINK_OK)
        st = clink_model_builder_add_joint(b, &j, NULL);
    for (int k = 0; k < NKNOT; k++) {
        times[k] = 0.25 * k;
        values[k] = spin_law(times[k]);
    }
    clink_driver_def dr = clink_default_driver_def();
    dr.target = CLINK_DRIVE_BODY_COORDINATE;
    dr.body = first;
    dr.coordinate = 2;
    dr.function.type = CLINK_FUNCTION_TABLE_SPLINE;
    dr.function.npoints = NKNOT;
    dr.function.times = times;
    dr.function.values = values;
    if (st == CLINK_OK)
        st = clink_model_builder_add_driver(b, &dr, NULL);
    if (st == CLINK_OK)
        st = beam_model_settings(b, T_END, STEP, 1e-11);
    clink_model *m = NULL;
    if (st == CLINK_OK)
        st = clink_model_builder_finalize(b, &m);
    if (st != CLINK_OK)
        fprintf(stderr, "spin-up: %s\n", clink_model_builder_error(b));
    clink_model_builder_destroy(&b);
    *tip = first + NEL;
    return m;
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(out, "beam_spin_up",
                          "Spin-up of a flexible beam (Simo and Vu-Quoc 1986) against an "
                          "independent SciPy implementation");
    char args[64];
    snprintf(args, sizeof args, "%d %g %g", NEL, T_END, STEP);
    if (vref_run(out, "ref_beam_spin_up.py", args) != 0) {
        fprintf(stderr, "ref_beam_spin_up.py failed (NumPy and SciPy needed)\n");
        vjson_check(v, "reference ran", NAN, "exit 0", 0, "-");
        vjson_close(v);
        return 1;
    }
    vref *ref = vref_load(out, "beam_spin_up_ref.csv");
    double times[NKNOT], values[NKNOT];
    int tip;
    clink_model *m = spin_up_model(&tip, times, values);
    clink_sim *sim = m ? vsim_create(&m) : NULL;
    double peak = 0.0;
    int nsteps = (int) lround(T_END / STEP);
    for (int k = 1; sim && k <= nsteps; k++) {
        double t = k * STEP, q[3], vel[3];
        char key[32], qn[96];
        if (clink_sim_advance(sim, t) != CLINK_OK) {
            fprintf(stderr, "run: %s\n", clink_sim_error(sim));
            vjson_check(v, "run reached the end", t, "20 s", 0, "s");
            break;
        }
        clink_sim_body_state(sim, tip, q, vel);
        /* the hub's angle from the driven node: the spline, not the law */
        double qh[3], vh[3];
        clink_sim_body_state(sim, tip - NEL, qh, vh);
        double c = cos(qh[2]), s = sin(qh[2]);
        double defl = -s * q[0] + c * q[1], axial = c * q[0] + s * q[1] - 10.0;
        peak = fmax(peak, fabs(defl));
        snprintf(key, sizeof key, "tip.%d", k);
        snprintf(qn, sizeof qn, "tip deflection across the axis at t = %g s", t);
        vjson_row(v, qn, defl, vref_get(ref, key), 1e-4, "m");
        snprintf(key, sizeof key, "axial.%d", k);
        snprintf(qn, sizeof qn, "tip displacement along the axis at t = %g s", t);
        vjson_row(v, qn, axial, vref_get(ref, key), 1e-5, "m");
    }
    vjson_info(v, "largest tip deflection at the seconds (m)", peak, "m");
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    vref_free(ref);
    return vjson_close(v);
}
