/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink model building: a planar mechanism described in code.
 *
 * Rhythm (MuJoCo-style immutable model, Box2D-style definitions):
 *
 *   clink_model_builder *b = clink_model_builder_create();
 *   clink_body_def bd = clink_default_body_def();
 *   bd.name = "crank"; bd.mass = 0.30; bd.inertia = 1e-4; bd.x = 0.025;
 *   int crank; clink_model_builder_add_body(b, &bd, &crank);
 *   clink_joint_def jd = clink_default_joint_def();
 *   jd.type = CLINK_JOINT_REVOLUTE; jd.body_a = 0; jd.body_b = crank; ...
 *   clink_model_builder_add_joint(b, &jd, NULL);
 *   clink_model *m = NULL;
 *   if (clink_model_builder_finalize(b, &m) != CLINK_OK)
 *       fprintf(stderr, "%s\n", clink_model_builder_error(b));
 *   clink_model_builder_destroy(&b);
 *   ...
 *   clink_model_destroy(&m);
 *
 * Table of contents:
 *   - builder             clink_model_builder_new/_create/_destroy/_error/_finalize
 *   - bodies              clink_body_def, clink_default_body_def(), clink_model_builder_add_body()
 *   - joints              clink_joint_def (revolute, translational, weld), _add_joint()
 *   - drivers             clink_function, clink_driver_def, _add_driver()
 *   - applied loads       gravity, clink_force_def (point force, torque, spring-damper-actuator,
 *                         rotational spring-damper), _add_force()
 *   - inputs              clink_input_def, _add_input(), clink_model_input_count/_name/_find
 *   - settings            clink_settings_def (integration and drift control), _set_settings()
 *   - names               clink_model_builder_find(), clink_model_find(), clink_model_name()
 *   - model queries       counts, body properties, settings
 *   - contact             clink_shape_def, clink_contact_pair_def, _add_contact_pair();
 *                         clink_clearance_joint_def, _add_clearance_joint()
 *
 * Conventions. Planar, SI units throughout. A body's coordinates are
 * q = (x, y, phi): the position of its centre of mass in the global frame (m) and
 * the angle of its body frame from the global x axis (rad, counter-clockwise).
 * "Body coordinates" of a point are its position in the body frame, relative to
 * the centre of mass (m). Ground is body 0 (name "ground"), at rest at the
 * origin with phi = 0; it is created with the builder.
 *
 * Identifiers: every add function returns the new entity's index (0, 1, ... in
 * order of addition per kind; bodies start at 1 because ground is 0) through an
 * optional int pointer. Indices in the finalised model equal those of the builder.
 *
 * Errors: every function that can fail returns a clink_status and keeps a one-line
 * message ("joint 'pin': body_b 7 does not exist (3 bodies)") retrievable with
 * clink_model_builder_error(). A failed add leaves the builder unchanged.
 *
 * Ownership: the builder copies every definition, including names, so the
 * caller's strings and structs may be freed after the call. The builder and the
 * model are owned by the caller and released with their destroy functions,
 * which accept NULL and null the caller's pointer. A model does not depend on
 * the builder it came from.
 */
#ifndef CLINK_MODEL_H
#define CLINK_MODEL_H

#include "clink/clink.h"
#include "clink/contact.h"
#include "clink/friction.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- builder -------------------------------------------------------------- */

/* A mechanism under construction (mutable). */
typedef struct clink_model_builder clink_model_builder;

/*
 * Creates an empty builder holding only ground (body 0) in *builder: CLINK_OK,
 * or CLINK_ERR_NOMEM (the only way it fails, so it takes no message buffer)
 * with *builder NULL; CLINK_ERR_ARG if builder is NULL.
 */
CLINK_API clink_status clink_model_builder_new(clink_model_builder **builder);

/* Convenience over clink_model_builder_new(): the builder, or NULL if out of memory. */
CLINK_API clink_model_builder *clink_model_builder_create(void);

/* Releases a builder; accepts NULL and NULL *builder; sets *builder to NULL. */
CLINK_API void clink_model_builder_destroy(clink_model_builder **builder);

/* The message of the last failure ("" if none); borrowed, valid until the next call. */
CLINK_API const char *clink_model_builder_error(const clink_model_builder *builder);

/*
 * Checks the whole model (every reference resolves, no body is left without
 * mass, settings in range) and creates the immutable model in *model (caller
 * owns it). The builder stays valid and may be finalised again. On failure
 * *model is NULL and the builder's error message says why.
 */
CLINK_API clink_status clink_model_builder_finalize(clink_model_builder *builder,
                                                    clink_model **model);

/* Releases a model; accepts NULL and NULL *model; sets *model to NULL. */
CLINK_API void clink_model_destroy(clink_model **model);

/* ---- entity kinds and names ----------------------------------------------- */

/*
 * The contact element kinds, one row each: X(KIND, xml_name, api, ENTITY, "word").
 * A row makes the kind's value CLINK_ELEMENT_KIND and its entity kind
 * CLINK_ENTITY_ENTITY (its own names and indices), and declares its public API,
 * defined once for every kind by src/model/model_contact.c: clink_api_def (the
 * struct, declared below, beginning with CLINK_ELEMENT_BASE_), clink_default_api_def(),
 * clink_model_builder_add_api() and clink_model_api(). xml_name is its XML element and
 * its kind's name (clink_model_element_kind_name), "word" its name in messages. Its class,
 * with the fields of its definition, is src/elements/element_<xml_name>.c.
 */
#define CLINK_ELEMENT_KINDS(X)                                                                     \
    X(PAIR, pair, contact_pair, CONTACT_PAIR, "contact pair")                                      \
    X(REVOLUTE_CLEARANCE, revolute_clearance, clearance_joint, CLEARANCE_JOINT, "clearance joint") \
    X(TRANSLATIONAL_CLEARANCE, translational_clearance, translational_clearance,                   \
      TRANSLATIONAL_CLEARANCE, "translational clearance joint")                                    \
    X(STOP, stop, stop, STOP, "stop")                                                              \
    X(GEAR_PAIR, gear_pair, gear_pair, GEAR_PAIR, "gear pair")                                     \
    X(SLOT_CLEARANCE, slot_clearance, slot_clearance, SLOT_CLEARANCE, "slot clearance joint")      \
    X(BEAM_CONTACT, beam_contact, beam_contact, BEAM_CONTACT, "beam contact")

#define CLINK_ENTITY_ENUM_(NAME, name, api, ENTITY, word) CLINK_ENTITY_##ENTITY,
typedef enum clink_entity {
    CLINK_ENTITY_BODY = 0,
    CLINK_ENTITY_JOINT = 1,
    CLINK_ENTITY_DRIVER = 2,
    CLINK_ENTITY_FORCE = 3,
    /* then the contact elements' (clink_element_kind), CLINK_ENTITY_<ENTITY> in the order
       of CLINK_ELEMENT_KINDS, each kind its own names and indices: CLINK_ENTITY_CONTACT_PAIR
       = 4, CLINK_ENTITY_CLEARANCE_JOINT (revolute joints with radial clearance), ... */
    CLINK_ELEMENT_KINDS(CLINK_ENTITY_ENUM_) CLINK_ENTITY_COUNT_
} clink_entity;
#undef CLINK_ENTITY_ENUM_

/* the entity kind of element kind k (clink_element_kind) */
#define CLINK_ENTITY_OF_ELEMENT(k) ((clink_entity) (CLINK_ENTITY_FORCE + 1 + (int) (k)))

/*
 * Names: optional (NULL or "" means unnamed), at most CLINK_NAME_MAX - 1 bytes,
 * unique per kind when given. Bodies, joints, drivers and forces are found by
 * name with clink_model_builder_find() / clink_model_find().
 */
enum { CLINK_NAME_MAX = 64 };

/*
 * Definitions are made by their clink_default_*_def() function, then edited
 * field by field (Box2D's rule): each carries a stamp in `cookie` that the
 * builder checks, so a struct left uninitialised or zeroed by hand is refused
 * with CLINK_ERR_ARG and a message naming the default function. Do not set
 * `cookie`; definitions returned by the model's getters keep theirs.
 */
enum { CLINK_DEF_COOKIE = 0x636c6b00 };

/* ---- bodies --------------------------------------------------------------- */

typedef struct clink_body_def {
    const char *name; /* optional, copied */
    double mass;      /* kg, > 0 */
    double inertia;   /* moment of inertia about the centre of mass, kg m^2, > 0 */
    double x, y;      /* initial position of the centre of mass, m */
    double phi;       /* initial angle, rad */
    double vx, vy;    /* initial velocity of the centre of mass, m/s */
    double omega;     /* initial angular velocity, rad/s */
    int cookie;       /* stamped by clink_default_body_def(); checked by the builder */
} clink_body_def;

