/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Static equilibrium (docs/analysis.md): g(q) + Phi_q^T lambda = 0 and Phi(q, t) = 0 at rest.
 *
 * Newton in the free directions: at a pose q on the constraints (dyn_project), with N the
 * null-space basis of Phi_q (analysis.c), the residual is r = N^T M qdd(q, 0) = N^T g (the
 * multipliers drop out: N^T Phi_q^T = 0) and its Jacobian d r / d z = -K_r, K_r = -N^T M (d qdd
 * / dq) N from the analytic Jacobian of the accelerations (dyn_jacobian: the loads' and the
 * contacts' derivatives and the constraints' second derivatives). The step solves K_r dz = r
 * through the SVD of K_r, so that a singular direction is found and named; the trial pose
 * q + alpha N dz is projected back onto the constraints, and alpha is halved until
 * ||r||_2 falls by the Armijo factor (1 - 1e-4 alpha) (the 2-norm does not depend on the
 * basis N chosen at the trial pose) or the natural monotonicity test (Deuflhard 2004) passes.
 * The default tolerance is raised to the residual's rounding floor (eq_rounding_floor).
 *
 * Fallbacks: a continuation in the loads (Newton homotopy, eq_continue) when Newton runs out
 * of iterations; dynamic relaxation with kinetic damping (Underwood 1983) when it stalls:
 * pseudo-time steps of the simulation's own accelerations with the forces at rest (no
 * velocity forces), semi-implicit Euler, h = 0.5 / omega_max from the reduced stiffness'
 * Gershgorin bound, projected onto the constraints, the rates set to zero at each peak of
 * the kinetic energy; also used when the stiffness is singular at the start. Both are
 * always reported. A stiffness still singular after it is a refusal naming the free
 * direction, with the net generalised force along it (a free motion) or without (a neutral,
 * not isolated, equilibrium).
 */
#include "analysis/analysis_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EQ_RELAX_STEPS = 20000, EQ_MAX_CUTS = 12, EQ_STAGE_ITERATIONS = 25 };

/* the continuation gives up below this step in the load factor */
#define EQ_MIN_LAMBDA_STEP 1e-3

clink_equilibrium_options clink_default_equilibrium_options(void)
{
    clink_equilibrium_options o = {0.0, 50, 0, 0};
    return o;
}

/* the solver's scratch: f x f matrices and vectors, nq positions */
typedef struct eq_work {
    double *r, *dz, *u, *s, *vt, *k, *qt, *zero, *r2;
    double tol, scale, length;
    double *g0, mu; /* the continuation's offset: r = N^T (M qdd - mu g0), mu = 1 - lambda */
} eq_work;

static double eq_norm(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}

static double eq_max(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s = fmax(s, fabs(x[i]));
    return s;
}

/* refuses a driver that moves at t: a driven coordinate has no static equilibrium */
static clink_status eq_check_drivers(clink_analysis *a)
{
    for (int k = 0; k < a->nd; k++) {
        double val, rate, acc;
        clink_function_eval(&a->drv[k], a->t, &val, &rate, &acc);
        if (rate != 0.0 || acc != 0.0) {
            analysis_msg(a,
                         "no static equilibrium: driver '%s' moves at t = %.9g s (rate %.6g, "
                         "acceleration %.6g): a driven coordinate cannot be at rest; hold it "
                         "with a constant driver",
                         a->m->d.drivers[k].name, a->t, rate, acc);
            return CLINK_ERR_MODEL;
        }
    }
    return CLINK_OK;
}

/* r -= mu basis^T g0: the continuation's share of the start's forces (nothing when mu = 0) */
static void eq_offset(const clink_analysis *a, const eq_work *w, const double *basis, double *r)
{
    if (w->mu == 0.0)
        return;
    for (int j = 0; j < a->f; j++) {
        double s = 0.0;
        for (int c = 0; c < a->nq; c++)
            s += basis[c + (size_t) a->nq * j] * w->g0[c];
        r[j] -= w->mu * s;
    }
}

/* N and r at q (rates zero): ||r||_2 into *norm */
static clink_status eq_residual(clink_analysis *a, const eq_work *w, const double *q, double *r,
                                double *norm)
{
    clink_status st = analysis_null_space(a, q);
    if (st == CLINK_OK)
        st = analysis_accelerations(a, q, a->v);
    if (st != CLINK_OK)
        return st;
    analysis_residual(a, r);
    eq_offset(a, w, a->N, r);
    *norm = eq_norm(r, a->f);
    return CLINK_OK;
}

