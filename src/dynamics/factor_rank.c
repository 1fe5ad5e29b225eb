/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * factor_rank.c: the rank-revealing fallback for rank-deficient constraints
 * (redundant joints, a singular position), used when the Schur or KLU
 * factorisation finds the saddle matrix singular (docs/kernel.md).
 *
 * S = Phi_q M^-1 Phi_q^T is formed densely and factored by a pivoted Cholesky,
 * S = P L L^T P^T with L (nc x rank) lower trapezoidal: the pivot is the row
 * whose remaining diagonal is the largest fraction of its diagonal in S (the
 * row farthest, in the metric M^-1, from the span of the rows already taken),
 * and the elimination stops when that fraction is DYN_RANK_TOL or less (the
 * rows left depend on the others). For [M J^T; J 0][x; z] = [f; r]:
 * w = P^T (J M^-1 f - r), y = L1^-1 w (L1 the rank x rank top of L), and of all
 * the multipliers with S z = w the one of least Euclidean norm,
 *
 *   z = P L (L^T L)^-1 y,   x = M^-1 (f - J^T z),
 *
 * with G = L^T L factored by Cholesky; one step of iterative refinement on the
 * whole saddle system follows. The accelerations are the unique ones (the
 * dependent rows follow from the others); a right-hand side that contradicts
 * the dependent rows is checked afterwards (dyn_rank_consistent).
 */
#include "dynamics/dyn_internal.h"

#include <stdlib.h>
#include <string.h>

struct dyn_rank {
    /* S and its pivoted Cholesky factor in place (nc x nc row-major, columns
       0..rank-1), the Cholesky factor of G = L^T L (rank x rank), the diagonal of S
       before elimination, the permutation, scratch (w, y; gamma' and the size of its
       terms for the consistency check) */
    int rank;
    double min_ratio; /* the smallest fraction of its diagonal a kept pivot had */
    double *S, *G, *d0, *w;
    int *perm;
};

static void rank_release(dyn_system *s)
{
    struct dyn_rank *k = s->rank;
    if (!k)
        return;
    free(k->S);
    free(k->G);
    free(k->d0);
    free(k->w);
    free(k->perm);
    free(k);
    s->rank = NULL;
}

static clink_status rank_setup(dyn_system *s)
{
    size_t nc = (size_t) s->nc;
    if (s->rank)
        return CLINK_OK;
    struct dyn_rank *k = calloc(1, sizeof *k);
    s->rank = k;
    if (k) {
        k->S = malloc(nc * nc * sizeof(double));
        k->G = malloc(nc * nc * sizeof(double));
        k->d0 = malloc(nc * sizeof(double));
        k->w = malloc(4 * nc * sizeof(double));
        k->perm = malloc(nc * sizeof(int));
    }
    if (!k || !k->S || !k->G || !k->d0 || !k->w || !k->perm) {
        rank_release(s); /* the next call retries */
        dyn_set_msg(s, "rank-revealing factorisation: out of memory");
        return CLINK_ERR_NOMEM;
    }
    return CLINK_OK;
}

/* value of Phi_q at row r, coordinate c (0 when the row does not involve it) */
static double row_entry(const dyn_system *s, int r, int c)
{
    int k = dyn_row_slot(s, r, c);
    if (k < 0)
        return 0.0;
    return k < 3 ? s->jac[r].ja[k] : s->jac[r].jb[k - 3];
}

/* S = Phi_q M^-1 Phi_q^T, dense and full (both triangles) */
static void rank_form(const dyn_system *s, double *S)
{
    int nc = s->nc;
    for (int i = 0; i < nc; i++)
        for (int j = 0; j <= i; j++) {
            double sum = 0.0;
            for (int k = 0; k < 6; k++) {
                int body = k < 3 ? s->row_a[i] : s->row_b[i];
                if (body <= 0)
                    continue;
                int c = 3 * (body - 1) + k % 3;
                double ji = k < 3 ? s->jac[i].ja[k] : s->jac[i].jb[k - 3];
                sum += ji * row_entry(s, j, c) / s->mass[c];
            }
            S[(size_t) i * nc + j] = sum;
            S[(size_t) j * nc + i] = sum;
        }
}

