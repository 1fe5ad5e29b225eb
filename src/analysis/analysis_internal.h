/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * analysis_internal.h: the analysis handle shared by the files of src/analysis.
 *
 *   analysis.c              the handle, its state, the null space of Phi_q, the reduced
 *                           residual and matrices, reactions, contact forces
 *   analysis_equilibrium.c  Newton with a line search, dynamic relaxation, refusals
 *   analysis_modes.c        eigenvalues of the reduced first-order form (dgeev)
 *   analysis_kinematics.c   the kinematic sweep of a driven mechanism
 *   analysis_lapack.c       the LAPACK routines, declared from their Fortran interfaces
 *
 * The equations are the simulation's: the state's accelerations come from dyn_accelerations
 * of the simulation's system (its loads, contacts and host forces), their derivatives from
 * dyn_jacobian (analytic, src/dynamics/jacobian.c).
 */
#ifndef CLINK_ANALYSIS_INTERNAL_H
#define CLINK_ANALYSIS_INTERNAL_H

#include "clink/analysis.h"
#include "dynamics/dynamics.h"

#include <stddef.h>

/* Phi_q's rank: singular values above this fraction of the largest */
#define ANALYSIS_RANK_TOL 1e-10
/* a reduced stiffness direction is zero below this fraction of the stiffness scale */
#define ANALYSIS_ZERO_STIFFNESS 1e-9
/* above this many constraint rows the null space comes from sparse saddle-point solves
   instead of the dense SVD of Phi_q, and the reduced stiffness and damping from central
   differences of the accelerations along it instead of the analytic Jacobian (analysis.c) */
#define ANALYSIS_SVD_MAX 48

/* the most coordinates an analysis takes (500 bodies): its matrices are dense */
#define ANALYSIS_MAX_COORDS 1500

struct clink_analysis {
    const clink_model *m;
    clink_sim *sim;
    dyn_system *dyn;   /* the simulation's: every force the integrator sees */
    dyn_system *plain; /* the model's loads alone (the contact forces by difference) */
    int nq, nc, nd;    /* coordinates, constraint rows, drivers */
    double t;
    double *q, *v, *qdd, *lam; /* the state analysed, its accelerations and multipliers */
    clink_function *drv;       /* nd: the drivers' functions in force */
    /* the linearisation at q */
    int f;                /* degrees of freedom: nq - rank Phi_q */
    int dense_always;     /* 1: the SVD and the analytic Jacobian whatever the size (tests) */
    double *N;            /* nq x f, orthonormal columns spanning the null space of Phi_q */
    double *mr, *kr, *cr; /* f x f */
    double *jq, *jv;      /* nq x nq */
    double *phiq;         /* nc x nq */
    kin_row *rows;        /* nc: the rows of Phi_q */
    int *ba, *bb;         /* nc: their bodies */
    double *work;
    size_t nwork;
    /* modes */
    int nmodes;
    clink_mode *modes;
    double *shapes; /* nq x nmodes */
    char msg[1024];
};

/* the message of a failure on a */
void analysis_msg(clink_analysis *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* the dense Phi_q (nc x nq, column-major) at (t, q) into a->phiq */
void analysis_phiq(clink_analysis *a, const double *q);
/* N and f at q (SVD of Phi_q, or projections through the sparse saddle solver above
   ANALYSIS_SVD_MAX rows): CLINK_OK, or CLINK_ERR_LINSOLVE / NOMEM with the message */
clink_status analysis_null_space(clink_analysis *a, const double *q);
/* the accelerations at (t, q, v) into a->qdd, a->lam */
clink_status analysis_accelerations(clink_analysis *a, const double *q, const double *v);
/* r = N^T M qdd (f): the generalised forces along the free directions */
void analysis_residual(const clink_analysis *a, double *r);
/* the same with the columns of basis (nq x f) in place of N: the residual at a trial pose in the
   basis of the pose a Newton step started from */
void analysis_residual_in(const clink_analysis *a, const double *basis, double *r);
/* M qdd (nq) at the accelerations last computed: the generalised forces with the reactions */
void analysis_generalised_forces(const clink_analysis *a, double *g);
/* M_r, K_r, C_r at (q, v) with N at q (dyn_jacobian, or differences above ANALYSIS_SVD_MAX) */
clink_status analysis_reduced_matrices(clink_analysis *a, const double *q, const double *v);
/* the scale of the forces at the state: max |g| and the weights m |gravity| (N), >= 1e-12 */
double analysis_force_scale(clink_analysis *a);
/* "body 'b' x 0.7, ..." of a coordinate vector */
void analysis_describe(const clink_analysis *a, const double *x, char *buf, size_t size);
/* scratch of n doubles in a->work: CLINK_OK or CLINK_ERR_NOMEM */
clink_status analysis_work(clink_analysis *a, size_t n);

/* ---- LAPACK (analysis_lapack.c): info of the routine, 0 on success ---- */

/* singular values s (min(m, n)) and, when not NULL, the full U (m x m) and V^T (n x n) of a
   (m x n, column-major, destroyed) */
int analysis_svd(int m, int n, double *a, double *s, double *u, double *vt);
/* eigenvalues (wr, wi) and right eigenvectors (vr, n x n; NULL: none) of a (n x n, destroyed) */
int analysis_eig(int n, double *a, double *wr, double *wi, double *vr);
/* solves a x = b (n x n, nrhs columns) in place by LU with partial pivoting (a destroyed) */
int analysis_solve(int n, int nrhs, double *a, double *b);

#endif