/* q projected onto the constraints at rest */
static clink_status eq_project(clink_analysis *a, double *q)
{
    clink_status st = dyn_project(a->dyn, a->t, q, a->v, 1e-13, 30, NULL, NULL);
    if (st != CLINK_OK)
        analysis_msg(a, "%s", dyn_error(a->dyn));
    return st;
}

/* SVD of K_r into w (u, s, vt); the number of zero directions, their stiffness scale */
static int eq_stiffness_svd(clink_analysis *a, eq_work *w, clink_status *st)
{
    int f = a->f, nzero = 0;
    double *k = w->k;
    memcpy(k, a->kr, sizeof *k * (size_t) f * f);
    int info = analysis_svd(f, f, k, w->s, w->u, w->vt);
    if (info != 0) {
        analysis_msg(a, "equilibrium: LAPACK dgesvd failed on the stiffness (info %d)", info);
        *st = info == -1000 ? CLINK_ERR_NOMEM : CLINK_ERR_LINSOLVE;
        return 0;
    }
    double kscale = fmax(f > 0 ? w->s[0] : 0.0, w->scale / w->length);
    for (int i = 0; i < f; i++)
        if (w->s[i] <= ANALYSIS_ZERO_STIFFNESS * kscale)
            nzero++;
    *st = CLINK_OK;
    return nzero;
}

/* the refusal of a singular stiffness: the zero direction with the largest net force along
   it (a free motion, named along the force) or the first one (a neutral equilibrium) */
static clink_status eq_refuse_singular(clink_analysis *a, eq_work *w, int nzero, int fallback)
{
    int f = a->f, nq = a->nq, pick = f - nzero;
    double force = 0.0, *dq = w->qt;
    /* u_i^T r (column i of U) is the net force along zero direction i */
    for (int i = f - nzero; i < f; i++) {
        double fi = 0.0;
        for (int j = 0; j < f; j++)
            fi += w->u[j + (size_t) f * i] * w->r[j];
        if (fabs(fi) > fabs(force)) {
            force = fi;
            pick = i;
        }
    }
    int free_motion = fabs(force) > w->tol;
    for (int c = 0; c < nq; c++) {
        double s = 0.0;
        for (int j = 0; j < f; j++)
            s += a->N[c + (size_t) nq * j] *
                 (free_motion ? w->u[j + (size_t) f * pick] * (force > 0 ? 1.0 : -1.0)
                              : w->vt[pick + (size_t) f * j]);
        dq[c] = s;
    }
    char dir[320];
    analysis_describe(a, dq, dir, sizeof dir);
    if (free_motion)
        analysis_msg(a,
                     "no static equilibrium: free motion along %s (no stiffness, net generalised "
                     "force %.6g along it%s); %d of %d free directions without stiffness",
                     dir, fabs(force), fallback ? ", still after dynamic relaxation" : "", nzero,
                     f);
    else
        analysis_msg(a,
                     "singular equilibrium: no stiffness along %s (null direction of the "
                     "reduced stiffness, zero net force: the equilibrium is not isolated); %d of "
                     "%d free directions without stiffness",
                     dir, nzero, f);
    return CLINK_ERR_SINGULAR;
}

/* x = V S^-1 U^T b on the stiff directions (the first f - nzero singular values of K_r) */
static void eq_svd_solve(const clink_analysis *a, const eq_work *w, int nzero, const double *b,
                         double *x)
{
    int f = a->f;
    for (int j = 0; j < f; j++)
        x[j] = 0.0;
    for (int i = 0; i < f - nzero; i++) {
        double c = 0.0;
        for (int j = 0; j < f; j++)
            c += w->u[j + (size_t) f * i] * b[j];
        c /= w->s[i];
        for (int j = 0; j < f; j++)
            x[j] += w->vt[i + (size_t) f * j] * c;
    }
}

/* the Newton step dz = V S^-1 U^T r on the stiff directions */
static void eq_step(const clink_analysis *a, const eq_work *w, int nzero)
{
    eq_svd_solve(a, w, nzero, w->r, w->dz);
}

/* the natural monotonicity test (Deuflhard 2004): the simplified Newton correction at the
   trial pose, K_r^-1 r(trial) with the K_r and the basis N of the pose the step started from,
   shorter than (1 - alpha / 4) of the full correction dz. It accepts the step a stiff
   direction makes look bad in ||r||: a beam's first step from straight stretches the
   elements by theta^2 / 2, a large force that is a small displacement */
