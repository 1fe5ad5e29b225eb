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
 * does not become every step. In CLINK_ROWS_EVENTS each step or interpolated row
 * time is first probed (sim_output_fn_at: the normal forces of the impacts in
 * progress on the dense output, one interpolation, no projection, no accelerations)
 * and the row passed over without its output state, which on a long chain with some
 * impact always in progress cost more than the integration, unless the probes show a
 * force peak: the row before, passed over, had a force that rose into it and is no
 * higher now (that row is then computed after all, in order, while the integrator's
 * last step still covers it, else this one, the nearest after the peak), or the
 * force still rises here but ever more slowly, its rate extrapolated over one more
 * spacing reaching zero (this row). The walk tracks the last row's time itself
 * (`at`), so that the row times do not depend on which rows were computed. An
 * output at the start of the integrator's last step is the state the step before
 * ended with (sim_advance.c), so that a row caught up there has the bits it has
 * where it is computed at once. The recorder keeps the step and interpolated rows of
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

#include <float.h>
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

/* nonzero when t lies in the integrator's last step [tn - h, tn], where its dense output holds
   (to within CVODE's own fuzz on tn - h, halved), and no re-initialisation has emptied it */
static int sim_output_in_step(const clink_sim *s, double t, double *tn)
{
    double h = 0.0;
    *tn = NAN;
    if (s->loop.at_reinit || s->in->ops->now(s->in, tn, &h) != 0 || !(h > 0.0))
        return 0;
    return t <= *tn && t >= *tn - h - 50.0 * DBL_EPSILON * (fabs(*tn) + h);
}

/* the normal forces of the impacts in progress (onset set) on the dense output at t, before
   any projection, in fn (NaN elsewhere); -1 when the state there cannot be had (after a
   re-initialisation, or t outside the integrator's last step) */
static int sim_output_fn_at(clink_sim *s, double t, const double *onset, double *fn)
{
    double tn;
    if (!sim_output_in_step(s, t, &tn) || s->in->ops->dense(s->in, t, 0) != 0)
        return -1;
    const double *y = system_full(s->sys, s->in->y, s->yh);
    if (t == tn)
        s->loop.end_probed = 1;
    for (int k = 0; k < s->sys->ncon; k++) {
        fn[k] = NAN;
        if (!isnan(onset[k]) &&
            contacts_info_fn(s->sys->sc, k, y, y + s->sys->nq, t == tn, &fn[k]) != CLINK_OK)
            return -1;
    }
    return 0;
}

/* the walk's memory of the rows it passed: the forces of the impacts in progress at the last
   row (fa, at time t1) and the row before it (fb), in onset + ncon and onset + 2 ncon; the
   last row's time, kind and whether its output state was computed */
typedef struct sim_walk {
    double *fa, *fb, *fc; /* ncon each; fc: the probe's scratch */
    double t0, t1;        /* the times of fb and fa */
    clink_row_kind k1;
    int c1; /* 1: the row at t1 was computed (or is none to compute) */
} sim_walk;

/* the last row's forces moved back, fc becoming the last */
static void sim_output_shift(const clink_sim *s, sim_walk *w, const double *fc)
{
    for (int k = 0; k < s->sys->ncon; k++) {
        w->fb[k] = w->fa[k];
        w->fa[k] = fc[k];
    }
}

/* the forces of a computed row (the output state's) as the last row's; an impact that is not
   in progress forgets its forces */
static void sim_output_seen(const clink_sim *s, sim_walk *w, const double *onset)
{
    for (int k = 0; k < s->sys->ncon; k++) {
        int in = !isnan(onset[k]);
        w->fb[k] = in ? w->fa[k] : NAN;
        w->fa[k] = in ? s->out.info[k].fn : NAN;
    }
    w->t0 = w->t1;
    w->t1 = s->t;
    w->c1 = 1;
}

/* nonzero when the last row, passed over, holds a sampled force peak: some impact's force rose
   into it (or was not known before it) and is no higher at the probed time (fc) */
static int sim_output_peak_behind(const clink_sim *s, const sim_walk *w, const double *fc)
{
    if (w->c1)
        return 0;
    for (int k = 0; k < s->sys->ncon; k++)
        if (w->fa[k] > 0.0 && !(w->fb[k] >= w->fa[k]) && fc[k] <= w->fa[k])
            return 1;
    return 0;
}

/* nonzero when some impact's force, still rising at t (fc above the last row's), rises ever
   more slowly, so that its rate extrapolated linearly from the last two spacings would reach
   zero within one more: the peak is near, and t may be the last row before it that the dense
   output still holds */
static int sim_output_peak_ahead(const clink_sim *s, const sim_walk *w, double t, const double *fc)
{
    double d1 = w->t1 - w->t0, d2 = t - w->t1;
    if (!(d1 > 0.0 && d2 > 0.0))
        return 0;
    for (int k = 0; k < s->sys->ncon; k++) {
        double s1 = (w->fa[k] - w->fb[k]) / d1, s2 = (fc[k] - w->fa[k]) / d2;
        if (s1 > 0.0 && s2 > 0.0 && s2 + (s2 - s1) * d2 / d1 <= 0.0)
            return 1;
    }
    return 0;
}

/* the output state at the last row, passed over, computed and handed to row after all: 1 (or
   a failure's status < 0... as *st); 0 when the row lies before the integrator's last step,
   where its dense output no longer holds (the integrator took steps too short for rows of
   their own since) */
