/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * system_audit.c: the energy audit's book of the stabilisation (clink_energy's
 * work_stabilisation).
 *
 * The balance T + V - W_drivers - W_loads (+ the contacts' terms) is constant
 * along an exact solution of the index-1 equations only while the state stays on
 * the constraint manifold. Two things move energy that no applied load accounts
 * for, and both are booked here:
 *   - the power of the constraint forces on the drift, lambda . (Phi_q v - nu)
 *     (dyn_constraint_power): the Baumgarte terms act through it, and off the
 *     manifold (no drift control) the ideal joints do work through it;
 *   - the energy a projection adds or removes: E(projected) - E(before), E the
 *     kinetic energy plus the potentials of gravity, springs and contacts.
 * The constraint power is integrated as one more state component, the last of the
 * full state (N) and of the integrator's (Nr) alike (present when the model has
 * constraints), of error weight zero: the error norm (CVODE's, cvode_setup.c) leaves
 * components of zero weighted error out of its mean, so the steps, error tests and
 * iterations are exactly those of the state without it.
 * The jumps of the integrator's projections are kept out of the state (book): CVODE
 * (6.4, cvCompleteStep) adds a projection's correction to every column of its
 * Nordsieck history, so that a jump booked through the correction would be
 * extrapolated by the following steps' predictors and correctors like a rate (the
 * sum booked then differs from the sum of the jumps by the order of the jumps
 * themselves). The projection of each attempt keeps its jump (system_audit_pend), the
 * completed step books it (system_audit_commit: CVODE projects once per attempt,
 * after the corrector and before the error test, so the last projection of a call
 * is that of the step it completes). Between two step ends the book is the earlier
 * jumps plus the fraction (t - t0) / (t1 - t0) of the last step's, as the dense
 * output carries that step's correction in from 0 at t0 to all of it at t1; a
 * re-initialisation inside the last step keeps the fraction reached there. The
 * projection of an output (sim_interpolate) is booked on the output state alone.
 */
#include "system/system.h"

int system_audit_components(const mechsys *s)
{
    return s->nc > 0 ? 1 : 0;
}

/* w: the error weights (Nr components, the audit last) */
void system_audit_weights(const mechsys *s, double *w)
{
    if (s->nc > 0)
        w[s->Nr - 1] = 0.0;
}

/* y: the full state (N), yd: the integrator's derivative (Nr, the audit last) */
void system_audit_rate(mechsys *s, const double *y, double *yd)
{
    if (s->nc > 0)
        yd[s->Nr - 1] = dyn_constraint_power(s->dyn, y + s->nq, s->lambda);
}

/* kinetic energy plus the potentials of gravity, springs and contacts at (q, v), J */
static double system_audit_energy(mechsys *s, const double *q, const double *v)
{
    double e = dyn_mechanical_energy(s->dyn, q, v);
    if (s->ncon)
        e += simc_stored_energy(s->sc, q, v);
    return e;
}

double system_audit_jump(mechsys *s, const double *q0, const double *v0, const double *q1,
                         const double *v1)
{
    return system_audit_energy(s, q1, v1) - system_audit_energy(s, q0, v0);
}

clink_status system_audit_project(mechsys *s, double t, double *y)
{
    int nq = s->nq;
    double e0 = system_audit_energy(s, y, y + nq);
    clink_status st = dyn_project(s->dyn, t, y, y + nq, SYSTEM_PROJECTION_TOL,
                                  SYSTEM_PROJECTION_ITER, NULL, NULL);
    if (st == CLINK_OK && s->nc > 0)
        y[s->N - 1] += system_audit_energy(s, y, y + nq) - e0;
    return st;
}

void system_audit_pend(mechsys *s, double t, double jump)
{
    s->book.pend = jump;
    s->book.pend_t = t;
    s->book.pending = 1;
}

void system_audit_commit(mechsys *s)
{
    if (!s->book.pending)
        return; /* no step since the last commit (the rest of a root's step) */
    s->book.pending = 0;
    s->book.sum += s->book.pend;
    s->book.last = s->book.pend;
    s->book.t0 = s->book.t1;
    s->book.t1 = s->book.pend_t;
}

/* the fraction of the last step's jump booked at t */
static double system_audit_share(const mechsys *s, double t)
{
    if (t >= s->book.t1 || !(s->book.t1 > s->book.t0))
        return 1.0;
    return t <= s->book.t0 ? 0.0 : (t - s->book.t0) / (s->book.t1 - s->book.t0);
}

void system_audit_restart(mechsys *s, double t)
{
    s->book.sum -= (1.0 - system_audit_share(s, t)) * s->book.last;
    s->book.pending = 0;
    s->book.last = 0.0;
    s->book.t0 = s->book.t1 = t;
}

double system_audit_work(const mechsys *s, double t, const double *y)
{
    if (s->nc == 0)
        return 0.0;
    return y[s->N - 1] + s->book.sum - (1.0 - system_audit_share(s, t)) * s->book.last;
}
