/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * system_pattern.c: which entries of the Jacobian's lower blocks, d(v', z')/d(q, v), can be
 * nonzero (system.h), so that the BDF Newton matrix is stored by what couples rather than
 * as 2 nr dense columns (which grew as the square of the bodies: 320 GB for a chain of
 * 1e5 discs).
 *
 * The accelerations solve [M Phi_q^T; Phi_q 0][qdd; mu] = [g; gamma']: M is block
 * diagonal (one 3 x 3 block per body), so without constraints qdd of a body depends only
 * on the forces on it. The constraint rows couple the bodies they involve, and through
 * the saddle solve every body of one connected component of the joint graph (ground
 * excluded: it cuts the graph) with every other: the inverse of the saddle matrix is in
 * general dense over a component, for an open chain as for a closed loop, so a component
 * of K bodies fills a 3K x 3K block, as it must. Contacts and two-body loads (springs,
 * dampers, actuators) couple the bodies of their pair: a column of body b holds the rows
 * of every body in b's component and in the components of b's contact and load partners;
 * a friction state's row (contacts_friction.c) is held in the columns of its contact's
 * bodies, a joint's friction state's (joint_friction_solve.c) in those of its joint's. The
 * host's forces (inputs, a user force) may couple anything: while they are installed every
 * column is dense, and the pattern's version changes so that the integrator takes the new
 * one. The contact pairs go to the dynamics as well (dyn_jacobian_couple), whose Jacobian
 * is evaluated by the same couplings (jacobian_columns.c) and written column by column into
 * this pattern (system_rhs.c).
 *
 * The columns after the rates (system_jacobian_tail_pattern): a friction state z of
 * contact k moves the accelerations its bristle force reaches, d v' / d z, which are the
 * rate rows of the columns of k's two bodies (the force acts on those bodies and the
 * saddle solve spreads it over their components); built with the pattern, of its version.
 * A joint's friction state's column holds its diagonal only (d v' / d z left to Newton).
 */
#include "system/system.h"

#include "model/model_internal.h"

#include <stdlib.h>

/* union-find over the bodies (0: ground, never joined) */
static int pat_find(int *par, int x)
{
    while (par[x] != x) {
        par[x] = par[par[x]];
        x = par[x];
    }
    return x;
}

static void pat_join(int *par, int a, int b)
{
    if (a <= 0 || b <= 0)
        return;
    a = pat_find(par, a);
    b = pat_find(par, b);
    if (a != b)
        par[a > b ? a : b] = a < b ? a : b;
}

static int pat_cmp(const void *a, const void *b)
{
    int x = *(const int *) a, y = *(const int *) b;
    return (x > y) - (x < y);
}

/* the work arrays of one build */
typedef struct pat_work {
    int nb;
    int *par;         /* nb: union-find parent, then each body's component root */
    int *cptr, *cmem; /* nb + 1, nb: the members of each root's component */
    int *lptr, *link; /* nb + 1, 2 links: each body's partners (contacts, loads) */
    int *jptr, *jrow; /* nb + 1, 2 njz: each body's joint friction states' rows */
    int *mark;        /* nb: the stamp of the column that last took a component */
    int stamp;        /* one per pat_body_rows call */
    int *rows;        /* nr + (Nr - nr): one column's rows */
} pat_work;

/* the bodies of pair k: contact k < ncon, else load k - ncon */
static void pat_pair(const mechsys *s, int k, int *a, int *b)
{
    const model_data *d = &s->m->d;
    *a = k < s->ncouple ? s->rt_body[2 * k] : d->forces[k - s->ncouple].def.body_a;
    *b = k < s->ncouple ? s->rt_body[2 * k + 1] : d->forces[k - s->ncouple].def.body_b;
}

/* the pairs (contacts and two-body loads) of each body, as lists of pair indices */
static void pat_links(const mechsys *s, pat_work *w)
{
    int npair = s->ncouple + s->m->d.nforces;
    for (int i = 0; i <= w->nb; i++)
        w->lptr[i] = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < npair; k++) {
            int ab[2];
            pat_pair(s, k, &ab[0], &ab[1]);
            for (int e = 0; e < 2; e++) {
                if (ab[e] <= 0 || (e == 1 && ab[1] == ab[0]))
                    continue;
                if (pass == 0)
                    w->lptr[ab[e] + 1]++;
                else
                    w->link[w->mark[ab[e]]++] = k;
            }
        }
        if (pass == 0)
            for (int i = 0; i < w->nb; i++) {
                w->lptr[i + 1] += w->lptr[i];
                w->mark[i] = w->lptr[i];
            }
    }
}

