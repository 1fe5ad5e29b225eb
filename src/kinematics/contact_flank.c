/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_flank.c: the two tooth flanks of a gear pair (src/elements/element_gear_pair.c),
 * an entry of the registry (contact_geometry.c): their geometry, its exact derivatives and
 * the mesh stiffness over the mesh cycle.
 *
 * With c1, c2 the centres, e = (c2 - c1) / |c2 - c1|, t = e turned by +90 deg, sigma = +1
 * (drive flank) or -1 (back flank), iota = +1 for an external pair and -1 for an internal
 * one (gear 2 a ring, turning the same way as gear 1), alpha the pressure angle and b half
 * the backlash:
 *
 *   x = r_b1 (phi1 - angle1) + iota r_b2 (phi2 - angle2),   delta = sigma x - b,
 *   delta_dot = sigma (r_b1 omega1 + iota r_b2 omega2),
 *   n = iota (sigma cos(alpha) t + sin(alpha) e),
 *
 * both contact points at the pitch point P = c1 + kappa (c2 - c1), kappa = r_b1 / (r_b1 +
 * r_b2) (external: P between the centres) or -r_b1 / (r_b2 - r_b1) (internal: P beyond the
 * pinion, on the ring's side). The line of action through P along n is tangent to both
 * base circles, so the force's moment arm about each centre is its base radius: a force F
 * along n on gear 2 turns it by -iota sigma r_b2 F and gear 1 by -sigma r_b1 F, and
 * -n . (v2(P) - v1(P)) = delta_dot (the virtual work of the force is F d delta). The
 * centres are held by the gears' joints: their motion does not enter delta (bearing play is
 * not modelled). The exact derivatives (kinematics_diff_flanks) serve a mesh whose stiffness
 * varies; a constant mesh has none, so the simulation's Jacobian differences it as before
 * (its results stay the same bits).
 *
 * Mesh stiffness over the mesh cycle (Kahraman and Singh 1991's time-varying mesh
 * stiffness; a rectangular wave of single and double tooth contact): with z the teeth of
 * gear 1, the cycle's fraction u = frac(z (phi1 - angle1) / (2 pi) + phase) (one base pitch
 * of gear 1's rotation per cycle), n = floor(contact ratio) and d = contact ratio - n, n + 1
 * tooth pairs carry the load for u in [0, d) and n for the rest; the factor of the law's
 * force is
 *
 *   s(u) = 1 + 2 a (h(u) - d),   h = 1 on [0, d), 0 elsewhere,
 *
 * of mean 1 (the law's K is the mean mesh stiffness), high 1 + 2 a (1 - d), low 1 - 2 a d
 * (a the amplitude, half the jump); with a smoothing width w > 0 (a fraction of the cycle)
 * each step of h becomes the 3-4-5 polynomial ramp 10 x^3 - 15 x^4 + 6 x^5 over w centred on
 * the step (the mean stays 1, s is twice continuously differentiable). The mesh parameters
 * are the definition's vertices (kinematics_shape_of borrows them: v[0] = {z, phase},
 * v[1] = {d, a}, v[2] = {w, internal}); a flank without them is external with a constant
 * stiffness.
 */
#include "kinematics/contact_profile.h"

#include <math.h>
#include <string.h>

#define TWO_PI_ 6.283185307179586

/* iota: -1 for an internal pair */
static double flank_iota(const kinematics_shape *s)
{
    return s->v && s->v[2][1] != 0.0 ? -1.0 : 1.0;
}

/* kappa of the pitch point P = c1 + kappa (c2 - c1) */
static double pitch_fraction(const kinematics_shape *sa, const kinematics_shape *sb)
{
    return flank_iota(sa) < 0.0 ? -sa->r / (sb->r - sa->r) : sa->r / (sa->r + sb->r);
}

static void world(const double o[2], const double rot[2], const double l[2], double w[2])
{
    w[0] = o[0] + rot[0] * l[0] - rot[1] * l[1];
    w[1] = o[1] + rot[1] * l[0] + rot[0] * l[1];
}