/* mass 1 kg, inertia 1 kg m^2, everything else zero, no name */
CLINK_API clink_body_def clink_default_body_def(void);

/*
 * Adds a rigid body. Initial positions and velocities are the user's guess: the
 * simulation projects them onto the constraints before it starts (and reports
 * the correction). *id (optional) receives the body index (>= 1).
 * CLINK_ERR_RANGE for mass or inertia <= 0 or non-finite values.
 */
CLINK_API clink_status clink_model_builder_add_body(clink_model_builder *builder,
                                                    const clink_body_def *def, int *id);

/* ---- joints --------------------------------------------------------------- */

/*
 * The joint types, one row each: X(SUFFIX, name) gives CLINK_JOINT_<SUFFIX> (in
 * row order, from 0) and the name of its XML element. Each type's equations and
 * checks are in src/joints/joint_<name>.c (docs/development.md, "Recipes").
 */
#define CLINK_JOINT_TYPES(X)                                                                       \
    /* point_a on body_a coincides with point_b on body_b: 2 equations */                          \
    X(REVOLUTE, revolute)                                                                          \
    /* translational (prismatic): point_b on body_b stays on the line through point_a along        \
       axis_a (body_a coordinates), and the relative angle stays at angle0: 2 equations. Joint     \
       coordinate: displacement of point_b from point_a along axis_a, m. */                        \
    X(TRANSLATIONAL, translational)                                                                \
    /* body_b fixed to body_a: point_a and point_b coincide and phi_b - phi_a = angle0: 3 eqs */   \
    X(WELD, weld)                                                                                  \
    /* pin-in-slot: point_b (the pin) on body_b stays on the line through point_a along axis_a     \
       (body_a coordinates, the slot); body_b turns freely: 1 equation */                          \
    X(PIN_SLOT, pin_slot)                                                                          \
    /* ideal gear: phi_b + ratio phi_a = angle0, ratio = r_a / r_b external, -r_a / r_b internal   \
       (each gear on its own revolute joint): 1 equation */                                        \
    X(GEAR, gear)

typedef enum clink_joint_type {
#define CLINK_JOINT_ENUM_(SUFFIX, name) CLINK_JOINT_##SUFFIX,
    CLINK_JOINT_TYPES(CLINK_JOINT_ENUM_)
#undef CLINK_JOINT_ENUM_
        CLINK_JOINT_TYPE_COUNT_
} clink_joint_type;

typedef struct clink_joint_def {
    const char *name; /* optional, copied */
    clink_joint_type type;
    int body_a, body_b; /* body indices (0 = ground), different */
    double point_a[2];  /* joint point on body_a, body_a coordinates, m */
    double point_b[2];  /* joint point on body_b, body_b coordinates, m */
    double axis_a[2];   /* translational: sliding direction in body_a coordinates (normalised) */
    double angle0;      /* translational and weld: phi_b - phi_a held by the joint, rad;
                           gear: phi_b + ratio phi_a held */
    double ratio;       /* gear: r_a / r_b (external), -r_a / r_b (internal); default 1 */
    /* friction in a revolute or translational joint (docs/friction.md, "Joint friction"):
       a static law of the friction catalogue with the normal force F_n = |reaction| +
       preload (revolute: torque r F_t(r omega_rel, F_n); translational: F_n = max(|N|,
       2 |M| / L), force F_t(v_slide, F_n) along the axis); kind NONE: none */
    clink_friction_params friction;
    double friction_radius;  /* revolute: pin radius r, m (> 0 with friction) */
    double friction_length;  /* translational: slider length L, m (> 0 with friction) */
    double friction_preload; /* normal force added to the reaction, N (>= 0) */
    int cookie;              /* stamped by clink_default_joint_def(); checked by the builder */
} clink_joint_def;

/* revolute, bodies 0 and 0 (must be set), points at the centres, axis (1, 0), angle0 0 */
CLINK_API clink_joint_def clink_default_joint_def(void);

/* Adds a joint; *id (optional) receives the joint index (>= 0). */
CLINK_API clink_status clink_model_builder_add_joint(clink_model_builder *builder,
                                                     const clink_joint_def *def, int *id);

/* ---- drivers (rheonomic constraints) -------------------------------------- */

typedef enum clink_function_type {
    CLINK_FUNCTION_CONSTANT = 0,   /* f = c[0] */
    CLINK_FUNCTION_LINEAR = 1,     /* f = c[0] + c[1] t (constant rate: a crank at c[1] rad/s) */
    CLINK_FUNCTION_POLYNOMIAL = 2, /* f = sum_{i<n} c[i] t^i, n <= CLINK_FUNCTION_MAX_COEFS */
    CLINK_FUNCTION_HARMONIC = 3,   /* f = c[0] + c[1] sin(c[2] t + c[3]); c[2] in rad/s */
    /* ramp from c[2] at t <= c[0] to c[3] at t >= c[1] (c[0] < c[1]): linear between */
    CLINK_FUNCTION_RAMP = 4,
    /* smooth step, the same with the quintic s(x) = 10 x^3 - 15 x^4 + 6 x^5, x = (t - c[0]) /
       (c[1] - c[0]): value, rate and acceleration continuous */
    CLINK_FUNCTION_SMOOTH_STEP = 5,
    /* tables of npoints (>= 2) increasing times and values: linear interpolation, or a
       natural cubic spline (second derivative zero at the ends); held at the end values
       outside the table (rate and acceleration zero there) */
    CLINK_FUNCTION_TABLE_LINEAR = 6,
    CLINK_FUNCTION_TABLE_SPLINE = 7,
    /* piecewise cubic: segment i starts at times[i] (increasing) and is values[4 i] +
       values[4 i + 1] s + values[4 i + 2] s^2 + values[4 i + 3] s^3, s = t - times[i];
       segment 0 also covers t < times[0], the last every later t */
    CLINK_FUNCTION_PIECEWISE = 8,
    CLINK_FUNCTION_TYPE_COUNT_ = 9
} clink_function_type;

enum { CLINK_FUNCTION_MAX_COEFS = 8 };

/* A prescribed function of time f(t); t in s, f in the unit of the driven coordinate. */
typedef struct clink_function {
    clink_function_type type;
    int n; /* number of coefficients used by CLINK_FUNCTION_POLYNOMIAL */
    double c[CLINK_FUNCTION_MAX_COEFS];
    /* tables and piecewise functions: npoints times and their values (4 npoints coefficients
       for CLINK_FUNCTION_PIECEWISE), borrowed during the add call and copied by the builder
       (the model's copies are what clink_model_driver() and clink_model_force() return) */
    int npoints;
    const double *times;
    const double *values;
    /* splines: the second derivatives at the times, computed by the builder; NULL in a
       definition made by hand (clink_function_eval then computes them at each call) */
    const double *moments;
} clink_function;

/* What a driver prescribes. */
typedef enum clink_driver_target {
    /* coordinate `coordinate` (0 x, 1 y, 2 phi) of body `body`, m or rad */
    CLINK_DRIVE_BODY_COORDINATE = 0,
    /* relative angle phi_b - phi_a of revolute joint `joint`, rad */
    CLINK_DRIVE_JOINT_ANGLE = 1,
    /* displacement along the axis of translational joint `joint`, m */
    CLINK_DRIVE_JOINT_DISPLACEMENT = 2,
    CLINK_DRIVER_TARGET_COUNT_ = 3
} clink_driver_target;

typedef struct clink_driver_def {
    const char *name; /* optional, copied */
    clink_driver_target target;
    int body;       /* CLINK_DRIVE_BODY_COORDINATE: body index >= 1 */
    int coordinate; /* CLINK_DRIVE_BODY_COORDINATE: 0 x, 1 y, 2 phi */
    int joint;      /* joint targets: joint index (revolute or translational as the target says) */
    clink_function function; /* the prescribed value as a function of time */
    int cookie;              /* stamped by clink_default_driver_def(); checked by the builder */
} clink_driver_def;

/* body coordinate phi of body 1, constant 0 */
CLINK_API clink_driver_def clink_default_driver_def(void);

/*
 * Adds a driver: one equation coordinate(q) - f(t) = 0. A crank at constant speed
 * omega (rad/s) from angle phi0: CLINK_FUNCTION_LINEAR with c = {phi0, omega}.
 * The driver's Lagrange multiplier is the generalised force it applies (N or N m).
 */
