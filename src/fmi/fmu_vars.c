/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fmu_vars.c: the table of the FMU's variables (fmu_vars.h), their values from a
 * simulation, and the GUID of a model file (FNV-1a 64 of Fowler, Noll and Vo, with two
 * offset bases for 128 bits). The parameters come from the model file itself (libxml2):
 * every attribute the table fmu_param_rules names, written in the file as one number,
 * is a parameter whose start value is that number.
 */
#include "fmi/fmu_vars.h"

#include "clink/contact.h"
#include "clink/friction.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const body_fields[6] = {"x", "y", "phi", "vx", "vy", "omega"};
static const char *const body_units[6] = {"m", "m", "rad", "m/s", "m/s", "rad/s"};
static const char *const body_what[6] = {
    "x of the centre of mass",          "y of the centre of mass",          "angle",
    "x velocity of the centre of mass", "y velocity of the centre of mass", "angular velocity"};
static const char *const energy_fields[10] = {
    "kinetic", "gravity",        "spring",          "work_drivers",     "work_loads",
    "balance", "contact_stored", "contact_damping", "contact_friction", "work_stabilisation"};
static const char *const contact_fields[3] = {"fn", "ft", "delta"};
static const char *const contact_units[3] = {"N", "N", "m"};
static const char *const contact_what[3] = {"normal force", "friction force", "penetration"};

/* the unit of an input's value: by its kind, and for a driver input by what the driver
   moves (an angle or a length) */
static const char *fmu_input_unit(const clink_model *m, const clink_input_def *d)
{
    switch (d->kind) {
    case CLINK_INPUT_FORCE:
    case CLINK_INPUT_JOINT_FORCE:
        return "N";
    case CLINK_INPUT_TORQUE:
    case CLINK_INPUT_JOINT_TORQUE:
        return "N.m";
    case CLINK_INPUT_DRIVER_VALUE:
    case CLINK_INPUT_DRIVER_RATE: {
        const char *u = clink_model_driver_unit(m, d->target); /* its force: N m for an angle */
        int angle = u != NULL && strcmp(u, "N m") == 0;
        if (d->kind == CLINK_INPUT_DRIVER_VALUE)
            return angle ? "rad" : "m";
        return angle ? "rad/s" : "m/s";
    }
    default:
        return "1";
    }
}

/* ---- parameters: the one table of what an importer may set ------------------------- */

enum { FMU_RULE_LIST, FMU_RULE_LAW, FMU_RULE_FRICTION };

/* an element whose attributes are parameters: those of the list (with their units), or
   every key of a law catalogue (with the catalogue's unit) */
typedef struct fmu_param_rule {
    const char *tag;
    int from;
    const char *attr[5];
    const char *unit[5];
} fmu_param_rule;

static const fmu_param_rule fmu_param_rules[] = {
    {"revolute_clearance",
     FMU_RULE_LIST,
     {"clearance", "journal_radius", "bearing_radius"},
     {"m", "m", "m"}},
    {"lubrication", FMU_RULE_LIST, {"viscosity", "length"}, {"Pa.s", "m"}},
    {"material", FMU_RULE_LIST, {"E", "nu"}, {"Pa", "1"}},
    {"law", FMU_RULE_LAW, {NULL}, {NULL}},
    {"friction", FMU_RULE_FRICTION, {NULL}, {NULL}},
    /* drivers' constants: the unit is the driven coordinate's (m or rad, per second) */
    {"constant", FMU_RULE_LIST, {"value"}, {"1"}},
    {"linear", FMU_RULE_LIST, {"initial", "rate"}, {"1", "1"}},
    {"harmonic",
     FMU_RULE_LIST,
     {"offset", "amplitude", "frequency", "phase"},
     {"1", "1", "rad/s", "rad"}},
};

