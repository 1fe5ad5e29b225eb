/*
 * The XML reader's internal description of a mechanism file: the plain data read
 * from the document after the schema and the semantic checks, each entity with
 * the line it came from. The builder (xml_build.c) turns it into a clink_model
 * through the public model-building API; `clink check` summarises it.
 *
 * Units: SI; angles already converted to radians (angle_unit="deg" is applied
 * while reading). Index 0 of the bodies is the ground.
 */
#ifndef CLINK_XML_INTERNAL_H
#define CLINK_XML_INTERNAL_H

#include "clink/model.h"

#include <stddef.h>

enum { XML_NAME_MAX = 64, XML_COEF_MAX = 8 };

typedef struct xml_material {
    char name[XML_NAME_MAX];
    int line;
    double E, nu, density, yield; /* Pa, -, kg/m^3, Pa (NaN: not given) */
} xml_material;

typedef struct xml_body {
    char name[XML_NAME_MAX];
    int line;
    double mass, inertia; /* kg, kg m^2 (ground: 0) */
    double x, y, phi;     /* m, m, rad */
    double vx, vy, omega; /* m/s, m/s, rad/s */
    int material;         /* index into materials, -1 if none */
} xml_body;

/* a contact law and its parameters (NaN: not given) */
typedef struct xml_law {
    int line;
    char name[XML_NAME_MAX];
    double K, n, e, chi, c, alpha, v_ref, Y, psi, xi;
    int impulse; /* treatment="impulse" */
} xml_law;

typedef enum xml_friction_kind {
    XML_FRICTION_NONE = 0,
    XML_FRICTION_COULOMB = 1
} xml_friction_kind;

typedef struct xml_friction {
    int line;
    xml_friction_kind kind;
    double mu, v0, v1; /* -, m/s, m/s */
} xml_friction;

typedef enum xml_joint_kind {
    XML_JOINT_REVOLUTE = 0,
    XML_JOINT_TRANSLATIONAL = 1,
    XML_JOINT_WELD = 2,
    XML_JOINT_CLEARANCE = 3
} xml_joint_kind;

typedef struct xml_joint {
    char name[XML_NAME_MAX];
    int line;
    xml_joint_kind kind;
    int body1, body2;    /* clearance: journal, bearing */
    double p1[2], p2[2]; /* body-fixed points, m */
    double axis[2];      /* translational: sliding axis fixed in body1 (unit after reading) */
    double angle;        /* translational, weld: phi2 - phi1 held, rad (default: initial) */
    /* clearance joints */
    double r_journal, r_bearing; /* m */
    int mat1, mat2;              /* journal and bearing materials, -1 if none */
    xml_law law;
    xml_friction friction;
} xml_joint;

typedef enum xml_func_kind {
    XML_FUNC_CONSTANT = 0,
    XML_FUNC_LINEAR = 1,
    XML_FUNC_POLYNOMIAL = 2,
    XML_FUNC_HARMONIC = 3
} xml_func_kind;

typedef enum xml_driver_kind {
    XML_DRIVE_POSITION = 0,  /* displacement along a translational joint, m */
    XML_DRIVE_ANGLE = 1,     /* relative angle of a revolute joint, rad */
    XML_DRIVE_COORDINATE = 2 /* x (m), y (m) or phi (rad) of a body */
} xml_driver_kind;

typedef struct xml_driver {
    char name[XML_NAME_MAX];
    int line;
    xml_driver_kind kind;
    int joint;      /* joint drivers: index into joints */
    int body;       /* coordinate drivers: body index */
    int coordinate; /* coordinate drivers: 0 x, 1 y, 2 phi */
    xml_func_kind func;
    /* constant: c[0]; linear: initial c[0], rate c[1]; polynomial: c[0..ncoef-1];
       harmonic: offset c[0], amplitude c[1], frequency c[2] (rad/s), phase c[3] (rad) */
    double c[XML_COEF_MAX];
    int ncoef;
} xml_driver;

typedef enum xml_load_kind {
    XML_LOAD_FORCE = 0,
    XML_LOAD_TORQUE = 1,
    XML_LOAD_SPRING = 2,
    XML_LOAD_ROT_SPRING = 3
} xml_load_kind;

