/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contacts.h: contact pairs and clearance joints inside a simulation (the
 * per-contact state machine of docs/contact-mechanics.md; contacts.c lists the files
 * that implement it, one job each).
 *
 * The CVODE driver (sim.c) calls these at five places: the external-force hook
 * of the dynamics (contacts_forces) and its Jacobian (contacts_forces_jacobian), the
 * structure of the state (contacts_turning, contacts_keeps_axis), the root functions
 * (contacts_roots and contacts_root_directions, two per contact), after each accepted step
 * (contacts_after_step) and at each root (contacts_handle_roots, which says whether
 * CVODE must be re-initialised). Contacts are numbered as the model lists them
 * (clink_model_contact_element, clink_model_contact_name).
 */
#ifndef CLINK_CONTACTS_H
#define CLINK_CONTACTS_H

#include "clink/sim.h"
#include "dynamics/dynamics.h"

typedef struct contact_set contact_set;

/*
 * NULL with *err set when out of memory; a valid (empty) set for a model without contacts.
 * settle_speed (m/s, > 0): the chattering guard's threshold (clink_settings_def).
 */
contact_set *contacts_create(const clink_model *m, double settle_speed, char *err, size_t errlen);
void contacts_destroy(contact_set **sc);

/* every contact's state (phase, episode, running maxima, caches) as bytes: its size, a copy
   into buf and back, so that a restart at an output continues from the contacts' state
   there (the records and counters are not in it) */
size_t contacts_state_size(const contact_set *sc);
void contacts_state_save(const contact_set *sc, void *buf);
void contacts_state_restore(contact_set *sc, const void *buf);

/* the bookkeeping of impacts (clink_settings_def.contact_bookkeeping); episodes by default */
void contacts_set_bookkeeping(contact_set *sc, clink_contact_bookkeeping mode);

int contacts_count(const contact_set *sc);

/* the set's table of the bodies' cos and sin (constraints.h), for the constraints to share
   (dyn_set_trig) */
kin_trig *contacts_trig(contact_set *sc);
/* number of root functions (2 per contact) and of energy components (the damping integral
   of each contact whose law damps, the friction integral of each contact with friction) */
int contacts_nroots(const contact_set *sc);
int contacts_nwork(const contact_set *sc);

/* contact k's damping and friction integrals (J) in the energy components work (0 for a
   contact that has none) */
void contacts_work(const contact_set *sc, int k, const double *work, double *damping,
                   double *friction);

/* ---- friction states (contacts_friction.c) ---- */

/* the components of the dynamic friction laws' states in the energy block, after the
   integrals (called once by contacts_create) */
void contacts_friction_assign(contact_set *sc);
/* contact k's friction state component in the energy block, -1 if it has none */
int contacts_friction_state_index(const contact_set *sc, int k);
/* the friction states of the energy block work, for the next force evaluations */
void contacts_friction_load(contact_set *sc, const double *work);
/* resets to 0 the friction state of every contact that came into contact since the last
   call (work: the energy block, changed in place); 1 if a state changed */
int contacts_friction_onset(contact_set *sc, double *work);
/* d z' / d(q, v) of contact k's friction state at the last force Jacobian over the
   coordinates coord[6] (its bodies' model coordinates, -1 for the ground): 1, or 0 when
   it has none (no state, not touching, a capsule) */
int contacts_friction_state_jacobian(const contact_set *sc, int k, int coord[6], double dq[6],
                                     double dv[6]);
/* the size of contact k's friction state (m): its largest steady deflection, max(mu, mu_s)
   / sigma0; 0 if it has none */
double contacts_friction_state_scale(const contact_set *sc, int k);
/* d z' / d z of each friction state at the last force evaluation into diag[wz] (the energy
   block's diagonal; other entries untouched) */
void contacts_friction_decay(const contact_set *sc, double *diag);

/* dyn_external_fn: adds the contact forces to g; adds nothing to *power (contact energy has
   its own audit); caches each contact's dissipation rates for contacts_dissipation_rates */
int contacts_forces(void *data, double t, const double *q, const double *v, double *g,
                    double *power);

/*
 * dyn_external_jac_fn, the companion of contacts_forces: adds d g / dq and d g / dv of the
 * contact forces to J (dyn_gjac_at: dense, or by body blocks). The geometry of round shapes
 * (circles, bores, lines against circles) and the friction are differentiated exactly,
 * the law's normal force F(delta, rate) by central differences in its two scalar
 * arguments (the law table has no derivatives); a capsule pair by central differences
 * over its two bodies' coordinates. Leaves the contacts' state and caches unchanged.
 */
