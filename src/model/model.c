/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * model.c: the model-building API (include/clink/model.h). Over 800 lines: the add,
 * default and getter functions of every entity kind stand together, one block a kind.
 *
 * A builder grows arrays of definitions and checks each one as it arrives
 * (indices in range, masses positive, names unique); finalize checks the whole
 * and copies it into an immutable clink_model, numbering the constraint
 * equations: each joint contributes the rows of its class (src/joints/joint.h:
 * revolute 2, translational 2, weld 3) and each driver one row, joints first.
 */
#include "clink/xml.h"
#include "integrators/integrator.h"
#include "joints/joint.h"
#include "joints/joint_friction.h"
#include "model/model_internal.h"
#include "timefn/timefn.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- defaults ------------------------------------------------------------- */

clink_body_def clink_default_body_def(void)
{
    clink_body_def d;
    memset(&d, 0, sizeof d);
    d.mass = 1.0;
    d.cookie = MODEL_COOKIE_BODY;
    d.inertia = 1.0;
    return d;
}

clink_joint_def clink_default_joint_def(void)
{
    clink_joint_def d;
    memset(&d, 0, sizeof d);
    d.type = CLINK_JOINT_REVOLUTE;
    d.cookie = MODEL_COOKIE_JOINT;
    d.axis_a[0] = 1.0;
    d.ratio = 1.0;
    d.friction = clink_default_friction_params();
    return d;
}

clink_driver_def clink_default_driver_def(void)
{
    clink_driver_def d;
    memset(&d, 0, sizeof d);
    d.target = CLINK_DRIVE_BODY_COORDINATE;
    d.cookie = MODEL_COOKIE_DRIVER;
    d.body = 1;
    d.coordinate = 2;
    d.function.type = CLINK_FUNCTION_CONSTANT;
    return d;
}

clink_force_def clink_default_force_def(void)
{
    clink_force_def d;
    memset(&d, 0, sizeof d);
    d.type = CLINK_FORCE_POINT;
    d.cookie = MODEL_COOKIE_FORCE;
    d.body_a = 1;
    d.body_b = 0;
    d.scale.type = CLINK_FUNCTION_CONSTANT;
    d.scale.n = 1;
    d.scale.c[0] = 1.0;
    return d;
}

clink_settings_def clink_default_settings_def(void)
{
    clink_settings_def s;
    memset(&s, 0, sizeof s);
    s.t_end = 1.0;
    s.cookie = MODEL_COOKIE_SETTINGS;
    s.output_step = 1e-3;
    s.rtol = 1e-8;
    s.atol = 1e-10;
    s.window = 2; /* auto */
    s.max_step = 0.0;
    s.method = CLINK_METHOD_AUTO;
    s.drift = CLINK_DRIFT_AUTO;
    s.baumgarte_alpha = 5.0;
    s.baumgarte_beta = 5.0;
    s.settle_speed = CLINK_SETTLE_SPEED_DEFAULT;
    s.max_steps = 1e7;
    s.min_step = 0.0;
    s.wall_limit = 0.0;
    s.contact_bookkeeping = CLINK_BOOKKEEPING_EPISODES;
    return s;
}

/* ---- errors --------------------------------------------------------------- */

clink_status model_fail(clink_model_builder *b, clink_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->error, sizeof b->error, fmt, ap);
    va_end(ap);
    return st;
}

clink_status model_check_cookie(clink_model_builder *b, int def_cookie, int cookie,
                                const char *what)
{
    if (def_cookie == cookie)
        return CLINK_OK;
    return model_fail(b, CLINK_ERR_ARG,
                      "%s: the definition was not made by clink_default_%s_def() (start from it, "
                      "then set the fields)",
                      what, what);
}

/* ---- storage -------------------------------------------------------------- */

/* grows *arr (elements of size sz) so that it holds n + 1; 0 on success */
int model_grow(void **arr, int *cap, int n, size_t sz)
{
    if (n < *cap)
        return 0;
    int ncap = *cap ? 2 * *cap : 8;
    void *p = realloc(*arr, (size_t) ncap * sz);
    if (!p)
        return -1;
    *arr = p;
    *cap = ncap;
    return 0;
}

static int names_reserve(model_data *d, clink_entity kind);

static void data_free(model_data *d)
{
    for (int k = 0; k < d->ndrivers; k++)
        timefn_free(&d->drivers[k].def.function);
    for (int k = 0; k < d->nforces; k++)
        timefn_free(&d->forces[k].def.scale);
    model_inputs_free(d);
    free(d->bodies);
    free(d->joints);
    free(d->drivers);
    free(d->forces);
    model_elements_free(d);
    for (int k = 0; k < CLINK_ENTITY_COUNT_; k++)
        free(d->names[k].slots);
    memset(d, 0, sizeof *d);
}

