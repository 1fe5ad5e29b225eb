/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * constraints.c: the constraint set of a model, Phi(q, t) = 0, assembled from
 * the joint classes (joint_*.c) and the rheonomic drivers.
 *
 * Driver equations (one row each) with f(t) the prescribed function:
 *   body coordinate:     Phi = q_k - f(t),            Jacobian e_k,
 *   revolute angle:      Phi = phi_b - phi_a - f(t),  Jacobian (-1 on phi_a, 1 on phi_b),
 *   translational disp.: Phi = e . d - f(t) (e, n, d as in joint_translational.c),
 *                        dPhi/d(r_a, phi_a) = (-e, n . d - e . B_a s_a),
 *                        dPhi/d(r_b, phi_b) = ( e, e . B_b s_b),
 *                        gamma = f'' + e . (A_b s_b w_b^2 - A_a s_a w_a^2)
 *                                - 2 w_a n . d_dot + w_a^2 e . d,
 * and for every driver nu = f'(t); for the first two gamma = f''(t).
 * Joints have nu = 0 (scleronomic).
 *
 * Second derivatives (kin_eval_second): the first two drivers are linear in q
 * (zero Hessian, gamma independent of q). The displacement driver, with
 * coordinates 0-5 = (x_a, y_a, phi_a, x_b, y_b, phi_b) and c = A_b s_b w_b^2 -
 * A_a s_a w_a^2:
 *   H[0][2] = -n_x, H[1][2] = -n_y, H[3][2] = n_x, H[4][2] = n_y,
 *   H[2][2] = -e . d - 2 n . perp(A_a s_a) + e . A_a s_a,
 *   H[2][5] = n . perp(A_b s_b),  H[5][5] = -e . A_b s_b,
 *   d gamma / d r_a = -w_a^2 e,  d gamma / d r_b = w_a^2 e,
 *   d gamma / dphi_b = (w_b^2 + w_a^2) e . perp(A_b s_b) + 2 w_a w_b n . A_b s_b,
 *   d gamma / dphi_a = n . c - w_a^2 e . perp(A_a s_a) + 2 w_a (e . d_dot - w_a n . A_a s_a)
 *                      + w_a^2 (n . d - e . perp(A_a s_a)).
 */
#include "dynamics/constraints.h"

#include <string.h>

