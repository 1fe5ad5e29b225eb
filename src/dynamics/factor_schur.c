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
 *
 * The work per factorisation is set up once (schur_setup): the products of S
 * grouped in blocks of three (the x, y, phi coordinates of a body two rows
 * share), and a program of the Cholesky factorisation over the pattern of L
 * (George and Liu 1981: the fill-in of a symbolic factorisation), so that rows
 * of bodies that share nothing (a slider's guide and a crank's pin) cost no
 * operation. Both keep the dense computation's operations in its order: the
 * results are the same bits (tests/dynamics/test_dynamics.c checks them against
 * the dense factorisation).
 */
#include "dynamics/dyn_internal.h"

#include <stdlib.h>
#include <string.h>

struct dyn_schur {
    /* coordinate of each row slot (6 per row, -1 on ground) */
    int *slot_coord;
    /* the products that form S: packed lower index, slots of the two rows */
    int nterm;
    int *term_ij, *term_ki, *term_kj;
    /* the same products grouped (schur_group): per entry of S that has any (npair),
       its packed index and first block; per block, the first slots of the two rows
       and the first coordinate of the body they share (three products each);
       npair = -1 when the products do not group (the term loop then forms S) */
    int npair;
    int *pair_ij, *pair_start, *blk_ki, *blk_kj, *blk_coord;
    /* per block, its three operands' first elements (jfact + blk_ki, jfact + blk_kj,
       minv + blk_coord: the arrays are allocated once), and per entry of S the end of its
       blocks there (schur_assemble's loops read no index) */
    const double **blk_ptr;
    const double *const **pair_end;
    /* per row, the first coordinate of body a and of body b (-1 on ground) */
    int *row_ca, *row_cb;
    /* the Cholesky factorisation's program over the pattern of L (schur_symbolic), and the
       entries of the pattern no product of S writes (fill-in: zeroed before each
       factorisation; the entries outside the pattern stay zero from the allocation) */
    int *prog;
    int nfill;
    int *fill;
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
    free(c->term_ij);
    free(c->term_ki);
    free(c->term_kj);
    free(c->pair_ij);
    free(c->pair_start);
    free(c->blk_ki);
    free(c->blk_kj);
    free(c->blk_coord);
    free(c->blk_ptr);
    free(c->pair_end);
    free(c->row_ca);
    free(c->row_cb);
    free(c->prog);
    free(c->fill);
    free(c->chol);
    free(c->jfact);
    free(c->minv);
    free(c->sdiag);
    free(c->resid);
    free(c);
    s->schur = NULL;
}