static int eq_monotone(clink_analysis *a, eq_work *w, const double *basis, double alpha)
{
    int f = a->f;
    double *rb = w->k, *zb = w->k + f;
    analysis_residual_in(a, basis, rb);
    eq_offset(a, w, basis, rb);
    eq_svd_solve(a, w, 0, rb, zb);
    return eq_norm(zb, f) <= (1.0 - 0.25 * alpha) * eq_norm(w->dz, f);
}

/* the line search from q along N dz: 0 when accepted (q, r updated), 1 when it stalled; a
   trial is accepted when ||r||_2 falls by the Armijo factor or, failing that, by the natural
   monotonicity test */
static int eq_line_search(clink_analysis *a, eq_work *w, double *rn, clink_equilibrium_result *res,
                          clink_status *st)
{
    int nq = a->nq, f = a->f;
    double alpha = 1.0, *nsave = malloc(sizeof *nsave * ((size_t) nq * f + 1));
    if (nsave == NULL) {
        *st = CLINK_ERR_NOMEM;
        return 1;
    }
    memcpy(nsave, a->N, sizeof *nsave * (size_t) nq * f);
    for (int cut = 0; cut <= EQ_MAX_CUTS; cut++, alpha *= 0.5) {
        double trial = INFINITY;
        for (int c = 0; c < nq; c++) {
            double s = 0.0;
            for (int j = 0; j < f; j++)
                s += nsave[c + (size_t) nq * j] * w->dz[j];
            w->qt[c] = a->q[c] + alpha * s;
        }
        if (eq_project(a, w->qt) == CLINK_OK &&
            eq_residual(a, w, w->qt, w->r2, &trial) == CLINK_OK && a->f == f &&
            (trial <= (1.0 - 1e-4 * alpha) * *rn || eq_monotone(a, w, nsave, alpha))) {
            memcpy(a->q, w->qt, sizeof *a->q * (size_t) nq);
            memcpy(w->r, w->r2, sizeof *w->r * (size_t) f);
            *rn = trial;
            free(nsave);
            *st = CLINK_OK;
            return 0;
        }
        res->line_search_cuts++;
    }
    /* back to the pose the search started from */
    free(nsave);
    *st = eq_residual(a, w, a->q, w->r, rn);
    return 1;
}

/* the largest natural frequency of K_r, M_r (Gershgorin bound of M_r^-1 K_r), 1/s */
static double eq_omega_max(clink_analysis *a, eq_work *w)
{
    int f = a->f;
    double *m = w->vt, *k = w->k, big = 0.0;
    memcpy(m, a->mr, sizeof *m * (size_t) f * f);
    memcpy(k, a->kr, sizeof *k * (size_t) f * f);
    if (analysis_solve(f, f, m, k) != 0)
        return 0.0;
    for (int i = 0; i < f; i++) {
        double row = 0.0;
        for (int j = 0; j < f; j++)
            row += fabs(k[i + (size_t) f * j]);
        big = fmax(big, row);
    }
    return sqrt(big);
}

/* dynamic relaxation from the state (v = 0 on return), until the residual falls to 1e-3 of
   its start or, with max_resets > 0, after that many peaks of the kinetic energy (each one
   near a minimum of the potential along the path: a stable pose for Newton to finish) */
