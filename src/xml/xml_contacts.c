/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <contacts> (pairs of shapes with a law and friction) and the <law> and
 * <friction> elements shared with <revolute_clearance>.
 *
 * A pair is a clink_contact_pair_def: two shapes (<circle center radius>,
 * <line point normal>, <capsule point1 point2 radius>, <polygon vertices>, m, each on a
 * body with an optional material; read by the rows of the shape table,
 * src/kinematics/contact_shapes.h), put in the order of the pair registry (a line first,
 * a polygon before a circle), the law and the friction. <law> takes name, treatment and any key of
 * the contact parameter descriptor (clink_contact_param_at(): K, n, e, chi, c,
 * alpha, v_ref, E1, E2, nu1, nu2, R1, R2, eta1, eta2, Y, psi, xi, zero_force, in
 * the units it lists), read generically: a parameter added to the descriptor is
 * readable with no edit here. Materials fill E1, nu1 (shape 1 / journal), E2,
 * nu2 (shape 2 / bearing) and Y (the softer yield strength) where the law left
 * them out; a shape without a material takes its body's. treatment="impulse"
 * is CLINK_CONTACT_PIECEWISE with e as Newton's restitution. The builder checks
 * the shapes, the law's parameters and the friction.
 */
#include "xml/xml_internal.h"

#include "kinematics/contact_shapes.h"

#include "clink/contact.h"
#include "clink/friction.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* adds a law name (as written) to the summary's comma-separated list once */
static void add_law(char *laws, size_t size, const char *name)
{
    const char *p = laws;
    size_t len = strlen(name), used;

    while ((p = strstr(p, name)) != NULL) {
        if ((p == laws || p[-1] == ',') && (p[len] == '\0' || p[len] == ','))
            return;
        p += len;
    }
    used = strlen(laws);
    if (used + len + 2 > size)
        return;
    if (used > 0)
        laws[used++] = ',';
    memcpy(laws + used, name, len + 1);
}

static int is_param_key(const char *key)
{
    return clink_contact_param_find(key) != NULL;
}

void xml_read_law(xml_reader *r, const xmlNode *n, char *name, clink_contact_params *p,
                  clink_contact_treatment *treatment, double *restitution, const char *what)
{
    static const char *const treatments[] = {"continuous", "impulse", NULL};
    static const char *const keys[] = {"name", "treatment", NULL};
    size_t i;

    (void) what;
    clink_contact_params_init(p);
    name[0] = '\0';
    if (xml_check_attrs(r, n, keys, is_param_key))
        return;
    xml_name(r, n, "name", name);
    for (i = 0; i < clink_contact_param_count() && !r->failed; i++) {
        const clink_contact_param *d = clink_contact_param_at(i);
        double v;
        if (xml_num(r, n, d->key, NAN, 1, &v))
            *(double *) ((char *) p + d->offset) = v;
    }
    *treatment = xml_keyword(r, n, "treatment", treatments, 0) ? CLINK_CONTACT_PIECEWISE
                                                               : CLINK_CONTACT_CONTINUOUS;
    if (*treatment == CLINK_CONTACT_PIECEWISE)
        *restitution = p->e;
    if (!r->failed)
        add_law(r->summary.laws, sizeof r->summary.laws, name);
}

static int is_friction_key(const char *key)
{
    return clink_friction_param_find(key) != NULL;
}

/* the catalogue's friction law names then aliases, NULL-terminated (the keywords of type) */
static const char *const *friction_words(void)
{
    static char store[512];
    static const char *words[48];
    size_t used = 0, nw = 0;
    for (size_t i = 0; i < clink_friction_law_count() && nw < 16; i++)
        words[nw++] = clink_friction_law_at(i)->name;
    for (size_t i = 0; i < clink_friction_law_count(); i++)
        for (const char *p = clink_friction_law_at(i)->aliases; *p != '\0' && nw < 47;) {
            size_t len = strcspn(p, ",");
            if (used + len + 1 > sizeof store)
                break;
            memcpy(store + used, p, len);
            store[used + len] = '\0';
            words[nw++] = store + used;
            used += len + 1;
            p += len + (p[len] == ',');
        }
    words[nw] = NULL;
    return words;
}

