/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The gear pair with backlash (src/elements/element_gear_pair.c and its flank geometry in
 * src/kinematics/contact_profile.c): its two contacts against the closed forms (the
 * penetrations x - b and -x - b of the dynamic transmission error x = r_b1 (phi1 - angle1)
 * + r_b2 (phi2 - angle2), the normals along the two lines of action, the moment arms r_b1
 * and r_b2 about the centres, the pitch point), the rates against central differences
 * along a motion, the builder's refusals (negative backlash, radii, pressure angle) and
 * the element's outputs and contact names.
 */
#include "ensure.h"

#include "elements/element.h"
#include "kinematics/contact_shapes.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <string.h>

static const double RB1 = 0.025, RB2 = 0.05, ALPHA = 0.3490658503988659, BL = 1e-4;

static clink_gear_pair_def pair_def(void)
{
    clink_gear_pair_def d = clink_default_gear_pair_def();
    d.base_radius1 = RB1;
    d.base_radius2 = RB2;
    d.pressure_angle = ALPHA;
    d.backlash = BL;
    d.angle1 = 0.1;
    d.angle2 = -0.2;
    return d;
}

TEST(gear_pair_flanks_follow_the_transmission_error_along_the_lines_of_action)
{
    element_def u;
    memset(&u, 0, sizeof u);
    u.gear_pair = pair_def();
    const element_class *ec = element_class_of(CLINK_ELEMENT_GEAR_PAIR);
    ENSURE(ec != NULL && ec->ncontacts(&u) == 2);
    element_contact c[2];
    memset(c, 0, sizeof c);
    ec->expand(&u, c);
    ENSURE(strcmp(c[0].part, "drive") == 0 && strcmp(c[1].part, "back") == 0);
    const double d = (RB1 + RB2) / cos(ALPHA);
    kinematics_pose p1 = {{0.0, 0.0, 0.1 + 3e-3}, {0.0, 0.0, 2.0}};
    kinematics_pose p2 = {{d, 0.0, -0.2 - 1e-3}, {0.0, 0.0, -0.7}};
    const double x = RB1 * 3e-3 - RB2 * 1e-3, xd = RB1 * 2.0 - RB2 * 0.7;
    for (int side = 0; side < 2; side++) {
        kinematics_shape sa, sb;
        kinematics_shape_of(&c[side].sa, 0, &sa);
        kinematics_shape_of(&c[side].sb, 0, &sb);
        kinematics_contact k;
        ENSURE(kinematics_contact_eval(&sa, &p1, &sb, &p2, &k) == 0);
        double sg = side ? -1.0 : 1.0;
        ENSURE_NEAR(k.delta, sg * x - 0.5 * BL, 1e-18);
        ENSURE_NEAR(k.delta_dot, sg * xd, 1e-15);
        ENSURE_NEAR(k.n[0], sin(ALPHA), 1e-15);
        ENSURE_NEAR(k.n[1], sg * cos(ALPHA), 1e-15);
        ENSURE_NEAR(k.p_a[0], d * RB1 / (RB1 + RB2), 1e-15);
        ENSURE_NEAR(k.p_b[1], 0.0, 0.0);
        /* moment arms: (P - c) x n = -sigma r_b about each centre */
        double arm1 = k.p_a[0] * k.n[1] - k.p_a[1] * k.n[0];
        double arm2 = (k.p_b[0] - d) * k.n[1] - k.p_b[1] * k.n[0];
        ENSURE_NEAR(arm1, sg * RB1, 1e-15);
        ENSURE_NEAR(arm2, -sg * RB2, 1e-15);
        /* the rate against differences along the motion */
        const double h = 1e-6;
        kinematics_pose a1 = p1, b1 = p2, a2 = p1, b2 = p2;
        a1.q[2] += h * p1.qd[2], b1.q[2] += h * p2.qd[2];
        a2.q[2] -= h * p1.qd[2], b2.q[2] -= h * p2.qd[2];
        kinematics_contact kp, km;
        ENSURE(kinematics_contact_eval(&sa, &a1, &sb, &b1, &kp) == 0);
        ENSURE(kinematics_contact_eval(&sa, &a2, &sb, &b2, &km) == 0);
        ENSURE_NEAR(k.delta_dot, (kp.delta - km.delta) / (2 * h), 1e-9);
    }
    /* the output: x from the poses */
    double qa[3] = {0, 0, 0.1 + 3e-3}, qb[3] = {d, 0, -0.2 - 1e-3}, out[2];
    ec->outputs(&u, qa, qb, out);
    ENSURE_NEAR(out[0], x, 1e-18);
}

