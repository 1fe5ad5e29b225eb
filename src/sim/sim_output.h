/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_output.h: the walk of the output rows between two grid times (sim_output.c)
 * and the one-step form of the stepping loop it uses (sim_advance.c).
 */
#ifndef CLINK_SIM_OUTPUT_H
#define CLINK_SIM_OUTPUT_H

#include "clink/output.h"
#include "clink/sim.h"

/*
 * CVODE forward until its time covers t, every root up to t handled
 * (clink_sim_advance's loop); one_step: return after one call of CVode (a step,
 * the rest of a root's step, or a root).
 */
clink_status sim_integrate_to(clink_sim *s, double t, int one_step);

/* called with the output state at each row's time; kind: CLINK_ROW_GRID, _STEP, _DENSE,
   or _EVENT for every contact event (the caller tells onset, peak and separation apart) */
typedef clink_status (*sim_row_fn)(void *data, const clink_sim *s, clink_row_kind kind);

/*
 * Advances s to t (as clink_sim_advance) and calls row at every row that mode asks
 * for (clink_output_rows), the grid row at t last; dense: the interpolated rows per
 * integrator step in an impact (CLINK_ROWS_EVENTS). onset: 4 per contact, the
 * caller's, NaN before the first walk; the walk keeps in the first ncon the onset
 * time of each impact in progress, in the next 2 ncon each impact's normal force at
 * the last two rows (computed or passed over), and uses the rest as scratch. With
 * CLINK_ROWS_EVENTS, the step and interpolated rows away from any force peak (sim_output.c) are
 * passed over without computing their output state: row is not called for them. Returns the
 * simulation's status or the first failure of row.
 */
clink_status sim_output_walk(clink_sim *s, double t, clink_output_rows mode, int dense,
                             double *onset, sim_row_fn row, void *data);

/*
 * The bodies' columns of a row from the output state, body 1 to the last: q then v (and the
 * acceleration when acc) of each, the doubles clink_sim_body_state and
 * clink_sim_body_acceleration give, into p; returns the number written, or -1 when the
 * accelerations are asked for and this output did not compute them (CLINK_ERR_STATE).
 */
int sim_output_bodies(const clink_sim *s, int acc, double *p);

#endif
