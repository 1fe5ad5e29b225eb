/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The analysis handle: a mechanism's state (q, v at time t) and its linearisation on the
 * constraint manifold (docs/analysis.md).
 *
 * With Phi_q (nc x nq) at q, an orthonormal basis N (nq x f) of its null space is the last
 * f = nq - rank right singular vectors of Phi_q (dgesvd; rank: singular values above 1e-10
 * of the largest), so that redundant constraints are handled as the saddle solver handles
 * them. Any admissible variation is dq = N dz. The accelerations qdd(q, v) are the
 * simulation's (M qdd = g + Phi_q^T lambda, Phi_q qdd = gamma; dynamics.h), so that
 *   r = N^T M qdd       (the generalised forces along the free directions; zero at rest
 *                        exactly when g + Phi_q^T lambda = 0, the static equations)
 *   M_r = N^T M N,  K_r = -N^T M (d qdd / dq) N,  C_r = -N^T M (d qdd / dv) N
 * with d qdd / dq and d qdd / dv the analytic Jacobian of the accelerations (dyn_jacobian:
 * springs, dampers, the contacts' force laws through their companion or differences, and the
 * constraints' second derivatives, which give the geometric stiffness lambda . Phi_qq).
 * The linearised motion about the state is M_r dz'' + C_r dz' + K_r dz = 0 (exact about an
 * equilibrium, where qdd = 0; about a moving state it is the frozen Jacobian's).
 *
 * Above ANALYSIS_SVD_MAX constraint rows (the 81-body N-four-bar has 242) the dense SVD and
 * the nq saddle solves of the analytic Jacobian cost more than the rest together: N then comes
 * from f sparse saddle solves (projections of fixed pseudo-random vectors onto the null space,
 * orthonormalised) and (d qdd / dq) N, (d qdd / dv) N from central differences of the
 * accelerations along N's columns (4 f evaluations); tests/analysis checks that both ways
 * agree on the N-four-bar.
 */
#include "analysis/analysis_internal.h"

#include "sim/sim_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void analysis_msg(clink_analysis *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
}

clink_status analysis_work(clink_analysis *a, size_t n)
{
    if (n <= a->nwork)
        return CLINK_OK;
    double *w = realloc(a->work, sizeof *w * n);
    if (w == NULL) {
        analysis_msg(a, "analysis: out of memory");
        return CLINK_ERR_NOMEM;
    }
    a->work = w;
    a->nwork = n;
    return CLINK_OK;
}

/* the arrays of the state and the linearisation */
static clink_status analysis_allocate(clink_analysis *a)
{
    size_t nq = (size_t) a->nq, nc = (size_t) a->nc;
    a->q = calloc(nq + 1, sizeof *a->q);
    a->v = calloc(nq + 1, sizeof *a->v);
    a->qdd = calloc(nq + 1, sizeof *a->qdd);
    a->lam = calloc(nc + 1, sizeof *a->lam);
    a->drv = calloc((size_t) a->nd + 1, sizeof *a->drv);
    a->N = calloc(nq * nq + 1, sizeof *a->N);
    a->mr = calloc(nq * nq + 1, sizeof *a->mr);
    a->kr = calloc(nq * nq + 1, sizeof *a->kr);
    a->cr = calloc(nq * nq + 1, sizeof *a->cr);
    a->jq = calloc(nq * nq + 1, sizeof *a->jq);
    a->jv = calloc(nq * nq + 1, sizeof *a->jv);
    a->phiq = calloc(nc * nq + 1, sizeof *a->phiq);
    a->rows = calloc(nc + 1, sizeof *a->rows);
    a->ba = calloc(nc + 1, sizeof *a->ba);
    a->bb = calloc(nc + 1, sizeof *a->bb);
    if (!a->rows || !a->ba || !a->bb)
        return CLINK_ERR_NOMEM;
    kin_row_bodies(a->m, a->ba, a->bb);
    if (!a->q || !a->v || !a->qdd || !a->lam || !a->drv || !a->N || !a->mr || !a->kr || !a->cr ||
        !a->jq || !a->jv || !a->phiq)
        return CLINK_ERR_NOMEM;
    return CLINK_OK;
}