/* the model's own copies of the tables of its drivers' and loads' functions (0, or -1 out of
   memory: the functions not copied are left without tables, which data_free skips) */
static int model_functions_copy(model_data *d)
{
    int rc = 0;
    if (!d->drivers)
        d->ndrivers = 0;
    if (!d->forces)
        d->nforces = 0;
    for (int k = 0; k < d->ndrivers; k++) {
        clink_function *f = &d->drivers[k].def.function;
        if (rc != 0)
            f->times = f->values = f->moments = NULL;
        else
            rc = timefn_copy(f);
    }
    for (int k = 0; k < d->nforces; k++) {
        clink_function *f = &d->forces[k].def.scale;
        if (rc != 0)
            f->times = f->values = f->moments = NULL;
        else
            rc = timefn_copy(f);
    }
    return rc;
}

clink_model_builder *clink_model_builder_create(void)
{
    clink_model_builder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    if (model_grow((void **) &b->d.bodies, &b->d.cap_bodies, 0, sizeof(model_body))) {
        free(b);
        return NULL;
    }
    memset(&b->d.bodies[0], 0, sizeof(model_body));
    strcpy(b->d.bodies[0].name, "ground");
    b->d.bodies[0].def.mass = INFINITY;
    b->d.bodies[0].def.inertia = INFINITY;
    b->d.nbodies = 1;
    if (names_reserve(&b->d, CLINK_ENTITY_BODY)) {
        data_free(&b->d);
        free(b);
        return NULL;
    }
    model_name_added(&b->d, CLINK_ENTITY_BODY, 0);
    b->d.gravity[0] = 0.0;
    b->d.gravity[1] = -9.81;
    b->d.settings = clink_default_settings_def();
    return b;
}

clink_status clink_model_builder_new(clink_model_builder **builder)
{
    if (builder == NULL)
        return CLINK_ERR_ARG;
    *builder = clink_model_builder_create();
    return *builder != NULL ? CLINK_OK : CLINK_ERR_NOMEM;
}

void clink_model_builder_destroy(clink_model_builder **builder)
{
    if (!builder || !*builder)
        return;
    data_free(&(*builder)->d);
    free(*builder);
    *builder = NULL;
}

const char *clink_model_builder_error(const clink_model_builder *builder)
{
    return builder ? builder->error : "no builder";
}

/* ---- names (a hash table per kind, model_internal.h) ---------------------- */

/* an entity kind's word in messages: the element kinds' from CLINK_ELEMENT_KINDS */
#define MODEL_KIND_WORD_(NAME, name, api, ENTITY, word) word,
static const char *const kind_word[CLINK_ENTITY_COUNT_] = {"body", "joint", "driver", "force",
                                                           CLINK_ELEMENT_KINDS(MODEL_KIND_WORD_)};
#undef MODEL_KIND_WORD_

static const char *entity_name(const model_data *d, clink_entity kind, int i)
{
    switch (kind) {
    case CLINK_ENTITY_BODY:
        return d->bodies[i].name;
    case CLINK_ENTITY_JOINT:
        return d->joints[i].name;
    case CLINK_ENTITY_DRIVER:
        return d->drivers[i].name;
    case CLINK_ENTITY_FORCE:
        return d->forces[i].name;
    default:
        return model_element_entity_name(d, kind, i);
    }
}

static int entity_count(const model_data *d, clink_entity kind)
{
    switch (kind) {
    case CLINK_ENTITY_BODY:
        return d->nbodies;
    case CLINK_ENTITY_JOINT:
        return d->njoints;
    case CLINK_ENTITY_DRIVER:
        return d->ndrivers;
    case CLINK_ENTITY_FORCE:
        return d->nforces;
    default:
        return model_element_entity_count(d, kind);
    }
}

/* FNV-1a */
static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char) *s) * 16777619u;
    return h;
}

/* the slot of name in the table: the one holding it, or the empty one where it would go */
static int names_slot(const model_data *d, clink_entity kind, const char *name)
{
    const model_names *t = &d->names[kind];
    unsigned mask = (unsigned) t->cap - 1u, i = name_hash(name) & mask;
    while (t->slots[i] != 0 && strcmp(entity_name(d, kind, t->slots[i] - 1), name) != 0)
        i = (i + 1u) & mask;
    return (int) i;
}

static int data_find(const model_data *d, clink_entity kind, const char *name)
{
    if (!name || !*name || (int) kind < 0 || kind >= CLINK_ENTITY_COUNT_ || d->names[kind].cap == 0)
        return -1;
    return d->names[kind].slots[names_slot(d, kind, name)] - 1;
}

