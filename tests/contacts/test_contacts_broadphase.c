/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The gap test of open contacts (src/contacts/contacts_broadphase.h) against the brute-force
 * evaluation it spares:
 *   - its penetration against kinematics_contact_circles' and kinematics_contact_eval's, bit
 *     for bit, on random pairs of circles (bodies and ground, on an axis, touching,
 *     overlapping by rounding, coincident, anywhere), and its refusals (off the direct
 *     path, non-finite angles);
 *   - a chain's root functions (contacts_roots) against those of the general geometry of every
 *     open, released or permanent contact (eps - delta; delta_sep + eps - delta and delta;
 *     delta + h and the rate beyond delta_max), and its forces
 * (contacts_forces) against the brute-force rule (a bead has a force exactly when one of its
 * contacts overlaps), over random states where beads touch, overlap, leave one another and move off
 * the axis: a contact the test passes over as apart never misses an onset (its root function has
 * the sign and the bits of the full evaluation's) or a force.
 */
#include "ensure.h"
#define TEST_RANDOM_SEED 0x2545f4914f6cdd1dULL
#include "test_random.h"

#include "../../validation/granular_chain_model.h"
#include "kinematics/contact_geometry.h"
#include "model/model_internal.h"
#include "contacts/contacts_broadphase.h"
#include "contacts/contacts.h"

#include <stdint.h>

/* a contact of two circles: A body 1 (or the ground), B body 2 (or the ground), in q */
static void random_pair(contacts_contact *c, double q[6])
{
    memset(c, 0, sizeof *c);
    int ground = pick(6); /* 0: A on the ground, 1: B on the ground, else two bodies */
    c->body_a = ground == 0 ? 0 : 1;
    c->body_b = ground == 1 ? 0 : 2;
    c->sa.kind = c->sb.kind = CLINK_SHAPE_CIRCLE;
    c->sa.r = uniform(1e-3, 0.1);
    c->sb.r = uniform(1e-3, 0.1);
    if (ground == 0) {
        c->sa.a[0] = uniform(-2.0, 2.0);
        c->sa.a[1] = pick(2) ? 0.0 : uniform(-2.0, 2.0);
    }
    if (ground == 1) {
        c->sb.a[0] = uniform(-2.0, 2.0);
        c->sb.a[1] = pick(2) ? 0.0 : uniform(-2.0, 2.0);
    }
    c->fixed.direct = 1;
    for (int i = 0; i < 6; i++)
        q[i] = uniform(-1.0, 1.0);
    q[2] = pick(2) ? 0.0 : uniform(-10.0, 10.0);
    q[5] = pick(2) ? -0.0 : uniform(-10.0, 10.0);
    double ca[2] = {ground == 0 ? c->sa.a[0] : q[0], ground == 0 ? c->sa.a[1] : q[1]};
    double d = c->sa.r + c->sb.r, x0 = uniform(-40.0, 40.0);
    if (ground == 1)
        return; /* B fixed: A anywhere */
    switch (pick(5)) {
    case 0: /* touching along x on one line, far from the origin */
        if (ground != 0)
            q[0] = x0, q[1] = ca[1] = 0.0;
        q[3] = (ground == 0 ? ca[0] : q[0]) + d;
        q[4] = ca[1];
        break;
    case 1: /* overlapping or apart by a rounding-sized amount, on one line */
        q[3] = ca[0] + d * (1.0 + 1e-14 * uniform(-4.0, 4.0));
        q[4] = ca[1];
        break;
    case 2: /* along y */
        q[3] = ca[0];
        q[4] = ca[1] - d * (1.0 + 1e-14 * uniform(-4.0, 4.0));
        break;
    case 3: { /* near contact in a random direction */
        double th = uniform(-3.2, 3.2), s = d * uniform(0.9, 1.1);
        q[3] = ca[0] + s * cos(th);
        q[4] = ca[1] + s * sin(th);
        break;
    }
    default: /* anywhere, or coincident */
        if (pick(4) == 0)
            q[3] = ca[0], q[4] = ca[1];
        break;
    }
}

TEST(gap_test_gives_the_penetration_of_the_full_geometry_bit_for_bit)
{
    int trials = 200000, bad = 0, overlapping = 0, apart = 0, on_axis = 0;
    for (int i = 0; i < trials; i++) {
        contacts_contact c;
        double q[6], v[6] = {0.1, -0.2, 0.3, 0.0, 0.5, -1.0}, delta = NAN;
        random_pair(&c, q);
        const double *qa = c.body_a ? q : NULL, *qb = c.body_b ? q + 3 : NULL;
        kinematics_contact full = {0}, gen = {0};
        kinematics_pose pa = {{0, 0, 0}, {0, 0, 0}}, pb = pa;
        if (qa)
            pa = (kinematics_pose){{qa[0], qa[1], qa[2]}, {v[0], v[1], v[2]}};
        if (qb)
            pb = (kinematics_pose){{qb[0], qb[1], qb[2]}, {v[3], v[4], v[5]}};
        int rc = contacts_broad_delta(&c, q, &delta);
        int rc_full = kinematics_contact_circles(&c.sa, qa, qa ? v : NULL, &c.sb, qb,
                                                 qb ? v + 3 : NULL, 0, &full);
        int rc_gen = kinematics_contact_eval(&c.sa, &pa, &c.sb, &pb, &gen);
        ENSURE(rc == 0 && rc_full == 0 && rc_gen == 0);
        if (rc != 0 || rc_full != 0 || rc_gen != 0 || !same(delta, full.delta) ||
            !same(delta, gen.delta)) {
            if (bad++ < 5)
                printf("trial %d: gap test %.17g, full %.17g, general %.17g\n", i, delta,
                       full.delta, gen.delta);
            continue;
        }
        overlapping += delta > 0.0;
        apart += !(delta > 0.0);
        on_axis += full.n[0] == 0.0 || full.n[1] == 0.0;
    }
    ENSURE(bad == 0);
    /* the sample covers both decisions and the pairs on an axis */
    ENSURE(overlapping > trials / 10);
    ENSURE(apart > trials / 10);
    ENSURE(on_axis > trials / 10);
}

TEST(gap_test_refuses_contacts_off_the_direct_path_and_non_finite_angles)
{
    contacts_contact c;
    double q[6] = {0.0, 0.0, 0.0, 0.015, 0.0, 0.0}, delta = 7.0;
    memset(&c, 0, sizeof c);
    c.body_a = 1;
    c.body_b = 2;
    c.sa.kind = c.sb.kind = CLINK_SHAPE_CIRCLE;
    c.sa.r = c.sb.r = 0.01;
    ENSURE(contacts_broad_delta(&c, q, &delta) == -1); /* not marked direct */
    ENSURE(delta == 7.0);
    c.fixed.direct = 1;
    ENSURE(contacts_broad_delta(&c, q, &delta) == 0);
    ENSURE(same(delta, 0.02 - 0.015));
    q[2] = NAN;
    ENSURE(contacts_broad_delta(&c, q, &delta) == -1);
    q[2] = 0.0;
    q[5] = INFINITY;
    ENSURE(contacts_broad_delta(&c, q, &delta) == -1);
    ENSURE(contacts_broad_norm(-3.0, 0.0) == 3.0);
    ENSURE(contacts_broad_norm(-0.0, -4.0) == 4.0);
    ENSURE(contacts_broad_norm(3.0, 4.0) == hypot(3.0, 4.0));
}

/* ---- a chain's root functions and forces against the brute-force evaluation ---------- */

enum { NB = 40, NQ = 3 * (NB + 1), NC = NB + 1 };

/* the general geometry of contact k at (q, v) */
static int general_geometry(const contacts_contact *c, const double *q, const double *v,
                            kinematics_contact *geo)
{
    kinematics_pose pa, pb;
    contacts_pose_of(q, v, c->body_a, &pa);
    contacts_pose_of(q, v, c->body_b, &pb);
    return kinematics_contact_eval(&c->sa, &pa, &c->sb, &pb, geo);
}

/* the generalised force of f at p on body (ground: nothing), added to g */
static void add_force(double *g, const double *q, int body, const double p[2], const double f[2])
{
    if (body <= 0)
        return;
    const double *r = q + 3 * (body - 1);
    double *gb = g + 3 * (body - 1);
    gb[0] += f[0];
    gb[1] += f[1];
    gb[2] += (p[0] - r[0]) * f[1] - (p[1] - r[1]) * f[0];
}

/* every open contact's force by the full evaluation (no gap test, no memo) into g; the
   number of contacts that overlap */
static int brute_forces(const contact_set *sc, const double *q, const double *v, double *g)
{
    int overlaps = 0;
    memset(g, 0, NQ * sizeof *g);
    for (int k = 0; k < sc->n; k++) {
        const contacts_contact *c = &sc->c[k];
        kinematics_contact geo;
        if (c->st.phase == CLINK_CONTACT_RELEASED || general_geometry(c, q, v, &geo) != 0 ||
            !(geo.delta > 0.0))
            continue; /* released: no force (the law's phase) */
        overlaps++;
        double fn = contacts_contact_force(sc, c, &geo, q, NULL);
        double ft = clink_friction_force(&c->fr, geo.v_t, fn > 0.0 ? fn : 0.0);
        double f[2] = {fn * geo.n[0] + ft * geo.t[0], fn * geo.n[1] + ft * geo.t[1]};
        double fa[2] = {-f[0], -f[1]};
        add_force(g, q, c->body_b, geo.p_b, f);
        add_force(g, q, c->body_a, geo.p_a, fa);
    }
    return overlaps;
}

/* moves bead b (1 .. NB + 1) at random: by rounding, a little along the chain, off the axis */
static void move_bead(double *q, double *v, int b)
{
    double *qb = q + 3 * (b - 1), *vb = v + 3 * (b - 1);
    switch (pick(4)) {
    case 0:
        qb[0] *= 1.0 + 2.2e-16 * (double) (pick(5) - 2);
        break;
    case 1:
        qb[0] += uniform(-1e-7, 1e-7);
        break;
    case 2:
        qb[1] = pick(2) ? 0.0 : uniform(-1e-4, 1e-4);
        break;
    default:
        break;
    }
    vb[0] = pick(3) ? uniform(-1.0, 1.0) : 0.0;
}

TEST(chain_root_functions_and_forces_with_the_gap_test_equal_the_brute_force_bit_for_bit)
{
    char err[256];
    granular_law law = granular_hertz();
    clink_model *m = granular_chain_model(NB, GRANULAR_V, &law, NULL, err, sizeof err);
    ENSURE(m != NULL && m->ncoords == NQ);
    if (!m || m->ncoords != NQ)
        return;
    double q[NQ], v[NQ], g[NQ], gb[NQ], groots[2 * NC];
    for (int i = 1; i < m->d.nbodies; i++) {
        const clink_body_def *b = &m->d.bodies[i].def;
        q[3 * (i - 1)] = b->x, q[3 * (i - 1) + 1] = b->y, q[3 * (i - 1) + 2] = b->phi;
        v[3 * (i - 1)] = b->vx, v[3 * (i - 1) + 1] = b->vy, v[3 * (i - 1) + 2] = b->omega;
    }
    contact_set *sc = contacts_create(m, 1e-3, err, sizeof err);
    ENSURE(sc != NULL && contacts_count(sc) == NC);
    if (!sc) {
        clink_model_destroy(&m);
        return;
    }
    contacts_start(sc, q, v);
    /* every fifth contact released (after an impact): its root functions read delta too */
    for (int k = 2; k < NC - 1; k += 5) {
        sc->c[k].st.phase = CLINK_CONTACT_RELEASED;
        sc->c[k].st.delta_sep = 1e-9 * (double) k;
    }
    /* and every tenth permanent (the beads behind a chain's wave): its first function reads
       delta, its second the rate only beyond delta_max */
    for (int k = 4; k < NC - 1; k += 10) {
        contacts_contact *c = &sc->c[k];
        ENSURE(clink_law_onset(c->law, &c->p, 1e-3, GRANULAR_MASS / 2.0, &c->st) == CLINK_OK);
        c->persistent = 1;
        c->st.delta_max = 1e-9;
        c->h_release = 1e-10;
    }
    int bad_roots = 0, bad_forces = 0, overlaps = 0, apart = 0, states = 0, persistent_deep = 0;
    for (int s = 0; s < 2000; s++, states++) {
        for (int j = pick(4); j >= 0; j--)
            move_bead(q, v, 1 + pick(NB + 1));
        int rc = contacts_roots(sc, 0.0, q, v, groots);
        ENSURE(rc == 0);
        for (int k = 0; k < NC; k++) {
            const contacts_contact *c = &sc->c[k];
            kinematics_contact geo;
            if (general_geometry(c, q, v, &geo) != 0)
                continue;
            int released = c->st.phase == CLINK_CONTACT_RELEASED;
            double g0 = released ? c->st.delta_sep + c->eps - geo.delta : c->eps - geo.delta;
            double g1 = released ? geo.delta : 1.0;
            if (c->persistent) {
                g0 = geo.delta + c->h_release;
                g1 = geo.delta > c->st.delta_max ? geo.delta_dot : 1.0;
                persistent_deep += geo.delta > c->st.delta_max;
            }
            if (!same(groots[2 * k], isfinite(g0) ? g0 : 1.0) ||
                !same(groots[2 * k + 1], isfinite(g1) ? g1 : 1.0)) {
                if (bad_roots++ < 3)
                    printf("state %d, contact %d: root %.17g, brute force %.17g\n", s, k,
                           groots[2 * k], g0);
            }
            apart += !(geo.delta > 0.0);
        }
        memset(g, 0, sizeof g);
        ENSURE(contacts_forces(sc, 0.0, q, v, g, NULL) == 0);
        overlaps += brute_forces(sc, q, v, gb);
        for (int i = 0; i < NQ; i++)
            if (!same(g[i], gb[i]) && bad_forces++ < 3)
                printf("state %d, coordinate %d: force %.17g, brute force %.17g\n", s, i, g[i],
                       gb[i]);
    }
    ENSURE(states == 2000);
    ENSURE(bad_roots == 0);
    ENSURE(bad_forces == 0);
    /* both decisions are taken many times: the forces compared are not all zero */
    ENSURE(overlaps > 2000);
    ENSURE(apart > 2000);
    ENSURE(persistent_deep > 100); /* permanent contacts beyond delta_max: the full path */
    contacts_destroy(&sc);
    clink_model_destroy(&m);
}
