/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * src/wear/ (include/clink/wear.h, docs/wear.md): the low-pass of a grid; a run observed for
 * wear is the same run, bit for bit, as the run of the model without <wear>; the worn bore
 * fed back moves the journal (a uniformly worn bore is a larger circle: the loaded journal
 * settles deeper by the depth); the refusals of clink_model_set_worn_bore and
 * clink_wear_create.
 */
#define _POSIX_C_SOURCE 200809L

#include "ensure.h"

#include "clink/wear.h"
#include "clink/xml.h"
#include "wear/wear_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* the guide's low-pass (wear_guide_smooth) is not periodic: a constant is kept at every knot,
   the end knots included (the window renormalised over the cells inside the guide); wear at
   one end does not reach the knot of the other; a linear ramp is kept at the inner knots (a
   symmetric window on cells symmetric about the knot: 300 cells, 31 knots 10 cells apart) */
TEST(wear_guide_smooth_keeps_a_constant_and_a_ramp_and_does_not_wrap_the_ends)
{
    double g[300], k[31];
    for (int i = 0; i < 300; i++)
        g[i] = 3e-6;
    ENSURE(wear_guide_smooth(g, 300, 31, k) == 0);
    for (int j = 0; j < 31; j++)
        ENSURE_NEAR(k[j], 3e-6, 1e-20);
    memset(g, 0, sizeof g);
    g[299] = 1.0;
    ENSURE(wear_guide_smooth(g, 300, 31, k) == 0);
    ENSURE(k[30] > 0.0 && k[29] > 0.0 && k[28] == 0.0 && k[0] == 0.0);
    for (int i = 0; i < 300; i++)
        g[i] = (i + 0.5) / 300.0;
    ENSURE(wear_guide_smooth(g, 300, 31, k) == 0);
    for (int j = 1; j < 30; j++)
        ENSURE_NEAR(k[j], j / 30.0, 1e-12);
    ENSURE(k[0] > 0.0 && k[30] < 1.0); /* the ends: one-sided means, inside the guide */
    ENSURE(wear_guide_smooth(g, 300, 1, k) == -1);
    ENSURE(wear_guide_smooth(g, 20, 31, k) == -1);
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

/* models/journal_bearing_worn.xml gives a bore worn by 20 um and a pin by 10 um (uniformly):
   its journal settles 30 um below the unworn joint's (within the unworn test's 1e-11 m) */
TEST(a_worn_bore_and_pin_given_in_the_file_lower_the_loaded_journal_by_both_depths)
{
    char err[512];
    double q[3];
    clink_model *m = clink_model_load_xml(MODELS "journal_bearing_worn.xml", err, sizeof err);
    clink_sim *sim = NULL;
    clink_clearance_joint_def d;
    ENSURE(m != NULL);
    ENSURE(clink_model_clearance_joint(m, 0, &d) == CLINK_OK);
    ENSURE(d.wear.nknots == 12 && d.wear.pin_nknots == 12 && d.wear.pin_depth[3] == 10e-6);
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.05) == CLINK_OK);
    clink_sim_body_state(sim, 1, q, NULL);
    ENSURE_NEAR(q[1] - journal_height(0.0), -30e-6, 1e-11);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
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

/* row `update` of DIR/wear_profile.csv for surface s ("bore", "journal") into g; its cells */
static int profile_row(const char *dir, int update, const char *s, double *g, int max)
{
    char path[512], line[200000], want[64];
    snprintf(path, sizeof path, "%s/wear_profile.csv", dir);
    snprintf(want, sizeof want, "%d,", update);
    FILE *f = fopen(path, "r");
    int n = 0;
    ENSURE(f != NULL);
    while (f && fgets(line, sizeof line, f)) {
        char *p = line, *end;
        if (strncmp(line, want, strlen(want)) != 0 || !strstr(line, s))
            continue;
        for (int k = 0; k < 5; k++) /* update, cycles, joint, surface, cells */
            p = strchr(p, ',') + 1;
        for (double v = strtod(p, &end); end != p && n < max; v = strtod(p, &end)) {
            g[n++] = v;
            p = *end == ',' ? end + 1 : end;
        }
    }
    if (f)
        fclose(f);
    return n;
}

