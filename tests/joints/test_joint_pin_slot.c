/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pin-in-slot joint (src/joints/joint_pin_slot.c): its Jacobian and gamma
 * are checked against finite differences with every other joint type in
 * tests/dynamics/test_constraints.c (the test loops over the class table); here, what it means:
 * one equation, zero wherever the pin lies on the slot whatever the bodies'
 * angles, the signed distance from the slot otherwise, and the XML element
 * <pin_slot> read through the table.
 */
#include "ensure.h"

#include "clink/xml.h"
#include "dynamics/constraints.h"

/* body 1 with its pin at (0.1, 0) (body coordinates) in a slot of ground along (1, 1) */
static clink_model *slot_model(void)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    clink_joint_def jd = clink_default_joint_def();
    clink_model *m = NULL;

    clink_model_builder_add_body(b, &bd, NULL);
    jd.type = CLINK_JOINT_PIN_SLOT;
    jd.body_a = 0;
    jd.body_b = 1;
    jd.point_a[0] = 1.0; /* the slot's line passes through (1, 0) */
    jd.point_b[0] = 0.1;
    jd.axis_a[0] = 2.0; /* normalised by the builder */
    jd.axis_a[1] = 2.0;
    if (clink_model_builder_add_joint(b, &jd, NULL) == CLINK_OK)
        clink_model_builder_finalize(b, &m);
    clink_model_builder_destroy(&b);
    return m;
}

TEST(pin_in_slot_holds_the_pin_on_the_line_and_lets_the_body_turn)
{
    clink_model *m = slot_model();
    ENSURE(m != NULL);
    if (!m)
        return;
    ENSURE(clink_model_constraint_count(m) == 1);
    double phi;
    /* pin on the line y = x - 1 at (3, 2), for several body angles */
    for (int k = 0; k < 5; k++) {
        double ang = -1.0 + 0.7 * k, arm[2], sb[2] = {0.1, 0.0};
        kin_rot(ang, sb, arm);
        double q[3] = {3.0 - arm[0], 2.0 - arm[1], ang};
        kin_eval(m, 0.0, q, NULL, &phi, NULL, NULL, NULL);
        ENSURE_NEAR(phi, 0.0, 1e-15);
        /* moved by h along the slot's normal (-1, 1)/sqrt(2): Phi = h */
        q[0] -= 0.3 / sqrt(2.0);
        q[1] += 0.3 / sqrt(2.0);
        kin_eval(m, 0.0, q, NULL, &phi, NULL, NULL, NULL);
        ENSURE_NEAR(phi, 0.3, 1e-15);
    }
    clink_joint_def jd;
    ENSURE(clink_model_joint(m, 0, &jd) == CLINK_OK);
    ENSURE_NEAR(jd.axis_a[0], sqrt(0.5), 2.3e-16); /* 1 ulp */
    clink_model_destroy(&m);
}

TEST(pin_in_slot_is_read_from_xml_and_leaves_two_degrees_of_freedom)
{
    const char *doc = "<mechanism><bodies><body name='b' mass='1' inertia='1'/></bodies><joints>"
                      "<pin_slot name='s' body1='ground' body2='b' point2='0.1 0' axis='0 3'/>"
                      "</joints></mechanism>";
    const char *no_axis = "<mechanism><bodies><body name='b' mass='1' inertia='1'/></bodies>"
                          "<joints><pin_slot name='s' body1='ground' body2='b'/></joints>"
                          "</mechanism>";
    const char *angle = "<mechanism><bodies><body name='b' mass='1' inertia='1'/></bodies>"
                        "<joints><pin_slot name='s' body1='ground' body2='b' axis='1 0' "
                        "angle='1'/></joints></mechanism>";
    clink_model *m = NULL;
    clink_xml_summary s;
    clink_joint_def jd;
    char err[512];

    ENSURE(clink_xml_load_memory(doc, strlen(doc), "slot.xml", &m, &s, err, sizeof err) ==
           CLINK_OK);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    ENSURE(s.joints == 1 && s.constraints == 1 && s.dof == 2);
    ENSURE(clink_model_joint(m, 0, &jd) == CLINK_OK);
    ENSURE(jd.type == CLINK_JOINT_PIN_SLOT && jd.axis_a[1] == 1.0 && jd.point_b[0] == 0.1);
    clink_model_destroy(&m);
    ENSURE(clink_xml_load_memory(no_axis, strlen(no_axis), "slot.xml", &m, NULL, err, sizeof err) ==
           CLINK_ERR_MODEL);
    ENSURE(strstr(err, "axis is required") != NULL);
    ENSURE(clink_xml_load_memory(angle, strlen(angle), "slot.xml", &m, NULL, err, sizeof err) ==
           CLINK_ERR_MODEL);
    ENSURE(strstr(err, "unknown attribute 'angle'") != NULL);
}
