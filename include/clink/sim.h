/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink simulation: integrates a model with CVODE (SUNDIALS 6.x).
 *
 *   clink_sim *sim = NULL;
 *   char err[256];
 *   if (clink_sim_create(model, NULL, &sim, err, sizeof err) != CLINK_OK) { puts(err); ... }
 *   for (double t = dt; t <= t_end; t += dt) {
 *       if (clink_sim_advance(sim, t) < 0) { puts(clink_sim_error(sim)); break; }
 *       clink_sim_body_state(sim, 1, q, v);
 *   }
 *   clink_sim_destroy(&sim);
 *
 * Table of contents:
 *   - lifecycle      clink_sim_create(), clink_sim_destroy(), clink_sim_error()
 *   - stepping       clink_sim_advance(), clink_sim_set_stop_time(), clink_sim_time()
 *   - output levels  clink_output_level, clink_sim_set_outputs(),
 *                    clink_sim_set_output_contacts(), clink_sim_output_level()
 *   - state          clink_sim_body_state(), clink_sim_body_acceleration()
 *   - forces         clink_sim_joint_reaction(), clink_sim_driver_force()
 *   - energies       clink_energy, clink_sim_energy()
 *   - diagnostics    clink_sim_constraint_violation(), clink_sim_assembly(), clink_sim_stats_get()
 *   - sanity checks  clink_sim_finding_count(), clink_sim_finding_get()
 *   - contacts       clink_sim_contact_count(), clink_sim_contact(), impact records
 *                    clink_sim_impact_count(), clink_sim_impact(), clink_sim_set_impact_callback()
 *   - inputs         clink_sim_set_input(), clink_sim_set_input_by_name(), clink_sim_input_index(),
 *                    clink_sim_input(); user forces clink_sim_set_user_force()
 *   - snapshots      clink_sim_state_size(), clink_sim_state_save(), clink_sim_state_restore()
 *
 * The state is y = (q, v) with q = (x, y, phi) of every moving body (body i >= 1
 * at index 3 (i - 1)). The right-hand side solves the index-1 equations of
 * motion (saddle-point system, KLU) for the accelerations. Drift control as the
 * settings say: CLINK_DRIFT_PROJECTION (BDF only: CVodeSetProjFn of SUNDIALS 6.4
 * refuses Adams) projects q and v onto Phi = 0 and Phi_q v = nu after every
 * step in the metric of the mass matrix; CLINK_DRIFT_BAUMGARTE modifies the
 * acceleration constraint (either method).
 *
 * Ownership: the model must outlive the simulation; the simulation is owned by
 * the caller and released with clink_sim_destroy(), which accepts NULL.
 *
 * Threads: one simulation per thread. A model may be shared by simulations in
 * different threads (it is immutable). The const getters only read the
 * simulation, so several threads may call them on one simulation as long as no
 * thread advances or modifies it at the same time. A call that changes a simulation
 * (advance, destroy, the setters) while another such call runs, from that call's impact
 * callback or from another thread, is refused: CLINK_ERR_STATE, nothing changed, and
 * clink_sim_error() says "in use" in the refused thread (docs/api.md).
 */
#ifndef CLINK_SIM_H
#define CLINK_SIM_H

#include "clink/model.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Creates a simulation at t = 0: projects the model's initial positions and
 * velocities onto the constraints (Newton, minimum correction in the metric of
 * M; see clink_sim_assembly()) and sets up CVODE. settings: NULL for the
 * model's own. On failure *sim is NULL and err (optional, err_size bytes)
 * receives one line: CLINK_ERR_ASSEMBLY when the initial positions cannot be
 * assembled, CLINK_ERR_SINGULAR (naming the joints) for redundant constraints,
 * CLINK_ERR_ARG for projection with Adams, CLINK_ERR_RANGE for settings out of range
 * (rtol outside (0, 1), atol not finite and > 0, ...).
 */
CLINK_API clink_status clink_sim_create(const clink_model *model,
                                        const clink_settings_def *settings, clink_sim **sim,
                                        char *err, size_t err_size);

/* Releases a simulation; accepts NULL and NULL *sim; sets *sim to NULL. A simulation in use
   (destroy called from its impact callback, or while another thread advances it) is left
   alone: nothing freed, *sim kept, clink_sim_error(*sim) says why; destroy it after the
   advance returns. */
CLINK_API void clink_sim_destroy(clink_sim **sim);

/* The settings the simulation runs with: those given to clink_sim_create() (or the
 * model's), with CLINK_METHOD_AUTO and CLINK_DRIFT_AUTO replaced by what the rule chose
 * (docs/kernel.md, "What auto picks and why"). NULL: clink_default_settings_def(). */
CLINK_API clink_settings_def clink_sim_settings(const clink_sim *sim);

/* The message of the last failure ("" if none; below a complete output, what it left out:
   clink_sim_set_outputs()); borrowed. */
CLINK_API const char *clink_sim_error(const clink_sim *sim);

