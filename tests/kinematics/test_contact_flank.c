/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The gear flanks of src/kinematics/contact_flank.c: the mesh stiffness factor over the
 * mesh cycle against its closed form (its two levels, its mean 1 by quadrature, its slopes
 * against differences, the smoothed steps' midpoints), the internal pair against the
 * external pair's equations mirrored (x = r_b1 phi1 - r_b2 phi2, the normal reversed, the
 * pitch point beyond the pinion, the moment arms r_b1 and r_b2), and the exact derivatives
 * of a varying mesh, external and internal, against central differences in the 12 inputs.
 */
#include "ensure.h"
#include "geometry_checks.h"

#include "elements/element.h"
#include "kinematics/contact_profile.h"
#include "kinematics/contact_shapes.h"

#include <math.h>
#include <string.h>

static const double RB1 = 0.025, ALPHA = 0.3490658503988659, BL = 1e-4, PI_ = 3.141592653589793;

/* the expanded flank shapes (side 0 drive, 1 back) of a gear pair definition */
static void flanks(const clink_gear_pair_def *d, int side, clink_shape_def *a, clink_shape_def *b)
{
    element_def u;
    memset(&u, 0, sizeof u);
    u.gear_pair = *d;
    element_contact c[2];
    memset(c, 0, sizeof c);
    element_class_of(CLINK_ELEMENT_GEAR_PAIR)->expand(&u, c);
    *a = c[side].sa;
    *b = c[side].sb;
}

static clink_gear_pair_def mesh_def(int internal, double smoothing)
{
    clink_gear_pair_def d = clink_default_gear_pair_def();
    d.base_radius1 = RB1;
    d.base_radius2 = internal ? 0.075 : 0.05;
    d.internal = internal;
    d.pressure_angle = ALPHA;
    d.backlash = BL;
    d.angle1 = 0.1;
    d.angle2 = -0.2;
    d.teeth1 = 20;
    d.contact_ratio = 1.6;
    d.stiffness_amplitude = 0.25;
    d.mesh_smoothing = smoothing;
    d.mesh_phase = 0.125;
    return d;
}

TEST(mesh_stiffness_is_a_wave_of_mean_one_between_its_two_levels)
{
    for (int smooth = 0; smooth < 2; smooth++) {
        clink_gear_pair_def d = mesh_def(0, smooth ? 0.1 : 0.0);
        clink_shape_def a, b;
        flanks(&d, 0, &a, &b);
        kinematics_shape sa;
        kinematics_shape_of(&a, 0, &sa);
        double s[3], period = 2.0 * PI_ / 20.0, hi = 1.0 + 2.0 * 0.25 * 0.4,
                     lo = 1.0 - 2.0 * 0.25 * 0.6;
        ENSURE(kinematics_flank_stiffness(&sa, 0.1, s) == 1);
        /* the fraction u = z (phi - angle1) / (2 pi) + phase: two pairs for u in [0, 0.6) */
        const double us[4] = {0.3, 0.5, 0.7, 0.9};
        for (int i = 0; i < 4; i++) {
            kinematics_flank_stiffness(&sa, 0.1 + (us[i] - 0.125 + 3.0) * period, s);
            ENSURE_NEAR(s[0], us[i] < 0.6 ? hi : lo, 1e-12);
            ENSURE_NEAR(s[1], 0.0, 0.0);
        }
        /* the mean over a cycle: 1 (midpoint rule of 20000 points) */
        double sum = 0.0;
        for (int i = 0; i < 20000; i++) {
            kinematics_flank_stiffness(&sa, 0.1 + (i + 0.5) / 20000.0 * period, s);
            sum += s[0];
        }
        ENSURE_NEAR(sum / 20000.0, 1.0, 1e-6);
        if (!smooth)
            continue;
        /* a step's midpoint is halfway; the slopes against differences on the steps */
        kinematics_flank_stiffness(&sa, 0.1 + (0.6 - 0.125) * period, s);
        ENSURE_NEAR(s[0], 0.5 * (hi + lo), 1e-12);
        const double on[3] = {-0.03, 0.01, 0.62};
        for (int i = 0; i < 3; i++) {
            double phi = 0.1 + (on[i] - 0.125) * period, h = 1e-7, sp[3], sm[3];
            kinematics_flank_stiffness(&sa, phi, s);
            kinematics_flank_stiffness(&sa, phi + h, sp);
            kinematics_flank_stiffness(&sa, phi - h, sm);
            ENSURE(fabs(s[1]) > 1.0);
            ENSURE_REL(s[1], (sp[0] - sm[0]) / (2 * h), 1e-6);
            ENSURE_REL(s[2], (sp[1] - sm[1]) / (2 * h), 1e-5);
        }
    }
    /* no amplitude: no factor */
    clink_gear_pair_def d = mesh_def(0, 0.0);
    d.stiffness_amplitude = 0.0;
    clink_shape_def a, b;
    flanks(&d, 0, &a, &b);
    kinematics_shape sa;
    kinematics_shape_of(&a, 0, &sa);
    double s[3];
    ENSURE(kinematics_flank_stiffness(&sa, 0.3, s) == 0);
}

