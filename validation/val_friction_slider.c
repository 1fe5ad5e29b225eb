/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Friction in an ideal translational joint (docs/friction.md, "Joint friction") against
 * the closed form of Coulomb friction: a slider of 1 kg on a horizontal guide (the
 * ground) under gravity 9.81 m/s^2, launched at 1 m/s, with coulomb-tanh friction
 * (mu = 0.2, v1 = 1e-6 m/s) and slider length L = 0.1 m.
 *   - slider point at the centre of mass: the reaction is N = m g with no moment, so the
 *     slider decelerates at mu g and stops after v0^2 / (2 mu g);
 *   - slider point 0.1 m ahead of the centre along the axis: gravity's moment about it,
 *     M = m g 0.1, exceeds N L / 2, so the slider binds at two opposite corners and the
 *     normal force is 2 |M| / L = 2 m g: deceleration 2 mu g.
 * The deceleration over the first 0.2 s within 1e-6 relative; the distance to rest (the
 * tanh law then creeps at speeds below 1e-6 m/s) within 1e-4 relative.
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double G = 9.81, MU = 0.2, V0 = 1.0;

static clink_model *slider(double offset)
{
    static char xml[2048];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"friction_slider\">\n"
             "  <settings t_end=\"1\" output_step=\"1e-3\" method=\"bdf\" rtol=\"1e-10\" "
             "atol=\"1e-12\" drift=\"projection\"/>\n"
             "  <gravity g=\"0 %.17g\"/>\n"
             "  <bodies><body name=\"slider\" mass=\"1\" inertia=\"0.01\" x=\"0\" y=\"0\" "
             "vx=\"%g\"/></bodies>\n"
             "  <joints><translational name=\"guide\" body1=\"ground\" body2=\"slider\" "
             "point1=\"%g 0\" point2=\"%g 0\" axis=\"1 0\" friction_length=\"0.1\">\n"
             "    <friction type=\"coulomb-tanh\" mu=\"%g\" v1=\"1e-6\"/>\n"
             "  </translational></joints>\n"
             "</mechanism>\n",
             -G, V0, offset, offset, MU);
    clink_model *model = NULL;
    char err[512];
    if (clink_xml_load_memory(xml, strlen(xml), "slider.xml", &model, NULL, err, sizeof err) !=
        CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return model;
}

/* the deceleration over 0.2 s and the position at 1 s; -1 on failure */
static int run(double offset, double *decel, double *dist)
{
    clink_model *model = slider(offset);
    clink_sim *sim = NULL;
    char err[512];
    if (!model || clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", model ? err : "no model");
        clink_model_destroy(&model);
        return -1;
    }
    double q[3], v[3];
    int rc = clink_sim_advance(sim, 0.2) != CLINK_OK;
    if (!rc) {
        clink_sim_body_state(sim, 1, q, v);
        *decel = (V0 - v[0]) / 0.2;
        rc = clink_sim_advance(sim, 1.0) != CLINK_OK;
        clink_sim_body_state(sim, 1, q, v);
        *dist = q[0];
    }
    if (rc)
        fprintf(stderr, "%s\n", clink_sim_error(sim));
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return rc ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *vj = vjson_open(outdir, "friction_slider",
                           "Translational joint friction: sliding and two-point binding against "
                           "Coulomb's closed form");
    if (!vj)
        return 1;
    double a, d;
    int failed = 0;
    if (run(0.0, &a, &d) == 0) {
        vjson_row_rel(vj, "slider point at the centre: deceleration (mu g)", a, MU * G, 1e-6,
                      "m/s^2");
        vjson_row_rel(vj, "slider point at the centre: distance to rest v0^2 / (2 mu g)", d,
                      V0 * V0 / (2 * MU * G), 1e-4, "m");
    } else {
        failed = 1;
    }
    if (run(0.1, &a, &d) == 0) {
        vjson_row_rel(vj, "two-point binding (|M| > N L / 2): deceleration (2 mu g)", a, 2 * MU * G,
                      1e-6, "m/s^2");
        vjson_row_rel(vj, "two-point binding: distance to rest v0^2 / (4 mu g)", d,
                      V0 * V0 / (4 * MU * G), 1e-4, "m");
    } else {
        failed = 1;
    }
    vjson_check(vj, "every run completed", failed ? 0 : 1, "no failure", !failed, "-");
    return vjson_close(vj);
}
