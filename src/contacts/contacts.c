/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts.c: the contacts of a simulation, the model's flat list of the contacts
 * its elements expand into (pairs, clearance joints: src/elements/; docs/contact-mechanics.md): the
 * set built from the model, the energy components it adds to CVODE's state, and what the driver
 * asks about its contacts' shapes and states (sizes, the bodies that may turn, the axes a contact
 * keeps, the contacts active at a failure, clink_sim_contact's information).
 *
 * Geometry (kinematics/contact_geometry.h) gives for each contact the
 * penetration delta, its rate delta_dot, the normal n (direction of the force
 * on B), the tangent t, the contact points p_A, p_B and the slip v_t. The
 * normal force F_n = F(delta, delta_dot, state) of the law
 * (include/clink/contact.h) and the friction F_t (the modified Coulomb law of
 * Ambrosio (2003), include/clink/friction.h) act as f = F_n n + F_t t on B at p_B
 * and -f on A at p_A; their generalised forces Q = (f, (p - r) x f) enter the
 * equations of motion through dyn_set_external.
 *
 * One job per file, all sharing the set's struct (contacts_internal.h):
 *   contacts.c           the set, its energy components, shape queries, information
 *   contacts_forces.c    the forces of the right-hand side, the stored energy
 *   contacts_memo.c      the caches of open contacts at rest (the same bits, fewer
 *                           evaluations)
 *   contacts_jacobian.c  d g / dq and d g / dv of the contact forces
 *   contacts_events.c    the per-contact state machine: its root functions and their
 *                           handlers (onset, compression, restitution, release, permanent)
 *   contacts_impulse.c   the solve through the constraints: effective mass at onset,
 *                           piecewise (impulse-momentum) impacts
 *   contacts_records.c   impact records, the host's callback, the counts of events
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
 */
#include "contacts/contacts_internal.h"
#include "kinematics/contact_shapes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what a contact's evaluation needs that never changes: its path, law constants, masses */
static void prepare_contact(const clink_model *m, contacts_contact *c)
{
    c->fixed.direct = kinematics_contact_circles_ok(&c->sa, c->body_a) &&
                      kinematics_contact_circles_ok(&c->sb, c->body_b);
    /* the friction force reads v_t, and the friction power -F_t v_t where mu > 0 */
    c->fixed.slip = c->fr.kind != CLINK_FRICTION_NONE || c->fr.mu > 0.0;
    c->fixed.two = c->body_a > 0 && c->body_b > 0;
    c->fixed.ia = c->body_a > 0 ? 3 * (ptrdiff_t) (c->body_a - 1) : 0;
    c->fixed.ib = c->body_b > 0 ? 3 * (ptrdiff_t) (c->body_b - 1) : 0;
    contact_law_prepare(c->law, &c->p, &c->fixed.lc);
    /* a factor of the law's force (a gear mesh's stiffness over its cycle) */
    const kinematics_pair_entry *pe = kinematics_pair_of(c->sa.kind, c->sb.kind);
    double s[3];
    c->fixed.kfac = pe && pe->stiffness && pe->stiffness(&c->sa, 0.0, s) ? pe->stiffness : NULL;
    /* a cam: the body carrying the profile, whose turns count the first separations */
    c->fixed.turn_body = c->sb.kind == CLINK_SHAPE_PROFILE   ? c->body_b
                         : c->sa.kind == CLINK_SHAPE_PROFILE ? c->body_a
                                                             : 0;
    c->fixed.turn_phi0 = c->fixed.turn_body > 0 ? m->d.bodies[c->fixed.turn_body].def.phi : 0.0;
    c->fixed.elastic = c->fixed.lc.generic && c->law->rule == CLINK_RULE_NONE;
    for (int i = 0; i < 2; i++) {
        int body = i ? c->body_b : c->body_a;
        c->fixed.inv_mass[i] = body > 0 ? 1.0 / m->d.bodies[body].def.mass : 0.0;
        c->fixed.inertia[i] = body > 0 ? m->d.bodies[body].def.inertia : 0.0;
    }
    c->fixed.inv_mass_c = c->body_c > 0 ? 1.0 / m->d.bodies[c->body_c].def.mass : 0.0;
}

