/*
 * Builds a clink_model from a checked description (xml_internal.h) through the
 * public model-building API of include/clink/model.h, and nothing else: the
 * XML reader has no back door into the model. Each add that the builder
 * refuses becomes "FILE:LINE: <builder's message>" with the line of the element
 * that defined the entity.
 *
 * Mapping (docs/xml-reference.md): body -> clink_body_def; revolute,
 * translational, weld -> clink_joint_def (point1/body1 are point_a/body_a;
 * angle defaults to the initial phi2 - phi1); driver -> clink_driver_def
 * (angle: CLINK_DRIVE_JOINT_ANGLE, position: CLINK_DRIVE_JOINT_DISPLACEMENT,
 * coordinate: CLINK_DRIVE_BODY_COORDINATE; constant, linear, polynomial and
 * harmonic map to clink_function); loads -> clink_force_def; gravity and
 * settings over the API defaults (only what the file gives changes them);
 * revolute_clearance -> clink_clearance_joint_def and contact pairs ->
 * clink_contact_pair_def, the law's attributes into clink_contact_params and
 * the materials' E and nu into E1, nu1 (journal / shape 1) and E2, nu2
 * (bearing / shape 2; a shape without a material takes its body's), from which
 * the builder computes the stiffness when K is not given; treatment="impulse"
 * -> CLINK_CONTACT_PIECEWISE with the law's e as Newton's restitution.
 */
#include "clink/model.h"
#include "xml/xml_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "FILE:LINE: builder message" */
static clink_status build_fail(clink_status st, const char *path, int line,
                               const clink_model_builder *b, char *err, size_t err_size)
{
    if (err != NULL && err_size > 0)
        snprintf(err, err_size, "%s:%d: %s", path, line, clink_model_builder_error(b));
    return st;
}

static void to_function(const xml_driver *v, clink_function *f)
{
    int i;

    memset(f, 0, sizeof *f);
    switch (v->func) {
    case XML_FUNC_CONSTANT:
        f->type = CLINK_FUNCTION_CONSTANT;
        break;
    case XML_FUNC_LINEAR:
        f->type = CLINK_FUNCTION_LINEAR;
        break;
    case XML_FUNC_POLYNOMIAL:
        f->type = CLINK_FUNCTION_POLYNOMIAL;
        break;
    case XML_FUNC_HARMONIC:
        f->type = CLINK_FUNCTION_HARMONIC;
        break;
    }
    f->n = v->ncoef;
    for (i = 0; i < v->ncoef && i < CLINK_FUNCTION_MAX_COEFS; i++)
        f->c[i] = v->c[i];
}

/* law attributes and materials (index -1: none) into contact parameters */
static void to_params(const xml_desc *d, const xml_law *l, int mat1, int mat2,
                      clink_contact_params *p)
{
    clink_contact_params_init(p);
    p->K = l->K;
    p->n = l->n;
    p->e = l->e;
    p->chi = l->chi;
    p->c = l->c;
    p->alpha = l->alpha;
    p->v_ref = l->v_ref;
    p->Y = l->Y;
    p->psi = l->psi;
    p->xi = l->xi;
    if (mat1 >= 0) {
        p->E1 = d->materials[mat1].E;
        p->nu1 = d->materials[mat1].nu;
    }
    if (mat2 >= 0) {
        p->E2 = d->materials[mat2].E;
        p->nu2 = d->materials[mat2].nu;
    }
    /* elastoplastic laws: the yield strength of the softer material unless <law Y> is given */
    if (isnan(p->Y)) {
        double y1 = mat1 >= 0 ? d->materials[mat1].yield : NAN;
        double y2 = mat2 >= 0 ? d->materials[mat2].yield : NAN;
        p->Y = isnan(y1) ? y2 : isnan(y2) ? y1 : fmin(y1, y2);
    }
}

static void to_friction(const xml_friction *x, clink_friction_params *f)
{
    *f = clink_default_friction_params();
    if (x->kind == XML_FRICTION_COULOMB) {
        f->kind = CLINK_FRICTION_AMBROSIO;
        f->mu = x->mu;
        if (x->v0 == x->v0)
            f->v0 = x->v0;
        if (x->v1 == x->v1)
            f->v1 = x->v1;
    }
}

static void to_shape(const xml_shape *x, clink_shape_def *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->a, x->a, sizeof s->a);
    s->radius = x->radius;
    s->type = x->kind;
    switch (x->kind) {
    case CLINK_SHAPE_CIRCLE:
    case CLINK_SHAPE_BORE:
    case CLINK_SHAPE_TYPE_COUNT_:
        break;
    case CLINK_SHAPE_LINE:
        memcpy(s->normal, x->b, sizeof s->normal);
        break;
    case CLINK_SHAPE_CAPSULE:
        memcpy(s->b, x->b, sizeof s->b);
        break;
    }
}

