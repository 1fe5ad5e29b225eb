/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_window.h: the simulation's side of the window of the state (sim_window.c): which
 * bodies are awake, when the window changes, and the integrator re-created then.
 */
#ifndef CLINK_SIM_WINDOW_H
#define CLINK_SIM_WINDOW_H

#include "clink/sim.h"
#include "integrators/integrator.h"

/* hops of the contact graph kept awake around every moving body (8: 116 restarts over the
   700-bead chain; 16: 49; 24: 31 with a wider window) */
#define SIM_WINDOW_HOPS 16
/* a sleeping body this close (hops) to a moving one wakes, with the window around it */
#define SIM_WINDOW_NEAR 3
/* a body moves when a rate exceeds this fraction of the reference speed (the largest
   initial speed, or the settle speed if nothing moves at t = 0) ... */
#define SIM_WINDOW_SPEED 1e-6
/* ... or rtol times this fraction of it (the speeds the error control resolves), whichever is
   larger */
#define SIM_WINDOW_RTOL 10.0
/* the first step after a re-creation: this fraction of the last step before it (1 or 0.1 save
   1-2 % of the steps against CVODE's own estimate: the order's ramp costs the steps) */
#define SIM_WINDOW_FIRST 1.0
/* steps between two looks at the window */
#define SIM_WINDOW_EVERY 4

/* the window between steps (the system's part is sys->win, system_window.c) */
typedef struct sim_window {
    double v_sleep;      /* m/s: a body moves above this speed, */
    double a_sleep;      /* m/s^2: or above this acceleration (v_sleep / (SIM_WINDOW_EVERY h)) */
    long restarts;       /* integrator re-creations */
    long steps_prev;     /* steps at the last look, */
    long steps_look;     /* at the last decision */
    double weighted;     /* sum over steps of the bodies awake */
    int *dist;           /* nb: hops from a moving body (-1: farther than SIM_WINDOW_HOPS) */
    int *queue;          /* nb: the breadth-first search */
    unsigned char *next; /* nb: the awake set asked for */
    double *acc;         /* nr0: accelerations at the look */
    int stale_out;       /* the output state's held components not written since the last
                            layout (sim_window_output) */
    int stale_info;      /* the contacts' information not computed since the last layout */
    int info_window;     /* the last output computed the window's contacts' only */
} sim_window;

struct clink_sim;

/* after system_initial_state: the window made (settings window on, the model in scope) and
   the first awake set chosen; CLINK_OK or CLINK_ERR_NOMEM */
clink_status sim_window_start(struct clink_sim *s);
/* the problem's events made the window's (sim.c's sim_problem) */
void sim_window_problem(struct clink_sim *s, integ_problem *p);
/* before a step from tn (no root pending, nothing to recheck, tn before the target): the
   window looked at and, when it changes, the integrator re-created at tn */
clink_status sim_window_look(struct clink_sim *s, double tn);
void sim_window_free(struct clink_sim *s);
/* sim_handle_root with the window: the pending root's events of the window's contacts
   (loop.roots_found, 2 ncw) handed to the contacts, the integrator re-aimed */
clink_status sim_window_handle_root(struct clink_sim *s);
/* the output state from the integrator's yi (its state at the output time): the awake
   components only, or all after a layout change; CLINK_OK or CLINK_ERR_NONFINITE */
clink_status sim_window_output(struct clink_sim *s, const double *yi);
/* the contacts whose information the output computes (sim_settle_contacts): the window's
   into *list and their count, or -1 for all of them (the first output after a layout) */
int sim_window_info_contacts(struct clink_sim *s, const int **list);
/* clink_sim_window_get */
void sim_window_get(const struct clink_sim *s, clink_window_stats *st);

#endif
