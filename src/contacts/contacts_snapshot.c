/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_snapshot.c: the contacts' part of a state snapshot (contacts_snapshot.h,
 * include/clink/sim.h "state snapshots"). What a contact carries from one step to the
 * next besides the state vector: its phase and law state (clink_contact_state: the
 * damping fixed at onset, the elastoplastic history and plastic residual), whether it is
 * persistent, the dissipation rates of its last force evaluation, its onset level and
release height (both adapted at events), its memo (the caches of
 * open contacts, contacts_memo.c: bit-exact, carried all the same so that a restored
 * run takes the same paths) and its episode (the impact in progress and the energy booked
 * at events); of the set, the impact records (contacts_records.c) and the event count.
 * The rotation cache is keyed by the angle's bits and is simply emptied on a restore.
 */
#include "contacts/contacts_internal.h"
#include "contacts/contacts_snapshot.h"

#include <stdlib.h>

uint64_t contacts_snapshot_hash(const contact_set *sc, uint64_t h)
{
    for (int k = 0; k < sc->n; k++) {
        const contacts_contact *c = &sc->c[k];
        if (c->law && c->law->name)
            h = snap_fnv(h, c->law->name, strlen(c->law->name) + 1);
        /* field by field: no padding bytes hashed */
        int ints[4] = {c->body_a, c->body_b, c->piecewise, (int) c->fr.kind};
        double d[4] = {c->fr.mu, c->fr.v0, c->fr.v1, c->e_pw};
        h = snap_fnv(h, ints, sizeof ints);
        h = snap_fnv(h, d, sizeof d);
        h = snap_fnv(h, &c->p, sizeof c->p); /* doubles only */
    }
    return h;
}

/* what a snapshot carries of one contact, in stream order: each member's address and size
   (written from it, read into it; one list for both, and for the stream's size) */
enum { CONTACTS_SNAP_FIELDS = 8 };
static void contacts_snapshot_fields(const contacts_contact *c, void *at[CONTACTS_SNAP_FIELDS],
                                     size_t size[CONTACTS_SNAP_FIELDS])
{
    contacts_contact *w = (contacts_contact *) c; /* the reader writes through these */
    void *const p[CONTACTS_SNAP_FIELDS] = {&w->st,  &w->persistent, &w->pdamp, &w->pfric,
                                           &w->eps, &w->h_release,  &w->memo,  &w->impact};
    const size_t z[CONTACTS_SNAP_FIELDS] = {
        sizeof c->st,  sizeof c->persistent, sizeof c->pdamp, sizeof c->pfric,
        sizeof c->eps, sizeof c->h_release,  sizeof c->memo,  sizeof c->impact};
    for (int f = 0; f < CONTACTS_SNAP_FIELDS; f++) {
        at[f] = p[f];
        size[f] = z[f];
    }
}

void contacts_snapshot_write(const contact_set *sc, snap_stream *s)
{
    snap_put(s, &sc->n, sizeof sc->n);
    for (int k = 0; k < sc->n; k++) {
        void *at[CONTACTS_SNAP_FIELDS];
        size_t size[CONTACTS_SNAP_FIELDS];
        contacts_snapshot_fields(&sc->c[k], at, size);
        for (int f = 0; f < CONTACTS_SNAP_FIELDS; f++)
            snap_put(s, at[f], size[f]);
    }
    snap_put(s, &sc->events, sizeof sc->events);
    snap_put(s, &sc->records.n, sizeof sc->records.n);
    snap_put(s, sc->records.list, (size_t) sc->records.n * sizeof *sc->records.list);
}

/* room for n impact records */
static clink_status contacts_snapshot_records(contact_set *sc, int n)
{
    if (n <= sc->records.cap)
        return CLINK_OK;
    clink_impact_record *p = realloc(sc->records.list, (size_t) n * sizeof *p);
    if (!p)
        return CLINK_ERR_NOMEM;
    sc->records.list = p;
    sc->records.cap = n;
    return CLINK_OK;
}

/* the bytes of one contact in the stream */
static size_t contacts_snapshot_contact_size(void)
{
    static const contacts_contact c; /* only the members' sizes are read */
    void *at[CONTACTS_SNAP_FIELDS];
    size_t size[CONTACTS_SNAP_FIELDS], n = 0;
    contacts_snapshot_fields(&c, at, size);
    for (int f = 0; f < CONTACTS_SNAP_FIELDS; f++)
        n += size[f];
    return n;
}

clink_status contacts_snapshot_read(contact_set *sc, snap_stream *s)
{
    int n = -1, nrec = -1;
    snap_get(s, &n, sizeof n);
    if (s->bad || n != sc->n)
        return CLINK_ERR_ARG;
    /* the records' room first (the count follows the contacts and the event count), so
       that nothing is changed when it cannot be made */
    size_t at = s->pos + (size_t) n * contacts_snapshot_contact_size() + sizeof sc->events;
    if (at > s->cap || s->cap - at < sizeof nrec)
        return CLINK_ERR_ARG;
    memcpy(&nrec, s->r + at, sizeof nrec);
    if (nrec < 0 || (size_t) nrec > (s->cap - at - sizeof nrec) / sizeof *sc->records.list)
        return CLINK_ERR_ARG;
    clink_status st = contacts_snapshot_records(sc, nrec);
    if (st != CLINK_OK)
        return st;
    for (int k = 0; k < sc->n; k++) {
        void *field[CONTACTS_SNAP_FIELDS];
        size_t size[CONTACTS_SNAP_FIELDS];
        contacts_snapshot_fields(&sc->c[k], field, size);
        for (int f = 0; f < CONTACTS_SNAP_FIELDS; f++)
            snap_get(s, field[f], size[f]);
    }
    snap_get(s, &sc->events, sizeof sc->events);
    snap_get(s, &nrec, sizeof nrec);
    snap_get(s, sc->records.list, (size_t) nrec * sizeof *sc->records.list);
    sc->records.n = nrec;
    sc->failed = 0;
    memset(sc->rot.ok, 0, (size_t) (sc->m->d.nbodies > 0 ? sc->m->d.nbodies : 1));
    return s->bad ? CLINK_ERR_ARG : CLINK_OK;
}
