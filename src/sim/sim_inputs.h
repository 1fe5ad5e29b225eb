/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_inputs.h: the host's inputs and user force of one simulation (sim_inputs.c).
 */
#ifndef CLINK_SIM_INPUTS_H
#define CLINK_SIM_INPUTS_H

#include "clink/sim.h"

#include <stddef.h>

typedef struct sim_inputs {
    int n;                   /* the model's inputs */
    double *value, *slope;   /* n: what the host set */
    double *t_set;           /* n: when, s */
    int *load_input;         /* nforces: the input scaling load k, -1 for none */
    int nforce_inputs;       /* inputs of the force and torque kinds */
    clink_function *drivers; /* ndrivers: the drivers' functions in force; NULL without
                                driver inputs */
    int changed;             /* a change since the last advance: the next one restarts */
    int project;             /* ... of a driver: the state is projected at the restart */
    long restarts;           /* restarts so far */
    void *contacts;          /* the contacts' state at the last output (contacts_state_save) */
    double t_contacts;       /* its time, s; NaN: none kept */
    /* the user force */
    clink_user_force_fn uf;
    clink_user_force_jac_fn ujac;
    void *udata;
    char uname[CLINK_NAME_MAX];
    double *f, *fq, *fv, *xq, *xv; /* nq, nq, nq, nq, nq: scratch of the forces' Jacobian */
} sim_inputs;

struct clink_sim;

/* the inputs at their initial values and the host hooks in the dynamics; CLINK_ERR_NOMEM */
clink_status sim_inputs_create(struct clink_sim *s);
void sim_inputs_destroy(struct clink_sim *s);
/* the restart at the output time after a change (called by the advance): CLINK_OK, or the
   status of a projection or re-initialisation that failed (message set) */
clink_status sim_inputs_restart(struct clink_sim *s);
/* at a new output: the contacts' state kept for a restart there */
void sim_inputs_output(struct clink_sim *s);

#endif
