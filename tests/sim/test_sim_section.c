/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Poincare sections (src/sim/sim_section.c): observing never changes the answer (the
 * clearance slider-crank through its impacts gives the same rows, bit for bit, with three
 * sections as without); a driver section samples the crank at the times its prescribed
 * angle passes 2 pi k, to CVODE's root tolerance; a state section lands on its level; time
 * samples equal a plain advance's dense interpolation; crossings agree with a tight run;
 * bad definitions are refused.
 */
#include "ensure.h"
#include "test_models.h"

#include <float.h>

#define TWO_PI 6.283185307179586
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { PTS_MAX = 4096, ROW = 64 };

/* what a section callback keeps: time and the state (first 18 of q, v) of each sample */
typedef struct pts {
    int n, nq;
    int section[PTS_MAX];
    long count[PTS_MAX];
    double t[PTS_MAX];
    double y[PTS_MAX][18];
} pts;

static clink_status keep(void *data, int section, long count, double t, const double *y, int nq)
{
    pts *p = data;
    if (p->n >= PTS_MAX)
        return CLINK_ERR_RANGE;
    p->section[p->n] = section;
    p->count[p->n] = count;
    p->t[p->n] = t;
    p->nq = nq;
    for (int i = 0; i < 2 * nq && i < 18; i++)
        p->y[p->n][i] = y[i];
    p->n++;
    return CLINK_OK;
}

/* one output row of the slider-crank (3 bodies) into row */
static void row_of(const clink_sim *s, double *row)
{
    memset(row, 0, ROW * sizeof(double));
    int j = 0;
    row[j++] = clink_sim_time(s);
    ENSURE(test_body_rows(s, 3, row + j) == 0);
    j += 27;
    clink_contact_info c;
    ENSURE(clink_sim_contact(s, 0, &c) == CLINK_OK);
    row[j++] = c.delta;
    row[j++] = c.fn;
}

/* the three sections of the slider-crank: every crank revolution, the rod's angle crossing
   zero either way, every 0.5 ms */
static void add_sections(clink_sim *s, const clink_model *m, pts *p)
{
    clink_section_def d = clink_default_section_def();
    d.kind = CLINK_SECTION_DRIVER;
    d.driver = clink_model_find(m, CLINK_ENTITY_DRIVER, "motor");
    d.period = TWO_PI;
    ENSURE(clink_sim_add_section(s, &d, keep, p, NULL) == CLINK_OK);
    d = clink_default_section_def();
    d.kind = CLINK_SECTION_STATE;
    d.body = clink_model_find(m, CLINK_ENTITY_BODY, "rod");
    d.coordinate = 2;
    d.value = 0.0;
    d.direction = 0;
    ENSURE(clink_sim_add_section(s, &d, keep, p, NULL) == CLINK_OK);
    d = clink_default_section_def();
    d.period = 5e-4;
    d.start = 2.5e-4;
    ENSURE(clink_sim_add_section(s, &d, keep, p, NULL) == CLINK_OK);
}

/* runs the slider-crank to t_end at output step h, rows into rows (n of them), with the
   sections when p is not NULL; the steps and impacts into st */
static int run_crank(double t_end, double h, double *rows, pts *p, clink_sim_stats *st)
{
    clink_model *m = test_model_file("slider_crank_clearance.xml");
    clink_sim *s = test_sim_start(m);
    int n = 0;
    if (s && p)
        add_sections(s, m, p);
    for (int k = 1; s && k * h <= t_end + 1e-12; k++) {
        if (clink_sim_advance(s, k * h) != CLINK_OK) {
            fprintf(stderr, "advance: %s\n", clink_sim_error(s));
            break;
        }
        row_of(s, rows + (size_t) n * ROW);
        n++;
    }
    if (s)
        clink_sim_stats_get(s, st);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
    return n;
}

TEST(poincare_sections_leave_every_row_and_step_of_the_run_bit_identical)
{
    enum { N = 240 };
    double *a = calloc((size_t) N * ROW, sizeof(double));
    double *b = calloc((size_t) N * ROW, sizeof(double));
    pts *p = calloc(1, sizeof *p);
    clink_sim_stats sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    int na = run_crank(0.024, 1e-4, a, NULL, &sa);
    int nb = run_crank(0.024, 1e-4, b, p, &sb);
    ENSURE(na == N && nb == N);
    ENSURE(memcmp(a, b, (size_t) N * ROW * sizeof(double)) == 0);
    ENSURE(sa.steps == sb.steps && sa.rhs_evals == sb.rhs_evals);
    ENSURE(sa.contact_events == sb.contact_events && sa.root_evals == sb.root_evals);
    ENSURE(sa.contact_events > 5); /* the check runs through impacts */
    /* 0.024 s at 523.6 rad/s: 2 crank revolutions; 48 samples of 0.5 ms from 0.25 ms */
    int per[3] = {0, 0, 0};
    for (int i = 0; i < p->n; i++)
        per[p->section[i]]++;
    ENSURE(per[0] == 2);
    ENSURE(per[1] >= 4);
    ENSURE(per[2] == 48);
    free(a);
    free(b);
    free(p);
}

