/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_get.c: the getters of include/clink/sim.h, which read the output state and
 * what was computed there (sim_advance.c: sim_settle_output) and never write, and
 * the choice of what the next outputs compute (clink_sim_set_outputs,
 * clink_sim_set_output_contacts).
 */
#include "sim/sim_internal.h"

#include "joints/joint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what the current output left out (clink_sim_error when nothing failed), "" if nothing */
static const char *sim_level_note(const clink_sim *s)
{
    clink_output_level done = s->lv.done;
    if (done == CLINK_OUTPUT_STATE)
        return "the current output was computed at CLINK_OUTPUT_STATE (clink_sim_set_outputs): "
               "no contact information, accelerations, reactions, driver forces, energies or "
               "constraint violation";
    if (done == CLINK_OUTPUT_CONTACTS && s->lv.partial)
        return "the current output was computed at CLINK_OUTPUT_CONTACTS (clink_sim_set_outputs) "
               "for the contacts listed by clink_sim_set_output_contacts only: no other "
               "contact, no accelerations, reactions, driver forces, energies or constraint "
               "violation";
    if (done == CLINK_OUTPUT_CONTACTS)
        return "the current output was computed at CLINK_OUTPUT_CONTACTS (clink_sim_set_outputs): "
               "no accelerations, reactions, driver forces, energies or constraint violation";
    if (s->lv.partial)
        return "the current output computed the information of the contacts listed by "
               "clink_sim_set_output_contacts only";
    return "";
}

const char *clink_sim_error(const clink_sim *sim)
{
    if (!sim)
        return "no simulation";
    const char *refused = sim_refusal(sim); /* this thread's call refused: in use */
    if (refused)
        return refused;
    return sim->msg[0] ? sim->msg : sim_level_note(sim);
}

/* ---- getters -------------------------------------------------------------- */

double clink_sim_time(const clink_sim *sim)
{
    return sim ? sim->t : NAN;
}

clink_status clink_sim_body_state(const clink_sim *s, int body, double q[3], double v[3])
{
    if (!s || body < 0 || body >= s->m->d.nbodies)
        return CLINK_ERR_ARG;
    const double *y = s->out.y;
    for (int k = 0; k < 3; k++) {
        if (q)
            q[k] = body ? y[3 * (body - 1) + k] : 0.0;
        if (v)
            v[k] = body ? y[s->sys->nq + 3 * (body - 1) + k] : 0.0;
    }
    return CLINK_OK;
}

/* nonzero if the current output computed what `level` asks for (clink_sim_set_outputs) */
static int sim_computed(const clink_sim *s, clink_output_level level)
{
    return s->lv.done >= level;
}

clink_status clink_sim_body_acceleration(const clink_sim *s, int body, double a[3])
{
    if (!s || !a || body < 0 || body >= s->m->d.nbodies)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_ALL))
        return CLINK_ERR_STATE;
    for (int k = 0; k < 3; k++)
        a[k] = body ? s->out.qdd[3 * (body - 1) + k] : 0.0;
    return CLINK_OK;
}

clink_status clink_sim_joint_reaction(const clink_sim *s, int joint, double force[3])
{
    if (!s || !force || joint < 0 || joint >= s->m->d.njoints)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_ALL))
        return CLINK_ERR_STATE;
    const clink_joint_def *jd = &s->m->d.joints[joint].def;
    const double *y = s->out.y;
    kin_pose a, b;
    kin_pose_of(y, y + s->sys->nq, jd->body_a, &a);
    kin_pose_of(y, y + s->sys->nq, jd->body_b, &b);
    const joint_class *jc = joint_class_of(jd->type);
    kin_row jac[JOINT_MAX_EQUATIONS];
    jc->jacobian(jd, &a, &b, jac);
    double g[3] = {0.0, 0.0, 0.0};
    int r0 = s->m->joint_row[joint];
    for (int r = 0; r < jc->neq; r++)
        for (int k = 0; k < 3; k++)
            g[k] += jac[r].jb[k] * s->sys->lambda[r0 + r];
    /* moment about point_b: T - arm x F (the arm rotated by the pose's cos and sin) */
    double arm[2];
    joint_rot(&b, jd->point_b, arm);
    force[0] = g[0];
    force[1] = g[1];
    force[2] = g[2] - (arm[0] * g[1] - arm[1] * g[0]);
    return CLINK_OK;
}

clink_status clink_sim_driver_force(const clink_sim *s, int driver, double *force)
{
    if (!s || !force || driver < 0 || driver >= s->m->d.ndrivers)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_ALL))
        return CLINK_ERR_STATE;
    *force = s->sys->lambda[s->m->driver_row[driver]];
    return CLINK_OK;
}

clink_status clink_sim_energy(const clink_sim *s, clink_energy *e)
{
    if (!s || !e)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_ALL))
        return CLINK_ERR_STATE;
    *e = s->out.energy;
    return CLINK_OK;
}

void clink_sim_constraint_violation(const clink_sim *s, double *position, double *velocity)
{
    int ok = s && sim_computed(s, CLINK_OUTPUT_ALL);
    if (position)
        *position = ok ? s->out.viol_pos : NAN;
    if (velocity)
        *velocity = ok ? s->out.viol_vel : NAN;
}

void clink_sim_assembly(const clink_sim *s, double *dq_norm, double *dv_norm)
{
    if (dq_norm)
        *dq_norm = s ? s->sys->dq0 : NAN;
    if (dv_norm)
        *dv_norm = s ? s->sys->dv0 : NAN;
}

