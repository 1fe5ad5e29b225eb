/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xml_sections.c: the <poincare> children of <output> (docs/nonlinear.md), each a Poincare
 * section (clink_section_def) into the reader's summary, which `clink run` hands to the
 * recorder:
 *
 *   <poincare name="strobe" period="0.01" start="1"/>               t = start + k period
 *   <poincare name="rev" driver="motor" period="2*pi"/>              the driver's value at
 *                                                                    f(0) + k period
 *   <poincare name="rod0" when="rod.phi = 0" direction="rising"/>    a body's x, y, phi, vx,
 *                                                                    vy or omega at a level
 *
 * A period or level is a number, "pi" or "NUMBER*pi"; a driver's period and a level of phi
 * or omega are in degrees under angle_unit="deg" for an angular driver or coordinate.
 */
#include "xml/xml_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "NUMBER", "pi", "NUMBER*pi" (blanks around allowed) into *v; 0, or -1 when malformed */
static int sec_number(const char *s, double *v)
{
    char *end;
    while (*s == ' ')
        s++;
    double a = 1.0;
    if (strncmp(s, "pi", 2) != 0) {
        a = strtod(s, &end);
        if (end == s)
            return -1;
        s = end;
        while (*s == ' ')
            s++;
        if (*s == '\0') {
            *v = a;
            return isfinite(a) ? 0 : -1;
        }
        if (*s++ != '*')
            return -1;
        while (*s == ' ')
            s++;
        if (strncmp(s, "pi", 2) != 0)
            return -1;
    }
    s += 2;
    while (*s == ' ')
        s++;
    *v = a * 3.14159265358979323846;
    return *s == '\0' && isfinite(*v) ? 0 : -1;
}

/* attribute key of n as a number (sec_number); 1 if present, 0 if absent, -1 after xml_fail */
static int sec_attr_number(xml_reader *r, const xmlNode *n, const char *key, double *v)
{
    xmlChar *s = xmlGetProp(n, (const xmlChar *) key);
    if (s == NULL)
        return 0;
    int rc = sec_number((const char *) s, v);
    if (rc != 0)
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "<poincare %s=\"%.64s\">: not a number, \"pi\" or \"NUMBER*pi\"", key,
                 (const char *) s);
    xmlFree(s);
    return rc == 0 ? 1 : -1;
}

/* nonzero when the <driver> named name in the document drives an angle */
static int sec_driver_angular(const xmlNode *output, const char *name)
{
    const xmlNode *drivers = xml_child(output->parent, "drivers");
    for (const xmlNode *d = drivers ? drivers->children : NULL; d; d = d->next) {
        if (!xml_is_elem(d, "driver"))
            continue;
        xmlChar *nm = xmlGetProp(d, (const xmlChar *) "name");
        int hit = nm && strcmp((const char *) nm, name) == 0;
        xmlFree(nm);
        if (!hit)
            continue;
        xmlChar *type = xmlGetProp(d, (const xmlChar *) "type");
        xmlChar *coord = xmlGetProp(d, (const xmlChar *) "coordinate");
        int ang = (type && strcmp((const char *) type, "angle") == 0) ||
                  (coord && strcmp((const char *) coord, "phi") == 0);
        xmlFree(type);
        xmlFree(coord);
        return ang;
    }
    return 0;
}

