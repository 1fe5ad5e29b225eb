/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * saddle.c: the index-1 equations of motion (dynamics.h), the driver of the
 * saddle-point solves:
 *
 *   [ M      Phi_q^T ] [ qdd     ]   [ g      ]
 *   [ Phi_q  0       ] [ -lambda ] = [ gamma' ],
 *
 * gamma' = gamma - 2 alpha Phi_dot - beta^2 Phi with Baumgarte's terms
 * (Baumgarte 1972), M = diag(m, m, J) per body. It creates the system, chooses
 * the factorisation (dyn_set_solver: the Schur complement up to
 * DYN_SCHUR_MAX_ROWS constraint rows, KLU above; dyn_internal.h, factor_*.c),
 * falls back to the rank-revealing one when that finds the matrix singular,
 * and assembles the right-hand sides of the accelerations and of the impulse
 * response. A model without constraints (free bodies: a granular chain) skips
 * every factorisation: the matrix is the diagonal M, and qdd = M^-1 g (5% of a
 * 700-bead chain's time).
 *
 * A factorisation is kept with the (t, q) it was formed at: the Jacobian
 * depends on q only (on t too should a constraint ever need it), so the last
 * Newton iteration of dyn_project, its velocity projection, dyn_project_error,
 * dyn_impulse_response, and dyn_accelerations at the same state (the velocity
 * columns of the finite-difference Jacobian, the output point) solve with one
 * factorisation.
 */
#include "dynamics/dyn_internal.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dyn_set_msg(dyn_system *s, const char *fmt, ...)
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

void dyn_set_trig(dyn_system *sys, kin_trig *trig)
{
    sys->trig = trig;
}

void dyn_set_host(dyn_system *sys, const dyn_host *host)
{
    if (host)
        sys->host = *host;
    else
        memset(&sys->host, 0, sizeof sys->host);
}

const clink_function *dyn_driver_function(const dyn_system *sys, int k)
{
    return sys->host.drivers ? &sys->host.drivers[k] : &sys->m->d.drivers[k].def.function;
}

double dyn_driver_rate(const dyn_system *sys, int k)
{
    return sys->nu[sys->m->driver_row[k]];
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
    *nfactor = sys->stats.klu_factor;
    *nrefactor = sys->stats.klu_refactor + sys->stats.schur;
}

void dyn_factor_counts(const dyn_system *sys, dyn_factor_stats *st)
{
    *st = sys->stats;
}

int dyn_uses_schur(const dyn_system *sys)
{
    return sys->ops == &dyn_schur_ops;
}

void dyn_destroy(dyn_system **sys)
{
    if (!sys || !*sys)
        return;
    dyn_system *s = *sys;
    dyn_klu_ops.release(s);
    dyn_schur_ops.release(s);
    dyn_rank_ops.release(s);
    free(s->row_a);
    free(s->row_b);
    free(s->mass);
    free(s->jac);
    free(s->phi);
    free(s->nu);
    free(s->gamma);
    free(s->rhs);
    free(s->work);
    free(s->key_q);
    free(s->rowv);
    dyn_jacobian_free(s);
    free(s->jf_base);
    free(s->jf_g);
    free(s->jf_fn);
    free(s->jf_zidx);
    free(s->jf_z);
    free(s);
    *sys = NULL;
}

/* the arrays sized by the coordinates and the constraint rows; 0, or -1 if out of memory */
static int dyn_alloc(dyn_system *s)
{
    int nq = s->nq, nc = s->nc, n = s->n;
    size_t nr = (size_t) (nc > 0 ? nc : 1);
    s->row_a = calloc(nr, sizeof(int));
    s->row_b = calloc(nr, sizeof(int));
    s->mass = calloc((size_t) nq, sizeof(double));
    s->jac = calloc(nr, sizeof(kin_row));
    s->phi = calloc(nr, sizeof(double));
    s->nu = calloc(nr, sizeof(double));
    s->gamma = calloc(nr, sizeof(double));
    s->rhs = calloc((size_t) n, sizeof(double));
    s->work = calloc((size_t) n, sizeof(double));
    s->key_q = calloc((size_t) (nq > 0 ? nq : 1), sizeof(double));
    s->rowv = calloc(nr, sizeof(double));
    if (!s->row_a || !s->row_b || !s->mass || !s->jac || !s->phi || !s->nu || !s->gamma ||
        !s->rhs || !s->work || !s->key_q || !s->rowv)
        return -1;
    return 0;
}

/*
 * The system of a model: the masses, the bodies of each constraint row, the
 * KLU pattern and its analysis (always: dyn_set_solver may choose KLU later),
 * and the Schur complement's structures when the rows are few enough.
 */
dyn_system *dyn_create(const clink_model *m)
{
    dyn_system *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->m = m;
    s->nq = m->ncoords;
    s->nc = m->nconstraints;
    s->n = s->nq + s->nc;
    s->ops = &dyn_klu_ops;
    if (dyn_alloc(s) != 0) {
        dyn_destroy(&s);
        return NULL;
    }
    kin_row_bodies(m, s->row_a, s->row_b);
    s->jf_count = dyn_joint_friction_count(s);
    if (s->jf_count > 0 && (!(s->jf_base = calloc((size_t) s->n, sizeof(double))) ||
                            dyn_joint_friction_setup(s) != 0)) {
        dyn_destroy(&s);
        return NULL;
    }
    for (int i = 1; i < m->d.nbodies; i++) {
        s->mass[3 * (i - 1)] = m->d.bodies[i].def.mass;
        s->mass[3 * (i - 1) + 1] = m->d.bodies[i].def.mass;
        s->mass[3 * (i - 1) + 2] = m->d.bodies[i].def.inertia;
    }
    if (dyn_klu_ops.setup(s) != CLINK_OK) {
        dyn_destroy(&s);
        return NULL;
    }
    if (s->nc > 0 && s->nc <= DYN_SCHUR_MAX_ROWS &&
        dyn_set_solver(s, DYN_SOLVER_SCHUR) != CLINK_OK) {
        dyn_destroy(&s);
        return NULL;
    }
    return s;
}

clink_status dyn_set_solver(dyn_system *s, dyn_solver solver)
{
    s->have_fact = 0;
    s->rd_forced = solver == DYN_SOLVER_RANK && s->nc > 0;
    s->rd_sticky = s->rd_forced;
    if (solver == DYN_SOLVER_KLU || solver == DYN_SOLVER_RANK || s->nc == 0) {
        s->ops = &dyn_klu_ops;
        return CLINK_OK;
    }
    if (solver == DYN_SOLVER_AUTO && s->nc > DYN_SCHUR_MAX_ROWS) {
        s->ops = &dyn_klu_ops;
        return CLINK_OK;
    }
    clink_status st = dyn_schur_ops.setup(s);
    if (st != CLINK_OK) {
        dyn_set_msg(s, "Schur complement: out of memory");
        return st;
    }
    s->ops = &dyn_schur_ops;
    return CLINK_OK;
}

int dyn_history(const dyn_system *s)
{
    return s->rd_sticky;
}

void dyn_restart(dyn_system *s, int sticky)
{
    s->have_fact = 0;
    s->rd_on = 0;
    s->rd_sticky = sticky || s->rd_forced;
    dyn_klu_forget(s);
}

/*
 * Factors the saddle matrix at (t, q) with s->jac holding Phi_q(q), unless the
 * current factorisation was formed at the same (t, q): the chosen factorisation,
 * or the rank-revealing one when it finds the matrix singular or the last
 * factorisation found dependent rows.
 */
clink_status dyn_factor(dyn_system *s, double t, const double *q)
{
    size_t qbytes = (size_t) s->nq * sizeof(double);
    if (s->have_fact && s->key_t == t && memcmp(s->key_q, q, qbytes) == 0) {
        s->stats.reused++;
        return CLINK_OK;
    }
    s->have_fact = 0;
    s->rd_on = 0;
    clink_status st = CLINK_ERR_SINGULAR;
    if (!s->rd_sticky)
        st = s->ops->factor(s);
    if (st == CLINK_ERR_SINGULAR) {
        st = dyn_rank_ops.factor(s);
        if (st == CLINK_OK) {
            s->rd_on = 1;
            s->rd_sticky = dyn_rank_deficient(s) || s->rd_forced;
        } else if (st == CLINK_ERR_SINGULAR) {
            dyn_explain_singular(s, t);
        }
    }
    if (st != CLINK_OK)
        return st;
    s->have_fact = 1;
    s->key_t = t;
    memcpy(s->key_q, q, qbytes);
    return CLINK_OK;
}

/*
 * gamma' = gamma - 2 alpha (Phi_q v - nu) - beta^2 Phi per row into the
 * constraint part of s->rhs (gamma alone without Baumgarte's terms); the
 * products of Phi_q v in the order of dyn_row_times. With Baumgarte's terms each
 * product also goes into its own sum from zero, Phi_q v itself (rowv, in the order
 * of dyn_row_times: the same bits), which the audit's constraint power reuses.
 */
static void saddle_gamma(dyn_system *s, const double *v)
{
    int nq = s->nq, nc = s->nc;
    if (s->alpha == 0.0 && s->beta == 0.0) {
        memcpy(s->rhs + nq, s->gamma, (size_t) nc * sizeof(double));
        return;
    }
    double two_alpha = 2.0 * s->alpha, beta2 = s->beta * s->beta;
    for (int r = 0; r < nc; r++) {
        const double *ja = s->jac[r].ja, *jb = s->jac[r].jb;
        int a = s->row_a[r], b = s->row_b[r];
        const double *va = a > 0 ? v + 3 * (a - 1) : v, *vb = b > 0 ? v + 3 * (b - 1) : v;
        double pd = -s->nu[r], y = 0.0;
        if (a > 0 && b > 0) {
            for (int k = 0; k < 3; k++) {
                double pa = ja[k] * va[k], pb = jb[k] * vb[k];
                pd += pa;
                y += pa;
                pd += pb;
                y += pb;
            }
        } else if (a > 0) {
            for (int k = 0; k < 3; k++) {
                double pa = ja[k] * va[k];
                pd += pa;
                y += pa;
            }
        } else if (b > 0) {
            for (int k = 0; k < 3; k++) {
                double pb = jb[k] * vb[k];
                pd += pb;
                y += pb;
            }
        }
        s->rowv[r] = y;
        s->rhs[nq + r] = s->gamma[r] - (two_alpha * pd + beta2 * s->phi[r]);
    }
    s->rowv_at = v;
}

double dyn_rhs_constraint_power(const dyn_system *s, const double *v, const double *lambda)
{
    if (s->rowv_at != v)
        return dyn_constraint_power(s, v, lambda);
    /* dyn_constraint_power's sum with its Phi_q v from saddle_gamma */
    double p = 0.0;
    for (int r = 0; r < s->nc; r++)
        p += lambda[r] * (s->rowv[r] - s->nu[r]);
    return p;
}

/* solves the factored system in place on s->rhs */
clink_status dyn_solve(dyn_system *s)
{
    const dyn_factor_ops *ops = s->rd_on ? &dyn_rank_ops : s->ops;
    clink_status st = ops->solve(s);
    if (st != CLINK_OK)
        return st;
    if (!dyn_all_finite(s->rhs, s->n)) {
        dyn_set_msg(s, "non-finite solution of the saddle-point system");
        return CLINK_ERR_NONFINITE;
    }
    return CLINK_OK;
}

/*
 * g and gamma' into the right-hand side, then one factorisation and solve; the
 * rank-revealing path checks that its accelerations satisfy the dependent rows.
 */
clink_status dyn_accelerations(dyn_system *s, double t, const double *q, const double *v,
                               double *qdd, double *lambda)
{
    int nq = s->nq, nc = s->nc;
    s->t_last = t;
    s->rowv_at = NULL;
    if (!dyn_all_finite(q, nq) || !dyn_all_finite(v, nq)) {
        dyn_set_msg(s, "non-finite coordinates or velocities at t = %.9g s", t);
        return CLINK_ERR_NONFINITE;
    }
    int rc = dyn_applied_forces(s, t, q, v, s->rhs, &s->power_loads);
    if (rc != 0) {
        if (!s->msg[0])
            dyn_set_msg(s, "non-finite applied forces at t = %.9g s", t);
        return CLINK_ERR_NONFINITE;
    }
    dyn_kin_eval(s, t, q, v, s->phi, s->jac, s->nu, s->gamma);
    saddle_gamma(s, v);
    if (nc == 0) {
        /* no constraint: the saddle matrix is the diagonal mass matrix, no factorisation */
        for (int c = 0; c < nq; c++)
            qdd[c] = s->rhs[c] / s->mass[c];
        return CLINK_OK;
    }
    clink_status st = dyn_factor(s, t, q);
    if (st != CLINK_OK)
        return st;
    if (s->jf_count)
        memcpy(s->jf_base, s->rhs, (size_t) s->n * sizeof(double));
    if (s->rd_on)
        dyn_rank_keep_rhs(s);
    st = dyn_solve(s);
    if (st != CLINK_OK)
        return st;
    if (s->rd_on && !dyn_rank_consistent(s, t))
        return CLINK_ERR_SINGULAR;
    if (s->jf_count && (st = dyn_joint_friction(s, t, q, v, s->jf_base)) != CLINK_OK)
        return st;
    memcpy(qdd, s->rhs, (size_t) nq * sizeof(double));
    if (lambda)
        for (int r = 0; r < nc; r++)
            lambda[r] = -s->rhs[nq + r];
    return CLINK_OK;
}

/* [M Phi_q^T; Phi_q 0][dv; -P] = [f; 0] at q */
clink_status dyn_impulse_response(dyn_system *s, double t, const double *q, const double *f,
                                  double *dv)
{
    int nq = s->nq, nc = s->nc;
    if (nc == 0) {
        for (int c = 0; c < nq; c++)
            dv[c] = f[c] / s->mass[c];
        return CLINK_OK;
    }
    s->rowv_at = NULL; /* Phi_q evaluated anew */
    dyn_kin_eval(s, t, q, NULL, s->phi, s->jac, NULL, NULL);
    clink_status st = dyn_factor(s, t, q);
    if (st != CLINK_OK)
        return st;
    for (int c = 0; c < nq; c++)
        s->rhs[c] = f[c];
    for (int r = 0; r < nc; r++)
        s->rhs[nq + r] = 0.0;
    st = dyn_solve(s);
    if (st != CLINK_OK)
        return st;
    for (int c = 0; c < nq; c++)
        dv[c] = s->rhs[c];
    return CLINK_OK;
}
