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

#endif
