/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * system_newton.c: BDF's Newton system (I - gamma J) x = b on the mechanism's state solved in
 * the saddle form of the accelerations (src/dynamics/newton_saddle.c), J never formed.
 *
 * The state is y = (q, v, the energies and the audit). J's rows of the energies are zero
 * (the works feed nothing back, system_rhs.c) and so are its columns beyond the rates
 * without friction states, so that those components of x are those of b; the positions
 * and rates are the saddle solve's (dq = b_q + gamma dv). It is used (system_newton_fits)
 * when the model has constraints, no friction states (their columns d v' / d z would
 * couple), the integrator carries every coordinate (no coordinate left out, no window) and
 * the analytic Jacobian is in use; in SYSTEM_NEWTON_AUTO mode from SYSTEM_NEWTON_MIN_BODIES
 * bodies, the crossover measured with bench/bench_newton_chain.c (docs/performance.md,
 * "Revolute chains"): below it the sparse J of the other path costs less (its dense blocks
 * are small) and every shipped model keeps that path and its bits. The host's forces
 * (inputs, a user force) are left out of the Newton matrix (their derivatives are not in
 * K); CVODE's Newton iteration converges on the residual, which includes them. A model
 * whose constraints the start found dependent (dyn_history: the rank-revealing fallback is
 * in use) keeps the sparse path, whose saddle solves have that fallback: K of redundant
 * constraints is singular.
 */
#include "system/system.h"

#include "dynamics/newton_saddle.h"

#include <stdio.h>

/* from this many bodies the saddle form is used (SYSTEM_NEWTON_AUTO) */
#define SYSTEM_NEWTON_MIN_BODIES 100

int system_newton_fits(const mechsys *s)
{
    if (s->newton_mode == SYSTEM_NEWTON_OFF || s->nc == 0 || s->nfz > 0 || s->nr != s->nq ||
        s->win || s->jac_fd || dyn_has_host_forces(s->dyn) || dyn_history(s->dyn))
        return 0;
    return s->newton_mode == SYSTEM_NEWTON_ON || s->nq / 3 >= SYSTEM_NEWTON_MIN_BODIES;
}

/* the solver, at the first Jacobian (the contact pairs given to the dynamics first) */
static int system_newton_open(mechsys *s)
{
    if (s->newton)
        return 0;
    clink_status st = dyn_jacobian_couple(s->dyn, s->ncouple, s->rt_body);
    if (st == CLINK_OK && !(s->newton = dyn_newton_create(s->dyn)))
        st = CLINK_ERR_NOMEM;
    if (st != CLINK_OK) {
        system_failed(s, st, dyn_error(s->dyn));
        return -1;
    }
    return 0;
}

void *system_newton_jac_create(mechsys *s)
{
    return system_newton_open(s) == 0 ? dyn_newton_jac_create(s->newton) : NULL;
}

void system_newton_jac_destroy(mechsys *s, void *jac)
{
    (void) s;
    dyn_newton_jac_destroy(jac);
}

void system_newton_jac_copy(mechsys *s, const void *src, void *dst)
{
    dyn_newton_jac_copy(s->newton, src, dst);
}

/* a failure of the dynamics: fatal when out of memory or when the host said so */
static int system_newton_failed(mechsys *s, clink_status st)
{
    if (s->fatal)
        return -1;
    return system_failed(s, st, dyn_error(s->dyn));
}

int system_newton_eval(mechsys *s, double t, const double *yr, void *jac)
{
    const double *yy = system_full_x(s, yr);
    system_friction_load(s, yy);
    clink_status st = dyn_newton_eval(s->newton, t, yy, yy + s->nq, jac);
    s->rhs_jac++; /* one evaluation of the accelerations */
    return st == CLINK_OK ? 0 : system_newton_failed(s, st);
}

int system_newton_setup(mechsys *s, const void *jac, double gamma)
{
    clink_status st = dyn_newton_factor(s->newton, jac, gamma);
    return st == CLINK_OK ? 0 : system_newton_failed(s, st);
}

int system_newton_solve(mechsys *s, double *b)
{
    /* the rows beyond the rates are b's own (their J rows and columns are zero) */
    clink_status st = dyn_newton_solve(s->newton, b, b + s->nq, b, b + s->nq);
    return st == CLINK_OK ? 0 : system_newton_failed(s, st);
}

void system_newton_restart(mechsys *s)
{
    if (s->newton)
        dyn_newton_forget(s->newton);
}

void system_newton_free(mechsys *s)
{
    dyn_newton_destroy(&s->newton);
}
