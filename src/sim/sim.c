/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim.c: the lifecycle of a simulation (include/clink/sim.h): the mechanism as a
 * system (src/system: state, right-hand side, Jacobian, projection, root functions,
 * energy audit), the integrator chosen by the settings' method (src/integrators,
 * behind the ops table of integrator.h) and the problem that joins them: the
 * system's functions on plain arrays, behind the callbacks of integ_problem.
 *
 * The integrator's state is the system's reduced one (Nr components: the
 * coordinates that cannot change left out, system_state.c); the first nr are
 * positions, the next nr their rates, the rest the energies (works, dissipation, the
 * audit). Drift control: projection (the problem's project callback; with CVODE,
 * BDF only) or Baumgarte in the right-hand side (dyn_set_baumgarte). Events: two
 * root functions per contact (contacts.c), located by the integrator.
 * Stepping, roots, dense output: sim_advance.c; getters: sim_get.c.
 *
 * A simulation in use: the calls that change it take it by an atomic compare-exchange
 * of its busy flag (sim_enter) and give it back at exit (sim_leave); a call that finds
 * it taken (from the impact callback of the call that holds it, or from another
 * thread) is refused with CLINK_ERR_STATE and its message kept per thread.
 */
#include "sim/sim_auto.h"
#include "sim/sim_internal.h"
#include "sim/sim_jac.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_msg(clink_sim *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
}

/* ---- a simulation in use ---------------------------------------------------- */

/* the calls of sim_op, by name */
static const char *const sim_op_names[] = {"no call",
                                           "clink_sim_advance",
                                           "clink_sim_destroy",
                                           "clink_sim_set_stop_time",
                                           "clink_sim_set_outputs",
                                           "clink_sim_set_output_contacts",
                                           "clink_sim_set_impact_callback",
                                           "clink_recorder_advance",
                                           "sim_use_fd_jacobian",
                                           "clink_sim_set_input",
                                           "clink_sim_state_save or _restore"};

static atomic_ulong sim_serials; /* simulations created so far */

/* this thread's last refusal: the simulation (and its serial, for an address reused
   after a destroy) and the message */
static _Thread_local const clink_sim *sim_refused;
static _Thread_local unsigned long sim_refused_serial;
static _Thread_local char sim_refused_msg[320];

static const char *sim_op_name(int op)
{
    int n = (int) (sizeof sim_op_names / sizeof sim_op_names[0]);
    return op >= 0 && op < n ? sim_op_names[op] : "an unknown call";
}

clink_status sim_enter(clink_sim *s, sim_op op)
{
    int holder = 0;
    if (atomic_compare_exchange_strong(&s->busy, &holder, (int) op)) {
        if (sim_refused == s)
            sim_refused = NULL;
        return CLINK_OK;
    }
    snprintf(sim_refused_msg, sizeof sim_refused_msg,
             "%s called while the simulation is in use by %s (from its own impact callback "
             "or another thread): refused, nothing changed; call it after %s returns",
             sim_op_name((int) op), sim_op_name(holder), sim_op_name(holder));
    sim_refused = s;
    sim_refused_serial = s->serial;
    return CLINK_ERR_STATE;
}

void sim_leave(clink_sim *s)
{
    /* a refusal from inside this call (its callback) is over with it */
    if (sim_refused == s)
        sim_refused = NULL;
    atomic_store(&s->busy, 0);
}

const char *sim_refusal(const clink_sim *s)
{
    return s && sim_refused == s && sim_refused_serial == s->serial ? sim_refused_msg : NULL;
}

void sim_use_fd_jacobian(clink_sim *s, int on)
{
    if (s && sim_enter(s, SIM_OP_FD_JACOBIAN) == CLINK_OK) {
        s->sys->jac_fd = on != 0;
        sim_leave(s);
    }
}

/* ---- the problem the integrator is given: the system's functions ---------- */

static int sim_p_rhs(void *data, double t, const double *y, double *yd)
{
    return system_rhs(data, t, y, yd);
}

static void sim_p_weights(void *data, const double *y, double *w)
{
    system_weights(data, y, w);
}

