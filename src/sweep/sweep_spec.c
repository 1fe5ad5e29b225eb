/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_spec.c: the sweep specification reader (docs/sweeps.md, "The specification").
 * The file is parsed with libxml2 (no network, no DOCTYPE), validated against the
 * embedded schema share/clink-sweep.xsd, then checked by the rules the schema cannot
 * say (one list or one range per parameter, a log range above zero, zips of equal
 * lengths, a path given once, the limits on cases and values, checked before an axis
 * generates its values), and every parameter's values are generated as the strings
 * the overrides receive: lists as written, ranges (linear or geometric, end points
 * exact) and seeded random samples (splitmix64; Steele, Lea and Flood 2014) as the
 * shortest decimal that reads back as the same double. Every error is one message
 * "FILE:LINE: what is wrong".
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_internal.h"
#include "xml/xml_internal.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the embedded schema, generated from share/clink-sweep.xsd at build time */
extern const char sweep_schema_text[];
extern const size_t sweep_schema_size;

const char *const sweep_q_names[SWEEP_NQ] = {
    "impacts", "max_contact_force", "max_acceleration", "energy_residual", "steps", "restitution"};

/* the reading of a specification: where messages go */
typedef struct sweep_reader {
    sweep_spec *s;
    char err[1200];
    int failed;
    double cases;  /* the product of the lengths of the axes read so far */
    double values; /* the values of ranges and random axes generated so far */
} sweep_reader;

