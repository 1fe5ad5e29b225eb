/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * newton_saddle.h: the BDF Newton system (I - gamma J) x = b of a constrained mechanism
 * solved in the saddle form of its accelerations, without J (dense over each joint
 * component) ever formed (newton_saddle.c, docs/kernel.md "The saddle Newton solve").
 *
 * With y = (q, v, ...) and J = [0 I; A_q A_v], where A_x = P S^-1 R_x (S the saddle
 * matrix [M Phi_q^T; Phi_q 0], R_q and R_v the derivatives of the saddle equations'
 * right-hand side, P the rows of qdd), dq = b_q + gamma dv eliminates the positions and
 *
 *   K [dv; nu] = gamma R_q b_q + S [b_v; 0],   K = S - (gamma^2 R_q + gamma R_v) P,
 *
 * K has the pattern of S plus the 3 x 3 blocks of each body with the bodies it shares a
 * joint, a load or a contact with: a chain's K is banded, and KLU factors it in O(N).
 */
#ifndef CLINK_NEWTON_SADDLE_H
#define CLINK_NEWTON_SADDLE_H

#include "dynamics/dynamics.h"

typedef struct dyn_newton dyn_newton;
/* the Jacobian's pieces at one (t, q, v): S, R_q, R_v in K's pattern */
typedef struct dyn_newton_jac dyn_newton_jac;

/* sizes and counts of a saddle Newton solver */
typedef struct dyn_newton_stats {
    long n;          /* order of K, nq + nc */
    long nnz;        /* entries of K's pattern */
    long factor_nnz; /* entries of L + U (and the off-diagonal blocks) of the last factorisation */
    long evals;      /* Jacobian evaluations (dyn_newton_eval) */
    long factors;    /* klu_factor calls */
    long refactors;  /* klu_refactor calls */
    long solves;     /* dyn_newton_solve calls */
} dyn_newton_stats;

/*
 * The pattern of K and KLU's analysis for the system's joints, loads and the contact pairs
 * given to dyn_jacobian_couple (to be called before). NULL with dyn_error's message when out
 * of memory or when KLU's analysis fails.
 */
dyn_newton *dyn_newton_create(dyn_system *s);
void dyn_newton_destroy(dyn_newton **nw);

/* storage of one Jacobian (NULL when out of memory); copy: dst = src */
dyn_newton_jac *dyn_newton_jac_create(const dyn_newton *nw);
void dyn_newton_jac_destroy(dyn_newton_jac *j);
void dyn_newton_jac_copy(const dyn_newton *nw, const dyn_newton_jac *src, dyn_newton_jac *dst);

/*
 * The pieces at (t, q, v) into j: S at q, R_q and R_v as dyn_jacobian forms them (the
 * applied forces' blocks, the constraints' Hessians; the host's forces left out: their
 * derivatives are not in K, CVODE's Newton iteration converges on the residual).
 * CLINK_OK or dyn_accelerations' status (message in dyn_error).
 */
clink_status dyn_newton_eval(dyn_newton *nw, double t, const double *q, const double *v,
                             dyn_newton_jac *j);

/* K of j at gamma assembled and factored (a refactorisation with KLU's last pivot order
   when it keeps a pivot ratio of DYN_REFACTOR_RCOND). CLINK_ERR_SINGULAR (redundant or
   singular constraints), CLINK_ERR_NOMEM, CLINK_ERR_LINSOLVE; message in dyn_error */
clink_status dyn_newton_factor(dyn_newton *nw, const dyn_newton_jac *j, double gamma);

/* dq, dv (nq each) of the Newton system with right-hand side (bq, bv), with the last
   factorisation; CLINK_OK, CLINK_ERR_LINSOLVE or CLINK_ERR_NONFINITE */
clink_status dyn_newton_solve(dyn_newton *nw, const double *bq, const double *bv, double *dq,
                              double *dv);

/* drops the numeric factorisation (KLU's pivot order): the next one is a full factorisation,
   so that two integrators started alike solve alike, bit for bit (as dyn_restart) */
void dyn_newton_forget(dyn_newton *nw);

void dyn_newton_get_stats(const dyn_newton *nw, dyn_newton_stats *st);

#endif
