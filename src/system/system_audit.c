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
 * Both go into one more state component, the last of the full state (N) and of
 * the integrator's (Nr) alike (present when the model has constraints): its
 * derivative is the constraint power, and the projection of each step (the
 * integrator's projection, system_project) adds its jump to that component of the
 * correction, so that the booking is accepted or rejected with the step. The
 * component has error weight zero: the error norm (CVODE's, cvode_setup.c) leaves
 * components of zero weighted error out of its mean, so the steps, error tests and
 * iterations are exactly those of the state without it. The projection of an
 * output (sim_interpolate) is booked on the output state alone.
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
        yd[s->Nr - 1] = dyn_rhs_constraint_power(s->dyn, y + s->nq, s->lambda);
}

/* kinetic energy plus the potentials of gravity, springs and contacts at (q, v), J */
static double system_audit_energy(mechsys *s, const double *q, const double *v)
{
    double e = dyn_mechanical_energy(s->dyn, q, v);
    if (s->ncon)
        e += contacts_stored_energy(s->sc, q, v);
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

double system_audit_work(const mechsys *s, const double *y)
{
    return s->nc > 0 ? y[s->N - 1] : 0.0;
}