/*
 * Integrates to time t (s, > current time) and makes the state at t the
 * current one. Outputs do not steer the integrator: CVODE takes the steps its
 * error test allows, may step beyond t internally, and the state at t is
 * interpolated from its dense output (CVodeGetDky), then projected onto the
 * constraints when the drift control is projection; the next advance continues
 * from CVODE's own time. The accelerations, multipliers, energies and contact
 * information the getters report are computed at t (those that clink_sim_set_outputs()
 * asks for). Contact events are exact
 * all the same: CVODE returns each root before it steps past it, and the
 * contact state machine changes only there (an event after t is handled by the
 * advance that passes it). A hard limit that CVODE must not step past (a driver
 * defined only up to t_end, say) is set with clink_sim_set_stop_time().
 *
 * Returns CLINK_OK, or an error with the time and cause in clink_sim_error():
 *   CLINK_ERR_ARG       t not after the current time, not finite, or beyond the stop time
 *   CLINK_ERR_SINGULAR  the constraints became redundant (the joints named)
 *   CLINK_ERR_NONFINITE a contact force or the state became NaN or infinite (the
 *                       contact and the time named)
 *   CLINK_ERR_NOMEM     out of memory (an impact record could not be stored, ...)
 *   CLINK_ERR_RANGE     t would need more than the settings' max_steps steps of max_step
 *   CLINK_ERR_SOLVER    CVODE failed, or a progress guarantee stopped the run: more than
 *                       max_steps steps, steps shorter than min_step (automatic guard:
 *                       1000 steps in a row below 1e-12 of the time, where time no
 *                       longer moves), the wall-clock limit; the message names the time,
 *                       the step, the contacts involved and the likely cause
 *   CLINK_ERR_LINSOLVE  the saddle-point solve failed
 *   CLINK_ERR_STATE     the simulation is in use (called from its own impact callback or
 *                       while another thread advances it): refused, nothing changed
 * The status is the failing component's (dynamics, contacts, CVODE), never read
 * from a message. After an error the current state stays the last good one.
 * Physical sanity checks do not stop the run: see clink_sim_finding_count().
 */
CLINK_API clink_status clink_sim_advance(clink_sim *sim, double t);

/*
 * A time CVODE must not step past (CVodeSetStopTime), s: clink_sim_advance()
 * up to t_stop then never integrates beyond it, and an advance past t_stop is
 * refused (CLINK_ERR_ARG) until a later stop time is set. t_stop must not be
 * before CVODE's own time (which may be ahead of clink_sim_time()):
 * CLINK_ERR_ARG otherwise. A host that runs to a fixed end time may set it to
 * that time; nothing is lost when it does not.
 */
CLINK_API clink_status clink_sim_set_stop_time(clink_sim *sim, double t_stop);

/*
 * What an output computes: every clink_sim_advance() ends by computing, at t, what the
 * getters report. A caller that reads only some of it says so, and the rest is not
 * computed (Simbody's realization stages are the model: each level includes those
 * below it).
 *   CLINK_OUTPUT_STATE     q and v of every body (clink_sim_body_state(), clink_sim_time())
 *   CLINK_OUTPUT_CONTACTS  and the information of every contact (clink_sim_contact()): its
 *                          geometry, normal and friction forces, phase
 *   CLINK_OUTPUT_ALL       and the accelerations, joint reactions and driver forces (one
 *                          saddle-point solve with every force), the energies and the
 *                          constraint violation: the default
 * The level changes nothing else: the integration, the contact events, the impact
 * records and their callback, the statistics, and q, v and the contact information
 * are the same bits at every level. What an output did not compute is refused, never
 * reported stale: clink_sim_body_acceleration(), clink_sim_joint_reaction(),
 * clink_sim_driver_force() and clink_sim_energy() return CLINK_ERR_STATE below
 * CLINK_OUTPUT_ALL, clink_sim_contact() below CLINK_OUTPUT_CONTACTS, and
 * clink_sim_constraint_violation() gives NaN; clink_sim_error() then says, as long as
 * no later call fails, what the current output left out (the getters themselves write
 * nothing: they stay const and thread-safe).
 * Sanity checks (see "physical sanity checks" below) use what the output computed: the
 * energy balance is checked only at outputs computed at CLINK_OUTPUT_ALL (and its
 * energy scale grows only there), the penetration at an output from
 * CLINK_OUTPUT_CONTACTS up; the checks of every impact record (its largest penetration
 * and its restitution) are made at every level.
 * The output rows of a recorder (clink/output.h) read everything: with a lower level, or
 * a list of contacts (clink_sim_set_output_contacts()), in force or at the current
 * output, its advance is refused (CLINK_ERR_STATE).
 */
typedef enum clink_output_level {
    CLINK_OUTPUT_STATE = 1,
    CLINK_OUTPUT_CONTACTS = 2,
    CLINK_OUTPUT_ALL = 3
} clink_output_level;

/*
 * The level of the outputs from the next clink_sim_advance() on (the current output
 * keeps what it computed; a simulation is created at CLINK_OUTPUT_ALL, and its output at
 * t = 0 is always complete). CLINK_ERR_ARG for a level out of the enumeration.
 */