static int sim_p_jacobian(void *data, double t, double *y, const double *fy, double *tmp,
                          double *vals, const long *start)
{
    return system_jacobian(data, t, y, fy, tmp, vals, start);
}

static const long *sim_p_jacobian_pattern(void *data, const int **rows, long *version)
{
    return system_jacobian_pattern(data, rows, version);
}

static void sim_p_jacobian_diagonal(void *data, double *diag)
{
    system_jacobian_diagonal(data, diag);
}

static const long *sim_p_jacobian_tail_pattern(void *data, const int **rows)
{
    return system_jacobian_tail_pattern(data, rows);
}

static int sim_p_jacobian_tail(void *data, double t, double *y, const double *fy, double *tmp,
                               double *vals)
{
    return system_jacobian_tail(data, t, y, fy, tmp, vals);
}

static int sim_p_project(void *data, double t, const double *y, double *corr, double *err)
{
    return system_project(data, t, y, corr, err);
}

static void sim_p_directions(void *data, int *dirs)
{
    system_root_directions(data, dirs);
}

static int sim_p_events(void *data, double t, const double *y, double *g)
{
    return system_roots_all(data, t, y, g);
}

static void sim_p_events_load(void *data, const double *y)
{
    system_roots_load(data, y);
}

static int sim_p_event_inputs(void *data, const int *groups, int n, int *pairs)
{
    return system_roots_inputs(data, groups, n, pairs);
}

static int sim_p_events_some(void *data, double t, const int *groups, int n, double *g)
{
    return system_roots_some(data, t, groups, n, g);
}

/* the system as the integrator's problem; projection when the drift control says so */
integ_problem sim_problem(clink_sim *s)
{
    mechsys *sys = s->sys;
    integ_problem p = {.data = sys, .n = sys->Nr, .npos = sys->nr};
    p.rhs = sim_p_rhs;
    p.weights = sim_p_weights;
    p.jacobian = sim_p_jacobian;
    p.jacobian_pattern = sim_p_jacobian_pattern;
    p.jacobian_diagonal = sys->nfz ? sim_p_jacobian_diagonal : NULL;
    p.jacobian_tail_pattern = sys->nfz ? sim_p_jacobian_tail_pattern : NULL;
    p.jacobian_tail = sys->nfz ? sim_p_jacobian_tail : NULL;
    p.project = s->set.drift == CLINK_DRIFT_PROJECTION ? sim_p_project : NULL;
    p.newton = sim_newton(s); /* the saddle Newton solve, when it pays (sim_newton.c) */
    if (sys->ncon) {
        p.nevents = 2 * sys->ncon;
        p.rough_events = 1;
        p.event_directions = sim_p_directions;
        p.events = sim_p_events;
        p.events_load = sim_p_events_load;
        p.event_inputs = sim_p_event_inputs;
        p.event_inputs_max = 18; /* 3 bodies (a beam segment's) x 3 coordinates x (q, v) */
        p.events_some = sim_p_events_some;
        p.event_state = sys->rt_y;
    }
    sim_window_problem(s, &p); /* with the window: its contacts' events only */
    return p;
}

integ_config sim_config(const clink_sim *s)
{
    integ_config c = {.method = s->set.method,
                      .rtol = s->set.rtol,
                      .atol = s->set.atol,
                      .max_step = s->set.max_step,
                      .min_step = s->set.min_step,
                      .step = s->set.max_step,
                      .watch = s->aut.on};
    return c;
}

void clink_sim_window_get(const clink_sim *s, clink_window_stats *stats)
{
    if (stats)
        sim_window_get(s, stats);
}

/* ---- lifecycle ------------------------------------------------------------ */

void clink_sim_destroy(clink_sim **sim)
{
    if (!sim || !*sim)
        return;
    clink_sim *s = *sim;
    if (sim_enter(s, SIM_OP_DESTROY) != CLINK_OK)
        return; /* in use: left alone, *sim kept, clink_sim_error(*sim) says why */
    if (s->in)
        s->in->ops->destroy(s->in);
    sim_inputs_destroy(s);
    sim_window_free(s);
    sim_section_free(s);
    system_destroy(&s->sys);
    free(s->out.y);
    free(s->out.qdd);
    free(s->out.info);
    free(s->yh);
    free(s->loop.yroot);
    free(s->loop.roots_found);
    free(s->chk.pen_level);
    free(s->lv.list);
    free(s->lv.has);
    free(s);
    *sim = NULL;
}