CLINK_API clink_status clink_model_builder_add_driver(clink_model_builder *builder,
                                                      const clink_driver_def *def, int *id);

/* ---- applied loads -------------------------------------------------------- */

/* Gravity acceleration (m/s^2) on every body; default (0, -9.81). */
CLINK_API clink_status clink_model_builder_set_gravity(clink_model_builder *builder, double gx,
                                                       double gy);

typedef enum clink_force_type {
    /* constant force (fx, fy) in the global frame, N, at point_a of body_a */
    CLINK_FORCE_POINT = 0,
    /* constant torque on body_a, N m (counter-clockwise positive) */
    CLINK_FORCE_TORQUE = 1,
    /*
     * translational spring-damper-actuator between point_a on body_a and point_b
     * on body_b: tension F = k (l - free_length) + c dl/dt + actuator (N, positive
     * pulls the points together), l the distance between the points (m, > 0).
     */
    CLINK_FORCE_SPRING_DAMPER = 2,
    /*
     * rotational spring-damper-actuator between body_a and body_b: torque on body_b
     * T = -k (phi_b - phi_a - free_length) - c (omega_b - omega_a) + actuator (N m),
     * and -T on body_a; free_length is the free relative angle (rad).
     */
    CLINK_FORCE_ROTATIONAL_SPRING_DAMPER = 3,
    /*
     * planar beam element between nodes body_a and body_b (docs/flexible.md; usually made by
     * clink_model_builder_add_beam): stiffnesses ea (N), ga (k G A, N), ei (N m^2), undeformed
     * length free_length (m, > 0), Kelvin-Voigt retardation time c (s, >= 0); the nodes'
     * angles are the cross-sections' rotations, equal to the element's direction when
     * undeformed
     */
    CLINK_FORCE_BEAM = 4,
    CLINK_FORCE_TYPE_COUNT_ = 5
} clink_force_type;

typedef struct clink_force_def {
    const char *name; /* optional, copied */
    clink_force_type type;
    int body_a, body_b; /* body indices; body_b unused by point force and torque */
    double point_a[2];  /* body_a coordinates, m */
    double point_b[2];  /* body_b coordinates, m */
    double fx, fy;      /* point force, N, global frame */
    double torque;      /* torque, N m */
    double k;           /* stiffness: N/m (translational), N m/rad (rotational), >= 0 */
    double c;           /* damping: N s/m (translational), N m s/rad (rotational), >= 0 */
    double free_length; /* m (translational) or rad (rotational, free relative angle) */
    double actuator;    /* constant actuator force N (tension positive) or torque N m */
    int cookie;         /* stamped by clink_default_force_def(); checked by the builder */
    /* a function of time multiplying the load's value: the point force (fx, fy), the torque,
       the actuator of a spring-damper (its spring and damper are not scaled); default the
       constant 1 */
    clink_function scale;
    double ea, ga, ei; /* CLINK_FORCE_BEAM: E A (N), k G A (N), E I (N m^2), each > 0 */
} clink_force_def;

/* point force, bodies 1 and 0, everything zero, scale the constant 1 */
CLINK_API clink_force_def clink_default_force_def(void);

/* Adds an applied load; *id (optional) receives its index (>= 0). */
CLINK_API clink_status clink_model_builder_add_force(clink_model_builder *builder,
                                                     const clink_force_def *def, int *id);

/* ---- flexible beams (docs/flexible.md) ---------------------------------------- */

/* A straight planar beam cut into `elements` elements of equal length: elements + 1 nodes,
   bodies named "NAME.0" .. "NAME.N" from `from` to `to` (their angles the beam's direction),
   with the lumped masses rho A l / 2 and rotary inertias rho I l / 2 of the elements on
   either side, and `elements` beam elements (CLINK_FORCE_BEAM), loads named "NAME.e0" .. */
typedef struct clink_beam_def {
    const char *name;      /* required, copied; at most CLINK_NAME_MAX - 8 bytes */
    double from[2], to[2]; /* end points of the centreline, m (distinct) */
    int elements;          /* >= 1 */
    double area;           /* cross-section A, m^2, > 0 */
    double second_moment;  /* I, m^4, > 0 */
    double E, G;           /* Young's and shear moduli, Pa, > 0 */
    double density;        /* rho, kg/m^3, > 0 */
    double shear_factor;   /* k of k G A, > 0 (default 5/6, a rectangle) */
    double damping;        /* Kelvin-Voigt retardation time, s, >= 0 (default 0) */
    /* initial velocity as a rigid motion: (vx, vy) of the `from` end, m/s, and the angular
       velocity omega, rad/s (node i moves at v + omega x (r_i - from)) */
    double vx, vy, omega;
    int cookie; /* stamped by clink_default_beam_def(); checked by the builder */
} clink_beam_def;

/* no name, from (0, 0) to (1, 0), 1 element, shear factor 5/6, zero elsewhere (must be set) */
CLINK_API clink_beam_def clink_default_beam_def(void);

/* Adds a beam's nodes and elements; *first_node (optional) receives the body index of node 0
   (node i is first_node + i). CLINK_ERR_RANGE for a value out of range, CLINK_ERR_ARG for a
   missing name. */
CLINK_API clink_status clink_model_builder_add_beam(clink_model_builder *builder,
                                                    const clink_beam_def *def, int *first_node);

/* ---- inputs: values the host sets between advances (clink_sim_set_input) ---- */

typedef enum clink_input_kind {
    /* force u (N) along `direction` (global frame, normalised by the builder) at `point`
       (body coordinates) of body `target` */
    CLINK_INPUT_FORCE = 0,
    /* torque u (N m, counter-clockwise) on body `target` */
    CLINK_INPUT_TORQUE = 1,
    /* torque u (N m) across revolute joint `target`: +u on its body_b, -u on its body_a */
    CLINK_INPUT_JOINT_TORQUE = 2,
    /* force u (N) across translational joint `target` along its axis (axis_a turned with
       body_a): +u on body_b at point_b, -u on body_a at the same point */
    CLINK_INPUT_JOINT_FORCE = 3,
    /* u multiplies load `target`'s value (with its scale function: clink_force_def.scale) */
    CLINK_INPUT_LOAD_SCALE = 4,
    /* driver `target` prescribes u (m or rad) from the time it is set: f(t) = u + slope
       (t - t_set); until first set the driver follows its own function */
    CLINK_INPUT_DRIVER_VALUE = 5,
    /* driver `target` moves at the rate u (m/s or rad/s) from where it is when set: f(t) =
       f(t_set) + u (t - t_set) + slope (t - t_set)^2 / 2 */
    CLINK_INPUT_DRIVER_RATE = 6,
    CLINK_INPUT_KIND_COUNT_ = 7
} clink_input_kind;

typedef struct clink_input_def {
    const char *name; /* required, unique among the inputs, copied */
    clink_input_kind kind;
    int target;          /* the body, joint, load or driver the kind names */
    double point[2];     /* CLINK_INPUT_FORCE: body coordinates, m */
    double direction[2]; /* CLINK_INPUT_FORCE: global frame, non-zero */
    double initial;      /* the value at t = 0 (driver inputs: unused until set) */
    int cookie;          /* stamped by clink_default_input_def(); checked by the builder */
} clink_input_def;

/* torque on body 1, point 0, direction (1, 0), initial 0, no name (must be set) */
CLINK_API clink_input_def clink_default_input_def(void);

/* Adds an input; *id (optional) receives its index (>= 0). CLINK_ERR_ARG for a missing
   name, CLINK_ERR_RANGE / CLINK_ERR_MODEL for a target out of range or of the wrong kind
   (a joint torque needs a revolute joint, a joint force a translational one). */
CLINK_API clink_status clink_model_builder_add_input(clink_model_builder *builder,
                                                     const clink_input_def *def, int *id);

/* Number of inputs; input i's name and kind (NULL and -1 out of range); its definition
   (name borrowed); the index of the input called name (-1 if none). */
CLINK_API int clink_model_input_count(const clink_model *model);
CLINK_API const char *clink_model_input_name(const clink_model *model, int i);
CLINK_API int clink_model_input_kind(const clink_model *model, int i);
CLINK_API clink_status clink_model_input(const clink_model *model, int i, clink_input_def *def);
CLINK_API int clink_model_input_find(const clink_model *model, const char *name);

/* ---- settings ------------------------------------------------------------- */

/* what an integration method can do (clink_method_caps); the simulation asks these, never a
   method's name (docs/kernel.md, "Integrators and what they can do") */
