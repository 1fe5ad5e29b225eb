/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_advance.c: clink_sim_advance, the stepping loop of the simulation.
 *
 * Dense output. Outputs do not steer the integrator: it steps one step at a
 * time with no stop time, and the state at the requested time t is interpolated
 * from its dense output on the last step [tn - h, tn] (the `dense` op: CVODE's
 * Nordsieck history), then projected onto the constraints (positions to 1e-13,
 * velocities) when the drift control is projection, so that an output satisfies
 * the constraints as well as a step does. The integrator's own time tn may thus
 * be ahead of t; the next advance continues from tn. The horizon the integrator
 * is handed (it sizes its first step after a start or a re-initialisation from it)
 * is the fixed SIM_HORIZON past tn, so that the steps, the roots and every number
 * computed are the same whatever the output step, the rows or the times asked for.
 *
 * Events stay exact: each root is reported (INTEG_ROOT, the state at the root
 * copied to yroot) before the integrator steps past it (for CVODE:
 * src/integrators/cvode/cvode_events.c). A root at t_root <= t is handed to the
 * contact state machine at once; a root after t is kept pending (yroot,
 * roots_found) and handled by the advance that reaches it, so that the output at t
 * sees the contact phases of t. After a root that needs no re-initialisation the
 * rest of the step that bracketed it must be searched (other roots may lie there)
 * before an output in that step can be trusted: `recheck`. A re-initialisation
 * (the `reinit` op at t_root with the state the state machine left, possibly with
 * new velocities) restarts the integrator at t_root with no history: an output at
 * exactly t_root is then that state. The integrator's counters run on across
 * re-initialisations (the `stats` op sums them).
 *
 * Progress guarantees (settings max_steps, min_step, wall_limit): every step is
 * counted; a run stops with CLINK_ERR_SOLVER when the steps exceed max_steps,
 * when more than SIM_SMALL_STEPS steps in a row are shorter than min_step (the
 * automatic guard, min_step = 0: 1e-12 of the time, where the time stops
 * moving; an explicit min_step is also the integrator's own minimum step, so it
 * fails at once when its error test needs less), or when the wall-clock limit is
 * reached. The message names the time,
 * the step, the contacts in contact or in an impact and the likely cause.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "sim/sim_internal.h"
#include "fmt_double.h"
#include "sim/sim_output.h"

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
/* s: the distance to the time the integrator is told it steps towards (it bounds its first
   step after a start or a re-initialisation to a tenth of it); the default output step,
   but fixed: the output step, the rows and the times asked for leave the steps alone */
#define SIM_HORIZON 1e-3

/* ---- progress guarantees -------------------------------------------------- */

