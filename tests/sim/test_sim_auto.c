/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The settings clink chooses for a model that names no method or drift
 * (CLINK_METHOD_AUTO, CLINK_DRIFT_AUTO; src/sim/sim_auto.c, docs/kernel.md
 * "What auto picks and why"): small models written here, one per structural
 * class of the rule (free bodies with a contact, a tree of joints, one closed
 * loop, two closed loops), each resolved by clink_sim_create() as the rule says
 * and reported so by clink_sim_settings(); an explicit method or drift is never
 * changed, and with one of them explicit the other never makes Adams with
 * projection; a dynamic friction law (lugre, dahl) in a contact makes auto take
 * BDF, the drift staying that of the structure.
 */
#include "ensure.h"

#include "clink/sim.h"
#include "clink/xml.h"
#include "sim/sim_auto.h"

#include <stdio.h>
#include <string.h>

#define UPRIGHT_ROD(name, x)                                                                       \
    "<body name=\"" name "\" mass=\"1\" inertia=\"0.0833\" x=\"" x                                 \
    "\" y=\"0.5\" phi=\"1.5707963267948966\"/>"
#define COUPLER(name, x)                                                                           \
    "<body name=\"" name "\" mass=\"1\" inertia=\"0.0833\" x=\"" x "\" y=\"1\" phi=\"0\"/>"
#define PIN(name, a, pa, b, pb)                                                                    \
    "<revolute name=\"" name "\" body1=\"" a "\" point1=\"" pa "\" body2=\"" b "\" point2=\"" pb   \
    "\"/>"

/* free ball over the floor: no joints, one contact */
static const char *const ball =
    "<bodies><body name=\"ball\" mass=\"1\" inertia=\"0.001\" x=\"0\" y=\"0.2\"/></bodies>"
    "<contacts><pair name=\"floor\"><circle body=\"ball\" center=\"0 0\" radius=\"0.05\"/>"
    "<line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>"
    "<law name=\"hunt-crossley\" K=\"1e7\" e=\"0.8\"/></pair></contacts>";

/* double pendulum: a tree of two revolutes */
static const char *const tree =
    "<bodies><body name=\"a\" mass=\"1\" inertia=\"0.0833\" x=\"0.5\" y=\"0\"/>"
    "<body name=\"b\" mass=\"1\" inertia=\"0.0833\" x=\"1.5\" y=\"0\"/></bodies><joints>" PIN(
        "p0", "ground", "0 0", "a", "-0.5 0") PIN("p1", "a", "0.5 0", "b", "-0.5 0") "</joints>";

/* parallelogram four-bar: one loop (cranks at x = 0 and 1, coupler on top) */
static const char *const one_loop = "<bodies>" UPRIGHT_ROD("c0", "0") UPRIGHT_ROD("c1", "1")
    COUPLER("k0", "0.5") "</bodies><joints>" PIN("g0", "ground", "0 0", "c0", "-0.5 0")
        PIN("g1", "ground", "1 0", "c1", "-0.5 0") PIN("t0", "c0", "0.5 0", "k0", "-0.5 0")
            PIN("t1", "c1", "0.5 0", "k0", "0.5 0") "</joints>";

/* two parallelogram windows sharing the middle crank (the N-four-bar with N = 2) */
static const char *const two_loops = "<bodies>" UPRIGHT_ROD("c0", "0") UPRIGHT_ROD("c1", "1")
    UPRIGHT_ROD("c2", "2") COUPLER("k0", "0.5")
        COUPLER("k1", "1.5") "</bodies><joints>" PIN("g0", "ground", "0 0", "c0", "-0.5 0")
            PIN("g1", "ground", "1 0", "c1", "-0.5 0") PIN("g2", "ground", "2 0", "c2", "-0.5 0")
                PIN("t0", "c0", "0.5 0", "k0", "-0.5 0") PIN("t1", "c1", "0.5 0", "k0", "0.5 0")
                    PIN("u1", "c1", "0.5 0", "k1", "-0.5 0")
                        PIN("u2", "c2", "0.5 0", "k1", "0.5 0") "</joints>";

