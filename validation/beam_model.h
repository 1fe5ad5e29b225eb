/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * beam_model.h: the pieces the beam validations (val_beam_*.c) build their models from: a
 * beam without gravity, clamped (welded to the ground at its first node) or free, and the
 * BDF settings with Baumgarte stabilisation the dynamic ones run under (docs/flexible.md).
 */
#ifndef CLINK_VALIDATION_BEAM_MODEL_H
#define CLINK_VALIDATION_BEAM_MODEL_H

#include "clink/model.h"

#include <math.h>

/* beam d added to b without gravity, welded to the ground at its first node when clamped;
   its first node's body into *first */
static inline clink_status beam_model_add(clink_model_builder *b, const clink_beam_def *d,
                                          int clamped, int *first)
{
    clink_status st = clink_model_builder_set_gravity(b, 0.0, 0.0);
    if (st == CLINK_OK)
        st = clink_model_builder_add_beam(b, d, first);
    clink_joint_def j = clink_default_joint_def();
    j.type = CLINK_JOINT_WELD;
    j.body_a = 0;
    j.body_b = *first;
    if (st == CLINK_OK && clamped)
        st = clink_model_builder_add_joint(b, &j, NULL);
    return st;
}

/* BDF with Baumgarte stabilisation, rtol 1e-9 and atol, to t_end with rows every step */
static inline clink_status beam_model_settings(clink_model_builder *b, double t_end, double step,
                                               double atol)
{
    clink_settings_def s = clink_default_settings_def();
    s.t_end = t_end;
    s.output_step = step;
    s.method = CLINK_METHOD_BDF;
    s.drift = CLINK_DRIFT_BAUMGARTE;
    s.rtol = 1e-9;
    s.atol = atol;
    return clink_model_builder_set_settings(b, &s);
}

/* the strain energy (J) of the elements of a beam of n nodes with positions and angles q
   (rows x, y, theta), element length l, section stiffnesses EA, kGA and EI: the element's
   one-point strains, computed apart from src/flex/ */
static inline double beam_model_strain_energy(const double (*q)[3], int n, double l, double EA,
                                              double kGA, double EI)
{
    double U = 0.0;
    for (int e = 0; e + 1 < n; e++) {
        double dx = q[e + 1][0] - q[e][0], dy = q[e + 1][1] - q[e][1];
        double tm = 0.5 * (q[e][2] + q[e + 1][2]), c = cos(tm), s = sin(tm);
        double eps = (dx * c + dy * s) / l - 1.0, gam = (-dx * s + dy * c) / l;
        double kap = (q[e + 1][2] - q[e][2]) / l;
        U += 0.5 * l * (EA * eps * eps + kGA * gam * gam + EI * kap * kap);
    }
    return U;
}

#endif
