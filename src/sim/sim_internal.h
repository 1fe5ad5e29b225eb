/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_internal.h: the simulation handle shared by the driver's files.
 *
 *   sim.c          lifecycle: the system, the integrator and the problem it is given
 *   sim_get.c      the getters of include/clink/sim.h and what an output computes
 *   sim_advance.c  clink_sim_advance: the integrator's steps, roots handed to the contact
 *                  state machine, the output state interpolated from the dense output,
 *                  progress guarantees (sim_advance.h)
 *   sim_output.c   the output rows between two grid times (sim_output.h)
 *   sim_check.c    physical sanity checks and the findings they record (sim_check.h)
 *
 * The mechanism's equations are the system's (src/system), the integration the
 * integrator's (src/integrators, behind integrator.h): the handle holds one of each
 * and the state of the driver between them, each part in the struct of the file that
 * uses it. Two states are kept apart: the integrator's own (its time tn and history,
 * which may lie beyond the last requested time) and the output state at the time t
 * last asked for, with everything the const getters report at t computed once, when
 * t is reached (so that the getters read and never write: two threads may call them
 * on one simulation).
 */
#ifndef CLINK_SIM_INTERNAL_H
#define CLINK_SIM_INTERNAL_H

#include "clink/sim.h"
#include "integrators/integrator.h"
#include "sim/sim_advance.h"
#include "sim/sim_check.h"
#include "system/system.h"

struct clink_sim {
    const clink_model *m;
    clink_settings_def set;
    mechsys *sys; /* the mechanism as a system (src/system) */
    integ *in;    /* the integrator (src/integrators) */
    double t;     /* the output time */
    double *yh;   /* N: the full state at a root, an output or a step's end (sim_advance.c) */
    sim_loop loop;
    sim_progress prog;
    sim_report out;
    sim_levels lv;
    sim_checks chk;
    char msg[512]; /* the message of the last failure */
};

/* formats the message of the last failure */
void sim_msg(clink_sim *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
