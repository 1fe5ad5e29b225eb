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
 *
 * The calls that change a simulation (advance, destroy, the setters, a recorder's
 * advance) hold it while they run: an atomic flag taken by a compare-exchange at entry
 * (sim_enter) and released at exit (sim_leave). A second such call meanwhile, from the
 * impact callback of the first or from another thread, finds it taken and is refused
 * with CLINK_ERR_STATE, touching nothing; its message is kept for the refused thread
 * alone (thread-local, so that the refusal writes nothing the running call reads).
 */
#ifndef CLINK_SIM_INTERNAL_H
#define CLINK_SIM_INTERNAL_H

#include "clink/sim.h"
#include "integrators/integrator.h"
#include "sim/sim_advance.h"
#include "sim/sim_auto.h"
#include "sim/sim_check.h"
#include "sim/sim_inputs.h"
#include "sim/sim_window.h"
#include "system/system.h"

#include <stdatomic.h>

/* the calls that change a simulation, as held in clink_sim.busy (0: none) */
typedef enum sim_op {
    SIM_OP_ADVANCE = 1,
    SIM_OP_DESTROY,
    SIM_OP_STOP_TIME,
    SIM_OP_OUTPUTS,
    SIM_OP_OUTPUT_CONTACTS,
    SIM_OP_CALLBACK,
    SIM_OP_RECORDER,
    SIM_OP_FD_JACOBIAN,
    SIM_OP_INPUT,
    SIM_OP_SNAPSHOT
} sim_op;

typedef struct sim_sections sim_sections;

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
    sim_inputs inp;       /* the host's inputs and user force (sim_inputs.c) */
    sim_window win;       /* the window of the state (sim_window.c) */
    sim_sections *sec;    /* Poincare sections, NULL: none (sim_section.c) */
    sim_autorun aut;      /* auto's method switches while running (sim_auto.c) */
    char msg[1024];       /* the message of the last failure */
    atomic_int busy;      /* the sim_op of the call that holds the simulation, 0: none */
    unsigned long serial; /* this simulation among all created (a refusal names it) */
};

/* Poincare sections (sim_section.c): the crossings up to tret after the integrator
   returned there (in->y kept); the integrator restarted at t from loop.yroot; freed */
clink_status sim_section_check(clink_sim *s, double tret);
void sim_section_restart(clink_sim *s, double t);
/* the sections' counters in a state snapshot (sim_section.c; stream of sim_snapshot.c): written
   always (their number, 0 without sections); read back only into a simulation with the same
   number and kinds of sections (CLINK_ERR_PARSE otherwise, the reason in the message) */
struct snap_stream;
void sim_section_snapshot_write(const clink_sim *s, struct snap_stream *o);
clink_status sim_section_snapshot_read(clink_sim *s, struct snap_stream *o);

/* the integrator re-initialised at the output state (sim_snapshot.c): a save, a restore and a
   state set; CLINK_OK or CLINK_ERR_SOLVER with the message ending in `why` */
clink_status sim_restart_at_output(clink_sim *s, int sticky, const char *why);
void sim_section_free(clink_sim *s);

/* formats the message of the last failure */
void sim_msg(clink_sim *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* takes the simulation for the call op: CLINK_OK, or CLINK_ERR_STATE (nothing touched)
   when another call holds it, with the message clink_sim_error gives this thread */
clink_status sim_enter(clink_sim *s, sim_op op);

/* releases what sim_enter took */
void sim_leave(clink_sim *s);

/* the message of this thread's last refusal on s by sim_enter, NULL if none */
const char *sim_refusal(const clink_sim *s);

/* the system as the integrator's problem, and how to integrate it (sim.c) */
integ_problem sim_problem(clink_sim *s);
integ_config sim_config(const clink_sim *s);
/* the saddle Newton solve of the problem, NULL when not used (sim_newton.c) */
const integ_newton *sim_newton(const clink_sim *s);

/* re-initialises the integrator at (t, loop.yroot) after a contact event (sim_advance.c) */
clink_status sim_reinit(clink_sim *s, double t);

/* clink_sim_advance without taking the simulation (the caller holds it) */
clink_status sim_advance_to(clink_sim *s, double t);

#endif
