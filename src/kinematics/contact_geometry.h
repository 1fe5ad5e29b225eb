/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Contact geometry between body-fixed planar shapes.
 *
 * Every shape is a core (a point, a segment, or a line) swollen by a radius:
 *   circle  = point + radius        capsule = segment + radius
 *   line    = a half-plane: the solid lies on the side opposite to its outward normal
 *   bore    = the inside of a circle (the bearing of a revolute clearance joint)
 *   polygon = a convex polygon without radius, touching with its vertices
 *             (contact_polygon.c; the shapes' table and the pairs' registry:
 *             contact_shapes.h)
 *
 * For a pair (A, B) the geometry gives the penetration delta (m, > 0 when the
 * shapes overlap), its rate delta_dot (m/s, > 0 when they approach), the unit
 * normal n along which the normal force acts on B (the force on A is opposite),
 * the tangent t = (-n_y, n_x), the contact points on the surfaces of A and B
 * (world frame, m) and the tangential slip velocity v_t = t . (v_B(p_B) - v_A(p_A))
 * (m/s).
 *
 * External contact (circle, capsule, line against circle or capsule): with q_A,
 * q_B the closest points of the two cores, d = |q_B - q_A| and n = (q_B - q_A)/d,
 *     delta = r_A + r_B - d,   delta_dot = -n . (v(q_B) - v(q_A)),
 * where v(q) is the velocity of the material point at q. The rate is exact: the
 * closest points may slide along the cores, but only perpendicular to n.
 * Internal contact (journal B of radius r_B inside bore A of radius R_A), with
 * e = c_B - c_A and d = |e|, n = -e/d (the bore pushes the journal back):
 *     delta = d - (R_A - r_B),  delta_dot = (e/d) . (v(c_B) - v(c_A)).
 * A capsule against a line or a capsule touches at one point only (the deepest
 * end, or the closest pair of points); a capsule lying flat on a line therefore
 * carries its load at one end at a time.
 */
#ifndef CLINK_KINEMATICS_CONTACT_GEOMETRY_H
#define CLINK_KINEMATICS_CONTACT_GEOMETRY_H

#include "clink/model.h"

#include <math.h>

/* A shape fixed to a body, in the body frame (origin at the centre of mass), m. */
typedef struct kinematics_shape {
    clink_shape_type kind; /* the public shape enum; CLINK_SHAPE_BORE for a bearing */
    double a[2];           /* centre, first end, or point on the line */
    double b[2];           /* second end (capsule) */
    double nrm[2];         /* outward unit normal (line) */
    double r;              /* radius (circle, capsule, bore), m */
    /* a polygon: its nv vertices, counter-clockwise (borrowed); vertex: 1 + the index of
       the vertex a contact is about, 0 for the whole shape */
    int nv, vertex;
    const double (*v)[2];
    /* an arc: its span ang[0] .. ang[1] (rad) and concave; a profile: ang[0] its orientation,
       prof its definition (borrowed) */
    double ang[2];
    int concave;
    const clink_profile_def *prof;
} kinematics_shape;

/* Position and velocity of a body: (x, y, phi) and (xd, yd, phid), SI. */
typedef struct kinematics_pose {
    double q[3];
    double qd[3];
} kinematics_pose;

typedef struct kinematics_contact {
    double delta;     /* penetration, m (> 0 in contact) */
    double delta_dot; /* rate of penetration, m/s (> 0 approaching) */
    double n[2];      /* unit normal: direction of the normal force on B */
    double t[2];      /* unit tangent (-n_y, n_x) */
    double p_a[2];    /* contact point on the surface of A, world frame, m */
    double p_b[2];    /* contact point on the surface of B, world frame, m */
    double v_t;       /* tangential slip velocity of B relative to A at the contact, m/s */
    /* a contact with a third body (a beam segment between body A and a third body,
       contact_segment.h): the closest point's parameter s in [0, 1], the third body's share
       of the force on A (A's is 1 - s); set by the segment's geometry only */
    double share;
} kinematics_contact;

/*
 * Returns 0 and fills *out for a supported pair (the registry of contact_shapes.h); -1
 * for a pair that makes no sense (line against line or bore, bore against anything but
 * a circle, or anything as B that only A may be: put the line or bore first).
 */
int kinematics_contact_eval(const kinematics_shape *sa, const kinematics_pose *pa,
                            const kinematics_shape *sb, const kinematics_pose *pb,
                            kinematics_contact *out);

/*
 * The same with the rotations of the two bodies given: rot_a = (cos, sin) of pa's
 * angle, rot_b of pb's (a caller that evaluates many contacts computes each body's
 * once; the results are those of kinematics_contact_eval bit for bit).
 */
int kinematics_contact_eval_rot(const kinematics_shape *sa, const kinematics_pose *pa,
                                const double rot_a[2], const kinematics_shape *sb,
                                const kinematics_pose *pb, const double rot_b[2],
                                kinematics_contact *out);

/*
 * The direct path for two circles, each centred on its body's reference point (shape.a =
 * (0, 0)) or fixed on the ground (its body's q and v NULL: shape.a is its world centre):
 * the geometry of kinematics_contact_eval bit for bit (the same operations in the same
 * order) without the rotations, which do not move such a centre. q and v are the body's
 * (x, y, phi) and their rates. With slip = 0, out->v_t is 0 (for a frictionless contact,
 * which never reads it). Returns 0, or -1 (out untouched) for a non-finite angle, where
 * the general path's rotation would give NaN: the caller takes the general path then.
 * kinematics_contact_circles_ok tells whether a shape of a body (ground: 0) qualifies.
 */
