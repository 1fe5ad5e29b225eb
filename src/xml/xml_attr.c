/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Elements and attributes of a clink file: strict numbers (the whole value, each
 * finite), pairs, names, keywords, references to entities by name, and the
 * check that every attribute of an element is one it takes (FILE:LINE on an
 * unknown one). Only lexical rules live here; ranges are the builder's.
 */
#include "xml/xml_internal.h"

#include "clink/contact.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int xml_is_elem(const xmlNode *n, const char *name)
{
    return n != NULL && n->type == XML_ELEMENT_NODE &&
           (name == NULL || xmlStrEqual(n->name, BAD_CAST name));
}

xmlNode *xml_child(const xmlNode *n, const char *name)
{
    xmlNode *k;

    for (k = n != NULL ? n->children : NULL; k != NULL; k = k->next)
        if (xml_is_elem(k, name))
            return k;
    return NULL;
}

int xml_has(const xmlNode *n, const char *key)
{
    return xmlHasNsProp(n, BAD_CAST key, NULL) != NULL;
}

void xml_describe(char *buf, size_t size, const char *kind, const xmlNode *n)
{
    xmlChar *v = xml_has(n, "name") ? xmlGetNoNsProp(n, BAD_CAST "name") : NULL;

    if (v != NULL)
        snprintf(buf, size, "%s '%.63s'", kind, (const char *) v);
    else
        snprintf(buf, size, "<%s>", (const char *) n->name);
    xmlFree(v);
}

/* the attributes an element takes: allowed, and the contact parameter keys extra accepts */
static void attr_names(xml_names *s, const char *const *allowed, int (*extra)(const char *key))
{
    size_t i;

    for (i = 0; allowed[i] != NULL; i++)
        xml_names_add(s, allowed[i]);
    for (i = 0; extra != NULL && i < clink_contact_param_count(); i++) {
        const clink_contact_param *d = clink_contact_param_at(i);
        if (extra(d->key))
            xml_names_add(s, d->key);
    }
}

int xml_check_attrs(xml_reader *r, const xmlNode *n, const char *const *allowed,
                    int (*extra)(const char *key))
{
    const xmlAttr *a;
    int i;

    for (a = n->properties; a != NULL && !r->failed; a = a->next) {
        const char *key = (const char *) a->name;
        int known = extra != NULL && extra(key);
        for (i = 0; !known && allowed[i] != NULL; i++)
            known = strcmp(key, allowed[i]) == 0;
        if (!known) {
            char w[96], hint[SUGGEST_MAX_LEN + 24];
            xml_names s;
            xml_names_init(&s, key);
            attr_names(&s, allowed, extra);
            xml_describe(w, sizeof w, (const char *) n->name, n);
            xml_fail(r, CLINK_ERR_MODEL, xml_line(n), "%s: unknown attribute '%s'%s; <%s> takes %s",
                     w, key, xml_names_hint(&s, hint, sizeof hint, 0), (const char *) n->name,
                     s.list);
            return -1;
        }
    }
    return 0;
}

/* the attribute's value (caller xmlFree()s it), NULL if absent */
static xmlChar *attr_get(xml_reader *r, const xmlNode *n, const char *key)
{
    xmlChar *v;

    if (!xml_has(n, key))
        return NULL;
    v = xmlGetNoNsProp(n, BAD_CAST key);
    if (v == NULL)
        xml_fail(r, CLINK_ERR_NOMEM, xml_line(n), "out of memory reading '%s'", key);
    return v;
}

/* the schema's name type: [A-Za-z_][A-Za-z0-9_.-]* (elements it does not type reach here) */
static int name_ok(const char *s)
{
    for (size_t i = 0; s[i]; i++) {
        char c = s[i];
        int letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
        int other = (c >= '0' && c <= '9') || c == '.' || c == '-';
        if (!letter && !(i > 0 && other))
            return 0;
    }
    return 1;
}

