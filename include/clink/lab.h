/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink contact-law laboratory: one two-body central impact (the "contact
 * oscillator" of the source papers) integrated with event location (by default a
 * Dormand-Prince 8(5,3) Runge-Kutta pair with a series start; CVODE on request),
 * and the calibration of a law's damping to a target coefficient of restitution.
 *
 * Table of contents:
 *   - workspace      clink_lab, clink_lab_create(), clink_lab_destroy(), clink_lab_error()
 *   - options        clink_lab_options, clink_lab_options_init()
 *   - one impact     clink_lab_result, clink_lab_impact()
 *   - calibration    clink_lab_calibration, clink_lab_calibrate()
 *
 * The equation: m_eff delta'' = -F(delta, delta', state), delta(0) = 0,
 * delta'(0) = v_impact > 0 (start at contact onset), with F the law of
 * include/clink/contact.h. Events: end of compression at
 * delta' = 0, separation at the zero of clink_law_separation() (zero
 * penetration, zero force, or the elastoplastic residual), and the force
 * maximum at dF/dt = 0 during compression.
 *
 * Ownership: a clink_lab is created by clink_lab_create() and released by
 * clink_lab_destroy(); it holds the integrators' memory reused from one impact to
 * the next. Laws and parameters are borrowed for the duration of a call. One
 * workspace must not be used by two threads at once; two workspaces share nothing.
 */
#ifndef CLINK_LAB_H
#define CLINK_LAB_H

#include "clink/clink.h"
#include "clink/contact.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- workspace ------------------------------------------------------------ */

typedef struct clink_lab clink_lab;

/* Creates a workspace in *lab (NULL on failure). */
CLINK_API clink_status clink_lab_create(clink_lab **lab);

/* Releases a workspace; accepts NULL and sets *lab to NULL. */
CLINK_API void clink_lab_destroy(clink_lab **lab);

/* One line describing the last error of this workspace ("" if none; borrowed). */
CLINK_API const char *clink_lab_error(const clink_lab *lab);

/* ---- options -------------------------------------------------------------- */

typedef enum clink_lab_method {
    CLINK_LAB_ADAMS = 0, /* CVODE Adams-Moulton with fixed-point iteration (non-stiff) */
    CLINK_LAB_BDF = 1,   /* CVODE BDF with Newton iteration and a dense Jacobian (stiff) */
    CLINK_LAB_RK8 = 2    /* Dormand-Prince 8(5,3) with a series start and events on its dense
                            output (default; falls back to CVODE BDF when it fails) */
} clink_lab_method;

/* Receives one point of the force-indentation loop (t s, delta m, delta_dot m/s, F N). */
typedef void (*clink_lab_sample_fn)(void *ctx, double t, double delta, double delta_dot,
                                    double force);

typedef struct clink_lab_options {
    double rtol;                /* relative tolerance of the integrator (default 1e-12) */
    clink_lab_method method;    /* default CLINK_LAB_RK8 */
    double damping;             /* NaN (default): the law's own rule; else replaces the damping
                                   coefficient fixed at onset (state chi or c, whichever the law
                                   uses), in that coefficient's unit */
    clink_lab_sample_fn sample; /* NULL: no loop output */
    void *sample_ctx;
    int samples_per_step; /* points per internal step for the loop (default 1, max 1000) */
    double t_max_factor;  /* give up after this many contact time scales (default 1e4) */
} clink_lab_options;

CLINK_API void clink_lab_options_init(clink_lab_options *options);

/* ---- one impact ----------------------------------------------------------- */

typedef struct clink_lab_result {
    double v_impact;           /* delta_dot at onset, m/s */
    double e_out;              /* achieved restitution -v_out / v_impact, - */
    double v_out;              /* delta_dot at separation (negative when the bodies part), m/s */
    double delta_max;          /* largest penetration, m */
    double t_compression;      /* time of delta_max (end of compression), s */
    double F_max;              /* largest force, N */
    double t_F_max;            /* time of F_max, s */
    double F_min;              /* smallest force (negative: the law pulled), N */
    double duration;           /* onset to separation, s */
    double delta_residual;     /* penetration left at separation, m */
    double E_impact;           /* kinetic energy at onset m v^2 / 2, J */
    double E_diss_compression; /* E_impact - stored energy at delta_max, J */
    double E_diss_restitution; /* stored energy at delta_max - kinetic energy at separation -
                                  E_residual, J */
    double E_residual;         /* elastic energy still stored at separation (zero-force
                                  separation), J */
    double W_damping; /* work of the rate-dependent part F(d, d') - F(d, 0), by quadrature, J */
    double energy_residual; /* |E_impact - kinetic energy at separation - work of F| / E_impact:
                               the integration's own energy balance, - */
    double damping;         /* damping coefficient used (state chi or c after onset) */
    double damping_law;     /* the coefficient the law's own rule gives */
    int damping_is_c;       /* 1: the coefficient is a linear damper c (N s/m); 0: chi */
    int separated;          /* 1 when the separation event was found */
    /* integrator statistics summed over the phases (RK8: steps, right-hand sides,
       rejected steps in n_err_fails, restarts in n_reinit; the others are 0) */
    long n_steps, n_rhs, n_root_evals, n_err_fails, n_nonlin_iters, n_nonlin_fails, n_jac_evals;
    int n_reinit; /* CVODE re-initialisations at phase changes */
} clink_lab_result;

/*
 * Integrates one impact of effective mass m_eff (kg, > 0) at impact velocity
 * v_impact (m/s, > 0) with the law and its parameters (checked with
 * clink_law_check()). options may be NULL (defaults). On error returns a
 * negative status and keeps a message in the workspace.
 */
CLINK_API clink_status clink_lab_impact(clink_lab *lab, const clink_law *law,
                                        const clink_contact_params *params, double m_eff,
                                        double v_impact, const clink_lab_options *options,
                                        clink_lab_result *result);

/* ---- calibration ---------------------------------------------------------- */

typedef struct clink_lab_calibration {
    double e_target;         /* the target restitution, - */
    double damping;          /* calibrated coefficient (chi, N s/m^(m+1), or c, N s/m) */
    double e_achieved;       /* e_out of the laboratory with it, - */
    double damping_law;      /* the coefficient from the law's own rule at e_target */
    double e_law;            /* e_out of the laboratory with the law's own coefficient, - */
    double alpha;            /* damping / sqrt(K m_eff) (dimensionless Tsuji alpha), - */
    double alpha_law;        /* the same for the law's own coefficient, - */
    int damping_is_c;        /* 1: linear damper c; 0: hysteresis factor chi */
    int iterations;          /* laboratory runs of the root finder */
    clink_lab_result impact; /* the impact with the calibrated damping */
} clink_lab_calibration;

/*
 * Finds the damping coefficient for which the achieved restitution equals
 * e_target (in (0, 1]) to |e_out - e_target| <= 1e-10, by bracketing and
 * Brent's method on the laboratory. params->e is replaced by e_target for the
 * law's own rule. Returns CLINK_ERR_NO_CONVERGENCE if no bracket is found.
 */
CLINK_API clink_status clink_lab_calibrate(clink_lab *lab, const clink_law *law,
                                           const clink_contact_params *params, double m_eff,
                                           double v_impact, double e_target,
                                           const clink_lab_options *options,
                                           clink_lab_calibration *cal);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_LAB_H */
