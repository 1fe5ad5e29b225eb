/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <drivers> and <loads>. A driver is a clink_driver_def: type="angle" on a
 * revolute joint (CLINK_DRIVE_JOINT_ANGLE, rad or deg), type="position" on a
 * translational joint (CLINK_DRIVE_JOINT_DISPLACEMENT, m), type="coordinate"
 * on x, y (m) or phi (rad or deg) of a body (CLINK_DRIVE_BODY_COORDINATE), with
 * one function element: <constant value>, <linear initial rate>, <polynomial
 * coefficients>, <harmonic offset amplitude frequency phase> (frequency in
 * rad/s and phase in rad are never converted). Loads are clink_force_defs:
 * <force> (N, global frame), <torque> (N m), <spring_damper> (N/m, N s/m, m, N)
 * and <rotational_spring_damper> (N m/rad, N m s/rad, rad or deg, N m), each with an
 * optional function child that multiplies its value (the actuator of a spring-damper).
 * Functions of time also: <ramp> and <smooth_step start end from to>, <table times values
 * interpolation="linear|spline"> and <piecewise> of <segment start coefficients="c0 .. c3">
 * (times increasing: a table that does not is refused at its line). <inputs> holds the
 * host's inputs: <input name type body|joint|load|driver point direction initial>. The
 * builder checks every range and reference type.
 */
#include "xml/xml_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the number of whitespace-separated items of attribute key (0 when absent) */
static int count_items(const xmlNode *n, const char *key)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *) key);
    int count = 0, in = 0;
    if (!v)
        return 0;
    for (const xmlChar *c = v; *c; c++) {
        int space = *c == ' ' || *c == '\t' || *c == '\n' || *c == '\r';
        count += !space && !in;
        in = !space;
    }
    xmlFree(v);
    return count;
}

/* <table times values interpolation>: the arrays in *owned (freed by the caller) */
static void read_table(xml_reader *r, const xmlNode *f, double s, clink_function *fn,
                       double **owned, const char *w)
{
    static const char *const kinds[] = {"linear", "spline", NULL};
    int nt = count_items(f, "times"), nv = count_items(f, "values");
    fn->type = xml_keyword(r, f, "interpolation", kinds, 0) ? CLINK_FUNCTION_TABLE_SPLINE
                                                            : CLINK_FUNCTION_TABLE_LINEAR;
    if (nt < 2 || nt != nv) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(f),
                 "%s: <table> needs at least 2 times and as many values (%d times, %d values)", w,
                 nt, nv);
        return;
    }
    *owned = malloc(2 * (size_t) nt * sizeof(double));
    if (!*owned) {
        xml_fail(r, CLINK_ERR_NOMEM, xml_line(f), "%s: out of memory", w);
        return;
    }
    xml_numbers(r, f, "times", *owned, nt, nt, 1);
    xml_numbers(r, f, "values", *owned + nt, nt, nt, s);
    for (int i = 1; i < nt && !r->failed; i++)
        if (!((*owned)[i] > (*owned)[i - 1]))
            xml_fail(r, CLINK_ERR_MODEL, xml_line(f),
                     "%s: table times must increase: time %d (%.9g s) is not after time %d "
                     "(%.9g s)",
                     w, i + 1, (*owned)[i], i, (*owned)[i - 1]);
    fn->npoints = nt;
    fn->times = *owned;
    fn->values = *owned + nt;
}

/* <piecewise> with its <segment start coefficients> children */
static void read_piecewise(xml_reader *r, const xmlNode *f, double s, clink_function *fn,
                           double **owned, const char *w)
{
    int n = 0;
    for (const xmlNode *g = f->children; g; g = g->next)
        n += xml_is_elem(g, "segment");
    fn->type = CLINK_FUNCTION_PIECEWISE;
    *owned = calloc(5 * (size_t) (n > 0 ? n : 1), sizeof(double));
    if (!*owned) {
        xml_fail(r, CLINK_ERR_NOMEM, xml_line(f), "%s: out of memory", w);
        return;
    }
    double *t = *owned, *c = *owned + n;
    int i = 0;
    for (const xmlNode *g = f->children; g && !r->failed; g = g->next) {
        if (!xml_is_elem(g, "segment"))
            continue;
        xml_num(r, g, "start", NAN, 1, &t[i]);
        xml_numbers(r, g, "coefficients", c + 4 * i, 1, 4, s);
        if (i > 0 && !r->failed && !(t[i] > t[i - 1]))
            xml_fail(r, CLINK_ERR_MODEL, xml_line(g),
                     "%s: segment starts must increase: %.9g s is not after %.9g s", w, t[i],
                     t[i - 1]);
        i++;
    }
    fn->npoints = n;
    fn->times = t;
    fn->values = c;
}

/*
 * A function element into f; s scales values of the driven coordinate. Tables and
 * piecewise functions leave their arrays in *owned (the caller frees them after the add).
 */
