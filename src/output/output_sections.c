/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_sections.c: the Poincare table of a run (docs/nonlinear.md). The recorder adds its
 * sections to the simulation (clink_sim_add_section, src/sim/sim_section.c: each crossing
 * located on the integrator's dense output, never steering it) at the first advance, keeps
 * every sample as one row (section, count, t, then x, y, phi, vx, vy, omega of each moving
 * body) and hands the table to the format's writer at finish: poincare.csv, or the dataset
 * "poincare" of results.h5. Nothing is computed here.
 */
#include "output/output_recorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the table's columns into r->scols (r->nscols of them) */
int output_sections_setup(clink_recorder *r)
{
    static const char *const q[6] = {"x", "y", "phi", "vx", "vy", "omega"};
    static const char *const u[6] = {"m", "m", "rad", "m/s", "m/s", "rad/s"};
    r->nsec = r->opt.nsections;
    if (r->nsec == 0)
        return 0;
    memcpy(r->sec, r->opt.sections, (size_t) r->nsec * sizeof r->sec[0]);
    r->opt.sections = r->sec; /* the caller's array need not outlive the recorder */
    r->nscols = 3 + 6 * (r->nbodies - 1);
    r->scols = calloc((size_t) r->nscols, sizeof *r->scols);
    if (r->scols == NULL)
        return -1;
    snprintf(r->scols[0].name, sizeof r->scols[0].name, "section");
    r->scols[0].unit = "-";
    snprintf(r->scols[1].name, sizeof r->scols[1].name, "count");
    r->scols[1].unit = "-";
    snprintf(r->scols[2].name, sizeof r->scols[2].name, "t");
    r->scols[2].unit = "s";
    for (int b = 1; b < r->nbodies; b++)
        for (int k = 0; k < 6; k++) {
            out_column *c = &r->scols[3 + 6 * (b - 1) + k];
            const char *n = clink_model_name(r->model, CLINK_ENTITY_BODY, b);
            if (n != NULL && n[0] != '\0')
                snprintf(c->name, sizeof c->name, "%s.%s", n, q[k]);
            else
                snprintf(c->name, sizeof c->name, "body%d.%s", b, q[k]);
            c->unit = u[k];
        }
    return 0;
}

/* clink_section_fn: one row of the table */
static clink_status sections_keep(void *data, int section, long count, double t, const double *y,
                                  int nq)
{
    clink_recorder *r = data;
    if (r->nsrows == r->capsrows) {
        long cap = r->capsrows ? 2 * r->capsrows : 256;
        double *p = realloc(r->srows, (size_t) cap * (size_t) r->nscols * sizeof *p);
        if (p == NULL) {
            r->sec_err = 1;
            return CLINK_ERR_NOMEM;
        }
        r->srows = p;
        r->capsrows = cap;
    }
    double *row = r->srows + (size_t) r->nsrows * (size_t) r->nscols;
    row[0] = section;
    row[1] = (double) count;
    row[2] = t;
    for (int b = 0; b < r->nbodies - 1 && 3 * b + 2 < nq; b++)
        for (int k = 0; k < 3; k++) {
            row[3 + 6 * b + k] = y[3 * b + k];
            row[6 + 6 * b + k] = y[nq + 3 * b + k];
        }
    r->nsrows++;
    return CLINK_OK;
}

clink_status output_sections_attach(clink_recorder *r, clink_sim *sim)
{
    r->sec_added = 1;
    for (int i = 0; i < r->nsec; i++) {
        clink_status st = clink_sim_add_section(sim, &r->sec[i], sections_keep, r, NULL);
        if (st != CLINK_OK) {
            snprintf(r->msg, sizeof r->msg, "%s", clink_sim_error(sim));
            return st;
        }
    }
    return CLINK_OK;
}

clink_status clink_recorder_watch(clink_recorder *r, clink_sim *sim)
{
    if (r == NULL || sim == NULL)
        return CLINK_ERR_ARG;
    return r->nsec > 0 && !r->sec_added ? output_sections_attach(r, sim) : CLINK_OK;
}

/* a section's name: its own, or "section" + index */
static void section_name(const clink_recorder *r, int i, char *buf, size_t size)
{
    if (r->sec[i].name[0] != '\0')
        snprintf(buf, size, "%s", r->sec[i].name);
    else
        snprintf(buf, size, "section%d", i);
}

clink_status output_sections_write(clink_recorder *r)
{
    if (r->nsec == 0)
        return CLINK_OK;
    if (r->sec_err) {
        snprintf(r->msg, sizeof r->msg, "the Poincare table: out of memory");
        return CLINK_ERR_NOMEM;
    }
    if (r->ops->sections == NULL)
        return CLINK_OK;
    char names[CLINK_SECTIONS_MAX][CLINK_NAME_MAX + 16];
    const char *pn[CLINK_SECTIONS_MAX];
    for (int i = 0; i < r->nsec; i++) {
        section_name(r, i, names[i], sizeof names[i]);
        pn[i] = names[i];
    }
    out_section_table t = {r->scols, r->nscols, r->srows, r->nsrows, pn, r->nsec};
    if (r->ops->sections(r->w, &t, r->msg, sizeof r->msg) != 0)
        return CLINK_ERR_IO;
    return CLINK_OK;
}

int output_sections_absent(const clink_recorder *r, int i)
{
    const char *f = r->ops->sections_file;
    return r->nsec == 0 && f != NULL && i < r->nfiles - 1 && strcmp(r->ops->files[i], f) == 0;
}

void output_sections_free(clink_recorder *r)
{
    free(r->scols);
    free(r->srows);
    r->scols = NULL;
    r->srows = NULL;
}
