/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The beam element of src/flex/flex_beam.c: its force is minus the gradient of its strain
 * energy (central differences of the energy), its stiffness and damping matrices are the
 * derivatives of its force (central differences of the force), and rigid motions
 * (translation, a large rotation) leave it unstrained with zero force.
 */
#include "ensure.h"

#include "flex/flex.h"

#include <math.h>

/* a steel section 20 x 10 mm over an element of 0.1 m, with damping */
static flex_section section(double tau)
{
    double E = 2.0e11, G = E / 2.6, A = 2e-4, I = 0.02 * 1e-3 * 1e-3 * 1e-3 / 12.0;
    flex_section s = {E * A, 5.0 / 6.0 * G * A, E * I, 0.1, tau};
    return s;
}

/* a deformed state: stretched, sheared and bent, at a large angle */
static void deformed(double q[6], double v[6])
{
    const double q0[6] = {0.31, -0.12, 0.7, 0.31 + 0.1003 * cos(0.72), -0.12 + 0.1003 * sin(0.72),
                          0.81};
    const double v0[6] = {0.4, -1.1, 3.0, -0.7, 0.9, -2.5};
    for (int j = 0; j < 6; j++) {
        q[j] = q0[j];
        v[j] = v0[j];
    }
}

TEST(beam_element_force_is_minus_the_gradient_of_its_strain_energy)
{
    flex_section s = section(0.0);
    double q[6], v[6], g[6];
    deformed(q, v);
    for (int j = 0; j < 6; j++)
        v[j] = 0.0;
    flex_beam_force(&s, q, v, g, NULL, NULL);
    double gmax = 0.0;
    for (int j = 0; j < 6; j++)
        gmax = fmax(gmax, fabs(g[j]));
    ENSURE(gmax > 1e3); /* the state is strained */
    for (int j = 0; j < 6; j++) {
        double qp[6], qm[6], h = 1e-7;
        for (int k = 0; k < 6; k++)
            qp[k] = qm[k] = q[k];
        qp[j] += h;
        qm[j] -= h;
        double fd = -(flex_beam_energy(&s, qp) - flex_beam_energy(&s, qm)) / (2.0 * h);
        ENSURE_NEAR(g[j], fd, 1e-6 * gmax);
    }
}

/* the analytic matrix a (6 x 6) against central differences of the force along q (side 0) or
   v (side 1) */
static void check_matrix(const flex_section *s, int side)
{
    double q[6], v[6], g[6], kq[6][6], kv[6][6];
    deformed(q, v);
    flex_beam_force(s, q, v, g, kq, kv);
    double(*a)[6] = side ? kv : kq, amax = 0.0;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++)
            amax = fmax(amax, fabs(a[r][c]));
    ENSURE(amax > 0.0);
    for (int c = 0; c < 6; c++) {
        double qp[6], qm[6], vp[6], vm[6], gp[6], gm[6];
        double h = side ? 1e-4 : 1e-8;
        for (int k = 0; k < 6; k++) {
            qp[k] = qm[k] = q[k];
            vp[k] = vm[k] = v[k];
        }
        if (side) {
            vp[c] += h;
            vm[c] -= h;
        } else {
            qp[c] += h;
            qm[c] -= h;
        }
        flex_beam_force(s, qp, vp, gp, NULL, NULL);
        flex_beam_force(s, qm, vm, gm, NULL, NULL);
        for (int r = 0; r < 6; r++)
            ENSURE_NEAR(a[r][c], (gp[r] - gm[r]) / (2.0 * h), 1e-6 * amax);
    }
}

TEST(beam_element_stiffness_is_the_derivative_of_its_force)
{
    flex_section s = section(0.0);
    check_matrix(&s, 0);
}

TEST(beam_element_damped_stiffness_and_damping_are_derivatives_of_its_force)
{
    flex_section s = section(2e-4);
    check_matrix(&s, 0);
    check_matrix(&s, 1);
    /* the damping only dissipates */
    double q[6], v[6], g[6];
    deformed(q, v);
    ENSURE(flex_beam_force(&s, q, v, g, NULL, NULL) < 0.0);
}

TEST(beam_element_rigid_translation_and_large_rotation_give_zero_force)
{
    flex_section s = section(1e-3);
    /* undeformed at angle 0.3 */
    double q[6] = {0.2, 0.1, 0.3, 0.2 + 0.1 * cos(0.3), 0.1 + 0.1 * sin(0.3), 0.3};
    const double moves[3] = {0.0, 1.7, -2.9}; /* rotations about node a, rad */
    for (int m = 0; m < 3; m++) {
        double c = cos(moves[m]), sn = sin(moves[m]), qr[6], v[6], g[6], e[3];
        double dx = q[3] - q[0], dy = q[4] - q[1];
        qr[0] = q[0] + 5.0;
        qr[1] = q[1] - 3.0;
        qr[2] = q[2] + moves[m];
        qr[3] = qr[0] + c * dx - sn * dy;
        qr[4] = qr[1] + sn * dx + c * dy;
        qr[5] = q[5] + moves[m];
        /* the rates of a rigid motion: a translation and a spin of 2 rad/s about node a */
        double w = 2.0;
        v[0] = 1.0;
        v[1] = -0.5;
        v[2] = w;
        v[3] = 1.0 - w * (qr[4] - qr[1]);
        v[4] = -0.5 + w * (qr[3] - qr[0]);
        v[5] = w;
        flex_beam_strains(&s, qr, e, NULL);
        for (int i = 0; i < 3; i++)
            ENSURE_NEAR(e[i], 0.0, 1e-14);
        flex_beam_force(&s, qr, v, g, NULL, NULL);
        for (int j = 0; j < 6; j++)
            ENSURE_NEAR(g[j], 0.0, 1e-12 * s.ea);
        ENSURE_NEAR(flex_beam_energy(&s, qr), 0.0, 1e-20 * s.ea);
    }
}

TEST(beam_element_pure_bending_stores_ei_kappa_squared_over_two_per_length)
{
    /* nodes rotated by -+ alpha about the chord: kappa = 2 alpha / l, no axial or shear strain
       at the mid-point rotation */
    flex_section s = section(0.0);
    double al = 0.01, q[6] = {0.0, 0.0, -al, s.l, 0.0, al}, e[3];
    flex_beam_strains(&s, q, e, NULL);
    ENSURE_NEAR(e[0], 0.0, 1e-15);
    ENSURE_NEAR(e[1], 0.0, 1e-15);
    ENSURE_REL(e[2], 2.0 * al / s.l, 1e-14);
    ENSURE_REL(flex_beam_energy(&s, q), 0.5 * s.ei * e[2] * e[2] * s.l, 1e-14);
}
