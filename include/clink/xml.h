/*
 * clink XML mechanism files: load a model from a file, or check a file.
 *
 * Table of contents:
 *   - checking     clink_xml_summary, clink_xml_check()
 *
 * The vocabulary is documented element by element in docs/xml-reference.md;
 * the schema (share/clink.xsd, embedded in the library) is checked at every
 * load, then the meaning (ranges, finite numbers, names that exist and are
 * unique, clearance geometry). On any error nothing is built and the message,
 * written into the caller's buffer, reads "FILE:LINE: what is wrong" (one line,
 * no newline; truncated to err_size - 1 bytes). Files are UTF-8; a DOCTYPE is
 * refused; the reader never touches the network.
 *
 * Units: SI (m, kg, s, N, rad) unless the file says angle_unit="deg".
 */
#ifndef CLINK_XML_H
#define CLINK_XML_H

#include "clink/clink.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- checking ------------------------------------------------------------- */

/* What a mechanism file contains (counts exclude the ground). */
typedef struct clink_xml_summary {
    char name[64];        /* the mechanism's name: root attribute, else the file stem */
    int bodies;           /* moving bodies */
    int joints;           /* ideal joints (revolute, translational, weld) */
    int clearance_joints; /* revolute joints with clearance */
    int drivers;          /* rheonomic drivers */
    int loads;            /* applied loads (forces, torques, springs) */
    int contacts;         /* contact pairs */
    int constraints;      /* scalar constraint equations of ideal joints and drivers */
    int dof;              /* 3 * bodies - constraints */
    int has_gravity;      /* nonzero if gravity is given and not zero */
    char laws[256];       /* distinct contact laws used, comma-separated ("" if none) */
} clink_xml_summary;

/*
 * Reads and checks the file at path exactly as a load does and, on success,
 * fills summary (may be NULL). Returns CLINK_OK, or an error status with
 * "FILE:LINE: what is wrong" in err (err may be NULL, err_size bytes).
 */
clink_status clink_xml_check(const char *path, clink_xml_summary *summary, char *err,
                             size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_XML_H */
