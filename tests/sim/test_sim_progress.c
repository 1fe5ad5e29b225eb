/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The simulation driver's guarantees (include/clink/sim.h): outputs that do
 * not steer the integrator, statistics that survive re-initialisations,
 * progress guarantees (max_steps, min_step, wall_limit, max_step against
 * max_steps), physical sanity findings, and the status of the failing part.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <stdio.h>

/*
 * A 1 kg ball of radius 0.05 m dropped from y0 onto the floor; law is the
 * <law .../> element, settings the attributes of <settings> besides t_end and
 * output_step.
 */
static clink_model *ball_with(double y0, const char *law, const char *settings)
{
    char xml[2048], err[512];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"ball\">"
             "<settings t_end=\"2\" output_step=\"1e-3\" %s/>"
             "<gravity g=\"0 -9.81\"/>"
             "<bodies><body name=\"ball\" mass=\"1\" inertia=\"0.001\" x=\"0\" y=\"%.17g\"/>"
             "</bodies><contacts><pair name=\"floor\">"
             "<circle body=\"ball\" center=\"0 0\" radius=\"0.05\"/>"
             "<line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>%s</pair></contacts>"
             "</mechanism>",
             settings, y0, law);
    clink_model *m = NULL;
    if (clink_xml_load_memory(xml, strlen(xml), "ball.xml", &m, NULL, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "ball model: %s\n", err);
        return NULL;
    }
    return m;
}

/* the same with BDF and projection */
static clink_model *ball(double y0, const char *law, const char *settings)
{
    char all[512];
    snprintf(all, sizeof all, "method=\"bdf\" drift=\"projection\" %s", settings);
    return ball_with(y0, law, all);
}

/* ---- dense output ---------------------------------------------------------- */

TEST(outputs_do_not_steer_the_integrator_and_impacts_stay_exact)
{
    /* the same run with one output and with 1000: CVODE takes the same steps, finds the
       same impacts at the same times, and the final states agree to the last bit */
    clink_model *m = ball(0.3, "<law name=\"hunt-crossley\" K=\"1e9\" e=\"0.8\"/>",
                          "rtol=\"1e-9\" atol=\"1e-12\"");
    clink_sim *a = test_sim_start(m), *b = test_sim_start(m);
    ENSURE(a && b);
    if (!a || !b)
        goto done;
    ENSURE(clink_sim_advance(a, 1.0) == CLINK_OK);
    for (int k = 1; k <= 1000; k++)
        if (clink_sim_advance(b, 1e-3 * k) != CLINK_OK)
            break;
    ENSURE(clink_sim_time(b) == 1e-3 * 1000);
    clink_sim_stats sa, sb;
    clink_sim_stats_get(a, &sa);
    clink_sim_stats_get(b, &sb);
    ENSURE(sa.steps == sb.steps);
    ENSURE(sa.lin_setups == sb.lin_setups);
    ENSURE(clink_sim_impact_count(a) >= 3);
    ENSURE(clink_sim_impact_count(a) == clink_sim_impact_count(b));
    for (int i = 0; i < clink_sim_impact_count(a); i++) {
        clink_impact_record ra, rb;
        clink_sim_impact(a, i, &ra);
        clink_sim_impact(b, i, &rb);
        ENSURE(ra.t_onset == rb.t_onset);
        ENSURE(ra.restitution == rb.restitution);
    }
    double qa[3], qb[3], va[3], vb[3];
    clink_sim_body_state(a, 1, qa, va);
    clink_sim_body_state(b, 1, qb, vb);
    ENSURE(qa[1] == qb[1] && va[1] == vb[1]);
done:
    clink_sim_destroy(&a);
    clink_sim_destroy(&b);
    clink_model_destroy(&m);
}

