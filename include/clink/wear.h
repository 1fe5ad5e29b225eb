/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink wear: Archard wear of revolute clearance joints over a machine's life (docs/wear.md).
 *
 *   clink_wear *w = NULL;
 *   clink_wear_create(model, &w, err, sizeof err);       the joints with <wear>, grids at zero
 *   loop: clink_sim_advance(sim, t); clink_wear_observe(w, sim);   accumulate (trapezoid)
 *   clink_wear_grid(w, i, CLINK_WEAR_BORE, depth)         the depth on the grid
 *   clink_wear_smooth(depth, n, nknots, knots)            the low-passed profile at the knots
 *   clink_model_set_worn_bore(model, joint, nknots, knots, err, size)   fed back
 *   clink_wear_destroy(&w);
 *
 * The life simulation (clink wear MODEL --cycles N) is clink_wear_life().
 *
 * Archard's law, h' = k_D p v on each surface: p the contact pressure, Hertz's elliptic
 * strip of half-width a = sqrt(4 F R* / (pi L E*)) (R* = R_j R_b / (R_b - R_j), L the
 * <wear> length, E* its modulus or the joint's materials' 1 / ((1 - nu1^2) / E1 + (1 - nu2^2)
 * / E2)); v the sliding speed |t . (v_journal(p_B) - v_bearing(p_A))|; the strip laid on each
 * surface's grid about the contact point's angle in that body's frame, integrated over
 * each cell exactly, so that the worn volume L sum(h_i R dtheta) grows at k_D F v exactly.
 * Observation only reads the simulation: a run observed is the same run, bit for bit.
 */
#ifndef CLINK_WEAR_H
#define CLINK_WEAR_H

#include "clink/sim.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct clink_wear clink_wear;

enum { CLINK_WEAR_BORE = 0, CLINK_WEAR_JOURNAL = 1 };

/* The wear state of the model's clearance joints with a <wear> (kd > 0), grids at zero.
   CLINK_ERR_MODEL (none has wear, or a modulus is missing), CLINK_ERR_NOMEM. */
CLINK_API clink_status clink_wear_create(const clink_model *model, clink_wear **wear, char *err,
                                         size_t err_size);
CLINK_API void clink_wear_destroy(clink_wear **wear);

/* The joints with wear: their count, and the clearance joint id and contact index of the
   i-th. */
CLINK_API int clink_wear_count(const clink_wear *wear);
CLINK_API int clink_wear_joint(const clink_wear *wear, int i);
CLINK_API int clink_wear_contact(const clink_wear *wear, int i);

/* Adds the wear from the previous observation to the current state of sim (the trapezoid
   of the two states' rates); the first observation after create or reset only records.
   sim must compute contacts at its outputs (CLINK_OUTPUT_CONTACTS or above). */
CLINK_API clink_status clink_wear_observe(clink_wear *wear, const clink_sim *sim);

/* Zeroes the grids and the tallies and forgets the previous observation. */
CLINK_API void clink_wear_reset(clink_wear *wear);

/* Joint i's grid on surface s (CLINK_WEAR_BORE, _JOURNAL): its cells (the first centred at
   angle pi / n of the body frame, counter-clockwise) copied into depth (may be NULL), m;
   returns the number of cells. */
CLINK_API int clink_wear_grid(const clink_wear *wear, int i, int surface, double *depth);

/* Joint i's dwell: the time its contact (normal force > 0) spent in each bore cell (s) into
   seconds, and the normal force's time integral there (N s) into impulse (either may be
   NULL); returns the number of cells. */
CLINK_API int clink_wear_dwell(const clink_wear *wear, int i, double *seconds, double *impulse);

/* Tallies of joint i since create or reset: the worn volume of surface s (m^3), the wear
   work integral of F v dt (J; Archard: volume = k_D times it), the sliding distance in
   contact (m), the largest normal force seen (N). */
CLINK_API double clink_wear_volume(const clink_wear *wear, int i, int surface);
CLINK_API double clink_wear_work(const clink_wear *wear, int i);
CLINK_API double clink_wear_sliding(const clink_wear *wear, int i);
CLINK_API double clink_wear_peak_force(const clink_wear *wear, int i);

/* The low-pass of a periodic grid of n cells (periodic convolution with a Hann window of
   half-width one knot spacing 2 pi / nknots; it keeps the mean and the sign) sampled at
   the nknots angles 2 pi j / nknots into knots. CLINK_ERR_ARG for n < nknots or nknots < 8. */
CLINK_API clink_status clink_wear_smooth(const double *grid, int n, int nknots, double *knots);

/*
 * Makes the bore of clearance joint `joint` of model the worn bore with depth knots[j] (m)
 * at the angles 2 pi j / nknots of the bearing's frame (nknots 0: the circular bore again),
 * before any simulation of the model is created (the model is changed in place).
 * CLINK_ERR_RANGE, with the reason in err: a depth negative or not finite, reaching the
 * <wear> wall thickness, or a worn surface whose smallest radius of curvature falls below
 * the journal's radius (the journal would no longer touch it at one point).
 */
CLINK_API clink_status clink_model_set_worn_bore(clink_model *model, int joint, int nknots,
                                                 const double *knots, char *err, size_t err_size);