CLINK_API clink_status clink_sim_set_outputs(clink_sim *sim, clink_output_level level);

/*
 * The contacts whose information the outputs compute (at CLINK_OUTPUT_CONTACTS and
 * CLINK_OUTPUT_ALL), from the next clink_sim_advance() on: the n contacts listed in
 * `contacts` (indices as in clink_sim_contact(); a repeat counts once; n = 0: none), or
 * every contact when `contacts` is NULL (the default; n is then ignored). An embedder
 * that samples a few sensor contacts of a long chain lists them, and the others cost
 * nothing at the outputs. clink_sim_contact() of a contact not listed returns
 * CLINK_ERR_STATE; the penetration check at the outputs covers the listed contacts (the
 * impact records are checked for every contact). CLINK_ERR_ARG: n < 0 or an index out of
 * range (the list in force is kept); CLINK_ERR_NOMEM.
 */
CLINK_API clink_status clink_sim_set_output_contacts(clink_sim *sim, const int *contacts, int n);

/* The level the current output was computed at (0 for a NULL handle). */
CLINK_API clink_output_level clink_sim_output_level(const clink_sim *sim);

/* Current time, s (NaN for a NULL handle). Every getter below accepts a NULL handle: those
   returning a status return CLINK_ERR_ARG, the others fill their outputs with NaN or zero. */
CLINK_API double clink_sim_time(const clink_sim *sim);

/* Position (x m, y m, phi rad) and velocity (m/s, m/s, rad/s) of body `body` (0 = ground). */
CLINK_API clink_status clink_sim_body_state(const clink_sim *sim, int body, double q[3],
                                            double v[3]);

/* Acceleration (m/s^2, m/s^2, rad/s^2) of body `body` at the current time (CLINK_ERR_STATE
   below CLINK_OUTPUT_ALL). */
CLINK_API clink_status clink_sim_body_acceleration(const clink_sim *sim, int body, double a[3]);

/*
 * Reaction of joint `joint` at the current time: the force (N, global frame)
 * and moment (N m, about point_b) that body_a exerts on body_b through the joint
 * (body_b receives +, body_a the opposite). From the multipliers: generalised
 * force Phi_q^T lambda of the joint's rows on body_b. CLINK_ERR_STATE below
 * CLINK_OUTPUT_ALL.
 */
CLINK_API clink_status clink_sim_joint_reaction(const clink_sim *sim, int joint, double force[3]);

/*
 * Generalised force of driver `driver`: its Lagrange multiplier lambda, N m for
 * an angle (the torque the driver applies to the driven body, or to body_b of a
 * driven joint) or N for a position. The driver applies Phi_q^T lambda. CLINK_ERR_STATE
 * below CLINK_OUTPUT_ALL.
 */
CLINK_API clink_status clink_sim_driver_force(const clink_sim *sim, int driver, double *force);

/*
 * Friction of joint `joint` (a revolute or translational joint with a <friction>,
 * docs/friction.md, "Joint friction") at the current time: *force the torque r F_t the
 * joint's friction applies to body_b (N m; -*force on body_a) for a revolute joint, the
 * force on body_b along the joint's axis at its slider point (N) for a translational
 * one; *z its bristle state (m, along the slip: on the pin's surface for a revolute
 * joint) for a dynamic law (lugre, dahl), NaN for a static one. From the output state's
 * multipliers: the applied friction to the joint-friction fixed point's tolerance (1e-12
 * relative). CLINK_ERR_NOT_FOUND (both NaN) for a joint without friction, CLINK_ERR_STATE
 * below CLINK_OUTPUT_ALL.
 */
CLINK_API clink_status clink_sim_joint_friction(const clink_sim *sim, int joint, double *force,
                                                double *z);

typedef struct clink_energy {
    double kinetic;      /* J */
    double gravity;      /* potential energy of gravity, J, zero at the origin */
    double spring;       /* potential energy of translational and rotational springs, J */
    double work_drivers; /* work done by the drivers since t = 0, J */
    double work_loads;   /* work of dampers, actuators, point forces, torques since t = 0, J */
    /* kinetic + gravity + spring - work_drivers - work_loads - work_stabilisation
       + contact_stored + contact_damping + contact_friction - (its value at t = 0):
       zero for an exact solution, J */
    double balance;
    double contact_stored;   /* elastic energy in the contacts now: integral of F(s, 0) ds, J */
    double contact_damping;  /* dissipated by the contact laws since t = 0: damping, plastic work
                                of elastoplastic laws, energy left in the spring at a zero-force
                                separation, kinetic energy lost in piecewise impacts, J */
    double contact_friction; /* dissipated by contact friction since t = 0, J */
    /* work of the drift control since t = 0, J: the energy the projections added
       (negative when they removed it) plus the work of the constraint forces on the
       constraint drift, lambda . (Phi_q v - nu), through which the Baumgarte terms
       act (docs/kernel.md) */
    double work_stabilisation;
} clink_energy;

/* Energies at the current time (the works are integrated by CVODE with the state);
   CLINK_ERR_STATE below CLINK_OUTPUT_ALL. */
