/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * factor_schur.c: the saddle-point system through the Schur complement, the
 * path of the small systems (at most DYN_SCHUR_MAX_ROWS constraint rows, the
 * measured crossover with KLU: docs/performance.md).
 *
 * M is diagonal, so [M J^T; J 0][x; z] = [f; r] (J = Phi_q, m rows) reduces to
 * the m x m Schur complement S = J M^-1 J^T (symmetric positive definite for
 * independent rows), formed from the row pairs that share a coordinate and
 * factored by dense Cholesky, S = L L^T:
 *
 *   S z = J M^-1 f - r,   x = M^-1 (f - J^T z).
 *
 * A pivot d_k <= DYN_SINGULAR_RCOND S_kk (row k within 1e-13 of the span of the
 * rows before it, squared sine of the angle in the metric M^-1) is a singular
 * matrix (CLINK_ERR_SINGULAR: the rank-revealing fallback follows). The
 * complement squares the condition number of J; a factorisation whose smallest
 * pivot ratio d_k / S_kk is below DYN_SCHUR_REFINE refines each solve once
 * (solve_refined).
 */
#include "dynamics/dyn_internal.h"

#include <stdlib.h>
#include <string.h>

struct dyn_schur {
    /* coordinate of each row slot (6 per row, -1 on ground); per row, its slots on
       moving bodies (nz_start, with their coordinates and slot indices) */
    int *slot_coord;
    int *nz_start, *nz_coord, *nz_slot;
    /* the products that form S: packed lower index, slots of the two rows */
    int nterm;
    int *term_ij, *term_ki, *term_kj;
    /* the Cholesky factor L (nc x nc, row-major lower), the Jacobian values it was
       formed from (6 per row), M^-1, the diagonal of S, the refinement's residual */
    double *chol, *jfact, *minv, *sdiag, *resid;
    double pivot_ratio; /* smallest d_k / S_kk of the current factorisation */
};

static void schur_release(dyn_system *s)
{
    struct dyn_schur *c = s->schur;
    if (!c)
        return;
    free(c->slot_coord);
    free(c->nz_start);
    free(c->nz_coord);
    free(c->nz_slot);
    free(c->term_ij);
    free(c->term_ki);
    free(c->term_kj);
    free(c->chol);
    free(c->jfact);
    free(c->minv);
    free(c->sdiag);
    free(c->resid);
    free(c);
    s->schur = NULL;
}

/* the slot coordinates and each row's slots on moving bodies */
static void schur_slots(const dyn_system *s, struct dyn_schur *c)
{
    int nz = 0;
    for (int r = 0; r < s->nc; r++) {
        c->nz_start[r] = nz;
        for (int slot = 0; slot < 6; slot++) {
            int body = slot < 3 ? s->row_a[r] : s->row_b[r];
            c->slot_coord[6 * r + slot] = body > 0 ? 3 * (body - 1) + slot % 3 : -1;
            if (body > 0) {
                c->nz_coord[nz] = 3 * (body - 1) + slot % 3;
                c->nz_slot[nz++] = 6 * r + slot;
            }
        }
    }
    c->nz_start[s->nc] = nz;
}

/* the products forming S, in two passes: count them, then record them; -1 if out of memory */
static int schur_terms(int nc, struct dyn_schur *c)
{
    for (int pass = 0; pass < 2; pass++) {
        int k = 0;
        for (int i = 0; i < nc; i++)
            for (int j = 0; j <= i; j++)
                for (int si = 0; si < 6; si++) {
                    int coord = c->slot_coord[6 * i + si];
                    if (coord < 0)
                        continue;
                    for (int sj = 0; sj < 6; sj++) {
                        if (c->slot_coord[6 * j + sj] != coord)
                            continue;
                        if (pass == 1) {
                            c->term_ij[k] = i * nc + j;
                            c->term_ki[k] = 6 * i + si;
                            c->term_kj[k] = 6 * j + sj;
                        }
                        k++;
                    }
                }
        if (pass == 0) {
            c->nterm = k;
            size_t nt = (size_t) (k > 0 ? k : 1);
            c->term_ij = malloc(nt * sizeof(int));
            c->term_ki = malloc(nt * sizeof(int));
            c->term_kj = malloc(nt * sizeof(int));
            if (!c->term_ij || !c->term_ki || !c->term_kj)
                return -1;
        }
    }
    return 0;
}

/* the Schur-complement structures: slot coordinates and the products forming S */
static clink_status schur_setup(dyn_system *s)
{
    int nq = s->nq, nc = s->nc;
    size_t nr = (size_t) nc;
    if (s->schur)
        return CLINK_OK;
    struct dyn_schur *c = calloc(1, sizeof *c);
    s->schur = c;
    if (!c)
        return CLINK_ERR_NOMEM;
    c->slot_coord = malloc(6 * nr * sizeof(int));
    c->chol = calloc(nr * nr, sizeof(double));
    c->jfact = calloc(6 * nr, sizeof(double));
    c->minv = calloc((size_t) nq, sizeof(double));
    c->sdiag = calloc(nr, sizeof(double));
    c->resid = calloc((size_t) s->n, sizeof(double));
    c->nz_start = malloc((nr + 1) * sizeof(int));
    c->nz_coord = malloc(6 * nr * sizeof(int));
    c->nz_slot = malloc(6 * nr * sizeof(int));
    if (!c->slot_coord || !c->chol || !c->jfact || !c->minv || !c->sdiag || !c->resid ||
        !c->nz_start || !c->nz_coord || !c->nz_slot) {
        schur_release(s);
        return CLINK_ERR_NOMEM;
    }
    for (int k = 0; k < nq; k++)
        c->minv[k] = 1.0 / s->mass[k];
    schur_slots(s, c);
    if (schur_terms(nc, c) != 0) {
        schur_release(s);
        return CLINK_ERR_NOMEM;
    }
    return CLINK_OK;
}