int xml_name(xml_reader *r, const xmlNode *n, const char *key, char *buf)
{
    xmlChar *v = attr_get(r, n, key);
    size_t len;

    if (v == NULL)
        return 0;
    len = strlen((const char *) v);
    if (len == 0 || len > CLINK_NAME_MAX || !name_ok((const char *) v)) {
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "<%s>: %s = '%.64s' is not a name (a letter or '_', then letters, digits, '_', "
                 "'.' or '-', at most %d in all)",
                 (const char *) n->name, key, (const char *) v, CLINK_NAME_MAX - 1);
        xmlFree(v);
        return 0;
    }
    memcpy(buf, v, len + 1);
    xmlFree(v);
    return 1;
}

/* parses up to max numbers separated by blanks; returns the count, -1 if malformed; *under
   set when one underflows to zero (1e-400: strtod gives 0 with ERANGE) */
static int parse_numbers(const char *s, double *out, int max, int *under)
{
    int count = 0;
    char *end;

    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            s++;
        if (*s == '\0')
            return count;
        if (count == max)
            return -1;
        errno = 0;
        out[count] = strtod(s, &end);
        if (end == s)
            return -1;
        if (errno == ERANGE && out[count] == 0.0)
            *under = 1;
        count++;
        s = end;
        if (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return -1;
    }
}

int xml_numbers(xml_reader *r, const xmlNode *n, const char *key, double *out, int min, int max,
                double scale)
{
    xmlChar *v = attr_get(r, n, key);
    int count, i, under = 0;
    char w[96];

    if (v == NULL)
        return 0;
    count = parse_numbers((const char *) v, out, max, &under);
    for (i = 0; i < count && isfinite(out[i]); i++)
        out[i] *= scale;
    if (count >= min && i == count && !under) {
        xmlFree(v);
        xml_hint_numbers(r, n, key, out, count);
        return count;
    }
    /* an error: the element's description only now */
    xml_describe(w, sizeof w, (const char *) n->name, n);
    if (count < min) {
        if (min == max)
            xml_fail(r, CLINK_ERR_PARSE, xml_line(n), "%s: %s = '%.40s' must be %d number%s", w,
                     key, (const char *) v, min, min > 1 ? "s" : "");
        else
            xml_fail(r, CLINK_ERR_PARSE, xml_line(n), "%s: %s = '%.40s' must be %d to %d numbers",
                     w, key, (const char *) v, min, max);
        xmlFree(v);
        return 0;
    }
    if (under)
        xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                 "%s: %s = '%.40s' is below the smallest double (it would read as 0)", w, key,
                 (const char *) v);
    else
        xml_fail(r, CLINK_ERR_NONFINITE, xml_line(n),
                 "%s: %s = '%.40s' is not finite (NaN or infinity)", w, key, (const char *) v);
    xmlFree(v);
    return 0;
}

int xml_num(xml_reader *r, const xmlNode *n, const char *key, double def, double scale, double *out)
{
    double v;

    if (xml_numbers(r, n, key, &v, 1, 1, scale) == 1) {
        *out = v;
        return 1;
    }
    *out = def;
    return 0;
}

int xml_vec2(xml_reader *r, const xmlNode *n, const char *key, double x, double y, double *out)
{
    if (xml_numbers(r, n, key, out, 2, 2, 1.0) == 2)
        return 1;
    out[0] = x;
    out[1] = y;
    return 0;
}

int xml_keyword(xml_reader *r, const xmlNode *n, const char *key, const char *const *words, int def)
{
    xmlChar *v = attr_get(r, n, key);
    char hint[SUGGEST_MAX_LEN + 24];
    xml_names s;
    int i;

    if (v == NULL)
        return def;
    for (i = 0; words[i] != NULL; i++)
        if (strcmp((const char *) v, words[i]) == 0) {
            xmlFree(v);
            return i;
        }
    xml_names_init(&s, (const char *) v);
    for (i = 0; words[i] != NULL; i++)
        xml_names_add(&s, words[i]);
    xml_fail(r, CLINK_ERR_PARSE, xml_line(n),
             "<%s>: %s = '%.40s' is not a valid keyword%s; one of %s", (const char *) n->name, key,
             (const char *) v, xml_names_hint(&s, hint, sizeof hint, 0), s.list);
    xmlFree(v);
    return def;
}

/* an entity kind's word in messages ("is not a WORD of this file"): the element kinds' from
   CLINK_ELEMENT_KINDS */