/* the state of the simulation (its output state) into the analysis */
static void analysis_take_sim_state(clink_analysis *a)
{
    const double *y = a->sim->out.y;
    a->t = a->sim->t;
    memcpy(a->q, y, sizeof *a->q * (size_t) a->nq);
    memcpy(a->v, y + a->nq, sizeof *a->v * (size_t) a->nq);
    for (int k = 0; k < a->nd; k++)
        a->drv[k] = *dyn_driver_function(a->dyn, k);
    a->nmodes = 0;
}

clink_status clink_analysis_create(const clink_model *m, const clink_settings_def *settings,
                                   clink_analysis **out, char *err, size_t err_size)
{
    clink_analysis *a;
    clink_status st;

    if (out == NULL || m == NULL)
        return CLINK_ERR_ARG;
    *out = NULL;
    a = calloc(1, sizeof *a);
    if (a == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "clink_analysis_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    a->m = m;
    st = clink_sim_create(m, settings, &a->sim, err, err_size);
    if (st != CLINK_OK) {
        free(a);
        return st;
    }
    a->dyn = a->sim->sys->dyn;
    a->nq = a->sim->sys->nq;
    a->nc = a->sim->sys->nc;
    a->nd = m->d.ndrivers;
    if (a->nq > ANALYSIS_MAX_COORDS) {
        /* the reduced matrices and their scratch are dense: about 10 nq^2 doubles */
        if (err != NULL && err_size > 0)
            snprintf(err, err_size,
                     "clink_analysis_create: %d coordinates (%d bodies): the analyses hold dense "
                     "nq x nq matrices (%.0f MB here) and take at most %d coordinates",
                     a->nq, a->nq / 3, 80.0 * a->nq * (double) a->nq / 1e6, ANALYSIS_MAX_COORDS);
        clink_analysis_destroy(&a);
        return CLINK_ERR_RANGE;
    }
    a->plain = dyn_create(m);
    st = a->plain != NULL ? analysis_allocate(a) : CLINK_ERR_NOMEM;
    if (st != CLINK_OK) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "clink_analysis_create: out of memory");
        clink_analysis_destroy(&a);
        return st;
    }
    analysis_take_sim_state(a);
    *out = a;
    return CLINK_OK;
}

void clink_analysis_destroy(clink_analysis **pa)
{
    if (pa == NULL || *pa == NULL)
        return;
    clink_analysis *a = *pa;
    clink_sim_destroy(&a->sim);
    dyn_destroy(&a->plain);
    free(a->q);
    free(a->v);
    free(a->qdd);
    free(a->lam);
    free(a->drv);
    free(a->N);
    free(a->mr);
    free(a->kr);
    free(a->cr);
    free(a->jq);
    free(a->jv);
    free(a->phiq);
    free(a->rows);
    free(a->ba);
    free(a->bb);
    free(a->work);
    free(a->modes);
    free(a->shapes);
    free(a);
    *pa = NULL;
}

const char *clink_analysis_error(const clink_analysis *a)
{
    return a != NULL ? a->msg : "no analysis";
}

clink_status clink_analysis_advance(clink_analysis *a, double t)
{
    if (a == NULL)
        return CLINK_ERR_ARG;
    if (!(t > a->sim->t) || !isfinite(t)) {
        analysis_msg(a, "analysis: time %.9g s is not after the state's time %.9g s", t, a->sim->t);
        return CLINK_ERR_RANGE;
    }
    clink_status st = clink_sim_advance(a->sim, t);
    if (st != CLINK_OK) {
        analysis_msg(a, "%s", clink_sim_error(a->sim));
        return st;
    }
    analysis_take_sim_state(a);
    return CLINK_OK;
}

double clink_analysis_time(const clink_analysis *a)
{
    return a != NULL ? a->t : NAN;
}

int clink_analysis_coordinate_count(const clink_analysis *a)
{
    return a != NULL ? a->nq : 0;
}

int clink_analysis_dof(const clink_analysis *a)
{
    return a != NULL ? a->f : 0;
}

clink_status clink_analysis_state(const clink_analysis *a, double *q, double *v)
{
    if (a == NULL)
        return CLINK_ERR_ARG;
    if (q != NULL)
        memcpy(q, a->q, sizeof *q * (size_t) a->nq);
    if (v != NULL)
        memcpy(v, a->v, sizeof *v * (size_t) a->nq);
    return CLINK_OK;
}

