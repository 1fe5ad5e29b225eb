/*
 * Two-pendulum impact of Poursina and Nikravesh (2020, Sect. 6), in the
 * reading documented in docs/contact-mechanics.md:
 * models/double_pendulum_impact.xml (Hunt-Crossley with the Flores factor, Eq. 16),
 * _piecewise (Newton restitution, impulse-momentum) and _poursina (Eq. 50, Hertz
 * spring with the optimal linear damper, separation at zero force), 8 s each.
 *
 * Checked: three impacts in 8 s for each treatment (the text's count); the
 * first impact at the same time and approach speed in all three (the motion
 * before it is free of contact), to 1e-6; the piecewise restitution equal to
 * e = 0.3 to 1e-12; Poursina-Nikravesh's restitution within 0.005 of 0.3 (its
 * damping is a fit, Poursina and Nikravesh (2020), Eqs. 46-47); the energy balance of each run to
 * 1e-6 J. Written for the figures (validation/plot_double_pendulum.py, as the paper
 * 002 Figs. 11-12): double_pendulum_rates.csv (angular rates of both rods, every
 * 5 ms, three treatments) and double_pendulum_loop.csv (force against
 * penetration through the first impact of the two continuous laws).
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NT 3

static const char *const names[NT] = {"double_pendulum_impact", "double_pendulum_impact_piecewise",
                                      "double_pendulum_impact_poursina"};
static const char *const labels[NT] = {"flores", "piecewise", "poursina"};

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    char err[512], q[160], path[1024];
    vjson *v = vjson_open(outdir, "double_pendulum",
                          "Two-pendulum impact (Poursina and Nikravesh 2020, Sect. 6), three treatments");
    if (!v)
        return 1;
    snprintf(path, sizeof path, "%s/double_pendulum_rates.csv", outdir);
    FILE *rates = fopen(path, "w");
    snprintf(path, sizeof path, "%s/double_pendulum_loop.csv", outdir);
    FILE *loop = fopen(path, "w");
    if (!rates || !loop)
        return 1;
    fprintf(rates, "treatment,t [s],omega1 [rad/s],omega2 [rad/s]\n");
    fprintf(loop, "treatment,t [s],delta [m],Fn [N]\n");
    double t_first[NT] = {0}, v_first[NT] = {0};
    int failed = 0;
    for (int k = 0; k < NT; k++) {
        snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, names[k]);
        clink_model *m = clink_model_load_xml(path, err, sizeof err);
        clink_sim *sim = NULL;
        if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        double t = 0.0, qb[3], w1[3], w2[3], max_bal = 0.0;
        int in_loop = 0;
        while (t < 8.0 - 1e-12) {
            /* fine steps through the first impact of the continuous laws */
            int fine = clink_sim_impact_count(sim) == 0 && k != 1 && t > 1.13 && t < 1.15;
            double dt = fine ? 2e-6 : 5e-3;
            t = fmin(8.0, t + dt);
            if (clink_sim_advance(sim, t) != CLINK_OK) {
                fprintf(stderr, "%s: %s\n", names[k], clink_sim_error(sim));
                failed = 1;
                break;
            }
            clink_contact_info ci;
            clink_sim_contact(sim, 0, &ci);
            if (fine && ci.delta > 0.0) {
                fprintf(loop, "%s,%.9g,%.9g,%.9g\n", labels[k], t, ci.delta, ci.fn);
                in_loop = 1;
            }
            if (!fine || !in_loop) {
                clink_sim_body_state(sim, 1, qb, w1);
                clink_sim_body_state(sim, 2, qb, w2);
                if (!fine)
                    fprintf(rates, "%s,%.6g,%.9g,%.9g\n", labels[k], t, w1[2], w2[2]);
            }
            clink_energy en;
            clink_sim_energy(sim, &en);
            max_bal = fmax(max_bal, fabs(en.balance));
        }
        int n = clink_sim_impact_count(sim);
        snprintf(q, sizeof q, "%s: impacts in 8 s", labels[k]);
        vjson_check(v, q, n, "3 (Poursina and Nikravesh 2020, Sect. 6)", n == 3, "-");
        for (int i = 0; i < n && i < 3; i++) {
            clink_impact_record r;
            clink_sim_impact(sim, i, &r);
            if (i == 0) {
                t_first[k] = r.t_onset;
                v_first[k] = r.v_impact;
            }
            snprintf(q, sizeof q, "%s: impact %d time", labels[k], i + 1);
            vjson_info(v, q, r.t_onset, "s");
            snprintf(q, sizeof q, "%s: impact %d restitution", labels[k], i + 1);
            if (k == 1)
                vjson_row(v, q, r.restitution, 0.3, 1e-12, "-");
            else if (k == 2)
                vjson_row(v, q, r.restitution, 0.3, 5e-3, "-");
            else
                vjson_info(v, q, r.restitution, "-");
            snprintf(q, sizeof q, "%s: impact %d effective mass", labels[k], i + 1);
            vjson_info(v, q, r.m_eff, "kg");
        }
        snprintf(q, sizeof q, "%s: max |energy balance residual|", labels[k]);
        vjson_row(v, q, max_bal, 0.0, 1e-6, "J");
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
    }
    for (int k = 1; k < NT; k++) {
        snprintf(q, sizeof q, "first impact time, %s against flores", labels[k]);
        vjson_row(v, q, t_first[k], t_first[0], 1e-6, "s");
        snprintf(q, sizeof q, "first approach speed, %s against flores", labels[k]);
        vjson_row(v, q, v_first[k], v_first[0], 1e-6, "m/s");
    }
    fclose(rates);
    fclose(loop);
    return vjson_close(v) || failed;
}