int kinematics_pair_flanks(const kinematics_shape *sa, const kinematics_pose *pa,
                           const double rot_a[2], const kinematics_shape *sb,
                           const kinematics_pose *pb, const double rot_b[2],
                           kinematics_contact *out)
{
    double c1[2], c2[2], va[2], vb[2];
    if (sb->kind != CLINK_SHAPE_FLANK)
        return -1;
    world(pa->q, rot_a, sa->a, c1);
    world(pb->q, rot_b, sb->a, c2);
    double d[2] = {c2[0] - c1[0], c2[1] - c1[1]}, l = hypot(d[0], d[1]);
    double e[2] = {l > 0.0 ? d[0] / l : 1.0, l > 0.0 ? d[1] / l : 0.0}, t[2] = {-e[1], e[0]};
    double sg = sa->concave ? -1.0 : 1.0, ca = cos(sa->ang[1]), sn = sin(sa->ang[1]);
    double io = flank_iota(sa), kp = pitch_fraction(sa, sb);
    double x = sa->r * (pa->q[2] - sa->ang[0]) + io * (sb->r * (pb->q[2] - sb->ang[0]));
    out->delta = sg * x - sa->nrm[0];
    out->delta_dot = sg * (sa->r * pa->qd[2] + io * (sb->r * pb->qd[2]));
    for (int k = 0; k < 2; k++) {
        out->n[k] = io * (sg * ca * t[k] + sn * e[k]);
        out->p_a[k] = out->p_b[k] =
            io > 0.0 ? c1[k] + e[k] * l * sa->r / (sa->r + sb->r) : c1[k] + kp * d[k];
    }
    out->t[0] = -out->n[1];
    out->t[1] = out->n[0];
    /* slip: the teeth's relative velocity at P along the tangent */
    va[0] = pa->qd[0] - pa->qd[2] * (out->p_a[1] - pa->q[1]);
    va[1] = pa->qd[1] + pa->qd[2] * (out->p_a[0] - pa->q[0]);
    vb[0] = pb->qd[0] - pb->qd[2] * (out->p_b[1] - pb->q[1]);
    vb[1] = pb->qd[1] + pb->qd[2] * (out->p_b[0] - pb->q[0]);
    out->v_t = out->t[0] * (vb[0] - va[0]) + out->t[1] * (vb[1] - va[1]);
    return 0;
}

/* ---- exact derivatives ------------------------------------------------------------ */

typedef kinematics_dual kd;

static kd kd_c(double x)
{
    kd r;
    memset(&r, 0, sizeof r);
    r.v = x;
    return r;
}

/* a value seeded at slot (slot < 0: a constant) */
static kd kd_seed(double x, int slot)
{
    kd r = kd_c(x);
    if (slot >= 0)
        r.d[slot] = 1.0;
    return r;
}

/* f(a) with f(a.v) = fv and f'(a.v) = f1 */
static kd kd_chain(kd a, double fv, double f1)
{
    kd r = kinematics_dual_scale(a, f1);
    r.v = fv;
    return r;
}

static kd kd_div(kd a, kd b)
{
    kd r;
    r.v = a.v / b.v;
    for (int i = 0; i < KINEMATICS_NDIFF; i++)
        r.d[i] = (a.d[i] - r.v * b.d[i]) / b.v;
    return r;
}

/* one body's pose in duals (q at slots 3 side .., qd at 6 + 3 side ..; ground: constants) and
   the world point of local l, its velocity */
typedef struct flank_body {
    kd q[3], qd[3];
} flank_body;

static void flank_body_of(const kinematics_pose *p, int side, flank_body *b)
{
    for (int i = 0; i < 3; i++) {
        b->q[i] = kd_seed(p ? p->q[i] : 0.0, p ? 3 * side + i : -1);
        b->qd[i] = kd_seed(p ? p->qd[i] : 0.0, p ? 6 + 3 * side + i : -1);
    }
}

static void flank_world(const flank_body *b, const double l[2], kd w[2])
{
    kd c = kd_chain(b->q[2], cos(b->q[2].v), -sin(b->q[2].v));
    kd s = kd_chain(b->q[2], sin(b->q[2].v), cos(b->q[2].v));
    w[0] = kinematics_dual_add(b->q[0], kinematics_dual_sub(kinematics_dual_scale(c, l[0]),
                                                            kinematics_dual_scale(s, l[1])));
    w[1] = kinematics_dual_add(b->q[1], kinematics_dual_add(kinematics_dual_scale(s, l[0]),
                                                            kinematics_dual_scale(c, l[1])));
}

/* the velocity of body b's material point at p, dotted with t */
static kd flank_point_velocity(const flank_body *b, const kd p[2], const kd t[2])
{
    kd vx = kinematics_dual_sub(b->qd[0],
                                kinematics_dual_mul(b->qd[2], kinematics_dual_sub(p[1], b->q[1])));
    kd vy = kinematics_dual_add(b->qd[1],
                                kinematics_dual_mul(b->qd[2], kinematics_dual_sub(p[0], b->q[0])));
    return kinematics_dual_add(kinematics_dual_mul(t[0], vx), kinematics_dual_mul(t[1], vy));
}

