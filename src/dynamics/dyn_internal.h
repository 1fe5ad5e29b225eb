/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dyn_internal.h: what the files of src/dynamics/ share behind dynamics.h.
 *
 * The system (struct dyn_system) holds the model's sizes and the state every
 * evaluation writes: Phi, Phi_q (one kin_row per constraint row), nu, gamma,
 * the right-hand side and solution of the saddle system
 *
 *   [ M      Phi_q^T ] [ x ]   [ f ]
 *   [ Phi_q  0       ] [ z ] = [ r ]     (in place in rhs: x then z)
 *
 * and the factorisation in use. Each factorisation is a table of operations
 * (dyn_factor_ops) over its own state, which only its file sees:
 *
 *   factor_klu.c    sparse LU of the whole saddle matrix (KLU);
 *   factor_schur.c  dense Cholesky of the Schur complement S = Phi_q M^-1 Phi_q^T,
 *                   up to DYN_SCHUR_MAX_ROWS rows;
 *   factor_rank.c   the rank-revealing fallback (pivoted Cholesky of S, the
 *                   multipliers of least norm) when either finds the matrix singular.
 *
 * newton_saddle.c factors BDF's Newton matrix in the saddle form (newton_saddle.h) with
 * KLU of its own. saddle.c chooses among them (dyn_factor, dyn_solve); the other files
 * (loads.c, jacobian.c, project.c, energy.c, diagnose.c) call those two only.
 */
#ifndef CLINK_DYN_INTERNAL_H
#define CLINK_DYN_INTERNAL_H

#include "dynamics/dynamics.h"

#include <math.h>
#include <stddef.h>

/*
 * A factorisation of the saddle matrix at the Phi_q in s->jac:
 *   setup    allocates its state and analyses the pattern, once (dyn_create and
 *            dyn_set_solver call it for KLU and Schur; the fallback calls its own
 *            at its first factorisation); returns at once when already done,
 *            CLINK_ERR_NOMEM when out of memory (leaving nothing half made);
 *   factor   factors the matrix at s->jac: CLINK_OK, CLINK_ERR_SINGULAR for a
 *            singular matrix (the driver then tries the rank-revealing fallback
 *            and names the dependent rows), or another status, message set;
 *   solve    solves in place on s->rhs with the last successful factorisation
 *            (the driver checks that the result is finite);
 *   release  frees the state (safe when setup never ran or failed);
 *   pivot_ratio  the reciprocal pivot ratio of the last factor call, quoted by
 *            the message of a singular matrix (NULL: never reported that way).
 */
typedef struct dyn_factor_ops {
    clink_status (*setup)(dyn_system *s);
    clink_status (*factor)(dyn_system *s);
    clink_status (*solve)(dyn_system *s);
    void (*release)(dyn_system *s);
    double (*pivot_ratio)(const dyn_system *s);
} dyn_factor_ops;

extern const dyn_factor_ops dyn_klu_ops;   /* factor_klu.c */
extern const dyn_factor_ops dyn_schur_ops; /* factor_schur.c */
extern const dyn_factor_ops dyn_rank_ops;  /* factor_rank.c */

/* factor_klu.c: drops the numeric factorisation (its pivot order): the next is a full one */
void dyn_klu_forget(dyn_system *s);

struct dyn_system {
    const clink_model *m;
    int nq, nc, n;
    int *row_a, *row_b; /* bodies of each constraint row */
    double *mass;       /* diagonal of M, nq */
    kin_row *jac;
    double *phi, *nu, *gamma, *rhs, *work;
    double alpha, beta;
    dyn_external_fn ext;
    dyn_external_jac_fn ext_jac;
    void *ext_data;
    dyn_host host;  /* what the host of a simulation adds (zero: nothing) */
    kin_trig *trig; /* the bodies' cos and sin shared with the contacts (dyn_set_trig), or NULL */
    /* analytic Jacobian (dyn_jacobian), allocated at its first call (jx_gdq, jx_gdv: the
       dense force derivatives, nq x nq, by dyn_jacobian alone) */
    joint_hessian *jx_hess;
    kin_row *jx_gq;
    double *jx_qdd, *jx_mu, *jx_gdq, *jx_gdv, *jx_g0, *jx_g1, *jx_x;
    /* the Jacobian by columns (jacobian_columns.c): the contact pairs given (2 bodies each);
       built at the first call after them: each body's partners (jc_ptr, jc_body: itself,
       the other bodies of its loads and contacts, ascending) and their force derivative
       blocks (9 per partner, jc_gq, jc_gv), each body's constraint rows (jc_rptr, jc_rows),
       the bodies by colour (jc_cptr, jc_cbody: a colour's bodies share the saddle solves);
       the dense columns of the fallback (jc_dq, jc_dv, nq x nq) */
    int jc_npair, jc_built, jc_ncolour;
    int *jc_pair, *jc_ptr, *jc_body, *jc_rptr, *jc_rows, *jc_cptr, *jc_cbody;
    double *jc_gq, *jc_gv, *jc_dq, *jc_dv;
    /* the factorisations: the sparse one chosen (dyn_set_solver: Schur or KLU) and
       the state of each, private to its file */
    const dyn_factor_ops *ops;
    struct dyn_klu *klu;
    struct dyn_schur *schur;
    struct dyn_rank *rank;
    dyn_factor_stats stats;
    /* the rank-revealing fallback: rd_on, the current factorisation is the
       rank-revealing one; rd_sticky, the last one found a deficiency: factor the
       next one this way at once; rd_forced, always this way (DYN_SOLVER_RANK) */
    int rd_on, rd_sticky, rd_forced;
    /* the state the current factorisation belongs to */
    int have_fact;
    double key_t;
    double *key_q;
    double t_last;      /* time of the last evaluation (for messages) */
    double power_loads; /* power of the non-conservative loads at the last evaluation, W */
    /* Phi_q v per row from the products of the last dyn_accelerations with Baumgarte's
       terms (saddle_gamma), for the audit's constraint power (dyn_rhs_constraint_power);
       rowv_at: the v it was formed at, NULL when none is current */
    double *rowv;
    const double *rowv_at;
    /* joint friction (joint_friction_solve.c): joints with friction, the right-hand side of
       the frictionless solve, the iterate's right-hand side and normal forces, iterations */
    int jf_count;
    double *jf_base, *jf_g, *jf_fn;
    long jf_iterations;
    /* the dynamic laws' states: each joint's index (-1: none), their number, and z, z',
       d z' / d z of the last evaluation (3 jf_nz) */
    int *jf_zidx, jf_nz;
    double *jf_z;
    char msg[512];
};

