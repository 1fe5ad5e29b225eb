/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The conformal cylinder laws' internals shared with their tests (src/contact/cylinder.c):
 * the geometry of a cylinder pair read from the params and the bracketed Newton solve of
 * the implicit (logarithmic) laws delta = A F (ln(B / F) + c).
 */
#ifndef CLINK_CONTACT_CYLINDER_H
#define CLINK_CONTACT_CYLINDER_H

#include "clink/contact.h"

/* a cylinder pair as the laws read it from params R1, R2, L and the materials */
typedef struct contact_cylinder_pair {
    int internal; /* 1: a journal in a bearing (one radius negative); 0: two convex cylinders */
    double Rj;    /* internal: journal radius; external: R1, m */
    double Rb;    /* internal: bearing radius (> Rj); external: R2, m */
    double dR;    /* internal: the clearance Rb - Rj; external: R1 + R2, m */
    double Rs;    /* relative radius Rj Rb / dR (internal), R1 R2 / (R1 + R2) (external), m */
    double Es;    /* E* = 1 / ((1 - nu1^2) / E1 + (1 - nu2^2) / E2), Pa */
    double L;     /* axial length, m */
} contact_cylinder_pair;

/* the pair of params; 0, or -1 when a radius, modulus, Poisson ratio or L is missing or out of
   range (clink_law_check says which) */
int contact_cylinder_pair_of(const clink_contact_params *params, contact_cylinder_pair *pair);

/* the relative tolerance of the implicit solve: |F_k+1 - F_k| <= this F_k+1 */
#define CONTACT_CYLINDER_RTOL 4e-15

/*
 * F > 0 solving A F (ln(B / F) + c) = delta (A > 0, 1/N... m/N; B > 0, N) by Newton's method
 * bracketed in [0, F_limit], F_limit = B e^(c - 1), where delta(F) has its maximum
 * delta_limit = A F_limit (the load limit of the logarithmic laws, Pereira et al. 2011):
 * 0 for delta <= 0, NaN for delta > delta_limit or when 100 steps do not converge (never a
 * wrong root). *iterations (if not NULL) gets the Newton steps taken.
 */
double contact_cylinder_solve_log(double A, double B, double c, double delta, int *iterations);

#endif /* CLINK_CONTACT_CYLINDER_H */
