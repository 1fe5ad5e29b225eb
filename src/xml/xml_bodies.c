/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * <materials> and <bodies>. A body is a clink_body_def (angles and angular
 * velocities converted with angle_unit) checked by the builder; the reader
 * keeps its initial angle (the default angle of joints that hold one) and its
 * material. A material (E, nu, yield) is the file's shorthand for the law
 * parameters E1, nu1 / E2, nu2 and Y of the contacts that use it; E and nu are
 * checked by the contact module's rule for the Hertz stiffness (the one the
 * builder applies), density and yield must be > 0.
 */
#include "xml/xml_internal.h"

#include "clink/contact.h"
#include "contact/material.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* room for one more element of size sz in *arr; 0 on success */
static int grow(xml_reader *r, void **arr, int *cap, int n, size_t sz)
{
    int ncap;
    void *p;

    if (n < *cap)
        return 0;
    ncap = *cap ? 2 * *cap : 16;
    p = realloc(*arr, (size_t) ncap * sz);
    if (p == NULL) {
        xml_fail(r, CLINK_ERR_NOMEM, 0, "out of memory");
        return -1;
    }
    *arr = p;
    *cap = ncap;
    return 0;
}

void xml_read_materials(xml_reader *r, const xmlNode *sec)
{
    static const char *const keys[] = {"name", "E", "nu", "density", "yield", NULL};
    const xmlNode *k;
    char w[96];

    for (k = sec->children; k != NULL && !r->failed; k = k->next) {
        xml_material *m;
        double density;
        if (!xml_is_elem(k, "material") || xml_check_attrs(r, k, keys, NULL))
            continue;
        if (grow(r, (void **) &r->materials, &r->cap_materials, r->n_materials, sizeof *m))
            return;
        m = &r->materials[r->n_materials];
        memset(m, 0, sizeof *m);
        xml_describe(w, sizeof w, "material", k);
        char name[CLINK_NAME_MAX + 1];
        if (xml_name(r, k, "name", name)) {
            if (strlen(name) >= CLINK_NAME_MAX)
                xml_fail(r, CLINK_ERR_RANGE, xml_line(k), "%s: the name is longer than %d bytes", w,
                         CLINK_NAME_MAX - 1);
            snprintf(m->name, sizeof m->name, "%.63s", name);
        }
        for (int i = 0; i < r->n_materials && !r->failed; i++)
            if (strcmp(r->materials[i].name, m->name) == 0)
                xml_fail(r, CLINK_ERR_MODEL, xml_line(k), "material name '%s' is used twice",
                         m->name);
        xml_num(r, k, "E", NAN, 1, &m->E);
        xml_num(r, k, "nu", NAN, 1, &m->nu);
        xml_num(r, k, "density", NAN, 1, &density);
        m->density = density;
        xml_num(r, k, "yield", NAN, 1, &m->yield);
        if (r->failed)
            return;
        if (!contact_modulus_ok(m->E) || !contact_poisson_ok(m->nu))
            xml_fail(r, CLINK_ERR_RANGE, xml_line(k),
                     "%s: E = %g Pa, nu = %g are out of range (E > 0, -1 < nu < 0.5)", w, m->E,
                     m->nu);
        else if (!isnan(density) && !(density > 0))
            xml_fail(r, CLINK_ERR_RANGE, xml_line(k), "%s: density = %g kg/m^3 must be > 0", w,
                     density);
        else if (!isnan(m->yield) && !contact_yield_ok(m->yield))
            xml_fail(r, CLINK_ERR_RANGE, xml_line(k), "%s: yield = %g Pa must be > 0", w, m->yield);
        r->n_materials++;
    }
}

void xml_read_bodies(xml_reader *r, const xmlNode *sec)
{
    static const char *const keys[] = {"name", "mass", "inertia", "x",        "y", "phi",
                                       "vx",   "vy",   "omega",   "material", NULL};
    const xmlNode *k;
    char w[96], name[CLINK_NAME_MAX + 1];

    /* the ground is body 0, named "ground" */
    if (grow(r, (void **) &r->bodies, &r->cap_bodies, 0, sizeof *r->bodies))
        return;
    r->bodies[0].x = r->bodies[0].y = 0.0;
    r->bodies[0].phi = 0.0;
    r->bodies[0].material = -1;
    r->n_bodies = 1;
    k = xml_child(sec, "ground");
    if (k != NULL)
        r->bodies[0].material = xml_ref_material(r, k, "material", "<ground>");
    for (k = sec->children; k != NULL && !r->failed; k = k->next) {
        clink_body_def def = clink_default_body_def();
        int material;
        if (xml_is_elem(k, "beam")) {
            xml_read_beam(r, k);
            continue;
        }
        if (!xml_is_elem(k, "body") || xml_check_attrs(r, k, keys, NULL))
            continue;
        xml_describe(w, sizeof w, "body", k);
        def.name = xml_name(r, k, "name", name) ? name : NULL;
        xml_num(r, k, "mass", NAN, 1, &def.mass);
        xml_num(r, k, "inertia", NAN, 1, &def.inertia);
        xml_num(r, k, "x", 0, 1, &def.x);
        xml_num(r, k, "y", 0, 1, &def.y);
        xml_num(r, k, "phi", 0, r->angle_scale, &def.phi);
        xml_num(r, k, "vx", 0, 1, &def.vx);
        xml_num(r, k, "vy", 0, 1, &def.vy);
        xml_num(r, k, "omega", 0, r->angle_scale, &def.omega);
        material = xml_ref_material(r, k, "material", w);
        if (r->failed ||
            grow(r, (void **) &r->bodies, &r->cap_bodies, r->n_bodies, sizeof *r->bodies) ||
            xml_built(r, clink_model_builder_add_body(r->builder, &def, NULL), k))
            return;
        r->bodies[r->n_bodies].x = def.x;
        r->bodies[r->n_bodies].y = def.y;
        r->bodies[r->n_bodies].phi = def.phi;
        r->bodies[r->n_bodies].material = material;
        r->n_bodies++;
    }
}
