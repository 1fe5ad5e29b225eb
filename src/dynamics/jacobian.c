/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * jacobian.c: the Jacobian of the accelerations, d qdd / dq and d qdd / dv
 * (dense, column-major), for the BDF Newton iteration.
 *
 * With mu = -lambda, differentiating [M Phi_q^T; Phi_q 0][qdd; mu] = [g; gamma']
 * (gamma' with the Baumgarte terms, Baumgarte 1972) column by column gives one
 * saddle solve per column with the factorisation at (t, q):
 *
 *   [M Phi_q^T; Phi_q 0][dqdd; dmu] = [dg - d(Phi_q^T) mu; dgamma' - d(Phi_q) qdd]
 *
 * with d(Phi_q^T mu)/dq = sum_r mu_r H_r and d(Phi_q a)/dq = (H_r a)_r from the
 * Hessians H_r of the rows (kin_eval_second), dgamma/dv = -2 H v, and the
 * applied loads' derivatives (loads.c). dyn_jacobian_fd is the same Jacobian by
 * central differences of dyn_accelerations, the reference the analytic one is
 * tested against. The integrator takes the same values column by column, in
 * proportion to what couples (jacobian_columns.c, which shares the preparation and
 * the rows' entries defined here); this dense form is its fallback (the host's
 * forces) and the tests' reference.
 */
#include "dynamics/dyn_internal.h"

#include <stdlib.h>
#include <string.h>

/* coordinate of slot k (0-5) of row r, or -1 on ground */
static int slot_coordinate(const dyn_system *s, int r, int k)
{
    int body = k < 3 ? s->row_a[r] : s->row_b[r];
    return body > 0 ? 3 * (body - 1) + k % 3 : -1;
}

/* the six values of x at the coordinates of the slots of row r (0 on ground) */
static void row_gather(const dyn_system *s, int r, const double *x, double out[6])
{
    for (int k = 0; k < 6; k++) {
        int c = slot_coordinate(s, r, k);
        out[k] = c >= 0 ? x[c] : 0.0;
    }
}

/* the members every column needs (nq and nc sized), at the first call */
static clink_status jacobian_alloc(dyn_system *s)
{
    if (s->jx_qdd)
        return CLINK_OK;
    size_t nq = (size_t) s->nq, nr = (size_t) (s->nc > 0 ? s->nc : 1);
    s->jx_hess = malloc(nr * sizeof *s->jx_hess);
    s->jx_gq = malloc(nr * sizeof *s->jx_gq);
    s->jx_mu = calloc(nr, sizeof(double));
    s->jx_g0 = calloc(nq, sizeof(double));
    s->jx_g1 = calloc(nq, sizeof(double));
    s->jx_x = calloc(nq, sizeof(double));
    s->jx_qdd = calloc(nq, sizeof(double));
    if (!s->jx_hess || !s->jx_gq || !s->jx_mu || !s->jx_g0 || !s->jx_g1 || !s->jx_x || !s->jx_qdd) {
        free(s->jx_qdd);
        s->jx_qdd = NULL; /* the next call retries; the others are freed by dyn_destroy */
        dyn_set_msg(s, "Jacobian of the accelerations: out of memory");
        return CLINK_ERR_NOMEM;
    }
    return CLINK_OK;
}

/* the dense force derivatives of dyn_jacobian (nq x nq each), at its first call */
static clink_status jacobian_alloc_dense(dyn_system *s)
{
    if (s->jx_gdq && s->jx_gdv)
        return CLINK_OK;
    size_t nq = (size_t) s->nq;
    if (!s->jx_gdq)
        s->jx_gdq = calloc(nq * nq, sizeof(double));
    if (!s->jx_gdv)
        s->jx_gdv = calloc(nq * nq, sizeof(double));
    if (!s->jx_gdq || !s->jx_gdv) {
        dyn_set_msg(s,
                    "Jacobian of the accelerations: out of memory for the dense force "
                    "derivatives (2 x %zu x %zu, %.3g GB)",
                    nq, nq, 16.0 * (double) nq * (double) nq / 1e9);
        return CLINK_ERR_NOMEM;
    }
    return CLINK_OK;
}

/*
 * Row r of the right-hand side of the saddle solve for column c of dyn_jacobian:
 * side 0 (d/dq_c) subtracts d(Phi_q^T mu)/dq_c from the top block x and returns
 * dgamma/dq_c - (H_r qdd)_k (Baumgarte: - 2 alpha (H_r v)_k - beta^2 Phi_q,rk);
 * side 1 (d/dv_c) returns -2 (H_r v)_k (Baumgarte: - 2 alpha Phi_q,rk); 0 where
 * row r does not involve coordinate c.
 */
double dyn_jacobian_row_entry(dyn_system *s, int r, int c, int side, const double *v, int baum,
                              double *x)
{
    int k = dyn_row_slot(s, r, c);
    if (k < 0)
        return 0.0;
    const double *qdd = s->jx_qdd, *mu = s->jx_mu;
    double(*H)[6] = s->jx_hess[r].h;
    double vl[6], al[6];
    row_gather(s, r, v, vl);
    double hv = 0.0;
    for (int i = 0; i < 6; i++)
        hv += H[k][i] * vl[i];
    double jrk = k < 3 ? s->jac[r].ja[k] : s->jac[r].jb[k - 3];
    double y;
    if (side == 0) {
        /* top: -d(Phi_q^T mu)/dq_c; bottom: dgamma/dq_c - (H_r qdd)_k */
        for (int i = 0; i < 6; i++) {
            int ci = slot_coordinate(s, r, i);
            if (ci >= 0)
                x[ci] -= mu[r] * H[i][k];
        }
        row_gather(s, r, qdd, al);
        double ha = 0.0;
        for (int i = 0; i < 6; i++)
            ha += H[k][i] * al[i];
        const kin_row *g = &s->jx_gq[r];
        y = (k < 3 ? g->ja[k] : g->jb[k - 3]) - ha;
        if (baum)
            y -= 2.0 * s->alpha * hv + s->beta * s->beta * jrk;
    } else {
        y = -2.0 * hv;
        if (baum)
            y -= 2.0 * s->alpha * jrk;
    }
    return y;
}

clink_status dyn_jacobian_prepare(dyn_system *s, double t, const double *q, const double *v)
{
    clink_status st = jacobian_alloc(s);
    if (st != CLINK_OK)
        return st;
    st = dyn_accelerations(s, t, q, v, s->jx_qdd, s->jx_mu);
    if (st != CLINK_OK)
        return st;
    for (int r = 0; r < s->nc; r++)
        s->jx_mu[r] = -s->jx_mu[r]; /* mu = -lambda, the second block of the saddle solution */
    if (s->nc > 0)
        kin_eval_second(s->m, t, q, v, s->jx_hess, s->jx_gq);
    return CLINK_OK;
}

/* the applied forces' derivatives, dense, into jx_gdq and jx_gdv */
static clink_status jacobian_forces_dense(dyn_system *s, double t, const double *q, const double *v)
{
    int nq = s->nq;
    double *gdq = s->jx_gdq, *gdv = s->jx_gdv;
    size_t nn = (size_t) nq * nq;
    memset(gdq, 0, nn * sizeof(double));
    memset(gdv, 0, nn * sizeof(double));
    dyn_gjac J = dyn_gjac_dense(nq, gdq, gdv);
    dyn_loads_jacobian(s, t, q, v, &J);
    if (s->host.forces && dyn_host_jacobian(s, t, q, v, gdq, gdv) != 0) {
        dyn_set_msg(s, "Jacobian of the host's forces failed at t = %.9g s", t);
        return CLINK_ERR_NONFINITE;
    }
    if (s->ext) {
        int rc = s->ext_jac ? s->ext_jac(s->ext_data, t, q, v, &J)
                            : dyn_external_jacobian_fd(s, t, q, v, gdq, gdv);
        if (rc != 0) {
            dyn_set_msg(s, "Jacobian of the external forces failed at t = %.9g s", t);
            return rc < 0 ? CLINK_ERR_LINSOLVE : CLINK_ERR_NONFINITE;
        }
    }
    return CLINK_OK;
}

clink_status dyn_jacobian(dyn_system *s, double t, const double *q, const double *v, double *jq,
                          double *jv)
{
    int nq = s->nq, nc = s->nc;
    clink_status st = jacobian_alloc_dense(s);
    if (st == CLINK_OK)
        st = dyn_jacobian_prepare(s, t, q, v);
    if (st == CLINK_OK)
        st = jacobian_forces_dense(s, t, q, v);
    if (st != CLINK_OK)
        return st;
    int baum = s->alpha != 0.0 || s->beta != 0.0;
    for (int side = 0; side < 2; side++) {
        const double *gd = side == 0 ? s->jx_gdq : s->jx_gdv;
        double *out = side == 0 ? jq : jv;
        for (int c = 0; c < nq; c++) {
            double *x = s->rhs;
            memcpy(x, gd + (size_t) c * nq, (size_t) nq * sizeof(double));
            for (int r = 0; r < nc; r++)
                x[nq + r] = dyn_jacobian_row_entry(s, r, c, side, v, baum, x);
            if (nc == 0) {
                for (int i = 0; i < nq; i++)
                    x[i] /= s->mass[i];
            } else {
                st = dyn_solve(s);
                if (st != CLINK_OK)
                    return st;
            }
            memcpy(out + (size_t) c * nq, x, (size_t) nq * sizeof(double));
        }
    }
    return CLINK_OK;
}

clink_status dyn_jacobian_fd(dyn_system *s, double t, const double *q, const double *v, double xmin,
                             double *jq, double *jv)
{
    int nq = s->nq;
    clink_status st = jacobian_alloc(s);
    if (st != CLINK_OK)
        return st;
    double *q1 = malloc(2 * (size_t) nq * sizeof(double)), *v1 = q1 ? q1 + nq : NULL;
    if (!q1)
        return CLINK_ERR_NOMEM;
    memcpy(q1, q, (size_t) nq * sizeof(double));
    memcpy(v1, v, (size_t) nq * sizeof(double));
    double *fm = s->jx_g0, *fp = s->jx_g1;
    for (int side = 0; side < 2 && st == CLINK_OK; side++) {
        double *x = side == 0 ? q1 : v1, *out = side == 0 ? jq : jv;
        for (int c = 0; c < nq && st == CLINK_OK; c++) {
            double xc = x[c];
            double h = 6e-6 * fmax(fabs(xc), xmin);
            x[c] = xc + h;
            st = dyn_accelerations(s, t, q1, v1, fp, NULL);
            x[c] = xc - h;
            if (st == CLINK_OK)
                st = dyn_accelerations(s, t, q1, v1, fm, NULL);
            x[c] = xc;
            for (int i = 0; i < nq && st == CLINK_OK; i++)
                out[(size_t) c * nq + i] = (fp[i] - fm[i]) / (2.0 * h);
        }
    }
    free(q1);
    return st;
}

void dyn_jacobian_free(dyn_system *s)
{
    free(s->jx_hess);
    free(s->jx_gq);
    free(s->jx_qdd);
    free(s->jx_mu);
    free(s->jx_gdq);
    free(s->jx_gdv);
    free(s->jx_g0);
    free(s->jx_g1);
    free(s->jx_x);
    free(s->jc_pair);
    free(s->jc_ptr);
    free(s->jc_body);
    free(s->jc_rptr);
    free(s->jc_rows);
    free(s->jc_cptr);
    free(s->jc_cbody);
    free(s->jc_gq);
    free(s->jc_gv);
    free(s->jc_dq);
    free(s->jc_dv);
}

void dyn_row_bodies(const dyn_system *s, int r, int *a, int *b)
{
    *a = s->row_a[r];
    *b = s->row_b[r];
}

int dyn_has_host_forces(const dyn_system *s)
{
    return s->host.forces != NULL;
}
