/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * element.h: the contact element table, one row per clink_element_kind.
 *
 * A layer below the model, as the joint table (src/joints/joint.h): it includes only
 * public headers (its files, the geometry and force laws below it: src/kinematics/,
 * src/contact/), so that the model builder (checks, stiffness, expansion), the XML
 * reader (element names), the contact set, the start and the outputs read the same row.
 * Every rule that depends on an element's kind is a hook of its class (the start's ideal
 * joint and checks, the eccentricity columns, an extra force such as a lubricated joint's
 * film): no code outside src/elements/ tests a kind (scripts/check-kind-tests). Each class lives in
 * its own file src/elements/element_<name>.c, which opens with its geometry and defines `const
 * element_class element_<name>`; the list of kinds is CLINK_ELEMENT_KINDS in include/clink/model.h
 * (the enum and this table are both generated from it).
 *
 * An element becomes contacts: `expand` writes, for each contact it needs, the two
 * bodies and the two shapes (clink_shape_def, body coordinates) of the contact
 * geometry (src/kinematics/contact_shapes.h: circles, capsules, lines, bores, polygons),
 * and the part of its name after the element's ("corner2_upper"; "" for an element
 * of one contact). Every contact of an element shares its law, parameters, friction
 * and treatment (the base of its definition, clink_element_base).
 */
#ifndef CLINK_ELEMENTS_ELEMENT_H
#define CLINK_ELEMENTS_ELEMENT_H

#include "clink/model.h"

#include <stddef.h>

/* the definition of any element kind: member `xml_name` of type clink_api_def per row of
   CLINK_ELEMENT_KINDS (include/clink/model.h), each beginning with its base */
#define ELEMENT_DEF_MEMBER_(NAME, name, api, ENTITY, word) clink_##api##_def name;
typedef union element_def {
    CLINK_ELEMENT_KINDS(ELEMENT_DEF_MEMBER_)
} element_def;
#undef ELEMENT_DEF_MEMBER_

/* the fields every element definition has: its base, first in every definition */
static inline clink_element_base *element_base(element_def *d)
{
    return (clink_element_base *) (void *) d;
}

/*
 * The definition's fields, one row each (element_class.fields): what the default
 * definition holds (element_default), what the XML reader reads (src/xml/xml_contacts.c,
 * one reader for every kind: attributes by `attr`, in the element or in its child
 * `child`), and what clink_model_element_field() reports. A field added to a
 * definition is one row here (a <wear> child, a new attribute): the reader, the defaults
 * and the Python view follow.
 */
typedef enum element_field_type {
    ELEMENT_FIELD_NUMBER = 0,  /* double, in `unit` */
    ELEMENT_FIELD_ANGLE,       /* double, rad (read in the file's angle unit) */
    ELEMENT_FIELD_POINT,       /* double[2], "x y" (body coordinates, m, or a direction) */
    ELEMENT_FIELD_BODY,        /* int: a body by name (the ground is 0); always required */
    ELEMENT_FIELD_WORDS,       /* int: the index of one of `words` */
    ELEMENT_FIELD_MATERIAL,    /* file only: a material by name whose E, nu (and yield) fill
                                  the law's side `slot` (0: E1, nu1; 1: E2, nu2); default the
                                  material of the body of row `of` */
    ELEMENT_FIELD_FILE_NUMBER, /* file only: a number into element_file.number[slot] */
    ELEMENT_FIELD_SHAPE,       /* a child shape element (the shape table's, with body= and
                                  material=): the `slot`-th shape of the file into the
                                  clink_shape_def at offset, its body into the int at `of` */
    ELEMENT_FIELD_WEAR,        /* the child `child` read whole by the wear reader
                                  (src/xml/xml_wear.c: k and hardness or kd, a depth profile)
                                  into the clink_wear_def at offset; attr NULL */
    ELEMENT_FIELD_BEAM         /* a beam by name (src/xml/xml_beam_contact.c): its first
                                  node's body into the int at offset, its element count into
                                  the int at `of`; always required */
} element_field_type;

enum {
    ELEMENT_REQUIRED = 1 /* the attribute must be given (in its child when it has one) */
};

typedef struct element_field {
    const char *attr; /* the XML attribute; NULL: a default only */
    element_field_type type;
    size_t offset;            /* into the definition (NUMBER ... WORDS, SHAPE) */
    const char *unit;         /* "m", "rad", "" (words, bodies) */
    double dflt[2];           /* its value in the default definition */
    unsigned flags;           /* ELEMENT_REQUIRED */
    const char *child;        /* the child element that holds it (<lubrication>); NULL: none */
    const char *const *words; /* WORDS: the words of values 0, 1, ... (NULL-terminated) */
    int slot;                 /* MATERIAL, FILE_NUMBER, SHAPE (above) */
    int of;                   /* MATERIAL: a BODY row; SHAPE: the offset of its body; WEAR:
                                 the offset of a worn guide's knot count (int), 0: none */
    size_t depths;            /* WEAR with `of`: the offset of the worn guide's depths
                                 (double[2][CLINK_WEAR_MAX_KNOTS], lower and upper surface) */
    /* a range the file's value must be in, lo < x < hi, when hint is given: else
       "ATTR = X UNIT is out of range; HINT" */
    double lo, hi;
    const char *hint;
} element_field;

