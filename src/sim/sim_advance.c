/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_advance.c: clink_sim_advance, the stepping loop of the CVODE driver.
 *
 * Dense output. Outputs do not steer the integrator: CVODE steps with
 * CV_ONE_STEP and no stop time, and the state at the requested time t is
 * interpolated from its Nordsieck history (CVodeGetDky, valid on the last
 * step [tn - h, tn]), then projected onto the constraints (positions to 1e-13,
 * velocities) when the drift control is projection, so that an output
 * satisfies the constraints as well as a step does. CVODE's own time tn may
 * thus be ahead of t; the next advance continues from tn.
 *
 * Events stay exact: each root is reported (CV_ROOT_RETURN, the state at the
 * root in yroot) before CVODE steps past it. CVODE itself has no root functions:
 * sim_roots_cvode (sim_roots.c) stands for its CVode(CV_ONE_STEP) call with roots,
 * locating them with CVODE 6.4's search but evaluating all functions only once
 * per step and, in the search, only the contacts whose functions changed sign.
 * A root at t_root <= t is handed to the contact state machine at once; a root
 * after t is kept pending (yroot, roots_found) and handled by the advance that
 * reaches it, so that the output at t sees the contact phases of t. After a
 * root that needs no re-initialisation the rest of the step that bracketed it
 * must be searched (other roots may lie there) before an output in that step
 * can be trusted: `recheck`. A re-initialisation (CVodeReInit at t_root with
 * the state the state machine left, possibly with new velocities) restarts
 * CVODE at t_root with no history: an output at exactly t_root is then that
 * state.
 *
 * Statistics: CVodeReInit resets CVODE's counters (steps, right-hand sides,
 * setups, nonlinear iterations and failures, error test failures at once; the
 * Jacobian and projection counts at the first step after it), so they are added
 * to `banked` before each re-initialisation.
 *
 * Progress guarantees (settings max_steps, min_step, wall_limit): every step is
 * counted; a run stops with CLINK_ERR_SOLVER when the steps exceed max_steps,
 * when more than SIM_SMALL_STEPS steps in a row are shorter than min_step (the
 * automatic guard, min_step = 0: 1e-12 of the time, where the time stops
 * moving; an explicit min_step is also CVODE's own minimum step, so CVODE fails
 * at once when its error test needs less), or when the wall-clock limit is
 * reached. The message names the time,
 * the step, the contacts in contact or in an impact and the likely cause.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "sim/sim_internal.h"
#include "sim/sim_output.h"

#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* consecutive steps below min_step that stop the run */
#define SIM_SMALL_STEPS 1000
/* the automatic min_step: this fraction of the time */
#define SIM_AUTO_MIN_STEP 1e-12
/* steps between two readings of the wall clock */
#define SIM_WALL_EVERY 64

/* ---- statistics ----------------------------------------------------------- */

void sim_cvode_counters(const clink_sim *s, clink_sim_stats *st)
{
    ode_counters c;
    ode_counters_get(s->cvode, s->LS != NULL,
                     s->set.drift == CLINK_DRIFT_PROJECTION && s->set.method == CLINK_METHOD_BDF,
                     &c);
    st->steps = c.steps;
    st->rhs_evals = c.rhs_evals;
    st->lin_setups = c.lin_setups;
    st->error_test_fails = c.error_test_fails;
    st->nonlin_iters = c.nonlin_iters;
    st->nonlin_fails = c.nonlin_fails;
    st->jac_evals = c.jac_evals;
    st->proj_evals = c.proj_evals;
    st->proj_fails = c.proj_fails;
    st->last_step = c.last_step;
    st->last_order = c.last_order;
}

/* adds CVODE's counters to the banked ones before CVodeReInit resets them; the Jacobian and
   projection counters reset at the first step after a re-initialisation: not yet if CVODE
   has not stepped */
static void sim_bank_counters(clink_sim *s)
{
    ode_counters c;
    ode_counters_get(s->cvode, s->LS != NULL,
                     s->set.drift == CLINK_DRIFT_PROJECTION && s->set.method == CLINK_METHOD_BDF,
                     &c);
    ode_counters_add(&s->banked, &c, !s->at_reinit);
}

/* ---- progress guarantees -------------------------------------------------- */

