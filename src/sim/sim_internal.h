/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_internal.h: the simulation handle shared by the driver's files.
 *
 *   sim.c          lifecycle (CVODE set-up) and the getters of include/clink/sim.h
 *   sim_advance.c  clink_sim_advance: CVODE's steps, roots handed to the contact state
 *                  machine, the output state interpolated from CVODE's dense output,
 *                  progress guarantees, statistics summed across re-initialisations
 *   sim_check.c    physical sanity checks (energy residual, restitution, penetration)
 *                  and the findings they record
 *
 * Two states are kept apart: CVODE's own (its time tn and history, which may lie
 * beyond the last requested time) and the output state y at the time t last asked
 * for, with everything the const getters report at t computed once, when t is
 * reached (so that the getters read and never write: two threads may call them on
 * one simulation).
 */
#ifndef CLINK_SIM_INTERNAL_H
#define CLINK_SIM_INTERNAL_H

#include "clink/sim.h"
#include "dynamics/dynamics.h"
#include "ode/ode.h"
#include "sim/sim_contact.h"

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>

#include <stddef.h>

/* positions are projected until max |Phi| <= this (m or rad) */
#define SIM_PROJECTION_TOL  1e-13
#define SIM_PROJECTION_ITER 20

/* evaluations of the contact functions between two completed steps at most: events that
   follow one another without a completed step (CVODE's root search has no limit of its own)
   would otherwise never end and never reach the step and wall-clock checks (found by
   fuzzing) */
#define SIM_MAX_ROOT_CALLS 100000

/* at most this many findings are kept (all are counted) */
#define SIM_MAX_FINDINGS 64

struct clink_sim {
    const clink_model *m;
    clink_settings_def set;
    dyn_system *dyn;
    int nq, nc;
    int N;  /* components of the full state (q, v, W_d, W_l, contact energies): 2 nq + 2 + nwork */
    int nr; /* coordinates in CVODE's state: all but the angles of the bodies that cannot turn */
    int Nr; /* components of CVODE's state, 2 nr + 2 + nwork (N when nr = nq) */
    int *red;    /* nr: the model coordinate of each of CVODE's coordinates */
    int *fixed;  /* nq - nr: the angles left out of CVODE's state (constant, rate 0) */
    double *yx;  /* N: the full state of a callback's argument (sim_full) */
    double *yh;  /* N: the full state at a root, an output or a step's end (sim_advance.c) */
    double *acc; /* nq: accelerations of the full coordinates (sim_rhs) */
    SUNContext ctx;
    void *cvode;
    N_Vector y;     /* output state at t (full, N) */
    N_Vector ycv;   /* CVODE's returns (Nr) */
    N_Vector yroot; /* the state at a root not yet handled (Nr) */
    SUNMatrix J;
    SUNLinearSolver LS;
    SUNNonlinearSolver NLS;
    double t;
    double *qdd, *lambda; /* at t */
    double *fd_f0, *fd_f1;
    double *q0; /* coordinates at t = 0: the origin of the error weights (sim.c) */
    simc *sc;   /* contacts (sim_contact.c) */
    int ncon;   /* number of contacts */
    int *roots_found;
    double dq0, dv0;
    long rhs_fd;
    int jac_fd;      /* 1: finite-difference Jacobian (sim_use_fd_jacobian, sim_jac.h) */
    double *jq, *jv; /* d qdd / dq and d qdd / dv, nq x nq column-major */

    /* CVODE between calls of clink_sim_advance (sim_advance.c) */
    int root_pending;    /* a root at t_root is in yroot and roots_found, not yet handled */
    double t_root;       /* s */
    int recheck;         /* a root was returned: CVODE must look at the rest of its step */
    int at_reinit;       /* CVODE was re-initialised at its current time and has not stepped */
    int tstop_set;       /* CVodeSetStopTime in force (clink_sim_set_stop_time) */
    double t_stop;       /* s */
    int at_tstop;        /* CVODE returned CV_TSTOP_RETURN at t_stop */
    ode_counters banked; /* CVODE's counters summed before each re-initialisation */
    long reinits;