/* the rows of the joints' friction states in each body's columns: jrow[jptr[b] ..] */
static void pat_joint_states(const mechsys *s, pat_work *w)
{
    const model_data *d = &s->m->d;
    for (int i = 0; i <= w->nb; i++)
        w->jptr[i] = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < d->njoints; j++) {
            int iz = dyn_joint_friction_state_of(s->dyn, j);
            int ab[2] = {d->joints[j].def.body_a, d->joints[j].def.body_b};
            for (int e = 0; e < 2 && iz >= 0; e++) {
                if (ab[e] <= 0)
                    continue;
                if (pass == 0)
                    w->jptr[ab[e] + 1]++;
                else
                    w->jrow[w->mark[ab[e]]++] = s->nr + s->jz0 + iz;
            }
        }
        if (pass == 0)
            for (int i = 0; i < w->nb; i++) {
                w->jptr[i + 1] += w->jptr[i];
                w->mark[i] = w->jptr[i];
            }
    }
}

/* the components of the joint graph: par[b] its root, cmem[cptr[r] ..] the members of root r */
static void pat_components(const mechsys *s, pat_work *w)
{
    for (int b = 0; b < w->nb; b++)
        w->par[b] = b;
    for (int r = 0; r < s->nc; r++) {
        int a, b;
        dyn_row_bodies(s->dyn, r, &a, &b);
        pat_join(w->par, a, b);
    }
    for (int b = 0; b <= w->nb; b++)
        w->cptr[b] = 0;
    for (int b = 0; b < w->nb; b++) {
        w->par[b] = pat_find(w->par, b);
        w->cptr[w->par[b] + 1]++;
    }
    for (int b = 0; b < w->nb; b++) {
        w->cptr[b + 1] += w->cptr[b];
        w->mark[b] = w->cptr[b];
    }
    for (int b = 0; b < w->nb; b++)
        w->cmem[w->mark[w->par[b]]++] = b;
}

/* the rows of the columns of body b (ascending) into w->rows; returns their number */
static int pat_body_rows(const mechsys *s, pat_work *w, int b, int dense)
{
    int stamp = ++w->stamp, n = 0, nr = s->nr, nt = s->Nr - nr;
    if (dense) {
        for (int i = 0; i < nt; i++)
            w->rows[n++] = i;
        return n;
    }
    /* b's component, then its partners' */
    for (int l = w->lptr[b] - 1; l < w->lptr[b + 1]; l++) {
        int other = b;
        if (l >= w->lptr[b]) {
            int pa, pb;
            pat_pair(s, w->link[l], &pa, &pb);
            other = pa == b ? pb : pa;
            if (other <= 0)
                continue;
        }
        int root = w->par[other];
        if (w->mark[root] == stamp)
            continue;
        w->mark[root] = stamp;
        for (int k = w->cptr[root]; k < w->cptr[root + 1]; k++)
            for (int c = 0; c < 3; c++) {
                int row = w->cmem[k] > 0 ? s->rt_inv[3 * (w->cmem[k] - 1) + c] : -1;
                if (row >= 0)
                    w->rows[n++] = row;
            }
    }
    /* the friction states of b's contacts */
    for (int l = w->lptr[b]; l < w->lptr[b + 1]; l++) {
        int k = w->link[l];
        int wz = k < s->ncon ? contacts_friction_state_index(s->sc, k) : -1;
        if (wz >= 0)
            w->rows[n++] = nr + 2 + wz;
    }
    /* the friction states of b's joints */
    for (int l = w->jptr[b]; l < w->jptr[b + 1]; l++)
        w->rows[n++] = w->jrow[l];
    qsort(w->rows, (size_t) n, sizeof *w->rows, pat_cmp);
    return n;
}

/* the rows of every integrator column into s->pat_ptr, s->pat_rows (two passes: count, fill) */
static int pat_fill(mechsys *s, pat_work *w, int dense)
{
    int nr = s->nr, last = -1, n = 0;
    long *ptr = malloc(((size_t) nr + 1) * sizeof *ptr);
    int *rows = NULL;
    if (!ptr)
        return -1;
    for (int pass = 0; pass < 2; pass++) {
        long p = 0;
        last = -1;
        for (int j = 0; j < nr; j++) {
            int b = s->red[j] / 3 + 1;
            if (b != last)
                n = pat_body_rows(s, w, b, dense);
            last = b;
            ptr[j] = p;
            for (int k = 0; k < n && pass == 1; k++)
                rows[p + k] = w->rows[k];
            p += n;
        }
        ptr[nr] = p;
        if (pass == 0 && !(rows = malloc(((size_t) p + 1) * sizeof *rows))) {
            free(ptr);
            return -1;
        }
    }
    free(s->pat_ptr);
    free(s->pat_rows);
    s->pat_ptr = ptr;
    s->pat_rows = rows;
    return 0;
}

/* the rate rows (ascending, without repeats) of the columns of bodies a and b into out;
   returns their number */