TEST(an_output_between_steps_is_the_interpolated_state_and_its_accelerations)
{
    /* free fall before the first impact: y = y0 - g t^2 / 2 exactly, at any output time,
       and the acceleration reported there is -g */
    clink_model *m = ball(1.0, "<law name=\"hunt-crossley\" K=\"1e9\" e=\"0.8\"/>",
                          "rtol=\"1e-10\" atol=\"1e-12\"");
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (!sim)
        goto done;
    for (int k = 1; k <= 37; k++) {
        double t = 0.0107 * k, q[3], v[3], a[3];
        ENSURE(clink_sim_advance(sim, t) == CLINK_OK);
        clink_sim_body_state(sim, 1, q, v);
        clink_sim_body_acceleration(sim, 1, a);
        ENSURE_NEAR(q[1], 1.0 - 0.5 * 9.81 * t * t, 1e-9);
        ENSURE_NEAR(v[1], -9.81 * t, 1e-8);
        ENSURE_NEAR(a[1], -9.81, 1e-12);
    }
done:
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_stop_time_is_never_passed_and_an_advance_beyond_it_is_refused)
{
    clink_model *m = ball(0.3, "<law name=\"hunt-crossley\" K=\"1e9\" e=\"0.8\"/>",
                          "rtol=\"1e-9\" atol=\"1e-12\"");
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (!sim)
        goto done;
    ENSURE(clink_sim_set_stop_time(sim, 0.5) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.25) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.5) == CLINK_OK);
    ENSURE(clink_sim_time(sim) == 0.5);
    ENSURE(clink_sim_advance(sim, 0.6) == CLINK_ERR_ARG);
    ENSURE(strstr(clink_sim_error(sim), "stop time") != NULL);
    ENSURE(clink_sim_set_stop_time(sim, 0.4) == CLINK_ERR_ARG);
    ENSURE(clink_sim_set_stop_time(sim, 1.0) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.6) == CLINK_OK);
done:
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* ---- statistics ------------------------------------------------------------ */

TEST(statistics_grow_with_t_end_across_re_initialisations)
{
    /* an impulse (piecewise) contact re-initialises CVODE at every impact: the counters
       must be summed over the re-initialisations, so they grow with t_end */
    clink_model *m = ball(0.3, "<law name=\"hertz\" K=\"1e8\" e=\"0.9\" treatment=\"impulse\"/>",
                          "rtol=\"1e-9\" atol=\"1e-12\" settle_speed=\"0.05\"");
    long steps = 0, rhs = 0, setups = 0, reinits = 0;
    for (int k = 1; k <= 5; k++) {
        clink_sim *sim = test_sim_start(m);
        ENSURE(sim != NULL);
        if (!sim)
            break;
        ENSURE(clink_sim_advance(sim, 0.3 * k) == CLINK_OK);
        clink_sim_stats st;
        clink_sim_stats_get(sim, &st);
        ENSURE(st.steps > steps);
        ENSURE(st.rhs_evals > rhs);
        ENSURE(st.lin_setups > setups);
        ENSURE(st.contact_reinits >= reinits);
        /* at least one right-hand side per step, one set-up per re-initialisation */
        ENSURE(st.rhs_evals >= st.steps);
        ENSURE(st.lin_setups >= st.contact_reinits);
        steps = st.steps;
        rhs = st.rhs_evals;
        setups = st.lin_setups;
        reinits = st.contact_reinits;
        clink_sim_destroy(&sim);
    }
    ENSURE(reinits >= 3);
    clink_model_destroy(&m);
}

/* ---- progress guarantees --------------------------------------------------- */

