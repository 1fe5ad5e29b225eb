/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <joints>: the ideal joints through the joint class table (src/joints/joint.h);
 * the contact elements it holds (<revolute_clearance>, <stop>, ...) are read by
 * xml_read_element() (xml_contacts.c) from their classes' field tables.
 *
 * An ideal joint element is named by its class (<revolute>, <translational>,
 * <weld>, ...); it takes name, body1, body2 and the attributes of the fields its
 * class reads: point1 (point_a, m), point2 (point_b, m), axis (axis_a) and angle
 * (angle0, rad or deg; default: the initial phi2 - phi1). An attribute the class
 * does not read is refused, one it requires must be given; the class's check
 * hook runs in the builder. A new joint type therefore needs no edit here nor in
 * the schema, which lets joint elements through for this reader to check.
 * <revolute> and <translational> take an optional <friction> child (any static law of
 * the friction catalogue) with friction_radius (the pin radius, m) or friction_length
 * (the slider length, m) and friction_preload (N, default 0): docs/friction.md.
 */
#include "joints/joint.h"
#include "xml/xml_internal.h"

#include <math.h>
#include <string.h>

/* the XML attribute of each joint field */
static const struct {
    joint_field field;
    const char *key;
} field_keys[] = {{JOINT_FIELD_POINT_A, "point1"},
                  {JOINT_FIELD_POINT_B, "point2"},
                  {JOINT_FIELD_AXIS_A, "axis"},
                  {JOINT_FIELD_ANGLE0, "angle"},
                  {JOINT_FIELD_RATIO, "ratio"}};
enum { N_FIELD_KEYS = sizeof field_keys / sizeof field_keys[0] };

static void read_ideal(xml_reader *r, const xmlNode *k, const joint_class *jc)
{
    const char *keys[3 + N_FIELD_KEYS + 2 + 1] = {"name", "body1", "body2"};
    clink_joint_def def = clink_default_joint_def();
    char w[96], name[CLINK_NAME_MAX + 1];
    int i, nk = 3, given;

    for (i = 0; i < N_FIELD_KEYS; i++)
        if (jc->fields & field_keys[i].field)
            keys[nk++] = field_keys[i].key;
    /* joint friction: the pin radius or slider length and the preload */
    if (jc->type == CLINK_JOINT_REVOLUTE || jc->type == CLINK_JOINT_TRANSLATIONAL) {
        keys[nk++] = jc->type == CLINK_JOINT_REVOLUTE ? "friction_radius" : "friction_length";
        keys[nk++] = "friction_preload";
    }
    keys[nk] = NULL;
    xml_describe(w, sizeof w, "joint", k);
    if (xml_check_attrs(r, k, keys, NULL))
        return;
    for (i = 0; i < N_FIELD_KEYS; i++)
        if ((jc->required & field_keys[i].field) && !xml_has(k, field_keys[i].key)) {
            xml_fail(r, CLINK_ERR_MODEL, xml_line(k), "%s: %s is required for a %s joint", w,
                     field_keys[i].key, jc->name);
            return;
        }
    def.type = jc->type;
    def.name = xml_name(r, k, "name", name) ? name : NULL;
    def.body_a = xml_ref(r, k, "body1", CLINK_ENTITY_BODY, w);
    def.body_b = xml_ref(r, k, "body2", CLINK_ENTITY_BODY, w);
    xml_vec2(r, k, "point1", 0, 0, def.point_a);
    xml_vec2(r, k, "point2", 0, 0, def.point_b);
    if (jc->fields & JOINT_FIELD_AXIS_A)
        xml_vec2(r, k, "axis", def.axis_a[0], def.axis_a[1], def.axis_a);
    given = xml_num(r, k, "angle", 0, r->angle_scale, &def.angle0);
    if (jc->fields & JOINT_FIELD_RATIO)
        xml_num(r, k, "ratio", 1.0, 1, &def.ratio);
    xml_read_friction(r, xml_child(k, "friction"), &def.friction, w);
    xml_num(r, k, "friction_radius", NAN, 1, &def.friction_radius);
    xml_num(r, k, "friction_length", NAN, 1, &def.friction_length);
    xml_num(r, k, "friction_preload", 0, 1, &def.friction_preload);
    if (r->failed)
        return;
    if (!given && (jc->fields & JOINT_FIELD_RATIO))
        def.angle0 = r->bodies[def.body_b].phi + def.ratio * r->bodies[def.body_a].phi;
    else if (!given && (jc->fields & JOINT_FIELD_ANGLE0))
        def.angle0 = r->bodies[def.body_b].phi - r->bodies[def.body_a].phi;
    xml_built(r, clink_model_builder_add_joint(r->builder, &def, NULL), k);
}

/* an element of <joints> that is no joint: the joint elements, the nearest first */
static void unknown_joint(xml_reader *r, const xmlNode *k)
{
    char hint[SUGGEST_MAX_LEN + 24];
    xml_names s;
    int t;

    xml_names_init(&s, (const char *) k->name);
    for (t = 0; t < CLINK_JOINT_TYPE_COUNT_; t++)
        if (joint_class_of((clink_joint_type) t) != NULL)
            xml_names_add(&s, joint_class_of((clink_joint_type) t)->name);
    xml_xsd_open_elements(r->xsd, &s);
    xml_fail(r, CLINK_ERR_MODEL, xml_line(k), "unknown joint <%s>%s; <joints> holds %s",
             (const char *) k->name, xml_names_hint(&s, hint, sizeof hint, 1), s.list);
}

void xml_read_joints(xml_reader *r, const xmlNode *sec)
{
    const xmlNode *k;

    for (k = sec->children; k != NULL && !r->failed; k = k->next) {
        const joint_class *jc;
        if (!xml_is_elem(k, NULL))
            continue;
        if (xml_read_element(r, k))
            continue;
        jc = joint_class_find((const char *) k->name);
        if (jc == NULL)
            unknown_joint(r, k);
        else
            read_ideal(r, k, jc);
    }
}
