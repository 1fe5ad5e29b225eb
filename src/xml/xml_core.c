/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reads a clink mechanism file with libxml2 and builds its model:
 *
 *   bytes -> well-formed tree -> valid against the embedded XSD -> each element
 *   read into its public definition and added to the model builder -> finalize.
 *
 * One parser context per load with its own structured error handler (the
 * handler is set on the context's SAX block, ctxt->sax->serror, and finds this
 * load's reader through ctxt->_private: libxml2 2.9 has no
 * xmlCtxtSetErrorHandler and xmlSetStructuredErrorFunc is process-global).
 * Options: XML_PARSE_NONET (no network), no XML_PARSE_NOENT (entities are not
 * substituted) and no DTD loading; a DOCTYPE is refused as soon as the parser
 * sees it, before any entity can be declared. Input is UTF-8 (an encoding
 * declaration is ignored). The schema's messages, the reader's and the
 * builder's read "FILE:LINE: what is wrong"; the first error stops the load.
 * xmlCleanupParser is never called (it would break other users of libxml2 in
 * the process).
 */
#include "xml/xml_internal.h"

#include "model/model_internal.h"

#include "clink/contact.h"

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the embedded schema, generated from share/clink.xsd at build time */
extern const char xml_schema_text[];
extern const size_t xml_schema_size;

enum { XML_MAX_FILE = 64 * 1024 * 1024 };

struct xml_schema {
    xmlSchemaPtr schema;
    xmlDocPtr xsd; /* the same text as a document: the names it allows (xml_suggest.c) */
};

/* ---- error reporting ------------------------------------------------------- */

void xml_fail(xml_reader *r, clink_status status, long line, const char *fmt, ...)
{
    va_list ap;
    int n = 0;

    if (r->failed)
        return;
    r->failed = 1;
    r->status = status;
    r->fail_line = line;
    if (r->err == NULL || r->err_size == 0)
        return;
    if (line > 0)
        n = snprintf(r->err, r->err_size, "%s:%ld: ", r->name, line);
    else
        n = snprintf(r->err, r->err_size, "%s: ", r->name);
    if (n < 0 || (size_t) n >= r->err_size)
        return;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->err_size - (size_t) n, fmt, ap);
    va_end(ap);
}

/* the builder refused an unknown law of n's <law>: its message, the nearest law and the laws */
static int built_unknown_law(xml_reader *r, clink_status st, const xmlNode *n)
{
    const xmlNode *law = xml_child(n, "law");
    xmlChar *name = law != NULL ? xmlGetNoNsProp(law, BAD_CAST "name") : NULL;
    static const char tail[] = " (clink laws lists them)";
    char hint[SUGGEST_MAX_LEN + 24];
    const char *msg;
    xml_names s;
    size_t i, len;

    if (name == NULL || clink_law_find((const char *) name) != NULL) {
        xmlFree(name);
        return 0;
    }
    xml_names_init(&s, (const char *) name);
    for (i = 0; i < clink_law_count(); i++)
        xml_names_add(&s, clink_law_name(clink_law_at(i)));
    /* the builder's words without its pointer to `clink laws`: the laws follow */
    msg = clink_model_builder_error(r->builder);
    len = strlen(msg);
    if (len >= strlen(tail) && strcmp(msg + len - strlen(tail), tail) == 0)
        len -= strlen(tail);
    xml_fail(r, st, xml_line(law), "%.*s%s; laws: %s", (int) len, msg,
             xml_names_hint(&s, hint, sizeof hint, 0), s.list);
    xmlFree(name);
    return 1;
}

int xml_built(xml_reader *r, clink_status st, const xmlNode *n)
{
    if (st == CLINK_OK)
        return 0;
    if (st == CLINK_ERR_NOT_FOUND && n != NULL && built_unknown_law(r, st, n))
        return -1;
    xml_fail(r, st, n != NULL ? xml_line(n) : 0, "%s", clink_model_builder_error(r->builder));
    return -1;
}

/*
 * The line of an element. libxml2 keeps lines in 16 bits on the node and,
 * with XML_PARSE_BIG_LINES, recovers larger ones only from neighbouring text
 * nodes; on_start_element() stores the exact line in node->_private instead.
 */
long xml_line(const xmlNode *n)
{
    long line;

    if (n == NULL)
        return 0;
    line = xmlGetLineNo(n);
    if (n->type == XML_ELEMENT_NODE && n->_private != NULL)
        line = (long) (intptr_t) n->_private;
    return line;
}

