/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * model_contact.c: contact elements in the model builder (include/clink/model.h,
 * section "contact"): pairs, revolute and translational clearance joints, each a row of
 * the element table (src/elements/element.h), and the flat list of contacts finalize
 * expands them into.
 *
 * Each definition is checked as it arrives, the same steps for every kind: the bodies
 * exist and differ, the class's own check (shapes, radii, clearance, axis), the
 * treatment (piecewise: a restitution in (0, 1]), then for a continuous contact the
 * stiffness from materials, the law (clink_law_find, clink_law_check) and the friction
 * (clink_friction_check).
 *
 * Stiffness from materials when params.K is not given (Alves et al. 2015, Eqs. 3-4):
 *   external (pairs):   K = 4 / (3 (s1 + s2)) sqrt(R*),  1/R* = 1/R1 + 1/R2,
 *                       s_k = (1 - nu_k^2) / E_k, R_k the class's radii (a shape's
 *                       radius, INFINITY for a line), unless params.R1, R2 are given;
 *   internal (journal): R1 = R_journal and R2 = -R_bearing, R* = R_j R_b / (R_b - R_j)
 *                       (clink_contact_stiffness_journal_bearing);
 *   given:              none (a corner on a plane): params.K is required.
 * The computed K is stored in params.K so that the simulation and the getters see the
 * value used. The radii of curvature params.R1, R2 (read by the elastoplastic laws) are
 * filled from the class's radii when not given.
 */
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the fields every contact element's definition shares: law parameters unset (NaN),
   default friction, continuous treatment, no restitution (piecewise only) */
static void contact_defaults(clink_contact_params *p, clink_friction_params *f,
                             clink_contact_treatment *t, double *e)
{
    clink_contact_params_init(p);
    *f = clink_default_friction_params();
    *t = CLINK_CONTACT_CONTINUOUS;
    *e = NAN;
}

clink_contact_pair_def clink_default_contact_pair_def(void)
{
    clink_contact_pair_def d;
    memset(&d, 0, sizeof d);
    d.body_a = 0;
    d.body_b = 1;
    d.shape_a.type = CLINK_SHAPE_CIRCLE;
    d.shape_b.type = CLINK_SHAPE_CIRCLE;
    d.cookie = MODEL_COOKIE_CONTACT_PAIR;
    contact_defaults(&d.params, &d.friction, &d.treatment, &d.restitution);
    return d;
}

clink_clearance_joint_def clink_default_clearance_joint_def(void)
{
    clink_clearance_joint_def d;
    memset(&d, 0, sizeof d);
    d.journal_body = 1;
    d.bearing_body = 0;
    d.cookie = MODEL_COOKIE_CLEARANCE_JOINT;
    d.lubrication.transition = 0.95;
    contact_defaults(&d.params, &d.friction, &d.treatment, &d.restitution);
    return d;
}

clink_translational_clearance_def clink_default_translational_clearance_def(void)
{
    clink_translational_clearance_def d;
    memset(&d, 0, sizeof d);
    d.guide_body = 0;
    d.slider_body = 1;
    d.axis[0] = 1.0;
    d.guide_length = NAN;
    d.cookie = element_class_of(CLINK_ELEMENT_TRANSLATIONAL_CLEARANCE)->cookie;
    contact_defaults(&d.params, &d.friction, &d.treatment, &d.restitution);
    return d;
}

clink_gear_pair_def clink_default_gear_pair_def(void)
{
    clink_gear_pair_def d;
    memset(&d, 0, sizeof d);
    d.body1 = 1;
    d.body2 = 2;
    d.pressure_angle = 0.3490658503988659; /* 20 deg */
    d.contact_ratio = d.addendum_radius1 = d.addendum_radius2 = NAN;
    d.cookie = element_class_of(CLINK_ELEMENT_GEAR_PAIR)->cookie;
    contact_defaults(&d.params, &d.friction, &d.treatment, &d.restitution);
    return d;
}

clink_stop_def clink_default_stop_def(void)
{
    clink_stop_def d;
    memset(&d, 0, sizeof d);
    d.body1 = 0;
    d.body2 = 1;
    d.axis[0] = 1.0;
    d.lower = d.upper = NAN;
    d.cookie = element_class_of(CLINK_ELEMENT_STOP)->cookie;
    contact_defaults(&d.params, &d.friction, &d.treatment, &d.restitution);
    return d;
}

static clink_status check_bodies(clink_model_builder *b, const char *what, const char *name, int ba,
                                 int bb)
{
    int nb = b->d.nbodies;
    if (ba < 0 || ba >= nb || bb < 0 || bb >= nb)
        return model_fail(b, CLINK_ERR_RANGE, "%s '%s': body %d does not exist (%d bodies)", what,
                          name, (ba < 0 || ba >= nb) ? ba : bb, nb);
    char bw[CLINK_NAME_MAX + 16];
    if (ba == bb)
        return model_fail(b, CLINK_ERR_MODEL, "%s '%s': both shapes are on %s", what, name,
                          model_body_word(&b->d, ba, bw, sizeof bw));
    return CLINK_OK;
}