TEST(a_contact_too_stiff_for_the_tolerances_stops_naming_time_step_and_contact)
{
    /* K = 1e35: CVODE's steps shrink to 1e-18 s at the first touch; without the guard the
       run takes millions of steps and never ends */
    clink_model *m = ball(0.55, "<law name=\"hunt-crossley\" K=\"1e35\" e=\"0.8\"/>",
                          "rtol=\"1e-9\" atol=\"1e-12\"");
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (!sim)
        goto done;
    clink_status st = clink_sim_advance(sim, 0.5);
    ENSURE(st == CLINK_ERR_SOLVER);
    const char *msg = clink_sim_error(sim);
    ENSURE(strstr(msg, "no progress") != NULL);
    ENSURE(strstr(msg, "at t = 0.31") != NULL);
    ENSURE(strstr(msg, "step ") != NULL);
    ENSURE(strstr(msg, "contacts involved: 'floor' (contact 0, hunt-crossley, K 1e+35") != NULL);
    ENSURE(strstr(msg, "stiffness too high") != NULL);
    clink_sim_stats s;
    clink_sim_stats_get(sim, &s);
    ENSURE(s.steps < 100000);
    ENSURE(clink_sim_time(sim) < 0.32); /* the last good output is kept */
done:
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_max_step_that_needs_more_than_max_steps_is_refused)
{
    clink_model *m =
        ball(0.3, "<law name=\"hunt-crossley\" K=\"1e9\" e=\"0.8\"/>", "max_step=\"1e-11\"");
    clink_sim *sim = NULL;
    char err[512] = "";
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strstr(err, "max_steps") != NULL && strstr(err, "2e+11") != NULL);
    /* with a short t_end the creation passes, and an advance that needs too many steps is
       refused before it starts */
    clink_settings_def s = clink_model_settings(m);
    s.t_end = 1e-5;
    ENSURE(clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_OK);
    if (sim) {
        ENSURE(clink_sim_advance(sim, 1.0) == CLINK_ERR_RANGE);
        ENSURE(strstr(clink_sim_error(sim), "max_steps") != NULL);
        ENSURE(clink_sim_advance(sim, 1e-9) == CLINK_OK);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(max_steps_min_step_and_wall_limit_stop_a_run)
{
    clink_model *m = ball(0.3, "<law name=\"hunt-crossley\" K=\"1e9\" e=\"0.8\"/>",
                          "rtol=\"1e-9\" atol=\"1e-12\"");
    clink_settings_def s = clink_model_settings(m);
    clink_sim *sim = NULL;
    clink_sim_stats st;

    s.max_steps = 200;
    ENSURE(clink_sim_create(m, &s, &sim, NULL, 0) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 1.0) == CLINK_ERR_SOLVER);
    ENSURE(strstr(clink_sim_error(sim), "max_steps") != NULL);
    clink_sim_stats_get(sim, &st);
    ENSURE(st.steps == 201);
    clink_sim_destroy(&sim);

    /* the impact needs steps far below 1e-4 s */
    s = clink_model_settings(m);
    s.min_step = 1e-4;
    ENSURE(clink_sim_create(m, &s, &sim, NULL, 0) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 1.0) == CLINK_ERR_SOLVER);
    ENSURE(strstr(clink_sim_error(sim), "minimum step 0.0001 s") != NULL);
    ENSURE(strstr(clink_sim_error(sim), "hunt-crossley") != NULL);
    clink_sim_destroy(&sim);

    s = clink_model_settings(m);
    s.wall_limit = 1e-9;
    ENSURE(clink_sim_create(m, &s, &sim, NULL, 0) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 1.0) == CLINK_ERR_SOLVER);
    ENSURE(strstr(clink_sim_error(sim), "wall-clock limit") != NULL);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* ---- physical sanity checks ------------------------------------------------ */

static int count_findings(const clink_sim *sim, clink_finding_kind kind, clink_finding_severity sev)
{
    int n = 0;
    for (int i = 0; i < clink_sim_finding_count(sim); i++) {
        clink_sim_finding f;
        if (clink_sim_finding_get(sim, i, &f) == CLINK_OK && f.kind == kind && f.severity == sev)
            n++;
    }
    return n;
}

