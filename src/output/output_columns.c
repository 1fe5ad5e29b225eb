/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_columns.c: the columns of a run's time series, in the order of every format: t;
 * per body x, y, phi, vx, vy, omega (and ax, ay, alpha); per joint Fx, Fy, M and per
 * driver F (with reactions), then per joint with friction its friction (and z for a
 * dynamic law; with reactions); per contact delta, delta_dot, Fn, Ft, phase (and ex, ey
 * for a clearance joint, z for a dynamic friction law); the energies; the constraint violation; the
 * row kind. Each column is named "OWNER.QUANTITY" with its unit, and belongs to one quantity, the
 * dataset of results.h5 it goes to (output_datasets[]). Nothing is computed here.
 */
#include "output/output_recorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const out_dataset output_datasets[OUT_DS_COUNT] = {
    {"time", "simulated time of each row"},
    {"q", "body coordinates: x, y of the reference point in the world frame, phi the angle"},
    {"v", "body velocities: vx, vy of the reference point, omega"},
    {"a", "body accelerations: ax, ay of the reference point, alpha"},
    {"reactions", "joint reactions on body2 of each joint: Fx, Fy (world frame), M"},
    {"driver_forces", "generalised force each driver applies (N, or N m for an angle)"},
    {"joint_friction", "joints with friction: the friction torque on body2 (N m, revolute) or "
                       "force along the axis (N, translational), and the bristle state z (m) of "
                       "a lugre or dahl law"},
    {"contacts/delta", "penetration of each contact (> 0 in contact, negative: the gap)"},
    {"contacts/delta_dot", "penetration rate of each contact (> 0 approaching)"},
    {"contacts/Fn", "normal force of each contact, on body B along the normal"},
    {"contacts/Ft", "friction force of each contact, on body B along the tangent"},
    {"contacts/phase",
     "phase of each contact: 0 open, 1 compression, 2 restitution, 3 released, 4 permanent"},
    {"contacts/eccentricity", "clearance joints: journal centre - bearing centre, world frame"},
    {"contacts/z", "bristle state z of each contact with a lugre or dahl friction law, m"},
    {"energies", "energies and the energy balance's residual"},
    {"constraint_violation", "largest |Phi| (position) and |Phi_q v - nu| (velocity)"},
    {"row_kind", "what put the row there: 0 grid, 1 integrator step, 2 interpolated in an "
                 "impact, 3 impact onset, 4 end of compression, 5 separation, 6 other event"},
    {"elements", "contact elements' own outputs (a slider's lateral offset and tilt)"},
    {"beams", "beam elements at their middle: curvature kappa (1/m), axial strain eps, shear "
              "strain gamma, bending moment M (N m), axial force N and shear force Q (N)"},
};

/* a, b and c one after the other at buf, cut to size - 1 bytes and ended as snprintf(buf, size,
   "%s%s%s", a, b, c) would (a run's thousands of header names without its format parser) */
static void join3(char *buf, size_t size, const char *a, const char *b, const char *c)
{
    const char *part[3] = {a, b, c};
    size_t used = 0;
    if (size == 0)
        return;
    for (int i = 0; i < 3 && used + 1 < size; i++) {
        size_t n = strlen(part[i]);
        if (n > size - 1 - used)
            n = size - 1 - used;
        memcpy(buf + used, part[i], n);
        used += n;
    }
    buf[used] = '\0';
}

/* an entity's name for column headers: its own, or KIND + index when unnamed */
static void entity_name(const clink_model *m, clink_entity kind, int id, char *buf, size_t size)
{
    static const char *const word[CLINK_ENTITY_COUNT_] = {
        "body", "joint",    "driver", "force", "pair", "clearance", "translational_clearance",
        "stop", "gear_pair"};
    const char *n = clink_model_name(m, kind, id);

    if (n != NULL && n[0] != '\0')
        join3(buf, size, n, "", "");
    else
        snprintf(buf, size, "%s%d", word[kind], id);
}

void output_contact_name(const clink_recorder *r, int k, char *buf, size_t size)
{
    const char *n = clink_model_contact_name(r->model, k);
    join3(buf, size, n != NULL ? n : "(null)", "", ""); /* (what glibc's "%s" printed) */
}

int output_contact_ecc(const clink_recorder *r, int k)
{
    return clink_model_contact_has_eccentricity(r->model, k);
}

int output_contact_extras(const clink_recorder *r, int k)
{
    int e = clink_model_contact_element(r->model, k);
    if (k + 1 < r->ncontacts && clink_model_contact_element(r->model, k + 1) == e)
        return 0;
    return clink_model_element_output_count(r->model, e);
}

int output_row_layout(clink_recorder *r)
{
    r->clayout = malloc((3 * (size_t) r->ncontacts + 1) * sizeof *r->clayout);
    r->jlayout = malloc((2 * (size_t) r->njoints + 1) * sizeof *r->jlayout);
    if (r->clayout == NULL || r->jlayout == NULL)
        return -1;
    for (int j = 0; j < r->njoints; j++)
        r->jlayout[2 * j] = output_joint_friction(r, j, &r->jlayout[2 * j + 1]);
    for (int k = 0; k < r->ncontacts; k++) {
        r->clayout[3 * k] = output_contact_ecc(r, k) != 0;
        r->clayout[3 * k + 1] = clink_model_contact_friction_state(r->model, k) != 0;
        r->clayout[3 * k + 2] = output_contact_extras(r, k);
    }
    return 0;
}

