/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * newton_saddle.c: the BDF Newton system of a constrained mechanism in the saddle form of
 * its accelerations (newton_saddle.h), factored by KLU (Davis and Palamadai Natarajan 2010).
 *
 * The accelerations solve S [qdd; mu] = [g; gamma'] (mu = -lambda, gamma' with Baumgarte's
 * terms, dynamics.h), so that d [qdd; mu] = S^-1 (R_q dq + R_v dv) with (jacobian.c)
 *
 *   R_q e_c = [d g / dq_c - d(Phi_q^T mu) / dq_c; d gamma' / dq_c - d(Phi_q qdd) / dq_c],
 *   R_v e_c = [d g / dv_c; d gamma' / dv_c],
 *
 * and J = [0 I; P S^-1 R_q, P S^-1 R_v] (P: the rows of qdd). CVODE's Newton system
 * (I - gamma J) [dq; dv] = [b_q; b_v] gives dq = b_q + gamma dv and
 * dv = b_v + gamma P w with S w = R_q dq + R_v dv; with u = [dv; gamma w_mu]
 * (gamma w = u - [b_v; 0]):
 *
 *   (S - (gamma^2 R_q + gamma R_v) P) u = gamma R_q b_q + S [b_v; 0].
 *
 * Column c < nq of R_q and R_v is nonzero at the coordinates of the body of c and of the
 * bodies it shares a load, a contact (the force blocks, jacobian_columns.c) or a constraint
 * row (the Hessian terms) with, and at the constraint rows of its body; K's column c holds
 * those rows (the 3 x 3 blocks of the body's neighbours, then its rows), its columns nq + r
 * the transposed row r of Phi_q. The entries of S, R_q and R_v are kept apart (a
 * dyn_newton_jac), so that K is formed again at each gamma without a new Jacobian.
 */
#include "dynamics/newton_saddle.h"

#include "dynamics/dyn_internal.h"

#include <klu.h>
#include <stdlib.h>
#include <string.h>

struct dyn_newton {
    dyn_system *s;
    int n, nq, nc;
    int *Ap, *Ai; /* K's pattern (CSC, rows ascending in each column) */
    int nleft;    /* entries of the columns of the coordinates, Ap[nq] */
    int *pos;     /* n: an entry's place in the column being filled, -1 elsewhere */
    double *x;    /* nq: the Hessian terms of one column (zero between columns) */
    double *Kx, *rhs;
    klu_symbolic *sym;
    klu_numeric *num;
    klu_common common;
    const dyn_newton_jac *fj; /* the Jacobian of the last factorisation and its gamma */
    double fgamma;
    dyn_newton_stats st;
};

struct dyn_newton_jac {
    double *base;    /* S, over K's pattern */
    double *rq, *rv; /* R_q, R_v over the columns of the coordinates (nleft) */
};

static int nw_cmp(const void *a, const void *b)
{
    int x = *(const int *) a, y = *(const int *) b;
    return (x > y) - (x < y);
}

/* the neighbours of body b (1-based; itself included), ascending, into nb; their number */
static int nw_neighbours(const dyn_system *s, int b, int *nb)
{
    int n = 0;
    for (int k = s->jc_ptr[b - 1]; k < s->jc_ptr[b]; k++)
        nb[n++] = s->jc_body[k];
    for (int l = s->jc_rptr[b - 1]; l < s->jc_rptr[b]; l++) {
        int r = s->jc_rows[l];
        int o = s->row_a[r] == b ? s->row_b[r] : s->row_a[r];
        if (o > 0)
            nb[n++] = o;
    }
    qsort(nb, (size_t) n, sizeof *nb, nw_cmp);
    int w = 0;
    for (int k = 0; k < n; k++)
        if (w == 0 || nb[w - 1] != nb[k])
            nb[w++] = nb[k];
    return w;
}

/* the rows of the column of coordinate c (body b) into rows; their number */
static int nw_column_rows(const dyn_system *s, int b, int *nb, int *rows)
{
    int m = nw_neighbours(s, b, nb), n = 0;
    for (int k = 0; k < m; k++)
        for (int i = 0; i < 3; i++)
            rows[n++] = 3 * (nb[k] - 1) + i;
    for (int l = s->jc_rptr[b - 1]; l < s->jc_rptr[b]; l++)
        rows[n++] = s->nq + s->jc_rows[l];
    return n;
}

/* the pattern, in two passes (count, fill); 0 or -1 when out of memory */
static int nw_pattern(dyn_newton *nw)
{
    const dyn_system *s = nw->s;
    int nq = nw->nq, nc = nw->nc, maxb = 1;
    for (int b = 1; b <= nq / 3; b++) {
        int d = (s->jc_ptr[b] - s->jc_ptr[b - 1]) + (s->jc_rptr[b] - s->jc_rptr[b - 1]);
        maxb = d > maxb ? d : maxb;
    }
    int *nb = malloc((size_t) maxb * sizeof *nb);
    int *rows = malloc((3 * (size_t) maxb + (size_t) maxb) * sizeof *rows);
    nw->Ap = calloc((size_t) nw->n + 1, sizeof *nw->Ap);
    if (!nb || !rows || !nw->Ap) {
        free(nb);
        free(rows);
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        int p = 0;
        for (int c = 0; c < nq; c++) {
            int m = nw_column_rows(s, c / 3 + 1, nb, rows);
            nw->Ap[c] = p;
            if (pass == 1)
                memcpy(nw->Ai + p, rows, (size_t) m * sizeof *rows);
            p += m;
        }
        for (int r = 0; r < nc; r++) {
            int lo = s->row_a[r] < s->row_b[r] ? s->row_a[r] : s->row_b[r];
            int hi = s->row_a[r] < s->row_b[r] ? s->row_b[r] : s->row_a[r];
            int body[2] = {lo, hi == lo ? 0 : hi};
            nw->Ap[nq + r] = p;
            for (int j = 0; j < 2; j++)
                for (int i = 0; body[j] > 0 && i < 3; i++, p++)
                    if (pass == 1)
                        nw->Ai[p] = 3 * (body[j] - 1) + i;
        }
        nw->Ap[nw->n] = p;
        if (pass == 0 && !(nw->Ai = malloc(((size_t) p + 1) * sizeof *nw->Ai)))
            break;
    }
    free(nb);
    free(rows);
    nw->nleft = nw->Ap[nq];
    return nw->Ai ? 0 : -1;
}

dyn_newton *dyn_newton_create(dyn_system *s)
{
    clink_status st = dyn_jacobian_structure(s);
    dyn_newton *nw = st == CLINK_OK ? calloc(1, sizeof *nw) : NULL;
    if (!nw)
        return NULL;
    nw->s = s;
    nw->nq = s->nq;
    nw->nc = s->nc;
    nw->n = s->nq + s->nc;
    size_t n = (size_t) nw->n + 1;
    if (nw_pattern(nw) != 0 || !(nw->pos = malloc(n * sizeof *nw->pos)) ||
        !(nw->x = calloc((size_t) nw->nq + 1, sizeof *nw->x)) ||
        !(nw->Kx = malloc(((size_t) nw->Ap[nw->n] + 1) * sizeof *nw->Kx)) ||
        !(nw->rhs = malloc(n * sizeof *nw->rhs))) {
        dyn_set_msg(s, "saddle Newton solve: out of memory (%d bodies)", nw->nq / 3);
        dyn_newton_destroy(&nw);
        return NULL;
    }
    for (int i = 0; i < nw->n; i++)
        nw->pos[i] = -1;
    nw->st.n = nw->n;
    nw->st.nnz = nw->Ap[nw->n];
    if (klu_defaults(&nw->common) != 1 ||
        !(nw->sym = klu_analyze(nw->n, nw->Ap, nw->Ai, &nw->common))) {
        dyn_set_msg(s, "saddle Newton solve: KLU's analysis failed (status %d)", nw->common.status);
        dyn_newton_destroy(&nw);
        return NULL;
    }
    return nw;
}

void dyn_newton_destroy(dyn_newton **pnw)
{
    dyn_newton *nw = pnw ? *pnw : NULL;
    if (!nw)
        return;
    if (nw->num)
        klu_free_numeric(&nw->num, &nw->common);
    if (nw->sym)
        klu_free_symbolic(&nw->sym, &nw->common);
    free(nw->Ap);
    free(nw->Ai);
    free(nw->pos);
    free(nw->x);
    free(nw->Kx);
    free(nw->rhs);
    free(nw);
    *pnw = NULL;
}

dyn_newton_jac *dyn_newton_jac_create(const dyn_newton *nw)
{
    dyn_newton_jac *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->base = calloc((size_t) nw->Ap[nw->n] + 1, sizeof(double));
    j->rq = calloc((size_t) nw->nleft + 1, sizeof(double));
    j->rv = calloc((size_t) nw->nleft + 1, sizeof(double));
    if (!j->base || !j->rq || !j->rv) {
        dyn_newton_jac_destroy(j);
        return NULL;
    }
    return j;
}

void dyn_newton_jac_destroy(dyn_newton_jac *j)
{
    if (!j)
        return;
    free(j->base);
    free(j->rq);
    free(j->rv);
    free(j);
}

void dyn_newton_jac_copy(const dyn_newton *nw, const dyn_newton_jac *src, dyn_newton_jac *dst)
{
    memcpy(dst->base, src->base, (size_t) nw->Ap[nw->n] * sizeof(double));
    memcpy(dst->rq, src->rq, (size_t) nw->nleft * sizeof(double));
    memcpy(dst->rv, src->rv, (size_t) nw->nleft * sizeof(double));
}

/* S at the q of the last evaluation (s->jac): M and Phi_q in the columns of the
   coordinates, Phi_q^T in those of the multipliers */
static void nw_base(dyn_newton *nw, double *base)
{
    const dyn_system *s = nw->s;
    int nq = nw->nq;
    memset(base, 0, (size_t) nw->Ap[nw->n] * sizeof(double));
    for (int c = 0; c < nq; c++)
        for (int k = nw->Ap[c]; k < nw->Ap[c + 1]; k++) {
            int i = nw->Ai[k];
            if (i == c)
                base[k] = s->mass[c];
            else if (i >= nq) {
                int r = i - nq, slot = dyn_row_slot(s, r, c);
                base[k] = slot < 3 ? s->jac[r].ja[slot] : s->jac[r].jb[slot - 3];
            }
        }
    for (int r = 0; r < nw->nc; r++)
        for (int k = nw->Ap[nq + r]; k < nw->Ap[nq + r + 1]; k++) {
            int slot = dyn_row_slot(s, r, nw->Ai[k]);
            base[k] = slot < 3 ? s->jac[r].ja[slot] : s->jac[r].jb[slot - 3];
        }
}

/* column c (body b, coordinate j) of R_q (rate 0) or R_v (rate 1) into out, through pos */
static void nw_column(dyn_newton *nw, int b, int j, int rate, const double *v, int baum,
                      double *out)
{
    dyn_system *s = nw->s;
    int c = 3 * (b - 1) + j;
    const double *g = rate ? s->jc_gv : s->jc_gq;
    for (int k = s->jc_ptr[b - 1]; k < s->jc_ptr[b]; k++)
        for (int i = 0; i < 3; i++)
            out[nw->pos[3 * (s->jc_body[k] - 1) + i]] +=
                g[9 * (size_t) k + 3 * (size_t) j + (size_t) i];
    for (int l = s->jc_rptr[b - 1]; l < s->jc_rptr[b]; l++) {
        int r = s->jc_rows[l];
        out[nw->pos[nw->nq + r]] = dyn_jacobian_row_entry(s, r, c, rate, v, baum, nw->x);
    }
    /* the multipliers' rotation (rate 0), gathered from x at the rows' bodies */
    for (int l = s->jc_rptr[b - 1]; rate == 0 && l < s->jc_rptr[b]; l++) {
        int r = s->jc_rows[l], body[2] = {s->row_a[r], s->row_b[r]};
        for (int e = 0; e < 2; e++)
            for (int i = 0; body[e] > 0 && i < 3; i++) {
                int ci = 3 * (body[e] - 1) + i;
                out[nw->pos[ci]] += nw->x[ci];
                nw->x[ci] = 0.0;
            }
    }
}

clink_status dyn_newton_eval(dyn_newton *nw, double t, const double *q, const double *v,
                             dyn_newton_jac *jac)
{
    dyn_system *s = nw->s;
    clink_status st = dyn_jacobian_blocks(s, t, q, v);
    if (st != CLINK_OK)
        return st;
    nw->st.evals++;
    nw_base(nw, jac->base);
    memset(jac->rq, 0, (size_t) nw->nleft * sizeof(double));
    memset(jac->rv, 0, (size_t) nw->nleft * sizeof(double));
    int baum = s->alpha != 0.0 || s->beta != 0.0;
    for (int c = 0; c < nw->nq; c++) {
        int a = nw->Ap[c];
        for (int k = a; k < nw->Ap[c + 1]; k++)
            nw->pos[nw->Ai[k]] = k - a;
        nw_column(nw, c / 3 + 1, c % 3, 0, v, baum, jac->rq + a);
        nw_column(nw, c / 3 + 1, c % 3, 1, v, baum, jac->rv + a);
        for (int k = a; k < nw->Ap[c + 1]; k++)
            nw->pos[nw->Ai[k]] = -1;
    }
    if (!dyn_finite_all(jac->rq, nw->nleft) || !dyn_finite_all(jac->rv, nw->nleft)) {
        dyn_set_msg(s, "saddle Newton solve: non-finite Jacobian at t = %.9g s", t);
        return CLINK_ERR_NONFINITE;
    }
    return CLINK_OK;
}

/* KLU on Kx: a refactorisation with the last pivots, else a full factorisation */
static clink_status nw_klu(dyn_newton *nw)
{
    if (nw->num) {
        int ok = klu_refactor(nw->Ap, nw->Ai, nw->Kx, nw->sym, nw->num, &nw->common);
        nw->st.refactors++;
        if (ok && nw->common.status == KLU_OK && klu_rcond(nw->sym, nw->num, &nw->common) &&
            nw->common.rcond >= DYN_REFACTOR_RCOND)
            return CLINK_OK;
        klu_free_numeric(&nw->num, &nw->common);
    }
    nw->num = klu_factor(nw->Ap, nw->Ai, nw->Kx, nw->sym, &nw->common);
    nw->st.factors++;
    if (nw->num && nw->common.status == KLU_OK && klu_rcond(nw->sym, nw->num, &nw->common) &&
        nw->common.rcond >= DYN_SINGULAR_RCOND)
        return CLINK_OK;
    int status = nw->common.status;
    if (nw->num)
        klu_free_numeric(&nw->num, &nw->common);
    if (status == KLU_OUT_OF_MEMORY) {
        dyn_set_msg(nw->s, "saddle Newton solve: KLU out of memory (order %d)", nw->n);
        return CLINK_ERR_NOMEM;
    }
    dyn_set_msg(nw->s,
                "saddle Newton solve: the Newton matrix is singular (KLU status %d, pivot "
                "ratio %.3g): redundant constraints or a singular position",
                status, nw->common.rcond);
    return CLINK_ERR_SINGULAR;
}

clink_status dyn_newton_factor(dyn_newton *nw, const dyn_newton_jac *j, double gamma)
{
    double g2 = gamma * gamma;
    int nl = nw->nleft, nnz = nw->Ap[nw->n];
    for (int k = 0; k < nl; k++)
        nw->Kx[k] = j->base[k] - (g2 * j->rq[k] + gamma * j->rv[k]);
    memcpy(nw->Kx + nl, j->base + nl, (size_t) (nnz - nl) * sizeof(double));
    nw->fj = NULL;
    clink_status st = nw_klu(nw);
    if (st != CLINK_OK)
        return st;
    nw->st.factor_nnz = (long) nw->num->lnz + nw->num->unz + nw->num->nzoff;
    nw->fj = j;
    nw->fgamma = gamma;
    return CLINK_OK;
}

clink_status dyn_newton_solve(dyn_newton *nw, const double *bq, const double *bv, double *dq,
                              double *dv)
{
    const dyn_newton_jac *j = nw->fj;
    if (!j || !nw->num) {
        dyn_set_msg(nw->s, "saddle Newton solve: no factorisation");
        return CLINK_ERR_LINSOLVE;
    }
    double gamma = nw->fgamma;
    memset(nw->rhs, 0, (size_t) nw->n * sizeof(double));
    for (int c = 0; c < nw->nq; c++)
        for (int k = nw->Ap[c]; k < nw->Ap[c + 1]; k++)
            nw->rhs[nw->Ai[k]] += gamma * j->rq[k] * bq[c] + j->base[k] * bv[c];
    if (!klu_solve(nw->sym, nw->num, nw->n, 1, nw->rhs, &nw->common)) {
        dyn_set_msg(nw->s, "saddle Newton solve: KLU solve failed (status %d)", nw->common.status);
        return CLINK_ERR_LINSOLVE;
    }
    nw->st.solves++;
    for (int c = 0; c < nw->nq; c++) {
        dv[c] = nw->rhs[c];
        dq[c] = bq[c] + gamma * dv[c];
    }
    if (!dyn_finite_all(dv, nw->nq)) {
        dyn_set_msg(nw->s, "saddle Newton solve: non-finite correction");
        return CLINK_ERR_NONFINITE;
    }
    return CLINK_OK;
}

void dyn_newton_forget(dyn_newton *nw)
{
    if (nw->num)
        klu_free_numeric(&nw->num, &nw->common);
    nw->fj = NULL;
}

void dyn_newton_get_stats(const dyn_newton *nw, dyn_newton_stats *st)
{
    *st = nw->st;
}