long xml_error_text(const xmlError *e, char *msg, size_t size)
{
    size_t len, i;

    snprintf(msg, size, "%s", e->message != NULL ? e->message : "malformed XML");
    len = strlen(msg);
    while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
        msg[--len] = '\0';
    for (i = 0; i < len; i++)
        if (msg[i] == '\n' || msg[i] == '\r' || msg[i] == '\t')
            msg[i] = ' ';
    if (e->node != NULL && ((const xmlNode *) e->node)->type == XML_ELEMENT_NODE)
        return xml_line((const xmlNode *) e->node);
    return e->line;
}

/* a libxml2 error (parser or schema) into the load's message */
static void take_error(xml_reader *r, const xmlError *e)
{
    char msg[512];
    long line;

    if (e == NULL || e->level < XML_ERR_ERROR || r->failed || xml_xsd_explain(r, e))
        return;
    line = xml_error_text(e, msg, sizeof msg);
    xml_fail(r, e->domain == XML_FROM_SCHEMASV ? CLINK_ERR_MODEL : CLINK_ERR_PARSE, line, "%s",
             msg);
}

/* structured error handler of the parser context: data is ctxt->userData (the context) */
static void on_parser_error(void *data, xmlErrorPtr e)
{
    xmlParserCtxtPtr ctxt = data;

    if (ctxt != NULL && ctxt->_private != NULL)
        take_error(ctxt->_private, e);
}

/* structured error handler of the schema contexts: data is the load */
static void on_schema_error(void *data, xmlErrorPtr e)
{
    if (data != NULL)
        take_error(data, e);
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
        xml_fail(ctxt->_private, CLINK_ERR_PARSE,
                 ctxt->input != NULL ? (long) ctxt->input->line : 0,
                 "document type declarations (DOCTYPE) are not allowed in clink files");
    xmlStopParser(ctxt);
}

/* ---- schema ---------------------------------------------------------------- */

xml_schema *xml_schema_create(char *err, size_t err_size)
{
    xml_reader r;
    xmlSchemaParserCtxtPtr pctxt;
    xml_schema *s;

    memset(&r, 0, sizeof r);
    r.name = "embedded schema";
    r.err = err;
    r.err_size = err_size;
    xmlInitParser();
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        xml_fail(&r, CLINK_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    pctxt = xmlSchemaNewMemParserCtxt(xml_schema_text, (int) xml_schema_size);
    if (pctxt == NULL) {
        xml_fail(&r, CLINK_ERR_NOMEM, 0, "cannot create the schema parser");
        free(s);
        return NULL;
    }
    xmlSchemaSetParserStructuredErrors(pctxt, on_schema_error, &r);
    s->schema = xmlSchemaParse(pctxt);
    xmlSchemaFreeParserCtxt(pctxt);
    if (s->schema == NULL || r.failed) {
        xml_fail(&r, CLINK_ERR_INTERNAL, 0, "the embedded schema does not compile");
        if (s->schema != NULL)
            xmlSchemaFree(s->schema);
        free(s);
        return NULL;
    }
    s->xsd = xml_xsd_read(xml_schema_text, xml_schema_size);
    if (s->xsd == NULL) {
        xml_fail(&r, CLINK_ERR_NOMEM, 0, "out of memory reading the embedded schema");
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
    xmlFreeDoc((*schema)->xsd);
    free(*schema);
    *schema = NULL;
}

/* ---- the document ------------------------------------------------------------ */

/*
 * The mechanism's name from the file: "dir/pendulum.xml" -> "pendulum". Names
 * follow the rules of the schema's name type ([A-Za-z_][A-Za-z0-9_.-]*, at most
 * CLINK_NAME_MAX - 1 bytes): other bytes become '_', so that "...xml" gives
 * "__" and never a path like "..".
 */
static void file_stem(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    size_t len, i;

    base = base != NULL ? base + 1 : path;
    len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".xml") == 0)
        len -= 4;
    if (len >= size)
        len = size - 1;
    if (len == 0 && size > 1)
        base = "_", len = 1;
    for (i = 0; i < len; i++) {
        char ch = base[i];
        int letter = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
        int other = (ch >= '0' && ch <= '9') || ch == '.' || ch == '-';
        out[i] = (letter || (i > 0 && other)) ? ch : '_';
    }
    out[len] = '\0';
}

