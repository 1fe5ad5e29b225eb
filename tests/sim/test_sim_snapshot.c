/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * State snapshots (src/sim/sim_snapshot.c): a simulation restored from a snapshot
 * continues bit for bit as the saved one does after the save, on the clearance
 * slider-crank through its impacts (every output row: time, every body's q, v and
 * acceleration, the energies, the contact's information, the impact records, the step
 * count), whether restored into a fresh simulation or into one that ran on; a snapshot
 * of another model, a damaged or truncated buffer and a short save buffer are refused.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROW = 64, ROWS = 600 };

static clink_model *load(const char *name)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/models/%s", CLINK_SOURCE_DIR, name);
    clink_model *m = clink_model_load_xml(path, err, sizeof err);
    if (!m)
        fprintf(stderr, "%s: %s\n", name, err);
    return m;
}

static clink_sim *start(const clink_model *m)
{
    char err[512];
    clink_sim *s = NULL;
    if (clink_sim_create(m, NULL, &s, err, sizeof err) != CLINK_OK)
        fprintf(stderr, "%s\n", err);
    return s;
}

/* one output row of s into row (ROW doubles, unused ones zero) */
static void row_of(const clink_sim *s, double *row)
{
    memset(row, 0, ROW * sizeof(double));
    int j = 0;
    row[j++] = clink_sim_time(s);
    ENSURE(test_body_rows(s, 3, row + j) == 0);
    j += 27;
    clink_energy e;
    ENSURE(clink_sim_energy(s, &e) == CLINK_OK);
    memcpy(row + j, &e, sizeof e);
    j += (int) (sizeof e / sizeof(double));
    clink_contact_info c;
    ENSURE(clink_sim_contact(s, 0, &c) == CLINK_OK);
    double ci[8] = {c.delta,          c.delta_dot,          c.fn, c.ft, c.normal[0], c.normal[1],
                    (double) c.phase, (double) c.persistent};
    memcpy(row + j, ci, sizeof ci);
    j += 8;
    row[j++] = (double) clink_sim_impact_count(s);
    clink_sim_stats st;
    clink_sim_stats_get(s, &st);
    row[j++] = (double) st.steps;
    row[j++] = (double) st.contact_events;
}

/* advances s over the outputs k0 + 1 .. k0 + n of step dt, a row each into rows */
static int run_rows(clink_sim *s, int k0, int n, double dt, double *rows)
{
    for (int i = 0; i < n; i++) {
        if (clink_sim_advance(s, (double) (k0 + i + 1) * dt) != CLINK_OK) {
            fprintf(stderr, "%s\n", clink_sim_error(s));
            return -1;
        }
        row_of(s, rows + (size_t) i * ROW);
    }
    return 0;
}

/* the number of rows where a and b differ in a bit (the first reported) */
static int rows_differ(const double *a, const double *b, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (memcmp(a + (size_t) i * ROW, b + (size_t) i * ROW, ROW * sizeof(double)) != 0) {
            if (!bad)
                fprintf(stderr, "row %d differs (t = %.17g vs %.17g)\n", i, a[(size_t) i * ROW],
                        b[(size_t) i * ROW]);
            bad++;
        }
    return bad;
}

/* the impact records of a and b, the same bits */
static int same_records(const clink_sim *a, const clink_sim *b)
{
    int n = clink_sim_impact_count(a);
    if (n != clink_sim_impact_count(b))
        return 0;
    for (int i = 0; i < n; i++) {
        clink_impact_record ra, rb;
        if (clink_sim_impact(a, i, &ra) != CLINK_OK || clink_sim_impact(b, i, &rb) != CLINK_OK ||
            memcmp(&ra, &rb, sizeof ra) != 0)
            return 0;
    }
    return 1;
}