enum {
    CLINK_CAP_EVENTS = 1,     /* locates events: models with contacts */
    CLINK_CAP_PROJECTION = 2, /* takes each step onto the constraints: drift="projection" */
    CLINK_CAP_JACOBIAN = 4,   /* Newton iteration on the problem's Jacobian df/dy (stiff) */
    CLINK_CAP_FIXED_STEP = 8, /* steps at the fixed step max_step (> 0), no error control */
    CLINK_CAP_RESIZE = 16     /* runs on a state whose size changes: the window of the state */
};

/*
 * The methods, one row each: the enum's name, the word of model files, the integrator that
 * runs it (src/integrators/<it>/; none: resolved before a run) and its capabilities. The
 * rows generate clink_method, clink_method_name(), clink_method_caps() and the integrator
 * of each method (src/integrators/integrator.c); a new method is a new row (at the end:
 * the values are stored in state snapshots). docs/development.md, "Add an integrator".
 *
 *   bdf    variable order BDF, Newton with the sparse KLU Jacobian (stiff), CVODE
 *   adams  Adams-Moulton, fixed-point iteration (non-stiff): CVODE 6.4.1's method on plain
 *          arrays, bit for bit (src/integrators/adams)
 *   rk4    classical Runge-Kutta of order 4 at the fixed step max_step (> 0)
 *   auto   chosen by clink_sim_create() from the model's structure (the default; the rule and
 *          the study behind it: docs/kernel.md, "What auto picks and why"): BDF when the
 *          joints close two kinematic loops or a friction law has states, else Adams;
 *          clink_sim_settings() tells what was chosen
 *   rk8    the Dormand-Prince pair of order 8 with its own step control (rtol, atol,
 *          max_step a bound), for smooth non-stiff problems without contacts
 */
#define CLINK_METHOD_TABLE(X)                                                                      \
    X(BDF, "bdf", cvode, CLINK_CAP_EVENTS | CLINK_CAP_PROJECTION | CLINK_CAP_JACOBIAN)             \
    X(ADAMS, "adams", adams, CLINK_CAP_EVENTS | CLINK_CAP_RESIZE)                                  \
    X(RK4, "rk4", rk4, CLINK_CAP_PROJECTION | CLINK_CAP_FIXED_STEP)                                \
    X(AUTO, "auto", none, 0)                                                                       \
    X(RK8, "rk8", rk8, 0)

typedef enum clink_method {
#define CLINK_METHOD_ENUM_(id, word, integrator, caps) CLINK_METHOD_##id,
    CLINK_METHOD_TABLE(CLINK_METHOD_ENUM_)
#undef CLINK_METHOD_ENUM_
        CLINK_METHOD_COUNT /* the number of methods, not one */
} clink_method;

/* the method's name in model files: "bdf", "adams", "rk4", "auto", "rk8"; NULL for another
   value */
CLINK_API const char *clink_method_name(clink_method method);

/* the method's capabilities (CLINK_CAP_*); 0 for auto and for another value */
CLINK_API unsigned clink_method_caps(clink_method method);

typedef enum clink_drift {
    /* positions and velocities projected onto the constraints after each step
     * (CVodeSetProjFn; BDF only on SUNDIALS 6.4) */
    CLINK_DRIFT_PROJECTION = 0,
    /* Baumgarte: gamma - 2 alpha Phi_dot - beta^2 Phi (works with both methods) */
    CLINK_DRIFT_BAUMGARTE = 1,
    /* neither (for studies of drift) */
    CLINK_DRIFT_NONE = 2,
    /* chosen by clink_sim_create() (the default): none without joints and drivers,
     * projection when the joints close a kinematic loop, else Baumgarte; with an explicit
     * method: never projection with Adams */
    CLINK_DRIFT_AUTO = 3
} clink_drift;

/* Default settle speed of contacts, m/s (clink_settings_def.settle_speed). */
#define CLINK_SETTLE_SPEED_DEFAULT 1e-3

/* How contacts book their impacts (docs/contact-mechanics.md, "Bookkeeping"). */
typedef enum clink_contact_bookkeeping {
    /* the literature's (default): every contact episode from onset to separation is one
     * impact record, however many compression lobes it has; every separation followed by a
     * new onset is a new impact whose damping uses its own approach speed. Episodes that
     * start slower than the settle speed (resting contact) follow the hysteresis rule. */
    CLINK_BOOKKEEPING_EPISODES = 0,
    /* a re-compression while in contact, or a separation slower than the settle speed,
     * makes the contact permanent until the gap exceeds 0.1 of its largest penetration
     * (for contacts that settle: chains at rest, a ball coming to rest) */
    CLINK_BOOKKEEPING_HYSTERESIS = 1
} clink_contact_bookkeeping;

/* how the clearance joints start (clink_settings_def.start; docs/xml-reference.md, <settings>) */
typedef enum clink_start {
    /* the velocities as given (made consistent with the ideal joints and the drivers only) */
    CLINK_START_AS_GIVEN = 0,
    /* the velocities of the mechanism with every clearance joint made ideal at the offset the
       assembled positions give (a revolute clearance joint a revolute joint holding the
       journal's eccentricity fixed in the bearing, a translational one a translational joint
       holding the slider's offset and tilt): no relative speed in any clearance joint */
    CLINK_START_IDEAL = 1,
    /* the same with the clearance joints centred first: each journal moved to its bearing's
       centre, each slider onto its guide's mid-line and aligned with it */
    CLINK_START_IDEAL_CENTRED = 2
} clink_start;

typedef struct clink_settings_def {
    double t_end;       /* end time, s (> 0) */
    double output_step; /* spacing of output times, s (> 0) */
    double rtol;        /* relative tolerance, - (> 0) */
    double atol;        /* absolute tolerance, in the unit of each state, (> 0) */
    double max_step;    /* maximum step, s; 0 for no limit */
    clink_method method;
    clink_drift drift;
    double baumgarte_alpha; /* 1/s, >= 0 */
    double baumgarte_beta;  /* 1/s, >= 0 */
    double settle_speed;    /* contacts approaching or separating slower than this rest
                               (permanent contact, docs/contact-mechanics.md), m/s, > 0 */
    /* progress guarantees: a run that exceeds one of these stops with CLINK_ERR_SOLVER and a
       message naming the time, the step size and the contacts involved */
    double max_steps;  /* integrator steps in one run, > 0 (a double so 1e8 reads as written) */
    double min_step;   /* smallest step accepted, s, >= 0; 0 for the automatic guard */
    double wall_limit; /* wall-clock seconds for one run, >= 0; 0 for no limit */
    clink_contact_bookkeeping contact_bookkeeping; /* impact records and permanent contact */
    int cookie; /* stamped by clink_default_settings_def(); checked by the builder */
    int strict; /* 1: clink_sim_create refuses a start the assembly had to move or a contact
                   that starts penetrated or fast (CLINK_ERR_ASSEMBLY, the finding's message;
                   clink run --strict); 0 (default): they are warnings (findings) */
    int start;  /* clink_start: the initial velocities of clearance mechanisms; default
                   CLINK_START_AS_GIVEN */
    int window; /* 1: integrate only the bodies near motion, the others asleep (their positions
                   held, their tiny contact forces dropped; docs/kernel.md, "Work in proportion
                   to what moves"); models of free bodies and contact pairs with Adams only,
                   others run with the full state; 0: off; 2 (default, auto): on for a model
                   in that scope with at least CLINK_WINDOW_AUTO_BODIES moving bodies */
} clink_settings_def;

/*
 * t_end 1 s, output_step 1e-3 s, rtol 1e-8, atol 1e-10, max_step 0, method and
 * drift CLINK_METHOD_AUTO and CLINK_DRIFT_AUTO (resolved by clink_sim_create() from
 * the model's structure; explicit values are used as given),
 * alpha = beta = 5 1/s (used only with CLINK_DRIFT_BAUMGARTE),
 * settle_speed CLINK_SETTLE_SPEED_DEFAULT, max_steps 1e7, min_step 0 (automatic),
 * wall_limit 0 (none), contact_bookkeeping CLINK_BOOKKEEPING_EPISODES, strict 0,
 * start CLINK_START_AS_GIVEN, window 2 (auto).
 */
CLINK_API clink_settings_def clink_default_settings_def(void);

/* settings window = 2 (auto) turns the window of the state on for a model in its scope with at
   least this many moving bodies (docs/kernel.md: at 70 beads of the chain the window gains
   nothing, at 700 it costs 6.6 times fewer instructions at matched accuracy) */
#define CLINK_WINDOW_AUTO_BODIES 200

/*
 * Sets the model's simulation settings. CLINK_ERR_ARG for projection with Adams
 * (CVODE 6.4 supports projection with BDF only: use Baumgarte with Adams).
 */
