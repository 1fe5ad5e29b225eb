/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * jacobian_columns.c: the Jacobian of the accelerations, d qdd / dq and d qdd / dv, column
 * by column in time and memory proportional to what couples (dyn_jacobian_columns), for
 * the BDF Newton matrix.
 *
 * dyn_jacobian (jacobian.c) forms the applied forces' derivatives densely (nq x nq) and
 * solves the saddle system once per column: N^2 memory and time for N bodies even when
 * each is coupled to a few (0.3 GB at 1e3 discs, 29 GB at 1e4). Here, with the same
 * operations on each entry:
 *
 *   - the force derivatives (the loads, the contacts' companion) are kept by body blocks:
 *     the columns of body b hold a 3 x 3 block for b and for each partner of b (the other
 *     body of one of its loads or contacts) only (dyn_gjac, loads.c), accumulated in the
 *     same order as the dense ones;
 *   - without constraints M is diagonal: column c of d qdd / dq is M^-1 d g / dq_c, nonzero
 *     at the partners of c's body only;
 *   - with constraints the saddle matrix is block diagonal over the components of the
 *     joint graph (ground cuts it), so column c's right-hand side (dyn_jacobian's,
 *     nonzero in the components of b and of its partners) has its solution in those
 *     components, and columns whose components are disjoint can share one solve: the
 *     grouping of columns of Curtis, Powell and Reid (1974) for sparse differences,
 *     applied to the solves. The bodies are coloured greedily (one colour's bodies touch
 *     disjoint components) and each colour costs six solves (three coordinates, d/dq and
 *     d/dv) instead of six per body. A factorisation solves each component from its own
 *     rows (KLU: no entries between components; the dense Schur complement: exact zeros
 *     there), so sharing adds nothing to a column but exact zeros. After the
 *     rank-revealing fallback each body has its own solves.
 *
 * With the host's forces (which may couple anything) or an external hook without a
 * companion, dyn_jacobian's dense columns are emitted instead.
 */
#include "dynamics/dyn_internal.h"

#include "model/model_internal.h"

#include <stdlib.h>
#include <string.h>

static int jc_cmp(const void *a, const void *b)
{
    int x = *(const int *) a, y = *(const int *) b;
    return (x > y) - (x < y);
}

/* the bodies of pair k: a contact given (k < jc_npair), else load k - jc_npair */
static void jc_pair_bodies(const dyn_system *s, int k, int *a, int *b)
{
    const model_data *d = &s->m->d;
    *a = k < s->jc_npair ? s->jc_pair[2 * k] : d->forces[k - s->jc_npair].def.body_a;
    *b = k < s->jc_npair ? s->jc_pair[2 * k + 1] : d->forces[k - s->jc_npair].def.body_b;
}

/* each body's partners (itself and the other bodies of its pairs), ascending, no repeats */
static int jc_partners(dyn_system *s)
{
    int nb = s->nq / 3, np = s->jc_npair + s->m->d.nforces;
    int *ptr = calloc((size_t) nb + 1, sizeof *ptr);
    int *body = malloc(((size_t) nb + 2 * (size_t) np + 1) * sizeof *body);
    int *fill = malloc(((size_t) nb + 1) * sizeof *fill);
    if (!ptr || !body || !fill) {
        free(ptr);
        free(body);
        free(fill);
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int b = 0; b < nb; b++) {
            if (pass == 0)
                ptr[b + 1] = 1;
            else
                body[fill[b]++] = b + 1;
        }
        for (int k = 0; k < np; k++) {
            int a, b;
            jc_pair_bodies(s, k, &a, &b);
            if (a <= 0 || b <= 0 || a == b)
                continue;
            if (pass == 0) {
                ptr[a]++;
                ptr[b]++;
            } else {
                body[fill[a - 1]++] = b;
                body[fill[b - 1]++] = a;
            }
        }
        for (int b = 0; pass == 0 && b < nb; b++) {
            ptr[b + 1] += ptr[b];
            fill[b] = ptr[b];
        }
    }
    /* sorted, repeats dropped in place */
    int w = 0, lo = 0;
    for (int b = 0; b < nb; b++) {
        int hi = ptr[b + 1];
        qsort(body + lo, (size_t) (hi - lo), sizeof *body, jc_cmp);
        ptr[b] = w;
        for (int k = lo; k < hi; k++)
            if (k == lo || body[k] != body[k - 1])
                body[w++] = body[k];
        lo = hi;
    }
    ptr[nb] = w;
    free(fill);
    s->jc_ptr = ptr;
    s->jc_body = body;
    return 0;
}

