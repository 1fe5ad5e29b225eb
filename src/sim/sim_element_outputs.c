/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_element_outputs.c: a contact element's own outputs at the simulation's output state
 * (clink_sim_element_outputs): those from the two bodies' poses (the element class's
 * `outputs`), and those from the forces at that state (`force_outputs`): the dry force of
 * its contacts as the contact outputs report it (F_n n + F_t t on body B, from the
 * contact information the output computed at its own state) and a lubricated joint's film
 * force, evaluated at the output state itself (contacts_extra_force: the film is a function of
 * the state alone, so no value of an earlier right-hand side can be reported).
 */
#include "elements/element.h"
#include "model/model_internal.h"
#include "sim/sim_internal.h"

#include <math.h>
#include <string.h>

/* the forces of element e's contacts at the output state into *f; CLINK_OK or a status */
static clink_status element_forces_at(const clink_sim *s, int e, element_forces *f)
{
    const double *y = s->out.y;
    memset(f, 0, sizeof *f);
    for (int k = 0; k < s->sys->ncon; k++) {
        if (clink_model_contact_element(s->m, k) != e)
            continue;
        if (s->lv.partial && !s->lv.has[k])
            return CLINK_ERR_STATE;
        const clink_contact_info *ci = &s->out.info[k];
        f->dry[0] += ci->fn * ci->normal[0] - ci->ft * ci->normal[1];
        f->dry[1] += ci->fn * ci->normal[1] + ci->ft * ci->normal[0];
        double film[2];
        if (contacts_extra_force(s->sys->sc, k, y, y + s->sys->nq, film) < 0)
            return CLINK_ERR_NONFINITE;
        f->film[0] += film[0];
        f->film[1] += film[1];
    }
    return CLINK_OK;
}

clink_status clink_sim_element_outputs(const clink_sim *s, int e, double *values)
{
    if (!s || !values || e < 0 || e >= s->m->d.nelems)
        return CLINK_ERR_ARG;
    if (s->lv.done < CLINK_OUTPUT_CONTACTS)
        return CLINK_ERR_STATE;
    const model_element *el = &s->m->d.elems[e];
    const element_class *ec = element_class_of(el->kind);
    int n = clink_model_element_output_count(s->m, e), a, b;
    if (n == 0)
        return CLINK_OK;
    double qa[3] = {0, 0, 0}, qb[3] = {0, 0, 0};
    ec->bodies(&el->def, &a, &b);
    if (a > 0)
        memcpy(qa, s->out.y + 3 * (a - 1), sizeof qa);
    if (b > 0)
        memcpy(qb, s->out.y + 3 * (b - 1), sizeof qb);
    ec->outputs(&el->def, qa, qb, values);
    if (ec->turn_output > 0 && ec->turn_output <= n) /* a cam's first separation of its turn */
        for (int k = 0; k < s->sys->ncon; k++)
            if (clink_model_contact_element(s->m, k) == e) {
                values[ec->turn_output - 1] =
                    contacts_first_separation(s->sys->sc, k, s->t, s->out.y);
                break;
            }
    if (ec->force_outputs == NULL || ec->force_first >= n)
        return CLINK_OK;
    element_forces f;
    clink_status st = element_forces_at(s, e, &f);
    if (st != CLINK_OK)
        return st;
    ec->force_outputs(&el->def, &f, values);
    return CLINK_OK;
}
