/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * project.c: the projection of positions and velocities onto the constraint
 * manifolds Phi(q, t) = 0 and Phi_q v = nu, in the metric of M.
 *
 * Each correction solves the saddle system with the matrix of the dynamics,
 *
 *   [ M      Phi_q^T ] [ dx ]   [ 0 ]
 *   [ Phi_q  0       ] [ mu ] = [ r ],
 *
 * dx being the correction of least kinetic-energy norm dx^T M dx that satisfies
 * the linearised constraints Phi_q dx = r. Positions: Newton on Phi(q, t) = 0,
 * q += dq with r = -Phi; velocities: v += dv with r = nu - Phi_q v; errors of
 * the integrator (dyn_project_error): r = -Phi_q e, the part of e tangent to the
 * manifold. The last Newton iteration, the velocity projection and the error
 * projection at one state share one factorisation (saddle.c).
 *
 * The projection of an integrator's step (dyn_project_step) also says whether the
 * step's error estimate is to be projected (docs/kernel.md, "The error estimate of
 * a projected step"). Away from singular positions it is not: the estimate keeps
 * its part normal to the manifold, so that the local error off the constraints is
 * controlled by the tolerances too, and the positions take at least one Newton
 * iteration, so that the state leaves the projection with Phi at rounding rather
 * than anywhere below tol (a drift below tol left in the state enters the next
 * estimate whatever the step size: at rtol 1e-12 no step passes). Near a singular
 * position, where the smallest pivot ratio of the factorisation (d_k / S_kk of the
 * Cholesky of S = Phi_q M^-1 Phi_q^T, the squared sine of the angle between a row
 * and the span of the others) is below DYN_ESTIMATE_RATIO, the normal part of the
 * estimate grows without bound as the rows become dependent, and the estimate is
 * projected (Eich 1993), as it is where no such ratio is known (KLU's rcond is
 * another measure). From a whole estimate the part of each row's residual within
 * DYN_ESTIMATE_ROUNDING roundings of the row is removed (dyn_project_error_rounding):
 * what the projected states carry into the history whatever the step, the rounding
 * of the rows and, where drivers pin the state to t, of t.
 */
#include "dynamics/dyn_internal.h"

#include <float.h>

/* solves [M J^T; J 0][dx; mu] = [0; r] with r in s->work[nq..]; dx into s->rhs[0..nq) */
static clink_status solve_correction(dyn_system *s, double t, const double *q)
{
    clink_status st = dyn_factor(s, t, q);
    if (st != CLINK_OK)
        return st;
    for (int c = 0; c < s->nq; c++)
        s->rhs[c] = 0.0;
    for (int r = 0; r < s->nc; r++)
        s->rhs[s->nq + r] = s->work[s->nq + r];
    return dyn_solve(s);
}

/* the smallest pivot ratio of the current factorisation, or -1 where none is known */
static double known_pivot_ratio(const dyn_system *s)
{
    if (s->rd_on)
        return dyn_rank_ops.pivot_ratio(s);
    return s->ops == &dyn_schur_ops ? dyn_schur_ops.pivot_ratio(s) : -1.0;
}

/*
 * Newton on Phi(q, t) = 0 until max |Phi| <= tol; with well (not NULL) at least one
 * iteration where the factorisation at the first q has a pivot ratio of at least
 * DYN_ESTIMATE_RATIO, *well set to whether it has.
 */
static clink_status project_positions(dyn_system *s, double t, double *q, double tol, int max_iter,
                                      int *well, double *dqn)
{
    int nq = s->nq, nc = s->nc;
    for (int it = 0;; it++) {
        dyn_kin_eval(s, t, q, NULL, s->phi, s->jac, NULL, NULL);
        double worst = 0.0;
        for (int r = 0; r < nc; r++)
            worst = fmax(worst, fabs(s->phi[r]));
        if (!isfinite(worst)) {
            dyn_set_msg(s, "constraint violation is not finite at t = %.9g s", t);
            return CLINK_ERR_NONFINITE;
        }
        /* KLU gives no pivot ratio of S (its rcond is another measure): not factored here */
        if (well && it == 0 && (s->rd_sticky || s->ops != &dyn_klu_ops)) {
            clink_status st = dyn_factor(s, t, q);
            if (st != CLINK_OK)
                return st;
            *well = known_pivot_ratio(s) >= DYN_ESTIMATE_RATIO;
        }
        if (worst <= tol && !(well && *well && it == 0))
            break;
        if (it >= max_iter) {
            dyn_assembly_failed(s, t, worst, it);
            return CLINK_ERR_ASSEMBLY;
        }
        for (int r = 0; r < nc; r++)
            s->work[nq + r] = -s->phi[r];
        clink_status st = solve_correction(s, t, q);
        if (st != CLINK_OK)
            return st;
        for (int c = 0; c < nq; c++) {
            q[c] += s->rhs[c];
            *dqn += s->rhs[c] * s->rhs[c];
        }
    }
    return CLINK_OK;
}