/* appends the column "OWNER.QUANTITY" (or QUANTITY when owner is NULL) to r->cols, which has
   room for it (when r->cols is NULL the columns are only counted) */
static void add_col(clink_recorder *r, const char *owner, const char *quantity, const char *unit,
                    int ds)
{
    if (r->cols != NULL) {
        out_column *c = &r->cols[r->ncols];
        if (owner != NULL)
            join3(c->name, sizeof c->name, owner, ".", quantity);
        else
            join3(c->name, sizeof c->name, quantity, "", "");
        c->unit = unit;
        c->ds = ds;
    }
    r->ncols++;
}

int output_joint_friction(const clink_recorder *r, int j, int *dynamic)
{
    clink_joint_def d;
    *dynamic = 0;
    if (clink_model_joint(r->model, j, &d) != CLINK_OK || d.friction.kind == CLINK_FRICTION_NONE)
        return 0;
    *dynamic = clink_friction_state_count(&d.friction) > 0;
    return d.type == CLINK_JOINT_REVOLUTE ? 1 : 2;
}

/* each joint with friction: its friction (N m for a revolute joint, N for a translational
   one) and, for a dynamic law, its bristle state z */
static void output_joint_friction_columns(clink_recorder *r)
{
    char name[CLINK_NAME_MAX + 16];
    for (int j = 0; j < r->njoints; j++) {
        int dynamic, kind = output_joint_friction(r, j, &dynamic);
        if (!kind)
            continue;
        entity_name(r->model, CLINK_ENTITY_JOINT, j, name, sizeof name);
        add_col(r, name, "friction", kind == 1 ? "N m" : "N", OUT_DS_JOINT_FRICTION);
        if (dynamic)
            add_col(r, name, "z", "m", OUT_DS_JOINT_FRICTION);
    }
}

void output_list_columns(clink_recorder *r)
{
    static const char *const energy_cols[] = {
        "kinetic",  "gravity",        "spring",          "work_drivers",    "work_loads",
        "residual", "contact_stored", "contact_damping", "contact_friction"};
    char name[CLINK_NAME_MAX + 16];
    int i, k;

    r->ncols = 0;
    add_col(r, NULL, "t", "s", OUT_DS_TIME);
    for (i = 1; i < r->nbodies; i++) {
        entity_name(r->model, CLINK_ENTITY_BODY, i, name, sizeof name);
        add_col(r, name, "x", "m", OUT_DS_Q);
        add_col(r, name, "y", "m", OUT_DS_Q);
        add_col(r, name, "phi", "rad", OUT_DS_Q);
        add_col(r, name, "vx", "m/s", OUT_DS_V);
        add_col(r, name, "vy", "m/s", OUT_DS_V);
        add_col(r, name, "omega", "rad/s", OUT_DS_V);
        if (r->opt.accelerations) {
            add_col(r, name, "ax", "m/s^2", OUT_DS_A);
            add_col(r, name, "ay", "m/s^2", OUT_DS_A);
            add_col(r, name, "alpha", "rad/s^2", OUT_DS_A);
        }
    }
    if (r->opt.reactions) {
        for (i = 0; i < r->njoints; i++) {
            entity_name(r->model, CLINK_ENTITY_JOINT, i, name, sizeof name);
            add_col(r, name, "Fx", "N", OUT_DS_REACTIONS);
            add_col(r, name, "Fy", "N", OUT_DS_REACTIONS);
            add_col(r, name, "M", "N m", OUT_DS_REACTIONS);
        }
        for (i = 0; i < r->ndrivers; i++) {
            const char *unit = clink_model_driver_unit(r->model, i);
            entity_name(r->model, CLINK_ENTITY_DRIVER, i, name, sizeof name);
            add_col(r, name, "F", unit != NULL ? unit : "N", OUT_DS_DRIVERS);
        }
        output_joint_friction_columns(r);
    }
    for (i = 0; i < r->ncontacts; i++) {
        output_contact_name(r, i, name, sizeof name);
        add_col(r, name, "delta", "m", OUT_DS_DELTA);
        add_col(r, name, "delta_dot", "m/s", OUT_DS_DELTA_DOT);
        if (r->fn_col != NULL)
            r->fn_col[i] = r->ncols;
        add_col(r, name, "Fn", "N", OUT_DS_FN);
        add_col(r, name, "Ft", "N", OUT_DS_FT);
        add_col(r, name, "phase", "-", OUT_DS_PHASE);
        if (output_contact_ecc(r, i)) {
            add_col(r, name, "ex", "m", OUT_DS_ECC);
            add_col(r, name, "ey", "m", OUT_DS_ECC);
        }
        if (clink_model_contact_friction_state(r->model, i))
            add_col(r, name, "z", "m", OUT_DS_FZ);
        for (k = 0; k < output_contact_extras(r, i); k++) {
            int e = clink_model_contact_element(r->model, i);
            const char *unit, *q = clink_model_element_output_name(r->model, e, k, &unit);
            add_col(r, clink_model_element_name(r->model, e), q, unit, OUT_DS_ELEMENTS);
        }
    }
    output_beam_columns(r);
    if (r->opt.energies)
        for (k = 0; k < (r->ncontacts > 0 ? 9 : 6); k++)
            add_col(r, "energy", energy_cols[k], "J", OUT_DS_ENERGIES);
    add_col(r, "constraint", "position", "m", OUT_DS_VIOLATION);
    add_col(r, "constraint", "velocity", "m/s", OUT_DS_VIOLATION);
    add_col(r, "row", "kind", "-", OUT_DS_KIND);
}
