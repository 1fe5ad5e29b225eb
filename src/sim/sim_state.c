/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_state.c: clink_sim_state_set, the bodies' positions and velocities of a simulation
 * replaced at its current time (the perturbed trajectory of a Lyapunov exponent, Benettin et
 * al. 1980: docs/nonlinear.md). The state given is projected onto the constraints (positions
 * to 1e-13, then velocities) as an output is, the energy the projection moved booked as
 * stabilisation work; the rest of the state (the work integrals, the contacts' phases and
 * dissipation) is kept; the integrator restarts there with no history, as after a contact
 * event or a snapshot's restore (the saddle-point solver's history kept).
 */
#include "sim/sim_internal.h"

#include <math.h>
#include <string.h>

/* the state y (q then v, 2 nq) at s->t, then the restart */
static clink_status state_set(clink_sim *s, const double *y)
{
    mechsys *sys = s->sys;
    int nq = sys->nq;
    double *yo = s->out.y;
    memcpy(yo, y, 2 * (size_t) nq * sizeof(double));
    if (sys->nc > 0) {
        clink_status st = system_audit_project(sys, s->t, yo);
        if (st != CLINK_OK) {
            sim_msg(s, "state set at t = %.9g s: %s", s->t, dyn_error(sys->dyn));
            return st;
        }
    }
    clink_status st = sim_restart_at_output(s, dyn_history(sys->dyn), "after a state set");
    if (st != CLINK_OK)
        return st;
    s->loop.reinits++;
    return sim_settle_output(s, s->t);
}

clink_status clink_sim_state_set(clink_sim *sim, const double *y, int n)
{
    if (!sim || !y)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(sim, SIM_OP_SNAPSHOT);
    if (st != CLINK_OK)
        return st;
    if (sim->sys->win) {
        sim_msg(sim, "state set: not with the window of the state");
        st = CLINK_ERR_STATE;
    } else if (n != 2 * sim->sys->nq) {
        sim_msg(sim, "state set: %d values given, the state has %d (q then v)", n,
                2 * sim->sys->nq);
        st = CLINK_ERR_ARG;
    }
    for (int i = 0; st == CLINK_OK && i < n; i++)
        if (!isfinite(y[i])) {
            sim_msg(sim, "state set: value %d is not finite", i);
            st = CLINK_ERR_ARG;
        }
    if (st == CLINK_OK)
        st = state_set(sim, y);
    sim_leave(sim);
    return st;
}

clink_status clink_sim_state_get(const clink_sim *sim, double *y, int n)
{
    if (!sim || !y || n != 2 * sim->sys->nq)
        return CLINK_ERR_ARG;
    memcpy(y, sim->out.y, (size_t) n * sizeof(double));
    return CLINK_OK;
}
