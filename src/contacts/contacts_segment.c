/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_segment.c: the contacts with a third body, a circle (body B) against a beam
 * element's centreline from node A to node C (a beam contact, src/elements/
 * element_beam_contact.c; the geometry src/kinematics/contact_segment.c): their geometry,
 * the force's distribution, the effective mass and the force's Jacobian. The rest of the
 * contact's life (the law, the state machine, the energy components) is any contact's.
 *
 * The force f = F n on B at the line through its circle's centre: Q_B = (f, a x f), a =
 * c - r_B; on the nodes Q_A = -(1 - s) f, Q_C = -s f (no moment: the force acts at their
 * centres' interpolation). Effective mass as free bodies:
 *   1 / m_eff = (1 - s)^2 / m_A + s^2 / m_C + 1 / m_B + (a x n)^2 / J_B.
 * Jacobian: F = F(delta, delta_dot) with its slopes F_delta, F_rate by central differences
 * in its two arguments (as every contact's, contacts_jacobian.c), the geometry's exactly
 * (kinematics_segment_eval_diff):
 *   dQ_B = (dF n + F dn, da x F n + a x (dF n + F dn)),
 *   dQ_A = ds F n - (1 - s)(dF n + F dn),   dQ_C = -ds F n - s (dF n + F dn).
 */
#include "contacts/contacts_internal.h"

#include <math.h>

/* the three poses: node A, node C, the circle's body B (NULL: the ground) */
static const kinematics_pose *segment_poses(const contacts_contact *c, const double *q,
                                            const double *v, kinematics_pose p[3])
{
    contacts_pose_of(q, v, c->body_a, &p[0]);
    contacts_pose_of(q, v, c->body_c, &p[1]);
    contacts_pose_of(q, v, c->body_b, &p[2]);
    return c->body_b > 0 ? &p[2] : NULL;
}

int contacts_segment_geometry(const contacts_contact *c, const double *q, const double *v,
                              kinematics_contact *g)
{
    kinematics_pose p[3];
    const kinematics_pose *pc = segment_poses(c, q, v, p);
    return kinematics_segment_eval(&c->seg, &p[0], &p[1], pc, g);
}

void contacts_segment_apply(const contacts_contact *c, const kinematics_contact *geo,
                            const double *q, const double f[2], double *g)
{
    double s = geo->share;
    if (c->body_b > 0) {
        const double *r = q + 3 * (c->body_b - 1);
        double *gb = g + 3 * (c->body_b - 1);
        gb[0] += f[0];
        gb[1] += f[1];
        gb[2] += (geo->p_b[0] - r[0]) * f[1] - (geo->p_b[1] - r[1]) * f[0];
    }
    double *ga = g + 3 * (c->body_a - 1), *gc = g + 3 * (c->body_c - 1);
    ga[0] -= (1.0 - s) * f[0];
    ga[1] -= (1.0 - s) * f[1];
    gc[0] -= s * f[0];
    gc[1] -= s * f[1];
}

double contacts_segment_inv_mass(const contacts_contact *c, const kinematics_contact *geo,
                                 const double *q)
{
    double s = geo->share;
    double w = (1.0 - s) * (1.0 - s) * c->fixed.inv_mass[0] + s * s * c->fixed.inv_mass_c;
    if (c->body_b > 0) {
        const double *r = q + 3 * (c->body_b - 1);
        double axn = (geo->p_b[0] - r[0]) * geo->n[1] - (geo->p_b[1] - r[1]) * geo->n[0];
        w += c->fixed.inv_mass[1] + axn * axn / c->fixed.inertia[1];
    }
    return w;
}

void contacts_segment_direction(const contacts_contact *c, const kinematics_contact *geo,
                                const double *q, double *w)
{
    double n[2] = {geo->n[0], geo->n[1]};
    contacts_segment_apply(c, geo, q, n, w);
}

/* the slopes of the force's magnitude: F, F_delta, F_rate (central differences) */
static int segment_law_slopes(const contact_set *sc, const contacts_contact *c,
                              const kinematics_contact *geo, const double *q,
                              contacts_segment_force_fn fn_at, double F[3])
{
    double dl = geo->delta, rt = geo->delta_dot;
    double hd = 1e-6 * dl, hr = 1e-6 * fmax(fabs(rt), c->v_settle);
    F[0] = fn_at(sc, c, geo, q, dl, rt);
    F[1] = (fn_at(sc, c, geo, q, dl + hd, rt) - fn_at(sc, c, geo, q, dl - hd, rt)) / (2.0 * hd);
    F[2] = (fn_at(sc, c, geo, q, dl, rt + hr) - fn_at(sc, c, geo, q, dl, rt - hr)) / (2.0 * hr);
    return isfinite(F[0]) && isfinite(F[1]) && isfinite(F[2]) ? 0 : -1;
}

int contacts_segment_jacobian(const contact_set *sc, const contacts_contact *c, const double *q,
                              const double *v, contacts_segment_force_fn fn_at, dyn_gjac *J)
{
    kinematics_pose p[3];
    const kinematics_pose *pc = segment_poses(c, q, v, p);
    kinematics_segment_diff d;
    if (kinematics_segment_eval_diff(&c->seg, &p[0], &p[1], pc, &d) != 0)
        return -1;
    if (!(d.g.delta > 0.0))
        return 0;
    double F[3];
    if (segment_law_slopes(sc, c, &d.g, q, fn_at, F) != 0)
        return -1;
    double s = d.g.share, *n = d.g.n, *a = d.arm;
    const int body[3] = {c->body_a, c->body_c, c->body_b};
    for (int j = 0; j < KINEMATICS_SEGMENT_NDIFF; j++) {
        int in_body = body[(j % 9) / 3];
        if (in_body <= 0)
            continue;
        double dF = F[1] * d.delta[j] + F[2] * d.delta_dot[j];
        double df[2] = {dF * n[0] + F[0] * d.n[0][j], dF * n[1] + F[0] * d.n[1][j]};
        int rate = j >= 9, col = 3 * (in_body - 1) + j % 3;
        double *out = dyn_gjac_at(J, rate, col, c->body_a);
        out[0] += d.s[j] * F[0] * n[0] - (1.0 - s) * df[0];
        out[1] += d.s[j] * F[0] * n[1] - (1.0 - s) * df[1];
        out = dyn_gjac_at(J, rate, col, c->body_c);
        out[0] += -d.s[j] * F[0] * n[0] - s * df[0];
        out[1] += -d.s[j] * F[0] * n[1] - s * df[1];
        if (c->body_b <= 0)
            continue;
        out = dyn_gjac_at(J, rate, col, c->body_b);
        out[0] += df[0];
        out[1] += df[1];
        out[2] +=
            d.arm_d[0][j] * F[0] * n[1] - d.arm_d[1][j] * F[0] * n[0] + a[0] * df[1] - a[1] * df[0];
    }
    return 0;
}