int kinematics_diff_flanks(const kinematics_shape *sa, const kinematics_pose *pa,
                           const kinematics_shape *sb, const kinematics_pose *pb,
                           kinematics_contact_diff *out)
{
    double s[3];
    if (sb->kind != CLINK_SHAPE_FLANK || !kinematics_flank_stiffness(sa, 0.0, s))
        return -1; /* a constant mesh keeps the differences (its results bit for bit) */
    flank_body A, B;
    flank_body_of(pa, 0, &A);
    flank_body_of(pb, 1, &B);
    kd c1[2], c2[2], d[2], e[2], t[2];
    flank_world(&A, sa->a, c1);
    flank_world(&B, sb->a, c2);
    for (int k = 0; k < 2; k++)
        d[k] = kinematics_dual_sub(c2[k], c1[k]);
    double lv = hypot(d[0].v, d[1].v);
    if (!(lv > 0.0))
        return -1; /* coincident centres: no derivative of the normal */
    kd l = kinematics_dual_scale(kinematics_dual_add(kinematics_dual_scale(d[0], d[0].v),
                                                     kinematics_dual_scale(d[1], d[1].v)),
                                 1.0 / lv);
    l.v = lv;
    for (int k = 0; k < 2; k++)
        e[k] = kd_div(d[k], l);
    t[0] = kinematics_dual_scale(e[1], -1.0);
    t[1] = e[0];
    double sg = sa->concave ? -1.0 : 1.0, ca = cos(sa->ang[1]), sn = sin(sa->ang[1]);
    double io = flank_iota(sa), kp = pitch_fraction(sa, sb);
    kd x = kinematics_dual_add(
        kinematics_dual_scale(kinematics_dual_sub(A.q[2], kd_c(sa->ang[0])), sa->r),
        kinematics_dual_scale(kinematics_dual_sub(B.q[2], kd_c(sb->ang[0])), io * sb->r));
    out->delta = kinematics_dual_sub(kinematics_dual_scale(x, sg), kd_c(sa->nrm[0]));
    out->delta_dot =
        kinematics_dual_scale(kinematics_dual_add(kinematics_dual_scale(A.qd[2], sa->r),
                                                  kinematics_dual_scale(B.qd[2], io * sb->r)),
                              sg);
    for (int k = 0; k < 2; k++) {
        out->n[k] = kinematics_dual_scale(kinematics_dual_add(kinematics_dual_scale(t[k], sg * ca),
                                                              kinematics_dual_scale(e[k], sn)),
                                          io);
        out->p_a[k] = out->p_b[k] = kinematics_dual_add(c1[k], kinematics_dual_scale(d[k], kp));
    }
    out->t[0] = kinematics_dual_scale(out->n[1], -1.0);
    out->t[1] = out->n[0];
    out->v_t = kinematics_dual_sub(flank_point_velocity(&B, out->p_b, out->t),
                                   flank_point_velocity(&A, out->p_a, out->t));
    return 0;
}

/* ---- the mesh stiffness over the cycle ---------------------------------------------- */

/* the 3-4-5 ramp P(x) clamped to [0, 1] and its two derivatives */
static void ramp345(double x, double p[3])
{
    if (x <= 0.0 || x >= 1.0) {
        p[0] = x <= 0.0 ? 0.0 : 1.0;
        p[1] = p[2] = 0.0;
        return;
    }
    p[0] = x * x * x * (10.0 + x * (-15.0 + 6.0 * x));
    p[1] = 30.0 * x * x * (1.0 + x * (-2.0 + x));
    p[2] = 60.0 * x * (1.0 + x * (-3.0 + 2.0 * x));
}

int kinematics_flank_stiffness(const kinematics_shape *sa, double phi_a, double s[3])
{
    if (!sa->v || !(sa->v[0][0] > 0.0) || !(sa->v[1][1] > 0.0) || !(sa->v[1][0] > 0.0))
        return 0;
    double z = sa->v[0][0], d = sa->v[1][0], a = sa->v[1][1], w = sa->v[2][0];
    double g = z / TWO_PI_; /* cycles per radian of gear 1 */
    double u = (phi_a - sa->ang[0]) * g + sa->v[0][1];
    u -= floor(u);
    double h[3] = {u < d ? 1.0 : 0.0, 0.0, 0.0};
    if (w > 0.0) {
        /* the cycle from -w / 2: the rising step at 0, the falling one at d */
        if (u >= 1.0 - 0.5 * w)
            u -= 1.0;
        double up[3], down[3];
        ramp345((u + 0.5 * w) / w, up);
        ramp345((u - d + 0.5 * w) / w, down);
        h[0] = up[0] - down[0];
        h[1] = (up[1] - down[1]) / w;
        h[2] = (up[2] - down[2]) / (w * w);
    }
    s[0] = 1.0 + 2.0 * a * (h[0] - d);
    s[1] = 2.0 * a * h[1] * g;
    s[2] = 2.0 * a * h[2] * g * g;
    return 1;
}
