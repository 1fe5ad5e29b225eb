/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A pendulum with friction in its revolute joint (docs/friction.md, "Joint friction")
 * coming to rest, against an independent SciPy reference (validation/
 * ref_friction_pendulum.py: one angle, the pin's reaction from Newton's law, the implicit
 * dependence of friction on reaction solved by Brent's method) and against the bound of
 * Coulomb friction on the final angle.
 *
 * A body of 1 kg, J = 1/12 kg m^2, pinned at l = 0.5 m above its centre to the ground by a
 * revolute joint with coulomb-tanh friction (mu = 0.3, v1 = 1e-5 m/s) on a pin of radius
 * r = 0.02 m, released at rest at 0.5 rad. Checks: the angles of the first 12 reversals
 * (the decay envelope) within 1e-7 rad of the reference; the angle at 20 s inside the
 * dead zone of Coulomb friction, |sin theta| <= mu r |R| / (m g l) with |R| <= m g (1 +
 * 1 %) at rest (energy and moment bound: the pendulum can rest only where the friction
 * torque can hold gravity's moment), and against the reference (the tanh law
 * creeps there; within 1e-7 rad); the energy balance T + V - W_l (the joint friction's work booked
 * with the loads) against the initial energy within 1e-6 of m g l (1 - cos theta0).
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NT 12

static const double M = 1.0, L = 0.5, G = 9.81, TH0 = 0.5, R_PIN = 0.02, MU = 0.3;

static clink_model *pendulum(void)
{
    static char xml[2048];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"friction_pendulum\">\n"
             "  <settings t_end=\"20\" output_step=\"1e-3\" method=\"bdf\" rtol=\"1e-10\" "
             "atol=\"1e-12\" drift=\"projection\"/>\n"
             "  <gravity g=\"0 %.17g\"/>\n"
             "  <bodies><body name=\"bob\" mass=\"1\" inertia=\"%.17g\" x=\"%.17g\" y=\"%.17g\" "
             "phi=\"%.17g\"/></bodies>\n"
             "  <joints><revolute name=\"pin\" body1=\"ground\" body2=\"bob\" point1=\"0 0\" "
             "point2=\"0 %.17g\" friction_radius=\"%g\">\n"
             "    <friction type=\"coulomb-tanh\" mu=\"%g\" v1=\"1e-5\"/>\n"
             "  </revolute></joints>\n"
             "</mechanism>\n",
             -G, 1.0 / 12.0, L * sin(TH0), -L * cos(TH0), TH0, L, R_PIN, MU);
    clink_model *model = NULL;
    char err[512];
    if (clink_xml_load_memory(xml, strlen(xml), "pendulum.xml", &model, NULL, err, sizeof err) !=
        CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return model;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    if (vref_run(outdir, "ref_friction_pendulum.py", "") != 0)
        return 1;
    vref *ref = vref_load(outdir, "friction_pendulum_ref.csv");
    clink_model *model = pendulum();
    clink_sim *sim = NULL;
    char err[512], q[160];
    if (!ref || !model || clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", model ? err : "no model or reference");
        return 1;
    }
    vjson *vj = vjson_open(outdir, "friction_pendulum",
                           "Pendulum with revolute joint friction coming to rest: reversals and "
                           "final angle against a SciPy reference and the Coulomb bound");
    if (!vj)
        return 1;
    double turns[NT], th[3] = {TH0, TH0, TH0}, w_prev = 0.0, e0 = M * G * L * (1 - cos(TH0));
    double worst_balance = 0.0, E0 = NAN;
    int nt = 0, failed = 0;
    for (int i = 1; i <= 20000; i++) {
        double qb[3], vb[3];
        clink_energy e;
        if (clink_sim_advance(sim, i * 1e-3) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            failed = 1;
            break;
        }
        clink_sim_body_state(sim, 1, qb, vb);
        clink_sim_energy(sim, &e);
        double bal = e.kinetic + e.gravity - e.work_loads;
        if (isnan(E0))
            E0 = bal;
        worst_balance = fmax(worst_balance, fabs(bal - E0) / e0);
        th[0] = th[1];
        th[1] = th[2];
        th[2] = qb[2];
        /* a reversal between the last two samples: the vertex of the parabola through three */
        if (i > 2 && nt < NT && w_prev * vb[2] < 0.0) {
            double d1 = th[1] - th[0], d2 = th[2] - th[1], c = 0.5 * (d2 - d1);
            double s = c != 0.0 ? -(0.5 * (d1 + d2)) / (2.0 * c) : 0.0;
            turns[nt++] = th[1] + 0.5 * (d1 + d2) * s + c * s * s;
        }
        w_prev = vb[2];
    }
    for (int k = 0; k < nt; k++) {
        char key[32];
        snprintf(key, sizeof key, "turn_%d", k + 1);
        snprintf(q, sizeof q, "angle at reversal %d", k + 1);
        vjson_row(vj, q, turns[k], vref_get(ref, key), 1e-7, "rad");
    }
    vjson_check(vj, "reversals found", nt, "12", nt == NT, "-");
    double bound = asin(MU * R_PIN * 1.01 / L);
    vjson_check(vj, "final angle inside the Coulomb dead zone |sin th| <= mu r |R| / (m g l)",
                th[2], "|theta| <= 0.0121 rad", fabs(th[2]) <= bound, "rad");
    vjson_row(vj, "angle at 20 s (the tanh law creeps toward 0)", th[2], vref_get(ref, "theta_end"),
              1e-7, "rad");
    vjson_row(vj, "energy balance T + V - W_l (friction work booked) / (m g l (1 - cos th0))",
              worst_balance, 0.0, 1e-6, "-");
    vjson_check(vj, "the run completed", failed ? 0 : 1, "no failure", !failed, "-");
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    vref_free(ref);
    return vjson_close(vj);
}