/* piecewise treatment: restitution in (0, 1]; 1 if piecewise, 0 if continuous, -1 on error */
static int check_treatment(clink_model_builder *b, const char *what, const char *name,
                           clink_contact_treatment t, double e)
{
    if (t == CLINK_CONTACT_CONTINUOUS)
        return 0;
    if (t != CLINK_CONTACT_PIECEWISE) {
        model_fail(b, CLINK_ERR_RANGE, "%s '%s': treatment %d is not a contact treatment", what,
                   name, (int) t);
        return -1;
    }
    if (isnan(e)) {
        model_fail(b, CLINK_ERR_ARG,
                   "%s '%s': restitution missing for the piecewise treatment; give e in (0, 1]",
                   what, name);
        return -1;
    }
    if (!(e > 0.0 && e <= 1.0)) {
        model_fail(b, CLINK_ERR_RANGE,
                   "%s '%s': restitution %g is out of range for the piecewise treatment; "
                   "0 < e <= 1",
                   what, name, e);
        return -1;
    }
    return 1;
}

/* law, stiffness and friction shared by pairs and clearance joints */
static clink_status check_law(clink_model_builder *b, const char *what, const char *name,
                              const char *law_name, clink_contact_params *p,
                              const clink_friction_params *fr, char law_out[CLINK_NAME_MAX])
{
    if (!law_name || !*law_name)
        return model_fail(b, CLINK_ERR_ARG, "%s '%s': no contact law given (see clink laws)", what,
                          name);
    const clink_law *law = clink_law_find(law_name);
    if (!law)
        return model_fail(b, CLINK_ERR_NOT_FOUND,
                          "%s '%s': unknown contact law '%s' (clink laws lists them)", what, name,
                          law_name);
    char msg[200];
    clink_status st = clink_law_check(law, p, msg, sizeof msg);
    if (st != CLINK_OK)
        return model_fail(b, st, "%s '%s': law %s: %s", what, name, clink_law_name(law), msg);
    st = clink_friction_check(fr, msg, sizeof msg);
    if (st != CLINK_OK)
        return model_fail(b, st, "%s '%s': %s", what, name, msg);
    snprintf(law_out, CLINK_NAME_MAX, "%s", clink_law_name(law));
    return CLINK_OK;
}

/* fills p->R1, p->R2 from the geometry when not given */
static void radii_from_geometry(clink_contact_params *p, double R1, double R2)
{
    if (isnan(p->R1))
        p->R1 = R1;
    if (isnan(p->R2))
        p->R2 = R2;
}

/* fills p->K from materials when K is not given but E1, nu1, E2, nu2 are */
static clink_status stiffness_from_materials(clink_model_builder *b, const char *what,
                                             const char *name, clink_contact_params *p,
                                             element_stiffness mode, double R1, double R2)
{
    if (!isnan(p->K) || mode == ELEMENT_STIFFNESS_GIVEN)
        return CLINK_OK;
    if (isnan(p->E1) || isnan(p->E2) || isnan(p->nu1) || isnan(p->nu2))
        return CLINK_OK; /* the law check names what is missing */
    double K = NAN;
    clink_status st;
    if (mode == ELEMENT_STIFFNESS_INTERNAL)
        st = clink_contact_stiffness_journal_bearing(p->E1, p->nu1, p->E2, p->nu2, R1, R2, &K);
    else
        st = clink_contact_stiffness_hertz(p->E1, p->nu1, p->E2, p->nu2, isnan(p->R1) ? R1 : p->R1,
                                           isnan(p->R2) ? R2 : p->R2, &K);
    if (st != CLINK_OK)
        return model_fail(b, CLINK_ERR_RANGE,
                          "%s '%s': stiffness from materials out of range: E1, E2 > 0 (Pa), "
                          "-1 < nu1, nu2 < 0.5",
                          what, name);
    p->K = K;
    return CLINK_OK;
}

/* the common checks of every element kind (the file's opening comment), then its
   class's; on success the element is stored and *id (optional) is its index in its kind */
