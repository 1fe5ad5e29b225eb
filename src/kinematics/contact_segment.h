/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_segment.h: a circle against a beam element's centreline, the segment between the
 * centres of two nodes (bodies), swollen by the beam's half thickness h (docs/flexible.md,
 * "Contact on the centreline"; the geometry and its derivatives: contact_segment.c).
 *
 * With the nodes' positions x_0, x_1, d = x_1 - x_0, the circle's centre c (radius R) and
 * s = clamp((c - x_0) . d / d . d, 0, 1), the closest point is p = x_0 + s d and
 *     delta = R + h - |c - p|,  n = (c - p) / |c - p|  (the force on the circle),
 *     delta_dot = -n . (v_c - v_p),  v_p = (1 - s) v_0 + s v_1,
 * the force F n on the circle at its centre's line of action and -(1 - s) F n, -s F n on
 * the nodes' centres: the virtual work of the force at p of the beam's linear
 * interpolation of positions (the term in ds vanishes: n is normal to d where s is inside
 * (0, 1), and s is constant where it is clamped).
 *
 * Each element covers the region between its nodes' cross-sections: the lines through x_0
 * and x_1 normal to the nodes' tangents (cos theta, sin theta). A circle whose centre lies
 * behind x_0's cross-section (not the beam's first node) or at or beyond x_1's (not its
 * last node) belongs to the neighbouring element, and this element's penetration is then
 * min(delta, -distance past the line) <= 0: the elements' regions do not overlap, so that
 * no corner is counted twice, and leave no gap, so that a convex corner (where both
 * elements' closest point is the shared node) is covered once, by the element on the
 * circle's side of the node's cross-section, with the same penetration on both sides of
 * it. The beam's ends are rounded (radius h about the end nodes).
 */
#ifndef CLINK_KINEMATICS_CONTACT_SEGMENT_H
#define CLINK_KINEMATICS_CONTACT_SEGMENT_H

#include "kinematics/contact_geometry.h"

/* a circle against a segment: the circle's radius and centre (its body's coordinates, or
   the world's on the ground), the beam's half thickness, which ends are the beam's */
typedef struct kinematics_segment {
    double radius;
    double centre[2];
    double h;
    int ends; /* bit 0: node 0 is the beam's first node, bit 1: node 1 its last */
} kinematics_segment;

/*
 * The geometry of the circle on the body at pose pc (NULL: the ground) against the segment
 * from node n0 to node n1 into *out: delta, delta_dot, n (on the circle), t, p_a (the point
 * on the beam's surface, p + h n), p_b (on the circle's, c - R n), v_t (t . (v_c - v_p):
 * the centres' slip) and share = s. Returns 0, or -1 for nodes that coincide or a
 * non-finite value.
 */
int kinematics_segment_eval(const kinematics_segment *sg, const kinematics_pose *n0,
                            const kinematics_pose *n1, const kinematics_pose *pc,
                            kinematics_contact *out);

/* the inputs of the derivatives: (x, y, theta) of node 0, node 1, the circle's body, then
   their rates */
enum { KINEMATICS_SEGMENT_NDIFF = 18 };

/* the geometry and its exact derivatives with respect to the 18 inputs; arm = c - r_C (the
   circle's centre from its body's origin; c itself on the ground) */
typedef struct kinematics_segment_diff {
    kinematics_contact g;
    double arm[2];
    double delta[KINEMATICS_SEGMENT_NDIFF], delta_dot[KINEMATICS_SEGMENT_NDIFF];
    double n[2][KINEMATICS_SEGMENT_NDIFF], s[KINEMATICS_SEGMENT_NDIFF];
    double arm_d[2][KINEMATICS_SEGMENT_NDIFF];
} kinematics_segment_diff;

/* kinematics_segment_eval with the derivatives (piecewise: those of the side the point is
   on; none of the region's test, whose boundary moves with the nodes' angles); 0 or -1 */
int kinematics_segment_eval_diff(const kinematics_segment *sg, const kinematics_pose *n0,
                                 const kinematics_pose *n1, const kinematics_pose *pc,
                                 kinematics_segment_diff *out);

#endif
