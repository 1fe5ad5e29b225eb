/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Overrides by path: "PATH=VALUE" strings (include/clink/xml.h, "overrides")
 * set attributes of the parsed document before the schema and the reader see
 * it, so that an overridden value passes every check a value in the file
 * passes. This file parses an override, finds the one element its path names
 * (each step among the descendants of the previous one, "[NAME]" matching the
 * name attribute), checks that the value is numbers (or a keyword where the
 * attribute takes one), writes the attribute and records what it did; after a
 * failed load it adds the overrides of the element that failed to the message.
 */
#include "fmt_double.h"
#include "xml/xml_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OVR_MAX_STEPS = 8 };

/* one parsed override */
typedef struct ovr {
    char text[CLINK_XML_OVERRIDE_MAX]; /* a copy, cut into the pieces below */
    const char *kind[OVR_MAX_STEPS];   /* element tags */
    const char *name[OVR_MAX_STEPS];   /* "[NAME]" or NULL */
    int steps;
    const char *attr;
    const char *value;
} ovr;

/* the attributes whose value is a keyword, by element ("*": any attribute of it) */
static const char *const keyword_attrs[][2] = {{"mechanism", "angle_unit"},
                                               {"settings", "method"},
                                               {"settings", "drift"},
                                               {"settings", "contact_bookkeeping"},
                                               {"settings", "strict"},
                                               {"settings", "start"},
                                               {"settings", "window"},
                                               {"law", "name"},
                                               {"law", "treatment"},
                                               {"friction", "type"},
                                               {"output", "*"}};

/* the sections an override may create when the file has none */
static const char *const creatable[] = {"settings", "gravity", "output", NULL};

