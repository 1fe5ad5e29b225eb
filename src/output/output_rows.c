/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_rows.c: the rows of a run's time series. clink_recorder_advance lets the
 * simulation's walk (sim/sim_output.c) stop at the rows the options ask for; each row is
 * sampled from the simulation API (state, accelerations, joint reactions, driver forces,
 * contacts, energies, constraint violation) and handed to the format's writer with the
 * impacts recorded since the last row. The recorder keeps the maxima over the rows it
 * sampled (|Phi|, |Phi_q v - nu|, |energy balance|) for the summary.
 *
 * With CLINK_ROWS_EVENTS the rows of a grid interval wait in memory for its grid row; the
 * step and interpolated ones are written only when one of them shows a normal force above
 * the interval's grid and event rows by more than OUT_FN_TOLERANCE of its largest force (a
 * peak the other rows miss), the grid and event rows always. At most OUT_PEND_BYTES of rows
 * wait: beyond, those waiting are judged without the grid row (the memory of a run does not
 * grow with its grid interval). An event row's kind (onset,
 * end of compression, separation) is read from the change of the contacts' phases since
 * the last row.
 */
#include "output/output_recorder.h"
#include "sim/sim_output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CLINK_ROWS_EVENTS keeps the step and interpolated rows of a grid interval only when one of
   them shows a normal force above the rows kept anyway by more than this fraction of the
   interval's largest force (docs/outputs.md, "Rows") */
#define OUT_FN_TOLERANCE 2.5e-3
/* bytes of rows held waiting for their grid row at most (about: the buffer doubles up to
   half of it, then its rows are judged without the grid row) */
#define OUT_PEND_BYTES (8u << 20)

clink_status output_write_impacts(clink_recorder *r, const clink_sim *sim)
{
    char name[CLINK_NAME_MAX + 16];
    clink_impact_record rec;
    int n = clink_sim_impact_count(sim);

    for (; r->impacts_written < n; r->impacts_written++) {
        if (clink_sim_impact(sim, r->impacts_written, &rec) != CLINK_OK)
            break;
        output_contact_name(r, rec.contact, name, sizeof name);
        if (r->ops->impact(r->w, &rec, name, r->msg, sizeof r->msg) != 0)
            return CLINK_ERR_IO;
    }
    return CLINK_OK;
}

/* the columns of the bodies: position, velocity and (if asked) acceleration of each */
static clink_status sample_bodies(clink_recorder *r, const clink_sim *sim, double **p)
{
    int n = sim_output_bodies(sim, r->opt.accelerations, *p);
    if (n < 0)
        return CLINK_ERR_STATE;
    *p += n;
    return CLINK_OK;
}

/* the columns of the joint reactions and driver forces */
static clink_status sample_reactions(clink_recorder *r, const clink_sim *sim, double **p)
{
    double a[3];
    int i, k;
    clink_status st;

    for (i = 0; i < r->njoints; i++) {
        st = clink_sim_joint_reaction(sim, i, a);
        if (st != CLINK_OK)
            return st;
        for (k = 0; k < 3; k++)
            *(*p)++ = a[k];
    }
    for (i = 0; i < r->ndrivers; i++) {
        double f = 0;
        st = clink_sim_driver_force(sim, i, &f);
        if (st != CLINK_OK)
            return st;
        *(*p)++ = f;
    }
    /* the joints' friction (output_columns.c) */
    for (i = 0; i < r->njoints; i++) {
        int dynamic = r->jlayout[2 * i + 1];
        double f, z;
        if (!r->jlayout[2 * i])
            continue;
        st = clink_sim_joint_friction(sim, i, &f, &z);
        if (st != CLINK_OK)
            return st;
        *(*p)++ = f;
        if (dynamic)
            *(*p)++ = z;
    }
    return CLINK_OK;
}

/* an event row's kind from the phase of one contact before and after it (0: no change) */
static int event_kind(int before, int after)
{
    int in_before = before == 1 || before == 2;
    if (before == after)
        return 0;
    if (after == 1 && (before == 0 || before == 3))
        return CLINK_ROW_ONSET;
    if (before == 1 && after == 2)
        return CLINK_ROW_PEAK;
    if (in_before && (after == 0 || after == 3))
        return CLINK_ROW_SEPARATION;
    return CLINK_ROW_EVENT;
}

/* the columns of the contacts (pairs, then clearance joints with their eccentricity); an
   event row takes the kind of the first contact whose phase changed in a named way */