/* the unit of attribute a of an element of rule r, NULL when a is no parameter */
static const char *fmu_param_unit(const fmu_param_rule *r, const char *a)
{
    const char *u = NULL;
    if (r->from == FMU_RULE_LAW) {
        const clink_contact_param *p = clink_contact_param_find(a);
        u = p ? p->unit : NULL;
    } else if (r->from == FMU_RULE_FRICTION) {
        const clink_friction_param *p = clink_friction_param_find(a);
        u = p ? p->unit : NULL;
    } else {
        for (int i = 0; i < 5 && r->attr[i]; i++)
            if (strcmp(r->attr[i], a) == 0)
                u = r->unit[i];
    }
    return u && strcmp(u, "-") != 0 ? u : u ? "1" : NULL;
}

/* the element's override path into path and its name's stem into name (NAME.CHILD for
   TAG[NAME].CHILD); 0, or -1 when no named element holds it or it is too long */
static int fmu_param_element(xmlNode *e, char *path, char *name, size_t n)
{
    const char *steps[8];
    int k = 0;
    xmlNode *x = e;
    xmlChar *nm = NULL;
    for (; x && x->type == XML_ELEMENT_NODE && k < 8; x = x->parent) {
        steps[k++] = (const char *) x->name;
        /* a <law>'s name is its law's, not its own */
        if (strcmp((const char *) x->name, "law") != 0)
            nm = xmlGetProp(x, (const xmlChar *) "name");
        if (nm || strcmp((const char *) x->name, "mechanism") == 0)
            break;
    }
    if (!nm || !x || strcmp((const char *) x->name, "mechanism") == 0) {
        xmlFree(nm);
        return -1;
    }
    size_t pl = (size_t) snprintf(path, n, "%s[%s]", steps[k - 1], (const char *) nm),
           nl = (size_t) snprintf(name, n, "%s.%s", steps[k - 1], (const char *) nm);
    xmlFree(nm);
    for (int i = k - 2; i >= 0 && pl < n && nl < n; i--) {
        pl += (size_t) snprintf(path + pl, n - pl, ".%s", steps[i]);
        nl += (size_t) snprintf(name + nl, n - nl, ".%s", steps[i]);
    }
    return pl < n && nl < n ? 0 : -1;
}

