/*
 * The public functions of include/clink/xml.h: read the file into a description
 * (xml_read.c: well-formedness, schema, semantic checks), then build the model
 * through the public model-building API (xml_build.c). Nothing is built after an
 * error; every message names the file and the line.
 */
#include "clink/model.h"
#include "clink/xml.h"
#include "xml/xml_internal.h"

#include <stdio.h>
#include <string.h>

static void add_law(char *laws, size_t size, const char *name)
{
    const char *p = laws;
    size_t len = strlen(name), used;

    /* already listed? */
    while ((p = strstr(p, name)) != NULL) {
        if ((p == laws || p[-1] == ',') && (p[len] == '\0' || p[len] == ','))
            return;
        p += len;
    }
    used = strlen(laws);
    if (used + len + 2 > size)
        return;
    if (used > 0)
        laws[used++] = ',';
    memcpy(laws + used, name, len + 1);
}

static void xml_summarize(const xml_desc *d, clink_xml_summary *s)
{
    int i;

    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", d->name);
    s->bodies = d->n_bodies - 1;
    for (i = 0; i < d->n_joints; i++) {
        if (d->joints[i].kind == XML_JOINT_CLEARANCE) {
            s->clearance_joints++;
            add_law(s->laws, sizeof s->laws, d->joints[i].law.name);
        } else {
            s->joints++;
        }
    }
    for (i = 0; i < d->n_pairs; i++)
        add_law(s->laws, sizeof s->laws, d->pairs[i].law.name);
    s->drivers = d->n_drivers;
    s->loads = d->n_loads;
    s->contacts = d->n_pairs;
    s->constraints = xml_desc_constraints(d);
    s->dof = xml_desc_dof(d);
    s->has_gravity = d->gravity[0] != 0 || d->gravity[1] != 0;
    s->out_reactions = d->out_reactions;
    s->out_energies = d->out_energies;
    s->out_contacts = d->out_contacts;
}

/* description -> supported? -> model; frees nothing of desc */
static clink_status xml_finish(const xml_desc *desc, const char *name, clink_model **model,
                               clink_xml_summary *summary, char *err, size_t err_size)
{
    clink_status st;

    st = xml_build(desc, name, model, err, err_size);
    if (st == CLINK_OK && summary != NULL)
        xml_summarize(desc, summary);
    return st;
}

clink_status clink_xml_load_memory(const char *data, size_t size, const char *name,
                                   clink_model **model, clink_xml_summary *summary, char *err,
                                   size_t err_size)
{
    xml_desc desc;
    clink_status st;

    if (model == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "clink_xml_load_memory: model is NULL");
        return CLINK_ERR_ARG;
    }
    *model = NULL;
    if (name == NULL)
        name = "(memory)";
    st = xml_desc_read_memory(data, size, name, NULL, &desc, err, err_size);
    if (st != CLINK_OK)
        return st;
    st = xml_finish(&desc, name, model, summary, err, err_size);
    xml_desc_free(&desc);
    return st;
}

clink_status clink_xml_load(const char *path, clink_model **model, clink_xml_summary *summary,
                            char *err, size_t err_size)
{
    xml_desc desc;
    clink_status st;

    if (model == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "clink_xml_load: model is NULL");
        return CLINK_ERR_ARG;
    }
    *model = NULL;
    st = xml_desc_read_file(path, NULL, &desc, err, err_size);
    if (st != CLINK_OK)
        return st;
    st = xml_finish(&desc, path, model, summary, err, err_size);
    xml_desc_free(&desc);
    return st;
}

clink_model *clink_model_load_xml(const char *path, char *err, size_t err_size)
{
    clink_model *model = NULL;

    if (clink_xml_load(path, &model, NULL, err, err_size) != CLINK_OK)
        return NULL;
    return model;
}

clink_status clink_xml_check(const char *path, clink_xml_summary *summary, char *err,
                             size_t err_size)
{
    clink_model *model = NULL;
    clink_status st;

    st = clink_xml_load(path, &model, summary, err, err_size);
    clink_model_destroy(&model);
    return st;
}

clink_status xml_fuzz_one(const char *data, size_t size, const xml_schema *schema, char *err,
                          size_t err_size)
{
    xml_desc desc;
    clink_status st;
    clink_model *model = NULL;
    clink_xml_summary s;

    st = xml_desc_read_memory(data, size, "fuzz.xml", schema, &desc, err, err_size);
    if (st != CLINK_OK)
        return st;
    st = xml_finish(&desc, "fuzz.xml", &model, &s, err, err_size);
    clink_model_destroy(&model);
    xml_desc_free(&desc);
    return st;
}
