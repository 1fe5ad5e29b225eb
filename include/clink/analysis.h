/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Static equilibrium, linearised modes and kinematic analysis of a mechanism
 * (docs/analysis.md).
 *
 *   clink_analysis       a mechanism's state to analyse: its start (t = 0, assembled as
 *                        clink_sim_create() assembles it) or, after clink_analysis_advance(),
 *                        the state of a run at time t; the same equations the integrator
 *                        solves (applied loads, springs, gravity, contacts at their current
 *                        state, the saddle-point system of the constraints)
 *   equilibrium          Newton on the constrained static equations with a line search and a
 *                        dynamic-relaxation fallback: the pose, the reactions, the residual
 *   modes                the linearisation on the constraint manifold (null-space basis of
 *                        Phi_q by SVD), eigenvalues of its first-order form by LAPACK dgeev:
 *                        frequencies, damping ratios, mode shapes in body coordinates
 *   clink_kinematics     a driven mechanism swept over a driver's values without dynamics:
 *                        positions, velocities, accelerations, transmission angles, joint
 *                        points (coupler curves), dead points, values where assembly fails
 *
 * Errors follow include/clink/clink.h: a status, the message on the handle
 * (clink_analysis_error()) or in the caller's buffer for the constructors.
 */
#ifndef CLINK_ANALYSIS_H
#define CLINK_ANALYSIS_H

#include "clink/clink.h"
#include "clink/model.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct clink_analysis clink_analysis;

/*
 * The analysis of a model at its start: a simulation with the model's settings is created
 * (settings NULL) or with `settings`, and its assembled state at t = 0 is the state
 * analysed. CLINK_ERR_NOMEM, or the status of clink_sim_create() with its message.
 */
CLINK_API clink_status clink_analysis_create(const clink_model *model,
                                             const clink_settings_def *settings,
                                             clink_analysis **out, char *err, size_t err_size);
CLINK_API void clink_analysis_destroy(clink_analysis **analysis);
/* the message of the last failed call (one line, borrowed) */
CLINK_API const char *clink_analysis_error(const clink_analysis *analysis);

/* runs the simulation to time t (> the current time) and takes its state there (modes about
   a state of a run); the run is the model's from its start, whatever pose an equilibrium
   found before left in the analysis. The status of clink_sim_advance() */
CLINK_API clink_status clink_analysis_advance(clink_analysis *analysis, double t);

/* time (s), number of coordinates (3 per body), degrees of freedom at the state */
CLINK_API double clink_analysis_time(const clink_analysis *analysis);
CLINK_API int clink_analysis_coordinate_count(const clink_analysis *analysis);
CLINK_API int clink_analysis_dof(const clink_analysis *analysis);

/* the coordinates q and rates v (ncoords each, body i >= 1 at 3 (i - 1): x, y, phi; either may
   be NULL) of the state analysed */
CLINK_API clink_status clink_analysis_state(const clink_analysis *analysis, double *q, double *v);

/* ---- static equilibrium --------------------------------------------------- */

typedef struct clink_equilibrium_options {
    double tolerance;    /* on max |N^T g_eff| (N or N m); 0: 1e-10 times the force scale */
    int max_iterations;  /* Newton iterations, 0: 50 */
    int relax_first;     /* 1: dynamic relaxation before Newton (else only when Newton stalls) */
    int accept_unstable; /* 1: keep an unstable equilibrium Newton finds; 0: relax from it,
                            displaced along its softest direction, for a stable one (up to
                            three times; an equilibrium still unstable is returned as such) */
} clink_equilibrium_options;

CLINK_API clink_equilibrium_options clink_default_equilibrium_options(void);

typedef struct clink_equilibrium_result {
    int iterations;       /* Newton iterations */
    int line_search_cuts; /* step halvings of the line search, all iterations */
    int fallback;         /* 1 when dynamic relaxation was used, 2 the continuation in the
                             loads (Newton ran out of iterations without stalling) */
    int fallback_steps;   /* its pseudo-time steps, or load steps */
    double residual;      /* max |N^T g_eff| at the end (N or N m) */
    double tolerance;     /* what it was held to */
    double force_scale;   /* the scale the default tolerance is relative to (N) */
    double constraint;    /* max |Phi| at the pose (m or rad) */
    int stable;           /* 1: the reduced stiffness is positive definite */
    double min_stiffness; /* its smallest eigenvalue (symmetric part; N/m, N m/rad mixed) */
} clink_equilibrium_result;

