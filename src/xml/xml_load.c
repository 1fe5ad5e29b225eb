/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The public functions of include/clink/xml.h: read the file's bytes, then
 * parse, validate and build the model (xml_core.c). Nothing is returned after an
 * error; every message names the file and the line.
 */
#include "clink/model.h"
#include "clink/xml.h"
#include "xml/xml_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { XML_MAX_READ = 64 * 1024 * 1024 };

/* the whole file into *buf (caller frees); CLINK_OK or an error with the message in err */
static clink_status read_file(const char *path, char **buf, size_t *size, char *err,
                              size_t err_size)
{
    FILE *f;
    size_t cap = 0;

    *buf = NULL;
    *size = 0;
    f = fopen(path, "rb");
    if (f == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return CLINK_ERR_IO;
    }
    for (;;) {
        size_t got;
        if (*size == cap) {
            size_t ncap = cap == 0 ? 65536 : 2 * cap;
            char *nbuf;
            if (ncap > (size_t) XML_MAX_READ + 1)
                ncap = (size_t) XML_MAX_READ + 1;
            if (ncap == cap) {
                fclose(f);
                free(*buf);
                *buf = NULL;
                if (err != NULL && err_size > 0)
                    snprintf(err, err_size, "%s: the file is larger than %d bytes", path,
                             XML_MAX_READ);
                return CLINK_ERR_RANGE;
            }
            nbuf = realloc(*buf, ncap);
            if (nbuf == NULL) {
                fclose(f);
                free(*buf);
                *buf = NULL;
                if (err != NULL && err_size > 0)
                    snprintf(err, err_size, "%s: out of memory", path);
                return CLINK_ERR_NOMEM;
            }
            *buf = nbuf;
            cap = ncap;
        }
        got = fread(*buf + *size, 1, cap - *size, f);
        *size += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        fclose(f);
        free(*buf);
        *buf = NULL;
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "%s: read error: %s", path, strerror(errno));
        return CLINK_ERR_IO;
    }
    if (fclose(f) != 0) {
        free(*buf);
        *buf = NULL;
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "%s: cannot close: %s", path, strerror(errno));
        return CLINK_ERR_IO;
    }
    return CLINK_OK;
}

clink_status clink_xml_load_memory(const char *data, size_t size, const char *name,
                                   clink_model **model, clink_xml_summary *summary, char *err,
                                   size_t err_size)
{
    if (model == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "clink_xml_load_memory: model is NULL");
        return CLINK_ERR_ARG;
    }
    return xml_read_memory(data, size, name != NULL ? name : "(memory)", NULL, model, summary, err,
                           err_size);
}

clink_status clink_xml_load_memory_with(const char *data, size_t size, const char *name,
                                        const char *const *sets, int n_sets,
                                        clink_xml_applied *applied, clink_model **model,
                                        clink_xml_summary *summary, char *err, size_t err_size)
{
    if (model == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "clink_xml_load_memory_with: model is NULL");
        return CLINK_ERR_ARG;
    }
    return xml_read_memory_with(data, size, name != NULL ? name : "(memory)", NULL, sets, n_sets,
                                applied, model, summary, err, err_size);
}

clink_status clink_xml_load(const char *path, clink_model **model, clink_xml_summary *summary,
                            char *err, size_t err_size)
{
    return clink_xml_load_with(path, NULL, 0, NULL, model, summary, err, err_size);
}

clink_status clink_xml_load_with(const char *path, const char *const *sets, int n_sets,
                                 clink_xml_applied *applied, clink_model **model,
                                 clink_xml_summary *summary, char *err, size_t err_size)
{
    char *buf;
    size_t size;
    clink_status st;

    if (err != NULL && err_size > 0)
        err[0] = '\0';
    if (model == NULL || path == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "clink_xml_load: %s is NULL", model == NULL ? "model" : "path");
        return CLINK_ERR_ARG;
    }
    *model = NULL;
    st = read_file(path, &buf, &size, err, err_size);
    if (st != CLINK_OK)
        return st;
    st = xml_read_memory_with(buf, size, path, NULL, sets, n_sets, applied, model, summary, err,
                              err_size);
    free(buf);
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
    clink_model *model = NULL;
    clink_xml_summary s;
    clink_status st;

    st = xml_read_memory(data, size, "fuzz.xml", schema, &model, &s, err, err_size);
    clink_model_destroy(&model);
    return st;
}
