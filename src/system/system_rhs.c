/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * system_rhs.c: what an integrator evaluates on the mechanism (system.h), on its
 * state yr (Nr components, system_state.c):
 *
 *   - the right-hand side y' = f(t, y): q' = v, v' = qdd from the saddle-point system
 *     (dyn_accelerations), the power of the drivers lambda . nu, the power of the
 *     applied loads, the contacts' dissipation rates and the audit's constraint power.
 *     It returns 1 (recoverable) for a singular saddle point or a non-finite value, so
 *     that an adaptive integrator retries with a smaller step, and -1 (fatal) when the
 *     contacts report a non-finite force at a finite state or memory runs out; the
 *     failing component's status is kept (fail, cb_msg);
 *   - the error weights: a coordinate's weight is relative to its displacement since
 *     t = 0 (1 / (rtol |q_i - q_i(0)| + atol)), not to its distance from the origin
 *     (under rtol |q_i| the last bead of a 7000-bead chain, at x = 33 m, was allowed an
 *     error 100 times that of the 70-bead chain's), 1 / (rtol |y_i| + atol) for the
 *     rates and energies;
 *   - the Jacobian's lower blocks d qdd / dq, d qdd / dv: analytic (dyn_jacobian_columns:
 *     one evaluation of the accelerations, the force derivatives by body blocks and the
 *     saddle solves shared by columns of disjoint joint components, with the factorisation
 *     at (t, q), each column written into the pattern) or, for comparison in benchmarks
 *     and tests, forward
 *     differences of the right-hand side, one per column (sim_use_fd_jacobian); the
 *     energy rows are left zero (the works feed nothing back); the friction states'
 *     columns: d z' / d z and d v' / d z (one forward difference in z each,
 *     system_jacobian_tail);
 *   - the projection onto the constraints, the correction minimal in the metric of M
 *     (dyn_project_step), its energy booked on the audit with the step, the error
 *     estimate projected near singular positions only (project.c);
 *   - the root functions of the contacts, two per contact (contacts.c), all or those
 *     of some contacts, with the guard against events without a completed step.
 */
#include "system/system.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int system_failed(mechsys *s, clink_status st, const char *msg)
{
    s->fail = st;
    snprintf(s->cb_msg, sizeof s->cb_msg, "%s", msg);
    return st == CLINK_ERR_NOMEM ? -1 : 1;
}

int system_finite_rates(mechsys *s, double t, const double *yd)
{
    if (dyn_all_finite(yd, s->Nr))
        return 0;
    /* the first non-finite component named */
    for (int i = 0; i < s->Nr; i++)
        if (!isfinite(yd[i])) {
            char m[128];
            snprintf(m, sizeof m, "non-finite derivative of state component %d at t = %.9g s", i,
                     t);
            return system_failed(s, CLINK_ERR_NONFINITE, m);
        }
    return 0;
}

/* the rates of the energy components after the accelerations: drivers (their rates f'(t) those
   the accelerations evaluated), loads, contacts, audit */
static void system_energy_rates(mechsys *s, const double *yy, double *yd)
{
    int nr = s->nr;
    double pd = 0.0;
    for (int k = 0; k < s->m->d.ndrivers; k++)
        pd += s->lambda[s->m->driver_row[k]] * dyn_driver_rate(s->dyn, k);
    yd[2 * nr] = pd;
    yd[2 * nr + 1] = dyn_last_power_loads(s->dyn);
    if (s->ncon)
        contacts_dissipation_rates(s->sc, yd + 2 * nr + 2);
    if (s->njz)
        dyn_joint_friction_rates(s->dyn, yd + 2 * nr + s->jz0);
    system_audit_rate(s, yy, yd);
}

