/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * system.h: the mechanism as a first-order system y' = f(t, y), with no integrator
 * in it: plain double arrays in and out.
 *
 * The full state (N = 2 nq + 2 + nwork + njz (+ 1 with constraints) components) is
 *   y = (q, v, W_d, W_l, the contacts' damping and friction integrals and friction states,
 *        the joints' friction states, the audit),
 *   q' = v,  v' = qdd(t, q, v) from the saddle-point system (dynamics.h),
 *   W_d' = lambda . nu (power of the drivers), W_l' = power of the non-conservative
 *   applied loads (joint friction's included), the contacts' dissipation rates and
 *   friction states (contacts.c), the joints' bristle states z' (joint_friction_solve.c,
 *   from the evaluation of the accelerations) and the power of
 *   the constraint forces on the drift (the energy audit, system_audit.c),
 * so that the balance T + V - W_d - W_l + U + D + R - W_s = const checks the
 * integration.
 *
 * The integrator's state (Nr components) leaves out the coordinates that cannot
 * change (system_state.c): the angle of every body that cannot turn, and its x or y
 * when every force on it is exactly perpendicular to that axis. They and their rates
 * stay at their initial values exactly; system_full and system_reduce map between
 * the two layouts. Every function taking `yr` takes the integrator's state.
 *
 *   system_state.c  creation, layout and reduction, initial state
 *   system_rhs.c    right-hand side, error weights, Jacobian, projection, root functions
 *   system_audit.c  the energy audit's book of the stabilisation
 *   system_newton.c BDF's Newton system in the saddle form (src/dynamics/newton_saddle.c)
 */
#ifndef CLINK_SYSTEM_H
#define CLINK_SYSTEM_H

#include "clink/sim.h"
#include "dynamics/dynamics.h"
#include "contacts/contacts.h"

#include <stddef.h>

/* positions are projected until max |Phi| <= this (m or rad) */
#define SYSTEM_PROJECTION_TOL  1e-13
#define SYSTEM_PROJECTION_ITER 20

/* evaluations of the contact functions between two completed steps at most: events that
   follow one another without a completed step (the root search has no limit of its own)
   would otherwise never end and never reach the step and wall-clock checks (found by
   fuzzing) */
#define SYSTEM_MAX_ROOT_CALLS 100000

/* the window of the state (system_window.c): the awake bodies' coordinates only */
typedef struct sys_window {
    int nb;               /* bodies (with ground) */
    int nr0;              /* coordinates of the base reduction (system_state.c), */
    int *bred;            /* nr0: which, ascending */
    unsigned char *awake; /* nb: the bodies the integrator carries (ground: 0) */
    double *hq;           /* nq: the held coordinates (asleep, or left out by the base) */
    int *con, ncw;        /* the window's contacts (an awake body): the integrator's events */
    int *zc, nzc;         /* the coordinates the window's contact forces are added to */
    double *gq;           /* nq: the generalised forces of the window's contacts */
    double *minv;         /* nq: 1 / mass, 1 / mass, 1 / inertia of each body */
    double *gall;         /* 2 ncon: root functions by contact */
    int *list;            /* ncon: contacts of listed groups */
    int *first, *at;      /* each body's contacts: at[first[b] .. first[b + 1]) */
    int nawake;           /* bodies awake */
    int nwork;            /* the contacts' damping integrals (the work components) */
    int *wk, *wc, nwk;    /* the window's contacts' integrals: their offsets, their contacts */
    double *hw;           /* nwork: the integrals held (their contacts asleep) */
    long layouts;         /* layouts made (the first is the full one) */
} sys_window;

typedef struct mechsys {
    const clink_model *m;
    clink_settings_def set;
    dyn_system *dyn;
    contact_set *sc; /* contacts (contacts.c) */
    int ncon;        /* number of contacts */
    int nq, nc;      /* coordinates, constraint equations */
    int N;           /* components of the full state */
    int nfz;         /* friction states: the contacts' (contacts_friction.c) and the joints' */
    int njz;         /* the joints' friction states (joint_friction_solve.c), nfz's last ones */
    int jz0;         /* the first joint friction state's offset after the rates: 2 + nwork */
    int nr;          /* coordinates in the integrator's state */
    int Nr;     /* components of the integrator's state, 2 nr + 2 + nwork (+ 1): N when nr = nq */
    int *red;   /* nr: the model coordinate of each of the integrator's coordinates */
    int *fixed; /* nq - nr: the coordinates left out (constant, rate 0) */
    double *q0; /* coordinates at t = 0: the origin of the error weights */
    double dq0, dv0; /* the initial projection's corrections */

    double *yx;      /* N: the full state of a callback's argument (system_full_x) */
    int yx_fixed;    /* yx holds the left-out coordinates' constants */
    double *acc;     /* nq: accelerations of the full coordinates (system_rhs) */
    double *lambda;  /* nc: multipliers of the last evaluation (the right-hand side's, or the
                        output's: sim_advance.c) */
    double *pq, *pv; /* nq: a projection's coordinates and rates */
    double *ptol;    /* 2 nq: their tolerances (system_project's error estimate) */

    long rhs_jac;     /* evaluations of the accelerations for Jacobians */
    int jac_fd;       /* 1: forward differences of the right-hand side; 0: dyn_jacobian */
    double *jq, *jv;  /* d qdd / dq and d qdd / dv, nq x nq column-major */
    long *pat_ptr;    /* nr + 1: the Jacobian's pattern (system_pattern.c), column starts */
    int *pat_rows;    /* its rows */
    long pat_version; /* changes with each new pattern */
    int pat_dense;    /* the pattern is dense (the host's forces) */
    long *tail_ptr;   /* Nr - 2 nr + 1: the rate rows of the columns after the rates */
    int *tail_rows;   /* (friction states: d v' / d z), built with the pattern; NULL: none */

    /* root functions, two per contact */
    long root_calls;    /* evaluations since the last completed step */
    long roots_full;    /* evaluations of all functions */
    long roots_partial; /* evaluations of some */
    /* 2 ncouple: the bodies of each contact (2 ncon), then the pairs a contact's third body
       adds (its second node with each of the other two: contacts_third_body) */
    int *rt_body;
    int ncouple;  /* ncon + the third bodies' pairs: the contact pairs of the Jacobian */
    int *rt_inv;  /* nq: the integrator's coordinate of each model one (-1: left out) */
    double *rt_y; /* N: the full state the partial evaluations read */

    struct dyn_newton *newton; /* BDF's saddle Newton solve (system_newton.c), NULL: none */
    int newton_mode;           /* SYSTEM_NEWTON_AUTO, _OFF or _ON */

    sys_window *win;  /* the window of the state (settings window), NULL: off */
    char win_why[96]; /* why the window was asked for and not used ("" if it is or was not) */

    clink_status fail; /* status of the component that failed in a callback, CLINK_OK if none */
    int fatal;         /* that failure cannot be retried (the host's user force failed) */
    char cb_msg[512];  /* its message */
    char msg[512];     /* the message of a failed creation or initial state */
} mechsys;

/* ---- creation and layout (system_state.c) ---- */

/* the contacts, the dynamics, the reduction and work arrays; NULL with msg on failure
   (*st CLINK_ERR_NOMEM or the contacts' status) */
mechsys *system_create(const clink_model *m, const clink_settings_def *set, clink_status *st,
                       char *msg, size_t n);
void system_destroy(mechsys **sys);

/* the friction states of the full state y (the contacts' and the joints') into the
   contacts and the dynamics, for the next evaluations of the accelerations */
void system_friction_load(mechsys *sys, const double *y);

/* the initial state (full, N) from the model, projected onto the constraints; the contacts'
   phases. CLINK_OK, or the status with sys->msg */
clink_status system_initial_state(mechsys *sys, double *y);
/* the start as if the clearance joints were ideal (settings start, system_ideal.c): the
   projected state y made consistent with the mechanism whose clearance joints are ideal
   joints; nothing for CLINK_START_AS_GIVEN. CLINK_OK, or the status with sys->msg */
clink_status system_ideal_start(mechsys *sys, double *y);

/* the full state (N) of an integrator's state yr (Nr): yr itself when nothing is left out,
   else yr expanded into buf (the left-out coordinates at their initial values, rates 0) */
const double *system_full(const mechsys *sys, const double *yr, double *buf);
/* system_full into the callbacks' buffer yx (its constants written once) */
const double *system_full_x(mechsys *sys, const double *yr);
/* the integrator's state (Nr) of a full one (N): a copy, or nothing when yf is yr */
void system_reduce(const mechsys *sys, const double *yf, double *yr);

/* ---- what the integrator calls (system_rhs.c); all on the integrator's state ---- */

/* a callback's failure kept on sys; returns -1 (fatal) for CLINK_ERR_NOMEM, else 1 */
int system_failed(mechsys *sys, clink_status st, const char *msg);
/* 0, or system_failed with CLINK_ERR_NONFINITE naming the first non-finite rate of yd */
int system_finite_rates(mechsys *sys, double t, const double *yd);
/* yd = f(t, yr): 0, 1 (recoverable: singular saddle point, non-finite value) or -1 */
int system_rhs(mechsys *sys, double t, const double *yr, double *yd);
/* the error weights of yr: 1 / (rtol |q - q0| + atol) for the coordinates, 1 / (rtol |y| +
   atol) for the rest, the audit's 0 */
void system_weights(const mechsys *sys, const double *yr, double *w);
/*
 * The Jacobian df/dy's rows of the rates and energies (i = nr .. Nr - 1) in the columns of
 * the coordinates and rates (j < 2 nr): the rows system_jacobian_pattern lists for column
 * j % nr, the k-th at vals[start[j] + k]; the energies' rows are zero (the works feed nothing
 * back). fy = f(t, yr); tmp: Nr of scratch; yr is perturbed and restored by the finite
 * differences. 0, 1 or -1 as system_rhs.
 */
int system_jacobian(mechsys *sys, double t, double *yr, const double *fy, double *tmp, double *vals,
                    const long *start);
/* the rows (i - nr, ascending) the Jacobian's column j and nr + j may hold (j < nr): rows
   [ptr[j] .. ptr[j + 1]), ptr returned, and the pattern's version (system_pattern.c);
   NULL when out of memory */
const long *system_jacobian_pattern(mechsys *sys, const int **rows, long *version);
/* with friction states, after system_jacobian_pattern (of its version): the rate rows (i - nr,
   ascending) of the columns after the rates, column 2 nr + j's at rows[ptr[j] .. ptr[j + 1]);
   ptr returned, NULL without friction states */
const long *system_jacobian_tail_pattern(const mechsys *sys, const int **rows);
/* d v' / d z in those rows (vals[k] for rows[k]) at yr, fy = f(t, yr), by one forward
   difference of the right-hand side per friction state (tmp: Nr of scratch); yr is
   perturbed and restored. 0, 1 or -1 as system_rhs */
int system_jacobian_tail(mechsys *sys, double t, double *yr, const double *fy, double *tmp,
                         double *vals);
/* the position of row (i - nr) among column col's rows of the pattern, or -1 */
long system_pattern_find(const mechsys *sys, int col, int row);
/* the diagonal of df/dy in the components after the rates (Nr - 2 nr of them, into diag):
   d z' / d z of the friction states at the last evaluation, 0 for the energies */
void system_jacobian_diagonal(mechsys *s, double *diag);
/* the correction corr that projects yr onto the constraints (the energy it moves booked on
   the audit) and, when err is not NULL, err projected in place. 0, 1 or -1 */
int system_project(mechsys *sys, double t, const double *yr, double *corr, double *err);

/* the root functions at (t, y), y the full state: all (contacts NULL) or those of the n
   listed contacts; counted against SYSTEM_MAX_ROOT_CALLS. 0, or -1 with the failure kept */
int system_roots(mechsys *sys, double t, const double *y, const int *contacts, int n, double *g);
/* all root functions at the integrator's state yr */
int system_roots_all(mechsys *sys, double t, const double *yr, double *g);
/* rt_y = the full state of yr (the state the partial evaluations start from) */
void system_roots_load(mechsys *sys, const double *yr);
/* the pairs (integrator's component, component of rt_y) that the listed contacts' functions
   read (their bodies' coordinates and rates); returns the number of pairs */
int system_roots_inputs(const mechsys *sys, const int *contacts, int n, int *pairs);
/* the listed contacts' functions on rt_y */
int system_roots_some(mechsys *sys, double t, const int *contacts, int n, double *g);
/* the directions of the root functions in the contacts' phases (+1 rising, -1 falling, 0) */
void system_root_directions(const mechsys *sys, int *dirs);

/* ---- BDF's Newton system in the saddle form (system_newton.c) ---- */

/* when the saddle Newton solve is used: from SYSTEM_NEWTON_MIN_BODIES bodies (auto), never,
   or whenever the model allows it */
enum { SYSTEM_NEWTON_AUTO = 0, SYSTEM_NEWTON_OFF = 1, SYSTEM_NEWTON_ON = 2 };
/* 1 when BDF's Newton system is to be solved in the saddle form (newton_mode, the model) */
int system_newton_fits(const mechsys *sys);
/* the integrator's Newton callbacks (integrator.h, integ_newton) on the system */
void *system_newton_jac_create(mechsys *sys);
void system_newton_jac_destroy(mechsys *sys, void *jac);
void system_newton_jac_copy(mechsys *sys, const void *src, void *dst);
int system_newton_eval(mechsys *sys, double t, const double *yr, void *jac);
int system_newton_setup(mechsys *sys, const void *jac, double gamma);
int system_newton_solve(mechsys *sys, double *b);
/* the integrator (re)started: the saddle Newton solver's next factorisation is a full one */
void system_newton_restart(mechsys *sys);
/* frees the saddle Newton solver (system_destroy) */
void system_newton_free(mechsys *sys);

/* ---- the energy audit's book of the stabilisation (system_audit.c) ---- */

/* state components of the audit: 1 (the last) with constraints */
int system_audit_components(const mechsys *sys);
/* zeroes the audit component's error weight in w (Nr) */
void system_audit_weights(const mechsys *sys, double *w);
/* the audit component's derivative into yd (Nr), after dyn_accelerations at y (full) */
void system_audit_rate(mechsys *sys, const double *y, double *yd);
/* the energy a projection from (q0, v0) to (q1, v1) added, J */
double system_audit_jump(mechsys *sys, const double *q0, const double *v0, const double *q1,
                         const double *v1);
/* projects the full state y and books the energy it moved on y's audit component */
clink_status system_audit_project(mechsys *sys, double t, double *y);
/* the work of stabilisation in the full state y, J */
double system_audit_work(const mechsys *sys, const double *y);

/* ---- the window of the state (system_window.c) ---- */

/* with settings window on, after system_initial_state: the window (every body awake), or
   win_why says why the model runs with the full state. CLINK_OK or CLINK_ERR_NOMEM */
clink_status system_window_create(mechsys *sys);
void system_window_destroy(mechsys *sys);
/* the integrator's coordinates made those of the bodies marked awake; y (full, or NULL):
   the bodies that fall asleep held at their coordinates there, their rates set to 0 in y.
   0, or -1 when out of memory */
int system_window_layout(mechsys *sys, const unsigned char *awake, double *y);
/* the right-hand side over the window (system_rhs with the window) */
int system_window_rhs(mechsys *sys, double t, const double *yr, double *yd);
/* the energy components between the integrator's state yr and a full one yf: W_d, W_l and
   the window's contacts' integrals (tail_full, tail_reduce), the held ones (tail_held) */
void system_window_tail_full(const mechsys *sys, const double *yr, double *yf);
void system_window_tail_held(const mechsys *sys, double *yf);
void system_window_tail_reduce(const mechsys *sys, const double *yf, double *yr);
/* the events of the window's contacts, group j contact con[j]: as system_roots_all,
   system_roots_inputs, system_roots_some and system_root_directions on groups */
int system_window_events(mechsys *sys, double t, const double *yr, double *g);
int system_window_event_inputs(mechsys *sys, const int *groups, int n, int *pairs);
int system_window_events_some(mechsys *sys, double t, const int *groups, int n, double *g);
void system_window_directions(mechsys *sys, int *dirs);

#endif