CLINK_API clink_status clink_sim_energy(const clink_sim *sim, clink_energy *energy);

/* max |Phi| (m or rad) and max |Phi_q v - nu| (m/s or rad/s) at the current time (NaN for a
   NULL handle, and below CLINK_OUTPUT_ALL). */
CLINK_API void clink_sim_constraint_violation(const clink_sim *sim, double *position,
                                              double *velocity);

/* Norms of the corrections applied to the initial positions and velocities (mixed units; NaN
   for a NULL handle). */
CLINK_API void clink_sim_assembly(const clink_sim *sim, double *dq_norm, double *dv_norm);

/*
 * Redundant constraints: the number of constraint equations that depend on the
 * others at t = 0 (0 for independent constraints; -1 for a NULL handle), and
 * their names ("joint 2 'pin_again' equation 0, ...", optional, truncated to
 * size). They are handled, not refused: the accelerations are those the
 * independent equations give and the reactions the set of least Euclidean norm
 * (docs/kernel.md).
 */
CLINK_API int clink_sim_redundant_constraints(const clink_sim *sim, char *names, size_t size);

typedef struct clink_sim_stats {
    long steps;            /* CVODE steps */
    long rhs_evals;        /* right-hand-side evaluations by CVODE */
    long rhs_evals_jac;    /* right-hand-side evaluations for the finite-difference Jacobian */
    long jac_evals;        /* Jacobian evaluations (BDF) */
    long lin_setups;       /* linear solver setups */
    long error_test_fails; /* local error test failures */
    long nonlin_iters;     /* nonlinear iterations */
    long nonlin_fails;     /* nonlinear convergence failures */
    long proj_evals;       /* projections (CLINK_DRIFT_PROJECTION) */
    long proj_fails;       /* projection failures */
    long klu_factors;      /* full KLU factorisations of the saddle matrix */
    long klu_refactors;    /* KLU numeric refactorisations of the saddle matrix */
    double last_step;      /* s */
    int last_order;
    long contact_events;  /* contact root events handled */
    long contact_reinits; /* CVODE re-initialisations at contact events */
    long findings;        /* physical sanity findings (clink_sim_finding_count()) */
    long implausible;     /* of which CLINK_FINDING_IMPLAUSIBLE */

    /* evaluations of the contacts' root functions by the event location: of all of them
       (once per step, twice per event) and of some (the contacts an event's search needs) */
    long root_evals;
    long root_evals_partial;
} clink_sim_stats;

/*
 * Integrator statistics since creation: the counters of CVODE are summed over its
 * re-initialisations at contact events (CVodeReInit resets them), so they grow
 * with the simulated time. last_step and last_order are CVODE's latest. All zero
 * for a NULL handle.
 */
CLINK_API void clink_sim_stats_get(const clink_sim *sim, clink_sim_stats *stats);

/* The window of the state (settings window; docs/kernel.md, "Work in proportion to what
   moves"): whether it runs, how many bodies the integrator carries now and on average over
   the steps, and how often the integrator was re-created as the window changed. */
typedef struct clink_window_stats {
    int in_use;        /* 1: the window runs; 0: off, or the model is out of its scope */
    int bodies;        /* bodies of the model (ground excluded) */
    int awake;         /* bodies the integrator carries now; the others are asleep */
    long restarts;     /* integrator re-creations as the window grew or shrank */
    double mean_awake; /* bodies carried, averaged over the steps taken */
    char why_not[96];  /* with the window asked for (on, or auto) and not in use: why, prefixed
                          "auto: " under auto ("" otherwise) */
} clink_window_stats;

/* The window's figures into *stats (in_use 0 and zeros when the window is off). */
CLINK_API void clink_sim_window_get(const clink_sim *sim, clink_window_stats *stats);

/* A change of integration method while a run with settings method "auto" runs (docs/kernel.md,
   "What auto picks and why": Adams while the steps are limited by accuracy, BDF while they are
   limited by stiffness, as LSODA decides). */
typedef struct clink_method_switch {
    double t;              /* s: the time of the switch */
    clink_method from, to; /* CLINK_METHOD_ADAMS or CLINK_METHOD_BDF */
    char reason[128];      /* what was measured, e.g. "stiff: h L = 2.1 > 0.45 ..." */
} clink_method_switch;

/* The method switches of the run so far: their number (0 when none, for a method other than
   auto, or a NULL handle); the first min(max, CLINK_METHOD_SWITCHES_KEPT) of them into out
   (out may be NULL with max 0). */
#define CLINK_METHOD_SWITCHES_KEPT 64
CLINK_API int clink_sim_method_switches(const clink_sim *sim, clink_method_switch *out, int max);

/* ---- physical sanity checks ------------------------------------------------- */

