/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stall diagnosis names a load before it blames a contact's stiffness
 * (src/sim/sim_check.c, sim_check_stall_loads; docs/development.md, "Reliability"):
 *   - a spring of 1e15 N/m on a 1 g bead (time scale sqrt(m/k) = 1e-9 s) stops the run
 *     at max_steps with a message naming the spring and its stiffness;
 *   - a force of 1e12 N whirling a 1 g arm is named with its value;
 *   - a spring of ordinary stiffness in a run stopped by a small max_steps is not blamed.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <stdio.h>

/* runs the model to t_end in steps of 1e-3 s: the status of the first failing advance,
   its message copied into msg */
static clink_status run(const char *xml, char *msg, size_t size)
{
    clink_model *m = test_model_xml(xml, "start_and_stall.xml");
    clink_sim *sim = NULL;
    char err[512];
    clink_status st = m ? clink_sim_create(m, NULL, &sim, err, sizeof err) : CLINK_ERR_MODEL;
    msg[0] = '\0';
    if (st != CLINK_OK)
        snprintf(msg, size, "%s", m ? err : "no model");
    for (int k = 1; k <= 1000 && st == CLINK_OK; k++) {
        st = clink_sim_advance(sim, 1e-3 * k);
        if (st != CLINK_OK)
            snprintf(msg, size, "%s", clink_sim_error(sim));
    }
    fprintf(stderr, "message: %s\n", msg);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return st;
}

/* a 1 g bead on a spring of stiffness k from the ground, stretched 1 mm */
static clink_status bead(const char *k, const char *max_steps, char *msg, size_t size)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"bead\"><settings t_end=\"1\" output_step=\"1e-3\" "
             "max_steps=\"%s\"/><gravity g=\"0 0\"/><bodies><body name=\"bead\" "
             "mass=\"0.001\" inertia=\"1e-7\" x=\"0.101\" y=\"0\"/></bodies><loads>"
             "<spring_damper name=\"tether\" body1=\"ground\" point1=\"0 0\" body2=\"bead\" "
             "point2=\"0 0\" stiffness=\"%s\" length=\"0.1\"/></loads></mechanism>",
             max_steps, k);
    return run(xml, msg, size);
}

TEST(a_spring_of_1e15_n_per_m_on_a_gram_is_named_as_the_stalls_cause)
{
    char msg[1024];
    ENSURE(bead("1e15", "1e5", msg, sizeof msg) == CLINK_ERR_SOLVER);
    ENSURE(strstr(msg, "more steps than max_steps") != NULL);
    ENSURE(strstr(msg, "likely cause: load 'tether': its stiffness 1e+15 N/m on 0.001 kg") != NULL);
    ENSURE(strstr(msg, "sqrt(m/k) = 1e-09 s") != NULL);
    ENSURE(strstr(msg, "not smooth") == NULL);
}

TEST(a_force_of_1e12_n_on_a_gram_is_named_as_the_stalls_cause)
{
    char msg[1024];
    const char *xml =
        "<mechanism name=\"arm\"><settings t_end=\"1\" output_step=\"1e-3\" max_steps=\"1e5\"/>"
        "<bodies><body name=\"arm\" mass=\"0.001\" inertia=\"1e-7\" x=\"0.05\" y=\"0\"/>"
        "</bodies><joints><revolute name=\"pivot\" body1=\"ground\" point1=\"0 0\" "
        "body2=\"arm\" point2=\"-0.05 0\"/></joints><loads><force name=\"shove\" body=\"arm\" "
        "point=\"0.05 0\" value=\"0 1e12\"/></loads></mechanism>";
    ENSURE(run(xml, msg, sizeof msg) == CLINK_ERR_SOLVER);
    ENSURE(strstr(msg, "likely cause: load 'shove': its value 1e+12 N on 0.001 kg") != NULL);
}

TEST(an_ordinary_spring_in_a_run_stopped_by_max_steps_is_not_blamed)
{
    /* k = 100 N/m on 1 g: sqrt(m/k) = 3.2 ms, above 1e-3 of t_end */
    char msg[1024];
    ENSURE(bead("100", "50", msg, sizeof msg) == CLINK_ERR_SOLVER);
    ENSURE(strstr(msg, "more steps than max_steps") != NULL);
    ENSURE(strstr(msg, "tether") == NULL);
}

/* ---- the start as if the clearance joints were ideal (settings start) ------------------- */

