/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_auto.h: the method and drift control a model gets when its settings leave
 * them to clink (CLINK_METHOD_AUTO, CLINK_DRIFT_AUTO); docs/kernel.md, "What
 * auto picks and why".
 */
#ifndef CLINK_SIM_AUTO_H
#define CLINK_SIM_AUTO_H

#include "clink/model.h"
#include "clink/sim.h"

/* auto's method switches while running (sim_auto.c) */
typedef struct sim_autorun {
    int requested;     /* the settings' method was auto */
    int on;            /* the run may switch (Adams <-> BDF, no projection, no window) */
    long steps_check;  /* the integrator's steps at the last check */
    long steps_switch; /* at the last switch */
    long stay;         /* steps after a switch before the next may happen */
    int count;         /* switches so far */
    int streak;        /* consecutive checks that found Adams limited by stability */
    int hold;          /* the streak that switches to BDF (doubled after a trial that did not
                          pay) */
    double t_mark;     /* s: where the cost of the current measurement starts, */
    double cost_mark;  /* and the cost then (sim_auto.c: right-hand sides and set-ups) */
    double rate_adams; /* cost per second of Adams while found stiff, before the switch */
    double rate_bdf;   /* of BDF, measured when it was found dearer than Adams (0: never) */
    int marked;        /* the measurement of the current method started */
    long steps_mark;   /* steps then */
    clink_method_switch log[CLINK_METHOD_SWITCHES_KEPT]; /* the first of them */
} sim_autorun;

struct clink_sim;

/* the independent kinematic loops the joints close: joints - bodies + connected parts
   (the cyclomatic number of the graph of ground and bodies joined by joints) */
int sim_auto_loops(const clink_model *m);

/* 1 if a contact (not piecewise) or a joint of m has a dynamic friction law (a law with a
   state: lugre, dahl), else 0 */
int sim_auto_dynamic_friction(const clink_model *m);

/* replaces CLINK_METHOD_AUTO and CLINK_DRIFT_AUTO in *set by the rule's choice for m;
   explicit values are left as they are; returns 1 if anything was chosen, else 0 */
int sim_auto_resolve(const clink_model *m, clink_settings_def *set);

/* before the integrator is created: whether this run may switch methods (s->aut.on) */
void sim_auto_start(struct clink_sim *s);

/* before a step from tn: every SIM_AUTO_EVERY steps, what the steps are limited by measured
   and the method switched when the other one would step further (the integrator re-created at
   tn); CLINK_OK or the failure of the re-creation */
clink_status sim_auto_watch(struct clink_sim *s, double tn);

#endif