/*
 * While it runs, a simulation checks what the equations cannot: findings are
 * recorded (they do not stop the run) at the advance where they first appear.
 *   CLINK_FINDING_ENERGY       |energy balance| (clink_energy.balance) against the
 *                              system's energy scale E: the largest kinetic + stored +
 *                              |spring| + |gravity - its initial value| + work of drivers
 *                              and loads + dissipated energy seen at the outputs. Warning
 *                              above 1e-2 E, implausible above 0.5 E (energy created or
 *                              lost that the books do not hold).
 *   CLINK_FINDING_RESTITUTION  an impact with restitution above 1.001 although its law
 *                              dissipated energy in it (more than 1e-6 of the approach
 *                              energy), the only contact of a passive model (no driver,
 *                              actuator, point force, torque, input or user force):
 *                              warning; implausible
 *                              between free bodies (no joint) whose normal passes through
 *                              their centres (no capsule). Elsewhere (a chain pushing a
 *                              bead from behind, a motor feeding a clearance joint) a
 *                              restitution above 1 is physics: only the balance can tell.
 *   CLINK_FINDING_PENETRATION  a penetration above 0.25 of the contact's size (the smaller
 *                              radius of its shapes): warning; above the size itself:
 *                              implausible.
 *   CLINK_FINDING_ASSEMBLY     at creation (t = 0): the projection onto the constraints
 *                              moved a position beyond 1e-3 of the model's size (the
 *                              diagonal of the box of the bodies' centres and the ground's
 *                              joint points) or 0.1 of the smallest radial clearance, an
 *                              angle beyond 1e-3 rad, or a velocity given nonzero beyond
 *                              1e-3 of the largest initial speed: warning naming them.
 *   CLINK_FINDING_START        at creation: a contact penetrated beyond 1e-6 of its size,
 *                              or a clearance joint whose journal approaches the bearing
 *                              faster than 0.1 m/s: warning naming it.
 *   CLINK_FINDING_VALIDITY     at an output: a lubricated joint with theory="long" whose
 *                              film turns backwards (Omega < 0), outside its force's
 *                              validity (docs/contact-laws.md): warning naming it.
 * Each kind is reported once per level (and per contact). Non-finite values are
 * not findings: they stop the run (CLINK_ERR_NONFINITE).
 */
typedef enum clink_finding_kind {
    CLINK_FINDING_ENERGY = 1,
    CLINK_FINDING_RESTITUTION = 2,
    CLINK_FINDING_PENETRATION = 3,
    CLINK_FINDING_ASSEMBLY = 4, /* at creation: initial conditions the assembly moved */
    CLINK_FINDING_START = 5,    /* at creation: a contact that starts penetrated or fast */
    CLINK_FINDING_VALIDITY = 6  /* a force law used outside its range of validity */
} clink_finding_kind;

typedef enum clink_finding_severity {
    CLINK_FINDING_WARNING = 1,    /* suspicious: tolerances or parameters worth checking */
    CLINK_FINDING_IMPLAUSIBLE = 2 /* physically impossible: a host should mark the run failed */
} clink_finding_severity;

typedef struct clink_sim_finding {
    clink_finding_kind kind;
    clink_finding_severity severity;
    double t;          /* time of the advance (or impact onset) where it was found, s */
    int contact;       /* the contact involved, -1 for none */
    double value;      /* the quantity: energy residual J, restitution -, penetration m */
    double relative;   /* relative to its scale: residual / E, restitution, penetration / size */
    double limit;      /* the bound of `relative` that was crossed */
    char message[256]; /* one line naming all of the above */
} clink_sim_finding;

/* Number of findings so far (0 for NULL); at most 64 are kept, the count includes all. */
CLINK_API int clink_sim_finding_count(const clink_sim *sim);

/* Finding i (0 .. min(count, 64) - 1), in the order found. CLINK_ERR_ARG out of range. */
CLINK_API clink_status clink_sim_finding_get(const clink_sim *sim, int i,
                                             clink_sim_finding *finding);

/* ---- contacts -------------------------------------------------------------- */

/* Contacts are numbered as the model lists them: clink_model_contact_count(), and for each
   its element and name by clink_model_contact_element() and clink_model_contact_name()
   (include/clink/model.h); no convention between element kinds is needed. */
CLINK_API int clink_sim_contact_count(const clink_sim *sim);

typedef struct clink_contact_info {
    double delta;           /* penetration, m (> 0 in contact; negative: the gap) */
    double delta_dot;       /* penetration rate, m/s (> 0 approaching) */
    double fn;              /* normal force, N (on body B along normal; body A the opposite) */
    double ft;              /* friction force, N (on body B along the tangent (-n_y, n_x)) */
    double normal[2];       /* unit normal, the direction of the force on B */
    double point_a[2];      /* contact point on A, world frame, m */
    double point_b[2];      /* contact point on B, world frame, m */
    double eccentricity[2]; /* clearance joints: journal centre - bearing centre, world, m */
    clink_contact_phase phase;
    int persistent; /* nonzero in permanent contact (events off until the gap opens) */
} clink_contact_info;

/* The state of contact `contact` at the current time (CLINK_ERR_STATE below
   CLINK_OUTPUT_CONTACTS, or for a contact clink_sim_set_output_contacts() left out). */
CLINK_API clink_status clink_sim_contact(const clink_sim *sim, int contact,
                                         clink_contact_info *info);

