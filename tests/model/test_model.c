/* SPDX-License-Identifier: BSD-3-Clause */
/* The model-building API (include/clink/model.h): defaults, checks, names, finalize. */
#include "ensure.h"

#include "clink/model.h"

/* a pendulum: one body hinged to ground at the origin, centre of mass at (l, 0) */
static clink_model_builder *pendulum_builder(void)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.name = "bob";
    bd.mass = 2.0;
    bd.inertia = 0.1;
    bd.x = 1.0;
    int id = -1;
    if (clink_model_builder_add_body(b, &bd, &id) != CLINK_OK || id != 1)
        return b;
    clink_joint_def jd = clink_default_joint_def();
    jd.name = "pin";
    jd.body_a = 0;
    jd.body_b = 1;
    jd.point_b[0] = -1.0;
    clink_model_builder_add_joint(b, &jd, NULL);
    return b;
}

TEST(builder_new_returns_a_status_and_the_builder)
{
    clink_model_builder *b = NULL;
    ENSURE(clink_model_builder_new(NULL) == CLINK_ERR_ARG);
    ENSURE(clink_model_builder_new(&b) == CLINK_OK);
    ENSURE(b != NULL);
    ENSURE(clink_model_builder_count(b, CLINK_ENTITY_BODY) == 1);
    ENSURE_STR_EQ(clink_model_builder_error(b), "");
    clink_model_builder_destroy(&b);
    ENSURE(b == NULL);
}

TEST(new_builder_holds_only_ground_named_ground)
{
    clink_model_builder *b = clink_model_builder_create();
    ENSURE(b != NULL);
    ENSURE(clink_model_builder_count(b, CLINK_ENTITY_BODY) == 1);
    ENSURE(clink_model_builder_find(b, CLINK_ENTITY_BODY, "ground") == 0);
    ENSURE(clink_model_builder_count(b, CLINK_ENTITY_JOINT) == 0);
    clink_model_builder_destroy(&b);
    ENSURE(b == NULL);
    clink_model_builder_destroy(&b); /* accepts NULL */
}

TEST(pendulum_finalizes_into_a_model_with_two_constraints)
{
    clink_model_builder *b = pendulum_builder();
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    ENSURE(m != NULL);
    ENSURE(clink_model_count(m, CLINK_ENTITY_BODY) == 2);
    ENSURE(clink_model_count(m, CLINK_ENTITY_JOINT) == 1);
    ENSURE(clink_model_constraint_count(m) == 2);
    ENSURE(clink_model_find(m, CLINK_ENTITY_BODY, "bob") == 1);
    ENSURE(clink_model_find(m, CLINK_ENTITY_JOINT, "pin") == 0);
    ENSURE(clink_model_find(m, CLINK_ENTITY_JOINT, "nothing") == -1);
    ENSURE_STR_EQ(clink_model_name(m, CLINK_ENTITY_BODY, 1), "bob");
    ENSURE(clink_model_name(m, CLINK_ENTITY_BODY, 5) == NULL);
    clink_body_def bd;
    ENSURE(clink_model_body(m, 1, &bd) == CLINK_OK);
    ENSURE_NEAR(bd.mass, 2.0, 0.0);
    ENSURE_NEAR(bd.x, 1.0, 0.0);
    double gx, gy;
    clink_model_gravity(m, &gx, &gy);
    ENSURE_NEAR(gy, -9.81, 0.0);
    clink_model_builder_destroy(&b); /* the model does not depend on the builder */
    ENSURE(clink_model_find(m, CLINK_ENTITY_BODY, "bob") == 1);
    clink_model_destroy(&m);
    ENSURE(m == NULL);
}

TEST(body_with_zero_mass_is_rejected_with_a_message_naming_it)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.name = "crank";
    bd.mass = 0.0;
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "crank") != NULL);
    ENSURE(strstr(clink_model_builder_error(b), "mass") != NULL);
    ENSURE(clink_model_builder_count(b, CLINK_ENTITY_BODY) == 1);
    clink_model_builder_destroy(&b);
}

TEST(duplicate_body_names_are_rejected)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.name = "rod";
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_ERR_MODEL);
    bd.name = "ground";
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_ERR_MODEL);
    clink_model_builder_destroy(&b);
}

