/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * model_elements.c: the contact elements of a model as one list (include/clink/model.h,
 * "Contact elements and their contacts"): the flat list of contacts finalize expands the
 * elements into (each knowing its element and its name), the getters that let the
 * simulation, the outputs and the hosts iterate it, the elements' extra outputs, and the
 * bookkeeping of the element arrays (names, copies, release) for model.c.
 */
#include "model/model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *model_element_entity_name(const model_data *d, clink_entity kind, int i)
{
    const element_class *ec = element_class_of_entity(kind);
    if (!ec || i < 0 || i >= d->nof_kind[ec->kind])
        return NULL;
    return d->elems[d->of_kind[ec->kind][i]].name;
}

int model_element_entity_count(const model_data *d, clink_entity kind)
{
    const element_class *ec = element_class_of_entity(kind);
    return ec ? d->nof_kind[ec->kind] : 0;
}

static void *dup_ints(const void *src, int n, size_t sz)
{
    void *p = malloc((size_t) (n > 0 ? n : 1) * sz);
    if (p && n > 0)
        memcpy(p, src, (size_t) n * sz);
    return p;
}

int model_elements_copy(model_data *to, const model_data *from)
{
    int ok = 1;
    to->elems = dup_ints(from->elems, from->nelems, sizeof(model_element));
    to->cap_elems = from->nelems;
    ok = to->elems != NULL;
    for (int k = 0; k < CLINK_ELEMENT_KIND_COUNT_; k++) {
        to->of_kind[k] = dup_ints(from->of_kind[k], from->nof_kind[k], sizeof(int));
        to->cap_of_kind[k] = from->nof_kind[k];
        ok = ok && to->of_kind[k] != NULL;
    }
    to->contacts = NULL;
    to->ncontacts = 0;
    return ok ? 0 : -1;
}

void model_elements_free(model_data *d)
{
    free(d->elems);
    for (int k = 0; k < CLINK_ELEMENT_KIND_COUNT_; k++)
        free(d->of_kind[k]);
    free(d->contacts);
}

/* kind by kind, each kind's elements in the order added, each element's contacts */
int model_contacts_build(clink_model *m)
{
    model_data *d = &m->d;
    int n = 0;
    for (int e = 0; e < d->nelems; e++)
        n += element_class_of(d->elems[e].kind)->ncontacts(&d->elems[e].def);
    d->contacts = calloc((size_t) (n > 0 ? n : 1), sizeof(model_contact));
    if (!d->contacts)
        return -1;
    d->ncontacts = n;
    n = 0;
    for (int k = 0; k < CLINK_ELEMENT_KIND_COUNT_; k++)
        for (int j = 0; j < d->nof_kind[k]; j++) {
            int e = d->of_kind[k][j];
            const element_class *ec = element_class_of((clink_element_kind) k);
            int nc = ec->ncontacts(&d->elems[e].def);
            element_contact *geo = calloc((size_t) (nc > 0 ? nc : 1), sizeof *geo);
            if (!geo)
                return -1;
            ec->expand(&d->elems[e].def, geo);
            const char *label = d->elems[e].label;
            for (int i = 0; i < nc; i++, n++) {
                model_contact *c = &d->contacts[n];
                c->element = e;
                c->geo = geo[i];
                if (geo[i].part[0] == '\0')
                    snprintf(c->name, sizeof c->name, "%s", label);
                else if (snprintf(c->name, sizeof c->name, "%s.%s", label, geo[i].part) < 0)
                    c->name[0] = '\0';
            }
            free(geo);
        }
    return 0;
}

int clink_model_element_count(const clink_model *model)
{
    return model ? model->d.nelems : 0;
}

int clink_model_contact_count(const clink_model *model)
{
    return model ? model->d.ncontacts : 0;
}

int clink_model_element_kind(const clink_model *model, int e)
{
    if (!model || e < 0 || e >= model->d.nelems)
        return -1;
    return (int) model->d.elems[e].kind;
}

const char *clink_model_element_name(const clink_model *model, int e)
{
    if (!model || e < 0 || e >= model->d.nelems)
        return NULL;
    return model->d.elems[e].label;
}

const char *clink_model_element_kind_name(clink_element_kind kind)
{
    const element_class *ec = element_class_of(kind);
    return ec ? ec->name : NULL;
}

const char *clink_model_element_kind_word(clink_element_kind kind)
{
    const element_class *ec = element_class_of(kind);
    return ec ? ec->word : NULL;
}