static clink_status eq_relax(clink_analysis *a, eq_work *w, double *rn,
                             clink_equilibrium_result *res, int max_resets)
{
    int nq = a->nq;
    double r0 = *rn, ke_prev = 0.0, mmin = INFINITY, jmin = INFINITY;
    int resets = 0;
    clink_status st = analysis_reduced_matrices(a, a->q, a->v);
    if (st != CLINK_OK)
        return st;
    for (int i = 1; i < a->m->d.nbodies; i++) {
        mmin = fmin(mmin, a->m->d.bodies[i].def.mass);
        jmin = fmin(jmin, a->m->d.bodies[i].def.inertia);
    }
    /* the step: half the period's inverse of the stiffest direction, and at most half of
       the time a force of the scale takes to move the lightest body by the length scale */
    double om = eq_omega_max(a, w), L = w->length, F = w->scale;
    double h = 0.5 * sqrt(fmin(L * mmin / F, jmin / (F * L)));
    if (om > 0.0)
        h = fmin(h, 0.5 / om);
    res->fallback = 1;
    for (int step = 0; step < EQ_RELAX_STEPS; step++) {
        /* the forces at rest: the pseudo-time's rates are not the mechanism's, and its
           velocity forces (dampers, a beam's Kelvin-Voigt damping: rates up to tau
           omega_max^2) would make the explicit step unstable */
        st = analysis_accelerations(a, a->q, w->zero);
        if (st != CLINK_OK)
            break;
        double ke = 0.0;
        for (int c = 0; c < nq; c++) {
            a->v[c] += h * a->qdd[c];
            a->q[c] += h * a->v[c];
        }
        st = dyn_project(a->dyn, a->t, a->q, a->v, 1e-13, 30, NULL, NULL);
        if (st != CLINK_OK) {
            analysis_msg(a, "equilibrium: dynamic relaxation: %s", dyn_error(a->dyn));
            break;
        }
        for (int c = 0; c < nq; c++)
            ke += 0.5 *
                  (c % 3 == 2 ? a->m->d.bodies[c / 3 + 1].def.inertia
                              : a->m->d.bodies[c / 3 + 1].def.mass) *
                  a->v[c] * a->v[c];
        /* kinetic damping: at a peak of the kinetic energy, start again at rest */
        if (ke < ke_prev) {
            memset(a->v, 0, sizeof *a->v * (size_t) nq);
            ke = 0.0;
            if (max_resets > 0 && ++resets >= max_resets)
                break;
        }
        ke_prev = ke;
        res->fallback_steps++;
        if (step % 16 == 15) {
            double *vs = w->qt;
            memcpy(vs, a->v, sizeof *vs * (size_t) nq);
            memset(a->v, 0, sizeof *a->v * (size_t) nq);
            st = eq_residual(a, w, a->q, w->r, rn);
            memcpy(a->v, vs, sizeof *vs * (size_t) nq);
            if (st != CLINK_OK || *rn <= fmax(w->tol, 1e-3 * r0))
                break;
        }
    }
    memset(a->v, 0, sizeof *a->v * (size_t) nq);
    if (st == CLINK_OK)
        st = eq_residual(a, w, a->q, w->r, rn);
    return st;
}

/* the smallest eigenvalue of the symmetric part of K_r */
static double eq_min_stiffness(clink_analysis *a, eq_work *w)
{
    int f = a->f;
    double *k = w->k, *wi = w->vt, lo = INFINITY;
    for (int i = 0; i < f; i++)
        for (int j = 0; j < f; j++)
            k[i + (size_t) f * j] = 0.5 * (a->kr[i + (size_t) f * j] + a->kr[j + (size_t) f * i]);
    /* its eigenvector (in z) into w->dz */
    double *vr = w->k + (size_t) f * f;
    if (analysis_eig(f, k, w->s, wi, vr) != 0)
        return NAN;
    for (int i = 0; i < f; i++)
        if (w->s[i] < lo) {
            lo = w->s[i];
            memcpy(w->dz, vr + (size_t) f * i, sizeof *w->dz * (size_t) f);
        }
    return f > 0 ? lo : 0.0;
}

static clink_status eq_work_alloc(clink_analysis *a, eq_work *w)
{
    size_t f = (size_t) (a->nq > 0 ? a->nq : 1), nq = (size_t) a->nq + 1;
    double *p = calloc(5 * f * f + 4 * f + 2 * nq, sizeof *p);
    if (p == NULL)
        return CLINK_ERR_NOMEM;
    w->u = p;
    w->vt = w->u + f * f;
    w->k = w->vt + f * f;
    w->r = w->k + 3 * f * f;
    w->dz = w->r + f;
    w->s = w->dz + f;
    w->r2 = w->s + f;
    w->qt = w->r2 + f;
    w->zero = w->qt + nq; /* nq + 1 zeros: the rates of the forces at rest */
    w->g0 = NULL;
    w->mu = 0.0;
    return CLINK_OK;
}

/* a characteristic length: the largest arm of a joint or load on a moving body, >= 1 mm
   (the ground's points are positions, not arms) */
