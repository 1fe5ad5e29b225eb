/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Box drop (models/box_drop.xml): a rectangular <polygon> (0.4 m by 0.2 m, m = 2 kg,
 * I = m (w^2 + h^2) / 12) falling onto a floor, one contact per corner, a linear elastic
 * law F = K delta (hertz, n = 1, K = 1e8 N/m per corner), no friction, against closed
 * forms clink does not compute:
 *
 * Tilted by th = 0.3 rad (the shipped model): the lowest corner r = R(th) (-0.2, -0.1)
 * hits first, after a free fall of its gap h: onset sqrt(2 h / g), approach speed
 * v = sqrt(2 g h). A rigid elastic impact (e = 1) at that corner gives the impulse
 * P = 2 v / (1/m + r_x^2 / I) and the velocities after it, v_y' = -v + P / m,
 * w' = r_x P / I, v_x' = 0. The compliant contact lasts T (about 0.3 ms) during which the
 * box turns by about w' T and gravity adds g T: the velocities are compared within
 * 2 |w'| T |r| / |r_x| + 2 g T / v (relative), the first-order size of both effects.
 *
 * Flat (th = 0, by the override body[box].phi=0): both bottom corners hit together and
 * the box moves as a mass m on a spring 2K under gravity: with w0 = sqrt(2K / m),
 * s = m g / (2K) (the static deflection) and A = sqrt(s^2 + (v / w0)^2), the largest
 * penetration is s + A, the contact lasts (pi + 2 asin(s / A)) / w0 and the box leaves
 * at the speed it came (the oscillation is symmetric about its bottom). Penetrations
 * and durations within 1e-6 relative (event location and the integration tolerance
 * rtol 1e-9; the largest penetration is seen at the accepted steps and events), the
 * angle stays 0 (both corners carry the same force).
 *
 * Also: the energy balance (T + V + U_contact - E0) over the tilted run's 1 s of
 * rocking from corner to corner (10 impacts; no dissipation), relative to m g h: within
 * 1e-5 at the model's rtol 1e-9 (measured 1.1e-6), and integration error, not a leak:
 * at rtol 1e-11 it falls below a tenth (measured 1e-6, 1.8e-7, 2.9e-8 J at rtol 1e-9,
 * 1e-10, 1e-11).
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MODEL CLINK_SOURCE_DIR "/models/box_drop.xml"

static const double g = 9.81, m = 2.0, I = 2.0 * (0.16 + 0.04) / 12.0, K = 1e8, y0 = 0.2;