/* room for one more name in the kind's table (rehashing when half full); 0 on success */
static int names_reserve(model_data *d, clink_entity kind)
{
    model_names *t = &d->names[kind];
    if (2 * (t->count + 1) <= t->cap)
        return 0;
    int ncap = t->cap ? 2 * t->cap : 16;
    int *slots = calloc((size_t) ncap, sizeof *slots);
    if (!slots)
        return -1;
    model_names old = *t;
    t->slots = slots;
    t->cap = ncap;
    for (int i = 0; i < old.cap; i++)
        if (old.slots[i] != 0)
            t->slots[names_slot(d, kind, entity_name(d, kind, old.slots[i] - 1))] = old.slots[i];
    free(old.slots);
    return 0;
}

void model_name_added(model_data *d, clink_entity kind, int index)
{
    const char *name = entity_name(d, kind, index);
    if (!name[0])
        return;
    d->names[kind].slots[names_slot(d, kind, name)] = index + 1;
    d->names[kind].count++;
}

int clink_model_builder_find(const clink_model_builder *builder, clink_entity kind,
                             const char *name)
{
    return builder ? data_find(&builder->d, kind, name) : -1;
}

int clink_model_builder_count(const clink_model_builder *builder, clink_entity kind)
{
    return builder ? entity_count(&builder->d, kind) : 0;
}

int clink_model_find(const clink_model *model, clink_entity kind, const char *name)
{
    return model ? data_find(&model->d, kind, name) : -1;
}

const char *clink_model_name(const clink_model *model, clink_entity kind, int id)
{
    if (!model || id < 0 || id >= entity_count(&model->d, kind))
        return NULL;
    return entity_name(&model->d, kind, id);
}

/* checks and copies a name; 0 on success */
clink_status model_take_name(clink_model_builder *b, clink_entity kind, const char *name,
                             char out[CLINK_NAME_MAX])
{
    out[0] = '\0';
    if (!name || !*name)
        return CLINK_OK;
    if (strlen(name) >= CLINK_NAME_MAX)
        return model_fail(b, CLINK_ERR_RANGE, "%s name '%.20s...' is longer than %d bytes",
                          kind_word[kind], name, CLINK_NAME_MAX - 1);
    if (data_find(&b->d, kind, name) >= 0)
        return model_fail(b, CLINK_ERR_MODEL, "%s name '%s' is used twice", kind_word[kind], name);
    if (names_reserve(&b->d, kind))
        return model_fail(b, CLINK_ERR_NOMEM, "%s name '%s': out of memory", kind_word[kind], name);
    strcpy(out, name);
    return CLINK_OK;
}

const char *model_body_word(const model_data *d, int i, char *buf, size_t size)
{
    if (i >= 0 && i < d->nbodies && d->bodies[i].name[0])
        snprintf(buf, size, "body '%s'", d->bodies[i].name);
    else
        snprintf(buf, size, "body %d", i);
    return buf;
}

static const char *label(const char *name)
{
    return (name && *name) ? name : "(unnamed)";
}

/* the largest |coordinate| or |velocity| of a body at the start (m, rad, m/s, rad/s) */
#define MODEL_MAX_COORDINATE 1e6

