/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cheap paths of the contact evaluation against the general ones, bit for bit (the
 * simulation's results must not move by a single bit when it takes them):
 *   - kinematics_contact_circles (two circles centred on their bodies or fixed on the
 *     ground, no rotations) against kinematics_contact_eval and _eval_rot, on random
 *     poses and velocities and on the special ones (touching, coincident, on one line,
 *     signed zeros);
 *   - contact_law_onset_cached (the law's constants derived once) against
 *     clink_law_onset, for every law of the catalogue and several parameter sets,
 *     impact speeds and effective masses, and contact_law_force_pair (one power of delta
 *     for F(delta, rate) and F(delta, 0)) against two clink_law_force calls over a range
 *     of penetrations, rates and phases;
 *   - a chain's contact forces (contacts_forces) and outputs (contacts_info) with everything a
 *     simulation keeps between calls (the memo of open contacts, the forces of contacts
 *     at rest) against those of a fresh contact set at the same state, over a sequence
 *     of states where beads keep their positions, change their speeds by rounding, move
 *     and overlap;
 *   - the probe's normal force alone (contacts_info_fn) and the stored energy from the
 *     penetrations of the contacts' information (contacts_stored_energy_at, the output state)
 *     against contacts_info's force and contacts_stored_energy, on a chain that starts
 *     compressed (its contacts permanent, in compression) and moves;
 *   - the geometry kept at a step's end (contacts_geometry_keep) served by
 *     contacts_geometry_kept only for the same bits of the contact's two bodies' coordinates
 *     and velocities (one bit of any of them, or a zero's sign, evaluates it anew).
 * "The same bits" is memcmp of the doubles: a tolerance of zero.
 */
#include "ensure.h"
#define TEST_RANDOM_SEED 0x9e3779b97f4a7c15ULL
#include "test_random.h"

#include "../../validation/granular_chain_model.h"
#include "contact/law_table.h"
#include "kinematics/contact_geometry.h"
#include "model/model_internal.h"
#include "contacts/contacts.h"
#include "contacts/contacts_internal.h"

#include <stdint.h>

/* one side of a random pair: a body (q, v) with a centred circle, or a ground circle */
typedef struct side {
    int ground;
    double q[3], v[3];
    kinematics_shape s;
} side;

static void random_side(side *sd, int ground, double r)
{
    memset(sd, 0, sizeof *sd);
    sd->ground = ground;
    sd->s.kind = CLINK_SHAPE_CIRCLE;
    sd->s.r = r;
    if (ground) {
        sd->s.a[0] = uniform(-2.0, 2.0);
        sd->s.a[1] = pick(3) == 0 ? 0.0 : uniform(-2.0, 2.0);
        return;
    }
    static const double angles[] = {0.0, -0.0, 1.0, -2.5};
    sd->q[0] = uniform(-40.0, 40.0);
    sd->q[1] = pick(3) == 0 ? 0.0 : uniform(-1.0, 1.0);
    sd->q[2] = pick(2) ? angles[pick(4)] : uniform(-10.0, 10.0);
    for (int i = 0; i < 3; i++)
        sd->v[i] = pick(4) == 0 ? (pick(2) ? 0.0 : -0.0) : uniform(-5.0, 5.0);
    if (pick(2))
        sd->s.a[0] = -0.0; /* a signed zero offset is still centred */
}

/* the world centre of a side (for placing the other one) */
static void centre(const side *sd, double c[2])
{
    c[0] = sd->ground ? sd->s.a[0] : sd->q[0];
    c[1] = sd->ground ? sd->s.a[1] : sd->q[1];
}

/* moves side b so that the pair touches, overlaps a little, coincides or lies on one line */
static void arrange(const side *a, side *b)
{
    double ca[2], d = a->s.r + b->s.r;
    centre(a, ca);
    if (b->ground)
        return;
    switch (pick(5)) {
    case 0: /* touching along x, exactly on one line */
        b->q[0] = ca[0] + d;
        b->q[1] = ca[1];
        break;
    case 1: /* overlapping by a rounding-sized amount */
        b->q[0] = ca[0] + d * (1.0 - 1e-14 * uniform(0.0, 4.0));
        b->q[1] = ca[1];
        break;
    case 2: /* coincident centres */
        b->q[0] = ca[0];
        b->q[1] = ca[1];
        break;
    case 3: { /* near contact in a random direction */
        double th = uniform(-3.2, 3.2), s = d * uniform(0.9, 1.1);
        b->q[0] = ca[0] + s * cos(th);
        b->q[1] = ca[1] + s * sin(th);
        break;
    }
    default: /* anywhere */
        break;
    }
}

static kinematics_pose pose_of(const side *sd)
{
    kinematics_pose p;
    memset(&p, 0, sizeof p);
    if (!sd->ground) {
        memcpy(p.q, sd->q, sizeof p.q);
        memcpy(p.qd, sd->v, sizeof p.qd);
    }
    return p;
}

/* 1 if every field of x and y has the same bits (v_t too when slip) */
static int same_contact(const kinematics_contact *x, const kinematics_contact *y, int slip)
{
    return same(x->delta, y->delta) && same(x->delta_dot, y->delta_dot) && same(x->n[0], y->n[0]) &&
           same(x->n[1], y->n[1]) && same(x->t[0], y->t[0]) && same(x->t[1], y->t[1]) &&
           same(x->p_a[0], y->p_a[0]) && same(x->p_a[1], y->p_a[1]) && same(x->p_b[0], y->p_b[0]) &&
           same(x->p_b[1], y->p_b[1]) && (!slip || same(x->v_t, y->v_t));
}

TEST(direct_path_of_two_circles_gives_the_general_geometry_bit_for_bit)
{
    int trials = 200000, mismatches = 0, overlapping = 0, on_line = 0;
    for (int i = 0; i < trials; i++) {
        side a, b;
        int ground = pick(8) == 0 ? 1 + pick(2) : 0; /* 1: A on the ground, 2: B */
        random_side(&a, ground == 1, uniform(1e-3, 0.1));
        random_side(&b, ground == 2, uniform(1e-3, 0.1));
        arrange(&a, &b);
        kinematics_pose pa = pose_of(&a), pb = pose_of(&b);
        kinematics_contact gen, rot, dir, dir0;
        double ra[2] = {cos(pa.q[2]), sin(pa.q[2])}, rb[2] = {cos(pb.q[2]), sin(pb.q[2])};
        ENSURE(kinematics_contact_circles_ok(&a.s, a.ground ? 0 : 1));
        ENSURE(kinematics_contact_circles_ok(&b.s, b.ground ? 0 : 2));
        int rc_gen = kinematics_contact_eval(&a.s, &pa, &b.s, &pb, &gen);
        int rc_rot = kinematics_contact_eval_rot(&a.s, &pa, ra, &b.s, &pb, rb, &rot);
        int rc_dir =
            kinematics_contact_circles(&a.s, a.ground ? NULL : a.q, a.ground ? NULL : a.v, &b.s,
                                       b.ground ? NULL : b.q, b.ground ? NULL : b.v, 1, &dir);
        int rc_dir0 =
            kinematics_contact_circles(&a.s, a.ground ? NULL : a.q, a.ground ? NULL : a.v, &b.s,
                                       b.ground ? NULL : b.q, b.ground ? NULL : b.v, 0, &dir0);
        ENSURE(rc_gen == 0);
        ENSURE(rc_rot == 0);
        ENSURE(rc_dir == 0);
        ENSURE(rc_dir0 == 0);
        /* a refused evaluation leaves its output unwritten: nothing to compare */
        if (rc_gen != 0 || rc_rot != 0 || rc_dir != 0 || rc_dir0 != 0) {
            mismatches++;
            continue;
        }
        if (!same_contact(&gen, &dir, 1) || !same_contact(&rot, &dir, 1) ||
            !same_contact(&gen, &dir0, 0) || dir0.v_t != 0.0) {
            if (mismatches++ < 5)
                printf("trial %d: delta %.17g / %.17g, rate %.17g / %.17g, v_t %.17g / %.17g\n", i,
                       gen.delta, dir.delta, gen.delta_dot, dir.delta_dot, gen.v_t, dir.v_t);
        }
        overlapping += gen.delta > 0.0;
        on_line += gen.n[1] == 0.0;
    }
    ENSURE(mismatches == 0);
    /* the sample covers contacts and pairs on one line, not only pairs far apart */
    ENSURE(overlapping > trials / 10);
    ENSURE(on_line > trials / 20);
}

TEST(direct_path_refuses_offset_circles_and_non_finite_angles)
{
    kinematics_shape c0 = {
        CLINK_SHAPE_CIRCLE, {0, 0}, {0, 0}, {0, 0}, 0.01, 0, 0, NULL, {0, 0}, 0, NULL};
    kinematics_shape off = {
        CLINK_SHAPE_CIRCLE, {0.02, 0}, {0, 0}, {0, 0}, 0.01, 0, 0, NULL, {0, 0}, 0, NULL};
    kinematics_shape line = {CLINK_SHAPE_LINE, {0, 0}, {0, 0}, {1, 0}, 0, 0, 0, NULL,
                             {0, 0},           0,      NULL};
    kinematics_contact out;
    double q[3] = {0, 0, NAN}, v[3] = {0, 0, 0}, q2[3] = {0.015, 0, 0};
    ENSURE(kinematics_contact_circles_ok(&c0, 3));
    ENSURE(!kinematics_contact_circles_ok(&off, 3));
    ENSURE(kinematics_contact_circles_ok(&off, 0)); /* fixed on the ground: any centre */
    ENSURE(!kinematics_contact_circles_ok(&line, 0));
    ENSURE(kinematics_contact_circles(&c0, q, v, &c0, q2, v, 1, &out) == -1);
    q[2] = INFINITY;
    ENSURE(kinematics_contact_circles(&c0, q, v, &c0, q2, v, 1, &out) == -1);
    q[2] = 0.3;
    ENSURE(kinematics_contact_circles(&c0, q, v, &c0, q2, v, 1, &out) == 0);
    ENSURE_NEAR(out.delta, 0.005, 1e-17);
}

/* ---- law constants ------------------------------------------------------------------ */

/* parameter sets to try on every law (each law keeps those its check accepts) */
static int params_variant(int i, clink_contact_params *p)
{
    clink_contact_params_init(p);
    p->K = 1e9;
    p->e = 0.7;
    switch (i) {
    case 0:
        return 1;
    case 1:
        p->chi = 1e3;
        return 1;
    case 2:
        p->c = 50;
        return 1;
    case 3: /* a linear spring, a light restitution */
        p->K = 2e8;
        p->n = 1.0;
        p->e = 0.95;
        return 1;
    case 4:
        p->K = 5e9;
        p->n = 1.8;
        p->e = 0.3;
        p->chi = 20;
        p->c = 5;
        return 1;
    case 5: /* the stiffness from materials */
        p->K = NAN;
        p->E1 = p->E2 = 193e9;
        p->nu1 = p->nu2 = 0.3;
        p->R1 = p->R2 = 0.00238;
        p->chi = 3e2;
        p->c = 11;
        return 1;
    case 6: /* viscosities */
        p->eta1 = 1.5;
        p->eta2 = 2.5;
        p->E1 = 70e9;
        p->nu1 = 0.33;
        return 1;
    case 7:
        p->alpha = 0.31;
        p->e = NAN;
        return 1;
    case 8:
        p->zero_force = 1;
        p->e = 0.6;
        p->c = 40;
        return 1;
    case 9:
        p->v_ref = 0.5;
        p->e = 0.85;
        return 1;
    case 10: /* elastoplastic laws */
        p->E1 = p->E2 = 193e9;
        p->nu1 = p->nu2 = 0.3;
        p->R1 = p->R2 = 0.00238;
        p->Y = 900e6;
        p->psi = 2.84;
        p->xi = 13.0;
        return 1;
    default:
        return 0;
    }
}

static int same_state(const clink_contact_state *x, const clink_contact_state *y)
{
    return x->phase == y->phase && same(x->v_impact, y->v_impact) && same(x->m_eff, y->m_eff) &&
           same(x->chi, y->chi) && same(x->c, y->c) && same(x->delta_max, y->delta_max) &&
           same(x->F_max, y->F_max) && same(x->delta_sep, y->delta_sep) &&
           same(x->hist_delta_max, y->hist_delta_max) && same(x->hist_F_max, y->hist_F_max) &&
           same(x->hist_delta_r, y->hist_delta_r) && same(x->hist_R, y->hist_R) &&
           x->hist_plastic == y->hist_plastic && same(x->K, y->K) && same(x->n, y->n) &&
           same(x->m, y->m);
}

/* F(delta, rate) and F(delta, 0) of the pair function against two force calls */
static int forces_agree(const clink_law *l, const clink_contact_params *p,
                        const clink_contact_state *st)
{
    static const double deltas[] = {-1e-6, -0.0, 0.0,  1e-300, 4.5e-15,
                                    1e-13, 1e-9, 3e-7, 2e-5,   1e-3};
    static const double rates[] = {-3.0, -1e-9, -0.0, 0.0, 1e-12, 0.4, 5.0};
    int bad = 0;
    for (size_t i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
        for (size_t j = 0; j < sizeof rates / sizeof rates[0]; j++) {
            double f0 = -1.0;
            double f = contact_law_force_pair(l, p, st, deltas[i], rates[j], &f0);
            double g = clink_law_force(l, p, st, deltas[i], rates[j]);
            double g0 = clink_law_force(l, p, st, deltas[i], 0.0);
            if (!same(f, g) || !same(f0, g0)) {
                if (bad++ < 3)
                    printf("%s: delta %g, rate %g: %.17g / %.17g, at 0: %.17g / %.17g\n",
                           clink_law_name(l), deltas[i], rates[j], f, g, f0, g0);
            }
        }
    }
    return bad;
}

TEST(cached_law_constants_give_the_onset_and_forces_of_every_law_bit_for_bit)
{
    static const double speeds[] = {0.0, 1e-3, 0.05, 1.77, 12.0, -1.0, NAN, INFINITY};
    static const double masses[] = {1e-4, 0.3, 7.5, 0.0, NAN};
    int generic = 0, combos = 0, bad_state = 0, bad_force = 0, rules[CLINK_RULE_HOOK + 1] = {0};
    for (size_t li = 0; li < clink_law_count(); li++) {
        const clink_law *l = clink_law_at(li);
        clink_contact_params p;
        for (int vi = 0; params_variant(vi, &p); vi++) {
            if (clink_law_check(l, &p, NULL, 0) != CLINK_OK)
                continue;
            contact_law_cache lc;
            contact_law_prepare(l, &p, &lc);
            generic += lc.generic;
            if (lc.generic)
                rules[l->rule]++;
            for (size_t s = 0; s < sizeof speeds / sizeof speeds[0]; s++) {
                for (size_t m = 0; m < sizeof masses / sizeof masses[0]; m++) {
                    clink_contact_state a, b;
                    clink_contact_state_init(&a);
                    clink_contact_state_init(&b);
                    clink_status sa = clink_law_onset(l, &p, speeds[s], masses[m], &a);
                    clink_status sb =
                        contact_law_onset_cached(l, &p, &lc, speeds[s], masses[m], &b);
                    combos++;
                    if (sa != sb || !same_state(&a, &b)) {
                        if (bad_state++ < 3)
                            printf("%s variant %d: v %g, m %g: status %d / %d, chi %.17g / "
                                   "%.17g, c %.17g / %.17g\n",
                                   clink_law_name(l), vi, speeds[s], masses[m], (int) sa, (int) sb,
                                   a.chi, b.chi, a.c, b.c);
                        continue;
                    }
                    if (sa != CLINK_OK)
                        continue;
                    /* in compression, restitution, open and released */
                    static const clink_contact_phase phases[] = {
                        CLINK_CONTACT_COMPRESSION, CLINK_CONTACT_RESTITUTION, CLINK_CONTACT_OPEN,
                        CLINK_CONTACT_RELEASED};
                    for (int ph = 0; ph < 4; ph++) {
                        b.phase = phases[ph];
                        bad_force += forces_agree(l, &p, &b);
                    }
                }
            }
        }
    }
    ENSURE(bad_state == 0);
    ENSURE(bad_force == 0);
    /* the cache is used (not only the fallback to the law's own onset), for every rule */
    ENSURE(generic >= 40);
    for (int r = CLINK_RULE_NONE; r < CLINK_RULE_HOOK; r++)
        ENSURE(rules[r] > 0);
    ENSURE(combos > 1000);
}

TEST(a_law_with_hooks_or_params_its_check_refuses_is_not_cached)
{
    clink_contact_params p;
    contact_law_cache lc;
    params_variant(10, &p);
    contact_law_prepare(clink_law_find("ma-liu"), &p, &lc);
    ENSURE(!lc.generic);
    params_variant(0, &p);
    p.e = 2.0; /* out of range */
    contact_law_prepare(clink_law_find("hunt-crossley"), &p, &lc);
    ENSURE(!lc.generic);
    clink_contact_state a, b;
    clink_contact_state_init(&a);
    clink_contact_state_init(&b);
    ENSURE(clink_law_onset(clink_law_find("hunt-crossley"), &p, 1.0, 1.0, &a) ==
           contact_law_onset_cached(clink_law_find("hunt-crossley"), &p, &lc, 1.0, 1.0, &b));
    p.e = 0.5;
    contact_law_prepare(clink_law_find("hunt-crossley"), &p, &lc);
    ENSURE(lc.generic);
}

/* ---- a chain's forces with the kept values against fresh ones ------------------------ */

/* contacts_forces of a fresh contact set (started at q0, v0) at (q, v) into g; its return */
static int fresh_forces(const clink_model *m, const double *q0, const double *v0, const double *q,
                        const double *v, double *g, clink_contact_info *info)
{
    char err[256];
    contact_set *sc = contacts_create(m, 1e-3, err, sizeof err);
    if (!sc)
        return -2;
    contacts_start(sc, q0, v0);
    memset(g, 0, (size_t) m->ncoords * sizeof *g);
    int rc = contacts_forces(sc, 0.0, q, v, g, NULL);
    for (int k = 0; k < contacts_count(sc); k++)
        contacts_info(sc, k, q, v, &info[k]);
    contacts_destroy(&sc);
    return rc;
}

static int same_info(const clink_contact_info *a, const clink_contact_info *b)
{
    return same(a->delta, b->delta) && same(a->delta_dot, b->delta_dot) && same(a->fn, b->fn) &&
           same(a->ft, b->ft) && same(a->normal[0], b->normal[0]) &&
           same(a->normal[1], b->normal[1]) && same(a->point_b[0], b->point_b[0]);
}

static void chain_against_fresh(const granular_law *law, int *states, int *overlaps)
{
    enum { NB = 12 };
    char err[256];
    clink_model *m = granular_chain_model(NB, GRANULAR_V, law, NULL, err, sizeof err);
    ENSURE(m != NULL);
    if (!m)
        return;
    int nq = m->ncoords, nc = NB + 1;
    double q0[3 * (NB + 1)], v0[3 * (NB + 1)], q[3 * (NB + 1)], v[3 * (NB + 1)];
    double g[3 * (NB + 1)], gf[3 * (NB + 1)], groots[2 * (NB + 1)];
    clink_contact_info info[NB + 1], infof[NB + 1];
    for (int i = 1; i < m->d.nbodies; i++) {
        const clink_body_def *b = &m->d.bodies[i].def;
        double *qi = q0 + 3 * (i - 1), *vi = v0 + 3 * (i - 1);
        qi[0] = b->x, qi[1] = b->y, qi[2] = b->phi;
        vi[0] = b->vx, vi[1] = b->vy, vi[2] = b->omega;
    }
    memcpy(q, q0, sizeof q);
    memcpy(v, v0, sizeof v);
    contact_set *kept = contacts_create(m, 1e-3, err, sizeof err);
    ENSURE(kept != NULL && contacts_count(kept) == nc);
    contacts_start(kept, q0, v0);
    int bad = 0;
    for (int s = 0; kept && s < 400; s++) {
        int bead = pick(NB); /* a bead (not the striker) */
        switch (pick(4)) {
        case 0: /* speeds change by rounding-sized amounts, positions kept */
            v[3 * bead] += uniform(-1e-12, 1e-12);
            break;
        case 1: /* a bead moves a little (overlaps a neighbour, or leaves it) */
            q[3 * bead] += uniform(-2e-7, 2e-7);
            v[3 * bead] = uniform(-0.5, 0.5);
            break;
        case 2: /* the root functions first at a new state (they keep their own values) */
            v[3 * bead] = uniform(-0.5, 0.5);
            q[3 * bead] += uniform(-1e-9, 1e-9);
            contacts_roots(kept, 0.0, q, v, groots);
            break;
        default: /* the same state again */
            break;
        }
        memset(g, 0, (size_t) nq * sizeof *g);
        int rc = contacts_forces(kept, 0.0, q, v, g, NULL);
        for (int k = 0; k < nc; k++)
            contacts_info(kept, k, q, v, &info[k]);
        int rcf = fresh_forces(m, q0, v0, q, v, gf, infof);
        int same_g = rc == rcf;
        for (int i = 0; i < nq; i++)
            same_g = same_g && same(g[i], gf[i]);
        for (int k = 0; k < nc; k++) {
            same_g = same_g && same_info(&info[k], &infof[k]);
            *overlaps += infof[k].delta > 0.0;
        }
        if (!same_g && bad++ < 3)
            printf("%s, state %d: the kept evaluation differs from a fresh one\n", law->name, s);
        (*states)++;
    }
    ENSURE(bad == 0);
    contacts_destroy(&kept);
    clink_model_destroy(&m);
}

TEST(chain_forces_with_kept_values_equal_a_fresh_evaluation_bit_for_bit)
{
    granular_law laws[4] = {granular_hertz(), granular_hertz(), granular_hertz(),
                            granular_dashpot()};
    laws[1].name = "hunt-crossley";
    laws[1].e = 0.7;
    laws[2].name = "tsuji";
    laws[2].e = 0.7;
    int states = 0, overlaps = 0;
    for (int i = 0; i < 4; i++)
        chain_against_fresh(&laws[i], &states, &overlaps);
    ENSURE(states == 1600);
    ENSURE(overlaps > 1000); /* the forces compared are not all zero */
}

/* the Hertz chain of nb beads at the benchmark's striker speed with its contact set (nb + 1
   contacts: the striker's first) */
typedef struct hertz_chain {
    clink_model *m;
    contact_set *sc;
    int nq, nc;
} hertz_chain;

/* builds h; 0 (a failure counted, nothing left to free) if the model or the set cannot be */
static int hertz_chain_open(hertz_chain *h, int nb)
{
    char err[256];
    granular_law law = granular_hertz();
    memset(h, 0, sizeof *h);
    h->m = granular_chain_model(nb, GRANULAR_V, &law, NULL, err, sizeof err);
    ENSURE(h->m != NULL);
    if (h->m)
        h->sc = contacts_create(h->m, 1e-3, err, sizeof err);
    ENSURE(h->sc != NULL && contacts_count(h->sc) == nb + 1);
    if (!h->sc) {
        clink_model_destroy(&h->m);
        return 0;
    }
    h->nq = h->m->ncoords;
    h->nc = nb + 1;
    return 1;
}

static void hertz_chain_close(hertz_chain *h)
{
    contacts_destroy(&h->sc);
    clink_model_destroy(&h->m);
}

/* a chain of 12 beads pressed together (each pair 1e-7 m deeper than the one before), moved */
TEST(a_probe_s_normal_force_and_the_stored_energy_from_the_information_are_the_same_bits)
{
    enum { NB = 12 };
    hertz_chain h;
    if (!hertz_chain_open(&h, NB))
        return;
    int nq = h.nq, nc = h.nc, compressed = 0, stored = 0, bad = 0;
    double q[3 * (NB + 1)], v[3 * (NB + 1)], g[3 * (NB + 1)];
    clink_contact_info info[NB + 1];
    for (int i = 1; i < h.m->d.nbodies; i++) {
        const clink_body_def *b = &h.m->d.bodies[i].def;
        q[3 * (i - 1)] = b->x + 1e-7 * (double) i;
        q[3 * (i - 1) + 1] = b->y;
        q[3 * (i - 1) + 2] = b->phi;
        v[3 * (i - 1)] = b->vx;
        v[3 * (i - 1) + 1] = b->vy;
        v[3 * (i - 1) + 2] = b->omega;
    }
    contacts_start(h.sc, q, v);
    for (int s = 0; s < 400; s++) {
        int bead = pick(NB);
        q[3 * bead] += uniform(-2e-7, 2e-7);
        v[3 * bead] = uniform(-0.5, 0.5);
        memset(g, 0, (size_t) nq * sizeof *g);
        (void) contacts_forces(h.sc, 0.0, q, v, g, NULL); /* what precedes a row or a probe */
        int ok = 1;
        for (int k = 0; k < nc; k++) {
            double fn = NAN;
            ok = ok && contacts_info(h.sc, k, q, v, &info[k]) == CLINK_OK &&
                 contacts_info_fn(h.sc, k, q, v, 0, &fn) == CLINK_OK && same(fn, info[k].fn);
            compressed += info[k].phase == CLINK_CONTACT_COMPRESSION;
        }
        double u = contacts_stored_energy(h.sc, q, v);
        ok = ok && same(contacts_stored_energy_at(h.sc, q, info), u);
        stored += u > 0.0;
        if (!ok && bad++ < 3)
            printf("state %d: the force alone or the stored energy differs\n", s);
    }
    ENSURE(bad == 0);
    ENSURE(compressed > 1000); /* forces and energies compared are not all zero */
    ENSURE(stored > 100);
    hertz_chain_close(&h);
}

/* contacts_geometry_kept of contact k at (q, v) is the geometry marked (delta = 42) */
static int kept_is_marked(const contact_set *sc, int k, const double *q, const double *v)
{
    kinematics_contact g;
    return contacts_geometry_kept(sc, k, q, v, &g) == 0 && g.delta == 42.0;
}

TEST(the_geometry_kept_at_a_step_s_end_serves_only_the_same_bits_of_its_bodies)
{
    enum { NB = 4 };
    hertz_chain h;
    if (!hertz_chain_open(&h, NB))
        return;
    double q[3 * (NB + 1)], v[3 * (NB + 1)];
    for (int i = 0; i < h.nq; i++) {
        q[i] = uniform(-1.0, 1.0);
        v[i] = uniform(-1.0, 1.0);
    }
    for (int k = 0; k < h.nc; k++) {
        /* a geometry marked so that its use shows (a real one would hide a wrong match) */
        kinematics_contact g;
        memset(&g, 0, sizeof g);
        g.delta = 42.0;
        ENSURE(!kept_is_marked(h.sc, k, q, v)); /* nothing kept yet */
        contacts_geometry_keep(h.sc, k, q, v, &g);
        ENSURE(kept_is_marked(h.sc, k, q, v));
        /* one bit of any coordinate or velocity of the contact's bodies: evaluated anew */
        int changed = 0;
        for (int c = 0; c < h.nq; c++) {
            for (int which = 0; which < 2; which++) {
                double *x = which ? &v[c] : &q[c], keep = *x;
                *x = nextafter(keep, 2.0);
                int marked = kept_is_marked(h.sc, k, q, v);
                *x = keep;
                int body = c / 3 + 1;
                const model_contact *mc = &h.m->d.contacts[k];
                int own = body == mc->geo.body_a || body == mc->geo.body_b;
                ENSURE(marked == !own);
                changed += own;
            }
        }
        ENSURE(changed >= 6); /* at least one body's six */
        /* a zero's sign is a different bit pattern */
        const model_contact *mc = &h.m->d.contacts[k];
        int b = mc->geo.body_b > 0 ? mc->geo.body_b : mc->geo.body_a;
        double keep = v[3 * (b - 1) + 2];
        v[3 * (b - 1) + 2] = 0.0;
        contacts_geometry_keep(h.sc, k, q, v, &g);
        v[3 * (b - 1) + 2] = -0.0;
        ENSURE(!kept_is_marked(h.sc, k, q, v));
        v[3 * (b - 1) + 2] = keep;
    }
    hertz_chain_close(&h);
}
