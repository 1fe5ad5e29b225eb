/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_forces.c: the contact forces of the right-hand side (contacts_forces, the
 * external-force hook of the dynamics), the dissipation rates they leave for the energy
 * components, and the elastic energy stored in the contacts (docs/contact-mechanics.md).
 *
 * Each contact adds f = F_n n + F_t t on B at p_B and -f on A at p_A, as the generalised
 * forces Q = (f, (p - r) x f), with F_n = F(delta, delta_dot, state) the law's normal
 * force and F_t = clink_friction_force(v_t, max(F_n, 0)) the modified Coulomb friction of
 * Ambrosio (2003); it keeps the powers
 *   D' = (F_n - F(delta, 0)) delta_dot   (damping),   R' = -F_t v_t   (friction)
 * for contacts_dissipation_rates. The stored energy is U = integral_0^delta F(s, 0) ds
 * (clink_law_stored_energy, exact).
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
 * so the continuation would pull; it is not used here.) A permanent contact's force
 * is clamped to >= 0.
 *
 * Effective mass inside the right-hand side (the provisional onset, and contacts that
 * start overlapping): the free-body value 1/m_eff = sum over the two bodies of
 * 1/m + ((p - r) x n)^2 / J, because the saddle solve through the constraints
 * (contacts_impulse.c) cannot be re-entered there. Only laws whose damping uses
 * m_eff depend on it.
 *
 * Cost (docs/contact-mechanics.md, "Evaluation paths"): two circles centred on their
 * bodies (or on the ground) take kinematics_contact_circles, without rotations; the
 * law's constants are derived once per contact (contact_law_prepare) and F(delta, 0)
 * only where a damping integral needs it; open contacts at rest are served by the
 * memo (contacts_memo.c); each gives the general path's bits.
 */
#include "contacts/contacts_broadphase.h"
#include "contacts/contacts_internal.h"

#include <math.h>
#include <stdio.h>

/*
 * The direct path of two circles centred on their bodies (or fixed on the ground): no
 * pose copies, no rotations (kinematics_contact_circles, the same bits as the general
 * path); -1 when it does not apply (then the caller takes the general path).
 */