void xml_read_friction(xml_reader *r, const xmlNode *n, clink_friction_params *f, const char *what)
{
    static const char *const keys[] = {"type", NULL};
    const char *const *words = friction_words();

    (void) what;
    *f = clink_default_friction_params();
    if (n == NULL || xml_check_attrs(r, n, keys, is_friction_key))
        return;
    const clink_friction_law_info *law =
        clink_friction_law_find(words[xml_keyword(r, n, "type", words, 0)]);
    if (r->failed || law == NULL || law->kind == CLINK_FRICTION_NONE)
        return;
    f->kind = law->kind;
    f->mu = NAN;
    for (size_t i = 0; i < clink_friction_param_count() && !r->failed; i++) {
        const clink_friction_param *d = clink_friction_param_at(i);
        double *x = (double *) ((char *) f + d->offset);
        xml_num(r, n, d->key, *x, 1, x);
    }
}

/* the <law> (required) and <friction> children of a contact element k named w */
int xml_read_element_law(xml_reader *r, const xmlNode *k, char *law, clink_contact_params *p,
                         clink_contact_treatment *treatment, double *restitution,
                         clink_friction_params *friction, const char *w)
{
    const xmlNode *ln = xml_child(k, "law");
    if (ln == NULL) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(k), "%s: a <law> is required", w);
        return -1;
    }
    xml_read_law(r, ln, law, p, treatment, restitution, w);
    xml_read_friction(r, xml_child(k, "friction"), friction, w);
    return r->failed ? -1 : 0;
}

void xml_material_params(const xml_reader *r, int m1, int m2, clink_contact_params *p)
{
    if (m1 >= 0 && isnan(p->E1))
        p->E1 = r->materials[m1].E;
    if (m1 >= 0 && isnan(p->nu1))
        p->nu1 = r->materials[m1].nu;
    if (m2 >= 0 && isnan(p->E2))
        p->E2 = r->materials[m2].E;
    if (m2 >= 0 && isnan(p->nu2))
        p->nu2 = r->materials[m2].nu;
    /* elastoplastic laws: the yield strength of the softer material unless the law gives Y */
    if (isnan(p->Y)) {
        double y1 = m1 >= 0 ? r->materials[m1].yield : NAN;
        double y2 = m2 >= 0 ? r->materials[m2].yield : NAN;
        p->Y = isnan(y1) ? y2 : isnan(y2) ? y1 : fmin(y1, y2);
    }
}

/* the vertices "x1 y1 x2 y2 ..." of a polygon into s */
static void read_vertices(xml_reader *r, const xmlNode *k, const char *attr, clink_shape_def *s,
                          const char *w)
{
    double xy[2 * CLINK_SHAPE_MAX_VERTICES];
    int n = xml_numbers(r, k, attr, xy, 1, 2 * CLINK_SHAPE_MAX_VERTICES, 1.0);
    if (r->failed)
        return;
    if (n % 2 != 0) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(k),
                 "%s: %s must be pairs of numbers, x y of each vertex (3 to %d vertices)", w, attr,
                 CLINK_SHAPE_MAX_VERTICES);
        return;
    }
    s->nvertices = n / 2;
    memcpy(s->vertices, xy, (size_t) n * sizeof(double));
}

/* a <profile>: table="angle radius ..." (angles in the file's unit, 0 to 360 deg, the last
   point closing the first), or a motion law: law (or rise_law, fall_law) harmonic,
   cycloidal or 345, base_radius, lift, rise, dwell, fall (angles), follower roller or flat,
   roller_radius */