/* the slider-crank of docs/guide.md with crank r = 0.1 m, rod l = 0.3 m (the journal at the
   rod's end, the bearing in the slider, radial clearance 0.2 mm), at crank angle th = 1 rad
   driven at w = 104.72 rad/s; only the crank's speed given. The slider is written shifted
   by dx (the journal eccentric by -dx along the guide). */
static const double SC_R = 0.1, SC_L = 0.3, SC_TH = 1.0, SC_W = 104.719755120;

static clink_model *slider_crank(const char *start, double dx)
{
    double xs = SC_R * cos(SC_TH) + sqrt(SC_L * SC_L - pow(SC_R * sin(SC_TH), 2));
    double px = SC_R * cos(SC_TH), py = SC_R * sin(SC_TH), beta = atan2(-py, xs - px);
    char xml[4096];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"sc\"><settings t_end=\"0.01\" output_step=\"1e-4\" %s/>"
             "<materials><material name=\"steel\" E=\"207e9\" nu=\"0.3\"/></materials><bodies>"
             "<body name=\"crank\" mass=\"1.0\" inertia=\"0.000833333333333\" x=\"%.17g\" "
             "y=\"%.17g\" phi=\"%.17g\" omega=\"%.17g\"/>"
             "<body name=\"rod\" mass=\"1.5\" inertia=\"0.01125\" x=\"%.17g\" y=\"%.17g\" "
             "phi=\"%.17g\"/>"
             "<body name=\"slider\" mass=\"2.0\" inertia=\"0.001\" x=\"%.17g\" y=\"0\"/>"
             "</bodies><joints>"
             "<revolute name=\"crank_pin\" body1=\"ground\" point1=\"0 0\" body2=\"crank\" "
             "point2=\"-0.05 0\"/>"
             "<revolute name=\"crank_rod\" body1=\"crank\" point1=\"0.05 0\" body2=\"rod\" "
             "point2=\"-0.15 0\"/>"
             "<revolute_clearance name=\"rod_slider\" journal=\"rod\" journal_point=\"0.15 0\" "
             "bearing=\"slider\" bearing_point=\"0 0\" journal_radius=\"0.0098\" "
             "bearing_radius=\"0.010\" journal_material=\"steel\" bearing_material=\"steel\">"
             "<law name=\"gonthier-exact\" e=\"0.8\"/></revolute_clearance>"
             "<translational name=\"guide\" body1=\"ground\" point1=\"0 0\" body2=\"slider\" "
             "point2=\"0 0\" axis=\"1 0\"/></joints><drivers>"
             "<driver name=\"motor\" type=\"angle\" joint=\"crank_pin\">"
             "<linear initial=\"%.17g\" rate=\"%.17g\"/></driver></drivers></mechanism>",
             start, px / 2, py / 2, SC_TH, SC_W, (px + xs) / 2, py / 2, beta, xs + dx, SC_TH, SC_W);
    return test_model_xml(xml, "start_and_stall.xml");
}

/* the ideal slider-crank's velocities at th (closed form): crank centre, rod (vx, vy, w),
   slider vx */
static void sc_closed_form(double crank[2], double rod[3], double *slider)
{
    double s = sin(SC_TH), c = cos(SC_TH), root = sqrt(SC_L * SC_L - SC_R * SC_R * s * s);
    double pv[2] = {-SC_R * SC_W * s, SC_R * SC_W * c};
    double cosb = (root) / SC_L;
    *slider = -SC_R * SC_W * s - SC_R * SC_R * SC_W * s * c / root;
    crank[0] = pv[0] / 2;
    crank[1] = pv[1] / 2;
    rod[0] = (pv[0] + *slider) / 2;
    rod[1] = pv[1] / 2;
    rod[2] = -SC_R * SC_W * c / (SC_L * cosb);
}

/* the speed of the journal's centre relative to the bearing's (the slider translates) */
static double sc_relative_speed(const clink_sim *sim)
{
    double qr[3], vr[3], qs[3], vs[3];
    clink_sim_body_state(sim, 2, qr, vr);
    clink_sim_body_state(sim, 3, qs, vs);
    /* the journal at (0.15, 0) on the rod: v + w perp(A s) */
    double vj[2] = {vr[0] - vr[2] * 0.15 * sin(qr[2]), vr[1] + vr[2] * 0.15 * cos(qr[2])};
    return hypot(vj[0] - vs[0], vj[1] - vs[1]);
}