clink_status xml_build(const xml_desc *d, const char *path, clink_model **model, char *err,
                       size_t err_size)
{
    clink_model_builder *b;
    clink_settings_def set;
    clink_status st = CLINK_OK;
    int i, line = 0;

    *model = NULL;
    b = clink_model_builder_create();
    if (b == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "%s: out of memory", path);
        return CLINK_ERR_NOMEM;
    }

    /* bodies: indices in the builder equal those of the description (ground 0) */
    for (i = 1; i < d->n_bodies && st == CLINK_OK; i++) {
        const xml_body *x = &d->bodies[i];
        clink_body_def def = clink_default_body_def();
        def.name = x->name;
        def.mass = x->mass;
        def.inertia = x->inertia;
        def.x = x->x;
        def.y = x->y;
        def.phi = x->phi;
        def.vx = x->vx;
        def.vy = x->vy;
        def.omega = x->omega;
        line = x->line;
        st = clink_model_builder_add_body(b, &def, NULL);
    }

    /* ideal joints (clearance joints are added after the loads) */
    for (i = 0; i < d->n_joints && st == CLINK_OK; i++) {
        const xml_joint *x = &d->joints[i];
        clink_joint_def def = clink_default_joint_def();
        if (x->kind == XML_JOINT_CLEARANCE)
            continue;
        def.name = x->name;
        def.type = x->kind == XML_JOINT_REVOLUTE        ? CLINK_JOINT_REVOLUTE
                   : x->kind == XML_JOINT_TRANSLATIONAL ? CLINK_JOINT_TRANSLATIONAL
                                                        : CLINK_JOINT_WELD;
        def.body_a = x->body1;
        def.body_b = x->body2;
        memcpy(def.point_a, x->p1, sizeof def.point_a);
        memcpy(def.point_b, x->p2, sizeof def.point_b);
        if (x->kind == XML_JOINT_TRANSLATIONAL)
            memcpy(def.axis_a, x->axis, sizeof def.axis_a);
        def.angle0 = x->angle;
        line = x->line;
        st = clink_model_builder_add_joint(b, &def, NULL);
    }

    /* drivers: joint indices of the builder skip the clearance joints */
    for (i = 0; i < d->n_drivers && st == CLINK_OK; i++) {
        const xml_driver *x = &d->drivers[i];
        clink_driver_def def = clink_default_driver_def();
        def.name = x->name;
        if (x->kind == XML_DRIVE_COORDINATE) {
            def.target = CLINK_DRIVE_BODY_COORDINATE;
            def.body = x->body;
            def.coordinate = x->coordinate;
        } else {
            def.target = x->kind == XML_DRIVE_ANGLE ? CLINK_DRIVE_JOINT_ANGLE
                                                    : CLINK_DRIVE_JOINT_DISPLACEMENT;
            def.joint = clink_model_builder_find(b, CLINK_ENTITY_JOINT, d->joints[x->joint].name);
        }
        to_function(x, &def.function);
        line = x->line;
        st = clink_model_builder_add_driver(b, &def, NULL);
    }

    /* loads */
    for (i = 0; i < d->n_loads && st == CLINK_OK; i++) {
        const xml_load *x = &d->loads[i];
        clink_force_def def = clink_default_force_def();
        def.name = x->name;
        def.body_a = x->body1;
        def.body_b = x->body2 >= 0 ? x->body2 : 0;
        switch (x->kind) {
        case XML_LOAD_FORCE:
            def.type = CLINK_FORCE_POINT;
            memcpy(def.point_a, x->p1, sizeof def.point_a);
            def.fx = x->value[0];
            def.fy = x->value[1];
            break;
        case XML_LOAD_TORQUE:
            def.type = CLINK_FORCE_TORQUE;
            def.torque = x->value[0];
            break;
        case XML_LOAD_SPRING:
        case XML_LOAD_ROT_SPRING:
            def.type = x->kind == XML_LOAD_SPRING ? CLINK_FORCE_SPRING_DAMPER
                                                  : CLINK_FORCE_ROTATIONAL_SPRING_DAMPER;
            memcpy(def.point_a, x->p1, sizeof def.point_a);
            memcpy(def.point_b, x->p2, sizeof def.point_b);
            def.k = x->stiffness;
            def.c = x->damping;
            def.free_length = x->length;
            def.actuator = x->actuator;
            break;
        }
        line = x->line;
        st = clink_model_builder_add_force(b, &def, NULL);
    }

    /* clearance joints */
    for (i = 0; i < d->n_joints && st == CLINK_OK; i++) {
        const xml_joint *x = &d->joints[i];
        clink_clearance_joint_def def = clink_default_clearance_joint_def();
        if (x->kind != XML_JOINT_CLEARANCE)
            continue;
        def.name = x->name;
        def.journal_body = x->body1;
        def.bearing_body = x->body2;
        memcpy(def.journal_point, x->p1, sizeof def.journal_point);
        memcpy(def.bearing_point, x->p2, sizeof def.bearing_point);
        def.journal_radius = x->r_journal;
        def.bearing_radius = x->r_bearing;
        def.law = x->law.name;
        to_params(d, &x->law, x->mat1 >= 0 ? x->mat1 : d->bodies[x->body1].material,
                  x->mat2 >= 0 ? x->mat2 : d->bodies[x->body2].material, &def.params);
        to_friction(&x->friction, &def.friction);
        if (x->law.impulse) {
            def.treatment = CLINK_CONTACT_PIECEWISE;
            def.restitution = x->law.e;
        }
        line = x->line;
        st = clink_model_builder_add_clearance_joint(b, &def, NULL);
    }

    /* contact pairs */
    for (i = 0; i < d->n_pairs && st == CLINK_OK; i++) {
        const xml_pair *x = &d->pairs[i];
        clink_contact_pair_def def = clink_default_contact_pair_def();
        int m1 =
            x->shape[0].material >= 0 ? x->shape[0].material : d->bodies[x->shape[0].body].material;
        int m2 =
            x->shape[1].material >= 0 ? x->shape[1].material : d->bodies[x->shape[1].body].material;
        /* the API takes a line as shape_a only: the file may give it in either place */
        int f = x->shape[1].kind == CLINK_SHAPE_LINE && x->shape[0].kind != CLINK_SHAPE_LINE;
        def.name = x->name;
        def.body_a = x->shape[f].body;
        def.body_b = x->shape[1 - f].body;
        to_shape(&x->shape[f], &def.shape_a);
        to_shape(&x->shape[1 - f], &def.shape_b);
        def.law = x->law.name;
        to_params(d, &x->law, f ? m2 : m1, f ? m1 : m2, &def.params);
        to_friction(&x->friction, &def.friction);
        if (x->law.impulse) {
            def.treatment = CLINK_CONTACT_PIECEWISE;
            def.restitution = x->law.e;
        }
        line = x->line;
        st = clink_model_builder_add_contact_pair(b, &def, NULL);
    }

    if (st == CLINK_OK) {
        line = 0;
        st = clink_model_builder_set_gravity(b, d->gravity[0], d->gravity[1]);
    }

    /* settings: the API defaults, overridden by what the file gives */
    if (st == CLINK_OK) {
        const xml_settings *s = &d->settings;
        set = clink_default_settings_def();
        if (s->has_t_end)
            set.t_end = s->t_end;
        if (s->has_output_step)
            set.output_step = s->output_step;
        if (s->has_rtol)
            set.rtol = s->rtol;
        if (s->has_atol)
            set.atol = s->atol;
        if (s->has_max_step)
            set.max_step = s->max_step;
        if (s->has_method)
            set.method = s->method == XML_METHOD_ADAMS ? CLINK_METHOD_ADAMS : CLINK_METHOD_BDF;
        if (s->has_drift)
            set.drift = s->drift == XML_DRIFT_BAUMGARTE ? CLINK_DRIFT_BAUMGARTE
                        : s->drift == XML_DRIFT_NONE    ? CLINK_DRIFT_NONE
                                                        : CLINK_DRIFT_PROJECTION;
        if (s->has_alpha)
            set.baumgarte_alpha = s->alpha;
        if (s->has_beta)
            set.baumgarte_beta = s->beta;
        if (s->has_settle)
            set.settle_speed = s->settle_speed;
        line = s->line;
        st = clink_model_builder_set_settings(b, &set);
    }

    if (st == CLINK_OK) {
        line = 0;
        st = clink_model_builder_finalize(b, model);
    }
    if (st != CLINK_OK) {
        if (line > 0)
            build_fail(st, path, line, b, err, err_size);
        else if (err != NULL && err_size > 0)
            snprintf(err, err_size, "%s: %s", path, clink_model_builder_error(b));
        *model = NULL;
    }
    clink_model_builder_destroy(&b);
    return st;
}
