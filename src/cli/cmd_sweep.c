/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink sweep SPEC.xml -o DIR [-j N] [--resume] [--quiet]`: a parameter study.
 * Reads the sweep specification (share/clink-sweep.xsd, docs/sweeps.md: the
 * mechanism file, its parameters by override path as lists, linear or log
 * ranges, zipped lists and seeded random samples, the full grid over them, the
 * summary quantities to collect, whether each case keeps its outputs), runs
 * every case and writes DIR/sweep.csv: one row per case, sorted by case index,
 * with its parameter values, its status (ok / failed at a time with its cause
 * / invalid input / crashed), the summary quantities (impacts, largest contact
 * force, largest body acceleration, largest energy residual, integrator steps)
 * and, last, its wall time; and, when clink is built with HDF5, the same table as
 * DIR/sweep.h5 (sweep_hdf5.c).
 *
 * Each case runs in a child process (fork), so that a case that fails, or even
 * crashes, never stops the others; up to N at once (default: the cores online).
 * Each finished row is appended to DIR/sweep.journal with one write() and an
 * fsync() before the next case is handed out, so that a sweep that is killed
 * loses only the cases then running; --resume reads the journal and runs only
 * the cases missing from it. sweep.csv is written from the journal at the end
 * (to a temporary name, fsync'd, renamed).
 *
 * Built with -DCLINK_SWEEP_MPI (the clink-sweep-mpi executable, when CMake
 * finds MPI), the same command runs under mpirun: rank 0 keeps the journal and
 * a dynamic work queue (one case at a time to whichever rank asks), runs cases
 * of its own in child processes meanwhile, and writes the table; every rank
 * runs its cases in child processes too and writes their outputs itself. The
 * plain clink refuses to run under an MPI launcher with more than one rank and
 * says how to get the MPI build.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "cli/sweep_hdf5.h"
#include "xml/xml_internal.h"

#include "clink/clink.h"
#include "clink/model.h"
#include "clink/output.h"
#include "clink/sim.h"
#include "clink/xml.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef CLINK_SWEEP_MPI
#include <mpi.h>
#endif

/* the embedded schema, generated from share/clink-sweep.xsd at build time */
extern const char sweep_schema_text[];
extern const size_t sweep_schema_size;

enum {
    SWEEP_MAX_PARAMS = 64,      /* parameters of one sweep (overrides of one case) */
    SWEEP_ROW_MAX = 8192,       /* bytes of one table row */
    SWEEP_MAX_CASES = 10000000, /* cases of one sweep */
    SWEEP_MAX_VALUES = 20000000 /* values of ranges and random axes in all (each a string) */
};

/* the summary quantities a sweep can collect, in the table's order of the default */
enum {
    SWEEP_Q_IMPACTS,
    SWEEP_Q_FORCE,
    SWEEP_Q_ACCEL,
    SWEEP_Q_ENERGY,
    SWEEP_Q_STEPS,
    SWEEP_Q_RESTITUTION, /* of the first impact: collected only when asked for */
    SWEEP_NQ
};
enum { SWEEP_NQ_DEFAULT = SWEEP_Q_RESTITUTION };
static const char *const sweep_q_names[] = {
    "impacts", "max_contact_force", "max_acceleration", "energy_residual", "steps", "restitution"};
_Static_assert(sizeof sweep_q_names / sizeof sweep_q_names[0] == SWEEP_NQ, "one name per quantity");

/* one parameter: its override path and its values, as the overrides will write them */
typedef struct sweep_param {
    char path[CLINK_XML_OVERRIDE_MAX];
    char **values;
    long n;
} sweep_param;

/* one axis of the grid: parameters [first, first + count) taken together, n values each */
typedef struct sweep_axis {
    int first, count;
    long n;
} sweep_axis;

typedef struct sweep_spec {
    char file[4096];       /* the specification as given */
    char model[4096];      /* the mechanism file, relative to the specification's directory */
    char model_attr[4096]; /* the model attribute as written (for the journal's tag) */
    int keep;              /* keep each case's full outputs in DIR/cases/NNNNNN */
    sweep_param params[SWEEP_MAX_PARAMS];
    int n_params;
    sweep_axis axes[SWEEP_MAX_PARAMS];
    int n_axes;
    long n_cases;
    int q[SWEEP_NQ]; /* the quantities collected, in order */
    int n_q;
} sweep_spec;

/* ---- the specification -------------------------------------------------------- */

/* the reading of a specification: where messages go */
typedef struct sweep_reader {
    sweep_spec *s;
    char err[1200];
    int failed;
    double cases;  /* the product of the lengths of the axes read so far */
    double values; /* the values of ranges and random axes generated so far */
} sweep_reader;

static void sweep_fail(sweep_reader *r, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void sweep_fail(sweep_reader *r, long line, const char *fmt, ...)
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
    sweep_fail(r, line, "%s", msg);
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
        sweep_fail(r, xmlGetLineNo(n), "%s=\"%s\" is not a finite number", name, t);
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
        sweep_fail(r, xmlGetLineNo(n), "more than %d parameters", SWEEP_MAX_PARAMS);
        return NULL;
    }
    p = &s->params[s->n_params++];
    path = sweep_attr(n, "path");
    snprintf(p->path, sizeof p->path, "%s", path != NULL ? path : "");
    xmlFree(path);
    for (int i = 0; i < s->n_params - 1; i++)
        if (strcmp(s->params[i].path, p->path) == 0) {
            sweep_fail(r, xmlGetLineNo(n), "parameter '%s' is given twice", p->path);
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
        sweep_fail(r, line, "%.0f cases: more than %d", cases, SWEEP_MAX_CASES);
        return 1;
    }
    if (values > SWEEP_MAX_VALUES) {
        sweep_fail(r, line, "%.0f values of ranges and random axes: more than %d in all", values,
                   SWEEP_MAX_VALUES);
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
            sweep_fail(r, line, "out of memory");
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
            sweep_fail(r, xmlGetLineNo(v), "out of memory");
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
        sweep_fail(r, line, "parameter '%s': values= or <value> elements, not both", p->path);
        return -1;
    }
    if (has_list && (has_from || has_to || has_count)) {
        sweep_fail(r, line,
                   "parameter '%s': a list of values or a range (from, to, count), "
                   "not both",
                   p->path);
        return -1;
    }
    if (!has_list && !(has_from && has_to && has_count)) {
        sweep_fail(r, line,
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
        sweep_fail(r, line, "parameter '%s': a log range needs from > 0 and to > 0", p->path);
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
            sweep_fail(r, line, "out of memory");
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
        sweep_fail(r, line, "parameter '%s' has no values", p->path);
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
        sweep_fail(r, xmlGetLineNo(n), "seed=\"%s\" is larger than 2^64 - 1",
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
            sweep_fail(r, xmlGetLineNo(c), "parameter '%s': a log scale needs from > 0 and to > 0",
                       p->path);
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
                sweep_fail(r, xmlGetLineNo(n), "out of memory");
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
                    sweep_fail(r, xmlGetLineNo(n), "quantity '%s' is listed twice",
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
            sweep_fail(r, xmlGetLineNo(n), "more than %d axes", SWEEP_MAX_PARAMS);
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
                    sweep_fail(r, xmlGetLineNo(n),
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
        sweep_fail(r, xmlGetLineNo(root), "%.0f cases: more than %d", cases, SWEEP_MAX_CASES);
        return -1;
    }
    s->n_cases = (long) cases;
    return 0;
}

static void sweep_spec_free(sweep_spec *s)
{
    for (int i = 0; i < s->n_params; i++) {
        for (long j = 0; j < s->params[i].n; j++)
            free(s->params[i].values[j]);
        free(s->params[i].values);
    }
    s->n_params = 0;
}

/* reads and checks the specification: 0, or -1 with "FILE:LINE: what is wrong" in err */
static int sweep_spec_read(sweep_spec *s, const char *file, char *err, size_t err_size)
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
        sweep_fail(&r, 0, "cannot create an XML parser");
        goto done;
    }
    ctxt->_private = &r;
    ctxt->sax->serror = sweep_on_parser_error;
    doc = xmlCtxtReadFile(ctxt, file, "UTF-8", XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    if (r.failed)
        goto done;
    if (doc == NULL || !ctxt->wellFormed) {
        sweep_fail(&r, 0, "not a well-formed XML document");
        goto done;
    }
    if (doc->intSubset != NULL) {
        sweep_fail(&r, 0, "document type declarations (DOCTYPE) are not allowed");
        goto done;
    }
    root = xmlDocGetRootElement(doc);
    pctxt = xmlSchemaNewMemParserCtxt(sweep_schema_text, (int) sweep_schema_size);
    if (root == NULL || pctxt == NULL) {
        sweep_fail(&r, 0,
                   root == NULL ? "the document has no root element"
                                : "cannot read the embedded schema");
        goto done;
    }
    schema = xmlSchemaParse(pctxt);
    vctxt = schema != NULL ? xmlSchemaNewValidCtxt(schema) : NULL;
    if (vctxt == NULL) {
        sweep_fail(&r, 0, "cannot create the schema validator");
        goto done;
    }
    xmlSchemaSetValidStructuredErrors(vctxt, sweep_on_xml_error, &r);
    if (xmlSchemaValidateDoc(vctxt, doc) != 0 || r.failed) {
        sweep_fail(&r, xmlGetLineNo(root), "the document does not follow the sweep schema");
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

/* the value index of each parameter in case k (the first axis varies slowest) */
static void sweep_case_values(const sweep_spec *s, long k, long *idx)
{
    for (int a = s->n_axes - 1; a >= 0; a--) {
        long j = k % s->axes[a].n;
        k /= s->axes[a].n;
        for (int i = 0; i < s->axes[a].count; i++)
            idx[s->axes[a].first + i] = j;
    }
}

/* ---- the table ---------------------------------------------------------------- */

/* appends text to buf as a CSV field (quoted when it holds a comma, quote or line break) */
static void sweep_csv_field(char *buf, size_t size, const char *text)
{
    size_t n = strlen(buf);

    if (strpbrk(text, ",\"\n\r") == NULL) {
        snprintf(buf + n, size - n, "%s", text);
        return;
    }
    if (n + 1 < size)
        buf[n++] = '"';
    for (const char *c = text; *c != '\0' && n + 2 < size; c++) {
        char ch = *c == '\n' || *c == '\r' ? ' ' : *c;
        if (ch == '"')
            buf[n++] = '"';
        buf[n++] = ch;
    }
    if (n + 1 < size)
        buf[n++] = '"';
    buf[n] = '\0';
}

static void sweep_appendf(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void sweep_appendf(char *buf, size_t size, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;

    if (n + 1 >= size)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + n, size - n, fmt, ap);
    va_end(ap);
}

/* the header line (with its newline) */
static void sweep_header(const sweep_spec *s, char *buf, size_t size)
{
    snprintf(buf, size, "case");
    for (int i = 0; i < s->n_params; i++) {
        sweep_appendf(buf, size, ",");
        sweep_csv_field(buf, size, s->params[i].path);
    }
    sweep_appendf(buf, size, ",status,t_failed,cause");
    for (int i = 0; i < s->n_q; i++)
        sweep_appendf(buf, size, ",%s", sweep_q_names[s->q[i]]);
    sweep_appendf(buf, size, ",wall_time\n");
}

/* what one case gave */
typedef struct sweep_result {
    const char *status; /* "ok", "failed", "invalid", "crashed" */
    double t_failed;    /* failed: the time reached, s */
    char cause[1024];
    int has_q; /* the quantities were measured (ok or failed) */
    double q[SWEEP_NQ];
    double wall;
} sweep_result;

/* the row of case k (with its newline) */
static void sweep_row(const sweep_spec *s, long k, const sweep_result *res, char *buf, size_t size)
{
    long idx[SWEEP_MAX_PARAMS];

    sweep_case_values(s, k, idx);
    snprintf(buf, size, "%ld", k);
    for (int i = 0; i < s->n_params; i++) {
        sweep_appendf(buf, size, ",");
        sweep_csv_field(buf, size, s->params[i].values[idx[i]]);
    }
    sweep_appendf(buf, size, ",%s,", res->status);
    if (strcmp(res->status, "failed") == 0)
        sweep_appendf(buf, size, "%.17g", res->t_failed);
    sweep_appendf(buf, size, ",");
    sweep_csv_field(buf, size, res->cause);
    for (int i = 0; i < s->n_q; i++) {
        if (!res->has_q)
            sweep_appendf(buf, size, ",");
        else if (!isfinite(res->q[s->q[i]]))
            sweep_appendf(buf, size, ",");
        else if (s->q[i] == SWEEP_Q_IMPACTS || s->q[i] == SWEEP_Q_STEPS)
            sweep_appendf(buf, size, ",%.0f", res->q[s->q[i]]);
        else
            sweep_appendf(buf, size, ",%.17g", res->q[s->q[i]]);
    }
    sweep_appendf(buf, size, ",%.6f\n", res->wall);
}

/* ---- one case ----------------------------------------------------------------- */

static double sweep_now(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* the directory of case k's outputs */
static void sweep_case_dir(const char *dir, long k, char *buf, size_t size)
{
    snprintf(buf, size, "%s/cases/%06ld", dir, k);
}

/* the largest contact force, body acceleration and |energy residual| at this sample */
static void sweep_sample(const clink_sim *sim, int bodies, sweep_result *res)
{
    clink_energy e;
    int contacts = clink_sim_contact_count(sim);

    for (int c = 0; c < contacts; c++) {
        clink_contact_info info;
        if (clink_sim_contact(sim, c, &info) == CLINK_OK && fabs(info.fn) > res->q[SWEEP_Q_FORCE])
            res->q[SWEEP_Q_FORCE] = fabs(info.fn);
    }
    for (int b = 1; b <= bodies; b++) {
        double a[3];
        if (clink_sim_body_acceleration(sim, b, a) == CLINK_OK &&
            hypot(a[0], a[1]) > res->q[SWEEP_Q_ACCEL])
            res->q[SWEEP_Q_ACCEL] = hypot(a[0], a[1]);
    }
    if (clink_sim_energy(sim, &e) == CLINK_OK && fabs(e.balance) > res->q[SWEEP_Q_ENERGY])
        res->q[SWEEP_Q_ENERGY] = fabs(e.balance);
}

/* case k's model and simulation with its overrides: 0, or -1 with res's status and cause */
static int sweep_case_load(const sweep_spec *s, const long *idx, clink_model **model,
                           clink_xml_summary *sum, clink_settings_def *set, clink_sim **sim,
                           sweep_result *res)
{
    char sets_buf[SWEEP_MAX_PARAMS][CLINK_XML_OVERRIDE_MAX], err[1024];
    const char *sets[SWEEP_MAX_PARAMS];
    clink_status st;

    for (int i = 0; i < s->n_params; i++) {
        int w = snprintf(sets_buf[i], sizeof sets_buf[i], "%s=%s", s->params[i].path,
                         s->params[i].values[idx[i]]);
        if (w < 0 || (size_t) w >= sizeof sets_buf[i]) {
            snprintf(res->cause, sizeof res->cause, "override '%s=...' longer than %d bytes",
                     s->params[i].path, CLINK_XML_OVERRIDE_MAX - 1);
            return -1;
        }
        sets[i] = sets_buf[i];
    }
    if (clink_xml_load_with(s->model, sets, s->n_params, NULL, model, sum, err, sizeof err) !=
        CLINK_OK) {
        snprintf(res->cause, sizeof res->cause, "%s", err);
        return -1;
    }
    *set = clink_model_settings(*model);
    if (set->output_step > set->t_end) {
        snprintf(res->cause, sizeof res->cause, "output step %g s is larger than the end time %g s",
                 set->output_step, set->t_end);
        return -1;
    }
    st = clink_sim_create(*model, set, sim, err, sizeof err);
    if (st != CLINK_OK) {
        int input = st == CLINK_ERR_ASSEMBLY || st == CLINK_ERR_SINGULAR || st == CLINK_ERR_ARG ||
                    st == CLINK_ERR_RANGE || st == CLINK_ERR_MODEL || st == CLINK_ERR_NONFINITE;
        res->status = input ? "invalid" : "failed";
        snprintf(res->cause, sizeof res->cause, "%s", err);
        return -1;
    }
    return 0;
}

/* the recorder of case k's outputs (its directory made): 0, or -1 with res's status and cause */
static int sweep_case_recorder(const char *dir, long k, const clink_model *model,
                               const clink_xml_summary *sum, clink_recorder **rec,
                               sweep_result *res)
{
    clink_output_options opt = clink_default_output_options();
    char err[1024], cdir[4200];

    sweep_case_dir(dir, k, cdir, sizeof cdir);
    opt.reactions = sum->out_reactions;
    opt.energies = sum->out_energies;
    if (mkdir(cdir, 0777) != 0 && errno != EEXIST) {
        res->status = "failed";
        snprintf(res->cause, sizeof res->cause, "cannot create %.900s: %s", cdir, strerror(errno));
        return -1;
    }
    if (clink_recorder_create(model, cdir, &opt, rec, err, sizeof err) != CLINK_OK) {
        res->status = "failed";
        snprintf(res->cause, sizeof res->cause, "%s", err);
        return -1;
    }
    return 0;
}

/* sim integrated to t_end, sampled on the output grid: 1 if it failed (res's cause), else 0 */
static int sweep_case_integrate(const clink_model *model, clink_sim *sim, clink_recorder *rec,
                                const clink_settings_def *set, sweep_result *res)
{
    int bodies = clink_model_count(model, CLINK_ENTITY_BODY), failed = 0;
    long n_out = (long) floor(set->t_end / set->output_step * (1.0 + 1e-12));
    clink_status st;

    sweep_sample(sim, bodies, res);
    st = rec != NULL ? clink_recorder_sample(rec, sim) : CLINK_OK;
    for (long j = 1; j <= n_out + 1 && st == CLINK_OK; j++) {
        double t = j <= n_out ? (double) j * set->output_step : set->t_end;
        if (t > set->t_end)
            t = set->t_end;
        if (t <= clink_sim_time(sim))
            continue;
        st = clink_sim_advance(sim, t);
        if (st != CLINK_OK) {
            failed = 1;
            snprintf(res->cause, sizeof res->cause, "%s", clink_sim_error(sim));
            break;
        }
        sweep_sample(sim, bodies, res);
        if (rec != NULL)
            st = clink_recorder_sample(rec, sim);
    }
    if (st != CLINK_OK && !failed) {
        failed = 1;
        snprintf(res->cause, sizeof res->cause, "%s",
                 rec != NULL ? clink_recorder_error(rec) : clink_status_string(st));
    }
    return failed;
}

/* whether sim has an implausible finding: 1 (with res's cause) or 0 */
static int sweep_case_implausible(const clink_sim *sim, sweep_result *res)
{
    for (int i = 0; i < clink_sim_finding_count(sim); i++) {
        clink_sim_finding f;
        if (clink_sim_finding_get(sim, i, &f) == CLINK_OK &&
            f.severity == CLINK_FINDING_IMPLAUSIBLE) {
            snprintf(res->cause, sizeof res->cause, "implausible result: %s", f.message);
            return 1;
        }
    }
    return 0;
}

/* res's impact count, largest impact force, first restitution and integrator steps */
static void sweep_case_impacts(const clink_sim *sim, sweep_result *res)
{
    clink_sim_stats stats;

    res->q[SWEEP_Q_IMPACTS] = clink_sim_impact_count(sim);
    res->q[SWEEP_Q_RESTITUTION] = NAN;
    for (int i = 0; i < clink_sim_impact_count(sim); i++) {
        clink_impact_record ir;
        if (clink_sim_impact(sim, i, &ir) != CLINK_OK)
            continue;
        if (ir.F_max > res->q[SWEEP_Q_FORCE])
            res->q[SWEEP_Q_FORCE] = ir.F_max;
        if (i == 0)
            res->q[SWEEP_Q_RESTITUTION] = ir.restitution;
    }
    clink_sim_stats_get(sim, &stats);
    res->q[SWEEP_Q_STEPS] = (double) stats.steps;
}

/* the recorder finished with the run's information; a failure to finish fails the case */
static void sweep_case_finish_outputs(const sweep_spec *s, const long *idx, clink_sim *sim,
                                      clink_recorder *rec, const clink_xml_summary *sum,
                                      const clink_settings_def *set, int failed, sweep_result *res)
{
    const char *paths[SWEEP_MAX_PARAMS], *values[SWEEP_MAX_PARAMS];
    clink_run_info info;

    memset(&info, 0, sizeof info);
    info.model_name = sum->name;
    info.source = s->model;
    info.failed = failed;
    info.message = failed ? res->cause : NULL;
    info.t_end = set->t_end;
    info.wall_time = -1.0;
    info.settings = set;
    for (int i = 0; i < s->n_params; i++) {
        paths[i] = s->params[i].path;
        values[i] = s->params[i].values[idx[i]];
    }
    info.override_paths = paths;
    info.override_values = values;
    info.override_count = s->n_params;
    if (clink_recorder_finish(rec, sim, &info) != CLINK_OK && !failed) {
        res->status = "failed";
        res->t_failed = clink_sim_time(sim);
        snprintf(res->cause, sizeof res->cause, "%s", clink_recorder_error(rec));
    }
}

/*
 * Runs case k in this process: loads the model with the case's overrides, integrates it to
 * t_end, sampling the quantities on the output grid as `clink run` does (and writing its
 * outputs to DIR/cases/NNNNNN when the sweep keeps them).
 */
static void sweep_case_run(const sweep_spec *s, const char *dir, long k, sweep_result *res)
{
    long idx[SWEEP_MAX_PARAMS];
    clink_model *model = NULL;
    clink_sim *sim = NULL;
    clink_recorder *rec = NULL;
    clink_xml_summary sum;
    clink_settings_def set;
    double t0 = sweep_now();
    int failed;

    memset(res, 0, sizeof *res);
    res->status = "invalid";
    sweep_case_values(s, k, idx);
    if (sweep_case_load(s, idx, &model, &sum, &set, &sim, res) != 0)
        goto done;
    if (s->keep && sweep_case_recorder(dir, k, model, &sum, &rec, res) != 0)
        goto done;
    res->status = "ok";
    res->has_q = 1;
    failed = sweep_case_integrate(model, sim, rec, &set, res);
    /* an implausible finding fails a run that otherwise finished, as in `clink run` */
    if (!failed)
        failed = sweep_case_implausible(sim, res);
    sweep_case_impacts(sim, res);
    if (failed) {
        res->status = "failed";
        res->t_failed = clink_sim_time(sim);
    }
    if (rec != NULL)
        sweep_case_finish_outputs(s, idx, sim, rec, &sum, &set, failed, res);

done:
    clink_recorder_destroy(&rec);
    clink_sim_destroy(&sim);
    clink_model_destroy(&model);
    res->wall = sweep_now() - t0;
}

/* ---- child processes ---------------------------------------------------------- */

/* a case running in a child process */
typedef struct sweep_child {
    pid_t pid; /* 0: the slot is free */
    int fd;    /* the read end of its pipe */
    long k;
} sweep_child;

/* forks a child that runs case k and writes its row to a pipe; 0, or -1 with errno */
static int sweep_child_start(const sweep_spec *s, const char *dir, long k, sweep_child *c)
{
    int p[2];
    pid_t pid;

    if (pipe(p) != 0)
        return -1;
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        int e = errno;
        close(p[0]);
        close(p[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        char row[SWEEP_ROW_MAX];
        sweep_result res;
        size_t n, off = 0;
        close(p[0]);
        sweep_case_run(s, dir, k, &res);
        sweep_row(s, k, &res, row, sizeof row);
        n = strlen(row);
        while (off < n) {
            ssize_t w = write(p[1], row + off, n - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(3);
            off += (size_t) w;
        }
        _exit(0);
    }
    close(p[1]);
    c->pid = pid;
    c->fd = p[0];
    c->k = k;
    return 0;
}

/* the row of a child that has ended with wait status ws (a "crashed" row if it gave none) */
static void sweep_child_row(const sweep_spec *s, sweep_child *c, int ws, double wall, char *row,
                            size_t size)
{
    size_t n = 0;
    ssize_t r;

    while (n + 1 < size &&
           ((r = read(c->fd, row + n, size - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
        if (r > 0)
            n += (size_t) r;
    row[n] = '\0';
    close(c->fd);
    if (!(WIFEXITED(ws) && WEXITSTATUS(ws) == 0) || n == 0 || row[n - 1] != '\n') {
        sweep_result res;
        memset(&res, 0, sizeof res);
        res.status = "crashed";
        if (WIFSIGNALED(ws))
            snprintf(res.cause, sizeof res.cause, "the case's process was killed by signal %d (%s)",
                     WTERMSIG(ws), strsignal(WTERMSIG(ws)));
        else
            snprintf(res.cause, sizeof res.cause, "the case's process exited with status %d",
                     WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
        res.wall = wall;
        sweep_row(s, c->k, &res, row, size);
    }
    c->pid = 0;
}

/* waits for one of the children (blocking or not): its slot index, -1 if none ended */
static int sweep_child_reap(const sweep_spec *s, sweep_child *kids, int n_kids, int block,
                            char *row, size_t size)
{
    int ws;
    pid_t pid;

    do
        pid = waitpid(-1, &ws, block ? 0 : WNOHANG);
    while (pid < 0 && errno == EINTR);
    if (pid <= 0)
        return -1;
    for (int i = 0; i < n_kids; i++)
        if (kids[i].pid == pid) {
            sweep_child_row(s, &kids[i], ws, 0.0, row, size);
            return i;
        }
    return -1;
}

/* ---- the journal -------------------------------------------------------------- */

/* the sweep's state on the coordinating process */
typedef struct sweep_state {
    const sweep_spec *s;
    const char *dir;
    char **rows; /* n_cases rows, NULL while missing */
    long done, ok, failed, invalid, crashed;
    int fd; /* the journal, open for appending */
    int quiet;
    double sync_interval; /* fsync the journal at most this often, s (0: after every row) */
    double last_sync;     /* when it was last fsync'd (monotonic clock, s) */
    int unsynced;         /* rows written since */
} sweep_state;

/* the journal's first line: the version and a hash of every case's overrides and columns */
static void sweep_journal_tag(const sweep_spec *s, char *buf, size_t size)
{
    uint64_t h = 14695981039346656037ull;
    char header[SWEEP_ROW_MAX];

    sweep_header(s, header, sizeof header);
    for (const char *c = header; *c != '\0'; c++)
        h = (h ^ (uint8_t) *c) * 1099511628211ull;
    for (int i = 0; i < s->n_params; i++)
        for (long j = 0; j < s->params[i].n; j++)
            for (const char *c = s->params[i].values[j];; c++) {
                h = (h ^ (uint8_t) *c) * 1099511628211ull;
                if (*c == '\0')
                    break;
            }
    /* the model as the specification writes it: the same sweep started from another
       directory (spec.xml, ./spec.xml, /abs/spec.xml) resumes */
    for (const char *c = s->model_attr; *c != '\0'; c++)
        h = (h ^ (uint8_t) *c) * 1099511628211ull;
    snprintf(buf, size, "# clink sweep journal 1 cases=%ld keep=%d spec=%016llx\n", s->n_cases,
             s->keep, (unsigned long long) h);
}

/* the case index at the start of a row, or -1 */
static long sweep_row_case(const char *row, long n_cases)
{
    char *end;
    long k;

    errno = 0;
    k = strtol(row, &end, 10);
    if (end == row || *end != ',' || errno != 0 || k < 0 || k >= n_cases)
        return -1;
    return k;
}

static void sweep_count(sweep_state *st, const char *row)
{
    const char *c = row;

    /* the status follows the parameters: skip case and parameter fields (quoted ones too) */
    for (int f = 0; f < 1 + st->s->n_params && *c != '\0'; f++) {
        if (*c == '"') {
            for (c++; *c != '\0' && !(*c == '"' && c[1] != '"'); c += *c == '"' ? 2 : 1)
                ;
            if (*c == '"')
                c++;
        } else {
            c += strcspn(c, ",");
        }
        if (*c == ',')
            c++;
    }
    st->done++;
    if (strncmp(c, "ok,", 3) == 0)
        st->ok++;
    else if (strncmp(c, "failed,", 7) == 0)
        st->failed++;
    else if (strncmp(c, "invalid,", 8) == 0)
        st->invalid++;
    else
        st->crashed++;
}

/* a finished row: kept, appended to the journal with one write and fsync'd. 0 or -1 (errno) */
static int sweep_record(sweep_state *st, const char *row)
{
    long k = sweep_row_case(row, st->s->n_cases);
    size_t n = strlen(row), off = 0;

    if (k < 0 || st->rows[k] != NULL)
        return 0;
    while (off < n) {
        ssize_t w = write(st->fd, row + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        off += (size_t) w;
    }
    st->unsynced = 1;
    if (st->sync_interval <= 0 || sweep_now() - st->last_sync >= st->sync_interval) {
        if (fsync(st->fd) != 0)
            return -1;
        st->last_sync = sweep_now();
        st->unsynced = 0;
    }
    st->rows[k] = strdup(row);
    if (st->rows[k] == NULL)
        return -1;
    sweep_count(st, row);
    return 0;
}

/* a new journal holding the tag line: CLI_EXIT_OK, or the exit status after a message */
static int sweep_journal_create(sweep_state *st, const char *path, const char *tag)
{
    st->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666);
    if (st->fd < 0 || write(st->fd, tag, strlen(tag)) != (ssize_t) strlen(tag) ||
        fsync(st->fd) != 0) {
        fprintf(stderr, "clink: sweep: %s: cannot write: %s\n", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}

/* the whole file at path, NUL-terminated: CLI_EXIT_OK, or the exit status after a message */
static int sweep_journal_read(const char *path, char **data, size_t *size)
{
    size_t cap = 0;
    FILE *f = fopen(path, "r");

    *data = NULL;
    *size = 0;
    if (f == NULL) {
        fprintf(stderr, "clink: sweep: %s: cannot read: %s\n", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    for (;;) {
        size_t r;
        if (cap - *size < 65536) {
            char *d = realloc(*data, cap + 1048576);
            if (d == NULL) {
                free(*data);
                fclose(f);
                fprintf(stderr, "clink: sweep: out of memory\n");
                return CLI_EXIT_FAIL;
            }
            *data = d;
            cap += 1048576;
        }
        r = fread(*data + *size, 1, cap - *size - 1, f);
        *size += r;
        if (r == 0)
            break;
    }
    (*data)[*size] = '\0';
    if (ferror(f)) {
        fclose(f);
        free(*data);
        fprintf(stderr, "clink: sweep: %s: cannot read: %s\n", path, strerror(EIO));
        return CLI_EXIT_IO;
    }
    fclose(f);
    return CLI_EXIT_OK;
}

/* the journal's rows in [line, end) taken: CLI_EXIT_OK, or the exit status after a message */
static int sweep_journal_take(sweep_state *st, char *line, const char *end)
{
    while (line < end) {
        char *nl = strchr(line, '\n'), saved = nl[1];
        long k = sweep_row_case(line, st->s->n_cases);
        nl[1] = '\0';
        if (k >= 0 && st->rows[k] == NULL) {
            st->rows[k] = strdup(line);
            if (st->rows[k] == NULL) {
                fprintf(stderr, "clink: sweep: out of memory\n");
                return CLI_EXIT_FAIL;
            }
            sweep_count(st, line);
        }
        nl[1] = saved;
        line = nl + 1;
    }
    return CLI_EXIT_OK;
}

/*
 * Opens DIR/sweep.journal: a new one (the tag line) or, on resume, the existing one, whose
 * complete rows are taken (a last line without its newline, cut by a kill, is dropped from
 * the file). CLI_EXIT_OK, or the exit status after a message.
 */
static int sweep_journal_open(sweep_state *st, int resume)
{
    char path[4200], tag[200], *data = NULL;
    const sweep_spec *s = st->s;
    size_t size = 0, keep;
    int rc;

    snprintf(path, sizeof path, "%s/sweep.journal", st->dir);
    sweep_journal_tag(s, tag, sizeof tag);
    if (!resume || access(path, F_OK) != 0)
        return sweep_journal_create(st, path, tag);
    rc = sweep_journal_read(path, &data, &size);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (strncmp(data, tag, strlen(tag)) != 0) {
        free(data);
        return cli_usage_error("sweep: %s was written by another sweep specification (or "
                               "another version): resume refused; run without --resume to "
                               "start afresh",
                               path);
    }
    /* complete lines only */
    keep = size;
    while (keep > 0 && data[keep - 1] != '\n')
        keep--;
    rc = sweep_journal_take(st, data + strlen(tag), data + keep);
    free(data);
    if (rc != CLI_EXIT_OK)
        return rc;
    st->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (st->fd < 0 || ftruncate(st->fd, (off_t) keep) != 0) {
        fprintf(stderr, "clink: sweep: %s: cannot write: %s\n", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}

/* DIR/sweep.csv from the rows, sorted by case: written to sweep.csv.tmp, fsync'd, renamed */
static int sweep_write_table(sweep_state *st)
{
    char path[4200], tmp[4300], header[SWEEP_ROW_MAX];
    FILE *f;
    int bad;

    snprintf(path, sizeof path, "%s/sweep.csv", st->dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (f == NULL) {
        fprintf(stderr, "clink: sweep: %s: cannot write: %s\n", tmp, strerror(errno));
        return CLI_EXIT_IO;
    }
    sweep_header(st->s, header, sizeof header);
    fputs(header, f);
    for (long k = 0; k < st->s->n_cases; k++)
        if (st->rows[k] != NULL)
            fputs(st->rows[k], f);
    errno = 0;
    bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
    if (fclose(f) != 0)
        bad = 1;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "clink: sweep: %s: cannot write: %s\n", path,
                strerror(errno != 0 ? errno : EIO));
        remove(tmp);
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}

/* the text of the file (NUL-terminated, malloc'd), or NULL (errno) */
static char *sweep_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t n = 0, cap = 0, got;

    if (f == NULL)
        return NULL;
    do {
        if (cap - n < 4096) {
            char *t = realloc(text, cap = 2 * cap + 8192);
            if (t == NULL) {
                free(text);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            text = t;
        }
        got = fread(text + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        free(text);
        fclose(f);
        errno = EIO;
        return NULL;
    }
    fclose(f);
    text[n] = '\0';
    return text;
}

/* the unit and description of quantity q in the table */
static const char *const sweep_q_units[] = {"1", "N", "m/s^2", "J", "1", "1"};
static const char *const sweep_q_descriptions[] = {
    "impacts recorded",
    "largest normal contact force (impact records and output times)",
    "largest translational acceleration of a body at the output times",
    "largest absolute energy balance residual at the output times",
    "integrator steps",
    "restitution of the first impact record (NaN when there was none)"};
_Static_assert(sizeof sweep_q_units / sizeof sweep_q_units[0] == SWEEP_NQ, "one unit each");
_Static_assert(sizeof sweep_q_descriptions / sizeof sweep_q_descriptions[0] == SWEEP_NQ,
               "one description each");

/* DIR/sweep.h5 from the rows of sweep.csv (sweep_hdf5.c); CLI_EXIT_OK or CLI_EXIT_IO */
static int sweep_write_h5(const sweep_state *st)
{
    const sweep_spec *s = st->s;
    sweep_h5_column cols[SWEEP_MAX_PARAMS + SWEEP_NQ + 5];
    char path[4200], err[4600];
    char *text;
    int n = 0, rc;

    cols[n++] = (sweep_h5_column){"case", SWEEP_H5_INT, "", "the case index"};
    for (int i = 0; i < s->n_params; i++)
        cols[n++] = (sweep_h5_column){s->params[i].path, SWEEP_H5_PARAM, "",
                                      "the value passed to the override of this path"};
    cols[n++] = (sweep_h5_column){"status", SWEEP_H5_STRING, "", "ok, failed, invalid or crashed"};
    cols[n++] = (sweep_h5_column){"t_failed", SWEEP_H5_DOUBLE, "s",
                                  "failed: the simulated time reached (NaN otherwise)"};
    cols[n++] = (sweep_h5_column){"cause", SWEEP_H5_STRING, "",
                                  "why the case is not ok (empty when it is)"};
    for (int i = 0; i < s->n_q; i++)
        cols[n++] = (sweep_h5_column){sweep_q_names[s->q[i]], SWEEP_H5_DOUBLE,
                                      sweep_q_units[s->q[i]], sweep_q_descriptions[s->q[i]]};
    cols[n++] = (sweep_h5_column){"wall_time", SWEEP_H5_DOUBLE, "s", "the case's own wall time"};
    text = sweep_slurp(s->file);
    if (text == NULL) {
        fprintf(stderr, "clink: sweep: %s: cannot read: %s\n", s->file, strerror(errno));
        return CLI_EXIT_IO;
    }
    snprintf(path, sizeof path, "%s/sweep.h5", st->dir);
    rc = sweep_h5_write(path, cols, n, st->rows, s->n_cases, text, err, sizeof err);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "clink: sweep: %s\n", err);
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}

/* ---- the command -------------------------------------------------------------- */

enum { SWEEP_OUTPUT = 1, SWEEP_JOBS, SWEEP_RESUME, SWEEP_QUIET, SWEEP_SYNC };

static const cli_option sweep_options[] = {
    {SWEEP_OUTPUT, "output", 'o', "DIR", "output directory (created if missing; required)"},
    {SWEEP_JOBS, "jobs", 'j', "N",
     "cases run at once on this machine (default: the cores\nonline; under MPI: 1 per rank)"},
    {SWEEP_RESUME, "resume", 0, NULL,
     "keep the cases of DIR/sweep.journal and run only the\nmissing ones"},
    {SWEEP_SYNC, "sync-interval", 0, "S",
     "fsync the journal at most every S seconds (default 0:\nafter every row; each row is "
     "still written at once)"},
    {SWEEP_QUIET, "quiet", 'q', NULL, "no progress or summary line"},
    {0, NULL, 0, NULL, NULL},
};

typedef struct sweep_args {
    const char *spec;
    const char *dir;
    int jobs; /* 0: default */
    int resume;
    int quiet;
    double sync_interval;
} sweep_args;

static int sweep_apply(void *ctx, int id, const char *spelled, const char *value)
{
    sweep_args *a = ctx;

    switch (id) {
    case CLI_OPERAND:
        if (a->spec != NULL)
            return cli_usage_error("sweep: one specification file only (got '%s' and '%s')",
                                   a->spec, value);
        a->spec = value;
        return CLI_EXIT_OK;
    case SWEEP_OUTPUT:
        a->dir = value;
        return CLI_EXIT_OK;
    case SWEEP_JOBS:
        if (cli_parse_int(spelled, value, &a->jobs) != 0)
            return CLI_EXIT_USAGE;
        if (a->jobs < 1 || a->jobs > 4096)
            return cli_usage_error("sweep: %s %d: between 1 and 4096", spelled, a->jobs);
        return CLI_EXIT_OK;
    case SWEEP_RESUME:
        a->resume = 1;
        return CLI_EXIT_OK;
    case SWEEP_QUIET:
        a->quiet = 1;
        return CLI_EXIT_OK;
    case SWEEP_SYNC:
        if (cli_parse_double(spelled, value, &a->sync_interval) != 0)
            return CLI_EXIT_USAGE;
        if (a->sync_interval < 0)
            return cli_usage_error("sweep: %s %g: must be >= 0", spelled, a->sync_interval);
        return CLI_EXIT_OK;
    default:
        return CLI_EXIT_USAGE;
    }
}

static void sweep_usage(FILE *out)
{
    fprintf(out, "usage: clink sweep SPEC.xml -o DIR [OPTIONS]\n\n"
                 "Runs every case of the sweep specification SPEC.xml (docs/sweeps.md) and\n"
                 "writes DIR/sweep.csv (and DIR/sweep.h5 when built with HDF5), one row per\n"
                 "case: its parameters, its status (ok, failed, invalid, crashed), the\n"
                 "summary quantities and its wall time. Each case runs in its own process;\n"
                 "finished rows go to DIR/sweep.journal at once (--resume continues an\n"
                 "interrupted sweep). Under mpirun, use the MPI build\n"
                 "clink-sweep-mpi with the same arguments.\n\n"
                 "Options (--opt VALUE or --opt=VALUE):\n");
    cli_print_options(out, sweep_options);
    fprintf(out, "\nExit status: 0 every case ok; 1 the table is complete but some cases failed,\n"
                 "were invalid or crashed; 2 input rejected (specification, options, a journal\n"
                 "of another sweep); 3 I/O failed.\n");
}

#ifndef CLINK_SWEEP_MPI
/* the ranks of an MPI launcher this process was started by (1 when none) */
static long sweep_launcher_ranks(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
                                       "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v != NULL && atol(v) > 1)
            return atol(v);
    }
    return 1;
}
#endif

/* hands out the missing cases to local children (and, under MPI, to the other ranks) */
typedef struct sweep_queue {
    long next; /* the next case to consider */
} sweep_queue;

static long sweep_next_case(sweep_state *st, sweep_queue *q)
{
    while (q->next < st->s->n_cases && st->rows[q->next] != NULL)
        q->next++;
    return q->next < st->s->n_cases ? q->next++ : -1;
}

static void sweep_progress(const sweep_state *st)
{
    if (!st->quiet && isatty(STDERR_FILENO))
        fprintf(stderr, "\rclink sweep: %ld of %ld cases done", st->done, st->s->n_cases);
}

#ifdef CLINK_SWEEP_MPI
enum { SWEEP_TAG_ROW = 1, SWEEP_TAG_WORK = 2 };

/* a rank other than 0: asks for a case, runs it in a child, sends its row, until told to stop */
static int sweep_mpi_worker(const sweep_spec *s, const char *dir)
{
    char row[SWEEP_ROW_MAX] = "";

    for (;;) {
        long k;
        sweep_child c;
        int slot;
        MPI_Send(row, (int) strlen(row) + 1, MPI_CHAR, 0, SWEEP_TAG_ROW, MPI_COMM_WORLD);
        MPI_Recv(&k, 1, MPI_LONG, 0, SWEEP_TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (k < 0)
            return CLI_EXIT_OK;
        if (sweep_child_start(s, dir, k, &c) != 0) {
            fprintf(stderr, "clink: sweep: cannot start a process: %s\n", strerror(errno));
            return CLI_EXIT_FAIL;
        }
        slot = -1;
        while (slot < 0)
            slot = sweep_child_reap(s, &c, 1, 1, row, sizeof row);
    }
}
#endif

/* cases started in the free local slots while rc is ok: rc, or CLI_EXIT_FAIL after a message */
static int sweep_fill_slots(sweep_state *st, sweep_queue *q, sweep_child *kids, int jobs,
                            int *running, int rc)
{
    long k;

    for (int i = 0; i < jobs && rc == CLI_EXIT_OK; i++) {
        if (kids[i].pid != 0 || (k = sweep_next_case(st, q)) < 0)
            continue;
        if (sweep_child_start(st->s, st->dir, k, &kids[i]) != 0) {
            fprintf(stderr, "clink: sweep: cannot start a process: %s\n", strerror(errno));
            rc = CLI_EXIT_FAIL;
            break;
        }
        (*running)++;
    }
    return rc;
}

#ifdef CLINK_SWEEP_MPI
/* a waiting rank's row recorded and its next case sent: 1 if one was served, 0 if none */
static int sweep_serve_rank(sweep_state *st, sweep_queue *q, int *active_ranks, int *rc)
{
    int flag = 0;
    MPI_Status status;
    char mrow[SWEEP_ROW_MAX];
    long k;

    MPI_Iprobe(MPI_ANY_SOURCE, SWEEP_TAG_ROW, MPI_COMM_WORLD, &flag, &status);
    if (!flag)
        return 0;
    MPI_Recv(mrow, SWEEP_ROW_MAX, MPI_CHAR, status.MPI_SOURCE, SWEEP_TAG_ROW, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    mrow[SWEEP_ROW_MAX - 1] = '\0';
    if (mrow[0] != '\0' && sweep_record(st, mrow) != 0) {
        fprintf(stderr, "clink: sweep: %s/sweep.journal: cannot write: %s\n", st->dir,
                strerror(errno));
        *rc = CLI_EXIT_IO;
    }
    k = *rc == CLI_EXIT_OK ? sweep_next_case(st, q) : -1;
    MPI_Send(&k, 1, MPI_LONG, status.MPI_SOURCE, SWEEP_TAG_WORK, MPI_COMM_WORLD);
    if (k < 0)
        (*active_ranks)--;
    sweep_progress(st);
    return 1;
}
#endif

/* a finished local child's row recorded: 1 if one finished, 0 if none */
static int sweep_reap_local(sweep_state *st, sweep_child *kids, int jobs, int *running, int *rc)
{
    char row[SWEEP_ROW_MAX];
    int slot = sweep_child_reap(st->s, kids, jobs, 0, row, sizeof row);

    if (slot < 0)
        return 0;
    (*running)--;
    if (sweep_record(st, row) != 0 && *rc == CLI_EXIT_OK) {
        fprintf(stderr, "clink: sweep: %s/sweep.journal: cannot write: %s\n", st->dir,
                strerror(errno));
        *rc = CLI_EXIT_IO;
    }
    sweep_progress(st);
    return 1;
}

/* the pause after a coordinator's round: none after progress, else one that doubles */
static void sweep_pause(int progressed, long *pause_ns)
{
    /* polled, not blocked in waitpid: on the loaded 2-core machine of docs/sweeps.md,
       64 short cases on -j 2 took 1.8 s (median of 4) with polling, 2.3 s with a blocking
       waitpid; the pause doubles while nothing happens (50 us .. 1 ms) so that long
       cases cost the coordinator next to nothing */
    if (progressed) {
        *pause_ns = 50000;
    } else {
        struct timespec ts = {0, *pause_ns};
        nanosleep(&ts, NULL);
        *pause_ns = *pause_ns < 500000 ? 2 * *pause_ns : 1000000;
    }
}

/* rank 0 (or the only process): runs the queue to its end; CLI_EXIT_OK or an exit status */
static int sweep_coordinate(sweep_state *st, int jobs, int ranks)
{
    sweep_child *kids = calloc((size_t) jobs, sizeof *kids);
    sweep_queue q = {0};
    int running = 0, active_ranks = ranks - 1, rc = CLI_EXIT_OK;
    long pause_ns = 50000;

    if (kids == NULL) {
        fprintf(stderr, "clink: sweep: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    sweep_progress(st);
    for (;;) {
        int progressed = 0;
        rc = sweep_fill_slots(st, &q, kids, jobs, &running, rc);
        if (running == 0 && active_ranks == 0)
            break;
#ifdef CLINK_SWEEP_MPI
        if (active_ranks > 0 && sweep_serve_rank(st, &q, &active_ranks, &rc))
            progressed = 1;
#endif
        if (running > 0 && sweep_reap_local(st, kids, jobs, &running, &rc))
            progressed = 1;
        sweep_pause(progressed, &pause_ns);
        if (rc != CLI_EXIT_OK && running == 0 && active_ranks == 0)
            break;
    }
    if (!st->quiet && isatty(STDERR_FILENO))
        fprintf(stderr, "\n");
    free(kids);
    return rc;
}

/* the local jobs by default: the cores online */
static int sweep_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > 4096 ? 4096 : (int) n;
}

/* rank 0 before the cases: the model and output directory checked, the directories made,
   the rows allocated, the journal opened (or resumed); CLI_EXIT_OK or the exit status */
static int sweep_start(sweep_state *st, const sweep_args *a)
{
    const sweep_spec *spec = st->s;
    char where[4300];
    int rc = cli_check_input_file("sweep", spec->model) != 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;

    if (rc == CLI_EXIT_OK)
        rc = cli_check_output_path("sweep", "output directory", a->dir, 1);
    if (rc == CLI_EXIT_OK) {
        snprintf(where, sizeof where, "%s/cases", a->dir);
        if ((mkdir(a->dir, 0777) != 0 && errno != EEXIST) ||
            (spec->keep && mkdir(where, 0777) != 0 && errno != EEXIST)) {
            fprintf(stderr, "clink: sweep: cannot create directory '%s': %s\n",
                    spec->keep ? where : a->dir, strerror(errno));
            return CLI_EXIT_IO;
        }
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    st->rows = calloc((size_t) spec->n_cases, sizeof *st->rows);
    if (st->rows == NULL) {
        fprintf(stderr, "clink: sweep: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    return sweep_journal_open(st, a->resume);
}

/* after the cases: the journal closed, sweep.csv (and sweep.h5) written, the tally printed;
   the exit status (1 when a case is not ok) */
static int sweep_finish(sweep_state *st, const sweep_args *a, int rc)
{
    const sweep_spec *spec = st->s;

    if (st->fd >= 0 && ((st->unsynced && fsync(st->fd) != 0) | (close(st->fd) != 0)) &&
        rc == CLI_EXIT_OK) {
        fprintf(stderr, "clink: sweep: %s/sweep.journal: cannot write: %s\n", a->dir,
                strerror(errno));
        rc = CLI_EXIT_IO;
    }
    if (rc == CLI_EXIT_OK)
        rc = sweep_write_table(st);
    if (rc == CLI_EXIT_OK && sweep_h5_available())
        rc = sweep_write_h5(st);
    if (rc == CLI_EXIT_OK) {
        if (!a->quiet)
            printf("%s: %ld cases: %ld ok, %ld failed, %ld invalid, %ld crashed; table in "
                   "%s/sweep.csv%s\n",
                   a->spec, spec->n_cases, st->ok, st->failed, st->invalid, st->crashed, a->dir,
                   sweep_h5_available() ? " and sweep.h5" : "");
        if (st->ok < spec->n_cases)
            rc = CLI_EXIT_FAIL;
    }
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
    static sweep_spec spec; /* large: kept off the stack */
    sweep_args a;
    sweep_state st;
    char err[1300];
    int rc, rank = 0, ranks = 1;

#ifdef CLINK_SWEEP_MPI
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
#endif
    memset(&a, 0, sizeof a);
    rc = cli_parse_options(argc, argv, sweep_options, sweep_apply, &a);
    if (rc == CLI_HELP) {
        if (rank == 0)
            sweep_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.spec == NULL || a.dir == NULL) {
        if (rank == 0)
            cli_usage_error(
                "sweep: needs a specification file and -o DIR (see clink sweep --help)");
        return CLI_EXIT_USAGE;
    }
#ifndef CLINK_SWEEP_MPI
    if (sweep_launcher_ranks() > 1)
        return cli_usage_error(
            "sweep: started by an MPI launcher with %ld ranks, but this clink is built without "
            "MPI: every rank would run the whole sweep. Run clink-sweep-mpi under mpirun (built "
            "when CMake finds MPI: apt-get install libopenmpi-dev openmpi-bin, then cmake "
            "-DCLINK_MPI=ON), or run clink sweep once without mpirun (-j N local processes)",
            sweep_launcher_ranks());
#endif
    if (cli_check_input_file("sweep", a.spec) != 0)
        return CLI_EXIT_USAGE;
    sweep_spec_free(&spec);
    memset(&spec, 0, sizeof spec);
    if (sweep_spec_read(&spec, a.spec, err, sizeof err) != 0) {
        if (rank == 0)
            fprintf(stderr, "%s\n", err);
        sweep_spec_free(&spec);
        return CLI_EXIT_USAGE;
    }
    memset(&st, 0, sizeof st);
    st.s = &spec;
    st.dir = a.dir;
    st.fd = -1;
    st.quiet = a.quiet;
    st.sync_interval = a.sync_interval;
    st.last_sync = sweep_now();
    rc = rank == 0 ? sweep_start(&st, &a) : CLI_EXIT_OK;
#ifdef CLINK_SWEEP_MPI
    /* every rank learns whether rank 0 could start */
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc == CLI_EXIT_OK && rank > 0) {
        rc = sweep_mpi_worker(&spec, a.dir);
        sweep_spec_free(&spec);
        return rc;
    }
#endif
    if (rc == CLI_EXIT_OK) {
        int jobs = a.jobs > 0 ? a.jobs : ranks > 1 ? 1 : sweep_default_jobs();
        rc = sweep_coordinate(&st, jobs, ranks);
    }
    rc = sweep_finish(&st, &a, rc);
    if (st.rows != NULL)
        for (long k = 0; k < spec.n_cases; k++)
            free(st.rows[k]);
    free(st.rows);
    sweep_spec_free(&spec);
    return rc;
}

#ifdef CLINK_SWEEP_MPI
/* clink-sweep-mpi SPEC -o DIR [OPTIONS]: `clink sweep` on every rank of an MPI job */

int main(int argc, char **argv)
{
    int rc;

    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "clink-sweep-mpi: MPI_Init failed\n");
        return CLI_EXIT_FAIL;
    }
    argv[0] = (char *) "sweep";
    rc = cmd_sweep(argc, argv);
    fflush(stdout);
    if (rc != CLI_EXIT_OK && rc != CLI_EXIT_FAIL && rc != CLI_EXIT_USAGE)
        MPI_Abort(MPI_COMM_WORLD, rc);
    MPI_Finalize();
    return rc;
}
#endif