static double eq_length(const clink_analysis *a)
{
    const model_data *d = &a->m->d;
    double L = 1e-3;
    for (int j = 0; j < d->njoints; j++) {
        const clink_joint_def *jd = &d->joints[j].def;
        if (jd->body_a != 0)
            L = fmax(L, hypot(jd->point_a[0], jd->point_a[1]));
        if (jd->body_b != 0)
            L = fmax(L, hypot(jd->point_b[0], jd->point_b[1]));
    }
    for (int k = 0; k < d->nforces; k++) {
        const clink_force_def *fd = &d->forces[k].def;
        if (fd->body_a != 0)
            L = fmax(L, hypot(fd->point_a[0], fd->point_a[1]));
        if (fd->body_b != 0)
            L = fmax(L, hypot(fd->point_b[0], fd->point_b[1]));
    }
    return L;
}

/* 1 when the Newton correction N dz changes no coordinate by more than 8 ulps of
   max(|q_c|, L) */
static int eq_below_rounding(const clink_analysis *a, const eq_work *w)
{
    for (int c = 0; c < a->nq; c++) {
        double s = 0.0;
        for (int j = 0; j < a->f; j++)
            s += a->N[c + (size_t) a->nq * j] * w->dz[j];
        if (fabs(s) > 8.0 * DBL_EPSILON * fmax(fabs(a->q[c]), w->length))
            return 0;
    }
    return 1;
}

/* at a correction below the rounding of q, the default tolerance raised to the residual's
   rounding floor: a stiffness s_max (the largest singular value of K_r) turns the rounding
   of the positions, eps max(|q|, L), into forces of eps s_max max(|q|, L) that no pose can
   remove (a steel beam's axial stiffness: 1.4e-7 N on a 1 m cantilever, above 1e-10 of its
   20 N load); 1 when the residual is within it */
static int eq_rounding_floor(const clink_analysis *a, eq_work *w, clink_equilibrium_result *res)
{
    double qmax = w->length;
    for (int c = 0; c < a->nq; c++)
        qmax = fmax(qmax, fabs(a->q[c]));
    if (a->f > 0)
        w->tol = fmax(w->tol, DBL_EPSILON * w->s[0] * qmax);
    res->tolerance = w->tol;
    return eq_max(w->r, a->f) <= w->tol;
}

/* Newton's iterations from the state; *stalled when the line search or stiffness gave up */
static clink_status eq_newton(clink_analysis *a, eq_work *w, const clink_equilibrium_options *o,
                              clink_equilibrium_result *res, double *rn, int *stalled)
{
    clink_status st = CLINK_OK;
    *stalled = 0;
    while (res->iterations < o->max_iterations) {
        if (eq_max(w->r, a->f) <= w->tol)
            return CLINK_OK;
        st = analysis_reduced_matrices(a, a->q, a->v);
        if (st != CLINK_OK)
            return st;
        int nzero = eq_stiffness_svd(a, w, &st);
        if (st != CLINK_OK)
            return st;
        if (nzero > 0) {
            *stalled = 1;
            return res->fallback ? eq_refuse_singular(a, w, nzero, 1) : CLINK_OK;
        }
        eq_step(a, w, 0);
        /* a correction below the rounding of q: the residual is at its floor */
        if (o->tolerance == 0.0 && eq_below_rounding(a, w) && eq_rounding_floor(a, w, res))
            return CLINK_OK;
        res->iterations++;
        if (eq_line_search(a, w, rn, res, &st)) {
            *stalled = st == CLINK_OK;
            return st;
        }
    }
    return CLINK_OK;
}

/* one more full Newton step at a converged pose, kept when it lowers ||r||_2: the residual
   test alone leaves the pose as far from the root as tolerance / stiffness (a path through
   the relaxation can stop there), one step in the quadratic range takes that error to its
   square */
static clink_status eq_polish(clink_analysis *a, eq_work *w, clink_equilibrium_result *res,
                              double *rn)
{
    int nq = a->nq, f = a->f;
    clink_status st = analysis_reduced_matrices(a, a->q, a->v);
    if (st != CLINK_OK || f == 0)
        return st;
    if (eq_stiffness_svd(a, w, &st) > 0 || st != CLINK_OK)
        return st;
    eq_step(a, w, 0);
    for (int c = 0; c < nq; c++) {
        double s = 0.0;
        for (int j = 0; j < f; j++)
            s += a->N[c + (size_t) nq * j] * w->dz[j];
        w->qt[c] = a->q[c] + s;
    }
    double trial = INFINITY;
    if (eq_project(a, w->qt) == CLINK_OK && eq_residual(a, w, w->qt, w->r2, &trial) == CLINK_OK &&
        a->f == f && trial < *rn) {
        memcpy(a->q, w->qt, sizeof *a->q * (size_t) nq);
        memcpy(w->r, w->r2, sizeof *w->r * (size_t) f);
        *rn = trial;
        res->iterations++;
        return CLINK_OK;
    }
    /* N and the accelerations back at the pose */
    return eq_residual(a, w, a->q, w->r, rn);
}

