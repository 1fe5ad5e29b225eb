/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rk8.h: the explicit Runge-Kutta pair of Dormand and Prince of order 8 with
 * error estimators of orders 5 and 3 and a dense output of order 7 ("DOP853",
 * Hairer, Norsett and Wanner 1993, Sect. II.10), for systems y' = f(x, y) of n
 * components in plain arrays. Two users: the impact laboratory (src/lab/lab_rk.c,
 * n = 3, its own events on the dense output) and the integrator of method="rk8"
 * (rk8_integ.c, behind integrator.h's ops).
 *
 * The stepper keeps the last two accepted steps (their stages and end points),
 * so that an event found after a step may be located on the dense output of
 * that step or of the one before it. rk8_init allocates its arrays once (one
 * block); nothing is allocated while stepping.
 */
#ifndef CLINK_RK8_H
#define CLINK_RK8_H

enum { RK8_STAGES = 12, RK8_STAGES_DENSE = 16 };

/* Right-hand side: writes f(x, y); returns 0, or nonzero when f is not finite there. */
typedef int (*rk8_rhs_fn)(void *ctx, double x, const double *y, double *f);

/* Optional error scale: sc (n) for a step from y0 to y1; the step's error e is accepted
   when the RMS of e / sc is at most 1 (NULL: atol_i + rtol max(|y0_i|, |y1_i|)). */
typedef void (*rk8_scale_fn)(void *ctx, const double *y0, const double *y1, double *sc);

/* One accepted step from x0 to x0 + h, with what its dense output needs (arrays of n). */
typedef struct rk8_step {
    double x0, h;
    double *y0, *y1;
    double *k[RK8_STAGES_DENSE]; /* k[0] = f(x0, y0), k[12] = f(x0 + h, y1) */
    double *dense[7];            /* interpolation coefficients */
    int have_dense;
} rk8_step;

typedef struct rk8 {
    int n;
    rk8_rhs_fn rhs;
    rk8_scale_fn scale; /* NULL: rtol and atol */
    void *ctx;
    double rtol, *atol; /* atol: n */
    double h_max;       /* the largest step, 0: none */
    double x, h;        /* current point and the step to try next */
    double *y, *f;      /* n */
    rk8_step buf[2];
    rk8_step scratch; /* for rk8_step_to() */
    double *yt, *sc;  /* n: a stage's state, the error scale */
    int cur;          /* buf[cur] is the last accepted step, buf[1 - cur] the one before */
    int n_valid;      /* accepted steps since the last start (0, 1, 2 or more) */
    long n_steps;     /* accepted steps, over all starts */
    long n_rhs;       /* right-hand-side evaluations */
    long n_rejects;
    double *block; /* the arrays' memory */
} rk8;

/* The arrays of a stepper of n components (zeroed, counters 0, atol 0); 0, or -1 when
   memory runs out. rhs, ctx, rtol, atol (and scale, h_max) are the caller's to set. */
int rk8_init(rk8 *rk, int n);
/* Everything back to rk8_init's state (the arrays kept, zeroed). */
void rk8_reset(rk8 *rk);
/* Releases the arrays (accepts a stepper never initialised, zeroed). */
void rk8_free(rk8 *rk);

/*
 * Starts (or restarts after an event) at (x, y): evaluates f there. h > 0 is the
 * first step to try. Returns 0, or nonzero when f is not finite at the start.
 */
int rk8_start(rk8 *rk, double x, const double *y, double h);

/*
 * Takes one accepted step, not beyond x_end (> rk->x), with the step size
 * control of DOP853. Returns 0; -1 when the step size falls below the
 * resolution of x (the right-hand side is not finite or not smooth enough).
 * The step is rk->buf[rk->cur].
 */
int rk8_advance(rk8 *rk, double x_end);

/*
 * y at x in [x0, x0 + h] of step s by a step of the pair from x0 to x (12 more
 * evaluations of f): an event located on the dense output (order 7) is then a
 * point of order 8, with a smaller step than the accepted one, from which the
 * integration can restart. Returns 0, or nonzero when f is not finite.
 */
int rk8_step_to(rk8 *rk, const rk8_step *s, double x, double *y);

/* The last accepted step (back = 0) or the one before it (back = 1), NULL if none. */
rk8_step *rk8_last(rk8 *rk, int back);

/* Fills the dense output of a step (three more evaluations of f, once per step). */
int rk8_dense(rk8 *rk, rk8_step *s);

/* y(x) on a step from its dense output (rk8_dense() first), x in [x0, x0 + h]. */
void rk8_eval(const rk8 *rk, const rk8_step *s, double x, double *y);

/*
 * First and second derivatives in x of component i of the dense output of step s
 * (rk8_dense() first) at x.
 */
void rk8_eval_derivs(const rk8 *rk, const rk8_step *s, double x, int i, double *d1, double *d2);

#endif