    /* progress guarantees */
    double min_step;    /* s: the setting, or the automatic guard when it is 0 */
    long small_steps;   /* consecutive steps shorter than min_step */
    double wall_start;  /* s, monotonic clock at the first advance; < 0 before */
    long steps_checked; /* steps at the last wall-clock reading */
    long steps_seen;    /* steps at the last progress check */
    long root_calls;    /* contact-function evaluations since the last completed step */

    /* what the getters report at t (computed when t is reached) */
    clink_energy energy;
    double viol_pos, viol_vel;
    clink_contact_info *info; /* ncon */
    double e0;                /* total energy at t = 0 */

    /* physical sanity checks (sim_check.c) */
    double energy_scale;      /* J: the largest energy the system held so far */
    double gravity0;          /* J: potential of gravity at t = 0 */
    int energy_level;         /* 0, 1 (warned), 2 (implausible): levels already reported */
    int impacts_checked;      /* impact records examined */
    unsigned char *pen_level; /* per contact: penetration levels already reported */
    clink_sim_finding findings[SIM_MAX_FINDINGS];
    int nfindings; /* kept */
    long nfound;   /* found */
    int nimplausible;
    int nredundant;      /* constraint equations dependent on the others at t = 0 (sim_check.c) */
    char redundant[256]; /* their names */

    clink_status fail; /* status of the component that failed in a callback, CLINK_OK if none */
    char cb_msg[512];  /* its message */
    char msg[512];     /* the message of the last failure */
    ode_log cvlog;     /* the last message of CVODE */

    /* clink's own event location (sim_roots.c): CVODE runs without
       root functions; the search of CVODE 6.4 (cvRcheck1/2/3, cvRootfind) is done here */
    int nrt;                    /* root functions: 2 per contact */
    double *glo, *ghi, *grout;  /* nrt: g at the bracket's ends and at a trial time */
    int *rootdir;               /* nrt: directions (simc_root_directions) */
    int *iroots;                /* nrt: the last root (+1 rising, -1 falling, 0) */
    unsigned char *gactive;     /* nrt: monitored (zero at a start and since: not) */
    int *rt_list;               /* ncon: the contacts a search evaluates */
    N_Vector ytry;              /* Nr: the state at a trial time */
    N_Vector ystep;             /* Nr: CVODE's state at its time tn (or at a start) */
    double rt_tlo, rt_tretlast; /* s: the search's left end, the last time returned */
    int rt_irfnd;               /* the last return was a root (CVODE's irfnd) */
    int rt_fresh;               /* started or re-initialised, no step yet */
    int rt_zero0;               /* some function exactly zero at the start */
    int rt_tstop;               /* CVODE stopped at t_stop; a root was returned first */
    long rt_full, rt_partial;   /* evaluations of all / of some root functions */
    int *rt_body;               /* 2 ncon: the bodies of each contact */
    int *rt_inv;                /* nq: CVODE's coordinate of each model one (-1: left out) */
    int *rt_comp;               /* pairs (CVODE's component, full one) a search reads */
    int rt_ncomp;               /* pairs in use */
    double *rt_yf;              /* N: the full state at a trial time (those components) */
    N_Vector rt_dky;            /* CVodeGetDky's output at a trial time: rt_comp only */
    /* output levels: what an output computes (clink_sim_set_outputs, sim_settle_output) */
    clink_output_level out_level; /* asked for the next outputs; 0 (never set): ALL */
    clink_output_level out_done;  /* what the current output computed (0 before any) */
    int out_some;  /* the outputs compute the information of the listed contacts only */
    int *out_list; /* ncon: those contacts (clink_sim_set_output_contacts), out_nlist of them */
    int out_nlist;
    int out_partial;        /* the current output computed the listed contacts only ... */
    unsigned char *out_has; /* ncon: ... those marked 1 here */