/* ---- the linearisation ---- */

void analysis_phiq(clink_analysis *a, const double *q)
{
    size_t nc = (size_t) a->nc;
    memset(a->phiq, 0, sizeof *a->phiq * nc * (size_t) a->nq);
    kin_eval_with(a->m, a->nd > 0 ? a->drv : NULL, a->t, q, a->v, NULL, a->rows, NULL, NULL);
    for (size_t r = 0; r < nc; r++)
        for (int k = 0; k < 3; k++) {
            if (a->ba[r] > 0)
                a->phiq[r + nc * (size_t) (3 * (a->ba[r] - 1) + k)] += a->rows[r].ja[k];
            if (a->bb[r] > 0)
                a->phiq[r + nc * (size_t) (3 * (a->bb[r] - 1) + k)] += a->rows[r].jb[k];
        }
}

/* mass of coordinate c: m, m, J of its body */
static double analysis_mass(const clink_analysis *a, int c)
{
    const clink_body_def *b = &a->m->d.bodies[c / 3 + 1].def;
    return c % 3 == 2 ? b->inertia : b->mass;
}

static double analysis_mass(const clink_analysis *a, int c);
static clink_status analysis_null_space_svd(clink_analysis *a, const double *q);

/* modified Gram-Schmidt of the f columns of x (nq each), twice; 0, or -1 when a column
   depends on the others */
static int analysis_orthonormalise(double *x, int nq, int f)
{
    for (int j = 0; j < f; j++) {
        double *xj = x + (size_t) nq * j, before = 0.0, after = 0.0;
        for (int c = 0; c < nq; c++)
            before += xj[c] * xj[c];
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < j; k++) {
                const double *xk = x + (size_t) nq * k;
                double d = 0.0;
                for (int c = 0; c < nq; c++)
                    d += xk[c] * xj[c];
                for (int c = 0; c < nq; c++)
                    xj[c] -= d * xk[c];
            }
        for (int c = 0; c < nq; c++)
            after += xj[c] * xj[c];
        if (!(after > 1e-16 * before))
            return -1;
        after = 1.0 / sqrt(after);
        for (int c = 0; c < nq; c++)
            xj[c] *= after;
    }
    return 0;
}

/*
 * The null space of a large Phi_q without a dense SVD: f = nq - nc (+ the dependent rows,
 * dyn_dependent_rows, when the saddle-point factorisation at q found some), and f vectors P x_j, P
 * = I - M^-1 Phi_q^T (Phi_q M^-1 Phi_q^T)^-1 Phi_q the projector onto the null space in the metric
 * of M, each one sparse saddle-point solve (dyn_impulse_response with the impulse M x_j), for fixed
 * pseudo-random x_j; then orthonormalised. CLINK_OK, or the status (the caller then takes the SVD).
 */
static clink_status analysis_null_space_projected(clink_analysis *a, const double *q)
{
    int nq = a->nq, nc = a->nc, f = nq - nc;
    unsigned long long seed = 0x9e3779b97f4a7c15ULL;
    clink_status st = analysis_work(a, (size_t) nq + 1);
    if (st != CLINK_OK)
        return st;
    for (int j = 0; j < f; j++) {
        double *x = a->work;
        for (int c = 0; c < nq; c++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            x[c] = ((double) (seed >> 11) / 9007199254740992.0 - 0.5) * analysis_mass(a, c);
        }
        st = dyn_impulse_response(a->dyn, a->t, q, x, a->N + (size_t) nq * j);
        if (st != CLINK_OK)
            return st;
        /* the factorisation at q found dependent rows: count them (Gram-Schmidt) */
        if (j == 0 && dyn_history(a->dyn)) {
            f = nq - nc + dyn_dependent_rows(a->dyn, a->t, q, NULL, 0);
            if (f > nq)
                return CLINK_ERR_SINGULAR;
        }
    }
    if (f <= 0 || analysis_orthonormalise(a->N, nq, f) != 0)
        return CLINK_ERR_SINGULAR;
    a->f = f;
    return CLINK_OK;
}

clink_status analysis_null_space(clink_analysis *a, const double *q)
{
    if (a->nc > ANALYSIS_SVD_MAX && !a->dense_always &&
        analysis_null_space_projected(a, q) == CLINK_OK)
        return CLINK_OK;
    return analysis_null_space_svd(a, q);
}