/* the slot coordinates and the first coordinate of each row's two bodies */
static void schur_slots(const dyn_system *s, struct dyn_schur *c)
{
    for (int r = 0; r < s->nc; r++) {
        c->row_ca[r] = s->row_a[r] > 0 ? 3 * (s->row_a[r] - 1) : -1;
        c->row_cb[r] = s->row_b[r] > 0 ? 3 * (s->row_b[r] - 1) : -1;
        for (int slot = 0; slot < 6; slot++) {
            int body = slot < 3 ? s->row_a[r] : s->row_b[r];
            c->slot_coord[6 * r + slot] = body > 0 ? 3 * (body - 1) + slot % 3 : -1;
        }
    }
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

/* do terms k .. k + 2 form one block (the x, y, phi slots of one body in both rows)? */
static int schur_is_block(const struct dyn_schur *c, int k)
{
    if (k + 2 >= c->nterm || c->term_ki[k] % 3 != 0 || c->term_kj[k] % 3 != 0)
        return 0;
    for (int d = 1; d < 3; d++)
        if (c->term_ij[k + d] != c->term_ij[k] || c->term_ki[k + d] != c->term_ki[k] + d ||
            c->term_kj[k + d] != c->term_kj[k] + d)
            return 0;
    return 1;
}

/*
 * The products grouped in blocks of three, in their order, and the blocks by
 * entry of S (schur_assemble); npair = -1 when some product falls outside a
 * block (a row whose two bodies are the same). 0, or -1 if out of memory.
 */
static int schur_group(struct dyn_schur *c)
{
    size_t cap = (size_t) (c->nterm / 3 + 1);
    c->pair_ij = malloc(cap * sizeof(int));
    c->pair_start = malloc((cap + 1) * sizeof(int));
    c->blk_ki = malloc(cap * sizeof(int));
    c->blk_kj = malloc(cap * sizeof(int));
    c->blk_coord = malloc(cap * sizeof(int));
    if (!c->pair_ij || !c->pair_start || !c->blk_ki || !c->blk_kj || !c->blk_coord)
        return -1;
    int np = 0, nb = 0;
    for (int k = 0; k < c->nterm; k += 3) {
        if (!schur_is_block(c, k)) {
            c->npair = -1;
            return 0;
        }
        if (np == 0 || c->pair_ij[np - 1] != c->term_ij[k]) {
            c->pair_ij[np] = c->term_ij[k];
            c->pair_start[np++] = nb;
        }
        c->blk_ki[nb] = c->term_ki[k];
        c->blk_kj[nb] = c->term_kj[k];
        c->blk_coord[nb++] = c->slot_coord[c->term_ki[k]];
    }
    c->pair_start[np] = nb;
    c->npair = np;
    return 0;
}

/* the blocks' operand pointers and the entries' ends (after schur_group, with jfact and
   minv allocated); 0, or -1 if out of memory */
static int schur_block_pointers(struct dyn_schur *c)
{
    if (c->npair < 0)
        return 0;
    int nb = c->pair_start[c->npair];
    c->blk_ptr = malloc(((size_t) 3 * (size_t) nb + 1) * sizeof *c->blk_ptr);
    c->pair_end = malloc(((size_t) c->npair + 1) * sizeof *c->pair_end);
    if (!c->blk_ptr || !c->pair_end)
        return -1;
    for (int b = 0; b < nb; b++) {
        c->blk_ptr[3 * b] = c->jfact + c->blk_ki[b];
        c->blk_ptr[3 * b + 1] = c->jfact + c->blk_kj[b];
        c->blk_ptr[3 * b + 2] = c->minv + c->blk_coord[b];
    }
    for (int p = 0; p < c->npair; p++)
        c->pair_end[p] = c->blk_ptr + 3 * c->pair_start[p + 1];
    return 0;
}

/*
 * The pattern of L: entry (i, j), i >= j, is structurally nonzero when S_ij has a
 * product (or i = j) or some k < j has L_ik and L_jk nonzero (fill-in).
 * Written into nzl (nc x nc, lower triangle).
 */
static void schur_pattern(int nc, const struct dyn_schur *c, unsigned char *nzl)
{
    for (int i = 0; i < nc; i++)
        nzl[(size_t) i * nc + i] = 1;
    for (int k = 0; k < c->nterm; k++)
        nzl[c->term_ij[k]] = 1;
    for (int j = 0; j < nc; j++)
        for (int i = j + 1; i < nc; i++)
            for (int k = 0; k < j && !nzl[(size_t) i * nc + j]; k++)
                if (nzl[(size_t) i * nc + k] && nzl[(size_t) j * nc + k])
                    nzl[(size_t) i * nc + j] = 1;
}

/*
 * The program of the factorisation (written to prog when not NULL; returns its
 * length): per column j, the count and list of k < j with L_jk nonzero (the
 * pivot), then the count of rows i > j with L_ij nonzero and, per such row, i,
 * the count and list of k < j with L_ik and L_jk both nonzero.
 */
static int schur_program(int nc, const unsigned char *nzl, int *prog)
{
    int n = 0;
#define SCHUR_EMIT(v)                                                                              \
    do {                                                                                           \
        if (prog)                                                                                  \
            prog[n] = (v);                                                                         \
        n++;                                                                                       \
    } while (0)
    for (int j = 0; j < nc; j++) {
        const unsigned char *rj = nzl + (size_t) j * nc;
        int at = n;
        SCHUR_EMIT(0);
        for (int k = 0; k < j; k++)
            if (rj[k])
                SCHUR_EMIT(k);
        if (prog)
            prog[at] = n - at - 1;
        int rows = n;
        SCHUR_EMIT(0);
        for (int i = j + 1; i < nc; i++) {
            const unsigned char *ri = nzl + (size_t) i * nc;
            if (!ri[j])
                continue;
            SCHUR_EMIT(i);
            int cnt = n;
            SCHUR_EMIT(0);
            for (int k = 0; k < j; k++)
                if (ri[k] && rj[k])
                    SCHUR_EMIT(k);
            if (prog) {
                prog[cnt] = n - cnt - 1;
                prog[rows]++;
            }
        }
    }
#undef SCHUR_EMIT
    return n;
}

/*
 * The Cholesky factorisation over the pattern of L only. Exact: an entry outside
 * the pattern is +0 in the dense factorisation too, and so is each product it
 * enters; subtracting a zero changes nothing but a -0, and no entry of S or of
 * its elimination is ever -0 (S's sums start from +0, and x - y is -0 only for
 * x = -0). 0, or -1 if out of memory.
 */
static int schur_symbolic(int nc, struct dyn_schur *c)
{
    unsigned char *nzl = calloc((size_t) nc * (size_t) nc, 1);
    if (!nzl)
        return -1;
    schur_pattern(nc, c, nzl);
    int len = schur_program(nc, nzl, NULL);
    c->prog = malloc((size_t) len * sizeof(int));
    if (c->prog)
        schur_program(nc, nzl, c->prog);
    /* the fill list: pattern entries that no pair of products writes */
    for (int p = 0; p < c->npair; p++)
        nzl[c->pair_ij[p]] = 2;
    c->nfill = 0;
    c->fill = malloc(((size_t) nc * (size_t) nc + 1) * sizeof(int));
    for (int k = 0; c->fill && k < nc * nc; k++)
        if (nzl[k] == 1)
            c->fill[c->nfill++] = k;
    free(nzl);
    return c->prog && c->fill ? 0 : -1;
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
    c->row_ca = malloc(nr * sizeof(int));
    c->row_cb = malloc(nr * sizeof(int));
    if (!c->slot_coord || !c->chol || !c->jfact || !c->minv || !c->sdiag || !c->resid ||
        !c->row_ca || !c->row_cb) {
        schur_release(s);
        return CLINK_ERR_NOMEM;
    }
    for (int k = 0; k < nq; k++)
        c->minv[k] = 1.0 / s->mass[k];
    schur_slots(s, c);
    if (schur_terms(nc, c) != 0 || schur_group(c) != 0 || schur_block_pointers(c) != 0 ||
        schur_symbolic(nc, c) != 0) {
        schur_release(s);
        return CLINK_ERR_NOMEM;
    }
    return CLINK_OK;
}

/*
 * S = J M^-1 J^T into the lower triangle of chol from the Jacobian values in
 * jfact: each entry a sum of products J_ik J_jk / M_kk over the coordinates k
 * the two rows share, in the order of the term list (blocks of three when
 * they group, one sum per entry kept in a register).
 */
static void schur_assemble(struct dyn_schur *c, int nc)
{
    double *L = c->chol;
    const double *jf = c->jfact, *minv = c->minv;
    if (c->npair < 0) {
        memset(L, 0, (size_t) nc * (size_t) nc * sizeof(double));
        for (int k = 0; k < c->nterm; k++) {
            int ki = c->term_ki[k];
            L[c->term_ij[k]] += jf[ki] * jf[c->term_kj[k]] * minv[c->slot_coord[ki]];
        }
        return;
    }
    for (int k = 0; k < c->nfill; k++)
        L[c->fill[k]] = 0.0;
    /* the blocks in order through their operand pointers (schur_block_pointers) */
    const double *const *bp = c->blk_ptr;
    for (int p = 0; p < c->npair; p++) {
        double acc = 0.0;
        for (const double *const *end = c->pair_end[p]; bp < end; bp += 3) {
            const double *ji = bp[0], *jj = bp[1], *mi = bp[2];
            acc += ji[0] * jj[0] * mi[0];
            acc += ji[1] * jj[1] * mi[1];
            acc += ji[2] * jj[2] * mi[2];
        }
        L[c->pair_ij[p]] = acc;
    }
}

/* forms S = J M^-1 J^T from the Jacobian in s->jac and factors it (Cholesky); 0 on success */
static clink_status schur_factor(dyn_system *s)
{
    struct dyn_schur *c = s->schur;
    int nc = s->nc;
    double *L = c->chol;
    _Static_assert(sizeof(kin_row) == 6 * sizeof(double), "a Jacobian row is six doubles");
    memcpy(c->jfact, s->jac, (size_t) nc * sizeof(kin_row));
    schur_assemble(c, nc);
    s->stats.schur++;
    c->pivot_ratio = 1.0;
    const int *p = c->prog;
    for (int j = 0; j < nc; j++) {
        double *Lj = L + (size_t) j * nc;
        double d = Lj[j];
        c->sdiag[j] = d;
        for (int nk = *p++; nk > 0; nk--, p++)
            d -= Lj[*p] * Lj[*p];
        if (!(d > DYN_SINGULAR_RCOND * c->sdiag[j]) || !isfinite(d)) {
            c->pivot_ratio = d / c->sdiag[j];
            return CLINK_ERR_SINGULAR; /* dyn_factor tries the rank-revealing fallback */
        }
        double ratio = d / c->sdiag[j];
        if (ratio < c->pivot_ratio)
            c->pivot_ratio = ratio;
        double piv = sqrt(d);
        Lj[j] = piv;
        for (int ni = *p++; ni > 0; ni--) {
            double *Li = L + (size_t) *p++ * nc;
            double x = Li[j];
            for (int nk = *p++; nk > 0; nk--, p++)
                x -= Li[*p] * Lj[*p];
            Li[j] = x / piv;
        }
    }
    return CLINK_OK;
}

#if defined(__GNUC__) && !defined(__clang__)
#define SCHUR_UNROLL _Pragma("GCC unroll 8")
#else
#define SCHUR_UNROLL
#endif

/*
 * L L^T z = w in place on z (w in z), forward then back over the dense lower triangle
 * of L (its entries outside the pattern are zeros, subtracted as the dense solve
 * subtracts them). Inlined with a constant nc for the smallest systems (schur_lltsolve),
 * where the loops unroll completely: the same operations in the same order.
 */
static inline __attribute__((always_inline)) void schur_lltsolve_n(const double *L, double *z,
                                                                   int nc)
{
    SCHUR_UNROLL
    for (int r = 0; r < nc; r++) {
        const double *Lr = L + (size_t) r * nc;
        double w = z[r];
        SCHUR_UNROLL
        for (int k = 0; k < r; k++)
            w -= Lr[k] * z[k];
        z[r] = w / Lr[r];
    }
    SCHUR_UNROLL
    for (int r = nc - 1; r >= 0; r--) {
        double w = z[r];
        SCHUR_UNROLL
        for (int k = r + 1; k < nc; k++)
            w -= L[(size_t) k * nc + r] * z[k];
        z[r] = w / L[(size_t) r * nc + r];
    }
}

static void schur_lltsolve(const double *L, double *z, int nc)
{
    switch (nc) {
    case 1:
        schur_lltsolve_n(L, z, 1);
        return;
    case 2:
        schur_lltsolve_n(L, z, 2);
        return;
    case 3:
        schur_lltsolve_n(L, z, 3);
        return;
    case 4:
        schur_lltsolve_n(L, z, 4);
        return;
    case 5:
        schur_lltsolve_n(L, z, 5);
        return;
    case 6:
        schur_lltsolve_n(L, z, 6);
        return;
    case 7:
        schur_lltsolve_n(L, z, 7);
        return;
    case 8:
        schur_lltsolve_n(L, z, 8);
        return;
    default:
        schur_lltsolve_n(L, z, nc);
        return;
    }
}

/* [M J^T; J 0][x; z] = [f; r] by the Schur complement, in place on s->rhs */
static void solve_once(dyn_system *s)
{
    const struct dyn_schur *c = s->schur;
    int nq = s->nq, nc = s->nc;
    const double *minv = c->minv;
    double *x = s->rhs, *z = s->rhs + nq;
    /* w = J M^-1 f - r into z, then L L^T z = w */
    for (int r = 0; r < nc; r++) {
        const double *jr = c->jfact + 6 * r;
        int ca = c->row_ca[r], cb = c->row_cb[r];
        double w = -z[r];
        if (ca >= 0) {
            w += jr[0] * minv[ca] * x[ca];
            w += jr[1] * minv[ca + 1] * x[ca + 1];
            w += jr[2] * minv[ca + 2] * x[ca + 2];
        }
        if (cb >= 0) {
            w += jr[3] * minv[cb] * x[cb];
            w += jr[4] * minv[cb + 1] * x[cb + 1];
            w += jr[5] * minv[cb + 2] * x[cb + 2];
        }
        z[r] = w;
    }
    schur_lltsolve(c->chol, z, nc);
    /* x = M^-1 (f - J^T z) */
    for (int r = 0; r < nc; r++) {
        const double *jr = c->jfact + 6 * r;
        int ca = c->row_ca[r], cb = c->row_cb[r];
        double zr = z[r];
        if (ca >= 0) {
            x[ca] -= jr[0] * zr;
            x[ca + 1] -= jr[1] * zr;
            x[ca + 2] -= jr[2] * zr;
        }
        if (cb >= 0) {
            x[cb] -= jr[3] * zr;
            x[cb + 1] -= jr[4] * zr;
            x[cb + 2] -= jr[5] * zr;
        }
    }
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
