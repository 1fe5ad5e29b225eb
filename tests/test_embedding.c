/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An embedding program: builds the ideal slider-crank (crank 0.05 m, rod
 * 0.12 m, driven at 5000 rpm) in C through the public API only and runs it.
 * docs/api.md shows build_slider_crank() and run() verbatim.
 */
#include "ensure.h"

#include "clink/model.h"
#include "clink/sim.h"

/* ---- begin example (docs/api.md) ---- */
#include <math.h>
#include <stdio.h>

/* Builds the slider-crank; returns NULL and prints the reason on failure. */
static clink_model *build_slider_crank(double omega /* rad/s */)
{
    const double r = 0.05, l = 0.12; /* crank and rod lengths, m */
    clink_model_builder *b = clink_model_builder_create();
    clink_model *model = NULL;
    int crank, rod, slider;
    if (!b)
        return NULL;

    /* bodies: centre of mass (x, y) and angle at the start, all on the x axis */
    clink_body_def bd = clink_default_body_def();
    bd.name = "crank", bd.mass = 0.30, bd.inertia = 1.0e-4, bd.x = 0.5 * r;
    clink_model_builder_add_body(b, &bd, &crank);
    bd.name = "rod", bd.mass = 0.21, bd.inertia = 2.5e-4, bd.x = r + 0.5 * l;
    clink_model_builder_add_body(b, &bd, &rod);
    bd.name = "slider", bd.mass = 0.14, bd.inertia = 1.0e-4, bd.x = r + l;
    clink_model_builder_add_body(b, &bd, &slider);

    /* joints: points in body coordinates (from each centre of mass) */
    clink_joint_def jd = clink_default_joint_def(); /* revolute */
    jd.name = "main_bearing", jd.body_a = 0, jd.body_b = crank;
    jd.point_b[0] = -0.5 * r;
    clink_model_builder_add_joint(b, &jd, NULL);
    jd.name = "crank_pin", jd.body_a = crank, jd.body_b = rod;
    jd.point_a[0] = 0.5 * r, jd.point_b[0] = -0.5 * l;
    clink_model_builder_add_joint(b, &jd, NULL);
    jd.name = "piston_pin", jd.body_a = rod, jd.body_b = slider;
    jd.point_a[0] = 0.5 * l, jd.point_b[0] = 0.0;
    clink_model_builder_add_joint(b, &jd, NULL);
    jd = clink_default_joint_def();
    jd.name = "cylinder", jd.type = CLINK_JOINT_TRANSLATIONAL;
    jd.body_a = 0, jd.body_b = slider, jd.axis_a[0] = 1.0, jd.axis_a[1] = 0.0;
    clink_model_builder_add_joint(b, &jd, NULL);

    /* the motor: crank angle phi = omega t */
    clink_driver_def dd = clink_default_driver_def();
    dd.name = "motor", dd.target = CLINK_DRIVE_BODY_COORDINATE;
    dd.body = crank, dd.coordinate = 2;
    dd.function.type = CLINK_FUNCTION_LINEAR, dd.function.c[0] = 0.0, dd.function.c[1] = omega;
    clink_model_builder_add_driver(b, &dd, NULL);

    clink_model_builder_set_gravity(b, 0.0, -9.81);
    clink_settings_def s = clink_default_settings_def(); /* method and drift: auto */
    s.rtol = 1e-10, s.atol = 1e-12;
    clink_model_builder_set_settings(b, &s);

    /* every add above that failed left its message; finalize checks the whole */
    if (clink_model_builder_finalize(b, &model) != CLINK_OK)
        fprintf(stderr, "slider-crank: %s\n", clink_model_builder_error(b));
    clink_model_builder_destroy(&b);
    return model;
}

/* Runs n output steps of dt seconds; fills the slider position and motor torque at the end. */
static int run(const clink_model *model, int n, double dt, double *x_slider, double *torque)
{
    clink_sim *sim = NULL;
    char err[256];
    double q[3], v[3];
    if (clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "slider-crank: %s\n", err);
        return -1;
    }
    for (int i = 1; i <= n; i++) {
        if (clink_sim_advance(sim, i * dt) != CLINK_OK) {
            fprintf(stderr, "slider-crank: %s\n", clink_sim_error(sim));
            clink_sim_destroy(&sim);
            return -1;
        }
    }
    clink_sim_body_state(sim, clink_model_find(model, CLINK_ENTITY_BODY, "slider"), q, v);
    clink_sim_driver_force(sim, clink_model_find(model, CLINK_ENTITY_DRIVER, "motor"), torque);
    *x_slider = q[0];
    clink_sim_destroy(&sim);
    return 0;
}
/* ---- end example ---- */