static void read_profile(xml_reader *r, const xmlNode *k, clink_profile_def *p, const char *w)
{
    static const char *const laws[] = {"harmonic", "cycloidal", "345", NULL};
    static const char *const followers[] = {"roller", "flat", NULL};
    if (xml_has(k, "table")) {
        double t[2 * CLINK_PROFILE_MAX_POINTS];
        int n = xml_numbers(r, k, "table", t, 8, 2 * CLINK_PROFILE_MAX_POINTS, 1.0);
        if (r->failed)
            return;
        if (n % 2 != 0) {
            xml_fail(r, CLINK_ERR_PARSE, xml_line(k),
                     "%s: table must be pairs of numbers, angle radius (4 to %d points)", w,
                     CLINK_PROFILE_MAX_POINTS);
            return;
        }
        p->kind = CLINK_PROFILE_TABLE;
        p->npoints = n / 2;
        for (int i = 0; i < p->npoints; i++) {
            p->angles[i] = t[2 * i] * r->angle_scale;
            p->radii[i] = t[2 * i + 1];
        }
        return;
    }
    if (!xml_has(k, "lift")) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(k),
                 "%s: a <profile> needs a table (angle radius ...) or a motion law (base_radius, "
                 "lift, rise, dwell, fall, law, follower)",
                 w);
        return;
    }
    p->kind = CLINK_PROFILE_LAW;
    int law = xml_keyword(r, k, "law", laws, CLINK_MOTION_CYCLOIDAL);
    p->rise_law = (clink_motion_law) xml_keyword(r, k, "rise_law", laws, law);
    p->fall_law = (clink_motion_law) xml_keyword(r, k, "fall_law", laws, law);
    p->follower = (clink_follower_kind) xml_keyword(r, k, "follower", followers, 0);
    xml_num(r, k, "base_radius", NAN, 1, &p->base_radius);
    xml_num(r, k, "lift", NAN, 1, &p->lift);
    xml_num(r, k, "rise", NAN, r->angle_scale, &p->rise);
    xml_num(r, k, "dwell", 0, r->angle_scale, &p->dwell);
    xml_num(r, k, "fall", NAN, r->angle_scale, &p->fall);
    xml_num(r, k, "roller_radius", NAN, 1, &p->roller_radius);
}

/* one shape element into s, its body and its material (-1: the body's), by its row of the
   shape table (src/kinematics/contact_shapes.h): its fields' attributes and defaults */
static void read_shape(xml_reader *r, const xmlNode *k, clink_shape_def *s, int *body,
                       int *material, const char *w)
{
    memset(s, 0, sizeof *s);
    *body = xml_ref(r, k, "body", CLINK_ENTITY_BODY, w);
    *material = xml_ref_material(r, k, "material", w);
    const kinematics_shape_class *sc = kinematics_shape_class_find((const char *) k->name);
    if (sc == NULL) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(k), "%s: unknown shape <%s>", w,
                 (const char *) k->name);
        return;
    }
    s->type = sc->type;
    for (int i = 0; i < sc->nfields && !r->failed; i++) {
        const kinematics_shape_field *f = &sc->fields[i];
        double *at = (double *) ((char *) s + f->offset);
        if (f->kind == KINEMATICS_FIELD_VEC2)
            xml_vec2(r, k, f->attr, f->dflt[0], f->dflt[1], at);
        else if (f->kind == KINEMATICS_FIELD_NUMBER)
            xml_num(r, k, f->attr, f->dflt[0], 1, at);
        else if (f->kind == KINEMATICS_FIELD_ANGLE)
            xml_num(r, k, f->attr, f->dflt[0], r->angle_scale, at);
        else if (f->kind == KINEMATICS_FIELD_ANGLES) {
            if (xml_numbers(r, k, f->attr, at, 2, 2, r->angle_scale) != 2 && !r->failed)
                xml_fail(r, CLINK_ERR_PARSE, xml_line(k), "%s: %s needs two angles (from, to)", w,
                         f->attr);
        } else if (f->kind == KINEMATICS_FIELD_FLAG) {
            static const char *const flags[] = {"false", "true", NULL};
            *(int *) (void *) at = xml_keyword(r, k, f->attr, flags, (int) f->dflt[0]);
        } else if (f->kind == KINEMATICS_FIELD_PROFILE)
            read_profile(r, k, &s->profile, w);
        else
            read_vertices(r, k, f->attr, s, w);
    }
    /* a polygon's outline, an arc and a profile are checked here, so that the message names its own
     * line */
    char why[200];
    clink_status st;
    int own = s->type == CLINK_SHAPE_POLYGON || s->type == CLINK_SHAPE_ARC ||
              s->type == CLINK_SHAPE_PROFILE;
    if (!r->failed && own && sc->check(s, why, sizeof why, &st) != 0)
        xml_fail(r, st, xml_line(k), "%s: %s", w, why);
    if (!r->failed && *material < 0)
        *material = r->bodies[*body].material;
}

