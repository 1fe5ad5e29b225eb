/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_output.c: the rows of an output interval. Between the output state at s->t
 * and the next grid time t, the walk takes the integrator's steps one at a time
 * (sim_integrate_to with one_step) and stops the output state at the times worth a
 * row: every root (a contact event, after the state machine handled it), the end
 * of every step (CLINK_ROWS_STEPS, or CLINK_ROWS_EVENTS while an impact is in
 * progress) and, in an impact, `dense` equally spaced times inside each step piece.
 * Each such time is reached by clink_sim_advance, which interpolates the integrator's dense
 * output on the last step; no stop time is ever set and the integrator's
 * requested horizon does not depend on the output times, so the integrator takes
 * the same steps whatever rows are asked for.
 *
 * Rows in an impact are kept at least SIM_OUTPUT_MIN_SPACING output steps apart (at
 * most 256 per grid interval, events aside), so that a coarse grid over a long run
 * does not become every step. In CLINK_ROWS_EVENTS each row time is first probed
 * (sim_output_probe: the impacts' normal forces and their rates on the dense output,
 * no projection, no accelerations): a step or interpolated row away from any force
 * peak is passed over without its output state, which on a long chain with some
 * impact always in progress cost more than the integration; the walk then tracks
 * the last row's time itself (`at`), so that the row times do not depend on which
 * rows were computed. The recorder keeps the step and interpolated rows of
 * a grid interval only where they show a force peak that the grid and event rows
 * miss (output.c); an impact in progress is one whose onset is tracked here, at the
 * walk's start and at each event.
 *
 * Why the dense output is valid at every row: a step piece gets interpolated rows
 * only when an impact is in progress at its start, and then every step end is a
 * row, so the piece lies within the integrator's last step. Contact phases change only at
 * roots, and every root is a row, so "in progress at the last row" is exact.
 */
#include "sim/sim_output.h"

#include "sim/sim_internal.h"

#include <math.h>

/* rows in an impact are at least this fraction of the output step apart */
#define SIM_OUTPUT_MIN_SPACING (1.0 / 256.0)

/* contact k is in an impact (compression or restitution, not permanent) at the output state */
static int sim_output_impact_at(const clink_sim *s, int k)
{
    const clink_contact_info *c = &s->out.info[k];
    return !c->persistent &&
           (c->phase == CLINK_CONTACT_COMPRESSION || c->phase == CLINK_CONTACT_RESTITUTION);
}

/* the onset times of the impacts in progress at the output state (NaN: none); called where
   the phases may have changed (at the walk's start and at each event) */
static void sim_output_track(const clink_sim *s, double *onset)
{
    for (int k = 0; k < s->sys->ncon; k++) {
        if (!sim_output_impact_at(s, k))
            onset[k] = NAN;
        else if (isnan(onset[k]))
            onset[k] = s->t;
    }
}

/* nonzero when an impact is in progress at the output state: its steps deserve rows */
static int sim_output_in_impact(const clink_sim *s, const double *onset)
{
    for (int k = 0; k < s->sys->ncon; k++)
        if (!isnan(onset[k]))
            return 1;
    return 0;
}

/* the normal forces of the impacts in progress (onset set) on the dense output at t, in
   fn (NaN elsewhere); -1 when the state there cannot be had */
static int sim_output_fn_at(clink_sim *s, double t, const double *onset, double *fn)
{
    if (s->in->ops->dense(s->in, t, 0) != 0)
        return -1;
    const double *y = system_full(s->sys, s->in->y, s->yh);
    for (int k = 0; k < s->sys->ncon; k++) {
        clink_contact_info ci;
        fn[k] = NAN;
        if (!isnan(onset[k])) {
            if (contacts_info(s->sys->sc, k, y, y + s->sys->nq, &ci) != CLINK_OK)
                return -1;
            fn[k] = ci.fn;
        }
    }
    return 0;
}

