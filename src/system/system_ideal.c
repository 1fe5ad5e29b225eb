/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * system_ideal.c: the start of a clearance mechanism as if its clearance joints were ideal
 * (settings start="ideal" or "ideal_centred", clink_start in include/clink/model.h).
 *
 * A clearance joint adds no constraint equation, so the assembly (dyn_project on the
 * model's own joints and drivers) leaves the velocities of the bodies it connects as the
 * file gave them: a rod's end whose velocity was left out (zero) then strikes its bearing
 * at once. The benchmarks of the clearance-joint literature start instead from the ideal
 * mechanism's state (the slider-crank of Flores et al. 2008, models/slider_crank_clearance.xml:
 * the journal centred, the velocities of the ideal mechanism, derived there by hand). This
 * file builds that mechanism: the model's bodies, joints and drivers (indices kept) and,
 * for each clearance joint, the ideal joint its element class gives (element_class.ideal_joint,
 * in src/elements/element_<name>.c):
 *   - revolute (journal body j, point s_j; bearing body b, point s_b): a revolute joint
 *     between the bearing's point s_b + A_b^T e and the journal's point s_j, e = c_j - c_b
 *     the eccentricity at the assembled positions (start="ideal"), or s_b itself
 *     (start="ideal_centred": the journal centred); its velocity equation makes the
 *     journal's centre move with that point of the bearing, so that d|e|/dt = 0;
 *   - translational (guide g, point p_g, axis u; slider s, point p_s): a translational
 *     joint through p_g + o n (n the guide's normal, o the slider's offset from the
 *     mid-line) along u, holding phi_s - phi_g at its assembled tilt (start="ideal"), or
 *     through p_g at tilt 0 (start="ideal_centred": on the mid-line, aligned).
 * The state is then projected onto that mechanism's constraints (dyn_project: the
 * correction of least kinetic energy, src/dynamics/project.c): the positions (a centring
 * move; none with start="ideal", where the extra equations hold at the assembled
 * positions), then the velocities. The ideal mechanism's constraints include the model's,
 * so the result satisfies them too. The corrections reported (mechsys.dq0, dv0) become
 * the norms of the whole change from the file's values.
 */
#include "system/system.h"
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the model's bodies, joints and drivers into builder b (indices kept) */
static clink_status ideal_copy(const clink_model *m, clink_model_builder *b)
{
    clink_status st = CLINK_OK;
    for (int i = 1; i < m->d.nbodies && st == CLINK_OK; i++) {
        clink_body_def d;
        st = clink_model_body(m, i, &d);
        if (st == CLINK_OK)
            st = clink_model_builder_add_body(b, &d, NULL);
    }
    for (int i = 0; i < m->d.njoints && st == CLINK_OK; i++) {
        clink_joint_def d;
        st = clink_model_joint(m, i, &d);
        if (st == CLINK_OK)
            st = clink_model_builder_add_joint(b, &d, NULL);
    }
    for (int i = 0; i < m->d.ndrivers && st == CLINK_OK; i++) {
        clink_driver_def d;
        st = clink_model_driver(m, i, &d);
        if (st == CLINK_OK)
            st = clink_model_builder_add_driver(b, &d, NULL);
    }
    return st;
}

/* the ideal mechanism at positions q (NULL with *st and msg on failure: more equations than
   coordinates, say); *n the joints added */
static clink_model *ideal_model(const clink_model *m, const double *q, int centred, int *n,
                                clink_status *st_out, char *msg, size_t size)
{
    clink_model_builder *b = clink_model_builder_create();
    clink_model *ideal = NULL;
    *n = 0;
    *st_out = CLINK_ERR_NOMEM;
    if (!b) {
        snprintf(msg, size, "out of memory");
        return NULL;
    }
    clink_status st = ideal_copy(m, b);
    for (int e = 0; e < m->d.nelems && st == CLINK_OK; e++) {
        const model_element *el = &m->d.elems[e];
        const element_class *ec = element_class_of(el->kind);
        clink_joint_def j = clink_default_joint_def();
        if (!ec->ideal_joint)
            continue;
        ec->ideal_joint(&el->def, q, centred, &j);
        st = clink_model_builder_add_joint(b, &j, NULL);
        (*n)++;
    }
    if (st == CLINK_OK)
        st = clink_model_builder_finalize(b, &ideal);
    if (st != CLINK_OK)
        snprintf(msg, size, "%s", clink_model_builder_error(b));
    *st_out = st;
    clink_model_builder_destroy(&b);
    return ideal;
}

/* the norms of the change of positions and velocities y from the file's values */
static void ideal_corrections(mechsys *s, const double *y)
{
    double dq = 0.0, dv = 0.0;
    for (int b = 1; b < s->m->d.nbodies; b++) {
        const clink_body_def *d = &s->m->d.bodies[b].def;
        const double given[6] = {d->x, d->y, d->phi, d->vx, d->vy, d->omega};
        const double *q = y + 3 * (b - 1), *v = y + s->nq + 3 * (b - 1);
        for (int i = 0; i < 3; i++) {
            dq += (q[i] - given[i]) * (q[i] - given[i]);
            dv += (v[i] - given[3 + i]) * (v[i] - given[3 + i]);
        }
    }
    s->dq0 = sqrt(dq);
    s->dv0 = sqrt(dv);
}

clink_status system_ideal_start(mechsys *s, double *y)
{
    int nq = s->nq, centred = s->set.start == CLINK_START_IDEAL_CENTRED, n = 0;
    if (s->set.start == CLINK_START_AS_GIVEN)
        return CLINK_OK;
    char why[400];
    clink_status st;
    clink_model *ideal = ideal_model(s->m, y, centred, &n, &st, why, sizeof why);
    if (!ideal) {
        snprintf(s->msg, sizeof s->msg,
                 "initial conditions: start=\"%s\": the mechanism with ideal clearance joints: "
                 "%s",
                 centred ? "ideal_centred" : "ideal", why);
        return st == CLINK_ERR_NOMEM ? st : CLINK_ERR_ASSEMBLY;
    }
    if (n > 0) {
        dyn_system *dyn = dyn_create(ideal);
        st = dyn ? dyn_project(dyn, 0.0, y, y + nq, SYSTEM_PROJECTION_TOL, 50, NULL, NULL)
                 : CLINK_ERR_NOMEM;
        if (st != CLINK_OK)
            snprintf(s->msg, sizeof s->msg,
                     "initial conditions: start=\"%s\", the mechanism with ideal clearance "
                     "joints: %s",
                     centred ? "ideal_centred" : "ideal", dyn ? dyn_error(dyn) : "out of memory");
        dyn_destroy(&dyn);
    }
    clink_model_destroy(&ideal);
    if (st != CLINK_OK)
        return st != CLINK_ERR_SINGULAR && st != CLINK_ERR_NOMEM ? CLINK_ERR_ASSEMBLY : st;
    if (n > 0)
        ideal_corrections(s, y);
    return CLINK_OK;
}