static clink_status sample_contacts(clink_recorder *r, const clink_sim *sim, double **p)
{
    int i, event = r->kind == CLINK_ROW_EVENT, named = 0;
    clink_status st;

    for (i = 0; i < r->ncontacts; i++) {
        const int *lay = r->clayout + 3 * i; /* ecc, z, element outputs */
        clink_contact_info ci;
        int phase;
        st = clink_sim_contact(sim, i, &ci);
        if (st != CLINK_OK)
            return st;
        phase = ci.persistent ? 4 : (int) ci.phase;
        *(*p)++ = ci.delta;
        *(*p)++ = ci.delta_dot;
        *(*p)++ = ci.fn;
        *(*p)++ = ci.ft;
        *(*p)++ = (double) phase;
        if (lay[0]) {
            *(*p)++ = ci.eccentricity[0];
            *(*p)++ = ci.eccentricity[1];
        }
        if (lay[1]) {
            double z;
            st = clink_sim_contact_friction_state(sim, i, &z);
            if (st != CLINK_OK)
                return st;
            *(*p)++ = z;
        }
        if (lay[2] > 0) {
            /* at the row's own state: poses, and the forces evaluated there */
            int e = clink_model_contact_element(r->model, i);
            st = clink_sim_element_outputs(sim, e, *p);
            if (st != CLINK_OK)
                return st;
            *p += lay[2];
        }
        if (event && !named) {
            int k = event_kind(r->phase[i], phase);
            if (k != 0 && k != CLINK_ROW_EVENT) {
                r->kind = k;
                named = 1;
            }
        }
        r->phase[i] = phase;
    }
    return CLINK_OK;
}

/* the energy columns; tracks the largest balance error */
static clink_status sample_energies(clink_recorder *r, const clink_sim *sim, double **p)
{
    clink_energy e;
    clink_status st = clink_sim_energy(sim, &e);

    if (st != CLINK_OK)
        return st;
    *(*p)++ = e.kinetic;
    *(*p)++ = e.gravity;
    *(*p)++ = e.spring;
    *(*p)++ = e.work_drivers;
    *(*p)++ = e.work_loads;
    *(*p)++ = e.balance;
    if (r->ncontacts > 0) {
        *(*p)++ = e.contact_stored;
        *(*p)++ = e.contact_damping;
        *(*p)++ = e.contact_friction;
    }
    r->last_balance = e.balance;
    if (!isnan(r->max_balance) && !(fabs(e.balance) <= r->max_balance))
        r->max_balance = fabs(e.balance); /* a NaN residual stays: null, never 0 */
    return CLINK_OK;
}

/* the row of sim's current state into r->row */
static clink_status sample_row(clink_recorder *r, const clink_sim *sim)
{
    double *p = r->row, pos = 0, vel = 0;
    clink_status st;

    *p++ = clink_sim_time(sim);
    st = sample_bodies(r, sim, &p);
    if (st == CLINK_OK && r->opt.reactions)
        st = sample_reactions(r, sim, &p);
    if (st == CLINK_OK)
        st = sample_contacts(r, sim, &p);
    if (st == CLINK_OK)
        st = output_beam_sample(r, sim, &p);
    if (st == CLINK_OK && r->opt.energies)
        st = sample_energies(r, sim, &p);
    if (st != CLINK_OK)
        return st;
    clink_sim_constraint_violation(sim, &pos, &vel);
    *p++ = pos;
    *p++ = vel;
    *p++ = (double) r->kind;
    if (pos > r->max_pos)
        r->max_pos = pos;
    if (vel > r->max_vel)
        r->max_vel = vel;
    return CLINK_OK;
}

/* writes one row (ncols values) to the time series */
static clink_status write_row(clink_recorder *r, const double *row)
{
    r->rows++;
    memcpy(r->last, row, (size_t) r->ncols * sizeof *row);
    r->have_last = 1;
    return r->ops->row(r->w, row, r->msg, sizeof r->msg) == 0 ? CLINK_OK : CLINK_ERR_IO;
}

/* a step or interpolated row (one the grid and the events could do without) */
static int optional_row(const double *row, int ncols)
{
    return row[ncols - 1] == CLINK_ROW_STEP || row[ncols - 1] == CLINK_ROW_DENSE;
}

/* nonzero when an optional pending row holds a normal force above those of the rows kept
   anyway (the last row written, the events, the grid row) by more than OUT_FN_TOLERANCE of
   the interval's largest force: a peak that only the optional rows show */