/* saddle.c: the message of the last failure (printf format) */
void dyn_set_msg(dyn_system *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * saddle.c: factors the saddle matrix at (t, q) with s->jac holding Phi_q(q),
 * unless the current factorisation was formed at the same (t, q); solves the
 * factored system in place on s->rhs.
 */
clink_status dyn_factor(dyn_system *s, double t, const double *q);
clink_status dyn_solve(dyn_system *s);

/* factor_rank.c: 1 when the current rank-revealing factorisation found dependent rows */
int dyn_rank_deficient(const dyn_system *s);
/* factor_rank.c: keeps the right-hand side of an acceleration solve, then checks that
   the accelerations satisfy the dependent rows too (0, and the message, if not) */
void dyn_rank_keep_rhs(dyn_system *s);
int dyn_rank_consistent(dyn_system *s, double t);

/* jacobian.c: what every column of the Jacobian needs at (t, q, v): the accelerations and
   mu = -lambda (jx_qdd, jx_mu), the constraints' Hessians (jx_hess, jx_gq) */
clink_status dyn_jacobian_prepare(dyn_system *s, double t, const double *q, const double *v);
/* jacobian.c: constraint row r's entry of the right-hand side of column c (rate 0: d/dq,
   1: d/dv), the rotation of the multipliers subtracted from the top block x (rate 0) */
double dyn_jacobian_row_entry(dyn_system *s, int r, int c, int rate, const double *v, int baum,
                              double *x);
/* jacobian_columns.c: the columns' structure (jc_*), dyn_jacobian_prepare and the force
   blocks jc_gq, jc_gv at (t, q, v) (the host's forces and a hook without companion left
   out), for the saddle Newton matrix (newton_saddle.c) */
clink_status dyn_jacobian_blocks(dyn_system *s, double t, const double *q, const double *v);
/* jacobian_columns.c: the columns' structure alone (each body's partners and rows) */
clink_status dyn_jacobian_structure(dyn_system *s);
/* jacobian.c: frees the Jacobians' members (dyn_destroy) */
void dyn_jacobian_free(dyn_system *s);

/* loads.c: d g / dq and d g / dv of the applied loads (hook excluded), added to J */
void dyn_loads_jacobian(dyn_system *s, double t, const double *q, const double *v, dyn_gjac *J);
/* the strain energy of beam element f (CLINK_FORCE_BEAM) at q (loads.c), J */
double dyn_beam_energy(const clink_force_def *f, const double *q);
/* loads.c: the external hook's part by central differences (scratch jx_g0, jx_g1, jx_x) */
int dyn_external_jacobian_fd(dyn_system *s, double t, const double *q, const double *v, double *gq,
                             double *gv);
/* loads.c: the host's forces' part (its companion, or central differences) */
int dyn_host_jacobian(dyn_system *s, double t, const double *q, const double *v, double *gq,
                      double *gv);

/* the constraints at (t, q, v) with the drivers' functions in force (kin_eval_with) */
static inline void dyn_kin_eval(const dyn_system *s, double t, const double *q, const double *v,
                                double *phi, kin_row *jac, double *nu, double *gamma)
{
    kin_eval_trig(s->m, s->host.drivers, s->trig, t, q, v, phi, jac, nu, gamma);
}

/* joint_friction_solve.c: the fixed point of joint friction and reactions after a solve
   whose right-hand side was base (n), s->rhs its solution */
clink_status dyn_joint_friction(dyn_system *s, double t, const double *q, const double *v,
                                const double *base);
/* joint_friction_solve.c: the states of the dynamic laws (jf_zidx, jf_nz, jf_z); 0, or -1
   when out of memory */
int dyn_joint_friction_setup(dyn_system *s);

/* diagnose.c: the message of a singular matrix, naming the dependent rows */
void dyn_explain_singular(dyn_system *s, double t);
/* diagnose.c: the message of a Newton projection that did not converge */
void dyn_assembly_failed(dyn_system *s, double t, double worst, int it);

static inline int dyn_finite_all(const double *x, int n)
{
    return dyn_all_finite(x, n); /* by exponent bits (dynamics.h) */
}

/* does row r touch coordinate c? slot 0..5 or -1 */
static inline int dyn_row_slot(const dyn_system *s, int r, int c)
{
    int body = c / 3 + 1, k = c % 3;
    if (s->row_a[r] == body)
        return k;
    if (s->row_b[r] == body)
        return 3 + k;
    return -1;
}

/* Phi_q x for row r */
static inline double dyn_row_times(const dyn_system *s, int r, const double *x)
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

#endif