int system_rhs(mechsys *s, double t, const double *yr, double *yd)
{
    if (s->win)
        return system_window_rhs(s, t, yr, yd);
    const double *yy = system_full_x(s, yr);
    int nq = s->nq, nr = s->nr;
    double *acc = nr == nq ? yd + nq : s->acc;
    system_friction_load(s, yy);
    clink_status st = dyn_accelerations(s->dyn, t, yy, yy + nq, acc, s->lambda);
    if (st != CLINK_OK) {
        if (s->fatal)
            return -1; /* the host's user force failed: its message is kept */
        if (s->ncon && contacts_take_failure(s->sc)) {
            /* a non-finite contact force at a finite state: no smaller step helps */
            system_failed(s, CLINK_ERR_NONFINITE, contacts_error(s->sc));
            return -1;
        }
        return system_failed(s, st, dyn_error(s->dyn));
    }
    memcpy(yd, yr + nr, (size_t) nr * sizeof(double));
    if (nr != nq)
        for (int i = 0; i < nr; i++)
            yd[nr + i] = acc[s->red[i]];
    system_energy_rates(s, yy, yd);
    return system_finite_rates(s, t, yd);
}

void system_weights(const mechsys *s, const double *yy, double *w)
{
    double rtol = s->set.rtol, atol = s->set.atol;
    for (int i = 0; i < s->nr; i++)
        w[i] = 1.0 / (rtol * fabs(yy[i] - s->q0[s->red[i]]) + atol);
    for (int i = s->nr; i < s->Nr; i++)
        w[i] = 1.0 / (rtol * fabs(yy[i]) + atol);
    system_audit_weights(s, w);
}

/* the friction states' rows d z' / d(q, v) in the analytic lower blocks */
static void system_jac_friction_states(mechsys *s, double *vals, const long *start)
{
    int nr = s->nr;
    for (int k = 0; k < s->ncon; k++) {
        int wz = contacts_friction_state_index(s->sc, k), coord[6];
        double dq[6], dv[6];
        if (wz < 0 || !contacts_friction_state_jacobian(s->sc, k, coord, dq, dv))
            continue;
        int row = 2 * nr + 2 + wz - nr;
        for (int i = 0; i < 6; i++) {
            int j = coord[i] >= 0 ? s->rt_inv[coord[i]] : -1;
            long at = j >= 0 ? system_pattern_find(s, j, row) : -1;
            if (at < 0)
                continue;
            vals[start[j] + at] += dq[i];
            vals[start[nr + j] + at] += dv[i];
        }
    }
}

/* where dyn_jacobian_columns' columns go: the integrator's values and column starts */
typedef struct jac_sink {
    mechsys *s;
    double *vals;
    const long *start;
} jac_sink;

/* column col (of q: rate 0, of v: rate 1) of d qdd / d(q, v) into its pattern (the rows
   of the coordinates kept; the energy and friction-state rows zero) */
static void system_jac_column(void *ctx, int rate, int col, const double *x)
{
    jac_sink *k = ctx;
    mechsys *s = k->s;
    int nr = s->nr, j = s->rt_inv[col];
    if (j < 0)
        return; /* a coordinate left out */
    double *out = k->vals + k->start[rate ? nr + j : j];
    long p0 = s->pat_ptr[j];
    for (long p = p0; p < s->pat_ptr[j + 1]; p++) {
        int i = s->pat_rows[p];
        out[p - p0] = i < nr ? x[s->red[i]] : 0.0;
    }
}

/* the analytic lower blocks in the pattern (energy rows zero but the friction states'),
   column by column in proportion to what couples (dyn_jacobian_columns) */
static int system_jac_analytic(mechsys *s, double t, const double *yr, double *vals,
                               const long *start)
{
    int nf = s->nq;
    const double *yy = system_full_x(s, yr);
    system_friction_load(s, yy);
    jac_sink k = {.s = s, .vals = vals, .start = start};
    clink_status st = dyn_jacobian_columns(s->dyn, t, yy, yy + nf, system_jac_column, &k);
    s->rhs_jac++; /* one evaluation of the accelerations */
    if (st != CLINK_OK && s->fatal)
        return -1;
    if (st != CLINK_OK)
        return system_failed(s, st, dyn_error(s->dyn));
    if (s->nfz)
        system_jac_friction_states(s, vals, start);
    return 0;
}

