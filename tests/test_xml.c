/*
 * Tests of the XML reader (src/xml/): the models of models/ pass, every value
 * lands where the documentation says with its unit conversion, errors name the
 * file and the line, and loads share no state. The malformed-file corpus is
 * checked through the command by tests/cli/xml_bad_files_*.sh.
 */
#include "clink/xml.h"
#include "xml/xml_internal.h"

#include "ensure.h"

extern const char xml_schema_text[];
extern const size_t xml_schema_size;

static const char *const model_files[] = {"pendulum", "double_pendulum", "slider_crank", "four_bar",
                                          NULL};

static clink_status read_string(const char *text, xml_desc *d, char *err, size_t size)
{
    return xml_desc_read_memory(text, strlen(text), "mem.xml", NULL, d, err, size);
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
    xml_desc d;
    char err[512];

    ENSURE(xml_desc_read_file(CLINK_SOURCE_DIR "/models/pendulum.xml", NULL, &d, err, sizeof err) ==
           CLINK_OK);
    ENSURE(d.angle_deg == 1);
    ENSURE(d.n_bodies == 2);
    ENSURE_STR_EQ(d.bodies[0].name, "ground");
    ENSURE_STR_EQ(d.bodies[1].name, "rod");
    ENSURE_NEAR(d.bodies[1].phi, -3.14159265358979323846 / 6, 1e-15);
    ENSURE_NEAR(d.bodies[1].mass, 1.0, 0);
    ENSURE_NEAR(d.gravity[1], -9.81, 0);
    ENSURE(d.n_joints == 1 && d.joints[0].kind == XML_JOINT_REVOLUTE);
    ENSURE(d.joints[0].body1 == 0 && d.joints[0].body2 == 1);
    ENSURE_NEAR(d.joints[0].p2[0], -0.5, 0);
    ENSURE(d.settings.has_t_end && d.settings.t_end == 5.0);
    ENSURE(d.settings.method == XML_METHOD_BDF && d.settings.drift == XML_DRIFT_PROJECTION);
    xml_desc_free(&d);
}

TEST(attributes_left_out_take_their_documented_defaults)
{
    xml_desc d;
    char err[512];
    const char *doc = "<mechanism><bodies><body name='b' mass='2' inertia='3'/></bodies>"
                      "<joints><translational name='t' body1='ground' body2='b' axis='3 4'/>"
                      "</joints></mechanism>";

    ENSURE(read_string(doc, &d, err, sizeof err) == CLINK_OK);
    ENSURE_STR_EQ(d.name, "mem");
    ENSURE(d.bodies[1].x == 0 && d.bodies[1].y == 0 && d.bodies[1].phi == 0);
    ENSURE(d.bodies[1].vx == 0 && d.bodies[1].omega == 0 && d.bodies[1].material == -1);
    ENSURE(d.gravity[0] == 0 && d.gravity[1] == -9.81);
    ENSURE(!d.settings.has_t_end && !d.settings.has_method);
    ENSURE(d.out_reactions && d.out_energies && d.out_contacts);
    /* the sliding axis is normalised */
    ENSURE_NEAR(d.joints[0].axis[0], 0.6, 1e-15);
    ENSURE_NEAR(d.joints[0].axis[1], 0.8, 1e-15);
    ENSURE(xml_desc_dof(&d) == 1);
    xml_desc_free(&d);
}