/* what the file says beyond the definition, for a class's file rule (element_class.file) */
typedef struct element_file {
    unsigned given;    /* bit i: the attribute of row i was given */
    double number[4];  /* the FILE_NUMBER rows' values (NaN when not given) */
    double pose[2][3]; /* the initial poses (x, y, phi) of the element's two bodies */
    int material[2];   /* the materials of the law's two sides (-1: none) */
} element_file;

/* one contact of an element: shape sa on body_a against shape sb on body_b */
typedef struct element_contact {
    char part[24]; /* the name's part after the element's, "" for a one-contact element */
    int body_a, body_b;
    clink_shape_def sa, sb;
    int vertex_a, vertex_b; /* a polygon's vertex the contact is about, 1 + index; 0: none */
    /* a third body (>= 1; 0: none): the second node of a beam segment whose first node is
       body_a (a beam contact's; src/kinematics/contact_segment.h), and which of the
       segment's ends are the beam's ends (bit 0: body_a's, bit 1: body_c's) */
    int body_c, ends;
} element_contact;

/* how the stiffness follows from materials (element_class.radii) */
typedef enum element_stiffness {
    ELEMENT_STIFFNESS_GIVEN = 0,    /* none: params.K must be given */
    ELEMENT_STIFFNESS_EXTERNAL = 1, /* Hertz with radii R1, R2 (clink_contact_stiffness_hertz) */
    ELEMENT_STIFFNESS_INTERNAL = 2  /* journal in bearing (..._journal_bearing) */
} element_stiffness;

enum { ELEMENT_MAX_CONTACTS = 2 * CLINK_SHAPE_MAX_VERTICES, ELEMENT_MAX_OUTPUTS = 5 };

/* what the simulation computed for an element at an output's state (src/sim/
   sim_element_outputs.c): the dry force of its contacts on each contact's body B (normal and
   friction, summed), and a lubricated joint's film force on its journal (the contact's body
   B), world frame, N */
typedef struct element_forces {
    double dry[2];
    double film[2];
} element_forces;

/* the relative motion of the centres of an element's contact's two shapes (world frame):
   e = c_B - c_A, its rate e', and the two bodies' angular velocities (rad/s) */
typedef struct element_centres {
    double e[2], ed[2];
    double wa, wb;
} element_centres;

/* an element's extra force: f on B's centre (-f on A's), N, world frame, and its slopes
   d f / de, d f / de' (fe[i][j] = d f_i / d e_j) and d f / d omega (either body's) */
typedef struct element_extra {
    double f[2];
    double fe[2][2], fed[2][2], fw[2];
} element_extra;

