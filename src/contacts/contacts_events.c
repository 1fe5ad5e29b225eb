/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_events.c: the per-contact state machine of docs/contact-mechanics.md, on
 * CVODE root functions: the phases at the start, the two root functions of each contact,
 * the largest force of the impacts in progress after each step, and the handlers of the
 * roots (the law's onset, end of compression and release, permanent contact).
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
 *   piecewise    g0 = eps - delta [-]             the impulse (contacts_impulse.c)
 * Unused functions are the constant 1.
 *
 * The onset and re-contact roots are placed at delta = eps = 1e-13 L (L the size of the
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
 * starts from zero (Hunt and Crossley (1975) family, Hertz) never jump at onset or at
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
 * At each event the energy U = integral_0^delta F(s, 0) ds before minus after the
 * transition, at the same penetration, is booked as dissipated (contacts.c, "Energy
 * audit").
 */
#include "contacts/contacts_broadphase.h"
#include "contacts/contacts_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

/* largest |coordinate| of the two bodies' positions, m (0 for the ground) */
static double coordinate_size(const contacts_contact *c, const double *q)
{
    double s = 0.0;
    for (int i = 0; i < 2; i++) {
        int body = i ? c->body_b : c->body_a;
        if (body > 0)
            s = fmax(s, fmax(fabs(q[3 * (body - 1)]), fabs(q[3 * (body - 1) + 1])));
    }
    return s;
}

void contacts_start(contact_set *sc, const double *q, const double *v)
{
    for (int k = 0; k < sc->n; k++) {
        contacts_contact *c = &sc->c[k];
        kinematics_contact geo;
        /* the penetration is a difference of positions: its rounding grows with their size
           (beads 33 m from the origin overlap by 4.5e-15 m where they touch), and the onset
           level must stay above it */
        c->eps = fmax(c->eps, 16.0 * DBL_EPSILON * coordinate_size(c, q));
        contacts_memo_reset(c);
        if (c->piecewise || contacts_geometry(c, q, v, &geo) != 0 || !(geo.delta > c->eps))
            continue;
        /* starts overlapping (beyond the onset level eps: an overlap below it is the rounding
           of touching shapes, and the contact starts open): permanent contact from the start,
           damping at v_settle */
        double w = contacts_free_inv_mass(sc, c, &geo, q);
        if (clink_law_onset(c->law, &c->p, c->v_settle, 1.0 / w, &c->st) == CLINK_OK) {
            c->st.delta_max = geo.delta;
            c->persistent = 1;
            c->h_release = fmax(1e-12, 0.1 * geo.delta);
        }
    }
}

/*
 * The root functions of contact c (not piecewise) from its penetration delta alone into
 * gk[0], gk[1]: an open or released contact's, and a permanent one's while delta does not
 * exceed delta_max (see the file comment). Returns 0, or -1 when they read more (the
 * rate): then the full geometry decides.
 */
static int gap_roots(const contacts_contact *c, double delta, double *gk)
{
    if (c->persistent) {
        if (delta > c->st.delta_max)
            return -1;
        gk[0] = delta + c->h_release;
    } else if (c->st.phase == CLINK_CONTACT_OPEN) {
        gk[0] = c->eps - delta;
    } else if (c->st.phase == CLINK_CONTACT_RELEASED) {
        gk[0] = c->st.delta_sep + c->eps - delta;
        gk[1] = delta;
    } else {
        return -1;
    }
    for (int i = 0; i < 2; i++)
        if (!isfinite(gk[i]))
            gk[i] = 1.0;
    return 0;
}

/* an open contact's root function g0 noted in its memo: with the bodies' coordinates those
   of its last evaluation (same_q) the kept forces stay valid, else they are of another
   configuration */
static void note_roots(contacts_contact *c, const double *q, int same_q, double g0, int apart)
{
    if (same_q)
        c->memo.rest_g = g0;
    else
        contacts_memo_remember(c, q, g0, apart);
}

/*
 * The two root functions of contact c at (q, v) into gk[0], gk[1] (see the file comment);
 * contacts_roots' work for one contact, for any caller that evaluates some contacts only. An open,
 * released or permanent contact on the direct path takes its penetration alone where that is
 * all its functions read (the gap test, contacts_broadphase.h: the same bits).
 */
static void contact_roots(contact_set *sc, contacts_contact *c, const double *q, const double *v,
                          double *gk)
{
    kinematics_contact geo;
    gk[0] = gk[1] = 1.0;
    int open = !c->piecewise && !c->persistent && c->st.phase == CLINK_CONTACT_OPEN;
    int same_q = open && contacts_memo_unchanged(c, q);
    if (same_q && !isnan(c->memo.rest_g)) {
        gk[0] = c->memo.rest_g; /* eps - delta as at its last evaluation */
        return;
    }
    double delta;
    if (!c->piecewise && contacts_broad_delta(c, q, &delta) == 0 && gap_roots(c, delta, gk) == 0) {
        if (open)
            note_roots(c, q, same_q, gk[0], !(delta > 0.0));
        return;
    }
    if (contacts_geometry_cached(sc, c, q, v, &geo) != 0)
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
    if (open)
        note_roots(c, q, same_q, gk[0], !(geo.delta > 0.0));
}

int contacts_roots(contact_set *sc, double t, const double *q, const double *v, double *g)
{
    (void) t;
    for (int k = 0; k < sc->n; k++)
        contact_roots(sc, &sc->c[k], q, v, g + 2 * k);
    return 0;
}

int contacts_roots_some(contact_set *sc, const int *contacts, int n, const double *q,
                        const double *v, double *g)
{
    for (int i = 0; i < n; i++)
        contact_roots(sc, &sc->c[contacts[i]], q, v, g + 2 * contacts[i]);
    return 0;
}

void contacts_bodies(const contact_set *sc, int k, int *body_a, int *body_b)
{
    *body_a = sc->c[k].body_a;
    *body_b = sc->c[k].body_b;
}

int contacts_third_body(const contact_set *sc, int k)
{
    return sc->c[k].body_c;
}

void contacts_root_directions_some(const contact_set *sc, const int *contacts, int n, int *dirs)
{
    for (int j = 0; j < n; j++) {
        const contacts_contact *c = &sc->c[contacts[j]];
        dirs[2 * j] = -1;
        dirs[2 * j + 1] = (!c->persistent && c->st.phase == CLINK_CONTACT_RESTITUTION) ? 1 : -1;
    }
}

/* a contact in an impact after a step: its largest force and penetration so far */
static inline void after_step_one(contact_set *sc, contacts_contact *c, const double *q,
                                  const double *v)
{
    kinematics_contact geo;
    if (!c->impact.in_impact || contacts_geometry_cached(sc, c, q, v, &geo) != 0)
        return;
    if (sc->keep_end)
        contacts_geometry_keep(sc, (int) (c - sc->c), q, v, &geo);
    double f = contacts_normal_force(c, geo.delta, geo.delta_dot);
    if (c->fixed.kfac)
        f *= contacts_kscale(c, q, NULL);
    if (f > c->impact.f_max)
        c->impact.f_max = f;
    if (geo.delta > c->st.delta_max)
        c->st.delta_max = geo.delta;
}

void contacts_root_directions(const contact_set *sc, int *dirs)
{
    for (int k = 0; k < sc->n; k++) {
        const contacts_contact *c = &sc->c[k];
        dirs[2 * k] = -1;
        dirs[2 * k + 1] = (!c->persistent && c->st.phase == CLINK_CONTACT_RESTITUTION) ? 1 : -1;
    }
}

void contacts_keep_end(contact_set *sc, int on)
{
    sc->keep_end = on;
}

void contacts_after_step(contact_set *sc, double t, const double *q, const double *v)
{
    (void) t;
    for (int k = 0; k < sc->n; k++)
        after_step_one(sc, &sc->c[k], q, v);
}

void contacts_after_step_some(contact_set *sc, const int *contacts, int n, const double *q,
                              const double *v)
{
    for (int i = 0; i < n; i++)
        after_step_one(sc, &sc->c[contacts[i]], q, v);
}

/* force probes for the re-initialisation rule */
static void probe(const contacts_contact *c, double delta, double rate, double out[3])
{
    double r = -0.01 * (c->st.v_impact > 0.0 ? c->st.v_impact : c->v_settle);
    out[0] = contacts_normal_force(c, delta, rate);
    out[1] = contacts_normal_force(c, delta, r);
    out[2] = contacts_normal_force(c, 0.5 * delta, r);
}

static int jumped(const double a[3], const double b[3], double scale)
{
    for (int i = 0; i < 3; i++)
        if (fabs(a[i] - b[i]) > 1e-9 * scale)
            return 1;
    return 0;
}

static void enter_persistent(contacts_contact *c)
{
    c->persistent = 1;
    c->h_release = fmax(1e-12, 0.1 * c->st.delta_max);
}

/*
 * One root of one contact, as the phase handlers see it: the state at the root
 * (v may be changed by a piecewise impact), which of the contact's two root
 * functions fired, its geometry there, and what the handler decides.
 */
typedef struct contacts_event {
    double t;
    const double *q;
    double *v;
    const double *work; /* the per-contact energy components of y */
    int g0, g1;         /* which root function fired */
    kinematics_contact geo;
    int closes;   /* out: the impact in progress ends here */
    double v_sep; /* out: its separation speed, m/s */
} contacts_event;

/* permanent contact: the gap opened beyond h (OPEN), or a new largest penetration */
static void on_permanent(contacts_contact *c, const contacts_event *ev)
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
static void on_onset(contact_set *sc, int k, const contacts_event *ev)
{
    contacts_contact *c = &sc->c[k];
    /* effective mass through the constraints; the free-body value if the saddle solve fails */
    double w = 0.0;
    if (sc->imp.free_only || contacts_impulse_response(sc, k, ev->t, ev->q, &ev->geo, &w) != 0)
        w = contacts_free_inv_mass(sc, c, &ev->geo, ev->q);
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
    contacts_work(sc, k, ev->work, &wd, &wf);
    c->impact.diss0 = wd + wf + c->impact.booked;
}

/* COMPRESSION: the end of compression (g0), or a separation before it (g1) */
static void on_compression(contacts_contact *c, contacts_event *ev, double f_event)
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
static void on_restitution(contacts_contact *c, contacts_event *ev)
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
       the spring: contacts_handle_roots books it as dissipated */
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
static clink_status on_continuous_event(contact_set *sc, int k, contacts_event *ev, int *reinit)
{
    contacts_contact *c = &sc->c[k];
    const kinematics_contact *geo = &ev->geo;
    double before[3], after[3];
    probe(c, geo->delta, geo->delta_dot, before);
    double u_before = contacts_stored(c, ev->q, geo->delta);
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
    c->impact.booked += u_before - contacts_stored(c, ev->q, geo->delta);
    if (ev->closes && contacts_records_close(sc, k, ev->t, ev->v_sep, ev->work, c->persistent) != 0)
        return CLINK_ERR_NOMEM;
    /* a separation (delta through 0; a resting episode's too, which then rests in permanent
       contact: v_sep > 0), not a re-compression's entry into permanent contact */
    if (ev->closes && (!c->persistent || ev->v_sep > 0.0))
        contacts_note_separation(c, ev->t, ev->q);
    probe(c, geo->delta, geo->delta_dot, after);
    if (jumped(before, after, fscale > 0.0 ? fscale : 1.0))
        *reinit = 1;
    /* a separation: the force is continuous there but not smooth (delta^n), so the
       integrator restarts rather than carry a multistep history across it
       (docs/contact-mechanics.md, "When CVODE is re-initialised") */
    if (ev->closes && !c->persistent)
        *reinit = 1;
    return CLINK_OK;
}

/* contact k's root at t (g0, g1: its functions found) handed to its phase's handler */
static clink_status handle_root(contact_set *sc, int k, double t, const double *q, double *v,
                                const double *work, int g0, int g1, int *reinit)
{
    contacts_contact *c = &sc->c[k];
    contacts_memo_forget(c); /* its phase and law state may change */
    contacts_event ev;
    memset(&ev, 0, sizeof ev);
    ev.t = t;
    ev.q = q;
    ev.v = v;
    ev.work = work;
    ev.g0 = g0;
    ev.g1 = g1;
    if (contacts_geometry(c, q, v, &ev.geo) != 0)
        return CLINK_OK;
    sc->events++;
    if (c->piecewise) {
        clink_status st = contacts_impulse_onset(sc, k, t, q, v, &ev.geo);
        *reinit = 1;
        return st;
    }
    return on_continuous_event(sc, k, &ev, reinit);
}

clink_status contacts_handle_roots(contact_set *sc, double t, const double *q, double *v,
                                   const double *work, const int *found, int *reinit)
{
    for (int k = 0; k < sc->n; k++) {
        if (!found[2 * k] && !found[2 * k + 1])
            continue;
        clink_status st =
            handle_root(sc, k, t, q, v, work, found[2 * k] != 0, found[2 * k + 1] != 0, reinit);
        if (st != CLINK_OK)
            return st;
    }
    return CLINK_OK;
}

clink_status contacts_handle_roots_some(contact_set *sc, const int *contacts, int n, double t,
                                        const double *q, double *v, const double *work,
                                        const int *found, int *reinit)
{
    for (int j = 0; j < n; j++) {
        if (!found[2 * j] && !found[2 * j + 1])
            continue;
        clink_status st = handle_root(sc, contacts[j], t, q, v, work, found[2 * j] != 0,
                                      found[2 * j + 1] != 0, reinit);
        if (st != CLINK_OK)
            return st;
    }
    return CLINK_OK;
}
