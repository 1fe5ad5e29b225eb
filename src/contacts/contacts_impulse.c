/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_impulse.c: the contacts' solve through the constraints, with the velocity
 * response the driver provides (contacts_set_impulse; dyn_impulse_response): the effective
 * mass at an onset and the piecewise (impulse-momentum) impacts.
 *
 * Effective mass at onset, through the constraints: 1/m_eff = w . z with w the
 * generalised normal direction and z the response [M Phi_q^T; Phi_q 0][z; -P]
 * = [w; 0]; for free bodies it is 1/m_eff = sum over the two bodies of
 * 1/m + ((p - r) x n)^2 / J (contacts_forces.c, which the right-hand side uses:
 * the saddle solve cannot be re-entered there). Only laws whose damping uses m_eff
 * depend on it.
 *
 * Piecewise treatment (impulse-momentum): no force and one root, the onset
 * (g0 = eps - delta). There the velocities jump, v += p z with z the solution of
 *   [M Phi_q^T; Phi_q 0][z; -P] = [w; 0]   (dyn_impulse_response),
 * w the generalised normal direction (delta_dot = -w . v) and
 * p = (1 + e) delta_dot / (w . z), so that delta_dot after = -e delta_dot before
 * and Phi_q v stays satisfied; 1 / (w . z) is the effective mass through the
 * constraints. The kinetic energy lost is booked as the contact's dissipation
 * and CVODE is re-initialised. An approach below v_settle stops the
 * simulation with a message (resting contact needs a continuous law).
 */
#include "contacts/contacts_internal.h"

#include <math.h>
#include <stdio.h>

/* kinetic energy, J */
static double kinetic(const contact_set *sc, const double *v)
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
 * The generalised normal direction w of contact c (on B (n, (p_B - r_B) x n), on A
 * the opposite at p_A; delta_dot = -w . v) into sc->imp.w, the velocity response
 * z to the impulse w through the constraints into sc->imp.z, and w . z = 1 / m_eff.
 * Returns 0, or -1 with the cause in sc->msg. Not callable from inside the
 * right-hand side (it uses the dynamics' work arrays).
 */
int contacts_impulse_response(contact_set *sc, int k, double t, const double *q,
                              const kinematics_contact *geo, double *wz_out)
{
    contacts_contact *c = &sc->c[k];
    int nq = sc->m->ncoords;
    double *w = sc->imp.w, *z = sc->imp.z;
    for (int i = 0; i < nq; i++)
        w[i] = 0.0;
    if (c->body_c > 0) /* a beam segment (contacts_segment.c) */
        contacts_segment_direction(c, geo, q, w);
    else if (c->body_b > 0) {
        const double *qb = q + 3 * (c->body_b - 1);
        double *wb = w + 3 * (c->body_b - 1);
        wb[0] += geo->n[0];
        wb[1] += geo->n[1];
        wb[2] += (geo->p_b[0] - qb[0]) * geo->n[1] - (geo->p_b[1] - qb[1]) * geo->n[0];
    }
    if (c->body_a > 0 && c->body_c == 0) {
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
 * The kinetic energy lost is booked (c->impact.booked) and recorded.
 */
static clink_status piecewise_impact(contact_set *sc, int k, double t, const double *q, double *v,
                                     const kinematics_contact *geo)
{
    contacts_contact *c = &sc->c[k];
    int nq = sc->m->ncoords;
    double *w = sc->imp.w, *z = sc->imp.z, wz = 0.0;
    if (contacts_impulse_response(sc, k, t, q, geo, &wz) != 0)
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
    return contacts_records_push(sc, &r) == 0 ? CLINK_OK : CLINK_ERR_NOMEM;
}

/* piecewise treatment: the impulse at onset (the only root) */
clink_status contacts_impulse_onset(contact_set *sc, int k, double t, const double *q, double *v,
                                    const kinematics_contact *geo)
{
    contacts_contact *c = &sc->c[k];
    if (!(geo->delta_dot >= c->v_settle)) {
        snprintf(sc->msg, sizeof sc->msg,
                 "contact %d (piecewise) approaches at %.3g m/s at t = %.9g s, below the settle "
                 "speed %.3g m/s: resting contact needs a continuous law",
                 k, geo->delta_dot, t, c->v_settle);
        return CLINK_ERR_SOLVER;
    }
    return piecewise_impact(sc, k, t, q, v, geo);
}

void contacts_set_impulse(contact_set *sc, contacts_impulse_fn fn, void *data)
{
    sc->imp.fn = fn;
    sc->imp.data = data;
}

void contacts_set_impulse_free(contact_set *sc, int on)
{
    sc->imp.free_only = on;
}