/* The bristle state z (m, the mean bristle deflection along the tangent) of contact
   `contact`'s dynamic friction law (lugre, dahl; include/clink/friction.h) at the current
   time: 0 at each onset, frozen while the contact is open. CLINK_ERR_NOT_FOUND (*z NaN)
   when its law has no state (a static law, or no friction). Any output level. */
CLINK_API clink_status clink_sim_contact_friction_state(const clink_sim *sim, int contact,
                                                        double *z);

/* Contact element e's own outputs (clink_model_element_output_count of them, named by
   clink_model_element_output_name) at the current time, from the output state: those of
   the bodies' poses as clink_model_element_outputs gives them, and those from the forces
   at that state (a lubricated clearance joint's film force and dry share), which
   clink_model_element_outputs leaves NaN. CLINK_ERR_STATE below CLINK_OUTPUT_CONTACTS, or
   when clink_sim_set_output_contacts() left one of its contacts out. */
CLINK_API clink_status clink_sim_element_outputs(const clink_sim *sim, int e, double *values);

/*
 * One impact: a contact episode from onset to separation (or to entry into permanent
 * contact). With CLINK_BOOKKEEPING_EPISODES (default) the episode spans all its
 * compression lobes (re-compressions while in contact); with CLINK_BOOKKEEPING_HYSTERESIS
 * a re-compression ends the record (persistent = 1, lobes = 1).
 */
typedef struct clink_impact_record {
    int contact;         /* contact index (clink_model_contact_name names it) */
    double t_onset;      /* s */
    double duration;     /* onset to separation, s */
    double v_impact;     /* approach speed delta_dot at onset, m/s */
    double v_separation; /* separation speed -delta_dot at separation, m/s (0: permanent
                            by re-compression) */
    double restitution;  /* v_separation / v_impact, -; NaN (undefined) when the approach was
                            slower than the settle speed (a chain's beads touching at rest) */
    double delta_max;    /* largest penetration of the episode, m */
    double F_max;        /* largest normal force of the episode, seen at the accepted steps and
                            events, N */
    double dissipated;   /* energy dissipated by the law (contact_damping) and friction during
                            the impact, J */
    double m_eff;        /* effective mass used at onset, kg */
    int persistent;      /* nonzero if the impact ended in permanent contact */
    int lobes;           /* compression lobes: 1 + the re-compressions while in contact */
} clink_impact_record;

CLINK_API int clink_sim_impact_count(const clink_sim *sim);
CLINK_API clink_status clink_sim_impact(const clink_sim *sim, int i, clink_impact_record *record);

/* Called at the end of each impact (from inside clink_sim_advance: the simulation is in use
   there, and clink_sim_advance, clink_sim_destroy and the setters called from the callback
   are refused with CLINK_ERR_STATE; the const getters may be called). */
typedef void (*clink_impact_fn)(void *data, const clink_impact_record *record);
CLINK_API void clink_sim_set_impact_callback(clink_sim *sim, clink_impact_fn fn, void *data);

/* ---- Poincare sections (docs/nonlinear.md) ------------------------------------ */

/* what a section samples: the times t = start + k period (stroboscopic), the times a driver's
   prescribed value reaches f(0) + k period (a crank's revolutions), or the times a body
   coordinate or rate crosses a level */
typedef enum clink_section_kind {
    CLINK_SECTION_TIME = 0,
    CLINK_SECTION_DRIVER = 1,
    CLINK_SECTION_STATE = 2
} clink_section_kind;

typedef struct clink_section_def {
    char name[CLINK_NAME_MAX + 1]; /* for the outputs ("" : section0, ...) */
    clink_section_kind kind;
    int driver;     /* CLINK_SECTION_DRIVER: the driver's index */
    int body;       /* CLINK_SECTION_STATE: the body's index (>= 1) */
    int coordinate; /* CLINK_SECTION_STATE: 0 x, 1 y, 2 phi, 3 vx, 4 vy, 5 omega */
    double value;   /* CLINK_SECTION_STATE: the level (m, rad, m/s, rad/s) */
    double period;  /* TIME: s; DRIVER: the driver's unit (m or rad); > 0 */
    double start;   /* s: crossings before it are located but not reported; TIME: the phase
                       origin, the first sample at start itself */
    int direction;  /* STATE: +1 rising, -1 falling, 0 both; DRIVER: +1 the value increasing
                       (targets f(0) + k period), -1 decreasing (f(0) - k period) */
    int line;       /* the model file's line, for messages (0: none) */
} clink_section_def;

/* A section's default: CLINK_SECTION_TIME, period 0 (to be set), start 0, direction +1. */
CLINK_API clink_section_def clink_default_section_def(void);

/* Called at each crossing with its time, the section's count of crossings (1, 2, ...) and
   the state there: y = q (nq: x, y, phi of each moving body) then v (nq). Another status
   than CLINK_OK stops the advance with it. */
typedef clink_status (*clink_section_fn)(void *data, int section, long count, double t,
                                         const double *y, int nq);

