/*
 * Reads a clink mechanism file with libxml2 into an xml_desc (xml_internal.h):
 *
 *   bytes -> well-formed tree -> valid against the embedded XSD -> semantic checks.
 *
 * One parser context per load with its own structured error handler (the
 * handler is set on the context's SAX block, ctxt->sax->serror, and finds this
 * load's error buffer through ctxt->_private: libxml2 2.9 has no
 * xmlCtxtSetErrorHandler and xmlSetStructuredErrorFunc is process-global).
 * Options: XML_PARSE_NONET (no network), no XML_PARSE_NOENT (entities are not
 * substituted) and no DTD loading; a DOCTYPE is refused as soon as the parser
 * sees it, before any entity can be declared. Input is UTF-8 (an encoding
 * declaration is ignored). The schema's messages and ours read
 * "FILE:LINE: what is wrong"; the first error stops the load. xmlCleanupParser
 * is never called (it would break other users of libxml2 in the process).
 *
 * Semantic checks (docs/xml-reference.md): finite numbers, ranges (mass > 0,
 * 0 <= nu < 0.5, ...), references to existing bodies, joints and materials,
 * unique names per kind, clearance geometry (bearing radius > journal radius),
 * drivers on joints of the right type.
 */
#include "xml/xml_internal.h"

#include "clink/contact.h"

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the embedded schema, generated from share/clink.xsd at build time */
extern const char xml_schema_text[];
extern const size_t xml_schema_size;

enum { XML_MAX_FILE = 64 * 1024 * 1024 };

struct xml_schema {
    xmlSchemaPtr schema;
};

/* the state of one load */
typedef struct xml_ctx {
    const char *name; /* file name for messages */
    char *err;
    size_t err_size;
    int failed;
    clink_status status;
    double angle_scale; /* 1 or pi/180 */
} xml_ctx;

/* ---- error reporting ------------------------------------------------------- */

