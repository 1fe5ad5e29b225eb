/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Contact in mechanisms (src/model/model_contact.c, src/contacts/contacts.c):
 * definitions and their checks, the two-sphere impact of Alves et al. (2015) against the
 * laboratory (src/lab/lab.c), a ball bouncing on the ground, the energy audit. The
 * clearance joint's own tests are in tests/elements/test_element_revolute_clearance.c.
 */
#include "ensure.h"
#include "test_models.h"

#include "clink/elastoplastic.h"
#include "clink/lab.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <string.h>

/* ---- definitions ----------------------------------------------------------- */

static clink_contact_pair_def ball_on_ground(const char *law, double K, double e, double R)
{
    clink_contact_pair_def c = clink_default_contact_pair_def();
    c.name = "floor";
    c.body_a = 0;
    c.body_b = 1;
    c.shape_a.type = CLINK_SHAPE_LINE;
    c.shape_a.normal[1] = 1.0;
    c.shape_b.type = CLINK_SHAPE_CIRCLE;
    c.shape_b.radius = R;
    c.law = law;
    c.params.K = K;
    c.params.e = e;
    return c;
}

/* the impacts of sim that ended in a separation (not in permanent contact) */
static long test_separations(const clink_sim *sim)
{
    long n = 0;
    for (int i = 0; i < clink_sim_impact_count(sim); i++) {
        clink_impact_record r;
        if (clink_sim_impact(sim, i, &r) == CLINK_OK && !r.persistent)
            n++;
    }
    return n;
}

TEST(contact_pair_definitions_are_checked_with_clear_messages)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    clink_model_builder_add_body(b, &bd, NULL);
    clink_contact_pair_def c = ball_on_ground("no-such-law", 1e9, 0.8, 0.05);
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_ERR_NOT_FOUND);
    ENSURE(strstr(clink_model_builder_error(b), "no-such-law") != NULL);
    c = ball_on_ground("hunt-crossley", 1e9, 0.8, -0.05);
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "radius") != NULL);
    c = ball_on_ground("hunt-crossley", 1e9, 0.8, 0.05);
    c.body_b = 7;
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) != CLINK_OK);
    c = ball_on_ground("hunt-crossley", NAN, 0.8, 0.05);
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) != CLINK_OK);
    ENSURE(strstr(clink_model_builder_error(b), "K") != NULL);
    c = ball_on_ground("hunt-crossley", 1e9, 0.8, 0.05);
    int id = -1;
    ENSURE(clink_model_builder_add_contact_pair(b, &c, &id) == CLINK_OK);
    ENSURE(id == 0);
    ENSURE(clink_model_builder_find(b, CLINK_ENTITY_CONTACT_PAIR, "floor") == 0);
    clink_model_builder_destroy(&b);
}

/* ---- two spheres (Alves et al. 2015, Sect. 4) --------------------------------------- */

/*
 * Two aluminium spheres, R 20 mm, 0.092 kg each, +-0.15 m/s, K = 5.5e9 N/m^1.5,
 * e = 0.7, no gravity: the same impact as the laboratory's with m_eff = 0.046 kg
 * and v = 0.3 m/s.
 */
/* the two spheres' bodies in a builder (no gravity) */
static clink_model_builder *two_spheres_bodies(void)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_model_builder_set_gravity(b, 0.0, 0.0);
    clink_body_def bd = clink_default_body_def();
    bd.mass = 0.092;
    bd.inertia = 0.4 * 0.092 * 0.02 * 0.02;
    bd.x = -0.0201;
    bd.vx = 0.15;
    clink_model_builder_add_body(b, &bd, NULL);
    bd.x = 0.0201;
    bd.vx = -0.15;
    clink_model_builder_add_body(b, &bd, NULL);
    return b;
}

/* their pair: the two 20 mm circles, law and parameters left to the caller */
static clink_contact_pair_def two_spheres_pair(void)
{
    clink_contact_pair_def c = clink_default_contact_pair_def();
    c.body_a = 1;
    c.body_b = 2;
    c.shape_a.radius = c.shape_b.radius = 0.02;
    return c;
}

static clink_model *two_spheres(const char *law)
{
    clink_model_builder *b = two_spheres_bodies();
    clink_contact_pair_def c = two_spheres_pair();
    c.law = law;
    c.params.K = 5.5e9;
    c.params.e = 0.7;
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    clink_settings_def s = test_adams_settings(1e-11, 1e-14);
    clink_model *m = test_finish(b, &s);
    ENSURE(m != NULL);
    return m;
}

static void two_spheres_against_lab(const char *law_name)
{
    clink_model *m = two_spheres(law_name);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 2e-3) == CLINK_OK);
    ENSURE(clink_sim_impact_count(sim) == 1);
    clink_impact_record r;
    ENSURE(clink_sim_impact(sim, 0, &r) == CLINK_OK);
    ENSURE_NEAR(r.v_impact, 0.3, 1e-9);
    ENSURE_NEAR(r.m_eff, 0.046, 1e-12);
    ENSURE(!r.persistent);

    clink_lab *lab = NULL;
    ENSURE(clink_lab_create(&lab) == CLINK_OK);
    clink_contact_params p;
    clink_contact_params_init(&p);
    p.K = 5.5e9;
    p.e = 0.7;
    clink_lab_result lr;
    ENSURE(clink_lab_impact(lab, clink_law_find(law_name), &p, 0.046, r.v_impact, NULL, &lr) ==
           CLINK_OK);
    ENSURE_NEAR(r.restitution, lr.e_out, 1e-6);
    ENSURE_NEAR(r.delta_max, lr.delta_max, 1e-6 * lr.delta_max);
    ENSURE_NEAR(r.F_max, lr.F_max, 1e-3 * lr.F_max); /* F_max: sampled at steps */
    ENSURE_NEAR(r.duration, lr.duration, 1e-6 * lr.duration);
    ENSURE_NEAR(r.dissipated, lr.W_damping, 1e-6 * 0.5 * 0.046 * 0.09);
    /* energy audit over the impact */
    clink_energy e;
    ENSURE(clink_sim_energy(sim, &e) == CLINK_OK);
    ENSURE(fabs(e.balance) < 1e-8 * 0.5 * 0.046 * 0.09);
    ENSURE(e.contact_damping > 0.0);
    clink_lab_destroy(&lab);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/* the restarts of a ball dropped from 0.1 m (gonthier-exact, Adams) advanced to t */