static int ident_ok(const char *s)
{
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_' ||
              (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static char *trim(char *s)
{
    size_t n;

    while (*s == ' ' || *s == '\t')
        s++;
    n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

/* splits text into o; NULL, or why it is malformed */
static const char *ovr_parse(const char *text, ovr *o)
{
    char *eq, *p, *path;

    memset(o, 0, sizeof *o);
    if (strlen(text) >= sizeof o->text)
        return "longer than 255 bytes";
    memcpy(o->text, text, strlen(text) + 1);
    eq = strchr(o->text, '=');
    if (eq == NULL)
        return "not PATH=VALUE";
    *eq = '\0';
    path = trim(o->text);
    o->value = trim(eq + 1);
    if (*o->value == '\0')
        return "the value is empty";
    /* steps: KIND or KIND[NAME], separated by '.', the last piece is the attribute */
    for (p = path;;) {
        char *dot, *br;
        if (o->steps == OVR_MAX_STEPS)
            return "more than 8 steps";
        br = strchr(p, '[');
        dot = strchr(p, '.');
        if (br != NULL && (dot == NULL || br < dot)) {
            char *close = strchr(br, ']');
            if (close == NULL)
                return "a '[' without ']'";
            *br = '\0';
            *close = '\0';
            o->name[o->steps] = br + 1;
            if (close[1] != '.')
                return "']' must be followed by '.'";
            dot = close + 1;
            if (o->name[o->steps][0] == '\0')
                return "an empty [NAME]";
        }
        if (dot == NULL) {
            o->attr = p;
            break;
        }
        *dot = '\0';
        if (!ident_ok(p))
            return "a step is not an element name (STEP.ATTRIBUTE, STEP = ELEMENT or "
                   "ELEMENT[NAME])";
        o->kind[o->steps++] = p;
        p = dot + 1;
    }
    if (o->steps == 0)
        return "the path needs an element and an attribute (ELEMENT.ATTRIBUTE)";
    if (!ident_ok(o->attr))
        return "the attribute is not a name";
    return NULL;
}

/* up to 2 elements below from (from itself excluded) of tag kind and, if given, that name */
static void find_below(const xmlNode *from, const char *kind, const char *name, xmlNode **hit,
                       int *count)
{
    xmlNode *k;

    for (k = from->children; k != NULL && *count < 2; k = k->next) {
        if (!xml_is_elem(k, NULL))
            continue;
        if (xmlStrEqual(k->name, BAD_CAST kind)) {
            xmlChar *v = name != NULL ? xmlGetNoNsProp(k, BAD_CAST "name") : NULL;
            int ok = name == NULL || (v != NULL && strcmp((const char *) v, name) == 0);
            xmlFree(v);
            if (ok)
                hit[(*count)++] = k;
        }
        find_below(k, kind, name, hit, count);
    }
}

/* the value: a keyword where the attribute takes one, else blank-separated numbers
   rewritten as shortest round-trip decimals into out; NULL, or why not */
static const char *ovr_value(const ovr *o, const xmlNode *elem, char *out, size_t size)
{
    const char *s = o->value;
    size_t used = 0, i;

    for (i = 0; i < sizeof keyword_attrs / sizeof keyword_attrs[0]; i++)
        if (xmlStrEqual(elem->name, BAD_CAST keyword_attrs[i][0]) &&
            (strcmp(keyword_attrs[i][1], "*") == 0 || strcmp(keyword_attrs[i][1], o->attr) == 0)) {
            snprintf(out, size, "%s", o->value);
            return NULL;
        }
    out[0] = '\0';
    while (*s != '\0') {
        char num[OUTPUT_DOUBLE_MAX], *end;
        double v;
        size_t len;
        errno = 0;
        v = strtod(s, &end);
        if (end == s || (*end != '\0' && *end != ' ' && *end != '\t'))
            return "is not a number";
        if (!isfinite(v))
            return "is not finite (NaN or infinity)";
        len = output_format_double(v, num);
        if (used + len + 2 > size)
            return "is too long";
        if (used > 0)
            out[used++] = ' ';
        memcpy(out + used, num, len + 1);
        used += len;
        for (s = end; *s == ' ' || *s == '\t'; s++) {
        }
    }
    return NULL;
}

/* the element the steps name (creating a missing top-level section); NULL, or why not */
static const char *ovr_find(const ovr *o, xmlNode *root, xmlNode **elem, char *why, size_t size)
{
    xmlNode *at = root, *hit[2];
    int i, j, count;

    for (i = 0; i < o->steps; i++) {
        count = 0;
        if (i == 0 && o->name[0] == NULL && xmlStrEqual(root->name, BAD_CAST o->kind[0])) {
            hit[count++] = root;
        } else {
            find_below(at, o->kind[i], o->name[i], hit, &count);
        }
        if (count == 0 && i == 0 && o->steps == 1 && o->name[0] == NULL)
            for (j = 0; creatable[j] != NULL; j++)
                if (strcmp(o->kind[0], creatable[j]) == 0) {
                    hit[0] = xmlNewChild(root, NULL, BAD_CAST creatable[j], NULL);
                    if (hit[0] == NULL)
                        return "out of memory";
                    count = 1;
                    break;
                }
        if (count != 1) {
            snprintf(why, size, "%s<%s>%s%s%s", count == 0 ? "names no element: no " : "",
                     o->kind[i], o->name[i] != NULL ? " named '" : "",
                     o->name[i] != NULL ? o->name[i] : "", o->name[i] != NULL ? "'" : "");
            if (count > 1)
                snprintf(why + strlen(why), size - strlen(why),
                         " names more than one element: add [NAME]%s",
                         o->name[i] != NULL ? " or the enclosing element" : "");
            else if (i > 0)
                snprintf(why + strlen(why), size - strlen(why), " inside <%s>",
                         (const char *) at->name);
            return why;
        }
        at = hit[0];
    }
    *elem = at;
    return NULL;
}

/* a clearance joint's dimensions: the one not overridden that would contradict goes */
static void ovr_clearance(xmlNode *elem, const char *attr, const ovr *done, xmlNode *const *elems,
                          int n_done)
{
    static const char *const dims[] = {"journal_radius", "clearance", "bearing_radius"};
    int i, given = 0;

    if (!xmlStrEqual(elem->name, BAD_CAST "revolute_clearance"))
        return;
    for (i = 0; i < 3; i++)
        given += xml_has(elem, dims[i]);
    if (given < 3 || (strcmp(attr, dims[0]) && strcmp(attr, dims[1]) && strcmp(attr, dims[2])))
        return;
    for (i = 0; i < 3; i++) {
        int set_before = 0;
        for (int j = 0; j < n_done; j++)
            set_before |= elems[j] == elem && strcmp(done[j].attr, dims[i]) == 0;
        if (strcmp(attr, dims[i]) != 0 && !set_before) {
            xmlAttr *a = xmlHasNsProp(elem, BAD_CAST dims[i], NULL);
            if (a != NULL)
                xmlRemoveProp(a);
            return;
        }
    }
}

static int ovr_fail(xml_reader *r, clink_status st, const char *text, const char *why)
{
    xml_fail(r, st, 0, "override '%.200s': %s", text, why);
    return -1;
}

int xml_override_apply(xml_reader *r, xmlNode *root)
{
    xmlNode **elems;
    ovr *parsed;
    int i;

    r->set_lines = calloc(2 * (size_t) r->n_sets, sizeof *r->set_lines);
    elems = calloc((size_t) r->n_sets, sizeof *elems);
    parsed = calloc((size_t) r->n_sets, sizeof *parsed);
    if (r->set_lines == NULL || elems == NULL || parsed == NULL) {
        free(elems);
        free(parsed);
        xml_fail(r, CLINK_ERR_NOMEM, 0, "out of memory");
        return -1;
    }
    for (i = 0; i < r->n_sets; i++) {
        ovr *op = &parsed[i];
        xmlNode *elem = NULL;
        xmlChar *old;
        char value[CLINK_XML_OVERRIDE_MAX], whybuf[200];
        const char *why = r->sets[i] == NULL ? "NULL" : ovr_parse(r->sets[i], op);
        if (why != NULL || (why = ovr_find(op, root, &elem, whybuf, sizeof whybuf)) != NULL) {
            free(elems);
            free(parsed);
            return ovr_fail(r, CLINK_ERR_ARG, r->sets[i] != NULL ? r->sets[i] : "(null)", why);
        }
        if (strcmp(op->attr, "name") == 0 && !xmlStrEqual(elem->name, BAD_CAST "law")) {
            free(elems);
            free(parsed);
            return ovr_fail(r, CLINK_ERR_ARG, r->sets[i],
                            "names are not parameters (other elements refer to them)");
        }
        if ((why = ovr_value(op, elem, value, sizeof value)) != NULL) {
            char msg[CLINK_XML_OVERRIDE_MAX + 64];
            snprintf(msg, sizeof msg, "'%.200s' %s", op->value, why);
            free(elems);
            free(parsed);
            return ovr_fail(r,
                            strstr(why, "finite") != NULL ? CLINK_ERR_NONFINITE : CLINK_ERR_PARSE,
                            r->sets[i], msg);
        }
        elems[i] = elem;
        old = xml_has(elem, op->attr) ? xmlGetNoNsProp(elem, BAD_CAST op->attr) : NULL;
        if (r->applied != NULL) {
            clink_xml_applied *a = &r->applied[i];
            const char *eq = strchr(r->sets[i], '=');
            char path[CLINK_XML_OVERRIDE_MAX];
            snprintf(path, sizeof path, "%.*s", (int) (eq - r->sets[i]), r->sets[i]);
            snprintf(a->path, sizeof a->path, "%s", trim(path));
            snprintf(a->value, sizeof a->value, "%s", value);
            snprintf(a->previous, sizeof a->previous, "%s", old != NULL ? (const char *) old : "");
            a->line = xml_line(elem);
        }
        xmlFree(old);
        r->set_lines[2 * i] = xml_line(elem);
        r->set_lines[2 * i + 1] = elem->parent != NULL && elem->parent->type == XML_ELEMENT_NODE
                                      ? xml_line(elem->parent)
                                      : -1;
        if (xmlSetProp(elem, BAD_CAST op->attr, BAD_CAST value) == NULL) {
            free(elems);
            free(parsed);
            xml_fail(r, CLINK_ERR_NOMEM, 0, "out of memory");
            return -1;
        }
        ovr_clearance(elem, op->attr, parsed, elems, i);
    }
    free(elems);
    free(parsed);
    return 0;
}

void xml_override_annotate(xml_reader *r)
{
    size_t used;
    int i;

    if (r->set_lines == NULL || r->err == NULL || r->err_size == 0 ||
        strstr(r->err, "override '") != NULL)
        return;
    for (i = 0; i < r->n_sets; i++) {
        if (r->set_lines[2 * i] != r->fail_line && r->set_lines[2 * i + 1] != r->fail_line)
            continue;
        used = strlen(r->err);
        if (used + 1 < r->err_size)
            snprintf(r->err + used, r->err_size - used, " (override '%s')", r->sets[i]);
    }
}
