/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_memo.c: the caches that spare an open contact at rest its evaluations
 * (docs/contact-mechanics.md, "Evaluation paths"). Each returns the bits the full
 * evaluation gives, so that no result depends on them:
 *   - rest: the coordinates of the contact's bodies at its last evaluation in the open
 *     phase, its onset root function eps - delta then and whether it was apart
 *     (delta <= 0). While both bodies' coordinates are bit for bit the same
 *     (contacts_memo_unchanged, contacts_internal.h) so is delta: an apart contact has no
 *     force and its root function is the one kept;
 *   - rest forces: an open contact that overlaps there, on the direct path of two
 *     circles, with an elastic law and no friction, has the force F(delta) n, which reads
 *     no velocity: its generalised forces are kept and added again;
 *   - the provisional force of an open contact that overlaps (the onset in the step that
 *     brackets its root, or beads that touch and overlap by rounding): the law's force
 *     with a provisional onset at the current rate, a function of (delta, delta_dot,
 *     1 / m_eff), of delta alone for an elastic law, kept under that key.
 * An event of the contact clears what a change of its phase or law state makes stale.
 * The test of unchanged coordinates and the notes of an evaluation (contacts_memo_unchanged,
 * contacts_memo_remember, contacts_memo_keep_normal) are inline in contacts_internal.h.
 */
#include "contacts/contacts_internal.h"

#include <math.h>

/*
 * contacts_contact_force() of an open contact with delta > 0 (the provisional onset), computed
 * again only when its penetration, rate or inverse effective mass differ bit for bit
 * from the last call's: the force is a function of those and of the contact's law,
 * parameters and phase, which change only at its events (contacts_handle_roots clears the
 * memo). Touching beads ahead of a chain's wave overlap by rounding (up to 1e-15 m)
 * and are at rest, so they pay one onset and one law evaluation instead of one per
 * right-hand side; the forces are the same bits either way. An elastic law's force
 * (c->fixed.elastic: no damping, chi = c = 0 whatever the onset) depends on delta alone for a
 * finite rate (a non-finite one is never memorised: its onset fails), so its key is delta:
 * beads that keep their positions while their speeds change by rounding hit it too.
 */
double contacts_memo_force(const contact_set *sc, const contacts_contact *c,
                           const kinematics_contact *geo, const double *q, double *f0,
                           contacts_contact *keep)
{
    if ((c->fixed.elastic && !isfinite(geo->delta_dot)) || c->fixed.kfac)
        return contacts_contact_force(sc, c, geo, q, f0); /* a factor reads q */
    double key[3] = {geo->delta, 0.0, 0.0};
    if (!c->fixed.elastic) {
        key[1] = geo->delta_dot;
        key[2] = contacts_free_inv_mass(sc, c, geo, q);
    }
    if (c->memo.ok && memcmp(key, c->memo.key, sizeof key) == 0) {
        if (f0)
            *f0 = c->memo.f0;
        return c->memo.fn;
    }
    double fz = 0.0; /* F(delta, 0) is kept for any later caller that asks for it */
    double fn = contacts_contact_force(sc, c, geo, q, &fz);
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

/*
 * An open contact whose bodies' coordinates are bit for bit those of its last force
 * evaluation (contacts_memo_unchanged) and whose force reads no velocity (c->memo.rest_force: the
 * direct path, an elastic law, no friction): its penetration, normal and contact points
 * are those of rest_q, its force F(delta) too (contacts_memo_force), so its generalised forces are
 * those kept, added in the same order. Only the rate is computed, as the geometry does,
 * because a non-finite one fails the onset (then the full path runs). Its damping and
 * friction powers are read by nobody (no such integrals). Returns 1 if it added them.
 */
int contacts_memo_reuse_force(const contacts_contact *c, const double *q, const double *v,
                              double *g)
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

void contacts_memo_forget(contacts_contact *c)
{
    c->memo.ok = 0;
    c->memo.rest_force = 0;
}

void contacts_memo_reset(contacts_contact *c)
{
    c->memo.rest_valid = 0;
    c->memo.rest_force = 0;
    c->memo.ok = 0;
}
