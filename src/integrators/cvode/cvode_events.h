/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_events.h: the location of events for the integrators of CVODE's methods, a mirror
 * of the root search of CVODE 6.4 (cvRcheck1/2/3, cvRootfind) that evaluates fewer
 * functions (cvode_events.c), on an integrator given by a few callbacks (events_host):
 * CVODE itself (cvode_step.c) or the plain-array Adams (src/integrators/adams). Its state
 * between calls is the struct below, part of the integrator's.
 */
#ifndef CLINK_CVODE_EVENTS_H
#define CLINK_CVODE_EVENTS_H

#include "clink/clink.h"
#include "integrators/integrator.h"

#include <stddef.h>

/*
 * What the search asks of the integrator it runs on (CVODE's calls it mirrors): its
 * time and last step (CVodeGetCurrentTime, CVodeGetLastStep; h may be NULL), the first
 * step of its last start (CVodeGetActualInitStep), the k-th derivative of its dense
 * output at t (CVodeGetDky) into out, which is the state y or the search's ytry, the
 * dense output at t of the components pairs[2 j] only, written to state[pairs[2 j + 1]]
 * (the same sums for those components), and one step without events (CVode in
 * CV_ONE_STEP mode, the state reached into y). Returns: 0 or < 0, CVODE's flags for
 * one_step.
 */
typedef struct events_host {
    void *data;
    int (*now)(void *data, double *tn, double *h);
    int (*init_step)(void *data, double *h0);
    int (*dense)(void *data, double t, int k, double *out);
    void (*dense_some)(void *data, double t, const int *pairs, int npairs, double *state);
    int (*one_step)(void *data, double tout, double *tret);
} events_host;

typedef struct cvode_events {
    const integ_problem *p; /* the integrator's copy */
    events_host host;       /* the integrator the search runs on */
    double *y;              /* n: the integrator's state (its returns) */
    const double *t_stop;   /* the integrator's stop time */
    char *msg;              /* the integrator's last message (msg_size bytes) */
    size_t msg_size;
    int nrt;                   /* root functions (the problem's nevents, 2 per group) */
    int ngroups;               /* nrt / 2 */
    double *glo, *ghi, *grout; /* nrt: g at the bracket's ends and at a trial time */
    int *rootdir;              /* nrt: directions (the problem's event_directions) */
    int *iroots;               /* nrt: the last root (+1 rising, -1 falling, 0) */
    unsigned char *gactive;    /* nrt: monitored (zero at a start and since: not) */
    int *list;                 /* ngroups: the groups a search evaluates */
    double *ytry;              /* n: the state at a trial time */
    double *ystep;             /* n: the integrator's state at its time tn (or at a start) */
    double tlo, tretlast;      /* s: the search's left end, the last time returned */
    int irfnd;                 /* the last return was a root (CVODE's irfnd) */
    int fresh;                 /* started or re-initialised, no step yet */
    int zero0;                 /* some function exactly zero at the start */
    int tstop;                 /* the integrator stopped at t_stop; a root was returned first */
    int *comp;                 /* pairs (the integrator's component, the event state's) */
    int ncomp;                 /* pairs in use */
    int loaded;                /* the event state was filled once (events_load) */
    int yend;                  /* ystep is the integrator's state at tn: the last one_step
                                  returned CV_SUCCESS at yend_t = tn (the dense output) */
    double yend_t;
    double *ydense; /* n: the dense output at tdense since the integrator last moved (dense: 1) */
    double tdense;
    int dense;
} cvode_events;

/* the search of an integrator: its problem, state, host, stop time and message (no
   allocation: a problem without events steps through the host directly) */
void cvode_events_init(cvode_events *e, const integ_problem *p, double *y, const events_host *host,
                       const double *t_stop, char *msg, size_t msg_size);
/* the search's arrays (all functions monitored, the directions read); CLINK_OK or
   CLINK_ERR_NOMEM */
clink_status cvode_events_create(cvode_events *e);
void cvode_events_destroy(cvode_events *e);
/* the integrator was (re-)initialised at its current time with state y0 */
void cvode_events_restart(cvode_events *e, const double *y0);
/* the directions again after the problem's phases changed */
void cvode_events_directions(cvode_events *e);
/* one step of the integrator with the root search of CVODE 6.4 done here: its flag
   (CV_ROOT_RETURN with *tret the root, the integrator's y the state there and iroots the
   functions found) */
int cvode_events_step(cvode_events *e, double tout, double *tret);

#endif
