/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts.h: contact pairs and clearance joints inside a simulation (the
 * per-contact state machine of docs/contact-mechanics.md; contacts.c lists the files
 * that implement it, one job each).
 *
 * The CVODE driver (sim.c) calls these at five places: the external-force hook
 * of the dynamics (simc_forces) and its Jacobian (simc_forces_jacobian), the
 * structure of the state (simc_turning, simc_keeps_axis), the root functions (simc_roots and
 * simc_root_directions, two per contact), after each accepted step
 * (simc_after_step) and at each root (simc_handle_roots, which says whether
 * CVODE must be re-initialised). Contacts are numbered as the model lists them
 * (clink_model_contact_element, clink_model_contact_name).
 */
#ifndef CLINK_CONTACTS_H
#define CLINK_CONTACTS_H

#include "clink/sim.h"
#include "dynamics/dynamics.h"

typedef struct simc simc;

/*
 * NULL with *err set when out of memory; a valid (empty) set for a model without contacts.
 * settle_speed (m/s, > 0): the chattering guard's threshold (clink_settings_def).
 */
simc *simc_create(const clink_model *m, double settle_speed, char *err, size_t errlen);
void simc_destroy(simc **sc);

/* every contact's state (phase, episode, running maxima, caches) as bytes: its size, a copy
   into buf and back, so that a restart at an output continues from the contacts' state
   there (the records and counters are not in it) */
size_t simc_state_size(const simc *sc);
void simc_state_save(const simc *sc, void *buf);
void simc_state_restore(simc *sc, const void *buf);

/* the bookkeeping of impacts (clink_settings_def.contact_bookkeeping); episodes by default */
void simc_set_bookkeeping(simc *sc, clink_contact_bookkeeping mode);

int simc_count(const simc *sc);
/* number of root functions (2 per contact) and of energy components (the damping integral
   of each contact whose law damps, the friction integral of each contact with friction) */
int simc_nroots(const simc *sc);
int simc_nwork(const simc *sc);

/* contact k's damping and friction integrals (J) in the energy components work (0 for a
   contact that has none) */
void simc_work(const simc *sc, int k, const double *work, double *damping, double *friction);

/* ---- friction states (contacts_friction.c) ---- */

/* the components of the dynamic friction laws' states in the energy block, after the
   integrals (called once by simc_create) */
void simc_friction_assign(simc *sc);
/* contact k's friction state component in the energy block, -1 if it has none */
int simc_friction_state_index(const simc *sc, int k);
/* the friction states of the energy block work, for the next force evaluations */
void simc_friction_load(simc *sc, const double *work);
/* resets to 0 the friction state of every contact that came into contact since the last
   call (work: the energy block, changed in place); 1 if a state changed */
int simc_friction_onset(simc *sc, double *work);
/* d z' / d(q, v) of contact k's friction state at the last force Jacobian over the
   coordinates coord[6] (its bodies' model coordinates, -1 for the ground): 1, or 0 when
   it has none (no state, not touching, a capsule) */
int simc_friction_state_jacobian(const simc *sc, int k, int coord[6], double dq[6], double dv[6]);
/* the size of contact k's friction state (m): its largest steady deflection, max(mu, mu_s)
   / sigma0; 0 if it has none */
double simc_friction_state_scale(const simc *sc, int k);
/* d z' / d z of each friction state at the last force evaluation into diag[wz] (the energy
   block's diagonal; other entries untouched) */
void simc_friction_decay(const simc *sc, double *diag);

/* dyn_external_fn: adds the contact forces to g; adds nothing to *power (contact energy has
   its own audit); caches each contact's dissipation rates for simc_dissipation_rates */
int simc_forces(void *data, double t, const double *q, const double *v, double *g, double *power);

/*
 * dyn_external_jac_fn, the companion of simc_forces: adds d g / dq and d g / dv of the
 * contact forces to J (dyn_gjac_at: dense, or by body blocks). The geometry of round shapes
 * (circles, bores, lines against circles) and the friction are differentiated exactly,
 * the law's normal force F(delta, rate) by central differences in its two scalar
 * arguments (the law table has no derivatives); a capsule pair by central differences
 * over its two bodies' coordinates. Leaves the contacts' state and caches unchanged.
 */
int simc_forces_jacobian(void *data, double t, const double *q, const double *v, dyn_gjac *J);

/* simc_forces over the listed contacts only (the window of the state, system_window.c):
   each adds its generalised forces to g at both its bodies' coordinates; 0 or -1 */
int simc_forces_some(simc *sc, const int *contacts, int n, double t, const double *q,
                     const double *v, double *g);
/* nonzero if contact k fits the window of the state: a smooth law without an impulse
   treatment (its damping integral, if any, carried by the window), no friction integral
   or state, no lubricant, no bore */
int simc_window_fits(const simc *sc, int k);
/* contact k's damping integral's offset in the work components (-1: none) and its rate (W)
   from the last force evaluation */
int simc_damping_index(const simc *sc, int k);
double simc_damping_rate(const simc *sc, int k);

/* the dissipation rates (W) of the last simc_forces call into the energy components */
void simc_dissipation_rates(const simc *sc, double *rates);

/* initial phases at t = 0 (contacts that start overlapping by more than the onset level are
   persistent) */
void simc_start(simc *sc, const double *q, const double *v);