static int sc_findings(const clink_sim *sim, clink_finding_kind kind, const char *text)
{
    int n = 0;
    for (int i = 0; i < clink_sim_finding_count(sim); i++) {
        clink_sim_finding f;
        if (clink_sim_finding_get(sim, i, &f) == CLINK_OK && f.kind == kind &&
            strstr(f.message, text)) {
            fprintf(stderr, "finding: %s\n", f.message);
            n++;
        }
    }
    return n;
}

/* the started simulation's velocities against the closed form; its journal's eccentricity */
static void sc_ensure_ideal(const clink_sim *sim, double e_expected)
{
    double crank[2], rod[3], slider, q[3], v[3];
    sc_closed_form(crank, rod, &slider);
    clink_sim_body_state(sim, 1, q, v);
    ENSURE_NEAR(v[0], crank[0], 1e-9);
    ENSURE_NEAR(v[1], crank[1], 1e-9);
    ENSURE_NEAR(v[2], SC_W, 1e-9);
    clink_sim_body_state(sim, 2, q, v);
    ENSURE_NEAR(v[0], rod[0], 1e-9);
    ENSURE_NEAR(v[1], rod[1], 1e-9);
    ENSURE_NEAR(v[2], rod[2], 1e-9);
    clink_sim_body_state(sim, 3, q, v);
    ENSURE_NEAR(v[0], slider, 1e-9);
    ENSURE_NEAR(sc_relative_speed(sim), 0.0, 1e-9);
    clink_contact_info info;
    ENSURE(clink_sim_contact(sim, 0, &info) == CLINK_OK);
    ENSURE(info.fn == 0.0);
    ENSURE(info.delta < 0.0);
    ENSURE_NEAR(hypot(info.eccentricity[0], info.eccentricity[1]), e_expected, 1e-12);
    ENSURE_NEAR(info.delta_dot, 0.0, 1e-9);
    ENSURE(sc_findings(sim, CLINK_FINDING_START, "") == 0);
    ENSURE(sc_findings(sim, CLINK_FINDING_ASSEMBLY, "") == 0);
}

