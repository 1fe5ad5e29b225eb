/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * factor_klu.c: the saddle-point matrix [M Phi_q^T; Phi_q 0] in compressed-column
 * form, factored by KLU (Davis and Palamadai Natarajan 2010), the sparse path for
 * more than DYN_SCHUR_MAX_ROWS constraint rows. With newton_saddle.c (BDF's Newton matrix in
 * the saddle form) the only files that include klu.h.
 *
 * Column c < nq of the matrix holds M_cc (row c) and the Jacobian entries
 * dPhi_r/dq_c (rows nq + r); column nq + r holds the entries of row r of Phi_q
 * transposed (rows = coordinates of the row's two bodies). The pattern depends
 * only on which bodies each constraint row connects, so klu_analyze runs once
 * (setup); each factorisation writes the values through two index maps, then
 * klu_refactor reuses the pivot order, and a full klu_factor follows when the
 * refactorisation's reciprocal pivot ratio (klu_rcond) falls below
 * DYN_REFACTOR_RCOND. A full factorisation whose ratio stays below
 * DYN_SINGULAR_RCOND is singular (CLINK_ERR_SINGULAR: the rank-revealing fallback
 * follows).
 */
#include "dynamics/dyn_internal.h"

#include <klu.h>
#include <stdlib.h>

struct dyn_klu {
    int nnz;
    int *Ap, *Ai;
    double *Ax;
    int *map_lo, *map_up; /* per row r, 6 slots (body a x,y,phi, body b x,y,phi): index or -1 */
    klu_symbolic *sym;
    klu_numeric *num;
    klu_common common;
};

/*
 * Each body's constraint rows, ascending (CSR over the bodies 1..nb-1, ground
 * excluded): bptr (nb + 1 entries) and brow; a row whose two bodies coincide is
 * listed once. 0, or -1 if out of memory.
 */
static int lu_body_rows(const dyn_system *s, int **bptr, int **brow)
{
    int nb = s->nq / 3 + 1, nc = s->nc;
    *bptr = calloc((size_t) nb + 1, sizeof(int));
    *brow = malloc((size_t) (2 * nc > 0 ? 2 * nc : 1) * sizeof(int));
    if (!*bptr || !*brow)
        return -1;
    int *ptr = *bptr, *row = *brow;
    for (int r = 0; r < nc; r++) {
        if (s->row_a[r] > 0)
            ptr[s->row_a[r] + 1]++;
        if (s->row_b[r] > 0 && s->row_b[r] != s->row_a[r])
            ptr[s->row_b[r] + 1]++;
    }
    for (int b = 0; b < nb; b++)
        ptr[b + 1] += ptr[b];
    /* rows in ascending order: a running fill position per body (ptr shifted back after) */
    for (int r = 0; r < nc; r++) {
        if (s->row_a[r] > 0)
            row[ptr[s->row_a[r]]++] = r;
        if (s->row_b[r] > 0 && s->row_b[r] != s->row_a[r])
            row[ptr[s->row_b[r]]++] = r;
    }
    for (int b = nb; b > 0; b--)
        ptr[b] = ptr[b - 1];
    ptr[0] = 0;
    return 0;
}

/*
 * The sparsity pattern of the saddle-point matrix (CSC) and the maps from a row's
 * Jacobian slots to its entries below and above the mass block; 0, or -1 if out
 * of memory. Built from each body's rows, in time and memory proportional to the
 * entries (a scan of every row for every coordinate took 56 s for a chain of 1e5
 * bodies); the entries and their order are those of that scan: rows ascending in
 * a coordinate's column, coordinates ascending in a multiplier's.
 */
static int lu_pattern(const dyn_system *s, struct dyn_klu *k)
{
    int nq = s->nq, nc = s->nc, n = s->n;
    size_t nr = (size_t) (nc > 0 ? nc : 1);
    /* count entries */
    int nnz = nq;
    for (int r = 0; r < nc; r++)
        nnz += 2 * ((s->row_a[r] > 0 ? 3 : 0) + (s->row_b[r] > 0 ? 3 : 0));
    k->nnz = nnz;
    k->Ap = calloc((size_t) n + 1, sizeof(int));
    k->map_lo = malloc(6 * nr * sizeof(int));
    k->map_up = malloc(6 * nr * sizeof(int));
    k->Ai = malloc((size_t) nnz * sizeof(int));
    k->Ax = calloc((size_t) nnz, sizeof(double));
    int *bptr = NULL, *brow = NULL;
    int bad = !k->Ap || !k->map_lo || !k->map_up || !k->Ai || !k->Ax ||
              lu_body_rows(s, &bptr, &brow) != 0;
    if (bad) {
        free(bptr);
        free(brow);
        return -1;
    }
    for (size_t i = 0; i < 6 * nr; i++)
        k->map_lo[i] = k->map_up[i] = -1;
    /* columns of coordinates: the mass entry, then the body's Jacobian rows in order */
    int p = 0;
    for (int c = 0; c < nq; c++) {
        int body = c / 3 + 1;
        k->Ap[c] = p;
        k->Ai[p++] = c;
        for (int i = bptr[body]; i < bptr[body + 1]; i++) {
            int r = brow[i], slot = dyn_row_slot(s, r, c);
            k->map_lo[6 * r + slot] = p;
            k->Ai[p++] = nq + r;
        }
    }
    free(bptr);
    free(brow);
    /* columns of multipliers: the coordinates of the row's bodies, ascending */
    for (int r = 0; r < nc; r++) {
        int lo = s->row_a[r], hi = s->row_b[r];
        if (lo > hi) {
            int t = lo;
            lo = hi;
            hi = t;
        }
        int body[2] = {lo, hi == lo ? 0 : hi};
        k->Ap[nq + r] = p;
        for (int j = 0; j < 2; j++) {
            for (int c = 3 * (body[j] - 1); body[j] > 0 && c < 3 * body[j]; c++) {
                k->map_up[6 * r + dyn_row_slot(s, r, c)] = p;
                k->Ai[p++] = c;
            }
        }
    }
    k->Ap[n] = p;
    return 0;
}

static void lu_release(dyn_system *s)
{
    struct dyn_klu *k = s->klu;
    if (!k)
        return;
    if (k->num)
        klu_free_numeric(&k->num, &k->common);
    if (k->sym)
        klu_free_symbolic(&k->sym, &k->common);
    free(k->Ap);
    free(k->Ai);
    free(k->Ax);
    free(k->map_lo);
    free(k->map_up);
    free(k);
    s->klu = NULL;
}

/*
 * The pattern and its symbolic analysis. A failed analysis leaves the system
 * usable for messages (its factorisations then fail with CLINK_ERR_LINSOLVE).
 */
static clink_status lu_setup(dyn_system *s)
{
    if (s->klu)
        return CLINK_OK;
    struct dyn_klu *k = calloc(1, sizeof *k);
    s->klu = k;
    if (!k || lu_pattern(s, k) != 0) {
        lu_release(s);
        return CLINK_ERR_NOMEM;
    }
    if (klu_defaults(&k->common) != 1) {
        lu_release(s);
        return CLINK_ERR_LINSOLVE;
    }
    k->sym = klu_analyze(s->n, k->Ap, k->Ai, &k->common);
    if (!k->sym)
        dyn_set_msg(s, "KLU symbolic analysis failed (status %d)", k->common.status);
    return CLINK_OK;
}

/* writes M and the current Jacobian into Ax */
static void lu_fill(const dyn_system *s, struct dyn_klu *k)
{
    for (int c = 0; c < s->nq; c++)
        k->Ax[k->Ap[c]] = s->mass[c];
    for (int r = 0; r < s->nc; r++) {
        const double *vals[2] = {s->jac[r].ja, s->jac[r].jb};
        for (int slot = 0; slot < 6; slot++) {
            if (k->map_lo[6 * r + slot] < 0)
                continue;
            double v = vals[slot / 3][slot % 3];
            k->Ax[k->map_lo[6 * r + slot]] = v;
            k->Ax[k->map_up[6 * r + slot]] = v;
        }
    }
}

/* factors the current matrix with KLU; 0 on success */
static clink_status lu_factor(dyn_system *s)
{
    struct dyn_klu *k = s->klu;
    if (!k->sym) {
        dyn_set_msg(s, "KLU symbolic analysis failed");
        return CLINK_ERR_LINSOLVE;
    }
    lu_fill(s, k);
    int need_full = (k->num == NULL);
    if (!need_full) {
        int ok = klu_refactor(k->Ap, k->Ai, k->Ax, k->sym, k->num, &k->common);
        s->stats.klu_refactor++;
        if (!ok || k->common.status != KLU_OK || !klu_rcond(k->sym, k->num, &k->common) ||
            !(k->common.rcond >= DYN_REFACTOR_RCOND))
            need_full = 1;
    }
    if (need_full) {
        if (k->num)
            klu_free_numeric(&k->num, &k->common);
        k->num = klu_factor(k->Ap, k->Ai, k->Ax, k->sym, &k->common);
        s->stats.klu_factor++;
        if (!k->num || k->common.status != KLU_OK || !klu_rcond(k->sym, k->num, &k->common) ||
            !(k->common.rcond >= DYN_SINGULAR_RCOND)) {
            if (k->num)
                klu_free_numeric(&k->num, &k->common);
            if (k->common.status == KLU_OUT_OF_MEMORY) {
                dyn_set_msg(s, "KLU: out of memory");
                return CLINK_ERR_NOMEM;
            }
            return CLINK_ERR_SINGULAR; /* dyn_factor tries the rank-revealing fallback */
        }
    }
    return CLINK_OK;
}

void dyn_klu_forget(dyn_system *s)
{
    struct dyn_klu *k = s->klu;
    if (k && k->num)
        klu_free_numeric(&k->num, &k->common);
}

static clink_status lu_solve(dyn_system *s)
{
    struct dyn_klu *k = s->klu;
    if (!klu_solve(k->sym, k->num, s->n, 1, s->rhs, &k->common)) {
        dyn_set_msg(s, "KLU solve failed (status %d)", k->common.status);
        return CLINK_ERR_LINSOLVE;
    }
    return CLINK_OK;
}

void dyn_klu_size(const dyn_system *s, dyn_klu_sizes *sz)
{
    const struct dyn_klu *k = s->klu;
    sz->n = s->n;
    sz->matrix_nnz = k ? k->Ap[s->n] : 0;
    sz->factor_nnz = k && k->num ? (long) k->num->lnz + k->num->unz + k->num->nzoff : 0;
    sz->predicted = k && k->sym ? (long) (k->sym->lnz + k->sym->unz) : 0;
}

/* the reciprocal pivot ratio of the last klu_rcond */
static double lu_pivot_ratio(const dyn_system *s)
{
    return s->klu->common.rcond;
}

const dyn_factor_ops dyn_klu_ops = {
    .setup = lu_setup,
    .factor = lu_factor,
    .solve = lu_solve,
    .release = lu_release,
    .pivot_ratio = lu_pivot_ratio,
};
