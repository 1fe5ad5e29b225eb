/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink XML mechanism files: load a model from a file, or check a file.
 *
 * Table of contents:
 *   - loading      clink_xml_load(), clink_xml_load_memory(); clink_model_load_xml()
 *                  (convenience returning the model or NULL)
 *   - checking     clink_xml_summary, clink_xml_check()
 *   - overrides    clink_xml_applied, clink_xml_load_with(), clink_xml_load_memory_with()
 *
 * The vocabulary is documented element by element in docs/xml-reference.md;
 * the schema (share/clink.xsd, embedded in the library) is checked at every
 * load; each element is then read into its public definition (clink_body_def,
 * clink_joint_def, ...) and handed to the model builder, which checks the
 * meaning (ranges, unique names, geometry) exactly as for a model built in C;
 * the reader checks numbers, references by name and the attributes of joints
 * and laws. On any error nothing is built and the message,
 * written into the caller's buffer, reads "FILE:LINE: what is wrong" (one line,
 * no newline; truncated to err_size - 1 bytes). Files are UTF-8; a DOCTYPE is
 * refused; the reader never touches the network.
 *
 * Units: SI (m, kg, s, N, rad) unless the file says angle_unit="deg".
 */
#ifndef CLINK_XML_H
#define CLINK_XML_H

#include "clink/clink.h"
#include "clink/sim.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- checking ------------------------------------------------------------- */

/* the most <poincare> sections a file holds */
enum { CLINK_XML_SECTIONS_MAX = 16 };

/* What a mechanism file contains (counts exclude the ground). */
typedef struct clink_xml_summary {
    char name[64];        /* the mechanism's name: root attribute, else the file stem */
    int bodies;           /* moving bodies */
    int joints;           /* ideal joints (every clink_joint_type) */
    int clearance_joints; /* revolute joints with clearance */
    int drivers;          /* rheonomic drivers */
    int loads;            /* applied loads (forces, torques, springs) */
    int contacts;         /* contact pairs */
    int constraints;      /* scalar constraint equations of ideal joints and drivers */
    int dof;              /* 3 * bodies - constraints */
    int has_gravity;      /* nonzero if gravity is given and not zero */
    char laws[256];       /* distinct contact laws used, comma-separated ("" if none) */
    int out_reactions;    /* <output reactions>: write joint reactions (default 1) */
    int out_energies;     /* <output energies>: write energies (default 1) */
    int out_contacts;     /* <output contacts>: write contact quantities (default 1) */
    int out_rows;         /* <output rows>: clink_output_rows (default 3, auto) */
    int out_dense;        /* <output dense>: interpolated rows per step in an impact (1) */
    int out_format;       /* <output format>: clink_output_format (default 0, csv) */
    /* <output><poincare .../></output>: Poincare sections (docs/nonlinear.md) */
    clink_section_def sections[CLINK_XML_SECTIONS_MAX];
    int nsections;
} clink_xml_summary;

/* ---- loading -------------------------------------------------------------- */

/*
 * Convenience over clink_xml_load() (MuJoCo-style): the model of the file at
 * path (caller owns it; release with clink_model_destroy()), or NULL with
 * "FILE:LINE: what is wrong" in err; the status is not returned.
 */
CLINK_API clink_model *clink_model_load_xml(const char *path, char *err, size_t err_size);

/*
 * The same with a status: CLINK_OK and *model set, or an error status,
 * *model NULL and the message in err. summary (may be NULL) receives what
 * clink_xml_check() reports, including the <output> choices.
 * Statuses: CLINK_ERR_IO (cannot read), CLINK_ERR_PARSE (not well-formed),
 * CLINK_ERR_MODEL (schema or meaning), CLINK_ERR_RANGE (value out of range),
 * CLINK_ERR_NONFINITE (NaN or infinity), CLINK_ERR_NOT_FOUND (unknown name).
 */
CLINK_API clink_status clink_xml_load(const char *path, clink_model **model,
                                      clink_xml_summary *summary, char *err, size_t err_size);

/* The same from size bytes of memory; name stands for the file in messages. */
CLINK_API clink_status clink_xml_load_memory(const char *data, size_t size, const char *name,
                                             clink_model **model, clink_xml_summary *summary,
                                             char *err, size_t err_size);

/*
 * Reads and checks the file at path exactly as a load does (the model is built
 * and released) and, on success, fills summary (may be NULL). Returns CLINK_OK, or an error status
 * with "FILE:LINE: what is wrong" in err (err may be NULL, err_size bytes).
 */
CLINK_API clink_status clink_xml_check(const char *path, clink_xml_summary *summary, char *err,
                                       size_t err_size);