/*
 * Newton on the constrained static equations g(q) + Phi_q^T lambda = 0, Phi(q, t) = 0 from
 * the state analysed, at its time t with zero rates; on success the analysis's state becomes
 * the equilibrium (rates zero). CLINK_ERR_MODEL: a driver moves at t (a driven coordinate has
 * no equilibrium); CLINK_ERR_SINGULAR: the reduced stiffness is singular (a free motion: the
 * message names it in body coordinates, and whether a net force acts along it);
 * CLINK_ERR_NO_CONVERGENCE: neither Newton nor the fallback reached the tolerance. The default
 * tolerance is raised to the residual's rounding floor (eps times the largest stiffness times
 * the largest coordinate: a stiff beam's axial forces); result->tolerance says what it was.
 */
CLINK_API clink_status clink_analysis_equilibrium(clink_analysis *analysis,
                                                  const clink_equilibrium_options *options,
                                                  clink_equilibrium_result *result);

/* reactions at the state analysed (after clink_analysis_equilibrium(), or at a run's state):
   as clink_sim_joint_reaction() (force on body_b, N, and moment about point_b, N m) and
   clink_sim_driver_force() */
CLINK_API clink_status clink_analysis_joint_reaction(const clink_analysis *analysis, int joint,
                                                     double force[3]);
CLINK_API clink_status clink_analysis_driver_force(const clink_analysis *analysis, int driver,
                                                   double *force);
/* the generalised force of every contact on body (>= 1): fx, fy (N) and the moment about the
   centre of mass (N m) */
CLINK_API clink_status clink_analysis_contact_force(const clink_analysis *analysis, int body,
                                                    double force[3]);

/* ---- linearised modes ----------------------------------------------------- */

typedef struct clink_mode {
    double re, im;           /* eigenvalue of the first-order form, 1/s (im >= 0) */
    double frequency;        /* undamped natural frequency |lambda| / (2 pi), Hz */
    double damped_frequency; /* im / (2 pi), Hz */
    double damping_ratio;    /* -re / |lambda| (0 for a zero eigenvalue) */
    int zero;                /* 1: |lambda| below the zero threshold (no stiffness) */
    int unstable;            /* 1: re > 0 beyond the threshold */
} clink_mode;

/*
 * Linearises at the state analysed: N an orthonormal basis of the null space of Phi_q (SVD),
 * M_r = N^T M N, K_r = -N^T M (d qdd / dq) N, C_r = -N^T M (d qdd / dv) N with the analytic
 * Jacobian of the accelerations (springs, dampers, contacts, the constraints' second
 * derivatives), and the eigenvalues of [0 I; -M_r^-1 K_r  -M_r^-1 C_r] by dgeev. One mode per
 * complex pair (im > 0) and per real eigenvalue, ascending in |lambda|.
 */
CLINK_API clink_status clink_analysis_modes(clink_analysis *analysis);
CLINK_API int clink_analysis_mode_count(const clink_analysis *analysis);
/* mode i and its shape (ncoords, may be NULL): the real part of N z scaled so that its largest
   component is 1 (a complex shape's phase removed at that component) */
CLINK_API clink_status clink_analysis_mode(const clink_analysis *analysis, int i, clink_mode *mode,
                                           double *shape);
/* the body coordinates a shape moves most ("body 'rod' phi 1, body 'slider' x 0.31"), into buf */
CLINK_API void clink_analysis_describe(const clink_analysis *analysis, const double *shape,
                                       char *buf, size_t size);
/* the reduced matrices of the last linearisation, dof x dof column-major (any may be NULL) */
CLINK_API clink_status clink_analysis_reduced(const clink_analysis *analysis, double *mr,
                                              double *kr, double *cr);

/* ---- kinematic analysis --------------------------------------------------- */

typedef struct clink_kinematics clink_kinematics;

typedef struct clink_kinematics_options {
    int driver;      /* the driver swept (index), default 0 */
    int range_given; /* 1: from and to below; 0: the driver's values over [0, t_end], an angle
                        driver's to one turn at most */
    double from, to; /* driver values, m or rad */
    int steps;       /* intervals, default 360 */
    double rate;     /* driver rate for the velocities and accelerations (unit/s), default 1 */
    int max_newton;  /* position iterations per value, default 30 */
} clink_kinematics_options;

