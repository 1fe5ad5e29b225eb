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
#include <stdio.h>

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

/* the low-pass of a guide's grid of n cells (cell centres at (i + 1/2) length / n): a Hann
   window of half-width one knot spacing length / (nknots - 1), not periodic (its weights
   renormalised over the cells inside the guide), sampled at the nknots abscissae j length /
   (nknots - 1) into knots; -1 for nknots < 2 or n < nknots, else 0 */
int wear_guide_smooth(const double *grid, int n, int nknots, double *knots);

/* ---- a guide in the life simulation (wear_life_guide.c) ---- */

typedef struct wear_life_guide {
    int index, joint, n; /* its index in the clink_wear, its joint id, its cells */
    double clearance, wall, length;
    double *life[2], *cycle[2]; /* lower, upper: life depth and depth per cycle per cell, m */
    double knots[2][CLINK_WEAR_MAX_KNOTS];
    double vol[2], slider, off, fpeak, work, rate;
    int guide_body, slider_body;
    double gp[2], sp[2], axis[2]; /* guide point, slider point, unit axis (body frames) */
} wear_life_guide;

/* guide i of w: its constants, grids at zero; 0, or -1 with err */
int wear_life_guide_init(wear_life_guide *g, const clink_model *m, const clink_wear *w, int i,
                         char *err, size_t size);
void wear_life_guide_free(wear_life_guide *g);
/* the deepest cell of the lower (s 0), upper (1) or both (2) life grids, m */
double wear_life_guide_top(const wear_life_guide *g, int s);
/* the worn guide of the life grids into m (flat while unworn); 0, or -1 with err */
int wear_life_guide_apply(wear_life_guide *g, clink_model *m, int nknots, const char *path,
                          long done, char *err, size_t size);
/* the depth per observed cycle into g->cycle from w; *fmax_out lowered to fraction c / w for
   every worn cell; returns the largest depth per cycle */
double wear_life_guide_rate(wear_life_guide *g, const clink_wear *w, int observe, double fraction,
                            double *fmax_out);
/* the life grids and tallies advanced by f cycles of the observed ones */
void wear_life_guide_add(wear_life_guide *g, const clink_wear *w, long f, int observe);
/* the guide's part of a journal line, and its reading (0, or -1: not this guide's) */
void wear_life_guide_journal(FILE *f, const wear_life_guide *g);
int wear_life_guide_parse(wear_life_guide *g, char **p);
/* the rows of wear_profile.csv, wear_guide_updates.csv, and the summary's entry */
void wear_life_guide_profile_rows(FILE *p, const wear_life_guide *g, int update, long done);
void wear_life_guide_update_row(FILE *u, const wear_life_guide *g, int update, long done,
                                long factor);
void wear_life_guide_summary(FILE *f, const wear_life_guide *g, int first);
/* a row of guide_orbit_NNNNN.csv: the slider point from the guide point in the guide's frame,
   along the axis and across it, and the slider's angle to the guide, at sim's state */
void wear_life_guide_orbit_row(FILE *f, const wear_life_guide *g, const clink_sim *sim, int update);

#endif
