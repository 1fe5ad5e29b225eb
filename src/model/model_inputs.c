/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * model_inputs.c: the host's inputs of a model (clink_input_def, include/clink/model.h):
 * their checks when added, the model's copy and the queries. An input names what it acts
 * on (a body, a joint, a load or a driver); its value is the simulation's
 * (src/sim/sim_inputs.c), set by the host between advances.
 */
#include "joints/joint.h"
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the stamp of clink_input_def (after the element classes' CLINK_DEF_COOKIE + 6 ..) */
#define MODEL_COOKIE_INPUT (CLINK_DEF_COOKIE + 64)

clink_input_def clink_default_input_def(void)
{
    clink_input_def d;
    memset(&d, 0, sizeof d);
    d.kind = CLINK_INPUT_TORQUE;
    d.target = 1;
    d.direction[0] = 1.0;
    d.cookie = MODEL_COOKIE_INPUT;
    return d;
}

/* the target of an input of each kind: in range and of the right type */
static clink_status input_check_target(clink_model_builder *b, const clink_input_def *def,
                                       const char *nm)
{
    const model_data *d = &b->d;
    int t = def->target;
    switch (def->kind) {
    case CLINK_INPUT_FORCE:
    case CLINK_INPUT_TORQUE:
        if (t < 1 || t >= d->nbodies)
            return model_fail(b, CLINK_ERR_RANGE, "input '%s': body %d must be in 1..%d", nm, t,
                              d->nbodies - 1);
        return CLINK_OK;
    case CLINK_INPUT_JOINT_TORQUE:
    case CLINK_INPUT_JOINT_FORCE: {
        clink_joint_type want = def->kind == CLINK_INPUT_JOINT_TORQUE ? CLINK_JOINT_REVOLUTE
                                                                      : CLINK_JOINT_TRANSLATIONAL;
        if (t < 0 || t >= d->njoints)
            return model_fail(b, CLINK_ERR_RANGE, "input '%s': joint %d must be in 0..%d", nm, t,
                              d->njoints - 1);
        if (d->joints[t].def.type != want)
            return model_fail(b, CLINK_ERR_MODEL, "input '%s': a joint %s needs a %s joint", nm,
                              def->kind == CLINK_INPUT_JOINT_TORQUE ? "torque" : "force",
                              joint_class_of(want)->name);
        return CLINK_OK;
    }
    case CLINK_INPUT_LOAD_SCALE:
        if (t < 0 || t >= d->nforces)
            return model_fail(b, CLINK_ERR_RANGE, "input '%s': load %d must be in 0..%d", nm, t,
                              d->nforces - 1);
        return CLINK_OK;
    case CLINK_INPUT_DRIVER_VALUE:
    case CLINK_INPUT_DRIVER_RATE:
        if (t < 0 || t >= d->ndrivers)
            return model_fail(b, CLINK_ERR_RANGE, "input '%s': driver %d must be in 0..%d", nm, t,
                              d->ndrivers - 1);
        return CLINK_OK;
    default:
        return model_fail(b, CLINK_ERR_RANGE, "input '%s': kind %d is not in 0..%d", nm,
                          (int) def->kind, CLINK_INPUT_KIND_COUNT_ - 1);
    }
}

/* the name: given, short enough, unique among the inputs */
static clink_status input_check_name(clink_model_builder *b, const char *name)
{
    if (!name || !name[0])
        return model_fail(b, CLINK_ERR_ARG, "add_input: an input needs a name");
    if (strlen(name) >= CLINK_NAME_MAX)
        return model_fail(b, CLINK_ERR_RANGE, "input '%.20s...': name longer than %d bytes", name,
                          CLINK_NAME_MAX - 1);
    for (int i = 0; i < b->d.ninputs; i++)
        if (strcmp(b->d.inputs[i].name, name) == 0)
            return model_fail(b, CLINK_ERR_MODEL, "input '%s' is defined twice", name);
    return CLINK_OK;
}

clink_status clink_model_builder_add_input(clink_model_builder *b, const clink_input_def *def,
                                           int *id)
{
    if (!b || !def)
        return b ? model_fail(b, CLINK_ERR_ARG, "add_input: NULL definition") : CLINK_ERR_ARG;
    if (model_check_cookie(b, def->cookie, MODEL_COOKIE_INPUT, "input") != CLINK_OK)
        return CLINK_ERR_ARG;
    clink_status st = input_check_name(b, def->name);
    if (st == CLINK_OK)
        st = input_check_target(b, def, def->name);
    if (st != CLINK_OK)
        return st;
    double v[] = {def->point[0], def->point[1], def->direction[0], def->direction[1], def->initial};
    for (int i = 0; i < 5; i++)
        if (!isfinite(v[i]))
            return model_fail(b, CLINK_ERR_RANGE, "input '%s': a parameter is not finite",
                              def->name);
    double dn = hypot(def->direction[0], def->direction[1]);
    if (def->kind == CLINK_INPUT_FORCE && !(dn > 0.0))
        return model_fail(b, CLINK_ERR_RANGE, "input '%s': the force's direction is zero",
                          def->name);
    if (model_grow((void **) &b->d.inputs, &b->d.cap_inputs, b->d.ninputs, sizeof(model_input)))
        return model_fail(b, CLINK_ERR_NOMEM, "add_input: out of memory");
    model_input *mi = &b->d.inputs[b->d.ninputs];
    snprintf(mi->name, sizeof mi->name, "%s", def->name);
    mi->def = *def;
    mi->def.name = NULL;
    if (def->kind == CLINK_INPUT_FORCE) {
        mi->def.direction[0] = def->direction[0] / dn;
        mi->def.direction[1] = def->direction[1] / dn;
    }
    if (id)
        *id = b->d.ninputs;
    b->d.ninputs++;
    return CLINK_OK;
}

int model_inputs_copy(model_data *to, const model_data *from)
{
    to->inputs = NULL;
    to->cap_inputs = 0;
    if (from->ninputs == 0)
        return 0;
    to->inputs = malloc((size_t) from->ninputs * sizeof(model_input));
    if (!to->inputs) {
        to->ninputs = 0;
        return -1;
    }
    memcpy(to->inputs, from->inputs, (size_t) from->ninputs * sizeof(model_input));
    to->cap_inputs = from->ninputs;
    return 0;
}

void model_inputs_free(model_data *d)
{
    free(d->inputs);
    d->inputs = NULL;
    d->ninputs = d->cap_inputs = 0;
}

int clink_model_input_count(const clink_model *model)
{
    return model ? model->d.ninputs : 0;
}

const char *clink_model_input_name(const clink_model *model, int i)
{
    return model && i >= 0 && i < model->d.ninputs ? model->d.inputs[i].name : NULL;
}

int clink_model_input_kind(const clink_model *model, int i)
{
    return model && i >= 0 && i < model->d.ninputs ? (int) model->d.inputs[i].def.kind : -1;
}

clink_status clink_model_input(const clink_model *model, int i, clink_input_def *def)
{
    if (!model || !def || i < 0 || i >= model->d.ninputs)
        return CLINK_ERR_ARG;
    *def = model->d.inputs[i].def;
    def->name = model->d.inputs[i].name;
    return CLINK_OK;
}

int clink_model_input_find(const clink_model *model, const char *name)
{
    if (!model || !name)
        return -1;
    for (int i = 0; i < model->d.ninputs; i++)
        if (strcmp(model->d.inputs[i].name, name) == 0)
            return i;
    return -1;
}

int model_inputs_move(const model_data *d, int b)
{
    for (int i = 0; i < d->ninputs; i++) {
        const clink_input_def *def = &d->inputs[i].def;
        if ((def->kind == CLINK_INPUT_FORCE || def->kind == CLINK_INPUT_TORQUE) && def->target == b)
            return 1;
    }
    return 0;
}