void system_jacobian_diagonal(mechsys *s, double *diag)
{
    for (int i = 2 * s->nr; i < s->Nr; i++)
        diag[i - 2 * s->nr] = 0.0;
    if (s->nfz)
        contacts_friction_decay(s->sc, diag + 2);
    if (s->njz)
        dyn_joint_friction_decay(s->dyn, diag + s->jz0);
}

int system_jacobian_tail(mechsys *s, double t, double *yr, const double *fy, double *tmp,
                         double *vals)
{
    int nr = s->nr;
    for (int k = 0; s->tail_ptr && k < s->ncon; k++) {
        int wz = contacts_friction_state_index(s->sc, k);
        if (wz < 0)
            continue;
        long a = s->tail_ptr[2 + wz], b = s->tail_ptr[3 + wz];
        /* z enters linearly: one forward step of 0.1 of its size (contacts_friction.c) */
        double *z = &yr[2 * nr + 2 + wz], z0 = *z;
        double h = 0.1 * fmax(fabs(z0), contacts_friction_state_scale(s->sc, k));
        *z = z0 + h;
        h = *z - z0;
        int rc = system_rhs(s, t, yr, tmp);
        s->rhs_jac++;
        *z = z0;
        if (rc != 0)
            return rc;
        for (long i = a; i < b; i++)
            vals[i] = (tmp[nr + s->tail_rows[i]] - fy[nr + s->tail_rows[i]]) / h;
    }
    return 0;
}

int system_jacobian(mechsys *s, double t, double *yy, const double *f0, double *f1, double *vals,
                    const long *start)
{
    int nq = s->nr;
    if (!s->pat_ptr)
        return system_failed(s, CLINK_ERR_NOMEM, "Jacobian: no pattern");
    if (!s->jac_fd)
        return system_jac_analytic(s, t, yy, vals, start);
    double rtol = s->set.rtol, atol = s->set.atol;
    for (int j = 0; j < 2 * nq; j++) {
        int jj = j < nq ? j : j - nq;
        double *x = vals + start[j];
        double yj = yy[j];
        double h = sqrt(2.2e-16) * fmax(fabs(yj), fmax(atol / rtol, 1e-8));
        yy[j] = yj + h;
        h = yy[j] - yj;
        int rc = system_rhs(s, t, yy, f1);
        s->rhs_jac++;
        yy[j] = yj;
        if (rc != 0)
            return rc;
        for (long k = s->pat_ptr[jj]; k < s->pat_ptr[jj + 1]; k++) {
            int i = s->pat_rows[k] + nq;
            x[k - s->pat_ptr[jj]] = (f1[i] - f0[i]) / h;
        }
    }
    return 0;
}

/* the tolerances of the full coordinates at (q, v): the reciprocals of the error weights
   (system_weights) of the integrated ones, 0 for those left out (they carry no error) */
static void system_tolerances(mechsys *s, const double *q, const double *v)
{
    int nq = s->nq;
    double rtol = s->set.rtol, atol = s->set.atol;
    memset(s->ptol, 0, 2 * (size_t) nq * sizeof(double));
    for (int i = 0; i < s->nr; i++) {
        int c = s->red[i];
        s->ptol[c] = rtol * fabs(q[c] - s->q0[c]) + atol;
        s->ptol[nq + c] = rtol * fabs(v[c]) + atol;
    }
}

/* projects the error estimate e (the integrator's components) at the projected q */
static int system_project_error(mechsys *s, double t, const double *q, const double *v, int whole,
                                double *e)
{
    int nq = s->nq, nr = s->nr;
    double *ef = e;
    if (nr != nq) {
        /* the error of the coordinates left out is 0 */
        ef = s->yx;
        s->yx_fixed = 0; /* yx holds an error now, not a state */
        memset(ef, 0, 2 * (size_t) nq * sizeof(double));
        for (int i = 0; i < nr; i++) {
            ef[s->red[i]] = e[i];
            ef[nq + s->red[i]] = e[nr + i];
        }
    }
    if (whole)
        system_tolerances(s, q, v);
    clink_status st =
        whole ? dyn_project_error_rounding(s->dyn, t, q, v, s->ptol, s->ptol + nq, ef, ef + nq)
              : dyn_project_error(s->dyn, t, q, ef, ef + nq);
    if (st != CLINK_OK)
        return system_failed(s, st, dyn_error(s->dyn));
    if (nr != nq)
        for (int i = 0; i < nr; i++) {
            e[i] = ef[s->red[i]];
            e[nr + i] = ef[nq + s->red[i]];
        }
    return 0;
}

