/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_beam.c: the columns of the flexible beams' elements (docs/flexible.md, "Outputs"). For
 * each beam element (a CLINK_FORCE_BEAM load, in the order of the loads), at the element's
 * middle, where its one integration point is (src/flex/flex.h), with d = r_b - r_a, the
 * mid-point rotation theta_m = (theta_a + theta_b) / 2, t = (cos theta_m, sin theta_m),
 * n = (-sin theta_m, cos theta_m) and l the undeformed length:
 *
 *   kappa = (theta_b - theta_a) / l          curvature (1/m)
 *   eps   = d . t / l - 1                    axial strain (-)
 *   gamma = d . n / l                        shear strain (-)
 *   M = EI (kappa + tau kappa_dot)           bending moment (N m)
 *   N = EA (eps + tau eps_dot)               axial force along t (N, tension positive)
 *   Q = k G A (gamma + tau gamma_dot)        shear force along n (N)
 *
 * the section forces with their Kelvin-Voigt part (retardation time tau), those the element
 * applies to its nodes: the section forces of the dynamics, computed by the same function
 * (flex_beam_section) from the row's positions and velocities. With the row's state alone,
 * nothing of the run is touched: observing never changes the answer.
 */
#include "output/output_recorder.h"

#include "flex/flex.h"

#include "clink/sim.h"

#include <stdio.h>

enum { BEAM_COLUMNS = 6 };

/* load f's definition when it is a beam element: 1, else 0 */
static int beam_element(const clink_model *m, int f, clink_force_def *d)
{
    return clink_model_force(m, f, d) == CLINK_OK && d->type == CLINK_FORCE_BEAM;
}

void output_beam_columns(clink_recorder *r)
{
    static const char *const quantity[BEAM_COLUMNS] = {"kappa", "eps", "gamma", "M", "N", "Q"};
    static const char *const unit[BEAM_COLUMNS] = {"1/m", "-", "-", "N m", "N", "N"};
    int n = clink_model_count(r->model, CLINK_ENTITY_FORCE);
    clink_force_def d;

    for (int f = 0; f < n; f++) {
        if (!beam_element(r->model, f, &d))
            continue;
        for (int k = 0; k < BEAM_COLUMNS; k++) {
            if (r->cols != NULL) {
                out_column *c = &r->cols[r->ncols];
                if (d.name != NULL && d.name[0] != '\0')
                    snprintf(c->name, sizeof c->name, "%s.%s", d.name, quantity[k]);
                else
                    snprintf(c->name, sizeof c->name, "force%d.%s", f, quantity[k]);
                c->unit = unit[k];
                c->ds = OUT_DS_BEAMS;
            }
            r->ncols++;
        }
    }
}

clink_status output_beam_sample(const clink_recorder *r, const clink_sim *sim, double **p)
{
    int n = clink_model_count(r->model, CLINK_ENTITY_FORCE);
    clink_force_def d;

    for (int f = 0; f < n; f++) {
        if (!beam_element(r->model, f, &d))
            continue;
        /* the nodes' positions and rates, at the row's state */
        double q[6], v[6], e[3], edot[3], sec[3];
        clink_status st = clink_sim_body_state(sim, d.body_a, q, v);
        if (st == CLINK_OK)
            st = clink_sim_body_state(sim, d.body_b, q + 3, v + 3);
        if (st != CLINK_OK)
            return st;
        flex_section s = {d.ea, d.ga, d.ei, d.free_length, d.c};
        flex_beam_section(&s, q, v, e, edot, sec, NULL);
        *(*p)++ = e[2];
        *(*p)++ = e[0];
        *(*p)++ = e[1];
        *(*p)++ = sec[2];
        *(*p)++ = sec[0];
        *(*p)++ = sec[1];
    }
    return CLINK_OK;
}
