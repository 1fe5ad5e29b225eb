/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A slider on LuGre friction (Canudas de Wit, Olsson, Astrom and Lischinsky 1995) in an
 * ideal translational joint (docs/friction.md, "Joint friction"; the joint's bristle
 * state z is a component of the integrated state) under a slowly ramped force: the
 * breakaway force against mu_s N, and the presliding displacement against its closed
 * form.
 *
 * A slider of 1 kg on a horizontal guide (the ground) under gravity 9.81 m/s^2, slider
 * length L = 0.1 m, LuGre with mu = 0.3, mu_s = 0.4, v_s = 1e-3 m/s, sigma0 = 1e5 1/m,
 * sigma1 = 316 s/m, pushed along the guide at its centre by a force F = rho t from rest
 * with z = 0. The friction force on it is F - m a (a from the simulation); its largest
 * value over the run is the breakaway force. LuGre gives mu_s N only in the limit of a
 * slow ramp: the slip speed at breakaway is not zero, and mu(v) has dropped by then (a
 * quasi-static estimate gives a deficit growing as rho^(2/3); seen: 1.9e-3 at rho =
 * 0.1 N/s, 4.0e-4 at 0.01 N/s, the ratio 4.7 = 10^(2/3)).
 *   - slider point at the centre, rho = 0.1 N/s: the normal force N = m g, the breakaway
 *     force within 2.5e-3 of mu_s m g;
 *   - the same at rho = 0.01 N/s: within 5e-4 of mu_s m g; and at F = mu_s N / 2 the
 *     displacement against the presliding closed form under a monotonic slip at mu(v) =
 *     mu_s, x = -(mu_s / sigma0) ln(1 - sigma0 z / mu_s) with z = F / (sigma0 N) (the
 *     slip speed is 1e-8 m/s there: within 1e-4 relative);
 *   - slider point 0.1 m ahead of the centre (two-point binding: gravity's moment about it
 *     m g 0.1 exceeds N L / 2, the normal force 2 |M| / L = 2 m g), rho = 0.01 N/s (half
 *     the second run's rho / N): the breakaway force within 5e-4 of 2 mu_s m g.
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double G = 9.81, MU_S = 0.4, SIGMA0 = 1e5;

static clink_model *slider(double offset, double rho, double t_end)
{
    static char xml[2048];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"friction_slider_lugre\">\n"
             "  <settings t_end=\"%g\" output_step=\"1e-2\" method=\"bdf\" rtol=\"1e-10\" "
             "atol=\"1e-13\" drift=\"projection\"/>\n"
             "  <gravity g=\"0 %.17g\"/>\n"
             "  <bodies><body name=\"slider\" mass=\"1\" inertia=\"0.01\"/></bodies>\n"
             "  <joints><translational name=\"guide\" body1=\"ground\" body2=\"slider\" "
             "point1=\"%g 0\" point2=\"%g 0\" axis=\"1 0\" friction_length=\"0.1\">\n"
             "    <friction type=\"lugre\" mu=\"0.3\" mu_s=\"0.4\" v_s=\"1e-3\" sigma0=\"1e5\" "
             "sigma1=\"316\"/>\n"
             "  </translational></joints>\n"
             "  <loads><force name=\"push\" body=\"slider\" value=\"1 0\"><linear initial=\"0\" "
             "rate=\"%.17g\"/></force></loads>\n"
             "</mechanism>\n",
             t_end, -G, offset, offset, rho);
    clink_model *model = NULL;
    char err[512];
    if (clink_xml_load_memory(xml, strlen(xml), "slider.xml", &model, NULL, err, sizeof err) !=
        CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return model;
}

/* the largest friction force over a ramp at rho up to 1.1 mu_s N / rho (N = fn), and the
   displacement when F = mu_s N / 2 (into *x_half); -1 on failure */
static int run(double offset, double rho, double fn, double *peak, double *x_half)
{
    double t_end = 1.1 * MU_S * fn / rho, t_half = 0.5 * MU_S * fn / rho, h = 1e-2;
    clink_model *model = slider(offset, rho, t_end);
    clink_sim *sim = NULL;
    char err[512];
    if (!model || clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", model ? err : "no model");
        clink_model_destroy(&model);
        return -1;
    }
    int rc = 0, n = (int) (t_end / h), half = 0;
    double q[3], v[3], a[3];
    *peak = 0.0;
    for (int i = 1; i <= n && !rc; i++) {
        double t = i * h;
        if (!half && t >= t_half) {
            half = 1;
            rc = clink_sim_advance(sim, t_half) != CLINK_OK;
            clink_sim_body_state(sim, 1, q, v);
            *x_half = q[0];
        }
        if (!rc && t > clink_sim_time(sim))
            rc = clink_sim_advance(sim, t) != CLINK_OK;
        clink_sim_body_acceleration(sim, 1, a);
        *peak = fmax(*peak, rho * t - a[0]); /* friction on the slider: F - m a */
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
    vjson *vj = vjson_open(outdir, "friction_slider_lugre",
                           "Translational joint with LuGre friction under a ramped force: "
                           "breakaway against mu_s N, presliding against its closed form");
    if (!vj)
        return 1;
    const double n0 = G;
    double peak, xh;
    int failed = 0;
    if (run(0.0, 0.1, n0, &peak, &xh) == 0)
        vjson_row_rel(vj, "ramp 0.1 N/s: breakaway force (mu_s m g)", peak, MU_S * n0, 2.5e-3, "N");
    else
        failed = 1;
    if (run(0.0, 0.01, n0, &peak, &xh) == 0) {
        vjson_row_rel(vj, "ramp 0.01 N/s: breakaway force (mu_s m g)", peak, MU_S * n0, 5e-4, "N");
        double z = 0.5 * MU_S * n0 / (SIGMA0 * n0);
        double x = -(MU_S / SIGMA0) * log(1.0 - SIGMA0 * z / MU_S);
        vjson_row_rel(vj, "ramp 0.01 N/s: presliding displacement at mu_s m g / 2 (closed form)",
                      xh, x, 1e-4, "m");
    } else {
        failed = 1;
    }
    if (run(0.1, 0.01, 2.0 * n0, &peak, &xh) == 0)
        vjson_row_rel(vj, "two-point binding, ramp 0.01 N/s: breakaway force (2 mu_s m g)", peak,
                      2.0 * MU_S * n0, 5e-4, "N");
    else
        failed = 1;
    vjson_check(vj, "every run completed", failed ? 0 : 1, "no failure", !failed, "-");
    return vjson_close(vj);
}
