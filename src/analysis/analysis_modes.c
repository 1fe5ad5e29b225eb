/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Linearised modes about the state analysed (docs/analysis.md): with the reduced matrices
 * of analysis.c, M_r dz'' + C_r dz' + K_r dz = 0, the first-order form
 *   x' = A x,  A = [0 I; -M_r^-1 K_r  -M_r^-1 C_r],  x = (dz, dz')
 * (M_r^-1 by LU, dgesv) and its eigenvalues lambda and right eigenvectors by LAPACK dgeev
 * (Anderson et al. 1999). A complex pair is one mode: undamped natural frequency |lambda| /
 * (2 pi) Hz, damping ratio -re / |lambda|, damped frequency im / (2 pi); a real eigenvalue is
 * a mode of its own (overdamped, unstable, or zero). The shape in body coordinates is N dz of
 * the eigenvector's first half, its phase taken out at its largest component and scaled
 * there to 1. A zero eigenvalue (|lambda| at most 1e-6 times the largest, or below 1e-8 1/s)
 * is a direction without stiffness: flagged, and named by clink_analysis_describe.
 */
#include "analysis/analysis_internal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

/* A = [0 I; -M^-1 K  -M^-1 C] (2f x 2f) into a */
static int modes_first_order(const clink_analysis *c, double *a, double *tmp)
{
    int f = c->f, n = 2 * f;
    double *m = tmp, *rhs = tmp + (size_t) f * f;
    memcpy(m, c->mr, sizeof *m * (size_t) f * f);
    /* rhs = [K C] */
    memcpy(rhs, c->kr, sizeof *rhs * (size_t) f * f);
    memcpy(rhs + (size_t) f * f, c->cr, sizeof *rhs * (size_t) f * f);
    int info = analysis_solve(f, 2 * f, m, rhs);
    if (info != 0)
        return info;
    memset(a, 0, sizeof *a * (size_t) n * n);
    for (int j = 0; j < f; j++) {
        a[j + (size_t) n * (f + j)] = 1.0;
        for (int i = 0; i < f; i++) {
            a[(f + i) + (size_t) n * j] = -rhs[i + (size_t) f * j];
            a[(f + i) + (size_t) n * (f + j)] = -rhs[i + (size_t) f * (f + j)];
        }
    }
    return 0;
}

/* shape of eigenvector k (column k, or k and k + 1 for a pair) into shape (nq) */
static void modes_shape(const clink_analysis *c, const double *vr, const double *wi, int k,
                        double *shape, double complex *z)
{
    int f = c->f, n = 2 * f, nq = c->nq, big = 0;
    for (int i = 0; i < f; i++)
        z[i] = wi[k] != 0.0 ? vr[i + (size_t) n * k] + I * vr[i + (size_t) n * (k + 1)]
                            : vr[i + (size_t) n * k];
    /* dq = N z, complex; its largest component made 1 */
    double complex *dq = z + f;
    for (int q = 0; q < nq; q++) {
        double complex s = 0.0;
        for (int i = 0; i < f; i++)
            s += c->N[q + (size_t) nq * i] * z[i];
        dq[q] = s;
        if (cabs(s) > cabs(dq[big]))
            big = q;
    }
    double complex scale = cabs(dq[big]) > 0.0 ? 1.0 / dq[big] : 1.0;
    for (int q = 0; q < nq; q++)
        shape[q] = creal(dq[q] * scale);
}

static int modes_order(const void *pa, const void *pb)
{
    const clink_mode *a = pa, *b = pb;
    double ma = hypot(a->re, a->im), mb = hypot(b->re, b->im);
    if (ma != mb)
        return ma < mb ? -1 : 1;
    return (a->im > b->im) - (a->im < b->im);
}