static double sim_wall_clock(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0; /* no clock: the wall-clock limit cannot trigger */
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

void sim_advance_begin(clink_sim *s)
{
    s->msg[0] = '\0';
    s->sys->fail = CLINK_OK;
    s->sys->fatal = 0;
    s->sys->cb_msg[0] = '\0';
    if (s->prog.wall_start < 0.0)
        s->prog.wall_start = sim_wall_clock();
}

/* the steps the integrator has taken since creation */
static long sim_steps(const clink_sim *s)
{
    return s->in->ops->steps(s->in);
}

/* "t = T s", T shortest round-trip, into buf (OUTPUT_DOUBLE_MAX + 64 bytes); "a time the
   integrator did not give (not a number)" when t is NaN */
static const char *sim_when(double t, char *buf, size_t n)
{
    char d[OUTPUT_DOUBLE_MAX];
    if (isnan(t))
        snprintf(buf, n, "a time the integrator did not give (not a number)");
    else {
        output_format_double(t, d);
        snprintf(buf, n, "t = %s s", d);
    }
    return buf;
}

/*
 * Stops the run after a progress guarantee failed: the message names the time,
 * the step, the contacts involved and the likely cause.
 */
static clink_status sim_stalled(clink_sim *s, double t, double h, const char *what)
{
    char who[256], suspect[512], when[OUTPUT_DOUBLE_MAX + 64];
    long events = contacts_events(s->sys->sc);
    const double *y = s->sys->ncon ? system_full(s->sys, s->in->y, s->yh) : NULL;
    int n = s->sys->ncon ? contacts_describe_active(s->sys->sc, y, s->sys->nq, who, sizeof who) : 0;
    /* the known causes in order, before the stiffness is blamed: a right-hand side that
       fails (after what made it fail, when known), an assembly that moved the start, a
       penetration beyond a law's range, an absurd friction coefficient, a load too stiff or
       too large for its bodies */
    int known =
        s->sys->ncon && contacts_suspect(s->sys->sc, y, s->sys->nq, suspect, sizeof suspect);
    known = known || sim_check_stall_loads(s, t, h, suspect, sizeof suspect);
    int rhs = s->sys->fail != CLINK_OK;
    const char *cause =
        rhs && known ? suspect
        : rhs        ? "the right-hand side fails near this time"
        : s->chk.nstart > 0
            ? "initial conditions the assembly had to move, or a contact that started "
              "penetrated or fast (the warnings at t = 0 name them; clink check --strict)"
        : known  ? suspect
        : n == 0 ? "the solution is not smooth here (a configuration near a singular one, a "
                   "driver the mechanism cannot follow, a discontinuous load) or the tolerances "
                   "are too tight for double precision"
        : events > 1000 && events > sim_steps(s) / 100
            ? "a contact that chatters (many events; a larger settle_speed may help) or a "
              "contact stiffness too high for the tolerances"
            : "a contact stiffness too high for the tolerances (lower K, or loosen rtol/atol)";
    sim_when(t, when, sizeof when);
    sim_msg(s,
            "%s makes no progress: %s at %s, step %.3g s, %ld steps, %ld contact "
            "events; %s%s; likely cause: %s%s%s",
            s->in->ops->name, what, when, h, sim_steps(s), events,
            n ? "contacts involved: " : "no contact involved", n ? who : "", cause,
            !rhs    ? ""
            : known ? "; the right-hand side fails near this time: "
                    : ": ",
            rhs ? s->sys->cb_msg : "");
    return s->sys->fail != CLINK_OK ? s->sys->fail : CLINK_ERR_SOLVER;
}

/* the checks after each step: step count, step size, wall clock */
static clink_status sim_check_progress(clink_sim *s, double tn)
{
    double t_now = 0.0, h = 0.0;
    if (s->in->ops->now(s->in, &t_now, &h) != 0)
        h = 0.0;
    long steps = sim_steps(s);
    if (steps == s->prog.steps_seen)
        return CLINK_OK; /* the end of a step already seen (the rest of a root's step) */
    s->prog.steps_seen = steps;
    if ((double) steps > s->set.max_steps)
        return sim_stalled(s, tn, h, "more steps than max_steps");
    double hmin = s->set.min_step > 0.0 ? s->set.min_step : SIM_AUTO_MIN_STEP * fabs(tn);
    s->prog.small_steps = h < hmin ? s->prog.small_steps + 1 : 0;
    if (s->prog.small_steps > SIM_SMALL_STEPS) {
        char what[128];
        snprintf(what, sizeof what, "%ld steps in a row shorter than the minimum step %.3g s",
                 s->prog.small_steps, hmin);
        return sim_stalled(s, tn, h, what);
    }
    if (s->set.wall_limit > 0.0 && steps - s->prog.steps_checked >= SIM_WALL_EVERY) {
        s->prog.steps_checked = steps;
        if (sim_wall_clock() - s->prog.wall_start > s->set.wall_limit) {
            char what[128];
            snprintf(what, sizeof what, "wall-clock limit of %g s reached", s->set.wall_limit);
            return sim_stalled(s, tn, h, what);
        }
    }
    return CLINK_OK;
}

/* ---- failures ------------------------------------------------------------- */

/*
 * The right-hand side failed for good in a model with contacts (a law or the friction gave a
 * non-finite force): the integrator's flag and the failure, then the contacts involved and
 * the likely cause in the stall's order (contacts_suspect: a penetration beyond a contact's
 * size, an absurd friction coefficient; then the loads). SUNDIALS 7 stops here where 6.4's
 * fixed-point solver retried the step until it stalled (sim_stalled): both name the contact
 * and the cause.
 */
static clink_status sim_rhs_failed(clink_sim *s, double t, double h, const char *flag,
                                   const char *failure)
{
    char who[256], suspect[512], when[OUTPUT_DOUBLE_MAX + 64];
    const double *y = system_full(s->sys, s->in->y, s->yh);
    int n = contacts_describe_active(s->sys->sc, y, s->sys->nq, who, sizeof who);
    int known = contacts_suspect(s->sys->sc, y, s->sys->nq, suspect, sizeof suspect) ||
                sim_check_stall_loads(s, t, h, suspect, sizeof suspect);
    sim_msg(s, "%s stopped at %s with %s: %s; %s%s; likely cause: %s", s->in->ops->name,
            sim_when(t, when, sizeof when), flag, failure,
            n ? "contacts involved: " : "no contact involved", n ? who : "",
            known ? suspect
                  : "a contact law or friction law whose parameters give a non-finite force at "
                    "this state (the failure above names it)");
    return s->sys->fail;
}

/* the integrator failed: the status of the component that made it fail, else
   CLINK_ERR_SOLVER */
static clink_status sim_integrator_failed(clink_sim *s, int rc, double tret)
{
    double h = 0.0;
    char flag[64];
    const char *icause = "";
    integ_failure kind = s->in->ops->failure(s->in, rc, &h, flag, sizeof flag, &icause);
    if (s->set.min_step > 0.0 && s->sys->fail == CLINK_OK && kind == INTEG_FAIL_STEP) {
        /* the integrator needed a step below the explicit minimum (its hmin) */
        char what[160];
        snprintf(what, sizeof what,
                 "the error test needs steps shorter than the minimum step %.3g s",
                 s->set.min_step);
        return sim_stalled(s, tret, h, what);
    }
    char cause[512];
    snprintf(cause, sizeof cause, "%s", s->sys->fail != CLINK_OK ? s->sys->cb_msg : icause);
    char when[OUTPUT_DOUBLE_MAX + 64];
    if (s->sys->fail != CLINK_OK && s->sys->ncon)
        return sim_rhs_failed(s, tret, h, flag, cause);
    sim_msg(s, "%s stopped at %s with %s%s%s", s->in->ops->name, sim_when(tret, when, sizeof when),
            flag, cause[0] ? ": " : "", cause);
    if (kind == INTEG_FAIL_NOMEM)
        return CLINK_ERR_NOMEM;
    return s->sys->fail != CLINK_OK ? s->sys->fail : CLINK_ERR_SOLVER;
}

/* ---- roots ---------------------------------------------------------------- */

/* re-initialises the integrator at (t, yroot) */
clink_status sim_reinit(clink_sim *s, double t)
{
    int rc = s->in->ops->reinit(s->in, t, s->loop.yroot);
    if (rc != 0) {
        char flag[64], when[OUTPUT_DOUBLE_MAX + 64];
        sim_msg(s, "%s at a contact event at %s failed with %d (%s)", s->in->ops->name,
                sim_when(t, when, sizeof when), rc, s->in->ops->code_name(rc, flag, sizeof flag));
        return CLINK_ERR_SOLVER;
    }
    s->loop.reinits++;
    if (s->sec)
        sim_section_restart(s, t);
    s->loop.at_reinit = 1;
    s->loop.at_tstop = 0;
    s->loop.recheck = 0;
    return CLINK_OK;
}

/* the pending root: the contact state machine at t_root, then the integrator re-aimed */
static clink_status sim_handle_root(clink_sim *s)
{
    int nq = s->sys->nq, reinit = 0;
    double *yr = s->loop.yroot;
    s->loop.root_pending = 0;
    if (s->sys->win)
        return sim_window_handle_root(s);
    /* the full state: yroot itself, or its expansion (the contacts may change v in place) */
    double *y = (double *) system_full(s->sys, yr, s->yh);
    contacts_after_step(s->sys->sc, s->loop.t_root, y, y + nq);
    clink_status st = contacts_handle_roots(s->sys->sc, s->loop.t_root, y, y + nq, y + 2 * nq + 2,
                                            s->loop.roots_found, &reinit);
    if (st != CLINK_OK) {
        sim_msg(s, "%s", contacts_error(s->sys->sc));
        return st;
    }
    if (s->sys->nfz && contacts_friction_onset(s->sys->sc, y + 2 * nq + 2))
        reinit = 1; /* a friction state reset at an onset */
    system_reduce(s->sys, y, yr);
    s->in->ops->events_changed(s->in);
    return reinit ? sim_reinit(s, s->loop.t_root) : CLINK_OK;
}

/* a root at tret (the step op returned INTEG_ROOT): keep it for sim_handle_root */
static clink_status sim_take_root(clink_sim *s, double tret)
{
    /* with the window: its contacts' events, 2 ncw of them (system_window.c) */
    int nev = s->sys->win ? s->sys->win->ncw : s->sys->ncon;
    memcpy(s->loop.roots_found, s->in->ops->events_found(s->in), (size_t) (2 * nev) * sizeof(int));
    memcpy(s->loop.yroot, s->in->y, (size_t) s->sys->Nr * sizeof(double));
    s->loop.root_pending = 1;
    s->loop.t_root = tret;
    s->loop.recheck = 1;
    return CLINK_OK;
}

/* the integrator's starts since its creation: re-initialisations, re-creations by the window
   and restarts after an input changed (each empties its history) */
static long sim_step_gen(const clink_sim *s)
{
    return s->loop.reinits + s->win.restarts + s->inp.restarts + s->aut.count;
}

/* the integrator's state at the end of a step just taken (tret), kept with the one before */
static void sim_keep_step(clink_sim *s, double tret, int rc)
{
    sim_loop *l = &s->loop;
    if (rc == INTEG_TSTOP) { /* an interpolated state at the stop time: none kept */
        l->nstep = 0;
        return;
    }
    if (l->gen != sim_step_gen(s))
        l->nstep = 0;
    l->gen = sim_step_gen(s);
    if (l->nstep > 0 && tret == l->tstep[1])
        return; /* the same step's end again (the rest of a root's step) */
    double *y = l->ystep[0];
    l->ystep[0] = l->ystep[1];
    l->ystep[1] = y;
    l->tstep[0] = l->tstep[1];
    l->tstep[1] = tret;
    memcpy(y, s->in->y, (size_t) s->sys->Nr * sizeof(double));
    l->nstep = l->nstep < 2 ? l->nstep + 1 : 2;
}

/* ---- output --------------------------------------------------------------- */

/* the state at t from the integrator's dense output, projected onto the constraints if so set */
static clink_status sim_interpolate(clink_sim *s, double t)
{
    /* after a re-initialisation at t there is no history: the state it restarted from; at the
       start of the last step, the previous step's end as the integrator took it */
    const double *yi = s->loop.at_reinit ? s->loop.yroot : s->in->y;
    int kept = !s->loop.at_reinit && s->loop.nstep == 2 && s->loop.gen == sim_step_gen(s) &&
               t == s->loop.tstep[0];
    if (kept)
        yi = s->loop.ystep[0];
    if (!s->loop.at_reinit && !kept) {
        int rc = s->in->ops->dense(s->in, t, 0);
        if (rc != 0) {
            char flag[64], when[OUTPUT_DOUBLE_MAX + 64];
            sim_msg(s, "%s's dense output at %s failed with %d (%s)", s->in->ops->name,
                    sim_when(t, when, sizeof when), rc,
                    s->in->ops->code_name(rc, flag, sizeof flag));
            return CLINK_ERR_INTERNAL;
        }
    }
    if (s->sys->win) /* the awake components only (sim_window.c) */
        return sim_window_output(s, yi);
    /* the full state, in yh unless it is the integrator's itself */
    double *y = s->yh;
    const double *yf = system_full(s->sys, yi, s->yh);
    if (yf != y)
        memcpy(y, yf, (size_t) s->sys->N * sizeof(double));
    if (s->set.drift == CLINK_DRIFT_PROJECTION && s->sys->nc > 0) {
        clink_status st = system_audit_project(s->sys, t, y);
        if (st != CLINK_OK) {
            char when[OUTPUT_DOUBLE_MAX + 64];
            sim_msg(s, "output at %s: %s", sim_when(t, when, sizeof when), dyn_error(s->sys->dyn));
            return st;
        }
    }
    for (int i = 0; i < s->sys->N; i++)
        if (!isfinite(y[i])) {
            char when[OUTPUT_DOUBLE_MAX + 64];
            sim_msg(s, "non-finite state (component %d) at %s", i, sim_when(t, when, sizeof when));
            return CLINK_ERR_NONFINITE;
        }
    memcpy(s->out.y, y, (size_t) s->sys->N * sizeof(double));
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
    const double *y = s->out.y;
    clink_status st = contacts_info(s->sys->sc, k, y, y + s->sys->nq, &s->out.info[k]);
    if (st != CLINK_OK) {
        char when[OUTPUT_DOUBLE_MAX + 64];
        sim_msg(s, "contact '%s' (contact %d): no geometry at %s", contacts_name(s->sys->sc, k), k,
                sim_when(t, when, sizeof when));
    }
    return st;
}

/* the information of every contact at the output state (*every set), or of those listed
   (clink_sim_set_output_contacts): out_partial and out_has say which */
static clink_status sim_settle_contacts(clink_sim *s, double t, int *every)
{
    *every = 0;
    s->lv.partial = s->lv.some;
    const int *wl = NULL;
    int nw = s->lv.some ? -1 : sim_window_info_contacts(s, &wl);
    for (int j = 0; j < nw; j++) { /* the window's: the others' are as computed before */
        clink_status st = sim_settle_info(s, t, wl[j]);
        if (st != CLINK_OK)
            return st;
    }
    if (nw >= 0)
        return CLINK_OK;
    if (!s->lv.some) {
        for (int k = 0; k < s->sys->ncon; k++) {
            clink_status st = sim_settle_info(s, t, k);
            if (st != CLINK_OK)
                return st;
        }
        *every = 1;
        return CLINK_OK;
    }
    memset(s->lv.has, 0, (size_t) s->sys->ncon);
    for (int i = 0; i < s->lv.nlist; i++) {
        int k = s->lv.list[i];
        clink_status st = sim_settle_info(s, t, k);
        if (st != CLINK_OK)
            return st;
        s->lv.has[k] = 1;
    }
    return CLINK_OK;
}

/* everything the getters report (CLINK_OUTPUT_ALL) */
static clink_status sim_settle_all(clink_sim *s, double t)
{
    int nq = s->sys->nq;
    const double *y = s->out.y;
    system_friction_load(s->sys, y);
    clink_status st = dyn_accelerations(s->sys->dyn, t, y, y + nq, s->out.qdd, s->sys->lambda);
    if (st != CLINK_OK) {
        if (s->sys->ncon && contacts_take_failure(s->sys->sc)) {
            sim_msg(s, "%s", contacts_error(s->sys->sc));
            return CLINK_ERR_NONFINITE;
        }
        char when[OUTPUT_DOUBLE_MAX + 64];
        sim_msg(s, "%s at the output %s", dyn_error(s->sys->dyn), sim_when(t, when, sizeof when));
        return st;
    }
    /* the stored energies alone: the work of the loads and drivers is integrated (y) */
    dyn_energy de;
    dyn_stored_energies(s->sys->dyn, y, y + nq, &de);
    clink_energy *e = &s->out.energy;
    e->kinetic = de.kinetic;
    e->gravity = de.gravity;
    e->spring = de.spring;
    e->work_drivers = y[2 * nq];
    e->work_loads = y[2 * nq + 1];
    e->work_stabilisation = system_audit_work(s->sys, y);
    e->contact_stored = e->contact_damping = e->contact_friction = 0.0;
    /* Phi, Phi_q and nu of the accelerations above (dyn_stored_energies evaluates none) */
    dyn_violation_last(s->sys->dyn, y + nq, &s->out.viol_pos, &s->out.viol_vel);
    /* each contact's information (it depends on the state alone), then the stored energy from
       its penetrations when every contact's was computed (the geometry evaluated once) */
    int every = 0;
    st = sim_settle_contacts(s, t, &every);
    if (st != CLINK_OK)
        return st;
    if (s->sys->ncon) {
        e->contact_stored = every ? contacts_stored_energy_at(s->sys->sc, y, s->out.info)
                                  : contacts_stored_energy(s->sys->sc, y, y + nq);
        for (int k = 0; k < s->sys->ncon; k++) {
            double wd, wf;
            contacts_work(s->sys->sc, k, y + 2 * nq + 2, &wd, &wf);
            e->contact_damping += wd + contacts_booked(s->sys->sc, k);
            e->contact_friction += wf;
        }
    }
    e->balance = sim_total_energy(e) - s->out.e0;
    return CLINK_OK;
}

/*
 * The output state is y at t (q and v are there already): what the level asks for on top.
 * Below CLINK_OUTPUT_ALL no saddle-point solve is made at the output; the right-hand sides
 * the integrator evaluates are unaffected (the contacts' caches are bit-exact, so skipping the
 * output's force evaluation changes no later result).
 */
clink_status sim_settle_output(clink_sim *s, double t)
{
    clink_output_level level = s->lv.level ? s->lv.level : CLINK_OUTPUT_ALL;
    s->t = t;
    s->lv.done = CLINK_OUTPUT_STATE;
    s->lv.partial = 0;
    clink_status st = CLINK_OK;
    if (level == CLINK_OUTPUT_ALL)
        st = sim_settle_all(s, t);
    else if (level == CLINK_OUTPUT_CONTACTS)
        st = sim_settle_contacts(s, t, &(int){0});
    if (st == CLINK_OK)
        s->lv.done = level;
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
    if (s->loop.tstop_set && t > s->loop.t_stop) {
        sim_msg(s, "advance: target time %.9g s is beyond the stop time %.9g s", t, s->loop.t_stop);
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

/* the integrator forward until its time covers t, every root up to t handled; one_step:
   return after one call of its step (a step, the rest of a root's step, or a root;
   sim_output.c) */
clink_status sim_integrate_to(clink_sim *s, double t, int one_step)
{
    int nq = s->sys->nq;
    for (;;) {
        if (s->loop.root_pending) {
            if (s->loop.t_root > t)
                return CLINK_OK; /* after t: the next advance handles it */
            clink_status st = sim_handle_root(s);
            if (st != CLINK_OK)
                return st;
            continue;
        }
        double tn = 0.0;
        if (s->in->ops->now(s->in, &tn, NULL) != 0)
            return CLINK_ERR_INTERNAL;
        if ((tn >= t || (s->loop.at_tstop && t <= s->loop.t_stop)) && !s->loop.recheck)
            return CLINK_OK;
        if (s->sys->win && !s->loop.recheck) { /* the window before a step (sim_window.c) */
            clink_status st = sim_window_look(s, tn);
            if (st != CLINK_OK)
                return st;
        }
        if (s->aut.on && !s->loop.recheck) { /* auto's method switch (sim_auto.c) */
            clink_status st = sim_auto_watch(s, tn);
            if (st != CLINK_OK)
                return st;
        }
        /* the integrator sizes its first step after a start or a re-initialisation from the
           distance to tout (at most a tenth of it): a fixed SIM_HORIZON, neither the time
           asked for nor the output step, so that outputs do not steer the integration, and
           the first step stays short enough not to carry a body through a contact it has not
           seen */
        double horizon = tn + SIM_HORIZON;
        if (s->loop.tstop_set && horizon > s->loop.t_stop)
            horizon = s->loop.t_stop;
        double tret = tn;
        int rc = s->in->ops->step(s->in, horizon, &tret);
        if (s->sys->fatal) {
            /* the host's user force failed: stop even where the integrator retried */
            sim_msg(s, "%s stopped at t = %.9g s: %s", s->in->ops->name, tret, s->sys->cb_msg);
            return s->sys->fail;
        }
        if (rc < 0)
            return sim_integrator_failed(s, rc, tret);
        s->loop.at_reinit = 0;
        if (s->sec) { /* Poincare sections on the dense output (sim_section.c) */
            clink_status st = sim_section_check(s, tret);
            if (st != CLINK_OK)
                return st;
        }
        if (rc == INTEG_ROOT) {
            clink_status st = sim_take_root(s, tret);
            if (st != CLINK_OK || one_step)
                return st;
            continue;
        }
        s->loop.recheck = 0;
        sim_keep_step(s, tret, rc);
        if (rc == INTEG_TSTOP)
            s->loop.at_tstop = 1; /* at t_stop (to the integrator's rounding), no further */
        if (s->sys->win) {        /* the window's contacts only */
            const double *yy = system_full_x(s->sys, s->in->y);
            contacts_after_step_some(s->sys->sc, s->sys->win->con, s->sys->win->ncw, yy, yy + nq);
        } else if (s->sys->ncon) {
            const double *yy = system_full(s->sys, s->in->y, s->yh);
            contacts_after_step(s->sys->sc, tret, yy, yy + nq);
        }
        clink_status st = sim_check_progress(s, tret);
        if (st != CLINK_OK)
            return st;
        s->sys->root_calls = 0; /* a completed step */
        if (one_step)
            return CLINK_OK;
    }
}

clink_status clink_sim_advance(clink_sim *s, double t)
{
    if (!s)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(s, SIM_OP_ADVANCE);
    if (st != CLINK_OK)
        return st;
    st = sim_advance_to(s, t);
    sim_leave(s);
    return st;
}

clink_status sim_advance_to(clink_sim *s, double t)
{
    clink_status st = sim_check_target(s, t);
    if (st != CLINK_OK)
        return st;
    sim_advance_begin(s);
    if (s->inp.changed)
        st = sim_inputs_restart(s); /* an input changed at s->t: a discontinuity */
    if (st == CLINK_OK)
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
    sim_inputs_output(s);
    return CLINK_OK;
}

/* clink_sim_set_stop_time, the simulation held */
static clink_status sim_set_stop_time(clink_sim *s, double t_stop)
{
    double tn = 0.0;
    if (s->in->ops->now(s->in, &tn, NULL) != 0)
        return CLINK_ERR_INTERNAL;
    if (!isfinite(t_stop) || !(t_stop >= tn) || !(t_stop >= s->t)) {
        sim_msg(s, "stop time %.9g s: must be finite and not before %s's time %.9g s", t_stop,
                s->in->ops->name, tn);
        return CLINK_ERR_ARG;
    }
    int rc = s->in->ops->set_stop_time(s->in, t_stop);
    if (rc != 0) {
        char flag[64];
        sim_msg(s, "%s: setting the stop time %.9g failed with %d (%s)", s->in->ops->name, t_stop,
                rc, s->in->ops->code_name(rc, flag, sizeof flag));
        return CLINK_ERR_SOLVER;
    }
    s->loop.tstop_set = 1;
    s->loop.t_stop = t_stop;
    s->loop.at_tstop = 0;
    return CLINK_OK;
}

clink_status clink_sim_set_stop_time(clink_sim *s, double t_stop)
{
    if (!s)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(s, SIM_OP_STOP_TIME);
    if (st != CLINK_OK)
        return st;
    st = sim_set_stop_time(s, t_stop);
    sim_leave(s);
    return st;
}
