/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The LAPACK routines of the analysis (Anderson et al. 1999): dgesvd (singular values and
 * vectors: the null space of Phi_q, the rank of the reduced stiffness, the dead points of a
 * sweep), dgeev (eigenvalues and right eigenvectors of a general matrix: the modes), dgesv
 * (LU with partial pivoting). Declared here from their Fortran interfaces (every argument
 * by reference, column-major arrays); the workspace is asked for by a query (lwork = -1).
 */
#include "analysis/analysis_internal.h"

#include <stdlib.h>

void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, double *a,
             const int *lda, double *s, double *u, const int *ldu, double *vt, const int *ldvt,
             double *work, const int *lwork, int *info);
void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda,
            double *wr, double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr,
            double *work, const int *lwork, int *info);
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
            const int *ldb, int *info);

int analysis_svd(int m, int n, double *a, double *s, double *u, double *vt)
{
    int lda = m > 1 ? m : 1, ldu = u != NULL && m > 1 ? m : 1, ldvt = n > 1 ? n : 1, lwork = -1;
    int info = 0;
    double q = 0.0, u0 = 0.0, *work;
    const char *jobu = u != NULL ? "A" : "N", *jobvt = vt != NULL ? "A" : "N";

    if (m == 0 || n == 0)
        return 0;
    dgesvd_(jobu, jobvt, &m, &n, a, &lda, s, u != NULL ? u : &u0, &ldu, vt, &ldvt, &q, &lwork,
            &info);
    if (info != 0)
        return info;
    lwork = (int) q;
    work = malloc(sizeof *work * (size_t) (lwork > 1 ? lwork : 1));
    if (work == NULL)
        return -1000;
    dgesvd_(jobu, jobvt, &m, &n, a, &lda, s, u != NULL ? u : &u0, &ldu, vt, &ldvt, work, &lwork,
            &info);
    free(work);
    return info;
}

int analysis_eig(int n, double *a, double *wr, double *wi, double *vr)
{
    int lda = n > 1 ? n : 1, ldvl = 1, ldvr = n > 1 ? n : 1, lwork = -1, info = 0;
    double q = 0.0, vl = 0.0, *work;
    const char *jobvr = vr != NULL ? "V" : "N";

    if (n == 0)
        return 0;
    dgeev_("N", jobvr, &n, a, &lda, wr, wi, &vl, &ldvl, vr, &ldvr, &q, &lwork, &info);
    if (info != 0)
        return info;
    lwork = (int) q;
    work = malloc(sizeof *work * (size_t) (lwork > 1 ? lwork : 1));
    if (work == NULL)
        return -1000;
    dgeev_("N", jobvr, &n, a, &lda, wr, wi, &vl, &ldvl, vr, &ldvr, work, &lwork, &info);
    free(work);
    return info;
}

int analysis_solve(int n, int nrhs, double *a, double *b)
{
    int lda = n > 1 ? n : 1, info = 0;
    int *ipiv;

    if (n == 0)
        return 0;
    ipiv = malloc(sizeof *ipiv * (size_t) n);
    if (ipiv == NULL)
        return -1000;
    dgesv_(&n, &nrhs, a, &lda, ipiv, b, &lda, &info);
    free(ipiv);
    return info;
}
