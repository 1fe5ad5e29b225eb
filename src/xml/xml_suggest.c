/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a file could have said where it says an unknown name: the names
 * allowed there, listed in the message, and the nearest of them ("did you mean
 * 'clearance'?", src/suggest.c).
 *
 * The attributes and child elements the schema allows come from the embedded
 * XSD itself, read once more as a plain document (libxml2 keeps the components
 * of a compiled schema private): the declaration of an element of the file is
 * found by walking its ancestors down from the global <xs:element>, each step
 * searching the content model of the parent's complex type (inline or named by
 * type=, through xs:all, xs:sequence, xs:choice, xs:group, xs:attributeGroup
 * and xs:extension) without entering nested declarations. No list is kept by
 * hand: an attribute added to share/clink.xsd is offered at once.
 */
#include "fmt_double.h"
#include "xml/xml_internal.h"

#include "elements/element.h"

#include <libxml/parser.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XSD_NS "http://www.w3.org/2001/XMLSchema"

enum { XSD_MAX_DEPTH = 24 };

/* ---- the list of allowed names ---------------------------------------------- */

void xml_names_init(xml_names *s, const char *word)
{
    suggest_init(&s->near, word);
    s->list[0] = '\0';
    s->len = 0;
    s->count = 0;
    s->seen = 0;
}

void xml_names_add(xml_names *s, const char *name)
{
    size_t n = strlen(name), room = sizeof s->list - s->len;

    if (strcmp(name, s->near.word) == 0)
        s->seen = 1;
    /* once only ("law" may be declared twice in one content model) */
    if (xml_names_has(s, name))
        return;
    suggest_offer(&s->near, name);
    if (s->count > 0 && room > 6 && n + 2 + 5 >= room) {
        /* full: end with ", ..." once */
        if (strcmp(s->list + s->len - 3, "...") != 0)
            s->len += (size_t) snprintf(s->list + s->len, room, ", ...");
        return;
    }
    if (n + 2 + 5 >= room)
        return;
    s->len += (size_t) snprintf(s->list + s->len, room, "%s%s", s->count > 0 ? ", " : "", name);
    s->count++;
}