static void read_pair(xml_reader *r, const xmlNode *k)
{
    clink_contact_pair_def def = clink_default_contact_pair_def();
    clink_shape_def shape[2];
    char w[96], name[CLINK_NAME_MAX + 1], law[CLINK_NAME_MAX + 1];
    int body[2], mat[2], ns = 0, has_law = 0, f;
    const xmlNode *s;

    xml_describe(w, sizeof w, "contact pair", k);
    def.name = xml_name(r, k, "name", name) ? name : NULL;
    for (s = k->children; s != NULL && !r->failed; s = s->next) {
        if (xml_is_elem(s, "law")) {
            xml_read_law(r, s, law, &def.params, &def.treatment, &def.restitution, w);
            has_law = 1;
        } else if (xml_is_elem(s, "friction")) {
            xml_read_friction(r, s, &def.friction, w);
        } else if (xml_is_elem(s, NULL)) {
            if (ns == 2) {
                xml_fail(r, CLINK_ERR_PARSE, xml_line(s), "%s: more than two shapes", w);
                return;
            }
            read_shape(r, s, &shape[ns], &body[ns], &mat[ns], w);
            ns++;
        }
    }
    if (r->failed)
        return;
    if (ns != 2 || !has_law) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(k), "%s needs two shapes and a <law>", w);
        return;
    }
    /* the API takes a pair in the registry's order (a line first, a polygon before a
       circle): the file may give the shapes in either */
    f = !kinematics_pair_of(shape[0].type, shape[1].type) &&
        kinematics_pair_of(shape[1].type, shape[0].type);
    if (shape[1].type == CLINK_SHAPE_LINE && shape[0].type != CLINK_SHAPE_LINE)
        f = 1;
    def.body_a = body[f];
    def.body_b = body[1 - f];
    def.shape_a = shape[f];
    def.shape_b = shape[1 - f];
    def.law = law;
    xml_material_params(r, mat[f], mat[1 - f], &def.params);
    xml_built(r, clink_model_builder_add_contact_pair(r->builder, &def, NULL), k);
}

void xml_read_contacts(xml_reader *r, const xmlNode *sec)
{
    const xmlNode *k;

    for (k = sec->children; k != NULL && !r->failed; k = k->next)
        if (xml_is_elem(k, "pair"))
            read_pair(r, k);
}

/*
 * <translational_clearance name guide guide_point axis slider slider_point length height
 * clearance guide_length slider_material guide_material> with a <law> and an optional
 * <friction>: a clink_translational_clearance_def (include/clink/model.h). Materials
 * fill E1, nu1 (the slider's) and E2, nu2 (the guide's) as a journal's and a bearing's;
 * the stiffness K must be in the <law>: a corner on a plane has no Hertz formula.
 */
static void read_translational(xml_reader *r, const xmlNode *k)
{
    static const char *const keys[] = {
        "name",   "guide",  "guide_point", "axis",         "slider",          "slider_point",
        "length", "height", "clearance",   "guide_length", "slider_material", "guide_material",
        NULL};
    clink_translational_clearance_def def = clink_default_translational_clearance_def();
    char w[96], name[CLINK_NAME_MAX + 1], law[CLINK_NAME_MAX + 1];
    int m1, m2;

    xml_describe(w, sizeof w, "translational clearance joint", k);
    if (xml_check_attrs(r, k, keys, NULL))
        return;
    def.name = xml_name(r, k, "name", name) ? name : NULL;
    def.guide_body = xml_ref(r, k, "guide", CLINK_ENTITY_BODY, w);
    def.slider_body = xml_ref(r, k, "slider", CLINK_ENTITY_BODY, w);
    xml_vec2(r, k, "guide_point", 0, 0, def.guide_point);
    xml_vec2(r, k, "axis", 1, 0, def.axis);
    xml_vec2(r, k, "slider_point", 0, 0, def.slider_point);
    if (!xml_num(r, k, "length", NAN, 1, &def.length) ||
        !xml_num(r, k, "height", NAN, 1, &def.height) ||
        !xml_num(r, k, "clearance", NAN, 1, &def.clearance)) {
        if (!r->failed)
            xml_fail(r, CLINK_ERR_MODEL, xml_line(k),
                     "%s: length, height and clearance are required", w);
        return;
    }
    xml_num(r, k, "guide_length", NAN, 1, &def.guide_length);
    m1 = xml_ref_material(r, k, "slider_material", w);
    m2 = xml_ref_material(r, k, "guide_material", w);
    if (r->failed)
        return;
    if (xml_read_element_law(r, k, law, &def.params, &def.treatment, &def.restitution,
                             &def.friction, w) != 0)
        return;
    def.law = law;
    xml_material_params(r, m1 >= 0 ? m1 : r->bodies[def.slider_body].material,
                        m2 >= 0 ? m2 : r->bodies[def.guide_body].material, &def.params);
    xml_built(r, clink_model_builder_add_translational_clearance(r->builder, &def, NULL), k);
}