/* ---- warnings ------------------------------------------------------------- */

/*
 * The reader's warnings of a model loaded from a file: values valid in SI that
 * look like another unit (an angle above 2 pi without angle_unit, a Young's
 * modulus below 1 MPa, a length above 10 times or a clearance above 0.1 of the
 * mechanism's size; docs/xml-reference.md, "Unit hints"). A warning never stops
 * a load. The count (0 for a model built in C or NULL), and warning i as
 * "FILE:LINE: what" (owned by the model; NULL when i is out of range).
 */
CLINK_API int clink_model_warning_count(const clink_model *model);
CLINK_API const char *clink_model_warning(const clink_model *model, int i);

/* ---- overrides ------------------------------------------------------------ */

/*
 * Parameter overrides by path: "PATH=VALUE" strings applied to the parsed
 * document before it is validated and read, so that every rule of a load
 * (schema types, numbers, ranges, units, required fields, the builder's checks)
 * applies to an overridden value as to a value in the file. The grammar
 * (docs/xml-reference.md, "Overrides"):
 *
 *   PATH  = STEP { "." STEP } "." ATTRIBUTE
 *   STEP  = ELEMENT [ "[" NAME "]" ]
 *
 * ELEMENT is an element's tag as the file writes it (settings, body, revolute,
 * revolute_clearance, pair, law, friction, material, driver, linear, ...),
 * NAME the value of its name attribute; the first step is looked for among
 * all elements below <mechanism> (or is <mechanism> itself), each further step
 * among the elements below the previous one; each step must name exactly one
 * element. Examples:
 *
 *   settings.t_end=0.1
 *   revolute_clearance[rod_slider].clearance=2e-4
 *   pair[spheres].law.e=0.8
 *   body[crank].omega=300
 *   gravity.g=0 -1.62
 *
 * An absent attribute is added (the element must take it); <settings>,
 * <gravity> and <output> are created when the file has none. VALUE is one or
 * more numbers separated by blanks, or a keyword for the attributes that take
 * one (law.name, law.treatment, settings.method, settings.drift,
 * settings.contact_bookkeeping, friction.type, output.*, mechanism.angle_unit).
 * On a clearance joint, an
 * override of one of journal_radius, bearing_radius and clearance drops the
 * one of the other two that would contradict it (journal_radius, else
 * clearance): setting clearance keeps the bearing radius, setting a radius
 * keeps the other radius. Overrides apply in order; a later one of the same
 * path wins.
 *
 * Errors (nothing is built), each message naming the override and why: a
 * malformed override, or a path that names no element or several:
 * CLINK_ERR_ARG, "FILE: override 'PATH=VALUE': names no element: no <pair>
 * named 'x'"; a value that is not numbers: CLINK_ERR_PARSE ("... 'abc' is not a
 * number"), not finite: CLINK_ERR_NONFINITE; a value the load refuses (out of
 * range, an attribute the element does not take, ...): the load's status and
 * message with the override appended, "FILE:LINE: what is wrong (override
 * 'PATH=VALUE')".
 */
enum { CLINK_XML_OVERRIDE_MAX = 256 }; /* bytes of one "PATH=VALUE", the NUL included */

/* What an override did (one per override given). */
typedef struct clink_xml_applied {
    char path[CLINK_XML_OVERRIDE_MAX];     /* the path, as given (blanks around it removed) */
    char value[CLINK_XML_OVERRIDE_MAX];    /* the value applied: each number as the shortest
                                              decimal that reads back as the same double */
    char previous[CLINK_XML_OVERRIDE_MAX]; /* the file's value, "" if it had none */
    long line;                             /* line of the element (0: created) */
} clink_xml_applied;

/*
 * clink_xml_load() with n_sets overrides sets[0 .. n_sets - 1] ("PATH=VALUE";
 * n_sets 0 and sets NULL: a plain load). applied (may be NULL) receives
 * n_sets records, filled once the overrides are applied (even if the load
 * then fails).
 */
CLINK_API clink_status clink_xml_load_with(const char *path, const char *const *sets, int n_sets,
                                           clink_xml_applied *applied, clink_model **model,
                                           clink_xml_summary *summary, char *err, size_t err_size);

/* The same from size bytes of memory; name stands for the file in messages. */
CLINK_API clink_status clink_xml_load_memory_with(const char *data, size_t size, const char *name,
                                                  const char *const *sets, int n_sets,
                                                  clink_xml_applied *applied, clink_model **model,
                                                  clink_xml_summary *summary, char *err,
                                                  size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_XML_H */