void kin_pose_of(const double *q, const double *v, int body, kin_pose *p)
{
    if (body <= 0) {
        joint_pose_set(p, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        return;
    }
    const double *qi = q + 3 * (body - 1);
    const double *vi = v ? v + 3 * (body - 1) : NULL;
    joint_pose_set(p, qi[0], qi[1], qi[2], vi ? vi[0] : 0.0, vi ? vi[1] : 0.0, vi ? vi[2] : 0.0);
}

/* bodies a and b of driver k */
static void driver_bodies(const clink_model *m, const clink_driver_def *dd, int *a, int *b)
{
    if (dd->target == CLINK_DRIVE_BODY_COORDINATE) {
        *a = 0;
        *b = dd->body;
    } else {
        *a = m->d.joints[dd->joint].def.body_a;
        *b = m->d.joints[dd->joint].def.body_b;
    }
}

void kin_row_bodies(const clink_model *m, int *rows_a, int *rows_b)
{
    for (int j = 0; j < m->d.njoints; j++) {
        const clink_joint_def *jd = &m->d.joints[j].def;
        for (int r = 0; r < joint_class_of(jd->type)->neq; r++) {
            rows_a[m->joint_row[j] + r] = jd->body_a;
            rows_b[m->joint_row[j] + r] = jd->body_b;
        }
    }
    for (int k = 0; k < m->d.ndrivers; k++)
        driver_bodies(m, &m->d.drivers[k].def, &rows_a[m->driver_row[k]],
                      &rows_b[m->driver_row[k]]);
}

int kin_row_owner(const clink_model *m, int r)
{
    for (int j = 0; j < m->d.njoints; j++)
        if (r >= m->joint_row[j] &&
            r < m->joint_row[j] + joint_class_of(m->d.joints[j].def.type)->neq)
            return j;
    for (int k = 0; k < m->d.ndrivers; k++)
        if (m->driver_row[k] == r)
            return -1 - k;
    return -1 - m->d.ndrivers;
}

/* one driver row */
/*
 * The geometry of a driven translational displacement: the joint points' arms aa, ab
 * (world axes), the separation d of the points and its rate dv, the joint's axis e on
 * body a and its normal n
 */
static void slide_geometry(const clink_model *m, const clink_driver_def *dd, const kin_pose *a,
                           const kin_pose *b, double aa[2], double ab[2], double d[2], double dv[2],
                           double e[2], double n[2])
{
    const clink_joint_def *j = &m->d.joints[dd->joint].def;
    double ra[2], rb[2];
    kin_point(a, j->point_a, aa, ra);
    kin_point(b, j->point_b, ab, rb);
    d[0] = rb[0] - ra[0];
    d[1] = rb[1] - ra[1];
    dv[0] = b->vx - b->w * ab[1] - a->vx + a->w * aa[1];
    dv[1] = b->vy + b->w * ab[0] - a->vy - a->w * aa[0];
    joint_rot(a, j->axis_a, e);
    n[0] = -e[1];
    n[1] = e[0];
}

static void driver_eval(const clink_model *m, const clink_driver_def *dd, const clink_function *fn,
                        double t, const kin_pose *a, const kin_pose *b, double *phi, kin_row *jac,
                        double *nu, double *gamma)
{
    double f, fd, fdd;
    clink_function_eval(fn, t, &f, &fd, &fdd);
    if (nu)
        *nu = fd;
    if (dd->target == CLINK_DRIVE_BODY_COORDINATE) {
        const double qb[3] = {b->x, b->y, b->phi};
        if (phi)
            *phi = qb[dd->coordinate] - f;
        if (jac) {
            memset(jac, 0, sizeof *jac);
            jac->jb[dd->coordinate] = 1.0;
        }
        if (gamma)
            *gamma = fdd;
        return;
    }
    if (dd->target == CLINK_DRIVE_JOINT_ANGLE) {
        if (phi)
            *phi = b->phi - a->phi - f;
        if (jac)
            *jac = (kin_row){{0.0, 0.0, -1.0}, {0.0, 0.0, 1.0}};
        if (gamma)
            *gamma = fdd;
        return;
    }
    /* translational displacement */
    double aa[2], ab[2], d[2], dd_[2], e[2], n[2];
    slide_geometry(m, dd, a, b, aa, ab, d, dd_, e, n);
    double ed = e[0] * d[0] + e[1] * d[1], nd = n[0] * d[0] + n[1] * d[1];
    if (phi)
        *phi = ed - f;
    if (jac) {
        double eba = -e[0] * aa[1] + e[1] * aa[0];
        double ebb = -e[0] * ab[1] + e[1] * ab[0];
        *jac = (kin_row){{-e[0], -e[1], nd - eba}, {e[0], e[1], ebb}};
    }
    if (gamma) {
        double cx = ab[0] * b->w * b->w - aa[0] * a->w * a->w;
        double cy = ab[1] * b->w * b->w - aa[1] * a->w * a->w;
        *gamma = fdd + e[0] * cx + e[1] * cy - 2.0 * a->w * (n[0] * dd_[0] + n[1] * dd_[1]) +
                 a->w * a->w * ed;
    }
}

void kin_eval(const clink_model *m, double t, const double *q, const double *v, double *phi,
              kin_row *jac, double *nu, double *gamma)
{
    kin_eval_with(m, NULL, t, q, v, phi, jac, nu, gamma);
}

/*
 * The poses of the last few bodies one evaluation used (q and v fixed): a body shared by
 * neighbouring joints and drivers (a crank between its pin, its rod and its motor) has its
 * cos and sin computed once. A copy of kin_pose_of's result, so the same bits.
 */
#define KIN_MEMO 4

typedef struct kin_memo {
    int body[KIN_MEMO];
    unsigned next; /* the slot to fill next (the oldest) */
    kin_pose p[KIN_MEMO];
    kin_trig *trig; /* the system's table of cos and sin, or NULL */
} kin_memo;

/* the pose of body (kin_pose_of) from the memo or computed into it, never into keep's slot;
   inlined into its four calls (a call costs a third of what it does) */
static inline __attribute__((always_inline)) const kin_pose *
kin_memo_pose(kin_memo *mm, const double *q, const double *v, int body, const kin_pose *keep)
{
    for (int i = 0; i < KIN_MEMO; i++)
        if (mm->body[i] == body)
            return &mm->p[i];
    unsigned i = mm->next;
    if (&mm->p[i] == keep)
        i = (i + 1) % KIN_MEMO;
    mm->next = (i + 1) % KIN_MEMO;
    mm->body[i] = body;
    if (mm->trig && body > 0) {
        const double *qi = q + 3 * (body - 1);
        const double *vi = v ? v + 3 * (body - 1) : NULL;
        double cs[2];
        kin_trig_of(mm->trig, q, body, cs);
        joint_pose_set_cs(&mm->p[i], qi[0], qi[1], qi[2], vi ? vi[0] : 0.0, vi ? vi[1] : 0.0,
                          vi ? vi[2] : 0.0, cs[0], cs[1]);
    } else {
        kin_pose_of(q, v, body, &mm->p[i]);
    }
    return &mm->p[i];
}

void kin_eval_with(const clink_model *m, const clink_function *drivers, double t, const double *q,
                   const double *v, double *phi, kin_row *jac, double *nu, double *gamma)
{
    kin_eval_trig(m, drivers, NULL, t, q, v, phi, jac, nu, gamma);
}

void kin_eval_trig(const clink_model *m, const clink_function *drivers, kin_trig *trig, double t,
                   const double *q, const double *v, double *phi, kin_row *jac, double *nu,
                   double *gamma)
{
    kin_memo mm; /* the poses written before they are read: no initialiser */
    for (int i = 0; i < KIN_MEMO; i++)
        mm.body[i] = -1;
    mm.next = 0;
    mm.trig = trig;
    for (int j = 0; j < m->d.njoints; j++) {
        const clink_joint_def *jd = &m->d.joints[j].def;
        const joint_class *jc = joint_class_of(jd->type);
        int r = m->joint_row[j];
        const kin_pose *a = kin_memo_pose(&mm, q, v, jd->body_a, NULL);
        const kin_pose *b = kin_memo_pose(&mm, q, v, jd->body_b, a);
        if (phi)
            jc->phi(jd, a, b, phi + r);
        if (jac)
            jc->jacobian(jd, a, b, jac + r);
        if (gamma)
            jc->gamma(jd, a, b, gamma + r);
        if (nu)
            for (int i = 0; i < jc->neq; i++)
                nu[r + i] = 0.0;
    }
    for (int k = 0; k < m->d.ndrivers; k++) {
        const clink_driver_def *dd = &m->d.drivers[k].def;
        int ia, ib, r = m->driver_row[k];
        driver_bodies(m, dd, &ia, &ib);
        const kin_pose *a = kin_memo_pose(&mm, q, v, ia, NULL);
        const kin_pose *b = kin_memo_pose(&mm, q, v, ib, a);
        driver_eval(m, dd, drivers ? &drivers[k] : &dd->function, t, a, b, phi ? phi + r : NULL,
                    jac ? jac + r : NULL, nu ? nu + r : NULL, gamma ? gamma + r : NULL);
    }
}

/* second derivatives of one driver row */
static void driver_second(const clink_model *m, const clink_driver_def *dd, const kin_pose *a,
                          const kin_pose *b, joint_hessian *hess, kin_row *gq)
{
    *hess = (joint_hessian){{{0.0}}};
    *gq = (kin_row){{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    if (dd->target == CLINK_DRIVE_BODY_COORDINATE || dd->target == CLINK_DRIVE_JOINT_ANGLE)
        return;
    double aa[2], ab[2], d[2], dv[2], e[2], n[2];
    slide_geometry(m, dd, a, b, aa, ab, d, dv, e, n);
    double(*h)[6] = hess->h;
    h[0][2] = h[2][0] = -n[0];
    h[1][2] = h[2][1] = -n[1];
    h[3][2] = h[2][3] = n[0];
    h[4][2] = h[2][4] = n[1];
    h[2][2] = -joint_dot(e, d) - 2.0 * joint_perp_dot(aa, n) + joint_dot(e, aa);
    h[2][5] = h[5][2] = joint_perp_dot(ab, n);
    h[5][5] = -joint_dot(e, ab);
    double wa = a->w, wb = b->w, wa2 = wa * wa, wb2 = wb * wb;
    double c[2] = {ab[0] * wb2 - aa[0] * wa2, ab[1] * wb2 - aa[1] * wa2};
    double gpb = (wb2 + wa2) * joint_perp_dot(ab, e) + 2.0 * wa * wb * joint_dot(n, ab);
    double gpa = joint_dot(n, c) - wa2 * joint_perp_dot(aa, e) +
                 2.0 * wa * (joint_dot(e, dv) - wa * joint_dot(n, aa)) +
                 wa2 * (joint_dot(n, d) - joint_perp_dot(aa, e));
    *gq = (kin_row){{-wa2 * e[0], -wa2 * e[1], gpa}, {wa2 * e[0], wa2 * e[1], gpb}};
}

void kin_eval_second(const clink_model *m, double t, const double *q, const double *v,
                     joint_hessian *hess, kin_row *gq)
{
    (void) t;
    kin_pose a, b;
    for (int j = 0; j < m->d.njoints; j++) {
        const clink_joint_def *jd = &m->d.joints[j].def;
        const joint_class *jc = joint_class_of(jd->type);
        int r = m->joint_row[j];
        kin_pose_of(q, v, jd->body_a, &a);
        kin_pose_of(q, v, jd->body_b, &b);
        jc->hessian(jd, &a, &b, hess + r);
        jc->gamma_q(jd, &a, &b, gq + r);
    }
    for (int k = 0; k < m->d.ndrivers; k++) {
        const clink_driver_def *dd = &m->d.drivers[k].def;
        int ia, ib, r = m->driver_row[k];
        driver_bodies(m, dd, &ia, &ib);
        kin_pose_of(q, v, ia, &a);
        kin_pose_of(q, v, ib, &b);
        driver_second(m, dd, &a, &b, hess + r, gq + r);
    }
}
