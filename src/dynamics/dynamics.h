/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynamics.h: equations of motion of a planar multibody system in index-1 form.
 *
 *   [ M      Phi_q^T ] [ qdd     ]   [ g     ]
 *   [ Phi_q  0       ] [ -lambda ] = [ gamma ]
 *
 * M = diag(m, m, J) per body, g the applied generalised forces, gamma the
 * acceleration right-hand side of the constraints (constraints.h), lambda the
 * Lagrange multipliers: the constraint forces on the bodies are +Phi_q^T lambda
 * (Nikravesh 1988, Eq. 13.13 with this sign). With Baumgarte stabilisation
 * gamma is replaced by gamma - 2 alpha Phi_dot - beta^2 Phi, Phi_dot = Phi_q v - nu
 * (Baumgarte 1972).
 *
 * The saddle matrix is sparse and kept in compressed-column form; KLU factors
 * it: klu_analyze once per topology (dyn_create), klu_refactor at each call,
 * and a full klu_factor when the refactorisation's pivots are too small
 * (klu_rcond below DYN_REFACTOR_RCOND). A matrix whose reciprocal pivot ratio
 * stays below DYN_SINGULAR_RCOND after a full factorisation is singular: the
 * constraint rows that depend on the others are found by Gram-Schmidt on the
 * rows of Phi_q and named in the message.
 *
 * Rank-deficient constraints (redundant joints, a singular position) are
 * handled, not refused: when either factorisation finds the matrix singular,
 * the Schur complement S = Phi_q M^-1 Phi_q^T is formed densely and factored
 * by a pivoted (rank-revealing) Cholesky, S = P L L^T P^T, rows whose pivot
 * falls to DYN_RANK_TOL of their diagonal being the dependent ones. The
 * accelerations are then the unique ones (the dependent rows follow from the
 * others) and the multipliers the set of least Euclidean norm among the
 * infinitely many that give the same constraint forces (docs/kernel.md). A
 * right-hand side that contradicts the dependent rows (a driver asking for a
 * motion the mechanism cannot make at its toggle position) is still an error
 * that names the singular position. After a factorisation that found
 * dependent rows the next one goes to the fallback at once (a structurally
 * redundant mechanism is rank-deficient everywhere); one that finds full rank
 * returns to the sparse solvers.
 *
 * Systems with at most DYN_SCHUR_MAX_ROWS constraint rows are solved instead
 * through the Schur complement S = Phi_q M^-1 Phi_q^T (M is diagonal) by dense
 * Cholesky; a pivot below DYN_SINGULAR_RCOND times the diagonal entry of S is
 * singular, named the same way. The threshold is the measured crossover of the
 * two solvers (docs/performance.md, "Mechanisms: saddle solver, Jacobian,
 * slider-crank, N-four-bar"). The factorisation is kept with the (t, q) it was
 * formed at and reused by every solve at the same state.
 */
#ifndef CLINK_DYNAMICS_H
#define CLINK_DYNAMICS_H

#include "dynamics/constraints.h"

#include <stdint.h>
#include <string.h>

#define DYN_REFACTOR_RCOND 1e-10
#define DYN_SINGULAR_RCOND 1e-13
/* at most this many constraint rows: Schur complement (bench/bench_saddle_threshold.c) */
#define DYN_SCHUR_MAX_ROWS 32
/* a Schur factorisation with a pivot ratio d_k / S_kk below this refines its solves once */
#define DYN_SCHUR_REFINE 1e-3
/* rank-revealing fallback: a row whose remaining pivot is at most this fraction of its
   diagonal in S depends on the others (sine of its angle to their span below 1e-6) */
#define DYN_RANK_TOL 1e-12
/* accelerations from a rank-deficient matrix must satisfy the dependent rows to this
   fraction of the size of their terms */
#define DYN_CONSISTENT_TOL 1e-6
/* a step's error estimate is projected where the smallest pivot ratio of the saddle
   factorisation is below this (rows within 1.8 degrees of dependence; project.c) */
#define DYN_ESTIMATE_RATIO 1e-3
/* the normal part of a whole estimate counts beyond this many roundings of its row
   (u sum |Phi_q,rc x_c|): what the projected states carry into the history (project.c) */
#define DYN_ESTIMATE_ROUNDING 1e3
/* a row whose rounding band (DYN_ESTIMATE_ROUNDING roundings) exceeds this fraction of its
   tolerance band (sum_c |Phi_q,rc| tol_c) has its part of a whole estimate removed (project.c) */
#define DYN_ESTIMATE_RESOLVED 0.1
/* a coordinate is resolved by the constraints to this many times what the rounding of
   its rows moves it by in a correction; where that is above its tolerance, its part of a
   whole estimate is dropped (project.c) */
#define DYN_ESTIMATE_RESOLUTION 10.0
/* the fallback forms S densely: at most this many constraint rows */
#define DYN_RANKDEF_MAX_ROWS 2000

/*
 * Extra generalised forces (the contact module adds contact forces here): adds
 * to g (array of ncoords) and to *power the power of these forces (W). Returns
 * 0, or > 0 for a recoverable failure (NaN), < 0 fatal.
 */
typedef int (*dyn_external_fn)(void *data, double t, const double *q, const double *v, double *g,
                               double *power);

typedef struct dyn_system dyn_system;

/* the model's joints with friction (joint_friction_solve.c; docs/friction.md) */
int dyn_joint_friction_count(const dyn_system *s);
/* the bristle states of the joints with a dynamic friction law (one each, in the joints'
   order), and the index of joint j's (-1: none) */
int dyn_joint_friction_states(const dyn_system *s);
int dyn_joint_friction_state_of(const dyn_system *s, int j);
/* the states z (m) the next evaluations of the accelerations read */
void dyn_joint_friction_load(dyn_system *s, const double *z);
/* z' (m/s) and d z' / d z (1/s) of the states at the last evaluation of the accelerations */
void dyn_joint_friction_rates(const dyn_system *s, double *zdot);
void dyn_joint_friction_decay(const dyn_system *s, double *diag);

/*
 * What the host of a simulation adds (src/sim/sim_inputs.c): forces (its inputs and its
 * user force: added to g and their power to *power, 0 or non-zero as dyn_external_fn), their
 * Jacobian (added to gq, gv; NULL: central differences of `forces`), a factor on each load
 * (NULL: 1) and the drivers' functions in force (NULL: the model's).
 */
typedef struct dyn_host {
    void *data;
    int (*forces)(void *data, double t, const double *q, const double *v, double *g, double *power);
    int (*jacobian)(void *data, double t, const double *q, const double *v, double *gq, double *gv);
    double (*load_scale)(void *data, int load, double t);
    const clink_function *drivers;
} dyn_host;

/* energies and powers of the applied loads at one state */
typedef struct dyn_energy {
    double kinetic;       /* J */
    double gravity;       /* potential energy of gravity, J (zero at y = 0) */
    double spring;        /* potential energy of springs, J */
    double power_loads;   /* power of non-conservative applied loads (dampers, actuators,
                             point forces, torques, external), W */
    double power_drivers; /* power of the driver constraint forces, W */
} dyn_energy;

/* Creates the system of a model (analyses the sparsity pattern). NULL if out of memory. */
dyn_system *dyn_create(const clink_model *m);
void dyn_destroy(dyn_system **sys);

/* the message of the last failure */
const char *dyn_error(const dyn_system *sys);

/*
 * 1 when every one of the n values x is finite (no infinity, no NaN), else 0: no
 * exponent field is all ones. The exponent field plus one unit of it reaches bit 63
 * only when the field is all ones, so ORs over the array and one test decide (four
 * elements per iteration into four ORs, the loop's own test amortised).
 */
static inline int dyn_all_finite(const double *x, int n)
{
    const uint64_t expo = (uint64_t) 0x7ff << 52, unit = (uint64_t) 1 << 52;
    uint64_t bad0 = 0, bad1 = 0, bad2 = 0, bad3 = 0, b0, b1, b2, b3;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        memcpy(&b0, x + i, sizeof b0);
        memcpy(&b1, x + i + 1, sizeof b1);
        memcpy(&b2, x + i + 2, sizeof b2);
        memcpy(&b3, x + i + 3, sizeof b3);
        bad0 |= (b0 & expo) + unit;
        bad1 |= (b1 & expo) + unit;
        bad2 |= (b2 & expo) + unit;
        bad3 |= (b3 & expo) + unit;
    }
    for (; i < n; i++) {
        memcpy(&b0, x + i, sizeof b0);
        bad0 |= (b0 & expo) + unit;
    }
    return ((bad0 | bad1 | bad2 | bad3) >> 63) == 0;
}