/*
 * The cheap look at a row time t before its output state is computed: for each impact in
 * progress, the rate of its normal force at t (a backward difference over a thousandth of
 * the integrator's last step, on the dense output, before any projection). slope[k] gets it (NaN:
 * not in an impact, or no dense output). Returns nonzero when the row may sit at a force peak: some
 * impact's force has stopped rising since the last row (slope <= 0 where it was > 0 or unknown) or,
 * rising at a slowing rate, would stop within one more row spacing on a linear extrapolation of its
 * rate (2 slope - previous slope <= 0). Only such step and interpolated rows are worth their full
 * output state (sim_output_walk).
 */
static int sim_output_probe(clink_sim *s, double t, const double *onset, double *slope,
                            double *work)
{
    double tn = 0.0, h = 0.0;
    int peak = 0, n = s->sys->ncon, any = sim_output_in_impact(s, onset);
    int ok = !s->loop.at_reinit && s->in->ops->now(s->in, &tn, &h) == 0 && h > 0.0 && t <= tn &&
             t - 1e-3 * h >= tn - h;
    double eta = 1e-3 * h;
    /* no impact in progress: every slope is NaN whatever the state, which is not interpolated
       (such a probe is of a grid or event row, whose answer the walk does not ask for) */
    if (ok && any)
        ok = sim_output_fn_at(s, t, onset, work) == 0 &&
             sim_output_fn_at(s, t - eta, onset, work + n) == 0;
    for (int k = 0; k < n; k++) {
        double prev = slope[k], now = NAN;
        if (ok && any && work[k] > 0.0)
            now = (work[k] - work[n + k]) / eta;
        slope[k] = now;
        if (isnan(now))
            continue;
        if ((now <= 0.0 && !(prev <= 0.0)) || (now > 0.0 && prev > 0.0 && 2.0 * now <= prev))
            peak = 1;
    }
    return peak || !ok;
}

/* the interpolated rows strictly between the last row's time *at and b; those the probe finds
   away from any force peak are passed over (*at moves on all the same) */
static clink_status sim_output_dense(clink_sim *s, double *at, double b, int dense, double *onset,
                                     sim_row_fn row, void *data)
{
    /* within the integrator's last step [tn - h, tn], where its dense output holds */
    double tn = *at, h = 0.0;
    if (s->in->ops->now(s->in, &tn, &h) != 0)
        return CLINK_ERR_INTERNAL;
    double a = *at > tn - h ? *at : tn - h;
    while (dense > 0 &&
           (b - a) / (double) (dense + 1) < SIM_OUTPUT_MIN_SPACING * s->set.output_step)
        dense--;
    for (int i = 1; i <= dense; i++) {
        double ti = a + (b - a) * (double) i / (double) (dense + 1);
        if (!(ti > *at && ti < b && ti <= tn))
            continue;
        *at = ti;
        if (!sim_output_probe(s, ti, onset, onset + s->sys->ncon, onset + 2 * s->sys->ncon))
            continue;
        clink_status st = sim_advance_to(s, ti);
        if (st == CLINK_OK)
            st = row(data, s, CLINK_ROW_DENSE);
        if (st != CLINK_OK)
            return st;
    }
    return CLINK_OK;
}

/* the next time worth a row before t: *kind is set; 0 when the integrator must step first, -1 on
 * error */
