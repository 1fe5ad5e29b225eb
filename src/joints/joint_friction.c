/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * joint_friction.c: friction in ideal joints from their reactions (docs/friction.md,
 * "Joint friction"), with any static law of the friction catalogue (include/clink/
 * friction.h), as multibody codes offer it (a pin radius and a preload; the slider length
 * and its two-point binding):
 *
 *   revolute       R the reaction force on body b (the joint's multipliers), F_n = |R| +
 *                  preload, slip v = r (omega_b - omega_a), friction torque on b
 *                  T = r F_t(v, F_n), -T on a;
 *   translational  N the reaction normal to the axis, M its moment about the slider point,
 *                  L the slider length: the slider bears on the guide at its two ends with
 *                  forces N / 2 +- M / L; while |M| <= |N| L / 2 both press on the same
 *                  side (total |N|), beyond it the slider binds at two opposite corners
 *                  (total 2 |M| / L): F_n = max(|N|, 2 |M| / L) + preload; slip v the
 *                  velocity of b's slider point relative to body a along the axis; the force
 *                  F_t(v, F_n) along the axis on b at that point, its opposite on a.
 *
 * A dynamic law (lugre, dahl) reads its bristle state z (m, along the slip: on the pin's
 * surface for a revolute joint) from the caller and gives z' (m/s); the state belongs to
 * the integrated state vector (src/dynamics/joint_friction_solve.c). A joint always
 * touches, so the law applies at every state: z' = v - sigma0 |v| z / mu(v), never frozen
 * and never reset.
 */
#include "joints/joint_friction.h"

#include <math.h>
#include <stdio.h>

int joint_friction_on(const clink_joint_def *d)
{
    return d->friction.kind != CLINK_FRICTION_NONE;
}

int joint_friction_states(const clink_joint_def *d)
{
    return joint_friction_on(d) ? clink_friction_state_count(&d->friction) : 0;
}

const char *joint_friction_check(const clink_joint_def *d, char *buf, size_t n)
{
    if (!joint_friction_on(d))
        return NULL;
    if (d->type != CLINK_JOINT_REVOLUTE && d->type != CLINK_JOINT_TRANSLATIONAL)
        return "friction: only revolute and translational joints carry friction";
    char msg[128];
    if (clink_friction_check(&d->friction, msg, sizeof msg) != CLINK_OK) {
        snprintf(buf, n, "%s", msg);
        return buf;
    }
    if (d->type == CLINK_JOINT_REVOLUTE &&
        !(isfinite(d->friction_radius) && d->friction_radius > 0.0))
        return "friction_radius: the pin radius must be a finite length > 0 m";
    if (d->type == CLINK_JOINT_TRANSLATIONAL &&
        !(isfinite(d->friction_length) && d->friction_length > 0.0))
        return "friction_length: the slider length must be a finite length > 0 m";
    if (!(isfinite(d->friction_preload) && d->friction_preload >= 0.0))
        return "friction_preload: must be a finite force >= 0 N";
    return NULL;
}

/* the constraint force on b (x, y, torque about its centre) */
static void reaction_b(const joint_row *jac, const double *lam, int neq, double g[3])
{
    g[0] = g[1] = g[2] = 0.0;
    for (int r = 0; r < neq; r++)
        for (int k = 0; k < 3; k++)
            g[k] += jac[r].jb[k] * lam[r];
}

/* the translational joint's unit axis in the world, b's slider point and its arm */
static void slider_frame(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                         double u[2], double arm[2])
{
    double ax[2] = {a->c * d->axis_a[0] - a->s * d->axis_a[1],
                    a->s * d->axis_a[0] + a->c * d->axis_a[1]};
    double len = hypot(ax[0], ax[1]);
    u[0] = ax[0] / len;
    u[1] = ax[1] / len;
    arm[0] = b->c * d->point_b[0] - b->s * d->point_b[1];
    arm[1] = b->s * d->point_b[0] + b->c * d->point_b[1];
}

double joint_friction_normal(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                             const joint_row *jac, const double *lam, int neq)
{
    double g[3];
    reaction_b(jac, lam, neq, g);
    if (d->type == CLINK_JOINT_REVOLUTE)
        return hypot(g[0], g[1]) + d->friction_preload;
    double u[2], arm[2];
    slider_frame(d, a, b, u, arm);
    double N = -u[1] * g[0] + u[0] * g[1];
    double M = g[2] - (arm[0] * g[1] - arm[1] * g[0]);
    return fmax(fabs(N), 2.0 * fabs(M) / d->friction_length) + d->friction_preload;
}

/* the slider point's arm on b, its world position P and the slip of b on a along u at P */
static double slider_slip(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                          double u[2], double arm[2], double P[2])
{
    slider_frame(d, a, b, u, arm);
    P[0] = b->x + arm[0];
    P[1] = b->y + arm[1];
    double vb[2] = {b->vx - b->w * arm[1], b->vy + b->w * arm[0]};
    double va[2] = {a->vx - a->w * (P[1] - a->y), a->vy + a->w * (P[0] - a->x)};
    return (vb[0] - va[0]) * u[0] + (vb[1] - va[1]) * u[1];
}

double joint_friction_slip(const clink_joint_def *d, const joint_pose *a, const joint_pose *b)
{
    if (d->type == CLINK_JOINT_REVOLUTE)
        return d->friction_radius * (b->w - a->w);
    double u[2], arm[2], P[2];
    return slider_slip(d, a, b, u, arm, P);
}

double joint_friction_add(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                          const joint_row *jac, const double *lam, int neq, double z, double *zdot,
                          double *ga, double *gb, double *fn)
{
    *fn = joint_friction_normal(d, a, b, jac, lam, neq);
    if (d->type == CLINK_JOINT_REVOLUTE) {
        double r = d->friction_radius, wrel = b->w - a->w;
        double T = r * clink_friction_force_state(&d->friction, r * wrel, *fn, z, zdot);
        if (gb)
            gb[2] += T;
        if (ga)
            ga[2] -= T;
        return T * wrel;
    }
    double u[2], arm[2], P[2];
    double v = slider_slip(d, a, b, u, arm, P);
    double F = clink_friction_force_state(&d->friction, v, *fn, z, zdot);
    if (gb) {
        gb[0] += F * u[0];
        gb[1] += F * u[1];
        gb[2] += arm[0] * F * u[1] - arm[1] * F * u[0];
    }
    if (ga) {
        double ra[2] = {P[0] - a->x, P[1] - a->y};
        ga[0] -= F * u[0];
        ga[1] -= F * u[1];
        ga[2] -= ra[0] * F * u[1] - ra[1] * F * u[0];
    }
    return F * v;
}

double joint_friction_value(const clink_joint_def *d, const joint_pose *a, const joint_pose *b,
                            const joint_row *jac, const double *lam, int neq, double z)
{
    double fn = joint_friction_normal(d, a, b, jac, lam, neq);
    if (d->type == CLINK_JOINT_REVOLUTE) {
        double r = d->friction_radius, wrel = b->w - a->w;
        return r * clink_friction_force_state(&d->friction, r * wrel, fn, z, NULL);
    }
    double u[2], arm[2], P[2];
    double v = slider_slip(d, a, b, u, arm, P);
    return clink_friction_force_state(&d->friction, v, fn, z, NULL);
}