TEST(an_internal_pair_mirrors_the_external_pair_equations)
{
    clink_gear_pair_def d = mesh_def(1, 0.0);
    const double rb2 = 0.075, C = (rb2 - RB1) / cos(ALPHA);
    kinematics_pose p1 = {{0.0, 0.0, 0.1 + 3e-3}, {0.0, 0.0, 2.0}};
    kinematics_pose p2 = {{C, 0.0, -0.2 + 1e-3}, {0.0, 0.0, 0.7}};
    const double x = RB1 * 3e-3 - rb2 * 1e-3, xd = RB1 * 2.0 - rb2 * 0.7;
    for (int side = 0; side < 2; side++) {
        clink_shape_def a, b;
        flanks(&d, side, &a, &b);
        kinematics_shape sa, sb;
        kinematics_shape_of(&a, 0, &sa);
        kinematics_shape_of(&b, 0, &sb);
        kinematics_contact k;
        ENSURE(kinematics_contact_eval(&sa, &p1, &sb, &p2, &k) == 0);
        double sg = side ? -1.0 : 1.0;
        ENSURE_NEAR(k.delta, sg * x - 0.5 * BL, 1e-18);
        ENSURE_NEAR(k.delta_dot, sg * xd, 1e-15);
        /* the external normal (sin(alpha), sigma cos(alpha)) reversed */
        ENSURE_NEAR(k.n[0], -sin(ALPHA), 1e-15);
        ENSURE_NEAR(k.n[1], -sg * cos(ALPHA), 1e-15);
        /* the pitch point on the pinion's far side from the ring's centre, at r_b1 / cos */
        ENSURE_NEAR(k.p_a[0], -RB1 / cos(ALPHA), 1e-15);
        ENSURE_NEAR(k.p_b[0] - C, -rb2 / cos(ALPHA), 1e-15);
        /* moment arms: gear 1 as external (-sigma r_b1 on A's force -n), the ring turned the
           other way (+sigma r_b2) */
        double arm1 = k.p_a[0] * k.n[1] - k.p_a[1] * k.n[0];
        double arm2 = (k.p_b[0] - C) * k.n[1] - k.p_b[1] * k.n[0];
        ENSURE_NEAR(arm1, sg * RB1, 1e-15);
        ENSURE_NEAR(arm2, sg * rb2, 1e-15);
        check_rate(&sa, p1, &sb, p2);
        check_diff(&sa, p1, &sb, p2);
    }
    /* the output: x from the poses */
    element_def u;
    memset(&u, 0, sizeof u);
    u.gear_pair = d;
    double out[2];
    element_class_of(CLINK_ELEMENT_GEAR_PAIR)->outputs(&u, p1.q, p2.q, out);
    ENSURE_NEAR(out[0], x, 1e-18);
}

TEST(a_varying_mesh_has_exact_derivatives_and_a_constant_one_none)
{
    for (int internal = 0; internal < 2; internal++) {
        clink_gear_pair_def d = mesh_def(internal, 0.1);
        double C = (internal ? 0.075 - RB1 : 0.05 + RB1) / cos(ALPHA);
        kinematics_pose p1 = {{0.01, -0.02, 0.4}, {0.3, -0.1, 5.0}};
        kinematics_pose p2 = {{0.01 + C * cos(0.3), -0.02 + C * sin(0.3), 0.2}, {-0.2, 0.4, -3.0}};
        for (int side = 0; side < 2; side++) {
            clink_shape_def a, b;
            flanks(&d, side, &a, &b);
            a.a[0] = 0.001; /* centres off the bodies' reference points */
            b.a[1] = -0.002;
            kinematics_shape sa, sb;
            kinematics_shape_of(&a, 0, &sa);
            kinematics_shape_of(&b, 0, &sb);
            check_rate(&sa, p1, &sb, p2);
            check_diff(&sa, p1, &sb, p2);
        }
    }
    clink_gear_pair_def d = mesh_def(0, 0.0);
    d.stiffness_amplitude = 0.0;
    clink_shape_def a, b;
    flanks(&d, 0, &a, &b);
    kinematics_shape sa, sb;
    kinematics_shape_of(&a, 0, &sa);
    kinematics_shape_of(&b, 0, &sb);
    kinematics_pose p1 = {{0, 0, 0}, {0, 0, 1}}, p2 = {{0.08, 0, 0}, {0, 0, -0.5}};
    kinematics_contact_diff dd;
    ENSURE(kinematics_contact_eval_diff(&sa, &p1, &sb, &p2, &dd) == -1);
}