static void read_function(xml_reader *r, const xmlNode *f, double s, clink_function *fn,
                          double **owned, const char *w)
{
    memset(fn, 0, sizeof *fn);
    *owned = NULL;
    if (xml_is_elem(f, "constant")) {
        fn->type = CLINK_FUNCTION_CONSTANT;
        xml_num(r, f, "value", NAN, s, &fn->c[0]);
        fn->n = 1;
    } else if (xml_is_elem(f, "linear")) {
        fn->type = CLINK_FUNCTION_LINEAR;
        xml_num(r, f, "initial", 0, s, &fn->c[0]);
        xml_num(r, f, "rate", NAN, s, &fn->c[1]);
        fn->n = 2;
    } else if (xml_is_elem(f, "polynomial")) {
        fn->type = CLINK_FUNCTION_POLYNOMIAL;
        fn->n = xml_numbers(r, f, "coefficients", fn->c, 1, CLINK_FUNCTION_MAX_COEFS, s);
    } else if (xml_is_elem(f, "harmonic")) {
        fn->type = CLINK_FUNCTION_HARMONIC;
        xml_num(r, f, "offset", 0, s, &fn->c[0]);
        xml_num(r, f, "amplitude", NAN, s, &fn->c[1]);
        xml_num(r, f, "frequency", NAN, 1, &fn->c[2]);
        xml_num(r, f, "phase", 0, 1, &fn->c[3]);
        fn->n = 4;
    } else if (xml_is_elem(f, "ramp") || xml_is_elem(f, "smooth_step")) {
        fn->type = xml_is_elem(f, "ramp") ? CLINK_FUNCTION_RAMP : CLINK_FUNCTION_SMOOTH_STEP;
        xml_num(r, f, "start", NAN, 1, &fn->c[0]);
        xml_num(r, f, "end", NAN, 1, &fn->c[1]);
        xml_num(r, f, "from", 0, s, &fn->c[2]);
        xml_num(r, f, "to", NAN, s, &fn->c[3]);
        fn->n = 4;
        if (!r->failed && !(fn->c[1] > fn->c[0]))
            xml_fail(r, CLINK_ERR_MODEL, xml_line(f),
                     "%s: <%s> end %g s must be after its start %g s", w, (const char *) f->name,
                     fn->c[1], fn->c[0]);
    } else if (xml_is_elem(f, "table")) {
        read_table(r, f, s, fn, owned, w);
    } else if (xml_is_elem(f, "piecewise")) {
        read_piecewise(r, f, s, fn, owned, w);
    } else {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(f), "%s: unknown function <%s>", w,
                 (const char *) f->name);
    }
}

/* the first element child of n, or NULL */
static const xmlNode *first_element(const xmlNode *n)
{
    const xmlNode *f;
    for (f = n->children; f != NULL && !xml_is_elem(f, NULL); f = f->next)
        ;
    return f;
}

static void read_driver(xml_reader *r, const xmlNode *k)
{
    static const char *const kinds[] = {"position", "angle", "coordinate", NULL};
    static const char *const coords[] = {"x", "y", "phi", NULL};
    clink_driver_def def = clink_default_driver_def();
    char w[96], name[CLINK_NAME_MAX + 1];
    const xmlNode *f;
    int kind, angular;

    xml_describe(w, sizeof w, "driver", k);
    def.name = xml_name(r, k, "name", name) ? name : NULL;
    kind = xml_keyword(r, k, "type", kinds, 0);
    if (r->failed)
        return;
    if (kind == 2) {
        if (xml_has(k, "joint")) {
            xml_fail(r, CLINK_ERR_MODEL, xml_line(k),
                     "%s: a coordinate driver takes body and coordinate, not joint", w);
            return;
        }
        if (!xml_has(k, "coordinate")) {
            xml_fail(r, CLINK_ERR_MODEL, xml_line(k),
                     "%s: a coordinate driver needs coordinate=\"x\", \"y\" or \"phi\"", w);
            return;
        }
        def.target = CLINK_DRIVE_BODY_COORDINATE;
        def.body = xml_ref(r, k, "body", CLINK_ENTITY_BODY, w);
        def.coordinate = xml_keyword(r, k, "coordinate", coords, 2);
    } else {
        if (xml_has(k, "body") || xml_has(k, "coordinate")) {
            xml_fail(r, CLINK_ERR_MODEL, xml_line(k),
                     "%s: body and coordinate belong to type=\"coordinate\" drivers", w);
            return;
        }
        if (!xml_has(k, "joint")) {
            xml_fail(r, CLINK_ERR_MODEL, xml_line(k), "%s: joint is required", w);
            return;
        }
        def.target = kind == 1 ? CLINK_DRIVE_JOINT_ANGLE : CLINK_DRIVE_JOINT_DISPLACEMENT;
        def.joint = xml_ref(r, k, "joint", CLINK_ENTITY_JOINT, w);
    }
    if (r->failed)
        return;
    /* the schema guarantees exactly one function element */
    f = first_element(k);
    if (f == NULL) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(k), "%s: a function is required", w);
        return;
    }
    angular = def.target == CLINK_DRIVE_JOINT_ANGLE ||
              (def.target == CLINK_DRIVE_BODY_COORDINATE && def.coordinate == 2);
    double *owned = NULL;
    r->angular = angular;
    read_function(r, f, angular ? r->angle_scale : 1.0, &def.function, &owned, w);
    r->angular = 0;
    if (!r->failed)
        xml_built(r, clink_model_builder_add_driver(r->builder, &def, NULL), k);
    free(owned);
}

