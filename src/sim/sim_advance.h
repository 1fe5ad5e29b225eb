/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_advance.h: the state sim_advance.c keeps between calls of clink_sim_advance:
 * the integrator's stepping (roots pending, re-initialisations, the stop time), the
 * progress guarantees, the output state and what it computed.
 */
#ifndef CLINK_SIM_ADVANCE_H
#define CLINK_SIM_ADVANCE_H

#include "clink/sim.h"

/* the integrator between calls of clink_sim_advance */
typedef struct sim_loop {
    double *yroot;    /* Nr: the state at a root not yet handled */
    int *roots_found; /* 2 ncon: the functions of that root (+1 rising, -1 falling, 0) */
    int root_pending; /* a root at t_root is in yroot and roots_found, not yet handled */
    double t_root;    /* s */
    int recheck;      /* a root was returned: the integrator must look at the rest of its step */
    int at_reinit;    /* re-initialised at the integrator's time and not stepped since */
    int tstop_set;    /* a stop time in force (clink_sim_set_stop_time) */
    double t_stop;    /* s */
    int at_tstop;     /* the integrator returned at t_stop */
    long reinits;     /* re-initialisations at contact events */
    /* the integrator's states at the ends of its last two steps (after yroot, in its
       allocation of 3 Nr), times tstep; nstep of them hold (0 after a start or a
       re-initialisation): an output at the start of the last step is the previous step's
       end, bit for bit, not the last step's interpolant there */
    double *ystep[2];
    double tstep[2];
    int nstep;
    long gen; /* re-initialisations and re-creations of the integrator when they were kept */
    /* the output walk probed the end of the integrator's last step: the contacts keep the
       geometry of the next step's end for its probe (sim_output.c) */
    int end_probed;
} sim_loop;

/* the progress guarantees (settings max_steps, min_step, wall_limit) */
typedef struct sim_progress {
    long small_steps;   /* consecutive steps shorter than min_step */
    double wall_start;  /* s, monotonic clock at the first advance; < 0 before */
    long steps_checked; /* steps at the last wall-clock reading */
    long steps_seen;    /* steps at the last progress check */
} sim_progress;

/* what the getters report at the output time t (computed when t is reached) */
typedef struct sim_report {
    double *y;   /* N: the output state (full) */
    double *qdd; /* nq: accelerations (the multipliers: the system's lambda) */
    clink_energy energy;
    double viol_pos, viol_vel;
    clink_contact_info *info; /* ncon */
    double e0;                /* total energy at t = 0 */
} sim_report;

/* output levels: what an output computes (clink_sim_set_outputs, sim_settle_output) */
typedef struct sim_levels {
    clink_output_level level; /* asked for the next outputs; 0 (never set): ALL */
    clink_output_level done;  /* what the current output computed (0 before any) */
    int some;                 /* the outputs compute the information of the listed contacts only */
    int *list;                /* ncon: those contacts (clink_sim_set_output_contacts), nlist */
    int nlist;
    int partial;        /* the current output computed the listed contacts only ... */
    unsigned char *has; /* ncon: ... those marked 1 here */
} sim_levels;

/*
 * Makes (t, y) the output state: computes there what the level asks for: contact
 * information, then accelerations, multipliers, energies and violations. levels.done
 * records what was computed. CLINK_OK or the failing component's status.
 */
clink_status sim_settle_output(clink_sim *s, double t);

/* the total energy of the output state (the balance's terms), J */
double sim_total_energy(const clink_energy *e);

/* what clink_sim_advance does before it steps: the wall clock started, no failure pending */
void sim_advance_begin(clink_sim *s);

#endif
