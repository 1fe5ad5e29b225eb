/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_friction.c: the friction of the contacts in a simulation and the internal
 * states of the dynamic friction laws (lugre, dahl: include/clink/friction.h).
 *
 * A contact whose law has a state z (the mean bristle deflection, m) owns one component of
 * the energy block of CVODE's state (after every damping and friction integral, before the
 * audit: "friction states", c->wz), integrated with the mechanism:
 *   z' = v_t - sigma0 |v_t| z / mu(v_t)   while the contact touches (delta > 0),
 *   z' = 0                               while it is apart (z is frozen),
 * and set to 0 at the onset of every contact (contacts_friction_onset, called after the
 * contacts' events and at the initial state; a reset that changes z re-initialises
 * the integrator). The forces read z from the state the dynamics is evaluated at
 * (contacts_friction_load, before every evaluation of the accelerations). The integrator's
 * Jacobian gets d z' / d z = -sigma0 |v_t| / mu(v_t) on its diagonal
 * (contacts_friction_decay) and d z' / d(q, v) through the slip (contacts_friction_state_jacobian,
 * from the contact's force Jacobian); d v' / d z (the bristle force's response through
 * the saddle solve) by a forward difference of the right-hand side in z
 * (system_jacobian_tail, step 0.1 of max(|z|, contacts_friction_state_scale)): the force of
 * lugre and dahl is linear in z at fixed (q, v) (z' is, and F_n does not depend on z), so
 * that difference is exact but for rounding.
 */
#include "contacts/contacts_internal.h"

#include "contact/friction_table.h"

#include <math.h>

void contacts_friction_assign(contact_set *sc)
{
    for (int k = 0; k < sc->n; k++) {
        contacts_contact *c = &sc->c[k];
        c->wz = !c->piecewise && clink_friction_state_count(&c->fr) > 0 ? sc->nwork++ : -1;
    }
}

int contacts_friction_state_index(const contact_set *sc, int k)
{
    return sc && k >= 0 && k < sc->n ? sc->c[k].wz : -1;
}

void contacts_friction_load(contact_set *sc, const double *work)
{
    for (int k = 0; sc && k < sc->n; k++)
        if (sc->c[k].wz >= 0)
            sc->c[k].fz = work[sc->c[k].wz];
}

int contacts_friction_onset(contact_set *sc, double *work)
{
    int changed = 0;
    for (int k = 0; sc && k < sc->n; k++) {
        contacts_contact *c = &sc->c[k];
        if (c->wz < 0)
            continue;
        int touch =
            c->st.phase == CLINK_CONTACT_COMPRESSION || c->st.phase == CLINK_CONTACT_RESTITUTION;
        if (touch && !c->ftouch && work[c->wz] != 0.0) {
            work[c->wz] = 0.0;
            c->fz = 0.0;
            changed = 1;
        }
        c->ftouch = touch;
    }
    return changed;
}

double contacts_friction_at(const contacts_contact *c, double v_t, double fn, double *zdot)
{
    if (c->wz < 0) {
        if (zdot)
            *zdot = 0.0;
        return clink_friction_force(&c->fr, v_t, fn);
    }
    return clink_friction_force_state(&c->fr, v_t, fn, c->fz, zdot);
}

double contacts_friction_per_normal(const contacts_contact *c, double v_t, double fp, double ft)
{
    return (ft - contact_friction_viscous(&c->fr, v_t)) / fp;
}

int contacts_friction_state_jacobian(const contact_set *sc, int k, int coord[6], double dq[6],
                                     double dv[6])
{
    const contacts_contact *c = &sc->c[k];
    if (c->wz < 0 || !c->zjac)
        return 0;
    for (int side = 0; side < 2; side++) {
        int body = side ? c->body_b : c->body_a;
        for (int i = 0; i < 3; i++) {
            coord[3 * side + i] = body > 0 ? 3 * (body - 1) + i : -1;
            dq[3 * side + i] = c->zjac_d[3 * side + i];
            dv[3 * side + i] = c->zjac_d[6 + 3 * side + i];
        }
    }
    return 1;
}

double contacts_friction_state_scale(const contact_set *sc, int k)
{
    const contacts_contact *c = &sc->c[k];
    return c->wz < 0 ? 0.0 : contact_friction_state_scale(&c->fr);
}

void contacts_friction_decay(const contact_set *sc, double *diag)
{
    for (int k = 0; sc && k < sc->n; k++) {
        const contacts_contact *c = &sc->c[k];
        if (c->wz >= 0)
            diag[c->wz] = c->ftouch_now ? clink_friction_state_decay(&c->fr, c->fvt) : 0.0;
    }
}
