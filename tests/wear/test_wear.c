/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * src/wear/ (include/clink/wear.h, docs/wear.md): the low-pass of a grid; a run observed for
 * wear is the same run, bit for bit, as the run of the model without <wear>; the worn bore
 * fed back moves the journal (a uniformly worn bore is a larger circle: the loaded journal
 * settles deeper by the depth); the refusals of clink_model_set_worn_bore and
 * clink_wear_create.
 */
#include "ensure.h"

#include "clink/wear.h"
#include "clink/xml.h"

#include <math.h>
#include <string.h>

#define MODELS CLINK_SOURCE_DIR "/models/"

TEST(wear_smooth_keeps_a_constant_and_the_sign_and_damps_a_ripple)
{
    double g[360], k[36];
    for (int i = 0; i < 360; i++)
        g[i] = 2e-6;
    ENSURE(clink_wear_smooth(g, 360, 36, k) == CLINK_OK);
    for (int j = 0; j < 36; j++)
        ENSURE_NEAR(k[j], 2e-6, 1e-20);
    /* a spike stays positive and spreads over one knot spacing either side */
    memset(g, 0, sizeof g);
    g[100] = 1.0;
    ENSURE(clink_wear_smooth(g, 360, 36, k) == CLINK_OK);
    for (int j = 0; j < 36; j++)
        ENSURE(k[j] >= 0.0 && (j == 10 || j == 11 ? k[j] > 0.0 : k[j] == 0.0));
    /* a ripple of 36 cells (one knot spacing) is damped, a long wave kept */
    for (int i = 0; i < 360; i++)
        g[i] = sin(2.0 * 3.141592653589793 * (i + 0.5) / 360.0);
    ENSURE(clink_wear_smooth(g, 360, 36, k) == CLINK_OK);
    ENSURE_NEAR(k[9], 1.0, 0.01);
    ENSURE(clink_wear_smooth(g, 360, 7, k) == CLINK_ERR_ARG);
    ENSURE(clink_wear_smooth(g, 20, 36, k) == CLINK_ERR_ARG);
}

/* the state of body b of a simulation of the file at t after advancing to the 200 times
   T k / 200, observing wear when observe */
static void run_to(const char *file, int observe, double q[3], double v[3])
{
    char err[512];
    clink_model *m = clink_model_load_xml(file, err, sizeof err);
    clink_sim *sim = NULL;
    clink_wear *w = NULL;
    ENSURE(m != NULL);
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    if (observe) {
        ENSURE(clink_wear_create(m, &w, err, sizeof err) == CLINK_OK);
        clink_sim_set_outputs(sim, CLINK_OUTPUT_CONTACTS);
    }
    for (int k = 1; k <= 400; k++) {
        ENSURE(clink_sim_advance(sim, 0.024 * k / 400) == CLINK_OK);
        if (w)
            ENSURE(clink_wear_observe(w, sim) == CLINK_OK);
    }
    if (w)
        ENSURE(clink_wear_volume(w, 0, CLINK_WEAR_BORE) > 0.0);
    clink_sim_body_state(sim, 2, q, v);
    clink_wear_destroy(&w);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_run_observed_for_wear_is_the_run_without_wear_bit_for_bit)
{
    double q1[3], v1[3], q2[3], v2[3];
    run_to(MODELS "slider_crank_clearance.xml", 0, q1, v1);
    run_to(MODELS "slider_crank_wear.xml", 1, q2, v2);
    ENSURE(memcmp(q1, q2, sizeof q1) == 0 && memcmp(v1, v2, sizeof v1) == 0);
}

/* the journal's height after 0.05 s in models/journal_bearing_wear.xml with a uniform worn
   depth D (0: the circular bore); the contact's eccentricity then into ecc (may be NULL) */
static double journal_height_ecc(double D, double ecc[2])
{
    char err[512];
    double knots[36], q[3];
    clink_contact_info c;
    clink_model *m = clink_model_load_xml(MODELS "journal_bearing_wear.xml", err, sizeof err);
    clink_sim *sim = NULL;
    ENSURE(m != NULL);
    for (int i = 0; i < 36; i++)
        knots[i] = D;
    if (D > 0.0)
        ENSURE(clink_model_set_worn_bore(m, 0, 36, knots, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.05) == CLINK_OK);
    clink_sim_body_state(sim, 1, q, NULL);
    ENSURE(clink_sim_contact(sim, 0, &c) == CLINK_OK);
    if (ecc) {
        /* the bore is the ground's, centred at the origin: the offset is the journal's */
        ecc[0] = c.eccentricity[0] - q[0];
        ecc[1] = c.eccentricity[1] - q[1];
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return q[1];
}

static double journal_height(double D)
{
    return journal_height_ecc(D, NULL);
}

TEST(a_worn_bores_eccentricity_is_the_centre_offset_of_journal_and_bore)
{
    /* the rebuilt eccentricity -n (delta + R_b - r) of a circular bore would fall short of
       the offset by the depth, 50 um, on this uniformly worn bore */
    double d[2];
    journal_height_ecc(50e-6, d);
    ENSURE(fabs(d[0]) <= 1e-15 && fabs(d[1]) <= 1e-15);
    /* the circular bore's (rebuilt from the contact): the same to rounding */
    journal_height_ecc(0.0, d);
    ENSURE(fabs(d[0]) <= 1e-15 && fabs(d[1]) <= 1e-15);
}

TEST(a_uniformly_worn_bore_lets_the_loaded_journal_settle_deeper_by_the_depth)
{
    /* the journal rests at -(c + D + m g / K): K = 1e8 N/m, m g = 98.1 N */
    double y0 = journal_height(0.0), y1 = journal_height(50e-6);
    ENSURE_NEAR(y0, -(0.0005 + 98.1 / 1e8), 1e-12);
    ENSURE_NEAR(y1 - y0, -50e-6, 1e-11);
}

TEST(worn_bores_through_the_wall_or_sharper_than_the_journal_are_refused)
{
    char err[512];
    double knots[36];
    clink_model *m = clink_model_load_xml(MODELS "slider_crank_wear.xml", err, sizeof err);
    ENSURE(m != NULL);
    /* the wall is 2 mm */
    for (int i = 0; i < 36; i++)
        knots[i] = i == 5 ? 2e-3 : 1e-4;
    ENSURE(clink_model_set_worn_bore(m, 0, 36, knots, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strstr(err, "wall thickness") != NULL);
    /* a groove of 0.3 mm over one knot spacing: radius of curvature below the journal's */
    for (int i = 0; i < 36; i++)
        knots[i] = i == 5 ? 3e-4 : 0.0;
    ENSURE(clink_model_set_worn_bore(m, 0, 36, knots, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strstr(err, "radius of curvature") != NULL);
    knots[5] = -1e-6;
    ENSURE(clink_model_set_worn_bore(m, 0, 36, knots, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(clink_model_set_worn_bore(m, 0, 7, knots, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(clink_model_set_worn_bore(m, 1, 36, knots, err, sizeof err) == CLINK_ERR_ARG);
    clink_model_destroy(&m);
    /* a model without wear */
    clink_wear *w = NULL;
    m = clink_model_load_xml(MODELS "slider_crank_clearance.xml", err, sizeof err);
    ENSURE(clink_wear_create(m, &w, err, sizeof err) == CLINK_ERR_MODEL && w == NULL);
    ENSURE(strstr(err, "no clearance joint has <wear>") != NULL);
    clink_model_destroy(&m);
}
