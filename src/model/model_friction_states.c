/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * model_friction_states.c: which contacts of a model integrate a friction state
 * (clink_model_contact_friction_state, include/clink/model.h): those whose friction law
 * has one (lugre, dahl: the bristle state z, include/clink/friction.h) and whose impacts
 * are not piecewise, the rule src/contacts/contacts_friction.c assigns the states by. The
 * outputs name a column after each (docs/outputs.md).
 */
#include "model/model_internal.h"

int clink_model_contact_friction_state(const clink_model *model, int i)
{
    if (!model || i < 0 || i >= model->d.ncontacts)
        return 0;
    const model_element *e = &model->d.elems[model->d.contacts[i].element];
    element_def def = e->def;
    const clink_element_base *b = element_base(&def);
    return b->treatment != CLINK_CONTACT_PIECEWISE && clink_friction_state_count(&b->friction) > 0;
}