static long restarts_at(double t, clink_impact_record *first)
{
    const double R = 0.05;
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.mass = 1.0;
    bd.inertia = 0.4 * R * R;
    bd.y = R + 0.1;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_contact_pair_def c = ball_on_ground("gonthier-exact", 1e9, 0.8, R);
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    clink_settings_def s = test_adams_settings(1e-10, 1e-12);
    clink_model *m = test_finish(b, &s);
    clink_sim *sim = NULL;
    char err[256];
    long n = -1;
    if (m != NULL && clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK &&
        clink_sim_advance(sim, t) == CLINK_OK) {
        clink_sim_stats st;
        clink_sim_stats_get(sim, &st);
        n = st.contact_reinits;
        if (first != NULL && clink_sim_impact_count(sim) > 0)
            ENSURE(clink_sim_impact(sim, 0, first) == CLINK_OK);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    return n;
}

TEST(a_separation_restarts_the_integrator_an_onset_does_not)
{
    /* the first impact's times, from a run past its separation (free fall of 0.1 m takes
       0.143 s, the bounce back up 0.8 of that) */
    clink_impact_record r;
    memset(&r, 0, sizeof r);
    ENSURE(restarts_at(0.2, &r) == 1);
    ENSURE(r.t_onset > 0.14 && r.t_onset < 0.15 && r.duration > 0.0 && !r.persistent);
    /* inside the impact: past the onset, not yet separated */
    ENSURE(restarts_at(r.t_onset + 0.5 * r.duration, NULL) == 0);
    /* just after the separation */
    ENSURE(restarts_at(r.t_onset + r.duration + 1e-6, NULL) == 1);
}

TEST(two_spheres_hunt_crossley_impact_matches_the_laboratory)
{
    two_spheres_against_lab("hunt-crossley");
}

TEST(two_spheres_flores_impact_matches_the_laboratory)
{
    two_spheres_against_lab("flores");
}

TEST(two_spheres_lankarani_nikravesh_impact_matches_the_laboratory)
{
    two_spheres_against_lab("lankarani-nikravesh");
}

/* ---- ball drop ------------------------------------------------------------- */

typedef struct apex_log {
    int n;
    double y[64];
} apex_log;

/*
 * Ball (R 0.05 m, 1 kg) dropped from 0.5 m onto the ground, gonthier-exact law
 * (restitution exactly e in the laboratory for any mass, velocity and n) with
 * e = 0.8. Gravity also acts during the contact, so each impact's achieved
 * restitution may differ from e by about g T_c / v_impact (T_c the contact
 * duration): checked within twice that. Free flight conserves energy, so each
 * apex height over the previous one equals the achieved restitution squared
 * (checked to 1e-6), and e^2 within the same gravity bound.
 */
TEST(ball_drop_apex_heights_fall_by_e_squared_per_bounce)
{
    const double R = 0.05, h0 = 0.5, e = 0.8;
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.mass = 1.0;
    bd.inertia = 0.4 * R * R;
    bd.y = R + h0;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_contact_pair_def c = ball_on_ground("gonthier-exact", 1e9, e, R);
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    clink_settings_def s = test_adams_settings(1e-10, 1e-12);
    clink_model *m = test_finish(b, &s);
    ENSURE(m != NULL);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    /* apexes: where vy changes sign from + to -, sampled at 0.1 ms and refined by the
       parabola through the samples (free flight) */
    apex_log log = {0, {0}};
    double q[3], v[3], vprev = 0.0, yprev = 0.0;
    double dt = 1e-4;
    for (int i = 1; i <= 30000 && log.n < 4; i++) {
        ENSURE(clink_sim_advance(sim, i * dt) == CLINK_OK);
        clink_sim_body_state(sim, 1, q, v);
        if (vprev > 0.0 && v[1] <= 0.0) {
            /* free flight: apex = y + vy^2 / (2 g) from the previous sample */
            log.y[log.n++] = yprev + vprev * vprev / (2.0 * 9.81) - R;
        }
        vprev = v[1];
        yprev = q[1];
    }
    ENSURE(log.n == 4);
    ENSURE(clink_sim_impact_count(sim) >= 4);
    double hprev = h0;
    for (int k = 0; k < log.n; k++) {
        clink_impact_record r;
        ENSURE(clink_sim_impact(sim, k, &r) == CLINK_OK);
        double bound = 2.0 * 9.81 * r.duration / r.v_impact;
        ENSURE(bound < 1e-2);
        ENSURE_NEAR(r.restitution, e, bound);
        ENSURE_NEAR(log.y[k] / hprev, r.restitution * r.restitution, 1e-6);
        ENSURE_NEAR(log.y[k] / hprev, e * e, 2.0 * bound);
        hprev = log.y[k];
    }
    clink_energy en;
    clink_sim_energy(sim, &en);
    ENSURE(fabs(en.balance) < 1e-6 * 1.0 * 9.81 * h0);
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    /* the force starts from zero at onset: no re-initialisation there; one at each
       separation (the force is not smooth there) */
    ENSURE(st.contact_reinits == test_separations(sim));
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/*
 * A ball (Hunt-Crossley, e = 0.5) dropped from 5 cm comes to rest after finitely many
 * impacts. With the hysteresis bookkeeping its last impact ends in permanent contact at a
 * re-compression; with the episodes bookkeeping (default) the last impact does not separate
 * (gravity wins at the low approach speed) and stays one episode in progress whose lobes
 * die out. The force is the same function of the state in both: the runs are the same.
 */
TEST(a_ball_coming_to_rest_ends_in_permanent_contact)
{
    const double R = 0.05;
    double q_end[2][3], v_end[3];
    int nrec[2];
    for (int mode = 0; mode < 2; mode++) {
        clink_model_builder *b = clink_model_builder_create();
        clink_body_def bd = clink_default_body_def();
        bd.inertia = 0.4 * R * R;
        bd.y = R + 0.05;
        clink_model_builder_add_body(b, &bd, NULL);
        clink_contact_pair_def c = ball_on_ground("hunt-crossley", 1e8, 0.5, R);
        ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
        clink_settings_def s = clink_default_settings_def();
        s.method = CLINK_METHOD_BDF; /* the settings the counts below were set for */
        s.drift = CLINK_DRIFT_PROJECTION;
        s.contact_bookkeeping = mode ? CLINK_BOOKKEEPING_HYSTERESIS : CLINK_BOOKKEEPING_EPISODES;
        ENSURE(clink_model_builder_set_settings(b, &s) == CLINK_OK);
        clink_model *m = NULL;
        ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
        clink_model_builder_destroy(&b);
        clink_sim *sim = NULL;
        char err[256];
        ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
        ENSURE(clink_sim_advance(sim, 2.0) == CLINK_OK);
        clink_contact_info ci;
        ENSURE(clink_sim_contact(sim, 0, &ci) == CLINK_OK);
        ENSURE(mode ? ci.persistent != 0 : ci.persistent == 0);
        ENSURE(ci.phase == CLINK_CONTACT_COMPRESSION || ci.phase == CLINK_CONTACT_RESTITUTION);
        /* at rest: the static penetration of the Hertz spring carrying m g */
        ENSURE_NEAR(ci.fn, 9.81, 1e-4);
        ENSURE_NEAR(ci.delta, pow(9.81 / 1e8, 1.0 / 1.5), 1e-3 * pow(9.81 / 1e8, 1.0 / 1.5));
        nrec[mode] = clink_sim_impact_count(sim);
        ENSURE(nrec[mode] > 3 && nrec[mode] < 40);
        clink_sim_stats st;
        clink_sim_stats_get(sim, &st);
        ENSURE(st.contact_events < 100); /* the lobes of the resting episode die out */
        clink_sim_body_state(sim, 1, q_end[mode], v_end);
        clink_energy en;
        clink_sim_energy(sim, &en);
        ENSURE(fabs(en.balance) < 1e-5 * 9.81 * 0.05);
        clink_sim_destroy(&sim);
        clink_model_destroy(&m);
    }
    /* the episode in progress is not recorded; hysteresis recorded its first lobe */
    ENSURE(nrec[1] == nrec[0] + 1);
    ENSURE_NEAR(q_end[0][1], q_end[1][1], 1e-12);
}

/* ---- bookkeeping: episodes and lobes -------------------------------------- */

/*
 * A light ball B (10 g, R 10 mm) with a heavier mass C (0.3 kg) behind it on a spring
 * (k = 1e6 N/m), both moving at 1 m/s onto a floor (Hunt-Crossley, K 1e8, e 0.8), no
 * gravity: B bounces off the floor, C's spring pushes it back before it leaves, and the
 * contact goes through two compression lobes before it separates.
 */
static clink_model *ball_with_spring_mass(clink_contact_bookkeeping mode)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_model_builder_set_gravity(b, 0.0, 0.0);
    clink_body_def bd = clink_default_body_def();
    bd.mass = 0.01;
    bd.inertia = 0.4 * 0.01 * 1e-4;
    bd.y = 0.01 + 1e-5;
    bd.vy = -1.0;
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    bd.mass = 0.3;
    bd.inertia = 0.4 * 0.3 * 1e-4;
    bd.y = 0.05;
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_force_def f = clink_default_force_def();
    f.type = CLINK_FORCE_SPRING_DAMPER;
    f.body_a = 1;
    f.body_b = 2;
    f.k = 1e6;
    f.free_length = 0.05 - 0.01 - 1e-5;
    ENSURE(clink_model_builder_add_force(b, &f, NULL) == CLINK_OK);
    clink_contact_pair_def c = ball_on_ground("hunt-crossley", 1e8, 0.8, 0.01);
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    clink_settings_def s = test_adams_settings(1e-10, 1e-14);
    s.contact_bookkeeping = mode;
    clink_model *m = test_finish(b, &s);
    ENSURE(m != NULL);
    return m;
}

/* what the samples of the contact say about its first episode */
typedef struct episode_samples {
    double t_on, t_off;     /* first sample in contact, first sample apart after it, s */
    double t_recompression; /* first sample where delta_dot turns positive again, s */
    double f_max, d_max;    /* over the episode, N, m */
    double f_max1, d_max1;  /* over its first lobe, N, m */
    double q_end;           /* B's height at the end, m */
} episode_samples;

static void sample_episode(clink_contact_bookkeeping mode, double dt, int n, clink_sim **out,
                           clink_model **out_model, episode_samples *es)
{
    clink_model *m = ball_with_spring_mass(mode);
    clink_sim *sim = NULL;
    char err[256];
    memset(es, 0, sizeof *es);
    es->t_on = es->t_off = es->t_recompression = NAN;
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    double last_rate = 0.0;
    for (int i = 1; i <= n; i++) {
        double t = i * dt;
        ENSURE(clink_sim_advance(sim, t) == CLINK_OK);
        clink_contact_info ci;
        ENSURE(clink_sim_contact(sim, 0, &ci) == CLINK_OK);
        /* in contact: a penetration above 1e-12 m, far above the rounding of the positions
           (1e-17 m) and below the penetration of one sample at 1 m/s (1e-7 m) */
        int touching = ci.delta > 1e-12;
        if (touching && isnan(es->t_on))
            es->t_on = t;
        if (!touching && !isnan(es->t_on) && isnan(es->t_off))
            es->t_off = t;
        if (!isnan(es->t_on) && isnan(es->t_off)) {
            if (last_rate < 0.0 && ci.delta_dot > 0.0 && isnan(es->t_recompression))
                es->t_recompression = t;
            es->f_max = fmax(es->f_max, ci.fn);
            es->d_max = fmax(es->d_max, ci.delta);
            if (isnan(es->t_recompression)) {
                es->f_max1 = fmax(es->f_max1, ci.fn);
                es->d_max1 = fmax(es->d_max1, ci.delta);
            }
            last_rate = ci.delta_dot;
        }
    }
    double q[3], v[3];
    clink_sim_body_state(sim, 1, q, v);
    es->q_end = q[1];
    *out = sim;
    *out_model = m; /* the model must outlive the simulation */
}

/*
 * Episodes (default): the two-lobe episode is one record, with lobes = 2, the duration from
 * onset to separation and the largest force and penetration of both lobes, as the samples
 * every 0.1 us show them.
 */
TEST(a_two_lobe_episode_is_one_record_with_two_lobes)
{
    const double dt = 1e-7;
    clink_sim *sim = NULL;
    clink_model *m = NULL;
    episode_samples es;
    sample_episode(CLINK_BOOKKEEPING_EPISODES, dt, 30000, &sim, &m, &es);
    ENSURE(!isnan(es.t_off) && !isnan(es.t_recompression));
    ENSURE(es.f_max > 1.5 * es.f_max1); /* the second lobe is the larger */
    ENSURE(clink_sim_impact_count(sim) == 1);
    clink_impact_record r;
    ENSURE(clink_sim_impact(sim, 0, &r) == CLINK_OK);
    ENSURE(r.lobes == 2);
    ENSURE(!r.persistent);
    ENSURE_NEAR(r.v_impact, 1.0, 1e-9);
    ENSURE(r.v_separation > 0.1);
    /* onset and separation between the samples that bracket them */
    ENSURE(r.t_onset > es.t_on - dt && r.t_onset <= es.t_on);
    ENSURE(r.t_onset + r.duration > es.t_off - dt && r.t_onset + r.duration <= es.t_off);
    /* the peaks: delta_max is located (end of compression), F_max is the largest at the
       steps and events (within 1e-3 of the located maximum, docs/contact-mechanics.md) */
    ENSURE(r.delta_max >= es.d_max * (1.0 - 1e-9) && r.delta_max < es.d_max * (1.0 + 1e-4));
    ENSURE_NEAR(r.F_max, es.f_max, 1e-3 * es.f_max);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/*
 * Hysteresis: the same run (the force does not depend on the bookkeeping: the same state at
 * the end), but the record closes at the re-compression as before: one lobe, persistent,
 * v_separation 0, the first lobe's peaks and a duration up to the re-compression.
 */
TEST(the_hysteresis_bookkeeping_closes_the_record_at_the_re_compression)
{
    const double dt = 1e-7;
    clink_sim *sim = NULL, *sim_ep = NULL;
    clink_model *m = NULL, *m_ep = NULL;
    episode_samples es, es_ep;
    sample_episode(CLINK_BOOKKEEPING_HYSTERESIS, dt, 30000, &sim, &m, &es);
    sample_episode(CLINK_BOOKKEEPING_EPISODES, dt, 30000, &sim_ep, &m_ep, &es_ep);
    ENSURE_NEAR(es.q_end, es_ep.q_end, 1e-12);
    ENSURE(es.t_off == es_ep.t_off && es.t_recompression == es_ep.t_recompression);
    ENSURE(clink_sim_impact_count(sim) == 1);
    clink_impact_record r;
    ENSURE(clink_sim_impact(sim, 0, &r) == CLINK_OK);
    ENSURE(r.lobes == 1 && r.persistent && r.v_separation == 0.0);
    ENSURE(r.t_onset + r.duration > es.t_recompression - dt &&
           r.t_onset + r.duration <= es.t_recompression);
    ENSURE(r.delta_max >= es.d_max1 * (1.0 - 1e-9) && r.delta_max < es.d_max1 * (1.0 + 1e-4));
    ENSURE_NEAR(r.F_max, es.f_max1, 1e-3 * es.f_max1);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
    clink_sim_destroy(&sim_ep);
    clink_model_destroy(&m_ep);
}

/* ---- piecewise (impulse-momentum) treatment ------------------------------- */

TEST(piecewise_two_spheres_rebound_with_exactly_e_and_lose_the_newton_energy)
{
    clink_model_builder *b = two_spheres_bodies();
    clink_contact_pair_def c = two_spheres_pair();
    c.treatment = CLINK_CONTACT_PIECEWISE;
    c.restitution = 1.5;
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "restitution") != NULL);
    c.restitution = 0.7;
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    clink_settings_def s = clink_default_settings_def();
    s.method = CLINK_METHOD_ADAMS;
    s.drift = CLINK_DRIFT_NONE;
    clink_model_builder_set_settings(b, &s);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 2e-3) == CLINK_OK);
    ENSURE(clink_sim_impact_count(sim) == 1);
    clink_impact_record r;
    clink_sim_impact(sim, 0, &r);
    ENSURE_NEAR(r.t_onset, 0.0002 / 0.3, 1e-9);
    ENSURE_NEAR(r.restitution, 0.7, 1e-12);
    ENSURE_NEAR(r.m_eff, 0.046, 1e-12);
    ENSURE_NEAR(r.dissipated, 0.5 * 0.046 * 0.09 * (1.0 - 0.49), 1e-15);
    double q[3], v[3];
    clink_sim_body_state(sim, 1, q, v);
    ENSURE_NEAR(v[0], -0.105, 1e-12);
    clink_sim_body_state(sim, 2, q, v);
    ENSURE_NEAR(v[0], 0.105, 1e-12);
    clink_energy e;
    clink_sim_energy(sim, &e);
    ENSURE(fabs(e.balance) < 1e-12);
    clink_sim_stats st;
    clink_sim_stats_get(sim, &st);
    ENSURE(st.contact_reinits == 1);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/*
 * A pendulum (bob 1 kg, J 1e-3 kg m^2, arm L = 1 m, a circle of radius
 * r = 0.05 m at the bob) released horizontally hits a wall, the half-plane
 * x < 0, when the bob's centre reaches x = r (sin theta = r / L). The impulse
 * is solved with the pivot's constraint: the effective mass along the normal is
 * (J + m L^2) / (L cos theta)^2 and the energy lost is (1 - e^2) m_eff v^2 / 2.
 * With a continuous law (gonthier-exact) the onset records the same effective
 * mass, computed through the constraint.
 */
