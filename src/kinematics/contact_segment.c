/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_segment.c: a circle against a beam element's centreline (contact_segment.h has
 * the equations and the regions of the elements; docs/flexible.md).
 *
 * Derivatives (kinematics_segment_eval_diff), for a change dx_0, dx_1 of the nodes,
 * dr_C, dphi_C of the circle's body and of their rates: with a = c - r_C,
 * perp(a) = (-a_y, a_x), w = c - x_0, dd = dx_1 - dx_0,
 *   dc  = dr_C + dphi_C perp(a),  da = dphi_C perp(a)
 *   ds  = ((dc - dx_0) . d + w . dd) / d.d - 2 s_raw (d . dd) / d.d   (s inside (0, 1); else 0)
 *   de  = dc - (1 - s) dx_0 - s dx_1 - ds d,   e = c - p,  dist = |e|
 *   d delta = -n . de,   dn = (de - n (n . de)) / dist
 *   v_c = v_C + omega_C perp(a),  dv_c = dv_C + domega_C perp(a) + omega_C perp(da)
 *   dv_p = (1 - s) dv_0 + s dv_1 + ds (v_1 - v_0)
 *   d delta_dot = -(dn . (v_c - v_p) + n . (dv_c - dv_p)).
 * The nodes' angles enter only the region's test: no derivative.
 */
#include "kinematics/contact_segment.h"

#include <math.h>
#include <string.h>

/* what the value and the derivatives share */
typedef struct seg_state {
    double x0[2], x1[2], v0[2], v1[2], c[2], arm[2], vc[2], w_c;
    double d[2], L2, sraw, s, e[2], dist, n[2];
    int interior;
} seg_state;

/* the circle's centre, its arm from its body's origin and its velocity */
static void seg_circle(const kinematics_segment *sg, const kinematics_pose *pc, seg_state *st)
{
    if (!pc) {
        st->c[0] = sg->centre[0];
        st->c[1] = sg->centre[1];
        st->arm[0] = st->arm[1] = 0.0;
        st->vc[0] = st->vc[1] = 0.0;
        st->w_c = 0.0;
        return;
    }
    double co = cos(pc->q[2]), si = sin(pc->q[2]);
    st->arm[0] = co * sg->centre[0] - si * sg->centre[1];
    st->arm[1] = si * sg->centre[0] + co * sg->centre[1];
    st->c[0] = pc->q[0] + st->arm[0];
    st->c[1] = pc->q[1] + st->arm[1];
    st->w_c = pc->qd[2];
    st->vc[0] = pc->qd[0] - st->w_c * st->arm[1];
    st->vc[1] = pc->qd[1] + st->w_c * st->arm[0];
}

/* 1 if c is outside the element's region, with its distance past the boundary into *beyond */
static int seg_outside(const kinematics_segment *sg, const kinematics_pose *n0,
                       const kinematics_pose *n1, const seg_state *st, double *beyond)
{
    int out = 0;
    *beyond = 0.0;
    if (!(sg->ends & 1)) { /* behind node 0's cross-section: the previous element's */
        double b = (st->c[0] - st->x0[0]) * cos(n0->q[2]) + (st->c[1] - st->x0[1]) * sin(n0->q[2]);
        if (b < 0.0) {
            out = 1;
            *beyond = -b;
        }
    }
    if (!(sg->ends & 2)) { /* at or past node 1's: the next element's */
        double a = (st->c[0] - st->x1[0]) * cos(n1->q[2]) + (st->c[1] - st->x1[1]) * sin(n1->q[2]);
        if (a >= 0.0) {
            out = 1;
            *beyond = fmax(*beyond, a);
        }
    }
    return out;
}

static int seg_state_of(const kinematics_segment *sg, const kinematics_pose *n0,
                        const kinematics_pose *n1, const kinematics_pose *pc, seg_state *st,
                        kinematics_contact *out)
{
    for (int i = 0; i < 2; i++) {
        st->x0[i] = n0->q[i];
        st->x1[i] = n1->q[i];
        st->v0[i] = n0->qd[i];
        st->v1[i] = n1->qd[i];
        st->d[i] = st->x1[i] - st->x0[i];
    }
    seg_circle(sg, pc, st);
    st->L2 = st->d[0] * st->d[0] + st->d[1] * st->d[1];
    if (!(st->L2 > 0.0) || !isfinite(st->L2) || !isfinite(st->c[0]) || !isfinite(st->c[1]))
        return -1;
    st->sraw = ((st->c[0] - st->x0[0]) * st->d[0] + (st->c[1] - st->x0[1]) * st->d[1]) / st->L2;
    st->interior = st->sraw > 0.0 && st->sraw < 1.0;
    st->s = st->sraw <= 0.0 ? 0.0 : (st->sraw >= 1.0 ? 1.0 : st->sraw);
    double p[2] = {st->x0[0] + st->s * st->d[0], st->x0[1] + st->s * st->d[1]};
    st->e[0] = st->c[0] - p[0];
    st->e[1] = st->c[1] - p[1];
    st->dist = hypot(st->e[0], st->e[1]);
    if (st->dist > 0.0) {
        st->n[0] = st->e[0] / st->dist;
        st->n[1] = st->e[1] / st->dist;
    } else { /* the centre on the centreline: the segment's left normal */
        double L = sqrt(st->L2);
        st->n[0] = -st->d[1] / L;
        st->n[1] = st->d[0] / L;
    }
    double delta = sg->radius + sg->h - st->dist;
    double beyond;
    if (seg_outside(sg, n0, n1, st, &beyond))
        delta = fmin(delta, -beyond);
    double vp[2] = {(1.0 - st->s) * st->v0[0] + st->s * st->v1[0],
                    (1.0 - st->s) * st->v0[1] + st->s * st->v1[1]};
    double vr[2] = {st->vc[0] - vp[0], st->vc[1] - vp[1]};
    out->delta = delta;
    out->delta_dot = -(st->n[0] * vr[0] + st->n[1] * vr[1]);
    out->n[0] = st->n[0];
    out->n[1] = st->n[1];
    out->t[0] = -st->n[1];
    out->t[1] = st->n[0];
    out->p_a[0] = p[0] + sg->h * st->n[0];
    out->p_a[1] = p[1] + sg->h * st->n[1];
    out->p_b[0] = st->c[0] - sg->radius * st->n[0];
    out->p_b[1] = st->c[1] - sg->radius * st->n[1];
    out->v_t = out->t[0] * vr[0] + out->t[1] * vr[1];
    out->share = st->s;
    return isfinite(out->delta) && isfinite(out->delta_dot) ? 0 : -1;
}