/* row j of element e's class among those with a value in the definition; NULL if none */
static const element_field *value_row(const clink_model *model, int e, int j)
{
    if (!model || e < 0 || e >= model->d.nelems)
        return NULL;
    const element_class *ec = element_class_of(model->d.elems[e].kind);
    for (int i = 0; i < ec->nfields; i++) {
        const element_field *f = &ec->fields[i];
        int valued = f->attr && f->type != ELEMENT_FIELD_MATERIAL &&
                     f->type != ELEMENT_FIELD_FILE_NUMBER && f->type != ELEMENT_FIELD_SHAPE &&
                     f->type != ELEMENT_FIELD_WEAR;
        if (valued && j-- == 0)
            return f;
    }
    return NULL;
}

int clink_model_element_field_count(const clink_model *model, int e)
{
    int n = 0;
    while (value_row(model, e, n))
        n++;
    return n;
}

int clink_model_element_field(const clink_model *model, int e, int j, const char **name,
                              const char **child, const char **unit, double value[2])
{
    const element_field *f = value_row(model, e, j);
    if (!f)
        return 0;
    const char *at = (const char *) &model->d.elems[e].def + f->offset;
    double v[2] = {0.0, NAN};
    int n = f->type == ELEMENT_FIELD_POINT ? 2 : 1;
    if (f->type == ELEMENT_FIELD_BODY || f->type == ELEMENT_FIELD_WORDS) {
        v[0] = *(const int *) (const void *) at;
    } else if (f->type == ELEMENT_FIELD_BEAM) { /* its first node and element count */
        n = 2;
        v[0] = *(const int *) (const void *) at;
        v[1] = *(const int *) (const void *) ((const char *) &model->d.elems[e].def + f->of);
    } else
        memcpy(v, at, (size_t) n * sizeof(double));
    if (name)
        *name = f->attr;
    if (child)
        *child = f->child;
    if (unit)
        *unit = f->type == ELEMENT_FIELD_BODY    ? "body"
                : f->type == ELEMENT_FIELD_BEAM  ? "beam"
                : f->type == ELEMENT_FIELD_WORDS ? "word"
                : f->unit                        ? f->unit
                                                 : "";
    if (value) {
        value[0] = v[0];
        value[1] = v[1];
    }
    return n;
}

int clink_model_element_index(const clink_model *model, int e)
{
    if (!model || e < 0 || e >= model->d.nelems)
        return -1;
    return model->d.elems[e].index;
}

int clink_model_contact_element(const clink_model *model, int i)
{
    if (!model || i < 0 || i >= model->d.ncontacts)
        return -1;
    return model->d.contacts[i].element;
}

const char *clink_model_contact_name(const clink_model *model, int i)
{
    if (!model || i < 0 || i >= model->d.ncontacts)
        return NULL;
    return model->d.contacts[i].name;
}

int clink_model_contact_has_eccentricity(const clink_model *model, int i)
{
    if (!model || i < 0 || i >= model->d.ncontacts)
        return 0;
    return element_class_of(model->d.elems[model->d.contacts[i].element].kind)->eccentricity != 0;
}

int clink_model_element_has_guide(const clink_model *model, int e)
{
    if (!model || e < 0 || e >= model->d.nelems)
        return 0;
    return element_class_of(model->d.elems[e].kind)->guide != 0;
}

int clink_model_element_output_count(const clink_model *model, int e)
{
    if (!model || e < 0 || e >= model->d.nelems)
        return 0;
    const element_class *ec = element_class_of(model->d.elems[e].kind);
    return ec->output_count ? ec->output_count(&model->d.elems[e].def) : ec->noutputs;
}

const char *clink_model_element_output_name(const clink_model *model, int e, int j,
                                            const char **unit)
{
    if (j < 0 || j >= clink_model_element_output_count(model, e))
        return NULL;
    const element_class *ec = element_class_of(model->d.elems[e].kind);
    if (unit)
        *unit = ec->output_units[j];
    return ec->output_names[j];
}

clink_status clink_model_element_bodies(const clink_model *model, int e, int *body_a, int *body_b)
{
    int a, b;
    if (!model || e < 0 || e >= model->d.nelems)
        return CLINK_ERR_ARG;
    element_class_of(model->d.elems[e].kind)->bodies(&model->d.elems[e].def, &a, &b);
    if (body_a)
        *body_a = a;
    if (body_b)
        *body_b = b;
    return CLINK_OK;
}

clink_status clink_model_element_outputs(const clink_model *model, int e, const double q_a[3],
                                         const double q_b[3], double *values)
{
    if (!model || e < 0 || e >= model->d.nelems || !q_a || !q_b || !values)
        return CLINK_ERR_ARG;
    const element_class *ec = element_class_of(model->d.elems[e].kind);
    int n = clink_model_element_output_count(model, e);
    if (n > 0)
        ec->outputs(&model->d.elems[e].def, q_a, q_b, values);
    /* the outputs from forces need a simulation (clink_sim_element_outputs) */
    for (int j = ec->force_outputs ? ec->force_first : n; j < n; j++)
        values[j] = NAN;
    return CLINK_OK;
}
