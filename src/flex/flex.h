/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The planar geometrically exact beam element (Reissner 1972; Simo and Vu-Quoc 1986) between
 * two nodes that are rigid bodies of the model (docs/flexible.md). A node carries (x, y,
 * theta): the position of the centreline and the rotation of the cross-section. The element
 * interpolates both linearly and integrates with one point at its middle (reduced
 * integration: no shear locking); its strains there, with d = r_b - r_a, the mid-point
 * rotation theta_m = (theta_a + theta_b) / 2, t = (cos theta_m, sin theta_m), n = (-sin
 * theta_m, cos theta_m) and l the undeformed length:
 *
 *   axial eps = d . t / l - 1,  shear gamma = d . n / l,  curvature kappa = (theta_b -
 *   theta_a) / l
 *
 * and its strain energy U = l / 2 (EA eps^2 + k G A gamma^2 + EI kappa^2). The generalised
 * force on (x_a, y_a, theta_a, x_b, y_b, theta_b) is g = -l sum_i S_i (e_i + tau edot_i)
 * grad e_i (Kelvin-Voigt damping with the retardation time tau); the element gives g, its
 * stiffness dg/dq and its damping dg/dv analytically.
 */
#ifndef CLINK_FLEX_H
#define CLINK_FLEX_H

/* one element's section: the stiffnesses and the undeformed length */
typedef struct flex_section {
    double ea;  /* axial stiffness E A, N */
    double ga;  /* shear stiffness k G A, N */
    double ei;  /* bending stiffness E I, N m^2 */
    double l;   /* undeformed length, m (> 0) */
    double tau; /* Kelvin-Voigt retardation time, s (>= 0) */
} flex_section;

/* the strains (eps, gamma, kappa) at q = (x_a, y_a, theta_a, x_b, y_b, theta_b) and, when
   grad is not NULL, their gradients grad[i][j] = d e_i / d q_j */
void flex_beam_strains(const flex_section *s, const double q[6], double e[3], double grad[3][6]);

/* the strains e (eps, gamma, kappa) at q, their rates edot = grad e . v and the section forces
   sec = (N, Q, M) = S (e + tau edot), S = (EA, kGA, EI) (N, N, N m: the axial and shear force
   along t and n at the element's middle and the bending moment); grad (may be NULL) as in
   flex_beam_strains */
void flex_beam_section(const flex_section *s, const double q[6], const double v[6], double e[3],
                       double edot[3], double sec[3], double grad[3][6]);

/* the strain energy U (J) */
double flex_beam_energy(const flex_section *s, const double q[6]);

/*
 * The generalised force g[6] (N, N m) at q and rates v (the elastic and the damping part);
 * kq = dg/dq and kv = dg/dv (6 x 6, row i the component of g, column j the coordinate),
 * each may be NULL. Returns the power of the damping part (W, <= 0).
 */
double flex_beam_force(const flex_section *s, const double q[6], const double v[6], double g[6],
                       double kq[6][6], double kv[6][6]);

#endif