int contacts_forces_jacobian(void *data, double t, const double *q, const double *v, dyn_gjac *J);

/* contacts_forces over the listed contacts only (the window of the state, system_window.c):
   each adds its generalised forces to g at both its bodies' coordinates; 0 or -1 */
int contacts_forces_some(contact_set *sc, const int *contacts, int n, double t, const double *q,
                         const double *v, double *g);
/* nonzero if contact k fits the window of the state: a smooth law without an impulse
   treatment (its damping integral, if any, carried by the window), no friction integral
   or state, no lubricant, no bore */
int contacts_window_fits(const contact_set *sc, int k);
/* contact k's damping integral's offset in the work components (-1: none) and its rate (W)
   from the last force evaluation */
int contacts_damping_index(const contact_set *sc, int k);
double contacts_damping_rate(const contact_set *sc, int k);

/* the dissipation rates (W) of the last contacts_forces call into the energy components */
void contacts_dissipation_rates(const contact_set *sc, double *rates);

/* initial phases at t = 0 (contacts that start overlapping by more than the onset level are
   persistent) */
void contacts_start(contact_set *sc, const double *q, const double *v);

int contacts_roots(contact_set *sc, double t, const double *q, const double *v, double *g);
/* the root functions of the listed contacts only, into g[2k], g[2k + 1] of each contact k
   (the others untouched): the same values contacts_roots gives them */
int contacts_roots_some(contact_set *sc, const int *contacts, int n, const double *q,
                        const double *v, double *g);
/* the two bodies of contact k (0: the ground): the coordinates its root functions read */
void contacts_bodies(const contact_set *sc, int k, int *body_a, int *body_b);
/* the third body whose coordinates contact k's geometry and force read (a beam segment's
   second node, coupled with body_b and body_a), 0 for none */
int contacts_third_body(const contact_set *sc, int k);
void contacts_root_directions(const contact_set *sc, int *dirs);
/* the directions of the listed contacts' functions into dirs[2 j], dirs[2 j + 1] */
void contacts_root_directions_some(const contact_set *sc, const int *contacts, int n, int *dirs);

/* after an accepted step: tracks F_max of the impacts in progress */
void contacts_after_step(contact_set *sc, double t, const double *q, const double *v);

/* contacts_after_step over the listed contacts only (those with a body in the window) */
void contacts_after_step_some(contact_set *sc, const int *contacts, int n, const double *q,
                              const double *v);

/*
 * Handles the roots found at time t (CVodeGetRootInfo), one handler per phase;
 * work = the per-contact energy components of y (read only). *reinit is set to
 * 1 when the right-hand side jumps or a piecewise impact changed v (in place).
 * Returns CLINK_OK, or CLINK_ERR_NOMEM (an impact record could not be stored),
 * CLINK_ERR_SOLVER (a piecewise impact failed or approached too slowly) with the
 * cause in contacts_error().
 */
clink_status contacts_handle_roots(contact_set *sc, double t, const double *q, double *v,
                                   const double *work, const int *found, int *reinit);

/* contacts_handle_roots over the listed contacts, found[2 j], found[2 j + 1] those of contacts[j]
   (the window's events, system_window.c) */
clink_status contacts_handle_roots_some(contact_set *sc, const int *contacts, int n, double t,
                                        const double *q, double *v, const double *work,
                                        const int *found, int *reinit);

/* 1 if contacts_forces met a non-finite force at a finite state since the last call (the
   message in contacts_error()); clears it */
int contacts_take_failure(contact_set *sc);

/* the contacts in contact, in an impact or permanent at y = (q, v, ...), listed into buf
   (law, stiffness, penetration), or if there is none the closest one; returns the number
   listed */
int contacts_describe_active(const contact_set *sc, const double *y, int nq, char *buf, size_t n);

/* the size of contact k: the smaller positive radius of its shapes, m (0 if none) */
double contacts_size(const contact_set *sc, int k);
/* contact k's radial clearance when one of its shapes is a bore (its radius minus the
   other's), m; 0 for other contacts */
double contacts_clearance(const contact_set *sc, int k);
/* a friction coefficient above this is a cause the stall diagnosis names */
#define CONTACTS_MU_ABSURD 10.0
/* a known cause of a stall among the contacts at the full state y, in order: a penetration
   beyond a contact's size (contacts_size), a friction coefficient above CONTACTS_MU_ABSURD; 1 with
   the cause in buf (naming the contact), 0 if none */