/* the sections in the builder's order; the ground is body 0 */
static void read_document(xml_reader *r, const xmlNode *root)
{
    static const char *const units[] = {"rad", "deg", NULL};
    static const char *const keys[] = {"name", "angle_unit", NULL};
    const xmlNode *n;
    char name[CLINK_NAME_MAX + 1];

    if (!xml_is_elem(root, "mechanism")) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(root), "the root element must be <mechanism>");
        return;
    }
    xml_check_attrs(r, root, keys, NULL);
    if (xml_name(r, root, "name", name)) {
        if (strlen(name) >= sizeof r->summary.name)
            xml_fail(r, CLINK_ERR_RANGE, xml_line(root),
                     "<mechanism>: name '%.20s...' is longer than %d bytes", name,
                     (int) sizeof r->summary.name - 1);
        snprintf(r->summary.name, sizeof r->summary.name, "%.63s", name);
    }
    r->angle_scale =
        xml_keyword(r, root, "angle_unit", units, 0) ? 3.14159265358979323846 / 180.0 : 1.0;
    r->angle_unit_given = xml_has(root, "angle_unit");
    r->summary.out_reactions = r->summary.out_energies = r->summary.out_contacts = 1;
    r->summary.out_dense = 1;
    r->summary.out_rows = CLINK_ROWS_AUTO;

    if (!r->failed && (n = xml_child(root, "settings")) != NULL)
        xml_read_settings(r, n);
    if (!r->failed && (n = xml_child(root, "gravity")) != NULL)
        xml_read_gravity(r, n);
    if (!r->failed && (n = xml_child(root, "materials")) != NULL)
        xml_read_materials(r, n);
    if (!r->failed) {
        n = xml_child(root, "bodies");
        if (n == NULL)
            xml_fail(r, CLINK_ERR_PARSE, xml_line(root), "<bodies> is required");
        else
            xml_read_bodies(r, n);
    }
    if (!r->failed && (n = xml_child(root, "joints")) != NULL)
        xml_read_joints(r, n);
    if (!r->failed && (n = xml_child(root, "drivers")) != NULL)
        xml_read_drivers(r, n);
    if (!r->failed && (n = xml_child(root, "loads")) != NULL)
        xml_read_loads(r, n);
    if (!r->failed && (n = xml_child(root, "inputs")) != NULL)
        xml_read_inputs(r, n);
    if (!r->failed && (n = xml_child(root, "contacts")) != NULL)
        xml_read_contacts(r, n);
    if (!r->failed && (n = xml_child(root, "output")) != NULL)
        xml_read_output(r, n);
    xml_hints_finish(r);
}

/* counts of the summary from the model */
static void summarize(const clink_model *m, clink_xml_summary *s)
{
    double gx, gy;

    s->bodies = clink_model_count(m, CLINK_ENTITY_BODY) - 1;
    s->joints = clink_model_count(m, CLINK_ENTITY_JOINT);
    s->clearance_joints = clink_model_count(m, CLINK_ENTITY_CLEARANCE_JOINT);
    s->drivers = clink_model_count(m, CLINK_ENTITY_DRIVER);
    s->loads = clink_model_count(m, CLINK_ENTITY_FORCE);
    s->contacts = clink_model_count(m, CLINK_ENTITY_CONTACT_PAIR);
    s->constraints = clink_model_constraint_count(m);
    s->dof = 3 * s->bodies - s->constraints;
    clink_model_gravity(m, &gx, &gy);
    s->has_gravity = gx != 0 || gy != 0;
}