TEST(joint_to_a_missing_body_or_to_itself_is_rejected)
{
    clink_model_builder *b = pendulum_builder();
    clink_joint_def jd = clink_default_joint_def();
    jd.body_a = 0;
    jd.body_b = 7;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_ERR_RANGE);
    jd.body_b = 0;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_ERR_MODEL);
    jd.type = CLINK_JOINT_TRANSLATIONAL;
    jd.body_b = 1;
    jd.axis_a[0] = jd.axis_a[1] = 0.0;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_ERR_RANGE);
    jd.type = (clink_joint_type) 9;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_ERR_RANGE);
    ENSURE(clink_model_builder_count(b, CLINK_ENTITY_JOINT) == 1);
    clink_model_builder_destroy(&b);
}

TEST(driver_on_a_joint_of_the_wrong_type_is_rejected)
{
    clink_model_builder *b = pendulum_builder();
    clink_driver_def dd = clink_default_driver_def();
    dd.target = CLINK_DRIVE_JOINT_DISPLACEMENT;
    dd.joint = 0; /* revolute */
    ENSURE(clink_model_builder_add_driver(b, &dd, NULL) == CLINK_ERR_MODEL);
    dd.target = CLINK_DRIVE_JOINT_ANGLE;
    dd.function.type = CLINK_FUNCTION_LINEAR;
    dd.function.c[1] = 10.0;
    int id = -1;
    ENSURE(clink_model_builder_add_driver(b, &dd, &id) == CLINK_OK);
    ENSURE(id == 0);
    clink_model_builder_destroy(&b);
}

TEST(more_constraints_than_coordinates_fail_at_finalize_as_singular)
{
    clink_model_builder *b = pendulum_builder();
    clink_joint_def jd = clink_default_joint_def();
    jd.type = CLINK_JOINT_WELD;
    jd.body_a = 0;
    jd.body_b = 1;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_OK);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_ERR_SINGULAR);
    ENSURE(m == NULL);
    ENSURE(strstr(clink_model_builder_error(b), "redundant") != NULL);
    clink_model_builder_destroy(&b);
}

TEST(projection_with_adams_is_refused_and_baumgarte_with_adams_accepted)
{
    clink_model_builder *b = pendulum_builder();
    clink_settings_def s = clink_default_settings_def();
    s.method = CLINK_METHOD_ADAMS;
    s.drift = CLINK_DRIFT_PROJECTION;
    ENSURE(clink_model_builder_set_settings(b, &s) == CLINK_ERR_ARG);
    s.drift = CLINK_DRIFT_BAUMGARTE;
    ENSURE(clink_model_builder_set_settings(b, &s) == CLINK_OK);
    s.rtol = -1.0;
    ENSURE(clink_model_builder_set_settings(b, &s) == CLINK_ERR_RANGE);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    ENSURE(clink_model_settings(m).method == CLINK_METHOD_ADAMS);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}

TEST(spring_between_two_bodies_and_torque_on_ground_are_checked)
{
    clink_model_builder *b = pendulum_builder();
    clink_force_def fd = clink_default_force_def();
    fd.type = CLINK_FORCE_SPRING_DAMPER;
    fd.body_a = 0;
    fd.body_b = 1;
    fd.k = 100.0;
    fd.free_length = 0.5;
    ENSURE(clink_model_builder_add_force(b, &fd, NULL) == CLINK_OK);
    fd.k = -1.0;
    ENSURE(clink_model_builder_add_force(b, &fd, NULL) == CLINK_ERR_RANGE);
    fd = clink_default_force_def();
    fd.type = CLINK_FORCE_TORQUE;
    fd.body_a = 0;
    ENSURE(clink_model_builder_add_force(b, &fd, NULL) == CLINK_ERR_MODEL);
    ENSURE(clink_model_builder_count(b, CLINK_ENTITY_FORCE) == 1);
    clink_model_builder_destroy(&b);
}

TEST(polynomial_and_harmonic_functions_give_value_rate_and_acceleration)
{
    clink_function f = {.type = CLINK_FUNCTION_POLYNOMIAL, .n = 3, .c = {1.0, 2.0, 3.0}};
    double v, r, a;
    clink_function_eval(&f, 2.0, &v, &r, &a);
    ENSURE_NEAR(v, 1.0 + 4.0 + 12.0, 1e-14);
    ENSURE_NEAR(r, 2.0 + 12.0, 1e-14);
    ENSURE_NEAR(a, 6.0, 1e-14);
    clink_function h = {.type = CLINK_FUNCTION_HARMONIC, .n = 0, .c = {0.5, 2.0, 3.0, 0.25}};
    clink_function_eval(&h, 0.7, &v, &r, &a);
    ENSURE_NEAR(v, 0.5 + 2.0 * sin(2.35), 1e-14);
    ENSURE_NEAR(r, 6.0 * cos(2.35), 1e-14);
    ENSURE_NEAR(a, -18.0 * sin(2.35), 1e-13);
}

