/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_newton.c: BDF's Newton system solved by the problem in its own structure
 * (integ_problem.newton, integrator.h): a SUNMatrix that holds the problem's Jacobian
 * rather than its entries, and a direct SUNLinearSolver over it.
 *
 * CVODE's linear solver interface keeps its policy of Jacobian reuse (a saved Jacobian
 * copied back into the Newton matrix, a new one after 51 steps, a failed iteration or a
 * large change of gamma) by three matrix operations: copy, zero and A = c A + I. Here a
 * matrix is the problem's Jacobian value (jac_create) with a scale c and an identity
 * flag: the Jacobian function evaluates the value (jac_eval), copy copies it (jac_copy),
 * A = -gamma J + I records gamma; the solver's setup factors I - gamma J in the problem's
 * form (setup) and its solve solves with it (solve). J is never formed: for a chain of N
 * bodies its velocity blocks are dense (9 N^2 entries each), while the mechanism's form
 * of the same system is banded (src/dynamics/newton_saddle.c). The solutions are those of
 * the sparse path up to rounding, and CVODE's own scaling of the solution after a change
 * of gamma (direct solvers with BDF) applies as there.
 */
#include "integrators/cvode/cvode_integ.h"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>

#include <stdio.h>
#include <stdlib.h>

/* a matrix: the problem's Jacobian, times scale, plus the identity when ident is set */
typedef struct cvode_newton_mat {
    cvode_integ *cv;
    void *jac;
    double scale;
    int ident;
} cvode_newton_mat;

/* the linear solver's state: the last flag */
typedef struct cvode_newton_ls {
    cvode_integ *cv;
    int last;
} cvode_newton_ls;

#define NW_MAT(A) ((cvode_newton_mat *) (A)->content)
#define NW_LS(S)  ((cvode_newton_ls *) (S)->content)

static SUNMatrix nw_mat_new(cvode_integ *cv);

static SUNMatrix_ID nw_mat_id(SUNMatrix A)
{
    (void) A;
    return SUNMATRIX_CUSTOM;
}

static SUNMatrix nw_mat_clone(SUNMatrix A)
{
    return nw_mat_new(NW_MAT(A)->cv);
}

static void nw_mat_destroy(SUNMatrix A)
{
    if (!A)
        return;
    cvode_newton_mat *m = NW_MAT(A);
    if (m) {
        if (m->jac)
            m->cv->p.newton->jac_destroy(m->cv->p.data, m->jac);
        free(m);
    }
    A->content = NULL;
    SUNMatFreeEmpty(A);
}

/* zero: the value is about to be evaluated again */
static int nw_mat_zero(SUNMatrix A)
{
    NW_MAT(A)->scale = 1.0;
    NW_MAT(A)->ident = 0;
    return 0;
}

static int nw_mat_copy(SUNMatrix A, SUNMatrix B)
{
    cvode_newton_mat *a = NW_MAT(A), *b = NW_MAT(B);
    a->cv->p.newton->jac_copy(a->cv->p.data, a->jac, b->jac);
    b->scale = a->scale;
    b->ident = a->ident;
    return 0;
}

/* A = c A + I: what CVODE forms, I - gamma J, from J alone */
static int nw_mat_scaleaddi(sunrealtype c, SUNMatrix A)
{
    cvode_newton_mat *m = NW_MAT(A);
    if (m->ident)
        return -1; /* never asked by CVODE: (c (s J + I) + I) is not I - gamma J */
    m->scale *= c;
    m->ident = 1;
    return 0;
}

static SUNMatrix nw_mat_new(cvode_integ *cv)
{
    SUNMatrix A = SUNMatNewEmpty(cv->ctx);
    cvode_newton_mat *m = calloc(1, sizeof *m);
    void *jac = cv->p.newton->jac_create(cv->p.data);
    if (!A || !m || !jac) {
        if (jac)
            cv->p.newton->jac_destroy(cv->p.data, jac);
        free(m);
        if (A)
            SUNMatFreeEmpty(A);
        return NULL;
    }
    m->cv = cv;
    m->jac = jac;
    m->scale = 1.0;
    A->content = m;
    A->ops->getid = nw_mat_id;
    A->ops->clone = nw_mat_clone;
    A->ops->destroy = nw_mat_destroy;
    A->ops->zero = nw_mat_zero;
    A->ops->copy = nw_mat_copy;
    A->ops->scaleaddi = nw_mat_scaleaddi;
    return A;
}

