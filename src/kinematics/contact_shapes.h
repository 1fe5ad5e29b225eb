/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_shapes.h: the shape table, one row per clink_shape_type, and the registry of
 * pair geometry functions indexed by the two shapes (as Box2D v3's s_registers[A][B]
 * and MuJoCo's mjCOLLISIONFUNC table).
 *
 * A row says what a shape is called (in messages and in the CLI's scene), its XML
 * element and fields (the reader iterates them), its traits (round: the normal force
 * of any pair passes through its centre a; flat: a half-plane without size; central:
 * the normal passes through the body points the contact is about), its check hook
 * (checks and normalises a clink_shape_def), its radius of curvature for Hertz's
 * stiffness and its size (the scale of a penetration that is "large" for it).
 *
 * A registry entry for the ordered pair (A, B) gives the geometry (penetration, rate,
 * normal, points, slip: contact_geometry.h), its exact derivatives or NULL (then the
 * simulation's Jacobian differentiates the contact's generalised force by central
 * differences, src/contacts/contacts_jacobian.c), and the number of contact points the
 * pair needs (a polygon touches with its vertices, one contact each). A pair with no
 * entry is not a contact geometry; its reverse may be (then the shapes must be swapped).
 */
#ifndef CLINK_KINEMATICS_CONTACT_SHAPES_H
#define CLINK_KINEMATICS_CONTACT_SHAPES_H

#include "kinematics/contact_geometry.h"

#include <stddef.h>

/* how the XML gives a field of clink_shape_def */
typedef enum kinematics_field_kind {
    KINEMATICS_FIELD_VEC2 = 0,     /* "x y", m */
    KINEMATICS_FIELD_NUMBER = 1,   /* one number, m */
    KINEMATICS_FIELD_VERTICES = 2, /* "x1 y1 x2 y2 ...", m: vertices and nvertices */
    KINEMATICS_FIELD_ANGLES = 3,   /* "angle1 angle2" in the file's angle unit: angle[2] */
    KINEMATICS_FIELD_ANGLE = 4,    /* one angle in the file's angle unit: angle[0] */
    KINEMATICS_FIELD_FLAG = 5,     /* "true" or "false": an int */
    KINEMATICS_FIELD_PROFILE = 6   /* a cam profile's attributes (src/xml/xml_contacts.c) */
} kinematics_field_kind;

typedef struct kinematics_shape_field {
    const char *attr; /* the XML attribute */
    kinematics_field_kind kind;
    size_t offset;  /* into clink_shape_def */
    double dflt[2]; /* when the attribute is absent (NaN: required, the check says so) */
} kinematics_shape_field;

enum {
    KINEMATICS_SHAPE_ROUND = 1,   /* circle or bore: the normal passes through a */
    KINEMATICS_SHAPE_FLAT = 2,    /* a half-plane: no size, no core of its own */
    KINEMATICS_SHAPE_CENTRAL = 4, /* the normal passes through the points the contact is
                                     about (not a capsule's or a polygon's side) */
    KINEMATICS_MAX_FIELDS = 4
};

typedef struct kinematics_shape_class {
    clink_shape_type type;
    const char *name;    /* "circle", in messages and the scene */
    const char *element; /* its XML element in <pair>; NULL if not there (a bore) */
    kinematics_shape_field fields[KINEMATICS_MAX_FIELDS];
    int nfields;
    unsigned traits;
    /* checks and normalises *s (a line's normal to unit length); 0, or -1 with the
       reason (after "shape_a ") in msg, and *status the error's status */
    int (*check)(clink_shape_def *s, char *msg, size_t size, clink_status *status);
    /* radius of curvature for Hertz's stiffness, m (INFINITY: flat) */
    double (*radius)(const clink_shape_def *s);
    /* the size a penetration is compared with, m (INFINITY: none) */
    double (*size)(const kinematics_shape *s);
    /* the length of the contact's onset level (1e-13 of the two shapes' sum), m */
    double (*onset_length)(const kinematics_shape *s);
} kinematics_shape_class;

/* the row of a shape type; NULL for a value outside the enum */
const kinematics_shape_class *kinematics_shape_class_of(clink_shape_type type);

/* the row whose XML element is `element`; NULL if none */
const kinematics_shape_class *kinematics_shape_class_find(const char *element);

/* nonzero if s has trait t */
int kinematics_shape_has(const kinematics_shape *s, unsigned t);

/* the geometry shape of a definition (a polygon's vertices borrowed from d, which must
   outlive s); vertex: 1 + the vertex a contact is about, 0 for the whole shape */
void kinematics_shape_of(const clink_shape_def *d, int vertex, kinematics_shape *s);

/* one ordered pair of the registry: its geometry and its derivative (the function types
   declare the pair functions, contact_polygon.h; the pointer types fill the registry) */
typedef int kinematics_pair_eval_fn(const kinematics_shape *sa, const kinematics_pose *pa,
                                    const double rot_a[2], const kinematics_shape *sb,
                                    const kinematics_pose *pb, const double rot_b[2],
                                    kinematics_contact *out);
typedef int kinematics_pair_diff_fn(const kinematics_shape *sa, const kinematics_pose *pa,
                                    const kinematics_shape *sb, const kinematics_pose *pb,
                                    kinematics_contact_diff *out);
/* the factor s(q) a pair scales its law's force by, a function of body A's angle phi_a (a
   gear mesh's stiffness over its cycle): s, ds / dphi_a, d2s / dphi_a^2 into s[0..2]; returns
   0 (s untouched) when the factor is 1 everywhere for these shapes */
typedef int kinematics_pair_stiffness_fn(const kinematics_shape *sa, double phi_a, double s[3]);
typedef kinematics_pair_eval_fn *kinematics_pair_eval;
typedef kinematics_pair_diff_fn *kinematics_pair_diff;
/* the contact points of a pair (NULL: one) and contact i's vertex features */
typedef int kinematics_pair_npoints_fn(const clink_shape_def *a, const clink_shape_def *b);
typedef void kinematics_pair_point_fn(const clink_shape_def *a, const clink_shape_def *b, int i,
                                      int *va, int *vb);

typedef struct kinematics_pair_entry {
    kinematics_pair_eval eval;
    kinematics_pair_diff diff; /* NULL: central differences (contacts_jacobian.c) */
    /* contact points the pair needs (NULL: one); contact i's vertex features into *va,
     *vb (1 + index, 0: the whole shape) */
    kinematics_pair_npoints_fn *npoints;
    kinematics_pair_point_fn *point;
    /* optional: the factor of the law's force (NULL: 1) */
    kinematics_pair_stiffness_fn *stiffness;
} kinematics_pair_entry;

/* the registry's entry for (A, B); NULL when the pair is not a contact geometry */
const kinematics_pair_entry *kinematics_pair_of(clink_shape_type a, clink_shape_type b);

/* the number of contacts of the pair (a, b) (0 when it is not a contact geometry) and
   contact i's vertex features */
int kinematics_pair_npoints(const clink_shape_def *a, const clink_shape_def *b);
void kinematics_pair_point(const clink_shape_def *a, const clink_shape_def *b, int i, int *va,
                           int *vb);

#endif