/* the modes of the eigenvalues (wr, wi), shapes from vr; sorted by |lambda| */
static clink_status modes_collect(clink_analysis *c, const double *wr, const double *wi,
                                  const double *vr)
{
    int f = c->f, n = 2 * f, nq = c->nq, m = 0;
    double big = 0.0;
    double complex *z = malloc(sizeof *z * (size_t) (f + nq + 1));
    double *shapes = malloc(sizeof *shapes * ((size_t) nq * n + 1));
    clink_mode *modes = malloc(sizeof *modes * ((size_t) n + 1));
    if (z == NULL || shapes == NULL || modes == NULL) {
        free(z);
        free(shapes);
        free(modes);
        analysis_msg(c, "modes: out of memory");
        return CLINK_ERR_NOMEM;
    }
    for (int k = 0; k < n; k++)
        big = fmax(big, hypot(wr[k], wi[k]));
    double zero = fmax(1e-6 * big, 1e-8);
    for (int k = 0; k < n; k++) {
        if (wi[k] < 0.0)
            continue; /* the conjugate of the previous column */
        clink_mode *md = &modes[m];
        double mag = hypot(wr[k], wi[k]);
        md->re = wr[k];
        md->im = wi[k];
        md->frequency = mag / (2.0 * PI);
        md->damped_frequency = wi[k] / (2.0 * PI);
        md->zero = mag <= zero;
        md->damping_ratio = md->zero ? 0.0 : 0.0 - wr[k] / mag; /* +0, never -0 */
        md->unstable = !md->zero && wr[k] > zero;
        modes_shape(c, vr, wi, k, shapes + (size_t) nq * m, z);
        m++;
    }
    /* sort modes and their shapes together: sort indices through a copy */
    clink_mode *sorted = malloc(sizeof *sorted * ((size_t) m + 1));
    double *sshapes = malloc(sizeof *sshapes * ((size_t) nq * m + 1));
    if (sorted == NULL || sshapes == NULL) {
        free(sorted);
        free(sshapes);
        free(z);
        free(shapes);
        free(modes);
        analysis_msg(c, "modes: out of memory");
        return CLINK_ERR_NOMEM;
    }
    memcpy(sorted, modes, sizeof *sorted * (size_t) m);
    qsort(sorted, (size_t) m, sizeof *sorted, modes_order);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            if (memcmp(&sorted[i], &modes[j], sizeof *modes) == 0) {
                memcpy(sshapes + (size_t) nq * i, shapes + (size_t) nq * j,
                       sizeof *shapes * (size_t) nq);
                break;
            }
    free(z);
    free(shapes);
    free(modes);
    free(c->modes);
    free(c->shapes);
    c->modes = sorted;
    c->shapes = sshapes;
    c->nmodes = m;
    return CLINK_OK;
}

clink_status clink_analysis_modes(clink_analysis *c)
{
    if (c == NULL)
        return CLINK_ERR_ARG;
    clink_status st = analysis_null_space(c, c->q);
    if (st == CLINK_OK)
        st = analysis_reduced_matrices(c, c->q, c->v);
    if (st != CLINK_OK)
        return st;
    int f = c->f, n = 2 * f;
    if (f == 0) {
        c->nmodes = 0;
        return CLINK_OK;
    }
    double *a = malloc(sizeof *a * ((size_t) n * n * 2 + (size_t) 3 * f * f + 2 * (size_t) n));
    if (a == NULL) {
        analysis_msg(c, "modes: out of memory");
        return CLINK_ERR_NOMEM;
    }
    double *vr = a + (size_t) n * n, *tmp = vr + (size_t) n * n, *wr = tmp + (size_t) 3 * f * f;
    double *wi = wr + n;
    int info = modes_first_order(c, a, tmp);
    if (info != 0) {
        analysis_msg(c, "modes: the reduced mass matrix is singular (LAPACK dgesv info %d)", info);
        free(a);
        return CLINK_ERR_SINGULAR;
    }
    info = analysis_eig(n, a, wr, wi, vr);
    if (info != 0) {
        analysis_msg(c, "modes: LAPACK dgeev failed (info %d)", info);
        free(a);
        return info == -1000 ? CLINK_ERR_NOMEM : CLINK_ERR_LINSOLVE;
    }
    st = modes_collect(c, wr, wi, vr);
    free(a);
    return st;
}

int clink_analysis_mode_count(const clink_analysis *c)
{
    return c != NULL ? c->nmodes : 0;
}

clink_status clink_analysis_mode(const clink_analysis *c, int i, clink_mode *mode, double *shape)
{
    if (c == NULL || i < 0 || i >= c->nmodes)
        return CLINK_ERR_ARG;
    if (mode != NULL)
        *mode = c->modes[i];
    if (shape != NULL)
        memcpy(shape, c->shapes + (size_t) c->nq * i, sizeof *shape * (size_t) c->nq);
    return CLINK_OK;
}