TEST(an_energy_residual_beyond_the_systems_energy_is_reported_in_joules_and_relative)
{
    /* rtol 1e-1, atol 1 with a stiff contact: the books lose more than the 5 J the ball
       holds, a deliberately bad integration (the test is about the finding, not about the
       integration; rtol 1e-3 did while the weights were relative to |y|, rtol 1e-2 with atol
       1e-3 until BDF had its analytic Jacobian, whose Newton iterations keep the books at
       that atol, rtol = atol = 1e-2 until the integrator restarted at each separation) */
    clink_model *m = ball(0.55, "<law name=\"hunt-crossley\" K=\"1e18\" e=\"0.8\"/>",
                          "rtol=\"1e-1\" atol=\"1\"");
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (!sim)
        goto done;
    for (int k = 1; k <= 1000; k++)
        if (clink_sim_advance(sim, 1e-3 * k) != CLINK_OK)
            break;
    ENSURE(count_findings(sim, CLINK_FINDING_ENERGY, CLINK_FINDING_IMPLAUSIBLE) == 1);
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    ENSURE(st.implausible >= 1 && st.findings >= st.implausible);
    for (int i = 0; i < clink_sim_finding_count(sim); i++) {
        clink_sim_finding f;
        ENSURE(clink_sim_finding_get(sim, i, &f) == CLINK_OK);
        if (f.kind != CLINK_FINDING_ENERGY || f.severity != CLINK_FINDING_IMPLAUSIBLE)
            continue;
        ENSURE(f.relative > 0.5);
        ENSURE(f.limit == 0.5);
        ENSURE(strstr(f.message, " J") != NULL && strstr(f.message, "implausible") != NULL);
    }
    ENSURE(clink_sim_finding_get(sim, 64, NULL) == CLINK_ERR_ARG);
done:
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_restitution_above_one_of_a_lone_free_dissipative_contact_is_implausible)
{
    /* Adams at rtol = atol = 0.5 without drift control: the integration is garbage and an
       impact of a law that dissipates (e 0.8) restitutes more than it received (0.1 was
       enough while the error weights were relative to |y| rather than the distance fallen) */
    clink_model *m = ball_with(0.55, "<law name=\"hunt-crossley\" K=\"1e9\" e=\"0.8\"/>",
                               "method=\"adams\" drift=\"none\" rtol=\"0.5\" atol=\"0.5\"");
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (!sim)
        goto done;
    for (int k = 1; k <= 1000; k++)
        if (clink_sim_advance(sim, 1e-3 * k) != CLINK_OK)
            break;
    ENSURE(count_findings(sim, CLINK_FINDING_RESTITUTION, CLINK_FINDING_IMPLAUSIBLE) >= 1);
    ENSURE(count_findings(sim, CLINK_FINDING_RESTITUTION, CLINK_FINDING_WARNING) == 0);
    for (int i = 0; i < clink_sim_finding_count(sim) && i < 64; i++) {
        clink_sim_finding f;
        ENSURE(clink_sim_finding_get(sim, i, &f) == CLINK_OK);
        if (f.kind != CLINK_FINDING_RESTITUTION)
            continue;
        /* the finding is the impact record's restitution */
        int found = 0;
        for (int j = 0; j < clink_sim_impact_count(sim); j++) {
            clink_impact_record r;
            clink_sim_impact(sim, j, &r);
            found |= r.t_onset == f.t && r.restitution == f.value;
        }
        ENSURE(found);
        ENSURE(f.value > 1.001 && f.contact == 0);
        ENSURE(strstr(f.message, "restitutes") != NULL);
    }
done:
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(an_accurate_run_has_no_findings)
{
    clink_model *m = ball(0.3, "<law name=\"hunt-crossley\" K=\"1e9\" e=\"0.8\"/>",
                          "rtol=\"1e-9\" atol=\"1e-12\"");
    clink_sim *sim = test_sim_start(m);
    ENSURE(sim != NULL);
    if (sim) {
        ENSURE(clink_sim_advance(sim, 1.0) == CLINK_OK);
        ENSURE(clink_sim_impact_count(sim) >= 3);
        ENSURE(clink_sim_finding_count(sim) == 0);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_penetration_beyond_a_quarter_of_the_size_warns_and_beyond_the_size_is_implausible)
{
    /* a ball resting on a soft contact: delta = (m g / K)^(2/3) is 0.022 m (0.44 R) for
       K = 3e3 and 0.21 m (4 R) for K = 1e2 */
    const char *laws[2] = {"<law name=\"hunt-crossley\" K=\"3e3\" e=\"0.5\"/>",
                           "<law name=\"hunt-crossley\" K=\"1e2\" e=\"0.5\"/>"};
    for (int i = 0; i < 2; i++) {
        clink_model *m = ball(0.051, laws[i], "rtol=\"1e-8\" atol=\"1e-10\"");
        clink_sim *sim = test_sim_start(m);
        ENSURE(sim != NULL);
        if (sim) {
            ENSURE(clink_sim_advance(sim, 1.0) == CLINK_OK);
            /* one finding per contact and level; the highest level reached is reported */
            ENSURE(count_findings(sim, CLINK_FINDING_PENETRATION, CLINK_FINDING_WARNING) == 1 - i);
            ENSURE(count_findings(sim, CLINK_FINDING_PENETRATION, CLINK_FINDING_IMPLAUSIBLE) == i);
            clink_sim_finding f;
            ENSURE(clink_sim_finding_get(sim, 0, &f) == CLINK_OK);
            ENSURE(f.contact == 0 && f.relative > 0.25);
        }
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
    }
}

/* ---- the status of the failing part ----------------------------------------- */

/* a ball of radius 1e6 m that starts 5e5 m into the floor, moving up at vy (m/s), with the
   law given as the attributes of <law>: clink_sim_create refuses it as non-finite, its
   message holding `says` and `also` */
static void huge_ball_is_refused(const char *file, const char *vy, const char *law,
                                 const char *says, const char *also)
{
    char xml[1024], err[512] = "";
    snprintf(xml, sizeof xml,
             "<mechanism name=\"huge\"><settings t_end=\"1\" output_step=\"1e-3\"/>"
             "<gravity g=\"0 -9.81\"/><bodies>"
             "<body name=\"ball\" mass=\"1\" inertia=\"0.001\" x=\"0\" y=\"5e5\" vy=\"%s\"/>"
             "</bodies><contacts><pair name=\"floor\"><circle body=\"ball\" center=\"0 0\" "
             "radius=\"1e6\"/><line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>"
             "<law %s/></pair></contacts></mechanism>",
             vy, law);
    clink_model *m = NULL;
    ENSURE(clink_xml_load_memory(xml, strlen(xml), file, &m, NULL, err, sizeof err) == CLINK_OK);
    clink_sim *sim = NULL;
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_ERR_NONFINITE);
    ENSURE(strstr(err, says) != NULL);
    ENSURE(strstr(err, also) != NULL);
    ENSURE(sim == NULL);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_non_finite_contact_force_is_an_error_naming_the_contact)
{
    /* K = 1e300: K delta^1.5 overflows to infinity, which no smaller step can cure (before: a
       recoverable failure that CVODE retried until its step vanished) */
    huge_ball_is_refused("huge.xml", "0", "name=\"hertz\" K=\"1e300\"",
                         "contact 'floor' (contact 0, hertz): non-finite force at t = 0 s", "");
}

TEST(a_nan_law_force_is_an_error_naming_contact_law_and_time)
{
    /* Ristow's law F = max(0, K delta^1.5 + chi delta delta_dot) with K = chi = 1e300, the ball
       moving out of the floor at 1 km/s: the spring overflows to +infinity, the damper to
       -infinity, and their sum is NaN (before: mapped to 0 by clink_law_force and by the law's
       clamp, so the ball flew through a force that was not there) */
    huge_ball_is_refused(
        "nan.xml", "1e3", "name=\"ristow\" K=\"1e300\" chi=\"1e300\"",
        "contact 'floor' (contact 0, ristow): non-finite force at t = 0 s (normal ",
        "nan N, friction"); /* printed as nan or -nan */
}

/* ---- error test over what moves --------------------------------------------- */

/*
 * A ball at x0 = xoff moving at 1 m/s towards a wall at xoff + 0.1 m (no gravity), and
 * `idle` free bodies at rest far away: the impact's time and restitution and CVODE's step
 * count after 0.3 s.
 */
static int wall_run(double xoff, int idle, double *t_onset, double *restitution, long *steps)
{
    char xml[8192], err[512];
    int n = snprintf(xml, sizeof xml,
                     "<mechanism name=\"wall\"><settings t_end=\"1\" output_step=\"1e-3\" "
                     "method=\"adams\" drift=\"none\" rtol=\"1e-6\" atol=\"1e-9\"/>"
                     "<gravity g=\"0 0\"/><bodies>"
                     "<body name=\"ball\" mass=\"1\" inertia=\"0.001\" x=\"%.17g\" y=\"0\" "
                     "vx=\"1\"/>",
                     xoff);
    for (int i = 0; i < idle; i++)
        n +=
            snprintf(xml + n, sizeof xml - (size_t) n,
                     "<body name=\"idle%d\" mass=\"1\" inertia=\"0.001\" x=\"%d\" y=\"5\"/>", i, i);
    snprintf(xml + n, sizeof xml - (size_t) n,
             "</bodies><contacts><pair name=\"wall\"><circle body=\"ball\" center=\"0 0\" "
             "radius=\"0.05\"/><line body=\"ground\" point=\"%.17g 0\" normal=\"-1 0\"/>"
             "<law name=\"hunt-crossley\" K=\"1e9\" e=\"0.8\"/></pair></contacts></mechanism>",
             xoff + 0.1);
    clink_model *m = NULL;
    if (clink_xml_load_memory(xml, strlen(xml), "wall.xml", &m, NULL, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "wall model: %s\n", err);
        return -1;
    }
    clink_sim *sim = test_sim_start(m);
    int rc = -1;
    clink_impact_record r;
    if (sim && clink_sim_advance(sim, 0.3) == CLINK_OK && clink_sim_impact_count(sim) == 1 &&
        clink_sim_impact(sim, 0, &r) == CLINK_OK) {
        clink_sim_stats st;
        clink_sim_stats_get(sim, &st);
        *t_onset = r.t_onset;
        *restitution = r.restitution;
        *steps = st.steps;
        rc = 0;
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return rc;
}

TEST(bodies_at_rest_do_not_change_the_error_test_nor_the_origin_loosen_it)
{
    /* the norm leaves out the components with no error: 30 bodies at rest (180 more
       components) leave the steps and the impact exactly as they are (with the WRMS over all
       components: 125 steps alone, 105 with them); the error weights follow each
       coordinate's displacement: the scene moved 1000 m from the origin takes no fewer steps
       (with weights relative to |q|: 113 instead of 125), the impact the same to the
       rounding of the coordinates there */
    double t0, e0, t1, e1, t2, e2;
    long s0, s1, s2;
    ENSURE(wall_run(0.0, 0, &t0, &e0, &s0) == 0);
    ENSURE(wall_run(0.0, 30, &t1, &e1, &s1) == 0);
    ENSURE(wall_run(1000.0, 0, &t2, &e2, &s2) == 0);
    ENSURE(s1 == s0);
    ENSURE(t1 == t0 && e1 == e0);
    ENSURE(s2 >= s0);
    ENSURE_REL(t2, t0, 1e-9);
    ENSURE_REL(e2, e0, 2e-5);
}

/* SUNDIALS 6.4 and 7.x: the clearance slider-crank with a friction coefficient of 1e308 fails
   on both, 6.4 in a stall (its fixed-point solver retries the right-hand side's failure), 7.x
   at once on the right-hand side's fatal failure (CV_RHSFUNC_FAIL); both messages name the
   contact and the friction as the likely cause (scripts/test-sundials7 runs this on 7.1.1) */
TEST(a_friction_of_1e308_stops_naming_the_contact_and_the_friction_on_either_sundials)
{
    char path[1024], err[512];
    const char *sets[] = {"revolute_clearance[rod_slider].friction.mu=1e308"};
    clink_model *m = NULL;
    clink_sim *sim = NULL;

    snprintf(path, sizeof path, "%s/models/slider_crank_clearance.xml", CLINK_SOURCE_DIR);
    ENSURE(clink_xml_load_with(path, sets, 1, NULL, &m, NULL, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    clink_status st = clink_sim_advance(sim, 0.01);
    fprintf(stderr, "%s\n", clink_sim_error(sim));
    ENSURE(st == CLINK_ERR_SOLVER || st == CLINK_ERR_NONFINITE);
    ENSURE(clink_sim_time(sim) < 1e-3);
    ENSURE(strstr(clink_sim_error(sim), "contacts involved: 'rod_slider' (contact 0") != NULL);
    ENSURE(strstr(clink_sim_error(sim), "likely cause: contact 'rod_slider' has a friction "
                                        "coefficient mu = 1e+308") != NULL);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