typedef struct xml_load {
    char name[XML_NAME_MAX];
    int line;
    xml_load_kind kind;
    int body1, body2;    /* force and torque: body1 only */
    double p1[2], p2[2]; /* m */
    double value[2];     /* force: N (global frame); torque: value[0] N m */
    double stiffness, damping, length,
        actuator; /* N/m, N s/m, m, N (rotational: per rad, rad, N m) */
} xml_load;

typedef struct xml_shape {
    int line;
    clink_shape_type kind;
    int body;
    double a[2];   /* circle: centre; line: point; capsule: point1 (m) */
    double b[2];   /* line: unit normal; capsule: point2 (m) */
    double radius; /* circle and capsule, m */
    int material;  /* -1 if none (then the body's) */
} xml_shape;

typedef struct xml_pair {
    char name[XML_NAME_MAX];
    int line;
    xml_shape shape[2];
    xml_law law;
    xml_friction friction;
} xml_pair;

typedef enum xml_method { XML_METHOD_BDF = 0, XML_METHOD_ADAMS = 1 } xml_method;
typedef enum xml_drift {
    XML_DRIFT_PROJECTION = 0,
    XML_DRIFT_BAUMGARTE = 1,
    XML_DRIFT_NONE = 2
} xml_drift;

/* simulation settings: each has a "given" flag so that API defaults apply otherwise */
typedef struct xml_settings {
    int line; /* of <settings>, 0 if absent */
    double t_end, output_step, rtol, atol, max_step, alpha, beta, settle_speed;
    xml_method method;
    xml_drift drift;
    int has_t_end, has_output_step, has_rtol, has_atol, has_max_step, has_alpha, has_beta;
    int has_settle;
    int has_method, has_drift;
} xml_settings;

typedef struct xml_desc {
    char name[XML_NAME_MAX]; /* the mechanism's name (root attribute or file stem) */
    int angle_deg;           /* the file gave angles in degrees */
    double gravity[2];       /* m/s^2 */
    xml_settings settings;
    int out_reactions, out_energies, out_contacts;

    xml_material *materials;
    int n_materials;
    xml_body *bodies; /* [0] is the ground */
    int n_bodies;     /* including the ground */
    xml_joint *joints;
    int n_joints;
    xml_driver *drivers;
    int n_drivers;
    xml_load *loads;
    int n_loads;
    xml_pair *pairs;
    int n_pairs;
} xml_desc;

/* A compiled schema shared by several loads (opaque; wraps libxml2's). */
typedef struct xml_schema xml_schema;

/* Compiles the embedded schema. NULL and a message on failure. */
xml_schema *xml_schema_create(char *err, size_t err_size);
void xml_schema_destroy(xml_schema **schema);

/*
 * Reads a document from memory (name is used in messages, usually the path),
 * validates it against schema (compiled here when NULL) and fills desc.
 * On error: a status < 0, "NAME:LINE: what is wrong" in err, desc freed.
 */
clink_status xml_desc_read_memory(const char *data, size_t size, const char *name,
                                  const xml_schema *schema, xml_desc *desc, char *err,
                                  size_t err_size);

/* Same, reading the file at path first. */
clink_status xml_desc_read_file(const char *path, const xml_schema *schema, xml_desc *desc,
                                char *err, size_t err_size);

/* Frees the arrays of desc (which may be partly filled) and zeroes it. */
void xml_desc_free(xml_desc *desc);

/* Degrees of freedom: 3 per moving body minus the ideal constraint equations. */
int xml_desc_dof(const xml_desc *desc);

/* Number of scalar constraint equations of the ideal joints and drivers. */
int xml_desc_constraints(const xml_desc *desc);

/*
 * Builds the model of a checked description through include/clink/model.h.
 * path names the file in messages ("PATH:LINE: ..."). *model is NULL on error.
 */
clink_status xml_build(const xml_desc *desc, const char *path, clink_model **model, char *err,
                       size_t err_size);

/*
 * The fuzz target's path: reads data as a file named "fuzz.xml" with schema,
 * builds the model when the description is valid, and frees everything.
 * Returns the status of the load.
 */
clink_status xml_fuzz_one(const char *data, size_t size, const xml_schema *schema, char *err,
                          size_t err_size);

#endif /* CLINK_XML_INTERNAL_H */
