/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contact elements (<pair> in <contacts>; <revolute_clearance>, <translational_clearance>,
 * <stop>, <gear_pair>, ... in <joints>) and the <law> and <friction> elements they share.
 *
 * One reader serves every element kind: the rows of its class's field table
 * (src/elements/element.h, element_field) say which attributes it takes (and in which
 * child element), their types (a number, an angle in the file's unit, a point, a body or a
 * material by name, a word), which are required and which ranges the file's values must be
 * in; the definition starts as the kind's default and the class's file rule checks what
 * goes together (element_class.file). A pair's shapes (<circle center radius>, <line point
 * normal>, <capsule point1 point2 radius>, <polygon vertices>, ..., each on a body with an
 * optional material) are read by the rows of the shape table (src/kinematics/contact_shapes.h).
 * <law> takes name, treatment and any key of the contact parameter descriptor
 * (clink_contact_param_at(): K, n, e, chi, c, alpha, v_ref, E1, E2, nu1, nu2, R1, R2, eta1,
 * eta2, Y, psi, xi, zero_force, in the units it lists), read generically: a parameter added
 * to the descriptor is readable with no edit here. Materials fill E1, nu1 (side 1: shape 1,
 * journal, slider), E2, nu2 (side 2: shape 2, bearing, guide) and Y (the softer yield
 * strength) where the law left them out; a shape or element without a material takes its
 * body's. treatment="impulse" is CLINK_CONTACT_PIECEWISE with e as Newton's restitution. The
 * builder checks the rest (geometry, the law's parameters, the friction).
 */
#include "xml/xml_internal.h"

#include "elements/element.h"
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

/* the attributes element n takes: name (of the element itself) and the rows held by it
   (child NULL) or by its child `child` */
static int check_row_attrs(xml_reader *r, const xmlNode *n, const element_class *ec,
                           const char *child)
{
    const char *keys[2 + 32];
    int nk = 0;

    if (child == NULL)
        keys[nk++] = "name";
    for (int i = 0; i < ec->nfields && nk < 33; i++) {
        const element_field *f = &ec->fields[i];
        int here = child ? f->child && strcmp(f->child, child) == 0 : f->child == NULL;
        if (f->attr && f->type != ELEMENT_FIELD_SHAPE && here)
            keys[nk++] = f->attr;
    }
    keys[nk] = NULL;
    return xml_check_attrs(r, n, keys, NULL);
}

/* row f's attribute of node n into the definition d (or the file's f); 1 if given */
static int read_row(xml_reader *r, const xmlNode *n, const element_field *f, element_def *d,
                    element_file *file, const char *w)
{
    void *at = (char *) d + f->offset;
    int m;

    switch (f->type) {
    case ELEMENT_FIELD_NUMBER:
        return xml_num(r, n, f->attr, *(double *) at, 1, at);
    case ELEMENT_FIELD_ANGLE:
        return xml_num(r, n, f->attr, *(double *) at, r->angle_scale, at);
    case ELEMENT_FIELD_POINT:
        return xml_vec2(r, n, f->attr, ((double *) at)[0], ((double *) at)[1], at);
    case ELEMENT_FIELD_BODY:
        *(int *) at = xml_ref(r, n, f->attr, CLINK_ENTITY_BODY, w);
        return 1;
    case ELEMENT_FIELD_WORDS:
        *(int *) at = xml_keyword(r, n, f->attr, f->words, *(int *) at);
        return xml_has(n, f->attr);
    case ELEMENT_FIELD_MATERIAL:
        m = xml_ref_material(r, n, f->attr, w);
        file->material[f->slot] = m;
        return m >= 0;
    case ELEMENT_FIELD_FILE_NUMBER:
        return xml_num(r, n, f->attr, NAN, 1, &file->number[f->slot]);
    case ELEMENT_FIELD_BEAM: /* a beam by name: its first node and elements */
        xml_ref_beam(r, n, f->attr, w, (int *) at, (int *) (void *) ((char *) d + f->of));
        return 1;
    case ELEMENT_FIELD_SHAPE:
    case ELEMENT_FIELD_WEAR:
        return 0;
    }
    return 0;
}

/* the rows held by node n (child NULL: the element's own; else those of its <child>): read,
   required, in range; 0, or -1 after an error */
static int read_rows(xml_reader *r, const xmlNode *n, const element_class *ec, const char *child,
                     element_def *d, element_file *file, const char *w)
{
    if (check_row_attrs(r, n, ec, child))
        return -1;
    for (int i = 0; i < ec->nfields && !r->failed; i++) {
        const element_field *f = &ec->fields[i];
        int here = child ? f->child && strcmp(f->child, child) == 0 : f->child == NULL;
        if (f->attr == NULL || !here || f->type == ELEMENT_FIELD_SHAPE)
            continue;
        if (read_row(r, n, f, d, file, w))
            file->given |= 1u << i;
        else if ((f->flags & ELEMENT_REQUIRED) && !r->failed)
            xml_fail(r, CLINK_ERR_MODEL, xml_line(n), "%s: %s%s%s%s is required", w,
                     child ? "<" : "", child ? child : "", child ? "> " : "", f->attr);
    }
    /* the ranges of the file, in the rows' order */
    for (int i = 0; i < ec->nfields && !r->failed; i++) {
        const element_field *f = &ec->fields[i];
        int here = child ? f->child && strcmp(f->child, child) == 0 : f->child == NULL;
        double x =
            f->type == ELEMENT_FIELD_NUMBER ? *(double *) (void *) ((char *) d + f->offset) : 0.0;
        if (here && f->hint && f->type == ELEMENT_FIELD_NUMBER && !(f->lo < x && x < f->hi))
            xml_fail(r, CLINK_ERR_RANGE, xml_line(n), "%s: %s%s%s%s = %g%s%s is out of range; %s",
                     w, child ? "<" : "", child ? child : "", child ? "> " : "", f->attr, x,
                     f->unit && *f->unit ? " " : "", f->unit ? f->unit : "", f->hint);
    }
    return r->failed ? -1 : 0;
}

/* 1 if class ec reads its rows from children named `name` */
static int is_row_child(const element_class *ec, const char *name)
{
    for (int i = 0; i < ec->nfields; i++)
        if (ec->fields[i].child && strcmp(ec->fields[i].child, name) == 0)
            return 1;
    return 0;
}

/* the row of class ec whose child `name` a reader of its own reads whole (a <wear>); NULL if
   none */
static const element_field *whole_child(const element_class *ec, const char *name)
{
    for (int i = 0; i < ec->nfields; i++)
        if (ec->fields[i].type == ELEMENT_FIELD_WEAR && strcmp(ec->fields[i].child, name) == 0)
            return &ec->fields[i];
    return NULL;
}

/* child s of an element of class ec is none it holds: say which it holds, the nearest first */
static void unknown_child(xml_reader *r, const xmlNode *s, const element_class *ec, const char *w)
{
    char hint[SUGGEST_MAX_LEN + 24];
    xml_names names;

    xml_names_init(&names, (const char *) s->name);
    xml_names_add(&names, "law");
    xml_names_add(&names, "friction");
    for (int i = 0; i < ec->nfields; i++)
        if (ec->fields[i].child && !xml_names_has(&names, ec->fields[i].child))
            xml_names_add(&names, ec->fields[i].child);
    xml_fail(r, CLINK_ERR_MODEL, xml_line(s), "%s: unknown element <%s>%s; <%s> holds %s", w,
             (const char *) s->name, xml_names_hint(&names, hint, sizeof hint, 1), ec->name,
             names.list);
}

/* the children of element k: <law> and <friction> (read by the caller), the children that
   hold rows, and the shapes of the SHAPE rows in their order; 0, or -1 after an error */
static int read_children(xml_reader *r, const xmlNode *k, const element_class *ec, element_def *d,
                         element_file *file, const char *w)
{
    int nshape = 0, want = 0;

    for (int i = 0; i < ec->nfields; i++)
        want += ec->fields[i].type == ELEMENT_FIELD_SHAPE;
    for (const xmlNode *s = k->children; s != NULL && !r->failed; s = s->next) {
        const char *name = (const char *) s->name;
        if (!xml_is_elem(s, NULL) || xml_is_elem(s, "law") || xml_is_elem(s, "friction"))
            continue;
        const element_field *whole = whole_child(ec, name);
        if (whole) {
            xml_read_wear(r, s, (clink_wear_def *) (void *) ((char *) d + whole->offset),
                          whole->of ? (int *) (void *) ((char *) d + whole->of) : NULL,
                          whole->of ? (double *) (void *) ((char *) d + whole->depths) : NULL, w);
            continue;
        }
        if (is_row_child(ec, name)) {
            read_rows(r, s, ec, name, d, file, w);
            continue;
        }
        if (want == 0) {
            unknown_child(r, s, ec, w);
            return -1;
        }
        if (nshape == want) {
            xml_fail(r, CLINK_ERR_PARSE, xml_line(s), "%s: more than %d shapes", w, want);
            return -1;
        }
        for (int i = 0; i < ec->nfields; i++) {
            const element_field *f = &ec->fields[i];
            if (f->type == ELEMENT_FIELD_SHAPE && f->slot == nshape)
                read_shape(r, s, (clink_shape_def *) (void *) ((char *) d + f->offset),
                           (int *) (void *) ((char *) d + f->of), &file->material[f->slot], w);
        }
        nshape++;
    }
    if (!r->failed && nshape < want)
        xml_fail(r, CLINK_ERR_PARSE, xml_line(k), "%s needs %d shapes and a <law>", w, want);
    return r->failed ? -1 : 0;
}

/* the builder's add function of class ec's kind */
static clink_status add_element(clink_model_builder *b, const element_class *ec,
                                const element_def *d)
{
#define XML_ADD_(NAME, name, api, ENTITY, word)                                                    \
    if (ec->kind == CLINK_ELEMENT_##NAME)                                                          \
        return clink_model_builder_add_##api(b, &d->name, NULL);
    CLINK_ELEMENT_KINDS(XML_ADD_)
#undef XML_ADD_
    return CLINK_ERR_ARG;
}

/* a clearance the file gives as two radii (rows journal_radius, bearing_radius and an unwritten
   clearance) meets the unit hints' size rule as a written one (src/xml/xml_hints.c) */
static void hint_clearance(xml_reader *r, const xmlNode *k, const element_class *ec,
                           const element_def *d, const element_file *file)
{
    int j = element_field_find(ec, "journal_radius"), b = element_field_find(ec, "bearing_radius");
    int c = element_field_find(ec, "clearance");
    if (j < 0 || b < 0 || c < 0 || ((file->given >> c) & 1))
        return;
    const char *base = (const char *) d;
    double rj = *(const double *) (const void *) (base + ec->fields[j].offset);
    double rb = *(const double *) (const void *) (base + ec->fields[b].offset);
    xml_hint_length(r, k, "clearance", rb - rj, 1);
}

/*
 * Any contact element k of class ec, from the rows of its class (src/elements/element.h):
 * the definition starts as the class's default, each row's attribute replaces its field
 * (a body or material by name, an angle in the file's unit), a required one must be given,
 * a value with a range must be in it; then the class's file rule (attributes that go
 * together), the <law> (required) and <friction>, and for a class with materials (rows
 * MATERIAL, or the shapes') E1, nu1 (side 1), E2, nu2 (side 2) and Y where the law left
 * them out. The builder checks the rest.
 */
static void read_element(xml_reader *r, const xmlNode *k, const element_class *ec)
{
    element_def def;
    element_file file = {.number = {NAN, NAN, NAN, NAN}, .material = {-1, -1}};
    char w[96], name[CLINK_NAME_MAX + 1], law[CLINK_NAME_MAX + 1], msg[300];
    int materials = 0;

    element_default(ec, &def);
    clink_element_base *base = element_base(&def);
    xml_describe(w, sizeof w, ec->word, k);
    if (read_rows(r, k, ec, NULL, &def, &file, w) != 0)
        return;
    base->name = xml_name(r, k, "name", name) ? name : NULL;
    if (read_children(r, k, ec, &def, &file, w) != 0)
        return;
    /* a material not given is its body's */
    for (int i = 0; i < ec->nfields; i++) {
        const element_field *f = &ec->fields[i];
        materials |= f->type == ELEMENT_FIELD_MATERIAL || f->type == ELEMENT_FIELD_SHAPE;
        if (f->type == ELEMENT_FIELD_MATERIAL && file.material[f->slot] < 0)
            file.material[f->slot] =
                r->bodies[*(int *) (void *) ((char *) &def + ec->fields[f->of].offset)].material;
    }
    int ba, bb;
    ec->bodies(&def, &ba, &bb);
    const xml_body_extra *pose[2] = {&r->bodies[ba], &r->bodies[bb]};
    for (int g = 0; g < 2; g++) {
        file.pose[g][0] = pose[g]->x;
        file.pose[g][1] = pose[g]->y;
        file.pose[g][2] = pose[g]->phi;
    }
    clink_status st = ec->file ? ec->file(&def, &file, msg, sizeof msg) : CLINK_OK;
    if (st != CLINK_OK) {
        xml_fail(r, st, xml_line(k), "%s: %s", w, msg);
        return;
    }
    hint_clearance(r, k, ec, &def, &file);
    if (xml_read_element_law(r, k, law, &base->params, &base->treatment, &base->restitution,
                             &base->friction, w) != 0)
        return;
    base->law = law;
    if (materials)
        xml_material_params(r, file.material[0], file.material[1], &base->params);
    xml_built(r, add_element(r->builder, ec, &def), k);
}

void xml_read_contacts(xml_reader *r, const xmlNode *sec)
{
    for (const xmlNode *k = sec->children; k != NULL && !r->failed; k = k->next) {
        const element_class *ec = element_class_find((const char *) k->name);
        if (xml_is_elem(k, NULL) && ec && ec->section && strcmp(ec->section, "contacts") == 0)
            read_element(r, k, ec);
    }
}

int xml_read_element(xml_reader *r, const xmlNode *k)
{
    const element_class *ec = element_class_find((const char *) k->name);
    if (ec == NULL || ec->section != NULL)
        return 0;
    read_element(r, k, ec);
    return 1;
}
