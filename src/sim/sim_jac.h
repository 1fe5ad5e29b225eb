/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_jac.h: the choice of the Jacobian CVODE's BDF uses (sim.c): analytic
 * (dyn_jacobian, the default) or forward differences of the right-hand side,
 * one per column, kept for comparison in benchmarks and tests.
 */
#ifndef CLINK_SIM_JAC_H
#define CLINK_SIM_JAC_H

#include "clink/sim.h"

/* 1: finite differences from the next Jacobian evaluation on; 0: analytic */
void sim_use_fd_jacobian(clink_sim *sim, int on);

/* BDF's Newton system in the saddle form (sim_newton.c; src/system/system_newton.c):
   mode SYSTEM_NEWTON_AUTO (0, from its size threshold), _OFF (1) or _ON (2, whenever the
   model allows it); the integrator is made again at the start, so only before the first
   step (CLINK_ERR_ARG after it), CLINK_OK or the integrator's status */
clink_status sim_use_saddle_newton(clink_sim *sim, int mode);
/* 1 when the saddle form has been set up (at the first Jacobian) */
int sim_uses_saddle_newton(const clink_sim *sim);

#endif