static void pendulum_hits_wall(int piecewise)
{
    const double L = 1.0, r = 0.05, m = 1.0, J = 1e-3, e = 0.6;
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.mass = m;
    bd.inertia = J;
    bd.x = L;
    bd.y = 0.0;
    bd.phi = 0.5 * acos(-1.0);
    clink_model_builder_add_body(b, &bd, NULL);
    clink_joint_def jd = clink_default_joint_def();
    jd.body_a = 0;
    jd.body_b = 1;
    jd.point_b[1] = L; /* body y axis towards the pivot */
    ENSURE(clink_model_builder_add_joint(b, &jd, NULL) == CLINK_OK);
    clink_contact_pair_def c = clink_default_contact_pair_def();
    c.body_a = 0;
    c.body_b = 1;
    c.shape_a.type = CLINK_SHAPE_LINE;
    c.shape_a.normal[0] = 1.0;
    c.shape_b.radius = r;
    if (piecewise) {
        c.treatment = CLINK_CONTACT_PIECEWISE;
        c.restitution = e;
    } else {
        c.law = "gonthier-exact";
        c.params.K = 1e9;
        c.params.e = e;
    }
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    clink_settings_def s = clink_default_settings_def();
    s.rtol = 1e-11;
    s.atol = 1e-13;
    s.method = CLINK_METHOD_BDF; /* projection: the state on the constraints at the impact */
    s.drift = CLINK_DRIFT_PROJECTION;
    clink_model_builder_set_settings(b, &s);
    clink_model *mod = NULL;
    ENSURE(clink_model_builder_finalize(b, &mod) == CLINK_OK);
    clink_model_builder_destroy(&b);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(mod, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.8) == CLINK_OK);
    ENSURE(clink_sim_impact_count(sim) == 1);
    clink_impact_record rec;
    clink_sim_impact(sim, 0, &rec);
    double cth = sqrt(1.0 - (r / L) * (r / L));
    double m_eff = (J + m * L * L) / (L * cth * L * cth);
    ENSURE_NEAR(rec.m_eff, m_eff, 1e-9 * m_eff);
    if (!piecewise) {
        /* gravity acts during the short contact: e within about g T_c / v */
        ENSURE_NEAR(rec.restitution, e, 1e-3);
        clink_sim_destroy(&sim);
        clink_model_destroy(&mod);
        return;
    }
    ENSURE_NEAR(rec.restitution, e, 1e-12);
    /* speed of the bob's contact point from the energy: m g L cos(theta) = (J + m L^2) w^2 / 2 */
    double w = sqrt(2.0 * m * 9.81 * L * cth / (J + m * L * L));
    ENSURE_NEAR(rec.v_impact, w * L * cth, 1e-7);
    ENSURE_NEAR(rec.dissipated, 0.5 * m_eff * rec.v_impact * rec.v_impact * (1.0 - e * e), 1e-12);
    double pos, vel;
    clink_sim_constraint_violation(sim, &pos, &vel);
    ENSURE(pos < 1e-10 && vel < 1e-9);
    clink_energy en;
    clink_sim_energy(sim, &en);
    ENSURE(fabs(en.balance) < 1e-8);
    clink_sim_destroy(&sim);
    clink_model_destroy(&mod);
}