/* records the first error as "NAME:LINE: message" */
static void ctx_fail_line(xml_ctx *c, clink_status status, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void ctx_fail_line(xml_ctx *c, clink_status status, long line, const char *fmt, ...)
{
    va_list ap;
    int n = 0;

    if (c->failed)
        return;
    c->failed = 1;
    c->status = status;
    if (c->err == NULL || c->err_size == 0)
        return;
    if (line > 0)
        n = snprintf(c->err, c->err_size, "%s:%ld: ", c->name, line);
    else
        n = snprintf(c->err, c->err_size, "%s: ", c->name);
    if (n < 0 || (size_t) n >= c->err_size)
        return;
    va_start(ap, fmt);
    vsnprintf(c->err + n, c->err_size - (size_t) n, fmt, ap);
    va_end(ap);
}

/*
 * The line of an element. libxml2 keeps lines in 16 bits on the node and,
 * with XML_PARSE_BIG_LINES, recovers larger ones only from neighbouring text
 * nodes; on_start_element() stores the exact line in node->_private instead.
 */
static long node_line(const xmlNode *n)
{
    long line;

    if (n == NULL)
        return 0;
    line = xmlGetLineNo(n);
    if (n->type == XML_ELEMENT_NODE && n->_private != NULL)
        line = (long) (intptr_t) n->_private;
    return line;
}

/* a libxml2 error (parser or schema) into the load's message */
static void ctx_take_error(xml_ctx *c, const xmlError *e)
{
    char msg[512];
    size_t len, i;
    long line;

    if (e == NULL || e->level < XML_ERR_ERROR || c->failed)
        return;
    snprintf(msg, sizeof msg, "%s", e->message != NULL ? e->message : "malformed XML");
    len = strlen(msg);
    while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
        msg[--len] = '\0';
    for (i = 0; i < len; i++)
        if (msg[i] == '\n' || msg[i] == '\r' || msg[i] == '\t')
            msg[i] = ' ';
    line = e->line;
    if (e->node != NULL && ((const xmlNode *) e->node)->type == XML_ELEMENT_NODE)
        line = node_line((const xmlNode *) e->node);
    ctx_fail_line(c, e->domain == XML_FROM_SCHEMASV ? CLINK_ERR_MODEL : CLINK_ERR_PARSE, line, "%s",
                  msg);
}

/* structured error handler of the parser context: data is ctxt->userData (the context) */
static void on_parser_error(void *data, xmlErrorPtr e)
{
    xmlParserCtxtPtr ctxt = data;

    if (ctxt != NULL && ctxt->_private != NULL)
        ctx_take_error(ctxt->_private, e);
}

/* structured error handler of the schema contexts: data is the load */
static void on_schema_error(void *data, xmlErrorPtr e)
{
    if (data != NULL)
        ctx_take_error(data, e);
}

/* the default SAX2 element handler, then the exact line into node->_private */
static void on_start_element(void *data, const xmlChar *localname, const xmlChar *prefix,
                             const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                             int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
    xmlParserCtxtPtr ctxt = data;
    xmlNodePtr before = ctxt->node;

    xmlSAX2StartElementNs(data, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                          nb_defaulted, attributes);
    if (ctxt->node != NULL && ctxt->node != before && ctxt->input != NULL && ctxt->input->line > 0)
        ctxt->node->_private = (void *) (intptr_t) ctxt->input->line;
}

/* a DOCTYPE stops the parser before its internal subset (entity declarations) */
static void on_internal_subset(void *data, const xmlChar *name, const xmlChar *external_id,
                               const xmlChar *system_id)
{
    xmlParserCtxtPtr ctxt = data;

    (void) name;
    (void) external_id;
    (void) system_id;
    if (ctxt == NULL)
        return;
    if (ctxt->_private != NULL)
        ctx_fail_line(ctxt->_private, CLINK_ERR_PARSE,
                      ctxt->input != NULL ? (long) ctxt->input->line : 0,
                      "document type declarations (DOCTYPE) are not allowed in clink files");
    xmlStopParser(ctxt);
}

/* ---- schema ---------------------------------------------------------------- */

xml_schema *xml_schema_create(char *err, size_t err_size)
{
    xml_ctx c;
    xmlSchemaParserCtxtPtr pctxt;
    xml_schema *s;

    memset(&c, 0, sizeof c);
    c.name = "embedded schema";
    c.err = err;
    c.err_size = err_size;
    xmlInitParser();
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        ctx_fail_line(&c, CLINK_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    pctxt = xmlSchemaNewMemParserCtxt(xml_schema_text, (int) xml_schema_size);
    if (pctxt == NULL) {
        ctx_fail_line(&c, CLINK_ERR_NOMEM, 0, "cannot create the schema parser");
        free(s);
        return NULL;
    }
    xmlSchemaSetParserStructuredErrors(pctxt, on_schema_error, &c);
    s->schema = xmlSchemaParse(pctxt);
    xmlSchemaFreeParserCtxt(pctxt);
    if (s->schema == NULL || c.failed) {
        ctx_fail_line(&c, CLINK_ERR_INTERNAL, 0, "the embedded schema does not compile");
        if (s->schema != NULL)
            xmlSchemaFree(s->schema);
        free(s);
        return NULL;
    }
    return s;
}

void xml_schema_destroy(xml_schema **schema)
{
    if (schema == NULL || *schema == NULL)
        return;
    xmlSchemaFree((*schema)->schema);
    free(*schema);
    *schema = NULL;
}

/* ---- attributes -------------------------------------------------------------- */

static int is_elem(const xmlNode *n, const char *name)
{
    return n != NULL && n->type == XML_ELEMENT_NODE &&
           (name == NULL || xmlStrEqual(n->name, BAD_CAST name));
}

static const char *elem_name(const xmlNode *n)
{
    return (const char *) n->name;
}

/* "body 'rod'" for an element with a name, "<settings>" otherwise */
static const char *elem_desc(const xmlNode *n, char *buf, size_t size)
{
    xmlChar *v = NULL;

    if (xmlHasNsProp(n, BAD_CAST "name", NULL) != NULL && !is_elem(n, "law"))
        v = xmlGetNoNsProp(n, BAD_CAST "name");
    if (v != NULL)
        snprintf(buf, size, "%s '%.63s'", elem_name(n), (const char *) v);
    else
        snprintf(buf, size, "<%s>", elem_name(n));
    xmlFree(v);
    return buf;
}

/* first child element called name, or NULL */
static xmlNode *child(const xmlNode *n, const char *name)
{
    xmlNode *k;

    for (k = n->children; k != NULL; k = k->next)
        if (is_elem(k, name))
            return k;
    return NULL;
}

static int count_children(const xmlNode *n)
{
    int count = 0;
    const xmlNode *k;

    for (k = n != NULL ? n->children : NULL; k != NULL; k = k->next)
        if (is_elem(k, NULL))
            count++;
    return count;
}

/* the attribute's value (caller xmlFree()s it), NULL if absent */
static xmlChar *attr_get(xml_ctx *c, const xmlNode *n, const char *key)
{
    xmlChar *v;

    if (xmlHasNsProp(n, BAD_CAST key, NULL) == NULL)
        return NULL;
    v = xmlGetNoNsProp(n, BAD_CAST key);
    if (v == NULL)
        ctx_fail_line(c, CLINK_ERR_NOMEM, node_line(n), "out of memory reading '%s'", key);
    return v;
}

/* a name-valued attribute; returns 1 if present, 0 if absent (buf untouched) */
static int attr_name(xml_ctx *c, const xmlNode *n, const char *key, char *buf)
{
    xmlChar *v = attr_get(c, n, key);
    size_t len;

    if (v == NULL)
        return 0;
    len = strlen((const char *) v);
    if (len == 0 || len >= XML_NAME_MAX) {
        ctx_fail_line(c, CLINK_ERR_PARSE, node_line(n),
                      "<%s>: %s must be a name of 1 to %d characters", elem_name(n), key,
                      XML_NAME_MAX - 1);
        xmlFree(v);
        return 0;
    }
    memcpy(buf, v, len + 1);
    xmlFree(v);
    return 1;
}

/* parses up to max numbers separated by blanks; returns the count, -1 if malformed */
static int parse_numbers(const char *s, double *out, int max)
{
    int count = 0;
    char *end;

    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            s++;
        if (*s == '\0')
            return count;
        if (count == max)
            return -1;
        errno = 0;
        out[count] = strtod(s, &end);
        if (end == s)
            return -1;
        count++;
        s = end;
        if (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return -1;
    }
}

/*
 * A list of 1..max finite numbers; returns the count (0 if absent, def used for
 * each of the max entries when def != NULL). scale multiplies each number.
 */
static int attr_numbers(xml_ctx *c, const xmlNode *n, const char *key, double *out, int min,
                        int max, double scale)
{
    xmlChar *v = attr_get(c, n, key);
    int count, i;
    char w[96];

    if (v == NULL)
        return 0;
    elem_desc(n, w, sizeof w);
    count = parse_numbers((const char *) v, out, max);
    if (count < min) {
        if (min == max)
            ctx_fail_line(c, CLINK_ERR_PARSE, node_line(n), "%s: %s = '%.40s' must be %d number%s",
                          w, key, (const char *) v, min, min > 1 ? "s" : "");
        else
            ctx_fail_line(c, CLINK_ERR_PARSE, node_line(n),
                          "%s: %s = '%.40s' must be %d to %d numbers", w, key, (const char *) v,
                          min, max);
        xmlFree(v);
        return 0;
    }
    for (i = 0; i < count; i++) {
        if (!isfinite(out[i])) {
            ctx_fail_line(c, CLINK_ERR_NONFINITE, node_line(n),
                          "%s: %s = '%.40s' is not finite (NaN or infinity)", w, key,
                          (const char *) v);
            xmlFree(v);
            return 0;
        }
        out[i] *= scale;
    }
    xmlFree(v);
    return count;
}

/* one finite number; returns 1 if present, else sets *out = def and returns 0 */
static int attr_num(xml_ctx *c, const xmlNode *n, const char *key, double def, double scale,
                    double *out)
{
    double v;

    if (attr_numbers(c, n, key, &v, 1, 1, scale) == 1) {
        *out = v;
        return 1;
    }
    *out = def;
    return 0;
}

static void attr_vec2(xml_ctx *c, const xmlNode *n, const char *key, double x, double y,
                      double *out)
{
    if (attr_numbers(c, n, key, out, 2, 2, 1.0) != 2) {
        out[0] = x;
        out[1] = y;
    }
}

/* a required attribute (the schema already demands it; this guards the reader) */
static double attr_req(xml_ctx *c, const xmlNode *n, const char *key, double scale)
{
    double v = NAN;

    if (!attr_num(c, n, key, NAN, scale, &v))
        ctx_fail_line(c, CLINK_ERR_PARSE, node_line(n), "<%s>: %s is required", elem_name(n), key);
    return v;
}

/* one of the listed keywords; returns its index, def if absent */
static int attr_enum(xml_ctx *c, const xmlNode *n, const char *key, const char *const *words,
                     int def)
{
    xmlChar *v = attr_get(c, n, key);
    int i;

    if (v == NULL)
        return def;
    for (i = 0; words[i] != NULL; i++)
        if (strcmp((const char *) v, words[i]) == 0) {
            xmlFree(v);
            return i;
        }
    ctx_fail_line(c, CLINK_ERR_PARSE, node_line(n), "<%s>: %s = '%.40s' is not a valid keyword",
                  elem_name(n), key, (const char *) v);
    xmlFree(v);
    return def;
}

/* ---- range checks ---------------------------------------------------------- */

/* value must be > lo (strict) or >= lo */
static void need_min(xml_ctx *c, const xmlNode *n, const char *what, const char *key, double v,
                     double lo, int strict, const char *unit)
{
    if (c->failed || isnan(v))
        return;
    if (strict ? !(v > lo) : !(v >= lo))
        ctx_fail_line(c, CLINK_ERR_RANGE, node_line(n),
                      "%s: %s = %g%s%s is out of range (must be %s %g)", what, key, v,
                      unit[0] ? " " : "", unit, strict ? ">" : ">=", lo);
}

/* lo <= v < hi or lo < v <= hi as given by the flags */
static void need_range(xml_ctx *c, const xmlNode *n, const char *what, const char *key, double v,
                       double lo, int lo_strict, double hi, int hi_strict, const char *unit)
{
    int ok;

    if (c->failed || isnan(v))
        return;
    ok = (lo_strict ? v > lo : v >= lo) && (hi_strict ? v < hi : v <= hi);
    if (!ok)
        ctx_fail_line(c, CLINK_ERR_RANGE, node_line(n),
                      "%s: %s = %g%s%s is out of range (must be in %s%g, %g%s)", what, key, v,
                      unit[0] ? " " : "", unit, lo_strict ? "(" : "[", lo, hi,
                      hi_strict ? ")" : "]");
}

/* ---- names ----------------------------------------------------------------- */

typedef struct name_ref {
    const char *name;
    int index;
    int line;
} name_ref;

static int name_ref_cmp(const void *a, const void *b)
{
    const name_ref *x = a, *y = b;
    int d = strcmp(x->name, y->name);

    if (d != 0)
        return d;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* a sorted index of count names taken every stride bytes from base */
typedef struct name_index {
    name_ref *refs;
    int count;
} name_index;

static void index_free(name_index *ix);

static int index_build(xml_ctx *c, name_index *ix, const char *kind, const void *base,
                       size_t stride, size_t line_offset, int count)
{
    int i;

    ix->count = count;
    ix->refs = NULL;
    if (count == 0)
        return 0;
    ix->refs = malloc((size_t) count * sizeof *ix->refs);
    if (ix->refs == NULL) {
        ctx_fail_line(c, CLINK_ERR_NOMEM, 0, "out of memory");
        return -1;
    }
    for (i = 0; i < count; i++) {
        const char *p = (const char *) base + (size_t) i * stride;
        ix->refs[i].name = p; /* the name is the first member of every entity */
        ix->refs[i].index = i;
        memcpy(&ix->refs[i].line, p + line_offset, sizeof(int));
    }
    qsort(ix->refs, (size_t) count, sizeof *ix->refs, name_ref_cmp);
    for (i = 1; i < count; i++)
        if (strcmp(ix->refs[i].name, ix->refs[i - 1].name) == 0) {
            const name_ref *first = &ix->refs[i - 1], *second = &ix->refs[i];
            ctx_fail_line(c, CLINK_ERR_MODEL, second->line,
                          "duplicate %s name '%s' (first defined on line %d)", kind, second->name,
                          first->line);
            index_free(ix);
            return -1;
        }
    return 0;
}

static int index_find(const name_index *ix, const char *name)
{
    int lo = 0, hi = ix->count - 1;

    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int d = strcmp(name, ix->refs[mid].name);
        if (d == 0)
            return ix->refs[mid].index;
        if (d < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

static void index_free(name_index *ix)
{
    free(ix->refs);
    ix->refs = NULL;
    ix->count = 0;
}

/* the reading state: the load, the description and its name indexes */
typedef struct reader {
    xml_ctx *c;
    xml_desc *d;
    name_index materials, bodies, joints;
} reader;

/* the index of the body named by attribute key (required), -1 after an error */
static int ref_body(reader *r, const xmlNode *n, const char *key, const char *what)
{
    char name[XML_NAME_MAX];
    int i;

    if (!attr_name(r->c, n, key, name)) {
        ctx_fail_line(r->c, CLINK_ERR_PARSE, node_line(n), "%s: %s is required", what, key);
        return -1;
    }
    i = index_find(&r->bodies, name);
    if (i < 0)
        ctx_fail_line(r->c, CLINK_ERR_NOT_FOUND, node_line(n),
                      "%s: %s = '%s' is not a body of this file (bodies: see <bodies>)", what, key,
                      name);
    return i;
}

/* the index of the material named by attribute key, -1 if absent or unknown (error) */
static int ref_material(reader *r, const xmlNode *n, const char *key, const char *what)
{
    char name[XML_NAME_MAX];
    int i;

    if (!attr_name(r->c, n, key, name))
        return -1;
    i = index_find(&r->materials, name);
    if (i < 0)
        ctx_fail_line(r->c, CLINK_ERR_NOT_FOUND, node_line(n),
                      "%s: %s = '%s' is not a material of this file", what, key, name);
    return i;
}

/* what = "<kind> 'name'" for messages */
static void describe(char *buf, size_t size, const char *kind, const char *name)
{
    snprintf(buf, size, "%s '%s'", kind, name);
}

/* ---- sections ---------------------------------------------------------------- */

static void read_settings(reader *r, const xmlNode *n)
{
    static const char *const methods[] = {"bdf", "adams", NULL};
    static const char *const drifts[] = {"projection", "baumgarte", "none", NULL};
    xml_settings *s = &r->d->settings;
    xml_ctx *c = r->c;
    const char *w = "<settings>";

    s->line = (int) node_line(n);

    s->has_t_end = attr_num(c, n, "t_end", 0, 1, &s->t_end);
    s->has_output_step = attr_num(c, n, "output_step", 0, 1, &s->output_step);
    s->has_rtol = attr_num(c, n, "rtol", 0, 1, &s->rtol);
    s->has_atol = attr_num(c, n, "atol", 0, 1, &s->atol);
    s->has_max_step = attr_num(c, n, "max_step", 0, 1, &s->max_step);
    s->has_alpha = attr_num(c, n, "baumgarte_alpha", 0, 1, &s->alpha);
    s->has_beta = attr_num(c, n, "baumgarte_beta", 0, 1, &s->beta);
    s->has_settle = attr_num(c, n, "settle_speed", 0, 1, &s->settle_speed);
    s->has_method = xmlHasNsProp(n, BAD_CAST "method", NULL) != NULL;
    s->method = (xml_method) attr_enum(c, n, "method", methods, 0);
    s->has_drift = xmlHasNsProp(n, BAD_CAST "drift", NULL) != NULL;
    s->drift = (xml_drift) attr_enum(c, n, "drift", drifts, 0);
    if (s->has_t_end)
        need_min(c, n, w, "t_end", s->t_end, 0, 1, "s");
    if (s->has_output_step)
        need_min(c, n, w, "output_step", s->output_step, 0, 1, "s");
    if (s->has_t_end && s->has_output_step && !c->failed && s->output_step > s->t_end)
        ctx_fail_line(c, CLINK_ERR_RANGE, node_line(n),
                      "<settings>: output_step = %g s is larger than t_end = %g s", s->output_step,
                      s->t_end);
    if (s->has_rtol)
        need_range(c, n, w, "rtol", s->rtol, 0, 1, 1, 1, "");
    if (s->has_atol)
        need_min(c, n, w, "atol", s->atol, 0, 1, "");
    if (s->has_max_step)
        need_min(c, n, w, "max_step", s->max_step, 0, 0, "s");
    if (s->has_alpha)
        need_min(c, n, w, "baumgarte_alpha", s->alpha, 0, 0, "1/s");
    if (s->has_beta)
        need_min(c, n, w, "baumgarte_beta", s->beta, 0, 0, "1/s");
    if (s->has_settle)
        need_min(c, n, w, "settle_speed", s->settle_speed, 0, 1, "m/s");
    if (!c->failed && s->method == XML_METHOD_ADAMS && s->drift == XML_DRIFT_PROJECTION)
        ctx_fail_line(c, CLINK_ERR_MODEL, node_line(n),
                      "<settings>: method 'adams' needs drift 'baumgarte' or 'none' (projection "
                      "works with BDF only on SUNDIALS 6.4)");
    if (!c->failed && (s->has_alpha || s->has_beta) && s->drift != XML_DRIFT_BAUMGARTE)
        ctx_fail_line(c, CLINK_ERR_MODEL, node_line(n),
                      "<settings>: baumgarte_alpha/beta are given but drift is not 'baumgarte'");
}

static void read_materials(reader *r, const xmlNode *sec)
{
    xml_desc *d = r->d;
    xmlNode *k;
    char w[96];

    d->materials = calloc((size_t) count_children(sec) + 1, sizeof *d->materials);
    if (d->materials == NULL) {
        ctx_fail_line(r->c, CLINK_ERR_NOMEM, 0, "out of memory");
        return;
    }
    for (k = sec->children; k != NULL && !r->c->failed; k = k->next) {
        xml_material *m;
        if (!is_elem(k, "material"))
            continue;
        m = &d->materials[d->n_materials++];
        m->line = (int) node_line(k);
        attr_name(r->c, k, "name", m->name);
        describe(w, sizeof w, "material", m->name);
        m->E = attr_req(r->c, k, "E", 1);
        m->nu = attr_req(r->c, k, "nu", 1);
        attr_num(r->c, k, "density", NAN, 1, &m->density);
        attr_num(r->c, k, "yield", NAN, 1, &m->yield);
        need_min(r->c, k, w, "E", m->E, 0, 1, "Pa");
        need_range(r->c, k, w, "nu", m->nu, 0, 0, 0.5, 1, "");
        need_min(r->c, k, w, "density", m->density, 0, 1, "kg/m^3");
        need_min(r->c, k, w, "yield", m->yield, 0, 1, "Pa");
    }
    if (!r->c->failed)
        index_build(r->c, &r->materials, "material", d->materials, sizeof *d->materials,
                    offsetof(xml_material, line), d->n_materials);
}

static void read_bodies(reader *r, const xmlNode *sec)
{
    xml_desc *d = r->d;
    xml_ctx *c = r->c;
    xmlNode *k;
    char w[96];

    d->bodies = calloc((size_t) count_children(sec) + 1, sizeof *d->bodies);
    if (d->bodies == NULL) {
        ctx_fail_line(c, CLINK_ERR_NOMEM, 0, "out of memory");
        return;
    }
    /* the ground is body 0, named "ground" */
    strcpy(d->bodies[0].name, "ground");
    d->bodies[0].line = (int) node_line(sec);
    d->bodies[0].material = -1;
    d->n_bodies = 1;
    k = child(sec, "ground");
    if (k != NULL) {
        d->bodies[0].line = (int) node_line(k);
        d->bodies[0].material = ref_material(r, k, "material", "<ground>");
    }
    for (k = sec->children; k != NULL && !c->failed; k = k->next) {
        xml_body *b;
        if (!is_elem(k, "body"))
            continue;
        b = &d->bodies[d->n_bodies++];
        b->line = (int) node_line(k);
        attr_name(c, k, "name", b->name);
        describe(w, sizeof w, "body", b->name);
        b->mass = attr_req(c, k, "mass", 1);
        b->inertia = attr_req(c, k, "inertia", 1);
        attr_num(c, k, "x", 0, 1, &b->x);
        attr_num(c, k, "y", 0, 1, &b->y);
        attr_num(c, k, "phi", 0, c->angle_scale, &b->phi);
        attr_num(c, k, "vx", 0, 1, &b->vx);
        attr_num(c, k, "vy", 0, 1, &b->vy);
        attr_num(c, k, "omega", 0, c->angle_scale, &b->omega);
        b->material = ref_material(r, k, "material", w);
        need_min(c, k, w, "mass", b->mass, 0, 1, "kg");
        need_min(c, k, w, "inertia", b->inertia, 0, 1, "kg m^2");
    }
    if (!c->failed)
        index_build(c, &r->bodies, "body", d->bodies, sizeof *d->bodies, offsetof(xml_body, line),
                    d->n_bodies);
}

static void read_law(reader *r, const xmlNode *n, xml_law *law, const char *what)
{
    static const char *const treatments[] = {"continuous", "impulse", NULL};
    xml_ctx *c = r->c;

    law->line = (int) node_line(n);
    if (!attr_name(c, n, "name", law->name))
        ctx_fail_line(c, CLINK_ERR_PARSE, node_line(n), "%s: <law> needs a name", what);
    else if (clink_law_find(law->name) == NULL)
        ctx_fail_line(c, CLINK_ERR_NOT_FOUND, node_line(n),
                      "%s: unknown contact law '%s' (`clink laws` lists them)", what, law->name);
    attr_num(c, n, "K", NAN, 1, &law->K);
    attr_num(c, n, "n", NAN, 1, &law->n);
    attr_num(c, n, "e", NAN, 1, &law->e);
    attr_num(c, n, "chi", NAN, 1, &law->chi);
    attr_num(c, n, "c", NAN, 1, &law->c);
    attr_num(c, n, "alpha", NAN, 1, &law->alpha);
    attr_num(c, n, "v_ref", NAN, 1, &law->v_ref);
    attr_num(c, n, "Y", NAN, 1, &law->Y);
    attr_num(c, n, "psi", NAN, 1, &law->psi);
    attr_num(c, n, "xi", NAN, 1, &law->xi);
    law->impulse = attr_enum(c, n, "treatment", treatments, 0);
    need_min(c, n, what, "K", law->K, 0, 1, "N/m^n");
    need_min(c, n, what, "n", law->n, 1, 0, "");
    need_range(c, n, what, "e", law->e, 0, 1, 1, 0, "");
    need_min(c, n, what, "chi", law->chi, 0, 0, "N s/m^(m+1)");
    need_min(c, n, what, "c", law->c, 0, 0, "N s/m");
    need_min(c, n, what, "alpha", law->alpha, 0, 0, "");
    need_min(c, n, what, "v_ref", law->v_ref, 0, 1, "m/s");
    need_min(c, n, what, "Y", law->Y, 0, 1, "Pa");
    need_min(c, n, what, "psi", law->psi, 0, 1, "");
    need_min(c, n, what, "xi", law->xi, 0, 1, "");
}

static void read_friction(reader *r, const xmlNode *n, xml_friction *f, const char *what)
{
    static const char *const kinds[] = {"none", "coulomb", NULL};
    xml_ctx *c = r->c;

    f->kind = XML_FRICTION_NONE;
    f->mu = f->v0 = f->v1 = NAN;
    if (n == NULL)
        return;
    f->line = (int) node_line(n);
    f->kind = (xml_friction_kind) attr_enum(c, n, "type", kinds, 0);
    attr_num(c, n, "mu", NAN, 1, &f->mu);
    attr_num(c, n, "v0", NAN, 1, &f->v0);
    attr_num(c, n, "v1", NAN, 1, &f->v1);
    if (f->kind == XML_FRICTION_COULOMB && !c->failed) {
        if (isnan(f->mu) || isnan(f->v0) || isnan(f->v1))
            ctx_fail_line(c, CLINK_ERR_MODEL, node_line(n),
                          "%s: coulomb friction needs mu, v0 and v1", what);
        need_min(c, n, what, "mu", f->mu, 0, 0, "");
        need_min(c, n, what, "v0", f->v0, 0, 1, "m/s");
        if (!c->failed && !(f->v1 > f->v0))
            ctx_fail_line(c, CLINK_ERR_RANGE, node_line(n),
                          "%s: friction v1 = %g m/s must be larger than v0 = %g m/s", what, f->v1,
                          f->v0);
    }
}

static void read_clearance(reader *r, const xmlNode *k, xml_joint *j, const char *w)
{
    xml_ctx *c = r->c;
    double rj, rb, cl;
    int has_j, has_b, has_c;
    const xmlNode *law;

    j->body1 = ref_body(r, k, "journal", w);
    j->body2 = ref_body(r, k, "bearing", w);
    attr_vec2(c, k, "journal_point", 0, 0, j->p1);
    attr_vec2(c, k, "bearing_point", 0, 0, j->p2);
    has_j = attr_num(c, k, "journal_radius", NAN, 1, &rj);
    has_b = attr_num(c, k, "bearing_radius", NAN, 1, &rb);
    has_c = attr_num(c, k, "clearance", NAN, 1, &cl);
    j->mat1 = ref_material(r, k, "journal_material", w);
    j->mat2 = ref_material(r, k, "bearing_material", w);
    if (c->failed)
        return;
    if (has_j + has_b + has_c < 2) {
        ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k),
                      "%s: give two of journal_radius, bearing_radius and clearance", w);
        return;
    }
    need_min(c, k, w, "journal_radius", rj, 0, 1, "m");
    need_min(c, k, w, "bearing_radius", rb, 0, 1, "m");
    need_min(c, k, w, "clearance", cl, 0, 1, "m");
    if (c->failed)
        return;
    if (!has_j) {
        rj = rb - cl;
        if (!(rj > 0))
            ctx_fail_line(c, CLINK_ERR_RANGE, node_line(k),
                          "%s: clearance = %g m is not smaller than bearing_radius = %g m", w, cl,
                          rb);
    } else if (!has_b) {
        rb = rj + cl;
    } else {
        if (!(rb > rj))
            ctx_fail_line(c, CLINK_ERR_RANGE, node_line(k),
                          "%s: bearing_radius = %g m must be larger than journal_radius = %g m", w,
                          rb, rj);
        else if (has_c && fabs((rb - rj) - cl) > 1e-9 * rb)
            ctx_fail_line(c, CLINK_ERR_RANGE, node_line(k),
                          "%s: clearance = %g m disagrees with bearing_radius - journal_radius "
                          "= %g m",
                          w, cl, rb - rj);
    }
    j->r_journal = rj;
    j->r_bearing = rb;
    law = child(k, "law");
    if (law == NULL)
        ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k), "%s: a <law> is required", w);
    else
        read_law(r, law, &j->law, w);
    read_friction(r, child(k, "friction"), &j->friction, w);
}

static void read_joints(reader *r, const xmlNode *sec)
{
    xml_desc *d = r->d;
    xml_ctx *c = r->c;
    xmlNode *k;
    char w[96];

    d->joints = calloc((size_t) count_children(sec) + 1, sizeof *d->joints);
    if (d->joints == NULL) {
        ctx_fail_line(c, CLINK_ERR_NOMEM, 0, "out of memory");
        return;
    }
    for (k = sec != NULL ? sec->children : NULL; k != NULL && !c->failed; k = k->next) {
        xml_joint *j;
        if (!is_elem(k, NULL))
            continue;
        j = &d->joints[d->n_joints++];
        j->line = (int) node_line(k);
        j->mat1 = j->mat2 = -1;
        attr_name(c, k, "name", j->name);
        if (is_elem(k, "revolute_clearance")) {
            j->kind = XML_JOINT_CLEARANCE;
            describe(w, sizeof w, "clearance joint", j->name);
            read_clearance(r, k, j, w);
        } else {
            if (is_elem(k, "revolute"))
                j->kind = XML_JOINT_REVOLUTE;
            else if (is_elem(k, "translational"))
                j->kind = XML_JOINT_TRANSLATIONAL;
            else if (is_elem(k, "weld"))
                j->kind = XML_JOINT_WELD;
            else {
                ctx_fail_line(c, CLINK_ERR_PARSE, node_line(k), "unknown joint <%s>", elem_name(k));
                break;
            }
            describe(w, sizeof w, "joint", j->name);
            j->body1 = ref_body(r, k, "body1", w);
            j->body2 = ref_body(r, k, "body2", w);
            attr_vec2(c, k, "point1", 0, 0, j->p1);
            attr_vec2(c, k, "point2", 0, 0, j->p2);
            if (!c->failed && j->kind != XML_JOINT_REVOLUTE &&
                !attr_num(c, k, "angle", 0, c->angle_scale, &j->angle))
                j->angle = d->bodies[j->body2].phi - d->bodies[j->body1].phi;
            if (j->kind == XML_JOINT_TRANSLATIONAL) {
                double len;
                attr_vec2(c, k, "axis", NAN, NAN, j->axis);
                len = hypot(j->axis[0], j->axis[1]);
                if (!c->failed && !(len > 1e-12)) {
                    ctx_fail_line(c, CLINK_ERR_RANGE, node_line(k),
                                  "%s: axis must be a non-zero vector", w);
                } else if (!c->failed) {
                    j->axis[0] /= len;
                    j->axis[1] /= len;
                }
            }
        }
        if (!c->failed && j->body1 == j->body2)
            ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k), "%s connects body '%s' to itself", w,
                          d->bodies[j->body1].name);
    }
    if (!c->failed)
        index_build(c, &r->joints, "joint", d->joints, sizeof *d->joints, offsetof(xml_joint, line),
                    d->n_joints);
}