/* sets the external force hook (NULL to remove) */
void dyn_set_external(dyn_system *sys, dyn_external_fn fn, void *data);

/* sets what the host adds (NULL: nothing) */
void dyn_set_host(dyn_system *sys, const dyn_host *host);

/* the table of the bodies' cos and sin the constraints share with the contacts (NULL: none;
   constraints.h), kept by the caller for the system's life */
void dyn_set_trig(dyn_system *sys, kin_trig *trig);

/* the function driver k follows: the host's, else the model's */
const clink_function *dyn_driver_function(const dyn_system *sys, int k);
/* f'(t) of driver k at the t of the last dyn_accelerations (the nu of its row: the same
   evaluation of dyn_driver_function's function at that t) */
double dyn_driver_rate(const dyn_system *sys, int k);

/* Baumgarte parameters (1/s); both zero switch it off */
void dyn_set_baumgarte(dyn_system *sys, double alpha, double beta);

/*
 * Accelerations qdd (ncoords) and multipliers lambda (nconstraints, optional) at
 * (t, q, v). CLINK_ERR_SINGULAR (message names the joints and the time),
 * CLINK_ERR_NONFINITE for NaN in the input or result, CLINK_ERR_LINSOLVE.
 */
clink_status dyn_accelerations(dyn_system *sys, double t, const double *q, const double *v,
                               double *qdd, double *lambda);