static int sim_output_next(clink_sim *s, double at, double t, clink_output_rows mode,
                           const double *onset, double *next, clink_row_kind *kind)
{
    double tn = 0.0;
    if (s->loop.root_pending) {
        *next = s->loop.t_root < t ? s->loop.t_root : t;
        *kind = s->loop.t_root < t ? CLINK_ROW_EVENT : CLINK_ROW_GRID;
        return 1;
    }
    if (s->loop.recheck)
        return 0; /* the rest of a root's step first */
    if (s->in->ops->now(s->in, &tn, NULL) != 0)
        return -1;
    if (tn >= t || (s->loop.at_tstop && t <= s->loop.t_stop)) {
        *next = t;
        *kind = CLINK_ROW_GRID;
        return 1;
    }
    if (tn > at &&
        (mode == CLINK_ROWS_STEPS || (tn - at >= SIM_OUTPUT_MIN_SPACING * s->set.output_step &&
                                      sim_output_in_impact(s, onset)))) {
        *next = tn;
        *kind = CLINK_ROW_STEP;
        return 1;
    }
    return 0;
}

/* sim_output_walk, the simulation held */
static clink_status sim_output_walk_held(clink_sim *s, double t, clink_output_rows mode, int dense,
                                         double *onset, sim_row_fn row, void *data)
{
    if ((s->lv.level && s->lv.level != CLINK_OUTPUT_ALL) || s->lv.some ||
        s->lv.done != CLINK_OUTPUT_ALL || s->lv.partial) {
        sim_msg(s, "output rows need complete outputs, the current one included: "
                   "clink_sim_set_outputs(sim, CLINK_OUTPUT_ALL), "
                   "clink_sim_set_output_contacts(sim, NULL, 0) and an advance first");
        return CLINK_ERR_STATE;
    }
    if (mode == CLINK_ROWS_GRID || !(t > s->t) || !isfinite(t)) {
        /* the grid alone, or a target clink_sim_advance refuses with its message */
        clink_status st = sim_advance_to(s, t);
        return st == CLINK_OK ? row(data, s, CLINK_ROW_GRID) : st;
    }
    if (s->inp.changed) {
        /* an input changed at s->t: the restart sim_advance_to would make (sim_inputs.c) */
        clink_status st = sim_inputs_restart(s);
        if (st != CLINK_OK)
            return st;
    }
    sim_output_track(s, onset);
    double at = s->t; /* the time of the last row, computed or passed over */
    for (;;) {
        double next = t;
        clink_row_kind kind = CLINK_ROW_GRID;
        clink_status st;
        int r = sim_output_next(s, at, t, mode, onset, &next, &kind);
        if (r < 0)
            return CLINK_ERR_INTERNAL;
        if (r == 0) {
            sim_advance_begin(s);
            st = sim_integrate_to(s, t, 1);
            if (st != CLINK_OK)
                return st;
            continue;
        }
        if (!(next > at)) {
            /* a root at the output time itself: handled without a row of its own */
            sim_advance_begin(s);
            st = sim_integrate_to(s, at, 0);
            if (st != CLINK_OK)
                return st;
            continue;
        }
        if (mode == CLINK_ROWS_EVENTS && dense > 0 && sim_output_in_impact(s, onset)) {
            st = sim_output_dense(s, &at, next, dense, onset, row, data);
            if (st != CLINK_OK)
                return st;
        }
        at = next;
        if (mode == CLINK_ROWS_EVENTS &&
            !sim_output_probe(s, next, onset, onset + s->sys->ncon, onset + 2 * s->sys->ncon) &&
            kind == CLINK_ROW_STEP)
            continue; /* a step row away from any force peak: passed over */
        st = sim_advance_to(s, next);
        if (st == CLINK_OK && kind != CLINK_ROW_STEP)
            sim_output_track(s, onset); /* a root may lie at or before the grid time */
        if (st == CLINK_OK)
            st = row(data, s, kind);
        if (st != CLINK_OK || kind == CLINK_ROW_GRID)
            return st;
    }
}

clink_status sim_output_walk(clink_sim *s, double t, clink_output_rows mode, int dense,
                             double *onset, sim_row_fn row, void *data)
{
    clink_status st = sim_enter(s, SIM_OP_RECORDER);
    if (st != CLINK_OK)
        return st;
    st = sim_output_walk_held(s, t, mode, dense, onset, row, data);
    sim_leave(s);
    return st;
}
