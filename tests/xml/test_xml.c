/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the XML reader (src/xml/): the models of models/ pass, every value
 * lands where the documentation says with its unit conversion, errors name the
 * file and the line, and loads share no state. The malformed-file corpus is
 * checked through the command by tests/cli/xml_bad_files_*.sh.
 */
#include "clink/contact.h"
#include "clink/model.h"
#include "clink/xml.h"
#include "elements/element.h"
#include "xml/xml_internal.h"

#include "ensure.h"

extern const char xml_schema_text[];
extern const size_t xml_schema_size;

static const char *const model_files[] = {"pendulum", "double_pendulum", "slider_crank", "four_bar",
                                          NULL};

/* loads text as "mem.xml"; *m is NULL on error */
static clink_status read_string(const char *text, clink_model **m, clink_xml_summary *s, char *err,
                                size_t size)
{
    return xml_read_memory(text, strlen(text), "mem.xml", NULL, m, s, err, size);
}

TEST(every_model_in_models_passes_the_check)
{
    char path[1024], err[512];
    int i;

    for (i = 0; model_files[i] != NULL; i++) {
        clink_xml_summary s;
        clink_status st;
        snprintf(path, sizeof path, "%s/models/%s.xml", CLINK_SOURCE_DIR, model_files[i]);
        st = clink_xml_check(path, &s, err, sizeof err);
        if (st != CLINK_OK)
            fprintf(stderr, "%s\n", err);
        ENSURE(st == CLINK_OK);
        ENSURE_STR_EQ(s.name, model_files[i]);
    }
}

TEST(slider_crank_summary_counts_bodies_joints_and_zero_degrees_of_freedom)
{
    clink_xml_summary s;
    char err[512];

    ENSURE(clink_xml_check(CLINK_SOURCE_DIR "/models/slider_crank.xml", &s, err, sizeof err) ==
           CLINK_OK);
    ENSURE(s.bodies == 3);
    ENSURE(s.joints == 4);
    ENSURE(s.drivers == 1);
    ENSURE(s.constraints == 9);
    ENSURE(s.dof == 0);
    ENSURE(s.has_gravity);
    ENSURE(s.contacts == 0);
    ENSURE_STR_EQ(s.laws, "");
}

TEST(pendulum_in_degrees_is_read_in_radians)
{
    clink_model *m = NULL;
    clink_body_def b;
    clink_joint_def j;
    char err[512];
    double gx, gy;

    ENSURE(clink_xml_load(CLINK_SOURCE_DIR "/models/pendulum.xml", &m, NULL, err, sizeof err) ==
           CLINK_OK);
    ENSURE(m != NULL);
    if (m == NULL)
        return;
    ENSURE(clink_model_count(m, CLINK_ENTITY_BODY) == 2);
    ENSURE_STR_EQ(clink_model_name(m, CLINK_ENTITY_BODY, 0), "ground");
    ENSURE_STR_EQ(clink_model_name(m, CLINK_ENTITY_BODY, 1), "rod");
    ENSURE(clink_model_body(m, 1, &b) == CLINK_OK);
    ENSURE_NEAR(b.phi, -3.14159265358979323846 / 6, 1e-15);
    ENSURE_NEAR(b.mass, 1.0, 0);
    clink_model_gravity(m, &gx, &gy);
    ENSURE_NEAR(gy, -9.81, 0);
    ENSURE(clink_model_count(m, CLINK_ENTITY_JOINT) == 1);
    ENSURE(clink_model_joint(m, 0, &j) == CLINK_OK);
    ENSURE(j.type == CLINK_JOINT_REVOLUTE && j.body_a == 0 && j.body_b == 1);
    ENSURE_NEAR(j.point_b[0], -0.5, 0);
    ENSURE(clink_model_settings(m).t_end == 5.0);
    ENSURE(clink_model_settings(m).method == CLINK_METHOD_ADAMS &&
           clink_model_settings(m).drift == CLINK_DRIFT_BAUMGARTE);
    clink_model_destroy(&m);
}

