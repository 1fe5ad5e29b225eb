/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cams in a simulation (docs/gears-cams.md): the roller follower of
 * models/cam_roller_follower.xml (a 3-4-5 law cam cut for its roller, BDF with the exact
 * derivatives of the profile-circle pair) rides the pitch curve: its lift equals the law's s
 * within 1e-6 m (the contact's deflection N / K is at most 50 N / 1e8 N/m = 5e-7 m along the
 * normal), the contact force stays positive and the energy books close to 1e-6 of the
 * energy a rise passes through the cam (F0 h + k h^2 / 2; the drivers' net work over whole
 * turns is nearly zero); the flat-faced valve train of models/cam_valve_train.xml turned above its
 * jump speed (200 rad/s against 173.4) leaves its cam and lands on it again (impacts logged),
 * below it (the shipped 150 rad/s) never.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>

/* impacts after the start (the followers start touching their cams at zero force: the
   contact's first episode begins at t = 0) */
static int landings(const clink_sim *sim)
{
    int n = 0;
    for (int i = 0; i < clink_sim_impact_count(sim); i++) {
        clink_impact_record r;
        n += clink_sim_impact(sim, i, &r) == CLINK_OK && r.t_onset > 1e-6;
    }
    return n;
}

static double lift_345(double phi)
{
    const double h = 0.008, b = 2.0943951023931953, d = 0.5235987755982988;
    phi = fmod(phi, 6.283185307179586);
    double x;
    if (phi < b)
        return x = phi / b, h * x * x * x * (10.0 - 15.0 * x + 6.0 * x * x);
    if (phi < b + d)
        return h;
    if (phi < 2.0 * b + d)
        return x = (phi - b - d) / b, h * (1.0 - x * x * x * (10.0 - 15.0 * x + 6.0 * x * x));
    return 0.0;
}

TEST(a_roller_follower_rides_the_pitch_curve_of_its_law_cam)
{
    char err[512];
    clink_model *m = NULL;
    ENSURE(clink_xml_load(CLINK_SOURCE_DIR "/models/cam_roller_follower.xml", &m, NULL, err,
                          sizeof err) == CLINK_OK);
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (!sim) {
        clink_model_destroy(&m);
        return;
    }
    double worst = 0.0, fmin_ = INFINITY;
    for (double t = 1e-3; t <= 0.1 + 1e-12; t += 1e-3) {
        double q[3], qd[3];
        clink_contact_info ci;
        ENSURE(clink_sim_advance(sim, t) == CLINK_OK);
        ENSURE(clink_sim_body_state(sim, 2, q, qd) == CLINK_OK);
        ENSURE(clink_sim_contact(sim, 0, &ci) == CLINK_OK);
        worst = fmax(worst, fabs(q[1] - 0.026 - lift_345(120.0 * clink_sim_time(sim))));
        fmin_ = fmin(fmin_, ci.fn);
    }
    ENSURE_NEAR(worst, 0.0, 1e-6);
    ENSURE(fmin_ > 0.0);
    ENSURE(landings(sim) == 0);
    clink_energy e;
    ENSURE(clink_sim_energy(sim, &e) == CLINK_OK);
    /* against the energy a rise passes through the cam, F0 h + k h^2 / 2 = 0.224 J */
    ENSURE_NEAR(e.balance / (20.0 * 0.008 + 0.5 * 2000.0 * 0.008 * 0.008), 0.0, 1e-6);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* the number of landings of the valve train turned at rate w over 0.1 s */
static int valve_impacts(const char *rate)
{
    char err[512];
    const char *sets[1] = {rate};
    clink_model *m = NULL;
    if (clink_xml_load_with(CLINK_SOURCE_DIR "/models/cam_valve_train.xml", sets, rate ? 1 : 0,
                            NULL, &m, NULL, err, sizeof err) != CLINK_OK)
        return -1;
    clink_sim *sim = test_sim_start(m);
    int n = sim && clink_sim_advance(sim, 0.1) == CLINK_OK ? landings(sim) : -1;
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return n;
}

TEST(a_valve_train_jumps_above_its_jump_speed_and_not_below)
{
    ENSURE(valve_impacts(NULL) == 0);
    ENSURE(valve_impacts("driver[motor].linear.rate=200") > 0);
}

/*
 * The cam's element output first_separation (src/contacts/contacts_records.c): turned at
 * 200 rad/s the follower leaves the cam in each turn; the output is NaN before the first
 * separation of a turn, then that separation's time (the end of the first contact episode,
 * the record's onset plus duration), the same through the turn, and NaN again at the start
 * of the next turn until its own. Without a simulation the output is NaN.
 */
TEST(a_cam_reports_its_first_separation_of_each_turn)
{
    char err[512];
    const char *sets[1] = {"driver[motor].linear.rate=200"};
    clink_model *m = NULL;
    ENSURE(clink_xml_load_with(CLINK_SOURCE_DIR "/models/cam_valve_train.xml", sets, 1, NULL, &m,
                               NULL, err, sizeof err) == CLINK_OK);
    ENSURE(clink_model_element_output_count(m, 0) == 1);
    double q[3] = {0, 0, 0}, out[1] = {0.0};
    ENSURE(clink_model_element_outputs(m, 0, q, q, out) == CLINK_OK);
    ENSURE(isnan(out[0]));
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (!sim) {
        clink_model_destroy(&m);
        return;
    }
    const double turn = 2.0 * 3.141592653589793 / 200.0;
    ENSURE(clink_sim_advance(sim, 1e-3) == CLINK_OK);
    ENSURE(clink_sim_element_outputs(sim, 0, out) == CLINK_OK);
    ENSURE(isnan(out[0]));
    ENSURE(clink_sim_advance(sim, 0.5 * turn) == CLINK_OK);
    ENSURE(clink_sim_element_outputs(sim, 0, out) == CLINK_OK);
    clink_impact_record r;
    ENSURE(clink_sim_impact_count(sim) >= 1 && clink_sim_impact(sim, 0, &r) == CLINK_OK);
    ENSURE_NEAR(out[0], r.t_onset + r.duration, 1e-15);
    double first = out[0];
    ENSURE(clink_sim_advance(sim, turn - 1e-4) == CLINK_OK);
    ENSURE(clink_sim_element_outputs(sim, 0, out) == CLINK_OK);
    ENSURE(out[0] == first);
    ENSURE(clink_sim_advance(sim, turn + 1e-3) == CLINK_OK);
    ENSURE(clink_sim_element_outputs(sim, 0, out) == CLINK_OK);
    ENSURE(isnan(out[0]));
    ENSURE(clink_sim_advance(sim, 1.5 * turn) == CLINK_OK);
    ENSURE(clink_sim_element_outputs(sim, 0, out) == CLINK_OK);
    ENSURE(out[0] > turn && out[0] < 1.5 * turn);
    ENSURE_NEAR(out[0] - turn, first, 1e-4); /* the same jump, one turn on */
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
