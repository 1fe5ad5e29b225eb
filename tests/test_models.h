/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/test_models.h: what the simulation tests share to get going: a model from XML text
 * or from a file of models/, and a simulation of a model under its own settings, each NULL (with
 * the reason on stderr) when it cannot be had, so that the test's checks fail rather than the
 * program; and the energy books of a model file run with BDF at a given drift control and
 * tolerance.
 */
#ifndef CLINK_TEST_MODELS_H
#define CLINK_TEST_MODELS_H

#include "clink/sim.h"
#include "clink/xml.h"

#include <stdio.h>
#include <string.h>

/* the model of the XML text xml; name stands for the file in messages */
static inline clink_model *test_model_xml(const char *xml, const char *name)
{
    char err[512];
    clink_model *m = NULL;
    if (clink_xml_load_memory(xml, strlen(xml), name, &m, NULL, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "model: %s\n", err);
        return NULL;
    }
    return m;
}

/* the model file models/<file> of the sources; NULL (with the reason on stderr) if it does
   not load */
static inline clink_model *test_model_file(const char *file)
{
    char path[512], err[512];
    clink_model *m = NULL;
    snprintf(path, sizeof path, "%s/models/%s", CLINK_SOURCE_DIR, file);
    if (clink_xml_load(path, &m, NULL, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "%s: %s\n", file, err);
    return m;
}

/* a simulation of m under the model's settings */
static inline clink_sim *test_sim_start(const clink_model *m)
{
    clink_sim *sim = NULL;
    char err[512];
    if (!m || clink_sim_create(m, NULL, &sim, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "create: %s\n", m ? err : "no model");
        return NULL;
    }
    return sim;
}

/* the energy books (*e) of the model file at path run with BDF under drift to t_end, atol =
   rtol / 100; 0, or -1 when it does not load or run */
static inline int test_bdf_energy(const char *path, clink_drift drift, double rtol, double t_end,
                                  clink_energy *e)
{
    char err[512];
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "model: %s\n", err);
        return -1;
    }
    clink_settings_def set = clink_model_settings(m);
    set.method = CLINK_METHOD_BDF;
    set.drift = drift;
    set.rtol = rtol;
    set.atol = rtol / 100.0;
    set.t_end = t_end;
    clink_sim *sim = NULL;
    int rc = -1;
    if (clink_sim_create(m, &set, &sim, err, sizeof err) == CLINK_OK &&
        clink_sim_advance(sim, t_end) == CLINK_OK && clink_sim_energy(sim, e) == CLINK_OK)
        rc = 0;
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return rc;
}

/* the settings of a test that checks a contact's books rather than the integrator: Adams, no
   drift control, the tolerances given */
static inline clink_settings_def test_adams_settings(double rtol, double atol)
{
    clink_settings_def s = clink_default_settings_def();
    s.rtol = rtol;
    s.atol = atol;
    s.method = CLINK_METHOD_ADAMS;
    s.drift = CLINK_DRIFT_NONE;
    return s;
}

/* the model builder b holds under the settings s; b is destroyed; NULL (with the reason on
   stderr) if it cannot be had */
static inline clink_model *test_finish(clink_model_builder *b, const clink_settings_def *s)
{
    clink_model *m = NULL;
    if (clink_model_builder_set_settings(b, s) != CLINK_OK ||
        clink_model_builder_finalize(b, &m) != CLINK_OK)
        fprintf(stderr, "model: %s\n", clink_model_builder_error(b));
    clink_model_builder_destroy(&b);
    return m;
}

/* a builder holding n unit bars (mass 1 kg, inertia 1/12 kg m^2) joined by revolute joints,
   bar i centred at (i + 0.5, 0) along x, the first hinged to the ground at the origin when
   grounded */
static inline clink_model_builder *test_bar_chain(int n, int grounded)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.mass = 1.0;
    bd.inertia = 1.0 / 12.0;
    for (int i = 0; i < n; i++) {
        bd.x = i + 0.5;
        clink_model_builder_add_body(b, &bd, NULL);
    }
    clink_joint_def jd = clink_default_joint_def();
    for (int i = grounded ? 0 : 1; i < n; i++) {
        jd.body_a = i;
        jd.body_b = i + 1;
        jd.point_a[0] = i == 0 ? 0.0 : 0.5;
        jd.point_b[0] = -0.5;
        clink_model_builder_add_joint(b, &jd, NULL);
    }
    return b;
}

/* bodies 1..nb of s: each one's position, velocity and acceleration (9 values) into row;
   0, or -1 when one is refused */
static inline int test_body_rows(const clink_sim *s, int nb, double *row)
{
    for (int b = 1; b <= nb; b++, row += 9)
        if (clink_sim_body_state(s, b, row, row + 3) != CLINK_OK ||
            clink_sim_body_acceleration(s, b, row + 6) != CLINK_OK)
            return -1;
    return 0;
}

#endif