static inline int geometry_direct(const contacts_contact *c, const double *q, const double *v,
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

int contacts_geometry(const contacts_contact *c, const double *q, const double *v,
                      kinematics_contact *g)
{
    if (geometry_direct(c, q, v, g) == 0)
        return 0;
    if (c->body_c > 0) /* a beam segment (contacts_segment.c) */
        return contacts_segment_geometry(c, q, v, g);
    kinematics_pose pa, pb;
    contacts_pose_of(q, v, c->body_a, &pa);
    contacts_pose_of(q, v, c->body_b, &pb);
    return kinematics_contact_eval(&c->sa, &pa, &c->sb, &pb, g);
}

/*
 * (cos, sin) of the angle of body (ground: (1, 0)) at q, computed only when the angle
 * differs bit for bit from the one last rotated (kin_trig_of): a body that does not turn
 * (a chain's bead) costs no trigonometry after its first contact evaluation, and the
 * others one sincos per body per state instead of one per contact, shared with the
 * constraints of the same evaluation (the same bits either way).
 */
static void body_rot(contact_set *sc, const double *q, int body, double rot[2])
{
    if (body <= 0) {
        rot[0] = cos(0.0);
        rot[1] = sin(0.0);
        return;
    }
    kin_trig_of(&sc->rot, q, body, rot);
}

kin_trig *contacts_trig(contact_set *sc)
{
    return &sc->rot;
}

/* contacts_geometry() with the bodies' rotations from the cache of body_rot (the direct path needs
 * none) */
/* body's q and v (ground: zeros) into key[0..6) */
static void end_store(int body, const double *q, const double *v, double *key)
{
    if (body > 0) {
        memcpy(key, q + 3 * (body - 1), 3 * sizeof *key);
        memcpy(key + 3, v + 3 * (body - 1), 3 * sizeof *key);
    } else {
        memset(key, 0, 6 * sizeof *key);
    }
}

void contacts_geometry_keep(contact_set *sc, int k, const double *q, const double *v,
                            const kinematics_contact *g)
{
    const contacts_contact *c = &sc->c[k];
    contacts_end_geometry *e = &sc->end[k];
    e->ok = !(c->body_c > 0 || c->sa.prof || c->sb.prof || v == NULL);
    if (!e->ok)
        return;
    end_store(c->body_a, q, v, e->key);
    end_store(c->body_b, q, v, e->key + 6);
    e->geo = *g;
}

int contacts_geometry_kept(const contact_set *sc, int k, const double *q, const double *v,
                           kinematics_contact *g)
{
    const contacts_contact *c = &sc->c[k];
    const contacts_end_geometry *e = &sc->end[k];
    if (e->ok && v != NULL &&
        (contacts_end_diff(c->body_a, q, v, e->key) |
         contacts_end_diff(c->body_b, q, v, e->key + 6)) == 0) {
        *g = e->geo;
        return 0;
    }
    return contacts_geometry(c, q, v, g);
}

int contacts_geometry_cached(contact_set *sc, const contacts_contact *c, const double *q,
                             const double *v, kinematics_contact *g)
{
    if (geometry_direct(c, q, v, g) == 0)
        return 0;
    if (c->body_c > 0) /* a beam segment (contacts_segment.c) */
        return contacts_segment_geometry(c, q, v, g);
    kinematics_pose pa, pb;
    double ra[2], rb[2];
    contacts_pose_of(q, v, c->body_a, &pa);
    contacts_pose_of(q, v, c->body_b, &pb);
    body_rot(sc, q, c->body_a, ra);
    body_rot(sc, q, c->body_b, rb);
    return kinematics_contact_eval_rot(&c->sa, &pa, ra, &c->sb, &pb, rb, g);
}

static int in_contact(const contacts_contact *c)
{
    return c->st.phase == CLINK_CONTACT_COMPRESSION || c->st.phase == CLINK_CONTACT_RESTITUTION;
}

/*
 * The law's normal force of contact c in law state st (c's own, or a provisional onset's)
 * at (delta, rate), see the file comment; *f0 (optional) receives the same at rate 0,
 * F(delta, 0), from the same powers of delta (contact_law_force_pair: the bits of two
 * evaluations).
 */
static double law_normal(const contacts_contact *c, const clink_contact_state *st, double delta,
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
double contacts_normal_force(const contacts_contact *c, double delta, double rate)
{
    return law_normal(c, &c->st, delta, rate, NULL);
}

/* inverse mass of one free body (side 0: A, 1: B) along n at its contact point p (ground: 0),
   1/kg, from the masses kept at creation */
static double inv_mass_along(const contacts_contact *c, int side, const double p[2],
                             const double *q, const double n[2])
{
    int body = side ? c->body_b : c->body_a;
    if (body <= 0)
        return 0.0;
    const double *qb = q + 3 * (body - 1);
    double rxn = (p[0] - qb[0]) * n[1] - (p[1] - qb[1]) * n[0];
    return c->fixed.inv_mass[side] + rxn * rxn / c->fixed.inertia[side];
}

/* inverse effective mass of the pair along the normal, as free bodies, 1/kg */
double contacts_free_inv_mass(const contact_set *sc, const contacts_contact *c,
                              const kinematics_contact *geo, const double *q)
{
    (void) sc;
    if (c->body_c > 0)
        return contacts_segment_inv_mass(c, geo, q);
    return inv_mass_along(c, 0, geo->p_a, q, geo->n) + inv_mass_along(c, 1, geo->p_b, q, geo->n);
}

/*
 * The normal force at a configuration: the state's, or in OPEN with delta > 0
 * a provisional onset at the current rate (the law's constants cached at creation:
 * contact_law_onset_cached). *f0 (optional) receives F(delta, 0).
 */
static double law_contact_force(const contact_set *sc, const contacts_contact *c,
                                const kinematics_contact *geo, const double *q, double *f0)
{
    if (c->piecewise) {
        if (f0)
            *f0 = 0.0;
        return 0.0;
    }
    if (c->st.phase == CLINK_CONTACT_OPEN && geo->delta > 0.0) {
        clink_contact_state tmp = c->st;
        double w = contacts_free_inv_mass(sc, c, geo, q);
        double v = geo->delta_dot > c->v_settle ? geo->delta_dot : c->v_settle;
        if (contact_law_onset_cached(c->law, &c->p, &c->fixed.lc, v, 1.0 / w, &tmp) != CLINK_OK)
            return NAN;
        return law_normal(c, &tmp, geo->delta, geo->delta_dot, f0);
    }
    return law_normal(c, &c->st, geo->delta, geo->delta_dot, f0);
}

/* the law's force times the contact's factor (contacts_kscale) when it has one */
double contacts_contact_force(const contact_set *sc, const contacts_contact *c,
                              const kinematics_contact *geo, const double *q, double *f0)
{
    double f = law_contact_force(sc, c, geo, q, f0);
    if (c->fixed.kfac) {
        double s = contacts_kscale(c, q, NULL);
        f *= s;
        if (f0)
            *f0 *= s;
    }
    return f;
}

double contacts_kscale(const contacts_contact *c, const double *q, double ds[2])
{
    double s[3] = {1.0, 0.0, 0.0};
    if (c->fixed.kfac && c->body_a > 0)
        c->fixed.kfac(&c->sa, q[3 * (c->body_a - 1) + 2], s);
    if (ds) {
        ds[0] = s[1];
        ds[1] = s[2];
    }
    return s[0];
}

double contacts_kscale_torque(const contacts_contact *c, const double *q, double delta)
{
    if (!c->fixed.kfac || c->piecewise || !in_contact(c) || !(delta > 0.0))
        return 0.0;
    double ds[2];
    contacts_kscale(c, q, ds);
    return -clink_law_stored_energy(c->law, &c->p, &c->st, delta) * ds[0];
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
 * Contact k's share of contacts_forces: its generalised forces added to g and its damping and
 * friction powers; 0, or -1 (a geometry that fails, or a non-finite force: sc->failed).
 * F(delta, 0) is evaluated only for a contact whose damping power is kept (c->wd >= 0): an
 * elastic law's is F(delta, rate) itself.
 */
static int contact_forces(contact_set *sc, int k, double t, const double *q, const double *v,
                          double *g)
{
    contacts_contact *c = &sc->c[k];
    c->pdamp = c->pfric = 0.0;
    c->pz = 0.0;
    c->ftouch_now = 0;
    if (c->piecewise || c->st.phase == CLINK_CONTACT_RELEASED)
        return 0;
    int open = c->st.phase == CLINK_CONTACT_OPEN && !c->persistent;
    int same_q = open && contacts_memo_unchanged(c, q);
    if (same_q) {
        if (c->memo.rest_apart)
            return 0; /* apart as at its last evaluation: no force */
        if (c->memo.rest_force && contacts_memo_reuse_force(c, q, v, g))
            return 0;
    }
    double gap_delta;
    if (contacts_broad_delta(c, q, &gap_delta) == 0 && !(gap_delta > 0.0)) {
        /* apart, in any phase: no force (contacts_broadphase.h); an open contact's root function
           kept for the same q */
        if (open)
            contacts_memo_remember(c, q, same_q ? c->memo.rest_g : NAN, 1);
        return 0;
    }
    kinematics_contact geo;
    if (contacts_geometry_cached(sc, c, q, v, &geo) != 0)
        return -1;
    if (open) /* the root function is not evaluated here: kept only for the same q */
        contacts_memo_remember(c, q, same_q ? c->memo.rest_g : NAN, !(geo.delta > 0.0));
    if (!(geo.delta > 0.0))
        return 0;
    double f0 = 0.0;
    double *f0p = c->wd >= 0 ? &f0 : NULL;
    double fn = c->st.phase == CLINK_CONTACT_OPEN ? contacts_memo_force(sc, c, &geo, q, f0p, c)
                                                  : contacts_contact_force(sc, c, &geo, q, f0p);
    if (!f0p)
        f0 = fn;
    double ft = contacts_friction_at(c, geo.v_t, fn > 0.0 ? fn : 0.0, &c->pz);
    c->fvt = geo.v_t;
    c->ftouch_now = 1;
    if (!isfinite(fn) || !isfinite(ft) || !isfinite(f0)) {
        /* the state is finite (dyn_accelerations checks it first): the law or the
           friction gave NaN or infinity, and no smaller step changes that */
        snprintf(sc->msg, sizeof sc->msg,
                 "contact '%s' (contact %d, %s): non-finite force at t = %.9g s (normal %g N, "
                 "friction %g N at penetration %.6g m, rate %.6g m/s)",
                 sc->m->d.contacts[k].name, k, clink_law_name(c->law), t, fn, ft, geo.delta,
                 geo.delta_dot);
        sc->failed = 1;
        return -1;
    }
    double f[2] = {fn * geo.n[0] + ft * geo.t[0], fn * geo.n[1] + ft * geo.t[1]};
    double fa[2] = {-f[0], -f[1]};
    if (c->body_c > 0) { /* a beam segment: the force shared by its nodes */
        contacts_segment_apply(c, &geo, q, f, g);
        c->pdamp = (fn - f0) * geo.delta_dot;
        c->pfric = -ft * geo.v_t;
        return 0;
    }
    add_point_force(g, q, c->body_b, geo.p_b, f, c->memo.rest_Q);
    add_point_force(g, q, c->body_a, geo.p_a, fa, c->memo.rest_Q + 3);
    if (c->fixed.kfac && c->body_a > 0) /* the scaled contact's potential turns body A */
        g[3 * (c->body_a - 1) + 2] += contacts_kscale_torque(c, q, geo.delta);
    if (open)
        contacts_memo_keep_normal(c, geo.n);
    c->pdamp = (fn - f0) * geo.delta_dot;
    c->pfric = -ft * geo.v_t;
    return 0;
}

int contacts_forces(void *data, double t, const double *q, const double *v, double *g,
                    double *power)
{
    (void) power;
    contact_set *sc = data;
    for (int k = 0; k < sc->n; k++) {
        if (contact_forces(sc, k, t, q, v, g) != 0)
            return -1;
        /* an element's extra force (contacts_extra.c: a lubricated joint's film), its power
           with the damping */
        if (sc->c[k].extra.on) {
            if (contacts_extra_forces(sc, &sc->c[k], t, q, v, g) != 0)
                return -1;
            sc->c[k].pdamp += sc->c[k].extra.power;
        }
    }
    return 0;
}

int contacts_forces_some(contact_set *sc, const int *contacts, int n, double t, const double *q,
                         const double *v, double *g)
{
    for (int i = 0; i < n; i++)
        if (contact_forces(sc, contacts[i], t, q, v, g) != 0)
            return -1;
    return 0;
}

int contacts_window_fits(const contact_set *sc, int k)
{
    const contacts_contact *c = &sc->c[k];
    return !c->piecewise && !c->extra.on && c->wf < 0 && c->wz < 0 && c->body_c == 0 &&
           contacts_clearance(sc, k) == 0.0;
}

int contacts_damping_index(const contact_set *sc, int k)
{
    return sc->c[k].wd;
}

double contacts_damping_rate(const contact_set *sc, int k)
{
    return sc->c[k].pdamp;
}

void contacts_dissipation_rates(const contact_set *sc, double *rates)
{
    for (int k = 0; k < sc->n; k++) {
        const contacts_contact *c = &sc->c[k];
        if (c->wd >= 0)
            rates[c->wd] = c->pdamp;
        if (c->wf >= 0)
            rates[c->wf] = c->pfric;
        if (c->wz >= 0)
            rates[c->wz] = c->pz;
    }
}

/* ---- energy --------------------------------------------------------------- */

/* integral_0^delta F(s, 0) ds of the law in the contact's state (exact, clink_law_stored_energy) */
double contacts_stored(const contacts_contact *c, const double *q, double delta)
{
    if (c->piecewise || !in_contact(c))
        return 0.0;
    double u = clink_law_stored_energy(c->law, &c->p, &c->st, delta);
    return c->fixed.kfac ? u * contacts_kscale(c, q, NULL) : u;
}

double contacts_stored_energy(contact_set *sc, const double *q, const double *v)
{
    double u = 0.0;
    for (int k = 0; k < sc->n; k++) {
        kinematics_contact geo;
        if (in_contact(&sc->c[k]) && contacts_geometry(&sc->c[k], q, v, &geo) == 0)
            u += contacts_stored(&sc->c[k], q, geo.delta);
    }
    return u;
}

double contacts_stored_energy_at(const contact_set *sc, const double *q,
                                 const clink_contact_info *info)
{
    double u = 0.0;
    for (int k = 0; k < sc->n; k++)
        if (in_contact(&sc->c[k]))
            u += contacts_stored(&sc->c[k], q, info[k].delta);
    return u;
}