TEST(clearance_joint_computes_the_third_dimension_from_two)
{
    xml_desc d;
    char err[512];
    const char *doc =
        "<mechanism><bodies><body name='b' mass='2' inertia='3'/></bodies><joints>"
        "<revolute_clearance name='c' journal='b' bearing='ground' bearing_radius='0.01' "
        "clearance='0.0005'><law name='lankarani-nikravesh' e='0.9'/>"
        "<friction type='coulomb' mu='0.01' v0='1e-4' v1='1e-3'/></revolute_clearance>"
        "</joints></mechanism>";

    ENSURE(read_string(doc, &d, err, sizeof err) == CLINK_OK);
    ENSURE(d.joints[0].kind == XML_JOINT_CLEARANCE);
    ENSURE_NEAR(d.joints[0].r_journal, 0.0095, 1e-15);
    ENSURE_NEAR(d.joints[0].r_bearing, 0.01, 0);
    ENSURE_STR_EQ(d.joints[0].law.name, "lankarani-nikravesh");
    ENSURE_NEAR(d.joints[0].law.e, 0.9, 0);
    ENSURE(isnan(d.joints[0].law.K));
    ENSURE(d.joints[0].friction.kind == XML_FRICTION_COULOMB);
    /* a clearance joint is a force element: no constraint */
    ENSURE(xml_desc_dof(&d) == 3);
    xml_desc_free(&d);
}

TEST(clearance_joints_are_refused_until_contact_lands)
{
    char err[512];
    clink_status st;
    const char *path = CLINK_SOURCE_DIR "/tests/xml-bad/clearance_joint_not_supported_yet.xml";

    st = clink_xml_check(path, NULL, err, sizeof err);
    ENSURE(st == CLINK_ERR_MODEL);
    ENSURE(strstr(err, "clearance_joint_not_supported_yet.xml:8: ") != NULL);
    ENSURE(strstr(err, "not supported by this build yet") != NULL);
}

TEST(semantic_error_names_file_line_and_value)
{
    xml_desc d;
    char err[512];
    const char *doc = "<mechanism>\n<bodies>\n\n<body name='b' mass='-2' inertia='3'/>\n"
                      "</bodies></mechanism>";

    ENSURE(read_string(doc, &d, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE_STR_EQ(err, "mem.xml:4: body 'b': mass = -2 kg is out of range (must be > 0)");
    ENSURE(d.bodies == NULL && d.n_bodies == 0);
}

TEST(line_numbers_beyond_65535_are_exact)
{
    /* libxml2 stores lines in 16 bits unless XML_PARSE_BIG_LINES */
    size_t n = 70000, i, len = 0;
    char *doc = malloc(n + 256), err[512];
    xml_desc d;

    ENSURE(doc != NULL);
    if (doc == NULL)
        return;
    len += (size_t) sprintf(doc + len, "<mechanism>");
    for (i = 0; i < n; i++)
        doc[len++] = '\n';
    sprintf(doc + len, "<bodies><body name='b' mass='0' inertia='1'/></bodies></mechanism>");
    ENSURE(read_string(doc, &d, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strncmp(err, "mem.xml:70001: ", 15) == 0);
    free(doc);
}

TEST(truncated_message_buffer_is_terminated)
{
    xml_desc d;
    char err[12];
    const char *doc = "<mechanism><bodies><body name='b' mass='-2' inertia='3'/></bodies>"
                      "</mechanism>";

    memset(err, 'x', sizeof err);
    ENSURE(read_string(doc, &d, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strlen(err) == sizeof err - 1);
    ENSURE(read_string(doc, &d, NULL, 0) == CLINK_ERR_RANGE);
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
        xml_desc d;
        ENSURE(xml_desc_read_memory(bad, strlen(bad), "bad.xml", schema, &d, err, sizeof err) ==
               CLINK_ERR_MODEL);
        ENSURE(strncmp(err, "bad.xml:1: ", 11) == 0);
        ENSURE(xml_desc_read_memory(good, strlen(good), "good.xml", schema, &d, err, sizeof err) ==
               CLINK_OK);
        ENSURE_STR_EQ(err, "");
        xml_desc_free(&d);
    }
    xml_schema_destroy(&schema);
    ENSURE(schema == NULL);
    xml_schema_destroy(&schema);
}

TEST(doctype_is_refused_before_any_entity_is_expanded)
{
    xml_desc d;
    char err[512];
    const char *doc = "<!DOCTYPE mechanism [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>\n"
                      "<mechanism name='&x;'><bodies/></mechanism>";

    ENSURE(read_string(doc, &d, err, sizeof err) == CLINK_ERR_PARSE);
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