static void read_drivers(reader *r, const xmlNode *sec)
{
    static const char *const kinds[] = {"position", "angle", "coordinate", NULL};
    static const char *const coords[] = {"x", "y", "phi", NULL};
    xml_desc *d = r->d;
    xml_ctx *c = r->c;
    xmlNode *k;
    char w[96], jname[XML_NAME_MAX];
    name_index ix;

    d->drivers = calloc((size_t) count_children(sec) + 1, sizeof *d->drivers);
    if (d->drivers == NULL) {
        ctx_fail_line(c, CLINK_ERR_NOMEM, 0, "out of memory");
        return;
    }
    for (k = sec->children; k != NULL && !c->failed; k = k->next) {
        xml_driver *v;
        const xmlNode *f;
        double s;
        int ji, angular;
        if (!is_elem(k, "driver"))
            continue;
        v = &d->drivers[d->n_drivers++];
        v->line = (int) node_line(k);
        attr_name(c, k, "name", v->name);
        describe(w, sizeof w, "driver", v->name);
        v->kind = (xml_driver_kind) attr_enum(c, k, "type", kinds, 0);
        v->joint = -1;
        v->body = -1;
        if (c->failed)
            break;
        if (v->kind == XML_DRIVE_COORDINATE) {
            if (xmlHasNsProp(k, BAD_CAST "joint", NULL) != NULL) {
                ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k),
                              "%s: a coordinate driver takes body and coordinate, not joint", w);
                break;
            }
            if (xmlHasNsProp(k, BAD_CAST "coordinate", NULL) == NULL) {
                ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k),
                              "%s: a coordinate driver needs coordinate=\"x\", \"y\" or \"phi\"",
                              w);
                break;
            }
            v->body = ref_body(r, k, "body", w);
            v->coordinate = attr_enum(c, k, "coordinate", coords, 2);
            if (!c->failed && v->body == 0)
                ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k),
                              "%s drives the ground, which does not move", w);
        } else {
            if (xmlHasNsProp(k, BAD_CAST "body", NULL) != NULL ||
                xmlHasNsProp(k, BAD_CAST "coordinate", NULL) != NULL) {
                ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k),
                              "%s: body and coordinate belong to type=\"coordinate\" drivers", w);
                break;
            }
            if (!attr_name(c, k, "joint", jname)) {
                ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k), "%s: joint is required", w);
                break;
            }
            ji = index_find(&r->joints, jname);
            if (ji < 0) {
                ctx_fail_line(c, CLINK_ERR_NOT_FOUND, node_line(k),
                              "%s: joint = '%s' is not a joint of this file", w, jname);
                break;
            }
            v->joint = ji;
            if (v->kind == XML_DRIVE_ANGLE && d->joints[ji].kind != XML_JOINT_REVOLUTE)
                ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k),
                              "%s: an angle driver needs a revolute joint; '%s' is not one", w,
                              jname);
            if (v->kind == XML_DRIVE_POSITION && d->joints[ji].kind != XML_JOINT_TRANSLATIONAL)
                ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k),
                              "%s: a position driver needs a translational joint; '%s' is not one",
                              w, jname);
        }
        if (c->failed)
            break;
        /* the schema guarantees exactly one function element */
        for (f = k->children; f != NULL && !is_elem(f, NULL); f = f->next)
            ;
        if (f == NULL) {
            ctx_fail_line(c, CLINK_ERR_PARSE, node_line(k), "%s: a function is required", w);
            break;
        }
        angular =
            v->kind == XML_DRIVE_ANGLE || (v->kind == XML_DRIVE_COORDINATE && v->coordinate == 2);
        s = angular ? c->angle_scale : 1.0;
        if (is_elem(f, "constant")) {
            v->func = XML_FUNC_CONSTANT;
            v->c[0] = attr_req(c, f, "value", s);
            v->ncoef = 1;
        } else if (is_elem(f, "linear")) {
            v->func = XML_FUNC_LINEAR;
            attr_num(c, f, "initial", 0, s, &v->c[0]);
            v->c[1] = attr_req(c, f, "rate", s);
            v->ncoef = 2;
        } else if (is_elem(f, "polynomial")) {
            v->func = XML_FUNC_POLYNOMIAL;
            v->ncoef = attr_numbers(c, f, "coefficients", v->c, 1, XML_COEF_MAX, s);
        } else if (is_elem(f, "harmonic")) {
            v->func = XML_FUNC_HARMONIC;
            attr_num(c, f, "offset", 0, s, &v->c[0]);
            v->c[1] = attr_req(c, f, "amplitude", s);
            v->c[2] = attr_req(c, f, "frequency", 1);
            attr_num(c, f, "phase", 0, 1, &v->c[3]);
            v->ncoef = 4;
            need_min(c, f, w, "frequency", v->c[2], 0, 0, "rad/s");
        } else {
            ctx_fail_line(c, CLINK_ERR_PARSE, node_line(f), "%s: unknown function <%s>", w,
                          elem_name(f));
        }
    }
    if (!c->failed && index_build(c, &ix, "driver", d->drivers, sizeof *d->drivers,
                                  offsetof(xml_driver, line), d->n_drivers) == 0)
        index_free(&ix);
}