/* each body's constraint rows, ascending */
static int jc_rows(dyn_system *s)
{
    int nb = s->nq / 3, nc = s->nc;
    int *ptr = calloc((size_t) nb + 1, sizeof *ptr);
    int *rows = malloc((2 * (size_t) nc + 1) * sizeof *rows);
    if (!ptr || !rows) {
        free(ptr);
        free(rows);
        return -1;
    }
    /* counts at each body's 0-based index, their running sums (the ends), then filled
       backwards: ptr[i] ends at the start of body i + 1 */
    for (int r = 0; r < nc; r++) {
        int a = s->row_a[r], b = s->row_b[r];
        if (a > 0)
            ptr[a - 1]++;
        if (b > 0 && b != a)
            ptr[b - 1]++;
    }
    for (int i = 1; i < nb; i++)
        ptr[i] += ptr[i - 1];
    ptr[nb] = nb > 0 ? ptr[nb - 1] : 0;
    for (int r = nc - 1; r >= 0; r--) {
        int a = s->row_a[r], b = s->row_b[r];
        if (a > 0)
            rows[--ptr[a - 1]] = r;
        if (b > 0 && b != a)
            rows[--ptr[b - 1]] = r;
    }
    s->jc_rptr = ptr;
    s->jc_rows = rows;
    return 0;
}

/* the root of x's component (union-find with path halving; 0, ground, stays alone) */
static int jc_find(int *par, int x)
{
    while (par[x] != x) {
        par[x] = par[par[x]];
        x = par[x];
    }
    return x;
}

/* the work of the colouring: component roots, each root's colours (a list), the marks */
typedef struct jc_work {
    int *par, *head, *node_colour, *node_next, *mark, *colour;
} jc_work;

/* the smallest colour free in every component that body b touches, booked there */
static int jc_colour_body(dyn_system *s, jc_work *w, int b, int *nodes)
{
    for (int k = s->jc_ptr[b - 1]; k < s->jc_ptr[b]; k++)
        for (int n = w->head[jc_find(w->par, s->jc_body[k])]; n >= 0; n = w->node_next[n])
            w->mark[w->node_colour[n]] = b;
    int c = 0;
    while (w->mark[c] == b)
        c++;
    for (int k = s->jc_ptr[b - 1]; k < s->jc_ptr[b]; k++) {
        int root = jc_find(w->par, s->jc_body[k]);
        if (w->head[root] >= 0 && w->node_colour[w->head[root]] == c)
            continue;
        w->node_colour[*nodes] = c;
        w->node_next[*nodes] = w->head[root];
        w->head[root] = (*nodes)++;
    }
    return c;
}

/* the bodies by colour (jc_cptr, jc_cbody): a colour's bodies touch disjoint components */
static int jc_colouring(dyn_system *s)
{
    int nb = s->nq / 3, nn = s->jc_ptr[nb], nodes = 0;
    size_t nbs = (size_t) nb + 1;
    jc_work w;
    w.par = malloc(nbs * sizeof(int));
    w.head = malloc(nbs * sizeof(int));
    w.mark = malloc(nbs * sizeof(int));
    w.colour = malloc(nbs * sizeof(int));
    w.node_colour = malloc(((size_t) nn + 1) * sizeof(int));
    w.node_next = malloc(((size_t) nn + 1) * sizeof(int));
    s->jc_cptr = calloc(nbs + 1, sizeof(int));
    s->jc_cbody = malloc(nbs * sizeof(int));
    int rc = -1;
    if (w.par && w.head && w.mark && w.colour && w.node_colour && w.node_next && s->jc_cptr &&
        s->jc_cbody) {
        for (int b = 0; b <= nb; b++) {
            w.par[b] = b;
            w.head[b] = w.mark[b] = -1;
        }
        for (int r = 0; r < s->nc; r++) {
            int a = s->row_a[r], b = s->row_b[r];
            if (a > 0 && b > 0 && (a = jc_find(w.par, a)) != (b = jc_find(w.par, b)))
                w.par[a > b ? a : b] = a < b ? a : b;
        }
        int ncol = 0;
        for (int b = 1; b <= nb; b++) {
            w.colour[b] = jc_colour_body(s, &w, b, &nodes);
            ncol = w.colour[b] + 1 > ncol ? w.colour[b] + 1 : ncol;
            s->jc_cptr[w.colour[b] + 1]++;
        }
        for (int c = 0; c < ncol; c++) {
            s->jc_cptr[c + 1] += s->jc_cptr[c];
            w.mark[c] = s->jc_cptr[c]; /* now where each colour's next body goes */
        }
        for (int b = 1; b <= nb; b++)
            s->jc_cbody[w.mark[w.colour[b]]++] = b;
        s->jc_ncolour = ncol;
        rc = 0;
    }
    free(w.par);
    free(w.head);
    free(w.mark);
    free(w.colour);
    free(w.node_colour);
    free(w.node_next);
    return rc;
}

