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

#include "clink/wear.h"

#include <stddef.h>

/* the half-width a, m */
double wear_half_width(int winkler, double F, double Rs, double L, double Es, double b);

/* the pressure p(x), Pa (0 beyond the half-width) */
double wear_pressure(int winkler, double F, double Rs, double L, double Es, double b, double x);

/* ---- the guides of translational clearance joints (wear_guide.c) ---- */

typedef struct wear_guide wear_guide;

/* the guide of element e (its first contact `contact`), grids at zero; NULL with err */
wear_guide *wear_guide_create(const clink_model *m, int e, int contact, char *err, size_t size);
void wear_guide_destroy(wear_guide *g);
void wear_guide_reset(wear_guide *g);
/* adds the trapezoid of the previous observation and the state of sim (dt apart) */
clink_status wear_guide_observe(wear_guide *g, const clink_sim *sim, int have_prev, double dt);
int wear_guide_joint(const wear_guide *g);
int wear_guide_grid(const wear_guide *g, int side, double *depth);
double wear_guide_volume(const wear_guide *g, int part);
/* 0 sliding (m), 1 work (J), 2 peak force (N), 3 volume off the grid (m^3) */
double wear_guide_tally(const wear_guide *g, int which);

#endif