CLINK_API clink_status clink_model_builder_set_settings(clink_model_builder *builder,
                                                        const clink_settings_def *settings);

/* ---- names ---------------------------------------------------------------- */

/* Index of the entity of `kind` called `name` in the builder, or -1. Ground is "ground". */
CLINK_API int clink_model_builder_find(const clink_model_builder *builder, clink_entity kind,
                                       const char *name);

/* Number of entities of `kind` in the builder (bodies include ground). */
CLINK_API int clink_model_builder_count(const clink_model_builder *builder, clink_entity kind);

/* Index of the entity of `kind` called `name` in the model, or -1. */
CLINK_API int clink_model_find(const clink_model *model, clink_entity kind, const char *name);

/* The name of entity `id` of `kind` ("" when unnamed, NULL when id is out of range). */
CLINK_API const char *clink_model_name(const clink_model *model, clink_entity kind, int id);

/* ---- model queries -------------------------------------------------------- */

/* Number of entities of `kind` (bodies include ground). */
CLINK_API int clink_model_count(const clink_model *model, clink_entity kind);

/* Number of constraint equations (joints and drivers). */
CLINK_API int clink_model_constraint_count(const clink_model *model);

/* The definition of body / joint / driver / force `id` as given (name borrowed from the model). */
CLINK_API clink_status clink_model_body(const clink_model *model, int id, clink_body_def *def);
CLINK_API clink_status clink_model_joint(const clink_model *model, int id, clink_joint_def *def);
CLINK_API clink_status clink_model_driver(const clink_model *model, int id, clink_driver_def *def);
/* The unit of driver id's generalised force: "N m" (an angle driven) or "N" (a length);
   NULL out of range. */
CLINK_API const char *clink_model_driver_unit(const clink_model *model, int id);
CLINK_API clink_status clink_model_force(const clink_model *model, int id, clink_force_def *def);

/* Gravity, m/s^2. */
CLINK_API void clink_model_gravity(const clink_model *model, double *gx, double *gy);

/* The model's simulation settings. */
CLINK_API clink_settings_def clink_model_settings(const clink_model *model);

/* Evaluates f(t) (unit of the driven coordinate) and its first two time derivatives (NaN for
   a table or piecewise function without its arrays, or a hand-made spline when memory runs
   out). */
CLINK_API void clink_function_eval(const clink_function *f, double t, double *value, double *rate,
                                   double *accel);

/* ---- contact: pairs of body-fixed shapes and revolute clearance joints ----- */

typedef enum clink_shape_type {
    CLINK_SHAPE_CIRCLE = 0,  /* centre a, radius (m, > 0) */
    CLINK_SHAPE_CAPSULE = 1, /* segment a-b swollen by radius (m, > 0) */
    CLINK_SHAPE_LINE = 2,    /* half-plane: point a on its boundary, outward unit normal */
    /* the inside of a circle: centre a, radius (m, > 0); the bearing of a clearance joint
       (clink_clearance_joint_def), refused in contact pairs */
    CLINK_SHAPE_BORE = 3,
    /* a convex polygon: nvertices (3 .. CLINK_SHAPE_MAX_VERTICES) vertices in body
       coordinates, either orientation (the builder orders them counter-clockwise) */
    CLINK_SHAPE_POLYGON = 4,
    /* a circular arc: centre a, radius, from angle[0] counter-clockwise to angle[1] (rad, body
       frame); convex (material inside the circle's disc, its rim) or concave (material
       outside: a bore segment, a slot end); touches circles */
    CLINK_SHAPE_ARC = 5,
    /* a closed cam profile about centre a (clink_profile_def), turned by angle[0] in the body
       frame: a periodic cubic spline of radius against angle, or generated from a follower
       motion law; touches circles (rollers) and lines (flat faces) */
    CLINK_SHAPE_PROFILE = 6,
    /* a gear's tooth flank (a gear pair's contacts only, refused in pairs): centre a, base
       radius, angle[0] its reference angle, angle[1] the pressure angle, concave 0 the drive
       flank, 1 the back flank, normal[0] half the backlash */
    CLINK_SHAPE_FLANK = 7,
    CLINK_SHAPE_TYPE_COUNT_ = 8
} clink_shape_type;

#define CLINK_SHAPE_MAX_VERTICES 8

/* points of a cam profile's table (angle, radius) */
#define CLINK_PROFILE_MAX_POINTS 48

typedef enum clink_profile_kind {
    CLINK_PROFILE_TABLE = 0, /* radius against angle, periodic cubic spline */
    CLINK_PROFILE_LAW = 1    /* rise-dwell-fall-dwell of a follower motion law */
} clink_profile_kind;

/* the follower motion laws of one rise or fall (s / h as a function of x = angle / span) */
typedef enum clink_motion_law {
    CLINK_MOTION_HARMONIC = 0,  /* (1 - cos pi x) / 2 */
    CLINK_MOTION_CYCLOIDAL = 1, /* x - sin(2 pi x) / (2 pi) */
    CLINK_MOTION_POLY345 = 2    /* 10 x^3 - 15 x^4 + 6 x^5 */
} clink_motion_law;

typedef enum clink_follower_kind {
    CLINK_FOLLOWER_ROLLER = 0, /* translating radial roller: the pitch curve is base + roller + s */
    CLINK_FOLLOWER_FLAT = 1    /* translating flat face normal to its travel: support base + s */
} clink_follower_kind;

/*
 * A cam profile. Table: npoints angles (rad, strictly increasing from 0 to 2 pi, the last
 * point closing the curve with the first's radius) and radii (m, > 0) of the cam surface;
 * the builder fills moments (the periodic spline's second derivatives). Law: the lift s of a
 * translating radial follower against the cam angle phi (rad, laid clockwise on the body
 * from angle[0], so that a follower along body direction angle[0] at rest reads s(phi) once
 * the cam has turned by phi counter-clockwise): a rise of `lift` over `rise`, a dwell over
 * `dwell`, a fall over `fall`, the low dwell for the rest of the turn.
 */
typedef struct clink_profile_def {
    clink_profile_kind kind;
    int npoints;
    double angles[CLINK_PROFILE_MAX_POINTS], radii[CLINK_PROFILE_MAX_POINTS];
    double moments[CLINK_PROFILE_MAX_POINTS]; /* filled by the builder */
    double base_radius;                       /* law: base circle of the cam surface, m */
    double lift;                              /* law: total lift h, m */
    double rise, dwell, fall;                 /* law: spans, rad (sum <= 2 pi) */
    clink_motion_law rise_law, fall_law;
    clink_follower_kind follower;
    double roller_radius; /* roller follower: the roller the profile is cut for, m */
} clink_profile_def;

/* A shape type's name ("circle", "polygon": its XML element; "bore"), NULL out of range. */
CLINK_API const char *clink_shape_type_name(clink_shape_type type);

/*
 * How a contact acts. CONTINUOUS: the normal force law during the contact.
 * PIECEWISE (impulse-momentum): no penetration force; at the onset the
 * velocities jump by Newton's restitution, solved with the constraint Jacobian,
 * [M Phi_q^T; Phi_q 0][dv; -P] = [w p; 0], w the generalised normal direction,
 * p the normal impulse that makes the post-impact approach speed -e times the
 * pre-impact one (CVODE re-initialised after the jump). For impacts that part
 * again (a pendulum hitting a wall); not for resting contact.
 */
typedef enum clink_contact_treatment {
    CLINK_CONTACT_CONTINUOUS = 0,
    CLINK_CONTACT_PIECEWISE = 1
} clink_contact_treatment;

/* A shape fixed to a body, in body coordinates (relative to the centre of mass), m. */
typedef struct clink_shape_def {
    clink_shape_type type;
    double a[2];      /* centre, first end, or point on the line, m */
    double b[2];      /* second end of a capsule, m */
    double normal[2]; /* line: outward normal (normalised by the builder) */
    double radius;    /* circle and capsule, m */
    int nvertices;    /* polygon: its vertices, m */
    double vertices[CLINK_SHAPE_MAX_VERTICES][2];
    double angle[2];           /* arc: its span (rad); profile: angle[0] its orientation */
    int concave;               /* arc: 1 material outside the circle (a bore segment) */
    clink_profile_def profile; /* profile */
} clink_shape_def;

/* n points (n >= 2) of the outline of an arc (its span, end to end) or of a checked profile
   (its surface, once around) in body coordinates, into xy (m), for drawing; returns n, or 0
   for another shape type. */
CLINK_API int clink_shape_outline(const clink_shape_def *shape, int n, double (*xy)[2]);

