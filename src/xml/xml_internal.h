/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The XML reader's internals, shared by the files of src/xml/:
 *
 *   xml_core.c      libxml2: parsing, the embedded schema, error messages, lines
 *   xml_attr.c      attributes: numbers, vectors, names, keywords, allowed sets
 *   xml_settings.c  <settings>, <gravity>, <output>
 *   xml_bodies.c    <materials>, <bodies>
 *   xml_joints.c    ideal joints through the joint class table
 *   xml_drivers.c   <drivers>, <loads>
 *   xml_contacts.c  every contact element through its class's field table, <law>
 *                   (through the parameter descriptor), <friction>
 *   xml_override.c  overrides by path ("PATH=VALUE") applied to the parsed document
 *   xml_suggest.c   the names allowed where an unknown one stands (from the schema itself)
 *   xml_load.c      the public functions of include/clink/xml.h
 *
 * The reader fills the public definitions (clink_body_def, clink_joint_def, ...)
 * element by element and hands each to the model builder at once: the builder
 * validates (one rule, one place) and a refusal becomes "FILE:LINE: <builder's
 * message>" with the line of the element. The reader itself checks only what
 * is a matter of the file: the syntax of numbers, names that must resolve,
 * attributes that belong together, and the few file conventions (a clearance
 * given by two of three dimensions, output_step <= t_end).
 *
 * Units: SI; angles are converted to radians while reading (angle_unit="deg").
 */
#ifndef CLINK_XML_INTERNAL_H
#define CLINK_XML_INTERNAL_H

#include "clink/model.h"
#include "clink/output.h"
#include "clink/xml.h"
#include "suggest.h"

#include <libxml/tree.h>

#include <stddef.h>

/* A compiled schema shared by several loads (opaque; wraps libxml2's). */
typedef struct xml_schema xml_schema;

/* Compiles the embedded schema. NULL and a message on failure. */
xml_schema *xml_schema_create(char *err, size_t err_size);
void xml_schema_destroy(xml_schema **schema);

/* a material of the file (an XML convenience: its E, nu and yield go into law parameters) */
typedef struct xml_material {
    char name[CLINK_NAME_MAX];
    double E, nu, yield; /* Pa, -, Pa (yield NaN: not given) */
    double density;      /* kg/m^3 (NaN: not given; a <beam>'s mass) */
} xml_material;

/* what the reader knows of a body besides its definition */
typedef struct xml_body_extra {
    double x, y;  /* initial position, m (a gear pair's centre distance) */
    double phi;   /* initial angle, rad (default joint angles) */
    int material; /* index into materials, -1 if none */
} xml_body_extra;

/* a length or clearance of the file, judged against the mechanism's size at the end (xml_hints.c)
 */
typedef struct xml_length_hint {
    double value; /* m */
    long line;
    int clearance; /* 1: a clearance (0.1 L), 0: a length (10 L) */
    char key[24];
    char what[96];
} xml_length_hint;

/* the state of one load */
typedef struct xml_reader {
    const char *name; /* file name for messages */
    char *err;
    size_t err_size;
    int failed;
    clink_status status;
    double angle_scale; /* 1 or pi/180 */
    clink_model_builder *builder;
    xml_material *materials;
    int n_materials, cap_materials;
    xml_body_extra *bodies; /* [0] is the ground */
    int n_bodies, cap_bodies;
    clink_xml_summary summary; /* name, <output> choices, laws */
    long fail_line;            /* line of the first error (0: none or no line) */
    const char *const *sets;   /* overrides "PATH=VALUE" (xml_override.c) */
    int n_sets;
    clink_xml_applied *applied; /* n_sets records, or NULL */
    long *set_lines;            /* per override: lines of its element and its parent */
    const xmlDoc *xsd;          /* the schema as a document (xml_suggest.c), or NULL */
    int angle_unit_given;       /* <mechanism angle_unit> was written */
    int angular;                /* reading an angular driver's function */
    char **warnings;            /* "NAME:LINE: what" (xml_hints.c), handed to the model */
    int n_warnings, cap_warnings;
    xml_length_hint *lengths; /* lengths and clearances read, for the size rule */
    int n_lengths, cap_lengths;
} xml_reader;

/* ---- messages (xml_core.c) ------------------------------------------------ */

