/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_newton.c: BDF's Newton system in the saddle form (src/system/system_newton.c) as the
 * integrator's problem gets it (integ_problem.newton, integrator.h), and the choice of it
 * for tests and benchmarks (sim_use_saddle_newton, sim_jac.h).
 */
#include "sim/sim_internal.h"
#include "sim/sim_jac.h"

#include <stdio.h>

static void *sim_nw_jac_create(void *data)
{
    return system_newton_jac_create(data);
}

static void sim_nw_jac_destroy(void *data, void *jac)
{
    system_newton_jac_destroy(data, jac);
}

static void sim_nw_jac_copy(void *data, const void *src, void *dst)
{
    system_newton_jac_copy(data, src, dst);
}

static int sim_nw_jac_eval(void *data, double t, const double *y, void *jac)
{
    return system_newton_eval(data, t, y, jac);
}

static int sim_nw_setup(void *data, const void *jac, double gamma)
{
    return system_newton_setup(data, jac, gamma);
}

static int sim_nw_solve(void *data, double *b)
{
    return system_newton_solve(data, b);
}

static void sim_nw_restart(void *data)
{
    system_newton_restart(data);
}

static const integ_newton sim_newton_ops = {
    .jac_create = sim_nw_jac_create,
    .jac_destroy = sim_nw_jac_destroy,
    .jac_copy = sim_nw_jac_copy,
    .jac_eval = sim_nw_jac_eval,
    .setup = sim_nw_setup,
    .solve = sim_nw_solve,
    .restart = sim_nw_restart,
};

const integ_newton *sim_newton(const clink_sim *s)
{
    return system_newton_fits(s->sys) ? &sim_newton_ops : NULL;
}

int sim_uses_saddle_newton(const clink_sim *s)
{
    return s && s->sys && s->sys->newton != NULL;
}

clink_status sim_use_saddle_newton(clink_sim *s, int mode)
{
    if (!s || !s->in || s->in->ops->steps(s->in) != 0)
        return CLINK_ERR_ARG;
    s->sys->newton_mode = mode;
    if (!(integrator_caps(s->set.method) & CLINK_CAP_JACOBIAN))
        return CLINK_OK;
    /* the integrator made again at the start with the problem of the new mode */
    const integ_ops *ops = integrator_for(s->set.method);
    s->in->ops->destroy(s->in);
    system_newton_free(s->sys); /* made again at the first Jacobian if used */
    integ_problem p = sim_problem(s);
    integ_config c = sim_config(s);
    clink_status st = CLINK_OK;
    s->in = ops->create(&p, &c, 0.0, s->loop.yroot, &st, s->msg, sizeof s->msg);
    return s->in ? CLINK_OK : st;
}