/*
 * Adds a Poincare section to sim (before its first advance; not with the window of the
 * state). Each crossing is located inside the integrator's steps on its dense output (the
 * interpolant of the last step, CVODE's CVodeGetDky): a driver's or a state's crossing by
 * root-finding to CVODE's root tolerance, 100 eps (|t| + |h|), a time section at its exact
 * time. The integrator is never stopped or re-aimed: every other output of the run is the
 * same, bit for bit, with or without sections. *index (may be NULL): the section's index.
 * CLINK_ERR_ARG (bad definition), CLINK_ERR_STATE (advanced already, the window), NOMEM.
 */
CLINK_API clink_status clink_sim_add_section(clink_sim *sim, const clink_section_def *def,
                                             clink_section_fn fn, void *data, int *index);

/*
 * The bodies' positions and velocities at the output state, y = q then v (n = 2 nq, nq = 3
 * per moving body): get, and set at the current time (clink_sim_time()). A set state is
 * projected onto the constraints as an output is, the rest of the state (work integrals,
 * contact phases and dissipation) kept, and the integrator restarted there with no history
 * (as after a contact event): for a perturbed trajectory beside a reference one (the largest
 * Lyapunov exponent, docs/nonlinear.md). A perturbation should not change which contacts
 * touch. CLINK_ERR_ARG (n, non-finite values), CLINK_ERR_STATE (the window of the state).
 */
CLINK_API clink_status clink_sim_state_get(const clink_sim *sim, double *y, int n);
CLINK_API clink_status clink_sim_state_set(clink_sim *sim, const double *y, int n);

/* ---- the largest Lyapunov exponent (docs/nonlinear.md) ---------------------------- */

typedef struct clink_lyapunov_options {
    double d0;     /* the distance of the perturbed trajectory after each renormalisation
                      (Euclidean over q and v; default 1e-8) */
    double every;  /* s: the renormalisation interval (> 0; a forcing period, say) */
    double settle; /* s: the transient, before the perturbed trajectory starts */
    double t_end;  /* s: the end (> settle + every) */
    /* the coordinates perturbed and measured, of every body: bit k for x, y, phi, vx, vy,
       omega (k = 0 .. 5); 0: all. A free body's x, phi and their rates are neutral directions
       (exponent 0) that hide the negative exponents of a periodic response */
    unsigned coordinates;
} clink_lyapunov_options;

typedef struct clink_lyapunov_result {
    double lambda; /* 1/s: the mean growth rate of the distance */
    double error;  /* 1/s: the standard error of the means of 10 batches of the intervals */
    long intervals;
} clink_lyapunov_result;

/* Called after each interval with its time and the running estimate (the convergence). */
typedef void (*clink_lyapunov_fn)(void *data, double t, double lambda);

CLINK_API clink_lyapunov_options clink_default_lyapunov_options(void);

/*
 * The largest Lyapunov exponent of model's response under settings (NULL: the model's), by
 * two trajectories through every impact with renormalisation (Benettin et al. 1980): a
 * reference simulation and one set d0 away (clink_sim_state_set) after the transient and
 * set back to d0 every interval. CLINK_OK and *r, or the failing simulation's status with
 * the message in err.
 */
CLINK_API clink_status clink_lyapunov(const clink_model *model, const clink_settings_def *settings,
                                      const clink_lyapunov_options *options, clink_lyapunov_fn fn,
                                      void *data, clink_lyapunov_result *r, char *err,
                                      size_t err_size);

/* ---- inputs and user forces (docs/api.md, "Acting on the mechanism") -------- */

/*
 * The model's inputs (clink_model_input_count(); <inputs> in a model file) are set by the
 * host between advances. An input holds value + slope (t - t_set) from the time t_set it
 * is set (the current time, clink_sim_time()) until it is set again: constant over an
 * advance unless a slope is given. A set that changes value or slope is a discontinuity:
 * the next clink_sim_advance() restarts the integrator at t_set from the output state there
 * (CVODE re-initialised: order 1, no history, the steps it took beyond t_set discarded, a
 * contact event found beyond t_set found again, the contacts' state as it was at the output
 * t_set), so that the run continues as one that stopped at t_set and started again from
 * that state with the new value. A driver input
 * that moves the driver's position or rate also projects the state onto the constraints
 * there (the energy this moves is booked as work_stabilisation). Setting the value and
 * slope an input already has changes nothing. The output at t_set keeps what it computed
 * with the old values.
 *
 * clink_sim_set_input: CLINK_ERR_ARG for an index out of range or a value or slope not
 * finite, CLINK_ERR_STATE when in use (from the impact callback or another thread).
 */
CLINK_API int clink_sim_input_count(const clink_sim *sim);
CLINK_API int clink_sim_input_index(const clink_sim *sim, const char *name); /* -1: none */
CLINK_API clink_status clink_sim_set_input(clink_sim *sim, int index, double value, double slope);
/* CLINK_ERR_NOT_FOUND for an unknown name (the message lists the inputs) */
CLINK_API clink_status clink_sim_set_input_by_name(clink_sim *sim, const char *name, double value,
                                                   double slope);
/* The value and slope input `index` holds now (its value at clink_sim_time(); NaN for a
   driver input never set, whose driver follows its own function). */
