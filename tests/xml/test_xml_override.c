/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the overrides by path (include/clink/xml.h, "overrides";
 * src/xml/xml_override.c): a value set by path lands in the model exactly as
 * the same value written in the file, the clearance rule, the record of what
 * was applied, and the errors (a path naming nothing or several elements, a
 * non-number, a value out of range) name the override and the reason.
 */
#include "clink/contact.h"
#include "clink/model.h"
#include "clink/xml.h"

#include "ensure.h"

#include <string.h>

#define CLEARANCE CLINK_SOURCE_DIR "/models/slider_crank_clearance.xml"
#define SPHERES   CLINK_SOURCE_DIR "/models/two_spheres.xml"

static const char *const no_settings =
    "<mechanism name=\"m\"><bodies><body name=\"b\" mass=\"1\" inertia=\"1\" y=\"1\"/></bodies>"
    "</mechanism>";

TEST(an_override_of_the_clearance_keeps_the_bearing_radius_and_moves_the_journal)
{
    const char *sets[] = {"revolute_clearance[rod_slider].clearance=2e-4", "settings.t_end = 0.1"};
    clink_xml_applied ap[2];
    clink_model *m = NULL;
    clink_clearance_joint_def cj;
    clink_settings_def s;
    char err[512];

    ENSURE(clink_xml_load_with(CLEARANCE, sets, 2, ap, &m, NULL, err, sizeof err) == CLINK_OK);
    ENSURE(m != NULL);
    if (m == NULL)
        return;
    ENSURE(clink_model_clearance_joint(m, 0, &cj) == CLINK_OK);
    ENSURE(cj.bearing_radius == 0.010);
    ENSURE(cj.journal_radius == 0.010 - 2e-4);
    s = clink_model_settings(m);
    ENSURE(s.t_end == 0.1);
    ENSURE_STR_EQ(ap[0].path, "revolute_clearance[rod_slider].clearance");
    ENSURE_STR_EQ(ap[0].value, "0.0002");
    ENSURE_STR_EQ(ap[0].previous, "");
    ENSURE(ap[0].line == 31);
    ENSURE_STR_EQ(ap[1].path, "settings.t_end");
    ENSURE_STR_EQ(ap[1].value, "0.1");
    ENSURE_STR_EQ(ap[1].previous, "0.048");
    clink_model_destroy(&m);
}

TEST(an_override_of_the_journal_radius_equals_the_file_written_with_it)
{
    const char *sets[] = {"revolute_clearance.journal_radius=0.0099"};
    clink_model *m = NULL;
    clink_clearance_joint_def cj;
    char err[512];

    ENSURE(clink_xml_load_with(CLEARANCE, sets, 1, NULL, &m, NULL, err, sizeof err) == CLINK_OK);
    if (m == NULL)
        return;
    ENSURE(clink_model_clearance_joint(m, 0, &cj) == CLINK_OK);
    ENSURE(cj.journal_radius == 0.0099);
    ENSURE(cj.bearing_radius == 0.010);
    clink_model_destroy(&m);
}

TEST(a_law_parameter_and_a_keyword_are_reached_by_path)
{
    const char *sets[] = {"pair[spheres].law.e=0.8", "law.name=flores", "body[left].vx=0.2"};
    clink_model *m = NULL;
    clink_contact_pair_def p;
    clink_body_def b;
    char err[512];

    ENSURE(clink_xml_load_with(SPHERES, sets, 3, NULL, &m, NULL, err, sizeof err) == CLINK_OK);
    if (m == NULL) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    ENSURE(clink_model_contact_pair(m, 0, &p) == CLINK_OK);
    ENSURE(p.params.e == 0.8);
    ENSURE(p.params.K == 5.5e9);
    ENSURE(strstr(p.law, "flores") != NULL);
    ENSURE(clink_model_body(m, clink_model_find(m, CLINK_ENTITY_BODY, "left"), &b) == CLINK_OK);
    ENSURE(b.vx == 0.2);
    clink_model_destroy(&m);
}

TEST(a_missing_settings_section_is_created_by_its_override)
{
    const char *sets[] = {"settings.t_end=0.25", "gravity.g=0 -1.62",
                          "settings.contact_bookkeeping=hysteresis"};
    clink_model *m = NULL;
    double gx, gy;
    char err[512];

    ENSURE(clink_xml_load_memory_with(no_settings, strlen(no_settings), "m.xml", sets, 3, NULL, &m,
                                      NULL, err, sizeof err) == CLINK_OK);
    if (m == NULL) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    ENSURE(clink_model_settings(m).t_end == 0.25);
    ENSURE(clink_model_settings(m).contact_bookkeeping == CLINK_BOOKKEEPING_HYSTERESIS);
    clink_model_gravity(m, &gx, &gy);
    ENSURE(gx == 0 && gy == -1.62);
    clink_model_destroy(&m);
}

