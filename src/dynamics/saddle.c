/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * saddle.c: the index-1 equations of motion (dynamics.h) assembled in
 * compressed-column form and solved with KLU; the projections onto the
 * constraint manifold use the same matrix.
 *
 * Column c < nq of the saddle matrix holds M_cc (row c) and the Jacobian
 * entries dPhi_r/dq_c (rows nq + r); column nq + r holds the entries of row r of
 * Phi_q transposed (rows = coordinates of the row's two bodies). The pattern
 * depends only on which bodies each constraint row connects, so klu_analyze
 * runs once; each evaluation writes the values through two index maps. A model
 * without constraints (free bodies: a granular chain) skips KLU: the matrix is
 * the diagonal M, and qdd = M^-1 g (5% of a 700-bead chain's time).
 *
 * Small systems (at most DYN_SCHUR_MAX_ROWS constraint rows) skip KLU too: M is
 * diagonal, so the saddle system reduces to the m x m Schur complement
 * S = Phi_q M^-1 Phi_q^T (symmetric positive definite for independent rows),
 * formed from the row pairs that share a coordinate and factored by dense
 * Cholesky. For [M J^T; J 0][x; z] = [f; r]: S z = J M^-1 f - r, then
 * x = M^-1 (f - J^T z). A pivot d_k <= DYN_SINGULAR_RCOND S_kk (row k within
 * 1e-13 of the span of the rows before it, squared sine of the angle in the
 * metric M^-1) is a singular matrix, named as for KLU.
 *
 * Either factorisation is kept with the (t, q) it was formed at: the Jacobian
 * depends on q only (on t too should a constraint ever need it), so the last
 * Newton iteration of dyn_project, its velocity projection, dyn_project_error,
 * dyn_impulse_response, and dyn_accelerations at the same state (the velocity
 * columns of the finite-difference Jacobian, the output point) solve with one
 * factorisation.
 */
#include "dynamics/dynamics.h"

#include <klu.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dyn_system {
    const clink_model *m;
    int nq, nc, n, nnz;
    int *row_a, *row_b; /* bodies of each constraint row */
    int *Ap, *Ai;
    double *Ax;
    int *map_lo, *map_up; /* per row r, 6 slots (body a x,y,phi, body b x,y,phi): index or -1 */
    double *mass;         /* diagonal of M, nq */
    kin_row *jac;
    double *phi, *nu, *gamma, *rhs, *work;
    klu_symbolic *sym;
    klu_numeric *num;
    klu_common common;
    double alpha, beta;
    dyn_external_fn ext;
    dyn_external_jac_fn ext_jac;
    void *ext_data;
    /* analytic Jacobian (dyn_jacobian), allocated at its first call */
    joint_hessian *jx_hess;
    kin_row *jx_gq;
    double *jx_qdd, *jx_mu, *jx_gdq, *jx_gdv, *jx_g0, *jx_g1, *jx_x;
    long nfactor, nrefactor;
    /* Schur-complement path (schur_init): coordinate of each row slot, the
       products that form S (packed lower index, slots of the two rows), the
       Cholesky factor L (nc x nc, row-major lower), the Jacobian values it was
       formed from (6 per row) and M^-1 */
    int schur;
    int *slot_coord;
    int *nz_start, *nz_coord, *nz_slot; /* per row: its slots on moving bodies */
    int nterm;
    int *term_ij, *term_ki, *term_kj;
    double *chol, *jfact, *minv, *sdiag, *resid;
    double pivot_ratio; /* smallest d_k / S_kk of the current factorisation */
    long nschur, nreuse, nrefine;
    /* the state the current factorisation belongs to */
    int have_fact;
    double key_t;
    double *key_q;
    /* rank-revealing fallback (factor_rankdef): S = Phi_q M^-1 Phi_q^T dense, its pivoted
       Cholesky factor (nc x nc row-major, columns 0..rd_rank-1), the permutation, the
       diagonal of S before elimination, the Cholesky factor of G = L^T L, scratch */
    int rd_on;     /* the current factorisation is the rank-revealing one */
    int rd_sticky; /* the last one found a deficiency: factor the next one this way at once */
    int rd_forced; /* always this way (DYN_SOLVER_RANK, for tests and measurements) */
    int rd_rank;
    double *rd_S, *rd_G, *rd_d0, *rd_w;
    int *rd_perm;
    long nrankdef;      /* rank-revealing factorisations */
    long nrankdef_def;  /* ... that found dependent rows */
    int rd_max_def;     /* the largest deficiency found */
    double t_last;      /* time of the last evaluation (for messages) */
    double power_loads; /* power of the non-conservative loads at the last evaluation, W */
    char msg[512];
};

static void set_msg(dyn_system *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
}

const char *dyn_error(const dyn_system *sys)
{
    return sys->msg;
}

void dyn_set_external(dyn_system *sys, dyn_external_fn fn, void *data)
{
    sys->ext = fn;
    sys->ext_data = data;
}

void dyn_set_external_jacobian(dyn_system *sys, dyn_external_jac_fn fn)
{
    sys->ext_jac = fn;
}

void dyn_set_baumgarte(dyn_system *sys, double alpha, double beta)
{
    sys->alpha = alpha;
    sys->beta = beta;
}

double dyn_last_power_loads(const dyn_system *sys)
{
    return sys->power_loads;
}

void dyn_counts(const dyn_system *sys, long *nfactor, long *nrefactor)
{
    *nfactor = sys->nfactor;
    *nrefactor = sys->nrefactor + sys->nschur;
}

void dyn_factor_counts(const dyn_system *sys, dyn_factor_stats *st)
{
    st->klu_factor = sys->nfactor;
    st->klu_refactor = sys->nrefactor;
    st->schur = sys->nschur;
    st->reused = sys->nreuse;
    st->refined = sys->nrefine;
    st->rankdef = sys->nrankdef;
    st->deficient = sys->nrankdef_def;
    st->max_deficiency = sys->rd_max_def;
}

int dyn_uses_schur(const dyn_system *sys)
{
    return sys->schur;
}

void dyn_destroy(dyn_system **sys)
{
    if (!sys || !*sys)
        return;
    dyn_system *s = *sys;
    if (s->num)
        klu_free_numeric(&s->num, &s->common);
    if (s->sym)
        klu_free_symbolic(&s->sym, &s->common);
    free(s->row_a);
    free(s->row_b);
    free(s->Ap);
    free(s->Ai);
    free(s->Ax);
    free(s->map_lo);
    free(s->map_up);
    free(s->mass);
    free(s->jac);
    free(s->phi);
    free(s->nu);
    free(s->gamma);
    free(s->rhs);
    free(s->work);
    free(s->slot_coord);
    free(s->nz_start);
    free(s->nz_coord);
    free(s->nz_slot);
    free(s->term_ij);
    free(s->term_ki);
    free(s->term_kj);
    free(s->chol);
    free(s->jfact);
    free(s->minv);
    free(s->sdiag);
    free(s->resid);
    free(s->key_q);
    free(s->rd_S);
    free(s->rd_G);
    free(s->rd_d0);
    free(s->rd_w);
    free(s->rd_perm);
    free(s->jx_hess);
    free(s->jx_gq);
    free(s->jx_qdd);
    free(s->jx_mu);
    free(s->jx_gdq);
    free(s->jx_gdv);
    free(s->jx_g0);
    free(s->jx_g1);
    free(s->jx_x);
    free(s);
    *sys = NULL;
}

/* does row r touch coordinate c? slot 0..5 or -1 */
static int row_slot(const dyn_system *s, int r, int c)
{
    int body = c / 3 + 1, k = c % 3;
    if (s->row_a[r] == body)
        return k;
    if (s->row_b[r] == body)
        return 3 + k;
    return -1;
}

/* the arrays sized by the coordinates and the constraint rows; 0, or -1 if out of memory */
static int dyn_alloc(dyn_system *s)
{
    int nq = s->nq, nc = s->nc, n = s->n;
    size_t nr = (size_t) (nc > 0 ? nc : 1);
    s->row_a = calloc(nr, sizeof(int));
    s->row_b = calloc(nr, sizeof(int));
    s->Ap = calloc((size_t) n + 1, sizeof(int));
    s->map_lo = malloc(6 * nr * sizeof(int));
    s->map_up = malloc(6 * nr * sizeof(int));
    s->mass = calloc((size_t) nq, sizeof(double));
    s->jac = calloc(nr, sizeof(kin_row));
    s->phi = calloc(nr, sizeof(double));
    s->nu = calloc(nr, sizeof(double));
    s->gamma = calloc(nr, sizeof(double));
    s->rhs = calloc((size_t) n, sizeof(double));
    s->work = calloc((size_t) n, sizeof(double));
    s->key_q = calloc((size_t) (nq > 0 ? nq : 1), sizeof(double));
    if (!s->row_a || !s->row_b || !s->Ap || !s->map_lo || !s->map_up || !s->mass || !s->jac ||
        !s->phi || !s->nu || !s->gamma || !s->rhs || !s->work || !s->key_q)
        return -1;
    return 0;
}

/*
 * The sparsity pattern of the saddle-point matrix (CSC) and the maps from a row's
 * Jacobian slots to its entries below and above the mass block; 0, or -1 if out
 * of memory.
 */
static int dyn_pattern(dyn_system *s)
{
    int nq = s->nq, nc = s->nc, n = s->n;
    size_t nr = (size_t) (nc > 0 ? nc : 1);
    /* count entries */
    int nnz = nq;
    for (int r = 0; r < nc; r++)
        nnz += 2 * ((s->row_a[r] > 0 ? 3 : 0) + (s->row_b[r] > 0 ? 3 : 0));
    s->nnz = nnz;
    s->Ai = malloc((size_t) nnz * sizeof(int));
    s->Ax = calloc((size_t) nnz, sizeof(double));
    if (!s->Ai || !s->Ax)
        return -1;
    for (size_t i = 0; i < 6 * nr; i++)
        s->map_lo[i] = s->map_up[i] = -1;
    /* columns of coordinates: the mass entry, then the Jacobian rows in order */
    int p = 0;
    for (int c = 0; c < nq; c++) {
        s->Ap[c] = p;
        s->Ai[p++] = c;
        for (int r = 0; r < nc; r++) {
            int slot = row_slot(s, r, c);
            if (slot >= 0) {
                s->map_lo[6 * r + slot] = p;
                s->Ai[p++] = nq + r;
            }
        }
    }
    /* columns of multipliers: the coordinates of the row's bodies, ascending */
    for (int r = 0; r < nc; r++) {
        s->Ap[nq + r] = p;
        for (int c = 0; c < nq; c++) {
            int slot = row_slot(s, r, c);
            if (slot >= 0) {
                s->map_up[6 * r + slot] = p;
                s->Ai[p++] = c;
            }
        }
    }
    s->Ap[n] = p;
    return 0;
}

dyn_system *dyn_create(const clink_model *m)
{
    dyn_system *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->m = m;
    s->nq = m->ncoords;
    s->nc = m->nconstraints;
    s->n = s->nq + s->nc;
    if (dyn_alloc(s) != 0) {
        dyn_destroy(&s);
        return NULL;
    }
    kin_row_bodies(m, s->row_a, s->row_b);
    for (int i = 1; i < m->d.nbodies; i++) {
        s->mass[3 * (i - 1)] = m->d.bodies[i].def.mass;
        s->mass[3 * (i - 1) + 1] = m->d.bodies[i].def.mass;
        s->mass[3 * (i - 1) + 2] = m->d.bodies[i].def.inertia;
    }
    if (dyn_pattern(s) != 0) {
        dyn_destroy(&s);
        return NULL;
    }
    if (klu_defaults(&s->common) != 1) {
        dyn_destroy(&s);
        return NULL;
    }
    s->sym = klu_analyze(s->n, s->Ap, s->Ai, &s->common);
    if (!s->sym) {
        set_msg(s, "KLU symbolic analysis failed (status %d)", s->common.status);
        /* leave the system usable for messages: the caller checks dyn_ready via accelerations */
    }
    if (s->nc > 0 && s->nc <= DYN_SCHUR_MAX_ROWS &&
        dyn_set_solver(s, DYN_SOLVER_SCHUR) != CLINK_OK) {
        dyn_destroy(&s);
        return NULL;
    }
    return s;
}

/* the Schur-complement structures: slot coordinates and the products forming S */
static clink_status schur_init(dyn_system *s)
{
    int nq = s->nq, nc = s->nc;
    size_t nr = (size_t) nc;
    if (s->slot_coord)
        return CLINK_OK;
    s->slot_coord = malloc(6 * nr * sizeof(int));
    s->chol = calloc(nr * nr, sizeof(double));
    s->jfact = calloc(6 * nr, sizeof(double));
    s->minv = calloc((size_t) nq, sizeof(double));
    s->sdiag = calloc(nr, sizeof(double));
    s->resid = calloc((size_t) s->n, sizeof(double));
    if (!s->slot_coord || !s->chol || !s->jfact || !s->minv || !s->sdiag || !s->resid)
        return CLINK_ERR_NOMEM;
    for (int c = 0; c < nq; c++)
        s->minv[c] = 1.0 / s->mass[c];
    s->nz_start = malloc((nr + 1) * sizeof(int));
    s->nz_coord = malloc(6 * nr * sizeof(int));
    s->nz_slot = malloc(6 * nr * sizeof(int));
    if (!s->nz_start || !s->nz_coord || !s->nz_slot)
        return CLINK_ERR_NOMEM;
    int nz = 0;
    for (int r = 0; r < nc; r++) {
        s->nz_start[r] = nz;
        for (int slot = 0; slot < 6; slot++) {
            int body = slot < 3 ? s->row_a[r] : s->row_b[r];
            s->slot_coord[6 * r + slot] = body > 0 ? 3 * (body - 1) + slot % 3 : -1;
            if (body > 0) {
                s->nz_coord[nz] = 3 * (body - 1) + slot % 3;
                s->nz_slot[nz++] = 6 * r + slot;
            }
        }
    }
    s->nz_start[nc] = nz;
    /* two passes: count the products, then record them */
    for (int pass = 0; pass < 2; pass++) {
        int k = 0;
        for (int i = 0; i < nc; i++)
            for (int j = 0; j <= i; j++)
                for (int si = 0; si < 6; si++) {
                    int c = s->slot_coord[6 * i + si];
                    if (c < 0)
                        continue;
                    for (int sj = 0; sj < 6; sj++) {
                        if (s->slot_coord[6 * j + sj] != c)
                            continue;
                        if (pass == 1) {
                            s->term_ij[k] = i * nc + j;
                            s->term_ki[k] = 6 * i + si;
                            s->term_kj[k] = 6 * j + sj;
                        }
                        k++;
                    }
                }
        if (pass == 0) {
            s->nterm = k;
            size_t nt = (size_t) (k > 0 ? k : 1);
            s->term_ij = malloc(nt * sizeof(int));
            s->term_ki = malloc(nt * sizeof(int));
            s->term_kj = malloc(nt * sizeof(int));
            if (!s->term_ij || !s->term_ki || !s->term_kj)
                return CLINK_ERR_NOMEM;
        }
    }
    return CLINK_OK;
}

clink_status dyn_set_solver(dyn_system *s, dyn_solver solver)
{
    s->have_fact = 0;
    s->rd_forced = solver == DYN_SOLVER_RANK && s->nc > 0;
    s->rd_sticky = s->rd_forced;
    if (solver == DYN_SOLVER_KLU || solver == DYN_SOLVER_RANK || s->nc == 0) {
        s->schur = 0;
        return CLINK_OK;
    }
    if (solver == DYN_SOLVER_AUTO && s->nc > DYN_SCHUR_MAX_ROWS) {
        s->schur = 0;
        return CLINK_OK;
    }
    clink_status st = schur_init(s);
    if (st != CLINK_OK) {
        set_msg(s, "Schur complement: out of memory");
        return st;
    }
    s->schur = 1;
    return CLINK_OK;
}

/* writes M and the current Jacobian into Ax (diagonal scaled by mscale: 1 for the dynamics) */
static void fill_matrix(dyn_system *s)
{
    for (int c = 0; c < s->nq; c++)
        s->Ax[s->Ap[c]] = s->mass[c];
    for (int r = 0; r < s->nc; r++) {
        const double *vals[2] = {s->jac[r].ja, s->jac[r].jb};
        for (int slot = 0; slot < 6; slot++) {
            if (s->map_lo[6 * r + slot] < 0)
                continue;
            double v = vals[slot / 3][slot % 3];
            s->Ax[s->map_lo[6 * r + slot]] = v;
            s->Ax[s->map_up[6 * r + slot]] = v;
        }
    }
}

/* "joint 3 'B' equation 1" or "driver 0 'motor'": the owner of constraint row r */
static void row_name(const dyn_system *s, int r, char *buf, size_t size)
{
    int owner = kin_row_owner(s->m, r);
    if (owner >= 0)
        snprintf(buf, size, "joint %d '%s' equation %d", owner, s->m->d.joints[owner].name,
                 r - s->m->joint_row[owner]);
    else
        snprintf(buf, size, "driver %d '%s'", -1 - owner, s->m->d.drivers[-1 - owner].name);
}

/*
 * Gram-Schmidt on the rows of Phi_q in s->jac: lists in list the rows that depend
 * on the rows before them (within 1e-9 of their span, relative) and returns how
 * many; *weak and *sine receive the independent row closest to the span of the
 * rows before it and the sine of its angle to that span (-1 and 1 if none, or if
 * the rows do not fit in memory).
 */
static int row_dependence(const dyn_system *s, char *list, size_t list_size, int *weak,
                          double *sine)
{
    int nq = s->nq, nc = s->nc;
    double *basis = calloc((size_t) nc * (size_t) nq + 1, sizeof(double));
    size_t used = 0;
    int ndep = 0;
    *weak = -1;
    *sine = 1.0;
    if (list_size > 0)
        list[0] = '\0';
    if (!basis)
        return 0;
    for (int r = 0; r < nc; r++) {
        double *row = basis + (size_t) r * nq;
        for (int slot = 0; slot < 6; slot++) {
            int body = slot < 3 ? s->row_a[r] : s->row_b[r];
            if (body > 0)
                row[3 * (body - 1) + slot % 3] =
                    slot < 3 ? s->jac[r].ja[slot % 3] : s->jac[r].jb[slot % 3];
        }
        double norm0 = 0.0;
        for (int c = 0; c < nq; c++)
            norm0 += row[c] * row[c];
        norm0 = sqrt(norm0);
        for (int k = 0; k < r; k++) {
            const double *bk = basis + (size_t) k * nq;
            double dot = 0.0;
            for (int c = 0; c < nq; c++)
                dot += bk[c] * row[c];
            for (int c = 0; c < nq; c++)
                row[c] -= dot * bk[c];
        }
        double norm = 0.0;
        for (int c = 0; c < nq; c++)
            norm += row[c] * row[c];
        norm = sqrt(norm);
        if (norm <= 1e-9 * (norm0 > 0.0 ? norm0 : 1.0)) {
            for (int c = 0; c < nq; c++)
                row[c] = 0.0;
            char one[200];
            size_t len = 0;
            if (ndep && list_size > 2) {
                snprintf(one, sizeof one, ", ");
                len = 2;
            }
            row_name(s, r, one + len, sizeof one - len);
            if (used + strlen(one) + 1 < list_size) {
                strcat(list, one);
                used += strlen(one);
            }
            ndep++;
        } else {
            if (r > 0 && norm0 > 0.0 && norm / norm0 < *sine) {
                *sine = norm / norm0;
                *weak = r;
            }
            for (int c = 0; c < nq; c++)
                row[c] /= norm;
        }
    }
    free(basis);
    return ndep;
}

/*
 * Names the constraint rows that depend on earlier ones: structurally redundant
 * constraints, or a singular position (a toggle or dead-centre position, where
 * the rows are independent elsewhere but lose rank here)
 */
static void explain_singular(dyn_system *s, double t)
{
    char list[320], weak_name[200];
    int weak;
    double sine;
    int ndep = row_dependence(s, list, sizeof list, &weak, &sine);
    double ratio = s->schur ? s->pivot_ratio : s->common.rcond;
    if (ndep > 0) {
        set_msg(s,
                "redundant or singular constraints at t = %.9g s: %s depends on the "
                "constraints before it",
                t, list);
    } else if (weak >= 0) {
        row_name(s, weak, weak_name, sizeof weak_name);
        set_msg(s,
                "singular position at t = %.9g s (a toggle or dead-centre position: the "
                "constraints lose rank here): %s is within an angle of %.2g rad of the "
                "constraints before it (reciprocal pivot ratio %.3g)",
                t, weak_name, asin(fmin(sine, 1.0)), ratio);
    } else {
        set_msg(s, "singular saddle-point matrix at t = %.9g s (reciprocal pivot ratio %.3g)", t,
                ratio);
    }
}

/* factors the current matrix with KLU; 0 on success */
static clink_status factor_klu(dyn_system *s)
{
    if (!s->sym) {
        set_msg(s, "KLU symbolic analysis failed");
        return CLINK_ERR_LINSOLVE;
    }
    int need_full = (s->num == NULL);
    if (!need_full) {
        int ok = klu_refactor(s->Ap, s->Ai, s->Ax, s->sym, s->num, &s->common);
        s->nrefactor++;
        if (!ok || s->common.status != KLU_OK || !klu_rcond(s->sym, s->num, &s->common) ||
            !(s->common.rcond >= DYN_REFACTOR_RCOND))
            need_full = 1;
    }
    if (need_full) {
        if (s->num)
            klu_free_numeric(&s->num, &s->common);
        s->num = klu_factor(s->Ap, s->Ai, s->Ax, s->sym, &s->common);
        s->nfactor++;
        if (!s->num || s->common.status != KLU_OK || !klu_rcond(s->sym, s->num, &s->common) ||
            !(s->common.rcond >= DYN_SINGULAR_RCOND)) {
            if (s->num)
                klu_free_numeric(&s->num, &s->common);
            if (s->common.status == KLU_OUT_OF_MEMORY) {
                set_msg(s, "KLU: out of memory");
                return CLINK_ERR_NOMEM;
            }
            return CLINK_ERR_SINGULAR; /* factor() tries the rank-revealing fallback */
        }
    }
    return CLINK_OK;
}

/* forms S = J M^-1 J^T from the Jacobian in s->jac and factors it (Cholesky); 0 on success */
static clink_status factor_schur(dyn_system *s)
{
    int nc = s->nc;
    double *L = s->chol, *jf = s->jfact;
    for (int r = 0; r < nc; r++)
        for (int k = 0; k < 3; k++) {
            jf[6 * r + k] = s->jac[r].ja[k];
            jf[6 * r + 3 + k] = s->jac[r].jb[k];
        }
    memset(L, 0, (size_t) nc * (size_t) nc * sizeof(double));
    for (int k = 0; k < s->nterm; k++) {
        int ki = s->term_ki[k];
        L[s->term_ij[k]] += jf[ki] * jf[s->term_kj[k]] * s->minv[s->slot_coord[ki]];
    }
    s->nschur++;
    s->pivot_ratio = 1.0;
    for (int j = 0; j < nc; j++) {
        double *Lj = L + (size_t) j * nc;
        double d = Lj[j];
        s->sdiag[j] = d;
        for (int k = 0; k < j; k++)
            d -= Lj[k] * Lj[k];
        if (!(d > DYN_SINGULAR_RCOND * s->sdiag[j]) || !isfinite(d)) {
            s->pivot_ratio = d / s->sdiag[j];
            return CLINK_ERR_SINGULAR; /* factor() tries the rank-revealing fallback */
        }
        s->pivot_ratio = fmin(s->pivot_ratio, d / s->sdiag[j]);
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

/* ---- rank-deficient constraints: the rank-revealing fallback ------------- */

static clink_status rankdef_alloc(dyn_system *s)
{
    size_t nc = (size_t) s->nc;
    if (s->rd_perm)
        return CLINK_OK;
    s->rd_S = malloc(nc * nc * sizeof(double));
    s->rd_G = malloc(nc * nc * sizeof(double));
    s->rd_d0 = malloc(nc * sizeof(double));
    s->rd_w = malloc(4 * nc * sizeof(double)); /* w, y; gamma' and its scale for the check */
    s->rd_perm = malloc(nc * sizeof(int));
    if (!s->rd_S || !s->rd_G || !s->rd_d0 || !s->rd_w || !s->rd_perm) {
        free(s->rd_perm);
        s->rd_perm = NULL; /* the next call retries; the others are freed by dyn_destroy */
        set_msg(s, "rank-revealing factorisation: out of memory");
        return CLINK_ERR_NOMEM;
    }
    return CLINK_OK;
}

/* value of Phi_q at row r, coordinate c (0 when the row does not involve it) */
static double row_entry(const dyn_system *s, int r, int c)
{
    int k = row_slot(s, r, c);
    if (k < 0)
        return 0.0;
    return k < 3 ? s->jac[r].ja[k] : s->jac[r].jb[k - 3];
}

/* S = Phi_q M^-1 Phi_q^T, dense and full (both triangles), into rd_S */
static void rankdef_form(dyn_system *s)
{
    int nc = s->nc;
    double *S = s->rd_S;
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

/* G = L^T L (rank x rank, L the first rank columns of rd_S) and its Cholesky factor, in place
   in rd_G (row-major lower); CLINK_ERR_SINGULAR if G is not positive definite */
static clink_status rankdef_gram(dyn_system *s, int rank)
{
    int nc = s->nc;
    const double *A = s->rd_S;
    double *G = s->rd_G;
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

/*
 * Pivoted Cholesky of S (rank-revealing): S = P L L^T P^T with L (nc x rank)
 * lower trapezoidal. The pivot is the row whose remaining diagonal is the
 * largest fraction of its diagonal in S (the row farthest, in the metric M^-1,
 * from the span of the rows already taken); the elimination stops when that
 * fraction is DYN_RANK_TOL or less: the rows left depend on the others. Then
 * G = L^T L (rank x rank, positive definite) is factored by Cholesky for the
 * minimum-norm multipliers (solve_rankdef).
 */
static clink_status factor_rankdef(dyn_system *s)
{
    int nc = s->nc;
    if (nc > DYN_RANKDEF_MAX_ROWS)
        return CLINK_ERR_SINGULAR;
    clink_status st = rankdef_alloc(s);
    if (st != CLINK_OK)
        return st;
    rankdef_form(s);
    double *A = s->rd_S, *d0 = s->rd_d0;
    int *p = s->rd_perm, rank = 0;
    for (int i = 0; i < nc; i++) {
        p[i] = i;
        d0[i] = A[(size_t) i * nc + i];
    }
    s->nrankdef++;
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
    if (rank == 0)
        return CLINK_ERR_SINGULAR;
    if (rankdef_gram(s, rank) != CLINK_OK)
        return CLINK_ERR_SINGULAR;
    s->rd_rank = rank;
    s->rd_on = 1;
    s->rd_sticky = rank < nc || s->rd_forced;
    if (rank < nc) {
        s->nrankdef_def++;
        if (nc - rank > s->rd_max_def)
            s->rd_max_def = nc - rank;
    }
    return CLINK_OK;
}

/*
 * [M J^T; J 0][x; z] = [f; r] with the rank-revealing factorisation, in place
 * on rhs: w = J M^-1 f - r, permuted (w_p = P^T w); with L = [L1; L2] (L1 the
 * rank x rank top), y = L1^-1 w_p[0..rank), and the multipliers of least norm
 * among those with S z = w (the basic solution [L1^-T y; 0] projected onto the
 * range of S, which is that of L): z_p = L (L^T L)^-1 L^T [L1^-T y; 0] =
 * L G^-1 y; then x = M^-1 (f - J^T z). When w is not in the range of S (a
 * right-hand side the dependent rows contradict) the rows beyond the rank are
 * not satisfied; dyn_accelerations checks that residual.
 */
static void solve_rankdef_once(dyn_system *s, double *rhs)
{
    int nq = s->nq, nc = s->nc, rank = s->rd_rank;
    const double *L = s->rd_S, *G = s->rd_G;
    const int *p = s->rd_perm;
    double *w = s->rd_w, *y = s->rd_w + nc, *x = rhs, *z = rhs + nq;
    for (int r = 0; r < nc; r++) {
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
static void solve_rankdef(dyn_system *s)
{
    int nq = s->nq, nc = s->nc, n = s->n;
    double *b = s->work, *x = s->rhs;
    memcpy(b, x, (size_t) n * sizeof(double));
    solve_rankdef_once(s, x);
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
    solve_rankdef_once(s, b);
    for (int i = 0; i < n; i++)
        x[i] += b[i];
}

/*
 * Factors the saddle matrix at (t, q) with s->jac holding Phi_q(q), unless the
 * current factorisation was formed at the same (t, q).
 */
static clink_status factor(dyn_system *s, double t, const double *q)
{
    size_t qbytes = (size_t) s->nq * sizeof(double);
    if (s->have_fact && s->key_t == t && memcmp(s->key_q, q, qbytes) == 0) {
        s->nreuse++;
        return CLINK_OK;
    }
    s->have_fact = 0;
    s->rd_on = 0;
    clink_status st = CLINK_ERR_SINGULAR;
    if (!s->rd_sticky) {
        if (s->schur) {
            st = factor_schur(s);
        } else {
            fill_matrix(s);
            st = factor_klu(s);
        }
    }
    if (st == CLINK_ERR_SINGULAR) {
        st = factor_rankdef(s);
        if (st == CLINK_ERR_SINGULAR)
            explain_singular(s, t);
    }
    if (st != CLINK_OK)
        return st;
    s->have_fact = 1;
    s->key_t = t;
    memcpy(s->key_q, q, qbytes);
    return CLINK_OK;
}

static int finite_all(const double *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* [M J^T; J 0][x; z] = [f; r] by the Schur complement, in place on s->rhs */
static void solve_schur(dyn_system *s)
{
    int nq = s->nq, nc = s->nc;
    const double *L = s->chol, *jf = s->jfact, *minv = s->minv;
    const int *nzp = s->nz_start, *nzc = s->nz_coord, *nzk = s->nz_slot;
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
    for (int c = 0; c < nq; c++)
        x[c] *= minv[c];
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
static void solve_schur_refined(dyn_system *s)
{
    int nq = s->nq, nc = s->nc, n = s->n;
    const double *jf = s->jfact;
    const int *sc = s->slot_coord;
    double *b = s->resid, *x = s->rhs;
    int refine = s->pivot_ratio < DYN_SCHUR_REFINE;
    if (refine)
        memcpy(b, x, (size_t) n * sizeof(double));
    solve_schur(s);
    if (!refine)
        return;
    /* b := b - K x, solved in place, added to x */
    for (int c = 0; c < nq; c++)
        b[c] -= s->mass[c] * x[c];
    for (int r = 0; r < nc; r++)
        for (int k = 6 * r; k < 6 * r + 6; k++)
            if (sc[k] >= 0) {
                b[sc[k]] -= jf[k] * x[nq + r];
                b[nq + r] -= jf[k] * x[sc[k]];
            }
    double *x0 = s->rhs;
    s->rhs = b;
    solve_schur(s);
    s->rhs = x0;
    for (int i = 0; i < n; i++)
        x[i] += b[i];
    s->nrefine++;
}

/* solves the factored system in place on s->rhs */
static clink_status solve(dyn_system *s)
{
    if (s->rd_on)
        solve_rankdef(s);
    else if (s->schur)
        solve_schur_refined(s);
    else if (!klu_solve(s->sym, s->num, s->n, 1, s->rhs, &s->common)) {
        set_msg(s, "KLU solve failed (status %d)", s->common.status);
        return CLINK_ERR_LINSOLVE;
    }
    if (!finite_all(s->rhs, s->n)) {
        set_msg(s, "non-finite solution of the saddle-point system");
        return CLINK_ERR_NONFINITE;
    }
    return CLINK_OK;
}

/* ---- applied forces -------------------------------------------------------- */

/* adds force F (global) at body point s (arm A s) to g */
static void add_point_force(double *g, int body, const double arm[2], double fx, double fy)
{
    if (body <= 0)
        return;
    double *gi = g + 3 * (body - 1);
    gi[0] += fx;
    gi[1] += fy;
    gi[2] += arm[0] * fy - arm[1] * fx;
}

/* velocity of a body point with arm A s */
static void point_velocity(const kin_pose *p, const double arm[2], double vel[2])
{
    vel[0] = p->vx - p->w * arm[1];
    vel[1] = p->vy + p->w * arm[0];
}

int dyn_applied_forces(dyn_system *sys, double t, const double *q, const double *v, double *g,
                       double *power_loads)
{
    const model_data *d = &sys->m->d;
    double power = 0.0;
    for (int c = 0; c < sys->nq; c++)
        g[c] = 0.0;
    for (int i = 1; i < d->nbodies; i++) {
        g[3 * (i - 1)] += d->bodies[i].def.mass * d->gravity[0];
        g[3 * (i - 1) + 1] += d->bodies[i].def.mass * d->gravity[1];
    }
    for (int k = 0; k < d->nforces; k++) {
        const clink_force_def *f = &d->forces[k].def;
        kin_pose a, b;
        double arma[2], armb[2], ra[2], rb[2], va[2], vb[2];
        kin_pose_of(q, v, f->body_a, &a);
        kin_pose_of(q, v, f->body_b, &b);
        kin_point(&a, f->point_a, arma, ra);
        kin_point(&b, f->point_b, armb, rb);
        point_velocity(&a, arma, va);
        point_velocity(&b, armb, vb);
        switch (f->type) {
        case CLINK_FORCE_POINT:
            add_point_force(g, f->body_a, arma, f->fx, f->fy);
            power += f->fx * va[0] + f->fy * va[1];
            break;
        case CLINK_FORCE_TORQUE:
            g[3 * (f->body_a - 1) + 2] += f->torque;
            power += f->torque * a.w;
            break;
        case CLINK_FORCE_SPRING_DAMPER: {
            double dx = rb[0] - ra[0], dy = rb[1] - ra[1], l = hypot(dx, dy);
            if (!(l > 1e-12)) {
                set_msg(sys, "spring-damper %d '%s': its points coincide at t = %.9g s", k,
                        d->forces[k].name, t);
                return 1;
            }
            double ux = dx / l, uy = dy / l;
            double ldot = ux * (vb[0] - va[0]) + uy * (vb[1] - va[1]);
            double tension = f->k * (l - f->free_length) + f->c * ldot + f->actuator;
            add_point_force(g, f->body_b, armb, -tension * ux, -tension * uy);
            add_point_force(g, f->body_a, arma, tension * ux, tension * uy);
            /* power of damper and actuator (the spring is in the potential energy) */
            power -= (f->c * ldot + f->actuator) * ldot;
            break;
        }
        case CLINK_FORCE_ROTATIONAL_SPRING_DAMPER: {
            double rel = b.phi - a.phi - f->free_length, relw = b.w - a.w;
            double tb = -f->k * rel - f->c * relw + f->actuator;
            if (f->body_b > 0)
                g[3 * (f->body_b - 1) + 2] += tb;
            if (f->body_a > 0)
                g[3 * (f->body_a - 1) + 2] -= tb;
            power += (-f->c * relw + f->actuator) * relw;
            break;
        }
        default:
            break;
        }
    }
    if (sys->ext) {
        int rc = sys->ext(sys->ext_data, t, q, v, g, &power);
        if (rc != 0)
            return rc;
    }
    if (power_loads)
        *power_loads = power;
    return finite_all(g, sys->nq) ? 0 : 1;
}

/* ---- accelerations -------------------------------------------------------- */

/*
 * After a rank-revealing solve of the accelerations (gamma' in rd_w[2 nc..3 nc), the
 * size of the terms of each row of the right-hand side J M^-1 g - gamma' in rd_w[3 nc..)):
 * do the accelerations satisfy every row, the dependent ones included? Redundant
 * constraints and a mechanism passing through a singular position give a
 * consistent right-hand side (the dependent rows follow from the others, to
 * rounding); a driver that demands a motion the mechanism cannot make at a
 * toggle position does not. 0 (and the message of the singular position) when
 * max |Phi_q qdd - gamma'| exceeds DYN_CONSISTENT_TOL times the size of the
 * terms.
 */
static void rankdef_keep_rhs(dyn_system *s)
{
    int nq = s->nq, nc = s->nc;
    double *g = s->rd_w + 2 * nc, *mag = s->rd_w + 3 * nc;
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

static int rankdef_consistent(dyn_system *s, double t)
{
    int nc = s->nc;
    const double *x = s->rhs, *g = s->rd_w + 2 * nc, *mag0 = s->rd_w + 3 * nc;
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
    explain_singular(s, t);
    return 0;
}

clink_status dyn_accelerations(dyn_system *s, double t, const double *q, const double *v,
                               double *qdd, double *lambda)
{
    int nq = s->nq, nc = s->nc;
    s->t_last = t;
    if (!finite_all(q, nq) || !finite_all(v, nq)) {
        set_msg(s, "non-finite coordinates or velocities at t = %.9g s", t);
        return CLINK_ERR_NONFINITE;
    }
    int rc = dyn_applied_forces(s, t, q, v, s->rhs, &s->power_loads);
    if (rc != 0) {
        if (!s->msg[0])
            set_msg(s, "non-finite applied forces at t = %.9g s", t);
        return CLINK_ERR_NONFINITE;
    }
    kin_eval(s->m, t, q, v, s->phi, s->jac, s->nu, s->gamma);
    for (int r = 0; r < nc; r++) {
        double g = s->gamma[r];
        if (s->alpha != 0.0 || s->beta != 0.0) {
            double pd = -s->nu[r];
            int a = s->row_a[r], b = s->row_b[r];
            for (int k = 0; k < 3; k++) {
                if (a > 0)
                    pd += s->jac[r].ja[k] * v[3 * (a - 1) + k];
                if (b > 0)
                    pd += s->jac[r].jb[k] * v[3 * (b - 1) + k];
            }
            g -= 2.0 * s->alpha * pd + s->beta * s->beta * s->phi[r];
        }
        s->rhs[nq + r] = g;
    }
    if (nc == 0) {
        /* no constraint: the saddle matrix is the diagonal mass matrix, no factorisation */
        for (int c = 0; c < nq; c++)
            qdd[c] = s->rhs[c] / s->mass[c];
        return CLINK_OK;
    }
    clink_status st = factor(s, t, q);
    if (st != CLINK_OK)
        return st;
    if (s->rd_on)
        rankdef_keep_rhs(s);
    st = solve(s);
    if (st != CLINK_OK)
        return st;
    if (s->rd_on && !rankdef_consistent(s, t))
        return CLINK_ERR_SINGULAR;
    memcpy(qdd, s->rhs, (size_t) nq * sizeof(double));
    if (lambda)
        for (int r = 0; r < nc; r++)
            lambda[r] = -s->rhs[nq + r];
    return CLINK_OK;
}

/* ---- projection ----------------------------------------------------------- */

/* Phi_q x for row r */
static double row_times(const dyn_system *s, int r, const double *x)
{
    double y = 0.0;
    int a = s->row_a[r], b = s->row_b[r];
    for (int k = 0; k < 3; k++) {
        if (a > 0)
            y += s->jac[r].ja[k] * x[3 * (a - 1) + k];
        if (b > 0)
            y += s->jac[r].jb[k] * x[3 * (b - 1) + k];
    }
    return y;
}

/* solves [M J^T; J 0][dx; mu] = [0; r] with r in s->work[nq..]; dx into s->rhs[0..nq) */
static clink_status solve_correction(dyn_system *s, double t, const double *q)
{
    clink_status st = factor(s, t, q);
    if (st != CLINK_OK)
        return st;
    for (int c = 0; c < s->nq; c++)
        s->rhs[c] = 0.0;
    for (int r = 0; r < s->nc; r++)
        s->rhs[s->nq + r] = s->work[s->nq + r];
    return solve(s);
}

/*
 * The message of a Newton projection that did not converge (s->jac holds Phi_q at
 * the last iterate): near a singular position the rows of Phi_q are close to
 * dependent, Newton converges slowly or not at all, and the message says so.
 */
/* rows within this sine of the span of the rows before them: a singular position */
#define DYN_NEAR_SINGULAR_SINE 1e-3

static void dyn_assembly_failed(dyn_system *s, double t, double worst, int it)
{
    char list[320], weak_name[200];
    int weak;
    double sine;
    int ndep = row_dependence(s, list, sizeof list, &weak, &sine);
    if (ndep > 0)
        set_msg(s,
                "positions could not be assembled at t = %.9g s: max |Phi| = %.3g after %d "
                "Newton iterations at a singular position: %s depends on the constraints "
                "before it",
                t, worst, it, list);
    else if (weak >= 0 && sine < DYN_NEAR_SINGULAR_SINE) {
        row_name(s, weak, weak_name, sizeof weak_name);
        set_msg(s,
                "positions could not be assembled at t = %.9g s: max |Phi| = %.3g after %d "
                "Newton iterations at a singular position (a toggle or dead-centre position: "
                "the constraints lose rank here): %s is within an angle of %.2g rad of the "
                "constraints before it",
                t, worst, it, weak_name, asin(sine));
    } else
        set_msg(s,
                "positions could not be assembled at t = %.9g s: max |Phi| = %.3g after %d "
                "Newton iterations",
                t, worst, it);
}

clink_status dyn_project(dyn_system *s, double t, double *q, double *v, double tol, int max_iter,
                         double *dq_norm, double *dv_norm)
{
    int nq = s->nq, nc = s->nc;
    double dqn = 0.0, dvn = 0.0;
    if (dq_norm)
        *dq_norm = 0.0;
    if (dv_norm)
        *dv_norm = 0.0;
    if (nc == 0)
        return CLINK_OK;
    if (q) {
        int it;
        for (it = 0;; it++) {
            kin_eval(s->m, t, q, NULL, s->phi, s->jac, NULL, NULL);
            double worst = 0.0;
            for (int r = 0; r < nc; r++)
                worst = fmax(worst, fabs(s->phi[r]));
            if (!isfinite(worst)) {
                set_msg(s, "constraint violation is not finite at t = %.9g s", t);
                return CLINK_ERR_NONFINITE;
            }
            if (worst <= tol)
                break;
            if (it >= max_iter) {
                dyn_assembly_failed(s, t, worst, it);
                return CLINK_ERR_ASSEMBLY;
            }
            for (int r = 0; r < nc; r++)
                s->work[nq + r] = -s->phi[r];
            clink_status st = solve_correction(s, t, q);
            if (st != CLINK_OK)
                return st;
            for (int c = 0; c < nq; c++) {
                q[c] += s->rhs[c];
                dqn += s->rhs[c] * s->rhs[c];
            }
        }
    }
    if (v) {
        kin_eval(s->m, t, q, v, NULL, s->jac, s->nu, NULL);
        for (int r = 0; r < nc; r++)
            s->work[nq + r] = s->nu[r] - row_times(s, r, v);
        clink_status st = solve_correction(s, t, q);
        if (st != CLINK_OK)
            return st;
        for (int c = 0; c < nq; c++) {
            v[c] += s->rhs[c];
            dvn += s->rhs[c] * s->rhs[c];
        }
    }
    if (dq_norm)
        *dq_norm = sqrt(dqn);
    if (dv_norm)
        *dv_norm = sqrt(dvn);
    return CLINK_OK;
}

clink_status dyn_project_error(dyn_system *s, double t, const double *q, double *eq, double *ev)
{
    int nq = s->nq, nc = s->nc;
    if (nc == 0)
        return CLINK_OK;
    kin_eval(s->m, t, q, NULL, NULL, s->jac, NULL, NULL);
    double *e[2] = {eq, ev};
    for (int i = 0; i < 2; i++) {
        if (!e[i])
            continue;
        for (int r = 0; r < nc; r++)
            s->work[nq + r] = -row_times(s, r, e[i]);
        clink_status st = solve_correction(s, t, q);
        if (st != CLINK_OK)
            return st;
        for (int c = 0; c < nq; c++)
            e[i][c] += s->rhs[c];
    }
    return CLINK_OK;
}

/* ---- diagnostics ---------------------------------------------------------- */

void dyn_violation(dyn_system *s, double t, const double *q, const double *v, double *pos,
                   double *vel)
{
    kin_eval(s->m, t, q, v, s->phi, s->jac, s->nu, NULL);
    double p = 0.0, w = 0.0;
    for (int r = 0; r < s->nc; r++) {
        p = fmax(p, fabs(s->phi[r]));
        w = fmax(w, fabs(row_times(s, r, v) - s->nu[r]));
    }
    if (pos)
        *pos = p;
    if (vel)
        *vel = w;
}

/* kinetic energy and the potentials of gravity and springs at (q, v), J, each summed alone */
static void stored_energies(const dyn_system *s, const double *q, const double *v, double *kinetic,
                            double *gravity, double *spring)
{
    const model_data *d = &s->m->d;
    *kinetic = *gravity = *spring = 0.0;
    for (int c = 0; c < s->nq; c++)
        *kinetic += 0.5 * s->mass[c] * v[c] * v[c];
    for (int i = 1; i < d->nbodies; i++)
        *gravity -= d->bodies[i].def.mass *
                    (d->gravity[0] * q[3 * (i - 1)] + d->gravity[1] * q[3 * (i - 1) + 1]);
    for (int k = 0; k < d->nforces; k++) {
        const clink_force_def *f = &d->forces[k].def;
        kin_pose a, b;
        double arm[2], ra[2], rb[2];
        kin_pose_of(q, v, f->body_a, &a);
        kin_pose_of(q, v, f->body_b, &b);
        if (f->type == CLINK_FORCE_SPRING_DAMPER) {
            kin_point(&a, f->point_a, arm, ra);
            kin_point(&b, f->point_b, arm, rb);
            double ext = hypot(rb[0] - ra[0], rb[1] - ra[1]) - f->free_length;
            *spring += 0.5 * f->k * ext * ext;
        } else if (f->type == CLINK_FORCE_ROTATIONAL_SPRING_DAMPER) {
            double rel = b.phi - a.phi - f->free_length;
            *spring += 0.5 * f->k * rel * rel;
        }
    }
}

void dyn_energies(dyn_system *s, double t, const double *q, const double *v, const double *lambda,
                  dyn_energy *e)
{
    const model_data *d = &s->m->d;
    memset(e, 0, sizeof *e);
    stored_energies(s, q, v, &e->kinetic, &e->gravity, &e->spring);
    double pl = 0.0;
    double *g = s->work; /* nq scratch */
    if (dyn_applied_forces(s, t, q, v, g, &pl) == 0)
        e->power_loads = pl;
    else
        e->power_loads = NAN;
    if (lambda) {
        /* driver force on the bodies: Phi_q^T lambda; its power lambda . (Phi_q v) = lambda nu */
        double nu1;
        for (int k = 0; k < d->ndrivers; k++) {
            double f0, fdd;
            clink_function_eval(&d->drivers[k].def.function, t, &f0, &nu1, &fdd);
            e->power_drivers += lambda[s->m->driver_row[k]] * nu1;
        }
    }
}

double dyn_constraint_power(const dyn_system *s, const double *v, const double *lambda)
{
    double p = 0.0;
    for (int r = 0; r < s->nc; r++)
        p += lambda[r] * (row_times(s, r, v) - s->nu[r]);
    return p;
}

double dyn_mechanical_energy(const dyn_system *s, const double *q, const double *v)
{
    double kinetic, gravity, spring;
    stored_energies(s, q, v, &kinetic, &gravity, &spring);
    return kinetic + gravity + spring;
}

int dyn_dependent_rows(dyn_system *s, double t, const double *q, char *list, size_t size)
{
    int weak;
    double sine;
    if (size > 0)
        list[0] = '\0';
    if (s->nc == 0)
        return 0;
    kin_eval(s->m, t, q, NULL, NULL, s->jac, NULL, NULL);
    s->have_fact = 0; /* s->jac no longer matches the factorisation's state */
    return row_dependence(s, list, size, &weak, &sine);
}

/* ---- impulses ------------------------------------------------------------- */

clink_status dyn_impulse_response(dyn_system *s, double t, const double *q, const double *f,
                                  double *dv)
{
    int nq = s->nq, nc = s->nc;
    if (nc == 0) {
        for (int c = 0; c < nq; c++)
            dv[c] = f[c] / s->mass[c];
        return CLINK_OK;
    }
    kin_eval(s->m, t, q, NULL, s->phi, s->jac, NULL, NULL);
    clink_status st = factor(s, t, q);
    if (st != CLINK_OK)
        return st;
    for (int c = 0; c < nq; c++)
        s->rhs[c] = f[c];
    for (int r = 0; r < nc; r++)
        s->rhs[nq + r] = 0.0;
    st = solve(s);
    if (st != CLINK_OK)
        return st;
    for (int c = 0; c < nq; c++)
        dv[c] = s->rhs[c];
    return CLINK_OK;
}

/* ---- Jacobian of the accelerations ---------------------------------------- */

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

/*
 * d g / dq and d g / dv of the applied forces (without the external hook), added
 * to gq and gv (nq x nq column-major). A spring-damper between points r_a, r_b:
 * with D = d(r_b - r_a)/d(q_a, q_b) (2 x 6), l = |r_b - r_a|, u the unit vector,
 * w the relative velocity of the points, ldot = u . w and T = k (l - l0) +
 * c ldot + actuator, the generalised force is D^T f with f = -T u, so
 *   d/dq = D^T df/dq + (the rotation of the arms: -A_b s_b . f on (phi_b, phi_b),
 *          A_a s_a . f on (phi_a, phi_a)),  df/dq = -(u dT/dq + T (I - u u^T) D / l),
 *   dT/dq = k u^T D + c (w^T (I - u u^T) D / l + u^T dw/dq),  dw/dq: w_a A_a s_a on
 *          phi_a, -w_b A_b s_b on phi_b;  d/dv = D^T (-u c u^T D).
 * A point force F at arm A s: d(arm x F)/dphi = -(A s) . F.
 */
/* the spring-damper-actuator's part of applied_jacobian (formulas above) */
static void spring_damper_jacobian(const clink_force_def *f, const kin_pose *pa, const kin_pose *pb,
                                   const double arma[2], const double armb[2], const double ra[2],
                                   const double rb[2], const double va[2], const double vb[2],
                                   int ca, int cb, int nq, double *gq, double *gv)
{
    const kin_pose a = *pa, b = *pb;
    double dx = rb[0] - ra[0], dy = rb[1] - ra[1], l = hypot(dx, dy);
    if (!(l > 1e-12))
        return; /* dyn_applied_forces has refused this state */
    double u[2] = {dx / l, dy / l}, w[2] = {vb[0] - va[0], vb[1] - va[1]};
    double ldot = u[0] * w[0] + u[1] * w[1];
    double T = f->k * (l - f->free_length) + f->c * ldot + f->actuator;
    /* D: columns 0-2 body a, 3-5 body b */
    double D[2][6] = {{-1.0, 0.0, arma[1], 1.0, 0.0, -armb[1]},
                      {0.0, -1.0, -arma[0], 0.0, 1.0, armb[0]}};
    double W[2][6] = {{0.0, 0.0, a.w * arma[0], 0.0, 0.0, -b.w * armb[0]},
                      {0.0, 0.0, a.w * arma[1], 0.0, 0.0, -b.w * armb[1]}};
    double P[2][6], uD[6], dT[6], dTv[6], df[2][6], dfv[2][6];
    for (int j = 0; j < 6; j++) {
        uD[j] = u[0] * D[0][j] + u[1] * D[1][j];
        for (int i = 0; i < 2; i++)
            P[i][j] = (D[i][j] - u[i] * uD[j]) / l; /* du/dq */
        dT[j] = f->k * uD[j] +
                f->c * (w[0] * P[0][j] + w[1] * P[1][j] + u[0] * W[0][j] + u[1] * W[1][j]);
        dTv[j] = f->c * uD[j];
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 6; j++) {
            df[i][j] = -(u[i] * dT[j] + T * P[i][j]);
            dfv[i][j] = -u[i] * dTv[j];
        }
    double fv[2] = {-T * u[0], -T * u[1]};
    int cols[6] = {ca, ca + 1, ca + 2, cb, cb + 1, cb + 2};
    for (int j = 0; j < 6; j++) {
        if ((j < 3 ? ca : cb) < 0)
            continue;
        for (int i = 0; i < 6; i++) {
            if ((i < 3 ? ca : cb) < 0)
                continue;
            double hq = D[0][i] * df[0][j] + D[1][i] * df[1][j];
            double hv = D[0][i] * dfv[0][j] + D[1][i] * dfv[1][j];
            if (i == j && i == 2)
                hq += arma[0] * fv[0] + arma[1] * fv[1];
            if (i == j && i == 5)
                hq -= armb[0] * fv[0] + armb[1] * fv[1];
            gq[(size_t) cols[j] * nq + cols[i]] += hq;
            gv[(size_t) cols[j] * nq + cols[i]] += hv;
        }
    }
}

/* the rotational spring-damper's part: tb = -k (phi_b - phi_a - l0) - c (w_b - w_a) +
   actuator, +tb on b, -tb on a */
static void rotational_jacobian(const clink_force_def *f, int ca, int cb, int nq, double *gq,
                                double *gv)
{
    int idx[2] = {ca >= 0 ? ca + 2 : -1, cb >= 0 ? cb + 2 : -1};
    double sign[2] = {-1.0, 1.0};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            if (idx[i] < 0 || idx[j] < 0)
                continue;
            gq[(size_t) idx[j] * nq + idx[i]] += -f->k * sign[i] * sign[j];
            gv[(size_t) idx[j] * nq + idx[i]] += -f->c * sign[i] * sign[j];
        }
}

static void applied_jacobian(dyn_system *sys, const double *q, const double *v, double *gq,
                             double *gv)
{
    const model_data *d = &sys->m->d;
    int nq = sys->nq;
    for (int k = 0; k < d->nforces; k++) {
        const clink_force_def *f = &d->forces[k].def;
        kin_pose a, b;
        double arma[2], armb[2], ra[2], rb[2], va[2], vb[2];
        kin_pose_of(q, v, f->body_a, &a);
        kin_pose_of(q, v, f->body_b, &b);
        kin_point(&a, f->point_a, arma, ra);
        kin_point(&b, f->point_b, armb, rb);
        point_velocity(&a, arma, va);
        point_velocity(&b, armb, vb);
        int ca = f->body_a > 0 ? 3 * (f->body_a - 1) : -1;
        int cb = f->body_b > 0 ? 3 * (f->body_b - 1) : -1;
        switch (f->type) {
        case CLINK_FORCE_POINT:
            if (ca >= 0)
                gq[(size_t) (ca + 2) * nq + ca + 2] += -(arma[0] * f->fx + arma[1] * f->fy);
            break;
        case CLINK_FORCE_TORQUE:
            break;
        case CLINK_FORCE_SPRING_DAMPER:
            spring_damper_jacobian(f, &a, &b, arma, armb, ra, rb, va, vb, ca, cb, nq, gq, gv);
            break;
        case CLINK_FORCE_ROTATIONAL_SPRING_DAMPER:
            rotational_jacobian(f, ca, cb, nq, gq, gv);
            break;
        case CLINK_FORCE_TYPE_COUNT_:
            break;
        }
    }
}

/* central differences of the external hook alone (h = 6e-6 max(|x|, 1e-2)), added to gq and gv */
static int external_jacobian_fd(dyn_system *s, double t, const double *q, const double *v,
                                double *gq, double *gv)
{
    int nq = s->nq, rc = 0;
    double *gm = s->jx_g0, *gp = s->jx_g1, *x = s->jx_x, power = 0.0;
    for (int side = 0; side < 2; side++) {
        const double *base = side == 0 ? q : v;
        double *out = side == 0 ? gq : gv;
        memcpy(x, base, (size_t) nq * sizeof(double));
        for (int c = 0; c < nq; c++) {
            double xc = x[c], h = 6e-6 * fmax(fabs(xc), 1e-2);
            memset(gp, 0, (size_t) nq * sizeof(double));
            memset(gm, 0, (size_t) nq * sizeof(double));
            x[c] = xc + h;
            rc = side == 0 ? s->ext(s->ext_data, t, x, v, gp, &power)
                           : s->ext(s->ext_data, t, q, x, gp, &power);
            x[c] = xc - h;
            if (rc == 0)
                rc = side == 0 ? s->ext(s->ext_data, t, x, v, gm, &power)
                               : s->ext(s->ext_data, t, q, x, gm, &power);
            x[c] = xc;
            if (rc != 0)
                return rc;
            for (int i = 0; i < nq; i++)
                out[(size_t) c * nq + i] += (gp[i] - gm[i]) / (2.0 * h);
        }
    }
    /* leave the hook's per-evaluation state (dissipation powers) at the unperturbed state */
    memset(gp, 0, (size_t) nq * sizeof(double));
    return s->ext(s->ext_data, t, q, v, gp, &power);
}

static clink_status jacobian_alloc(dyn_system *s)
{
    if (s->jx_qdd)
        return CLINK_OK;
    size_t nq = (size_t) s->nq, nr = (size_t) (s->nc > 0 ? s->nc : 1);
    s->jx_hess = malloc(nr * sizeof *s->jx_hess);
    s->jx_gq = malloc(nr * sizeof *s->jx_gq);
    s->jx_mu = calloc(nr, sizeof(double));
    s->jx_gdq = calloc(nq * nq, sizeof(double));
    s->jx_gdv = calloc(nq * nq, sizeof(double));
    s->jx_g0 = calloc(nq, sizeof(double));
    s->jx_g1 = calloc(nq, sizeof(double));
    s->jx_x = calloc(nq, sizeof(double));
    s->jx_qdd = calloc(nq, sizeof(double));
    if (!s->jx_hess || !s->jx_gq || !s->jx_mu || !s->jx_gdq || !s->jx_gdv || !s->jx_g0 ||
        !s->jx_g1 || !s->jx_x || !s->jx_qdd) {
        free(s->jx_qdd);
        s->jx_qdd = NULL; /* the next call retries; the others are freed by dyn_destroy */
        set_msg(s, "Jacobian of the accelerations: out of memory");
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
static double jacobian_row_entry(dyn_system *s, int r, int c, int side, const double *v,
                                 const double *qdd, const double *mu, int baum, double *x)
{
    int k = row_slot(s, r, c);
    if (k < 0)
        return 0.0;
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

clink_status dyn_jacobian(dyn_system *s, double t, const double *q, const double *v, double *jq,
                          double *jv)
{
    int nq = s->nq, nc = s->nc;
    clink_status st = jacobian_alloc(s);
    if (st != CLINK_OK)
        return st;
    double *qdd = s->jx_qdd, *mu = s->jx_mu, *gdq = s->jx_gdq, *gdv = s->jx_gdv;
    st = dyn_accelerations(s, t, q, v, qdd, mu);
    if (st != CLINK_OK)
        return st;
    for (int r = 0; r < nc; r++)
        mu[r] = -mu[r]; /* mu = -lambda, the second block of the saddle solution */
    size_t nn = (size_t) nq * nq;
    memset(gdq, 0, nn * sizeof(double));
    memset(gdv, 0, nn * sizeof(double));
    applied_jacobian(s, q, v, gdq, gdv);
    if (s->ext) {
        int rc = s->ext_jac ? s->ext_jac(s->ext_data, t, q, v, gdq, gdv)
                            : external_jacobian_fd(s, t, q, v, gdq, gdv);
        if (rc != 0) {
            set_msg(s, "Jacobian of the external forces failed at t = %.9g s", t);
            return rc < 0 ? CLINK_ERR_LINSOLVE : CLINK_ERR_NONFINITE;
        }
    }
    if (nc > 0)
        kin_eval_second(s->m, t, q, v, s->jx_hess, s->jx_gq);
    int baum = s->alpha != 0.0 || s->beta != 0.0;
    for (int side = 0; side < 2; side++) {
        const double *gd = side == 0 ? gdq : gdv;
        double *out = side == 0 ? jq : jv;
        for (int c = 0; c < nq; c++) {
            double *x = s->rhs;
            memcpy(x, gd + (size_t) c * nq, (size_t) nq * sizeof(double));
            for (int r = 0; r < nc; r++)
                x[nq + r] = jacobian_row_entry(s, r, c, side, v, qdd, mu, baum, x);
            if (nc == 0) {
                for (int i = 0; i < nq; i++)
                    x[i] /= s->mass[i];
            } else {
                st = solve(s);
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