    int yx_fixed; /* yx holds the left-out coordinates' constants (sim_full_x) */
};

/* formats the message of the last failure */
void sim_msg(clink_sim *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Makes (t, y) the output state: computes there what the level asks for (out_level):
 * contact information, then accelerations, multipliers, energies and violations.
 * out_done records what was computed. CLINK_OK or the failing component's status.
 */
clink_status sim_settle_output(clink_sim *s, double t);

/*
 * The full state (N components: q, v of every coordinate, then the energies) of a state
 * of CVODE's (Nr components): yr itself when no angle is left out, else yr expanded into
 * buf (the angles left out at their initial values, their rates 0) and buf.
 */
const double *sim_full(const clink_sim *s, const double *yr, double *buf);
/* sim_full into the callbacks' buffer yx, whose left-out coordinates (constants) are written
   only when yx_fixed is 0; whoever writes anything else into yx clears yx_fixed */
const double *sim_full_x(clink_sim *s, const double *yr);

/* CVODE's state (Nr) of a full one (N): the inverse of sim_full (a copy, or nothing when
   yr and yf are one array) */
void sim_reduce(const clink_sim *s, const double *yf, double *yr);

/* CVODE's counters now (not including the banked ones) */
void sim_cvode_counters(const clink_sim *s, clink_sim_stats *st);

/* sanity checks at the output state; records findings (sim_check.c) */
void sim_check_output(clink_sim *s);

/* ---- the energy audit's book of the stabilisation (sim_audit.c) ---- */

/* state components of the audit: 1 (the work of stabilisation, y[N - 1]) with constraints */
int sim_audit_components(const clink_sim *s);
/* zeroes the audit component's error weight in w (CVODE's error weights) */
void sim_audit_weights(const clink_sim *s, double *w);
/* the audit component's derivative into yd, after dyn_accelerations at y */
void sim_audit_rate(clink_sim *s, const double *y, double *yd);
/* the energy a projection from (q0, v0) to (q1, v1) added, J */
double sim_audit_jump(clink_sim *s, const double *q0, const double *v0, const double *q1,
                      const double *v1);
/* projects the output state y and books the energy it moved on y's audit component */
clink_status sim_audit_project_output(clink_sim *s, double t, double *y);
/* the work of stabilisation in state y, J */
double sim_audit_work(const clink_sim *s, const double *y);

/* the total energy of the output state (the balance's terms), J */
double sim_total_energy(const clink_energy *e);

/* ---- clink's own event location (sim_roots.c) ---- */

/* the root functions at (t, y) (y the full state, N): all of them (contacts NULL) or those
   of the n listed contacts; counts the evaluation against SIM_MAX_ROOT_CALLS (sim.c).
   0, or -1 with the failure kept on the handle */
int sim_roots_eval(clink_sim *s, double t, const double *y, const int *contacts, int n, double *g);
/* the right-hand side at (t, y) into yd, as CVODE calls it (sim.c) */
int sim_rhs_eval(clink_sim *s, double t, N_Vector y, N_Vector yd);
/* allocates the search's arrays (all functions monitored, the directions of the phases);
   CLINK_OK or CLINK_ERR_NOMEM */
clink_status sim_roots_create(clink_sim *s);
void sim_roots_destroy(clink_sim *s);
/* CVODE was (re-)initialised at its current time with state y0 (Nr) */
void sim_roots_restart(clink_sim *s, N_Vector y0);
/* the directions again after the contacts' phases changed */
void sim_roots_directions(clink_sim *s);
/* one CVode(CV_ONE_STEP) call with the root search of CVODE 6.4 done by clink: returns
   CVODE's flag (CV_ROOT_RETURN with *tret the root, ycv the state there and iroots the
   functions found) */
int sim_roots_cvode(clink_sim *s, double tout, double *tret);

#endif