static clink_sim *open_sim(const char *set, clink_model **model)
{
    char err[512];
    const char *sets[1] = {set};
    if (clink_xml_load_with(MODEL, sets, set ? 1 : 0, NULL, model, NULL, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    return vsim_create(model);
}

/* advances until n impacts are recorded (at most to t_max); 0 or -1 */
static int until_impacts(clink_sim *sim, int n, double t_max)
{
    while (clink_sim_impact_count(sim) < n && clink_sim_time(sim) < t_max)
        if (clink_sim_advance(sim, clink_sim_time(sim) + 1e-5) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            return -1;
        }
    return clink_sim_impact_count(sim) >= n ? 0 : -1;
}

static int tilted(vjson *v)
{
    clink_model *model = NULL;
    clink_sim *sim = open_sim(NULL, &model);
    if (!sim)
        return -1;
    const double th = 0.3, rx = -0.2 * cos(th) + 0.1 * sin(th), ry = -0.2 * sin(th) - 0.1 * cos(th);
    const double h = y0 + ry, vin = sqrt(2.0 * g * h);
    const double P = 2.0 * vin / (1.0 / m + rx * rx / I), vy1 = -vin + P / m, w1 = rx * P / I;
    clink_impact_record r;
    int rc = until_impacts(sim, 1, 0.5);
    if (rc == 0 && clink_sim_impact(sim, 0, &r) == CLINK_OK) {
        vjson_check(v, "tilted: first impact at the lowest corner", r.contact, "floor.vertex1",
                    strcmp(clink_model_contact_name(model, r.contact), "floor.vertex1") == 0, "-");
        vjson_row(v, "tilted: onset time, free fall sqrt(2 h / g)", r.t_onset, sqrt(2.0 * h / g),
                  1e-7, "s");
        vjson_row_rel(v, "tilted: approach speed, sqrt(2 g h)", r.v_impact, vin, 1e-6, "m/s");
        double q[3], qd[3], tend = r.t_onset + r.duration;
        clink_sim_body_state(sim, 1, q, qd);
        double T = r.duration,
               tol = 2.0 * fabs(w1) * T * hypot(rx, ry) / fabs(rx) + 2.0 * g * T / vin;
        vjson_info(v, "tilted: contact duration", T, "s");
        vjson_row_rel(v, "tilted: v_y after, rigid impulse -v + P / m",
                      qd[1] + g * (clink_sim_time(sim) - tend), vy1, tol, "m/s");
        vjson_row_rel(v, "tilted: angular velocity after, rigid impulse r_x P / I", qd[2], w1, tol,
                      "rad/s");
        vjson_row(v, "tilted: v_x after (no friction)", qd[0], 0.0, 1e-12, "m/s");
    } else {
        rc = -1;
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return rc;
}

/* the energy balance residual |T + V + U - E0| after the 1 s run at rtol (override) */
static double residual(const char *rtol)
{
    clink_model *model = NULL;
    clink_sim *sim = open_sim(rtol, &model);
    clink_energy e;
    double r = NAN;
    if (sim && clink_sim_advance(sim, 1.0) == CLINK_OK && clink_sim_energy(sim, &e) == CLINK_OK)
        r = fabs(e.balance);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return r;
}

static int energy(vjson *v)
{
    const double h = y0 - 0.2 * sin(0.3) - 0.1 * cos(0.3);
    double r9 = residual(NULL), r11 = residual("settings.rtol=1e-11");
    vjson_row(v, "tilted: energy balance after 1 s (10 impacts), relative to m g h",
              r9 / (m * g * h), 0.0, 1e-5, "-");
    vjson_check(v, "tilted: the residual is integration error: rtol 1e-11 / rtol 1e-9", r11 / r9,
                "< 0.1", r11 < 0.1 * r9, "-");
    return isfinite(r9) && isfinite(r11) ? 0 : -1;
}

static int flat(vjson *v)
{
    clink_model *model = NULL;
    clink_sim *sim = open_sim("body[box].phi=0", &model);
    if (!sim)
        return -1;
    const double h = y0 - 0.1, vin = sqrt(2.0 * g * h), w0 = sqrt(2.0 * K / m);
    const double s = m * g / (2.0 * K), A = hypot(s, vin / w0);
    int rc = until_impacts(sim, 2, 0.5);
    clink_impact_record r[2];
    if (rc == 0 && clink_sim_impact(sim, 0, &r[0]) == CLINK_OK &&
        clink_sim_impact(sim, 1, &r[1]) == CLINK_OK) {
        vjson_row(v, "flat: the two corners' onsets apart", r[1].t_onset - r[0].t_onset, 0.0, 1e-12,
                  "s");
        for (int k = 0; k < 2; k++) {
            char q[96];
            snprintf(q, sizeof q, "flat: %s largest penetration s + A",
                     clink_model_contact_name(model, r[k].contact));
            vjson_row_rel(v, q, r[k].delta_max, s + A, 1e-6, "m");
            snprintf(q, sizeof q, "flat: %s duration (pi + 2 asin(s / A)) / w0",
                     clink_model_contact_name(model, r[k].contact));
            vjson_row_rel(v, q, r[k].duration, (acos(-1.0) + 2.0 * asin(s / A)) / w0, 1e-6, "s");
            snprintf(q, sizeof q, "flat: %s restitution (symmetric oscillation)",
                     clink_model_contact_name(model, r[k].contact));
            vjson_row(v, q, r[k].restitution, 1.0, 1e-6, "-");
        }
        double q[3], qd[3];
        clink_sim_body_state(sim, 1, q, qd);
        vjson_row(v, "flat: angle after the impact", q[2], 0.0, 1e-12, "rad");
    } else {
        rc = -1;
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return rc;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    vjson *v = vjson_open(outdir, "box_drop",
                          "Box drop: a polygon's corners on a floor against closed forms");
    if (!v)
        return 1;
    int failed = tilted(v) != 0;
    failed |= energy(v) != 0;
    failed |= flat(v) != 0;
    vjson_check(v, "runs completed", failed, "0", failed == 0, "-");
    return vjson_close(v);
}
