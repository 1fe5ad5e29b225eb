/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ball drop (models/ball_drop.xml): a steel ball of 1 kg and radius 50 mm
 * dropped from h0 = 0.5 m onto a steel floor, exact Hunt-Crossley calibration
 * (gonthier-exact, Poursina and Nikravesh (2020), Eqs. 18-19) with e = 0.8, stiffness from the
 * materials (Hertz sphere on a plane).
 *
 * In free flight the apex height over the contact level is h = v_sep^2 / (2 g),
 * so bounce k's apex over the previous one is e_k^2, e_k the achieved
 * restitution of impact k (checked to 1e-6). The law gives exactly e for a
 * free impact; gravity also acts during the contact (duration T_c), which may
 * change the separation speed by about g T_c, so e_k is checked against e
 * within 2 g T_c / v_impact and the apex ratio against e^2 within twice that.
 * Also reported: the energy balance residual (T + V + U_contact + D_contact - E0)
 * relative to m g h0, the number of CVODE re-initialisations (one per separation, where
 * the force is not smooth; none at onset, where the law's force starts from zero) and the
 * events handled.
 */
#include "vjson.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>

#define NB 5

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const double g = 9.81, e = 0.8, R = 0.05, h0 = 0.5, m = 1.0;
    char err[512], q[128];
    clink_model *model =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/ball_drop.xml", err, sizeof err);
    if (!model) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    clink_sim *sim = NULL;
    if (clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        clink_model_destroy(&model);
        return 1;
    }
    vjson *v = vjson_open(outdir, "ball_drop", "Ball drop: apex heights against restitution");
    if (!v)
        return 1;
    double apex[NB], qb[3], vb[3], vprev = 0.0, yprev = 0.0, dt = 1e-4;
    int na = 0, failed = 0;
    for (int i = 1; i <= 30000 && na < NB; i++) {
        if (clink_sim_advance(sim, i * dt) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(sim));
            failed = 1;
            break;
        }
        clink_sim_body_state(sim, 1, qb, vb);
        if (vprev > 0.0 && vb[1] <= 0.0)
            apex[na++] = yprev + vprev * vprev / (2.0 * g) - R; /* free flight from the sample */
        vprev = vb[1];
        yprev = qb[1];
    }
    vjson_check(v, "apexes found", na, "5 bounces within 3 s", na == NB, "-");
    double hprev = h0;
    for (int k = 0; k < na; k++) {
        clink_impact_record r;
        if (clink_sim_impact(sim, k, &r) != CLINK_OK)
            break;
        double bound = 2.0 * g * r.duration / r.v_impact;
        snprintf(q, sizeof q, "impact %d: achieved restitution", k + 1);
        vjson_row(v, q, r.restitution, e, bound, "-");
        snprintf(q, sizeof q, "bounce %d: apex ratio h_%d / h_%d", k + 1, k + 1, k);
        vjson_row(v, q, apex[k] / hprev, e * e, 2.0 * bound, "-");
        snprintf(q, sizeof q, "bounce %d: apex ratio against the impact's restitution squared",
                 k + 1);
        vjson_row_rel(v, q, apex[k] / hprev, r.restitution * r.restitution, 1e-6, "-");
        snprintf(q, sizeof q, "bounce %d: apex height", k + 1);
        vjson_info(v, q, apex[k], "m");
        snprintf(q, sizeof q, "impact %d: peak force", k + 1);
        vjson_info(v, q, r.F_max, "N");
        snprintf(q, sizeof q, "impact %d: contact duration", k + 1);
        vjson_info(v, q, r.duration, "s");
        hprev = apex[k];
    }
    clink_energy en;
    clink_sim_energy(sim, &en);
    vjson_row(v, "energy balance residual / (m g h0)", fabs(en.balance) / (m * g * h0), 0.0, 1e-6,
              "-");
    vjson_info(v, "energy dissipated by contact damping", en.contact_damping, "J");
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    long nsep = 0; /* impacts that ended in a separation */
    for (int k = 0; k < clink_sim_impact_count(sim); k++) {
        clink_impact_record r;
        if (clink_sim_impact(sim, k, &r) == CLINK_OK && !r.persistent)
            nsep++;
    }
    vjson_check(v, "CVODE re-initialisations", (double) st.contact_reinits,
                "one per separation (none at onset: the force starts from zero)",
                st.contact_reinits == nsep, "-");
    vjson_info(v, "contact events handled", (double) st.contact_events, "-");
    vjson_info(v, "CVODE steps", (double) st.steps, "-");
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    return vjson_close(v) || failed;
}