/*
 * <stop name body1 point1 axis body2 point2 lower upper> with a <law> (K given) and an
 * optional <friction>: a clink_stop_def (include/clink/model.h); a missing limit is
 * none on that side.
 */
static void read_stop(xml_reader *r, const xmlNode *k)
{
    static const char *const keys[] = {"name",   "body1", "point1", "axis", "body2",
                                       "point2", "lower", "upper",  NULL};
    clink_stop_def def = clink_default_stop_def();
    char w[96], name[CLINK_NAME_MAX + 1], law[CLINK_NAME_MAX + 1];

    xml_describe(w, sizeof w, "stop", k);
    if (xml_check_attrs(r, k, keys, NULL))
        return;
    def.name = xml_name(r, k, "name", name) ? name : NULL;
    def.body1 = xml_ref(r, k, "body1", CLINK_ENTITY_BODY, w);
    def.body2 = xml_ref(r, k, "body2", CLINK_ENTITY_BODY, w);
    xml_vec2(r, k, "point1", 0, 0, def.point1);
    xml_vec2(r, k, "axis", 1, 0, def.axis);
    xml_vec2(r, k, "point2", 0, 0, def.point2);
    xml_num(r, k, "lower", NAN, 1, &def.lower);
    xml_num(r, k, "upper", NAN, 1, &def.upper);
    if (r->failed)
        return;
    if (xml_read_element_law(r, k, law, &def.params, &def.treatment, &def.restitution,
                             &def.friction, w) != 0)
        return;
    def.law = law;
    xml_built(r, clink_model_builder_add_stop(r->builder, &def, NULL), k);
}

/* the world centre of a gear at body coordinates c on body b at its initial pose */
static void gear_centre(const xml_reader *r, int b, const double c[2], double w[2])
{
    double cs = cos(r->bodies[b].phi), sn = sin(r->bodies[b].phi);
    w[0] = r->bodies[b].x + cs * c[0] - sn * c[1];
    w[1] = r->bodies[b].y + sn * c[0] + cs * c[1];
}

/*
 * <gear_pair name body1 center1 base_radius1 body2 center2 base_radius2 pressure_angle
 * backlash angle1 angle2> with a <law> (K, the mesh stiffness) and an optional <friction>:
 * a clink_gear_pair_def; the angles default to the bodies' initial angles (the teeth
 * centred in the backlash at the start); the centres' initial distance must be
 * (r_b1 + r_b2) / cos(pressure_angle), the operating centre distance of the two base
 * circles at that pressure angle.
 */
/*
 * The gear pair's mesh attributes (docs/gears-cams.md): internal (a ring as gear 2), teeth1,
 * contact_ratio, addendum_radius1, addendum_radius2 (m), stiffness_amplitude, mesh_smoothing,
 * mesh_phase (fractions); the builder checks them. 0, or -1 (failed).
 */
static int read_gear_mesh(xml_reader *r, const xmlNode *k, clink_gear_pair_def *def, const char *w)
{
    static const char *const flags[] = {"false", "true", "0", "1", NULL};
    double z;
    def->internal = xml_keyword(r, k, "internal", flags, 0) % 2;
    if (xml_num(r, k, "teeth1", 0, 1, &z) && !(z == floor(z) && z >= 0.0 && z <= 1e6)) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(k), "%s: teeth1 = %g is not a whole number >= 0", w,
                 z);
        return -1;
    }
    def->teeth1 = (int) z;
    xml_num(r, k, "contact_ratio", NAN, 1, &def->contact_ratio);
    xml_num(r, k, "addendum_radius1", NAN, 1, &def->addendum_radius1);
    xml_num(r, k, "addendum_radius2", NAN, 1, &def->addendum_radius2);
    xml_num(r, k, "stiffness_amplitude", 0, 1, &def->stiffness_amplitude);
    xml_num(r, k, "mesh_smoothing", 0, 1, &def->mesh_smoothing);
    xml_num(r, k, "mesh_phase", 0, 1, &def->mesh_phase);
    return r->failed ? -1 : 0;
}