TEST(attributes_left_out_take_their_documented_defaults)
{
    clink_model *m = NULL;
    clink_xml_summary s;
    clink_body_def b;
    clink_joint_def j;
    clink_settings_def set, def = clink_default_settings_def();
    char err[512];
    double gx, gy;
    const char *doc = "<mechanism><bodies><body name='b' mass='2' inertia='3'/></bodies>"
                      "<joints><translational name='t' body1='ground' body2='b' axis='3 4'/>"
                      "</joints></mechanism>";

    ENSURE(read_string(doc, &m, &s, err, sizeof err) == CLINK_OK);
    ENSURE(m != NULL);
    if (m == NULL)
        return;
    ENSURE_STR_EQ(s.name, "mem");
    ENSURE(clink_model_body(m, 1, &b) == CLINK_OK);
    ENSURE(b.x == 0 && b.y == 0 && b.phi == 0 && b.vx == 0 && b.vy == 0 && b.omega == 0);
    clink_model_gravity(m, &gx, &gy);
    ENSURE(gx == 0 && gy == -9.81);
    set = clink_model_settings(m);
    ENSURE(set.t_end == def.t_end && set.method == def.method && set.max_steps == def.max_steps);
    ENSURE(s.out_reactions && s.out_energies && s.out_contacts);
    /* the sliding axis is normalised; the angle is the initial one */
    ENSURE(clink_model_joint(m, 0, &j) == CLINK_OK);
    ENSURE_NEAR(j.axis_a[0], 0.6, 1e-15);
    ENSURE_NEAR(j.axis_a[1], 0.8, 1e-15);
    ENSURE(j.angle0 == 0);
    ENSURE(s.dof == 1);
    clink_model_destroy(&m);
}

TEST(clearance_joint_computes_the_third_dimension_from_two)
{
    clink_model *m = NULL;
    clink_xml_summary s;
    clink_clearance_joint_def c;
    char err[512];
    const char *doc =
        "<mechanism><bodies><body name='b' mass='2' inertia='3'/></bodies><joints>"
        "<revolute_clearance name='c' journal='b' bearing='ground' bearing_radius='0.01' "
        "clearance='0.0005'><law name='lankarani-nikravesh' e='0.9' K='1e9'/>"
        "<friction type='coulomb' mu='0.01' v0='1e-4' v1='1e-3'/></revolute_clearance>"
        "</joints></mechanism>";

    ENSURE(read_string(doc, &m, &s, err, sizeof err) == CLINK_OK);
    ENSURE(m != NULL);
    if (m == NULL)
        return;
    ENSURE(clink_model_clearance_joint(m, 0, &c) == CLINK_OK);
    ENSURE_NEAR(c.journal_radius, 0.0095, 1e-15);
    ENSURE_NEAR(c.bearing_radius, 0.01, 0);
    ENSURE_STR_EQ(c.law, "lankarani-nikravesh");
    ENSURE_NEAR(c.params.e, 0.9, 0);
    ENSURE(c.friction.kind == CLINK_FRICTION_AMBROSIO);
    /* a clearance joint is a force element: no constraint */
    ENSURE(s.dof == 3 && s.clearance_joints == 1 && s.joints == 0);
    ENSURE_STR_EQ(s.laws, "lankarani-nikravesh");
    clink_model_destroy(&m);
}

TEST(clearance_joint_without_stiffness_is_refused_with_file_and_line)
{
    char err[512];
    clink_status st;
    const char *path = CLINK_SOURCE_DIR "/tests/xml-bad/clearance_joint_without_stiffness.xml";

    st = clink_xml_check(path, NULL, err, sizeof err);
    ENSURE(st != CLINK_OK);
    ENSURE(strstr(err, "clearance_joint_without_stiffness.xml:8: ") != NULL);
    ENSURE(strstr(err, "stiffness") != NULL);
}

TEST(impulse_treatment_without_restitution_is_refused)
{
    char err[512];
    clink_status st;
    const char *path =
        CLINK_SOURCE_DIR "/tests/xml-bad/contact_pair_impulse_without_restitution.xml";

    st = clink_xml_check(path, NULL, err, sizeof err);
    ENSURE(st != CLINK_OK);
    ENSURE(strstr(err, "contact_pair_impulse_without_restitution.xml:11: ") != NULL);
    ENSURE(strstr(err, "restitution missing") != NULL);
}