/* swaps rows and columns a and b of the full symmetric n x n matrix A */
static void sym_swap(double *A, int n, int a, int b)
{
    if (a == b)
        return;
    for (int k = 0; k < n; k++) {
        double x = A[(size_t) a * n + k];
        A[(size_t) a * n + k] = A[(size_t) b * n + k];
        A[(size_t) b * n + k] = x;
    }
    for (int k = 0; k < n; k++) {
        double x = A[(size_t) k * n + a];
        A[(size_t) k * n + a] = A[(size_t) k * n + b];
        A[(size_t) k * n + b] = x;
    }
}

/* G = L^T L (rank x rank, L the first rank columns of S) and its Cholesky factor, in place
   in G (row-major lower); CLINK_ERR_SINGULAR if G is not positive definite */
static clink_status rank_gram(struct dyn_rank *f, int nc, int rank)
{
    const double *A = f->S;
    double *G = f->G;
    for (int a = 0; a < rank; a++)
        for (int b = 0; b <= a; b++) {
            double sum = 0.0;
            for (int i = a; i < nc; i++)
                sum += A[(size_t) i * nc + a] * A[(size_t) i * nc + b];
            G[(size_t) a * rank + b] = sum;
        }
    for (int j = 0; j < rank; j++) {
        double *Gj = G + (size_t) j * rank;
        double d = Gj[j];
        for (int k = 0; k < j; k++)
            d -= Gj[k] * Gj[k];
        if (!(d > 0.0) || !isfinite(d))
            return CLINK_ERR_SINGULAR;
        Gj[j] = sqrt(d);
        for (int i = j + 1; i < rank; i++) {
            double *Gi = G + (size_t) i * rank;
            double x = Gi[j];
            for (int k = 0; k < j; k++)
                x -= Gi[k] * Gj[k];
            Gi[j] = x / Gj[j];
        }
    }
    return CLINK_OK;
}

/* the pivoted Cholesky of S in place (formulas above); returns the rank */
static int rank_eliminate(struct dyn_rank *f, int nc)
{
    double *A = f->S, *d0 = f->d0;
    int *p = f->perm, rank = 0;
    for (int j = 0; j < nc; j++, rank++) {
        int best = -1;
        double ratio = -1.0;
        for (int i = j; i < nc; i++) {
            double r = d0[i] > 0.0 ? A[(size_t) i * nc + i] / d0[i] : 0.0;
            if (r > ratio) {
                ratio = r;
                best = i;
            }
        }
        if (!(ratio > DYN_RANK_TOL))
            break;
        f->min_ratio = j == 0 ? ratio : fmin(f->min_ratio, ratio);
        sym_swap(A, nc, j, best);
        int ip = p[j];
        p[j] = p[best];
        p[best] = ip;
        double dd = d0[j];
        d0[j] = d0[best];
        d0[best] = dd;
        double piv = sqrt(A[(size_t) j * nc + j]);
        A[(size_t) j * nc + j] = piv;
        for (int i = j + 1; i < nc; i++)
            A[(size_t) i * nc + j] /= piv;
        for (int i = j + 1; i < nc; i++) {
            double lij = A[(size_t) i * nc + j];
            for (int k = j + 1; k < nc; k++)
                A[(size_t) i * nc + k] -= lij * A[(size_t) k * nc + j];
        }
    }
    return rank;
}

/*
 * Pivoted Cholesky of S (rank-revealing) and the Cholesky factor of G = L^T L
 * (rank x rank, positive definite) for the minimum-norm multipliers.
 * CLINK_ERR_SINGULAR above DYN_RANKDEF_MAX_ROWS rows or at rank 0.
 */
