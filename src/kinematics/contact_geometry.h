/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Contact geometry between body-fixed planar shapes.
 *
 * Every shape is a core (a point, a segment, or a line) swollen by a radius:
 *   circle  = point + radius        capsule = segment + radius
 *   line    = a half-plane: the solid lies on the side opposite to its outward normal
 *   bore    = the inside of a circle (the bearing of a revolute clearance joint)
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

/* A shape fixed to a body, in the body frame (origin at the centre of mass), m. */
typedef struct kinematics_shape {
    clink_shape_type kind; /* the public shape enum; CLINK_SHAPE_BORE for a bearing */
    double a[2];           /* centre, first end, or point on the line */
    double b[2];           /* second end (capsule) */
    double nrm[2];         /* outward unit normal (line) */
    double r;              /* radius (circle, capsule, bore), m */
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
} kinematics_contact;

/*
 * Returns 0 and fills *out for a supported pair; -1 for a pair that makes no
 * sense (line against line or bore, bore against anything but a circle, or
 * anything as B that only A may be: put the line or bore first).
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