contact_set *contacts_create(const clink_model *m, double settle_speed, char *err, size_t errlen)
{
    contact_set *sc = calloc(1, sizeof *sc);
    int n = m->d.ncontacts;
    if (sc)
        sc->c = calloc((size_t) (n > 0 ? n : 1), sizeof(contacts_contact));
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
    sc->rot.t = calloc((size_t) (m->ncoords > 0 ? m->ncoords : 1), sizeof(double));
    sc->jac.xq = calloc((size_t) (m->ncoords > 0 ? m->ncoords : 1), sizeof(double));
    sc->jac.xv = calloc((size_t) (m->ncoords > 0 ? m->ncoords : 1), sizeof(double));
    sc->rot.ok = calloc((size_t) (m->d.nbodies > 0 ? m->d.nbodies : 1), 1);
    sc->end = calloc((size_t) (n > 0 ? n : 1), sizeof *sc->end);
    if (!sc->imp.w || !sc->imp.z || !sc->rot.t || !sc->rot.ok || !sc->jac.xq || !sc->jac.xv ||
        !sc->end) {
        free(sc->end);
        free(sc->jac.xq);
        free(sc->jac.xv);
        free(sc->imp.w);
        free(sc->imp.z);
        free(sc->rot.t);
        free(sc->rot.ok);
        free(sc->c);
        free(sc);
        if (err && errlen)
            snprintf(err, errlen, "contacts: out of memory");
        return NULL;
    }
    for (int k = 0; k < n; k++) {
        contacts_contact *c = &sc->c[k];
        const model_contact *mc = &m->d.contacts[k];
        const model_element *e = &m->d.elems[mc->element];
        element_def def = e->def;
        const clink_element_base *cm = element_base(&def);
        c->body_a = mc->geo.body_a;
        c->body_b = mc->geo.body_b;
        c->body_c = mc->geo.body_c;
        if (c->body_c > 0) /* a beam segment against a circle (contacts_segment.c) */
            c->seg = (kinematics_segment){.radius = mc->geo.sb.radius,
                                          .centre = {mc->geo.sb.a[0], mc->geo.sb.a[1]},
                                          .h = mc->geo.sa.radius,
                                          .ends = mc->geo.ends};
        kinematics_shape_of(&mc->geo.sa, mc->geo.vertex_a, &c->sa);
        kinematics_shape_of(&mc->geo.sb, mc->geo.vertex_b, &c->sb);
        c->law = clink_law_find(e->law);
        c->p = cm->params;
        c->fr = cm->friction;
        c->piecewise = cm->treatment == CLINK_CONTACT_PIECEWISE;
        c->e_pw = cm->restitution;
        clink_contact_state_init(&c->st);
        prepare_contact(m, c);
        double L = kinematics_shape_class_of(c->sa.kind)->onset_length(&c->sa) +
                   kinematics_shape_class_of(c->sb.kind)->onset_length(&c->sb);
        c->eps = 1e-13 * (L > 1e-3 ? L : 1e-3);
        c->v_settle = settle_speed;
        c->h_release = 1e-12;
        /* an elastic law (no damping rule, the default force: chi = c = 0) gives
           F(delta, rate) = F(delta, 0) exactly, so its damping power is 0 */
        contacts_extra_setup(c, e);
        int damps = !c->piecewise && !(c->law->rule == CLINK_RULE_NONE && c->law->force == NULL);
        damps = damps || c->extra.on; /* the film's power is booked with the damping */
        c->wd = damps ? sc->nwork++ : -1;
        c->wf = !c->piecewise && c->fr.mu > 0.0 ? sc->nwork++ : -1;
    }
    contacts_friction_assign(sc);
    return sc;
}

