/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the methods' table (src/integrators/integrator.c, CLINK_METHOD_TABLE):
 *   - every rule of the simulation asks a method's capabilities, not its name: for each
 *     method, a model with contacts is accepted exactly when it has CLINK_CAP_EVENTS,
 *     drift projection (in the model's settings and at clink_sim_create) exactly with
 *     CLINK_CAP_PROJECTION, a missing max_step refused exactly with CLINK_CAP_FIXED_STEP,
 *     the Jacobian evaluated exactly with CLINK_CAP_JACOBIAN, the window of the state in
 *     use exactly with CLINK_CAP_RESIZE, and auto's drift for a mechanism of several
 *     loops projection exactly when the method projects;
 *   - the words of model files are the table's, read back by the XML reader;
 *   - the impact laboratory's adams and bdf run through the same table: the undamped
 *     Hertz impact against its closed form (Johnson 1985, Sect. 11.1: delta_max =
 *     (5 m v^2 / (4 K))^(2/5), F_max = K delta_max^1.5, the duration 2 (delta_max / v)
 *     (2/5) B(2/5, 1/2), e = 1), with BDF's Newton Jacobian evaluated and Adams' not.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/lab.h"
#include "clink/sim.h"
#include "clink/xml.h"
#include "integrators/integrator.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the model of file (models/), NULL (a failed check) if it does not load */
static clink_model *load(const char *file)
{
    clink_model *m = test_model_file(file);
    ENSURE(m != NULL);
    return m;
}

/* clink_sim_create's status for m with the method, drift and max_step; the simulation
   advanced to t (> 0) into *out when it was created and out is given, else destroyed */
static clink_status try_create(const clink_model *m, clink_method k, clink_drift drift,
                               double max_step, double t, clink_sim **out)
{
    clink_settings_def s = clink_model_settings(m);
    s.method = k;
    s.drift = drift;
    s.max_step = max_step;
    clink_sim *sim = NULL;
    char err[512];
    clink_status st = clink_sim_create(m, &s, &sim, err, sizeof err);
    if (st != CLINK_OK)
        fprintf(stderr, "  %s: %s\n", clink_method_name(k), err);
    if (st == CLINK_OK && t > 0.0)
        ENSURE(clink_sim_advance(sim, t) == CLINK_OK);
    if (out)
        *out = sim;
    else
        clink_sim_destroy(&sim);
    return st;
}

TEST(every_rule_asks_the_capabilities_of_each_method)
{
    clink_model *ball = load("ball_drop.xml"), *pend = load("pendulum.xml");
    if (!ball || !pend)
        return;
    int methods = 0;
    for (int i = 0; i < CLINK_METHOD_COUNT; i++) {
        clink_method k = (clink_method) i;
        unsigned caps = clink_method_caps(k);
        ENSURE(caps == integrator_caps(k));
        if (!integrator_for(k)) {
            ENSURE(k == CLINK_METHOD_AUTO && caps == 0);
            continue;
        }
        methods++;
        /* events: a model with contacts */
        clink_sim *sim = NULL;
        clink_status st = try_create(ball, k, CLINK_DRIFT_NONE, 1e-5, 1e-3, &sim);
        ENSURE((st == CLINK_OK) == ((caps & CLINK_CAP_EVENTS) != 0));
        clink_sim_destroy(&sim);
        /* projection at clink_sim_create */
        st = try_create(pend, k, CLINK_DRIFT_PROJECTION, 1e-3, 0.0, NULL);
        ENSURE((st == CLINK_OK) == ((caps & CLINK_CAP_PROJECTION) != 0));
        /* a fixed step needs max_step */
        st = try_create(pend, k, CLINK_DRIFT_BAUMGARTE, 0.0, 0.0, NULL);
        ENSURE((st == CLINK_OK) == !(caps & CLINK_CAP_FIXED_STEP));
        /* the Jacobian: evaluated over 0.05 s of the pendulum exactly with the capability */
        ENSURE(try_create(pend, k, CLINK_DRIFT_BAUMGARTE, 1e-3, 0.05, &sim) == CLINK_OK);
        clink_sim_stats ss;
        clink_sim_stats_get(sim, &ss);
        ENSURE((ss.jac_evals > 0) == ((caps & CLINK_CAP_JACOBIAN) != 0));
        clink_sim_destroy(&sim);
        fprintf(stderr, "%s: caps %u, Jacobians %ld\n", clink_method_name(k), caps, ss.jac_evals);
    }
    ENSURE(methods == CLINK_METHOD_COUNT - 1);
    clink_model_destroy(&ball);
    clink_model_destroy(&pend);
}

/* the settings of a ball on the ground with the method's word, drift and window */
static clink_status load_words(const char *method, const char *drift, const char *window,
                               clink_model **m, char *err, size_t n)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<mechanism name=\"w\"><settings t_end=\"0.01\" output_step=\"1e-3\" "
             "method=\"%s\" drift=\"%s\" max_step=\"1e-5\" window=\"%s\"/>"
             "<materials><material name=\"steel\" E=\"207e9\" nu=\"0.3\" "
             "density=\"7800\"/></materials><bodies><body name=\"ball\" mass=\"1\" "
             "inertia=\"1e-3\" x=\"0\" y=\"0.1\" material=\"steel\"/></bodies>"
             "<contacts><pair name=\"floor\"><circle body=\"ball\" center=\"0 0\" "
             "radius=\"0.05\"/><line body=\"ground\" point=\"0 0\" normal=\"0 1\" "
             "material=\"steel\"/><law name=\"hertz\"/></pair></contacts></mechanism>",
             method, drift, window);
    *m = NULL;
    return clink_xml_load_memory(xml, strlen(xml), "w.xml", m, NULL, err, n);
}