static clink_status element_check(clink_model_builder *b, const element_class *ec, model_element *e)
{
    element_common c = ec->common(&e->def);
    const char *name = (*c.name && **c.name) ? *c.name : "(unnamed)";
    int ba, bb;
    char msg[400];

    ec->bodies(&e->def, &ba, &bb);
    clink_status st = check_bodies(b, ec->word, name, ba, bb);
    if (st != CLINK_OK)
        return st;
    st = ec->check(&e->def, name, msg, sizeof msg);
    if (st != CLINK_OK)
        return model_fail(b, st, "%s", msg);
    int pw = check_treatment(b, ec->word, name, *c.treatment, *c.restitution);
    if (pw < 0)
        return isnan(*c.restitution) ? CLINK_ERR_ARG : CLINK_ERR_RANGE;
    if (pw)
        return CLINK_OK;
    double R[4];
    element_stiffness mode = ec->radii(&e->def, R);
    if (mode != ELEMENT_STIFFNESS_GIVEN)
        radii_from_geometry(c.params, R[0], R[1]);
    st = stiffness_from_materials(b, ec->word, name, c.params, mode, R[2], R[3]);
    if (st == CLINK_OK && ec->k_missing && isnan(c.params->K))
        return model_fail(b, CLINK_ERR_ARG, "%s '%s': %s", ec->word, name, ec->k_missing);
    if (st == CLINK_OK)
        st = check_law(b, ec->word, name, *c.law, c.params, c.friction, e->law);
    return st;
}

static clink_status element_add(clink_model_builder *b, clink_element_kind kind, const void *def,
                                size_t size, const char *fn, const char *cookie_what, int *id)
{
    const element_class *ec = element_class_of(kind);
    model_data *d = b ? &b->d : NULL;
    model_element e;

    if (!b || !def)
        return b ? model_fail(b, CLINK_ERR_ARG, "%s: NULL definition", fn) : CLINK_ERR_ARG;
    memset(&e, 0, sizeof e);
    memcpy(&e.def, def, size);
    element_common c = ec->common(&e.def);
    if (model_check_cookie(b, *c.cookie, ec->cookie, cookie_what) != CLINK_OK)
        return CLINK_ERR_ARG;
    clink_status st = element_check(b, ec, &e);
    if (st == CLINK_OK)
        st = model_take_name(b, ec->entity, *c.name, e.name);
    if (st != CLINK_OK)
        return st;
    if (model_grow((void **) &d->elems, &d->cap_elems, d->nelems, sizeof e) ||
        model_grow((void **) &d->of_kind[kind], &d->cap_of_kind[kind], d->nof_kind[kind],
                   sizeof(int)))
        return model_fail(b, CLINK_ERR_NOMEM, "%s: out of memory", fn);
    *c.name = NULL;
    *c.law = NULL;
    e.kind = kind;
    e.index = d->nof_kind[kind];
    if (e.name[0] != '\0')
        memcpy(e.label, e.name, sizeof e.label);
    else
        snprintf(e.label, sizeof e.label, "%s%d", ec->unnamed, e.index);
    d->elems[d->nelems] = e;
    d->of_kind[kind][e.index] = d->nelems;
    d->nelems++;
    d->nof_kind[kind]++;
    model_name_added(d, ec->entity, e.index);
    if (id)
        *id = e.index;
    b->error[0] = '\0';
    return CLINK_OK;
}

clink_status clink_model_builder_add_contact_pair(clink_model_builder *b,
                                                  const clink_contact_pair_def *def, int *id)
{
    return element_add(b, CLINK_ELEMENT_PAIR, def, sizeof *def, "add_contact_pair", "contact_pair",
                       id);
}

clink_status clink_model_builder_add_clearance_joint(clink_model_builder *b,
                                                     const clink_clearance_joint_def *def, int *id)
{
    return element_add(b, CLINK_ELEMENT_REVOLUTE_CLEARANCE, def, sizeof *def, "add_clearance_joint",
                       "clearance_joint", id);
}

clink_status clink_model_builder_add_translational_clearance(
    clink_model_builder *b, const clink_translational_clearance_def *def, int *id)
{
    return element_add(b, CLINK_ELEMENT_TRANSLATIONAL_CLEARANCE, def, sizeof *def,
                       "add_translational_clearance", "translational_clearance", id);
}

clink_status clink_model_builder_add_stop(clink_model_builder *b, const clink_stop_def *def,
                                          int *id)
{
    return element_add(b, CLINK_ELEMENT_STOP, def, sizeof *def, "add_stop", "stop", id);
}

clink_status clink_model_builder_add_gear_pair(clink_model_builder *b,
                                               const clink_gear_pair_def *def, int *id)
{
    return element_add(b, CLINK_ELEMENT_GEAR_PAIR, def, sizeof *def, "add_gear_pair", "gear_pair",
                       id);
}

/* element id of `kind` in model (NULL out of range) */
static const model_element *kind_element(const clink_model *model, clink_element_kind kind, int id)
{
    if (!model || id < 0 || id >= model->d.nof_kind[kind])
        return NULL;
    return &model->d.elems[model->d.of_kind[kind][id]];
}