int system_project(mechsys *s, double t, const double *yc, double *c, double *err)
{
    int nq = s->nq, nr = s->nr;
    const double *yf = system_full_x(s, yc);
    double *q = s->pq, *v = s->pv;
    memcpy(q, yf, (size_t) nq * sizeof(double));
    memcpy(v, yf + nq, (size_t) nq * sizeof(double));
    int project_estimate = 1;
    clink_status st = dyn_project_step(s->dyn, t, q, v, SYSTEM_PROJECTION_TOL,
                                       SYSTEM_PROJECTION_ITER, &project_estimate);
    if (st != CLINK_OK)
        return system_failed(s, st, dyn_error(s->dyn));
    for (int i = 0; i < nr; i++) {
        int r = nr == nq ? i : s->red[i];
        c[i] = q[r] - yc[i];
        c[nr + i] = v[r] - yc[nr + i];
    }
    for (int i = 2 * nr; i < s->Nr; i++)
        c[i] = 0.0;
    if (s->nc > 0)
        c[s->Nr - 1] = system_audit_jump(s, yf, yf + nq, q, v); /* booked with the step */
    return err ? system_project_error(s, t, q, v, !project_estimate, err) : 0;
}

int system_roots(mechsys *s, double t, const double *yy, const int *contacts, int n, double *g)
{
    if (++s->root_calls > SYSTEM_MAX_ROOT_CALLS) {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "contact events without a completed step at t = %.9g s: %d evaluations of the "
                 "contact functions since the last step (events that chatter, or a contact "
                 "function that jumps; tolerances too loose?)",
                 t, SYSTEM_MAX_ROOT_CALLS);
        system_failed(s, CLINK_ERR_SOLVER, msg);
        return -1;
    }
    if (contacts) {
        s->roots_partial++;
        return contacts_roots_some(s->sc, contacts, n, yy, yy + s->nq, g);
    }
    s->roots_full++;
    return contacts_roots(s->sc, t, yy, yy + s->nq, g);
}

int system_roots_all(mechsys *s, double t, const double *yr, double *g)
{
    return system_roots(s, t, system_full_x(s, yr), NULL, 0, g);
}

void system_roots_load(mechsys *s, const double *yr)
{
    const double *yf = system_full(s, yr, s->rt_y);
    if (yf != s->rt_y)
        memcpy(s->rt_y, yf, (size_t) s->N * sizeof(double));
}

int system_roots_inputs(const mechsys *s, const int *contacts, int nlist, int *pairs)
{
    int n = 0;
    for (int j = 0; j < nlist; j++)
        for (int e = 0; e < 3; e++) { /* its two bodies and a third (a beam segment's) */
            int body =
                e < 2 ? s->rt_body[2 * contacts[j] + e] : contacts_third_body(s->sc, contacts[j]);
            for (int d = 0; body > 0 && d < 3; d++) {
                int f = 3 * (body - 1) + d, r = s->rt_inv[f];
                if (r < 0)
                    continue; /* a coordinate left out: constant, as in rt_y */
                pairs[2 * n] = r;
                pairs[2 * n + 1] = f;
                pairs[2 * n + 2] = s->nr + r;
                pairs[2 * n + 3] = s->nq + f;
                n += 2;
            }
        }
    return n;
}

int system_roots_some(mechsys *s, double t, const int *contacts, int n, double *g)
{
    return system_roots(s, t, s->rt_y, contacts, n, g);
}

void system_root_directions(const mechsys *s, int *dirs)
{
    contacts_root_directions(s->sc, dirs);
}
