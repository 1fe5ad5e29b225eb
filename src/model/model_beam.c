/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * model_beam.c: a straight beam (clink_beam_def) expanded into its nodes and elements
 * (docs/flexible.md). The N elements of length l = L / N join N + 1 nodes, bodies at
 * from + i (to - from) / N with the beam's direction as their angle; each element gives
 * each of its nodes half of its mass rho A l and half of its rotary inertia rho I l (the
 * lumped mass of the Reissner beam: the cross-sections' own inertia, no rotary term from
 * the translational lumping), and is a CLINK_FORCE_BEAM load between them with EA,
 * k G A, EI, l and the retardation time.
 */
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { MODEL_COOKIE_BEAM = CLINK_DEF_COOKIE + 0x40 };

clink_beam_def clink_default_beam_def(void)
{
    clink_beam_def d;
    memset(&d, 0, sizeof d);
    d.to[0] = 1.0;
    d.elements = 1;
    d.shear_factor = 5.0 / 6.0;
    d.cookie = MODEL_COOKIE_BEAM;
    return d;
}

/* the rules of a beam definition: CLINK_OK or a refusal with its message */
static clink_status beam_check(clink_model_builder *b, const clink_beam_def *d)
{
    if (model_check_cookie(b, d->cookie, MODEL_COOKIE_BEAM, "beam") != CLINK_OK)
        return CLINK_ERR_ARG;
    if (!d->name || !d->name[0])
        return model_fail(b, CLINK_ERR_ARG, "beam: a name is required (its nodes are NAME.0 ..)");
    const char *nm = d->name;
    if (strlen(nm) > CLINK_NAME_MAX - 8)
        return model_fail(b, CLINK_ERR_RANGE, "beam '%.40s...': the name is longer than %d bytes",
                          nm, CLINK_NAME_MAX - 8);
    if (d->elements < 1 || d->elements > 100000)
        return model_fail(b, CLINK_ERR_RANGE, "beam '%s': elements = %d must be in 1..100000", nm,
                          d->elements);
    const char *key[] = {"area", "second_moment", "E", "G", "density", "shear_factor"};
    const char *unit[] = {"m^2", "m^4", "Pa", "Pa", "kg/m^3", ""};
    double val[] = {d->area, d->second_moment, d->E, d->G, d->density, d->shear_factor};
    for (int i = 0; i < 6; i++)
        if (!(val[i] > 0.0) || !isfinite(val[i]))
            return model_fail(b, CLINK_ERR_RANGE, "beam '%s': %s = %g %s must be > 0", nm, key[i],
                              val[i], unit[i]);
    if (!isfinite(d->vx) || !isfinite(d->vy) || !isfinite(d->omega) || !isfinite(d->from[0]) ||
        !isfinite(d->from[1]) || !isfinite(d->to[0]) || !isfinite(d->to[1]))
        return model_fail(b, CLINK_ERR_RANGE, "beam '%s': a position or velocity is not finite",
                          nm);
    if (!(d->damping >= 0.0) || !isfinite(d->damping))
        return model_fail(b, CLINK_ERR_RANGE, "beam '%s': damping = %g s must be >= 0", nm,
                          d->damping);
    double L = hypot(d->to[0] - d->from[0], d->to[1] - d->from[1]);
    if (!(L > 0.0) || !isfinite(L))
        return model_fail(b, CLINK_ERR_RANGE, "beam '%s': from and to must be distinct points", nm);
    /* the names it will take must be free, so that a refusal leaves the builder unchanged */
    char name[CLINK_NAME_MAX];
    for (int i = 0; i <= d->elements; i++) {
        snprintf(name, sizeof name, "%s.%d", nm, i);
        if (clink_model_builder_find(b, CLINK_ENTITY_BODY, name) >= 0)
            return model_fail(b, CLINK_ERR_MODEL, "beam '%s': its node name '%s' is taken", nm,
                              name);
        snprintf(name, sizeof name, "%s.e%d", nm, i);
        if (i < d->elements && clink_model_builder_find(b, CLINK_ENTITY_FORCE, name) >= 0)
            return model_fail(b, CLINK_ERR_MODEL, "beam '%s': its element name '%s' is taken", nm,
                              name);
    }
    return CLINK_OK;
}

clink_status clink_model_builder_add_beam(clink_model_builder *b, const clink_beam_def *d,
                                          int *first_node)
{
    if (!b || !d)
        return b ? model_fail(b, CLINK_ERR_ARG, "add_beam: NULL definition") : CLINK_ERR_ARG;
    clink_status st = beam_check(b, d);
    if (st != CLINK_OK)
        return st;
    int n = d->elements, first = -1;
    double dx = d->to[0] - d->from[0], dy = d->to[1] - d->from[1];
    double l = hypot(dx, dy) / n, phi = atan2(dy, dx);
    double m = d->density * d->area * l, J = d->density * d->second_moment * l;
    char name[CLINK_NAME_MAX];
    /* the nodes */
    for (int i = 0; i <= n; i++) {
        clink_body_def bd = clink_default_body_def();
        double share = (i == 0 || i == n) ? 0.5 : 1.0;
        snprintf(name, sizeof name, "%s.%d", d->name, i);
        bd.name = name;
        bd.mass = share * m;
        bd.inertia = share * J;
        bd.x = d->from[0] + dx * i / n;
        bd.y = d->from[1] + dy * i / n;
        bd.phi = phi;
        bd.vx = d->vx - d->omega * (bd.y - d->from[1]);
        bd.vy = d->vy + d->omega * (bd.x - d->from[0]);
        bd.omega = d->omega;
        int id;
        if ((st = clink_model_builder_add_body(b, &bd, &id)) != CLINK_OK)
            return st;
        if (i == 0)
            first = id;
    }
    /* the elements */
    for (int i = 0; i < n; i++) {
        clink_force_def f = clink_default_force_def();
        snprintf(name, sizeof name, "%s.e%d", d->name, i);
        f.name = name;
        f.type = CLINK_FORCE_BEAM;
        f.body_a = first + i;
        f.body_b = first + i + 1;
        f.ea = d->E * d->area;
        f.ga = d->shear_factor * d->G * d->area;
        f.ei = d->E * d->second_moment;
        f.free_length = l;
        f.c = d->damping;
        if ((st = clink_model_builder_add_force(b, &f, NULL)) != CLINK_OK)
            return st;
    }
    if (first_node)
        *first_node = first;
    return CLINK_OK;
}

clink_status model_beam_check(clink_model_builder *b, const clink_force_def *f, const char *nm)
{
    if (f->body_a == 0 || f->body_b == 0)
        return model_fail(b, CLINK_ERR_RANGE,
                          "beam element '%s': both nodes must be bodies (not the ground)", nm);
    double v[] = {f->ea, f->ga, f->ei, f->free_length};
    const char *key[] = {"ea", "ga", "ei", "free_length (its length)"};
    for (int i = 0; i < 4; i++)
        if (!(v[i] > 0.0) || !isfinite(v[i]))
            return model_fail(b, CLINK_ERR_RANGE, "beam element '%s': %s = %g must be > 0", nm,
                              key[i], v[i]);
    return CLINK_OK;
}