/*
 * The base of every contact element's definition (as Box2D's b2JointDef base): the fields
 * each kind shares, first in each clink_*_def, reachable by their names (def.law,
 * def.params.K) or together as def.base.
 *   name         optional, copied
 *   law          the normal force law's name or alias (clink laws), copied; required when
 *                continuous, ignored when piecewise
 *   params       the law's parameters, as clink_law_check() requires for the law
 *   friction     the friction law and its parameters (include/clink/friction.h)
 *   treatment    default continuous
 *   restitution  piecewise: Newton's coefficient e, in (0, 1]
 *   cookie       stamped by the kind's clink_default_*_def(); checked by the builder
 */
#define CLINK_ELEMENT_BASE_FIELDS_                                                                 \
    const char *name;                                                                              \
    const char *law;                                                                               \
    clink_contact_params params;                                                                   \
    clink_friction_params friction;                                                                \
    clink_contact_treatment treatment;                                                             \
    double restitution;                                                                            \
    int cookie;

typedef struct clink_element_base {
    CLINK_ELEMENT_BASE_FIELDS_
} clink_element_base;

/* the first member of every element definition: its base, by name or as .base */
#define CLINK_ELEMENT_BASE_                                                                        \
    union {                                                                                        \
        clink_element_base base;                                                                   \
        struct {                                                                                   \
            CLINK_ELEMENT_BASE_FIELDS_                                                             \
        };                                                                                         \
    }

/*
 * A contact pair: shape_a on body_a against shape_b on body_b, with a normal
 * force law of the catalogue (include/clink/contact.h, by name) and friction.
 * A line may only be shape_a, a polygon only shape_a against a circle or shape_b
 * against a line (docs/contact-mechanics.md, "Polygons"). When params.K is not given and the
 * materials E1, nu1 (body_a) and E2, nu2 (body_b) are, the stiffness is Hertz's with the radii of
 * the shapes (R = INFINITY for a line; the capsule's radius as a sphere's, an approximation) unless
 * params.R1, R2 are given.
 */
typedef struct clink_contact_pair_def {
    CLINK_ELEMENT_BASE_;
    int body_a, body_b;
    clink_shape_def shape_a, shape_b;
} clink_contact_pair_def;

/* bodies 0 and 1, circles of radius 0 at the centres (must be set), law NULL, params not
   given (NaN), frictionless */
CLINK_API clink_contact_pair_def clink_default_contact_pair_def(void);

/* Adds a contact pair; *id (optional) receives its index (>= 0). CLINK_ERR_NOT_FOUND for an
   unknown law, CLINK_ERR_RANGE / CLINK_ERR_ARG for shapes or parameters out of range. */
CLINK_API clink_status clink_model_builder_add_contact_pair(clink_model_builder *builder,
                                                            const clink_contact_pair_def *def,
                                                            int *id);

/*
 * A revolute joint with radial clearance: a journal (circle of radius
 * journal_radius at journal_point on journal_body) inside a bearing (bore of
 * radius bearing_radius > journal_radius at bearing_point on bearing_body). No
 * constraint equation: the bodies interact through the contact law only. When
 * params.K is not given it comes from the materials (E1, nu1 the journal's;
 * E2, nu2 the bearing's) by the internal-contact Hertz formula
 * K = 4 / (3 (s1 + s2)) sqrt(R_j R_b / (R_b - R_j)) (clink_contact_stiffness_journal_bearing).
 */
/*
 * The oil film of a lubricated revolute clearance joint (docs/contact-laws.md,
 * "Hydrodynamic journal bearing"): the short- or long-bearing force of clink/lubrication.h between
 * journal and bearing at every eccentricity ratio eps = |e| / c, with eps held at
 * `transition` beyond it (the force stays finite as eps -> 1), and the joint's dry law
 * added once the journal touches the bore (|e| > c). viscosity 0: a dry joint.
 */
typedef enum clink_lubrication_theory {
    CLINK_LUBRICATION_SHORT = 0, /* Ocvirk's short bearing, half-Sommerfeld (pi-film) */
    CLINK_LUBRICATION_LONG = 1   /* Sommerfeld's long bearing, half-Sommerfeld (pi-film) */
} clink_lubrication_theory;

/* how the film force's Jacobian is formed: the analytic derivatives (default; the chain
   rule through eps, eps_dot, Omega), or Richardson-extrapolated central differences */
typedef enum clink_lubrication_jacobian {
    CLINK_LUBRICATION_JACOBIAN_ANALYTIC = 0,
    CLINK_LUBRICATION_JACOBIAN_DIFFERENCES = 1
} clink_lubrication_jacobian;

/* which part of the short bearing's film carries the load: Gumbel's half of positive
   pressure, which turns with the squeeze and the sense of rotation (default), or the fixed
   pi-film 0 < theta < pi of the papers' closed form (Flores et al. 2009), whose radial
   force pulls the journal outwards where the effective speed Omega = omega_journal +
   omega_bearing - 2 gamma' is negative (a simulation warns, CLINK_FINDING_VALIDITY). The
   long bearing has the pi-film alone, whatever this says. */
typedef enum clink_lubrication_film {
    CLINK_LUBRICATION_FILM_GUMBEL = 0,
    CLINK_LUBRICATION_FILM_PI = 1
} clink_lubrication_film;

typedef struct clink_lubrication_def {
    double viscosity;  /* mu, Pa s; 0 (default): dry; otherwise > 0 */
    double length;     /* bearing length L, m (> 0 when lubricated) */
    int theory;        /* clink_lubrication_theory */
    double transition; /* eccentricity ratio in (0, 1), default 0.95 */
    int jacobian;      /* clink_lubrication_jacobian */
    int film;          /* clink_lubrication_film (short bearing) */
} clink_lubrication_def;

/*
 * Archard wear of a revolute clearance joint (docs/wear.md): the depth rate of each surface
 * h' = k_D p v, with k_D = k / H the dimensional wear coefficient (m^2/N = 1/Pa), p the
 * contact pressure (Hertz's strip of the line contact of length `length`) and v the sliding
 * speed. kd = 0 (default): no wear. The worn bore is a periodic cubic spline of the bearing's
 * radius plus `depth` at nknots equally spaced angles of the bearing body's frame (0 .. 2 pi;
 * nknots 0: the circular bore); src/wear/ accumulates and updates it (clink wear). The worn
 * journal (pin) likewise: its radius minus pin_depth at pin_nknots angles of its own frame.
 */
#define CLINK_WEAR_MAX_KNOTS 47

/* the contact pressure Archard's law is fed with (docs/wear.md): Hertz's elliptic strip, or
   the elastic (Winkler) foundation's parabola of a layer of thickness `layer` */
enum { CLINK_WEAR_HERTZ = 0, CLINK_WEAR_WINKLER = 1 };

typedef struct clink_wear_def {
    double kd;      /* dimensional wear coefficient k / H, m^2/N (>= 0; 0: no wear) */
    double length;  /* axial length of the contact, m (> 0 when kd > 0) */
    double modulus; /* effective modulus E* of the strip, Pa; NaN: from the joint's materials */
    double wall;    /* wall thickness of the bearing, m (INFINITY: none) */
    int grid;       /* cells of the accumulation grid over 2 pi (default 360) */
    int nknots;     /* knots of the worn profile (0: circular) */
    double depth[CLINK_WEAR_MAX_KNOTS]; /* wear depth of the bore at the knots, m (>= 0) */
    int pressure;   /* the pressure over the contact: CLINK_WEAR_HERTZ (default), _WINKLER */
    double layer;   /* the elastic foundation's layer thickness b, m (> 0 with _WINKLER) */
    int pin_nknots; /* knots of the worn journal (pin; 0: circular) */
    double pin_depth[CLINK_WEAR_MAX_KNOTS]; /* its wear depth at angles 2 pi i / pin_nknots of
                                               the journal's frame, m (>= 0) */
} clink_wear_def;

typedef struct clink_clearance_joint_def {
    CLINK_ELEMENT_BASE_;
    int journal_body, bearing_body;
    double journal_point[2], bearing_point[2]; /* body coordinates, m */
    double journal_radius, bearing_radius;     /* m, 0 < journal_radius < bearing_radius */
    clink_lubrication_def lubrication;         /* default dry (viscosity 0) */
    clink_wear_def wear;                       /* default none (kd 0) */
} clink_clearance_joint_def;

/* bodies 1 and 0, points at the centres, radii 0 (must be set), law NULL, frictionless */
CLINK_API clink_clearance_joint_def clink_default_clearance_joint_def(void);