void contacts_destroy(contact_set **sc)
{
    if (!sc || !*sc)
        return;
    free((*sc)->c);
    free((*sc)->end);
    free((*sc)->records.list);
    free((*sc)->imp.w);
    free((*sc)->imp.z);
    free((*sc)->rot.t);
    free((*sc)->rot.ok);
    free((*sc)->jac.xq);
    free((*sc)->jac.xv);
    free(*sc);
    *sc = NULL;
}

void contacts_set_bookkeeping(contact_set *sc, clink_contact_bookkeeping mode)
{
    sc->bookkeeping = mode;
}

int contacts_count(const contact_set *sc)
{
    return sc ? sc->n : 0;
}

int contacts_nroots(const contact_set *sc)
{
    return 2 * contacts_count(sc);
}

int contacts_nwork(const contact_set *sc)
{
    return sc ? sc->nwork : 0;
}

void contacts_work(const contact_set *sc, int k, const double *work, double *damping,
                   double *friction)
{
    const contacts_contact *c = &sc->c[k];
    *damping = c->wd >= 0 ? work[c->wd] : 0.0;
    *friction = c->wf >= 0 ? work[c->wf] : 0.0;
}

const char *contacts_error(const contact_set *sc)
{
    return sc->msg;
}

int contacts_take_failure(contact_set *sc)
{
    int f = sc->failed;
    sc->failed = 0;
    return f;
}

/* one contact's description for contacts_describe_active */
static size_t describe(const contact_set *sc, int k, const kinematics_contact *geo,
                       const char *what, char *buf, size_t n)
{
    const contacts_contact *c = &sc->c[k];
    int w = snprintf(buf, n, "'%s' (contact %d, %s, K %.3g, penetration %.3g m, %s%s)",
                     sc->m->d.contacts[k].name, k, clink_law_name(c->law),
                     c->st.K > 0.0 ? c->st.K : c->p.K, geo->delta, what,
                     c->piecewise ? ", piecewise" : "");
    return w > 0 && (size_t) w < n ? (size_t) w : (n > 0 ? n - 1 : 0);
}

int contacts_describe_active(const contact_set *sc, const double *y, int nq, char *buf, size_t n)
{
    int count = 0, nearest = -1;
    size_t used = 0;
    double dmax = -INFINITY;
    kinematics_contact near_geo;
    memset(&near_geo, 0, sizeof near_geo);
    buf[0] = '\0';
    for (int k = 0; k < sc->n; k++) {
        const contacts_contact *c = &sc->c[k];
        kinematics_contact geo;
        if (contacts_geometry(c, y, y + nq, &geo) != 0)
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
        used += describe(sc, k, &geo,
                         c->persistent         ? "permanent"
                         : c->impact.in_impact ? "impact"
                                               : "touching",
                         buf + used, n - used);
    }
    if (count == 0 && nearest >= 0) {
        /* nothing in contact at the last accepted step: the closest contact is the one the
           rejected steps run into */
        describe(sc, nearest, &near_geo, "the closest, about to touch", buf, n);
        return 1;
    }
    return count;
}

double contacts_size(const contact_set *sc, int k)
{
    const contacts_contact *c = &sc->c[k];
    double ra = kinematics_shape_class_of(c->sa.kind)->size(&c->sa);
    double rb = kinematics_shape_class_of(c->sb.kind)->size(&c->sb);
    double L = fmin(ra > 0.0 ? ra : INFINITY, rb > 0.0 ? rb : INFINITY);
    if (isfinite(L))
        return L;
    /* a point on a line (a stop, a slider's corner): its element's own size */
    const model_data *d = &sc->m->d;
    const model_element *e = &d->elems[d->contacts[k].element];
    const element_class *ec = element_class_of(e->kind);
    L = ec->contact_size != NULL ? ec->contact_size(&e->def) : 0.0;
    return L > 0.0 && isfinite(L) ? L : 0.0;
}