/* the model of `body` with <settings> carrying `attrs` (no method or drift if empty) */
static clink_model *model(const char *body, const char *attrs)
{
    char xml[4096], err[512];
    clink_model *m = NULL;
    snprintf(xml, sizeof xml,
             "<mechanism name=\"auto\"><settings t_end=\"0.01\" output_step=\"1e-3\" %s/>%s"
             "</mechanism>",
             attrs, body);
    if (clink_xml_load_memory(xml, strlen(xml), "auto.xml", &m, NULL, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "model: %s\n", err);
    return m;
}

/* the method and drift the simulation of body with attrs runs with; 0 if it does not start */
static int resolved(const char *body, const char *attrs, clink_method *method, clink_drift *drift)
{
    char err[512];
    clink_model *m = model(body, attrs);
    clink_sim *sim = NULL;
    int ok = m != NULL && clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK;
    if (!ok && m)
        fprintf(stderr, "create: %s\n", err);
    if (ok) {
        clink_settings_def s = clink_sim_settings(sim);
        *method = s.method;
        *drift = s.drift;
        ok = clink_sim_advance(sim, 0.01) == CLINK_OK;
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return ok;
}

TEST(a_model_without_method_and_drift_gets_auto_and_each_class_resolves_as_the_rule_says)
{
    static const struct {
        const char *const *body;
        int loops;
        clink_method method;
        clink_drift drift;
    } cases[] = {{&ball, 0, CLINK_METHOD_ADAMS, CLINK_DRIFT_NONE},
                 {&tree, 0, CLINK_METHOD_ADAMS, CLINK_DRIFT_BAUMGARTE},
                 {&one_loop, 1, CLINK_METHOD_ADAMS, CLINK_DRIFT_BAUMGARTE},
                 {&two_loops, 2, CLINK_METHOD_BDF, CLINK_DRIFT_PROJECTION}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        clink_model *m = model(*cases[k].body, "");
        ENSURE(m != NULL);
        if (!m)
            continue;
        /* the model keeps auto; the simulation resolves it */
        ENSURE(clink_model_settings(m).method == CLINK_METHOD_AUTO);
        ENSURE(clink_model_settings(m).drift == CLINK_DRIFT_AUTO);
        ENSURE(sim_auto_loops(m) == cases[k].loops);
        clink_model_destroy(&m);
        clink_method method = CLINK_METHOD_AUTO;
        clink_drift drift = CLINK_DRIFT_AUTO;
        ENSURE(resolved(*cases[k].body, "", &method, &drift));
        ENSURE(method == cases[k].method && drift == cases[k].drift);
        /* method="auto" drift="auto" is the same as saying nothing */
        ENSURE(resolved(*cases[k].body, "method=\"auto\" drift=\"auto\"", &method, &drift));
        ENSURE(method == cases[k].method && drift == cases[k].drift);
    }
    ENSURE(clink_default_settings_def().method == CLINK_METHOD_AUTO);
    ENSURE(clink_default_settings_def().drift == CLINK_DRIFT_AUTO);
}

TEST(an_explicit_method_or_drift_is_never_changed_by_auto)
{
    static const char *const bodies[] = {ball, tree, one_loop, two_loops};
    static const char *const methods[] = {"bdf", "adams"};
    static const char *const drifts[] = {"projection", "baumgarte", "none"};
    for (int b = 0; b < 4; b++) {
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++) {
                char attrs[128];
                clink_method method;
                clink_drift drift;
                if (i == 1 && j == 0)
                    continue; /* Adams with projection is refused (tests/sim/test_sim.c) */
                snprintf(attrs, sizeof attrs, "method=\"%s\" drift=\"%s\"", methods[i], drifts[j]);
                ENSURE(resolved(bodies[b], attrs, &method, &drift));
                ENSURE((int) method == i && (int) drift == j);
            }
        /* one explicit: it is kept, and the other never makes Adams with projection */
        for (int i = 0; i < 2; i++) {
            char attrs[64];
            clink_method method;
            clink_drift drift;
            snprintf(attrs, sizeof attrs, "method=\"%s\"", methods[i]);
            ENSURE(resolved(bodies[b], attrs, &method, &drift));
            ENSURE((int) method == i && drift != CLINK_DRIFT_AUTO);
            ENSURE(!(method == CLINK_METHOD_ADAMS && drift == CLINK_DRIFT_PROJECTION));
        }
        for (int j = 0; j < 3; j++) {
            char attrs[64];
            clink_method method;
            clink_drift drift;
            snprintf(attrs, sizeof attrs, "drift=\"%s\"", drifts[j]);
            ENSURE(resolved(bodies[b], attrs, &method, &drift));
            ENSURE((int) drift == j && method != CLINK_METHOD_AUTO);
            ENSURE(!(method == CLINK_METHOD_ADAMS && drift == CLINK_DRIFT_PROJECTION));
        }
    }
    /* the API: explicit settings given to clink_sim_create() are used as given */
    clink_model *m = model(two_loops, "");
    ENSURE(m != NULL);
    clink_settings_def s = clink_model_settings(m);
    s.method = CLINK_METHOD_ADAMS;
    s.drift = CLINK_DRIFT_NONE;
    clink_sim *sim = NULL;
    char err[512];
    ENSURE(m && clink_sim_create(m, &s, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_settings(sim).method == CLINK_METHOD_ADAMS);
    ENSURE(clink_sim_settings(sim).drift == CLINK_DRIFT_NONE);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* the ball of `ball` and a block on a pendulum's tree, each with friction law `fr` */
static const char *const ball_fr =
    "<bodies><body name=\"ball\" mass=\"1\" inertia=\"0.001\" x=\"0\" y=\"0.049\"/></bodies>"
    "<contacts><pair name=\"floor\"><circle body=\"ball\" center=\"0 0\" radius=\"0.05\"/>"
    "<line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>"
    "<law name=\"hunt-crossley\" K=\"1e7\" e=\"0.8\"/>%s</pair></contacts>";
static const char *const tree_fr =
    "<bodies><body name=\"a\" mass=\"1\" inertia=\"0.0833\" x=\"0.5\" y=\"0\"/>"
    "<body name=\"b\" mass=\"1\" inertia=\"0.0833\" x=\"1.5\" y=\"0\"/></bodies><joints>" PIN(
        "p0", "ground", "0 0", "a", "-0.5 0")
        PIN("p1", "a", "0.5 0", "b",
            "-0.5 0") "</joints>"
                      "<contacts><pair name=\"floor\"><circle body=\"b\" center=\"0.5 0\" "
                      "radius=\"0.05\"/>"
                      "<line body=\"ground\" point=\"0 -0.0499\" normal=\"0 1\"/>"
                      "<law name=\"hunt-crossley\" K=\"1e7\" e=\"0.8\"/>%s</pair></contacts>";

TEST(auto_takes_bdf_for_a_dynamic_friction_law_and_keeps_the_drift_of_the_structure)
{
    static const struct {
        const char *fr;
        int dynamic;
    } laws[] = {
        {"<friction type=\"lugre\" mu=\"0.3\" mu_s=\"0.4\" v_s=\"1e-3\" sigma0=\"1e5\"/>", 1},
        {"<friction type=\"dahl\" mu=\"0.3\" sigma0=\"1e5\"/>", 1},
        {"<friction type=\"coulomb-tanh\" mu=\"0.3\" v1=\"1e-3\"/>", 0},
        {"", 0}};
    static const char *const bodies[] = {ball_fr, tree_fr};
    static const clink_drift drifts[] = {CLINK_DRIFT_NONE, CLINK_DRIFT_BAUMGARTE};
    for (size_t l = 0; l < sizeof laws / sizeof laws[0]; l++)
        for (int b = 0; b < 2; b++) {
            char body[2048];
            snprintf(body, sizeof body, bodies[b], laws[l].fr);
            clink_model *m = model(body, "");
            ENSURE(m != NULL);
            if (m)
                ENSURE(sim_auto_dynamic_friction(m) == laws[l].dynamic);
            clink_model_destroy(&m);
            clink_method method = CLINK_METHOD_AUTO;
            clink_drift drift = CLINK_DRIFT_AUTO;
            ENSURE(resolved(body, "", &method, &drift));
            ENSURE(method == (laws[l].dynamic ? CLINK_METHOD_BDF : CLINK_METHOD_ADAMS));
            ENSURE(drift == drifts[b]);
            /* an explicit Adams stays Adams */
            ENSURE(resolved(body, "method=\"adams\"", &method, &drift));
            ENSURE(method == CLINK_METHOD_ADAMS && drift == drifts[b]);
        }
}

/* ---- switches while running (sim_auto_watch) ---------------------------------------------- */

/* the model file models/<file> run to t_end with method (and drift auto): its steps, the
   switches (up to 8 into sw) and their number into *nsw; 0 if it does not load or run */
static int run_file(const char *file, clink_method method, double t_end, long *steps,
                    clink_method_switch *sw, int *nsw)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/models/%s", CLINK_SOURCE_DIR, file);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "model: %s\n", err);
        return 0;
    }
    clink_settings_def set = clink_model_settings(m);
    set.method = method;
    set.drift = CLINK_DRIFT_AUTO;
    set.t_end = t_end;
    clink_sim *sim = NULL;
    int ok = clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK &&
             clink_sim_advance(sim, t_end) == CLINK_OK;
    if (!ok)
        fprintf(stderr, "%s: %s\n", file, sim ? clink_sim_error(sim) : err);
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    *steps = st.steps;
    *nsw = clink_sim_method_switches(sim, sw, 8);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return ok;
}

/* The stiff film (c = 0.05 mm, models/slider_crank_lubricated_stiff.xml): Adams's steps are
   bounded by the film's relaxation, h L above Adams's stability bound from the first steps on,
   so auto switches to BDF in the first millisecond and stays there, and takes at most 1.5
   times BDF's steps over the same 10 ms (measured 1.05 over the 48 ms of the model: the steps
   before the switch and BDF's restart at order 1); Adams alone takes about 60 000 steps per
   millisecond here. */
TEST(auto_switches_the_stiff_film_to_bdf_within_its_first_millisecond_at_bdf_steps)
{
    clink_method_switch sw[8];
    int n = -1, nb = -1;
    long steps = 0, steps_bdf = 0;
    ENSURE(run_file("slider_crank_lubricated_stiff.xml", CLINK_METHOD_AUTO, 0.01, &steps, sw, &n));
    ENSURE(n >= 1);
    if (n >= 1) {
        ENSURE(sw[0].from == CLINK_METHOD_ADAMS && sw[0].to == CLINK_METHOD_BDF);
        ENSURE(sw[0].t > 0.0 && sw[0].t < 1e-3);
        ENSURE(strncmp(sw[0].reason, "stiff: h L = ", 13) == 0);
    }
    /* BDF to the end: an even number of later switches would leave it in Adams */
    ENSURE(n % 2 == 1);
    ENSURE(
        run_file("slider_crank_lubricated_stiff.xml", CLINK_METHOD_BDF, 0.01, &steps_bdf, sw, &nb));
    ENSURE(nb == 0);
    ENSURE(steps_bdf > 0 && (double) steps <= 1.5 * (double) steps_bdf);
}

/* A non-stiff model never switches: the double pendulum (models/double_pendulum.xml) under
   auto runs Adams from start to end, with the steps of Adams chosen explicitly (the estimates
   observe the steps, never change them). */
TEST(auto_never_switches_on_the_double_pendulum_and_takes_adams_steps)
{
    clink_method_switch sw[8];
    int n = -1, na = -1;
    long steps = 0, steps_adams = 0;
    ENSURE(run_file("double_pendulum.xml", CLINK_METHOD_AUTO, 5.0, &steps, sw, &n));
    ENSURE(n == 0);
    ENSURE(run_file("double_pendulum.xml", CLINK_METHOD_ADAMS, 5.0, &steps_adams, sw, &na));
    ENSURE(na == 0);
    ENSURE(steps > 0 && steps == steps_adams);
}

/* Hysteresis: on the dry clearance slider-crank, where the contacts' onsets make single
   estimates of L jump and Adams is the cheaper method, auto's switches stay few (2 measured
   over 48 ms: one BDF trial, back to Adams by BDF's measured cost, the next trial needing
   twice the evidence) and its steps near Adams's; an explicit method never switches. */
TEST(auto_switches_a_few_times_at_most_on_the_dry_clearance_joint_and_explicit_never)
{
    clink_method_switch sw[8];
    int n = -1, na = -1;
    long steps = 0, steps_adams = 0;
    ENSURE(run_file("slider_crank_clearance.xml", CLINK_METHOD_AUTO, 0.048, &steps, sw, &n));
    ENSURE(n >= 0 && n <= 16);
    ENSURE(
        run_file("slider_crank_clearance.xml", CLINK_METHOD_ADAMS, 0.048, &steps_adams, sw, &na));
    ENSURE(na == 0);
    ENSURE(steps_adams > 0 && (double) steps <= 1.3 * (double) steps_adams);
}