/*
 * Projection onto the constraint manifold in the metric of M: solves
 * [M Phi_q^T; Phi_q 0][dx; mu] = [0; r]. position: Newton on Phi(q, t) = 0,
 * q += dq with r = -Phi, until max |Phi| <= tol (at most max_iter); velocity:
 * v += dv with r = nu - Phi_q v. *dq_norm and *dv_norm (optional) receive the
 * Euclidean norms of the corrections. CLINK_ERR_ASSEMBLY when Newton fails.
 */
clink_status dyn_project(dyn_system *sys, double t, double *q, double *v, double tol, int max_iter,
                         double *dq_norm, double *dv_norm);

/*
 * The projection of an integrator's step: dyn_project's, with at least one Newton
 * iteration on the positions where the factorisation at q has a pivot ratio of at least
 * DYN_ESTIMATE_RATIO; *project_estimate is 1 where it has not (near a singular position,
 * or no ratio known): the step's error estimate is then to be projected
 * (dyn_project_error), else left whole (project.c).
 */
clink_status dyn_project_step(dyn_system *sys, double t, double *q, double *v, double tol,
                              int max_iter, int *project_estimate);

/*
 * The error estimate of a step whose dyn_project_step left it whole: the part of
 * Phi_q eq and Phi_q ev within DYN_ESTIMATE_ROUNDING times the rounding of each row
 * (at q, v, and of t where the model has drivers) removed by a correction in the metric
 * of M, the rest kept (project.c).
 */
clink_status dyn_project_error_rounding(dyn_system *sys, double t, const double *q, const double *v,
                                        const double *tq, const double *tv, double *eq, double *ev);

/* Projects a vector pair (eq, ev) of position/velocity errors onto the tangent space at q. */
clink_status dyn_project_error(dyn_system *sys, double t, const double *q, double *eq, double *ev);

/* generalised applied forces g (ncoords) at (t, q, v), external hook included */
int dyn_applied_forces(dyn_system *sys, double t, const double *q, const double *v, double *g,
                       double *power_loads);

/*
 * Analytic Jacobian of the accelerations: jq = d qdd / dq and jv = d qdd / dv,
 * dense nq x nq, column-major (column c at jq + c nq), at (t, q, v). With
 * mu = -lambda, differentiating [M Phi_q^T; Phi_q 0][qdd; mu] = [g; gamma'] (gamma' with
 * the Baumgarte terms) gives one saddle solve per column with the factorisation
 * at (t, q):
 *   [M Phi_q^T; Phi_q 0][dqdd; dmu] = [dg - d(Phi_q^T) mu; dgamma' - d(Phi_q) qdd]
 * with d(Phi_q^T mu)/dq = sum_r mu_r H_r and d(Phi_q a)/dq = (H_r a)_r from the
 * Hessians of the rows (kin_eval_second), dgamma/dv = -2 H v, and the applied
 * forces' derivatives (springs, dampers, actuators, point forces; gravity and
 * torques are constant). The external hook's contribution comes from its
 * companion (dyn_set_external_jacobian) or, without one, from central
 * differences of the hook alone (4 nq calls of the hook, no saddle solve). Evaluates the
 * accelerations once (counted by the caller as one evaluation).
 */
clink_status dyn_jacobian(dyn_system *sys, double t, const double *q, const double *v, double *jq,
                          double *jv);

/*
 * The same Jacobian by central differences of dyn_accelerations (h = 6e-6
 * max(|x|, xmin), two evaluations per column, 4 nq in all), the reference the
 * analytic one is tested against. A larger xmin lessens the roundoff on
 * coordinates near zero; a smaller one the truncation error of stiff contacts.
 */