TEST(the_words_of_model_files_and_the_window_follow_the_table)
{
    for (int i = 0; i < CLINK_METHOD_COUNT; i++) {
        clink_method k = (clink_method) i;
        unsigned caps = clink_method_caps(k);
        const char *word = clink_method_name(k);
        clink_model *m = NULL;
        char err[512];
        ENSURE(word != NULL);
        /* the word reads back as the method */
        ENSURE(load_words(word, "none", "off", &m, err, sizeof err) == CLINK_OK);
        ENSURE(m && clink_model_settings(m).method == k);
        clink_model_destroy(&m);
        /* the model's settings refuse projection without the capability (auto resolves) */
        clink_status st = load_words(word, "projection", "off", &m, err, sizeof err);
        ENSURE((st == CLINK_OK) == ((caps & CLINK_CAP_PROJECTION) || k == CLINK_METHOD_AUTO));
        if (st != CLINK_OK)
            ENSURE(strstr(err, word) != NULL && strstr(err, "projection") != NULL);
        clink_model_destroy(&m);
        /* the window of the state: in use exactly with a resizable state */
        if (!(caps & CLINK_CAP_EVENTS))
            continue;
        ENSURE(load_words(word, "none", "on", &m, err, sizeof err) == CLINK_OK);
        clink_sim *sim = NULL;
        ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
        clink_window_stats w;
        clink_sim_window_get(sim, &w);
        fprintf(stderr, "%s: window in use %d (%s)\n", word, w.in_use, w.why_not);
        ENSURE(w.in_use == ((caps & CLINK_CAP_RESIZE) != 0));
        if (!w.in_use)
            ENSURE(strstr(w.why_not, "resize") != NULL);
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
    }
    ENSURE(clink_method_name(CLINK_METHOD_COUNT) == NULL);
    ENSURE(clink_method_caps(CLINK_METHOD_COUNT) == 0);
}

/* the methods that project, by the table: bdf and rk4 */
TEST(the_refusals_name_the_methods_that_have_the_capability)
{
    char buf[128];
    ENSURE_STR_EQ(integrator_methods_with(CLINK_CAP_PROJECTION, buf, sizeof buf), "bdf, rk4");
    ENSURE_STR_EQ(integrator_methods_with(CLINK_CAP_EVENTS, buf, sizeof buf), "bdf, adams");
    ENSURE_STR_EQ(integrator_methods_with(0, buf, sizeof buf), "bdf, adams, rk4, rk8");
    ENSURE_STR_EQ(integrator_methods_with(0, buf, 8), "bdf");
}

TEST(the_laboratory_runs_adams_and_bdf_through_the_table_to_the_hertz_closed_form)
{
    const double K = 1e9, m = 1.0, v = 0.5;
    double d_max = pow(5.0 * m * v * v / (4.0 * K), 0.4);
    double beta = tgamma(0.4) * tgamma(0.5) / tgamma(0.9);
    double t_c = 2.0 * d_max / v * 0.4 * beta;
    clink_lab *lab = NULL;
    clink_contact_params p;
    clink_lab_options o;
    clink_lab_result r;
    const clink_lab_method methods[2] = {CLINK_LAB_ADAMS, CLINK_LAB_BDF};

    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    clink_contact_params_init(&p);
    p.K = K;
    p.n = 1.5;
    for (int k = 0; k < 2; k++) {
        clink_lab_options_init(&o);
        o.method = methods[k];
        o.rtol = 1e-10;
        ENSURE(clink_lab_impact(lab, clink_law_find("hertz"), &p, m, v, &o, &r) == CLINK_OK);
        fprintf(stderr,
                "lab %s: e %.12g, delta_max %.3g (rel. error %.2g), duration rel. error %.2g, "
                "%ld steps, %ld Jacobians, %ld event evaluations\n",
                k ? "bdf" : "adams", r.e_out, r.delta_max, r.delta_max / d_max - 1.0,
                r.duration / t_c - 1.0, r.n_steps, r.n_jac_evals, r.n_root_evals);
        /* rtol 1e-10: the impact's numbers within 100 rtol of the closed form */
        ENSURE(r.separated);
        ENSURE_NEAR(r.e_out, 1.0, 1e-8);
        ENSURE_REL(r.delta_max, d_max, 1e-8);
        ENSURE_REL(r.F_max, K * pow(d_max, 1.5), 1e-8);
        ENSURE_REL(r.duration, t_c, 1e-8);
        ENSURE(r.energy_residual < 1e-8);
        ENSURE(r.n_steps > 0 && r.n_root_evals > 0);
        ENSURE((r.n_jac_evals > 0) == (methods[k] == CLINK_LAB_BDF));
    }
    clink_lab_destroy(&lab);
}
