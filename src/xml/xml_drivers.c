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
 * and <rotational_spring_damper> (N m/rad, N m s/rad, rad or deg, N m). The
 * builder checks every range and reference type.
 */
#include "xml/xml_internal.h"

#include <math.h>
#include <string.h>

/* the function element of a driver into f; s scales values of the driven coordinate */
static void read_function(xml_reader *r, const xmlNode *f, double s, clink_function *fn,
                          const char *w)
{
    memset(fn, 0, sizeof *fn);
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
    } else {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(f), "%s: unknown function <%s>", w,
                 (const char *) f->name);
    }
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
    for (f = k->children; f != NULL && !xml_is_elem(f, NULL); f = f->next)
        ;
    if (f == NULL) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(k), "%s: a function is required", w);
        return;
    }
    angular = def.target == CLINK_DRIVE_JOINT_ANGLE ||
              (def.target == CLINK_DRIVE_BODY_COORDINATE && def.coordinate == 2);
    read_function(r, f, angular ? r->angle_scale : 1.0, &def.function, w);
    if (!r->failed)
        xml_built(r, clink_model_builder_add_driver(r->builder, &def, NULL), k);
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
    if (!r->failed)
        xml_built(r, clink_model_builder_add_force(r->builder, &def, NULL), k);
}

void xml_read_loads(xml_reader *r, const xmlNode *sec)
{
    const xmlNode *k;

    for (k = sec->children; k != NULL && !r->failed; k = k->next)
        if (xml_is_elem(k, NULL))
            read_load(r, k);
}