int contacts_suspect(const contact_set *sc, const double *y, int nq, char *buf, size_t n)
{
    /* a penetration beyond the contact's size: outside the range of any contact law */
    for (int k = 0; k < sc->n; k++) {
        kinematics_contact geo;
        double L = contacts_size(sc, k);
        if (L > 0.0 && contacts_geometry(&sc->c[k], y, y + nq, &geo) == 0 && geo.delta > L) {
            snprintf(buf, n,
                     "contact '%s' penetrates %.3g m, beyond its size %.3g m, outside the range "
                     "of its law (the shapes pass through each other: a load or an initial "
                     "speed too large for the contact)",
                     sc->m->d.contacts[k].name, geo.delta, L);
            return 1;
        }
    }
    /* a friction coefficient no surface has */
    for (int k = 0; k < sc->n; k++)
        if (sc->c[k].fr.mu > CONTACTS_MU_ABSURD) {
            snprintf(buf, n,
                     "contact '%s' has a friction coefficient mu = %.3g (above %g: no pair of "
                     "surfaces has that; a typing error?)",
                     sc->m->d.contacts[k].name, sc->c[k].fr.mu, CONTACTS_MU_ABSURD);
            return 1;
        }
    return 0;
}

double contacts_clearance(const contact_set *sc, int k)
{
    const contacts_contact *c = &sc->c[k];
    if (c->sa.kind == CLINK_SHAPE_BORE)
        return c->sa.r - c->sb.r;
    if (c->sb.kind == CLINK_SHAPE_BORE)
        return c->sb.r - c->sa.r;
    return 0.0;
}

const char *contacts_name(const contact_set *sc, int k)
{
    return sc->m->d.contacts[k].name;
}

double contacts_mu(const contact_set *sc, int k)
{
    return sc->c[k].fr.mu;
}

/* nonzero if shape s on its body is round (a circle, a bore) and centred at the body's centre
   of mass */
static int centred_round(const kinematics_shape *s)
{
    return kinematics_shape_has(s, KINEMATICS_SHAPE_ROUND) && s->a[0] == 0.0 && s->a[1] == 0.0;
}

int contacts_keeps_axis(const contact_set *sc, int k, int axis, const double *q0, int *body_a,
                        int *body_b)
{
    const contacts_contact *c = &sc->c[k];
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
        } else if (kinematics_shape_has(sh[i], KINEMATICS_SHAPE_FLAT)) {
            /* a ground line whose normal has no component along the axis */
            if (sh[i]->nrm[axis] != 0.0)
                return 0;
            line = 1;
            at[i] = 0.0;
        } else if (kinematics_shape_has(sh[i], KINEMATICS_SHAPE_ROUND)) {
            at[i] = sh[i]->a[axis];
        } else {
            return 0;
        }
    }
    return line || at[0] == at[1];
}

void contacts_turning(const contact_set *sc, unsigned char *turns)
{
    for (int k = 0; k < sc->n; k++) {
        const contacts_contact *c = &sc->c[k];
        /* the normal force of a round shape passes through its centre; friction does not */
        if (c->body_a > 0 && (c->fr.mu > 0.0 || !centred_round(&c->sa)))
            turns[c->body_a] = 1;
        if (c->body_b > 0 && (c->fr.mu > 0.0 || !centred_round(&c->sb)))
            turns[c->body_b] = 1;
    }
}

int contacts_central(const contact_set *sc, int k)
{
    const contacts_contact *c = &sc->c[k];
    return kinematics_shape_has(&c->sa, KINEMATICS_SHAPE_CENTRAL) &&
           kinematics_shape_has(&c->sb, KINEMATICS_SHAPE_CENTRAL);
}

