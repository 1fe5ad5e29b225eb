/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_check.h: the physical sanity checks' state (sim_check.c) and their entry.
 */
#ifndef CLINK_SIM_CHECK_H
#define CLINK_SIM_CHECK_H

#include "clink/sim.h"

/* at most this many findings are kept (all are counted) */
#define SIM_MAX_FINDINGS 64

typedef struct sim_checks {
    double energy_scale;      /* J: the largest energy the system held so far */
    double gravity0;          /* J: potential of gravity at t = 0 */
    int energy_level;         /* 0, 1 (warned), 2 (implausible): levels already reported */
    int impacts_checked;      /* impact records examined */
    unsigned char *pen_level; /* per contact: penetration level reported (SIMCHK_PEN_LEVEL
                                 bits), a backward long-bearing film reported (the flag) */
    clink_sim_finding findings[SIM_MAX_FINDINGS];
    int nfindings; /* kept */
    long nfound;   /* found */
    int nimplausible;
    int nstart;          /* findings of the start (sim_check_start) */
    int nredundant;      /* constraint equations dependent on the others at t = 0 */
    char redundant[256]; /* their names */
} sim_checks;

/* sanity checks at the output state; records findings */
void sim_check_output(clink_sim *s);

/* the start, once the initial state y (full, projected) is known: the coordinates the
   assembly moved beyond the thresholds (CLINK_FINDING_ASSEMBLY), the contacts that start
   penetrated or, in a clearance joint, approaching fast (CLINK_FINDING_START) */
void sim_check_start(clink_sim *s, const double *y);

/* a stall at t with step h (the stall diagnosis, sim_advance.c): the load (a model load, a
   force input, the user force) whose shortest time scale (sqrt(m/k) of a spring, m/c of a
   damper, sqrt(2 L m/|F|) of a value F moving mass m across the model's size L, or a
   radian for torques) is below SIMCHK_LOAD_STEPS steps of h and SIMCHK_LOAD_SPAN of t_end,
   named in buf; 1 if one is */
int sim_check_stall_loads(const clink_sim *s, double t, double h, char *buf, size_t size);

#endif