/* records the first error as "NAME:LINE: message" (line <= 0: "NAME: message") */
void xml_fail(xml_reader *r, clink_status status, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* a builder status: on failure "NAME:LINE: <builder message>"; returns 0 if st is CLINK_OK */
int xml_built(xml_reader *r, clink_status st, const xmlNode *n);

/* the exact line of an element */
long xml_line(const xmlNode *n);

/* a libxml2 error as one line of text in msg (trailing blanks cut, line breaks and tabs made
   spaces), and its line: the element's (xml_line) when the error names one, else libxml2's.
   Also the sweep specification reader's (src/sweep/sweep_spec.c) */
long xml_error_text(const xmlError *e, char *msg, size_t size);

/* ---- warnings (xml_hints.c) ----------------------------------------------- */

/* keeps a warning "NAME:LINE: message" (line <= 0: "NAME: message"); never fails the load */
void xml_warn(xml_reader *r, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* the unit hints of count numbers just read from attribute key of n (SI values) */
void xml_hint_numbers(xml_reader *r, const xmlNode *n, const char *key, const double *v, int count);

/* a length (clearance 0) or clearance (1) of element n, in m, kept for the rule on the
   mechanism's size (known at the end of the file) */
void xml_hint_length(xml_reader *r, const xmlNode *n, const char *key, double v, int clearance);

/* the hints that need the whole file (lengths against the mechanism's size) */
void xml_hints_finish(xml_reader *r);

/* frees the warnings and lengths still held by r */
void xml_hints_free(xml_reader *r);

/* ---- suggestions (xml_suggest.c) ----------------------------------------- */

/* the names allowed where an unknown word stands: a list for the message, the nearest kept */
typedef struct xml_names {
    suggest near;   /* the nearest name to the word (src/suggest.h) */
    char list[640]; /* "a, b, c" (ends with ", ..." when full) */
    size_t len;
    int count; /* names listed */
    int seen;  /* the word itself was among the names */
} xml_names;

void xml_names_init(xml_names *s, const char *word);
void xml_names_add(xml_names *s, const char *name);
/* 1 if name is in the list (a list cut short by its size may miss names) */
int xml_names_has(const xml_names *s, const char *name);

/* " (did you mean 'NAME'?)" (element: "<NAME>") into buf, or "" when no name is near */
const char *xml_names_hint(const xml_names *s, char *buf, size_t size, int element);

/* the schema text read as a plain document (the caller frees it); NULL on failure */
xmlDocPtr xml_xsd_read(const char *text, size_t size);

/* adds to s the names of the attributes (elements 0) or child elements (elements 1) the schema
   declares for element n of a file; 0, or -1 if the schema has no declaration of n */
int xml_xsd_allowed(const xmlDoc *xsd, const xmlNode *n, int elements, xml_names *s);

/* adds to s the global elements besides the root and those of <contacts> (those the open
   <joints> section takes) */
void xml_xsd_open_elements(const xmlDoc *xsd, xml_names *s);

/* a schema error on an unknown attribute or element said with the names allowed there
   ("FILE:LINE: <body 'rod'>: unknown attribute 'mas' (did you mean 'mass'?); ..."); 1 if said */
int xml_xsd_explain(xml_reader *r, const xmlError *e);

/* ---- elements and attributes (xml_attr.c) --------------------------------- */

int xml_is_elem(const xmlNode *n, const char *name); /* name NULL: any element */
xmlNode *xml_child(const xmlNode *n, const char *name);
int xml_has(const xmlNode *n, const char *key);

/*
 * Refuses an attribute of n that is not in allowed (NULL-terminated) and for
 * which extra (may be NULL) returns 0; returns 0 if all are known.
 */
int xml_check_attrs(xml_reader *r, const xmlNode *n, const char *const *allowed,
                    int (*extra)(const char *key));

/* 1..max finite numbers (each times scale) into out; the count, 0 if absent or on error */
int xml_numbers(xml_reader *r, const xmlNode *n, const char *key, double *out, int min, int max,
                double scale);

/* one finite number times scale; 1 if present, else *out = def and 0 */
int xml_num(xml_reader *r, const xmlNode *n, const char *key, double def, double scale,
            double *out);

/* a pair "x y"; 1 if present, else out = (x, y) and 0 */
int xml_vec2(xml_reader *r, const xmlNode *n, const char *key, double x, double y, double *out);

/* a name attribute into buf (CLINK_NAME_MAX + 1 bytes: the builder checks the length) */
int xml_name(xml_reader *r, const xmlNode *n, const char *key, char *buf);

/* one of words (NULL-terminated); its index, def if absent */
int xml_keyword(xml_reader *r, const xmlNode *n, const char *key, const char *const *words,
                int def);

/* the index of the entity of `kind` named by attribute key (required); -1 after an error */
int xml_ref(xml_reader *r, const xmlNode *n, const char *key, clink_entity kind, const char *what);

/* the index of the material named by attribute key; -1 if absent or unknown (error) */
int xml_ref_material(xml_reader *r, const xmlNode *n, const char *key, const char *what);

/* "<kind> 'name'" of an element for messages */
void xml_describe(char *buf, size_t size, const char *kind, const xmlNode *n);

/* ---- sections ------------------------------------------------------------- */

void xml_read_settings(xml_reader *r, const xmlNode *n);
void xml_read_gravity(xml_reader *r, const xmlNode *n);
void xml_read_output(xml_reader *r, const xmlNode *n);
/* <wear> of a clearance joint w (xml_wear.c; n NULL: nothing); guide_n non-NULL: a guide's
   wear, whose worn guide (lower_depth, upper_depth) goes to *guide_n knots and guide_depth
   (double[2][CLINK_WEAR_MAX_KNOTS]) */
void xml_read_wear(xml_reader *r, const xmlNode *n, clink_wear_def *d, int *guide_n,
                   double *guide_depth, const char *w);
void xml_read_materials(xml_reader *r, const xmlNode *sec);
void xml_read_bodies(xml_reader *r, const xmlNode *sec);
/* a <beam> of <bodies>: its nodes and elements into the builder (xml_beam.c) */
void xml_read_beam(xml_reader *r, const xmlNode *k);
/* adds the names of beam NAME's nodes the builder holds (NAME.0 ..) to s (xml_beam.c) */
void xml_beam_node_names(const xml_reader *r, const char *name, xml_names *s);
/* the beam named by attribute key (required) of a <beam_contact>: its first node's body into
 *first and its element count into *elements; 0, or -1 after an error (xml_beam_contact.c) */
int xml_ref_beam(xml_reader *r, const xmlNode *n, const char *key, const char *what, int *first,
                 int *elements);
void xml_read_joints(xml_reader *r, const xmlNode *sec);
void xml_read_drivers(xml_reader *r, const xmlNode *sec);
void xml_read_loads(xml_reader *r, const xmlNode *sec);
void xml_read_inputs(xml_reader *r, const xmlNode *sec);
void xml_read_contacts(xml_reader *r, const xmlNode *sec);
/* a contact element of <joints> (<revolute_clearance>, <stop>, ...: a class of
   src/elements/ whose section is <joints>) into the builder; returns 0 if k is none of them */
int xml_read_element(xml_reader *r, const xmlNode *k);

/* the <poincare> children of <output> into r->summary.sections (xml_sections.c) */
void xml_read_sections(xml_reader *r, const xmlNode *output);

/* <law> into name, params and treatment; <friction> (n may be NULL) into friction params */
void xml_read_law(xml_reader *r, const xmlNode *n, char *name, clink_contact_params *p,
                  clink_contact_treatment *treatment, double *restitution, const char *what);
void xml_read_friction(xml_reader *r, const xmlNode *n, clink_friction_params *f, const char *what);
/* a contact element's <law> (required) and <friction> (optional) children: 0, or -1 when
   either failed (the reader's message says why) */
int xml_read_element_law(xml_reader *r, const xmlNode *k, char *law, clink_contact_params *p,
                         clink_contact_treatment *treatment, double *restitution,
                         clink_friction_params *friction, const char *w);
/* materials m1, m2 (-1: none) into E1, nu1, E2, nu2 and Y where the law left them NaN */
void xml_material_params(const xml_reader *r, int m1, int m2, clink_contact_params *p);

/*
 * Reads a document from memory (name stands for the file in messages),
 * validates it against schema (compiled here when NULL) and builds the model.
 * On error: a status, "NAME:LINE: what is wrong" in err and *model NULL.
 * summary (may be NULL) is filled on success.
 */
clink_status xml_read_memory(const char *data, size_t size, const char *name,
                             const xml_schema *schema, clink_model **model,
                             clink_xml_summary *summary, char *err, size_t err_size);

/* xml_read_memory() with the overrides of clink_xml_load_memory_with() */
clink_status xml_read_memory_with(const char *data, size_t size, const char *name,
                                  const xml_schema *schema, const char *const *sets, int n_sets,
                                  clink_xml_applied *applied, clink_model **model,
                                  clink_xml_summary *summary, char *err, size_t err_size);

/* ---- overrides (xml_override.c) ------------------------------------------- */

/* applies r->sets to the document below root before validation; 0, or -1 after xml_fail() */
int xml_override_apply(xml_reader *r, xmlNode *root);

/* after a failed load: names the overrides of the element that failed in the message */
void xml_override_annotate(xml_reader *r);

/*
 * The fuzz target's path: reads data as a file named "fuzz.xml" with schema,
 * builds the model when the description is valid, and frees everything.
 */
clink_status xml_fuzz_one(const char *data, size_t size, const xml_schema *schema, char *err,
                          size_t err_size);

#endif /* CLINK_XML_INTERNAL_H */