static void read_loads(reader *r, const xmlNode *sec)
{
    xml_desc *d = r->d;
    xml_ctx *c = r->c;
    xmlNode *k;
    char w[96];
    name_index ix;

    d->loads = calloc((size_t) count_children(sec) + 1, sizeof *d->loads);
    if (d->loads == NULL) {
        ctx_fail_line(c, CLINK_ERR_NOMEM, 0, "out of memory");
        return;
    }
    for (k = sec->children; k != NULL && !c->failed; k = k->next) {
        xml_load *l;
        if (!is_elem(k, NULL))
            continue;
        l = &d->loads[d->n_loads++];
        l->line = (int) node_line(k);
        attr_name(c, k, "name", l->name);
        describe(w, sizeof w, "load", l->name);
        l->body2 = -1;
        if (is_elem(k, "force")) {
            l->kind = XML_LOAD_FORCE;
            l->body1 = ref_body(r, k, "body", w);
            attr_vec2(c, k, "point", 0, 0, l->p1);
            attr_vec2(c, k, "value", NAN, NAN, l->value);
        } else if (is_elem(k, "torque")) {
            l->kind = XML_LOAD_TORQUE;
            l->body1 = ref_body(r, k, "body", w);
            l->value[0] = attr_req(c, k, "value", 1);
        } else if (is_elem(k, "spring_damper") || is_elem(k, "rotational_spring_damper")) {
            int rot = is_elem(k, "rotational_spring_damper");
            l->kind = rot ? XML_LOAD_ROT_SPRING : XML_LOAD_SPRING;
            l->body1 = ref_body(r, k, "body1", w);
            l->body2 = ref_body(r, k, "body2", w);
            attr_num(c, k, "stiffness", 0, 1, &l->stiffness);
            attr_num(c, k, "damping", 0, 1, &l->damping);
            attr_num(c, k, "actuator", 0, 1, &l->actuator);
            if (rot) {
                attr_num(c, k, "angle", 0, c->angle_scale, &l->length);
            } else {
                attr_vec2(c, k, "point1", 0, 0, l->p1);
                attr_vec2(c, k, "point2", 0, 0, l->p2);
                attr_num(c, k, "length", 0, 1, &l->length);
                need_min(c, k, w, "length", l->length, 0, 0, "m");
            }
            need_min(c, k, w, "stiffness", l->stiffness, 0, 0, rot ? "N m/rad" : "N/m");
            need_min(c, k, w, "damping", l->damping, 0, 0, rot ? "N m s/rad" : "N s/m");
            if (!c->failed && l->body1 == l->body2)
                ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k), "%s connects body '%s' to itself",
                              w, d->bodies[l->body1].name);
        } else {
            ctx_fail_line(c, CLINK_ERR_PARSE, node_line(k), "unknown load <%s>", elem_name(k));
        }
        if (!c->failed && l->body1 == 0 && l->kind != XML_LOAD_SPRING &&
            l->kind != XML_LOAD_ROT_SPRING)
            ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k),
                          "%s acts on the ground, which does not move", w);
    }
    if (!c->failed && index_build(c, &ix, "load", d->loads, sizeof *d->loads,
                                  offsetof(xml_load, line), d->n_loads) == 0)
        index_free(&ix);
}