static const double PI = 3.14159265358979323846;

TEST(slider_crank_built_in_c_reaches_the_closed_form_positions)
{
    double omega = 5000.0 * 2.0 * PI / 60.0, r = 0.05, l = 0.12;
    clink_model *m = build_slider_crank(omega);
    ENSURE(m != NULL);
    if (!m)
        return;
    ENSURE(clink_model_count(m, CLINK_ENTITY_BODY) == 4);
    ENSURE(clink_model_constraint_count(m) == 9);
    double x, torque;
    double quarter = 0.5 * PI / omega;
    /* crank at 90 degrees: x = sqrt(l^2 - r^2) */
    ENSURE(run(m, 10, quarter / 10.0, &x, &torque) == 0);
    ENSURE_NEAR(x, sqrt(l * l - r * r), 1e-10);
    /* one revolution: back at r + l */
    ENSURE(run(m, 40, quarter / 10.0, &x, &torque) == 0);
    ENSURE_NEAR(x, r + l, 1e-10);
    ENSURE(isfinite(torque));
    clink_model_destroy(&m);
}

/* the example in docs/api.md is this file's example, verbatim */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t) n + 1);
    if (s && fread(s, 1, (size_t) n, f) != (size_t) n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

TEST(api_guide_shows_the_embedding_example_verbatim)
{
    char *src = slurp(CLINK_SOURCE_DIR "/tests/test_embedding.c");
    char *doc = slurp(CLINK_SOURCE_DIR "/docs/api.md");
    ENSURE(src != NULL && doc != NULL);
    if (src && doc) {
        char *b = strstr(src, "/* ---- begin example");
        char *e = strstr(src, "/* ---- end example ---- */");
        ENSURE(b != NULL && e != NULL);
        if (b && e) {
            *e = '\0';
            ENSURE(strstr(doc, b) != NULL);
        }
    }
    free(src);
    free(doc);
}

TEST(every_getter_accepts_a_null_simulation)
{
    double q[3], v[3], a, b, f;
    clink_energy e;
    clink_sim_stats st;
    clink_contact_info ci;
    clink_impact_record r;
    clink_sim_finding fi;
    ENSURE(isnan(clink_sim_time(NULL)));
    ENSURE(clink_sim_advance(NULL, 1.0) == CLINK_ERR_ARG);
    ENSURE(clink_sim_set_stop_time(NULL, 1.0) == CLINK_ERR_ARG);
    ENSURE(clink_sim_body_state(NULL, 1, q, v) == CLINK_ERR_ARG);
    ENSURE(clink_sim_body_acceleration(NULL, 1, q) == CLINK_ERR_ARG);
    ENSURE(clink_sim_joint_reaction(NULL, 0, q) == CLINK_ERR_ARG);
    ENSURE(clink_sim_driver_force(NULL, 0, &f) == CLINK_ERR_ARG);
    ENSURE(clink_sim_energy(NULL, &e) == CLINK_ERR_ARG);
    clink_sim_constraint_violation(NULL, &a, &b);
    ENSURE(isnan(a) && isnan(b));
    clink_sim_assembly(NULL, &a, &b);
    ENSURE(isnan(a) && isnan(b));
    st.steps = 7;
    clink_sim_stats_get(NULL, &st);
    ENSURE(st.steps == 0 && st.findings == 0);
    clink_sim_stats_get(NULL, NULL);
    ENSURE(clink_sim_contact_count(NULL) == 0);
    ENSURE(clink_sim_contact(NULL, 0, &ci) == CLINK_ERR_ARG);
    ENSURE(clink_sim_impact_count(NULL) == 0);
    ENSURE(clink_sim_impact(NULL, 0, &r) == CLINK_ERR_ARG);
    ENSURE(clink_sim_finding_count(NULL) == 0);
    ENSURE(clink_sim_finding_get(NULL, 0, &fi) == CLINK_ERR_ARG);
    clink_sim_set_impact_callback(NULL, NULL, NULL);
    ENSURE(strlen(clink_sim_error(NULL)) > 0);
}
