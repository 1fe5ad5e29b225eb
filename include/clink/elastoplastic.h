/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink elastoplastic contact: the Ma-Liu static law of two elastoplastic bodies
 * (elastic Hertz, elastoplastic and plastic loading; Hertzian unloading with an
 * enlarged radius and a residual indentation) and its closed forms, after Wang,
 * Liu and Liu (Wang, Liu and Liu 2022, Eqs. 1-9) read as in docs/elastoplastic.md.
 *
 * Table of contents:
 *   - the law's constants      clink_maliu, clink_maliu_init()
 *   - loading                  clink_maliu_load_force(), clink_maliu_load_work(),
 *                              clink_maliu_delta_max()
 *   - unloading                clink_maliu_unload, clink_maliu_unload_from(),
 *                              clink_maliu_unload_force(), clink_maliu_unload_work()
 *   - one impact in closed form  clink_maliu_impact, clink_maliu_impact_solve()
 *
 * Units: SI (m, N, Pa, J, kg, m/s). Ownership: every struct belongs to the caller;
 * nothing is allocated.
 */
#ifndef CLINK_ELASTOPLASTIC_H
#define CLINK_ELASTOPLASTIC_H

#include "clink/clink.h"
#include "clink/contact.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the law's constants -------------------------------------------------- */

/* Constants of the Ma-Liu law for one pair of materials and radii (Eqs. 1, 2, 9). */
typedef struct clink_maliu {
    double E;       /* effective modulus E*, 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2, Pa */
    double R;       /* effective radius, 1/R = 1/R1 + 1/R2 (negative radius: concave), m */
    double Y;       /* yield strength of the softer body, Pa */
    double psi;     /* hardness / yield strength, - */
    double xi;      /* delta_p = xi^2 delta_y / 2, - */
    double p_y;     /* critical yield pressure 1.61 Y, Pa */
    double delta_y; /* end of the elastic phase pi^2 R p_y^2 / (4 E*^2), m */
    double delta_p; /* start of the plastic phase xi^2 delta_y / 2, m */
    double F_y;     /* force at delta_y, pi^3 R^2 p_y^3 / (6 E*^2), N */
    double F_p;     /* force at delta_p, N */
    double c1;      /* elastoplastic coefficient, N/m */
    double c2;      /* elastoplastic coefficient, N/m */
    double c3;      /* elastoplastic coefficient, N */
    double k1;      /* plastic stiffness 2 pi R psi Y, N/m */
    double K_hertz; /* Hertz stiffness 4/3 E* sqrt(R), N/m^1.5 */
    double Kp; /* linearised elastoplastic stiffness (F_p - F_y)/(delta_p - delta_y), Eq. 9, N/m */
    double delta_c; /* largest delta_max whose unloading is elastic (loading force not yet
                       below the Hertz force; delta_y <= delta_c < delta_p), m */
} clink_maliu;

/*
 * Computes the constants from params (E1, E2, nu1, nu2, R1, R2, Y, psi, xi).
 * Errors (CLINK_ERR_RANGE, one line in msg naming the value and the valid range):
 * a missing or non-finite value, E <= 0, nu outside (-1, 0.5], radii that make no
 * contact (1/R1 + 1/R2 <= 0), Y not in (0, E*), psi <= p_y / (2 Y) = 0.805,
 * xi <= sqrt(2), and psi, xi for which the loading curve crosses the Hertz curve
 * beyond delta_p or the residual indentation would become negative.
 */
CLINK_API clink_status clink_maliu_init(clink_maliu *ml, const clink_contact_params *params,
                                        char *msg, size_t msg_size);

/* ---- loading -------------------------------------------------------------- */

/* Loading force at penetration delta (m), Eq. 1, N; 0 for delta <= 0. */
CLINK_API double clink_maliu_load_force(const clink_maliu *ml, double delta);

/* Work of the loading force from 0 to delta (m), Eq. 6 with the c3 term, J. */
CLINK_API double clink_maliu_load_work(const clink_maliu *ml, double delta);

/*
 * The penetration at which the loading work equals energy (J, >= 0): the maximum
 * penetration of an impact with kinetic energy 1/2 m v0^2. CLINK_ERR_RANGE for a
 * negative or non-finite energy.
 */
CLINK_API clink_status clink_maliu_delta_max(const clink_maliu *ml, double energy,
                                             double *delta_max);

/* ---- unloading ------------------------------------------------------------ */

/* The unloading curve from a maximum penetration (Eqs. 3-5). */
typedef struct clink_maliu_unload {
    double delta_max; /* m */
    double F_max;     /* loading force at delta_max, N */
    double R_e;       /* unloading radius, m (R for elastic unloading) */
    double delta_r;   /* residual indentation, >= 0, m */
    int plastic;      /* 0: unloads along the loading curve (delta_max <= delta_c);
                         1: F = 4/3 E* sqrt(R_e) (delta - delta_r)^1.5 */
} clink_maliu_unload;

/* The unloading curve after loading to delta_max (m, >= 0). */
CLINK_API void clink_maliu_unload_from(const clink_maliu *ml, double delta_max,
                                       clink_maliu_unload *u);

/* Force on the unloading curve at delta (m), N; 0 at or below delta_r. */
CLINK_API double clink_maliu_unload_force(const clink_maliu *ml, const clink_maliu_unload *u,
                                          double delta);

/* Work returned on unloading from delta_max to delta_r, Eq. 7, J. */
CLINK_API double clink_maliu_unload_work(const clink_maliu *ml, const clink_maliu_unload *u);

/* ---- one impact in closed form -------------------------------------------- */

typedef struct clink_maliu_impact {
    double energy;      /* 1/2 m v0^2, J */
    double delta_max;   /* m */
    double F_max;       /* N */
    double delta_r;     /* residual indentation, m */
    double R_e;         /* unloading radius, m */
    double work_unload; /* W, Eq. 7, J */
    double restitution; /* energetic (Stronge 2000) coefficient sqrt(W / U), Eq. 8, - */
    double dissipated;  /* U - W, J */
    int phase;          /* phase reached: 0 elastic, 1 elastoplastic, 2 plastic */
} clink_maliu_impact;

/*
 * One impact of mass m (kg, > 0) at relative approach velocity v0 (m/s, >= 0),
 * solved in closed form (Eqs. 6-8). CLINK_ERR_RANGE for bad m or v0.
 */
CLINK_API clink_status clink_maliu_impact_solve(const clink_maliu *ml, double m, double v0,
                                                clink_maliu_impact *out);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_ELASTOPLASTIC_H */
