/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_snapshot.h: the byte stream of a state snapshot (sim_snapshot.c writes the
 * simulation's part, contacts_snapshot.c the contacts'). A stream either counts
 * (p NULL: the size query) or writes into p, or reads from p; a read past the end or a
 * write past cap sets `bad` and does nothing more, so a caller checks once at the end.
 * Values are stored as their bytes in the machine's order (the header records the order
 * and the sizes, and a snapshot is refused on another kind of machine).
 */
#ifndef CLINK_CONTACTS_SNAPSHOT_H
#define CLINK_CONTACTS_SNAPSHOT_H

#include "contacts/contacts.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct snap_stream {
    unsigned char *p;       /* writing: the buffer (NULL: counting only) */
    const unsigned char *r; /* reading: the buffer */
    size_t pos, cap;
    int bad; /* a read or a write went past the end */
} snap_stream;

/* n bytes of x into the stream (or counted) */
static inline void snap_put(snap_stream *s, const void *x, size_t n)
{
    if (s->bad)
        return;
    if (s->p) {
        if (n > s->cap - s->pos) {
            s->bad = 1;
            return;
        }
        if (n)
            memcpy(s->p + s->pos, x, n);
    }
    s->pos += n;
}

/* n bytes from the stream into x */
static inline void snap_get(snap_stream *s, void *x, size_t n)
{
    if (s->bad || n > s->cap - s->pos) {
        s->bad = 1;
        return;
    }
    if (n)
        memcpy(x, s->r + s->pos, n);
    s->pos += n;
}

/* FNV-1a 64 (Fowler, Noll and Vo) of n bytes, continuing h */
static inline uint64_t snap_fnv(uint64_t h, const void *x, size_t n)
{
    const unsigned char *b = x;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* h continued with every contact's law and parameters (part of the model's hash) */
uint64_t contacts_snapshot_hash(const contact_set *sc, uint64_t h);

/* the contacts' state: phases and law states, memos, episodes, records, counters */
void contacts_snapshot_write(const contact_set *sc, snap_stream *s);
/* reads what contacts_snapshot_write wrote into sc (of the same model); CLINK_OK, or
   CLINK_ERR_NOMEM (the records) or CLINK_ERR_ARG (a short or inconsistent stream) */
clink_status contacts_snapshot_read(contact_set *sc, snap_stream *s);

#endif