/*
 * Makes the journal of clearance joint `joint` the worn pin with depth knots[j] (m) at the
 * angles 2 pi j / nknots of the journal's frame (nknots 0: the circular journal again), as
 * clink_model_set_worn_bore. CLINK_ERR_RANGE, with the reason in err: a depth negative or not
 * finite, reaching the <wear> wall thickness or the journal's radius, or a pin that is not
 * convex or whose largest radius of curvature reaches the bore's smallest (two points of
 * contact).
 */
CLINK_API clink_status clink_model_set_worn_pin(clink_model *model, int joint, int nknots,
                                                const double *knots, char *err, size_t err_size);

/* ---- the guides of translational clearance joints ---------------------------------
 * A translational clearance joint with <wear> wears its guide's two surfaces on a grid of
 * `grid` cells over guide_length (centred on guide_point, along the axis; the first cell
 * at -guide_length / 2): each slider corner's contact, a point load, lays its Archard volume
 * k_D F v dt on the cell under it as a depth over the cell's area (length times the contact's
 * axial width). Accumulated by clink_wear_observe with the revolute joints; fed back by
 * clink_model_set_worn_guide (over a life: clink_wear_life). */
enum { CLINK_WEAR_LOWER = 0, CLINK_WEAR_UPPER = 1, CLINK_WEAR_CORNER1 = 2 };

/* the guides with wear, and the translational clearance joint id of the i-th */
CLINK_API int clink_wear_guide_count(const clink_wear *wear);
CLINK_API int clink_wear_guide_joint(const clink_wear *wear, int i);
/* guide i's depth per cell on side CLINK_WEAR_LOWER or _UPPER into depth (may be NULL), m;
   returns the number of cells */
CLINK_API int clink_wear_guide_grid(const clink_wear *wear, int i, int side, double *depth);
/* guide i's worn volume (m^3) of part CLINK_WEAR_LOWER, _UPPER (the guide's surfaces, grid
   or not) or CLINK_WEAR_CORNER1 + k (the slider's corner k = 0..3, counter-clockwise from the
   rear lower corner) */
CLINK_API double clink_wear_guide_volume(const clink_wear *wear, int i, int part);
/* guide i's tallies: which 0 the corners' sliding distance in contact (m, summed over the
   corners), 1 the wear work integral of F v dt (J), 2 the largest corner force (N), 3 the
   volume laid beyond the grid (m^3) */
CLINK_API double clink_wear_guide_tally(const clink_wear *wear, int i, int which);

/*
 * Makes the guide of translational clearance joint `joint` the worn guide: its lower and
 * upper surfaces worn by lower[j], upper[j] (m) at the nknots abscissae equally spaced over
 * guide_length from its rear end (nknots 0: flat again), natural cubic splines, fed into the
 * corners' contacts (docs/wear.md). CLINK_ERR_RANGE, with the reason in err: a depth negative,
 * not finite or reaching the <wear> wall, no guide_length, a groove whose radius of
 * curvature falls below the clearance.
 */
CLINK_API clink_status clink_model_set_worn_guide(clink_model *model, int joint, int nknots,
                                                  const double *lower, const double *upper,
                                                  char *err, size_t err_size);

/* ---- the life simulation (clink wear) ------------------------------------------- */

typedef struct clink_wear_options {
    long cycles;             /* machine cycles to simulate, > 0 */
    int warmup;              /* cycles run before each observation (default 1) */
    int observe;             /* cycles observed per update (default 2) */
    int samples;             /* observations per cycle (default 2000) */
    int knots;               /* knots of the worn profile (default 36, 8 .. CLINK_WEAR_MAX_KNOTS) */
    double fraction;         /* an update adds at most this fraction of the radial clearance to the
                                deepest point of the grid (default 0.02) */
    double period;           /* cycle period, s (0: from the model's constant-rate angle driver) */
    int resume;              /* continue from DIR/wear.journal */
    const char *const *sets; /* overrides \"PATH=VALUE\" of the model (clink_xml_load_with) */
    int nsets;
    int quiet; /* no progress line */
} clink_wear_options;

CLINK_API void clink_wear_options_init(clink_wear_options *opt);

/*
 * Runs the life simulation of the model file at path into the directory dir: repeatedly,
 * a simulation of the model with its current worn bores, `warmup` cycles run, `observe`
 * cycles observed; the wear per cycle extrapolated by a whole number of cycles f chosen so
 * that the deepest grid point grows by at most fraction times the clearance (and the life
 * not overrun); the grids, profiles and bores updated (and the guides of translational
 * clearance joints with wear: dir/wear_guide_updates.csv, their rows in wear_profile.csv);
 * until `cycles`. Writes
 * dir/wear.journal (one line per update, appended and flushed: a resume restarts after the
 * last complete line), dir/wear_profile.csv (per update and joint the bore's grid depth),
 * dir/wear_updates.csv (cycles, factor, worn volume, peak force, max depth), dir/orbit.csv
 * (per update the journal centre relative to the bore, bearing frame, over the observed
 * cycles), dir/wear_summary.json. Returns CLINK_OK or an error with "what: why" in err.
 */
CLINK_API clink_status clink_wear_life(const char *path, const char *dir,
                                       const clink_wear_options *opt, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