/* N by the SVD of Phi_q (dgesvd): its last nq - rank right singular vectors */
static clink_status analysis_null_space_svd(clink_analysis *a, const double *q)
{
    int nc = a->nc, nq = a->nq, ns = nc < nq ? nc : nq, rank = 0;
    clink_status st = analysis_work(a, (size_t) nc * nq + (size_t) nq * nq + (size_t) ns + 1);
    if (st != CLINK_OK)
        return st;
    double *w = a->work, *vt = w + (size_t) nc * nq, *s = vt + (size_t) nq * nq;
    if (nc == 0) {
        memset(a->N, 0, sizeof *a->N * (size_t) nq * nq);
        for (int i = 0; i < nq; i++)
            a->N[i + (size_t) nq * i] = 1.0;
        a->f = nq;
        return CLINK_OK;
    }
    analysis_phiq(a, q);
    memcpy(w, a->phiq, sizeof *w * (size_t) nc * nq);
    int info = analysis_svd(nc, nq, w, s, NULL, vt);
    if (info != 0) {
        analysis_msg(a, "analysis: LAPACK dgesvd failed on Phi_q (info %d)", info);
        return info == -1000 ? CLINK_ERR_NOMEM : CLINK_ERR_LINSOLVE;
    }
    for (int i = 0; i < ns; i++)
        if (s[i] > ANALYSIS_RANK_TOL * s[0])
            rank++;
    a->f = nq - rank;
    /* N's column j is row rank + j of V^T */
    for (int j = 0; j < a->f; j++)
        for (int k = 0; k < nq; k++)
            a->N[k + (size_t) nq * j] = vt[(rank + j) + (size_t) nq * k];
    return CLINK_OK;
}

clink_status analysis_accelerations(clink_analysis *a, const double *q, const double *v)
{
    clink_status st = dyn_accelerations(a->dyn, a->t, q, v, a->qdd, a->lam);
    if (st != CLINK_OK)
        analysis_msg(a, "%s", dyn_error(a->dyn));
    return st;
}

void analysis_residual(const clink_analysis *a, double *r)
{
    analysis_residual_in(a, a->N, r);
}

void analysis_generalised_forces(const clink_analysis *a, double *g)
{
    for (int c = 0; c < a->nq; c++)
        g[c] = analysis_mass(a, c) * a->qdd[c];
}

void analysis_residual_in(const clink_analysis *a, const double *basis, double *r)
{
    for (int j = 0; j < a->f; j++) {
        const double *n = basis + (size_t) a->nq * j;
        double sum = 0.0;
        for (int c = 0; c < a->nq; c++)
            sum += n[c] * analysis_mass(a, c) * a->qdd[c];
        r[j] = sum;
    }
}

/* out (f x f) = -N^T M J N for the dense nq x nq J */
static clink_status analysis_project_matrix(clink_analysis *a, const double *J, double *out)
{
    int nq = a->nq, f = a->f;
    clink_status st = analysis_work(a, (size_t) nq + 1);
    if (st != CLINK_OK)
        return st;
    double *y = a->work;
    for (int j = 0; j < f; j++) {
        const double *n = a->N + (size_t) nq * j;
        for (int i = 0; i < nq; i++)
            y[i] = 0.0;
        for (int c = 0; c < nq; c++)
            if (n[c] != 0.0) {
                const double *col = J + (size_t) nq * c;
                for (int i = 0; i < nq; i++)
                    y[i] += col[i] * n[c];
            }
        for (int i = 0; i < nq; i++)
            y[i] *= analysis_mass(a, i);
        for (int k = 0; k < f; k++) {
            const double *nk = a->N + (size_t) nq * k;
            double sum = 0.0;
            for (int i = 0; i < nq; i++)
                sum += nk[i] * y[i];
            out[k + (size_t) f * j] = -sum;
        }
    }
    return CLINK_OK;
}

/*
 * J N and Jv N by central differences of the accelerations along the f columns n of N:
 * (qdd(q + h n, v) - qdd(q - h n, v)) / 2h with h = 1e-6 (the columns are unit vectors in
 * metres and radians), and the same in v (h = 1e-4: the accelerations are at most quadratic
 * in the rates, so that the central difference is exact but for rounding). The points q +- h n
 * leave the constraints by O(h^2), the same on both sides, which the difference cancels. Into
 * a->jq (nq x f) and a->jv.
 */