TEST(piecewise_pendulum_hitting_a_wall_uses_the_constrained_effective_mass)
{
    pendulum_hits_wall(1);
}

TEST(continuous_pendulum_impact_records_the_constrained_effective_mass)
{
    pendulum_hits_wall(0);
}

/* ---- chains at rest, settle speed, elastoplastic contacts ------------------ */

/*
 * n beads of 1 g, radius 5 mm, touching in a row on the x axis (Hertz, K 1e9), the
 * first struck by a bead arriving at v: body n + 1. Touching to rounding: the
 * centres are 2 R apart as computed, so overlaps of order 1e-18 m may remain.
 */
static clink_model *touching_chain(int n, double v, double settle, double x0)
{
    const double R = 0.005;
    clink_model_builder *b = clink_model_builder_create();
    clink_model_builder_set_gravity(b, 0.0, 0.0);
    clink_body_def bd = clink_default_body_def();
    bd.mass = 1e-3;
    bd.inertia = 0.4 * 1e-3 * R * R;
    for (int i = 1; i <= n + 1; i++) {
        bd.x = i <= n ? x0 + 2.0 * R * (n - i) : x0 + 2.0 * R * n + 1e-4;
        bd.vx = i <= n ? 0.0 : -v;
        ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    }
    for (int k = 0; k < n; k++) {
        clink_contact_pair_def c = clink_default_contact_pair_def();
        c.body_a = k == 0 ? n + 1 : k;
        c.body_b = k + 1;
        c.shape_a.radius = c.shape_b.radius = R;
        c.law = "hertz";
        c.params.K = 1e9;
        ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    }
    /* rtol 1e-12: so that the energy balance checks the books, not the integration */
    clink_settings_def s = test_adams_settings(1e-12, 1e-16);
    s.settle_speed = settle;
    clink_model *m = test_finish(b, &s);
    ENSURE(m != NULL);
    return m;
}