int xml_names_has(const xml_names *s, const char *name)
{
    size_t n = strlen(name);
    const char *p;

    for (p = s->list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == s->list || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

const char *xml_names_hint(const xml_names *s, char *buf, size_t size, int element)
{
    const char *best = suggest_best(&s->near);

    if (best == NULL)
        snprintf(buf, size, "%s", "");
    else if (element)
        snprintf(buf, size, " (did you mean <%s>?)", best);
    else
        snprintf(buf, size, " (did you mean '%s'?)", best);
    return buf;
}

/* ---- the schema as a document ----------------------------------------------- */

xmlDocPtr xml_xsd_read(const char *text, size_t size)
{
    return xmlReadMemory(text, (int) size, "clink.xsd", "UTF-8",
                         XML_PARSE_NONET | XML_PARSE_NOBLANKS);
}

/* an element of the XSD namespace with local name local */
static int xsd_is(const xmlNode *n, const char *local)
{
    return n != NULL && n->type == XML_ELEMENT_NODE && n->ns != NULL &&
           xmlStrEqual(n->ns->href, BAD_CAST XSD_NS) && xmlStrEqual(n->name, BAD_CAST local);
}

/* attribute key of an XSD node as a string compared with s (a "prefix:" of s's value ignored) */
static int xsd_attr_is(const xmlNode *n, const char *key, const char *s)
{
    xmlChar *v = xmlGetNoNsProp(n, BAD_CAST key);
    const char *local;
    int same;

    if (v == NULL)
        return 0;
    local = strchr((const char *) v, ':');
    local = local != NULL ? local + 1 : (const char *) v;
    same = strcmp(local, s) == 0;
    xmlFree(v);
    return same;
}

/* the global component <xs:KIND name="NAME"> */
static const xmlNode *xsd_global(const xmlDoc *xsd, const char *kind, const char *name)
{
    const xmlNode *root = xmlDocGetRootElement((xmlDoc *) xsd), *k;

    for (k = root != NULL ? root->children : NULL; k != NULL; k = k->next)
        if (xsd_is(k, kind) && xsd_attr_is(k, "name", name))
            return k;
    return NULL;
}

/* the global component named by attribute key of n (type=, ref=, base=) */
static const xmlNode *xsd_named(const xmlDoc *xsd, const xmlNode *n, const char *key,
                                const char *kind)
{
    xmlChar *v = xmlGetNoNsProp(n, BAD_CAST key);
    const xmlNode *g = NULL;
    const char *local;

    if (v == NULL)
        return NULL;
    local = strchr((const char *) v, ':');
    g = xsd_global(xsd, kind, local != NULL ? local + 1 : (const char *) v);
    xmlFree(v);
    return g;
}

/* the complex type of an element declaration: inline, or the global one named by type= */
static const xmlNode *xsd_type_of(const xmlDoc *xsd, const xmlNode *decl)
{
    const xmlNode *k;

    for (k = decl->children; k != NULL; k = k->next)
        if (xsd_is(k, "complexType"))
            return k;
    return xsd_named(xsd, decl, "type", "complexType");
}

/* what a walk of a content model looks for */
typedef struct xsd_walk {
    int elements;         /* 1: child elements, 0: attributes */
    const char *find;     /* a child element's name to find (elements only), or NULL */
    const xmlNode *found; /* its declaration */
    int open;             /* an xs:any (elements) or xs:anyAttribute (attributes) was met */
    xml_names *names;     /* the names met, or NULL */
} xsd_walk;

/* one declaration met by the walk: a local one, or the global one of ref= */
static void xsd_meet(const xmlDoc *xsd, const xmlNode *k, xsd_walk *w)
{
    const xmlNode *decl = k;
    xmlChar *name;

    if (xmlHasProp(k, BAD_CAST "ref") != NULL)
        decl = xsd_named(xsd, k, "ref", w->elements ? "element" : "attribute");
    if (decl == NULL || (name = xmlGetNoNsProp(decl, BAD_CAST "name")) == NULL)
        return;
    if (w->names != NULL)
        xml_names_add(w->names, (const char *) name);
    if (w->find != NULL && w->found == NULL && strcmp((const char *) name, w->find) == 0)
        w->found = decl;
    xmlFree(name);
}

/* walks the content model below n (never into a nested declaration's own content) */
static void xsd_walk_model(const xmlDoc *xsd, const xmlNode *n, xsd_walk *w, int depth)
{
    const xmlNode *k;

    if (n == NULL || depth > XSD_MAX_DEPTH)
        return;
    for (k = n->children; k != NULL; k = k->next) {
        if (xsd_is(k, "element")) {
            if (w->elements)
                xsd_meet(xsd, k, w);
        } else if (xsd_is(k, "attribute")) {
            if (!w->elements)
                xsd_meet(xsd, k, w);
        } else if (xsd_is(k, "any")) {
            w->open |= w->elements;
        } else if (xsd_is(k, "anyAttribute")) {
            w->open |= !w->elements;
        } else if (xsd_is(k, "group") && xmlHasProp(k, BAD_CAST "ref") != NULL) {
            xsd_walk_model(xsd, xsd_named(xsd, k, "ref", "group"), w, depth + 1);
        } else if (xsd_is(k, "attributeGroup") && xmlHasProp(k, BAD_CAST "ref") != NULL) {
            xsd_walk_model(xsd, xsd_named(xsd, k, "ref", "attributeGroup"), w, depth + 1);
        } else if (xsd_is(k, "extension")) {
            xsd_walk_model(xsd, xsd_named(xsd, k, "base", "complexType"), w, depth + 1);
            xsd_walk_model(xsd, k, w, depth + 1);
        } else if (!xsd_is(k, "annotation")) {
            xsd_walk_model(xsd, k, w, depth + 1);
        }
    }
}

/* the declaration of element n of a file, NULL if the schema has none for it */
static const xmlNode *xsd_decl_of(const xmlDoc *xsd, const xmlNode *n, int depth)
{
    const xmlNode *parent;
    xsd_walk w;

    if (n == NULL || n->type != XML_ELEMENT_NODE || depth > XSD_MAX_DEPTH)
        return NULL;
    if (n->parent == NULL || n->parent->type != XML_ELEMENT_NODE)
        return xsd_global(xsd, "element", (const char *) n->name);
    parent = xsd_decl_of(xsd, n->parent, depth + 1);
    if (parent == NULL)
        return NULL;
    memset(&w, 0, sizeof w);
    w.elements = 1;
    w.find = (const char *) n->name;
    xsd_walk_model(xsd, xsd_type_of(xsd, parent), &w, 0);
    if (w.found == NULL && w.open)
        return xsd_global(xsd, "element", (const char *) n->name);
    return w.found;
}

int xml_xsd_allowed(const xmlDoc *xsd, const xmlNode *n, int elements, xml_names *s)
{
    const xmlNode *decl;
    xsd_walk w;

    if (xsd == NULL || (decl = xsd_decl_of(xsd, n, 0)) == NULL)
        return -1;
    memset(&w, 0, sizeof w);
    w.elements = elements;
    w.names = s;
    xsd_walk_model(xsd, xsd_type_of(xsd, decl), &w, 0);
    return 0;
}

void xml_xsd_open_elements(const xmlDoc *xsd, xml_names *s)
{
    const xmlNode *root = xsd != NULL ? xmlDocGetRootElement((xmlDoc *) xsd) : NULL, *k;

    for (k = root != NULL ? root->children : NULL; k != NULL; k = k->next) {
        xmlChar *name;
        if (!xsd_is(k, "element") || (name = xmlGetNoNsProp(k, BAD_CAST "name")) == NULL)
            continue;
        /* an element of <contacts> declared at the top (<beam_contact>) is no joint */
        const element_class *ec = element_class_find((const char *) name);
        if (!xmlStrEqual(name, BAD_CAST "mechanism") && !(ec && ec->section))
            xml_names_add(s, (const char *) name);
        xmlFree(name);
    }
}

/* ---- schema errors said with the allowed names ---------------------------- */

/* "<name>" of an element, or "kind 'name'" when it has a name attribute */
static void xsd_describe(char *buf, size_t size, const xmlNode *n)
{
    xml_describe(buf, size, (const char *) n->name, n);
}

/* an attribute the schema does not allow on its element */
static int xsd_unknown_attribute(xml_reader *r, const xmlNode *elem, const char *key)
{
    xml_names s;
    char w[96], hint[SUGGEST_MAX_LEN + 24];

    xml_names_init(&s, key);
    if (xml_xsd_allowed(r->xsd, elem, 0, &s) != 0)
        return 0;
    xsd_describe(w, sizeof w, elem);
    xml_fail(r, CLINK_ERR_MODEL, xml_line(elem), "%s: unknown attribute '%s'%s; <%s> takes %s", w,
             key, xml_names_hint(&s, hint, sizeof hint, 0), (const char *) elem->name,
             s.count > 0 ? s.list : "no attributes");
    return 1;
}

/* an element the schema does not allow in its parent (not one out of place) */
static int xsd_unknown_element(xml_reader *r, const xmlNode *elem)
{
    const xmlNode *parent = elem->parent;
    xml_names s;
    char w[96], hint[SUGGEST_MAX_LEN + 24];

    if (parent == NULL || parent->type != XML_ELEMENT_NODE)
        return 0;
    xml_names_init(&s, (const char *) elem->name);
    if (xml_xsd_allowed(r->xsd, parent, 1, &s) != 0)
        return 0;
    /* a known element in the wrong place or once too often: libxml2's words say it */
    if (s.seen)
        return 0;
    xsd_describe(w, sizeof w, parent);
    xml_fail(r, CLINK_ERR_MODEL, xml_line(elem), "%s: unknown element <%s>%s; <%s> holds %s", w,
             (const char *) elem->name, xml_names_hint(&s, hint, sizeof hint, 1),
             (const char *) parent->name, s.count > 0 ? s.list : "no elements");
    return 1;
}

/* the set of an enumeration facet as libxml2 gives it ("'bdf', 'adams'") into s */
static void xsd_enumeration(const char *set, xml_names *s)
{
    const char *p = set, *end;
    char word[SUGGEST_MAX_LEN + 1];

    while ((p = strchr(p, '\'')) != NULL && (end = strchr(p + 1, '\'')) != NULL) {
        size_t n = (size_t) (end - p - 1);
        if (n < sizeof word) {
            memcpy(word, p + 1, n);
            word[n] = '\0';
            xml_names_add(s, word);
        }
        p = end + 1;
    }
}

/* a value outside an attribute's enumeration: the attribute that holds it, the values */
static int xsd_bad_keyword(xml_reader *r, const xmlNode *elem, const char *value, const char *set)
{
    const xmlAttr *a;
    xml_names s;
    char w[96], hint[SUGGEST_MAX_LEN + 24];

    for (a = elem->properties; a != NULL; a = a->next) {
        xmlChar *v = xmlGetNoNsProp(elem, a->name);
        int same = v != NULL && strcmp((const char *) v, value) == 0;
        xmlFree(v);
        if (same)
            break;
    }
    if (a == NULL)
        return 0;
    xml_names_init(&s, value);
    xsd_enumeration(set, &s);
    xsd_describe(w, sizeof w, elem);
    xml_fail(r, CLINK_ERR_MODEL, xml_line(elem),
             "%s: %s = '%.40s' is not a valid value%s; one of %s", w, (const char *) a->name, value,
             xml_names_hint(&s, hint, sizeof hint, 0), s.list);
    return 1;
}

/* the SI value of a number written with a common unit ("50mm", "207 GPa"): the factor and
   the SI unit of the unit at u, NULL factor's unit when it is not one of them */
static const char *xsd_si_unit(const char *u, double *factor)
{
    static const struct {
        const char *unit, *si;
        double factor;
    } units[] = {{"mm", "m", 1e-3},   {"cm", "m", 1e-2},   {"um", "m", 1e-6},   {"km", "m", 1e3},
                 {"m", "m", 1.0},     {"g", "kg", 1e-3},   {"kg", "kg", 1.0},   {"GPa", "Pa", 1e9},
                 {"MPa", "Pa", 1e6},  {"kPa", "Pa", 1e3},  {"Pa", "Pa", 1.0},   {"kN", "N", 1e3},
                 {"N", "N", 1.0},     {"ms", "s", 1e-3},   {"us", "s", 1e-6},   {"s", "s", 1.0},
                 {"rad", "rad", 1.0}, {"N/m", "N/m", 1.0}, {"kN/m", "N/m", 1e3}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(u, units[i].unit) == 0) {
            *factor = units[i].factor;
            return units[i].si;
        }
    return NULL;
}

/* an attribute of elem holding value, which is not a number because a unit follows its
   number ("50mm", "207 GPa", "-30 deg"): refused with the SI value to write instead; 1 if
   so, else 0 */
static int xsd_number_with_unit(xml_reader *r, const xmlNode *elem, const char *value)
{
    char unit[16], w[96], *end;
    const xmlAttr *a;
    double x = strtod(value, &end), f = 1.0;
    size_t k = 0;

    if (elem == NULL || elem->type != XML_ELEMENT_NODE || end == value)
        return 0;
    for (a = elem->properties; a != NULL; a = a->next) {
        xmlChar *v = xmlGetNoNsProp(elem, a->name);
        int same = v != NULL && strcmp((const char *) v, value) == 0;
        xmlFree(v);
        if (same)
            break;
    }
    while (*end == ' ')
        end++;
    for (; *end != '\0' && *end != ' ' && k + 1 < sizeof unit; end++)
        unit[k++] = *end;
    unit[k] = '\0';
    while (*end == ' ')
        end++;
    if (a == NULL || k == 0 ||
        !((unit[0] >= 'a' && unit[0] <= 'z') || (unit[0] >= 'A' && unit[0] <= 'Z')) || *end != '\0')
        return 0;
    const char *si = xsd_si_unit(unit, &f);
    char num[OUTPUT_DOUBLE_MAX];
    output_format_double(strcmp(unit, "deg") == 0 ? x : x * f, num);
    xsd_describe(w, sizeof w, elem);
    if (strcmp(unit, "deg") == 0)
        xml_fail(r, CLINK_ERR_MODEL, xml_line(elem),
                 "%s: %s = '%.40s': a number with a unit; angles are numbers alone, in rad, "
                 "or in degrees with angle_unit=\"deg\" on <mechanism>: write %s",
                 w, (const char *) a->name, value, num);
    else if (si != NULL)
        xml_fail(r, CLINK_ERR_MODEL, xml_line(elem),
                 "%s: %s = '%.40s': a number with a unit; clink reads numbers alone, in SI "
                 "units (m, kg, s, N, Pa, rad): write %s (%s in %s)",
                 w, (const char *) a->name, value, num, unit, si);
    else
        xml_fail(r, CLINK_ERR_MODEL, xml_line(elem),
                 "%s: %s = '%.40s': a number with a unit ('%s'); clink reads numbers alone, "
                 "in SI units (m, kg, s, N, Pa, rad)",
                 w, (const char *) a->name, value, unit);
    return 1;
}

/* 1 if the schema declares attribute key on decl (or lets any attribute be there) */
static int xsd_declares_attribute(const xmlDoc *xsd, const xmlNode *decl, const char *key)
{
    xsd_walk w;

    memset(&w, 0, sizeof w);
    w.find = key;
    xsd_walk_model(xsd, xsd_type_of(xsd, decl), &w, 0);
    return w.found != NULL || w.open;
}

/* the first attribute of elem the schema does not declare (libxml2's guess first), or NULL */
static const char *xsd_undeclared(const xmlDoc *xsd, const xmlNode *elem, const char *guess)
{
    const xmlNode *decl = xsd_decl_of(xsd, elem, 0);
    const xmlAttr *a;

    if (decl == NULL)
        return NULL;
    if (guess != NULL && xmlHasProp(elem, BAD_CAST guess) != NULL &&
        !xsd_declares_attribute(xsd, decl, guess))
        return guess;
    for (a = elem->properties; a != NULL; a = a->next)
        if (!xsd_declares_attribute(xsd, decl, (const char *) a->name))
            return (const char *) a->name;
    return NULL;
}

int xml_xsd_explain(xml_reader *r, const xmlError *e)
{
    const xmlNode *n = e->node;
    const char *key;

    if (r->xsd == NULL || n == NULL || e->domain != XML_FROM_SCHEMASV)
        return 0;
    if (e->code == XML_SCHEMAV_CVC_DATATYPE_VALID_1_2_1 && e->str1 != NULL &&
        xsd_number_with_unit(r, n->type == XML_ATTRIBUTE_NODE ? n->parent : n, e->str1))
        return 1;
    if (n->type == XML_ATTRIBUTE_NODE && n->parent != NULL)
        n = n->parent;
    if (n->type != XML_ELEMENT_NODE)
        return 0;
    switch (e->code) {
    case XML_SCHEMAV_CVC_COMPLEX_TYPE_3_2_1:
    case XML_SCHEMAV_CVC_COMPLEX_TYPE_3_2_2:
        key = xsd_undeclared(r->xsd, n, e->str1);
        return key != NULL && xsd_unknown_attribute(r, n, key);
    case XML_SCHEMAV_ELEMENT_CONTENT:
        return xsd_unknown_element(r, n);
    case XML_SCHEMAV_CVC_ENUMERATION_VALID:
        return e->str1 != NULL && e->str2 != NULL && xsd_bad_keyword(r, n, e->str1, e->str2);
    default:
        return 0;
    }
}