static clink_status analysis_directional(clink_analysis *a, const double *q, const double *v)
{
    int nq = a->nq;
    clink_status st = analysis_work(a, 3 * (size_t) nq + 1);
    if (st != CLINK_OK)
        return st;
    double *x = a->work, *plus = x + nq, *minus = plus + nq;
    for (int rate = 0; rate < 2; rate++) {
        const double h = rate ? 1e-4 : 1e-6;
        double *out = rate ? a->jv : a->jq;
        for (int j = 0; j < a->f && st == CLINK_OK; j++) {
            const double *n = a->N + (size_t) nq * j;
            const double *base = rate ? v : q;
            for (int side = 0; side < 2 && st == CLINK_OK; side++) {
                for (int c = 0; c < nq; c++)
                    x[c] = base[c] + (side ? -h : h) * n[c];
                st = dyn_accelerations(a->dyn, a->t, rate ? q : x, rate ? x : v,
                                       side ? minus : plus, NULL);
            }
            for (int c = 0; c < nq && st == CLINK_OK; c++)
                out[c + (size_t) nq * j] = (plus[c] - minus[c]) / (2.0 * h);
        }
    }
    if (st != CLINK_OK)
        analysis_msg(a, "%s", dyn_error(a->dyn));
    return st;
}

/* out (f x f) = -N^T M X for X (nq x f) */
static void analysis_project_columns(const clink_analysis *a, const double *X, double *out)
{
    int nq = a->nq, f = a->f;
    for (int j = 0; j < f; j++)
        for (int k = 0; k < f; k++) {
            double sum = 0.0;
            for (int c = 0; c < nq; c++)
                sum += a->N[c + (size_t) nq * k] * analysis_mass(a, c) * X[c + (size_t) nq * j];
            out[k + (size_t) f * j] = -sum;
        }
}

clink_status analysis_reduced_matrices(clink_analysis *a, const double *q, const double *v)
{
    int nq = a->nq, f = a->f;
    int dense = a->nc <= ANALYSIS_SVD_MAX || a->dense_always;
    clink_status st =
        dense ? dyn_jacobian(a->dyn, a->t, q, v, a->jq, a->jv) : analysis_directional(a, q, v);
    if (st != CLINK_OK) {
        if (dense)
            analysis_msg(a, "%s", dyn_error(a->dyn));
        return st;
    }
    for (int j = 0; j < f; j++)
        for (int k = 0; k < f; k++) {
            double sum = 0.0;
            for (int c = 0; c < nq; c++)
                sum += a->N[c + (size_t) nq * k] * analysis_mass(a, c) * a->N[c + (size_t) nq * j];
            a->mr[k + (size_t) f * j] = sum;
        }
    if (!dense) {
        analysis_project_columns(a, a->jq, a->kr);
        analysis_project_columns(a, a->jv, a->cr);
        return CLINK_OK;
    }
    st = analysis_project_matrix(a, a->jq, a->kr);
    if (st == CLINK_OK)
        st = analysis_project_matrix(a, a->jv, a->cr);
    return st;
}

double analysis_force_scale(clink_analysis *a)
{
    const model_data *d = &a->m->d;
    double s = 1e-12, power, gmag = hypot(d->gravity[0], d->gravity[1]);
    double *g = a->work;
    for (int i = 1; i < d->nbodies; i++)
        s = fmax(s, d->bodies[i].def.mass * gmag);
    if (analysis_work(a, (size_t) a->nq + 1) == CLINK_OK) {
        g = a->work;
        if (dyn_applied_forces(a->dyn, a->t, a->q, a->v, g, &power) == 0)
            for (int c = 0; c < a->nq; c++)
                if (isfinite(g[c]))
                    s = fmax(s, fabs(g[c]));
    }
    return s;
}