TEST(a_driver_section_samples_each_crank_revolution_at_its_exact_time)
{
    double *rows = calloc((size_t) 500 * ROW, sizeof(double));
    pts *p = calloc(1, sizeof *p);
    clink_sim_stats st;
    run_crank(0.048, 1e-4, rows, p, &st);
    double omega = 523.598775598, T = TWO_PI / omega;
    int k = 0;
    for (int i = 0; i < p->n; i++) {
        if (p->section[i] != 0)
            continue;
        k++;
        ENSURE(p->count[i] == k);
        /* the root tolerance: 100 eps (t + h), h < 1e-4 s */
        ENSURE_NEAR(p->t[i], k * T, 100.0 * DBL_EPSILON * (p->t[i] + 1e-4) + 4 * DBL_EPSILON);
        /* the crank (body 1) has turned k revolutions, to the constraints' violation */
        ENSURE_NEAR(p->y[i][2], TWO_PI * k, 1e-6);
    }
    ENSURE(k == 4);
    free(rows);
    free(p);
}

TEST(a_state_section_lands_on_its_level_in_the_direction_asked_for)
{
    double *rows = calloc((size_t) 500 * ROW, sizeof(double));
    pts *p = calloc(1, sizeof *p);
    clink_sim_stats st;
    run_crank(0.048, 1e-4, rows, p, &st);
    int n = 0;
    for (int i = 0; i < p->n; i++) {
        if (p->section[i] != 1)
            continue;
        n++;
        /* rod (body 2) phi within |omega| times the root tolerance of 0 */
        double w = fabs(p->y[i][p->nq + 5]);
        ENSURE(fabs(p->y[i][5]) <= w * 200.0 * DBL_EPSILON * (p->t[i] + 1e-4) + 1e-15);
    }
    ENSURE(n >= 8); /* twice per revolution */
    free(rows);
    free(p);
}

/* the pendulum of models/pendulum.xml at rtol: the sections' samples (a state section on its
   angle, rising through 0, and a time section of period 0.1 s) and, for each time sample,
   the state a plain advance to that time interpolates */
static int pendulum(double rtol, pts *p, double *adv, int nadv)
{
    clink_model *m = test_model_file("pendulum.xml");
    clink_settings_def set = clink_model_settings(m);
    set.rtol = rtol;
    set.atol = rtol * 1e-2;
    clink_sim *s = NULL, *s2 = NULL;
    char err[256];
    int ok = m && clink_sim_create(m, &set, &s, err, sizeof err) == CLINK_OK &&
             clink_sim_create(m, &set, &s2, err, sizeof err) == CLINK_OK;
    clink_section_def d = clink_default_section_def();
    d.kind = CLINK_SECTION_STATE;
    d.body = 1;
    d.coordinate = 5; /* omega through 0, falling: the turning points on one side */
    d.direction = -1;
    ok = ok && clink_sim_add_section(s, &d, keep, p, NULL) == CLINK_OK;
    d = clink_default_section_def();
    d.period = 0.1;
    ok = ok && clink_sim_add_section(s, &d, keep, p, NULL) == CLINK_OK;
    ok = ok && clink_sim_advance(s, 5.0) == CLINK_OK;
    /* the other simulation: advanced to each time sample (an advance never steers the steps) */
    for (int k = 1; ok && k <= nadv; k++) {
        double q[3], v[3];
        ok = clink_sim_advance(s2, 0.1 * k) == CLINK_OK &&
             clink_sim_body_state(s2, 1, q, v) == CLINK_OK;
        adv[2 * k - 2] = q[2];
        adv[2 * k - 1] = v[2];
    }
    clink_sim_destroy(&s);
    clink_sim_destroy(&s2);
    clink_model_destroy(&m);
    return ok ? 0 : -1;
}

TEST(time_samples_equal_the_dense_interpolation_and_crossings_agree_with_a_tight_run)
{
    pts *p = calloc(1, sizeof *p), *tight = calloc(1, sizeof *tight);
    double adv[40], adv_t[40];
    ENSURE(pendulum(1e-8, p, adv, 19) == 0);
    ENSURE(pendulum(1e-12, tight, adv_t, 19) == 0);
    /* time samples: the same state as an advance to the same time, bit for bit */
    int k = 0;
    for (int i = 0; i < p->n; i++)
        if (p->section[i] == 1 && k < 19) {
            ENSURE_NEAR(p->t[i], 0.1 * (k + 1), 1e-15);
            ENSURE(p->y[i][2] == adv[2 * k] && p->y[i][5] == adv[2 * k + 1]);
            k++;
        }
    ENSURE(k == 19);
    /* the turning points: the same count in both runs, times within the tolerance's effect
       (rtol 1e-8 against 1e-12: 1e-6 s), the angle there to 1e-6 rad */
    int n = 0, nt = 0;
    double tt[64], at[64];
    for (int i = 0; i < tight->n; i++)
        if (tight->section[i] == 0 && nt < 64) {
            tt[nt] = tight->t[i];
            at[nt++] = tight->y[i][2];
        }
    for (int i = 0; i < p->n; i++)
        if (p->section[i] == 0) {
            ENSURE(n < nt);
            if (n < nt) {
                ENSURE_NEAR(p->t[i], tt[n], 1e-6);
                ENSURE_NEAR(p->y[i][2], at[n], 1e-6);
                ENSURE(fabs(p->y[i][5]) < 1e-9);
            }
            n++;
        }
    ENSURE(n == nt && n >= 2);
    free(p);
    free(tight);
}