clink_status dyn_jacobian_fd(dyn_system *sys, double t, const double *q, const double *v,
                             double xmin, double *jq, double *jv);

/*
 * The derivatives of the applied forces, d g / dq and d g / dv, as the loads and the
 * external hook's companion add to them: dense (nq x nq, column-major: gq, gv; ptr NULL)
 * or by body blocks (ptr set: the partners of the body of column c, 0-based body c / 3,
 * are body[ptr[c / 3]] .. body[ptr[c / 3 + 1] - 1], ascending, and entry k holds a 3 x 3
 * block, gq + 9 k column by column). dyn_gjac_at gives the three rows of `body` (> 0) in
 * column col of dq (rate 0) or dv (rate 1); a block outside the pattern goes to scratch
 * and sets missed.
 */
typedef struct dyn_gjac {
    int nq;
    double *gq, *gv;
    const int *ptr, *body;
    int missed;
    double scratch[3];
} dyn_gjac;
double *dyn_gjac_at(dyn_gjac *J, int rate, int col, int body);

/* a dense dyn_gjac over gq and gv (nq x nq each) */
static inline dyn_gjac dyn_gjac_dense(int nq, double *gq, double *gv)
{
    dyn_gjac J = {.nq = nq, .gq = gq, .gv = gv};
    return J;
}

/*
 * Companion of the external hook: adds d g_ext / dq and d g_ext / dv to J (dyn_gjac_at).
 * Returns 0, or non-zero as the hook does.
 */
typedef int (*dyn_external_jac_fn)(void *data, double t, const double *q, const double *v,
                                   dyn_gjac *J);

/* sets the companion of the external hook (same data; NULL: central differences of the hook) */
void dyn_set_external_jacobian(dyn_system *sys, dyn_external_jac_fn fn);

/*
 * The Jacobian of the accelerations column by column, in time and memory proportional to
 * what couples: for each coordinate c, emit(ctx, rate, c, x) with x (nq, read-only, valid
 * at the rows of the bodies in the components of the joint graph of c's body and of its
 * contact and load partners, zero at the other rows of those bodies) column c of d qdd /
 * dq (rate 0) or d qdd / dv (rate 1). The same values as dyn_jacobian (same operations,
 * the force derivatives stored by body blocks, the saddle solves of columns in disjoint
 * components shared); with the host's forces, or an external hook without a companion,
 * dyn_jacobian's dense columns. The contact pairs must have been given
 * (dyn_jacobian_couple).
 */
typedef void (*dyn_column_fn)(void *ctx, int rate, int col, const double *x);
clink_status dyn_jacobian_columns(dyn_system *sys, double t, const double *q, const double *v,
                                  dyn_column_fn emit, void *ctx);
/* the bodies of each of the n contact pairs (2 n, 0: ground) whose forces the external
   hook adds: the partners of dyn_jacobian_columns beyond the model's loads */
clink_status dyn_jacobian_couple(dyn_system *sys, int n, const int *bodies);

/* the bodies (0: ground) constraint row r couples, for the Jacobian's pattern */
void dyn_row_bodies(const dyn_system *sys, int r, int *a, int *b);
/* nonzero when the host adds forces (they may couple any coordinates) */
int dyn_has_host_forces(const dyn_system *sys);

/* energies at (t, q, v); lambda (from dyn_accelerations) gives the driver power */
void dyn_energies(dyn_system *sys, double t, const double *q, const double *v, const double *lambda,
                  dyn_energy *e);
/* the kinetic energy and the potentials alone (the powers zero): what dyn_energies gives for
   them, without evaluating the applied loads (the output state, whose loads power the
   integrated work) */
void dyn_stored_energies(const dyn_system *sys, const double *q, const double *v, dyn_energy *e);

/*
 * Velocity response to a generalised impulse f (N s, ncoords) at q: solves
 * [M Phi_q^T; Phi_q 0][dv; -P] = [f; 0] (the constraint impulses P keep
 * Phi_q dv = 0). Used by the piecewise contact treatment.
 */
clink_status dyn_impulse_response(dyn_system *s, double t, const double *q, const double *f,
                                  double *dv);

/* max |Phi| (m or rad) and max |Phi_q v - nu| at (t, q, v) */
void dyn_violation(dyn_system *sys, double t, const double *q, const double *v, double *pos,
                   double *vel);
/* the same from Phi, Phi_q and nu as the last dyn_accelerations evaluated them (at its t, q
   and this v): the same bits without evaluating the constraints again, valid while nothing else
   evaluated them since (the output state: dyn_accelerations, dyn_stored_energies, this) */
