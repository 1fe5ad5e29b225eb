/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * slider_crank_model.h: the ideal slider-crank of the clearance-joint benchmark
 * (docs/contact-mechanics.md: crank 0.05 m, rod 0.12 m, masses
 * 0.30, 0.21, 0.14 kg, inertias 1e-4, 2.5e-4, 1e-4 kg m^2) built through the
 * public API; shared by val_slider_crank_ideal.c and bench_slider_crank.c.
 * Bodies: 1 crank (centre at r/2), 2 rod (centre at its middle), 3 slider; the
 * crank angle is driven, phi_1 = omega t; the slider moves on the x axis.
 * All start on the x axis (theta = 0) at rest: the simulation assembles the
 * velocities. Gravity (0, -9.81) m/s^2.
 */
#ifndef CLINK_SLIDER_CRANK_MODEL_H
#define CLINK_SLIDER_CRANK_MODEL_H

#include "clink/sim.h"

#include <stdio.h>

#define SC_R 0.05
#define SC_L 0.12

static inline clink_model *slider_crank_model(double omega, const clink_settings_def *s, char *err,
                                              size_t errlen)
{
    const double r = SC_R, l = SC_L;
    clink_model_builder *b = clink_model_builder_create();
    if (!b)
        return NULL;
    clink_body_def bd = clink_default_body_def();
    bd.name = "crank";
    bd.mass = 0.30;
    bd.inertia = 1e-4;
    bd.x = 0.5 * r;
    int crank = 0, rod = 0, slider = 0;
    clink_model_builder_add_body(b, &bd, &crank);
    bd.name = "rod";
    bd.mass = 0.21;
    bd.inertia = 2.5e-4;
    bd.x = r + 0.5 * l;
    clink_model_builder_add_body(b, &bd, &rod);
    bd.name = "slider";
    bd.mass = 0.14;
    bd.inertia = 1e-4;
    bd.x = r + l;
    clink_model_builder_add_body(b, &bd, &slider);

    clink_joint_def jd = clink_default_joint_def();
    jd.name = "main_bearing";
    jd.body_a = 0;
    jd.body_b = crank;
    jd.point_b[0] = -0.5 * r;
    clink_model_builder_add_joint(b, &jd, NULL);
    jd.name = "crank_pin";
    jd.body_a = crank;
    jd.body_b = rod;
    jd.point_a[0] = 0.5 * r;
    jd.point_b[0] = -0.5 * l;
    clink_model_builder_add_joint(b, &jd, NULL);
    jd.name = "piston_pin";
    jd.body_a = rod;
    jd.body_b = slider;
    jd.point_a[0] = 0.5 * l;
    jd.point_b[0] = 0.0;
    clink_model_builder_add_joint(b, &jd, NULL);
    jd = clink_default_joint_def();
    jd.name = "cylinder";
    jd.type = CLINK_JOINT_TRANSLATIONAL;
    jd.body_a = 0;
    jd.body_b = slider;
    jd.axis_a[0] = 1.0;
    clink_model_builder_add_joint(b, &jd, NULL);

    clink_driver_def dd = clink_default_driver_def();
    dd.name = "motor";
    dd.target = CLINK_DRIVE_BODY_COORDINATE;
    dd.body = crank;
    dd.coordinate = 2;
    dd.function.type = CLINK_FUNCTION_LINEAR;
    dd.function.c[0] = 0.0;
    dd.function.c[1] = omega;
    clink_model_builder_add_driver(b, &dd, NULL);
    clink_model_builder_set_gravity(b, 0.0, -9.81);
    if (s)
        clink_model_builder_set_settings(b, s);
    clink_model *m = NULL;
    if (clink_model_builder_finalize(b, &m) != CLINK_OK && err)
        snprintf(err, errlen, "%s", clink_model_builder_error(b));
    clink_model_builder_destroy(&b);
    return m;
}

#endif