void xml_read_drivers(xml_reader *r, const xmlNode *sec)
{
    const xmlNode *k;

    for (k = sec->children; k != NULL && !r->failed; k = k->next)
        if (xml_is_elem(k, "driver"))
            read_driver(r, k);
}

static void read_load(xml_reader *r, const xmlNode *k)
{
    clink_force_def def = clink_default_force_def();
    char w[96], name[CLINK_NAME_MAX + 1];

    xml_describe(w, sizeof w, "load", k);
    def.name = xml_name(r, k, "name", name) ? name : NULL;
    def.body_b = 0;
    if (xml_is_elem(k, "force")) {
        def.type = CLINK_FORCE_POINT;
        def.body_a = xml_ref(r, k, "body", CLINK_ENTITY_BODY, w);
        xml_vec2(r, k, "point", 0, 0, def.point_a);
        double v[2];
        xml_vec2(r, k, "value", NAN, NAN, v);
        def.fx = v[0];
        def.fy = v[1];
    } else if (xml_is_elem(k, "torque")) {
        def.type = CLINK_FORCE_TORQUE;
        def.body_a = xml_ref(r, k, "body", CLINK_ENTITY_BODY, w);
        xml_num(r, k, "value", NAN, 1, &def.torque);
    } else if (xml_is_elem(k, "spring_damper") || xml_is_elem(k, "rotational_spring_damper")) {
        int rot = xml_is_elem(k, "rotational_spring_damper");
        def.type = rot ? CLINK_FORCE_ROTATIONAL_SPRING_DAMPER : CLINK_FORCE_SPRING_DAMPER;
        def.body_a = xml_ref(r, k, "body1", CLINK_ENTITY_BODY, w);
        def.body_b = xml_ref(r, k, "body2", CLINK_ENTITY_BODY, w);
        xml_num(r, k, "stiffness", 0, 1, &def.k);
        xml_num(r, k, "damping", 0, 1, &def.c);
        xml_num(r, k, "actuator", 0, 1, &def.actuator);
        if (rot) {
            xml_num(r, k, "angle", 0, r->angle_scale, &def.free_length);
        } else {
            xml_vec2(r, k, "point1", 0, 0, def.point_a);
            xml_vec2(r, k, "point2", 0, 0, def.point_b);
            xml_num(r, k, "length", 0, 1, &def.free_length);
        }
    } else {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(k), "unknown load <%s>", (const char *) k->name);
    }
    /* an optional function of time multiplies the load's value */
    const xmlNode *f = first_element(k);
    double *owned = NULL;
    if (f != NULL && !r->failed)
        read_function(r, f, 1.0, &def.scale, &owned, w);
    if (!r->failed)
        xml_built(r, clink_model_builder_add_force(r->builder, &def, NULL), k);
    free(owned);
}

void xml_read_loads(xml_reader *r, const xmlNode *sec)
{
    const xmlNode *k;

    for (k = sec->children; k != NULL && !r->failed; k = k->next)
        if (xml_is_elem(k, NULL))
            read_load(r, k);
}

/* <input>: the kind names which reference it needs */
static void read_input(xml_reader *r, const xmlNode *k)
{
    static const char *const kinds[] = {"force", "torque",       "joint_torque", "joint_force",
                                        "load",  "driver_value", "driver_rate",  NULL};
    static const char *const refs[] = {"body", "body",   "joint", "joint",
                                       "load", "driver", "driver"};
    static const clink_entity ents[] = {CLINK_ENTITY_BODY,  CLINK_ENTITY_BODY,  CLINK_ENTITY_JOINT,
                                        CLINK_ENTITY_JOINT, CLINK_ENTITY_FORCE, CLINK_ENTITY_DRIVER,
                                        CLINK_ENTITY_DRIVER};
    clink_input_def def = clink_default_input_def();
    char w[96], name[CLINK_NAME_MAX + 1];
    xml_describe(w, sizeof w, "input", k);
    def.name = xml_name(r, k, "name", name) ? name : NULL;
    int kind = xml_keyword(r, k, "type", kinds, 0);
    if (r->failed)
        return;
    def.kind = (clink_input_kind) kind;
    if (!xml_has(k, refs[kind])) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(k), "%s: type=\"%s\" needs %s=", w, kinds[kind],
                 refs[kind]);
        return;
    }
    def.target = xml_ref(r, k, refs[kind], ents[kind], w);
    xml_vec2(r, k, "point", 0, 0, def.point);
    xml_vec2(r, k, "direction", 1, 0, def.direction);
    xml_num(r, k, "initial", 0, 1, &def.initial);
    if (!r->failed)
        xml_built(r, clink_model_builder_add_input(r->builder, &def, NULL), k);
}

void xml_read_inputs(xml_reader *r, const xmlNode *sec)
{
    for (const xmlNode *k = sec->children; k != NULL && !r->failed; k = k->next)
        if (xml_is_elem(k, "input"))
            read_input(r, k);
}