static clink_status rank_factor(dyn_system *s)
{
    int nc = s->nc;
    if (nc > DYN_RANKDEF_MAX_ROWS)
        return CLINK_ERR_SINGULAR;
    clink_status st = rank_setup(s);
    if (st != CLINK_OK)
        return st;
    struct dyn_rank *f = s->rank;
    rank_form(s, f->S);
    for (int i = 0; i < nc; i++) {
        f->perm[i] = i;
        f->d0[i] = f->S[(size_t) i * nc + i];
    }
    s->stats.rankdef++;
    int rank = rank_eliminate(f, nc);
    if (rank == 0)
        return CLINK_ERR_SINGULAR;
    if (rank_gram(f, nc, rank) != CLINK_OK)
        return CLINK_ERR_SINGULAR;
    f->rank = rank;
    if (rank < nc) {
        s->stats.deficient++;
        if (nc - rank > s->stats.max_deficiency)
            s->stats.max_deficiency = nc - rank;
    }
    return CLINK_OK;
}

int dyn_rank_deficient(const dyn_system *s)
{
    return s->rank->rank < s->nc;
}

/* w = J M^-1 f - r for the solve (f, r in rhs) */
static void rank_residual_rhs(const dyn_system *s, const double *rhs, double *w)
{
    int nq = s->nq;
    const double *x = rhs, *z = rhs + nq;
    for (int r = 0; r < s->nc; r++) {
        double sum = -z[r];
        for (int k = 0; k < 6; k++) {
            int body = k < 3 ? s->row_a[r] : s->row_b[r];
            if (body <= 0)
                continue;
            int c = 3 * (body - 1) + k % 3;
            sum += (k < 3 ? s->jac[r].ja[k] : s->jac[r].jb[k - 3]) * x[c] / s->mass[c];
        }
        w[r] = sum;
    }
}

/* y = G^-1 L1^-1 w_p (the triangular solves of the basic solution and of G = C C^T) */
static void rank_triangular(const struct dyn_rank *f, int nc, const double *w, double *y)
{
    int rank = f->rank;
    const double *L = f->S, *G = f->G;
    const int *p = f->perm;
    /* y = L1^-1 w_p */
    for (int j = 0; j < rank; j++) {
        double sum = w[p[j]];
        for (int k = 0; k < j; k++)
            sum -= L[(size_t) j * nc + k] * y[k];
        y[j] = sum / L[(size_t) j * nc + j];
    }
    /* y := G^-1 y (C C^T) */
    for (int j = 0; j < rank; j++) {
        double sum = y[j];
        for (int k = 0; k < j; k++)
            sum -= G[(size_t) j * rank + k] * y[k];
        y[j] = sum / G[(size_t) j * rank + j];
    }
    for (int j = rank - 1; j >= 0; j--) {
        double sum = y[j];
        for (int k = j + 1; k < rank; k++)
            sum -= G[(size_t) k * rank + j] * y[k];
        y[j] = sum / G[(size_t) j * rank + j];
    }
}

/*
 * [M J^T; J 0][x; z] = [f; r] with the rank-revealing factorisation, in place
 * on rhs (formulas at the top). When w is not in the range of S (a right-hand
 * side the dependent rows contradict) the rows beyond the rank are not
 * satisfied; dyn_accelerations checks that residual.
 */
static void solve_once(dyn_system *s, double *rhs)
{
    const struct dyn_rank *f = s->rank;
    int nq = s->nq, nc = s->nc, rank = f->rank;
    const double *L = f->S;
    const int *p = f->perm;
    double *w = f->w, *y = f->w + nc, *x = rhs, *z = rhs + nq;
    rank_residual_rhs(s, rhs, w);
    rank_triangular(f, nc, w, y);
    /* z_p = L y, z = P z_p */
    for (int i = 0; i < nc; i++) {
        double sum = 0.0;
        int kmax = i < rank ? i + 1 : rank;
        for (int k = 0; k < kmax; k++)
            sum += L[(size_t) i * nc + k] * y[k];
        z[p[i]] = sum;
    }
    for (int r = 0; r < nc; r++)
        for (int k = 0; k < 6; k++) {
            int body = k < 3 ? s->row_a[r] : s->row_b[r];
            if (body > 0)
                x[3 * (body - 1) + k % 3] -= (k < 3 ? s->jac[r].ja[k] : s->jac[r].jb[k - 3]) * z[r];
        }
    for (int c = 0; c < nq; c++)
        x[c] /= s->mass[c];
}