static double sim_wall_clock(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0; /* no clock: the wall-clock limit cannot trigger */
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* the steps CVODE has taken since creation */
static long sim_steps(const clink_sim *s)
{
    long n = 0;
    if (CVodeGetNumSteps(s->cvode, &n) != CV_SUCCESS)
        n = 0;
    return s->banked.steps + n;
}

/*
 * Stops the run after a progress guarantee failed: the message names the time,
 * the step, the contacts involved and the likely cause.
 */
static clink_status sim_stalled(clink_sim *s, double t, double h, const char *what)
{
    char who[256];
    long events = simc_events(s->sc);
    int n = s->ncon ? simc_describe_active(s->sc, sim_full(s, N_VGetArrayPointer(s->ycv), s->yh),
                                           s->nq, who, sizeof who)
                    : 0;
    const char *cause =
        s->fail != CLINK_OK ? "the right-hand side fails near this time"
        : n == 0 ? "the solution is not smooth here (a configuration near a singular one, a "
                   "driver the mechanism cannot follow, a discontinuous load) or the tolerances "
                   "are too tight for double precision"
        : events > 1000 && events > sim_steps(s) / 100
            ? "a contact that chatters (many events; a larger settle_speed may help) or a "
              "contact stiffness too high for the tolerances"
            : "a contact stiffness too high for the tolerances (lower K, or loosen rtol/atol)";
    sim_msg(s,
            "CVODE makes no progress: %s at t = %.9g s, step %.3g s, %ld steps, %ld contact "
            "events; %s%s; likely cause: %s%s%s",
            what, t, h, sim_steps(s), events, n ? "contacts involved: " : "no contact involved",
            n ? who : "", cause, s->fail != CLINK_OK ? ": " : "",
            s->fail != CLINK_OK ? s->cb_msg : "");
    return s->fail != CLINK_OK ? s->fail : CLINK_ERR_SOLVER;
}

/* the checks after each step: step count, step size, wall clock */
static clink_status sim_check_progress(clink_sim *s, double tn)
{
    realtype h = 0.0;
    if (CVodeGetLastStep(s->cvode, &h) != CV_SUCCESS)
        h = 0.0;
    long steps = sim_steps(s);
    if (steps == s->steps_seen)
        return CLINK_OK; /* the end of a step already seen (the rest of a root's step) */
    s->steps_seen = steps;
    if ((double) steps > s->set.max_steps)
        return sim_stalled(s, tn, h, "more steps than max_steps");
    double hmin = s->set.min_step > 0.0 ? s->set.min_step : SIM_AUTO_MIN_STEP * fabs(tn);
    s->small_steps = h < hmin ? s->small_steps + 1 : 0;
    if (s->small_steps > SIM_SMALL_STEPS) {
        char what[128];
        snprintf(what, sizeof what, "%ld steps in a row shorter than the minimum step %.3g s",
                 s->small_steps, hmin);
        return sim_stalled(s, tn, h, what);
    }
    if (s->set.wall_limit > 0.0 && steps - s->steps_checked >= SIM_WALL_EVERY) {
        s->steps_checked = steps;
        if (sim_wall_clock() - s->wall_start > s->set.wall_limit) {
            char what[128];
            snprintf(what, sizeof what, "wall-clock limit of %g s reached", s->set.wall_limit);
            return sim_stalled(s, tn, h, what);
        }
    }
    return CLINK_OK;
}

/* ---- failures ------------------------------------------------------------- */

/* CVODE failed: the status of the component that made it fail, else CLINK_ERR_SOLVER */
static clink_status sim_cvode_failed(clink_sim *s, int rc, realtype tret)
{
    if (s->set.min_step > 0.0 && s->fail == CLINK_OK &&
        (rc == CV_ERR_FAILURE || rc == CV_CONV_FAILURE)) {
        /* CVODE needed a step below the explicit minimum (its hmin) */
        realtype h = 0.0;
        if (CVodeGetCurrentStep(s->cvode, &h) != CV_SUCCESS)
            h = 0.0;
        char what[160];
        snprintf(what, sizeof what,
                 "the error test needs steps shorter than the minimum step %.3g s",
                 s->set.min_step);
        return sim_stalled(s, tret, h, what);
    }
    char cause[512], flag[64];
    snprintf(cause, sizeof cause, "%s", s->fail != CLINK_OK ? s->cb_msg : s->cvlog.msg);
    sim_msg(s, "CVODE stopped at t = %.9g s with %s%s%s", (double) tret,
            ode_flag_name(rc, flag, sizeof flag), cause[0] ? ": " : "", cause);
    if (rc == CV_MEM_FAIL)
        return CLINK_ERR_NOMEM;
    return s->fail != CLINK_OK ? s->fail : CLINK_ERR_SOLVER;
}

/* ---- roots ---------------------------------------------------------------- */

/* re-initialises CVODE at (t, yroot), the counters banked first */
static clink_status sim_reinit(clink_sim *s, double t)
{
    char flag[64];
    sim_bank_counters(s);
    int rc = CVodeReInit(s->cvode, t, s->yroot);
    if (rc == CV_SUCCESS && s->tstop_set)
        rc = CVodeSetStopTime(s->cvode, s->t_stop);
    if (rc != CV_SUCCESS) {
        sim_msg(s, "CVODE at a contact event at t = %.9g s failed with %d (%s)", t, rc,
                ode_flag_name(rc, flag, sizeof flag));
        return CLINK_ERR_SOLVER;
    }
    if (s->ncon)
        sim_roots_restart(s, s->yroot);
    s->reinits++;
    s->at_reinit = 1;
    s->at_tstop = 0;
    s->recheck = 0;
    return CLINK_OK;
}

/* the pending root: the contact state machine at t_root, then CVODE re-aimed */
static clink_status sim_handle_root(clink_sim *s)
{
    int nq = s->nq, reinit = 0;
    double *yr = N_VGetArrayPointer(s->yroot);
    /* the full state: yroot itself, or its expansion (the contacts may change v in place) */
    double *y = (double *) sim_full(s, yr, s->yh);
    s->root_pending = 0;
    simc_after_step(s->sc, s->t_root, y, y + nq);
    clink_status st =
        simc_handle_roots(s->sc, s->t_root, y, y + nq, y + 2 * nq + 2, s->roots_found, &reinit);
    if (st != CLINK_OK) {
        sim_msg(s, "%s", simc_error(s->sc));
        return st;
    }
    sim_reduce(s, y, yr);
    sim_roots_directions(s);
    return reinit ? sim_reinit(s, s->t_root) : CLINK_OK;
}

/* a root at tret (sim_roots_cvode): keep it for sim_handle_root */
static clink_status sim_take_root(clink_sim *s, double tret)
{
    memcpy(s->roots_found, s->iroots, (size_t) s->nrt * sizeof(int));
    N_VScale(1.0, s->ycv, s->yroot);
    s->root_pending = 1;
    s->t_root = tret;
    s->recheck = 1;
    return CLINK_OK;
}

/* ---- output --------------------------------------------------------------- */

/* the state at t from CVODE's dense output, projected onto the constraints if so set */
static clink_status sim_interpolate(clink_sim *s, double t)
{
    if (s->at_reinit) {
        /* CVODE restarted at t and has no history: the state it restarted from */
        N_VScale(1.0, s->yroot, s->ycv);
    } else {
        int rc = CVodeGetDky(s->cvode, t, 0, s->ycv);
        if (rc != CV_SUCCESS) {
            char flag[64];
            sim_msg(s, "CVodeGetDky at t = %.9g s failed with %d (%s)", t, rc,
                    ode_flag_name(rc, flag, sizeof flag));
            return CLINK_ERR_INTERNAL;
        }
    }
    /* the full state, in yh unless it is ycv itself */
    double *y = s->yh;
    const double *yf = sim_full(s, N_VGetArrayPointer(s->ycv), s->yh);
    if (yf != y)
        memcpy(y, yf, (size_t) s->N * sizeof(double));
    if (s->set.drift == CLINK_DRIFT_PROJECTION && s->nc > 0) {
        clink_status st = sim_audit_project_output(s, t, y);
        if (st != CLINK_OK) {
            sim_msg(s, "output at t = %.9g s: %s", t, dyn_error(s->dyn));
            return st;
        }
    }
    for (int i = 0; i < s->N; i++)
        if (!isfinite(y[i])) {
            sim_msg(s, "non-finite state (component %d) at t = %.9g s", i, t);
            return CLINK_ERR_NONFINITE;
        }
    memcpy(N_VGetArrayPointer(s->y), y, (size_t) s->N * sizeof(double));
    return CLINK_OK;
}

double sim_total_energy(const clink_energy *e)
{
    return e->kinetic + e->gravity + e->spring - e->work_drivers - e->work_loads -
           e->work_stabilisation + e->contact_stored + e->contact_damping + e->contact_friction;
}

/* the information of contact k at the output state */
static clink_status sim_settle_info(clink_sim *s, double t, int k)
{
    const double *y = N_VGetArrayPointer(s->y);
    clink_status st = simc_info(s->sc, k, y, y + s->nq, &s->info[k]);
    if (st != CLINK_OK)
        sim_msg(s, "contact %d: no geometry at t = %.9g s", k, t);
    return st;
}

/* the information of every contact at the output state, or of those listed
   (clink_sim_set_output_contacts): out_partial and out_has say which */
static clink_status sim_settle_contacts(clink_sim *s, double t)
{
    s->out_partial = s->out_some;
    if (!s->out_some) {
        for (int k = 0; k < s->ncon; k++) {
            clink_status st = sim_settle_info(s, t, k);
            if (st != CLINK_OK)
                return st;
        }
        return CLINK_OK;
    }
    memset(s->out_has, 0, (size_t) s->ncon);
    for (int i = 0; i < s->out_nlist; i++) {
        int k = s->out_list[i];
        clink_status st = sim_settle_info(s, t, k);
        if (st != CLINK_OK)
            return st;
        s->out_has[k] = 1;
    }
    return CLINK_OK;
}

/* everything the getters report (CLINK_OUTPUT_ALL) */
static clink_status sim_settle_all(clink_sim *s, double t)
{
    int nq = s->nq;
    const double *y = N_VGetArrayPointer(s->y);
    clink_status st = dyn_accelerations(s->dyn, t, y, y + nq, s->qdd, s->lambda);
    if (st != CLINK_OK) {
        if (s->ncon && simc_take_failure(s->sc)) {
            sim_msg(s, "%s", simc_error(s->sc));
            return CLINK_ERR_NONFINITE;
        }
        sim_msg(s, "%s at the output t = %.9g s", dyn_error(s->dyn), t);
        return st;
    }
    dyn_energy de;
    dyn_energies(s->dyn, t, y, y + nq, s->lambda, &de);
    clink_energy *e = &s->energy;
    e->kinetic = de.kinetic;
    e->gravity = de.gravity;
    e->spring = de.spring;
    e->work_drivers = y[2 * nq];
    e->work_loads = y[2 * nq + 1];
    e->work_stabilisation = sim_audit_work(s, y);
    e->contact_stored = e->contact_damping = e->contact_friction = 0.0;
    if (s->ncon) {
        e->contact_stored = simc_stored_energy(s->sc, y, y + nq);
        for (int k = 0; k < s->ncon; k++) {
            double wd, wf;
            simc_work(s->sc, k, y + 2 * nq + 2, &wd, &wf);
            e->contact_damping += wd + simc_booked(s->sc, k);
            e->contact_friction += wf;
        }
    }
    e->balance = sim_total_energy(e) - s->e0;
    dyn_violation(s->dyn, t, y, y + nq, &s->viol_pos, &s->viol_vel);
    /* (each contact's information depends on the state alone: computed after the sums) */
    return sim_settle_contacts(s, t);
}

/*
 * The output state is y at t (q and v are there already): what the level asks for on top.
 * Below CLINK_OUTPUT_ALL no saddle-point solve is made at the output; the right-hand sides
 * CVODE evaluates are unaffected (the contacts' caches are bit-exact, so skipping the
 * output's force evaluation changes no later result).
 */
clink_status sim_settle_output(clink_sim *s, double t)
{
    clink_output_level level = s->out_level ? s->out_level : CLINK_OUTPUT_ALL;
    s->t = t;
    s->out_done = CLINK_OUTPUT_STATE;
    s->out_partial = 0;
    clink_status st = CLINK_OK;
    if (level == CLINK_OUTPUT_ALL)
        st = sim_settle_all(s, t);
    else if (level == CLINK_OUTPUT_CONTACTS)
        st = sim_settle_contacts(s, t);
    if (st == CLINK_OK)
        s->out_done = level;
    return st;
}

/* ---- stepping ------------------------------------------------------------- */

/* the request itself: a time after the current one, before the stop time, within max_steps */
static clink_status sim_check_target(clink_sim *s, double t)
{
    if (!(t > s->t) || !isfinite(t)) {
        sim_msg(s, "advance: target time %.9g s must be finite and after the current time %.9g s",
                t, s->t);
        return CLINK_ERR_ARG;
    }
    if (s->tstop_set && t > s->t_stop) {
        sim_msg(s, "advance: target time %.9g s is beyond the stop time %.9g s", t, s->t_stop);
        return CLINK_ERR_ARG;
    }
    if (s->set.max_step > 0.0) {
        double need = (double) sim_steps(s) + (t - s->t) / s->set.max_step;
        if (need > s->set.max_steps) {
            sim_msg(s,
                    "advance: reaching t = %.9g s needs at least %.3g steps of max_step %g s, "
                    "more than max_steps %.3g: raise max_step or max_steps",
                    t, need, s->set.max_step, s->set.max_steps);
            return CLINK_ERR_RANGE;
        }
    }
    return CLINK_OK;
}

/* CVODE forward until its time covers t, every root up to t handled; one_step: return after
   one call of CVode (a step, the rest of a root's step, or a root; sim_output.c) */
clink_status sim_integrate_to(clink_sim *s, double t, int one_step)
{
    int nq = s->nq;
    for (;;) {
        if (s->root_pending) {
            if (s->t_root > t)
                return CLINK_OK; /* after t: the next advance handles it */
            clink_status st = sim_handle_root(s);
            if (st != CLINK_OK)
                return st;
            continue;
        }
        realtype tn = 0.0;
        if (CVodeGetCurrentTime(s->cvode, &tn) != CV_SUCCESS)
            return CLINK_ERR_INTERNAL;
        if ((tn >= t || (s->at_tstop && t <= s->t_stop)) && !s->recheck)
            return CLINK_OK;
        /* CVODE sizes its first step after a start or a re-initialisation from the
           distance to tout (at most a tenth of it): the settings' output step, not the
           time asked for, so that outputs do not steer the integration, and the first step
           stays short enough not to carry a body through a contact it has not seen */
        double horizon = tn + (s->set.output_step > 0.0 ? s->set.output_step : 1e-3);
        if (s->tstop_set && horizon > s->t_stop)
            horizon = s->t_stop;
        double tret = tn;
        int rc = sim_roots_cvode(s, horizon, &tret);
        if (rc < 0)
            return sim_cvode_failed(s, rc, tret);
        s->at_reinit = 0;
        if (rc == CV_ROOT_RETURN) {
            clink_status st = sim_take_root(s, tret);
            if (st != CLINK_OK || one_step)
                return st;
            continue;
        }
        s->recheck = 0;
        if (rc == CV_TSTOP_RETURN)
            s->at_tstop = 1; /* CVODE is at t_stop (to its rounding) and goes no further */
        if (s->ncon) {
            const double *yy = sim_full(s, N_VGetArrayPointer(s->ycv), s->yh);
            simc_after_step(s->sc, tret, yy, yy + nq);
        }
        clink_status st = sim_check_progress(s, tret);
        if (st != CLINK_OK)
            return st;
        s->root_calls = 0; /* a completed step */
        if (one_step)
            return CLINK_OK;
    }
}

clink_status clink_sim_advance(clink_sim *s, double t)
{
    if (!s)
        return CLINK_ERR_ARG;
    clink_status st = sim_check_target(s, t);
    if (st != CLINK_OK)
        return st;
    s->msg[0] = '\0';
    s->fail = CLINK_OK;
    s->cb_msg[0] = '\0';
    if (s->wall_start < 0.0)
        s->wall_start = sim_wall_clock();
    st = sim_integrate_to(s, t, 0);
    if (st == CLINK_OK)
        st = sim_interpolate(s, t);
    if (st != CLINK_OK) {
        /* the output state stays the last good one */
        return st;
    }
    st = sim_settle_output(s, t);
    if (st != CLINK_OK)
        return st;
    sim_check_output(s);
    return CLINK_OK;
}

clink_status clink_sim_set_stop_time(clink_sim *s, double t_stop)
{
    if (!s)
        return CLINK_ERR_ARG;
    realtype tn = 0.0;
    if (CVodeGetCurrentTime(s->cvode, &tn) != CV_SUCCESS)
        return CLINK_ERR_INTERNAL;
    if (!isfinite(t_stop) || !(t_stop >= tn) || !(t_stop >= s->t)) {
        sim_msg(s, "stop time %.9g s: must be finite and not before CVODE's time %.9g s", t_stop,
                (double) tn);
        return CLINK_ERR_ARG;
    }
    int rc = CVodeSetStopTime(s->cvode, t_stop);
    if (rc != CV_SUCCESS) {
        char flag[64];
        sim_msg(s, "CVodeSetStopTime(%.9g) failed with %d (%s)", t_stop, rc,
                ode_flag_name(rc, flag, sizeof flag));
        return CLINK_ERR_SOLVER;
    }
    s->tstop_set = 1;
    s->t_stop = t_stop;
    s->at_tstop = 0;
    return CLINK_OK;
}