static void read_gear_pair(xml_reader *r, const xmlNode *k)
{
    static const char *const keys[] = {"name",
                                       "body1",
                                       "center1",
                                       "base_radius1",
                                       "body2",
                                       "center2",
                                       "base_radius2",
                                       "pressure_angle",
                                       "backlash",
                                       "angle1",
                                       "angle2",
                                       "internal",
                                       "teeth1",
                                       "contact_ratio",
                                       "addendum_radius1",
                                       "addendum_radius2",
                                       "stiffness_amplitude",
                                       "mesh_smoothing",
                                       "mesh_phase",
                                       NULL};
    clink_gear_pair_def def = clink_default_gear_pair_def();
    char w[96], name[CLINK_NAME_MAX + 1], law[CLINK_NAME_MAX + 1];

    xml_describe(w, sizeof w, "gear pair", k);
    if (xml_check_attrs(r, k, keys, NULL))
        return;
    def.name = xml_name(r, k, "name", name) ? name : NULL;
    def.body1 = xml_ref(r, k, "body1", CLINK_ENTITY_BODY, w);
    def.body2 = xml_ref(r, k, "body2", CLINK_ENTITY_BODY, w);
    xml_vec2(r, k, "center1", 0, 0, def.center1);
    xml_vec2(r, k, "center2", 0, 0, def.center2);
    xml_num(r, k, "base_radius1", NAN, 1, &def.base_radius1);
    xml_num(r, k, "base_radius2", NAN, 1, &def.base_radius2);
    xml_num(r, k, "pressure_angle", 0.3490658503988659 / r->angle_scale, r->angle_scale,
            &def.pressure_angle);
    xml_num(r, k, "backlash", 0, 1, &def.backlash);
    if (r->failed || read_gear_mesh(r, k, &def, w) != 0)
        return;
    if (!xml_num(r, k, "angle1", 0, r->angle_scale, &def.angle1))
        def.angle1 = r->bodies[def.body1].phi;
    if (!xml_num(r, k, "angle2", 0, r->angle_scale, &def.angle2))
        def.angle2 = r->bodies[def.body2].phi;
    if (r->failed || xml_read_element_law(r, k, law, &def.params, &def.treatment, &def.restitution,
                                          &def.friction, w) != 0)
        return;
    def.law = law;
    double c1[2], c2[2];
    gear_centre(r, def.body1, def.center1, c1);
    gear_centre(r, def.body2, def.center2, c2);
    double d = hypot(c2[0] - c1[0], c2[1] - c1[1]);
    double need =
        (def.internal ? def.base_radius2 - def.base_radius1 : def.base_radius1 + def.base_radius2) /
        cos(def.pressure_angle);
    if (def.base_radius1 > 0.0 && def.base_radius2 > 0.0 && def.pressure_angle > 0.0 &&
        def.pressure_angle < 1.5707963267948966 && !(fabs(d - need) <= 1e-9 * fabs(need))) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(k),
                 "%s: centre distance %.9g m does not fit the base radii and pressure angle: "
                 "(%s) / cos(pressure_angle) = %.9g m",
                 w, d, def.internal ? "r_b2 - r_b1" : "r_b1 + r_b2", need);
        return;
    }
    xml_built(r, clink_model_builder_add_gear_pair(r->builder, &def, NULL), k);
}

int xml_read_element(xml_reader *r, const xmlNode *k)
{
    if (xml_is_elem(k, "gear_pair")) {
        read_gear_pair(r, k);
        return 1;
    }
    if (xml_is_elem(k, "stop")) {
        read_stop(r, k);
        return 1;
    }
    if (xml_is_elem(k, "translational_clearance")) {
        read_translational(r, k);
        return 1;
    }
    return 0;
}