TEST(a_slider_crank_started_ideal_has_the_ideal_velocities_and_no_impact)
{
    clink_model *m = slider_crank("start=\"ideal\"", 0.0);
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (sim) {
        sc_ensure_ideal(sim, 0.0);
        /* the journal leaves the centre under the ideal joint's reaction, not at once */
        ENSURE(clink_sim_advance(sim, 1e-4) == CLINK_OK);
        ENSURE(clink_sim_impact_count(sim) == 0);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(the_same_slider_crank_started_as_given_warns_of_its_journal_approaching)
{
    clink_model *m = slider_crank("", 0.0);
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (sim) {
        ENSURE(sc_findings(sim, CLINK_FINDING_START,
                           "clearance joint 'rod_slider' starts with its journal approaching") ==
               1);
        ENSURE(sc_relative_speed(sim) > 1.0);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_slider_crank_started_ideal_keeps_its_journal_eccentric_where_written)
{
    /* the slider 0.1 mm behind: the journal 0.1 mm off centre, kept there */
    clink_model *m = slider_crank("start=\"ideal\"", -1e-4);
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (sim) {
        sc_ensure_ideal(sim, 1e-4);
        double dq, dv;
        clink_sim_assembly(sim, &dq, &dv);
        ENSURE(dq < 1e-12);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_slider_crank_started_ideal_centred_moves_its_journal_to_the_centre)
{
    clink_model *m = slider_crank("start=\"ideal_centred\"", -1e-4);
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (sim) {
        sc_ensure_ideal(sim, 0.0);
        double dq, dv, q[3], v[3];
        clink_sim_assembly(sim, &dq, &dv);
        ENSURE(dq > 0.5e-4); /* the centring move is reported */
        clink_sim_body_state(sim, 2, q, v);
        ENSURE_NEAR(q[2], atan2(-SC_R * sin(SC_TH), sqrt(SC_L * SC_L - pow(SC_R * sin(SC_TH), 2))),
                    1e-12);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* models/slider_crank_translational_clearance.xml with the rod's and the crank's velocities
   left out and the slider tilted 4 mrad in its guide (the start given by st); its slider's
   velocity and the rod's rate into vs, w_rod; the largest contact force into fn_max; the
   model (which the simulation reads) into *m */
static clink_sim *translational(const char *st, clink_model **m, double vs[3], double *w_rod,
                                double *fn_max)
{
    char path[1024], err[512], start[64];
    snprintf(path, sizeof path, "%s/models/slider_crank_translational_clearance.xml",
             CLINK_SOURCE_DIR);
    snprintf(start, sizeof start, "settings.start=%s", st);
    const char *sets[] = {start, "body[rod].vy=0", "body[rod].omega=0", "body[crank].vy=0",
                          "body[slider].phi=0.004"};
    clink_sim *sim = NULL;
    *m = NULL;
    if (clink_xml_load_with(path, sets, 5, NULL, m, NULL, err, sizeof err) != CLINK_OK ||
        clink_sim_create(*m, NULL, &sim, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "%s\n", err);
    if (!sim)
        return NULL;
    double q[3], v[3];
    clink_sim_body_state(sim, 3, q, vs);
    clink_sim_body_state(sim, 2, q, v);
    *w_rod = v[2];
    *fn_max = 0.0;
    for (int k = 0; k < clink_sim_contact_count(sim); k++) {
        clink_contact_info info;
        if (clink_sim_contact(sim, k, &info) == CLINK_OK)
            *fn_max = fmax(*fn_max, fabs(info.fn));
    }
    fprintf(stderr, "%s: slider v (%g, %g, %g), rod w %g, largest force %g N\n", st, vs[0], vs[1],
            vs[2], *w_rod, *fn_max);
    return sim;
}

TEST(a_translational_clearance_started_ideal_holds_its_slider_offset_and_tilt)
{
    double vs[3], w, fn;
    clink_model *m = NULL;
    clink_sim *sim = translational("ideal", &m, vs, &w, &fn);
    ENSURE(sim != NULL);
    if (sim) {
        /* the ideal slider-crank at the dead centre: the rod at -75 rad/s, the slider at rest */
        ENSURE_NEAR(w, -75.0, 1e-9);
        ENSURE_NEAR(vs[0], 0.0, 1e-9);
        ENSURE_NEAR(vs[1], 0.0, 1e-9);
        ENSURE_NEAR(vs[2], 0.0, 1e-9);
        ENSURE(fn == 0.0);
        double q[3], v[3];
        clink_sim_body_state(sim, 3, q, v);
        ENSURE(q[2] == 0.004); /* the tilt kept */
        ENSURE(sc_findings(sim, CLINK_FINDING_ASSEMBLY, "") == 0);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    sim = translational("ideal_centred", &m, vs, &w, &fn);
    ENSURE(sim != NULL);
    if (sim) {
        double q[3], v[3];
        clink_sim_body_state(sim, 3, q, v);
        ENSURE_NEAR(q[2], 0.0, 1e-13); /* aligned */
        ENSURE_NEAR(vs[2], 0.0, 1e-9);
        ENSURE_NEAR(w, -75.0, 1e-9);
        ENSURE(sc_findings(sim, CLINK_FINDING_ASSEMBLY, "") == 0);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    /* as given, the slider leaves its mid-line at 0.8 m/s towards the guide: warned */
    sim = translational("as_given", &m, vs, &w, &fn);
    ENSURE(sim != NULL);
    ENSURE(fabs(vs[1]) > 0.1);
    if (sim)
        ENSURE(sc_findings(sim, CLINK_FINDING_START, "clearance joint 'guide.corner") >= 1);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_start_ideal_whose_ideal_mechanism_is_overconstrained_is_refused_saying_so)
{
    /* a bar pinned to the ground at one end, its other end in a clearance joint on the
       ground: made ideal, four equations for three coordinates */
    const char *xml =
        "<mechanism name=\"over\"><settings start=\"ideal\"/><bodies><body name=\"bar\" "
        "mass=\"1\" inertia=\"0.1\" x=\"0.5\" y=\"0\"/></bodies><joints><revolute name=\"pivot\" "
        "body1=\"ground\" point1=\"0 0\" body2=\"bar\" point2=\"-0.5 0\"/><revolute_clearance "
        "name=\"rest\" journal=\"bar\" journal_point=\"0.5 0\" bearing=\"ground\" "
        "bearing_point=\"1 0\" journal_radius=\"0.0098\" bearing_radius=\"0.01\"><law "
        "name=\"hunt-crossley\" K=\"1e9\" e=\"0.8\"/></revolute_clearance></joints></mechanism>";
    clink_model *m = test_model_xml(xml, "start_and_stall.xml");
    clink_sim *sim = NULL;
    char err[512] = "";
    ENSURE(m != NULL);
    ENSURE(m && clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_ERR_ASSEMBLY);
    fprintf(stderr, "message: %s\n", err);
    ENSURE(strstr(err, "start=\"ideal\": the mechanism with ideal clearance joints: model has 4 "
                       "constraint equations for 3 coordinates") != NULL);
    ENSURE(sim == NULL);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