int simc_roots(simc *sc, double t, const double *q, const double *v, double *g);
/* the root functions of the listed contacts only, into g[2k], g[2k + 1] of each contact k
   (the others untouched): the same values simc_roots gives them */
int simc_roots_some(simc *sc, const int *contacts, int n, const double *q, const double *v,
                    double *g);
/* the two bodies of contact k (0: the ground): the coordinates its root functions read */
void simc_bodies(const simc *sc, int k, int *body_a, int *body_b);
void simc_root_directions(const simc *sc, int *dirs);
/* the directions of the listed contacts' functions into dirs[2 j], dirs[2 j + 1] */
void simc_root_directions_some(const simc *sc, const int *contacts, int n, int *dirs);

/* after an accepted step: tracks F_max of the impacts in progress */
void simc_after_step(simc *sc, double t, const double *q, const double *v);

/* simc_after_step over the listed contacts only (those with a body in the window) */
void simc_after_step_some(simc *sc, const int *contacts, int n, const double *q, const double *v);

/*
 * Handles the roots found at time t (CVodeGetRootInfo), one handler per phase;
 * work = the per-contact energy components of y (read only). *reinit is set to
 * 1 when the right-hand side jumps or a piecewise impact changed v (in place).
 * Returns CLINK_OK, or CLINK_ERR_NOMEM (an impact record could not be stored),
 * CLINK_ERR_SOLVER (a piecewise impact failed or approached too slowly) with the
 * cause in simc_error().
 */
clink_status simc_handle_roots(simc *sc, double t, const double *q, double *v, const double *work,
                               const int *found, int *reinit);

/* simc_handle_roots over the listed contacts, found[2 j], found[2 j + 1] those of contacts[j]
   (the window's events, system_window.c) */
clink_status simc_handle_roots_some(simc *sc, const int *contacts, int n, double t, const double *q,
                                    double *v, const double *work, const int *found, int *reinit);

/* 1 if simc_forces met a non-finite force at a finite state since the last call (the
   message in simc_error()); clears it */
int simc_take_failure(simc *sc);

/* the contacts in contact, in an impact or permanent at y = (q, v, ...), listed into buf
   (law, stiffness, penetration), or if there is none the closest one; returns the number
   listed */
int simc_describe_active(const simc *sc, const double *y, int nq, char *buf, size_t n);

/* the size of contact k: the smaller positive radius of its shapes, m (0 if none) */
double simc_size(const simc *sc, int k);
/* contact k's radial clearance when one of its shapes is a bore (its radius minus the
   other's), m; 0 for other contacts */
double simc_clearance(const simc *sc, int k);
/* a friction coefficient above this is a cause the stall diagnosis names */
#define SIMC_MU_ABSURD 10.0
/* a known cause of a stall among the contacts at the full state y, in order: a penetration
   beyond a contact's size (simc_size), a friction coefficient above SIMC_MU_ABSURD; 1 with
   the cause in buf (naming the contact), 0 if none */
int simc_suspect(const simc *sc, const double *y, int nq, char *buf, size_t n);
/* contact k's name (the element's, or ELEMENT.PART) and its friction coefficient */
const char *simc_name(const simc *sc, int k);
double simc_mu(const simc *sc, int k);

/* nonzero if contact k's normal passes through the centres of its shapes (circles, lines,
   bores: no capsule), so that the bodies' rotation does not enter the normal motion */
int simc_central(const simc *sc, int k);

/* turns[b] set to 1 (left as it is otherwise) for every body b (>= 1) on which a contact can
   exert a moment about its centre of mass: one has friction, or the body's shape in it is not
   a circle or bore centred there (the normal force of a round shape passes through its
   centre); one pass over the contacts */
void simc_turning(const simc *sc, unsigned char *turns);

/*
 * Nonzero if contact k's force has an exactly zero component along axis (0 x, 1 y) for as
 * long as its bodies keep their coordinate along that axis at the values in q0: it is
 * frictionless, each body's shape is a circle or bore centred at its centre of mass, and
 * the two centres share that coordinate (or the ground's shape is a line whose normal is
 * perpendicular to the axis), so that the normal is perpendicular to the axis. Its two
 * bodies (0: ground) into *body_a, *body_b.
 */
int simc_keeps_axis(const simc *sc, int k, int axis, const double *q0, int *body_a, int *body_b);

/* energy of contact k dissipated at its events (not in y; see contacts.c), J */
double simc_booked(const simc *sc, int k);
const char *simc_error(const simc *sc);

/* velocity response dv (ncoords) to a generalised impulse f at q; 0 on success */
typedef int (*simc_impulse_fn)(void *data, double t, const double *q, const double *f, double *dv);
void simc_set_impulse(simc *sc, simc_impulse_fn fn, void *data);
/* on: an onset's effective mass is the free bodies' (simc_free_inv_mass), not solved through the
   constraints: exact for a model without constraints, in proportion to the contact, not to the
   model (the window of the state, system_window.c) */
void simc_set_impulse_free(simc *sc, int on);

/* elastic energy stored in the contacts at (q, v), J */
double simc_stored_energy(simc *sc, const double *q, const double *v);

/* getters (clink_sim_contact, impact records) */
clink_status simc_info(simc *sc, int k, const double *q, const double *v, clink_contact_info *info);
int simc_impact_count(const simc *sc);
clink_status simc_impact(const simc *sc, int i, clink_impact_record *rec);
void simc_set_callback(simc *sc, clink_impact_fn fn, void *data);
long simc_events(const simc *sc);

#endif