/* Adds a clearance joint; *id (optional) receives its index (>= 0). Errors as for pairs;
   CLINK_ERR_RANGE for a clearance bearing_radius - journal_radius <= 0. */
CLINK_API clink_status clink_model_builder_add_clearance_joint(clink_model_builder *builder,
                                                               const clink_clearance_joint_def *def,
                                                               int *id);

/* The definitions as stored (law and name borrowed from the model; params.K filled in when
   it came from materials). */
CLINK_API clink_status clink_model_contact_pair(const clink_model *model, int id,
                                                clink_contact_pair_def *def);
CLINK_API clink_status clink_model_clearance_joint(const clink_model *model, int id,
                                                   clink_clearance_joint_def *def);

/*
 * A translational joint with clearance (Flores, Ambrosio, Claro and Lankarani 2008):
 * a rectangular slider (length along the axis, height across it) between the two
 * parallel surfaces of a guide, which lie at +-(height / 2 + clearance) from the
 * guide's mid-line through guide_point along axis (guide coordinates). The slider is
 * centred at slider_point (slider coordinates) and its sides are parallel to `axis`
 * read in slider coordinates: the slider is aligned when its angle equals the guide's.
 * No constraint equation: each of the slider's four corners meets each guide surface
 * through the contact law (eight point-on-line contacts, named NAME.cornerK_upper and
 * NAME.cornerK_lower, K = 1 .. 4 counter-clockwise from the rear lower corner). A
 * corner on a plane has no Hertz formula: params.K must be given. guide_length (m,
 * optional: NaN for an unbounded guide) is only checked: length <= guide_length.
 * The element's outputs are the slider's lateral offset (m, along the guide's normal,
 * from the mid-line) and its tilt (rad, slider angle - guide angle, in (-pi, pi]).
 */
typedef struct clink_translational_clearance_def {
    CLINK_ELEMENT_BASE_;
    int guide_body, slider_body;
    double guide_point[2];  /* on the guide's mid-line, guide coordinates, m */
    double axis[2];         /* the guide's direction in guide coordinates, non-zero */
    double slider_point[2]; /* the slider's centre, slider coordinates, m */
    double length, height;  /* the slider's, m, > 0 */
    double clearance;       /* the gap on each side when centred, m, > 0 */
    double guide_length;    /* m, NaN: not checked */
    /* Archard wear of the guide's two surfaces (docs/wear.md): kd (or k / H), length (the
       contact's axial width, m) and grid (cells over guide_length, which it needs); the
       worn depth is accumulated (clink_wear_guide_*) and may be given back as the worn guide */
    clink_wear_def wear;
    /* the worn guide (clink_model_set_worn_guide): the depth of its lower ([0]) and upper
       ([1]) surfaces at guide_nknots abscissae equally spaced over guide_length from its
       rear end (0: flat), m */
    int guide_nknots;
    double guide_depth[2][CLINK_WEAR_MAX_KNOTS];
} clink_translational_clearance_def;

/* guide body 0, slider body 1, points at the centres, axis (1, 0), sizes 0 (must be set),
   guide_length NaN, law NULL, frictionless */
CLINK_API clink_translational_clearance_def clink_default_translational_clearance_def(void);

/* Adds a translational clearance joint; *id (optional) receives its index. Errors as for
   the others; CLINK_ERR_RANGE for clearance <= 0, a zero axis, non-positive sizes or a
   slider longer than its guide. */
CLINK_API clink_status clink_model_builder_add_translational_clearance(
    clink_model_builder *builder, const clink_translational_clearance_def *def, int *id);
CLINK_API clink_status clink_model_translational_clearance(const clink_model *model, int id,
                                                           clink_translational_clearance_def *def);

/*
 * A joint stop through a contact law (Ambrosio and Pombo 2018): the travel
 * s = u . (p2 - p1) of point2 (body2 coordinates) along axis u through point1 (both of
 * body1, the axis normalised) is limited to [lower, upper] by one point-on-plane contact
 * per limit given (NaN: none on that side; at least one), named NAME.lower and
 * NAME.upper. No constraint is added (the guiding joint is its own element); a point on
 * a plane has no Hertz formula: params.K must be given. The element's output is s (m).
 */
typedef struct clink_stop_def {
    CLINK_ELEMENT_BASE_;
    int body1, body2;
    double point1[2];    /* the origin of the travel, body1 coordinates, m */
    double axis[2];      /* the direction of travel in body1 coordinates, non-zero */
    double point2[2];    /* the stopped point, body2 coordinates, m */
    double lower, upper; /* limits of s, m; NaN: none; lower < upper when both */
} clink_stop_def;

/* body1 0, body2 1, points at the origins, axis (1, 0), no limits (set one), law NULL,
   frictionless */
CLINK_API clink_stop_def clink_default_stop_def(void);
/* Adds a stop; *id (optional) receives its index. CLINK_ERR_RANGE for a zero axis, no
   limit or lower >= upper; otherwise errors as for the other elements. */
CLINK_API clink_status clink_model_builder_add_stop(clink_model_builder *builder,
                                                    const clink_stop_def *def, int *id);
CLINK_API clink_status clink_model_stop(const clink_model *model, int id, clink_stop_def *def);

/*
 * A spur gear pair with backlash (docs/gears-cams.md): gear 1 (base radius base_radius1,
 * centre center1 on body1) meshing externally with gear 2 (base_radius2, center2 on body2),
 * each on its own revolute joint. The dynamic transmission error along the line of action
 * is x = r_b1 (phi1 - angle1) + r_b2 (phi2 - angle2) (m; angle1, angle2 the angles at which
 * the teeth stand centred in the backlash); the drive flank touches at x = backlash / 2,
 * the back flank at x = -backlash / 2: two contacts (NAME.drive, NAME.back) with
 * penetrations x - backlash / 2 and -x - backlash / 2 along the two lines of action
 * (pressure_angle from the common tangent of the base circles), the mesh stiffness K
 * (N/m along the line of action) and any damping of the law; K must be given. Outputs:
 * dte (x, m) and mesh_force (N, the mesh's force on gear 2).
 */
typedef struct clink_gear_pair_def {
    CLINK_ELEMENT_BASE_;
    int body1, body2;
    double center1[2], center2[2];     /* the gears' centres, body coordinates, m */
    double base_radius1, base_radius2; /* m, > 0 */
    double pressure_angle;             /* rad, in (0, pi/2) */
    double backlash;                   /* total, along the line of action, m, >= 0 */
    double angle1, angle2;             /* reference angles, rad */
    /* the mesh cycle (docs/gears-cams.md, "Mesh stiffness over the mesh cycle"): the law's
       force is scaled by k(theta) / K, theta = phi1 - angle1, over one base pitch 2 pi / teeth1
       of gear 1's rotation: a rectangular wave (n + 1 tooth pairs over the fraction
       contact_ratio - n of the cycle, n pairs over the rest) of mean 1 and half-jump
       stiffness_amplitude, its steps smoothed over mesh_smoothing of the cycle */
    int internal;               /* nonzero: gear 2 is a ring (internal teeth), r_b2 > r_b1 */
    int teeth1;                 /* teeth of gear 1, 0: none given */
    double contact_ratio;       /* >= 1; NaN: from the addendum radii when given, else none */
    double addendum_radius1;    /* m, NaN: not given */
    double addendum_radius2;    /* m (a ring's: its inner tip circle), NaN: not given */
    double stiffness_amplitude; /* (k_high - k_low) / (2 K), >= 0; 0: constant stiffness */
    double mesh_smoothing;      /* fraction of the cycle each step takes, >= 0; 0: steps */
    double mesh_phase;          /* fraction of the cycle at theta = 0, in [0, 1) */
} clink_gear_pair_def;

/* bodies 1 and 2, centres at the origins, radii 0 (set them), pressure angle 20 deg,
   backlash 0, angles 0, law NULL, frictionless */
CLINK_API clink_gear_pair_def clink_default_gear_pair_def(void);
/* Adds a gear pair; *id (optional) receives its index. CLINK_ERR_RANGE for radii <= 0, a
   pressure angle outside (0, pi/2) or a negative backlash. */
CLINK_API clink_status clink_model_builder_add_gear_pair(clink_model_builder *builder,
                                                         const clink_gear_pair_def *def, int *id);
CLINK_API clink_status clink_model_gear_pair(const clink_model *model, int id,
                                             clink_gear_pair_def *def);