static void sweep_spec_fail(sweep_reader *r, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void sweep_spec_fail(sweep_reader *r, long line, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (r->failed)
        return;
    r->failed = 1;
    n = line > 0 ? snprintf(r->err, sizeof r->err, "%s:%ld: ", r->s->file, line)
                 : snprintf(r->err, sizeof r->err, "%s: ", r->s->file);
    if (n < 0 || (size_t) n >= sizeof r->err)
        return;
    va_start(ap, fmt);
    vsnprintf(r->err + n, sizeof r->err - (size_t) n, fmt, ap);
    va_end(ap);
}

static void sweep_on_xml_error(void *data, xmlErrorPtr e)
{
    sweep_reader *r = data;
    char msg[600];

    if (r == NULL || e == NULL || e->level < XML_ERR_ERROR)
        return;
    long line = xml_error_text(e, msg, sizeof msg);
    sweep_spec_fail(r, line, "%s", msg);
}

static void sweep_on_parser_error(void *data, xmlErrorPtr e)
{
    xmlParserCtxtPtr ctxt = data;

    if (ctxt != NULL)
        sweep_on_xml_error(ctxt->_private, e);
}

/* the attribute's text (caller frees with xmlFree), or NULL */
static char *sweep_attr(const xmlNode *n, const char *name)
{
    return (char *) xmlGetProp(n, (const xmlChar *) name);
}

/* a finite double (the schema has checked the syntax; "INF" and "NaN" pass it) */
static int sweep_attr_double(sweep_reader *r, const xmlNode *n, const char *name, double *out)
{
    char *t = sweep_attr(n, name), *end;
    int ok;

    if (t == NULL)
        return 0;
    errno = 0;
    *out = strtod(t, &end);
    ok = end != t && *end == '\0' && isfinite(*out);
    if (!ok)
        sweep_spec_fail(r, xmlGetLineNo(n), "%s=\"%s\" is not a finite number", name, t);
    xmlFree(t);
    return ok ? 1 : -1;
}

static int sweep_param_add_value(sweep_param *p, const char *text, size_t len)
{
    char **v = realloc(p->values, (size_t) (p->n + 1) * sizeof *v);

    if (v == NULL)
        return -1;
    p->values = v;
    v[p->n] = malloc(len + 1);
    if (v[p->n] == NULL)
        return -1;
    memcpy(v[p->n], text, len);
    v[p->n][len] = '\0';
    p->n++;
    return 0;
}

/* x as the shortest decimal that reads back as the same double */
static int sweep_param_add_number(sweep_param *p, double x)
{
    char buf[40];
    int n = 0;

    for (int prec = 1; prec <= 17; prec++) {
        n = snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }

    return sweep_param_add_value(p, buf, (size_t) n);
}

/* a new parameter with the path of n; NULL after a message */
static sweep_param *sweep_param_new(sweep_reader *r, const xmlNode *n)
{
    sweep_spec *s = r->s;
    sweep_param *p;
    char *path;

    if (s->n_params >= SWEEP_MAX_PARAMS) {
        sweep_spec_fail(r, xmlGetLineNo(n), "more than %d parameters", SWEEP_MAX_PARAMS);
        return NULL;
    }
    p = &s->params[s->n_params++];
    path = sweep_attr(n, "path");
    snprintf(p->path, sizeof p->path, "%s", path != NULL ? path : "");
    xmlFree(path);
    for (int i = 0; i < s->n_params - 1; i++)
        if (strcmp(s->params[i].path, p->path) == 0) {
            sweep_spec_fail(r, xmlGetLineNo(n), "parameter '%s' is given twice", p->path);
            return NULL;
        }
    return p;
}

static int sweep_is_log(const xmlNode *n)
{
    char *scale = sweep_attr(n, "scale");
    int log_scale = scale != NULL && strcmp(scale, "log") == 0;

    xmlFree(scale);
    return log_scale;
}

/*
 * Before an axis of k cases generates k * width values: refuses (with a
 * message, 1) a sweep that would exceed SWEEP_MAX_CASES or SWEEP_MAX_VALUES,
 * so that a short specification never spends minutes and gigabytes on values
 * only to be refused afterwards; 0 otherwise.
 */
static int sweep_too_many(sweep_reader *r, long line, long k, int width)
{
    double cases = r->cases * (double) k, values = r->values + (double) k * width;

    if (cases > SWEEP_MAX_CASES) {
        sweep_spec_fail(r, line, "%.0f cases: more than %d", cases, SWEEP_MAX_CASES);
        return 1;
    }
    if (values > SWEEP_MAX_VALUES) {
        sweep_spec_fail(r, line, "%.0f values of ranges and random axes: more than %d in all",
                        values, SWEEP_MAX_VALUES);
        return 1;
    }
    r->values = values;
    return 0;
}

/* p's values from n's values= attribute: 1 if it has one, 0 if not, -1 after a message */
static int sweep_read_values_attr(sweep_reader *r, const xmlNode *n, sweep_param *p, long line)
{
    char *values = sweep_attr(n, "values");
    const char *c = values;

    if (values == NULL)
        return 0;
    while (*c != '\0') {
        size_t len;
        while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
            c++;
        len = strcspn(c, " \t\n\r");
        if (len > 0 && sweep_param_add_value(p, c, len) != 0) {
            xmlFree(values);
            sweep_spec_fail(r, line, "out of memory");
            return -1;
        }
        c += len;
    }
    xmlFree(values);
    return 1;
}

/* p's values from n's <value> elements: 2 if it has any, 0 if not, -1 after a message */
static int sweep_read_value_elements(sweep_reader *r, const xmlNode *n, sweep_param *p)
{
    int has = 0;

    for (const xmlNode *v = n->children; v != NULL; v = v->next) {
        xmlChar *t;
        if (v->type != XML_ELEMENT_NODE)
            continue;
        has = 2;
        t = xmlNodeGetContent(v);
        if (t == NULL || sweep_param_add_value(p, (const char *) t, strlen((const char *) t))) {
            xmlFree(t);
            sweep_spec_fail(r, xmlGetLineNo(v), "out of memory");
            return -1;
        }
        xmlFree(t);
    }
    return has;
}

/* whether the forms given make exactly one list or one range: 0, or -1 after a message */
static int sweep_check_forms(sweep_reader *r, long line, const sweep_param *p, int has_list,
                             int has_from, int has_to, int has_count)
{
    if (has_list == 3) {
        sweep_spec_fail(r, line, "parameter '%s': values= or <value> elements, not both", p->path);
        return -1;
    }
    if (has_list && (has_from || has_to || has_count)) {
        sweep_spec_fail(r, line,
                        "parameter '%s': a list of values or a range (from, to, count), "
                        "not both",
                        p->path);
        return -1;
    }
    if (!has_list && !(has_from && has_to && has_count)) {
        sweep_spec_fail(r, line,
                        "parameter '%s' needs values (values=\"...\" or <value> elements) or a "
                        "range (from, to and count)",
                        p->path);
        return -1;
    }
    return 0;
}

/* p's k values from..to, linear or (scale="log") geometric: 0, or -1 after a message */
static int sweep_read_range(sweep_reader *r, const xmlNode *n, sweep_param *p, long line,
                            double from, double to, long k)
{
    int log_scale = sweep_is_log(n);

    if (log_scale && !(from > 0 && to > 0)) {
        sweep_spec_fail(r, line, "parameter '%s': a log range needs from > 0 and to > 0", p->path);
        return -1;
    }
    if (sweep_too_many(r, line, k, 1))
        return -1;
    for (long i = 0; i < k; i++) {
        double u = k > 1 ? (double) i / (double) (k - 1) : 0.0;
        double x = log_scale ? exp(log(from) + (log(to) - log(from)) * u) : from + (to - from) * u;
        if (i == k - 1 && k > 1)
            x = to; /* the end point exactly */
        if (i == 0)
            x = from;
        if (sweep_param_add_number(p, x) != 0) {
            sweep_spec_fail(r, line, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* <parameter> of the grid or a zip: a list (values= or <value>) or a range */
static int sweep_read_parameter(sweep_reader *r, const xmlNode *n)
{
    sweep_param *p = sweep_param_new(r, n);
    double from = 0, to = 0;
    int has_from, has_to, has_list, has_elements, has_count, bad;
    long line = xmlGetLineNo(n);
    char *count;

    if (p == NULL)
        return -1;
    has_list = sweep_read_values_attr(r, n, p, line);
    if (has_list < 0)
        return -1;
    has_elements = sweep_read_value_elements(r, n, p);
    if (has_elements < 0)
        return -1;
    has_list |= has_elements;
    has_from = sweep_attr_double(r, n, "from", &from);
    has_to = sweep_attr_double(r, n, "to", &to);
    if (has_from < 0 || has_to < 0)
        return -1;
    count = sweep_attr(n, "count");
    has_count = count != NULL;
    bad = sweep_check_forms(r, line, p, has_list, has_from, has_to, has_count);
    if (bad == 0 && !has_list) {
        long k = strtol(count, NULL, 10);
        xmlFree(count);
        if (sweep_read_range(r, n, p, line, from, to, k) != 0)
            return -1;
    } else {
        xmlFree(count);
        if (bad)
            return -1;
    }
    if (p->n == 0) {
        sweep_spec_fail(r, line, "parameter '%s' has no values", p->path);
        return -1;
    }
    return 0;
}

/* splitmix64 (Steele, Lea and Flood 2014): the random axes' generator, the same everywhere */
static uint64_t sweep_next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* <random count seed>: count samples, parameter by parameter within each sample */
static int sweep_read_random(sweep_reader *r, const xmlNode *n, sweep_axis *axis)
{
    char *count = sweep_attr(n, "count"), *seed = sweep_attr(n, "seed");
    long k = count != NULL ? strtol(count, NULL, 10) : 0;
    uint64_t state;
    int first = r->s->n_params;
    double lo[SWEEP_MAX_PARAMS], hi[SWEEP_MAX_PARAMS];
    int logs[SWEEP_MAX_PARAMS];
    char *end;

    errno = 0;
    state = seed != NULL ? strtoull(seed, &end, 10) : 0;
    xmlFree(count);
    if (seed == NULL || errno != 0) {
        sweep_spec_fail(r, xmlGetLineNo(n), "seed=\"%s\" is larger than 2^64 - 1",
                        seed != NULL ? seed : "");
        xmlFree(seed);
        return -1;
    }
    xmlFree(seed);
    for (const xmlNode *c = n->children; c != NULL; c = c->next) {
        sweep_param *p;
        int i = r->s->n_params - first;
        if (c->type != XML_ELEMENT_NODE)
            continue;
        p = sweep_param_new(r, c);
        if (p == NULL || sweep_attr_double(r, c, "from", &lo[i]) < 0 ||
            sweep_attr_double(r, c, "to", &hi[i]) < 0)
            return -1;
        logs[i] = sweep_is_log(c);
        if (logs[i] && !(lo[i] > 0 && hi[i] > 0)) {
            sweep_spec_fail(r, xmlGetLineNo(c),
                            "parameter '%s': a log scale needs from > 0 and to > 0", p->path);
            return -1;
        }
    }
    if (sweep_too_many(r, xmlGetLineNo(n), k, r->s->n_params - first))
        return -1;
    for (long j = 0; j < k; j++)
        for (int i = 0; i < r->s->n_params - first; i++) {
            double u = (double) (sweep_next_random(&state) >> 11) * 0x1.0p-53;
            double x = logs[i] ? exp(log(lo[i]) + (log(hi[i]) - log(lo[i])) * u)
                               : lo[i] + (hi[i] - lo[i]) * u;
            if (sweep_param_add_number(&r->s->params[first + i], x) != 0) {
                sweep_spec_fail(r, xmlGetLineNo(n), "out of memory");
                return -1;
            }
        }
    axis->first = first;
    axis->count = r->s->n_params - first;
    axis->n = k;
    return 0;
}

/* <collect quantities="..."> */
static int sweep_read_collect(sweep_reader *r, const xmlNode *n)
{
    char *list = sweep_attr(n, "quantities");
    const char *c = list != NULL ? list : "";
    sweep_spec *s = r->s;

    s->n_q = 0;
    while (*c != '\0') {
        size_t len;
        int q;
        while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
            c++;
        len = strcspn(c, " \t\n\r");
        for (q = 0; q < SWEEP_NQ && len > 0; q++)
            if (strlen(sweep_q_names[q]) == len && strncmp(sweep_q_names[q], c, len) == 0)
                break;
        if (len > 0 && q < SWEEP_NQ) {
            for (int i = 0; i < s->n_q; i++)
                if (s->q[i] == q) {
                    sweep_spec_fail(r, xmlGetLineNo(n), "quantity '%s' is listed twice",
                                    sweep_q_names[q]);
                    xmlFree(list);
                    return -1;
                }
            s->q[s->n_q++] = q;
        }
        c += len;
    }
    xmlFree(list);
    return 0;
}

/* the elements below <sweep>, the axes and the number of cases */
static int sweep_read_root(sweep_reader *r, const xmlNode *root)
{
    sweep_spec *s = r->s;
    char *model = sweep_attr(root, "model"), *keep = sweep_attr(root, "keep_outputs");
    const char *slash = strrchr(s->file, '/');
    double cases = 1;

    if (model != NULL && model[0] != '/' && slash != NULL)
        snprintf(s->model, sizeof s->model, "%.*s/%s", (int) (slash - s->file), s->file, model);
    else
        snprintf(s->model, sizeof s->model, "%s", model != NULL ? model : "");
    snprintf(s->model_attr, sizeof s->model_attr, "%s", model != NULL ? model : "");
    xmlFree(model);
    s->keep = keep != NULL && (strcmp(keep, "true") == 0 || strcmp(keep, "1") == 0);
    xmlFree(keep);
    for (int q = 0; q < SWEEP_NQ_DEFAULT; q++)
        s->q[q] = q;
    s->n_q = SWEEP_NQ_DEFAULT;
    for (const xmlNode *n = root->children; n != NULL; n = n->next) {
        sweep_axis *a = &s->axes[s->n_axes];
        const char *tag = (const char *) n->name;
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (strcmp(tag, "collect") == 0) {
            if (sweep_read_collect(r, n) != 0)
                return -1;
            continue;
        }
        if (s->n_axes >= SWEEP_MAX_PARAMS) {
            sweep_spec_fail(r, xmlGetLineNo(n), "more than %d axes", SWEEP_MAX_PARAMS);
            return -1;
        }
        if (strcmp(tag, "parameter") == 0) {
            a->first = s->n_params;
            a->count = 1;
            if (sweep_read_parameter(r, n) != 0)
                return -1;
            a->n = s->params[a->first].n;
        } else if (strcmp(tag, "zip") == 0) {
            a->first = s->n_params;
            for (const xmlNode *c = n->children; c != NULL; c = c->next)
                if (c->type == XML_ELEMENT_NODE && sweep_read_parameter(r, c) != 0)
                    return -1;
            a->count = s->n_params - a->first;
            a->n = s->params[a->first].n;
            for (int i = 1; i < a->count; i++)
                if (s->params[a->first + i].n != a->n) {
                    sweep_spec_fail(r, xmlGetLineNo(n),
                                    "zip: parameter '%s' has %ld values, '%s' has %ld: a zip takes "
                                    "lists of equal length",
                                    s->params[a->first].path, a->n, s->params[a->first + i].path,
                                    s->params[a->first + i].n);
                    return -1;
                }
        } else if (sweep_read_random(r, n, a) != 0) {
            return -1;
        }
        cases *= (double) a->n;
        r->cases = cases;
        s->n_axes++;
    }
    if (cases > SWEEP_MAX_CASES) {
        sweep_spec_fail(r, xmlGetLineNo(root), "%.0f cases: more than %d", cases, SWEEP_MAX_CASES);
        return -1;
    }
    s->n_cases = (long) cases;
    return 0;
}

void sweep_spec_free(sweep_spec *s)
{
    for (int i = 0; i < s->n_params; i++) {
        for (long j = 0; j < s->params[i].n; j++)
            free(s->params[i].values[j]);
        free(s->params[i].values);
    }
    s->n_params = 0;
}

/* reads and checks the specification: 0, or -1 with "FILE:LINE: what is wrong" in err */
int sweep_spec_read(sweep_spec *s, const char *file, char *err, size_t err_size)
{
    sweep_reader r;
    xmlParserCtxtPtr ctxt = NULL;
    xmlDocPtr doc = NULL;
    xmlSchemaParserCtxtPtr pctxt = NULL;
    xmlSchemaPtr schema = NULL;
    xmlSchemaValidCtxtPtr vctxt = NULL;
    xmlNode *root;

    memset(&r, 0, sizeof r);
    r.s = s;
    r.cases = 1;
    snprintf(s->file, sizeof s->file, "%s", file);
    xmlInitParser();
    ctxt = xmlNewParserCtxt();
    if (ctxt == NULL || ctxt->sax == NULL) {
        sweep_spec_fail(&r, 0, "cannot create an XML parser");
        goto done;
    }
    ctxt->_private = &r;
    ctxt->sax->serror = sweep_on_parser_error;
    doc = xmlCtxtReadFile(ctxt, file, "UTF-8", XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    if (r.failed)
        goto done;
    if (doc == NULL || !ctxt->wellFormed) {
        sweep_spec_fail(&r, 0, "not a well-formed XML document");
        goto done;
    }
    if (doc->intSubset != NULL) {
        sweep_spec_fail(&r, 0, "document type declarations (DOCTYPE) are not allowed");
        goto done;
    }
    root = xmlDocGetRootElement(doc);
    pctxt = xmlSchemaNewMemParserCtxt(sweep_schema_text, (int) sweep_schema_size);
    if (root == NULL || pctxt == NULL) {
        sweep_spec_fail(&r, 0,
                        root == NULL ? "the document has no root element"
                                     : "cannot read the embedded schema");
        goto done;
    }
    schema = xmlSchemaParse(pctxt);
    vctxt = schema != NULL ? xmlSchemaNewValidCtxt(schema) : NULL;
    if (vctxt == NULL) {
        sweep_spec_fail(&r, 0, "cannot create the schema validator");
        goto done;
    }
    xmlSchemaSetValidStructuredErrors(vctxt, sweep_on_xml_error, &r);
    if (xmlSchemaValidateDoc(vctxt, doc) != 0 || r.failed) {
        sweep_spec_fail(&r, xmlGetLineNo(root), "the document does not follow the sweep schema");
        goto done;
    }
    sweep_read_root(&r, root);

done:
    if (vctxt != NULL)
        xmlSchemaFreeValidCtxt(vctxt);
    if (schema != NULL)
        xmlSchemaFree(schema);
    if (pctxt != NULL)
        xmlSchemaFreeParserCtxt(pctxt);
    if (doc != NULL)
        xmlFreeDoc(doc);
    if (ctxt != NULL) {
        ctxt->_private = NULL;
        xmlFreeParserCtxt(ctxt);
    }
    if (r.failed)
        snprintf(err, err_size, "%s", r.err);
    return r.failed ? -1 : 0;
}