int contacts_suspect(const contact_set *sc, const double *y, int nq, char *buf, size_t n);
/* contact k's name (the element's, or ELEMENT.PART) and its friction coefficient */
const char *contacts_name(const contact_set *sc, int k);
double contacts_mu(const contact_set *sc, int k);

/* nonzero if contact k's normal passes through the centres of its shapes (circles, lines,
   bores: no capsule), so that the bodies' rotation does not enter the normal motion */
int contacts_central(const contact_set *sc, int k);

/* turns[b] set to 1 (left as it is otherwise) for every body b (>= 1) on which a contact can
   exert a moment about its centre of mass: one has friction, or the body's shape in it is not
   a circle or bore centred there (the normal force of a round shape passes through its
   centre); one pass over the contacts */
void contacts_turning(const contact_set *sc, unsigned char *turns);

/*
 * Nonzero if contact k's force has an exactly zero component along axis (0 x, 1 y) for as
 * long as its bodies keep their coordinate along that axis at the values in q0: it is
 * frictionless, each body's shape is a circle or bore centred at its centre of mass, and
 * the two centres share that coordinate (or the ground's shape is a line whose normal is
 * perpendicular to the axis), so that the normal is perpendicular to the axis. Its two
 * bodies (0: ground) into *body_a, *body_b.
 */
int contacts_keeps_axis(const contact_set *sc, int k, int axis, const double *q0, int *body_a,
                        int *body_b);

/* ---- an element's extra force (contacts_extra.c: a lubricated joint's film) ---- */

/* the first separation of contact k (a cam's: a contact with a profile shape) in the turn of
   the profile's body at positions q (its angle from its initial one, turns counted from 0),
   among those up to time t: its time (s), or NaN when there is none yet, or no profile */
double contacts_first_separation(const contact_set *sc, int k, double t, const double *q);

/* the extra force of contact k on its body B (a film's on its journal) at (q, v) into f
   (world frame, N): 1, or 0 when the contact has none (f zero), -1 when it is not finite */
int contacts_extra_force(const contact_set *sc, int k, const double *q, const double *v,
                         double f[2]);
/* non-zero when contact k's extra force is outside its theory's validity at (q, v) (a
   pi-film turning backwards: Omega < 0 into *value; 1 the long bearing's, 2 the short
   bearing's film="pi"), else 0 */
int contacts_extra_invalid(const contact_set *sc, int k, const double *q, const double *v,
                           double *value);

/* energy of contact k dissipated at its events (not in y; see contacts.c), J */
double contacts_booked(const contact_set *sc, int k);
const char *contacts_error(const contact_set *sc);

/* velocity response dv (ncoords) to a generalised impulse f at q; 0 on success */
typedef int (*contacts_impulse_fn)(void *data, double t, const double *q, const double *f,
                                   double *dv);
void contacts_set_impulse(contact_set *sc, contacts_impulse_fn fn, void *data);
/* on: an onset's effective mass is the free bodies' (contacts_free_inv_mass), not solved through
   the constraints: exact for a model without constraints, in proportion to the contact, not to the
   model (the window of the state, system_window.c) */
void contacts_set_impulse_free(contact_set *sc, int on);

/* elastic energy stored in the contacts at (q, v), J */
double contacts_stored_energy(contact_set *sc, const double *q, const double *v);
/* the same sum from the penetrations of info (contacts_info of every contact at this q and its v):
   the same bits without evaluating the geometry again */
double contacts_stored_energy_at(const contact_set *sc, const double *q,
                                 const clink_contact_info *info);

/* getters (clink_sim_contact, impact records) */
clink_status contacts_info(contact_set *sc, int k, const double *q, const double *v,
                           clink_contact_info *info);
/* on: after each step, the geometry of each contact in an impact is kept for contacts_info_fn at
   that step's end (off at creation; the results are the same bits either way) */
void contacts_keep_end(contact_set *sc, int on);
/* contact k's normal force as contacts_info gives it (fn), without the rest of the information;
   at_end: (q, v) is likely the state at the end of the last step (its geometry kept there is
   read when the bodies' bits match) */
clink_status contacts_info_fn(contact_set *sc, int k, const double *q, const double *v, int at_end,
                              double *fn);
int contacts_impact_count(const contact_set *sc);
clink_status contacts_impact(const contact_set *sc, int i, clink_impact_record *rec);
void contacts_set_callback(contact_set *sc, clink_impact_fn fn, void *data);
long contacts_events(const contact_set *sc);

#endif