clink_status clink_model_contact_pair(const clink_model *model, int id, clink_contact_pair_def *def)
{
    const model_element *e = kind_element(model, CLINK_ELEMENT_PAIR, id);
    if (!e || !def)
        return CLINK_ERR_ARG;
    *def = e->def.pair;
    def->name = e->name;
    def->law = e->law;
    return CLINK_OK;
}

clink_status clink_model_clearance_joint(const clink_model *model, int id,
                                         clink_clearance_joint_def *def)
{
    const model_element *e = kind_element(model, CLINK_ELEMENT_REVOLUTE_CLEARANCE, id);
    if (!e || !def)
        return CLINK_ERR_ARG;
    *def = e->def.revolute_clearance;
    def->name = e->name;
    def->law = e->law;
    return CLINK_OK;
}

clink_status clink_model_translational_clearance(const clink_model *model, int id,
                                                 clink_translational_clearance_def *def)
{
    const model_element *e = kind_element(model, CLINK_ELEMENT_TRANSLATIONAL_CLEARANCE, id);
    if (!e || !def)
        return CLINK_ERR_ARG;
    *def = e->def.translational_clearance;
    def->name = e->name;
    def->law = e->law;
    return CLINK_OK;
}

clink_status clink_model_stop(const clink_model *model, int id, clink_stop_def *def)
{
    const model_element *e = kind_element(model, CLINK_ELEMENT_STOP, id);
    if (!e || !def)
        return CLINK_ERR_ARG;
    *def = e->def.stop;
    def->name = e->name;
    def->law = e->law;
    return CLINK_OK;
}

/* element i of the model in the contacts' order (kind by kind): name, law and parameters */
static int law_contact_at(const clink_model *model, int i, const char **name, const char **law,
                          clink_contact_params *params)
{
    const model_data *d = &model->d;
    int k = 0;

    while (k < CLINK_ELEMENT_KIND_COUNT_ && i >= d->nof_kind[k])
        i -= d->nof_kind[k++];
    if (k == CLINK_ELEMENT_KIND_COUNT_)
        return -1;
    const model_element *e = &d->elems[d->of_kind[k][i]];
    element_def def = e->def;
    element_common c = element_class_of(e->kind)->common(&def);
    if (*c.treatment != CLINK_CONTACT_CONTINUOUS)
        return -1;
    *name = e->name;
    *law = e->law;
    *params = *c.params;
    return 0;
}

/* a law with its parameters, the first contact that has them and how many do */
typedef struct law_kind {
    const char *law, *first;
    clink_contact_params params;
    int count;
} law_kind;

enum { LAW_KINDS = 32 };

/*
 * One warning per distinct law and parameters (the first LAW_KINDS of them) whose
 * requested restitution the law's own rule does not reach, naming the first
 * contact and how many share them (include/clink/model.h).
 */
int clink_model_law_warnings(const clink_model *model, char *buf, size_t size)
{
    int n = model ? model->d.nelems : 0;
    law_kind kinds[LAW_KINDS];
    int nk = 0, written = 0;
    size_t used = 0;

    if (buf == NULL || size == 0)
        return 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        law_kind k = {NULL, NULL, {0}, 1};
        int j = 0;

        if (law_contact_at(model, i, &k.first, &k.law, &k.params) != 0)
            continue;
        while (j < nk && (strcmp(kinds[j].law, k.law) != 0 ||
                          memcmp(&kinds[j].params, &k.params, sizeof k.params) != 0))
            j++;
        if (j < nk)
            kinds[j].count++;
        else if (nk < LAW_KINDS)
            kinds[nk++] = k;
    }
    for (int j = 0; j < nk; j++) {
        const clink_law *law = clink_law_find(kinds[j].law);
        const char *name = kinds[j].first != NULL ? kinds[j].first : "(unnamed)";
        char text[600], line[700];
        int w;

        if (law == NULL ||
            !clink_law_restitution_warning(law, &kinds[j].params, NAN, text, sizeof text))
            continue;
        if (kinds[j].count > 1)
            w = snprintf(line, sizeof line,
                         "contact '%s' and %d others with its law and parameters: %s\n", name,
                         kinds[j].count - 1, text);
        else
            w = snprintf(line, sizeof line, "contact '%s': %s\n", name, text);
        if (w < 0 || (size_t) w >= sizeof line || used + (size_t) w >= size)
            break;
        memcpy(buf + used, line, (size_t) w + 1);
        used += (size_t) w;
        written++;
    }
    return written;
}

clink_status clink_model_gear_pair(const clink_model *model, int id, clink_gear_pair_def *def)
{
    const model_element *e = kind_element(model, CLINK_ELEMENT_GEAR_PAIR, id);
    if (!e || !def)
        return CLINK_ERR_ARG;
    *def = e->def.gear_pair;
    def->name = e->name;
    def->law = e->law;
    return CLINK_OK;
}