static int pat_pair_rates(const mechsys *s, pat_work *w, int a, int b, int dense, int *out)
{
    int n = 0;
    for (int e = 0; e < 2; e++) {
        int body = e ? b : a;
        if (body <= 0 || (e == 1 && b == a))
            continue;
        int m = pat_body_rows(s, w, body, dense);
        for (int k = 0; k < m; k++)
            if (w->rows[k] < s->nr)
                out[n++] = w->rows[k];
    }
    qsort(out, (size_t) n, sizeof *out, pat_cmp);
    int u = 0;
    for (int k = 0; k < n; k++)
        if (u == 0 || out[u - 1] != out[k])
            out[u++] = out[k];
    return u;
}

/* the rate rows of the columns after the rates (see the file comment) into s->tail_ptr,
   s->tail_rows (two passes: count, fill); 0 or -1 */
static int pat_tail_fill(mechsys *s, pat_work *w, int dense)
{
    int nt = s->Nr - 2 * s->nr;
    long *ptr = malloc(((size_t) nt + 1) * sizeof *ptr);
    int *pair = malloc((2 * (size_t) s->nr + 1) * sizeof *pair), *rows = NULL;
    if (!ptr || !pair) {
        free(ptr);
        free(pair);
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        long p = 0;
        for (int j = 0; j < nt; j++) {
            ptr[j] = p;
            for (int k = 0; k < s->ncon; k++) {
                /* a contact without a friction state (index -1) owns no column here */
                int wz = contacts_friction_state_index(s->sc, k);
                if (wz < 0 || j != 2 + wz)
                    continue;
                int n = pat_pair_rates(s, w, s->rt_body[2 * k], s->rt_body[2 * k + 1], dense, pair);
                for (int i = 0; i < n && pass == 1; i++)
                    rows[p + i] = pair[i];
                p += n;
            }
        }
        ptr[nt] = p;
        if (pass == 0 && !(rows = malloc(((size_t) p + 1) * sizeof *rows))) {
            free(ptr);
            free(pair);
            return -1;
        }
    }
    free(pair);
    free(s->tail_ptr);
    free(s->tail_rows);
    s->tail_ptr = ptr;
    s->tail_rows = rows;
    return 0;
}

/* the pattern built anew: dense (the host's forces) or by what couples; 0 or -1 */
static int pat_build(mechsys *s, int dense)
{
    int nb = s->m->d.nbodies, npair = s->ncouple + s->m->d.nforces;
    size_t nbs = (size_t) nb + 1;
    pat_work w = {.nb = nb};
    w.par = malloc(nbs * sizeof(int));
    w.cptr = malloc(nbs * sizeof(int));
    w.cmem = malloc(nbs * sizeof(int));
    w.lptr = malloc(nbs * sizeof(int));
    w.link = malloc((2 * (size_t) npair + 1) * sizeof(int));
    w.mark = malloc(nbs * sizeof(int));
    w.rows = malloc(((size_t) (s->Nr - s->nr) + 1) * sizeof(int));
    w.jptr = malloc(nbs * sizeof(int));
    w.jrow = malloc((2 * (size_t) s->njz + 1) * sizeof(int));
    int rc = -1;
    /* the contact pairs to the dynamics too: its force derivatives are kept by these pairs */
    if (dyn_jacobian_couple(s->dyn, s->ncouple, s->rt_body) == CLINK_OK && w.par && w.cptr &&
        w.cmem && w.lptr && w.link && w.mark && w.rows && w.jptr && w.jrow) {
        pat_joint_states(s, &w);
        pat_links(s, &w);
        pat_components(s, &w);
        for (int b = 0; b < nb; b++)
            w.mark[b] = 0;
        rc = pat_fill(s, &w, dense);
        if (rc == 0 && s->nfz)
            rc = pat_tail_fill(s, &w, dense);
    }
    free(w.par);
    free(w.cptr);
    free(w.cmem);
    free(w.lptr);
    free(w.link);
    free(w.mark);
    free(w.rows);
    free(w.jptr);
    free(w.jrow);
    return rc;
}

const long *system_jacobian_pattern(mechsys *s, const int **rows, long *version)
{
    int dense = dyn_has_host_forces(s->dyn);
    if (!s->pat_ptr || dense != s->pat_dense) {
        if (pat_build(s, dense) != 0)
            return NULL;
        s->pat_dense = dense;
        s->pat_version++;
    }
    *rows = s->pat_rows;
    *version = s->pat_version;
    return s->pat_ptr;
}

const long *system_jacobian_tail_pattern(const mechsys *s, const int **rows)
{
    *rows = s->tail_rows;
    return s->tail_ptr;
}

long system_pattern_find(const mechsys *s, int col, int row)
{
    long lo = s->pat_ptr[col], hi = s->pat_ptr[col + 1];
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (s->pat_rows[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->pat_ptr[col + 1] && s->pat_rows[lo] == row ? lo - s->pat_ptr[col] : -1;
}