/* when="BODY.COORD = VALUE" into d; 0, or -1 after xml_fail */
static int sec_when(xml_reader *r, const xmlNode *n, clink_section_def *d)
{
    static const char *const coords[] = {"x", "y", "phi", "vx", "vy", "omega"};
    xmlChar *s = xmlGetProp(n, (const xmlChar *) "when");
    char body[CLINK_NAME_MAX + 1] = "", coord[16] = "";
    const char *eq = s ? strchr((const char *) s, '=') : NULL;
    const char *dot = eq ? memchr(s, '.', (size_t) (eq - (const char *) s)) : NULL;
    int ok = dot != NULL;
    if (ok) {
        /* the body (up to the last '.' before '=': names may hold dots), the coordinate */
        for (const char *p = dot + 1; p < eq; p++)
            if (*p == '.')
                dot = p;
        size_t nb = (size_t) (dot - (const char *) s), nc = (size_t) (eq - dot - 1);
        ok = nb > 0 && nb <= CLINK_NAME_MAX && nc < sizeof coord;
        if (ok) {
            memcpy(body, s, nb);
            body[nb] = '\0';
            memcpy(coord, dot + 1, nc);
            coord[nc] = '\0';
            for (char *p = coord + strlen(coord); p > coord && p[-1] == ' '; p--)
                p[-1] = '\0';
            for (char *p = body; *p == ' ';)
                memmove(p, p + 1, strlen(p));
        }
    }
    d->coordinate = -1;
    for (int k = 0; ok && k < 6; k++)
        if (strcmp(coord, coords[k]) == 0)
            d->coordinate = k;
    ok = ok && d->coordinate >= 0 && sec_number(eq + 1, &d->value) == 0;
    if (!ok)
        xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                 "<poincare when=\"%.80s\">: not \"BODY.COORDINATE = VALUE\" with COORDINATE "
                 "x, y, phi, vx, vy or omega",
                 s ? (const char *) s : "");
    xmlFree(s);
    if (!ok)
        return -1;
    d->body = clink_model_builder_find(r->builder, CLINK_ENTITY_BODY, body);
    if (d->body < 1) {
        xml_fail(r, CLINK_ERR_NOT_FOUND, xml_line(n),
                 "<poincare when>: '%s' is not a moving body of this file", body);
        return -1;
    }
    if (d->coordinate == 2 || d->coordinate == 5)
        d->value *= r->angle_scale;
    return 0;
}

/* one <poincare> into d; 0, or -1 after xml_fail */
static int sec_read(xml_reader *r, const xmlNode *n, clink_section_def *d)
{
    static const char *const keys[] = {"name",      "period", "driver", "when",
                                       "direction", "start",  NULL};
    static const char *const dirs[] = {"rising", "falling", "both", NULL};
    if (xml_check_attrs(r, n, keys, NULL))
        return -1;
    *d = clink_default_section_def();
    d->line = (int) xml_line(n);
    char name[CLINK_NAME_MAX + 1] = "";
    if (xml_name(r, n, "name", name))
        snprintf(d->name, sizeof d->name, "%s", name);
    int has_period = sec_attr_number(r, n, "period", &d->period);
    xml_num(r, n, "start", 0.0, 1.0, &d->start);
    int dir = xml_keyword(r, n, "direction", dirs, 0);
    if (r->failed || has_period < 0)
        return -1;
    d->direction = dir == 0 ? 1 : dir == 1 ? -1 : 0;
    if (xml_has(n, "when")) {
        d->kind = CLINK_SECTION_STATE;
        if (has_period || xml_has(n, "driver")) {
            xml_fail(r, CLINK_ERR_MODEL, xml_line(n),
                     "<poincare>: when= takes no period or driver (a crossing, not a phase)");
            return -1;
        }
        return sec_when(r, n, d);
    }
    if (xml_has(n, "driver")) {
        d->kind = CLINK_SECTION_DRIVER;
        d->driver = xml_ref(r, n, "driver", CLINK_ENTITY_DRIVER, "<poincare>");
        if (d->driver < 0)
            return -1;
        char dn[CLINK_NAME_MAX + 1];
        if (xml_name(r, n, "driver", dn) && sec_driver_angular(n->parent, dn))
            d->period *= r->angle_scale;
        if (d->direction == 0)
            d->direction = 1;
    }
    if (has_period != 1 || !(d->period > 0.0)) {
        xml_fail(r, CLINK_ERR_RANGE, xml_line(n),
                 "<poincare>: period > 0 is required (s, or the driver's unit with driver=), "
                 "else when=");
        return -1;
    }
    return 0;
}

void xml_read_sections(xml_reader *r, const xmlNode *output)
{
    for (const xmlNode *k = output->children; k != NULL && !r->failed; k = k->next) {
        if (!xml_is_elem(k, "poincare"))
            continue;
        if (r->summary.nsections >= CLINK_XML_SECTIONS_MAX) {
            xml_fail(r, CLINK_ERR_RANGE, xml_line(k), "<poincare>: at most %d sections",
                     CLINK_XML_SECTIONS_MAX);
            return;
        }
        if (sec_read(r, k, &r->summary.sections[r->summary.nsections]) == 0)
            r->summary.nsections++;
    }
}