TEST(gear_pairs_with_negative_backlash_or_bad_radii_are_refused)
{
    clink_model_builder *b = clink_model_builder_create();
    ENSURE(b != NULL);
    if (!b)
        return;
    clink_body_def bd = clink_default_body_def();
    bd.mass = 1.0;
    bd.inertia = 1e-3;
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    bd.x = (RB1 + RB2) / cos(ALPHA);
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_gear_pair_def d = pair_def();
    d.law = "kelvin-voigt";
    d.params.K = 1e8;
    d.params.c = 600.0;
    d.backlash = -1e-5;
    ENSURE(clink_model_builder_add_gear_pair(b, &d, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "negative") != NULL);
    d = pair_def();
    d.law = "kelvin-voigt";
    d.params.K = 1e8;
    d.params.c = 600.0;
    d.base_radius2 = 0.0;
    ENSURE(clink_model_builder_add_gear_pair(b, &d, NULL) == CLINK_ERR_RANGE);
    d.base_radius2 = RB2;
    d.pressure_angle = 1.6;
    ENSURE(clink_model_builder_add_gear_pair(b, &d, NULL) == CLINK_ERR_RANGE);
    d.pressure_angle = ALPHA;
    ENSURE(clink_model_builder_add_gear_pair(b, &d, NULL) == CLINK_OK);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    ENSURE(clink_model_contact_count(m) == 2);
    ENSURE(strstr(clink_model_contact_name(m, 0), ".drive") != NULL);
    ENSURE(strstr(clink_model_contact_name(m, 1), ".back") != NULL);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}

/* the builder's check of a definition (CLINK_OK or the refusal) with its message */
static clink_status check_def(clink_gear_pair_def *d, char *msg, size_t size)
{
    element_def u;
    memset(&u, 0, sizeof u);
    u.gear_pair = *d;
    clink_status st = element_class_of(CLINK_ELEMENT_GEAR_PAIR)->check(&u, "g", msg, size);
    *d = u.gear_pair;
    return st;
}

TEST(the_contact_ratio_follows_from_the_tip_circles_and_below_1_is_refused)
{
    /* 20 and 40 teeth of module 2.6604 mm at 20 deg, tip circles one module out: the path of
       contact sqrt(ra1^2 - rb1^2) + sqrt(ra2^2 - rb2^2) - C sin(alpha) = 12.8412 mm over the
       base pitch 2 pi 25 mm / 20 = 7.85398 mm (hand computation: 1.63499) */
    clink_gear_pair_def d = pair_def();
    char msg[256];
    d.teeth1 = 20;
    d.addendum_radius1 = 0.029265;
    d.addendum_radius2 = 0.055869;
    ENSURE(check_def(&d, msg, sizeof msg) == CLINK_OK);
    double C = (RB1 + RB2) / cos(ALPHA), pb = 2.0 * 3.141592653589793 * RB1 / 20.0;
    double path = sqrt(0.029265 * 0.029265 - RB1 * RB1) + sqrt(0.055869 * 0.055869 - RB2 * RB2) -
                  C * sin(ALPHA);
    ENSURE_REL(d.contact_ratio, path / pb, 1e-14);
    ENSURE_NEAR(d.contact_ratio, 1.635, 1e-3);
    /* an internal pair: the ring's tip circle inside its pitch circle, the path's ring part
       subtracted and C sin(alpha) added */
    clink_gear_pair_def e = pair_def();
    e.internal = 1;
    e.base_radius2 = 0.075;
    e.teeth1 = 20;
    e.addendum_radius1 = 0.029265;
    e.addendum_radius2 = 0.0771529;
    ENSURE(check_def(&e, msg, sizeof msg) == CLINK_OK);
    double Ci = (0.075 - RB1) / cos(ALPHA);
    ENSURE_REL(e.contact_ratio,
               (sqrt(0.029265 * 0.029265 - RB1 * RB1) -
                sqrt(0.0771529 * 0.0771529 - 0.075 * 0.075) + Ci * sin(ALPHA)) /
                   pb,
               1e-14);
    /* tips short of each other: a contact ratio below 1, refused */
    d = pair_def();
    d.teeth1 = 20;
    d.addendum_radius1 = 0.0272;
    d.addendum_radius2 = 0.0540;
    ENSURE(check_def(&d, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "below 1") != NULL);
    d = pair_def();
    d.contact_ratio = 0.9;
    ENSURE(check_def(&d, msg, sizeof msg) == CLINK_ERR_RANGE);
    /* an amplitude without teeth, one that leaves no stiffness, a smoothing too wide, a ring
       smaller than its pinion, a tip circle inside its base circle */
    d = pair_def();
    d.stiffness_amplitude = 0.2;
    ENSURE(check_def(&d, msg, sizeof msg) == CLINK_ERR_RANGE);
    d.teeth1 = 20;
    d.contact_ratio = 1.6;
    ENSURE(check_def(&d, msg, sizeof msg) == CLINK_OK);
    d.stiffness_amplitude = 0.9; /* 1 - 2 (0.9) (0.6) < 0 */
    ENSURE(check_def(&d, msg, sizeof msg) == CLINK_ERR_RANGE);
    d.stiffness_amplitude = 0.2;
    d.mesh_smoothing = 0.5;
    ENSURE(check_def(&d, msg, sizeof msg) == CLINK_ERR_RANGE);
    d = pair_def();
    d.internal = 1;
    d.base_radius2 = 0.02;
    ENSURE(check_def(&d, msg, sizeof msg) == CLINK_ERR_RANGE);
    ENSURE(strstr(msg, "ring") != NULL);
    d = pair_def();
    d.teeth1 = 20;
    d.addendum_radius1 = 0.02;
    d.addendum_radius2 = 0.056;
    ENSURE(check_def(&d, msg, sizeof msg) == CLINK_ERR_RANGE);
}

