/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * model_contact.c: contact pairs and revolute clearance joints in the model
 * builder (include/clink/model.h, section "contact").
 *
 * Each definition is checked as it arrives: bodies exist and differ, shapes are
 * valid (radii > 0, a line's normal non-zero and normalised here, a line only as
 * shape_a), the law exists (clink_law_find) and its parameters pass
 * clink_law_check(), the friction parameters pass clink_friction_check().
 *
 * Stiffness from materials when params.K is not given (Alves et al. 2015, Eqs. 3-4):
 *   pairs:           K = 4 / (3 (s1 + s2)) sqrt(R*),  1/R* = 1/R1 + 1/R2,
 *                    s_k = (1 - nu_k^2) / E_k, R_k the radius of shape k
 *                    (INFINITY for a line), unless params.R1, R2 are given;
 *   clearance joint: the internal-contact form with R1 = R_journal and
 *                    R2 = -R_bearing, R* = R_j R_b / (R_b - R_j)
 *                    (clink_contact_stiffness_journal_bearing).
 * The computed K is stored in params.K so that the simulation and the getters
 * see the value used. The radii of curvature params.R1, R2 (read by the
 * elastoplastic laws) are filled in the same way when not given: the shapes'
 * radii for a pair (a capsule's radius, INFINITY for a line), R_journal and
 * -R_bearing (concave) for a clearance joint.
 */
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

clink_contact_pair_def clink_default_contact_pair_def(void)
{
    clink_contact_pair_def d;
    memset(&d, 0, sizeof d);
    d.body_a = 0;
    d.body_b = 1;
    d.shape_a.type = CLINK_SHAPE_CIRCLE;
    d.shape_b.type = CLINK_SHAPE_CIRCLE;
    d.cookie = MODEL_COOKIE_CONTACT_PAIR;
    clink_contact_params_init(&d.params);
    d.friction = clink_default_friction_params();
    d.treatment = CLINK_CONTACT_CONTINUOUS;
    d.restitution = NAN;
    return d;
}

clink_clearance_joint_def clink_default_clearance_joint_def(void)
{
    clink_clearance_joint_def d;
    memset(&d, 0, sizeof d);
    d.journal_body = 1;
    d.bearing_body = 0;
    d.cookie = MODEL_COOKIE_CLEARANCE_JOINT;
    clink_contact_params_init(&d.params);
    d.friction = clink_default_friction_params();
    d.treatment = CLINK_CONTACT_CONTINUOUS;
    d.restitution = NAN;
    return d;
}

static int finite2(const double *x)
{
    return isfinite(x[0]) && isfinite(x[1]);
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

/* checks a shape; normalises a line's normal in *s; which: "shape_a" / "shape_b" */
static clink_status check_shape(clink_model_builder *b, const char *name, const char *which,
                                clink_shape_def *s)
{
    if ((int) s->type < 0 || s->type >= CLINK_SHAPE_TYPE_COUNT_)
        return model_fail(b, CLINK_ERR_RANGE, "contact pair '%s': %s type %d is not a shape type",
                          name, which, (int) s->type);
    if (!finite2(s->a) || !finite2(s->b) || !finite2(s->normal) || !isfinite(s->radius))
        return model_fail(b, CLINK_ERR_RANGE, "contact pair '%s': %s has a non-finite value", name,
                          which);
    switch (s->type) {
    case CLINK_SHAPE_CIRCLE:
    case CLINK_SHAPE_CAPSULE:
        if (!(s->radius > 0.0))
            return model_fail(b, CLINK_ERR_RANGE,
                              "contact pair '%s': %s radius %g m is out of range; radius > 0", name,
                              which, s->radius);
        if (s->type == CLINK_SHAPE_CAPSULE && s->a[0] == s->b[0] && s->a[1] == s->b[1])
            return model_fail(b, CLINK_ERR_RANGE,
                              "contact pair '%s': %s capsule ends coincide; use a circle", name,
                              which);
        return CLINK_OK;
    case CLINK_SHAPE_LINE: {
        double l = hypot(s->normal[0], s->normal[1]);
        if (!(l > 0.0))
            return model_fail(b, CLINK_ERR_RANGE,
                              "contact pair '%s': %s line normal is zero; give its outward normal",
                              name, which);
        s->normal[0] /= l;
        s->normal[1] /= l;
        return CLINK_OK;
    }
    case CLINK_SHAPE_BORE:
        return model_fail(b, CLINK_ERR_ARG,
                          "contact pair '%s': %s is a bore, which only a clearance joint has "
                          "(clink_model_builder_add_clearance_joint)",
                          name, which);
    case CLINK_SHAPE_TYPE_COUNT_:
        break;
    }
    return CLINK_ERR_INTERNAL;
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

static double shape_radius(const clink_shape_def *s)
{
    return s->type == CLINK_SHAPE_LINE ? INFINITY : s->radius;
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
                                             int internal, double R1, double R2)
{
    if (!isnan(p->K))
        return CLINK_OK;
    if (isnan(p->E1) || isnan(p->E2) || isnan(p->nu1) || isnan(p->nu2))
        return CLINK_OK; /* the law check names what is missing */
    double K = NAN;
    clink_status st;
    if (internal)
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

clink_status clink_model_builder_add_contact_pair(clink_model_builder *b,
                                                  const clink_contact_pair_def *def, int *id)
{
    if (!b || !def)
        return b ? model_fail(b, CLINK_ERR_ARG, "add_contact_pair: NULL definition")
                 : CLINK_ERR_ARG;
    if (model_check_cookie(b, def->cookie, MODEL_COOKIE_CONTACT_PAIR, "contact_pair") != CLINK_OK)
        return CLINK_ERR_ARG;
    const char *name = (def->name && *def->name) ? def->name : "(unnamed)";
    const char *what = "contact pair";
    model_contact_pair e;
    memset(&e, 0, sizeof e);
    e.def = *def;
    clink_status st = check_bodies(b, what, name, def->body_a, def->body_b);
    if (st == CLINK_OK)
        st = check_shape(b, name, "shape_a", &e.def.shape_a);
    if (st == CLINK_OK)
        st = check_shape(b, name, "shape_b", &e.def.shape_b);
    if (st != CLINK_OK)
        return st;
    if (e.def.shape_a.type == CLINK_SHAPE_LINE && e.def.shape_b.type == CLINK_SHAPE_LINE)
        return model_fail(b, CLINK_ERR_MODEL,
                          "contact pair '%s': two lines are not a contact geometry (use a circle "
                          "or capsule)",
                          name);
    if (e.def.shape_b.type == CLINK_SHAPE_LINE)
        return model_fail(b, CLINK_ERR_MODEL,
                          "contact pair '%s': a line may only be shape_a (swap the bodies)", name);
    int pw = check_treatment(b, what, name, def->treatment, def->restitution);
    if (pw < 0)
        return isnan(def->restitution) ? CLINK_ERR_ARG : CLINK_ERR_RANGE;
    if (!pw) {
        radii_from_geometry(&e.def.params, shape_radius(&e.def.shape_a),
                            shape_radius(&e.def.shape_b));
        st = stiffness_from_materials(b, what, name, &e.def.params, 0, shape_radius(&e.def.shape_a),
                                      shape_radius(&e.def.shape_b));
        if (st == CLINK_OK)
            st = check_law(b, what, name, def->law, &e.def.params, &def->friction, e.law);
    }
    if (st == CLINK_OK)
        st = model_take_name(b, CLINK_ENTITY_CONTACT_PAIR, def->name, e.name);
    if (st != CLINK_OK)
        return st;
    if (model_grow((void **) &b->d.pairs, &b->d.cap_pairs, b->d.npairs, sizeof e))
        return model_fail(b, CLINK_ERR_NOMEM, "add_contact_pair: out of memory");
    e.def.name = NULL;
    e.def.law = NULL;
    b->d.pairs[b->d.npairs] = e;
    model_name_added(&b->d, CLINK_ENTITY_CONTACT_PAIR, b->d.npairs);
    if (id)
        *id = b->d.npairs;
    b->d.npairs++;
    b->error[0] = '\0';
    return CLINK_OK;
}

clink_status clink_model_builder_add_clearance_joint(clink_model_builder *b,
                                                     const clink_clearance_joint_def *def, int *id)
{
    if (!b || !def)
        return b ? model_fail(b, CLINK_ERR_ARG, "add_clearance_joint: NULL definition")
                 : CLINK_ERR_ARG;
    if (model_check_cookie(b, def->cookie, MODEL_COOKIE_CLEARANCE_JOINT, "clearance_joint") !=
        CLINK_OK)
        return CLINK_ERR_ARG;
    const char *name = (def->name && *def->name) ? def->name : "(unnamed)";
    const char *what = "clearance joint";
    model_clearance e;
    memset(&e, 0, sizeof e);
    e.def = *def;
    clink_status st = check_bodies(b, what, name, def->journal_body, def->bearing_body);
    if (st != CLINK_OK)
        return st;
    if (!finite2(def->journal_point) || !finite2(def->bearing_point) ||
        !isfinite(def->journal_radius) || !isfinite(def->bearing_radius))
        return model_fail(b, CLINK_ERR_RANGE, "clearance joint '%s': non-finite point or radius",
                          name);
    if (!(def->journal_radius > 0.0))
        return model_fail(b, CLINK_ERR_RANGE,
                          "clearance joint '%s': journal radius %g m is out of range; > 0", name,
                          def->journal_radius);
    if (!(def->bearing_radius - def->journal_radius > 0.0))
        return model_fail(b, CLINK_ERR_RANGE,
                          "clearance joint '%s': clearance %g m (bearing radius %g m - journal "
                          "radius %g m) is out of range; clearance > 0",
                          name, def->bearing_radius - def->journal_radius, def->bearing_radius,
                          def->journal_radius);
    int pw = check_treatment(b, what, name, def->treatment, def->restitution);
    if (pw < 0)
        return isnan(def->restitution) ? CLINK_ERR_ARG : CLINK_ERR_RANGE;
    if (!pw) {
        radii_from_geometry(&e.def.params, def->journal_radius, -def->bearing_radius);
        st = stiffness_from_materials(b, what, name, &e.def.params, 1, def->journal_radius,
                                      def->bearing_radius);
        if (st == CLINK_OK && isnan(e.def.params.K))
            return model_fail(b, CLINK_ERR_ARG,
                              "clearance joint '%s': stiffness missing; give K (N/m^n) or the "
                              "materials of journal (E1, nu1) and bearing (E2, nu2)",
                              name);
        if (st == CLINK_OK)
            st = check_law(b, what, name, def->law, &e.def.params, &def->friction, e.law);
    }
    if (st == CLINK_OK)
        st = model_take_name(b, CLINK_ENTITY_CLEARANCE_JOINT, def->name, e.name);
    if (st != CLINK_OK)
        return st;
    if (model_grow((void **) &b->d.clearances, &b->d.cap_clearances, b->d.nclearances, sizeof e))
        return model_fail(b, CLINK_ERR_NOMEM, "add_clearance_joint: out of memory");
    e.def.name = NULL;
    e.def.law = NULL;
    b->d.clearances[b->d.nclearances] = e;
    model_name_added(&b->d, CLINK_ENTITY_CLEARANCE_JOINT, b->d.nclearances);
    if (id)
        *id = b->d.nclearances;
    b->d.nclearances++;
    b->error[0] = '\0';
    return CLINK_OK;
}

clink_status clink_model_contact_pair(const clink_model *model, int id, clink_contact_pair_def *def)
{
    if (!model || !def || id < 0 || id >= model->d.npairs)
        return CLINK_ERR_ARG;
    *def = model->d.pairs[id].def;
    def->name = model->d.pairs[id].name;
    def->law = model->d.pairs[id].law;
    return CLINK_OK;
}

clink_status clink_model_clearance_joint(const clink_model *model, int id,
                                         clink_clearance_joint_def *def)
{
    if (!model || !def || id < 0 || id >= model->d.nclearances)
        return CLINK_ERR_ARG;
    *def = model->d.clearances[id].def;
    def->name = model->d.clearances[id].name;
    def->law = model->d.clearances[id].law;
    return CLINK_OK;
}

/* one contact of the model (a pair or a clearance joint): its name, law and parameters */
static int law_contact_at(const clink_model *model, int i, const char **name, const char **law,
                          clink_contact_params *params)
{
    int pairs = clink_model_count(model, CLINK_ENTITY_CONTACT_PAIR);

    if (i < pairs) {
        clink_contact_pair_def d;
        if (clink_model_contact_pair(model, i, &d) != CLINK_OK ||
            d.treatment != CLINK_CONTACT_CONTINUOUS)
            return -1;
        *name = d.name;
        *law = d.law;
        *params = d.params;
    } else {
        clink_clearance_joint_def d;
        if (clink_model_clearance_joint(model, i - pairs, &d) != CLINK_OK ||
            d.treatment != CLINK_CONTACT_CONTINUOUS)
            return -1;
        *name = d.name;
        *law = d.law;
        *params = d.params;
    }
    return *law != NULL ? 0 : -1;
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
    int n = clink_model_count(model, CLINK_ENTITY_CONTACT_PAIR) +
            clink_model_count(model, CLINK_ENTITY_CLEARANCE_JOINT);
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