/* parses, validates against the schema and reads the document into r->builder */
static void read_bytes(xml_reader *r, const char *data, size_t size, const xml_schema *schema)
{
    xmlParserCtxtPtr ctxt = NULL;
    xmlDocPtr doc = NULL;
    xmlSchemaValidCtxtPtr vctxt = NULL;
    xmlNode *root;
    int rc;

    xmlInitParser();
    /* one parser context for this load, with its own error handler */
    ctxt = xmlNewParserCtxt();
    if (ctxt == NULL || ctxt->sax == NULL) {
        xml_fail(r, CLINK_ERR_NOMEM, 0, "cannot create an XML parser");
        goto done;
    }
    ctxt->_private = r;
    ctxt->sax->serror = on_parser_error;
    ctxt->sax->internalSubset = on_internal_subset;
    ctxt->sax->startElementNs = on_start_element;
    doc = xmlCtxtReadMemory(ctxt, size > 0 ? data : "", (int) size, r->name, "UTF-8",
                            XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_IGNORE_ENC);
    if (r->failed)
        goto done;
    if (doc == NULL || !ctxt->wellFormed) {
        xml_fail(r, CLINK_ERR_PARSE, 0, "not a well-formed XML document");
        goto done;
    }
    root = xmlDocGetRootElement(doc);
    if (root == NULL) {
        xml_fail(r, CLINK_ERR_PARSE, 0, "the document has no root element");
        goto done;
    }
    if (r->n_sets > 0 && xml_override_apply(r, root) != 0)
        goto done;
    r->xsd = schema->xsd;

    /* structure and lexical types against the schema */
    vctxt = xmlSchemaNewValidCtxt(schema->schema);
    if (vctxt == NULL) {
        xml_fail(r, CLINK_ERR_NOMEM, 0, "cannot create a schema validator");
        goto done;
    }
    xmlSchemaSetValidStructuredErrors(vctxt, on_schema_error, r);
    rc = xmlSchemaValidateDoc(vctxt, doc);
    if (r->failed)
        goto done;
    if (rc != 0) {
        xml_fail(r, rc > 0 ? CLINK_ERR_MODEL : CLINK_ERR_INTERNAL, xml_line(root),
                 "the document does not follow the clink schema");
        goto done;
    }
    read_document(r, root);

done:
    if (vctxt != NULL)
        xmlSchemaFreeValidCtxt(vctxt);
    if (doc != NULL)
        xmlFreeDoc(doc);
    if (ctxt != NULL) {
        ctxt->_private = NULL;
        xmlFreeParserCtxt(ctxt);
    }
}

clink_status xml_read_memory(const char *data, size_t size, const char *name,
                             const xml_schema *schema, clink_model **model,
                             clink_xml_summary *summary, char *err, size_t err_size)
{
    return xml_read_memory_with(data, size, name, schema, NULL, 0, NULL, model, summary, err,
                                err_size);
}

clink_status xml_read_memory_with(const char *data, size_t size, const char *name,
                                  const xml_schema *schema, const char *const *sets, int n_sets,
                                  clink_xml_applied *applied, clink_model **model,
                                  clink_xml_summary *summary, char *err, size_t err_size)
{
    xml_reader r;
    xml_schema *own = NULL;

    memset(&r, 0, sizeof r);
    r.name = name != NULL ? name : "(memory)";
    r.err = err;
    r.err_size = err_size;
    r.angle_scale = 1.0;
    r.sets = sets;
    r.n_sets = n_sets;
    r.applied = applied;
    if (err != NULL && err_size > 0)
        err[0] = '\0';
    if (model == NULL || (data == NULL && size > 0) || n_sets < 0 || (n_sets > 0 && sets == NULL)) {
        xml_fail(&r, CLINK_ERR_ARG, 0, "invalid argument");
        return r.status;
    }
    *model = NULL;
    if (size > (size_t) XML_MAX_FILE) {
        xml_fail(&r, CLINK_ERR_RANGE, 0, "the file is larger than %d bytes", XML_MAX_FILE);
        return r.status;
    }
    if (schema == NULL) {
        own = xml_schema_create(err, err_size);
        if (own == NULL)
            return CLINK_ERR_INTERNAL;
        schema = own;
    }
    r.builder = clink_model_builder_create();
    if (r.builder == NULL)
        xml_fail(&r, CLINK_ERR_NOMEM, 0, "out of memory");
    else
        read_bytes(&r, data, size, schema);
    if (!r.failed)
        xml_built(&r, clink_model_builder_finalize(r.builder, model), NULL);
    if (!r.failed && r.n_warnings > 0) {
        /* the warnings go with the model (clink_model_warning) */
        model_take_warnings(*model, r.warnings, r.n_warnings);
        r.warnings = NULL;
        r.n_warnings = r.cap_warnings = 0;
    }
    if (!r.failed && r.summary.name[0] == '\0')
        file_stem(r.name, r.summary.name, sizeof r.summary.name);
    if (!r.failed && summary != NULL) {
        summarize(*model, &r.summary);
        *summary = r.summary;
    }
    if (r.failed) {
        xml_override_annotate(&r);
        clink_model_destroy(model);
    }
    clink_model_builder_destroy(&r.builder);
    free(r.materials);
    free(r.bodies);
    free(r.set_lines);
    xml_hints_free(&r);
    xml_schema_destroy(&own);
    return r.failed ? r.status : CLINK_OK;
}