CLINK_API clink_status clink_sim_input(const clink_sim *sim, int index, double *value,
                                       double *slope);

/*
 * User forces: called at every evaluation of the right-hand side with the time t (s) and
 * the state of the n = 3 (nbodies - 1) coordinates, q and v as clink_sim_body_state() gives
 * them (body i >= 1 at 3 (i - 1): x, y, phi and their rates); writes the generalised forces
 * f (n, zeroed before the call: per body fx N, fy N, torque N m, global frame, about the
 * centre of mass) added to the loads. Returns 0, or non-zero for a failure: the advance
 * stops with CLINK_ERR_SOLVER and a message naming the callback and the time; a NaN or
 * infinite force stops it with CLINK_ERR_NONFINITE the same way. The power f . v is booked
 * in work_loads.
 */
typedef int (*clink_user_force_fn)(void *data, double t, int n, const double *q, const double *v,
                                   double *f);
/*
 * Its optional Jacobian: df/dq and df/dv (n x n, column-major, column j at dfdq + j n,
 * zeroed before the call). Without it the Jacobian of the forces is taken by central
 * differences (4 n calls of fn per Jacobian evaluation).
 */
typedef int (*clink_user_force_jac_fn)(void *data, double t, int n, const double *q,
                                       const double *v, double *dfdq, double *dfdv);
/*
 * Sets the user force of a simulation (one per simulation; fn NULL removes it), named
 * `name` (copied; it names the callback in messages). Setting or removing it is a
 * discontinuity, as an input change is. A coordinate the simulation holds fixed (the angle
 * of a body nothing can turn and the like, docs/kernel.md) cannot take a user force: a
 * non-zero force on one stops the run with CLINK_ERR_MODEL naming it. CLINK_ERR_STATE when
 * in use.
 */
CLINK_API clink_status clink_sim_set_user_force(clink_sim *sim, const char *name,
                                                clink_user_force_fn fn, clink_user_force_jac_fn jac,
                                                void *data);

/* ---- state snapshots --------------------------------------------------------- */

/*
 * A snapshot is an opaque, versioned byte buffer holding everything a continuation
 * needs: the time and state (coordinates, rates, the works and dissipation integrals),
 * the contacts' phases and law states (damping fixed at onset, elastoplastic history and
 * plastic residuals), impacts in progress and the impact records, the current output (and
 * the output level and contact list), the findings, the stop time and the counters. A host
 * stores it as it likes (memory, file) and restores it into any simulation of the same
 * model and method: clink_sim_advance() then continues bit for bit as the saved simulation
 * does after the save.
 *
 * The integrator's history is not saved (CVODE has no public call for it): a save makes a
 * restart point in the saved simulation (its integrator re-initialised at the current time,
 * as at a contact event), and a restore the same one, so that both continue alike. The
 * cost is that of a contact event (a few short steps at order 1), and a saved run's later
 * bits differ from those of a run never saved. The integrator's counters
 * (clink_sim_stats_get) carry over: steps, evaluations and failures exactly, the Jacobian
 * and projection counts up to those of the restart; the saddle-point factorisation counts
 * are each simulation's own. The impact callback is each simulation's own.
 * The buffer is for this library's version and this kind of machine (byte order, sizes):
 * another is refused. docs/api.md, "State snapshots".
 */

/* The bytes clink_sim_state_save() needs now (0 for NULL); it grows with the impact records
   and findings, so ask again after an advance. */
CLINK_API size_t clink_sim_state_size(const clink_sim *sim);

/* Writes a snapshot into buf (size bytes) and makes the current time a restart point (see
   above). CLINK_ERR_RANGE when buf is NULL or smaller than clink_sim_state_size() (nothing
   changed), CLINK_ERR_STATE in use, CLINK_ERR_SOLVER when the restart fails. */
CLINK_API clink_status clink_sim_state_save(clink_sim *sim, void *buf, size_t size);

/* Writes the snapshot clink_sim_state_save() would write, without the restart point: the
   simulation continues bit for bit as one never saved (what an FMU's checkpoint needs,
   docs/fmi.md). A restore of it restarts there, so the restored run continues from the
   same state within the integrator's tolerances of this one, not bit for bit; two
   restores of it continue bit for bit alike. Errors as clink_sim_state_save(). */
CLINK_API clink_status clink_sim_state_peek(clink_sim *sim, void *buf, size_t size);

/* Makes the state of the snapshot in buf (size bytes, as saved) the simulation's. Refused,
   with nothing changed and the cause in clink_sim_error(): CLINK_ERR_PARSE for a buffer that
   is not a snapshot, is truncated or damaged (checksum), or of another version or kind of
   machine; CLINK_ERR_MODEL for a snapshot of another model (a hash of its entities, names,
   bodies, gravity, contacts and assembled initial configuration) or saved with another
   method or drift control; CLINK_ERR_NOMEM; CLINK_ERR_STATE in use. A snapshot whose data
   turn out not to fit once read (CLINK_ERR_PARSE) is undone from a backup: all or nothing. */
CLINK_API clink_status clink_sim_state_restore(clink_sim *sim, const void *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_SIM_H */
