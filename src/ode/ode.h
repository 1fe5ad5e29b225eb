/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ode.h: the CVODE helpers of the impact laboratory (src/lab), which live with the
 * CVODE integrator now (src/integrators/cvode/cvode_ode.h). This header remains
 * so that the laboratory's include is unchanged; it goes when src/lab includes
 * "integrators/cvode/cvode_ode.h" itself.
 */
#ifndef CLINK_ODE_H
#define CLINK_ODE_H

#include "integrators/cvode/cvode_ode.h"

#endif