/* one number filling the attribute's text into *x; 1, else 0 */
static int fmu_param_number(const char *text, double *x)
{
    char *end;
    *x = strtod(text, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    return end != text && *end == '\0' && isfinite(*x);
}

/* one parameter into v (when there is room: *k < cap), counted in *k; a name or path too long
   for its field is left out rather than cut (a cut name could name another parameter) */
static void fmu_param_add(fmu_var *v, int cap, int *k, const char *path, const char *name,
                          const char *attr, const char *unit, double start)
{
    if (*k < cap) {
        fmu_var *p = &v[*k];
        *p = (fmu_var){.kind = FMU_VAR_PARAM,
                       .index = *k,
                       .unit = unit,
                       .what = "parameter (an override of the model file, as clink run --set)",
                       .start = start};
        int nn = snprintf(p->name, sizeof p->name, "%s.%s", name, attr);
        int np = snprintf(p->path, sizeof p->path, "%s.%s", path, attr);
        if (nn < 0 || (size_t) nn >= sizeof p->name || np < 0 || (size_t) np >= sizeof p->path)
            return;
    }
    (*k)++;
}

/* a clearance joint's clearance when the file gives the two radii instead */
static void fmu_param_clearance(xmlNode *e, fmu_var *v, int cap, int *k, const char *path,
                                const char *name)
{
    xmlChar *c = xmlGetProp(e, (const xmlChar *) "clearance"),
            *rj = xmlGetProp(e, (const xmlChar *) "journal_radius"),
            *rb = xmlGetProp(e, (const xmlChar *) "bearing_radius");
    double j, b;
    if (!c && rj && rb && fmu_param_number((const char *) rj, &j) &&
        fmu_param_number((const char *) rb, &b))
        fmu_param_add(v, cap, k, path, name, "clearance", "m", b - j);
    xmlFree(c);
    xmlFree(rj);
    xmlFree(rb);
}

/* the parameters of the elements from e on (depth first) into v; *k counts them */
static void fmu_params_walk(xmlNode *e, fmu_var *v, int cap, int *k)
{
    for (; e; e = e->next) {
        if (e->type != XML_ELEMENT_NODE)
            continue;
        const fmu_param_rule *r = NULL;
        for (size_t i = 0; i < sizeof fmu_param_rules / sizeof *fmu_param_rules; i++)
            if (strcmp((const char *) e->name, fmu_param_rules[i].tag) == 0)
                r = &fmu_param_rules[i];
        char path[FMU_PATH_MAX], name[FMU_PATH_MAX];
        if (r && fmu_param_element(e, path, name, sizeof path - 24) == 0) {
            if (strcmp(r->tag, "revolute_clearance") == 0)
                fmu_param_clearance(e, v, cap, k, path, name);
            for (xmlAttr *a = e->properties; a; a = a->next) {
                const char *unit = fmu_param_unit(r, (const char *) a->name);
                xmlChar *text = xmlNodeGetContent((xmlNode *) a);
                double x;
                if (unit && text && fmu_param_number((const char *) text, &x))
                    fmu_param_add(v, cap, k, path, name, (const char *) a->name, unit, x);
                xmlFree(text);
            }
        }
        fmu_params_walk(e->children, v, cap, k);
    }
}

/* the parameters of the model file at path into v (room for cap); their count, or -1
   when the file cannot be read */
static int fmu_params(const char *path, fmu_var *v, int cap)
{
    xmlDoc *doc =
        xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
    if (!doc)
        return -1;
    int k = 0;
    xmlNode *root = xmlDocGetRootElement(doc);
    if (root)
        fmu_params_walk(root->children, v, cap, &k);
    xmlFreeDoc(doc);
    return k;
}

int fmu_vars_build(const clink_model *m, const char *path, fmu_var **vars, int *n)
{
    int np = path ? fmu_params(path, NULL, 0) : 0;
    if (np < 0)
        return -1;
    int nb = clink_model_count(m, CLINK_ENTITY_BODY), nc = clink_model_contact_count(m);
    int ni = clink_model_input_count(m);
    int cap = 6 * (nb > 1 ? nb - 1 : 0) + 10 + 3 * nc + (ni > 0 ? ni : 0) + np;
    fmu_var *v = calloc((size_t) cap, sizeof *v);
    if (!v)
        return -1;
    int k = 0;
    for (int b = 1; b < nb; b++) {
        const char *name = clink_model_name(m, CLINK_ENTITY_BODY, b);
        char def[32];
        snprintf(def, sizeof def, "body%d", b);
        for (int f = 0; f < 6; f++, k++) {
            v[k] = (fmu_var){.kind = FMU_VAR_BODY,
                             .index = b,
                             .field = f,
                             .unit = body_units[f],
                             .what = body_what[f]};
            snprintf(v[k].name, sizeof v[k].name, "%s.%s", name && name[0] ? name : def,
                     body_fields[f]);
        }
    }
    for (int f = 0; f < 10; f++, k++) {
        v[k] = (fmu_var){.kind = FMU_VAR_ENERGY, .field = f, .unit = "J", .what = "energy"};
        snprintf(v[k].name, sizeof v[k].name, "energy.%s", energy_fields[f]);
    }
    for (int c = 0; c < nc; c++)
        for (int f = 0; f < 3; f++, k++) {
            v[k] = (fmu_var){.kind = FMU_VAR_CONTACT,
                             .index = c,
                             .field = f,
                             .unit = contact_units[f],
                             .what = contact_what[f]};
            snprintf(v[k].name, sizeof v[k].name, "contact.%s.%s", clink_model_contact_name(m, c),
                     contact_fields[f]);
        }
    for (int i = 0; i < ni; i++, k++) {
        clink_input_def d;
        if (clink_model_input(m, i, &d) != CLINK_OK) {
            free(v);
            return -1;
        }
        v[k] = (fmu_var){.kind = FMU_VAR_INPUT,
                         .index = i,
                         .unit = fmu_input_unit(m, &d),
                         .what = "input (clink_sim_set_input)",
                         .start = d.initial};
        snprintf(v[k].name, sizeof v[k].name, "%s", clink_model_input_name(m, i));
    }
    if (np > 0) {
        int k0 = k;
        if (fmu_params(path, v + k, np) != np) {
            free(v);
            return -1;
        }
        for (int i = k0; i < k0 + np; i++)
            v[i].index = i - k0;
        k += np;
    }
    *vars = v;
    *n = k;
    return 0;
}

static int fmu_var_cmp(const void *a, const void *b)
{
    const fmu_var *const *x = a, *const *y = b;
    int c = strcmp((*x)->name, (*y)->name);
    return c ? c : *x < *y ? -1 : *x > *y; /* the later of two equal names last */
}

int fmu_vars_duplicate(const fmu_var *vars, int n)
{
    if (n < 2)
        return -1;
    const fmu_var **by_name = malloc((size_t) n * sizeof *by_name);
    if (!by_name) { /* without memory: the pairs one by one */
        for (int i = 1; i < n; i++)
            for (int j = 0; j < i; j++)
                if (strcmp(vars[i].name, vars[j].name) == 0)
                    return i;
        return -1;
    }
    for (int i = 0; i < n; i++)
        by_name[i] = &vars[i];
    qsort(by_name, (size_t) n, sizeof *by_name, fmu_var_cmp);
    int dup = -1;
    for (int i = 1; i < n && dup < 0; i++)
        if (strcmp(by_name[i]->name, by_name[i - 1]->name) == 0)
            dup = (int) (by_name[i] - vars);
    free(by_name);
    return dup;
}

clink_status fmu_var_value(const clink_sim *s, const fmu_var *v, double *value)
{
    clink_status st = CLINK_OK;
    if (v->kind == FMU_VAR_BODY) {
        double q[3], w[3];
        st = clink_sim_body_state(s, v->index, q, w);
        *value = v->field < 3 ? q[v->field] : w[v->field - 3];
    } else if (v->kind == FMU_VAR_ENERGY) {
        clink_energy e;
        st = clink_sim_energy(s, &e);
        double all[10] = {e.kinetic,           e.gravity,         e.spring,
                          e.work_drivers,      e.work_loads,      e.balance,
                          e.contact_stored,    e.contact_damping, e.contact_friction,
                          e.work_stabilisation};
        *value = all[v->field];
    } else if (v->kind == FMU_VAR_INPUT) {
        double slope;
        st = clink_sim_input(s, v->index, value, &slope);
        if (st == CLINK_OK && isnan(*value))
            *value = v->start; /* a driver input never set: what it starts at */
    } else if (v->kind == FMU_VAR_PARAM) {
        *value = v->start; /* the FMU's own value (fmu.c) is read before this */
    } else {
        clink_contact_info c;
        st = clink_sim_contact(s, v->index, &c);
        *value = v->field == 0 ? c.fn : v->field == 1 ? c.ft : c.delta;
    }
    return st;
}

int fmu_guid(const char *path, char guid[40])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
    unsigned char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < got; i++) {
            h1 = (h1 ^ buf[i]) * 0x100000001b3ull;
            h2 = (h2 ^ buf[i]) * 0x100000001b3ull;
        }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    snprintf(guid, 40, "{%08x-%04x-%04x-%04x-%012llx}", (unsigned) (h1 >> 32),
             (unsigned) (h1 >> 16) & 0xffffu, (unsigned) h1 & 0xffffu, (unsigned) (h2 >> 48),
             (unsigned long long) (h2 & 0xffffffffffffull));
    return 0;
}