/* the journal's centre minus the bore's centre (world frame) of contact c at q, m */
static void contacts_centre_offset(const contacts_contact *c, const double *q, double e[2])
{
    double w[2][2];
    const kinematics_shape *s[2] = {&c->sa, &c->sb};
    int body[2] = {c->body_a, c->body_b};
    for (int i = 0; i < 2; i++) {
        const double *qb = body[i] > 0 ? q + 3 * (body[i] - 1) : NULL;
        double cs = qb ? cos(qb[2]) : 1.0, sn = qb ? sin(qb[2]) : 0.0;
        w[i][0] = (qb ? qb[0] : 0.0) + cs * s[i]->a[0] - sn * s[i]->a[1];
        w[i][1] = (qb ? qb[1] : 0.0) + sn * s[i]->a[0] + cs * s[i]->a[1];
    }
    e[0] = w[1][0] - w[0][0];
    e[1] = w[1][1] - w[0][1];
}

/* the normal force of contacts_info alone (the same evaluation: the same bits); at a step's end,
   the geometry kept there when the bodies' bits are the same */
clink_status contacts_info_fn(contact_set *sc, int k, const double *q, const double *v, int at_end,
                              double *fn)
{
    if (k < 0 || k >= sc->n || !fn)
        return CLINK_ERR_ARG;
    contacts_contact *c = &sc->c[k];
    kinematics_contact geo;
    if ((at_end ? contacts_geometry_kept(sc, k, q, v, &geo) : contacts_geometry(c, q, v, &geo)) !=
        0)
        return CLINK_ERR_MODEL;
    *fn = !c->piecewise && c->st.phase == CLINK_CONTACT_OPEN
              ? contacts_memo_force(sc, c, &geo, q, NULL, NULL)
              : contacts_contact_force(sc, c, &geo, q, NULL);
    return CLINK_OK;
}

clink_status contacts_info(contact_set *sc, int k, const double *q, const double *v,
                           clink_contact_info *info)
{
    if (k < 0 || k >= sc->n || !info)
        return CLINK_ERR_ARG;
    contacts_contact *c = &sc->c[k];
    kinematics_contact geo;
    if (contacts_geometry(c, q, v, &geo) != 0)
        return CLINK_ERR_MODEL;
    memset(info, 0, sizeof *info);
    info->delta = geo.delta;
    info->delta_dot = geo.delta_dot;
    /* the memo is read, never written: contacts_info has no side effects */
    info->fn = !c->piecewise && c->st.phase == CLINK_CONTACT_OPEN
                   ? contacts_memo_force(sc, c, &geo, q, NULL, NULL)
                   : contacts_contact_force(sc, c, &geo, q, NULL);
    info->ft = contacts_friction_at(c, geo.v_t, info->fn > 0.0 ? info->fn : 0.0, NULL);
    memcpy(info->normal, geo.n, sizeof info->normal);
    memcpy(info->point_a, geo.p_a, sizeof info->point_a);
    memcpy(info->point_b, geo.p_b, sizeof info->point_b);
    if (c->sa.kind == CLINK_SHAPE_BORE && (c->sa.prof || c->sb.prof)) {
        /* a worn bore or pin (docs/wear.md): the centre offset from the bodies' positions,
           since the normal of a worn surface misses the centres */
        contacts_centre_offset(c, q, info->eccentricity);
    } else if (c->sa.kind == CLINK_SHAPE_BORE) {
        /* n = -e/|e| and delta = |e| - (R_bearing - r_journal) */
        double d = geo.delta + c->sa.r - c->sb.r;
        info->eccentricity[0] = -geo.n[0] * d;
        info->eccentricity[1] = -geo.n[1] * d;
    }
    info->phase = c->st.phase;
    info->persistent = c->persistent;
    return CLINK_OK;
}

/* ---- the contacts' state at an output (for a restart there: sim_inputs.c) ---- */

size_t contacts_state_size(const contact_set *sc)
{
    return (size_t) sc->n * sizeof(contacts_contact);
}

void contacts_state_save(const contact_set *sc, void *buf)
{
    if (sc->n > 0)
        memcpy(buf, sc->c, contacts_state_size(sc));
}

void contacts_state_restore(contact_set *sc, const void *buf)
{
    if (sc->n > 0)
        memcpy(sc->c, buf, contacts_state_size(sc));
}