static int sim_output_catch_up(clink_sim *s, sim_walk *w, sim_row_fn row, void *data,
                               clink_status *st)
{
    w->c1 = 1;
    *st = CLINK_OK;
    double tn;
    if (!sim_output_in_step(s, w->t1, &tn) || !(w->t1 > s->t))
        return 0;
    *st = sim_advance_to(s, w->t1);
    if (*st == CLINK_OK)
        *st = row(data, s, w->k1);
    return 1;
}

/*
 * A step or interpolated row at t (kind), probed: its forces on the dense output decide
 * whether the row before it, passed over, was a sampled force peak (then computed now, in
 * order); this row is passed over in turn. A row that cannot be probed is computed.
 */
static clink_status sim_output_candidate(clink_sim *s, sim_walk *w, double t, clink_row_kind kind,
                                         double *onset, sim_row_fn row, void *data)
{
    clink_status st = CLINK_OK;
    int probed = sim_output_fn_at(s, t, onset, w->fc) == 0;
    /* a peak behind that cannot be had any more: this row, the nearest after it, instead */
    int behind = probed && sim_output_peak_behind(s, w, w->fc);
    if (!probed || (behind && !sim_output_catch_up(s, w, row, data, &st)) ||
        (!behind && sim_output_peak_ahead(s, w, t, w->fc))) {
        st = sim_advance_to(s, t);
        if (st == CLINK_OK)
            st = row(data, s, kind);
        if (st == CLINK_OK)
            sim_output_seen(s, w, onset);
        return st;
    }
    /* (the catch-up's interpolation leaves fc, a copy, as it is) */
    sim_output_shift(s, w, w->fc);
    w->t0 = w->t1;
    w->t1 = t;
    w->k1 = kind;
    w->c1 = 0;
    return st;
}

/* before a grid or event row at t: the row passed over before it computed if it was a peak */
static clink_status sim_output_before_sure(clink_sim *s, sim_walk *w, double t, const double *onset,
                                           sim_row_fn row, void *data)
{
    clink_status st = CLINK_OK;
    if (!w->c1 && sim_output_fn_at(s, t, onset, w->fc) == 0 && sim_output_peak_behind(s, w, w->fc))
        (void) sim_output_catch_up(s, w, row, data, &st); /* else this row is the nearest */
    return st;
}

/* the interpolated rows strictly between the last row's time *at and b, each a candidate */
static clink_status sim_output_dense(clink_sim *s, sim_walk *w, double *at, double b, int dense,
                                     double *onset, sim_row_fn row, void *data)
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
        clink_status st = sim_output_candidate(s, w, ti, CLINK_ROW_DENSE, onset, row, data);
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
    int n = s->sys->ncon;
    sim_walk w = {onset + n, onset + 2 * n, onset + 3 * n, NAN, s->t, CLINK_ROW_GRID, 1};
    sim_output_seen(s, &w, onset);
    double at = s->t; /* the time of the last row, computed or passed over */
    for (;;) {
        double next = t;
        clink_row_kind kind = CLINK_ROW_GRID;
        clink_status st;
        int r = sim_output_next(s, at, t, mode, onset, &next, &kind);
        if (r < 0)
            return CLINK_ERR_INTERNAL;
        if (r == 0) {
            /* the geometry of this step's end kept for its probe when the last step's end was
               probed (through an impact every step's end is: the rows' pace) */
            if (s->sys->ncon)
                contacts_keep_end(s->sys->sc, s->loop.end_probed);
            s->loop.end_probed = 0;
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
        int events = mode == CLINK_ROWS_EVENTS;
        if (events && dense > 0 && sim_output_in_impact(s, onset)) {
            st = sim_output_dense(s, &w, &at, next, dense, onset, row, data);
            if (st != CLINK_OK)
                return st;
        }
        at = next;
        if (events && kind == CLINK_ROW_STEP) { /* a candidate: computed if a peak */
            st = sim_output_candidate(s, &w, next, kind, onset, row, data);
            if (st != CLINK_OK)
                return st;
            continue;
        }
        st = events ? sim_output_before_sure(s, &w, next, onset, row, data) : CLINK_OK;
        if (st == CLINK_OK)
            st = sim_advance_to(s, next);
        if (st == CLINK_OK && kind != CLINK_ROW_STEP)
            sim_output_track(s, onset); /* a root may lie at or before the grid time */
        if (st == CLINK_OK)
            st = row(data, s, kind);
        if (st != CLINK_OK || kind == CLINK_ROW_GRID)
            return st;
        sim_output_seen(s, &w, onset);
    }
}

int sim_output_bodies(const clink_sim *s, int acc, double *p)
{
    int nq = s->sys->nq, nb = s->m->d.nbodies;
    const double *y = s->out.y, *a = s->out.qdd;
    double *p0 = p;
    if (acc && s->lv.done < CLINK_OUTPUT_ALL)
        return -1;
    for (int c = 0; c + 3 <= 3 * (nb - 1); c += 3) {
        for (int k = 0; k < 3; k++)
            *p++ = y[c + k];
        for (int k = 0; k < 3; k++)
            *p++ = y[nq + c + k];
        for (int k = 0; acc && k < 3; k++)
            *p++ = a[c + k];
    }
    return (int) (p - p0);
}

clink_status sim_output_walk(clink_sim *s, double t, clink_output_rows mode, int dense,
                             double *onset, sim_row_fn row, void *data)
{
    clink_status st = sim_enter(s, SIM_OP_RECORDER);
    if (st != CLINK_OK)
        return st;
    st = sim_output_walk_held(s, t, mode, dense, onset, row, data);
    if (s->sys->ncon) /* a step outside the walk is never probed */
        contacts_keep_end(s->sys->sc, 0);
    sim_leave(s);
    return st;
}