/* loads the clearance model with one override; the status, the message in err */
static clink_status load_one(const char *set, char *err, size_t size)
{
    clink_model *m = NULL;
    clink_status st = clink_xml_load_with(CLEARANCE, &set, 1, NULL, &m, NULL, err, size);
    ENSURE((st == CLINK_OK) == (m != NULL));
    clink_model_destroy(&m);
    return st;
}

TEST(overrides_that_name_nothing_or_are_not_numbers_say_the_path_and_why)
{
    char err[512];

    ENSURE(load_one("revolute_clearance[nope].clearance=1e-4", err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(strstr(err, "override 'revolute_clearance[nope].clearance=1e-4'") != NULL);
    ENSURE(strstr(err, "names no element") != NULL);
    ENSURE(load_one("body.mass=1", err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(strstr(err, "more than one element") != NULL);
    ENSURE(load_one("settings.t_end=abc", err, sizeof err) == CLINK_ERR_PARSE);
    ENSURE(strstr(err, "'abc' is not a number") != NULL);
    ENSURE(load_one("settings.t_end", err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(strstr(err, "PATH=VALUE") != NULL);
    ENSURE(load_one("t_end=1", err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(load_one("body[crank].name=x", err, sizeof err) == CLINK_ERR_ARG);
}

TEST(an_overridden_value_out_of_range_fails_as_in_the_file_naming_line_and_override)
{
    char err[512];

    ENSURE(load_one("settings.rtol=-1", err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strncmp(err, CLEARANCE ":17: ", strlen(CLEARANCE ":17: ")) == 0);
    ENSURE(strstr(err, "(override 'settings.rtol=-1')") != NULL);
    /* a law parameter is refused by the builder at its joint's line */
    ENSURE(load_one("revolute_clearance[rod_slider].law.e=1.5", err, sizeof err) != CLINK_OK);
    ENSURE(strstr(err, ":31: ") != NULL);
    ENSURE(strstr(err, "(override 'revolute_clearance[rod_slider].law.e=1.5')") != NULL);
    /* the schema refuses an attribute the element does not take */
    ENSURE(load_one("settings.colour=1", err, sizeof err) == CLINK_ERR_MODEL);
    ENSURE(strstr(err, "(override 'settings.colour=1')") != NULL);
    ENSURE(load_one("settings.t_end=nan", err, sizeof err) == CLINK_ERR_NONFINITE);
    ENSURE(load_one("revolute_clearance.clearance=-1e-4", err, sizeof err) == CLINK_ERR_RANGE);
}

TEST(malformed_overrides_are_refused_with_a_reason_and_nothing_built)
{
    static const char *const bad[] = {"",
                                      "=",
                                      "=1",
                                      "settings.=1",
                                      ".t_end=1",
                                      "a[b=1",
                                      "a[b].=1",
                                      "a[].x=1",
                                      "a[b]x=1",
                                      "settings..t_end=1",
                                      "1x.y=2",
                                      "settings.t_end=",
                                      "settings.t end=1",
                                      "a.b.c.d.e.f.g.h.i.j=1",
                                      "settings.t_end=1 2 x",
                                      "settings.t_end=0x",
                                      "mechanism[x].angle_unit=deg",
                                      "law[x].e=0.5",
                                      NULL};
    char err[512], long_set[400];
    int i;

    for (i = 0; bad[i] != NULL; i++) {
        clink_status st = load_one(bad[i], err, sizeof err);
        ENSURE(st != CLINK_OK);
        ENSURE(strstr(err, "override '") != NULL);
        if (st == CLINK_OK || strstr(err, "override '") == NULL)
            fprintf(stderr, "  '%s': %s\n", bad[i], err);
    }
    memset(long_set, 'a', sizeof long_set - 1);
    long_set[sizeof long_set - 1] = '\0';
    long_set[10] = '.';
    long_set[20] = '=';
    ENSURE(load_one(long_set, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(strstr(err, "longer than 255 bytes") != NULL);
    /* a NULL list with a count, a negative count */
    {
        clink_model *m = NULL;
        ENSURE(clink_xml_load_with(CLEARANCE, NULL, 2, NULL, &m, NULL, err, sizeof err) ==
               CLINK_ERR_ARG);
        ENSURE(clink_xml_load_with(CLEARANCE, NULL, -1, NULL, &m, NULL, err, sizeof err) ==
               CLINK_ERR_ARG);
        ENSURE(m == NULL);
    }
}
