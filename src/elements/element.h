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
 * and treatment (the element's `common` fields).
 */
#ifndef CLINK_ELEMENTS_ELEMENT_H
#define CLINK_ELEMENTS_ELEMENT_H

#include "clink/model.h"

#include <stddef.h>

/* the definition of any element kind */
typedef union element_def {
    clink_contact_pair_def pair;
    clink_clearance_joint_def revolute_clearance;
    clink_translational_clearance_def translational_clearance;
    clink_stop_def stop;
    clink_gear_pair_def gear_pair;
} element_def;

/* the fields every element definition has, wherever its struct keeps them */
typedef struct element_common {
    const char **name, **law;
    clink_contact_params *params;
    clink_friction_params *friction;
    clink_contact_treatment *treatment;
    double *restitution;
    int *cookie;
} element_common;

/* one contact of an element: shape sa on body_a against shape sb on body_b */
typedef struct element_contact {
    char part[24]; /* the name's part after the element's, "" for a one-contact element */
    int body_a, body_b;
    clink_shape_def sa, sb;
    int vertex_a, vertex_b; /* a polygon's vertex the contact is about, 1 + index; 0: none */
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
    /* the fields of a definition (pointers into *d) */
    element_common (*common)(element_def *d);
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
} element_class;

/* the class of a kind; NULL for a value outside the enum */
const element_class *element_class_of(clink_element_kind kind);

/* the class whose XML name is `name`; NULL if none */
const element_class *element_class_find(const char *name);

/* the class whose names live in entity kind `entity`; NULL if none */
const element_class *element_class_of_entity(clink_entity entity);

/* shared checks: nonzero if both values are finite */
int element_finite2(const double *x);

/* the world position of point s (body coordinates) of body b (0: the ground) at the
   positions q (body b >= 1 at q + 3 (b - 1)) */
void element_world_point(const double *q, int b, const double s[2], double out[2]);

#endif