TEST(semantic_error_names_file_line_and_value)
{
    clink_model *m = NULL;
    char err[512];
    const char *doc = "<mechanism>\n<bodies>\n\n<body name='b' mass='-2' inertia='3'/>\n"
                      "</bodies></mechanism>";

    ENSURE(read_string(doc, &m, NULL, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE_STR_EQ(err, "mem.xml:4: body 'b': mass -2 kg must be finite and > 0");
    ENSURE(m == NULL);
}

TEST(line_numbers_beyond_65535_are_exact)
{
    /* libxml2 stores lines in 16 bits unless XML_PARSE_BIG_LINES */
    size_t n = 70000, i, len = 0;
    char *doc = malloc(n + 256), err[512];
    clink_model *m = NULL;

    ENSURE(doc != NULL);
    if (doc == NULL)
        return;
    len += (size_t) sprintf(doc + len, "<mechanism>");
    for (i = 0; i < n; i++)
        doc[len++] = '\n';
    sprintf(doc + len, "<bodies><body name='b' mass='0' inertia='1'/></bodies></mechanism>");
    ENSURE(read_string(doc, &m, NULL, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strncmp(err, "mem.xml:70001: ", 15) == 0);
    free(doc);
}

TEST(truncated_message_buffer_is_terminated)
{
    clink_model *m = NULL;
    char err[12];
    const char *doc = "<mechanism><bodies><body name='b' mass='-2' inertia='3'/></bodies>"
                      "</mechanism>";

    memset(err, 'x', sizeof err);
    ENSURE(read_string(doc, &m, NULL, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strlen(err) == sizeof err - 1);
    ENSURE(read_string(doc, &m, NULL, NULL, 0) == CLINK_ERR_RANGE);
}

TEST(missing_file_is_an_io_error_naming_the_path)
{
    char err[512];

    ENSURE(clink_xml_check("/nonexistent/m.xml", NULL, err, sizeof err) == CLINK_ERR_IO);
    ENSURE(strncmp(err, "/nonexistent/m.xml: cannot open", 31) == 0);
}

TEST(loads_share_no_state_between_good_and_bad_files)
{
    xml_schema *schema;
    char err[512];
    int i;
    const char *bad = "<mechanism><bodies><body name='b' mass='1'/></bodies></mechanism>";
    const char *good = "<mechanism><bodies><body name='b' mass='1' inertia='1'/></bodies>"
                       "</mechanism>";

    schema = xml_schema_create(err, sizeof err);
    ENSURE(schema != NULL);
    for (i = 0; i < 3; i++) {
        clink_model *m = NULL;
        ENSURE(xml_read_memory(bad, strlen(bad), "bad.xml", schema, &m, NULL, err, sizeof err) ==
               CLINK_ERR_MODEL);
        ENSURE(strncmp(err, "bad.xml:1: ", 11) == 0);
        ENSURE(xml_read_memory(good, strlen(good), "good.xml", schema, &m, NULL, err, sizeof err) ==
               CLINK_OK);
        ENSURE_STR_EQ(err, "");
        clink_model_destroy(&m);
    }
    xml_schema_destroy(&schema);
    ENSURE(schema == NULL);
    xml_schema_destroy(&schema);
}

TEST(doctype_is_refused_before_any_entity_is_expanded)
{
    clink_model *m = NULL;
    char err[512];
    const char *doc = "<!DOCTYPE mechanism [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>\n"
                      "<mechanism name='&x;'><bodies/></mechanism>";

    ENSURE(read_string(doc, &m, NULL, err, sizeof err) == CLINK_ERR_PARSE);
    ENSURE(strstr(err, "DOCTYPE") != NULL);
}

TEST(embedded_schema_is_the_installed_schema_file)
{
    FILE *f = fopen(CLINK_SOURCE_DIR "/share/clink.xsd", "rb");
    char *buf = malloc(xml_schema_size + 1);
    size_t got = 0;

    ENSURE(f != NULL && buf != NULL);
    if (f != NULL && buf != NULL) {
        got = fread(buf, 1, xml_schema_size + 1, f);
        ENSURE(got == xml_schema_size);
        ENSURE(memcmp(buf, xml_schema_text, xml_schema_size) == 0);
        ENSURE(xml_schema_text[xml_schema_size] == '\0');
    }
    if (f != NULL)
        fclose(f);
    free(buf);
}

TEST(slider_crank_model_is_built_through_the_model_api_as_written)
{
    clink_model *m = NULL;
    clink_xml_summary s;
    clink_body_def b;
    clink_joint_def j;
    clink_driver_def v;
    clink_settings_def set;
    char err[512];
    double gx, gy;
    int crank, pin;

    ENSURE(clink_xml_load(CLINK_SOURCE_DIR "/models/slider_crank.xml", &m, &s, err, sizeof err) ==
           CLINK_OK);
    ENSURE(m != NULL);
    if (m == NULL)
        return;
    ENSURE(clink_model_count(m, CLINK_ENTITY_BODY) == 4);
    ENSURE(clink_model_count(m, CLINK_ENTITY_JOINT) == 4);
    ENSURE(clink_model_count(m, CLINK_ENTITY_DRIVER) == 1);
    ENSURE(clink_model_constraint_count(m) == s.constraints);
    crank = clink_model_find(m, CLINK_ENTITY_BODY, "crank");
    ENSURE(crank == 1);
    ENSURE(clink_model_body(m, crank, &b) == CLINK_OK);
    ENSURE_NEAR(b.mass, 0.30, 0);
    ENSURE_NEAR(b.inertia, 1e-4, 0);
    ENSURE_NEAR(b.x, 0.025, 0);
    pin = clink_model_find(m, CLINK_ENTITY_JOINT, "crank_pin");
    ENSURE(clink_model_joint(m, pin, &j) == CLINK_OK);
    ENSURE(j.type == CLINK_JOINT_REVOLUTE && j.body_a == 0 && j.body_b == crank);
    ENSURE_NEAR(j.point_b[0], -0.025, 0);
    ENSURE(clink_model_joint(m, clink_model_find(m, CLINK_ENTITY_JOINT, "guide"), &j) == CLINK_OK);
    ENSURE(j.type == CLINK_JOINT_TRANSLATIONAL);
    ENSURE_NEAR(j.axis_a[0], 1, 0);
    ENSURE_NEAR(j.angle0, 0, 0); /* default: initial phi2 - phi1 */
    ENSURE(clink_model_driver(m, 0, &v) == CLINK_OK);
    ENSURE(v.target == CLINK_DRIVE_JOINT_ANGLE && v.joint == pin);
    ENSURE(v.function.type == CLINK_FUNCTION_LINEAR);
    ENSURE_NEAR(v.function.c[1], 523.598775598, 0);
    clink_model_gravity(m, &gx, &gy);
    ENSURE(gx == 0 && gy == -9.81);
    set = clink_model_settings(m);
    ENSURE_NEAR(set.t_end, 0.024, 0);
    ENSURE_NEAR(set.output_step, 1e-4, 0);
    ENSURE_NEAR(set.rtol, 1e-10, 0);
    ENSURE(set.method == CLINK_METHOD_ADAMS && set.drift == CLINK_DRIFT_BAUMGARTE);
    clink_model_destroy(&m);
    ENSURE(m == NULL);
}

TEST(settings_left_out_keep_the_api_defaults_and_loads_map_to_forces)
{
    clink_model *m = NULL;
    clink_settings_def set, def = clink_default_settings_def();
    clink_force_def f;
    char err[512];
    const char *doc =
        "<mechanism angle_unit='deg'><settings t_end='2'/><bodies>"
        "<body name='a' mass='1' inertia='1'/><body name='b' mass='1' inertia='1' x='1'/>"
        "</bodies><joints><weld name='w' body1='a' body2='b' point1='0.5 0' point2='-0.5 0' "
        "angle='90'/></joints><loads><spring_damper name='s' body1='ground' body2='a' "
        "stiffness='10' damping='2' length='0.5' actuator='1'/>"
        "<rotational_spring_damper name='r' body1='ground' body2='a' stiffness='3' angle='180'/>"
        "<force name='f' body='b' point='0.1 0' value='1 2'/></loads>"
        "<drivers><driver name='d' type='coordinate' body='a' coordinate='phi'>"
        "<harmonic amplitude='90' frequency='2'/></driver></drivers></mechanism>";
    clink_joint_def j;
    clink_driver_def v;

    ENSURE(clink_xml_load_memory(doc, strlen(doc), "mem.xml", &m, NULL, err, sizeof err) ==
           CLINK_OK);
    if (m == NULL) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    set = clink_model_settings(m);
    ENSURE_NEAR(set.t_end, 2, 0);
    ENSURE(set.output_step == def.output_step && set.rtol == def.rtol && set.atol == def.atol);
    ENSURE(clink_model_joint(m, 0, &j) == CLINK_OK);
    ENSURE(j.type == CLINK_JOINT_WELD);
    ENSURE_NEAR(j.angle0, 3.14159265358979323846 / 2, 1e-15);
    ENSURE(clink_model_force(m, 0, &f) == CLINK_OK);
    ENSURE(f.type == CLINK_FORCE_SPRING_DAMPER && f.body_a == 0 && f.body_b == 1);
    ENSURE(f.k == 10 && f.c == 2 && f.free_length == 0.5 && f.actuator == 1);
    ENSURE(clink_model_force(m, 1, &f) == CLINK_OK);
    ENSURE(f.type == CLINK_FORCE_ROTATIONAL_SPRING_DAMPER);
    ENSURE_NEAR(f.free_length, 3.14159265358979323846, 1e-15);
    ENSURE(clink_model_force(m, 2, &f) == CLINK_OK);
    ENSURE(f.type == CLINK_FORCE_POINT && f.body_a == 2 && f.fx == 1 && f.fy == 2);
    ENSURE_NEAR(f.point_a[0], 0.1, 0);
    ENSURE(clink_model_driver(m, 0, &v) == CLINK_OK);
    ENSURE(v.target == CLINK_DRIVE_BODY_COORDINATE && v.body == 1 && v.coordinate == 2);
    ENSURE(v.function.type == CLINK_FUNCTION_HARMONIC);
    ENSURE_NEAR(v.function.c[1], 3.14159265358979323846 / 2, 1e-15); /* degrees converted */
    ENSURE_NEAR(v.function.c[2], 2, 0);                              /* rad/s: not converted */
    clink_model_destroy(&m);
}

TEST(load_returns_null_and_the_message_on_error)
{
    char err[512];
    clink_model *m;

    m = clink_model_load_xml(CLINK_SOURCE_DIR "/tests/xml-bad/negative_mass.xml", err, sizeof err);
    ENSURE(m == NULL);
    ENSURE(strstr(err, "negative_mass.xml:5: body 'rod': mass -1 kg") != NULL);
    m = clink_model_load_xml(CLINK_SOURCE_DIR "/models/pendulum.xml", err, sizeof err);
    ENSURE(m != NULL);
    clink_model_destroy(&m);
}

TEST(contact_pair_and_clearance_joint_are_built_with_stiffness_from_materials)
{
    clink_model *m = NULL;
    clink_contact_pair_def p;
    clink_clearance_joint_def c;
    char err[512];
    const char *doc =
        "<mechanism><materials><material name='steel' E='207e9' nu='0.3' yield='6e8'/><material "
        "name='bronze' E='1e11' nu='0.3' yield='2e8'/></materials>"
        "<bodies><ground material='steel'/><body name='b' mass='1' inertia='1' y='1' "
        "material='steel'/><body name='s' mass='1' inertia='1' y='1'/></bodies><joints>"
        "<revolute_clearance name='gap' journal='b' bearing='s' journal_radius='0.0095' "
        "bearing_radius='0.01' bearing_material='bronze'><law name='lankarani-nikravesh' "
        "e='0.9'/><friction type='coulomb' mu='0.01' v0='1e-4' v1='1e-3'/>"
        "</revolute_clearance></joints><contacts><pair name='floor'>"
        "<circle body='b' radius='0.05'/><line body='ground' normal='0 2'/>"
        "<law name='hunt-crossley' e='0.8'/></pair></contacts></mechanism>";

    ENSURE(clink_xml_load_memory(doc, strlen(doc), "mem.xml", &m, NULL, err, sizeof err) ==
           CLINK_OK);
    if (m == NULL) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    ENSURE(clink_model_count(m, CLINK_ENTITY_CONTACT_PAIR) == 1);
    ENSURE(clink_model_count(m, CLINK_ENTITY_CLEARANCE_JOINT) == 1);
    ENSURE(clink_model_contact_pair(m, 0, &p) == CLINK_OK);
    /* the line is shape_a whatever the order in the file */
    ENSURE(p.shape_a.type == CLINK_SHAPE_LINE && p.body_a == 0 && p.body_b == 1);
    ENSURE(p.shape_b.type == CLINK_SHAPE_CIRCLE && p.shape_b.radius == 0.05);
    ENSURE_NEAR(p.shape_a.normal[1], 1, 1e-15);
    ENSURE(p.params.E1 == 207e9 && p.params.E2 == 207e9 && p.params.nu1 == 0.3);
    ENSURE(p.params.K > 0); /* from the materials */
    ENSURE_NEAR(p.params.e, 0.8, 0);
    ENSURE(clink_model_clearance_joint(m, 0, &c) == CLINK_OK);
    ENSURE(c.journal_body == 1 && c.bearing_body == 2);
    ENSURE_NEAR(c.bearing_radius - c.journal_radius, 0.0005, 1e-15);
    ENSURE(c.params.K > 0);
    ENSURE(c.friction.kind == CLINK_FRICTION_AMBROSIO && c.friction.mu == 0.01);
    ENSURE(c.params.E2 == 1e11);
    ENSURE(c.params.Y == 2e8); /* the softer material's yield strength */
    clink_model_destroy(&m);
}

TEST(every_parameter_of_the_descriptor_is_readable_from_a_law_element)
{
    /* the reader takes the keys from the contact module's descriptor: eta1, eta2 and
       zero_force (never in the reader's code) arrive in the model */
    char doc[2048];
    size_t i, len;
    clink_model *m = NULL;
    clink_contact_pair_def p;
    char err[512];

    len = (size_t) snprintf(doc, sizeof doc,
                            "<mechanism><bodies><body name='b' mass='1' inertia='1' y='1'/>"
                            "</bodies><contacts><pair name='p'><circle body='b' radius='0.1'/>"
                            "<line body='ground' normal='0 1'/><law name='kuwabara-kono'");
    for (i = 0; i < clink_contact_param_count(); i++)
        len += (size_t) snprintf(doc + len, sizeof doc - len, " %s='%g'",
                                 clink_contact_param_at(i)->key, 0.25 + 0.5 * (double) i);
    snprintf(doc + len, sizeof doc - len, "/></pair></contacts></mechanism>");
    /* the law may refuse some of these values, never one of the keys */
    err[0] = '\0';
    read_string(doc, &m, NULL, err, sizeof err);
    ENSURE(strstr(err, "unknown attribute") == NULL);
    clink_model_destroy(&m);
    /* Kelvin-Voigt reads zero_force; its other fields are stored as given */
    const char *kv = "<mechanism><bodies><body name='b' mass='1' inertia='1' y='1'/></bodies>"
                     "<contacts><pair name='p'><circle body='b' radius='0.1'/>"
                     "<line body='ground' normal='0 1'/><law name='kelvin-voigt' K='1e6' e='0.5' "
                     "zero_force='1' eta1='3' eta2='4'/></pair></contacts></mechanism>";
    ENSURE(read_string(kv, &m, NULL, err, sizeof err) == CLINK_OK);
    if (m == NULL) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    ENSURE(clink_model_contact_pair(m, 0, &p) == CLINK_OK);
    ENSURE(p.params.zero_force == 1);
    ENSURE(p.params.eta1 == 3 && p.params.eta2 == 4);
    clink_model_destroy(&m);
}

TEST(progress_settings_are_read_and_checked_by_the_builder)
{
    clink_model *m = NULL;
    clink_settings_def s;
    char err[512];
    const char *good = "<mechanism><settings max_steps='1e5' min_step='1e-12' wall_limit='30'/>"
                       "<bodies><body name='b' mass='1' inertia='1'/></bodies></mechanism>";
    const char *bad = "<mechanism>\n<settings max_steps='-3'/>"
                      "<bodies><body name='b' mass='1' inertia='1'/></bodies></mechanism>";

    ENSURE(read_string(good, &m, NULL, err, sizeof err) == CLINK_OK);
    if (m == NULL)
        return;
    s = clink_model_settings(m);
    ENSURE(s.max_steps == 1e5 && s.min_step == 1e-12 && s.wall_limit == 30);
    clink_model_destroy(&m);
    ENSURE(read_string(bad, &m, NULL, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strncmp(err, "mem.xml:2: settings: max_steps -3", 33) == 0);
}

TEST(a_mechanism_name_taken_from_the_file_name_obeys_the_name_rules)
{
    clink_model *m = NULL;
    clink_xml_summary s;
    char err[512];
    const char *doc = "<mechanism><bodies><body name='b' mass='1' inertia='1'/></bodies>"
                      "</mechanism>";

    ENSURE(xml_read_memory(doc, strlen(doc), "dir/...xml", NULL, &m, &s, err, sizeof err) ==
           CLINK_OK);
    ENSURE_STR_EQ(s.name, "_."); /* never ".." */
    clink_model_destroy(&m);
    ENSURE(xml_read_memory(doc, strlen(doc), "dir/3 bar$.xml", NULL, &m, &s, err, sizeof err) ==
           CLINK_OK);
    ENSURE_STR_EQ(s.name, "__bar_");
    clink_model_destroy(&m);
}

TEST(a_file_of_100000_bodies_is_read_with_every_body_named)
{
    /* the size of the issue (quadratic name lookup took 23 s); its time is measured by
       bench/check_large_model.sh, here only the count */
    int n = 100000;
    size_t cap = (size_t) n * 64 + 256, len = 0;
    char *doc = malloc(cap), err[512];
    clink_model *m = NULL;
    clink_xml_summary s;

    ENSURE(doc != NULL);
    if (doc == NULL)
        return;
    len += (size_t) snprintf(doc + len, cap - len, "<mechanism><bodies>");
    for (int i = 0; i < n; i++)
        len += (size_t) snprintf(doc + len, cap - len,
                                 "<body name='b%d' mass='1' inertia='1' x='%d'/>", i, i);
    snprintf(doc + len, cap - len, "</bodies></mechanism>");
    ENSURE(read_string(doc, &m, &s, err, sizeof err) == CLINK_OK);
    ENSURE(s.bodies == n && s.dof == 3 * n);
    ENSURE(m != NULL && clink_model_find(m, CLINK_ENTITY_BODY, "b99999") == n);
    clink_model_destroy(&m);
    free(doc);
}

/* Every contact element the reader holds inside <joints> (src/elements, one class each) is
   declared in the schema with each attribute of its field table: <joints> takes any element
   laxly, so an element left out of share/clink.xsd would be read without the schema's checks.
   The attributes are looked for between the element's declaration and the next top-level
   declaration (the lubrication and wear children's attributes of a clearance joint among
   them). The contact pair is declared inside <contacts> (its shapes carry its fields). */
TEST(every_contact_element_and_its_attributes_are_declared_in_the_schema)
{
    int checked = 0;
    for (int k = 0; k < (int) CLINK_ELEMENT_KIND_COUNT_; k++) {
        if (k == (int) CLINK_ELEMENT_PAIR)
            continue;
        const char *name = clink_model_element_kind_name((clink_element_kind) k);
        const element_class *ec = element_class_of((clink_element_kind) k);
        char open[128];
        snprintf(open, sizeof open, "\n  <xs:element name=\"%s\">", name ? name : "?");
        const char *at = name && ec ? strstr(xml_schema_text, open) : NULL;
        if (!at)
            fprintf(stderr, "<%s> is not declared at the top of share/clink.xsd\n", name);
        ENSURE(at != NULL);
        if (!at)
            continue;
        const char *end = strstr(at + strlen(open), "\n  <xs:element name=");
        if (!end)
            end = strstr(at, "</xs:schema>");
        ENSURE(end != NULL);
        for (int f = 0; end && f < ec->nfields; f++) {
            if (!ec->fields[f].attr)
                continue;
            char attr[128];
            snprintf(attr, sizeof attr, "name=\"%s\"", ec->fields[f].attr);
            const char *hit = strstr(at, attr);
            if (!hit || hit > end)
                fprintf(stderr, "<%s %s> is not in share/clink.xsd\n", name, ec->fields[f].attr);
            ENSURE(hit != NULL && hit < end);
            checked++;
        }
    }
    ENSURE(checked >= 40);
}

/* the slot clearance's example model is read through the schema's declaration */
TEST(the_slot_clearance_model_is_valid_against_the_schema)
{
    clink_model *m = NULL;
    char err[512];
    ENSURE(clink_xml_load(CLINK_SOURCE_DIR "/models/slot_clearance_settle.xml", &m, NULL, err,
                          sizeof err) == CLINK_OK);
    if (!m)
        fprintf(stderr, "%s\n", err);
    ENSURE(m != NULL && clink_model_count(m, CLINK_ENTITY_SLOT_CLEARANCE) == 1);
    clink_model_destroy(&m);
}