void dyn_violation_last(const dyn_system *sys, const double *v, double *pos, double *vel);

/*
 * Power of the constraint forces on the constraint drift, lambda . (Phi_q v - nu)
 * (W), with Phi_q and nu of the last dyn_accelerations call (made at this v) and
 * its multipliers lambda: zero on the constraint manifold; the work of the
 * Baumgarte terms and of drift that the energy balance books (sim_audit.c).
 */
double dyn_constraint_power(const dyn_system *sys, const double *v, const double *lambda);

/*
 * dyn_constraint_power right after dyn_accelerations at this v (the same bits): with
 * Baumgarte's terms from the Phi_q v that call formed already, else computed anew. Phi_q
 * and nu must not have been evaluated again since (dyn_impulse_response forgets it).
 */
double dyn_rhs_constraint_power(const dyn_system *sys, const double *v, const double *lambda);

/* kinetic energy plus the potential energies of gravity and springs at (q, v), J */
double dyn_mechanical_energy(const dyn_system *sys, const double *q, const double *v);

/*
 * Constraint rows that depend on the rows before them at (t, q) (Gram-Schmidt on
 * the rows of Phi_q, within 1e-9): their number, and their names in list
 * ("joint 2 'B' equation 1, ..."). Structurally redundant constraints give a
 * positive count at every q.
 */
int dyn_dependent_rows(dyn_system *sys, double t, const double *q, char *list, size_t size);

/* power of the non-conservative applied loads at the last dyn_accelerations call, W */
double dyn_last_power_loads(const dyn_system *sys);

/*
 * counts of factorisations of the saddle matrix: full KLU factorisations
 * (klu_factor) and numeric factorisations of the analysed pattern (KLU
 * refactorisations plus dense Schur-complement factorisations)
 */
void dyn_counts(const dyn_system *sys, long *nfactor, long *nrefactor);

/* every kind of factorisation apart, and the solves that reused a factorisation */
typedef struct dyn_factor_stats {
    long klu_factor;    /* klu_factor calls */
    long klu_refactor;  /* klu_refactor calls */
    long schur;         /* Cholesky factorisations of the Schur complement */
    long reused;        /* solves at the (t, q) of the current factorisation */
    long refined;       /* Schur solves that took a step of iterative refinement */
    long rankdef;       /* rank-revealing (fallback) factorisations */
    long deficient;     /* ... that found dependent rows */
    int max_deficiency; /* the most dependent rows found at once */
} dyn_factor_stats;
void dyn_factor_counts(const dyn_system *sys, dyn_factor_stats *st);

/*
 * sizes of the KLU path (factor_klu.c): the saddle matrix's entries, the pattern and
 * in the current factorisation the entries of L and U (diagonals included) and of the
 * off-diagonal blocks of KLU's block triangular form (0 when no
 * KLU factorisation is held), and the entries KLU's analysis predicted for L + U
 */
typedef struct dyn_klu_sizes {
    long n;          /* order of the saddle matrix, nq + nc */
    long matrix_nnz; /* entries of [M Phi_q^T; Phi_q 0] */
    long factor_nnz; /* entries of L + U of the current factorisation */
    long predicted;  /* entries of L + U the symbolic analysis predicted */
} dyn_klu_sizes;
void dyn_klu_size(const dyn_system *sys, dyn_klu_sizes *sz);

typedef enum dyn_solver {
    DYN_SOLVER_AUTO = 0, /* Schur complement up to DYN_SCHUR_MAX_ROWS rows, KLU above */
    DYN_SOLVER_SCHUR = 1,
    DYN_SOLVER_KLU = 2,
    DYN_SOLVER_RANK = 3 /* the rank-revealing fallback at every factorisation */
} dyn_solver;

/* Chooses the saddle-point solver (for tests and benchmarks). CLINK_ERR_NOMEM. */
clink_status dyn_set_solver(dyn_system *sys, dyn_solver solver);

/* 1 when the Schur-complement path is in use */
int dyn_uses_schur(const dyn_system *sys);

/*
 * A restart point (state snapshots, src/sim/sim_snapshot.c). The solves depend on (t, q, v)
 * and on two pieces of history: the pivot order KLU's refactorisations reuse, and whether the
 * rank-revealing fallback is sticky. dyn_history gives the second; dyn_restart forgets the
 * current factorisation and KLU's pivot order (the next factorisation is a full one) and sets
 * the stickiness, so that two systems restarted alike solve alike, bit for bit.
 */
int dyn_history(const dyn_system *sys);
void dyn_restart(dyn_system *sys, int sticky);

#endif