static void read_shape(reader *r, const xmlNode *k, xml_shape *s, const char *w)
{
    xml_ctx *c = r->c;

    s->line = (int) node_line(k);
    s->body = ref_body(r, k, "body", w);
    s->material = ref_material(r, k, "material", w);
    s->radius = 0;
    if (is_elem(k, "circle")) {
        s->kind = CLINK_SHAPE_CIRCLE;
        attr_vec2(c, k, "center", 0, 0, s->a);
        s->radius = attr_req(c, k, "radius", 1);
        need_min(c, k, w, "radius", s->radius, 0, 1, "m");
    } else if (is_elem(k, "line")) {
        double len;
        s->kind = CLINK_SHAPE_LINE;
        attr_vec2(c, k, "point", 0, 0, s->a);
        attr_vec2(c, k, "normal", NAN, NAN, s->b);
        len = hypot(s->b[0], s->b[1]);
        if (!c->failed && !(len > 1e-12))
            ctx_fail_line(c, CLINK_ERR_RANGE, node_line(k),
                          "%s: the line's normal must be a non-zero vector", w);
        else if (!c->failed) {
            s->b[0] /= len;
            s->b[1] /= len;
        }
    } else if (is_elem(k, "capsule")) {
        s->kind = CLINK_SHAPE_CAPSULE;
        attr_vec2(c, k, "point1", NAN, NAN, s->a);
        attr_vec2(c, k, "point2", NAN, NAN, s->b);
        s->radius = attr_req(c, k, "radius", 1);
        need_min(c, k, w, "radius", s->radius, 0, 1, "m");
        if (!c->failed && !(hypot(s->b[0] - s->a[0], s->b[1] - s->a[1]) > 0))
            ctx_fail_line(c, CLINK_ERR_RANGE, node_line(k),
                          "%s: the capsule's point1 and point2 coincide (use a circle)", w);
    } else {
        ctx_fail_line(c, CLINK_ERR_PARSE, node_line(k), "%s: unknown shape <%s>", w, elem_name(k));
    }
}

