/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_contact.c: contact forces and the per-contact state machine in a
 * simulation (docs/contact-mechanics.md; docs/contact-mechanics.md).
 *
 * Geometry (kinematics/contact_geometry.h) gives for each contact the
 * penetration delta, its rate delta_dot, the normal n (direction of the force
 * on B), the tangent t, the contact points p_A, p_B and the slip v_t. The
 * normal force F_n = F(delta, delta_dot, state) of the law
 * (include/clink/contact.h) and the friction F_t (Ambrosio's modified Coulomb
 * law, include/clink/friction.h) act as f = F_n n + F_t t on B at p_B and -f
 * on A at p_A; their generalised forces Q = (f, (p - r) x f) enter the
 * equations of motion through dyn_set_external.
 *
 * State machine, two CVODE root functions per contact (direction in brackets):
 *   OPEN         g0 = eps - delta [-]                onset: v_impact = delta_dot,
 *                                                  m_eff, clink_law_onset
 *   COMPRESSION  g0 = delta_dot [-]               end of compression (delta_max)
 *                g1 = delta [-]                   separation (safety)
 *   RESTITUTION  g0 = clink_law_separation [-]    separation: clink_law_release
 *                g1 = delta_dot - 1e-9 v_imp [+]  re-compression while in contact: the
 *                                                  episode's next lobe (COMPRESSION), or
 *                                                  permanent contact (hysteresis rule)
 *   RELEASED     g0 = delta_sep + eps - delta [-]     re-contact at the residual indentation
 *                g1 = delta [-]                   fully open (OPEN)
 *   permanent    g0 = delta + h [-]               the gap exceeds h: OPEN
 *                g1 = delta_dot [-] while delta > delta_max, else 1:
 *                                                  a new largest penetration
 *                                                  (clink_law_end_compression)
 * Unused functions are the constant 1.
 *
 * The right-hand side must be right on both sides of a root that does not
 * re-initialise CVODE, because CVODE does not roll back the step in which it
 * finds the root: the part of the step after the root was integrated with the
 * right-hand side of the old phase. Hence the force is a function of the
 * configuration, not of the phase alone: in OPEN with delta > 0 (inside the step
 * that brackets the onset) the force is the law's with a provisional onset at
 * the current delta_dot, and in contact with delta <= 0 it is zero. (The
 * laboratory integrates from the onset and continues the force to delta < 0 as
 * -F(-delta, -delta_dot); in a mechanism the step past a separation may be long,
 * so the continuation would pull; it is not used here.) The onset and
 * re-contact roots are placed at delta = eps = 1e-13 L (L the size of the
 * shapes), not at 0, and the re-compression root at delta_dot = 1e-9 v_impact,
 * so that the root function of the next phase is never exactly zero at the
 * root (CVODE refuses a root function that stays exactly zero, which rounding
 * would otherwise produce). eps is at least 16 DBL_EPSILON times the size of the
 * bodies' coordinates at t = 0, the rounding of a penetration computed from
 * them, so that shapes that touch far from the origin start open too.
 *
 * Re-initialisation rule: at each event the force is probed at the event state
 * and at (delta, -0.01 v_impact), (delta / 2, -0.01 v_impact) before and after
 * the transition (the laboratory's probe); CVODE is re-initialised only when a
 * probe changes by more than 1e-9 of the impact's force scale. Laws whose force
 * starts from zero (Hunt-Crossley family, Hertz) never jump at onset or at
 * separation at zero penetration; Kelvin-Voigt (c delta_dot at delta = 0) does.
 *
 * Bookkeeping (clink_settings_def.contact_bookkeeping). Episodes (default, the
 * literature's): an episode from onset to separation is one impact record, its
 * re-compressions while in contact are lobes of it (back to COMPRESSION: no law's
 * force depends on the phase in contact, so nothing jumps, and the damping stays
 * the onset's), and every new onset is a new impact damped for its own approach
 * speed. Hysteresis rule, for every episode with the hysteresis bookkeeping and
 * for resting episodes (onset slower than v_settle = clink_settings_def.
 * settle_speed, default 1e-3 m/s) with episodes: a re-compression while in
 * contact, or a separation slower than v_settle, ends the record and makes the
 * contact permanent: its impact events are switched off and the law's force is
 * applied for delta > 0 (clamped to >= 0) and zero for delta <= 0, with the
 * damping fixed at the last onset. Only a new largest penetration is still an
 * event (the law's end of compression, so that an elastoplastic law keeps its
 * unloading curve up to date). It leaves permanent contact when the gap exceeds
 * h = 0.1 delta_max of its last impact (at least 1e-12 m); the next onset is then a
 * new impact. That is the guard against an accumulation of events (Zeno): a
 * ball coming to rest ends after finitely many impacts, since its bounces
 * arrive ever slower and the first below v_settle rests. A slow onset is an
 * impact like any other (the beads of a chain at rest touch at zero speed when
 * the wave reaches them); its damping is fixed as for an approach at v_settle
 * and its record has no restitution (NaN).
 *
 * Effective mass at onset, through the constraints: 1/m_eff = w . z with w the
 * generalised normal direction and z the response [M Phi_q^T; Phi_q 0][z; -P]
 * = [w; 0] (the same solve as the piecewise treatment); for free bodies it is
 * 1/m_eff = sum over the two bodies of 1/m + ((p - r) x n)^2 / J. Inside the
 * right-hand side (the provisional onset of the step that brackets a root, and
 * contacts that start overlapping) the free-body value is used: the saddle
 * solve cannot be re-entered there. Only laws whose damping uses m_eff depend
 * on it.
 *
 * Piecewise treatment (impulse-momentum): no force and one root, the onset
 * (g0 = eps - delta). There the velocities jump, v += p z with z the solution of
 *   [M Phi_q^T; Phi_q 0][z; -P] = [w; 0]   (dyn_impulse_response),
 * w the generalised normal direction (delta_dot = -w . v) and
 * p = (1 + e) delta_dot / (w . z), so that delta_dot after = -e delta_dot before
 * and Phi_q v stays satisfied; 1 / (w . z) is the effective mass through the
 * constraints. The kinetic energy lost is added to the contact's damping
 * component and CVODE is re-initialised. An approach below v_settle stops the
 * simulation with a message (resting contact needs a continuous law).
 *
 * Energy audit: per contact up to two components integrated by CVODE,
 *   D' = (F_n - F(delta, 0)) delta_dot   (work of the rate-dependent part: damping)
 *   R' = -F_t v_t                          (friction, >= 0),
 * each only where it can be nonzero: D for a law that damps (an elastic law has
 * F(delta, rate) = F(delta, 0) exactly), R for a contact with friction, neither for
 * a piecewise contact (its losses are booked); an elastic chain of N beads has no
 * such component instead of 2N,
 * and the stored elastic energy U = integral_0^delta F(s, 0) ds (exact, from the
 * law: clink_law_stored_energy), so that
 *   T + V - W_drivers - W_loads + U + D + R = const.
 * At an event the state of the law may change the curve F(s, 0) under the
 * contact: U before minus U after, at the same penetration, leaves the books as
 * dissipated (c->impact.booked, added to D): the plastic work of an elastoplastic law
 * at its end of compression, the energy left in the spring of a law that
 * separates at zero force with delta > 0, the kinetic energy lost in a
 * piecewise impact. It is kept outside CVODE's state so that no event needs a
 * re-initialisation for the books' sake.
 *
 * Cost (docs/contact-mechanics.md, "Evaluation paths"): two circles centred on their
 * bodies (or on the ground) take kinematics_contact_circles, without rotations; the
 * law's constants are derived once per contact (contact_law_prepare) and F(delta, 0)
 * only where a damping integral needs it; each gives the general path's bits.
 */
#include "sim/sim_contact.h"
#include "contact/law_table.h"
#include "kinematics/contact_geometry.h"
#include "model/model_internal.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what never changes after simc_create (prepare_contact): the evaluation path and the
   law's constants */
typedef struct simc_fixed {
    /* the direct path of two circles (kinematics_contact_circles) when direct; slip: the
       friction reads v_t */
    int direct, slip;
    ptrdiff_t ia, ib; /* offsets of the bodies' coordinates in q (both bodies > 0: two) */
    int two;
    int elastic; /* a generic law without damping: F(delta, rate) = F(delta, 0) = K delta^n */
    contact_law_cache lc;
    double inv_mass[2],
        inertia[2]; /* each body's 1 / mass and moment of inertia (ground: unused) */
} simc_fixed;

/* the caches of an open contact (see body_q_unchanged, reuse_rest_force, open_force_memo) */
typedef struct simc_memo {
    /* an open contact at rest: the coordinates of its bodies when it was last evaluated,
       its onset root function and whether it was apart (delta <= 0) then; valid when
       rest_valid (see body_q_unchanged) */
    double rest_q[6];
    double rest_g;
    int rest_apart;
    int rest_valid;
    /* an open contact that overlaps at rest_q and whose force reads no velocity (direct path,
       elastic law, no friction): the normal and the generalised forces on B then A of that
       evaluation, valid when rest_force (see reuse_rest_force) */
    double rest_n[2], rest_Q[6];
    int rest_force;
    /* the provisional force of an open contact that overlaps (see open_force): the
       penetration, its rate and the inverse effective mass it was computed at, and the
       forces F(delta, delta_dot), F(delta, 0); valid when ok (cleared at events) */
    double key[3], fn, f0;
    int ok;
} simc_memo;

/* the impact in progress and the energy booked at events (impact records) */
typedef struct simc_episode {
    int in_impact;
    int lobes; /* its compression lobes so far */
    int hyst;  /* the hysteresis rule applies to it (a resting episode, or that bookkeeping) */
    double t_onset, f_max, diss0;
    double booked; /* energy dissipated at events (see the file comment), J */
} simc_episode;

typedef struct simc_contact {
    kinematics_shape sa, sb;
    int body_a, body_b;
    const clink_law *law;
    clink_contact_params p;
    clink_friction_params fr;
    clink_contact_state st;
    int persistent;
    int piecewise;    /* impulse-momentum treatment */
    double e_pw;      /* its restitution */
    double h_release; /* m */
    double eps;       /* onset level of delta, m */
    double v_settle;  /* m/s */
    /* last force evaluation */
    double pdamp, pfric;
    /* its damping and friction integrals in the energy components of y, -1 when it has
       none (an elastic law, no friction, a piecewise contact: the rate is 0 always) */
    int wd, wf;
    simc_fixed fixed;
    simc_memo memo;
    simc_episode impact;
} simc_contact;

/* the impact records kept and the host's callback */
typedef struct simc_records {
    clink_impact_record *list;
    int n, cap;
    clink_impact_fn cb;
    void *cb_data;
} simc_records;

/* the piecewise impacts' and onsets' solve through the constraints: the host's response
   function and w, z (ncoords each) */
typedef struct simc_impulse_work {
    simc_impulse_fn fn;
    void *data;
    double *w, *z;
} simc_impulse_work;

/* perturbed states (simc_forces_jacobian), ncoords each */
typedef struct simc_jac_work {
    double *xq, *xv;
} simc_jac_work;

/* per body (1 .. nbodies - 1): the angle last rotated and its (cos, sin), valid when ok;
   see body_rot */
typedef struct simc_rot_cache {
    double *trig;
    unsigned char *ok;
} simc_rot_cache;

struct simc {
    const clink_model *m;
    int n;
    simc_contact *c;
    simc_records records;
    simc_impulse_work imp;
    simc_jac_work jac;
    simc_rot_cache rot;
    char msg[256];
    long events;
    clink_contact_bookkeeping bookkeeping;
    int nwork;  /* energy components in y */
    int failed; /* a non-finite force at a finite state (simc_forces); cleared when taken */
};

static void to_shape(const clink_shape_def *d, kinematics_shape *s)
{
    memset(s, 0, sizeof *s);
    s->kind = d->type;
    memcpy(s->a, d->a, sizeof s->a);
    memcpy(s->b, d->b, sizeof s->b);
    memcpy(s->nrm, d->normal, sizeof s->nrm);
    s->r = d->radius;
}

/* what a contact's evaluation needs that never changes: its path, law constants, masses */
static void prepare_contact(const clink_model *m, simc_contact *c)
{
    c->fixed.direct = kinematics_contact_circles_ok(&c->sa, c->body_a) &&
                      kinematics_contact_circles_ok(&c->sb, c->body_b);
    /* the friction force reads v_t, and the friction power -F_t v_t where mu > 0 */
    c->fixed.slip = c->fr.kind != CLINK_FRICTION_NONE || c->fr.mu > 0.0;
    c->fixed.two = c->body_a > 0 && c->body_b > 0;
    c->fixed.ia = c->body_a > 0 ? 3 * (ptrdiff_t) (c->body_a - 1) : 0;
    c->fixed.ib = c->body_b > 0 ? 3 * (ptrdiff_t) (c->body_b - 1) : 0;
    contact_law_prepare(c->law, &c->p, &c->fixed.lc);
    c->fixed.elastic = c->fixed.lc.generic && c->law->rule == CLINK_RULE_NONE;
    for (int i = 0; i < 2; i++) {
        int body = i ? c->body_b : c->body_a;
        c->fixed.inv_mass[i] = body > 0 ? 1.0 / m->d.bodies[body].def.mass : 0.0;
        c->fixed.inertia[i] = body > 0 ? m->d.bodies[body].def.inertia : 0.0;
    }
}

simc *simc_create(const clink_model *m, double settle_speed, char *err, size_t errlen)
{
    simc *sc = calloc(1, sizeof *sc);
    int n = m->d.npairs + m->d.nclearances;
    if (sc)
        sc->c = calloc((size_t) (n > 0 ? n : 1), sizeof(simc_contact));
    if (!sc || !sc->c) {
        free(sc);
        if (err && errlen)
            snprintf(err, errlen, "contacts: out of memory");
        return NULL;
    }
    sc->m = m;
    sc->n = n;
    sc->imp.w = calloc((size_t) (m->ncoords > 0 ? m->ncoords : 1), sizeof(double));
    sc->imp.z = calloc((size_t) (m->ncoords > 0 ? m->ncoords : 1), sizeof(double));
    sc->rot.trig = calloc((size_t) (m->ncoords > 0 ? m->ncoords : 1), sizeof(double));
    sc->jac.xq = calloc((size_t) (m->ncoords > 0 ? m->ncoords : 1), sizeof(double));
    sc->jac.xv = calloc((size_t) (m->ncoords > 0 ? m->ncoords : 1), sizeof(double));
    sc->rot.ok = calloc((size_t) (m->d.nbodies > 0 ? m->d.nbodies : 1), 1);
    if (!sc->imp.w || !sc->imp.z || !sc->rot.trig || !sc->rot.ok || !sc->jac.xq || !sc->jac.xv) {
        free(sc->jac.xq);
        free(sc->jac.xv);
        free(sc->imp.w);
        free(sc->imp.z);
        free(sc->rot.trig);
        free(sc->rot.ok);
        free(sc->c);
        free(sc);
        if (err && errlen)
            snprintf(err, errlen, "contacts: out of memory");
        return NULL;
    }
    for (int k = 0; k < n; k++) {
        simc_contact *c = &sc->c[k];
        if (k < m->d.npairs) {
            const model_contact_pair *e = &m->d.pairs[k];
            c->body_a = e->def.body_a;
            c->body_b = e->def.body_b;
            to_shape(&e->def.shape_a, &c->sa);
            to_shape(&e->def.shape_b, &c->sb);
            c->law = clink_law_find(e->law);
            c->p = e->def.params;
            c->fr = e->def.friction;
            c->piecewise = e->def.treatment == CLINK_CONTACT_PIECEWISE;
            c->e_pw = e->def.restitution;
        } else {
            const model_clearance *e = &m->d.clearances[k - m->d.npairs];
            c->body_a = e->def.bearing_body;
            c->body_b = e->def.journal_body;
            c->sa.kind = CLINK_SHAPE_BORE;
            memcpy(c->sa.a, e->def.bearing_point, sizeof c->sa.a);
            c->sa.r = e->def.bearing_radius;
            c->sb.kind = CLINK_SHAPE_CIRCLE;
            memcpy(c->sb.a, e->def.journal_point, sizeof c->sb.a);
            c->sb.r = e->def.journal_radius;
            c->law = clink_law_find(e->law);
            c->p = e->def.params;
            c->fr = e->def.friction;
            c->piecewise = e->def.treatment == CLINK_CONTACT_PIECEWISE;
            c->e_pw = e->def.restitution;
        }
        clink_contact_state_init(&c->st);
        prepare_contact(m, c);
        double L = c->sa.kind == CLINK_SHAPE_LINE ? c->sb.r : c->sa.r + c->sb.r;
        c->eps = 1e-13 * (L > 1e-3 ? L : 1e-3);
        c->v_settle = settle_speed;
        c->h_release = 1e-12;
        /* an elastic law (no damping rule, the default force: chi = c = 0) gives
           F(delta, rate) = F(delta, 0) exactly, so its damping power is 0 */
        int damps = !c->piecewise && !(c->law->rule == CLINK_RULE_NONE && c->law->force == NULL);
        c->wd = damps ? sc->nwork++ : -1;
        c->wf = !c->piecewise && c->fr.mu > 0.0 ? sc->nwork++ : -1;
    }
    return sc;
}

void simc_destroy(simc **sc)
{
    if (!sc || !*sc)
        return;
    free((*sc)->c);
    free((*sc)->records.list);
    free((*sc)->imp.w);
    free((*sc)->imp.z);
    free((*sc)->rot.trig);
    free((*sc)->rot.ok);
    free((*sc)->jac.xq);
    free((*sc)->jac.xv);
    free(*sc);
    *sc = NULL;
}

void simc_set_bookkeeping(simc *sc, clink_contact_bookkeeping mode)
{
    sc->bookkeeping = mode;
}

int simc_count(const simc *sc)
{
    return sc ? sc->n : 0;
}

int simc_nroots(const simc *sc)
{
    return 2 * simc_count(sc);
}

int simc_nwork(const simc *sc)
{
    return sc ? sc->nwork : 0;
}

void simc_work(const simc *sc, int k, const double *work, double *damping, double *friction)
{
    const simc_contact *c = &sc->c[k];
    *damping = c->wd >= 0 ? work[c->wd] : 0.0;
    *friction = c->wf >= 0 ? work[c->wf] : 0.0;
}

/* ---- geometry and force --------------------------------------------------- */

static void pose_of(const double *q, const double *v, int body, kinematics_pose *p)
{
    if (body <= 0) {
        *p = (kinematics_pose){{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
        return;
    }
    const double *qb = q + 3 * (body - 1), *vb = v + 3 * (body - 1);
    *p = (kinematics_pose){{qb[0], qb[1], qb[2]}, {vb[0], vb[1], vb[2]}};
}

/* the bits of a double (one load) */
static inline uint64_t bits_of(const double *x)
{
    uint64_t u;
    memcpy(&u, x, sizeof u);
    return u;
}

/* nonzero bits where body's coordinates at q differ from those kept in r */
static inline uint64_t body_q_diff(const double *q, int body, const double *r)
{
    if (body <= 0)
        return 0;
    const double *x = q + 3 * (body - 1);
    return (bits_of(x) ^ bits_of(r)) | (bits_of(x + 1) ^ bits_of(r + 1)) |
           (bits_of(x + 2) ^ bits_of(r + 2));
}

/*
 * Nonzero if the coordinates of both bodies of c are bit for bit those of its last
 * evaluation in the open phase (c->memo.rest_q): then its geometry's delta and anything
 * computed from it alone are the same, and a contact between bodies at rest (a chain's
 * beads ahead of its wave) costs 6 comparisons instead of a geometry evaluation. The
 * comparison is of the bit patterns (as memcmp's), in integers, without a call.
 */
static inline int body_q_unchanged(const simc_contact *c, const double *q)
{
    if (c->fixed.two &&
        c->memo.rest_valid) { /* the common case, without the checks of the ground */
        const double *x = q + c->fixed.ia, *y = q + c->fixed.ib, *r = c->memo.rest_q;
        return ((bits_of(x) ^ bits_of(r)) | (bits_of(x + 1) ^ bits_of(r + 1)) |
                (bits_of(x + 2) ^ bits_of(r + 2)) | (bits_of(y) ^ bits_of(r + 3)) |
                (bits_of(y + 1) ^ bits_of(r + 4)) | (bits_of(y + 2) ^ bits_of(r + 5))) == 0;
    }
    return c->memo.rest_valid && (body_q_diff(q, c->body_a, c->memo.rest_q) |
                                  body_q_diff(q, c->body_b, c->memo.rest_q + 3)) == 0;
}

static void remember_q(simc_contact *c, const double *q)
{
    if (c->body_a > 0)
        memcpy(c->memo.rest_q, q + 3 * (c->body_a - 1), 3 * sizeof(double));
    if (c->body_b > 0)
        memcpy(c->memo.rest_q + 3, q + 3 * (c->body_b - 1), 3 * sizeof(double));
}

/*
 * The direct path of two circles centred on their bodies (or fixed on the ground): no
 * pose copies, no rotations (kinematics_contact_circles, the same bits as the general
 * path); -1 when it does not apply (then the caller takes the general path).
 */
static inline int geometry_direct(const simc_contact *c, const double *q, const double *v,
                                  kinematics_contact *g)
{
    if (!c->fixed.direct)
        return -1;
    const double *qa = NULL, *va = NULL, *qb = NULL, *vb = NULL;
    if (c->body_a > 0) {
        qa = q + 3 * (c->body_a - 1);
        va = v + 3 * (c->body_a - 1);
    }
    if (c->body_b > 0) {
        qb = q + 3 * (c->body_b - 1);
        vb = v + 3 * (c->body_b - 1);
    }
    return kinematics_contact_circles(&c->sa, qa, va, &c->sb, qb, vb, c->fixed.slip, g);
}

static int geometry(const simc_contact *c, const double *q, const double *v, kinematics_contact *g)
{
    if (geometry_direct(c, q, v, g) == 0)
        return 0;
    kinematics_pose pa, pb;
    pose_of(q, v, c->body_a, &pa);
    pose_of(q, v, c->body_b, &pb);
    return kinematics_contact_eval(&c->sa, &pa, &c->sb, &pb, g);
}

/*
 * (cos, sin) of the angle of body (ground: (1, 0)) at q, computed only when the angle
 * differs bit for bit from the one last rotated: a body that does not turn (a chain's
 * bead) costs no trigonometry after its first contact evaluation, and the others one
 * sincos per body per state instead of one per contact (the same bits either way).
 */
static void body_rot(simc *sc, const double *q, int body, double rot[2])
{
    if (body <= 0) {
        rot[0] = cos(0.0);
        rot[1] = sin(0.0);
        return;
    }
    double *t = sc->rot.trig + 3 * (body - 1);
    const double *phi = q + 3 * (body - 1) + 2;
    if (!sc->rot.ok[body] || memcmp(phi, t, sizeof(double)) != 0) {
        t[0] = *phi;
        t[1] = cos(*phi);
        t[2] = sin(*phi);
        sc->rot.ok[body] = 1;
    }
    rot[0] = t[1];
    rot[1] = t[2];
}

/* geometry() with the bodies' rotations from the cache of body_rot (the direct path needs none) */
static int geometry_cached(simc *sc, const simc_contact *c, const double *q, const double *v,
                           kinematics_contact *g)
{
    if (geometry_direct(c, q, v, g) == 0)
        return 0;
    kinematics_pose pa, pb;
    double ra[2], rb[2];
    pose_of(q, v, c->body_a, &pa);
    pose_of(q, v, c->body_b, &pb);
    body_rot(sc, q, c->body_a, ra);
    body_rot(sc, q, c->body_b, rb);
    return kinematics_contact_eval_rot(&c->sa, &pa, ra, &c->sb, &pb, rb, g);
}

static int in_contact(const simc_contact *c)
{
    return c->st.phase == CLINK_CONTACT_COMPRESSION || c->st.phase == CLINK_CONTACT_RESTITUTION;
}

/*
 * The law's normal force of contact c in law state st (c's own, or a provisional onset's)
 * at (delta, rate), see the file comment; *f0 (optional) receives the same at rate 0,
 * F(delta, 0), from the same powers of delta (contact_law_force_pair: the bits of two
 * evaluations).
 */
static double law_normal(const simc_contact *c, const clink_contact_state *st, double delta,
                         double rate, double *f0)
{
    if (c->piecewise ||
        !(st->phase == CLINK_CONTACT_COMPRESSION || st->phase == CLINK_CONTACT_RESTITUTION) ||
        !(delta > 0.0)) {
        if (f0)
            *f0 = 0.0;
        return 0.0;
    }
    double f, fz;
    if (f0 || c->fixed.lc.generic) {
        /* the generic law's force in one call (F(delta, 0) costs a product more) */
        f = contact_law_force_pair(c->law, &c->p, st, delta, rate, &fz);
        if (f0)
            *f0 = c->persistent && fz < 0.0 ? 0.0 : fz;
    } else {
        f = clink_law_force(c->law, &c->p, st, delta, rate);
    }
    if (c->persistent && f < 0.0)
        return 0.0;
    return f;
}

/* the law's normal force with the contact's state (see the file comment) */
static double normal_force(const simc_contact *c, double delta, double rate)
{
    return law_normal(c, &c->st, delta, rate, NULL);
}

/* ---- effective mass ------------------------------------------------------- */

/* inverse mass of one free body (side 0: A, 1: B) along n at its contact point p (ground: 0),
   1/kg, from the masses kept at creation */
static double inv_mass_along(const simc_contact *c, int side, const double p[2], const double *q,
                             const double n[2])
{
    int body = side ? c->body_b : c->body_a;
    if (body <= 0)
        return 0.0;
    const double *qb = q + 3 * (body - 1);
    double rxn = (p[0] - qb[0]) * n[1] - (p[1] - qb[1]) * n[0];
    return c->fixed.inv_mass[side] + rxn * rxn / c->fixed.inertia[side];
}

/* inverse effective mass of the pair along the normal, as free bodies, 1/kg */
static double free_inv_mass(const simc *sc, const simc_contact *c, const kinematics_contact *geo,
                            const double *q)
{
    (void) sc;
    return inv_mass_along(c, 0, geo->p_a, q, geo->n) + inv_mass_along(c, 1, geo->p_b, q, geo->n);
}

/*
 * The normal force at a configuration: the state's, or in OPEN with delta > 0
 * a provisional onset at the current rate (the law's constants cached at creation:
 * contact_law_onset_cached). *f0 (optional) receives F(delta, 0).
 */
static double contact_force(const simc *sc, const simc_contact *c, const kinematics_contact *geo,
                            const double *q, double *f0)
{
    if (c->piecewise) {
        if (f0)
            *f0 = 0.0;
        return 0.0;
    }
    if (c->st.phase == CLINK_CONTACT_OPEN && geo->delta > 0.0) {
        clink_contact_state tmp = c->st;
        double w = free_inv_mass(sc, c, geo, q);
        double v = geo->delta_dot > c->v_settle ? geo->delta_dot : c->v_settle;
        if (contact_law_onset_cached(c->law, &c->p, &c->fixed.lc, v, 1.0 / w, &tmp) != CLINK_OK)
            return NAN;
        return law_normal(c, &tmp, geo->delta, geo->delta_dot, f0);
    }
    return law_normal(c, &c->st, geo->delta, geo->delta_dot, f0);
}

/*
 * contact_force() of an open contact with delta > 0 (the provisional onset), computed
 * again only when its penetration, rate or inverse effective mass differ bit for bit
 * from the last call's: the force is a function of those and of the contact's law,
 * parameters and phase, which change only at its events (simc_handle_roots clears the
 * memo). Touching beads ahead of a chain's wave overlap by rounding (up to 1e-15 m)
 * and are at rest, so they pay one onset and one law evaluation instead of one per
 * right-hand side; the forces are the same bits either way. An elastic law's force
 * (c->fixed.elastic: no damping, chi = c = 0 whatever the onset) depends on delta alone for a
 * finite rate (a non-finite one is never memorised: its onset fails), so its key is delta:
 * beads that keep their positions while their speeds change by rounding hit it too.
 */
static double open_force_memo(const simc *sc, const simc_contact *c, const kinematics_contact *geo,
                              const double *q, double *f0, simc_contact *keep)
{
    if (c->fixed.elastic && !isfinite(geo->delta_dot))
        return contact_force(sc, c, geo, q, f0);
    double key[3] = {geo->delta, 0.0, 0.0};
    if (!c->fixed.elastic) {
        key[1] = geo->delta_dot;
        key[2] = free_inv_mass(sc, c, geo, q);
    }
    if (c->memo.ok && memcmp(key, c->memo.key, sizeof key) == 0) {
        if (f0)
            *f0 = c->memo.f0;
        return c->memo.fn;
    }
    double fz = 0.0; /* F(delta, 0) is kept for any later caller that asks for it */
    double fn = contact_force(sc, c, geo, q, &fz);
    if (f0)
        *f0 = fz;
    if (keep) {
        memcpy(keep->memo.key, key, sizeof key);
        keep->memo.fn = fn;
        keep->memo.f0 = fz;
        keep->memo.ok = 1;
    }
    return fn;
}

/* open_force_memo that keeps what it computes (the right-hand side) */
static double open_force(const simc *sc, simc_contact *c, const kinematics_contact *geo,
                         const double *q, double *f0)
{
    return open_force_memo(sc, c, geo, q, f0, c);
}

/* the generalised force Q (kinematics_point_force's (f, (p - r) x f), written out) of the
   force f (N) at world point p on body (ground: 0), added to g */
static void add_point_force(double *g, const double *q, int body, const double p[2],
                            const double f[2], double Q[3])
{
    if (body <= 0)
        return;
    const double *r = q + 3 * (body - 1);
    double *gb = g + 3 * (body - 1);
    Q[0] = f[0];
    Q[1] = f[1];
    Q[2] = (p[0] - r[0]) * f[1] - (p[1] - r[1]) * f[0];
    gb[0] += Q[0];
    gb[1] += Q[1];
    gb[2] += Q[2];
}

/*
 * An open contact whose bodies' coordinates are bit for bit those of its last force
 * evaluation (body_q_unchanged) and whose force reads no velocity (c->memo.rest_force: the
 * direct path, an elastic law, no friction): its penetration, normal and contact points
 * are those of rest_q, its force F(delta) too (open_force), so its generalised forces are
 * those kept, added in the same order. Only the rate is computed, as the geometry does,
 * because a non-finite one fails the onset (then the full path runs). Its damping and
 * friction powers are read by nobody (no such integrals). Returns 1 if it added them.
 */
static int reuse_rest_force(const simc_contact *c, const double *q, const double *v, double *g)
{
    const double *qa = c->body_a > 0 ? q + 3 * (c->body_a - 1) : NULL;
    const double *qb = c->body_b > 0 ? q + 3 * (c->body_b - 1) : NULL;
    double ca[2], cb[2], vqa[2], vqb[2];
    kinematics_circle_core_(&c->sa, qa, ca);
    kinematics_circle_core_(&c->sb, qb, cb);
    kinematics_circle_velocity_(qa, qa ? v + 3 * (c->body_a - 1) : NULL, ca, vqa);
    kinematics_circle_velocity_(qb, qb ? v + 3 * (c->body_b - 1) : NULL, cb, vqb);
    double rate =
        -1.0 * (c->memo.rest_n[0] * (vqb[0] - vqa[0]) + c->memo.rest_n[1] * (vqb[1] - vqa[1]));
    if (!isfinite(rate))
        return 0;
    for (int side = 1; side >= 0; side--) {
        int body = side ? c->body_b : c->body_a;
        if (body <= 0)
            continue;
        double *gb = g + 3 * (body - 1);
        const double *Q = c->memo.rest_Q + 3 * (1 - side);
        gb[0] += Q[0];
        gb[1] += Q[1];
        gb[2] += Q[2];
    }
    return 1;
}

/*
 * Contact k's share of simc_forces: its generalised forces added to g and its damping and
 * friction powers; 0, or -1 (a geometry that fails, or a non-finite force: sc->failed).
 * F(delta, 0) is evaluated only for a contact whose damping power is kept (c->wd >= 0): an
 * elastic law's is F(delta, rate) itself.
 */
static int contact_forces(simc *sc, int k, double t, const double *q, const double *v, double *g)
{
    simc_contact *c = &sc->c[k];
    c->pdamp = c->pfric = 0.0;
    if (c->piecewise || c->st.phase == CLINK_CONTACT_RELEASED)
        return 0;
    int open = c->st.phase == CLINK_CONTACT_OPEN && !c->persistent;
    if (open && body_q_unchanged(c, q)) {
        if (c->memo.rest_apart)
            return 0; /* apart as at its last evaluation: no force */
        if (c->memo.rest_force && reuse_rest_force(c, q, v, g))
            return 0;
    }
    kinematics_contact geo;
    if (geometry_cached(sc, c, q, v, &geo) != 0)
        return -1;
    if (open) {
        remember_q(c, q);
        c->memo.rest_g = NAN; /* the root function is not evaluated here */
        c->memo.rest_apart = !(geo.delta > 0.0);
        c->memo.rest_valid = 1;
        c->memo.rest_force = 0;
    }
    if (!(geo.delta > 0.0))
        return 0;
    double f0 = 0.0;
    double *f0p = c->wd >= 0 ? &f0 : NULL;
    double fn = c->st.phase == CLINK_CONTACT_OPEN ? open_force(sc, c, &geo, q, f0p)
                                                  : contact_force(sc, c, &geo, q, f0p);
    if (!f0p)
        f0 = fn;
    double ft = clink_friction_force(&c->fr, geo.v_t, fn > 0.0 ? fn : 0.0);
    if (!isfinite(fn) || !isfinite(ft) || !isfinite(f0)) {
        /* the state is finite (dyn_accelerations checks it first): the law or the
           friction gave NaN or infinity, and no smaller step changes that */
        snprintf(sc->msg, sizeof sc->msg,
                 "contact %d (%s): non-finite force at t = %.9g s (normal %g N, friction %g N "
                 "at penetration %.6g m, rate %.6g m/s)",
                 k, clink_law_name(c->law), t, fn, ft, geo.delta, geo.delta_dot);
        sc->failed = 1;
        return -1;
    }
    double f[2] = {fn * geo.n[0] + ft * geo.t[0], fn * geo.n[1] + ft * geo.t[1]};
    double fa[2] = {-f[0], -f[1]};
    add_point_force(g, q, c->body_b, geo.p_b, f, c->memo.rest_Q);
    add_point_force(g, q, c->body_a, geo.p_a, fa, c->memo.rest_Q + 3);
    if (open && c->fixed.direct && c->fixed.elastic && !c->fixed.slip) {
        memcpy(c->memo.rest_n, geo.n, sizeof c->memo.rest_n);
        c->memo.rest_force = 1;
    }
    c->pdamp = (fn - f0) * geo.delta_dot;
    c->pfric = -ft * geo.v_t;
    return 0;
}

int simc_forces(void *data, double t, const double *q, const double *v, double *g, double *power)
{
    (void) power;
    simc *sc = data;
    for (int k = 0; k < sc->n; k++)
        if (contact_forces(sc, k, t, q, v, g) != 0)
            return -1;
    return 0;
}

/* ---- Jacobian of the contact forces (simc_forces_jacobian) ----------------- */

/* nonzero if simc_forces gives contact c a force at all (phase and treatment) */
static int exerts_force(const simc_contact *c)
{
    return !c->piecewise && c->st.phase != CLINK_CONTACT_RELEASED;
}

/* the normal force of contact c with geo's penetration and rate replaced */
static double force_at(const simc *sc, const simc_contact *c, const kinematics_contact *geo,
                       const double *q, double delta, double rate)
{
    kinematics_contact g = *geo;
    g.delta = delta;
    g.delta_dot = rate;
    return contact_force(sc, c, &g, q, NULL);
}

/*
 * Generalised contact force of contact c alone at (q, v) into QA, QB (zero when apart),
 * as simc_forces computes it, without touching the contact's caches; 0 or -1.
 */
static int contact_generalised(const simc *sc, const simc_contact *c, const double *q,
                               const double *v, double QA[3], double QB[3])
{
    kinematics_contact geo;
    for (int i = 0; i < 3; i++)
        QA[i] = QB[i] = 0.0;
    if (geometry(c, q, v, &geo) != 0)
        return -1;
    if (!(geo.delta > 0.0))
        return 0;
    double fn = contact_force(sc, c, &geo, q, NULL);
    double ft = clink_friction_force(&c->fr, geo.v_t, fn > 0.0 ? fn : 0.0);
    double f[2] = {fn * geo.n[0] + ft * geo.t[0], fn * geo.n[1] + ft * geo.t[1]};
    double fa[2] = {-f[0], -f[1]};
    if (c->body_b > 0)
        kinematics_point_force(q + 3 * (c->body_b - 1), geo.p_b, f, QB);
    if (c->body_a > 0)
        kinematics_point_force(q + 3 * (c->body_a - 1), geo.p_a, fa, QA);
    return isfinite(fn) && isfinite(ft) ? 0 : -1;
}

/* contact c's generalised forces at x[col] = xc + h (x = sc->jac.xq or sc->jac.xv) into A, B */
static int contact_shifted(simc *sc, const simc_contact *c, double *x, int col, double h,
                           double A[3], double B[3])
{
    double xc = x[col];
    x[col] = xc + h;
    int rc = contact_generalised(sc, c, sc->jac.xq, sc->jac.xv, A, B);
    x[col] = xc;
    return rc;
}

/*
 * Adds column `col` (a coordinate of q, or of v if rate) of contact c's generalised force
 * by central differences over that coordinate alone, extrapolated (Richardson: steps h
 * and h / 2, h = 1e-6 max(|x|, 1e-2), error of order h^4: a stiff contact's curvature
 * over a penetration of micrometres makes the plain difference's h^2 error visible)
 */
static int local_difference(simc *sc, const simc_contact *c, int nq, int col, int rate, double *out)
{
    double *x = rate ? sc->jac.xv : sc->jac.xq;
    double h = 1e-6 * fmax(fabs(x[col]), 1e-2);
    double A[4][3], B[4][3];
    const double steps[4] = {h, -h, 0.5 * h, -0.5 * h};
    for (int i = 0; i < 4; i++)
        if (contact_shifted(sc, c, x, col, steps[i], A[i], B[i]) != 0)
            return -1;
    for (int i = 0; i < 3; i++) {
        double da = (4.0 * (A[2][i] - A[3][i]) / h - (A[0][i] - A[1][i]) / (2.0 * h)) / 3.0;
        double db = (4.0 * (B[2][i] - B[3][i]) / h - (B[0][i] - B[1][i]) / (2.0 * h)) / 3.0;
        if (c->body_a > 0)
            out[(size_t) col * nq + 3 * (c->body_a - 1) + i] += da;
        if (c->body_b > 0)
            out[(size_t) col * nq + 3 * (c->body_b - 1) + i] += db;
    }
    return 0;
}

/* a body's coordinate as a dual seeded at slot (3 side + k) */
static kinematics_dual seeded(double x, int slot)
{
    kinematics_dual r;
    memset(&r, 0, sizeof r);
    r.v = x;
    if (slot >= 0)
        r.d[slot] = 1.0;
    return r;
}

/* (p - r) x f of duals */
static kinematics_dual dual_moment(const kinematics_dual p[2], const kinematics_dual r[2],
                                   const kinematics_dual f[2])
{
    return kinematics_dual_sub(kinematics_dual_mul(kinematics_dual_sub(p[0], r[0]), f[1]),
                               kinematics_dual_mul(kinematics_dual_sub(p[1], r[1]), f[0]));
}

/*
 * One contact's derivatives: the geometry exactly (kinematics_contact_eval_diff), the
 * law's normal force by central differences in its two arguments, penetration and
 * rate, the friction force's slope in the slip likewise and in F_n exactly (it is
 * linear in F_n). Returns 1 if the pair has no exact derivatives (a capsule).
 */
static int contact_jacobian(const simc *sc, const simc_contact *c, const double *q, const double *v,
                            int nq, double *gq, double *gv)
{
    kinematics_pose pa, pb;
    pose_of(q, v, c->body_a, &pa);
    pose_of(q, v, c->body_b, &pb);
    kinematics_contact_diff d;
    if (kinematics_contact_eval_diff(&c->sa, c->body_a > 0 ? &pa : NULL, &c->sb,
                                     c->body_b > 0 ? &pb : NULL, &d) != 0)
        return 1;
    if (!(d.delta.v > 0.0))
        return 0;
    kinematics_contact geo;
    memset(&geo, 0, sizeof geo);
    geo.delta = d.delta.v;
    geo.delta_dot = d.delta_dot.v;
    for (int k = 0; k < 2; k++) {
        geo.n[k] = d.n[k].v;
        geo.t[k] = d.t[k].v;
        geo.p_a[k] = d.p_a[k].v;
        geo.p_b[k] = d.p_b[k].v;
    }
    geo.v_t = d.v_t.v;
    double dl = geo.delta, rt = geo.delta_dot;
    double hd = 1e-6 * dl, hr = 1e-6 * fmax(fabs(rt), c->v_settle);
    double fn = force_at(sc, c, &geo, q, dl, rt);
    double fn_d = (force_at(sc, c, &geo, q, dl + hd, rt) - force_at(sc, c, &geo, q, dl - hd, rt)) /
                  (2.0 * hd);
    double fn_r = (force_at(sc, c, &geo, q, dl, rt + hr) - force_at(sc, c, &geo, q, dl, rt - hr)) /
                  (2.0 * hr);
    kinematics_dual Fn = kinematics_dual_add(kinematics_dual_scale(d.delta, fn_d),
                                             kinematics_dual_scale(d.delta_dot, fn_r));
    Fn.v = fn;
    double fp = fn > 0.0 ? fn : 0.0, vt = geo.v_t;
    double ft = clink_friction_force(&c->fr, vt, fp);
    kinematics_dual Ft = seeded(ft, -1);
    if (fp > 0.0 && ft != 0.0) {
        double hv = 1e-6 * fmax(fabs(vt), c->fr.v1 > 0.0 ? c->fr.v1 : 1e-6);
        double ft_v = (clink_friction_force(&c->fr, vt + hv, fp) -
                       clink_friction_force(&c->fr, vt - hv, fp)) /
                      (2.0 * hv);
        Ft = kinematics_dual_add(kinematics_dual_scale(d.v_t, ft_v),
                                 kinematics_dual_scale(Fn, ft / fp));
        Ft.v = ft;
    }
    if (!isfinite(fn) || !isfinite(fn_d) || !isfinite(fn_r) || !isfinite(Ft.v))
        return -1;
    kinematics_dual f[2], fa[2];
    for (int k = 0; k < 2; k++) {
        f[k] =
            kinematics_dual_add(kinematics_dual_mul(Fn, d.n[k]), kinematics_dual_mul(Ft, d.t[k]));
        fa[k] = kinematics_dual_scale(f[k], -1.0);
    }
    for (int side = 0; side < 2; side++) {
        int body = side ? c->body_b : c->body_a;
        if (body <= 0)
            continue;
        const double *qb = q + 3 * (body - 1);
        kinematics_dual r[2] = {seeded(qb[0], 3 * side), seeded(qb[1], 3 * side + 1)};
        const kinematics_dual *fs = side ? f : fa;
        kinematics_dual Q[3] = {fs[0], fs[1], dual_moment(side ? d.p_b : d.p_a, r, fs)};
        for (int slot = 0; slot < KINEMATICS_NDIFF; slot++) {
            int in_body = (slot % 6) / 3 ? c->body_b : c->body_a;
            if (in_body <= 0)
                continue;
            int col = 3 * (in_body - 1) + slot % 3;
            double *out = (slot < 6 ? gq : gv) + (size_t) col * nq + 3 * (body - 1);
            for (int i = 0; i < 3; i++)
                out[i] += Q[i].d[slot];
        }
    }
    return 0;
}

int simc_forces_jacobian(void *data, double t, const double *q, const double *v, double *gq,
                         double *gv)
{
    simc *sc = data;
    int nq = sc->m->ncoords;
    for (int k = 0; k < sc->n; k++) {
        const simc_contact *c = &sc->c[k];
        if (!exerts_force(c))
            continue;
        int rc = contact_jacobian(sc, c, q, v, nq, gq, gv);
        if (rc < 0) {
            snprintf(sc->msg, sizeof sc->msg,
                     "contact %d (%s): non-finite force derivative at t = %.9g s", k,
                     clink_law_name(c->law), t);
            return -1;
        }
        if (rc == 0)
            continue;
        /* a capsule: central differences over the coordinates of its two bodies */
        memcpy(sc->jac.xq, q, (size_t) nq * sizeof(double));
        memcpy(sc->jac.xv, v, (size_t) nq * sizeof(double));
        for (int side = 0; side < 2; side++) {
            int body = side ? c->body_b : c->body_a;
            for (int i = 0; body > 0 && i < 3; i++)
                for (int rate = 0; rate < 2; rate++)
                    if (local_difference(sc, c, nq, 3 * (body - 1) + i, rate, rate ? gv : gq) != 0)
                        return -1;
        }
    }
    return 0;
}

void simc_dissipation_rates(const simc *sc, double *rates)
{
    for (int k = 0; k < sc->n; k++) {
        const simc_contact *c = &sc->c[k];
        if (c->wd >= 0)
            rates[c->wd] = c->pdamp;
        if (c->wf >= 0)
            rates[c->wf] = c->pfric;
    }
}

/* ---- energy --------------------------------------------------------------- */

/* integral_0^delta F(s, 0) ds of the law in the contact's state (exact, clink_law_stored_energy) */
static double stored(const simc_contact *c, double delta)
{
    if (c->piecewise || !in_contact(c))
        return 0.0;
    return clink_law_stored_energy(c->law, &c->p, &c->st, delta);
}

double simc_stored_energy(simc *sc, const double *q, const double *v)
{
    double u = 0.0;
    for (int k = 0; k < sc->n; k++) {
        kinematics_contact geo;
        if (in_contact(&sc->c[k]) && geometry(&sc->c[k], q, v, &geo) == 0)
            u += stored(&sc->c[k], geo.delta);
    }
    return u;
}

/* ---- roots ---------------------------------------------------------------- */

/* largest |coordinate| of the two bodies' positions, m (0 for the ground) */
static double coordinate_size(const simc_contact *c, const double *q)
{
    double s = 0.0;
    for (int i = 0; i < 2; i++) {
        int body = i ? c->body_b : c->body_a;
        if (body > 0)
            s = fmax(s, fmax(fabs(q[3 * (body - 1)]), fabs(q[3 * (body - 1) + 1])));
    }
    return s;
}

void simc_start(simc *sc, const double *q, const double *v)
{
    for (int k = 0; k < sc->n; k++) {
        simc_contact *c = &sc->c[k];
        kinematics_contact geo;
        /* the penetration is a difference of positions: its rounding grows with their size
           (beads 33 m from the origin overlap by 4.5e-15 m where they touch), and the onset
           level must stay above it */
        c->eps = fmax(c->eps, 16.0 * DBL_EPSILON * coordinate_size(c, q));
        c->memo.rest_valid = 0;
        c->memo.rest_force = 0;
        c->memo.ok = 0;
        if (c->piecewise || geometry(c, q, v, &geo) != 0 || !(geo.delta > c->eps))
            continue;
        /* starts overlapping (beyond the onset level eps: an overlap below it is the rounding
           of touching shapes, and the contact starts open): permanent contact from the start,
           damping at v_settle */
        double w = free_inv_mass(sc, c, &geo, q);
        if (clink_law_onset(c->law, &c->p, c->v_settle, 1.0 / w, &c->st) == CLINK_OK) {
            c->st.delta_max = geo.delta;
            c->persistent = 1;
            c->h_release = fmax(1e-12, 0.1 * geo.delta);
        }
    }
}

/*
 * The two root functions of contact c at (q, v) into gk[0], gk[1] (see the file comment);
 * simc_roots' work for one contact, for any caller that evaluates some contacts only.
 */
static void contact_roots(simc *sc, simc_contact *c, const double *q, const double *v, double *gk)
{
    kinematics_contact geo;
    gk[0] = gk[1] = 1.0;
    int open = !c->piecewise && !c->persistent && c->st.phase == CLINK_CONTACT_OPEN;
    if (open && body_q_unchanged(c, q) && !isnan(c->memo.rest_g)) {
        gk[0] = c->memo.rest_g; /* eps - delta as at its last evaluation */
        return;
    }
    if (geometry_cached(sc, c, q, v, &geo) != 0)
        return;
    if (c->piecewise) {
        gk[0] = c->eps - geo.delta;
    } else if (c->persistent) {
        gk[0] = geo.delta + c->h_release;
        gk[1] = geo.delta > c->st.delta_max ? geo.delta_dot : 1.0;
    } else if (c->st.phase == CLINK_CONTACT_OPEN) {
        gk[0] = c->eps - geo.delta;
    } else if (c->st.phase == CLINK_CONTACT_COMPRESSION) {
        gk[0] = geo.delta_dot;
        gk[1] = geo.delta;
    } else if (c->st.phase == CLINK_CONTACT_RESTITUTION) {
        gk[0] = geo.delta >= 0.0
                    ? clink_law_separation(c->law, &c->p, &c->st, geo.delta, geo.delta_dot)
                    : geo.delta;
        gk[1] = geo.delta_dot - 1e-9 * c->st.v_impact;
    } else { /* RELEASED */
        gk[0] = c->st.delta_sep + c->eps - geo.delta;
        gk[1] = geo.delta;
    }
    for (int i = 0; i < 2; i++)
        if (!isfinite(gk[i]))
            gk[i] = 1.0;
    if (open) {
        remember_q(c, q);
        c->memo.rest_g = gk[0];
        c->memo.rest_apart = !(geo.delta > 0.0);
        c->memo.rest_valid = 1;
        c->memo.rest_force = 0; /* its forces are of another configuration */
    }
}

int simc_roots(simc *sc, double t, const double *q, const double *v, double *g)
{
    (void) t;
    for (int k = 0; k < sc->n; k++)
        contact_roots(sc, &sc->c[k], q, v, g + 2 * k);
    return 0;
}

int simc_roots_some(simc *sc, const int *contacts, int n, const double *q, const double *v,
                    double *g)
{
    for (int i = 0; i < n; i++)
        contact_roots(sc, &sc->c[contacts[i]], q, v, g + 2 * contacts[i]);
    return 0;
}

void simc_bodies(const simc *sc, int k, int *body_a, int *body_b)
{
    *body_a = sc->c[k].body_a;
    *body_b = sc->c[k].body_b;
}

void simc_root_directions(const simc *sc, int *dirs)
{
    for (int k = 0; k < sc->n; k++) {
        const simc_contact *c = &sc->c[k];
        dirs[2 * k] = -1;
        dirs[2 * k + 1] = (!c->persistent && c->st.phase == CLINK_CONTACT_RESTITUTION) ? 1 : -1;
    }
}

void simc_after_step(simc *sc, double t, const double *q, const double *v)
{
    (void) t;
    for (int k = 0; k < sc->n; k++) {
        simc_contact *c = &sc->c[k];
        kinematics_contact geo;
        if (!c->impact.in_impact || geometry_cached(sc, c, q, v, &geo) != 0)
            continue;
        double f = normal_force(c, geo.delta, geo.delta_dot);
        if (f > c->impact.f_max)
            c->impact.f_max = f;
        if (geo.delta > c->st.delta_max)
            c->st.delta_max = geo.delta;
    }
}

/* ---- events --------------------------------------------------------------- */

/* stores an impact record and calls the host's callback; -1 when out of memory */
static int push_record(simc *sc, const clink_impact_record *r)
{
    if (sc->records.n == sc->records.cap) {
        int nc = sc->records.cap ? 2 * sc->records.cap : 64;
        clink_impact_record *p = realloc(sc->records.list, (size_t) nc * sizeof *p);
        if (!p) {
            snprintf(sc->msg, sizeof sc->msg,
                     "contact %d: out of memory storing impact record %d (onset t = %.9g s)",
                     r->contact, sc->records.n, r->t_onset);
            return -1;
        }
        sc->records.list = p;
        sc->records.cap = nc;
    }
    sc->records.list[sc->records.n++] = *r;
    if (sc->records.cb)
        sc->records.cb(sc->records.cb_data, r);
    return 0;
}

/* the record of the impact in progress at contact k, ended at t; -1 when out of memory */
static int close_impact(simc *sc, int k, double t, double v_sep, const double *work, int persistent)
{
    simc_contact *c = &sc->c[k];
    if (!c->impact.in_impact)
        return 0;
    clink_impact_record r;
    memset(&r, 0, sizeof r);
    r.contact = k;
    r.t_onset = c->impact.t_onset;
    r.duration = t - c->impact.t_onset;
    r.v_impact = c->st.v_impact;
    r.v_separation = v_sep;
    r.restitution = c->st.v_impact >= c->v_settle ? v_sep / c->st.v_impact : NAN;
    r.delta_max = c->st.delta_max;
    r.F_max = c->impact.f_max;
    double wd, wf;
    simc_work(sc, k, work, &wd, &wf);
    r.dissipated = wd + wf + c->impact.booked - c->impact.diss0;
    r.m_eff = c->st.m_eff;
    r.persistent = persistent;
    r.lobes = c->impact.lobes;
    c->impact.in_impact = 0;
    return push_record(sc, &r);
}

/* force probes for the re-initialisation rule */
static void probe(const simc_contact *c, double delta, double rate, double out[3])
{
    double r = -0.01 * (c->st.v_impact > 0.0 ? c->st.v_impact : c->v_settle);
    out[0] = normal_force(c, delta, rate);
    out[1] = normal_force(c, delta, r);
    out[2] = normal_force(c, 0.5 * delta, r);
}

static int jumped(const double a[3], const double b[3], double scale)
{
    for (int i = 0; i < 3; i++)
        if (fabs(a[i] - b[i]) > 1e-9 * scale)
            return 1;
    return 0;
}

static void enter_persistent(simc_contact *c)
{
    c->persistent = 1;
    c->h_release = fmax(1e-12, 0.1 * c->st.delta_max);
}

/* kinetic energy, J */
static double kinetic(const simc *sc, const double *v)
{
    double T = 0.0;
    for (int i = 1; i < sc->m->d.nbodies; i++) {
        const clink_body_def *b = &sc->m->d.bodies[i].def;
        const double *vi = v + 3 * (i - 1);
        T += 0.5 * (b->mass * (vi[0] * vi[0] + vi[1] * vi[1]) + b->inertia * vi[2] * vi[2]);
    }
    return T;
}

/*
 * Piecewise impact of contact k: the generalised normal direction w (on B
 * (n, (p_B - r_B) x n), on A the opposite at p_A), so that delta_dot = -w . v;
 * z = response to the impulse w; p = (1 + e) delta_dot / (w . z); v += p z.
 * The kinetic energy lost goes to the contact's damping component.
 */
/*
 * The generalised normal direction w of contact c (on B (n, (p_B - r_B) x n), on A
 * the opposite at p_A; delta_dot = -w . v) into sc->imp.w, the velocity response
 * z to the impulse w through the constraints into sc->imp.z, and w . z = 1 / m_eff.
 * Returns 0, or -1 with the cause in sc->msg. Not callable from inside the
 * right-hand side (it uses the dynamics' work arrays).
 */
static int constrained_response(simc *sc, int k, double t, const double *q,
                                const kinematics_contact *geo, double *wz_out)
{
    simc_contact *c = &sc->c[k];
    int nq = sc->m->ncoords;
    double *w = sc->imp.w, *z = sc->imp.z;
    for (int i = 0; i < nq; i++)
        w[i] = 0.0;
    if (c->body_b > 0) {
        const double *qb = q + 3 * (c->body_b - 1);
        double *wb = w + 3 * (c->body_b - 1);
        wb[0] += geo->n[0];
        wb[1] += geo->n[1];
        wb[2] += (geo->p_b[0] - qb[0]) * geo->n[1] - (geo->p_b[1] - qb[1]) * geo->n[0];
    }
    if (c->body_a > 0) {
        const double *qa = q + 3 * (c->body_a - 1);
        double *wa = w + 3 * (c->body_a - 1);
        wa[0] -= geo->n[0];
        wa[1] -= geo->n[1];
        wa[2] -= (geo->p_a[0] - qa[0]) * geo->n[1] - (geo->p_a[1] - qa[1]) * geo->n[0];
    }
    if (!sc->imp.fn || sc->imp.fn(sc->imp.data, t, q, w, z) != 0) {
        snprintf(sc->msg, sizeof sc->msg, "contact %d: impulse response failed at t = %.9g s", k,
                 t);
        return -1;
    }
    double wz = 0.0;
    for (int i = 0; i < nq; i++)
        wz += w[i] * z[i];
    if (!(wz > 0.0) || !isfinite(wz)) {
        snprintf(sc->msg, sizeof sc->msg,
                 "contact %d: no effective mass along the normal at t = %.9g s (w.z = %g)", k, t,
                 wz);
        return -1;
    }
    *wz_out = wz;
    return 0;
}

/*
 * Piecewise impact of contact k: p = (1 + e) delta_dot / (w . z); v += p z.
 * The kinetic energy lost goes to the contact's damping component.
 */
static clink_status piecewise_impact(simc *sc, int k, double t, const double *q, double *v,
                                     const kinematics_contact *geo)
{
    simc_contact *c = &sc->c[k];
    int nq = sc->m->ncoords;
    double *w = sc->imp.w, *z = sc->imp.z, wz = 0.0;
    if (constrained_response(sc, k, t, q, geo, &wz) != 0)
        return CLINK_ERR_SOLVER;
    double vi = geo->delta_dot;
    double T0 = kinetic(sc, v);
    double p = (1.0 + c->e_pw) * vi / wz;
    double vout = 0.0;
    for (int i = 0; i < nq; i++) {
        v[i] += p * z[i];
        vout += w[i] * v[i]; /* -delta_dot after the jump */
    }
    double dT = T0 - kinetic(sc, v);
    c->impact.booked += dT;
    clink_impact_record r;
    memset(&r, 0, sizeof r);
    r.contact = k;
    r.t_onset = t;
    r.v_impact = vi;
    r.v_separation = vout;
    r.restitution = vout / vi;
    r.dissipated = dT;
    r.m_eff = 1.0 / wz;
    r.lobes = 1;
    return push_record(sc, &r) == 0 ? CLINK_OK : CLINK_ERR_NOMEM;
}

/*
 * One root of one contact, as the phase handlers see it: the state at the root
 * (v may be changed by a piecewise impact), which of the contact's two root
 * functions fired, its geometry there, and what the handler decides.
 */
typedef struct simc_event {
    double t;
    const double *q;
    double *v;
    const double *work; /* the per-contact energy components of y */
    int g0, g1;         /* which root function fired */
    kinematics_contact geo;
    int closes;   /* out: the impact in progress ends here */
    double v_sep; /* out: its separation speed, m/s */
} simc_event;

/* piecewise treatment: the impulse at onset (the only root) */
static clink_status on_piecewise_onset(simc *sc, int k, simc_event *ev)
{
    simc_contact *c = &sc->c[k];
    if (!(ev->geo.delta_dot >= c->v_settle)) {
        snprintf(sc->msg, sizeof sc->msg,
                 "contact %d (piecewise) approaches at %.3g m/s at t = %.9g s, below the settle "
                 "speed %.3g m/s: resting contact needs a continuous law",
                 k, ev->geo.delta_dot, ev->t, c->v_settle);
        return CLINK_ERR_SOLVER;
    }
    return piecewise_impact(sc, k, ev->t, ev->q, ev->v, &ev->geo);
}

/* permanent contact: the gap opened beyond h (OPEN), or a new largest penetration */
static void on_permanent(simc_contact *c, const simc_event *ev)
{
    if (ev->g0 || !(ev->geo.delta > 0.0)) {
        c->persistent = 0;
        c->st.phase = CLINK_CONTACT_OPEN;
        return;
    }
    clink_law_end_compression(c->law, &c->p, ev->geo.delta, &c->st);
    c->st.delta_max = ev->geo.delta;
    c->h_release = fmax(1e-12, 0.1 * ev->geo.delta);
}

/* onset (from OPEN, or re-contact from RELEASED): the law's onset with the effective mass */
static void on_onset(simc *sc, int k, const simc_event *ev)
{
    simc_contact *c = &sc->c[k];
    /* effective mass through the constraints; the free-body value if the saddle solve fails */
    double w = 0.0;
    if (constrained_response(sc, k, ev->t, ev->q, &ev->geo, &w) != 0)
        w = free_inv_mass(sc, c, &ev->geo, ev->q);
    double vi = ev->geo.delta_dot;
    if (clink_law_onset(c->law, &c->p, vi > c->v_settle ? vi : c->v_settle, 1.0 / w, &c->st) !=
        CLINK_OK)
        return;
    c->st.v_impact = vi > 0.0 ? vi : 0.0;
    c->st.delta_max = ev->geo.delta > 0.0 ? ev->geo.delta : 0.0;
    c->impact.in_impact = 1;
    c->impact.lobes = 1;
    c->impact.hyst = sc->bookkeeping == CLINK_BOOKKEEPING_HYSTERESIS || !(vi >= c->v_settle);
    c->impact.t_onset = ev->t;
    c->impact.f_max = 0.0;
    double wd, wf;
    simc_work(sc, k, ev->work, &wd, &wf);
    c->impact.diss0 = wd + wf + c->impact.booked;
}

/* COMPRESSION: the end of compression (g0), or a separation before it (g1) */
static void on_compression(simc_contact *c, simc_event *ev, double f_event)
{
    if (ev->g0) {
        double d = ev->geo.delta > c->st.delta_max ? ev->geo.delta : c->st.delta_max;
        c->impact.f_max = fmax(c->impact.f_max, f_event);
        clink_law_end_compression(c->law, &c->p, d, &c->st);
        c->st.delta_max = d;
        return;
    }
    clink_law_release(c->law, &c->p, 0.0, &c->st);
    ev->closes = 1;
    ev->v_sep = -ev->geo.delta_dot;
}

/*
 * RESTITUTION: the separation (g0) or a re-compression while in contact (g1). An
 * episode that started at v_settle or faster (episodes bookkeeping) takes a
 * re-compression as its next lobe (COMPRESSION again: the law's force does not depend on
 * the phase in contact, so nothing jumps) and any separation as its end. A resting
 * episode (slower onset, or the hysteresis bookkeeping) becomes permanent at a
 * re-compression or a separation slower than v_settle.
 */
static void on_restitution(simc_contact *c, simc_event *ev)
{
    if (!ev->g0 && !c->impact.hyst) {
        c->st.phase = CLINK_CONTACT_COMPRESSION;
        c->impact.lobes++;
        return;
    }
    ev->closes = 1;
    if (!ev->g0) {
        enter_persistent(c); /* re-compression without separation */
        return;
    }
    /* a separation at zero force with delta > 0 leaves the elastic energy stored at delta in
       the spring: simc_handle_roots books it as dissipated */
    double vs = -ev->geo.delta_dot;
    clink_law_release(c->law, &c->p, ev->geo.delta > 0.0 ? ev->geo.delta : 0.0, &c->st);
    if (c->impact.hyst && vs < c->v_settle && c->st.phase == CLINK_CONTACT_OPEN) {
        /* separating too slowly: keep the contact closed (chattering guard) */
        c->st.phase = CLINK_CONTACT_RESTITUTION;
        enter_persistent(c);
    }
    ev->v_sep = vs > 0.0 ? vs : 0.0;
}

/*
 * The event of a continuous law: the phase's handler, then the books (what the
 * event changed in the curve under the contact is dissipated), the record of an
 * impact that ended, and the re-initialisation rule (the probes before and after).
 */
static clink_status on_continuous_event(simc *sc, int k, simc_event *ev, int *reinit)
{
    simc_contact *c = &sc->c[k];
    const kinematics_contact *geo = &ev->geo;
    double before[3], after[3];
    probe(c, geo->delta, geo->delta_dot, before);
    double u_before = stored(c, geo->delta);
    double fscale = fmax(fabs(c->impact.f_max), fmax(fabs(before[0]), fabs(before[1])));
    if (c->persistent)
        on_permanent(c, ev);
    else if (c->st.phase == CLINK_CONTACT_OPEN || (c->st.phase == CLINK_CONTACT_RELEASED && ev->g0))
        on_onset(sc, k, ev);
    else if (c->st.phase == CLINK_CONTACT_RELEASED)
        c->st.phase = CLINK_CONTACT_OPEN; /* fully open */
    else if (c->st.phase == CLINK_CONTACT_COMPRESSION)
        on_compression(c, ev, before[0]);
    else
        on_restitution(c, ev);
    c->impact.booked += u_before - stored(c, geo->delta);
    if (ev->closes && close_impact(sc, k, ev->t, ev->v_sep, ev->work, c->persistent) != 0)
        return CLINK_ERR_NOMEM;
    probe(c, geo->delta, geo->delta_dot, after);
    if (jumped(before, after, fscale > 0.0 ? fscale : 1.0))
        *reinit = 1;
    return CLINK_OK;
}

clink_status simc_handle_roots(simc *sc, double t, const double *q, double *v, const double *work,
                               const int *found, int *reinit)
{
    for (int k = 0; k < sc->n; k++) {
        if (!found[2 * k] && !found[2 * k + 1])
            continue;
        simc_contact *c = &sc->c[k];
        c->memo.ok = 0; /* its phase and law state may change */
        c->memo.rest_force = 0;
        simc_event ev;
        memset(&ev, 0, sizeof ev);
        ev.t = t;
        ev.q = q;
        ev.v = v;
        ev.work = work;
        ev.g0 = found[2 * k] != 0;
        ev.g1 = found[2 * k + 1] != 0;
        if (geometry(c, q, v, &ev.geo) != 0)
            continue;
        sc->events++;
        clink_status st;
        if (c->piecewise) {
            st = on_piecewise_onset(sc, k, &ev);
            *reinit = 1;
        } else {
            st = on_continuous_event(sc, k, &ev, reinit);
        }
        if (st != CLINK_OK)
            return st;
    }
    return CLINK_OK;
}

void simc_set_impulse(simc *sc, simc_impulse_fn fn, void *data)
{
    sc->imp.fn = fn;
    sc->imp.data = data;
}

const char *simc_error(const simc *sc)
{
    return sc->msg;
}

int simc_take_failure(simc *sc)
{
    int f = sc->failed;
    sc->failed = 0;
    return f;
}

/* one contact's description for simc_describe_active */
static size_t describe(const simc_contact *c, int k, const kinematics_contact *geo,
                       const char *what, char *buf, size_t n)
{
    int w = snprintf(buf, n, "%d (%s, K %.3g, penetration %.3g m, %s%s)", k, clink_law_name(c->law),
                     c->st.K > 0.0 ? c->st.K : c->p.K, geo->delta, what,
                     c->piecewise ? ", piecewise" : "");
    return w > 0 && (size_t) w < n ? (size_t) w : (n > 0 ? n - 1 : 0);
}

int simc_describe_active(const simc *sc, const double *y, int nq, char *buf, size_t n)
{
    int count = 0, nearest = -1;
    size_t used = 0;
    double dmax = -INFINITY;
    kinematics_contact near_geo;
    memset(&near_geo, 0, sizeof near_geo);
    buf[0] = '\0';
    for (int k = 0; k < sc->n; k++) {
        const simc_contact *c = &sc->c[k];
        kinematics_contact geo;
        if (geometry(c, y, y + nq, &geo) != 0)
            continue;
        if (!c->impact.in_impact && !c->persistent && !(geo.delta > 0.0)) {
            if (geo.delta > dmax) {
                dmax = geo.delta;
                nearest = k;
                near_geo = geo;
            }
            continue;
        }
        count++;
        if (used + 3 >= n)
            continue;
        if (used) {
            memcpy(buf + used, ", ", 3);
            used += 2;
        }
        used += describe(c, k, &geo,
                         c->persistent         ? "permanent"
                         : c->impact.in_impact ? "impact"
                                               : "touching",
                         buf + used, n - used);
    }
    if (count == 0 && nearest >= 0) {
        /* nothing in contact at the last accepted step: the closest contact is the one the
           rejected steps run into */
        describe(&sc->c[nearest], nearest, &near_geo, "the closest, about to touch", buf, n);
        return 1;
    }
    return count;
}

double simc_size(const simc *sc, int k)
{
    const simc_contact *c = &sc->c[k];
    double ra = c->sa.kind == CLINK_SHAPE_LINE ? INFINITY : c->sa.r;
    double rb = c->sb.kind == CLINK_SHAPE_LINE ? INFINITY : c->sb.r;
    double L = fmin(ra > 0.0 ? ra : INFINITY, rb > 0.0 ? rb : INFINITY);
    return isfinite(L) ? L : 0.0;
}

/* nonzero if shape s on its body is a circle or a bore centred at the body's centre of mass */
static int centred_round(const kinematics_shape *s)
{
    return (s->kind == CLINK_SHAPE_CIRCLE || s->kind == CLINK_SHAPE_BORE) && s->a[0] == 0.0 &&
           s->a[1] == 0.0;
}

int simc_keeps_axis(const simc *sc, int k, int axis, const double *q0, int *body_a, int *body_b)
{
    const simc_contact *c = &sc->c[k];
    *body_a = c->body_a;
    *body_b = c->body_b;
    if (c->fr.mu > 0.0)
        return 0;
    const kinematics_shape *sh[2] = {&c->sa, &c->sb};
    int body[2] = {c->body_a, c->body_b};
    double at[2];
    int line = 0;
    for (int i = 0; i < 2; i++) {
        if (body[i] > 0) {
            if (!centred_round(sh[i]))
                return 0;
            at[i] = q0[3 * (body[i] - 1) + axis];
        } else if (sh[i]->kind == CLINK_SHAPE_LINE) {
            /* a ground line whose normal has no component along the axis */
            if (sh[i]->nrm[axis] != 0.0)
                return 0;
            line = 1;
            at[i] = 0.0;
        } else if (sh[i]->kind == CLINK_SHAPE_CIRCLE || sh[i]->kind == CLINK_SHAPE_BORE) {
            at[i] = sh[i]->a[axis];
        } else {
            return 0;
        }
    }
    return line || at[0] == at[1];
}

int simc_may_turn(const simc *sc, int body)
{
    for (int k = 0; k < sc->n; k++) {
        const simc_contact *c = &sc->c[k];
        if (c->body_a != body && c->body_b != body)
            continue;
        /* the normal force of a round shape passes through its centre; friction does not */
        if (c->fr.mu > 0.0 || (c->body_a == body && !centred_round(&c->sa)) ||
            (c->body_b == body && !centred_round(&c->sb)))
            return 1;
    }
    return 0;
}

int simc_central(const simc *sc, int k)
{
    const simc_contact *c = &sc->c[k];
    return c->sa.kind != CLINK_SHAPE_CAPSULE && c->sb.kind != CLINK_SHAPE_CAPSULE;
}

/* ---- getters -------------------------------------------------------------- */

clink_status simc_info(simc *sc, int k, const double *q, const double *v, clink_contact_info *info)
{
    if (k < 0 || k >= sc->n || !info)
        return CLINK_ERR_ARG;
    simc_contact *c = &sc->c[k];
    kinematics_contact geo;
    if (geometry(c, q, v, &geo) != 0)
        return CLINK_ERR_MODEL;
    memset(info, 0, sizeof *info);
    info->delta = geo.delta;
    info->delta_dot = geo.delta_dot;
    /* the memo is read, never written: simc_info has no side effects */
    info->fn = !c->piecewise && c->st.phase == CLINK_CONTACT_OPEN
                   ? open_force_memo(sc, c, &geo, q, NULL, NULL)
                   : contact_force(sc, c, &geo, q, NULL);
    info->ft = clink_friction_force(&c->fr, geo.v_t, info->fn > 0.0 ? info->fn : 0.0);
    memcpy(info->normal, geo.n, sizeof info->normal);
    memcpy(info->point_a, geo.p_a, sizeof info->point_a);
    memcpy(info->point_b, geo.p_b, sizeof info->point_b);
    if (c->sa.kind == CLINK_SHAPE_BORE) {
        /* n = -e/|e| and delta = |e| - (R_bearing - r_journal) */
        double d = geo.delta + c->sa.r - c->sb.r;
        info->eccentricity[0] = -geo.n[0] * d;
        info->eccentricity[1] = -geo.n[1] * d;
    }
    info->phase = c->st.phase;
    info->persistent = c->persistent;
    return CLINK_OK;
}

int simc_impact_count(const simc *sc)
{
    return sc ? sc->records.n : 0;
}

clink_status simc_impact(const simc *sc, int i, clink_impact_record *rec)
{
    if (!sc || i < 0 || i >= sc->records.n || !rec)
        return CLINK_ERR_ARG;
    *rec = sc->records.list[i];
    return CLINK_OK;
}

void simc_set_callback(simc *sc, clink_impact_fn fn, void *data)
{
    sc->records.cb = fn;
    sc->records.cb_data = data;
}

double simc_booked(const simc *sc, int k)
{
    return sc && k >= 0 && k < sc->n ? sc->c[k].impact.booked : 0.0;
}

long simc_events(const simc *sc)
{
    return sc ? sc->events : 0;
}
