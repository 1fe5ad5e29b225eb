/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tests of the reader's unit hints (src/xml/xml_hints.c): an angle above 2 pi
 * without angle_unit, a Young's modulus below 1 MPa, a length above 10 L or a
 * clearance above 0.1 L are warned as "FILE:LINE: ..." and kept by the model
 * (clink_model_warning), the load still succeeds; the same files in range, or
 * in degrees, give none, and no model of models/ gives one.
 */
#include "clink/model.h"
#include "clink/xml.h"

#include "ensure.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

/* a ball on a floor; %s are the <mechanism> attributes, the ball's phi, the material's E,
   the circle's radius and the law's attributes */
static const char ball_fmt[] =
    "<mechanism name=\"h\"%s>\n"                                             /* 1 */
    "  <materials><material name=\"m\" E=\"%s\" nu=\"0.3\"/></materials>\n"  /* 2 */
    "  <bodies>\n"                                                           /* 3 */
    "    <body name=\"ball\" mass=\"1\" inertia=\"0.01\" x=\"0\" y=\"0.5\" " /* 4 */
    "phi=\"%s\"/>\n"                                                         /* 4 */
    "  </bodies>\n"                                                          /* 5 */
    "  <contacts>\n"                                                         /* 6 */
    "    <pair name=\"floor\">\n"                                            /* 7 */
    "      <circle body=\"ball\" radius=\"%s\" material=\"m\"/>\n"           /* 8 */
    "      <line body=\"ground\" point=\"0 0\" normal=\"0 1\"/>\n"           /* 9 */
    "      <law name=\"hertz\" K=\"1e9\"/>\n"                                /* 10 */
    "    </pair>\n"                                                          /* 11 */
    "  </contacts>\n"                                                        /* 12 */
    "</mechanism>\n";

/* loads the ball with these values; the warnings' count, the first into first (may be "") */
static int ball_warnings(const char *mech, const char *E, const char *phi, const char *radius,
                         char *first, size_t size)
{
    char doc[2048], err[512];
    clink_model *m = NULL;
    int n;

    snprintf(doc, sizeof doc, ball_fmt, mech, E, phi, radius);
    if (clink_xml_load_memory(doc, strlen(doc), "ball.xml", &m, NULL, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    n = clink_model_warning_count(m);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "  warning: %s\n", clink_model_warning(m, i));
    snprintf(first, size, "%s", n > 0 ? clink_model_warning(m, 0) : "");
    if (clink_model_warning(m, n) != NULL || clink_model_warning(m, -1) != NULL)
        n = -2; /* out of range must be NULL */
    clink_model_destroy(&m);
    return n;
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

TEST(an_angle_above_two_pi_without_angle_unit_is_warned_with_its_line)
{
    char w[600];

    ENSURE(ball_warnings("", "2.07e11", "90", "0.1", w, sizeof w) == 1);
    ENSURE(starts(w, "ball.xml:4: body 'ball': phi = 90 is above 2 pi"));
    ENSURE(strstr(w, "angle_unit=\"deg\"") != NULL);
    /* in degrees, or in radians within a turn, or said to be radians: nothing */
    ENSURE(ball_warnings(" angle_unit=\"deg\"", "2.07e11", "90", "0.1", w, sizeof w) == 0);
    ENSURE(ball_warnings("", "2.07e11", "-6.28", "0.1", w, sizeof w) == 0);
    ENSURE(ball_warnings(" angle_unit=\"rad\"", "2.07e11", "90", "0.1", w, sizeof w) == 0);
    ENSURE(ball_warnings("", "2.07e11", "-6.3", "0.1", w, sizeof w) == 1);
}

TEST(a_modulus_below_1_mpa_is_warned_with_its_line)
{
    char w[600];

    ENSURE(ball_warnings("", "207", "0", "0.1", w, sizeof w) == 1);
    ENSURE(starts(w, "ball.xml:2: material 'm': E = 207 Pa is below 1 MPa"));
    ENSURE(ball_warnings("", "9.99e5", "0", "0.1", w, sizeof w) == 1);
    ENSURE(ball_warnings("", "1e6", "0", "0.1", w, sizeof w) == 0);
}

TEST(a_radius_above_ten_times_the_mechanism_is_warned_with_the_rule)
{
    char w[600];

    /* L = 0.5 m (the origin and the ball at y = 0.5): 5 m is the bound */
    ENSURE(ball_warnings("", "2.07e11", "0", "50", w, sizeof w) == 1);
    ENSURE(starts(w, "ball.xml:8: <circle>: radius = 50 m is above 10 times the mechanism's "
                     "size L = 0.5 m"));
    ENSURE(ball_warnings("", "2.07e11", "0", "5.01", w, sizeof w) == 1);
    ENSURE(ball_warnings("", "2.07e11", "0", "4.99", w, sizeof w) == 0);
}

TEST(a_clearance_above_a_tenth_of_the_mechanism_is_warned_whether_written_or_of_two_radii)
{
    char path[1024], err[512];
    const char *sets_radii[] = {"revolute_clearance[rod_slider].bearing_radius=0.1"};
    const char *sets_fine[] = {"revolute_clearance[rod_slider].bearing_radius=0.0105"};
    clink_model *m = NULL;

    /* L = 0.17 m (the origin to the slider at 0.17 m): a clearance above 0.017 m is warned */
    snprintf(path, sizeof path, "%s/models/slider_crank_clearance.xml", CLINK_SOURCE_DIR);
    ENSURE(clink_xml_load_with(path, sets_radii, 1, NULL, &m, NULL, err, sizeof err) == CLINK_OK);
    ENSURE(clink_model_warning_count(m) == 1);
    fprintf(stderr, "%s\n", clink_model_warning(m, 0));
    ENSURE(strstr(clink_model_warning(m, 0), "slider_crank_clearance.xml:31: revolute_clearance "
                                             "'rod_slider': clearance = 0.0905 m is above 0.1 of "
                                             "the mechanism's size L = 0.17 m") != NULL);
    clink_model_destroy(&m);
    ENSURE(clink_xml_load_with(path, sets_fine, 1, NULL, &m, NULL, err, sizeof err) == CLINK_OK);
    ENSURE(clink_model_warning_count(m) == 0);
    clink_model_destroy(&m);
}

TEST(no_model_of_models_gives_a_unit_hint)
{
    char dirpath[1024], path[1400], err[512];
    DIR *d;
    struct dirent *e;
    int files = 0;

    snprintf(dirpath, sizeof dirpath, "%s/models", CLINK_SOURCE_DIR);
    d = opendir(dirpath);
    ENSURE(d != NULL);
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        clink_model *m = NULL;
        if (len < 5 || strcmp(e->d_name + len - 4, ".xml") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dirpath, e->d_name);
        ENSURE(clink_xml_load(path, &m, NULL, err, sizeof err) == CLINK_OK);
        for (int i = 0; i < clink_model_warning_count(m); i++)
            fprintf(stderr, "%s\n", clink_model_warning(m, i));
        ENSURE(clink_model_warning_count(m) == 0);
        clink_model_destroy(&m);
        files++;
    }
    closedir(d);
    ENSURE(files >= 20);
    ENSURE(clink_model_warning_count(NULL) == 0);
}
