/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_events.h: the location of events for the CVODE integrator, a mirror of the
 * root search of CVODE 6.4 (cvRcheck1/2/3, cvRootfind) that evaluates fewer
 * functions (cvode_events.c). Its state between calls is the struct below, part of
 * the integrator's (cvode_integ.h).
 */
#ifndef CLINK_CVODE_EVENTS_H
#define CLINK_CVODE_EVENTS_H

#include "clink/clink.h"
#include "integrators/cvode/cvode_compat.h"

#include <nvector/nvector_serial.h>

struct cvode_integ;

typedef struct cvode_events {
    int nrt;                   /* root functions (the problem's nevents, 2 per group) */
    int ngroups;               /* nrt / 2 */
    double *glo, *ghi, *grout; /* nrt: g at the bracket's ends and at a trial time */
    int *rootdir;              /* nrt: directions (the problem's event_directions) */
    int *iroots;               /* nrt: the last root (+1 rising, -1 falling, 0) */
    unsigned char *gactive;    /* nrt: monitored (zero at a start and since: not) */
    int *list;                 /* ngroups: the groups a search evaluates */
    N_Vector ytry;             /* the state at a trial time */
    N_Vector ystep;            /* CVODE's state at its time tn (or at a start) */
    double tlo, tretlast;      /* s: the search's left end, the last time returned */
    int irfnd;                 /* the last return was a root (CVODE's irfnd) */
    int fresh;                 /* started or re-initialised, no step yet */
    int zero0;                 /* some function exactly zero at the start */
    int tstop;                 /* CVODE stopped at t_stop; a root was returned first */
    int *comp;                 /* pairs (CVODE's component, the problem's event state's) */
    int ncomp;                 /* pairs in use */
    int loaded;                /* the event state was filled once (events_load) */
    N_Vector dky;              /* CVodeGetDky's output at a trial time: comp only */
    int yend;                  /* ystep is CVODE's zn[0] at tn: the last CVode call returned
                                  CV_SUCCESS at yend_t = tn (cvode_step.c's dense output) */
    double yend_t;
    N_Vector ydense; /* CVodeGetDky(tdense, 0) since CVODE last moved (dense: 1) */
    double tdense;
    int dense;
} cvode_events;

/* the search's arrays (all functions monitored, the directions read); CLINK_OK or
   CLINK_ERR_NOMEM */
clink_status cvode_events_create(struct cvode_integ *cv);
void cvode_events_destroy(struct cvode_integ *cv);
/* CVODE was (re-)initialised at its current time with state y0 */
void cvode_events_restart(struct cvode_integ *cv, N_Vector y0);
/* the directions again after the problem's phases changed */
void cvode_events_directions(struct cvode_integ *cv);
/* one CVode(CV_ONE_STEP) call with the root search of CVODE 6.4 done here: CVODE's flag
   (CV_ROOT_RETURN with *tret the root, the integrator's y the state there and iroots the
   functions found) */
int cvode_events_step(struct cvode_integ *cv, double tout, double *tret);

#endif