/* one stage of the continuation: Newton on r_lambda from the pose, at most EQ_STAGE_ITERATIONS
   iterations; 1 when it converged */
static int eq_stage(clink_analysis *a, eq_work *w, const clink_equilibrium_options *o,
                    clink_equilibrium_result *res, double *rn, clink_status *st)
{
    clink_equilibrium_options so = *o;
    int stalled = 0;
    so.max_iterations = res->iterations + EQ_STAGE_ITERATIONS;
    *st = eq_residual(a, w, a->q, w->r, rn);
    if (*st == CLINK_OK)
        *st = eq_newton(a, w, &so, res, rn, &stalled);
    return *st == CLINK_OK && !stalled && eq_max(w->r, a->f) <= w->tol;
}

/* continuation in the loads (a Newton homotopy) from the pose q0 where Newton started:
   r_lambda(q) = N^T (M qdd(q) - (1 - lambda) g0), g0 = M qdd(q0), solved for lambda from 0
   (q0 solves it) to 1 (the equilibrium sought); for loads that do not depend on the pose
   (weights, dead forces) this is the classic load stepping of nonlinear structural
   analysis. The step in lambda doubles after a stage that converges and falls by four after
   one that does not; the stages are res->fallback_steps */
static clink_status eq_continue(clink_analysis *a, eq_work *w, const clink_equilibrium_options *o,
                                clink_equilibrium_result *res, double *rn, const double *q0)
{
    int nq = a->nq;
    double *keep = malloc(sizeof *keep * 2 * (size_t) (nq + 1)), lam = 0.0, dlam = 0.25;
    clink_status st = keep != NULL ? CLINK_OK : CLINK_ERR_NOMEM;
    if (st != CLINK_OK)
        return st;
    w->g0 = keep + nq + 1;
    memcpy(a->q, q0, sizeof *a->q * (size_t) nq);
    st = eq_residual(a, w, a->q, w->r, rn);
    if (st == CLINK_OK)
        analysis_generalised_forces(a, w->g0);
    res->fallback = 2;
    res->fallback_steps = 0;
    while (st == CLINK_OK && lam < 1.0 && dlam >= EQ_MIN_LAMBDA_STEP) {
        double next = fmin(1.0, lam + dlam);
        memcpy(keep, a->q, sizeof *keep * (size_t) nq);
        w->mu = 1.0 - next;
        res->fallback_steps++;
        if (eq_stage(a, w, o, res, rn, &st)) {
            lam = next;
            dlam *= 2.0;
        } else if (st == CLINK_OK) {
            memcpy(a->q, keep, sizeof *a->q * (size_t) nq);
            dlam *= 0.25;
        }
    }
    w->mu = 0.0;
    if (st == CLINK_OK)
        st = eq_residual(a, w, a->q, w->r, rn);
    w->g0 = NULL;
    free(keep);
    return st;
}

/* Newton; the relaxation when it stalls and Newton again, or the continuation in the loads
   when it ran out of iterations; then the residual's check and the stiffness at the pose
   (singular: refused; its smallest eigenvalue: the stability) */