void clink_sim_stats_get(const clink_sim *s, clink_sim_stats *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof *st);
    if (!s)
        return;
    integ_stats is;
    s->in->ops->stats(s->in, &is);
    st->steps = is.steps;
    st->rhs_evals = is.rhs_evals;
    st->jac_evals = is.jac_evals;
    st->lin_setups = is.lin_setups;
    st->error_test_fails = is.error_test_fails;
    st->nonlin_iters = is.nonlin_iters;
    st->nonlin_fails = is.nonlin_fails;
    st->proj_evals = is.proj_evals;
    st->proj_fails = is.proj_fails;
    st->last_step = is.last_step;
    st->last_order = is.last_order;
    st->rhs_evals_jac = s->sys->rhs_jac;
    st->contact_events = contacts_events(s->sys->sc);
    st->contact_reinits = s->loop.reinits;
    st->findings = s->chk.nfound;
    st->implausible = s->chk.nimplausible;
    st->root_evals = s->sys->roots_full;
    st->root_evals_partial = s->sys->roots_partial;
    dyn_counts(s->sys->dyn, &st->klu_factors, &st->klu_refactors);
}

/* ---- contacts ------------------------------------------------------------- */

int clink_sim_contact_count(const clink_sim *s)
{
    return s ? s->sys->ncon : 0;
}

clink_status clink_sim_contact(const clink_sim *s, int contact, clink_contact_info *info)
{
    if (!s || !info || contact < 0 || contact >= s->sys->ncon)
        return CLINK_ERR_ARG;
    if (!sim_computed(s, CLINK_OUTPUT_CONTACTS) || (s->lv.partial && !s->lv.has[contact]))
        return CLINK_ERR_STATE;
    *info = s->out.info[contact];
    return CLINK_OK;
}

int clink_sim_impact_count(const clink_sim *s)
{
    return s ? contacts_impact_count(s->sys->sc) : 0;
}

clink_status clink_sim_impact(const clink_sim *s, int i, clink_impact_record *record)
{
    return s ? contacts_impact(s->sys->sc, i, record) : CLINK_ERR_ARG;
}

void clink_sim_set_impact_callback(clink_sim *s, clink_impact_fn fn, void *data)
{
    if (!s || sim_enter(s, SIM_OP_CALLBACK) != CLINK_OK)
        return; /* in use: the callback in force is kept, clink_sim_error says why */
    if (s->sys->sc)
        contacts_set_callback(s->sys->sc, fn, data);
    sim_leave(s);
}

/* ---- what an output computes ---------------------------------------------- */

clink_status clink_sim_set_outputs(clink_sim *s, clink_output_level level)
{
    if (!s)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(s, SIM_OP_OUTPUTS);
    if (st != CLINK_OK)
        return st;
    if (level != CLINK_OUTPUT_STATE && level != CLINK_OUTPUT_CONTACTS &&
        level != CLINK_OUTPUT_ALL) {
        sim_msg(s,
                "clink_sim_set_outputs: level %d is none of CLINK_OUTPUT_STATE (1), "
                "CLINK_OUTPUT_CONTACTS (2), CLINK_OUTPUT_ALL (3)",
                (int) level);
        st = CLINK_ERR_ARG;
    } else
        s->lv.level = level;
    sim_leave(s);
    return st;
}

/* clink_sim_set_output_contacts, the simulation held */
static clink_status sim_set_output_contacts(clink_sim *s, const int *contacts, int n)
{
    if (!contacts) {
        s->lv.some = 0;
        return CLINK_OK;
    }
    if (n < 0) {
        sim_msg(s, "clink_sim_set_output_contacts: %d contacts", n);
        return CLINK_ERR_ARG;
    }
    for (int i = 0; i < n; i++)
        if (contacts[i] < 0 || contacts[i] >= s->sys->ncon) {
            sim_msg(s,
                    "clink_sim_set_output_contacts: contact %d (entry %d) is not one of the "
                    "%d contacts",
                    contacts[i], i, s->sys->ncon);
            return CLINK_ERR_ARG;
        }
    size_t ncon1 = (size_t) (s->sys->ncon > 0 ? s->sys->ncon : 1);
    if (!s->lv.list) {
        int *list = malloc(ncon1 * sizeof *list);
        unsigned char *has = calloc(ncon1, 1);
        if (!list || !has) {
            free(list);
            free(has);
            sim_msg(s, "clink_sim_set_output_contacts: out of memory");
            return CLINK_ERR_NOMEM;
        }
        s->lv.list = list;
        s->lv.has = has;
    }
    /* each contact once, in the order first listed (a mark per contact; the marks of the
       current output are not touched) */
    unsigned char *seen = calloc(ncon1, 1);
    if (!seen) {
        sim_msg(s, "clink_sim_set_output_contacts: out of memory");
        return CLINK_ERR_NOMEM;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!seen[contacts[i]]) {
            seen[contacts[i]] = 1;
            s->lv.list[m++] = contacts[i];
        }
    free(seen);
    s->lv.nlist = m;
    s->lv.some = 1;
    return CLINK_OK;
}

clink_status clink_sim_set_output_contacts(clink_sim *s, const int *contacts, int n)
{
    if (!s)
        return CLINK_ERR_ARG;
    clink_status st = sim_enter(s, SIM_OP_OUTPUT_CONTACTS);
    if (st != CLINK_OK)
        return st;
    st = sim_set_output_contacts(s, contacts, n);
    sim_leave(s);
    return st;
}

clink_output_level clink_sim_output_level(const clink_sim *s)
{
    return s ? s->lv.done : (clink_output_level) 0;
}