typedef struct element_class {
    clink_element_kind kind;
    const char *name;    /* the XML element */
    const char *word;    /* in messages: "contact pair" */
    const char *unnamed; /* a name's stem when unnamed: "pair" gives "pair3" */
    clink_entity entity; /* the kind of its names and indices */
    int cookie;          /* the stamp of its default definition */
    size_t size;         /* sizeof its definition */
    /* its definition's own fields (besides the base, clink_element_base) */
    const element_field *fields;
    int nfields;
    const char *section; /* the XML section that holds it: NULL <joints>, "contacts" */
    /* optional: the rules of the file that go beyond one field (attributes that go
       together, defaults from the bodies' initial poses) on a definition read from a file;
       CLINK_OK, or a status with the message after "ELEMENT: " in msg */
    clink_status (*file)(element_def *d, element_file *f, char *msg, size_t size);
    /* its two bodies (checked to exist and differ before `check`) */
    void (*bodies)(const element_def *d, int *body_a, int *body_b);
    /* checks and normalises a definition named `name`; CLINK_OK or a status with the
       whole message ("clearance joint 'j': ...") in msg */
    clink_status (*check)(element_def *d, const char *name, char *msg, size_t size);
    /* R[0], R[1]: the radii of curvature params.R1, R2 default to; R[2], R[3]: those of
       the stiffness formula; returns how the stiffness follows from materials */
    element_stiffness (*radii)(const element_def *d, double R[4]);
    /* the message when params.K is still missing after materials; NULL: the law's check
       names what is missing */
    const char *k_missing;
    int (*ncontacts)(const element_def *d);
    /* its contacts (ncontacts of them) into out, zero-filled by the caller */
    void (*expand)(const element_def *d, element_contact *out);
    /* extra outputs: their number, names and units, and values at the two bodies' poses */
    int noutputs;
    const char *const *output_names;
    const char *const *output_units;
    void (*outputs)(const element_def *d, const double qa[3], const double qb[3], double *values);
    /* optional: the number of outputs of this definition when it differs from noutputs (the
       first of output_names); NULL: noutputs */
    int (*output_count)(const element_def *d);
    /* optional: the outputs output_names[force_first] on come from the forces the simulation
       computed at the output's state (`outputs` leaves them alone; without a simulation,
       clink_model_element_outputs, they are NaN) */
    int force_first;
    void (*force_outputs)(const element_def *d, const element_forces *f, double *values);
    /* optional: 1 + the index of an output that is the first separation of its (first)
       contact in the current turn of the body carrying its profile, a cam's
       (contacts_first_separation, at the output's state; NaN without a simulation); 0: none */
    int turn_output;

    /* the rules of the start (start="ideal", "ideal_centred"; the start checks) */
    /* optional: the ideal joint the element stands for at the positions q (body b >= 1 at
       q + 3 (b - 1)), centred or as q has it, into *j (the caller's default joint,
       clink_default_joint_def; src/system/system_ideal.c); NULL: none */
    void (*ideal_joint)(const element_def *d, const double *q, int centred, clink_joint_def *j);
    /* optional: how far start="ideal_centred" may move a body in centring the element: the
       distance (m) into *move and the tilt (rad) into *tilt (src/sim/sim_check.c); NULL:
       none */
    void (*centring)(const element_def *d, double *move, double *tilt);
    /* the start check's words for one of its contacts approaching its wall ("journal
       approaching the bearing"); NULL: its contacts are checked for a penetration only */
    const char *approach;
    /* optional: the size (m) against which a penetration of its contacts is judged when
       their shapes have none (a point on a line: a stop, a slider's corner), as a circle's
       radius is (src/contacts/contacts.c, contacts_size); NULL or 0: none */
    double (*contact_size)(const element_def *d);

    /* optional: a force beyond its contact's law between the centres of its (one) contact's
       shapes, a function of their relative motion (a lubricated joint's oil film; applied and
       differentiated through the bodies' kinematics by src/contacts/contacts_extra.c; its
       power is booked with the contact's damping). extra_on: nonzero when definition d has
       one; extra_name names it in messages ("film") */
    int (*extra_on)(const element_def *d);
    const char *extra_name;
    /* the force at s into out->f, and its slopes when slopes (else they are left alone);
       0, or -1 when it is not finite or cannot be evaluated */
    int (*extra_force)(const element_def *d, const element_centres *s, int slopes,
                       element_extra *out);
    /* nonzero: its Jacobian by differences of extra_force rather than from its slopes */
    int (*extra_by_differences)(const element_def *d);
    /* optional: nonzero when the force at s is outside its theory's validity, the quantity
       that says so into *value (a long bearing turning backwards: Omega, rad/s) */
    int (*extra_invalid)(const element_def *d, const element_centres *s, double *value);

    /* nonzero: its contacts report the journal's eccentricity (the contact columns ex, ey;
       clink_model_contact_has_eccentricity) */
    int eccentricity;
    /* nonzero: it slides along a guide that can wear (clink_model_element_has_guide;
       the guide wear of src/wear/) */
    int guide;
} element_class;

/* the class of a kind; NULL for a value outside the enum */
const element_class *element_class_of(clink_element_kind kind);

/* the class whose XML name is `name`; NULL if none */
const element_class *element_class_find(const char *name);

/* the class whose names live in entity kind `entity`; NULL if none */
const element_class *element_class_of_entity(clink_entity entity);

/* the default definition of class ec into *d: the base's defaults (laws' parameters not
   given, frictionless, continuous, the stamp) and the rows' */
void element_default(const element_class *ec, element_def *d);

/* the index of row `attr` of class ec, -1 if none */
int element_field_find(const element_class *ec, const char *attr);

/* shared checks: nonzero if both values are finite */
int element_finite2(const double *x);

/* the world position of point s (body coordinates) of body b (0: the ground) at the
   positions q (body b >= 1 at q + 3 (b - 1)) */
void element_world_point(const double *q, int b, const double s[2], double out[2]);

/* a translational clearance joint's worn guide checked (element_translational_clearance.c,
   clink_model_set_worn_guide): CLINK_OK, or CLINK_ERR_RANGE with the reason in msg */
clink_status element_worn_guide_check(const clink_translational_clearance_def *d, const char *name,
                                      char *msg, size_t size);

#endif