/* positions (when q), then velocities (when v); see dyn_project and dyn_project_step */
static clink_status project_state(dyn_system *s, double t, double *q, double *v, double tol,
                                  int max_iter, int *well, double *dq_norm, double *dv_norm)
{
    int nq = s->nq, nc = s->nc;
    double dqn = 0.0, dvn = 0.0;
    if (dq_norm)
        *dq_norm = 0.0;
    if (dv_norm)
        *dv_norm = 0.0;
    if (nc == 0)
        return CLINK_OK;
    if (q) {
        clink_status st = project_positions(s, t, q, tol, max_iter, well, &dqn);
        if (st != CLINK_OK)
            return st;
    }
    if (v) {
        dyn_kin_eval(s, t, q, v, NULL, s->jac, s->nu, NULL);
        for (int r = 0; r < nc; r++)
            s->work[nq + r] = s->nu[r] - dyn_row_times(s, r, v);
        clink_status st = solve_correction(s, t, q);
        if (st != CLINK_OK)
            return st;
        for (int c = 0; c < nq; c++) {
            v[c] += s->rhs[c];
            dvn += s->rhs[c] * s->rhs[c];
        }
    }
    if (dq_norm)
        *dq_norm = sqrt(dqn);
    if (dv_norm)
        *dv_norm = sqrt(dvn);
    return CLINK_OK;
}

clink_status dyn_project(dyn_system *s, double t, double *q, double *v, double tol, int max_iter,
                         double *dq_norm, double *dv_norm)
{
    return project_state(s, t, q, v, tol, max_iter, NULL, dq_norm, dv_norm);
}

clink_status dyn_project_step(dyn_system *s, double t, double *q, double *v, double tol,
                              int max_iter, int *project_estimate)
{
    int well = 0;
    clink_status st = project_state(s, t, q, v, tol, max_iter, &well, NULL, NULL);
    *project_estimate = s->nc > 0 && !well;
    return st;
}

clink_status dyn_project_error(dyn_system *s, double t, const double *q, double *eq, double *ev)
{
    int nq = s->nq, nc = s->nc;
    if (nc == 0)
        return CLINK_OK;
    dyn_kin_eval(s, t, q, NULL, NULL, s->jac, NULL, NULL);
    double *e[2] = {eq, ev};
    for (int i = 0; i < 2; i++) {
        if (!e[i])
            continue;
        for (int r = 0; r < nc; r++)
            s->work[nq + r] = -dyn_row_times(s, r, e[i]);
        clink_status st = solve_correction(s, t, q);
        if (st != CLINK_OK)
            return st;
        for (int c = 0; c < nq; c++)
            e[i][c] += s->rhs[c];
    }
    return CLINK_OK;
}

/* ---- violations --------------------------------------------------------- */

void dyn_violation(dyn_system *s, double t, const double *q, const double *v, double *pos,
                   double *vel)
{
    dyn_kin_eval(s, t, q, v, s->phi, s->jac, s->nu, NULL);
    dyn_violation_last(s, v, pos, vel);
}

void dyn_violation_last(const dyn_system *s, const double *v, double *pos, double *vel)
{
    double p = 0.0, w = 0.0;
    for (int r = 0; r < s->nc; r++) {
        p = fmax(p, fabs(s->phi[r]));
        w = fmax(w, fabs(dyn_row_times(s, r, v) - s->nu[r]));
    }
    if (pos)
        *pos = p;
    if (vel)
        *vel = w;
}

/* the size of the terms of row r at x, sum_c |Phi_q,rc x_c| + time_term, and (tol not NULL)
   its tolerance band sum_c |Phi_q,rc| tol_c */
static double row_scale(const dyn_system *s, int r, const double *x, const double *tol,
                        double time_term, double *band)
{
    double scale = time_term, bd = 0.0;
    int body[2] = {s->row_a[r], s->row_b[r]};
    const double *j[2] = {s->jac[r].ja, s->jac[r].jb};
    for (int k = 0; k < 3; k++)
        for (int side = 0; side < 2; side++) {
            int c = 3 * (body[side] - 1) + k;
            if (body[side] > 0) {
                scale += fabs(j[side][k] * x[c]);
                bd += tol ? fabs(j[side][k]) * tol[c] : 0.0;
            }
        }
    *band = bd;
    return scale;
}

