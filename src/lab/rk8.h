/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rk8.h: the explicit Runge-Kutta pair of Dormand and Prince of order 8 with
 * error estimators of orders 5 and 3 and a dense output of order 7 ("DOP853",
 * Hairer, Norsett and Wanner 1993, Sect. II.10), for small fixed-size systems
 * y' = f(x, y) of LAB_RK8_NMAX components (a compile-time size, so that the
 * stage sums unroll), in plain arrays.
 *
 * The stepper keeps the last two accepted steps (their stages and end points),
 * so that an event found after a step may be located on the dense output of
 * that step or of the one before it. Nothing is allocated; a lab_rk8 is a
 * plain struct owned by the caller.
 */
#ifndef CLINK_LAB_RK8_H
#define CLINK_LAB_RK8_H

enum { LAB_RK8_NMAX = 3, LAB_RK8_STAGES = 12, LAB_RK8_STAGES_DENSE = 16 };

/* Right-hand side: writes f(x, y); returns 0, or nonzero when f is not finite there. */
typedef int (*lab_rk8_rhs_fn)(void *ctx, double x, const double *y, double *f);

/* One accepted step from x0 to x0 + h, with what its dense output needs. */
typedef struct lab_rk8_step {
    double x0, h;
    double y0[LAB_RK8_NMAX], y1[LAB_RK8_NMAX];
    double k[LAB_RK8_STAGES_DENSE][LAB_RK8_NMAX]; /* k[0] = f(x0, y0), k[12] = f(x0 + h, y1) */
    double dense[7][LAB_RK8_NMAX];                /* interpolation coefficients */
    int have_dense;
} lab_rk8_step;

typedef struct lab_rk8 {
    lab_rk8_rhs_fn rhs;
    void *ctx;
    double rtol, atol[LAB_RK8_NMAX];
    double x, h; /* current point and the step to try next */
    double y[LAB_RK8_NMAX], f[LAB_RK8_NMAX];
    lab_rk8_step buf[2];
    lab_rk8_step scratch; /* for lab_rk8_step_to() */
    int cur;              /* buf[cur] is the last accepted step, buf[1 - cur] the one before */
    int n_valid;          /* accepted steps since the last start (0, 1, 2 or more) */
    long n_steps;         /* accepted steps, over all starts */
    long n_rhs;           /* right-hand-side evaluations */
    long n_rejects;
} lab_rk8;

/*
 * Starts (or restarts after an event) at (x, y): evaluates f there. h > 0 is the
 * first step to try. Returns 0, or nonzero when f is not finite at the start.
 */
int lab_rk8_start(lab_rk8 *rk, double x, const double *y, double h);

/*
 * Takes one accepted step, not beyond x_end (> rk->x), with the step size
 * control of DOP853. Returns 0; -1 when the step size falls below the
 * resolution of x (the right-hand side is not finite or not smooth enough).
 * The step is rk->buf[rk->cur].
 */
int lab_rk8_advance(lab_rk8 *rk, double x_end);

/*
 * y at x in [x0, x0 + h] of step s by a step of the pair from x0 to x (12 more
 * evaluations of f): an event located on the dense output (order 7) is then a
 * point of order 8, with a smaller step than the accepted one, from which the
 * integration can restart. Returns 0, or nonzero when f is not finite.
 */
int lab_rk8_step_to(lab_rk8 *rk, const lab_rk8_step *s, double x, double *y);

/* The last accepted step (back = 0) or the one before it (back = 1), NULL if none. */
lab_rk8_step *lab_rk8_last(lab_rk8 *rk, int back);

/* Fills the dense output of a step (three more evaluations of f, once per step). */
int lab_rk8_dense(lab_rk8 *rk, lab_rk8_step *s);

/* y(x) on a step from its dense output (lab_rk8_dense() first), x in [x0, x0 + h]. */
void lab_rk8_eval(const lab_rk8 *rk, const lab_rk8_step *s, double x, double *y);

/*
 * First and second derivatives in x of component i of the dense output of step s
 * (lab_rk8_dense() first) at x.
 */
void lab_rk8_eval_derivs(const lab_rk8 *rk, const lab_rk8_step *s, double x, int i, double *d1,
                         double *d2);

#endif
