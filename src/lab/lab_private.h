/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the files of the contact-law laboratory share (private to src/lab/): the
 * workspace struct clink_lab, the law's force as the integrators see it, Brent's
 * steps and the seam between the impact's assembly and its integrators.
 *
 *   lab.c            workspace, the impact's checks, scale and damping, the choice
 *                    of integrator and its BDF fallback (clink_lab_impact)
 *   lab_rk.c         the Runge-Kutta integrator (src/integrators/rk8/'s pair, events on its
 *                    dense output)
 *   lab_integ.c      the methods adams and bdf through the integrator table
 *                    (src/integrators/integrator.h): the impact as a problem of 4 components
 *                    with two event groups
 *   lab_brent.c      Brent's method, for the events of lab_rk.c and the calibration
 *   lab_calibrate.c  the damping for a target restitution (clink_lab_calibrate)
 *   lab_restitution.c  what a law's own damping rule reaches (clink_law_restitution_*),
 *                    a user of the public laboratory API
 */
#ifndef CLINK_LAB_PRIVATE_H
#define CLINK_LAB_PRIVATE_H

#include "clink/lab.h"

#include "contact/law_table.h"
#include "integrators/rk8/rk8.h"

#include <math.h>

/* the components of the table's problem (lab_integ.c) and of the Runge-Kutta one (lab_rk.c) */
enum { LAB_NEQ = 4, LAB_RK_N = 3, LAB_MAX_STEPS = 2000000 };
enum { LAB_PHASE_COMPRESSION = 1, LAB_PHASE_RESTITUTION = 2 };

struct clink_lab {
    char msg[512];
    /* the table's problem (lab_integ.c): its tolerances, event state and evaluations */
    double rtol, atol[LAB_NEQ];
    double ev_state[LAB_NEQ];
    long n_gevals;
    /* the run in progress (read by the callbacks) */
    const clink_law *law;
    const clink_contact_params *params;
    clink_contact_state state;
    int phase;
    double m, v0, dscale;
    /* the Runge-Kutta integrator: y = (delta, delta', W) against x = t^(1/q) */
    rk8 rk;
    int var, q;    /* the integration variable (LAB_VAR_*) and the power of its substitution */
    double offset; /* delta at separation in the approach stretch (LAB_VAR_U) */
    double brk[CONTACT_LAW_MAX_KINKS]; /* penetrations where the force has a kink */
    int n_break;
};

/*
 * The seam between the impact's assembly (lab.c) and an integrator: run integrates
 * one impact from onset (lab->law, params, state, m, v0 and dscale set, the
 * damping of the options in the state) to separation and fills res; on failure it
 * sets lab->msg (lab_fail) and returns the status.
 */
typedef struct lab_integrator {
    const char *name;
    clink_status (*run)(clink_lab *lab, const clink_lab_options *o, clink_lab_result *res);
} lab_integrator;

extern const lab_integrator lab_integrator_rk8;   /* lab_rk.c */
extern const lab_integrator lab_integrator_adams; /* lab_integ.c */
extern const lab_integrator lab_integrator_bdf;   /* lab_integ.c */

/* sets lab->msg from fmt and returns st */
clink_status lab_fail(clink_lab *lab, clink_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* the law's force, continued to delta < 0 as -F(-delta, -rate) */
static inline double lab_force(const clink_lab *lab, double delta, double rate)
{
    if (delta >= 0.0)
        return clink_law_force(lab->law, lab->params, &lab->state, delta, rate);
    return -clink_law_force(lab->law, lab->params, &lab->state, -delta, -rate);
}

/* dF/dt along the trajectory, by central differences of the pure force law */
static inline double lab_force_rate(const clink_lab *lab, double delta, double rate, double force)
{
    double h = 1e-6 * fmax(fabs(delta), 1e-3 * lab->dscale);
    double k = 1e-6 * fmax(fabs(rate), 1e-3 * lab->v0);
    double dFdd, dFdr;

    if (delta - h >= 0.0)
        dFdd = (lab_force(lab, delta + h, rate) - lab_force(lab, delta - h, rate)) / (2.0 * h);
    else
        dFdd = (lab_force(lab, delta + h, rate) - force) / h;
    dFdr = (lab_force(lab, delta, rate + k) - lab_force(lab, delta, rate - k)) / (2.0 * k);
    return dFdd * rate + dFdr * (-force / lab->m);
}

/* one point (t, delta, delta', F) of the loop to the options' sample callback */
static inline void lab_emit(const clink_lab *lab, const clink_lab_options *o, double t,
                            const double *Y)
{
    if (o->sample != NULL)
        o->sample(o->sample_ctx, t, Y[0], Y[1], lab_force(lab, Y[0], Y[1]));
}

/*
 * Brent's method (Brent 1973, Ch. 4): the bracket [b, c] with the last iterate a,
 * their values, and the last two steps d and e (lab_brent.c).
 */
typedef struct lab_brent {
    double a, b, c, fa, fb, fc, d, e;
} lab_brent;

/* restarts c at a when b and c are on one side (same_side), then keeps |f(b)| <= |f(c)| */
void lab_brent_bracket(lab_brent *z, int same_side);
/* the next b: inverse quadratic or secant interpolation when it is safe, else bisection */
void lab_brent_advance(lab_brent *z, double tol, double mid);

#endif /* CLINK_LAB_PRIVATE_H */