void analysis_describe(const clink_analysis *a, const double *x, char *buf, size_t size)
{
    static const char *axis[3] = {"x", "y", "phi"};
    double big = 0.0;
    int used[4] = {-1, -1, -1, -1}, n = 0;
    size_t len = 0;
    for (int c = 0; c < a->nq; c++)
        big = fmax(big, fabs(x[c]));
    buf[0] = '\0';
    /* the (at most four) largest components within 30 % of the largest */
    while (n < 4) {
        int best = -1;
        for (int c = 0; c < a->nq; c++) {
            int seen = 0;
            for (int k = 0; k < n; k++)
                seen |= used[k] == c;
            if (!seen && fabs(x[c]) >= 0.3 * big && big > 0.0 &&
                (best < 0 || fabs(x[c]) > fabs(x[best])))
                best = c;
        }
        if (best < 0)
            break;
        used[n++] = best;
        char word[96];
        model_body_word(&a->m->d, best / 3 + 1, word, sizeof word);
        if (len < size)
            len += (size_t) snprintf(buf + len, size - len, "%s%s %s %.2g", n > 1 ? ", " : "", word,
                                     axis[best % 3], x[best] / big);
    }
}

void clink_analysis_describe(const clink_analysis *a, const double *shape, char *buf, size_t size)
{
    if (a == NULL || shape == NULL || buf == NULL || size == 0)
        return;
    analysis_describe(a, shape, buf, size);
}

clink_status clink_analysis_reduced(const clink_analysis *a, double *mr, double *kr, double *cr)
{
    if (a == NULL)
        return CLINK_ERR_ARG;
    size_t n = sizeof(double) * (size_t) a->f * (size_t) a->f;
    if (mr != NULL)
        memcpy(mr, a->mr, n);
    if (kr != NULL)
        memcpy(kr, a->kr, n);
    if (cr != NULL)
        memcpy(cr, a->cr, n);
    return CLINK_OK;
}

/* ---- reactions and contact forces at the state ---- */

clink_status clink_analysis_joint_reaction(const clink_analysis *a, int joint, double force[3])
{
    if (a == NULL || force == NULL || joint < 0 || joint >= a->m->d.njoints)
        return CLINK_ERR_ARG;
    const clink_joint_def *jd = &a->m->d.joints[joint].def;
    kin_pose pa, pb;
    kin_pose_of(a->q, a->v, jd->body_a, &pa);
    kin_pose_of(a->q, a->v, jd->body_b, &pb);
    const joint_class *jc = joint_class_of(jd->type);
    kin_row jac[JOINT_MAX_EQUATIONS];
    jc->jacobian(jd, &pa, &pb, jac);
    double g[3] = {0.0, 0.0, 0.0}, arm[2];
    int r0 = a->m->joint_row[joint];
    for (int r = 0; r < jc->neq; r++)
        for (int k = 0; k < 3; k++)
            g[k] += jac[r].jb[k] * a->lam[r0 + r];
    /* moment about point_b: T - arm x F (as clink_sim_joint_reaction) */
    kin_rot(pb.phi, jd->point_b, arm);
    force[0] = g[0];
    force[1] = g[1];
    force[2] = g[2] - (arm[0] * g[1] - arm[1] * g[0]);
    return CLINK_OK;
}

clink_status clink_analysis_driver_force(const clink_analysis *a, int driver, double *force)
{
    if (a == NULL || force == NULL || driver < 0 || driver >= a->nd)
        return CLINK_ERR_ARG;
    *force = a->lam[a->m->driver_row[driver]];
    return CLINK_OK;
}

clink_status clink_analysis_contact_force(const clink_analysis *a, int body, double force[3])
{
    if (a == NULL || force == NULL || body < 1 || body >= a->m->d.nbodies)
        return CLINK_ERR_ARG;
    double *all = malloc(sizeof *all * (2 * (size_t) a->nq + 1)), *loads, p;
    clink_status st = CLINK_OK;
    if (all == NULL)
        return CLINK_ERR_NOMEM;
    loads = all + a->nq;
    /* the simulation's forces less the model's loads: the contacts' (and the host's inputs') */
    if (dyn_applied_forces(a->dyn, a->t, a->q, a->v, all, &p) != 0 ||
        dyn_applied_forces(a->plain, a->t, a->q, a->v, loads, &p) != 0)
        st = CLINK_ERR_NONFINITE;
    for (int k = 0; k < 3 && st == CLINK_OK; k++)
        force[k] = all[3 * (body - 1) + k] - loads[3 * (body - 1) + k];
    free(all);
    return st;
}