/* forms S = J M^-1 J^T from the Jacobian in s->jac and factors it (Cholesky); 0 on success */
static clink_status schur_factor(dyn_system *s)
{
    struct dyn_schur *c = s->schur;
    int nc = s->nc;
    double *L = c->chol, *jf = c->jfact;
    for (int r = 0; r < nc; r++)
        for (int k = 0; k < 3; k++) {
            jf[6 * r + k] = s->jac[r].ja[k];
            jf[6 * r + 3 + k] = s->jac[r].jb[k];
        }
    memset(L, 0, (size_t) nc * (size_t) nc * sizeof(double));
    for (int k = 0; k < c->nterm; k++) {
        int ki = c->term_ki[k];
        L[c->term_ij[k]] += jf[ki] * jf[c->term_kj[k]] * c->minv[c->slot_coord[ki]];
    }
    s->stats.schur++;
    c->pivot_ratio = 1.0;
    for (int j = 0; j < nc; j++) {
        double *Lj = L + (size_t) j * nc;
        double d = Lj[j];
        c->sdiag[j] = d;
        for (int k = 0; k < j; k++)
            d -= Lj[k] * Lj[k];
        if (!(d > DYN_SINGULAR_RCOND * c->sdiag[j]) || !isfinite(d)) {
            c->pivot_ratio = d / c->sdiag[j];
            return CLINK_ERR_SINGULAR; /* dyn_factor tries the rank-revealing fallback */
        }
        c->pivot_ratio = fmin(c->pivot_ratio, d / c->sdiag[j]);
        double piv = sqrt(d);
        Lj[j] = piv;
        for (int i = j + 1; i < nc; i++) {
            double *Li = L + (size_t) i * nc;
            double x = Li[j];
            for (int k = 0; k < j; k++)
                x -= Li[k] * Lj[k];
            Li[j] = x / piv;
        }
    }
    return CLINK_OK;
}

/* [M J^T; J 0][x; z] = [f; r] by the Schur complement, in place on s->rhs */
static void solve_once(dyn_system *s)
{
    const struct dyn_schur *c = s->schur;
    int nq = s->nq, nc = s->nc;
    const double *L = c->chol, *jf = c->jfact, *minv = c->minv;
    const int *nzp = c->nz_start, *nzc = c->nz_coord, *nzk = c->nz_slot;
    double *x = s->rhs, *z = s->rhs + nq;
    /* w = J M^-1 f - r, then L L^T z = w */
    for (int r = 0; r < nc; r++) {
        double w = -z[r];
        for (int p = nzp[r]; p < nzp[r + 1]; p++)
            w += jf[nzk[p]] * minv[nzc[p]] * x[nzc[p]];
        const double *Lr = L + (size_t) r * nc;
        for (int k = 0; k < r; k++)
            w -= Lr[k] * z[k];
        z[r] = w / Lr[r];
    }
    for (int r = nc - 1; r >= 0; r--) {
        double w = z[r];
        for (int k = r + 1; k < nc; k++)
            w -= L[(size_t) k * nc + r] * z[k];
        z[r] = w / L[(size_t) r * nc + r];
    }
    /* x = M^-1 (f - J^T z) */
    for (int r = 0; r < nc; r++)
        for (int p = nzp[r]; p < nzp[r + 1]; p++)
            x[nzc[p]] -= jf[nzk[p]] * z[r];
    for (int k = 0; k < nq; k++)
        x[k] *= minv[k];
}

/*
 * The Schur complement squares the condition number of Phi_q: near a singular
 * configuration (rows nearly dependent, large multipliers whose forces
 * J^T z cancel in x = M^-1 (f - J^T z)) its solution leaves a residual in
 * Phi_q x = r far above KLU's (2.6e-9 of the terms on a random mechanism where
 * KLU leaves 7e-17). When the factorisation had a pivot ratio d_k / S_kk below
 * DYN_SCHUR_REFINE (rows within a few degrees of dependence), one step of
 * iterative refinement (the residual solved with the same factorisation)
 * restores it; the shipped mechanisms never come that close.
 */
static clink_status solve_refined(dyn_system *s)
{
    const struct dyn_schur *c = s->schur;
    int nq = s->nq, nc = s->nc, n = s->n;
    const double *jf = c->jfact;
    const int *sc = c->slot_coord;
    double *b = c->resid, *x = s->rhs;
    int refine = c->pivot_ratio < DYN_SCHUR_REFINE;
    if (refine)
        memcpy(b, x, (size_t) n * sizeof(double));
    solve_once(s);
    if (!refine)
        return CLINK_OK;
    /* b := b - K x, solved in place, added to x */
    for (int k = 0; k < nq; k++)
        b[k] -= s->mass[k] * x[k];
    for (int r = 0; r < nc; r++)
        for (int k = 6 * r; k < 6 * r + 6; k++)
            if (sc[k] >= 0) {
                b[sc[k]] -= jf[k] * x[nq + r];
                b[nq + r] -= jf[k] * x[sc[k]];
            }
    double *x0 = s->rhs;
    s->rhs = b;
    solve_once(s);
    s->rhs = x0;
    for (int i = 0; i < n; i++)
        x[i] += b[i];
    s->stats.refined++;
    return CLINK_OK;
}

static double schur_pivot_ratio(const dyn_system *s)
{
    return s->schur->pivot_ratio;
}

const dyn_factor_ops dyn_schur_ops = {
    .setup = schur_setup,
    .factor = schur_factor,
    .solve = solve_refined,
    .release = schur_release,
    .pivot_ratio = schur_pivot_ratio,
};