/*
 * The part of an estimate's residual r = Phi_q e beyond the rounding of its row:
 * |r| less DYN_ESTIMATE_ROUNDING times u (sum_c |Phi_q,rc x_c| + time_term) (x the state
 * the row is evaluated at: positions for Phi, velocities for Phi_q v - nu; time_term
 * |t| |nu_r| or |t| |gamma_r| where drivers make the rows depend on t, whose rounding the
 * projection follows and the history does not), toward 0 and never past it; none of it
 * where that rounding is above DYN_ESTIMATE_RESOLVED times the row's tolerance band.
 */
static double beyond_rounding(const dyn_system *s, int r, double res, const double *x,
                              const double *tol, double time_term)
{
    double band;
    double noise = DYN_ESTIMATE_ROUNDING * DBL_EPSILON * row_scale(s, r, x, tol, time_term, &band);
    /* a row whose rounding is not well below its tolerance band cannot be resolved */
    if (tol && noise > DYN_ESTIMATE_RESOLVED * band)
        return 0.0;
    return fabs(res) <= noise ? 0.0 : res - copysign(noise, res);
}

/*
 * Components of e below what the constraints resolve, set to 0: a row's rounding
 * u scale_r moves coordinate c, in the correction minimal in the metric of M, by
 * u scale_r (|Phi_q,rc| / m_c) / (sum_k Phi_q,rk^2 / m_k); where DYN_ESTIMATE_RESOLUTION
 * times the largest of these over the rows of c is above its tolerance, the component
 * is noise that no step size reduces (noise: nq scratch).
 */
static void drop_unresolved(const dyn_system *s, const double *x, const double *tol,
                            double time_scale, const double *rate, double *e, double *noise)
{
    int nq = s->nq;
    for (int c = 0; c < nq; c++)
        noise[c] = 0.0;
    for (int r = 0; r < s->nc; r++) {
        double band;
        double scale = row_scale(s, r, x, NULL, time_scale * fabs(rate[r]), &band);
        int body[2] = {s->row_a[r], s->row_b[r]};
        const double *j[2] = {s->jac[r].ja, s->jac[r].jb};
        double srr = 0.0; /* Phi_q,r M^-1 Phi_q,r^T */
        for (int side = 0; side < 2; side++)
            for (int k = 0; body[side] > 0 && k < 3; k++) {
                int c = 3 * (body[side] - 1) + k;
                srr += j[side][k] * j[side][k] / s->mass[c];
            }
        if (!(srr > 0.0))
            continue;
        for (int side = 0; side < 2; side++)
            for (int k = 0; body[side] > 0 && k < 3; k++) {
                int c = 3 * (body[side] - 1) + k;
                noise[c] = fmax(noise[c], scale * fabs(j[side][k]) / (s->mass[c] * srr));
            }
    }
    for (int c = 0; c < nq; c++)
        if (DYN_ESTIMATE_RESOLUTION * DBL_EPSILON * noise[c] > tol[c])
            e[c] = 0.0;
}

clink_status dyn_project_error_rounding(dyn_system *s, double t, const double *q, const double *v,
                                        const double *tq, const double *tv, double *eq, double *ev)
{
    int nq = s->nq, nc = s->nc;
    if (nc == 0)
        return CLINK_OK;
    dyn_kin_eval(s, t, q, v, NULL, s->jac, s->nu, s->gamma);
    double *e[2] = {eq, ev};
    const double *x[2] = {q, v};
    const double *rate[2] = {s->nu, s->gamma};
    const double *tol[2] = {tq, tv};
    /* the rounding of t moves the state only where drivers pin it to t */
    double rheonomic = s->m->d.ndrivers > 0 ? fabs(t) : 0.0;
    for (int i = 0; i < 2; i++) {
        if (!e[i])
            continue;
        /* the correction that removes the residual within the rounding of each row */
        for (int r = 0; r < nc; r++) {
            double res = dyn_row_times(s, r, e[i]);
            s->work[nq + r] =
                beyond_rounding(s, r, res, x[i], tol[i], rheonomic * fabs(rate[i][r])) - res;
        }
        clink_status st = solve_correction(s, t, q);
        if (st != CLINK_OK)
            return st;
        for (int c = 0; c < nq; c++)
            e[i][c] += s->rhs[c];
        if (tol[i])
            drop_unresolved(s, x[i], tol[i], rheonomic, rate[i], e[i], s->rhs);
    }
    return CLINK_OK;
}
