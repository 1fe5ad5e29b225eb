/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink: planar multibody dynamics with contact-impact.
 *
 * The public API, as a table of contents:
 *   - version                 CLINK_VERSION_*, clink_version()
 *   - status codes            clink_status, clink_status_string()
 *   - handles                 clink_model (immutable mechanism), clink_sim (its simulation)
 *
 * Errors (one rule, docs/api.md "Errors"):
 *   - every call that can fail returns a clink_status: 0 is success, a negative
 *     value is an error (no status code is positive). A constructor that returns
 *     a pointer (clink_model_builder_create(), clink_model_load_xml()) is a
 *     documented convenience over a status-returning one;
 *   - the message of a failed call on a handle is read from that handle, one
 *     line, borrowed until the next call on it: clink_model_builder_error(),
 *     clink_sim_error(), clink_lab_error(), clink_recorder_error(). Functions on
 *     a handle take no message buffer;
 *   - a call that has no handle yet (create, load, check of a plain parameter
 *     struct) writes its one-line message into the caller's buffer (char *err,
 *     size_t err_size; may be NULL; truncated to err_size - 1 bytes) and nowhere
 *     else. A constructor whose only failure is CLINK_ERR_NOMEM takes no buffer;
 *   - a NULL handle gives CLINK_ERR_ARG and no message; const queries (getters)
 *     leave no message: their status says it all.
 * The library never prints to stdout or stderr, never calls exit() and never
 * aborts on user input.
 *
 * Ownership: whatever clink_*_create() or clink_*_load*() returns is owned by the
 * caller and released with the matching clink_*_destroy(), which accepts NULL and
 * nulls the caller's pointer; everything else the API hands out is borrowed and
 * lives as long as the handle it came from.
 *
 * Units: SI throughout (metres, kilograms, seconds, newtons, radians).
 */
#ifndef CLINK_CLINK_H
#define CLINK_CLINK_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * CLINK_API marks the functions the shared library exports; everything else in
 * libclink is hidden (built with -fvisibility=hidden), so clink's internal
 * symbols never collide with a host program's.
 */
#if defined(_WIN32) && defined(CLINK_SHARED_BUILD)
#define CLINK_API __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#define CLINK_API __attribute__((visibility("default")))
#else
#define CLINK_API
#endif

/* ---- version -------------------------------------------------------------- */

#define CLINK_VERSION_MAJOR  0
#define CLINK_VERSION_MINOR  3
#define CLINK_VERSION_PATCH  3
#define CLINK_VERSION_STRING "0.3.3"
/* one integer that grows with every release: major * 10000 + minor * 100 + patch */
#define CLINK_VERSION_NUMBER                                                                       \
    (CLINK_VERSION_MAJOR * 10000 + CLINK_VERSION_MINOR * 100 + CLINK_VERSION_PATCH)

/* The version of the library actually linked, as "MAJOR.MINOR.PATCH" (static storage). */
CLINK_API const char *clink_version(void);

/* ---- status codes --------------------------------------------------------- */

/*
 * The one list of status codes: X(NAME, value, message). Zero is success,
 * negative values are errors. New codes are appended; values never change once
 * released. The values 1 and 2 are retired: they were CLINK_ROOT_FOUND and
 * CLINK_TSTOP_REACHED, declared and never returned (clink_sim_advance() always
 * ends at the requested time; contact events are reported through the impact
 * records and their callback), and are not reused.
 */
#define CLINK_STATUS_LIST(X)                                                                       \
    X(CLINK_OK, 0, "success")                                                                      \
    X(CLINK_ERR_NOMEM, -1, "out of memory")                                                        \
    X(CLINK_ERR_ARG, -2, "invalid argument")                                                       \
    X(CLINK_ERR_RANGE, -3, "parameter out of range")                                               \
    X(CLINK_ERR_NOT_FOUND, -4, "name not found")                                                   \
    X(CLINK_ERR_IO, -5, "input/output error")                                                      \
    X(CLINK_ERR_PARSE, -6, "malformed input")                                                      \
    X(CLINK_ERR_MODEL, -7, "inconsistent model")                                                   \
    X(CLINK_ERR_SINGULAR, -8, "singular or redundant constraints")                                 \
    X(CLINK_ERR_ASSEMBLY, -9, "initial conditions could not be assembled")                         \
    X(CLINK_ERR_SOLVER, -10, "integrator failure")                                                 \
    X(CLINK_ERR_LINSOLVE, -11, "linear solver failure")                                            \
    X(CLINK_ERR_NONFINITE, -12, "non-finite value (NaN or infinity)")                              \
    X(CLINK_ERR_STATE, -13, "call not valid in the current state")                                 \
    X(CLINK_ERR_NO_CONVERGENCE, -14, "iteration did not converge")                                 \
    X(CLINK_ERR_INTERNAL, -15, "internal error (please report)")

typedef enum clink_status {
#define CLINK_STATUS_ENUM_(name, value, message) name = value,
    CLINK_STATUS_LIST(CLINK_STATUS_ENUM_)
#undef CLINK_STATUS_ENUM_
} clink_status;

/*
 * A fixed English sentence for a status code (static storage, never NULL);
 * "unknown status" for a value outside the list.
 */
CLINK_API const char *clink_status_string(clink_status status);

/* The code's name, such as "CLINK_ERR_RANGE" (static storage, never NULL). */
CLINK_API const char *clink_status_name(clink_status status);

/* ---- handles -------------------------------------------------------------- */

/*
 * A mechanism: bodies, joints, drivers, loads and contact pairs. Immutable once
 * built; several simulations may share one model. Created by the model-building
 * API or loaded from XML; released with clink_model_destroy().
 */
typedef struct clink_model clink_model;

/*
 * The mutable state of one simulation of a model: time, coordinates, contact
 * states, impact records and integrator statistics. Created from a model (which
 * must outlive it) and released with clink_sim_destroy().
 */
typedef struct clink_sim clink_sim;

#ifdef __cplusplus
}
#endif

#endif /* CLINK_CLINK_H */