/* the settings a simulation cannot run with */
static clink_status sim_check_settings(clink_sim *s)
{
    const clink_settings_def *c = &s->set;
    unsigned caps = integrator_caps(c->method);
    char words[128];
    if (!integrator_for(c->method)) {
        sim_msg(s, "settings: method %d has no integrator (%s)", (int) c->method,
                integrator_methods_with(0, words, sizeof words));
        return CLINK_ERR_ARG;
    }
    if (c->drift == CLINK_DRIFT_PROJECTION && !(caps & CLINK_CAP_PROJECTION)) {
        sim_msg(s,
                "settings: drift projection needs a method that projects (%s); %s does not: "
                "use baumgarte with it",
                integrator_methods_with(CLINK_CAP_PROJECTION, words, sizeof words),
                clink_method_name(c->method));
        return CLINK_ERR_ARG;
    }
    if ((caps & CLINK_CAP_FIXED_STEP) && !(c->max_step > 0.0)) {
        sim_msg(s, "settings: method %s needs its fixed step as max_step > 0 (got %g s)",
                clink_method_name(c->method), c->max_step);
        return CLINK_ERR_RANGE;
    }
    if (!(c->rtol > 0.0 && c->rtol < 1.0) || !(c->atol > 0.0) || !isfinite(c->atol) ||
        !(c->max_step >= 0.0) || !(c->settle_speed > 0.0) || !isfinite(c->settle_speed)) {
        sim_msg(s,
                "settings: rtol %g must be in (0, 1), atol %g and settle_speed %g m/s finite and "
                "> 0, max_step %g >= 0",
                c->rtol, c->atol, c->settle_speed, c->max_step);
        return CLINK_ERR_RANGE;
    }
    if ((int) c->contact_bookkeeping < 0 || c->contact_bookkeeping > CLINK_BOOKKEEPING_HYSTERESIS) {
        sim_msg(s, "settings: contact_bookkeeping %d must be 0..1", (int) c->contact_bookkeeping);
        return CLINK_ERR_RANGE;
    }
    if (!(c->max_steps >= 1.0) || !(c->min_step >= 0.0) || !isfinite(c->min_step) ||
        !(c->wall_limit >= 0.0) || !isfinite(c->wall_limit)) {
        sim_msg(s, "settings: max_steps %g must be >= 1, min_step %g s and wall_limit %g s >= 0",
                c->max_steps, c->min_step, c->wall_limit);
        return CLINK_ERR_RANGE;
    }
    if (c->max_step > 0.0 && isfinite(c->t_end) && c->t_end / c->max_step > c->max_steps) {
        sim_msg(s,
                "settings: t_end %g s needs at least %.3g steps of max_step %g s, more than "
                "max_steps %.3g: raise max_step or max_steps",
                c->t_end, c->t_end / c->max_step, c->max_step, c->max_steps);
        return CLINK_ERR_RANGE;
    }
    return CLINK_OK;
}