static int all_finite(const double *x, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* ---- bodies --------------------------------------------------------------- */

clink_status clink_model_builder_add_body(clink_model_builder *b, const clink_body_def *def,
                                          int *id)
{
    if (!b || !def)
        return b ? model_fail(b, CLINK_ERR_ARG, "add_body: NULL definition") : CLINK_ERR_ARG;
    if (model_check_cookie(b, def->cookie, MODEL_COOKIE_BODY, "body") != CLINK_OK)
        return CLINK_ERR_ARG;
    const char *nm = label(def->name);
    double v[] = {def->x, def->y, def->phi, def->vx, def->vy, def->omega};
    if (!(def->mass > 0.0) || !isfinite(def->mass))
        return model_fail(b, CLINK_ERR_RANGE, "body '%s': mass %g kg must be finite and > 0", nm,
                          def->mass);
    if (!(def->inertia > 0.0) || !isfinite(def->inertia))
        return model_fail(b, CLINK_ERR_RANGE, "body '%s': inertia %g kg m^2 must be finite and > 0",
                          nm, def->inertia);
    if (!all_finite(v, 6))
        return model_fail(b, CLINK_ERR_RANGE,
                          "body '%s': initial position or velocity is not finite", nm);
    for (int i = 0; i < 6; i++)
        if (fabs(v[i]) > MODEL_MAX_COORDINATE)
            return model_fail(b, CLINK_ERR_RANGE,
                              "body '%s': %s = %g %s: beyond %g in magnitude, no mechanism's "
                              "initial condition (a typing error?)",
                              nm, (const char *[]){"x", "y", "phi", "vx", "vy", "omega"}[i], v[i],
                              (const char *[]){"m", "m", "rad", "m/s", "m/s", "rad/s"}[i],
                              MODEL_MAX_COORDINATE);
    char name[CLINK_NAME_MAX];
    clink_status st = model_take_name(b, CLINK_ENTITY_BODY, def->name, name);
    if (st != CLINK_OK)
        return st;
    if (model_grow((void **) &b->d.bodies, &b->d.cap_bodies, b->d.nbodies, sizeof(model_body)))
        return model_fail(b, CLINK_ERR_NOMEM, "add_body: out of memory");
    model_body *mb = &b->d.bodies[b->d.nbodies];
    memcpy(mb->name, name, CLINK_NAME_MAX);
    mb->def = *def;
    mb->def.name = NULL;
    model_name_added(&b->d, CLINK_ENTITY_BODY, b->d.nbodies);
    if (id)
        *id = b->d.nbodies;
    b->d.nbodies++;
    return CLINK_OK;
}

/* ---- joints --------------------------------------------------------------- */

clink_status clink_model_builder_add_joint(clink_model_builder *b, const clink_joint_def *def,
                                           int *id)
{
    if (!b || !def)
        return b ? model_fail(b, CLINK_ERR_ARG, "add_joint: NULL definition") : CLINK_ERR_ARG;
    if (model_check_cookie(b, def->cookie, MODEL_COOKIE_JOINT, "joint") != CLINK_OK)
        return CLINK_ERR_ARG;
    const char *nm = label(def->name);
    const joint_class *jc = joint_class_of(def->type);
    if (!jc)
        return model_fail(b, CLINK_ERR_RANGE, "joint '%s': type %d is not a joint type (0..%d)", nm,
                          (int) def->type, CLINK_JOINT_TYPE_COUNT_ - 1);
    if (def->body_a < 0 || def->body_a >= b->d.nbodies || def->body_b < 0 ||
        def->body_b >= b->d.nbodies)
        return model_fail(b, CLINK_ERR_RANGE,
                          "joint '%s': bodies %d and %d must be in 0..%d (0 is ground)", nm,
                          def->body_a, def->body_b, b->d.nbodies - 1);
    char bw[CLINK_NAME_MAX + 16];
    if (def->body_a == def->body_b)
        return model_fail(b, CLINK_ERR_MODEL, "joint '%s' connects %s to itself", nm,
                          model_body_word(&b->d, def->body_a, bw, sizeof bw));
    double v[] = {def->point_a[0], def->point_a[1], def->point_b[0], def->point_b[1],
                  def->axis_a[0],  def->axis_a[1],  def->angle0};
    if (!all_finite(v, 7))
        return model_fail(b, CLINK_ERR_RANGE, "joint '%s': a point, axis or angle is not finite",
                          nm);
    clink_joint_def checked = *def;
    char fwhy[160];
    const char *why = jc->check ? jc->check(&checked) : NULL;
    if (!why)
        why = joint_friction_check(&checked, fwhy, sizeof fwhy);
    if (why)
        return model_fail(b, CLINK_ERR_RANGE, "joint '%s': %s", nm, why);
    char name[CLINK_NAME_MAX];
    clink_status st = model_take_name(b, CLINK_ENTITY_JOINT, def->name, name);
    if (st != CLINK_OK)
        return st;
    if (model_grow((void **) &b->d.joints, &b->d.cap_joints, b->d.njoints, sizeof(model_joint)))
        return model_fail(b, CLINK_ERR_NOMEM, "add_joint: out of memory");
    model_joint *mj = &b->d.joints[b->d.njoints];
    memcpy(mj->name, name, CLINK_NAME_MAX);
    mj->def = checked;
    mj->def.name = NULL;
    model_name_added(&b->d, CLINK_ENTITY_JOINT, b->d.njoints);
    if (id)
        *id = b->d.njoints;
    b->d.njoints++;
    return CLINK_OK;
}

/* ---- drivers -------------------------------------------------------------- */

clink_status clink_model_builder_add_driver(clink_model_builder *b, const clink_driver_def *def,
                                            int *id)
{
    if (!b || !def)
        return b ? model_fail(b, CLINK_ERR_ARG, "add_driver: NULL definition") : CLINK_ERR_ARG;
    if (model_check_cookie(b, def->cookie, MODEL_COOKIE_DRIVER, "driver") != CLINK_OK)
        return CLINK_ERR_ARG;
    const char *nm = label(def->name);
    char fmsg[160];
    if (timefn_check(&def->function, fmsg, sizeof fmsg) != 0)
        return model_fail(b, CLINK_ERR_RANGE, "driver '%s': %s", nm, fmsg);
    switch (def->target) {
    case CLINK_DRIVE_BODY_COORDINATE:
        if (def->body == 0)
            return model_fail(b, CLINK_ERR_MODEL,
                              "driver '%s' drives the ground, which does not move", nm);
        if (def->body < 1 || def->body >= b->d.nbodies)
            return model_fail(b, CLINK_ERR_RANGE, "driver '%s': body %d must be in 1..%d", nm,
                              def->body, b->d.nbodies - 1);
        if (def->coordinate < 0 || def->coordinate > 2)
            return model_fail(b, CLINK_ERR_RANGE,
                              "driver '%s': coordinate %d must be 0 (x), 1 (y) or 2 (phi)", nm,
                              def->coordinate);
        break;
    case CLINK_DRIVE_JOINT_ANGLE:
    case CLINK_DRIVE_JOINT_DISPLACEMENT: {
        clink_joint_type want = def->target == CLINK_DRIVE_JOINT_ANGLE ? CLINK_JOINT_REVOLUTE
                                                                       : CLINK_JOINT_TRANSLATIONAL;
        if (def->joint < 0 || def->joint >= b->d.njoints)
            return model_fail(b, CLINK_ERR_RANGE, "driver '%s': joint %d must be in 0..%d", nm,
                              def->joint, b->d.njoints - 1);
        const model_joint *mj = &b->d.joints[def->joint];
        if (mj->def.type != want)
            return model_fail(
                b, CLINK_ERR_MODEL, "driver '%s': a %s driver needs a %s joint; joint '%s' is %s",
                nm, def->target == CLINK_DRIVE_JOINT_ANGLE ? "joint-angle" : "joint-displacement",
                joint_class_of(want)->name, mj->name[0] ? mj->name : "(unnamed)",
                joint_class_of(mj->def.type)->name);
        break;
    }
    default:
        return model_fail(b, CLINK_ERR_RANGE, "driver '%s': target %d is not in 0..%d", nm,
                          (int) def->target, CLINK_DRIVER_TARGET_COUNT_ - 1);
    }
    char name[CLINK_NAME_MAX];
    clink_status st = model_take_name(b, CLINK_ENTITY_DRIVER, def->name, name);
    if (st != CLINK_OK)
        return st;
    if (model_grow((void **) &b->d.drivers, &b->d.cap_drivers, b->d.ndrivers, sizeof(model_driver)))
        return model_fail(b, CLINK_ERR_NOMEM, "add_driver: out of memory");
    model_driver *md = &b->d.drivers[b->d.ndrivers];
    memcpy(md->name, name, CLINK_NAME_MAX);
    md->def = *def;
    md->def.name = NULL;
    if (timefn_copy(&md->def.function) != 0)
        return model_fail(b, CLINK_ERR_NOMEM, "add_driver: out of memory");
    model_name_added(&b->d, CLINK_ENTITY_DRIVER, b->d.ndrivers);
    if (id)
        *id = b->d.ndrivers;
    b->d.ndrivers++;
    return CLINK_OK;
}

/* ---- loads ---------------------------------------------------------------- */

clink_status clink_model_builder_set_gravity(clink_model_builder *b, double gx, double gy)
{
    if (!b)
        return CLINK_ERR_ARG;
    if (!isfinite(gx) || !isfinite(gy))
        return model_fail(b, CLINK_ERR_RANGE, "gravity (%g, %g) m/s^2 is not finite", gx, gy);
    b->d.gravity[0] = gx;
    b->d.gravity[1] = gy;
    return CLINK_OK;
}

clink_status clink_model_builder_add_force(clink_model_builder *b, const clink_force_def *def,
                                           int *id)
{
    if (!b || !def)
        return b ? model_fail(b, CLINK_ERR_ARG, "add_force: NULL definition") : CLINK_ERR_ARG;
    if (model_check_cookie(b, def->cookie, MODEL_COOKIE_FORCE, "force") != CLINK_OK)
        return CLINK_ERR_ARG;
    const char *nm = label(def->name);
    if ((int) def->type < 0 || def->type >= CLINK_FORCE_TYPE_COUNT_)
        return model_fail(b, CLINK_ERR_RANGE, "force '%s': type %d is not in 0..%d", nm,
                          (int) def->type, CLINK_FORCE_TYPE_COUNT_ - 1);
    int two = def->type == CLINK_FORCE_SPRING_DAMPER ||
              def->type == CLINK_FORCE_ROTATIONAL_SPRING_DAMPER || def->type == CLINK_FORCE_BEAM;
    if (def->body_a < 0 || def->body_a >= b->d.nbodies ||
        (two && (def->body_b < 0 || def->body_b >= b->d.nbodies)))
        return model_fail(b, CLINK_ERR_RANGE, "force '%s': bodies %d, %d must be in 0..%d", nm,
                          def->body_a, def->body_b, b->d.nbodies - 1);
    char bw[CLINK_NAME_MAX + 16];
    if (two && def->body_a == def->body_b)
        return model_fail(b, CLINK_ERR_MODEL, "force '%s' connects %s to itself", nm,
                          model_body_word(&b->d, def->body_a, bw, sizeof bw));
    if (!two && def->body_a == 0)
        return model_fail(b, CLINK_ERR_MODEL, "force '%s' acts on the ground, which does not move",
                          nm);
    double v[] = {def->point_a[0], def->point_a[1],  def->point_b[0], def->point_b[1],
                  def->fx,         def->fy,          def->torque,     def->k,
                  def->c,          def->free_length, def->actuator};
    if (!all_finite(v, 11))
        return model_fail(b, CLINK_ERR_RANGE, "force '%s': a parameter is not finite", nm);
    char fmsg[160];
    if (timefn_check(&def->scale, fmsg, sizeof fmsg) != 0)
        return model_fail(b, CLINK_ERR_RANGE, "force '%s': scale: %s", nm, fmsg);
    if (def->k < 0.0 || def->c < 0.0)
        return model_fail(b, CLINK_ERR_RANGE,
                          "force '%s': stiffness k = %g and damping c = %g must be >= 0", nm,
                          def->k, def->c);
    if (def->type == CLINK_FORCE_SPRING_DAMPER && def->free_length < 0.0)
        return model_fail(b, CLINK_ERR_RANGE, "force '%s': free length %g m must be >= 0", nm,
                          def->free_length);
    if (def->type == CLINK_FORCE_BEAM && model_beam_check(b, def, nm) != CLINK_OK)
        return CLINK_ERR_RANGE;
    char name[CLINK_NAME_MAX];
    clink_status st = model_take_name(b, CLINK_ENTITY_FORCE, def->name, name);
    if (st != CLINK_OK)
        return st;
    if (model_grow((void **) &b->d.forces, &b->d.cap_forces, b->d.nforces, sizeof(model_force)))
        return model_fail(b, CLINK_ERR_NOMEM, "add_force: out of memory");
    model_force *mf = &b->d.forces[b->d.nforces];
    memcpy(mf->name, name, CLINK_NAME_MAX);
    mf->def = *def;
    mf->def.name = NULL;
    if (timefn_copy(&mf->def.scale) != 0)
        return model_fail(b, CLINK_ERR_NOMEM, "add_force: out of memory");
    model_name_added(&b->d, CLINK_ENTITY_FORCE, b->d.nforces);
    if (id)
        *id = b->d.nforces;
    b->d.nforces++;
    return CLINK_OK;
}

/* ---- settings ------------------------------------------------------------- */

static clink_status check_settings(clink_model_builder *b, const clink_settings_def *s)
{
    if (!(s->t_end > 0.0) || !isfinite(s->t_end))
        return model_fail(b, CLINK_ERR_RANGE, "settings: t_end %g s must be > 0", s->t_end);
    if (!(s->output_step > 0.0) || !isfinite(s->output_step))
        return model_fail(b, CLINK_ERR_RANGE, "settings: output_step %g s must be > 0",
                          s->output_step);
    if (!(s->rtol > 0.0) || !(s->rtol < 1.0))
        return model_fail(b, CLINK_ERR_RANGE, "settings: rtol %g must be in (0, 1)", s->rtol);
    if (!(s->atol > 0.0) || !isfinite(s->atol))
        return model_fail(b, CLINK_ERR_RANGE, "settings: atol %g must be > 0", s->atol);
    if (!(s->max_step >= 0.0) || !isfinite(s->max_step))
        return model_fail(b, CLINK_ERR_RANGE, "settings: max_step %g s must be >= 0 (0: no limit)",
                          s->max_step);
    char words[128];
    if ((int) s->method < 0 || s->method >= CLINK_METHOD_COUNT)
        return model_fail(b, CLINK_ERR_RANGE, "settings: method %d must be 0..%d (%s, auto)",
                          (int) s->method, CLINK_METHOD_COUNT - 1,
                          integrator_methods_with(0, words, sizeof words));
    if ((int) s->drift < 0 || s->drift > CLINK_DRIFT_AUTO)
        return model_fail(b, CLINK_ERR_RANGE, "settings: drift %d must be 0..3", (int) s->drift);
    /* auto resolves to a method that projects when the drift is projection (sim_auto.c) */
    if (s->method != CLINK_METHOD_AUTO && s->drift == CLINK_DRIFT_PROJECTION &&
        !(integrator_caps(s->method) & CLINK_CAP_PROJECTION))
        return model_fail(b, CLINK_ERR_ARG,
                          "settings: drift projection needs a method that projects (%s); %s "
                          "does not: use baumgarte with it",
                          integrator_methods_with(CLINK_CAP_PROJECTION, words, sizeof words),
                          clink_method_name(s->method));
    if (!(s->baumgarte_alpha >= 0.0) || !(s->baumgarte_beta >= 0.0) ||
        !isfinite(s->baumgarte_alpha) || !isfinite(s->baumgarte_beta))
        return model_fail(b, CLINK_ERR_RANGE, "settings: Baumgarte alpha %g, beta %g must be >= 0",
                          s->baumgarte_alpha, s->baumgarte_beta);
    if (!(s->settle_speed > 0.0) || !isfinite(s->settle_speed))
        return model_fail(b, CLINK_ERR_RANGE, "settings: settle_speed %g m/s must be > 0",
                          s->settle_speed);
    if (!(s->max_steps > 0.0) || !isfinite(s->max_steps))
        return model_fail(b, CLINK_ERR_RANGE, "settings: max_steps %g must be finite and > 0",
                          s->max_steps);
    if (!(s->min_step >= 0.0) || !isfinite(s->min_step))
        return model_fail(b, CLINK_ERR_RANGE,
                          "settings: min_step %g s must be finite and >= 0 (0: automatic)",
                          s->min_step);
    if (!(s->wall_limit >= 0.0) || !isfinite(s->wall_limit))
        return model_fail(b, CLINK_ERR_RANGE,
                          "settings: wall_limit %g s must be finite and >= 0 (0: no limit)",
                          s->wall_limit);
    if (s->strict != 0 && s->strict != 1)
        return model_fail(b, CLINK_ERR_RANGE, "settings: strict %d must be 0 or 1", s->strict);
    if ((int) s->contact_bookkeeping < 0 || s->contact_bookkeeping > CLINK_BOOKKEEPING_HYSTERESIS)
        return model_fail(b, CLINK_ERR_RANGE, "settings: contact_bookkeeping %d must be 0..1",
                          (int) s->contact_bookkeeping);
    if (s->start < CLINK_START_AS_GIVEN || s->start > CLINK_START_IDEAL_CENTRED)
        return model_fail(b, CLINK_ERR_RANGE, "settings: start %d must be 0..2", s->start);
    if (s->window < 0 || s->window > 2)
        return model_fail(b, CLINK_ERR_RANGE,
                          "settings: window %d must be 0 (off), 1 (on) or 2 (auto)", s->window);
    return CLINK_OK;
}

clink_status clink_model_builder_set_settings(clink_model_builder *b,
                                              const clink_settings_def *settings)
{
    if (!b || !settings)
        return b ? model_fail(b, CLINK_ERR_ARG, "set_settings: NULL settings") : CLINK_ERR_ARG;
    if (model_check_cookie(b, settings->cookie, MODEL_COOKIE_SETTINGS, "settings") != CLINK_OK)
        return CLINK_ERR_ARG;
    clink_status st = check_settings(b, settings);
    if (st == CLINK_OK)
        b->d.settings = *settings;
    return st;
}

/* ---- finalize ------------------------------------------------------------- */

static void *dup_array(const void *src, int n, size_t sz)
{
    void *p = malloc((size_t) (n > 0 ? n : 1) * sz);
    if (p && n > 0)
        memcpy(p, src, (size_t) n * sz);
    return p;
}

clink_status clink_model_builder_finalize(clink_model_builder *b, clink_model **model)
{
    if (!model)
        return b ? model_fail(b, CLINK_ERR_ARG, "finalize: NULL output pointer") : CLINK_ERR_ARG;
    *model = NULL;
    if (!b)
        return CLINK_ERR_ARG;
    if (b->d.nbodies < 2)
        return model_fail(b, CLINK_ERR_MODEL, "model has no moving body");
    clink_status st = check_settings(b, &b->d.settings);
    if (st != CLINK_OK)
        return st;
    clink_model *m = calloc(1, sizeof *m);
    if (!m)
        return model_fail(b, CLINK_ERR_NOMEM, "finalize: out of memory");
    m->d = b->d;
    m->d.bodies = dup_array(b->d.bodies, b->d.nbodies, sizeof(model_body));
    m->d.joints = dup_array(b->d.joints, b->d.njoints, sizeof(model_joint));
    m->d.drivers = dup_array(b->d.drivers, b->d.ndrivers, sizeof(model_driver));
    m->d.forces = dup_array(b->d.forces, b->d.nforces, sizeof(model_force));
    int elems_ok = model_elements_copy(&m->d, &b->d) == 0;
    int fns_ok = model_inputs_copy(&m->d, &b->d) == 0;
    fns_ok = model_functions_copy(&m->d) == 0 && fns_ok;
    m->d.cap_bodies = b->d.nbodies;
    m->d.cap_joints = b->d.njoints;
    m->d.cap_drivers = b->d.ndrivers;
    m->d.cap_forces = b->d.nforces;
    int names_ok = 1;
    for (int k = 0; k < CLINK_ENTITY_COUNT_; k++) {
        m->d.names[k].slots = b->d.names[k].cap
                                  ? dup_array(b->d.names[k].slots, b->d.names[k].cap, sizeof(int))
                                  : NULL;
        names_ok = names_ok && (b->d.names[k].cap == 0 || m->d.names[k].slots);
    }
    m->joint_row = malloc((size_t) (b->d.njoints + 1) * sizeof(int));
    m->driver_row = malloc((size_t) (b->d.ndrivers + 1) * sizeof(int));
    if (!m->d.bodies || !m->d.joints || !m->d.drivers || !m->d.forces || !elems_ok || !fns_ok ||
        model_contacts_build(m) != 0 || !m->joint_row || !m->driver_row || !names_ok) {
        clink_model_destroy(&m);
        return model_fail(b, CLINK_ERR_NOMEM, "finalize: out of memory");
    }
    m->ncoords = 3 * (m->d.nbodies - 1);
    int row = 0;
    for (int j = 0; j < m->d.njoints; j++) {
        m->joint_row[j] = row;
        row += joint_class_of(m->d.joints[j].def.type)->neq;
    }
    for (int k = 0; k < m->d.ndrivers; k++)
        m->driver_row[k] = row++;
    m->nconstraints = row;
    if (m->nconstraints > m->ncoords) {
        int nc = m->nconstraints, nq = m->ncoords;
        clink_model_destroy(&m);
        return model_fail(b, CLINK_ERR_SINGULAR,
                          "model has %d constraint equations for %d coordinates: redundant", nc,
                          nq);
    }
    b->error[0] = '\0';
    *model = m;
    return CLINK_OK;
}

void clink_model_destroy(clink_model **model)
{
    if (!model || !*model)
        return;
    data_free(&(*model)->d);
    free((*model)->joint_row);
    free((*model)->driver_row);
    for (int i = 0; i < (*model)->nwarnings; i++)
        free((*model)->warnings[i]);
    free((*model)->warnings);
    free(*model);
    *model = NULL;
}

/* ---- queries -------------------------------------------------------------- */

void model_take_warnings(clink_model *m, char **warnings, int n)
{
    m->warnings = warnings;
    m->nwarnings = n;
}

int clink_model_warning_count(const clink_model *model)
{
    return model != NULL ? model->nwarnings : 0;
}

const char *clink_model_warning(const clink_model *model, int i)
{
    if (model == NULL || i < 0 || i >= model->nwarnings)
        return NULL;
    return model->warnings[i];
}

int clink_model_count(const clink_model *model, clink_entity kind)
{
    return model ? entity_count(&model->d, kind) : 0;
}

int clink_model_constraint_count(const clink_model *model)
{
    return model ? model->nconstraints : 0;
}

clink_status clink_model_body(const clink_model *model, int id, clink_body_def *def)
{
    if (!model || !def || id < 0 || id >= model->d.nbodies)
        return CLINK_ERR_ARG;
    *def = model->d.bodies[id].def;
    def->name = model->d.bodies[id].name;
    return CLINK_OK;
}

clink_status clink_model_joint(const clink_model *model, int id, clink_joint_def *def)
{
    if (!model || !def || id < 0 || id >= model->d.njoints)
        return CLINK_ERR_ARG;
    *def = model->d.joints[id].def;
    def->name = model->d.joints[id].name;
    return CLINK_OK;
}

clink_status clink_model_driver(const clink_model *model, int id, clink_driver_def *def)
{
    if (!model || !def || id < 0 || id >= model->d.ndrivers)
        return CLINK_ERR_ARG;
    *def = model->d.drivers[id].def;
    def->name = model->d.drivers[id].name;
    return CLINK_OK;
}

clink_status clink_model_force(const clink_model *model, int id, clink_force_def *def)
{
    if (!model || !def || id < 0 || id >= model->d.nforces)
        return CLINK_ERR_ARG;
    *def = model->d.forces[id].def;
    def->name = model->d.forces[id].name;
    return CLINK_OK;
}

void clink_model_gravity(const clink_model *model, double *gx, double *gy)
{
    if (gx)
        *gx = model ? model->d.gravity[0] : 0.0;
    if (gy)
        *gy = model ? model->d.gravity[1] : 0.0;
}

clink_settings_def clink_model_settings(const clink_model *model)
{
    return model ? model->d.settings : clink_default_settings_def();
}
