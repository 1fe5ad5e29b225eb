/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fmu_vars.c: the table of the FMU's variables (fmu_vars.h), their values from a
 * simulation, and the GUID of a model file (FNV-1a 64 of Fowler, Noll and Vo, with two
 * offset bases for 128 bits).
 */
#include "fmi/fmu_vars.h"

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

int fmu_vars_build(const clink_model *m, fmu_var **vars, int *n)
{
    int nb = clink_model_count(m, CLINK_ENTITY_BODY), nc = clink_model_contact_count(m);
    int ni = clink_model_input_count(m);
    int cap = 6 * (nb > 1 ? nb - 1 : 0) + 10 + 3 * nc + (ni > 0 ? ni : 0);
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