/* the system and the driver's arrays */
static clink_status sim_allocate(clink_sim *s)
{
    clink_status st;
    s->sys = system_create(s->m, &s->set, &st, s->msg, sizeof s->msg);
    if (!s->sys)
        return st;
    size_t nq1 = (size_t) (s->sys->nq > 0 ? s->sys->nq : 1);
    size_t ncon1 = (size_t) (s->sys->ncon > 0 ? s->sys->ncon : 1);
    s->out.y = calloc((size_t) s->sys->N, sizeof(double));
    s->out.qdd = calloc(nq1, sizeof(double));
    s->out.info = calloc(ncon1, sizeof *s->out.info);
    s->yh = calloc((size_t) s->sys->N, sizeof(double));
    s->loop.yroot = calloc(3 * (size_t) s->sys->Nr, sizeof(double)); /* and loop.ystep */
    for (int i = 0; i < 2 && s->loop.yroot; i++)
        s->loop.ystep[i] = s->loop.yroot + (size_t) (i + 1) * (size_t) s->sys->Nr;
    s->loop.roots_found = calloc(2 * ncon1, sizeof(int));
    s->chk.pen_level = calloc(ncon1, 1);
    if (!s->out.y || !s->out.qdd || !s->out.info || !s->yh || !s->loop.yroot ||
        !s->loop.roots_found || !s->chk.pen_level) {
        sim_msg(s, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    return CLINK_OK;
}

/* the initial state (projected, the contacts' phases) and the integrator started there */
static clink_status sim_start(clink_sim *s)
{
    clink_status st = system_initial_state(s->sys, s->out.y);
    if (st != CLINK_OK) {
        sim_msg(s, "%s", s->sys->msg);
        return st;
    }
    sim_check_start(s, s->out.y);
    if ((st = sim_window_start(s)) != CLINK_OK)
        return st;
    const integ_ops *ops = integrator_for(s->set.method);
    integ_problem p = sim_problem(s);
    if (p.nevents > 0 && !(integrator_caps(s->set.method) & CLINK_CAP_EVENTS)) {
        char words[128];
        sim_msg(s,
                "settings: method %s has no event location: a model with contacts needs a "
                "method that has (%s)",
                clink_method_name(s->set.method),
                integrator_methods_with(CLINK_CAP_EVENTS, words, sizeof words));
        return CLINK_ERR_ARG;
    }
    sim_auto_start(s); /* may auto switch methods while running (sim_auto.c) */
    integ_config c = sim_config(s);
    system_reduce(s->sys, s->out.y, s->loop.yroot);
    s->in = ops->create(&p, &c, 0.0, s->loop.yroot, &st, s->msg, sizeof s->msg);
    return s->in ? CLINK_OK : st;
}

clink_status clink_sim_create(const clink_model *model, const clink_settings_def *settings,
                              clink_sim **sim, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!sim || !model) {
        if (err && errlen)
            snprintf(err, errlen, "clink_sim_create: NULL %s", sim ? "model" : "output pointer");
        if (sim)
            *sim = NULL;
        return CLINK_ERR_ARG;
    }
    *sim = NULL;
    clink_sim *s = calloc(1, sizeof *s);
    if (!s) {
        if (err && errlen)
            snprintf(err, errlen, "clink_sim_create: out of memory");
        return CLINK_ERR_NOMEM;
    }
    atomic_init(&s->busy, 0);
    s->serial = atomic_fetch_add(&sim_serials, 1ul) + 1ul;
    s->m = model;
    s->set = settings ? *settings : model->d.settings;
    s->aut.requested = s->set.method == CLINK_METHOD_AUTO;
    sim_auto_resolve(model, &s->set); /* CLINK_METHOD_AUTO, CLINK_DRIFT_AUTO */
    s->prog.wall_start = -1.0;
    clink_status st = sim_check_settings(s);
    if (st == CLINK_OK)
        st = sim_allocate(s);
    if (st == CLINK_OK)
        st = sim_inputs_create(s);
    if (st == CLINK_OK)
        st = sim_start(s);
    if (st == CLINK_OK && s->set.strict && s->chk.nfindings > 0) {
        /* at creation the only findings are the start's (CLINK_FINDING_ASSEMBLY) */
        sim_msg(s, "%s (refused: settings strict=\"true\")", s->chk.findings[0].message);
        st = CLINK_ERR_ASSEMBLY;
    }
    if (st == CLINK_OK)
        st = sim_settle_output(s, 0.0); /* the state is on the constraints already */
    if (st != CLINK_OK) {
        if (err && errlen)
            snprintf(err, errlen, "%s", s->msg);
        clink_sim_destroy(&s);
        return st;
    }
    s->out.e0 = sim_total_energy(&s->out.energy);
    s->out.energy.balance = 0.0;
    sim_check_output(s);
    sim_inputs_output(s);
    *sim = s;
    return CLINK_OK;
}