/* the structures of the columns, once (after the contact pairs are given) */
static clink_status jc_build(dyn_system *s)
{
    if (s->jc_built)
        return CLINK_OK;
    int nb = s->nq / 3;
    if (jc_partners(s) != 0 || jc_rows(s) != 0 || (s->nc > 0 && jc_colouring(s) != 0)) {
        dyn_set_msg(s,
                    "Jacobian of the accelerations: out of memory for its structure (%d "
                    "bodies)",
                    nb);
        return CLINK_ERR_NOMEM;
    }
    size_t nv = 9 * (size_t) s->jc_ptr[nb] + 1;
    s->jc_gq = malloc(nv * sizeof(double));
    s->jc_gv = malloc(nv * sizeof(double));
    if (!s->jc_gq || !s->jc_gv) {
        dyn_set_msg(s,
                    "Jacobian of the accelerations: out of memory for the force derivatives "
                    "(2 x %zu values)",
                    nv);
        return CLINK_ERR_NOMEM;
    }
    s->jc_built = 1;
    return CLINK_OK;
}

/* drops what was built for other pairs (the structure is built again at the next call) */
static void jc_forget(dyn_system *s)
{
    int **ip[] = {&s->jc_ptr, &s->jc_body, &s->jc_rptr, &s->jc_rows, &s->jc_cptr, &s->jc_cbody};
    for (size_t k = 0; k < sizeof ip / sizeof *ip; k++) {
        free(*ip[k]);
        *ip[k] = NULL;
    }
    free(s->jc_gq);
    free(s->jc_gv);
    s->jc_gq = s->jc_gv = NULL;
    s->jc_built = 0;
}

clink_status dyn_jacobian_couple(dyn_system *s, int n, const int *bodies)
{
    jc_forget(s);
    free(s->jc_pair);
    s->jc_pair = malloc((2 * (size_t) n + 1) * sizeof(int));
    s->jc_npair = 0;
    if (!s->jc_pair) {
        dyn_set_msg(s, "Jacobian of the accelerations: out of memory (%d contact pairs)", n);
        return CLINK_ERR_NOMEM;
    }
    if (n > 0)
        memcpy(s->jc_pair, bodies, 2 * (size_t) n * sizeof(int));
    s->jc_npair = n;
    return CLINK_OK;
}

/* the force derivatives into the blocks: the loads', then the external hook's companion */
static clink_status jc_forces(dyn_system *s, double t, const double *q, const double *v)
{
    size_t nv = 9 * (size_t) s->jc_ptr[s->nq / 3];
    memset(s->jc_gq, 0, nv * sizeof(double));
    memset(s->jc_gv, 0, nv * sizeof(double));
    dyn_gjac J = {
        .nq = s->nq, .gq = s->jc_gq, .gv = s->jc_gv, .ptr = s->jc_ptr, .body = s->jc_body};
    dyn_loads_jacobian(s, t, q, v, &J);
    if (s->ext && s->ext_jac) {
        int rc = s->ext_jac(s->ext_data, t, q, v, &J);
        if (rc != 0) {
            dyn_set_msg(s, "Jacobian of the external forces failed at t = %.9g s", t);
            return rc < 0 ? CLINK_ERR_LINSOLVE : CLINK_ERR_NONFINITE;
        }
    }
    if (J.missed) {
        dyn_set_msg(s, "Jacobian of the applied forces: a force couples two bodies that are "
                       "neither a load's nor a contact's pair");
        return CLINK_ERR_SOLVER;
    }
    return CLINK_OK;
}

/* column (body b, coordinate j, rate) of the force derivatives into x (rows of b's partners) */
static void jc_scatter(const dyn_system *s, int b, int j, int rate, double *x, int divide)
{
    const double *g = rate ? s->jc_gv : s->jc_gq;
    for (int k = s->jc_ptr[b - 1]; k < s->jc_ptr[b]; k++)
        for (int i = 0; i < 3; i++) {
            int row = 3 * (s->jc_body[k] - 1) + i;
            x[row] = g[9 * (size_t) k + 3 * (size_t) j + (size_t) i];
            if (divide)
                x[row] /= s->mass[row];
        }
}

