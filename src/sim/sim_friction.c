/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_friction.c: the friction states and joint friction of the output state
 * (include/clink/sim.h, clink_sim_contact_friction_state, clink_sim_joint_friction), read
 * and never written, like the getters of sim_get.c.
 *
 * A contact's bristle state z (lugre, dahl; src/contacts/contacts_friction.c) is a
 * component of the full state y: the contacts' work block starts at y[2 nq + 2]. A
 * joint's is after that block, at y[2 nq + jz0 + i] (src/dynamics/joint_friction_solve.c).
 * A joint's friction is recomputed from the output state's poses, its multipliers (the
 * constraint force on body_b, jb . lambda, as clink_sim_joint_reaction reads them) and z,
 * by the expressions that applied it (joint_friction_value): the normal force of the
 * converged multipliers agrees with the one the friction was computed with to the fixed
 * point's tolerance (1e-12 relative), so the value is the applied friction to that.
 */
#include "sim/sim_internal.h"

#include "contacts/contacts.h"
#include "dynamics/constraints.h"
#include "joints/joint.h"
#include "joints/joint_friction.h"

#include <math.h>

clink_status clink_sim_contact_friction_state(const clink_sim *s, int contact, double *z)
{
    if (!s || !z || contact < 0 || contact >= s->sys->ncon)
        return CLINK_ERR_ARG;
    int w = contacts_friction_state_index(s->sys->sc, contact);
    *z = w >= 0 ? s->out.y[2 * s->sys->nq + 2 + w] : NAN;
    return w >= 0 ? CLINK_OK : CLINK_ERR_NOT_FOUND;
}

clink_status clink_sim_joint_friction(const clink_sim *s, int joint, double *force, double *z)
{
    if (!s || !force || !z || joint < 0 || joint >= s->m->d.njoints)
        return CLINK_ERR_ARG;
    const clink_joint_def *jd = &s->m->d.joints[joint].def;
    *force = *z = NAN;
    if (!joint_friction_on(jd))
        return CLINK_ERR_NOT_FOUND;
    if (s->lv.done < CLINK_OUTPUT_ALL)
        return CLINK_ERR_STATE;
    const double *y = s->out.y;
    int nq = s->sys->nq, iz = dyn_joint_friction_state_of(s->sys->dyn, joint);
    kin_pose a, b;
    kin_pose_of(y, y + nq, jd->body_a, &a);
    kin_pose_of(y, y + nq, jd->body_b, &b);
    const joint_class *jc = joint_class_of(jd->type);
    kin_row jac[JOINT_MAX_EQUATIONS];
    jc->jacobian(jd, &a, &b, jac);
    double lam[JOINT_MAX_EQUATIONS];
    int r0 = s->m->joint_row[joint];
    for (int r = 0; r < jc->neq; r++)
        lam[r] = s->sys->lambda[r0 + r];
    double zj = iz >= 0 ? y[2 * nq + s->sys->jz0 + iz] : 0.0;
    *force = joint_friction_value(jd, &a, &b, jac, lam, jc->neq, zj);
    *z = iz >= 0 ? zj : NAN;
    return CLINK_OK;
}
