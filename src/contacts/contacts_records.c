/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_records.c: the impact records of a simulation (clink_impact_record) and
 * their getters, the host's callback, the energy booked at events and the count of
 * events.
 *
 * A record of a continuous law spans an episode, from the onset (t_onset) to the
 * separation or to the entry into permanent contact (duration): the approach speed
 * v_impact and the separation speed v_separation, the restitution
 * v_separation / v_impact (NaN for an onset slower than v_settle, a resting contact),
 * the largest penetration delta_max and force F_max, the effective mass m_eff, the
 * compression lobes, and the energy dissipated during it: the change of the contact's
 * damping and friction integrals plus what was booked at its events (contacts.c,
 * "Energy audit"). A piecewise impact's record has no duration and one lobe.
 */
#include "contacts/contacts_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* stores an impact record and calls the host's callback; -1 when out of memory */
int contacts_records_push(contact_set *sc, const clink_impact_record *r)
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

/* the turn of a cam's profile body at q: floor((phi - phi0) / (2 pi)) */
static int turn_of(const contacts_contact *c, const double *q)
{
    double phi = q[3 * (c->fixed.turn_body - 1) + 2] - c->fixed.turn_phi0;
    return (int) floor(phi / 6.283185307179586);
}

/*
 * The first separation of each turn of a cam (a contact with a profile shape): a separation
 * in a turn later than the latest noted becomes that turn's first; the two latest are kept
 * (an output's state may lie before the integrator's last event, within one step, which
 * never spans two turns).
 */
void contacts_note_separation(contacts_contact *c, double t, const double *q)
{
    if (c->fixed.turn_body <= 0)
        return;
    contacts_episode *e = &c->impact;
    int turn = turn_of(c, q);
    if (e->sep_n > 0 && turn <= e->sep_turn[1])
        return;
    e->sep_turn[0] = e->sep_turn[1];
    e->sep_t[0] = e->sep_t[1];
    e->sep_turn[1] = turn;
    e->sep_t[1] = t;
    e->sep_n = e->sep_n < 2 ? e->sep_n + 1 : 2;
}

double contacts_first_separation(const contact_set *sc, int k, double t, const double *q)
{
    if (!sc || k < 0 || k >= sc->n || sc->c[k].fixed.turn_body <= 0)
        return NAN;
    const contacts_contact *c = &sc->c[k];
    const contacts_episode *e = &c->impact;
    int turn = turn_of(c, q);
    for (int i = 1; i >= 2 - e->sep_n; i--)
        if (e->sep_turn[i] == turn && e->sep_t[i] <= t)
            return e->sep_t[i];
    return NAN;
}

/* the record of the impact in progress at contact k, ended at t; -1 when out of memory */
int contacts_records_close(contact_set *sc, int k, double t, double v_sep, const double *work,
                           int persistent)
{
    contacts_contact *c = &sc->c[k];
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
    contacts_work(sc, k, work, &wd, &wf);
    r.dissipated = wd + wf + c->impact.booked - c->impact.diss0;
    r.m_eff = c->st.m_eff;
    r.persistent = persistent;
    r.lobes = c->impact.lobes;
    c->impact.in_impact = 0;
    return contacts_records_push(sc, &r);
}

int contacts_impact_count(const contact_set *sc)
{
    return sc ? sc->records.n : 0;
}

clink_status contacts_impact(const contact_set *sc, int i, clink_impact_record *rec)
{
    if (!sc || i < 0 || i >= sc->records.n || !rec)
        return CLINK_ERR_ARG;
    *rec = sc->records.list[i];
    return CLINK_OK;
}

void contacts_set_callback(contact_set *sc, clink_impact_fn fn, void *data)
{
    sc->records.cb = fn;
    sc->records.cb_data = data;
}

double contacts_booked(const contact_set *sc, int k)
{
    return sc && k >= 0 && k < sc->n ? sc->c[k].impact.booked : 0.0;
}

long contacts_events(const contact_set *sc)
{
    return sc ? sc->events : 0;
}