/* without constraints: column c is M^-1 d g / dx_c, at the partners' rows */
static void jc_free_columns(dyn_system *s, dyn_column_fn emit, void *ctx)
{
    double *x = s->rhs;
    for (int b = 1; b <= s->nq / 3; b++)
        for (int rate = 0; rate < 2; rate++)
            for (int j = 0; j < 3; j++) {
                jc_scatter(s, b, j, rate, x, 1);
                emit(ctx, rate, 3 * (b - 1) + j, x);
                for (int k = s->jc_ptr[b - 1]; k < s->jc_ptr[b]; k++)
                    for (int i = 0; i < 3; i++)
                        x[3 * (s->jc_body[k] - 1) + i] = 0.0;
            }
}

/* with constraints: the columns of the given bodies (a colour's, or one) share solves */
static clink_status jc_solve_batch(dyn_system *s, const int *bodies, int nbodies, const double *v,
                                   int baum, dyn_column_fn emit, void *ctx)
{
    double *x = s->rhs;
    for (int rate = 0; rate < 2; rate++)
        for (int j = 0; j < 3; j++) {
            memset(x, 0, (size_t) s->n * sizeof(double));
            for (int m = 0; m < nbodies; m++) {
                int b = bodies[m], c = 3 * (b - 1) + j;
                jc_scatter(s, b, j, rate, x, 0);
                for (int l = s->jc_rptr[b - 1]; l < s->jc_rptr[b]; l++) {
                    int r = s->jc_rows[l];
                    x[s->nq + r] = dyn_jacobian_row_entry(s, r, c, rate, v, baum, x);
                }
            }
            clink_status st = dyn_solve(s);
            if (st != CLINK_OK)
                return st;
            for (int m = 0; m < nbodies; m++)
                emit(ctx, rate, 3 * (bodies[m] - 1) + j, x);
        }
    return CLINK_OK;
}

/* the dense columns of dyn_jacobian (the host's forces, or a hook without companion) */
static clink_status jc_dense(dyn_system *s, double t, const double *q, const double *v,
                             dyn_column_fn emit, void *ctx)
{
    size_t nq = (size_t) s->nq;
    if (!s->jc_dq)
        s->jc_dq = malloc(nq * nq * sizeof(double) + 1);
    if (!s->jc_dv)
        s->jc_dv = malloc(nq * nq * sizeof(double) + 1);
    if (!s->jc_dq || !s->jc_dv) {
        dyn_set_msg(s,
                    "Jacobian of the accelerations: out of memory for its dense columns (2 x "
                    "%zu x %zu, %.3g GB)",
                    nq, nq, 16.0 * (double) nq * (double) nq / 1e9);
        return CLINK_ERR_NOMEM;
    }
    clink_status st = dyn_jacobian(s, t, q, v, s->jc_dq, s->jc_dv);
    if (st != CLINK_OK)
        return st;
    for (int rate = 0; rate < 2; rate++)
        for (size_t c = 0; c < nq; c++)
            emit(ctx, rate, (int) c, (rate ? s->jc_dv : s->jc_dq) + c * nq);
    return CLINK_OK;
}

clink_status dyn_jacobian_structure(dyn_system *s)
{
    return jc_build(s);
}

clink_status dyn_jacobian_blocks(dyn_system *s, double t, const double *q, const double *v)
{
    clink_status st = jc_build(s);
    if (st == CLINK_OK)
        st = dyn_jacobian_prepare(s, t, q, v);
    if (st == CLINK_OK)
        st = jc_forces(s, t, q, v);
    return st;
}

clink_status dyn_jacobian_columns(dyn_system *s, double t, const double *q, const double *v,
                                  dyn_column_fn emit, void *ctx)
{
    if (s->host.forces || (s->ext && !s->ext_jac))
        return jc_dense(s, t, q, v, emit, ctx);
    clink_status st = jc_build(s);
    if (st == CLINK_OK)
        st = dyn_jacobian_prepare(s, t, q, v);
    if (st == CLINK_OK)
        st = jc_forces(s, t, q, v);
    if (st != CLINK_OK)
        return st;
    if (s->nc == 0) {
        jc_free_columns(s, emit, ctx);
        return CLINK_OK;
    }
    int baum = s->alpha != 0.0 || s->beta != 0.0;
    if (s->rd_on) {
        /* the rank-revealing fallback: one body at a time */
        for (int b = 1; b <= s->nq / 3 && st == CLINK_OK; b++)
            st = jc_solve_batch(s, &b, 1, v, baum, emit, ctx);
        return st;
    }
    for (int c = 0; c < s->jc_ncolour && st == CLINK_OK; c++)
        st = jc_solve_batch(s, s->jc_cbody + s->jc_cptr[c], s->jc_cptr[c + 1] - s->jc_cptr[c], v,
                            baum, emit, ctx);
    return st;
}
