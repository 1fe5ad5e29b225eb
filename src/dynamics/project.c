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
 */
#include "dynamics/dyn_internal.h"

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

clink_status dyn_project(dyn_system *s, double t, double *q, double *v, double tol, int max_iter,
                         double *dq_norm, double *dv_norm)
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
        int it;
        for (it = 0;; it++) {
            dyn_kin_eval(s, t, q, NULL, s->phi, s->jac, NULL, NULL);
            double worst = 0.0;
            for (int r = 0; r < nc; r++)
                worst = fmax(worst, fabs(s->phi[r]));
            if (!isfinite(worst)) {
                dyn_set_msg(s, "constraint violation is not finite at t = %.9g s", t);
                return CLINK_ERR_NONFINITE;
            }
            if (worst <= tol)
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
                dqn += s->rhs[c] * s->rhs[c];
            }
        }
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
