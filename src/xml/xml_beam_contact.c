/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The beam of a <beam_contact> (docs/flexible.md, "Contact on the centreline"): the beam
 * named NAME is the one whose <beam> made the nodes NAME.0 .. NAME.N (bodies) and the
 * elements NAME.e0 .. NAME.e{N-1} (loads); its first node's body and its element count go
 * to the definition (clink_beam_contact_def.node_first, .elements). A name that made no
 * beam is refused at the element's line, naming the beams of the file.
 */
#include "xml/xml_internal.h"

#include <stdio.h>
#include <string.h>

/* the number of elements NAME.e0 .. of beam NAME whose nodes follow node_first */
static int beam_elements(const xml_reader *r, const char *name, int first)
{
    char key[CLINK_NAME_MAX + 24];
    int n = 0;
    for (;;) {
        snprintf(key, sizeof key, "%s.e%d", name, n);
        if (clink_model_builder_find(r->builder, CLINK_ENTITY_FORCE, key) < 0)
            break;
        snprintf(key, sizeof key, "%s.%d", name, n + 1);
        if (clink_model_builder_find(r->builder, CLINK_ENTITY_BODY, key) != first + n + 1)
            break;
        n++;
    }
    return n;
}

int xml_ref_beam(xml_reader *r, const xmlNode *n, const char *key, const char *what, int *first,
                 int *elements)
{
    char name[CLINK_NAME_MAX + 1], node[CLINK_NAME_MAX + 24];
    if (!xml_name(r, n, key, name)) {
        xml_fail(r, CLINK_ERR_PARSE, xml_line(n), "%s: %s is required (a <beam>'s name)", what,
                 key);
        return -1;
    }
    snprintf(node, sizeof node, "%s.0", name);
    int b = clink_model_builder_find(r->builder, CLINK_ENTITY_BODY, node);
    int count = b > 0 ? beam_elements(r, name, b) : 0;
    if (count < 1) {
        xml_fail(r, CLINK_ERR_NOT_FOUND, xml_line(n),
                 "%s: %s = '%s' is not a beam of this file (a <beam name=\"%s\"> in <bodies> "
                 "makes the nodes %s.0 ..)",
                 what, key, name, name, name);
        return -1;
    }
    *first = b;
    *elements = count;
    return 0;
}