int kinematics_contact_circles_ok(const kinematics_shape *s, int body);

/* (inline: it is the inner loop of a chain's right-hand side) */
/*
 * The core point of a circle as kinematics_contact_eval_rot computes it: to_world and then
 * "+ 0.0" (closest_segments' q = a + s u with s u = 0). On a body with a = 0 the rotated
 * offset is +-0 for a finite angle, so the point is q + 0.0 whatever the angle; on the
 * ground the pose is 0 and the rotation (cos 0, sin 0) = (1, 0).
 */
static inline void kinematics_circle_core_(const kinematics_shape *s, const double *q, double c[2])
{
    if (q) {
        c[0] = q[0] + 0.0;
        c[1] = q[1] + 0.0;
    } else {
        c[0] = 0.0 + 1.0 * s->a[0] - 0.0 * s->a[1] + 0.0;
        c[1] = 0.0 + 0.0 * s->a[0] + 1.0 * s->a[1] + 0.0;
    }
}

/* point_velocity of a body given by q, v (NULL: the ground at rest at 0) */
static inline void kinematics_circle_velocity_(const double *q, const double *v, const double w[2],
                                               double out[2])
{
    if (!q) { /* the ground at rest at 0 */
        out[0] = 0.0 - 0.0 * (w[1] - 0.0);
        out[1] = 0.0 + 0.0 * (w[0] - 0.0);
        return;
    }
    out[0] = v[0] - v[2] * (w[1] - q[1]);
    out[1] = v[1] + v[2] * (w[0] - q[0]);
}

static inline int kinematics_contact_circles(const kinematics_shape *sa, const double *qa,
                                             const double *va, const kinematics_shape *sb,
                                             const double *qb, const double *vb, int slip,
                                             kinematics_contact *out)
{
    double ca[2], cb[2], vqa[2], vqb[2];

    if ((qa && !isfinite(qa[2])) || (qb && !isfinite(qb[2])))
        return -1;
    kinematics_circle_core_(sa, qa, ca);
    kinematics_circle_core_(sb, qb, cb);
    /* external() */
    double d[2] = {cb[0] - ca[0], cb[1] - ca[1]};
    double dist = hypot(d[0], d[1]);
    if (dist > 0.0) {
        out->n[0] = d[0] / dist;
        out->n[1] = d[1] / dist;
    } else {
        out->n[0] = 1.0;
        out->n[1] = 0.0;
    }
    out->delta = sa->r + sb->r - dist;
    out->share = 0.0;
    /* finish() with rate_sign -1 */
    kinematics_circle_velocity_(qa, va, ca, vqa);
    kinematics_circle_velocity_(qb, vb, cb, vqb);
    out->delta_dot = -1.0 * (out->n[0] * (vqb[0] - vqa[0]) + out->n[1] * (vqb[1] - vqa[1]));
    out->t[0] = -out->n[1];
    out->t[1] = out->n[0];
    out->p_a[0] = ca[0] + sa->r * out->n[0];
    out->p_a[1] = ca[1] + sa->r * out->n[1];
    out->p_b[0] = cb[0] - sb->r * out->n[0];
    out->p_b[1] = cb[1] - sb->r * out->n[1];
    out->v_t = 0.0;
    if (slip) {
        double vpa[2], vpb[2];
        kinematics_circle_velocity_(qa, va, out->p_a, vpa);
        kinematics_circle_velocity_(qb, vb, out->p_b, vpb);
        out->v_t = out->t[0] * (vpb[0] - vpa[0]) + out->t[1] * (vpb[1] - vpa[1]);
    }
    return 0;
}

/*
 * Derivatives of the contact geometry (forward-mode automatic differentiation): a
 * value and its derivatives with respect to the 12 inputs (x, y, phi of A, of B, then
 * their rates xd, yd, phid of A, of B), in that order.
 */
enum { KINEMATICS_NDIFF = 12 };

typedef struct kinematics_dual {
    double v;
    double d[KINEMATICS_NDIFF];
} kinematics_dual;

typedef struct kinematics_contact_diff {
    kinematics_dual delta, delta_dot, n[2], t[2], p_a[2], p_b[2], v_t;
} kinematics_contact_diff;

/*
 * The geometry of kinematics_contact_eval with its exact derivatives, for the pairs
 * whose cores are points (circle or bore against a circle, a line against a circle):
 * returns 0, or -1 for a pair with a capsule, a pair kinematics_contact_eval refuses,
 * or coincident centres (no derivative of the normal there). Ground (a NULL pose)
 * contributes no derivative.
 */
int kinematics_contact_eval_diff(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const kinematics_shape *sb, const kinematics_pose *pb,
                                 kinematics_contact_diff *out);

/* arithmetic on kinematics_dual */
kinematics_dual kinematics_dual_add(kinematics_dual a, kinematics_dual b);
kinematics_dual kinematics_dual_sub(kinematics_dual a, kinematics_dual b);
kinematics_dual kinematics_dual_mul(kinematics_dual a, kinematics_dual b);
kinematics_dual kinematics_dual_scale(kinematics_dual a, double s);

/*
 * Generalised force (Qx, Qy, Qphi) of a force f (N) applied at world point p (m)
 * on a body at pose q: Qphi = (p - r) x f, N m.
 */
void kinematics_point_force(const double q[3], const double p[2], const double f[2], double Q[3]);

#endif
