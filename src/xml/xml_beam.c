/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <beam> of <bodies>: a straight flexible beam (docs/flexible.md) into a clink_beam_def for
 * the builder, which adds its nodes (bodies NAME.0 .. NAME.N) and elements. E, G and the
 * density come from its material (E, nu: G = E / (2 (1 + nu)); density), each overridden by
 * the attribute of that name (G directly, or nu with E); the builder checks the values
 * (FILE:LINE and its message). The reader records each node as a body of the file.
 */
#include "xml/xml_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* records the nodes first .. first + count - 1 as bodies of the file; 0 on success */
static int beam_record_nodes(xml_reader *r, const clink_beam_def *d)
{
    int count = d->elements + 1;
    if (r->n_bodies + count > r->cap_bodies) {
        int ncap = r->cap_bodies ? 2 * r->cap_bodies : 16;
        while (ncap < r->n_bodies + count)
            ncap *= 2;
        void *p = realloc(r->bodies, (size_t) ncap * sizeof *r->bodies);
        if (!p) {
            xml_fail(r, CLINK_ERR_NOMEM, 0, "out of memory");
            return -1;
        }
        r->bodies = p;
        r->cap_bodies = ncap;
    }
    double dx = d->to[0] - d->from[0], dy = d->to[1] - d->from[1];
    for (int i = 0; i < count; i++) {
        xml_body_extra *e = &r->bodies[r->n_bodies++];
        e->x = d->from[0] + dx * i / d->elements;
        e->y = d->from[1] + dy * i / d->elements;
        e->phi = atan2(dy, dx);
        e->material = -1;
    }
    return 0;
}

/* E, G and density from the material and the attributes; 0, or -1 after an error */
static int beam_material(xml_reader *r, const xmlNode *k, const char *w, clink_beam_def *d)
{
    double E = NAN, nu = NAN, rho = NAN, G = NAN;
    int m = xml_ref_material(r, k, "material", w);
    if (r->failed)
        return -1;
    if (m >= 0) {
        E = r->materials[m].E;
        nu = r->materials[m].nu;
        rho = r->materials[m].density;
    }
    xml_num(r, k, "E", E, 1, &E);
    xml_num(r, k, "nu", nu, 1, &nu);
    xml_num(r, k, "density", rho, 1, &rho);
    if (!xml_num(r, k, "G", NAN, 1, &G) && !isnan(E) && !isnan(nu))
        G = E / (2.0 * (1.0 + nu));
    if (r->failed)
        return -1;
    const char *miss = isnan(E) ? "E" : isnan(G) ? "G (or nu)" : isnan(rho) ? "density" : NULL;
    if (miss) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(k),
                 "%s: %s is not given (by its material or an attribute of that name)", w, miss);
        return -1;
    }
    d->E = E;
    d->G = G;
    d->density = rho;
    return 0;
}

void xml_read_beam(xml_reader *r, const xmlNode *k)
{
    static const char *const keys[] = {
        "name",     "from", "to", "elements", "area",    "second_moment",
        "material", "E",    "nu", "G",        "density", "shear_factor",
        "damping",  "vx",   "vy", "omega",    NULL};
    char w[96], name[CLINK_NAME_MAX + 1];
    if (xml_check_attrs(r, k, keys, NULL))
        return;
    xml_describe(w, sizeof w, "beam", k);
    clink_beam_def d = clink_default_beam_def();
    d.name = xml_name(r, k, "name", name) ? name : NULL;
    double elements = NAN;
    xml_vec2(r, k, "from", 0, 0, d.from);
    xml_vec2(r, k, "to", 0, 0, d.to);
    xml_num(r, k, "elements", NAN, 1, &elements);
    xml_num(r, k, "area", NAN, 1, &d.area);
    xml_num(r, k, "second_moment", NAN, 1, &d.second_moment);
    xml_num(r, k, "shear_factor", d.shear_factor, 1, &d.shear_factor);
    xml_num(r, k, "damping", 0, 1, &d.damping);
    xml_num(r, k, "vx", 0, 1, &d.vx);
    xml_num(r, k, "vy", 0, 1, &d.vy);
    xml_num(r, k, "omega", 0, r->angle_scale, &d.omega);
    if (r->failed || beam_material(r, k, w, &d))
        return;
    if (!(elements >= 1 && elements <= 100000 && elements == floor(elements))) {
        xml_fail(r, CLINK_ERR_RANGE, xml_line(k), "%s: elements = %g must be a whole number >= 1",
                 w, elements);
        return;
    }
    d.elements = (int) elements;
    xml_hint_length(r, k, "from", hypot(d.to[0] - d.from[0], d.to[1] - d.from[1]), 0);
    if (xml_built(r, clink_model_builder_add_beam(r->builder, &d, NULL), k))
        return;
    beam_record_nodes(r, &d);
}

void xml_beam_node_names(const xml_reader *r, const char *name, xml_names *s)
{
    char node[CLINK_NAME_MAX + 16];
    for (int i = 0; i <= 100000; i++) {
        snprintf(node, sizeof node, "%s.%d", name, i);
        if (clink_model_builder_find(r->builder, CLINK_ENTITY_BODY, node) < 0)
            return;
        xml_names_add(s, node);
    }
}