TEST(a_chain_at_rest_struck_at_one_end_records_one_impact_per_contact)
{
    clink_model *m = touching_chain(4, 1.0, CLINK_SETTLE_SPEED_DEFAULT, 0.1);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    /* the beads touch: every contact starts open (an overlap of rounding size is no contact) */
    for (int k = 0; k < 4; k++) {
        clink_contact_info ci;
        ENSURE(clink_sim_contact(sim, k, &ci) == CLINK_OK);
        ENSURE(ci.phase == CLINK_CONTACT_OPEN && !ci.persistent);
    }
    ENSURE(clink_sim_advance(sim, 1e-3) == CLINK_OK);
    int seen[4] = {0, 0, 0, 0};
    for (int i = 0; i < clink_sim_impact_count(sim); i++) {
        clink_impact_record r;
        ENSURE(clink_sim_impact(sim, i, &r) == CLINK_OK);
        if (seen[r.contact]++)
            continue;
        ENSURE(r.delta_max > 0.0 && r.F_max > 0.0);
        if (r.contact == 0) {
            /* the striker arrives at 1 m/s: a restitution is defined */
            ENSURE_NEAR(r.v_impact, 1.0, 1e-9);
            ENSURE(isfinite(r.restitution));
        } else {
            /* the wave reaches a contact at rest: it closes from zero speed */
            ENSURE(r.v_impact < CLINK_SETTLE_SPEED_DEFAULT);
            ENSURE(isnan(r.restitution));
        }
    }
    for (int k = 0; k < 4; k++)
        ENSURE(seen[k] >= 1);
    /* momentum: the last bead leaves with most of the striker's momentum, energy is kept */
    clink_energy en;
    ENSURE(clink_sim_energy(sim, &en) == CLINK_OK);
    ENSURE(fabs(en.balance) < 1e-8 * 0.5e-3);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(settle_speed_is_a_setting_apart_from_the_laws_reference_velocity)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_settings_def s = clink_default_settings_def();
    ENSURE(s.settle_speed == CLINK_SETTLE_SPEED_DEFAULT);
    s.settle_speed = 0.0;
    ENSURE(clink_model_builder_set_settings(b, &s) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "settle_speed") != NULL);
    clink_model_builder_destroy(&b);
    /* a settle speed above every approach speed: the wave's contacts separate "slowly" and
       rest in permanent contact, the striker's impact is still an impact */
    clink_model *m = touching_chain(3, 1.0, 10.0, 0.1);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 2e-4) == CLINK_OK);
    ENSURE(clink_sim_impact_count(sim) >= 1);
    for (int i = 0; i < clink_sim_impact_count(sim); i++) {
        clink_impact_record r;
        ENSURE(clink_sim_impact(sim, i, &r) == CLINK_OK);
        ENSURE(r.persistent);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/*
 * A steel ball (10 mm, 33 g) on a soft Ma-Liu floor (yield 200 MPa, psi 3, xi 13):
 * dropped from 5 mm, every impact yields further and the plastic work leaves the
 * books as dissipated; the energy balance closes and the first impact's restitution
 * is Ma-Liu's closed form for the ball's mass at its approach speed.
 */
static clink_model *ma_liu_ball(double y0, double Y)
{
    const double R = 0.01;
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.mass = 7800.0 * 4.0 / 3.0 * acos(-1.0) * R * R * R;
    bd.inertia = 0.4 * bd.mass * R * R;
    bd.y = y0;
    ENSURE(clink_model_builder_add_body(b, &bd, NULL) == CLINK_OK);
    clink_contact_pair_def c = ball_on_ground("ma-liu", NAN, NAN, R);
    c.params.E1 = c.params.E2 = 207e9;
    c.params.nu1 = c.params.nu2 = 0.3;
    c.params.Y = Y;
    c.params.psi = 3.0;
    c.params.xi = 13.0;
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    clink_settings_def s = clink_default_settings_def();
    s.rtol = 1e-10;
    s.atol = 1e-14;
    ENSURE(clink_model_builder_set_settings(b, &s) == CLINK_OK);
    clink_model *m = NULL;
    ENSURE(clink_model_builder_finalize(b, &m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    return m;
}

TEST(ma_liu_impacts_book_the_plastic_work_and_close_the_energy_balance)
{
    clink_model *m = ma_liu_ball(0.01 + 0.005, 200e6);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.1) == CLINK_OK);
    ENSURE(clink_sim_impact_count(sim) >= 1);
    clink_impact_record r;
    ENSURE(clink_sim_impact(sim, 0, &r) == CLINK_OK);
    double mass = 7800.0 * 4.0 / 3.0 * acos(-1.0) * 1e-6;
    ENSURE_NEAR(r.v_impact, sqrt(2.0 * 9.81 * 0.005), 1e-6);
    clink_contact_params p;
    clink_contact_params_init(&p);
    p.E1 = p.E2 = 207e9;
    p.nu1 = p.nu2 = 0.3;
    p.R1 = INFINITY;
    p.R2 = 0.01;
    p.Y = 200e6;
    p.psi = 3.0;
    p.xi = 13.0;
    clink_maliu ml;
    clink_maliu_impact imp;
    ENSURE(clink_maliu_init(&ml, &p, NULL, 0) == CLINK_OK);
    ENSURE(clink_maliu_impact_solve(&ml, mass, r.v_impact, &imp) == CLINK_OK);
    ENSURE(imp.phase >= 1); /* the impact yields */
    /* gravity acts during the impact (duration ~1e-5 s against v / g ~ 3e-2 s) */
    ENSURE_NEAR(r.restitution, imp.restitution, 2e-3);
    ENSURE_NEAR(r.delta_max, imp.delta_max, 1e-3 * imp.delta_max);
    /* the loss of the impact is the plastic work U - W of the closed form */
    ENSURE_NEAR(r.dissipated, imp.dissipated, 5e-3 * imp.dissipated);
    clink_energy en;
    ENSURE(clink_sim_energy(sim, &en) == CLINK_OK);
    ENSURE(en.contact_damping >= imp.dissipated * 0.99);
    ENSURE(fabs(en.balance) < 1e-7 * mass * 9.81 * 0.005);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(a_resting_ma_liu_contact_that_sinks_deeper_yields_once_then_oscillates_elastically)
{
    /* placed 1 nm into a floor of yield strength 50 MPa at rest: permanent contact from the
       start; gravity presses it to about twice its static penetration, beyond the elastic
       range, where it yields (a new largest penetration in permanent contact); then it
       swings on its unloading curve without loss (a maximum that integration error puts a
       hair above the first may add a negligible yield) */
    clink_model *m = ma_liu_ball(0.01 - 1e-9, 50e6);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    clink_contact_info ci;
    ENSURE(clink_sim_contact(sim, 0, &ci) == CLINK_OK);
    ENSURE(ci.persistent);
    ENSURE(clink_sim_advance(sim, 2e-3) == CLINK_OK);
    clink_energy e1, e2;
    ENSURE(clink_sim_energy(sim, &e1) == CLINK_OK);
    ENSURE(e1.contact_damping > 0.0); /* it yielded: plastic work booked */
    clink_sim_stats st1, st2;
    clink_sim_stats_get(sim, &st1);
    ENSURE(st1.contact_events >= 1);
    ENSURE(clink_sim_advance(sim, 4e-3) == CLINK_OK);
    ENSURE(clink_sim_energy(sim, &e2) == CLINK_OK);
    clink_sim_stats_get(sim, &st2);
    /* no further yielding to speak of, and the balance still closes */
    ENSURE(st2.contact_events - st1.contact_events <= 20);
    ENSURE_NEAR(e2.contact_damping, e1.contact_damping, 1e-6 * e1.contact_damping);
    /* the energy exchanged is about m g times 1e-7 m */
    double mass = 7800.0 * 4.0 / 3.0 * acos(-1.0) * 1e-6;
    ENSURE(fabs(e2.balance) < 1e-5 * mass * 9.81 * 1e-7);
    ENSURE(clink_sim_contact(sim, 0, &ci) == CLINK_OK);
    ENSURE(ci.persistent);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(touching_shapes_far_from_the_origin_start_open)
{
    /* 40 m out, the rounding of the positions overlaps touching beads by ~1e-14 m, far more
       than 1e-13 of their size: the onset level follows the size of the coordinates */
    clink_model *m = touching_chain(200, 1.0, CLINK_SETTLE_SPEED_DEFAULT, 40.0);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(m, NULL, &sim, err, sizeof err) == CLINK_OK);
    for (int k = 0; k < clink_sim_contact_count(sim); k++) {
        clink_contact_info ci;
        ENSURE(clink_sim_contact(sim, k, &ci) == CLINK_OK);
        ENSURE(!ci.persistent);
    }
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

/*
 * A micro-separation: a 1 kg ball (R 50 mm) dropped from 0.3 mm onto a floor
 * (gonthier-exact, K 1e8, e 0.4) with a settle speed of 0.05 m/s leaves the floor at
 * about 1 cm/s, slower than the settle speed, and flies 5 um high, less than
 * h = 0.1 delta_max. Episodes: the separation ends the record and the re-contact is a new
 * record whose approach speed is the free flight's, the separation speed (closed form:
 * v_sep, after 2 v_sep / g). Hysteresis: the slow separation made the contact permanent, so
 * the re-contact is no impact and there is one record.
 */
static clink_sim *micro_separation(clink_contact_bookkeeping mode, clink_model **m)
{
    const double R = 0.05;
    clink_model_builder *b = clink_model_builder_create();
    clink_body_def bd = clink_default_body_def();
    bd.inertia = 0.4 * R * R;
    bd.y = R + 3e-4;
    clink_model_builder_add_body(b, &bd, NULL);
    clink_contact_pair_def c = ball_on_ground("gonthier-exact", 1e8, 0.4, R);
    ENSURE(clink_model_builder_add_contact_pair(b, &c, NULL) == CLINK_OK);
    clink_settings_def s = clink_default_settings_def();
    s.rtol = 1e-10;
    s.atol = 1e-14;
    s.method = CLINK_METHOD_ADAMS;
    s.drift = CLINK_DRIFT_NONE;
    s.settle_speed = 0.05;
    s.contact_bookkeeping = mode;
    ENSURE(clink_model_builder_set_settings(b, &s) == CLINK_OK);
    ENSURE(clink_model_builder_finalize(b, m) == CLINK_OK);
    clink_model_builder_destroy(&b);
    clink_sim *sim = NULL;
    char err[256];
    ENSURE(clink_sim_create(*m, NULL, &sim, err, sizeof err) == CLINK_OK);
    ENSURE(clink_sim_advance(sim, 0.1) == CLINK_OK);
    return sim;
}

TEST(a_re_contact_after_a_micro_separation_is_a_new_impact_at_its_own_approach_speed)
{
    const double g = 9.81;
    clink_model *m = NULL;
    clink_sim *sim = micro_separation(CLINK_BOOKKEEPING_EPISODES, &m);
    ENSURE(clink_sim_impact_count(sim) == 2);
    clink_impact_record r1, r2;
    ENSURE(clink_sim_impact(sim, 0, &r1) == CLINK_OK);
    ENSURE(clink_sim_impact(sim, 1, &r2) == CLINK_OK);
    ENSURE_NEAR(r1.v_impact, sqrt(2.0 * g * 3e-4), 1e-9);
    ENSURE(!r1.persistent && r1.lobes == 1);
    /* a micro-separation: slower than the settle speed, lower than 0.1 delta_max */
    ENSURE(r1.v_separation > 0.0 && r1.v_separation < 0.05);
    ENSURE(r1.v_separation * r1.v_separation / (2.0 * g) < 0.1 * r1.delta_max);
    /* free flight under gravity: back at the separation speed after 2 v_sep / g */
    ENSURE_NEAR(r2.v_impact, r1.v_separation, 1e-9);
    ENSURE_NEAR(r2.t_onset, r1.t_onset + r1.duration + 2.0 * r1.v_separation / g, 1e-9);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);

    sim = micro_separation(CLINK_BOOKKEEPING_HYSTERESIS, &m);
    ENSURE(clink_sim_impact_count(sim) == 1);
    clink_impact_record h1;
    ENSURE(clink_sim_impact(sim, 0, &h1) == CLINK_OK);
    ENSURE(h1.persistent);
    ENSURE(h1.t_onset == r1.t_onset && h1.v_separation == r1.v_separation);
    clink_contact_info ci;
    ENSURE(clink_sim_contact(sim, 0, &ci) == CLINK_OK);
    ENSURE(ci.persistent);
    clink_sim_destroy(&sim);
    clink_model_destroy(&m);
}

TEST(the_bookkeeping_is_a_setting_of_the_xml_file_and_the_c_api)
{
    ENSURE(clink_default_settings_def().contact_bookkeeping == CLINK_BOOKKEEPING_EPISODES);
    const char *words[] = {"", " contact_bookkeeping=\"episodes\"",
                           " contact_bookkeeping=\"hysteresis\"", " contact_bookkeeping=\"lobes\""};
    for (int i = 0; i < 4; i++) {
        char xml[512], err[512];
        snprintf(xml, sizeof xml,
                 "<mechanism name=\"b\"><settings t_end=\"1\"%s/><bodies><body name=\"ball\" "
                 "mass=\"1\" inertia=\"0.001\"/></bodies></mechanism>",
                 words[i]);
        clink_model *m = NULL;
        clink_status st =
            clink_xml_load_memory(xml, strlen(xml), "b.xml", &m, NULL, err, sizeof err);
        if (i == 3) {
            ENSURE(st != CLINK_OK);
            ENSURE(strstr(err, "contact_bookkeeping") != NULL);
            continue;
        }
        ENSURE(st == CLINK_OK);
        ENSURE(clink_model_settings(m).contact_bookkeeping ==
               (i == 2 ? CLINK_BOOKKEEPING_HYSTERESIS : CLINK_BOOKKEEPING_EPISODES));
        clink_model_destroy(&m);
    }
    clink_model_builder *b = clink_model_builder_create();
    clink_settings_def s = clink_default_settings_def();
    s.contact_bookkeeping = (clink_contact_bookkeeping) 2;
    ENSURE(clink_model_builder_set_settings(b, &s) == CLINK_ERR_RANGE);
    ENSURE(strstr(clink_model_builder_error(b), "contact_bookkeeping") != NULL);
    clink_model_builder_destroy(&b);
}