#define XML_KIND_WORD_(NAME, name, api, ENTITY, word) word,
static const char *const kind_word[CLINK_ENTITY_COUNT_] = {"body", "joint", "driver", "load",
                                                           CLINK_ELEMENT_KINDS(XML_KIND_WORD_)};
#undef XML_KIND_WORD_

/* the names of the document's elements that name an entity of kind (the ground for bodies) */
static void entity_names(const xml_reader *r, const xmlNode *n, clink_entity kind, xml_names *s)
{
    const xmlNode *k = xmlDocGetRootElement(n->doc);

    if (kind == CLINK_ENTITY_BODY)
        xml_names_add(s, "ground");
    /* depth first through the whole document, without recursion */
    while (k != NULL) {
        xmlChar *v = k->type == XML_ELEMENT_NODE ? xmlGetNoNsProp(k, BAD_CAST "name") : NULL;
        if (v != NULL && clink_model_builder_find(r->builder, kind, (const char *) v) >= 0)
            xml_names_add(s, (const char *) v);
        if (v != NULL && kind == CLINK_ENTITY_BODY && xml_is_elem(k, "beam"))
            xml_beam_node_names(r, (const char *) v, s);
        xmlFree(v);
        if (k->children != NULL && k->type == XML_ELEMENT_NODE) {
            k = k->children;
            continue;
        }
        while (k != NULL && k->next == NULL)
            k = k->parent != NULL && k->parent->type == XML_ELEMENT_NODE ? k->parent : NULL;
        if (k != NULL)
            k = k->next;
    }
}

/* a driver's joint= names a clearance joint: say why it cannot be driven and what can */
static void ref_clearance_joint(xml_reader *r, const xmlNode *n, const char *key, const char *name,
                                const char *what)
{
    xml_names s;

    xml_names_init(&s, name);
    entity_names(r, n, CLINK_ENTITY_JOINT, &s);
    xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
             "%s: %s = '%s' is a clearance joint; a clearance joint cannot be driven (it has no "
             "ideal constraint): drive the ideal joint of the crank (%s%s) or the crank's angle "
             "(type=\"coordinate\")",
             what, key, name, s.count > 0 ? "ideal joints: " : "this file has no ideal joint",
             s.list);
}

int xml_ref(xml_reader *r, const xmlNode *n, const char *key, clink_entity kind, const char *what)
{
    char name[CLINK_NAME_MAX + 1], hint[SUGGEST_MAX_LEN + 24];
    xml_names s;
    int i;

    if (!xml_name(r, n, key, name)) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(n), "%s: %s is required", what, key);
        return -1;
    }
    i = clink_model_builder_find(r->builder, kind, name);
    if (i >= 0)
        return i;
    if (kind == CLINK_ENTITY_JOINT &&
        clink_model_builder_find(r->builder, CLINK_ENTITY_CLEARANCE_JOINT, name) >= 0) {
        ref_clearance_joint(r, n, key, name, what);
        return -1;
    }
    xml_names_init(&s, name);
    entity_names(r, n, kind, &s);
    xml_names_hint(&s, hint, sizeof hint, 0);
    xml_fail(r, CLINK_ERR_NOT_FOUND, xml_line(n), "%s: %s = '%s' is not a %s of this file%s", what,
             key, name, kind_word[kind],
             hint[0] != '\0'             ? hint
             : kind == CLINK_ENTITY_BODY ? " (bodies: see <bodies>)"
                                         : "");
    return -1;
}

int xml_ref_material(xml_reader *r, const xmlNode *n, const char *key, const char *what)
{
    char name[CLINK_NAME_MAX + 1], hint[SUGGEST_MAX_LEN + 24];
    xml_names s;
    int i;

    if (!xml_name(r, n, key, name))
        return -1;
    for (i = 0; i < r->n_materials; i++)
        if (strcmp(r->materials[i].name, name) == 0)
            return i;
    xml_names_init(&s, name);
    for (i = 0; i < r->n_materials; i++)
        xml_names_add(&s, r->materials[i].name);
    xml_fail(r, CLINK_ERR_NOT_FOUND, xml_line(n),
             "%s: %s = '%s' is not a material of this file%s%s%s", what, key, name,
             xml_names_hint(&s, hint, sizeof hint, 0),
             s.count > 0 ? "; materials: " : " (it has no <materials>)", s.list);
    return -1;
}