TEST(bad_sections_are_refused_and_late_ones_too)
{
    clink_model *m = test_model_file("pendulum.xml");
    clink_sim *s = test_sim_start(m);
    clink_section_def d = clink_default_section_def();
    d.period = 0.0;
    ENSURE(clink_sim_add_section(s, &d, keep, NULL, NULL) == CLINK_ERR_ARG);
    ENSURE(strstr(clink_sim_error(s), "period") != NULL);
    d = clink_default_section_def();
    d.kind = CLINK_SECTION_STATE;
    d.body = 7;
    ENSURE(clink_sim_add_section(s, &d, keep, NULL, NULL) == CLINK_ERR_ARG);
    d = clink_default_section_def();
    d.kind = CLINK_SECTION_DRIVER;
    d.period = 1.0;
    d.driver = 3;
    ENSURE(clink_sim_add_section(s, &d, keep, NULL, NULL) == CLINK_ERR_ARG);
    ENSURE(clink_sim_advance(s, 0.01) == CLINK_OK);
    d = clink_default_section_def();
    d.period = 0.1;
    ENSURE(clink_sim_add_section(s, &d, keep, NULL, NULL) == CLINK_ERR_STATE);
    clink_sim_destroy(&s);
    clink_model_destroy(&m);
}

/* the samples p->from .. p->n - 1 of a and b equal, bit for bit, section, count, time, state */
static int same_samples(const pts *a, int from, const pts *b)
{
    if (a->n - from != b->n)
        return 0;
    for (int i = 0; i < b->n; i++)
        if (a->section[from + i] != b->section[i] || a->count[from + i] != b->count[i] ||
            a->t[from + i] != b->t[i] || memcmp(a->y[from + i], b->y[i], sizeof b->y[i]) != 0)
            return 0;
    return 1;
}

TEST(a_restored_simulation_continues_its_sections_as_the_run_straight_through)
{
    /* the slider-crank's three sections; saved after one crank revolution (12 ms) and 23
       half-millisecond samples, run on to 36 ms; a fresh simulation with the same sections
       restored from the snapshot gives the same samples from there, counts included */
    clink_model *m = test_model_file("slider_crank_clearance.xml");
    clink_sim *a = test_sim_start(m), *b = test_sim_start(m), *c = test_sim_start(m);
    pts *pa = calloc(1, sizeof *pa), *pb = calloc(1, sizeof *pb), *pc = calloc(1, sizeof *pc);
    ENSURE(a && b && c && pa && pb && pc);
    if (!a || !b || !c || !pa || !pb || !pc)
        return;
    add_sections(a, m, pa);
    add_sections(b, m, pb);
    ENSURE(clink_sim_advance(a, 0.0121) == CLINK_OK);
    int at_save = pa->n;
    size_t n = clink_sim_state_size(a);
    unsigned char *buf = malloc(n);
    ENSURE(buf && clink_sim_state_save(a, buf, n) == CLINK_OK);
    ENSURE(clink_sim_advance(a, 0.036) == CLINK_OK);
    ENSURE(clink_sim_state_restore(b, buf, n) == CLINK_OK);
    ENSURE(clink_sim_advance(b, 0.036) == CLINK_OK);
    ENSURE(pa->n > at_save + 40 && pb->n > 40);
    ENSURE(same_samples(pa, at_save, pb));
    /* the crank's revolutions go on counting: the second and third, once each */
    int revs = 0;
    for (int i = 0; i < pb->n; i++)
        if (pb->section[i] == 0)
            ENSURE(pb->count[i] == 2 + revs++);
    ENSURE(revs == 2);
    /* a simulation without sections refuses a snapshot with them, and nothing changes */
    ENSURE(clink_sim_state_restore(c, buf, n) == CLINK_ERR_PARSE);
    ENSURE(clink_sim_time(c) == 0.0);
    free(buf);
    free(pa);
    free(pb);
    free(pc);
    clink_sim_destroy(&a);
    clink_sim_destroy(&b);
    clink_sim_destroy(&c);
    clink_model_destroy(&m);
}
