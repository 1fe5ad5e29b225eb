/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wear_internal.h: the contact pressure Archard's law is fed with (src/wear/wear.c,
 * docs/wear.md), for the tests: the strip's half-width and its pressure at arc distance x
 * from the contact, Hertz's ellipse (winkler 0) or the elastic foundation's parabola
 * (winkler 1, layer thickness b), for the normal force F (N) of a line contact of axial
 * length L (m), effective radius R* (m) and modulus E* (Pa).
 */
#ifndef CLINK_WEAR_INTERNAL_H
#define CLINK_WEAR_INTERNAL_H

/* the half-width a, m */
double wear_half_width(int winkler, double F, double Rs, double L, double Es, double b);

/* the pressure p(x), Pa (0 beyond the half-width) */
double wear_pressure(int winkler, double F, double Rs, double L, double Es, double b, double x);

#endif