static clink_status eq_solve(clink_analysis *a, eq_work *w, const clink_equilibrium_options *o,
                             clink_equilibrium_result *res, double *rn)
{
    int stalled = 0;
    double *q0 = malloc(sizeof *q0 * (size_t) (a->nq + 1));
    if (q0 == NULL)
        return CLINK_ERR_NOMEM;
    memcpy(q0, a->q, sizeof *q0 * (size_t) a->nq);
    clink_status st = eq_newton(a, w, o, res, rn, &stalled);
    if (st == CLINK_OK && !stalled && !res->fallback && eq_max(w->r, a->f) > w->tol)
        st = eq_continue(a, w, o, res, rn, q0);
    free(q0);
    if (st == CLINK_OK && stalled) {
        st = eq_relax(a, w, rn, res, 0);
        if (st == CLINK_OK)
            st = eq_newton(a, w, o, res, rn, &stalled);
    }
    if (st == CLINK_OK && eq_max(w->r, a->f) <= w->tol)
        st = eq_polish(a, w, res, rn);
    res->residual = eq_max(w->r, a->f);
    if (st == CLINK_OK && res->residual > w->tol) {
        analysis_msg(a,
                     "equilibrium: no convergence: residual %.3g > tolerance %.3g after %d "
                     "Newton iterations%s",
                     res->residual, w->tol, res->iterations,
                     res->fallback == 2   ? " and a continuation in the loads"
                     : res->fallback == 1 ? " and dynamic relaxation"
                                          : "");
        return CLINK_ERR_NO_CONVERGENCE;
    }
    if (st != CLINK_OK)
        return st;
    st = analysis_reduced_matrices(a, a->q, a->v);
    int nzero = st == CLINK_OK ? eq_stiffness_svd(a, w, &st) : 0;
    if (st == CLINK_OK && nzero > 0)
        return eq_refuse_singular(a, w, nzero, res->fallback);
    res->min_stiffness = eq_min_stiffness(a, w);
    res->stable = a->f == 0 || res->min_stiffness > 0.0; /* no freedom: nothing can move */
    return st;
}

/* q moved off an unstable equilibrium along its softest direction N dz (eq_min_stiffness),
   by 5 % of the length scale at its largest component, and projected */
static void eq_displace(clink_analysis *a, eq_work *w)
{
    int nq = a->nq, f = a->f;
    double big = 0.0;
    for (int c = 0; c < nq; c++) {
        double s = 0.0;
        for (int j = 0; j < f; j++)
            s += a->N[c + (size_t) nq * j] * w->dz[j];
        w->qt[c] = s;
        big = fmax(big, fabs(s));
    }
    for (int c = 0; c < nq && big > 0.0; c++)
        a->q[c] += 0.05 * w->length * w->qt[c] / big;
    eq_project(a, a->q);
}

clink_status clink_analysis_equilibrium(clink_analysis *a, const clink_equilibrium_options *opt,
                                        clink_equilibrium_result *res)
{
    clink_equilibrium_options o = opt != NULL ? *opt : clink_default_equilibrium_options();
    eq_work w;
    double rn = 0.0;
    if (a == NULL || res == NULL)
        return CLINK_ERR_ARG;
    memset(res, 0, sizeof *res);
    if (o.max_iterations <= 0)
        o.max_iterations = 50;
    if (!(o.tolerance >= 0.0) || !isfinite(o.tolerance)) {
        analysis_msg(a, "equilibrium: tolerance %g is not a finite number >= 0", o.tolerance);
        return CLINK_ERR_RANGE;
    }
    clink_status st = eq_check_drivers(a);
    if (st != CLINK_OK)
        return st;
    a->nmodes = 0;
    memset(a->v, 0, sizeof *a->v * (size_t) a->nq);
    if ((st = eq_project(a, a->q)) != CLINK_OK)
        return st;
    if ((st = eq_work_alloc(a, &w)) != CLINK_OK) {
        analysis_msg(a, "equilibrium: out of memory");
        return st;
    }
    w.scale = analysis_force_scale(a);
    w.length = eq_length(a);
    w.tol = o.tolerance > 0.0 ? o.tolerance : 1e-10 * w.scale;
    res->tolerance = w.tol;
    res->force_scale = w.scale;
    st = eq_residual(a, &w, a->q, w.r, &rn);
    if (st == CLINK_OK && o.relax_first)
        st = eq_relax(a, &w, &rn, res, 0);
    if (st == CLINK_OK)
        st = eq_solve(a, &w, &o, res, &rn);
    /* an unstable equilibrium: relaxation from it displaced along its softest direction */
    for (int tries = 0; st == CLINK_OK && !res->stable && !o.accept_unstable && tries < 3;
         tries++) {
        eq_displace(a, &w);
        st = eq_residual(a, &w, a->q, w.r, &rn);
        if (st == CLINK_OK)
            st = eq_relax(a, &w, &rn, res, 2);
        if (st == CLINK_OK)
            st = eq_solve(a, &w, &o, res, &rn);
    }
    double viol = 0.0;
    dyn_violation(a->dyn, a->t, a->q, a->v, &res->constraint, &viol);
    if (analysis_accelerations(a, a->q, a->v) != CLINK_OK && st == CLINK_OK)
        st = CLINK_ERR_LINSOLVE;
    free(w.u);
    return st;
}