/*
 * A pin in a straight slot with clearance (a Scotch yoke's or a pin-in-slot joint's play):
 * the slot of body `slot` has its mid-line through slot_point along axis (slot coordinates)
 * and its two walls at +-width / 2 from it; the pin, a circle of pin_radius at pin_point on
 * body `pin`, meets each wall through the contact law (two circle-on-line contacts,
 * NAME.lower and NAME.upper; the slot is unbounded along its axis). The clearance is
 * width - 2 pin_radius > 0. When params.K is not given, the stiffness is Hertz's of a
 * cylinder on a plane from the materials (E1, nu1 the slot's, E2, nu2 the pin's; R1 = the
 * wall's, infinite, R2 = pin_radius). The element's output is the pin centre's offset from
 * the mid-line (m).
 */
typedef struct clink_slot_clearance_def {
    CLINK_ELEMENT_BASE_;
    int slot_body, pin_body;
    double slot_point[2]; /* on the slot's mid-line, slot coordinates, m */
    double axis[2];       /* the slot's direction in slot coordinates, non-zero */
    double pin_point[2];  /* the pin's centre, pin coordinates, m */
    double width;         /* between the walls, m, > 2 pin_radius */
    double pin_radius;    /* m, > 0 */
} clink_slot_clearance_def;

/* slot body 0, pin body 1, points at the centres, axis (1, 0), sizes 0 (set them), law NULL,
   frictionless */
CLINK_API clink_slot_clearance_def clink_default_slot_clearance_def(void);
/* Adds a slot clearance joint; *id (optional) receives its index. CLINK_ERR_RANGE for a zero
   axis, a pin_radius <= 0 or a width <= 2 pin_radius. */
CLINK_API clink_status clink_model_builder_add_slot_clearance(clink_model_builder *builder,
                                                              const clink_slot_clearance_def *def,
                                                              int *id);
CLINK_API clink_status clink_model_slot_clearance(const clink_model *model, int id,
                                                  clink_slot_clearance_def *def);

/*
 * A circle against a beam's centreline (docs/flexible.md, "Contact on the centreline"): the
 * circle of `radius` at `point` on `body` (0: the ground) meets the polyline through the
 * nodes node_first .. node_first + elements (consecutive bodies, a beam's nodes:
 * clink_model_builder_add_beam's first_node and its element count), swollen by
 * half_thickness, through the contact law: one contact per element, NAME.e0 ..,
 * between the circle and the segment of its two nodes (the closest point, the force shared
 * by the nodes by the beam's linear interpolation). Frictionless and continuous only. When
 * params.K is not given and half_thickness > 0, the stiffness is Hertz's of two cylinders of
 * radii half_thickness (E1, nu1: the beam's) and radius (E2, nu2: the circle's).
 */
typedef struct clink_beam_contact_def {
    CLINK_ELEMENT_BASE_;
    int body;              /* the circle's body, 0: the ground */
    double point[2];       /* the circle's centre, body coordinates, m */
    double radius;         /* the circle's radius, m, >= 0 */
    int node_first;        /* the beam's first node (a body >= 1) */
    int elements;          /* the beam's elements, 1 .. 10000 */
    double half_thickness; /* the beam's half thickness about its centreline, m, >= 0 */
} clink_beam_contact_def;

/* body 0, point at the origin, radius 0, node_first 1, elements 1, half_thickness 0 (set
   them), law NULL, frictionless */
CLINK_API clink_beam_contact_def clink_default_beam_contact_def(void);
/* Adds a beam contact; *id (optional) receives its index. CLINK_ERR_RANGE for a negative
   radius or half thickness, elements outside 1 .. 10000, a body among the nodes or a node
   that does not exist; CLINK_ERR_MODEL for friction or the impulse treatment. */
CLINK_API clink_status clink_model_builder_add_beam_contact(clink_model_builder *builder,
                                                            const clink_beam_contact_def *def,
                                                            int *id);
CLINK_API clink_status clink_model_beam_contact(const clink_model *model, int id,
                                                clink_beam_contact_def *def);

/*
 * Contact elements and their contacts. A contact element (a pair, a clearance joint,
 * ...) is one row of the element table (src/elements/element.h): the model expands
 * each into the contacts it needs, each a pair of shapes with the element's law. The
 * simulation (clink_sim_contact, impact records), the outputs and the hosts number
 * contacts 0 .. clink_model_contact_count() - 1 and ask the model which element each
 * belongs to and what it is called: no index convention between kinds is needed.
 * (The list is ordered kind by kind in the order of clink_element_kind, each kind's
 * elements in the order they were added, each element's contacts in its own order.)
 */
#define CLINK_ELEMENT_ENUM_(NAME, name, api, ENTITY, word) CLINK_ELEMENT_##NAME,
typedef enum clink_element_kind {
    CLINK_ELEMENT_KINDS(CLINK_ELEMENT_ENUM_) CLINK_ELEMENT_KIND_COUNT_
} clink_element_kind;
#undef CLINK_ELEMENT_ENUM_

/* Number of contact elements (all kinds) and of the contacts they expand into. */
CLINK_API int clink_model_element_count(const clink_model *model);
CLINK_API int clink_model_contact_count(const clink_model *model);

/* Element e's kind (-1 out of range), its name (its own, or KIND + index within its kind
   when unnamed, e.g. "pair3"), its kind's XML name ("revolute_clearance"), and its index
   among the elements of its kind (the id of clink_model_contact_pair and the like). */
CLINK_API int clink_model_element_kind(const clink_model *model, int e);
CLINK_API const char *clink_model_element_name(const clink_model *model, int e);
CLINK_API const char *clink_model_element_kind_name(clink_element_kind kind);
CLINK_API int clink_model_element_index(const clink_model *model, int e);
/* Nonzero when element e slides along a guide that can wear (a translational clearance
   joint; docs/wear.md); 0 otherwise or out of range. */
CLINK_API int clink_model_element_has_guide(const clink_model *model, int e);
/* A kind's word in messages ("clearance joint"); NULL out of range. */
CLINK_API const char *clink_model_element_kind_word(clink_element_kind kind);

/* The fields of element e's definition besides its base (its class's field table,
   src/elements/element.h), as a file gives them: their number, and field j's XML attribute
   (*name), the child element that holds it (*child, NULL: the element itself), its unit
   (*unit: "m", "rad", "" for none, "body" for a body index, "word" for the index of a
   keyword) and its value(s) into value (a point: two). Returns the number of values (1 or 2),
   0 out of range. */
CLINK_API int clink_model_element_field_count(const clink_model *model, int e);
CLINK_API int clink_model_element_field(const clink_model *model, int e, int j, const char **name,
                                        const char **child, const char **unit, double value[2]);

/* The element of contact i (-1 out of range) and the contact's name: the element's for a
   one-contact element, ELEMENT.PART otherwise ("slider.corner2_upper"). NULL out of range. */
CLINK_API int clink_model_contact_element(const clink_model *model, int i);
CLINK_API const char *clink_model_contact_name(const clink_model *model, int i);
/* 1 if contact i reports its journal's eccentricity (clink_contact_info.eccentricity, the
   output columns ex, ey: a revolute clearance joint's contact, as its element class says),
   0 otherwise or out of range */
CLINK_API int clink_model_contact_has_eccentricity(const clink_model *model, int i);
/* 1 if contact i integrates a friction state (its friction law is dynamic, lugre or dahl,
   and its impacts are not piecewise: the bristle state z of
   clink_sim_contact_friction_state), 0 otherwise or out of range */
CLINK_API int clink_model_contact_friction_state(const clink_model *model, int i);

/* The extra outputs of element e (0 for none; a translational clearance joint has two:
   "offset" m, "tilt" rad), their names and units, and their values at the poses
   q_a, q_b = (x, y, phi) of the element's two bodies (clink_model_element_bodies). */
CLINK_API int clink_model_element_output_count(const clink_model *model, int e);
CLINK_API const char *clink_model_element_output_name(const clink_model *model, int e, int j,
                                                      const char **unit);
CLINK_API clink_status clink_model_element_bodies(const clink_model *model, int e, int *body_a,
                                                  int *body_b);
CLINK_API clink_status clink_model_element_outputs(const clink_model *model, int e,
                                                   const double q_a[3], const double q_b[3],
                                                   double *values);

/*
 * The contacts asked for a restitution their law's own damping rule does not reach
 * (clink_law_restitution_warning; docs/contact-laws.md): one message per distinct law
 * and parameters, naming the first contact and how many others share them, each
 * ending in '\n', written into buf while they fit (size bytes with the final NUL).
 * Returns the number of messages written. Runs laboratory impacts: milliseconds per law.
 */
CLINK_API int clink_model_law_warnings(const clink_model *model, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_MODEL_H */
