/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * integrator.h: the interface between the simulation (src/sim) and an integrator of
 * y' = f(t, y): an ops table that every method implements, the problem it is given
 * (plain double arrays and callbacks: it never sees a body) and its statistics.
 *
 * The simulation drives an integrator in one-step mode: `step` takes one step (or
 * returns at an event inside the last one), the state it reached in `in->y`; outputs
 * are interpolated from the dense output of the last step (`dense`), so that they
 * never steer the steps; at an event that changes the right-hand side the
 * integrator is re-initialised (`reinit`) with the state the contacts left.
 *
 *   src/integrators/cvode/  CVODE (SUNDIALS 6.4 and 7.x): BDF and Adams, events located
 *                           by a mirror of CVODE's own root search
 *   src/integrators/adams/  CVODE 6.4.1's Adams on plain arrays, bit for bit, with the
 *                           same root search
 *   src/integrators/rk4/    classical Runge-Kutta of order 4 at a fixed step
 *   src/integrators/rk8/    the Dormand-Prince pair of order 8 with its step control (also
 *                           the impact laboratory's, src/lab)
 *
 * Which integrator runs a method, and what it can do (events, projection, Jacobian,
 * fixed step, a resizable state), is the method's row of CLINK_METHOD_TABLE
 * (include/clink/model.h); the rules of the simulation ask integrator_caps, never a
 * method's name.
 *
 * docs/development.md, "Add an integrator", says what each op must do.
 */
#ifndef CLINK_INTEGRATOR_H
#define CLINK_INTEGRATOR_H

#include "clink/clink.h"
#include "clink/model.h"

#include <stddef.h>

/* what `step` returns besides failures (< 0, the integrator's own codes) */
enum { INTEG_SUCCESS = 0, INTEG_TSTOP = 1, INTEG_ROOT = 2 };

/* the kinds of failure `failure` tells apart */
typedef enum integ_failure {
    INTEG_FAIL_OTHER = 0,
    INTEG_FAIL_STEP = 1, /* the error test or the iteration failed at the smallest step */
    INTEG_FAIL_NOMEM = 2
} integ_failure;

/*
 * Optional (implicit methods): the Newton system (I - gamma J) x = b solved in the problem's
 * own structure, J never formed (a mechanism's saddle form: src/dynamics/newton_saddle.c).
 * A Jacobian is the problem's opaque value: jac_create makes one (NULL: out of memory),
 * jac_eval evaluates it at (t, y), jac_copy copies one into another; setup factors
 * I - gamma J of one, solve solves with the last setup in place on b (n components);
 * restart (at the integrator's start and at each re-initialisation) forgets what a setup
 * keeps for the next (a sparse factorisation's pivot order), so that runs restarted alike
 * solve alike, bit for bit. 0, > 0 (recoverable: a smaller step may help) or < 0 as rhs.
 */
typedef struct integ_newton {
    void *(*jac_create)(void *data);
    void (*jac_destroy)(void *data, void *jac);
    void (*jac_copy)(void *data, const void *src, void *dst);
    int (*jac_eval)(void *data, double t, const double *y, void *jac);
    int (*setup)(void *data, const void *jac, double gamma);
    int (*solve)(void *data, double *b);
    void (*restart)(void *data);
} integ_newton;

/*
 * The problem: y' = f(t, y) over n components, of which the first npos are positions and
 * the next npos their rates (q' = v), the rest integrals (energies). Callbacks return 0,
 * > 0 when a smaller step may help, < 0 when nothing will. Optional members are NULL (0).
 */
typedef struct integ_problem {
    void *data; /* passed to every callback */
    int n, npos;
    int (*rhs)(void *data, double t, const double *y, double *yd);
    /* the error weights w (n) at y: a step's error e is accepted when |w e| <= 1 */
    void (*weights)(void *data, const double *y, double *w);
    /* optional (implicit methods): df/dy's rows npos .. n - 1 in the columns j < 2 npos, the
       rows jacobian_pattern lists for column j % npos (row i as i - npos, ascending), at
       vals[start[j] + k] for the k-th of them (the rows of the positions are dq/dv = I);
       fy = f(t, y), tmp: n of scratch; y may be perturbed and must be restored */
    int (*jacobian)(void *data, double t, double *y, const double *fy, double *tmp, double *vals,
                    const long *start);
    /* with jacobian: the rows (i - npos, ascending) df/dy may hold in column j and in column
       npos + j, for j < npos: rows[colptr[j] .. colptr[j + 1]); returns colptr (npos + 1) and
       *rows, and *version, which changes whenever the pattern does (then asked again);
       NULL when out of memory */
    const long *(*jacobian_pattern)(void *data, const int **rows, long *version);
    /* optional (implicit methods): df/dy's diagonal in the components after the rates
       (n - 2 npos of them, into diag) after a jacobian call; NULL: zero */
    void (*jacobian_diagonal)(void *data, double *diag);
    /* optional (with jacobian_diagonal): rows above the diagonal of the columns after the
       rates, in the rates' rows (i - npos, ascending): column 2 npos + j's at
       rows[colptr[j] .. colptr[j + 1]); returns colptr (n - 2 npos + 1), of the version
       jacobian_pattern returned last (asked after it) */
    const long *(*jacobian_tail_pattern)(void *data, const int **rows);
    /* with jacobian_tail_pattern: their values (vals[k] for rows[k]) at (t, y), fy = f(t, y),
       tmp: n of scratch; called before jacobian, which then re-evaluates at y; y may be
       perturbed and must be restored; 0 or as rhs */
    int (*jacobian_tail)(void *data, double t, double *y, const double *fy, double *tmp,
                         double *vals);
    /* optional: the correction corr (n) that takes y onto the constraints; err (n, may be
       NULL) the error estimate, projected in place */
    int (*project)(void *data, double t, const double *y, double *corr, double *err);
    /* optional (implicit methods): the Newton system in the problem's structure, used
       instead of jacobian and its pattern when set (NULL: the sparse J of jacobian) */
    const integ_newton *newton;
    /* events: nevents root functions in groups of two (group k: functions 2k, 2k + 1),
       located where they change sign in the direction event_directions gives (+1 rising,
       -1 falling, 0 both) */
    int nevents;
    /* 1 when the solution crosses its events where the right-hand side is only C^1 (a
       contact's onset and separation): a multistep method then keeps to a low order; 0 when
       the events only mark smooth points or the end (the laboratory's single impact) */
    int rough_events;
    void (*event_directions)(void *data, int *dirs);
    /* all functions at (t, y) */
    int (*events)(void *data, double t, const double *y, double *g);
    /* the cheaper search: events_load(y) fills event_state (the problem's own layout) from y;
       event_inputs lists the pairs (component of y, component of event_state) the listed
       groups read and returns how many; events_some evaluates those groups on event_state,
       into g[2k], g[2k + 1] of each group k. Every component of event_state that a group
       reads and that can change must be in its pairs: after the first events_load the
       integrator writes the listed pairs only */
    void (*events_load)(void *data, const double *y);
    int (*event_inputs)(void *data, const int *groups, int n, int *pairs);
    int event_inputs_max; /* pairs per group at most */
    int (*events_some)(void *data, double t, const int *groups, int n, double *g);
    double *event_state;
} integ_problem;

/* how to integrate */
typedef struct integ_config {
    clink_method method;
    double rtol, atol; /* when the problem has no weights */
    double max_step;   /* s, 0: no limit */
    double min_step;   /* s, 0: none */
    double step;       /* s: the step of a fixed-step method */
    double first_step; /* s: the first step of an adaptive method, 0: its own estimate */
    int watch;         /* 1: estimate what the steps are limited by (the `stiffness` op) */
} integ_config;

/* what the last step was limited by (the `stiffness` op, with integ_config.watch): its size
   and order, its error test's ratio and an estimate of the Lipschitz constant of f in the
   error weights (its spectral radius): from the contraction of a fixed-point iteration
   (Adams) or a power iteration on the Jacobian (BDF); src/sim/sim_auto.c switches on it */
typedef struct integ_stiffness {
    double h;   /* s, the last step */
    int order;  /* its order */
    double err; /* its error test's ratio (<= 1: accepted) */
    double lip; /* 1/s, ||df/dy|| estimated since the last call; 0: none */
} integ_stiffness;

/* counters since creation (summed across re-initialisations) */
typedef struct integ_stats {
    long steps, rhs_evals, lin_setups, error_test_fails, nonlin_iters, nonlin_fails;
    long jac_evals, proj_evals, proj_fails;
    double last_step; /* s */
    int last_order;
} integ_stats;

typedef struct integ integ;

typedef struct integ_ops {
    const char *name; /* in messages: "CVODE makes no progress ..." */
    /* the integrator at (t0, y0); NULL with *st and msg on failure. The problem is copied;
       its data and event_state must outlive the integrator */
    integ *(*create)(const integ_problem *p, const integ_config *c, double t0, const double *y0,
                     clink_status *st, char *msg, size_t n);
    /* tolerances (the problem's weights) and step limits; CLINK_OK or the status with msg */
    clink_status (*set_limits)(integ *in, const integ_config *c, char *msg, size_t n);
    /* no step beyond t_stop: the step that reaches it returns INTEG_TSTOP there; 0 or < 0 */
    int (*set_stop_time)(integ *in, double t_stop);
    /* one step towards tout (the first step of a start is sized from tout - t), or the
       next event in the last step: INTEG_SUCCESS, INTEG_TSTOP, INTEG_ROOT (then
       events_found), < 0 on failure; *tret the time returned, in->y the state there */
    int (*step)(integ *in, double tout, double *tret);
    /* the events of the last INTEG_ROOT: per function +1 rising, -1 falling, 0 */
    const int *(*events_found)(const integ *in);
    /* the directions changed (event_directions is read again) */
    void (*events_changed)(integ *in);
    /* the k-th derivative of the dense output of the last step at t into in->y; 0 or < 0 */
    int (*dense)(integ *in, double t, int k);
    /* starts again at (t, y) with no history (counters kept); 0 or < 0 */
    int (*reinit)(integ *in, double t, const double *y);
    /* the counters (stats, steps) made those of st from now on, what follows added to them:
       a simulation restored from a snapshot (src/sim/sim_snapshot.c) continues the counts of
       the one saved, right after its reinit */
    void (*set_counters)(integ *in, const integ_stats *st);
    /* the integrator's time and its last step; 0 or < 0 */
    int (*now)(const integ *in, double *tn, double *h);
    long (*steps)(const integ *in);
    void (*stats)(const integ *in, integ_stats *st);
    /* what a failure rc of step means: the kind, the step size then (*h), the code's
       name (flag) and the integrator's own last message (*cause, "" if none) */
    integ_failure (*failure)(integ *in, int rc, double *h, char *flag, size_t n,
                             const char **cause);
    /* optional (with integ_config.watch): what the last step was limited by; 0 or < 0 (none
       known yet) */
    int (*stiffness)(integ *in, integ_stiffness *st);
    /* the name of a return code, into buf */
    const char *(*code_name)(int rc, char *buf, size_t n);
    void (*destroy)(integ *in);
} integ_ops;

/* the part of every integrator the simulation reads */
struct integ {
    const integ_ops *ops;
    double *y; /* n: the state the last step, dense or reinit call produced */
};

/* the integrator of a method (clink_settings_def.method); NULL if none (auto, a bad value) */
const integ_ops *integrator_for(clink_method method);

/* the method's capabilities (CLINK_CAP_*, its row of CLINK_METHOD_TABLE); 0 for auto */
unsigned integrator_caps(clink_method method);

/* the words of the methods that have every capability of caps, ", "-separated, into buf
   ("bdf, rk4" for CLINK_CAP_PROJECTION): for the messages of a refusal */
const char *integrator_methods_with(unsigned caps, char *buf, size_t n);

/* the ops of each implementation */
extern const integ_ops integrator_cvode_ops;
extern const integ_ops integrator_adams_ops;
extern const integ_ops integrator_rk4_ops;
extern const integ_ops integrator_rk8_ops;

#endif