static void read_contacts(reader *r, const xmlNode *sec)
{
    xml_desc *d = r->d;
    xml_ctx *c = r->c;
    xmlNode *k, *s;
    char w[96];
    name_index ix;

    d->pairs = calloc((size_t) count_children(sec) + 1, sizeof *d->pairs);
    if (d->pairs == NULL) {
        ctx_fail_line(c, CLINK_ERR_NOMEM, 0, "out of memory");
        return;
    }
    for (k = sec->children; k != NULL && !c->failed; k = k->next) {
        xml_pair *p;
        int ns = 0;
        if (!is_elem(k, "pair"))
            continue;
        p = &d->pairs[d->n_pairs++];
        p->line = (int) node_line(k);
        attr_name(c, k, "name", p->name);
        describe(w, sizeof w, "contact pair", p->name);
        p->law.line = 0;
        read_friction(r, NULL, &p->friction, w);
        for (s = k->children; s != NULL && !c->failed; s = s->next) {
            if (is_elem(s, "law"))
                read_law(r, s, &p->law, w);
            else if (is_elem(s, "friction"))
                read_friction(r, s, &p->friction, w);
            else if (is_elem(s, NULL)) {
                if (ns == 2) {
                    ctx_fail_line(c, CLINK_ERR_PARSE, node_line(s), "%s: more than two shapes", w);
                    break;
                }
                read_shape(r, s, &p->shape[ns++], w);
            }
        }
        if (c->failed)
            break;
        if (ns != 2 || p->law.line == 0) {
            ctx_fail_line(c, CLINK_ERR_PARSE, node_line(k), "%s needs two shapes and a <law>", w);
            break;
        }
        if (p->shape[0].body == p->shape[1].body)
            ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k), "%s: both shapes are on body '%s'", w,
                          d->bodies[p->shape[0].body].name);
        else if (p->shape[0].kind == CLINK_SHAPE_LINE && p->shape[1].kind == CLINK_SHAPE_LINE)
            ctx_fail_line(c, CLINK_ERR_MODEL, node_line(k),
                          "%s: two lines are not a contact geometry (use a circle or capsule)", w);
    }
    if (!c->failed && index_build(c, &ix, "contact pair", d->pairs, sizeof *d->pairs,
                                  offsetof(xml_pair, line), d->n_pairs) == 0)
        index_free(&ix);
}