int kinematics_segment_eval(const kinematics_segment *sg, const kinematics_pose *n0,
                            const kinematics_pose *n1, const kinematics_pose *pc,
                            kinematics_contact *out)
{
    seg_state st;
    return seg_state_of(sg, n0, n1, pc, &st, out);
}

/* the change of every input along slot j: dx_0, dx_1, dr_C, dphi_C and the rates' */
typedef struct seg_dir {
    double dx0[2], dx1[2], drc[2], dphi, dv0[2], dv1[2], dvc[2], dw;
} seg_dir;

static void seg_dir_of(int j, seg_dir *u)
{
    memset(u, 0, sizeof *u);
    int rate = j >= 9, body = (j % 9) / 3, k = j % 3;
    double *x[3][2] = {{u->dx0, u->dv0}, {u->dx1, u->dv1}, {u->drc, u->dvc}};
    if (k < 2)
        x[body][rate][k] = 1.0;
    else if (body == 2)
        *(rate ? &u->dw : &u->dphi) = 1.0;
    /* a node's angle (k == 2, body 0 or 1) moves nothing but the region's boundary */
}

/* the derivatives along slot j into out (column j) */
static void seg_slot(const seg_state *st, int j, kinematics_segment_diff *out)
{
    seg_dir u;
    seg_dir_of(j, &u);
    double pa[2] = {-st->arm[1], st->arm[0]};
    double da[2] = {u.dphi * pa[0], u.dphi * pa[1]};
    double dc[2] = {u.drc[0] + da[0], u.drc[1] + da[1]};
    double ds = 0.0;
    if (st->interior) {
        double dd[2] = {u.dx1[0] - u.dx0[0], u.dx1[1] - u.dx0[1]};
        double w[2] = {st->c[0] - st->x0[0], st->c[1] - st->x0[1]};
        ds = ((dc[0] - u.dx0[0]) * st->d[0] + (dc[1] - u.dx0[1]) * st->d[1] + w[0] * dd[0] +
              w[1] * dd[1]) /
                 st->L2 -
             2.0 * st->sraw * (st->d[0] * dd[0] + st->d[1] * dd[1]) / st->L2;
    }
    double de[2];
    for (int i = 0; i < 2; i++)
        de[i] = dc[i] - (1.0 - st->s) * u.dx0[i] - st->s * u.dx1[i] - ds * st->d[i];
    double nde = st->n[0] * de[0] + st->n[1] * de[1];
    double dn[2] = {0.0, 0.0};
    if (st->dist > 0.0)
        for (int i = 0; i < 2; i++)
            dn[i] = (de[i] - st->n[i] * nde) / st->dist;
    double vp[2], dvc[2], dvp[2];
    for (int i = 0; i < 2; i++) {
        vp[i] = (1.0 - st->s) * st->v0[i] + st->s * st->v1[i];
        dvp[i] = (1.0 - st->s) * u.dv0[i] + st->s * u.dv1[i] + ds * (st->v1[i] - st->v0[i]);
    }
    dvc[0] = u.dvc[0] + u.dw * pa[0] - st->w_c * da[1];
    dvc[1] = u.dvc[1] + u.dw * pa[1] + st->w_c * da[0];
    double vr[2] = {st->vc[0] - vp[0], st->vc[1] - vp[1]};
    out->delta[j] = -nde;
    out->delta_dot[j] = -(dn[0] * vr[0] + dn[1] * vr[1] + st->n[0] * (dvc[0] - dvp[0]) +
                          st->n[1] * (dvc[1] - dvp[1]));
    out->n[0][j] = dn[0];
    out->n[1][j] = dn[1];
    out->s[j] = ds;
    out->arm_d[0][j] = da[0];
    out->arm_d[1][j] = da[1];
}

int kinematics_segment_eval_diff(const kinematics_segment *sg, const kinematics_pose *n0,
                                 const kinematics_pose *n1, const kinematics_pose *pc,
                                 kinematics_segment_diff *out)
{
    seg_state st;
    memset(out, 0, sizeof *out);
    if (seg_state_of(sg, n0, n1, pc, &st, &out->g) != 0)
        return -1;
    out->arm[0] = st.arm[0];
    out->arm[1] = st.arm[1];
    for (int j = 0; j < KINEMATICS_SEGMENT_NDIFF; j++) {
        if (!pc && j % 9 >= 6)
            continue; /* the ground's coordinates are none */
        seg_slot(&st, j, out);
    }
    return 0;
}