/*
 * The life run feeds both worn surfaces back (docs/wear.md, "The worn pin"): the journal of
 * models/journal_bearing_wear.xml under its constant load, with E* = 1e7 Pa (an override:
 * a strip of half-width 15 mm, so that the bore's groove is wide and smooth) over 9000 cycles
 * (3 updates). In the last update the journal hangs at c + D_b + D_p + m g / K below the bore
 * centre: D_b the worn bore's depth at -90 deg (its knot 27 of 36, the low-pass of the
 * previous update's grid; 20 um), D_p the worn pin's (the journal turns: its mean knot, 8 um;
 * uniform within 2e-3, validation (a)), m g / K = 98.1 / 1e8 m. Without the pin fed back the
 * journal would hang D_p higher; the tolerance is 2e-8 m (the pin's non-uniformity, 2e-3 of
 * 8 um; measured 3e-13 m).
 */
TEST(a_life_run_feeds_back_the_worn_bore_and_the_worn_pin)
{
    char dir[] = "/tmp/clink-wear-life-XXXXXX", err[512], path[600], line[256];
    const char *sets[] = {"revolute_clearance[bearing].wear.modulus=1e7"};
    static double g[4096];
    double kb[36], kp[36], sum = 0.0, dp = 0.0;
    int rows = 0;
    ENSURE(mkdtemp(dir) != NULL);
    clink_wear_options o;
    clink_wear_options_init(&o);
    o.cycles = 9000;
    o.sets = sets;
    o.nsets = 1;
    o.quiet = 1;
    ENSURE(clink_wear_life(MODELS "journal_bearing_wear.xml", dir, &o, err, sizeof err) ==
           CLINK_OK);
    ENSURE(profile_row(dir, 1, "bore", g, 4096) == 4096);
    ENSURE(clink_wear_smooth(g, 4096, 36, kb) == CLINK_OK);
    ENSURE(profile_row(dir, 1, "journal", g, 4096) == 4096);
    ENSURE(clink_wear_smooth(g, 4096, 36, kp) == CLINK_OK);
    for (int j = 0; j < 36; j++)
        dp += kp[j] / 36.0;
    ENSURE(kb[27] > 1.5e-5 && dp > 5e-6);
    snprintf(path, sizeof path, "%s/orbit_00002.csv", dir);
    FILE *f = fopen(path, "r");
    ENSURE(f != NULL);
    while (f && fgets(line, sizeof line, f)) {
        double t, ex, ey;
        int u, joint;
        if (sscanf(line, "%d,%d,%lf,%lf,%lf", &u, &joint, &t, &ex, &ey) == 5 && u == 2)
            sum += hypot(ex, ey), rows++;
    }
    if (f)
        fclose(f);
    ENSURE(rows > 100);
    ENSURE_NEAR(sum / rows, 0.0005 + kb[27] + dp + 98.1 / 1e8, 2e-8);
    const char *names[] = {"wear_updates.csv", "wear_profile.csv", "wear_summary.json",
                           "wear.journal",     "orbit_00000.csv",  "orbit_00001.csv",
                           "orbit_00002.csv"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
    remove(dir);
}

/* the slider's lateral position y in the guide at t = 0.5 s of update u (guide_orbit file) */
static double guide_orbit_y(const char *dir, int u)
{
    char path[600], line[256];
    double y = NAN;
    snprintf(path, sizeof path, "%s/guide_orbit_%05d.csv", dir, u);
    FILE *f = fopen(path, "r");
    ENSURE(f != NULL);
    while (f && fgets(line, sizeof line, f)) {
        double t, x, yy, a;
        int uu, joint;
        if (sscanf(line, "%d,%d,%lf,%lf,%lf,%lf", &uu, &joint, &t, &x, &yy, &a) == 6 &&
            fabs(t - 0.5) < 1e-9)
            y = yy;
    }
    if (f)
        fclose(f);
    return y;
}

/* update u's row of dir/wear_guide_updates.csv: its factor and the lower surface's volume */
static void guide_update_row(const char *dir, int u, double *factor, double *volume)
{
    char path[600], line[1024];
    snprintf(path, sizeof path, "%s/wear_guide_updates.csv", dir);
    FILE *f = fopen(path, "r");
    ENSURE(f != NULL);
    *factor = *volume = NAN;
    while (f && fgets(line, sizeof line, f)) {
        int uu, joint;
        long cycles, fac;
        double vol;
        if (sscanf(line, "%d,%ld,%ld,%d,%lf", &uu, &cycles, &fac, &joint, &vol) == 5 && uu == u)
            *factor = (double) fac, *volume = vol;
    }
    if (f)
        fclose(f);
}

/*
 * The life run of a guide (docs/wear.md, "Life simulation of a guide") against Archard's
 * closed form and with its worn guide fed back: models/guide_wear.xml (1 kg on its two lower
 * corners, F = m g, driven at v = 0.1 m/s, k_D = 1e-13 m^2/N, L = 10 mm) as a cycle of T = 1 s
 * (the pass from x = -0.05 m to 0.05 m, observed from its start, no warm-up, every 1e-4 s as
 * validation/val_wear_guide.c: the corners a quarter of an observation's travel off the cell
 * boundaries), 3e5 cycles in 3 updates (each f = 0.02 c / (k_D F / L), about 1e5).
 * Update 0, on the flat guide: the lower surface's worn volume f k_D F v T within 1e-5 (the
 * start's settling, 5 ms, is observed: measured 3.3e-6) and the depth of every cell both
 * corners pass whole, away from the start (|x| < 25 mm), f k_D F / L within 1e-5.
 * Over the life, the guide worn and fed back: the same with N = 3e5 cycles within 1e-3 and
 * 5e-3 (measured 1.3e-4 and 1.7e-3: on the worn band's low-passed profile the slider tilts
 * slightly and shifts load between its corners, which pass a cell at different times); the
 * upper surface unworn. The feedback: in update 2 the slider at mid-pass (t = 0.5 s, its
 * corners at x = +-0.02 m, inside the band) sits lower than in update 0 by the band's depth
 * after update 1, within 1e-3 (the low-pass and spline of a band 60 mm wide with 5.7 mm
 * between knots; measured 2e-5).
 */
TEST(a_guide_worn_over_a_life_follows_archard_and_is_fed_back)
{
    char dir[] = "/tmp/clink-wear-guide-life-XXXXXX", err[512], path[600];
    static double g[400];
    const double F = 9.81, kd = 1e-13, L = 0.01, v = 0.1;
    ENSURE(mkdtemp(dir) != NULL);
    clink_wear_options o;
    clink_wear_options_init(&o);
    o.cycles = 300000;
    o.period = 1.0;
    o.warmup = 0;
    o.observe = 1;
    o.samples = 10000;
    o.quiet = 1;
    ENSURE(clink_wear_life(MODELS "guide_wear.xml", dir, &o, err, sizeof err) == CLINK_OK);
    double f0, v0, f2, v2;
    guide_update_row(dir, 0, &f0, &v0);
    guide_update_row(dir, 2, &f2, &v2);
    ENSURE(f0 > 5e4 && f0 < 3e5);
    printf("worn volume against Archard's: update 0 %.2g, the life %.2g\n",
           v0 / (f0 * kd * F * v) - 1.0, v2 / (3e5 * kd * F * v) - 1.0);
    ENSURE_NEAR(v0 / (f0 * kd * F * v * 1.0), 1.0, 1e-5);
    ENSURE_NEAR(v2 / (3e5 * kd * F * v * 1.0), 1.0, 1e-3);
    const double tol[2] = {1e-5, 5e-3}, cycles[2] = {f0, 3e5};
    for (int u = 0; u < 2; u++) {
        int n = profile_row(dir, 2 * u, "guide_lower", g, 400);
        double worst = 0.0;
        ENSURE(n == 200);
        for (int i = 0; i < n; i++)
            if (fabs(0.2 * ((i + 0.5) / n - 0.5)) < 0.025)
                worst = fmax(worst, fabs(g[i] / (cycles[u] * kd * F / L) - 1.0));
        printf("update %d: the band's depth within %.2g of Archard's\n", 2 * u, worst);
        ENSURE(worst < tol[u]);
    }
    ENSURE(profile_row(dir, 2, "guide_upper", g, 400) == 200);
    for (int i = 0; i < 200; i++)
        ENSURE(g[i] == 0.0);
    ENSURE(profile_row(dir, 1, "guide_lower", g, 400) == 200);
    double d1 = g[100], y0 = guide_orbit_y(dir, 0), y2 = guide_orbit_y(dir, 2);
    printf("fed back: the slider %.6g m lower, the band %.6g m deep\n", y0 - y2, d1);
    ENSURE(fabs((y0 - y2) / d1 - 1.0) < 1e-3);
    const char *names[] = {
        "wear_guide_updates.csv", "wear_profile.csv",      "wear_summary.json",    "wear.journal",
        "guide_orbit_00000.csv",  "guide_orbit_00001.csv", "guide_orbit_00002.csv"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
    remove(dir);
}

TEST(worn_pins_through_the_wall_negative_or_flatter_than_the_bore_are_refused)
{
    char err[512];
    double knots[36];
    clink_model *m = clink_model_load_xml(MODELS "slider_crank_wear.xml", err, sizeof err);
    ENSURE(m != NULL);
    for (int i = 0; i < 36; i++)
        knots[i] = i == 5 ? 2e-3 : 1e-4; /* the wall is 2 mm */
    ENSURE(clink_model_set_worn_pin(m, 0, 36, knots, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strstr(err, "worn through") != NULL);
    /* a flat of 0.3 mm over one knot spacing: flatter than the bore */
    for (int i = 0; i < 36; i++)
        knots[i] = i == 5 ? 3e-4 : 0.0;
    ENSURE(clink_model_set_worn_pin(m, 0, 36, knots, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strstr(err, "largest radius of curvature") != NULL);
    knots[5] = -1e-6;
    ENSURE(clink_model_set_worn_pin(m, 0, 36, knots, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(clink_model_set_worn_pin(m, 0, 7, knots, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(clink_model_set_worn_pin(m, 1, 36, knots, err, sizeof err) == CLINK_ERR_ARG);
    /* a uniform wear is accepted, and undone by 0 knots */
    for (int i = 0; i < 36; i++)
        knots[i] = 2e-5;
    ENSURE(clink_model_set_worn_pin(m, 0, 36, knots, err, sizeof err) == CLINK_OK);
    ENSURE(clink_model_set_worn_pin(m, 0, 0, NULL, err, sizeof err) == CLINK_OK);
    clink_model_destroy(&m);
}

/*
 * The two pressures Archard's law can be fed with (docs/wear.md): their total load over the
 * strip, L times the integral of p(x) by Simpson's rule on 20000 intervals (independent of
 * the closed-form primitives the grid uses), is the contact force: within 1e-9 for the
 * elastic foundation's parabola (Simpson is exact on it but for rounding), within 1e-5 for
 * Hertz's ellipse (its square-root edges cost Simpson's rule about 1e-6 here). And the
 * foundation's half-width follows F = (2 / 3) L (E* / b) a^3 / R*: four times the force, a
 * 4^(1/3) times wider strip; Hertz's, a twice wider.
 */
TEST(the_hertz_and_winkler_pressures_carry_the_contact_force)
{
    const double F = 98.1, Rs = 0.19, L = 0.01, Es = 1.137e11, b = 1e-3;
    for (int winkler = 0; winkler < 2; winkler++) {
        double a = wear_half_width(winkler, F, Rs, L, Es, b), sum = 0.0;
        for (int i = 0; i <= 20000; i++) {
            double x = -a + 2.0 * a * i / 20000;
            double wt = (i == 0 || i == 20000) ? 1.0 : (i % 2 ? 4.0 : 2.0);
            sum += wt * wear_pressure(winkler, F, Rs, L, Es, b, x);
        }
        sum *= 2.0 * a / 20000 / 3.0;
        ENSURE_REL(L * sum, F, winkler ? 1e-9 : 1e-5);
        ENSURE(wear_pressure(winkler, F, Rs, L, Es, b, 1.0001 * a) == 0.0);
        ENSURE_REL(wear_half_width(winkler, 4.0 * F, Rs, L, Es, b) / a, winkler ? cbrt(4.0) : 2.0,
                   1e-14);
    }
    /* the foundation's peak 3 F / (4 a L) */
    double a = wear_half_width(1, F, Rs, L, Es, b);
    ENSURE_REL(wear_pressure(1, F, Rs, L, Es, b, 0.0), 3.0 * F / (4.0 * a * L), 1e-14);
}

/* the slider's height in models/guide_wear.xml at t with its lower guide surface worn by D
   (uniformly, 12 knots; 0: flat) */
static double slider_height(double D, double t)
{
    char err[512];
    double lower[12], upper[12], q[3];
    clink_model *m = clink_model_load_xml(MODELS "guide_wear.xml", err, sizeof err);
    clink_sim *sim = NULL;
    ENSURE(m != NULL);
    for (int i = 0; i < 12; i++)
        lower[i] = D, upper[i] = 0.0;
    if (D > 0.0)
        ENSURE(clink_model_set_worn_guide(m, 0, 12, lower, upper, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, t) == CLINK_OK);
    clink_sim_body_state(sim, 1, q, NULL);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return q[1];
}

/* the worn guide is the corners' contact surface: a lower surface worn uniformly by 20 um
   lets the sliding slider settle 20 um lower (its spring-dashpot near critical: the drop's
   transient is gone by 0.5 s; within 1e-11 m) */
TEST(a_uniformly_worn_guide_lets_the_sliding_slider_settle_deeper_by_the_depth)
{
    double y0 = slider_height(0.0, 0.5), y1 = slider_height(20e-6, 0.5);
    ENSURE_NEAR(y0, -(0.0005 + 9.81 / 2.0 / 1e7), 1e-11);
    ENSURE_NEAR(y1 - y0, -20e-6, 1e-11);
}

TEST(worn_guides_negative_through_the_wall_or_sharper_than_the_clearance_are_refused)
{
    char err[512];
    double lower[40] = {0}, upper[40] = {0};
    clink_model *m = clink_model_load_xml(MODELS "guide_wear.xml", err, sizeof err);
    ENSURE(m != NULL);
    lower[3] = -1e-6;
    ENSURE(clink_model_set_worn_guide(m, 0, 40, lower, upper, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strstr(err, "out of range") != NULL);
    /* a pit of 20 mm at one knot (5.1 mm apart): h'' ~ 6 h / dx^2 ~ 5e3 1/m, a radius of
       curvature of 0.2 mm, below the clearance of 0.5 mm */
    lower[3] = 0.02;
    ENSURE(clink_model_set_worn_guide(m, 0, 40, lower, upper, err, sizeof err) == CLINK_ERR_RANGE);
    ENSURE(strstr(err, "radius of curvature") != NULL);
    lower[3] = 0.0;
    ENSURE(clink_model_set_worn_guide(m, 0, 1, lower, upper, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(clink_model_set_worn_guide(m, 1, 40, lower, upper, err, sizeof err) == CLINK_ERR_ARG);
    ENSURE(clink_model_set_worn_guide(m, 0, 40, lower, upper, err, sizeof err) == CLINK_OK);
    ENSURE(clink_model_set_worn_guide(m, 0, 0, NULL, NULL, err, sizeof err) == CLINK_OK);
    clink_model_destroy(&m);
}

/* the slider's state (x, y, phi, then velocities) at t of models/guide_worn.xml as the file
   gives it (how 0), with its guide made flat and the same depths given again through
   clink_model_set_worn_guide (how 1), or flat (how 2) */
static void guide_state(int how, double t, double *q)
{
    static const double lower[9] = {0, 0, 0, 4e-6, 1e-5, 4e-6, 0, 0, 0};
    static const double upper[9] = {1e-6, 1e-6, 1e-6, 2e-6, 3e-6, 2e-6, 1e-6, 1e-6, 1e-6};
    char err[512];
    clink_model *m = clink_model_load_xml(MODELS "guide_worn.xml", err, sizeof err);
    clink_translational_clearance_def d;
    clink_sim *sim = NULL;
    ENSURE(m != NULL);
    /* the file's depths, read as written */
    ENSURE(clink_model_translational_clearance(m, 0, &d) == CLINK_OK);
    ENSURE(d.guide_nknots == 9);
    for (int i = 0; i < 9; i++)
        ENSURE(d.guide_depth[0][i] == lower[i] && d.guide_depth[1][i] == upper[i]);
    if (how > 0)
        ENSURE(clink_model_set_worn_guide(m, 0, 0, NULL, NULL, err, sizeof err) == CLINK_OK);
    if (how == 1)
        ENSURE(clink_model_set_worn_guide(m, 0, 9, lower, upper, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, t) == CLINK_OK);
    clink_sim_body_state(sim, 1, q, q + 3);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* a worn guide given in the file (<wear lower_depth upper_depth>) is the one given through
   the API: the slider's state bit for bit at the groove's middle (t = 0.5 s) and at the end;
   and the groove is felt: the slider, centred, sits lower than on the flat guide by the
   groove's depth under its corners at x = +-20 mm, between the knots' 4 and 10 um */
TEST(a_worn_guide_given_in_the_file_runs_bit_for_bit_as_the_one_given_through_the_api)
{
    double a[6], b[6], flat[6];
    const double ts[2] = {0.5, 1.05};
    for (int k = 0; k < 2; k++) {
        guide_state(0, ts[k], a);
        guide_state(1, ts[k], b);
        for (int i = 0; i < 6; i++)
            ENSURE(a[i] == b[i]);
    }
    guide_state(0, 0.5, a);
    guide_state(2, 0.5, flat);
    ENSURE(a[1] - flat[1] < -4e-6 && a[1] - flat[1] > -10e-6);
}