/* the rank-revealing solve with one step of iterative refinement (the residual of the whole
   saddle system solved with the same factorisation and added) */
static clink_status rank_solve(dyn_system *s)
{
    int nq = s->nq, nc = s->nc, n = s->n;
    double *b = s->work, *x = s->rhs;
    memcpy(b, x, (size_t) n * sizeof(double));
    solve_once(s, x);
    for (int c = 0; c < nq; c++)
        b[c] -= s->mass[c] * x[c];
    for (int r = 0; r < nc; r++)
        for (int k = 0; k < 6; k++) {
            int body = k < 3 ? s->row_a[r] : s->row_b[r];
            if (body <= 0)
                continue;
            int c = 3 * (body - 1) + k % 3;
            double j = k < 3 ? s->jac[r].ja[k] : s->jac[r].jb[k - 3];
            b[c] -= j * x[nq + r];
            b[nq + r] -= j * x[c];
        }
    solve_once(s, b);
    for (int i = 0; i < n; i++)
        x[i] += b[i];
    return CLINK_OK;
}

/*
 * Before a rank-revealing solve of the accelerations: keeps gamma' (w[2 nc..3 nc))
 * and the size of the terms of each row of the right-hand side J M^-1 g - gamma'
 * (w[3 nc..)) for dyn_rank_consistent.
 */
void dyn_rank_keep_rhs(dyn_system *s)
{
    int nq = s->nq, nc = s->nc;
    double *g = s->rank->w + 2 * nc, *mag = s->rank->w + 3 * nc;
    for (int r = 0; r < nc; r++) {
        g[r] = s->rhs[nq + r];
        mag[r] = fabs(g[r]);
        for (int k = 0; k < 6; k++) {
            int body = k < 3 ? s->row_a[r] : s->row_b[r];
            if (body <= 0)
                continue;
            int c = 3 * (body - 1) + k % 3;
            mag[r] +=
                fabs((k < 3 ? s->jac[r].ja[k] : s->jac[r].jb[k - 3]) * s->rhs[c] / s->mass[c]);
        }
    }
}

/*
 * After the solve: do the accelerations satisfy every row, the dependent ones
 * included? Redundant constraints and a mechanism passing through a singular
 * position give a consistent right-hand side (the dependent rows follow from
 * the others, to rounding); a driver that demands a motion the mechanism cannot
 * make at a toggle position does not. 0 (and the message of the singular
 * position) when max |Phi_q qdd - gamma'| exceeds DYN_CONSISTENT_TOL times the
 * size of the terms.
 */
int dyn_rank_consistent(dyn_system *s, double t)
{
    int nc = s->nc;
    const double *x = s->rhs, *g = s->rank->w + 2 * nc, *mag0 = s->rank->w + 3 * nc;
    double worst = 0.0, scale = 0.0;
    for (int r = 0; r < nc; r++) {
        double y = 0.0, mag = mag0[r];
        for (int k = 0; k < 6; k++) {
            int body = k < 3 ? s->row_a[r] : s->row_b[r];
            if (body <= 0)
                continue;
            double term =
                (k < 3 ? s->jac[r].ja[k] : s->jac[r].jb[k - 3]) * x[3 * (body - 1) + k % 3];
            y += term;
            mag += fabs(term);
        }
        worst = fmax(worst, fabs(y - g[r]));
        scale = fmax(scale, mag);
    }
    if (worst <= DYN_CONSISTENT_TOL * scale)
        return 1;
    dyn_explain_singular(s, t);
    return 0;
}

/* the smallest fraction of its diagonal in S a kept pivot had (1 for well separated rows) */
static double rank_pivot_ratio(const dyn_system *s)
{
    return s->rank->min_ratio;
}

const dyn_factor_ops dyn_rank_ops = {
    .setup = rank_setup,
    .factor = rank_factor,
    .solve = rank_solve,
    .release = rank_release,
    .pivot_ratio = rank_pivot_ratio,
};