/*
 * models/gear_internal.xml: a pinion turning at 100 rad/s drives a ring of three times its
 * base radius against a load torque. The ring turns the same way (x = r_b1 phi1 - r_b2 phi2),
 * its angle within (b + delta_max) / r_b2 of phi1 / 3 at every sample, only the drive flank
 * is struck, the mesh force at the end carries the load (r_b2 F = T within the ring's
 * residual vibration, 5 %), and the energy balance closes to 1e-6 of the kinetic energy.
 */
TEST(an_internal_pair_turns_its_ring_with_the_pinion_and_carries_the_load)
{
    char err[256];
    clink_model *m =
        clink_model_load_xml(CLINK_SOURCE_DIR "/models/gear_internal.xml", err, sizeof err);
    ENSURE(m != NULL);
    clink_sim *sim = NULL;
    if (m)
        ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    if (!sim) {
        clink_model_destroy(&m);
        return;
    }
    double worst = 0.0, q1[3], v1[3], q2[3], v2[3];
    for (int i = 1; i <= 100; i++) {
        ENSURE(clink_sim_advance(sim, 5e-4 * i) == CLINK_OK);
        ENSURE(clink_sim_body_state(sim, 1, q1, v1) == CLINK_OK);
        ENSURE(clink_sim_body_state(sim, 2, q2, v2) == CLINK_OK);
        worst = fmax(worst, fabs(q2[2] - q1[2] / 3.0));
    }
    ENSURE(q1[2] > 4.9 && q2[2] > 1.6);
    ENSURE(worst < (5e-5 + 3e-5) / 0.075);
    int n = clink_sim_impact_count(sim);
    ENSURE(n > 0);
    for (int i = 0; i < n; i++) {
        clink_impact_record r;
        ENSURE(clink_sim_impact(sim, i, &r) == CLINK_OK);
        ENSURE(strstr(clink_model_contact_name(m, r.contact), ".drive") != NULL);
    }
    double out[2];
    ENSURE(clink_sim_element_outputs(sim, 0, out) == CLINK_OK);
    ENSURE_NEAR(out[0], 0.025 * q1[2] - 0.075 * q2[2], 1e-15);
    ENSURE_REL(0.075 * out[1], 25.0, 0.05);
    clink_energy e;
    ENSURE(clink_sim_energy(sim, &e) == CLINK_OK);
    ENSURE(fabs(e.balance) < 1e-6 * e.kinetic);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}