TEST(a_bore_is_refused_as_a_contact_pair_shape)
{
    clink_model_builder *b = pendulum_builder();
    clink_contact_pair_def cd = clink_default_contact_pair_def();
    cd.body_a = 0;
    cd.body_b = 1;
    cd.shape_a.type = CLINK_SHAPE_BORE;
    cd.shape_a.radius = 0.1;
    cd.shape_b.radius = 0.05;
    cd.law = "hertz";
    cd.params.K = 1e9;
    ENSURE(clink_model_builder_add_contact_pair(b, &cd, NULL) == CLINK_ERR_ARG);
    ENSURE(strstr(clink_model_builder_error(b), "bore") != NULL);
    cd.shape_a.type = CLINK_SHAPE_CIRCLE;
    ENSURE(clink_model_builder_add_contact_pair(b, &cd, NULL) == CLINK_OK);
    cd.shape_a.type = CLINK_SHAPE_TYPE_COUNT_;
    ENSURE(clink_model_builder_add_contact_pair(b, &cd, NULL) == CLINK_ERR_RANGE);
    clink_model_builder_destroy(&b);
}

TEST(names_are_found_among_many_entities_and_stay_unique)
{
    /* the name tables grow from 16 slots to 32768 here: every name is found at its index */
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    char name[32];
    int n = 20000, id = -1, bad = 0;
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "b%d", i);
        bd.name = name;
        if (clink_model_builder_add_body(b, &bd, &id) != CLINK_OK || id != i + 1)
            bad++;
    }
    ENSURE(bad == 0);
    bd.name = "b777";
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_ERR_MODEL);
    ENSURE(clink_model_builder_count(b, CLINK_ENTITY_BODY) == n + 1);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    if (!m)
        return;
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "b%d", i);
        if (clink_model_find(m, CLINK_ENTITY_BODY, name) != i + 1)
            bad++;
    }
    ENSURE(bad == 0);
    ENSURE(clink_model_find(m, CLINK_ENTITY_BODY, "ground") == 0);
    ENSURE(clink_model_find(m, CLINK_ENTITY_BODY, "b20000") == -1);
    ENSURE(clink_model_find(m, CLINK_ENTITY_JOINT, "b1") == -1);
    clink_model_destroy(&m);
}

TEST(a_definition_not_made_by_its_default_function_is_refused)
{
    clink_model_builder *b = pendulum_builder();
    clink_body_def bd;
    memset(&bd, 0, sizeof bd);
    bd.mass = bd.inertia = 1.0;
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_ERR_ARG);
    ENSURE(strstr(clink_model_builder_error(b), "clink_default_body_def()") != NULL);
    bd.cookie = clink_default_body_def().cookie;
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_joint_def jd;
    memset(&jd, 0, sizeof jd);
    jd.body_a = 1;
    jd.body_b = 2;
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_ERR_ARG);
    clink_driver_def dd;
    memset(&dd, 0, sizeof dd);
    ENSURE(clink_model_builder_add_driver(b, &dd, NULL) == CLINK_ERR_ARG);
    clink_force_def fd;
    memset(&fd, 0, sizeof fd);
    ENSURE(clink_model_builder_add_force(b, &fd, NULL) == CLINK_ERR_ARG);
    clink_settings_def sd;
    memset(&sd, 0, sizeof sd);
    ENSURE(clink_model_builder_set_settings(b, &sd) == CLINK_ERR_ARG);
    clink_contact_pair_def cd;
    memset(&cd, 0, sizeof cd);
    ENSURE(clink_model_builder_add_contact_pair(b, &cd, NULL) == CLINK_ERR_ARG);
    clink_clearance_joint_def kd;
    memset(&kd, 0, sizeof kd);
    ENSURE(clink_model_builder_add_clearance_joint(b, &kd, NULL) == CLINK_ERR_ARG);
    ENSURE(strstr(clink_model_builder_error(b), "clink_default_clearance_joint_def()") != NULL);
    /* a body definition is not a joint definition */
    clink_joint_def jb = clink_default_joint_def();
    jb.cookie = clink_default_body_def().cookie;
    jb.body_b = 1;
    ENSURE(clink_model_builder_add_joint(b, &jb, NULL) == CLINK_ERR_ARG);
    /* definitions from the model's getters keep their stamp */
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    ENSURE(clink_model_body(m, 1, &bd) == CLINK_OK);
    bd.name = "copy";
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_model_destroy(&m);
    clink_model_builder_destroy(&b);
}