static void read_output(reader *r, const xmlNode *n)
{
    static const char *const booleans[] = {"false", "true", "0", "1", NULL};
    xml_desc *d = r->d;

    d->out_reactions = attr_enum(r->c, n, "reactions", booleans, 1) % 2;
    d->out_energies = attr_enum(r->c, n, "energies", booleans, 1) % 2;
    d->out_contacts = attr_enum(r->c, n, "contacts", booleans, 1) % 2;
}

/* the whole document, after the schema */
static void read_document(xml_ctx *c, const xmlNode *root, xml_desc *d)
{
    static const char *const units[] = {"rad", "deg", NULL};
    reader r;
    const xmlNode *n;

    memset(&r, 0, sizeof r);
    r.c = c;
    r.d = d;
    if (!is_elem(root, "mechanism")) {
        ctx_fail_line(c, CLINK_ERR_PARSE, node_line(root), "the root element must be <mechanism>");
        return;
    }
    attr_name(c, root, "name", d->name);
    d->angle_deg = attr_enum(c, root, "angle_unit", units, 0);
    c->angle_scale = d->angle_deg ? 3.14159265358979323846 / 180.0 : 1.0;
    d->out_reactions = d->out_energies = d->out_contacts = 1;

    if ((n = child(root, "settings")) != NULL)
        read_settings(&r, n);
    /* gravity: (0, -9.81) m/s^2 unless given, as in the model-building API */
    d->gravity[0] = 0.0;
    d->gravity[1] = -9.81;
    if (!c->failed && (n = child(root, "gravity")) != NULL)
        attr_vec2(c, n, "g", 0, -9.81, d->gravity);
    if (!c->failed && (n = child(root, "materials")) != NULL)
        read_materials(&r, n);
    if (!c->failed) {
        n = child(root, "bodies");
        if (n == NULL)
            ctx_fail_line(c, CLINK_ERR_PARSE, node_line(root), "<bodies> is required");
        else
            read_bodies(&r, n);
    }
    if (!c->failed)
        read_joints(&r, child(root, "joints"));
    if (!c->failed && (n = child(root, "drivers")) != NULL)
        read_drivers(&r, n);
    if (!c->failed && (n = child(root, "loads")) != NULL)
        read_loads(&r, n);
    if (!c->failed && (n = child(root, "contacts")) != NULL)
        read_contacts(&r, n);
    if (!c->failed && (n = child(root, "output")) != NULL)
        read_output(&r, n);
    index_free(&r.materials);
    index_free(&r.bodies);
    index_free(&r.joints);
}

