/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * model_internal.h: the plain data behind clink_model_builder and clink_model.
 *
 * Both hold the same arrays; the builder grows them, the model is a frozen copy
 * (finalize) that the kinematics, dynamics and simulation modules read. Names
 * are stored inline (CLINK_NAME_MAX bytes) so the definitions' name pointers
 * are not used inside the library. Contact elements of every kind (pairs,
 * clearance joints, ...: src/elements/element.h) share one array; finalize expands
 * them into the flat list of contacts the simulation reads (model_contact.c).
 */
#ifndef CLINK_MODEL_INTERNAL_H
#define CLINK_MODEL_INTERNAL_H

#include "clink/model.h"
#include "elements/element.h"

typedef struct model_body {
    char name[CLINK_NAME_MAX];
    clink_body_def def; /* def.name is NULL inside the library */
} model_body;

typedef struct model_joint {
    char name[CLINK_NAME_MAX];
    clink_joint_def def;
} model_joint;

typedef struct model_driver {
    char name[CLINK_NAME_MAX];
    clink_driver_def def;
} model_driver;

typedef struct model_force {
    char name[CLINK_NAME_MAX];
    clink_force_def def;
} model_force;

typedef struct model_input {
    char name[CLINK_NAME_MAX];
    clink_input_def def; /* def.name is NULL inside the library */
} model_input;

/* a contact element of any kind (src/elements/element.h); the definition's name and law
   pointers are NULL inside the library */
typedef struct model_element {
    clink_element_kind kind;
    int index; /* among the elements of its kind */
    char name[CLINK_NAME_MAX];
    char label[CLINK_NAME_MAX]; /* name, or the kind's stem and index ("pair3") */
    char law[CLINK_NAME_MAX];   /* canonical law name ("" when piecewise) */
    element_def def;
} model_element;

/* one contact of the flat list an element expands into (finalize) */
typedef struct model_contact {
    char name[CLINK_NAME_MAX + 32]; /* ELEMENT or ELEMENT.PART */
    int element;                    /* index into elems */
    element_contact geo;            /* bodies and shapes */
} model_contact;

/*
 * The names of one entity kind: an open-addressing hash table of indices (slot
 * value index + 1, 0 empty), at most half full, so that finding a name and
 * checking that a new one is unique cost O(1) and building n entities O(n).
 */
typedef struct model_names {
    int *slots;
    int cap; /* a power of two, or 0 */
    int count;
} model_names;

/* the common content of builder and model */
typedef struct model_data {
    model_body *bodies; /* bodies[0] is ground */
    model_joint *joints;
    model_driver *drivers;
    model_force *forces;
    model_element *elems; /* contact elements in the order added (model_contact.c) */
    int nbodies, njoints, ndrivers, nforces, nelems;
    int cap_bodies, cap_joints, cap_drivers, cap_forces, cap_elems;
    int *of_kind[CLINK_ELEMENT_KIND_COUNT_]; /* each kind's elements: indices into elems */
    int nof_kind[CLINK_ELEMENT_KIND_COUNT_], cap_of_kind[CLINK_ELEMENT_KIND_COUNT_];
    model_input *inputs; /* the host's inputs (model_inputs.c) */
    int ninputs, cap_inputs;
    model_contact *contacts; /* the model's: the elements' contacts (finalize), else NULL */
    int ncontacts;
    double gravity[2];
    clink_settings_def settings;
    model_names names[CLINK_ENTITY_COUNT_]; /* per kind, of the named entities */
} model_data;

struct clink_model_builder {
    model_data d;
    char error[256];
};

struct clink_model {
    model_data d;
    int ncoords;      /* 3 (nbodies - 1): ground has no coordinates */
    int nconstraints; /* equations of joints and drivers */
    int *joint_row;   /* first constraint row of each joint */
    int *driver_row;  /* constraint row of each driver */
    char **warnings;  /* the XML reader's warnings "FILE:LINE: what" (clink_model_warning) */
    int nwarnings;
};

/* gives the model n warnings (malloc'ed strings in a malloc'ed array; the model frees them) */
void model_take_warnings(clink_model *m, char **warnings, int n);

/* shared with model_contact.c */
clink_status model_fail(clink_model_builder *b, clink_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int model_grow(void **arr, int *cap, int n, size_t sz);
/* "body 'rod'" or "body 3" (unnamed) into buf, for messages; returns buf */
const char *model_body_word(const model_data *d, int i, char *buf, size_t size);
/* the rules of a beam element (CLINK_FORCE_BEAM, model_beam.c): CLINK_OK or a refusal */
clink_status model_beam_check(clink_model_builder *b, const clink_force_def *f, const char *nm);
/* the stamp of each kind of definition (CLINK_DEF_COOKIE + kind) */
enum {
    MODEL_COOKIE_BODY = CLINK_DEF_COOKIE + 1,
    MODEL_COOKIE_JOINT,
    MODEL_COOKIE_DRIVER,
    MODEL_COOKIE_FORCE,
    MODEL_COOKIE_SETTINGS /* the element classes' cookies follow (element_class.cookie) */
};

/* CLINK_ERR_ARG unless def_cookie is `cookie` (a definition made by its default function) */
clink_status model_check_cookie(clink_model_builder *b, int def_cookie, int cookie,
                                const char *what);

/* checks a new name (length, unique) and makes room for it in the kind's table */
clink_status model_take_name(clink_model_builder *b, clink_entity kind, const char *name,
                             char out[CLINK_NAME_MAX]);
/* enters entity `index` of `kind` (appended after model_take_name) under its name, if any */
void model_name_added(model_data *d, clink_entity kind, int index);

/* model_contact.c: the names and counts of the element kinds' entities, the copies and
   release of the element arrays, and the flat contact list of a model (0 on success) */
const char *model_element_entity_name(const model_data *d, clink_entity kind, int i);
int model_element_entity_count(const model_data *d, clink_entity kind);
int model_elements_copy(model_data *to, const model_data *from);
void model_elements_free(model_data *d);
int model_contacts_build(clink_model *m);

/* model_inputs.c: the model's copy of the builder's inputs (0, or -1 out of memory, the
   model then without inputs), and their release */
int model_inputs_copy(model_data *to, const model_data *from);
void model_inputs_free(model_data *d);
/* 1 when an input acts on body b directly (a force or torque on it) */
int model_inputs_move(const model_data *d, int b);

#endif