static int pending_needed(const clink_recorder *r)
{
    const double *row0 = r->have_last ? r->last : r->pend;
    int n = r->npend, nc = r->ncols;

    for (int k = 0; k < r->ncontacts; k++) {
        int c = r->fn_col[k];
        double sure = row0[c], opt = -INFINITY, scale = fabs(row0[c]);
        for (int i = 0; i < n; i++) {
            const double *x = r->pend + (size_t) i * (size_t) nc;
            scale = fmax(scale, fabs(x[c]));
            if (optional_row(x, nc))
                opt = fmax(opt, x[c]);
            else
                sure = fmax(sure, x[c]);
        }
        if (opt - sure > OUT_FN_TOLERANCE * scale)
            return 1;
    }
    return 0;
}

clink_status output_flush_pending(clink_recorder *r, int keep_all)
{
    clink_status st = CLINK_OK;
    int keep = keep_all || pending_needed(r);

    for (int i = 0; i < r->npend && st == CLINK_OK; i++) {
        const double *x = r->pend + (size_t) i * (size_t) r->ncols;
        if (keep || !optional_row(x, r->ncols))
            st = write_row(r, x);
    }
    r->npend = 0;
    return st;
}

/* CLINK_ROWS_EVENTS: the rows of a grid interval wait for its grid row, which decides; past
   OUT_PEND_BYTES of them they are judged as they stand (an interval of their own), so that
   a long grid interval is not held in memory */
static clink_status pend_row(clink_recorder *r, int grid)
{
    size_t bytes = (size_t) r->npend * (size_t) r->ncols * sizeof *r->row;
    if (r->npend == r->cappend && r->npend > 0 && 2 * bytes > OUT_PEND_BYTES) {
        clink_status st = output_flush_pending(r, 0);
        if (st != CLINK_OK)
            return st;
    }
    if (r->npend == r->cappend) {
        int nc = r->cappend ? 2 * r->cappend : 16;
        double *p = realloc(r->pend, (size_t) nc * (size_t) r->ncols * sizeof *p);
        if (p == NULL) {
            clink_status st = output_flush_pending(r, 1); /* no room to wait: everything is kept */
            if (st != CLINK_OK)
                return st;
        } else {
            r->pend = p;
            r->cappend = nc;
        }
    }
    if (r->npend == r->cappend)
        return write_row(r, r->row);
    memcpy(r->pend + (size_t) r->npend * (size_t) r->ncols, r->row,
           (size_t) r->ncols * sizeof *r->row);
    r->npend++;
    return grid ? output_flush_pending(r, 0) : CLINK_OK;
}

/* one row of the kind given (CLINK_ROW_EVENT: told apart by the contacts' phases) */
static clink_status record_row(clink_recorder *r, const clink_sim *sim, clink_row_kind kind)
{
    clink_status st;

    if (r->ops->check != NULL && r->ops->check(r->w, r->msg, sizeof r->msg) != 0)
        return CLINK_ERR_IO;
    r->kind = (int) kind;
    st = sample_row(r, sim);
    if (st != CLINK_OK)
        return st;
    st = output_write_impacts(r, sim);
    if (st != CLINK_OK)
        return st;
    if (r->opt.rows == CLINK_ROWS_EVENTS)
        return pend_row(r, kind == CLINK_ROW_GRID);
    return write_row(r, r->row);
}

/* sim_row_fn for sim_output_walk */
static clink_status walk_row(void *data, const clink_sim *sim, clink_row_kind kind)
{
    return record_row(data, sim, kind);
}

/* a call on a recorder that cannot take rows (finished, or its writer released by a failed
   finish): CLINK_ERR_ARG with the message */
static clink_status refuse(clink_recorder *r, const char *fn, const void *sim)
{
    snprintf(r->msg, sizeof r->msg, "%s: %s", fn,
             sim == NULL ? "sim is NULL" : "recorder already finished");
    return CLINK_ERR_ARG;
}

clink_status clink_recorder_sample(clink_recorder *r, const clink_sim *sim)
{
    if (r == NULL)
        return CLINK_ERR_ARG;
    if (sim == NULL || r->finished || r->w == NULL)
        return refuse(r, "clink_recorder_sample", sim);
    return record_row(r, sim, CLINK_ROW_GRID);
}

clink_status clink_recorder_advance(clink_recorder *r, clink_sim *sim, double t)
{
    if (r == NULL)
        return CLINK_ERR_ARG;
    if (sim == NULL || r->finished || r->w == NULL)
        return refuse(r, "clink_recorder_advance", sim);
    r->msg[0] = '\0';
    if (r->nsec > 0 && !r->sec_added) {
        clink_status st = output_sections_attach(r, sim);
        if (st != CLINK_OK)
            return st;
    }
    return sim_output_walk(sim, t, r->opt.rows, r->opt.dense, r->onset, walk_row, r);
}