/* ---- loading ----------------------------------------------------------------- */

/* "dir/pendulum.xml" -> "pendulum" */
static void file_stem(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    size_t len;

    base = base != NULL ? base + 1 : path;
    len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".xml") == 0)
        len -= 4;
    if (len >= size)
        len = size - 1;
    memcpy(out, base, len);
    out[len] = '\0';
}

clink_status xml_desc_read_memory(const char *data, size_t size, const char *name,
                                  const xml_schema *schema, xml_desc *desc, char *err,
                                  size_t err_size)
{
    xml_ctx c;
    xmlParserCtxtPtr ctxt = NULL;
    xmlDocPtr doc = NULL;
    xmlSchemaValidCtxtPtr vctxt = NULL;
    xml_schema *own = NULL;
    xmlNode *root;
    int rc;

    memset(&c, 0, sizeof c);
    c.name = name != NULL ? name : "(memory)";
    c.err = err;
    c.err_size = err_size;
    c.angle_scale = 1.0;
    if (err != NULL && err_size > 0)
        err[0] = '\0';
    if (desc == NULL || (data == NULL && size > 0)) {
        ctx_fail_line(&c, CLINK_ERR_ARG, 0, "invalid argument");
        return c.status;
    }
    memset(desc, 0, sizeof *desc);
    if (size > (size_t) XML_MAX_FILE) {
        ctx_fail_line(&c, CLINK_ERR_RANGE, 0, "the file is larger than %d bytes", XML_MAX_FILE);
        return c.status;
    }
    if (schema == NULL) {
        own = xml_schema_create(err, err_size);
        if (own == NULL)
            return CLINK_ERR_INTERNAL;
        schema = own;
    }
    xmlInitParser();

    /* one parser context for this load, with its own error handler */
    ctxt = xmlNewParserCtxt();
    if (ctxt == NULL || ctxt->sax == NULL) {
        ctx_fail_line(&c, CLINK_ERR_NOMEM, 0, "cannot create an XML parser");
        goto done;
    }
    ctxt->_private = &c;
    ctxt->sax->serror = on_parser_error;
    ctxt->sax->internalSubset = on_internal_subset;
    ctxt->sax->startElementNs = on_start_element;
    doc = xmlCtxtReadMemory(ctxt, size > 0 ? data : "", (int) size, c.name, "UTF-8",
                            XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_IGNORE_ENC);
    if (c.failed)
        goto done;
    if (doc == NULL || !ctxt->wellFormed) {
        ctx_fail_line(&c, CLINK_ERR_PARSE, 0, "not a well-formed XML document");
        goto done;
    }
    root = xmlDocGetRootElement(doc);
    if (root == NULL) {
        ctx_fail_line(&c, CLINK_ERR_PARSE, 0, "the document has no root element");
        goto done;
    }

    /* structure and lexical types against the schema */
    vctxt = xmlSchemaNewValidCtxt(schema->schema);
    if (vctxt == NULL) {
        ctx_fail_line(&c, CLINK_ERR_NOMEM, 0, "cannot create a schema validator");
        goto done;
    }
    xmlSchemaSetValidStructuredErrors(vctxt, on_schema_error, &c);
    rc = xmlSchemaValidateDoc(vctxt, doc);
    if (c.failed)
        goto done;
    if (rc != 0) {
        ctx_fail_line(&c, rc > 0 ? CLINK_ERR_MODEL : CLINK_ERR_INTERNAL, node_line(root),
                      "the document does not follow the clink schema");
        goto done;
    }

    /* meaning */
    read_document(&c, root, desc);
    if (!c.failed && desc->name[0] == '\0')
        file_stem(c.name, desc->name, sizeof desc->name);

done:
    if (vctxt != NULL)
        xmlSchemaFreeValidCtxt(vctxt);
    if (doc != NULL)
        xmlFreeDoc(doc);
    if (ctxt != NULL) {
        ctxt->_private = NULL;
        xmlFreeParserCtxt(ctxt);
    }
    xml_schema_destroy(&own);
    if (c.failed) {
        xml_desc_free(desc);
        return c.status;
    }
    return CLINK_OK;
}

clink_status xml_desc_read_file(const char *path, const xml_schema *schema, xml_desc *desc,
                                char *err, size_t err_size)
{
    FILE *f;
    char *buf = NULL;
    size_t size = 0, cap = 0;
    clink_status st;

    if (err != NULL && err_size > 0)
        err[0] = '\0';
    if (path == NULL || desc == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "invalid argument");
        return CLINK_ERR_ARG;
    }
    memset(desc, 0, sizeof *desc);
    f = fopen(path, "rb");
    if (f == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        return CLINK_ERR_IO;
    }
    for (;;) {
        size_t got;
        if (size == cap) {
            size_t ncap = cap == 0 ? 65536 : 2 * cap;
            char *nbuf;
            if (ncap > (size_t) XML_MAX_FILE + 1)
                ncap = (size_t) XML_MAX_FILE + 1;
            if (ncap == cap) {
                fclose(f);
                free(buf);
                if (err != NULL && err_size > 0)
                    snprintf(err, err_size, "%s: the file is larger than %d bytes", path,
                             XML_MAX_FILE);
                return CLINK_ERR_RANGE;
            }
            nbuf = realloc(buf, ncap);
            if (nbuf == NULL) {
                fclose(f);
                free(buf);
                if (err != NULL && err_size > 0)
                    snprintf(err, err_size, "%s: out of memory", path);
                return CLINK_ERR_NOMEM;
            }
            buf = nbuf;
            cap = ncap;
        }
        got = fread(buf + size, 1, cap - size, f);
        size += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        fclose(f);
        free(buf);
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "%s: read error", path);
        return CLINK_ERR_IO;
    }
    fclose(f);
    st = xml_desc_read_memory(buf, size, path, schema, desc, err, err_size);
    free(buf);
    return st;
}

void xml_desc_free(xml_desc *desc)
{
    if (desc == NULL)
        return;
    free(desc->materials);
    free(desc->bodies);
    free(desc->joints);
    free(desc->drivers);
    free(desc->loads);
    free(desc->pairs);
    memset(desc, 0, sizeof *desc);
}

int xml_desc_constraints(const xml_desc *desc)
{
    int m = 0, i;

    for (i = 0; i < desc->n_joints; i++)
        switch (desc->joints[i].kind) {
        case XML_JOINT_REVOLUTE:
        case XML_JOINT_TRANSLATIONAL:
            m += 2;
            break;
        case XML_JOINT_WELD:
            m += 3;
            break;
        case XML_JOINT_CLEARANCE:
            break; /* a force element: no constraint */
        }
    return m + desc->n_drivers;
}

int xml_desc_dof(const xml_desc *desc)
{
    return 3 * (desc->n_bodies - 1) - xml_desc_constraints(desc);
}
