/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_broadphase.h: the gap test of an open contact, the first stage of its evaluation in
 * the right-hand side (contacts_forces) and in the root functions (contacts_roots): the
 * penetration alone, and only when it is positive the rest of the geometry (normal,
 * rates, contact points) and the law.
 *
 * An open contact (not permanent, not piecewise) has no force for delta <= 0 and its one
 * root function is eps - delta; neither reads anything else of the geometry. On the
 * direct path (two circles centred on their bodies or fixed on the ground,
 * kinematics_contact_circles) the penetration is
 *   delta = (r_a + r_b) - |c_b - c_a|
 * computed here with the same operations in the same order, so it is the same bits as the
 * full geometry's (tests/contacts/test_contacts_broadphase.c checks it on random and special
 * pairs); |d| = hypot(d_x, d_y) is taken as |d_x| when d_y is zero and |d_y| when d_x is zero,
 * which C (Annex F: hypot(x, +-0) is fabs(x)) makes exact. A chain's beads on the x axis
 * are such pairs: their gap costs a subtraction and a comparison instead of hypot, two
 * divisions and the contact points. The contacts that pass the test (delta > 0) take
 * the full path; a contact is never decided here on anything but its exact penetration,
 * so no onset and no force is missed and the results are the same bits.
 */
#ifndef CLINK_CONTACTS_BROADPHASE_H
#define CLINK_CONTACTS_BROADPHASE_H

#include "contacts/contacts_internal.h"

#include <math.h>

/* |d| of kinematics_contact_circles' hypot, exact on an axis (see the file comment) */
static inline double contacts_broad_norm(double dx, double dy)
{
    if (dy == 0.0)
        return fabs(dx);
    if (dx == 0.0)
        return fabs(dy);
    return hypot(dx, dy);
}

/*
 * The penetration of contact c at q as kinematics_contact_circles computes it (the same
 * bits) into *delta: 0, or -1 when the gap test does not apply (a contact off the direct
 * path, or a body angle that is not finite, where the full geometry decides).
 */
static inline int contacts_broad_delta(const contacts_contact *c, const double *q, double *delta)
{
    if (!c->fixed.direct)
        return -1;
    const double *qa = c->body_a > 0 ? q + 3 * (c->body_a - 1) : NULL;
    const double *qb = c->body_b > 0 ? q + 3 * (c->body_b - 1) : NULL;
    if ((qa && !isfinite(qa[2])) || (qb && !isfinite(qb[2])))
        return -1;
    double ca[2], cb[2];
    kinematics_circle_core_(&c->sa, qa, ca);
    kinematics_circle_core_(&c->sb, qb, cb);
    *delta = c->sa.r + c->sb.r - contacts_broad_norm(cb[0] - ca[0], cb[1] - ca[1]);
    return 0;
}

#endif