CLINK_API clink_kinematics_options clink_default_kinematics_options(void);

/*
 * The sweep: at each driver value the positions by Newton from the previous value (with a
 * first-order predictor), the velocities and accelerations from Phi_q v = nu and Phi_q a =
 * gamma. The mechanism with its drivers must have no degree of freedom. CLINK_ERR_MODEL (a
 * free degree of freedom, no driver), CLINK_ERR_RANGE (options), CLINK_ERR_NOMEM; values
 * where assembly fails are rows with assembled 0, not an error.
 */
CLINK_API clink_status clink_kinematics_sweep(const clink_model *model,
                                              const clink_kinematics_options *options,
                                              clink_kinematics **out, char *err, size_t err_size);
CLINK_API void clink_kinematics_destroy(clink_kinematics **k);
CLINK_API int clink_kinematics_rows(const clink_kinematics *k);
CLINK_API int clink_kinematics_columns(const clink_kinematics *k);
/* the name of column c ("driver", "assembled", "sigma_ratio", "dead_point", "driver_force",
   "transmission_B_deg", "crank.x", ..., "A.px", ...) */
CLINK_API const char *clink_kinematics_column_name(const clink_kinematics *k, int c);
/* row r (columns values; NaN where assembly failed) */
CLINK_API const double *clink_kinematics_row(const clink_kinematics *k, int r);

/* ---- linearised film of a lubricated journal bearing ----------------------- */

/* a lubricated journal bearing at a steady load and speed (the film of a lubricated revolute
   clearance joint, docs/contact-laws.md "Hydrodynamic journal bearing") */
typedef struct clink_film_bearing {
    int theory;       /* clink_lubrication_theory: CLINK_LUBRICATION_SHORT or _LONG */
    double viscosity; /* mu, Pa s (> 0) */
    double radius;    /* journal radius R, m (> 0) */
    double length;    /* bearing length L, m (> 0) */
    double clearance; /* radial clearance c, m (> 0) */
    double omega;     /* omega_journal + omega_bearing, rad/s (non-zero; + counter-clockwise) */
    double load;      /* W, N (> 0), on the journal along +x of the coefficients' frame */
} clink_film_bearing;

/* a lubricated clearance joint's bearing (its viscosity, length, theory, journal radius and
   clearance bearing_radius - journal_radius) at speed omega and load W; CLINK_ERR_ARG,
   CLINK_ERR_NOT_FOUND (no such joint), CLINK_ERR_MODEL (the joint is dry) */
CLINK_API clink_status clink_film_bearing_of_joint(const clink_model *model, int joint,
                                                   double omega, double load,
                                                   clink_film_bearing *out);

typedef struct clink_film_coefficients {
    double eccentricity; /* steady eccentricity ratio eps = e / c */
    double attitude;     /* angle from the load (+x) to the line of centres, rad, + counter-
                            clockwise (the sense of rotation for omega > 0) */
    double position[2];  /* the journal centre from the bearing centre (x, y), m */
    double force[2];     /* the film force on the journal there (x, y), N: (-W, 0) */
    double sommerfeld;   /* S = mu N L D / W (R / c)^2, N = |omega| / 2 pi rev/s, D = 2 R */
    double stiffness[4]; /* K_xx, K_xy, K_yx, K_yy = -dF_i / dx_j, N/m */
    double damping[4];   /* C_xx, C_xy, C_yx, C_yy = -dF_i / dxdot_j, N s/m */
    int iterations;      /* bisection steps on eps */
} clink_film_coefficients;

/*
 * The steady journal position of the bearing under its load (|F(eps)| = W by bisection, then
 * the attitude angle that makes F = -W e_x) and the film's stiffness and damping about it, so
 * that a small displacement dx and velocity dv of the journal change the film force on it by
 * -K dx - C dv. The derivatives are analytic (the chain rule through the short- or
 * long-bearing force's own derivatives in eps, eps_dot and Omega). x along the load, y = x
 * turned +90 degrees. CLINK_ERR_ARG (NULL), CLINK_ERR_RANGE (a parameter), CLINK_ERR_NO_
 * CONVERGENCE (a load the film cannot carry below eps = 1 - 1e-12, or a non-finite value).
 */
CLINK_API clink_status clink_film_coefficients_compute(const clink_film_bearing *bearing,
                                                       clink_film_coefficients *out);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_ANALYSIS_H */