TEST(a_restored_clearance_slider_crank_continues_bit_for_bit_through_impacts)
{
    clink_model *m = load("slider_crank_clearance.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    const double dt = 1e-5;
    const int k_save = 400; /* t = 4 ms: the journal has hit the bearing already */
    clink_sim *a = start(m);
    double *rows_a = calloc((size_t) ROWS * ROW, sizeof(double));
    double *rows_b = calloc((size_t) ROWS * ROW, sizeof(double));
    double *rows_c = calloc((size_t) ROWS * ROW, sizeof(double));
    ENSURE(a && rows_a && rows_b && rows_c);
    for (int k = 1; k <= k_save; k++)
        ENSURE(clink_sim_advance(a, (double) k * dt) == CLINK_OK);
    int impacts_at_save = clink_sim_impact_count(a);
    size_t n = clink_sim_state_size(a);
    unsigned char *buf = malloc(n);
    ENSURE(n > 0 && buf != NULL);
    ENSURE(clink_sim_state_save(a, buf, n) == CLINK_OK);
    ENSURE(run_rows(a, k_save, ROWS, dt, rows_a) == 0);
    /* impacts happen after the save, so the continuation goes through them */
    ENSURE(clink_sim_impact_count(a) > impacts_at_save + 2);

    /* into a fresh simulation */
    clink_sim *b = start(m);
    ENSURE(b != NULL);
    ENSURE(clink_sim_state_restore(b, buf, n) == CLINK_OK);
    ENSURE(clink_sim_time(b) == (double) k_save * dt);
    ENSURE(clink_sim_impact_count(b) == impacts_at_save);
    ENSURE(run_rows(b, k_save, ROWS, dt, rows_b) == 0);
    ENSURE(rows_differ(rows_a, rows_b, ROWS) == 0);
    ENSURE(same_records(a, b));

    /* into the saved simulation itself, after it ran on */
    ENSURE(clink_sim_state_restore(a, buf, n) == CLINK_OK);
    ENSURE(run_rows(a, k_save, ROWS, dt, rows_c) == 0);
    ENSURE(rows_differ(rows_a, rows_c, ROWS) == 0);
    ENSURE(same_records(a, b));
    clink_sim_destroy(&a);
    clink_sim_destroy(&b);
    free(buf);
    free(rows_a);
    free(rows_b);
    free(rows_c);
    clink_model_destroy(&m);
}

TEST(a_snapshot_of_another_model_or_a_damaged_one_is_refused)
{
    clink_model *m = load("slider_crank_clearance.xml");
    clink_model *other = load("slider_crank_clearance_frictionless.xml");
    clink_model *plain = load("slider_crank.xml");
    ENSURE(m && other && plain);
    if (!m || !other || !plain)
        return;
    clink_sim *a = start(m), *b = start(other), *c = start(plain), *d = start(m);
    ENSURE(a && b && c && d);
    ENSURE(clink_sim_advance(a, 1e-3) == CLINK_OK);
    size_t n = clink_sim_state_size(a);
    unsigned char *buf = malloc(n + 8);
    ENSURE(buf != NULL);
    /* a short buffer: refused, nothing written */
    ENSURE(clink_sim_state_save(a, buf, n - 1) == CLINK_ERR_RANGE);
    ENSURE(clink_sim_state_save(a, NULL, n) == CLINK_ERR_RANGE);
    ENSURE(clink_sim_state_save(a, buf, n + 8) == CLINK_OK);
    /* another model: refused, its state untouched */
    ENSURE(clink_sim_state_restore(b, buf, n) == CLINK_ERR_MODEL);
    ENSURE(strstr(clink_sim_error(b), "another model") != NULL);
    ENSURE(clink_sim_time(b) == 0.0);
    ENSURE(clink_sim_state_restore(c, buf, n) == CLINK_ERR_MODEL);
    /* truncated, damaged, not a snapshot */
    ENSURE(clink_sim_state_restore(d, buf, n - 1) == CLINK_ERR_PARSE);
    buf[n / 2] ^= 0x10;
    ENSURE(clink_sim_state_restore(d, buf, n) == CLINK_ERR_PARSE);
    ENSURE(strstr(clink_sim_error(d), "damaged") != NULL);
    buf[n / 2] ^= 0x10;
    buf[0] = 'X';
    ENSURE(clink_sim_state_restore(d, buf, n) == CLINK_ERR_PARSE);
    buf[0] = 'C';
    ENSURE(clink_sim_time(d) == 0.0);
    ENSURE(clink_sim_state_restore(d, buf, n) == CLINK_OK);
    ENSURE(clink_sim_time(d) == 1e-3);
    ENSURE(clink_sim_state_restore(NULL, buf, n) == CLINK_ERR_ARG);
    ENSURE(clink_sim_state_size(NULL) == 0);
    clink_sim_destroy(&a);
    clink_sim_destroy(&b);
    clink_sim_destroy(&c);
    clink_sim_destroy(&d);
    free(buf);
    clink_model_destroy(&m);
    clink_model_destroy(&other);
    clink_model_destroy(&plain);
}

/* FNV-1a 64 of n bytes (Fowler, Noll and Vo), the snapshot header's checksum of its data */
static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* a snapshot whose header and checksum are right but whose data do not fit (its output
   contact list counted one longer than it is) is refused, and the simulation it was given
   to continues bit for bit as its twin that was never given it */
TEST(a_refused_restore_leaves_the_simulation_unchanged)
{
    clink_model *m = load("slider_crank_clearance.xml");
    clink_sim *a = m ? start(m) : NULL, *b = m ? start(m) : NULL, *c = m ? start(m) : NULL;
    ENSURE(a && b && c);
    if (!a || !b || !c)
        return;
    const double dt = 1e-5;
    ENSURE(clink_sim_advance(a, 100 * dt) == CLINK_OK);
    size_t n = clink_sim_state_size(a);
    unsigned char *buf = malloc(n);
    ENSURE(buf && clink_sim_state_save(a, buf, n) == CLINK_OK);
    ENSURE(clink_sim_advance(b, 200 * dt) == CLINK_OK &&
           clink_sim_advance(c, 200 * dt) == CLINK_OK);
    /* the header (48 bytes), the layout (8 ints), the levels (5 ints: the list's length is
       the fourth); then the checksum of everything after the header, at byte 40 */
    const size_t list_at = 48 + 8 * sizeof(int) + 3 * sizeof(int);
    int len;
    memcpy(&len, buf + list_at, sizeof len);
    ENSURE(len == 0);
    len = 1;
    memcpy(buf + list_at, &len, sizeof len);
    uint64_t sum = fnv1a(buf + 48, n - 48);
    memcpy(buf + 40, &sum, sizeof sum);
    ENSURE(clink_sim_state_restore(b, buf, n) == CLINK_ERR_PARSE);
    ENSURE(strstr(clink_sim_error(b), "do not fit") != NULL);
    ENSURE(clink_sim_time(b) == 200 * dt);
    double *rb = calloc(ROW * 100, sizeof(double)), *rc = calloc(ROW * 100, sizeof(double));
    ENSURE(rb && rc);
    ENSURE(run_rows(b, 200, 100, dt, rb) == 0 && run_rows(c, 200, 100, dt, rc) == 0);
    ENSURE(rows_differ(rb, rc, 100) == 0);
    ENSURE(same_records(b, c));
    free(rb);
    free(rc);
    free(buf);
    clink_sim_destroy(&a);
    clink_sim_destroy(&b);
    clink_sim_destroy(&c);
    clink_model_destroy(&m);
}

/* every body's q and v, the energies, every contact's force, penetration and phase, the
   impact count: n doubles into row (NULL: only counted); returns n */
static int wide_row(const clink_sim *s, const clink_model *m, double *row)
{
    int n = 0, nb = clink_model_count(m, CLINK_ENTITY_BODY), nc = clink_sim_contact_count(s);
    for (int b = 1; b < nb; b++, n += 6)
        if (row)
            ENSURE(clink_sim_body_state(s, b, row + n, row + n + 3) == CLINK_OK);
    clink_energy e;
    if (row) {
        ENSURE(clink_sim_energy(s, &e) == CLINK_OK);
        memcpy(row + n, &e, sizeof e);
    }
    n += (int) (sizeof e / sizeof(double));
    for (int k = 0; k < nc; k++, n += 3) {
        clink_contact_info c;
        if (row && clink_sim_contact(s, k, &c) == CLINK_OK) {
            row[n] = c.fn;
            row[n + 1] = c.delta;
            row[n + 2] = (double) c.phase;
        }
    }
    if (row)
        row[n] = (double) clink_sim_impact_count(s);
    return n + 1;
}

/* a run of `name` saved at output k_save (step dt), continued over `rows` outputs, against a
   fresh simulation restored from the snapshot: the number of rows that differ (-1 if a run
   failed) */
static int continue_alike(const char *name, double dt, int k_save, int rows)
{
    clink_model *m = load(name);
    clink_sim *a = m ? start(m) : NULL, *b = m ? start(m) : NULL;
    if (!a || !b)
        return -1;
    int w = wide_row(a, m, NULL), bad = -1;
    double *ra = calloc((size_t) (w * rows), sizeof(double));
    double *rb = calloc((size_t) (w * rows), sizeof(double));
    unsigned char *buf = NULL;
    int k = 1;
    for (; ra && rb && k <= k_save; k++)
        if (clink_sim_advance(a, (double) k * dt) != CLINK_OK)
            break;
    size_t n = clink_sim_state_size(a);
    if (k > k_save && (buf = malloc(n)) != NULL && clink_sim_state_save(a, buf, n) == CLINK_OK &&
        clink_sim_state_restore(b, buf, n) == CLINK_OK) {
        bad = 0;
        for (int i = 0; i < rows && bad >= 0; i++) {
            double t = (double) (k_save + i + 1) * dt;
            if (clink_sim_advance(a, t) != CLINK_OK || clink_sim_advance(b, t) != CLINK_OK) {
                bad = -1;
                break;
            }
            wide_row(a, m, ra + (size_t) i * (size_t) w);
            wide_row(b, m, rb + (size_t) i * (size_t) w);
            bad += memcmp(ra + (size_t) i * (size_t) w, rb + (size_t) i * (size_t) w,
                          (size_t) w * sizeof(double)) != 0;
        }
    }
    free(buf);
    free(ra);
    free(rb);
    clink_sim_destroy(&a);
    clink_sim_destroy(&b);
    clink_model_destroy(&m);
    return bad;
}

TEST(restored_simulations_of_other_methods_and_contacts_continue_bit_for_bit)
{
    /* BDF with projection and a contact pair */
    ENSURE(continue_alike("double_pendulum_impact.xml", 1e-3, 700, 600) == 0);
    /* a granular chain: many contacts at rest and in the wave (the memos) */
    ENSURE(continue_alike("granular_chain.xml", 1e-6, 150, 250) == 0);
    /* a translational clearance joint */
    ENSURE(continue_alike("slider_crank_translational_clearance.xml", 1e-5, 300, 400) == 0);
    /* BDF's Newton system in the saddle form (120 bars: src/dynamics/newton_saddle.c) */
    ENSURE(continue_alike("hanging_chain.xml", 0.01, 20, 25) == 0);
}

/* the stiff film (models/slider_crank_lubricated_stiff.xml) under auto from its settings,
   advanced to t (an error printed on failure); NULL on failure */
static clink_sim *auto_film(const clink_model *m, clink_method method, double t)
{
    char err[512];
    clink_settings_def set = clink_model_settings(m);
    set.method = method;
    clink_sim *s = NULL;
    if (clink_sim_create(m, &set, &s, err, sizeof err) != CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    if (t > 0.0 && clink_sim_advance(s, t) != CLINK_OK) {
        fprintf(stderr, "%s\n", clink_sim_error(s));
        clink_sim_destroy(&s);
    }
    return s;
}

/* the largest differences of the bodies' coordinates (m, rad) and rates (m/s, rad/s) of a
   and b into dq, dv */
static void body_gap(const clink_sim *a, const clink_sim *b, double *dq, double *dv)
{
    for (int k = 1; k <= 3; k++) {
        double qa[3], va[3], qb[3], vb[3];
        ENSURE(clink_sim_body_state(a, k, qa, va) == CLINK_OK);
        ENSURE(clink_sim_body_state(b, k, qb, vb) == CLINK_OK);
        for (int i = 0; i < 3; i++) {
            *dq = fmax(*dq, fabs(qa[i] - qb[i]));
            *dv = fmax(*dv, fabs(va[i] - vb[i]));
        }
    }
}

/* With method auto the stiff film switches to BDF at t = 0.6 us (docs/kernel.md, "Switched
   while running"). A snapshot saved at 1 ms records BDF; a fresh auto simulation (on Adams
   from the rule) takes it: its integrator is re-created with BDF, and the run continues on
   BDF to 4 ms. The saved run restarts its integrator at the save too, but from its own
   (reinitialised) CVODE object and with its switcher's measurements, so the two agree within
   the integrator's tolerances (rtol 1e-9), not bit for bit: measured over 30 outputs from 1 to
   4 ms, the bodies' coordinates within 2.2e-9 m (rad) and their rates within 1.1e-6 m/s (rad/s;
   the crank pin moves at 13 m/s); bounded here by 2e-8 m, 1/2500 of the film's 0.05 mm
   clearance, and 1e-5 m/s, 1e-6 of the pin's speed. A simulation with method adams given
   explicitly still refuses the BDF snapshot, says why and changes nothing. */
TEST(an_auto_simulation_takes_the_method_of_a_snapshot_saved_after_a_switch)
{
    clink_model *m = load("slider_crank_lubricated_stiff.xml");
    ENSURE(m != NULL);
    if (!m)
        return;
    clink_sim *a = auto_film(m, CLINK_METHOD_AUTO, 1e-3);
    clink_sim *b = auto_film(m, CLINK_METHOD_AUTO, 0.0);
    clink_sim *c = auto_film(m, CLINK_METHOD_ADAMS, 0.0);
    ENSURE(a && b && c);
    if (!a || !b || !c)
        return;
    ENSURE(clink_sim_settings(a).method == CLINK_METHOD_BDF);
    ENSURE(clink_sim_method_switches(a, NULL, 0) >= 1);
    ENSURE(clink_sim_settings(b).method == CLINK_METHOD_ADAMS);
    size_t n = clink_sim_state_size(a);
    unsigned char *buf = malloc(n);
    ENSURE(buf && clink_sim_state_save(a, buf, n) == CLINK_OK);
    /* explicit Adams: refused, nothing changed */
    ENSURE(clink_sim_state_restore(c, buf, n) == CLINK_ERR_MODEL);
    ENSURE(strstr(clink_sim_error(c), "saved with method bdf") != NULL);
    ENSURE(clink_sim_time(c) == 0.0 && clink_sim_settings(c).method == CLINK_METHOD_ADAMS);
    /* auto: restored on BDF */
    ENSURE(clink_sim_state_restore(b, buf, n) == CLINK_OK);
    ENSURE(clink_sim_settings(b).method == CLINK_METHOD_BDF);
    ENSURE(clink_sim_time(b) == clink_sim_time(a));
    double dq = 0.0, dv = 0.0;
    for (int k = 1; k <= 30; k++) {
        double t = 1e-3 + 1e-4 * (double) k;
        ENSURE(clink_sim_advance(a, t) == CLINK_OK);
        ENSURE(clink_sim_advance(b, t) == CLINK_OK);
        body_gap(a, b, &dq, &dv);
    }
    fprintf(stderr, "restored against saved run, 1 to 4 ms: |dq| <= %.3g, |dv| <= %.3g\n", dq, dv);
    ENSURE(dq <= 2e-8 && dv <= 1e-5);
    ENSURE(clink_sim_settings(a).method == CLINK_METHOD_BDF);
    ENSURE(clink_sim_settings(b).method == CLINK_METHOD_BDF);
    free(buf);
    clink_sim_destroy(&a);
    clink_sim_destroy(&b);
    clink_sim_destroy(&c);
    clink_model_destroy(&m);
}
