/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <joints>: the ideal joints through the joint class table (src/joints/joint.h)
 * and the revolute joints with clearance.
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
 *
 * <revolute_clearance> gives two of journal_radius, bearing_radius and
 * clearance (the third follows; all three must agree), a <law> and optionally
 * <friction>; the builder checks the geometry and the law. An optional <lubrication
 * viscosity length theory transition> fills def.lubrication (docs/xml-reference.md).
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

/* <lubrication viscosity="Pa s" length="m" theory="short|long" transition="0.95"
   jacobian="analytic|differences" film="gumbel|pi"/> of a clearance
   joint w: each value checked here, with the line of the element */
static void read_lubrication(xml_reader *r, const xmlNode *n, clink_lubrication_def *l,
                             const char *w)
{
    static const char *const keys[] = {"viscosity", "length", "theory", "transition",
                                       "jacobian",  "film",   NULL};
    static const char *const theories[] = {"short", "long", NULL};
    static const char *const films[] = {"gumbel", "pi", NULL};
    static const char *const jacobians[] = {"analytic", "differences", NULL};
    if (n == NULL || xml_check_attrs(r, n, keys, NULL))
        return;
    int has_mu = xml_num(r, n, "viscosity", NAN, 1, &l->viscosity);
    int has_l = xml_num(r, n, "length", NAN, 1, &l->length);
    l->theory = xml_keyword(r, n, "theory", theories, CLINK_LUBRICATION_SHORT);
    xml_num(r, n, "transition", 0.95, 1, &l->transition);
    l->jacobian = xml_keyword(r, n, "jacobian", jacobians, CLINK_LUBRICATION_JACOBIAN_ANALYTIC);
    l->film = xml_keyword(r, n, "film", films, CLINK_LUBRICATION_FILM_GUMBEL);
    if (r->failed)
        return;
    if (l->theory == CLINK_LUBRICATION_LONG && xmlHasProp(n, (const xmlChar *) "film") &&
        l->film != CLINK_LUBRICATION_FILM_PI) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "%s: <lubrication> film=\"gumbel\" with theory=\"long\": the long bearing has "
                 "the fixed pi-film alone (film=\"pi\", or leave film out)",
                 w);
        return;
    }
    if (!has_mu || !(l->viscosity > 0.0) || !isfinite(l->viscosity))
        xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                 "%s: <lubrication> viscosity = %g Pa s is out of range; give viscosity > 0", w,
                 l->viscosity);
    else if (!has_l || !(l->length > 0.0) || !isfinite(l->length))
        xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                 "%s: <lubrication> length = %g m is out of range; give length > 0 (the "
                 "bearing's axial length)",
                 w, l->length);
    else if (!(l->transition > 0.0 && l->transition < 1.0))
        xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                 "%s: <lubrication> transition = %g is out of range; 0 < transition < 1 (an "
                 "eccentricity ratio)",
                 w, l->transition);
}

static void read_clearance(xml_reader *r, const xmlNode *k)
{
    static const char *const keys[] = {"name",
                                       "journal",
                                       "journal_point",
                                       "bearing",
                                       "bearing_point",
                                       "journal_radius",
                                       "bearing_radius",
                                       "clearance",
                                       "journal_material",
                                       "bearing_material",
                                       NULL};
    clink_clearance_joint_def def = clink_default_clearance_joint_def();
    char w[96], name[CLINK_NAME_MAX + 1], law[CLINK_NAME_MAX + 1];
    double rj, rb, cl;
    int has_j, has_b, has_c, m1, m2;

    xml_describe(w, sizeof w, "clearance joint", k);
    if (xml_check_attrs(r, k, keys, NULL))
        return;
    def.name = xml_name(r, k, "name", name) ? name : NULL;
    def.journal_body = xml_ref(r, k, "journal", CLINK_ENTITY_BODY, w);
    def.bearing_body = xml_ref(r, k, "bearing", CLINK_ENTITY_BODY, w);
    xml_vec2(r, k, "journal_point", 0, 0, def.journal_point);
    xml_vec2(r, k, "bearing_point", 0, 0, def.bearing_point);
    has_j = xml_num(r, k, "journal_radius", NAN, 1, &rj);
    has_b = xml_num(r, k, "bearing_radius", NAN, 1, &rb);
    has_c = xml_num(r, k, "clearance", NAN, 1, &cl);
    m1 = xml_ref_material(r, k, "journal_material", w);
    m2 = xml_ref_material(r, k, "bearing_material", w);
    if (r->failed)
        return;
    if (has_j + has_b + has_c < 2) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(k),
                 "%s: give two of journal_radius, bearing_radius and clearance", w);
        return;
    }
    if (has_j + has_b + has_c == 3 && fabs((rb - rj) - cl) > 1e-9 * fabs(rb)) {
        xml_fail(r, CLINK_ERR_RANGE, xml_line(k),
                 "%s: clearance = %g m disagrees with bearing_radius - journal_radius = %g m", w,
                 cl, rb - rj);
        return;
    }
    def.journal_radius = has_j ? rj : rb - cl;
    def.bearing_radius = has_b ? rb : rj + cl;
    if (!has_c) /* the clearance of two radii meets the size rule as a written one */
        xml_hint_length(r, k, "clearance", def.bearing_radius - def.journal_radius, 1);
    if (xml_read_element_law(r, k, law, &def.params, &def.treatment, &def.restitution,
                             &def.friction, w) != 0)
        return;
    def.law = law;
    read_lubrication(r, xml_child(k, "lubrication"), &def.lubrication, w);
    xml_read_wear(r, xml_child(k, "wear"), &def.wear, w); /* src/xml/xml_wear.c */
    if (r->failed)
        return;
    xml_material_params(r, m1 >= 0 ? m1 : r->bodies[def.journal_body].material,
                        m2 >= 0 ? m2 : r->bodies[def.bearing_body].material, &def.params);
    xml_built(r, clink_model_builder_add_clearance_joint(r->builder, &def, NULL), k);
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
        if (xml_is_elem(k, "revolute_clearance")) {
            read_clearance(r, k);
            continue;
        }
        if (xml_read_element(r, k))
            continue;
        jc = joint_class_find((const char *) k->name);
        if (jc == NULL)
            unknown_joint(r, k);
        else
            read_ideal(r, k, jc);
    }
}