/* CVODE's Jacobian function: the problem's value at (t, y) */
static int nw_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
                  N_Vector t2, N_Vector t3)
{
    (void) fy;
    (void) t1;
    (void) t2;
    (void) t3;
    cvode_integ *cv = ud;
    cvode_newton_mat *m = NW_MAT(J);
    m->scale = 1.0;
    m->ident = 0;
    return cv->p.newton->jac_eval(cv->p.data, t, N_VGetArrayPointer(y), m->jac);
}

static SUNLinearSolver_Type nw_ls_type(SUNLinearSolver S)
{
    (void) S;
    return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID nw_ls_id(SUNLinearSolver S)
{
    (void) S;
    return SUNLINEARSOLVER_CUSTOM;
}

/* CVODE's start and each re-initialisation: the next setup without the last one's pivots
   (as SUNLinSol_KLU's first factorisation after its initialize) */
static int nw_ls_initialize(SUNLinearSolver S)
{
    cvode_newton_ls *ls = NW_LS(S);
    ls->last = 0;
    ls->cv->p.newton->restart(ls->cv->p.data);
    return 0;
}

/* a problem's return as a linear solver's flag: recoverable > 0, fatal < 0 */
static int nw_flag(int rc)
{
    return rc == 0 ? 0 : rc > 0 ? SUNLS_PACKAGE_FAIL_REC : -1;
}

/* factors I - gamma J (A holds it as J, scale -gamma, identity) */
static int nw_ls_setup(SUNLinearSolver S, SUNMatrix A)
{
    cvode_newton_ls *ls = NW_LS(S);
    cvode_newton_mat *m = NW_MAT(A);
    if (!m->ident) {
        ls->last = -1;
        return ls->last;
    }
    ls->last = nw_flag(ls->cv->p.newton->setup(ls->cv->p.data, m->jac, -m->scale));
    return ls->last;
}

static int nw_ls_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol)
{
    (void) A;
    (void) tol;
    cvode_newton_ls *ls = NW_LS(S);
    N_VScale(1.0, b, x);
    ls->last = nw_flag(ls->cv->p.newton->solve(ls->cv->p.data, N_VGetArrayPointer(x)));
    return ls->last;
}

static sunindextype nw_ls_last(SUNLinearSolver S)
{
    return NW_LS(S)->last;
}

static int nw_ls_free(SUNLinearSolver S)
{
    if (!S)
        return 0;
    free(S->content);
    S->content = NULL;
    SUNLinSolFreeEmpty(S);
    return 0;
}

static SUNLinearSolver nw_ls_new(cvode_integ *cv)
{
    SUNLinearSolver S = SUNLinSolNewEmpty(cv->ctx);
    cvode_newton_ls *ls = calloc(1, sizeof *ls);
    if (!S || !ls) {
        free(ls);
        if (S)
            SUNLinSolFreeEmpty(S);
        return NULL;
    }
    ls->cv = cv;
    S->content = ls;
    S->ops->gettype = nw_ls_type;
    S->ops->getid = nw_ls_id;
    S->ops->initialize = nw_ls_initialize;
    S->ops->setup = nw_ls_setup;
    S->ops->solve = nw_ls_solve;
    S->ops->lastflag = nw_ls_last;
    S->ops->free = nw_ls_free;
    return S;
}

int cvode_newton_attach(cvode_integ *cv, char *msg, size_t n)
{
    cv->J = nw_mat_new(cv);
    cv->LS = cv->J ? nw_ls_new(cv) : NULL;
    if (!cv->J || !cv->LS) {
        snprintf(msg, n,
                 "out of memory: the BDF Newton matrix in the mechanism's saddle form (%d "
                 "components) cannot be allocated",
                 cv->p.n);
        return -1;
    }
    int rc = CVodeSetLinearSolver(cv->mem, cv->LS, cv->J);
    const char *call = "CVodeSetLinearSolver";
    if (rc == CVLS_SUCCESS) {
        rc = CVodeSetJacFn(cv->mem, nw_jac);
        call = "CVodeSetJacFn";
    }
    if (rc != CVLS_SUCCESS) {
        char flag[64];
        snprintf(msg, n, "CVODE: %s failed with %d (%s)", call, rc,
                 ode_flag_name(rc, flag, sizeof flag));
        return rc == CVLS_MEM_FAIL ? -1 : -2;
    }
    cv->newton = 1;
    return 0;
}
