/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts_jacobian.c: the Jacobian of the contact forces, d g / dq and d g / dv
 * (into a dyn_gjac: dense, or by body blocks), the companion of contacts_forces that the driver
 * hands to the dynamics' Jacobian (docs/performance.md).
 *
 * Pairs with exact derivatives in the registry (src/kinematics/contact_shapes.h: circles,
 * bores, lines against circles, polygons): the geometry is differentiated exactly in dual
 * numbers over the six coordinates of the two bodies (kinematics_contact_eval_diff); the
 * law's normal force F(delta, rate), which the law table gives without derivatives, by
 * central differences in its two scalar arguments
 * (steps 1e-6 delta and 1e-6 max(|rate|, v_settle)), so that
 *   dF_n = F_delta d delta + F_rate d delta_dot;
 * the friction F_t(v_t, F_n) by a central difference in the slip and exactly in F_n (it
 * is linear in F_n); then Q = (f, (p - r) x f) of f = F_n n + F_t t in duals.
 *
 * A pair whose registry entry has none (capsules) or at a point where they do not exist
 * (coincident centres): central differences over each coordinate of its two bodies,
 * extrapolated (Richardson: steps h and h / 2, h = 1e-6 max(|x|, 1e-2), error of order
 * h^4).
 *
 * A contact with a third body (a beam contact's segment): its own exact derivatives over the
 * three bodies (contacts_segment.c).
 *
 * Nothing here changes the contacts' state or caches.
 */
#include "contacts/contacts_internal.h"
#include "contact/friction_table.h"

#include <math.h>
#include <stdio.h>

/* nonzero if contacts_forces gives contact c a force at all (phase and treatment) */
static int exerts_force(const contacts_contact *c)
{
    return !c->piecewise && c->st.phase != CLINK_CONTACT_RELEASED;
}

/* the normal force of contact c with geo's penetration and rate replaced */
static double force_at(const contact_set *sc, const contacts_contact *c,
                       const kinematics_contact *geo, const double *q, double delta, double rate)
{
    kinematics_contact g = *geo;
    g.delta = delta;
    g.delta_dot = rate;
    return contacts_contact_force(sc, c, &g, q, NULL);
}

/*
 * Generalised contact force of contact c alone at (q, v) into QA, QB (zero when apart),
 * as contacts_forces computes it, without touching the contact's caches; 0 or -1.
 */
static int contact_generalised(const contact_set *sc, const contacts_contact *c, const double *q,
                               const double *v, double QA[3], double QB[3])
{
    kinematics_contact geo;
    for (int i = 0; i < 3; i++)
        QA[i] = QB[i] = 0.0;
    if (contacts_geometry(c, q, v, &geo) != 0)
        return -1;
    if (!(geo.delta > 0.0))
        return 0;
    double fn = contacts_contact_force(sc, c, &geo, q, NULL);
    double ft = contacts_friction_at(c, geo.v_t, fn > 0.0 ? fn : 0.0, NULL);
    double f[2] = {fn * geo.n[0] + ft * geo.t[0], fn * geo.n[1] + ft * geo.t[1]};
    double fa[2] = {-f[0], -f[1]};
    if (c->body_b > 0)
        kinematics_point_force(q + 3 * (c->body_b - 1), geo.p_b, f, QB);
    if (c->body_a > 0) {
        kinematics_point_force(q + 3 * (c->body_a - 1), geo.p_a, fa, QA);
        QA[2] += contacts_kscale_torque(c, q, geo.delta);
    }
    return isfinite(fn) && isfinite(ft) ? 0 : -1;
}

/* contact c's generalised forces at x[col] = xc + h (x = sc->jac.xq or sc->jac.xv) into A, B */
static int contact_shifted(contact_set *sc, const contacts_contact *c, double *x, int col, double h,
                           double A[3], double B[3])
{
    double xc = x[col];
    x[col] = xc + h;
    int rc = contact_generalised(sc, c, sc->jac.xq, sc->jac.xv, A, B);
    x[col] = xc;
    return rc;
}

/*
 * Adds column `col` (a coordinate of q, or of v if rate) of contact c's generalised force
 * by central differences over that coordinate alone, extrapolated (Richardson: steps h
 * and h / 2, h = 1e-6 max(|x|, 1e-2), error of order h^4: a stiff contact's curvature
 * over a penetration of micrometres makes the plain difference's h^2 error visible)
 */
static int local_difference(contact_set *sc, const contacts_contact *c, dyn_gjac *J, int col,
                            int rate)
{
    double *x = rate ? sc->jac.xv : sc->jac.xq;
    double h = 1e-6 * fmax(fabs(x[col]), 1e-2);
    double A[4][3], B[4][3];
    const double steps[4] = {h, -h, 0.5 * h, -0.5 * h};
    for (int i = 0; i < 4; i++)
        if (contact_shifted(sc, c, x, col, steps[i], A[i], B[i]) != 0)
            return -1;
    contacts_richardson_column(c, J, rate, col, h, (const double(*)[3]) A, (const double(*)[3]) B);
    return 0;
}

void contacts_richardson_column(const contacts_contact *c, dyn_gjac *J, int rate, int col, double h,
                                const double A[4][3], const double B[4][3])
{
    for (int i = 0; i < 3; i++) {
        double da = (4.0 * (A[2][i] - A[3][i]) / h - (A[0][i] - A[1][i]) / (2.0 * h)) / 3.0;
        double db = (4.0 * (B[2][i] - B[3][i]) / h - (B[0][i] - B[1][i]) / (2.0 * h)) / 3.0;
        if (c->body_a > 0)
            dyn_gjac_at(J, rate, col, c->body_a)[i] += da;
        if (c->body_b > 0)
            dyn_gjac_at(J, rate, col, c->body_b)[i] += db;
    }
}

/* a body's coordinate as a dual seeded at slot (3 side + k) */
static kinematics_dual seeded(double x, int slot)
{
    kinematics_dual r;
    memset(&r, 0, sizeof r);
    r.v = x;
    if (slot >= 0)
        r.d[slot] = 1.0;
    return r;
}

/* (p - r) x f of duals */
static kinematics_dual dual_moment(const kinematics_dual p[2], const kinematics_dual r[2],
                                   const kinematics_dual f[2])
{
    return kinematics_dual_sub(kinematics_dual_mul(kinematics_dual_sub(p[0], r[0]), f[1]),
                               kinematics_dual_mul(kinematics_dual_sub(p[1], r[1]), f[0]));
}

/*
 * One contact's derivatives: the geometry exactly (kinematics_contact_eval_diff), the
 * law's normal force by central differences in its two arguments, penetration and
 * rate, the friction force's slope in the slip likewise and in F_n exactly (it is
 * linear in F_n). Returns 1 if the pair has no exact derivatives (a capsule).
 */
/* d z' / d(q, v) of c's friction state into c->zjac_d through the slip (z fixed) */
static void state_jacobian(contacts_contact *c, const kinematics_dual *vt_dual, double vt)
{
    double hv = 1e-6 * fmax(fabs(vt), c->fr.v1 > 0.0 ? c->fr.v1 : 1e-6), zp, zm;
    clink_friction_force_state(&c->fr, vt + hv, 1.0, c->fz, &zp);
    clink_friction_force_state(&c->fr, vt - hv, 1.0, c->fz, &zm);
    double dz = (zp - zm) / (2.0 * hv);
    for (int slot = 0; slot < 12; slot++)
        c->zjac_d[slot] = dz * vt_dual->d[slot];
    c->zjac = 1;
}

/*
 * A contact whose law force is scaled by s(phi_A) (contacts_kscale): F_n = s F_law, so its
 * slope in phi_A gains F_law ds / dphi_A (the slopes in delta and its rate, from force_at,
 * hold s already); and the torque on A, -U(delta) ds / dphi_A, has the slopes
 * -F(delta, 0) ds / dphi_A d delta - U d2s / dphi_A^2 d phi_A (F(delta, 0) = dU / d delta).
 */
static void scaled_slopes(const contact_set *sc, const contacts_contact *c, const double *q,
                          const kinematics_contact *geo, const kinematics_contact_diff *d,
                          kinematics_dual *Fn, dyn_gjac *J)
{
    double ds[2], s = contacts_kscale(c, q, ds);
    Fn->d[2] += Fn->v / s * ds[0];
    double u = contacts_stored(c, q, geo->delta) / s; /* 0 unless in contact */
    if (u == 0.0)
        return;
    double fe = force_at(sc, c, geo, q, geo->delta, 0.0) / s;
    for (int slot = 0; slot < KINEMATICS_NDIFF; slot++) {
        int in_body = (slot % 6) / 3 ? c->body_b : c->body_a;
        if (in_body <= 0)
            continue;
        double dt = -fe * ds[0] * d->delta.d[slot] - (slot == 2 ? u * ds[1] : 0.0);
        dyn_gjac_at(J, slot >= 6, 3 * (in_body - 1) + slot % 3, c->body_a)[2] += dt;
    }
}

static int contact_jacobian(const contact_set *sc, contacts_contact *c, const double *q,
                            const double *v, dyn_gjac *J)
{
    kinematics_pose pa, pb;
    contacts_pose_of(q, v, c->body_a, &pa);
    contacts_pose_of(q, v, c->body_b, &pb);
    kinematics_contact_diff d;
    if (kinematics_contact_eval_diff(&c->sa, c->body_a > 0 ? &pa : NULL, &c->sb,
                                     c->body_b > 0 ? &pb : NULL, &d) != 0)
        return 1;
    if (!(d.delta.v > 0.0))
        return 0;
    kinematics_contact geo;
    memset(&geo, 0, sizeof geo);
    geo.delta = d.delta.v;
    geo.delta_dot = d.delta_dot.v;
    for (int k = 0; k < 2; k++) {
        geo.n[k] = d.n[k].v;
        geo.t[k] = d.t[k].v;
        geo.p_a[k] = d.p_a[k].v;
        geo.p_b[k] = d.p_b[k].v;
    }
    geo.v_t = d.v_t.v;
    double dl = geo.delta, rt = geo.delta_dot;
    double hd = 1e-6 * dl, hr = 1e-6 * fmax(fabs(rt), c->v_settle);
    double fn = force_at(sc, c, &geo, q, dl, rt);
    double fn_d = (force_at(sc, c, &geo, q, dl + hd, rt) - force_at(sc, c, &geo, q, dl - hd, rt)) /
                  (2.0 * hd);
    double fn_r = (force_at(sc, c, &geo, q, dl, rt + hr) - force_at(sc, c, &geo, q, dl, rt - hr)) /
                  (2.0 * hr);
    kinematics_dual Fn = kinematics_dual_add(kinematics_dual_scale(d.delta, fn_d),
                                             kinematics_dual_scale(d.delta_dot, fn_r));
    Fn.v = fn;
    if (c->fixed.kfac && c->body_a > 0)
        scaled_slopes(sc, c, q, &geo, &d, &Fn, J);
    double fp = fn > 0.0 ? fn : 0.0, vt = geo.v_t;
    double ft = contacts_friction_at(c, vt, fp, NULL);
    kinematics_dual Ft = seeded(ft, -1);
    if (fp > 0.0 && (ft != 0.0 || c->wz >= 0 || contact_friction_slope_at_rest(&c->fr))) {
        double hv = 1e-6 * fmax(fabs(vt), c->fr.v1 > 0.0 ? c->fr.v1 : 1e-6);
        double ft_v = (contacts_friction_at(c, vt + hv, fp, NULL) -
                       contacts_friction_at(c, vt - hv, fp, NULL)) /
                      (2.0 * hv);
        Ft = kinematics_dual_add(
            kinematics_dual_scale(d.v_t, ft_v),
            kinematics_dual_scale(Fn, contacts_friction_per_normal(c, vt, fp, ft)));
        Ft.v = ft;
    }
    if (!isfinite(fn) || !isfinite(fn_d) || !isfinite(fn_r) || !isfinite(Ft.v))
        return -1;
    if (c->wz >= 0)
        state_jacobian(c, &d.v_t, vt);
    kinematics_dual f[2], fa[2];
    for (int k = 0; k < 2; k++) {
        f[k] =
            kinematics_dual_add(kinematics_dual_mul(Fn, d.n[k]), kinematics_dual_mul(Ft, d.t[k]));
        fa[k] = kinematics_dual_scale(f[k], -1.0);
    }
    for (int side = 0; side < 2; side++) {
        int body = side ? c->body_b : c->body_a;
        if (body <= 0)
            continue;
        const double *qb = q + 3 * (body - 1);
        kinematics_dual r[2] = {seeded(qb[0], 3 * side), seeded(qb[1], 3 * side + 1)};
        const kinematics_dual *fs = side ? f : fa;
        kinematics_dual Q[3] = {fs[0], fs[1], dual_moment(side ? d.p_b : d.p_a, r, fs)};
        for (int slot = 0; slot < KINEMATICS_NDIFF; slot++) {
            int in_body = (slot % 6) / 3 ? c->body_b : c->body_a;
            if (in_body <= 0)
                continue;
            int col = 3 * (in_body - 1) + slot % 3;
            double *out = dyn_gjac_at(J, slot >= 6, col, body);
            for (int i = 0; i < 3; i++)
                out[i] += Q[i].d[slot];
        }
    }
    return 0;
}

int contacts_forces_jacobian(void *data, double t, const double *q, const double *v, dyn_gjac *J)
{
    contact_set *sc = data;
    int nq = sc->m->ncoords;
    for (int k = 0; k < sc->n; k++) {
        contacts_contact *c = &sc->c[k];
        c->zjac = 0;
        if (c->extra.on && contacts_extra_jacobian(sc, c, q, v, J) != 0) {
            snprintf(sc->msg, sizeof sc->msg, "contact %d: non-finite %s force derivative", k,
                     c->extra.ec->extra_name);
            return -1;
        }
        if (!exerts_force(c))
            continue;
        int rc = c->body_c > 0 ? contacts_segment_jacobian(sc, c, q, v, force_at, J)
                               : contact_jacobian(sc, c, q, v, J);
        if (rc < 0) {
            snprintf(sc->msg, sizeof sc->msg,
                     "contact '%s' (contact %d, %s): non-finite force derivative at t = %.9g s",
                     sc->m->d.contacts[k].name, k, clink_law_name(c->law), t);
            return -1;
        }
        if (rc == 0)
            continue;
        /* no exact derivatives (a capsule): central differences over its two bodies */
        memcpy(sc->jac.xq, q, (size_t) nq * sizeof(double));
        memcpy(sc->jac.xv, v, (size_t) nq * sizeof(double));
        for (int side = 0; side < 2; side++) {
            int body = side ? c->body_b : c->body_a;
            for (int i = 0; body > 0 && i < 3; i++)
                for (int rate = 0; rate < 2; rate++)
                    if (local_difference(sc, c, J, 3 * (body - 1) + i, rate) != 0)
                        return -1;
        }
    }
    return 0;
}
