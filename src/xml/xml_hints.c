/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reader's warnings: numbers that read as valid SI values but look like
 * another unit ("unit hints"). A warning never stops a load; each is kept as
 * "FILE:LINE: what" and handed to the model (clink_model_warning(), include/clink/xml.h).
 *
 * The rules (docs/xml-reference.md, "Unit hints"), each chosen, not taken from a paper:
 *   - an angle above 2 pi in magnitude in a file without angle_unit: degrees
 *     written where radians are read (body phi, joint and spring angles, cam
 *     rise/dwell/fall, gear angles and pressure angle, an arc's angles, and the
 *     value, initial, offset and amplitude of an angular driver's function);
 *   - a Young's modulus E, E1 or E2 below 1 MPa (softer than the softest rubber,
 *     about 1 MPa): a modulus in MPa or GPa written without its factor;
 *   - a length (a radius; a translational clearance's length, height, guide_length) above
 *     10 L, or a clearance above 0.1 L, where L is the diagonal of the box of the
 *     origin and the bodies' initial centres (1 m when that box is a point): a
 *     length in mm in a mechanism in m.
 */
#include "xml/xml_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { XML_MAX_WARNINGS = 64 };

void xml_warn(xml_reader *r, long line, const char *fmt, ...)
{
    char msg[600], *text;
    va_list ap;
    int n;

    if (r->n_warnings >= XML_MAX_WARNINGS)
        return;
    if (r->n_warnings == r->cap_warnings) {
        int cap = r->cap_warnings == 0 ? 8 : 2 * r->cap_warnings;
        char **w = realloc(r->warnings, (size_t) cap * sizeof *w);
        if (w == NULL)
            return; /* a warning lost to memory is not an error of the file */
        r->warnings = w;
        r->cap_warnings = cap;
    }
    n = line > 0 ? snprintf(msg, sizeof msg, "%s:%ld: ", r->name, line)
                 : snprintf(msg, sizeof msg, "%s: ", r->name);
    if (n < 0 || (size_t) n >= sizeof msg)
        return;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t) n, fmt, ap);
    va_end(ap);
    text = malloc(strlen(msg) + 1);
    if (text == NULL)
        return;
    strcpy(text, msg);
    r->warnings[r->n_warnings++] = text;
}

static int in_list(const char *key, const char *const *list)
{
    for (int i = 0; list[i] != NULL; i++)
        if (strcmp(key, list[i]) == 0)
            return 1;
    return 0;
}

void xml_hint_length(xml_reader *r, const xmlNode *n, const char *key, double v, int clearance)
{
    xml_length_hint *h;

    if (r->n_lengths == r->cap_lengths) {
        int cap = r->cap_lengths == 0 ? 16 : 2 * r->cap_lengths;
        xml_length_hint *l = realloc(r->lengths, (size_t) cap * sizeof *l);
        if (l == NULL)
            return;
        r->lengths = l;
        r->cap_lengths = cap;
    }
    h = &r->lengths[r->n_lengths++];
    h->value = v;
    h->line = xml_line(n);
    h->clearance = clearance;
    snprintf(h->key, sizeof h->key, "%s", key);
    xml_describe(h->what, sizeof h->what, (const char *) n->name, n);
}

void xml_hint_numbers(xml_reader *r, const xmlNode *n, const char *key, const double *v, int count)
{
    static const char *const angles[] = {"phi",  "angle", "angle1", "angle2",         "angles",
                                         "rise", "dwell", "fall",   "pressure_angle", NULL};
    static const char *const functions[] = {"value", "initial", "offset", "amplitude", NULL};
    static const char *const moduli[] = {"E", "E1", "E2", NULL};
    static const char *const lengths[] = {
        "radius",         "base_radius",    "base_radius1", "base_radius2", "roller_radius",
        "journal_radius", "bearing_radius", "R1",           "R2",           NULL};
    /* a slider's dimensions (a spring's free length may span a ground far from the bodies) */
    static const char *const slider[] = {"length", "height", "guide_length", NULL};
    const double two_pi = 6.283185307179586;
    char w[96];

    if (r->failed || count < 1)
        return;
    if (!r->angle_unit_given && (in_list(key, angles) || (r->angular && in_list(key, functions))))
        for (int i = 0; i < count; i++)
            if (fabs(v[i]) > two_pi) {
                xml_describe(w, sizeof w, (const char *) n->name, n);
                xml_warn(r, xml_line(n),
                         "%s: %s = %g is above 2 pi in magnitude: an angle in degrees? Angles are "
                         "read in radians (angle_unit=\"deg\" on <mechanism> reads degrees)",
                         w, key, v[i]);
                return;
            }
    if (in_list(key, moduli) && v[0] > 0 && v[0] < 1e6) {
        xml_describe(w, sizeof w, (const char *) n->name, n);
        xml_warn(r, xml_line(n),
                 "%s: %s = %g Pa is below 1 MPa, softer than rubber: a modulus in MPa or GPa? "
                 "Moduli are read in Pa (207 GPa is 207e9)",
                 w, key, v[0]);
    }
    if (in_list(key, lengths) ||
        (in_list(key, slider) && xml_is_elem(n, "translational_clearance")))
        xml_hint_length(r, n, key, fabs(v[0]), 0);
    else if (strcmp(key, "clearance") == 0)
        xml_hint_length(r, n, key, fabs(v[0]), 1);
}

/* L: the diagonal of the box of the origin and the bodies' initial centres, at least 0.1 m (a
   journal in a bearing at the origin spans less than its clearance: a box of under 0.1 m
   says nothing of its lengths) */
static double mechanism_size(const xml_reader *r)
{
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0, L;

    for (int i = 1; i < r->n_bodies; i++) {
        x0 = fmin(x0, r->bodies[i].x), x1 = fmax(x1, r->bodies[i].x);
        y0 = fmin(y0, r->bodies[i].y), y1 = fmax(y1, r->bodies[i].y);
    }
    L = hypot(x1 - x0, y1 - y0);
    return isfinite(L) ? fmax(L, 0.1) : 1.0;
}

void xml_hints_finish(xml_reader *r)
{
    double L;

    if (r->failed || r->n_lengths == 0)
        return;
    L = mechanism_size(r);
    for (int i = 0; i < r->n_lengths; i++) {
        const xml_length_hint *h = &r->lengths[i];
        if (h->clearance && h->value > 0.1 * L)
            xml_warn(r, h->line,
                     "%s: clearance = %g m is above 0.1 of the mechanism's size L = %g m (the "
                     "diagonal of the box of the origin and the bodies' initial centres): a "
                     "clearance in mm? Lengths are read in m",
                     h->what, h->value, L);
        else if (!h->clearance && h->value > 10 * L)
            xml_warn(r, h->line,
                     "%s: %s = %g m is above 10 times the mechanism's size L = %g m (the diagonal "
                     "of the box of the origin and the bodies' initial centres): a length in mm? "
                     "Lengths are read in m",
                     h->what, h->key, h->value, L);
    }
}

void xml_hints_free(xml_reader *r)
{
    for (int i = 0; i < r->n_warnings; i++)
        free(r->warnings[i]);
    free(r->warnings);
    free(r->lengths);
    r->warnings = NULL;
    r->lengths = NULL;
    r->n_warnings = r->cap_warnings = r->n_lengths = r->cap_lengths = 0;
}
