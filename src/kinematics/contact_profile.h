/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_profile.h: the curved shapes, the circular arc and the cam profile
 * (contact_profile.c): their curves, checks and pair geometry functions, entries of the
 * registry in contact_geometry.c (see contact_shapes.h).
 */
#ifndef CLINK_KINEMATICS_CONTACT_PROFILE_H
#define CLINK_KINEMATICS_CONTACT_PROFILE_H

#include "kinematics/contact_shapes.h"

/* the arc A against the circle B: its rim within the span, else its nearer end */
kinematics_pair_eval_fn kinematics_pair_arc_circle;
kinematics_pair_diff_fn kinematics_diff_arc_circle;

/* the profile A against the circle B (a roller): the closest point of the profile */
kinematics_pair_eval_fn kinematics_pair_profile_circle;
kinematics_pair_diff_fn kinematics_diff_profile_circle;

/* a line A (a flat face) against the profile B: the profile's deepest point */
kinematics_pair_eval_fn kinematics_pair_line_profile;
kinematics_pair_diff_fn kinematics_diff_line_profile;

/* the worn bore A (a bore with a profile: docs/wear.md) against the journal B inside it */
kinematics_pair_eval_fn kinematics_pair_worn_bore_circle;
kinematics_pair_diff_fn kinematics_diff_worn_bore_circle;

/* the bore A (circular or worn) against the worn journal B (a circle with a profile: the
   worn pin, docs/wear.md) */
kinematics_pair_eval_fn kinematics_pair_worn_pin;
kinematics_pair_diff_fn kinematics_diff_worn_pin;

/* the worn guide surface A (a line with a profile: shape.b its axis, ang[0] the guide's
   length) against a circle B (a slider's corner) */
kinematics_pair_eval_fn kinematics_pair_worn_line;
kinematics_pair_diff_fn kinematics_diff_worn_line;

/* the worn line's profile: the natural cubic spline through depth[i] at n >= 2 abscissae
   equally spaced over [-G / 2, G / 2], moments filled */
void kinematics_worn_line_profile(clink_profile_def *p, double G, int n, const double *depth);

/* the worn line's surface point X(x) = a + x u - h(x) N0 and its first two derivatives */
void kinematics_worn_line_point(const kinematics_shape *s, double x, double X[2], double X1[2],
                                double X2[2]);

/* the worn pin's profile: the periodic spline through radius r - depth[i] at the n angles
   2 pi i / n of the journal's frame, moments filled */
void kinematics_worn_pin_profile(clink_profile_def *p, double r, int n, const double *depth);

/* the worn pin's largest radius of curvature (4096 samples; INFINITY where it is not
   convex), which must stay below the bore's smallest */
double kinematics_worn_pin_max_radius(const clink_profile_def *p);

/* the worn bore's profile: the periodic spline through radius R + depth[i] at the n angles
   2 pi i / n of the body frame (n + 1 points, the last closing the first), moments filled */
void kinematics_worn_bore_profile(clink_profile_def *p, double R, int n, const double *depth);

/* the worn bore's smallest radius of curvature where it is convex (4096 samples; INFINITY:
   none), which must exceed the journal's radius */
double kinematics_worn_bore_min_radius(const clink_profile_def *p);

/* the signed curvature (> 0 convex) of a profile's core at tau and its outward unit normal */
double kinematics_profile_curvature(const kinematics_shape *s, double tau, double N[2]);

/* two gear flanks of a gear pair (src/elements/element_gear_pair.c) */
kinematics_pair_eval_fn kinematics_pair_flanks;
kinematics_pair_diff_fn kinematics_diff_flanks;
/* the mesh stiffness factor k(theta) / K of a gear pair's flanks over the mesh cycle */
kinematics_pair_stiffness_fn kinematics_flank_stiffness;

/* the follower motion law of a law profile at cam angle phi (rad, any value): the lift s
   (m) and its derivatives d^k s / d phi^k, k = 1..3, into s[0..3] */
void kinematics_profile_law(const clink_profile_def *p, double phi, double s[4]);

/*
 * The profile's core curve at parameter tau (rad, periodic over 2 pi) in the body frame
 * (centre and orientation applied): X and its derivatives X' and X'' with respect to tau.
 * The cam surface is the core moved inwards by kinematics_profile_offset (the roller radius
 * of a roller-law profile: its core is the pitch curve; 0 otherwise). The curve runs
 * counter-clockwise; its outward normal is (X'_y, -X'_x) / |X'|.
 */
void kinematics_profile_point(const kinematics_shape *s, double tau, double X[2], double X1[2],
                              double X2[2]);
double kinematics_profile_offset(const clink_profile_def *p);

/* the surface's smallest radius of curvature where it is convex and where it is concave
   (INFINITY: none), sampled over 4096 points */
void kinematics_profile_radii(const kinematics_shape *s, double *convex, double *concave);

/* checks and completes a profile definition (the spline's moments); 0 or -1 with msg */
int kinematics_profile_check(clink_shape_def *s, char *msg, size_t size, clink_status *st);

/* checks an arc definition (radius, span, concave flag); 0 or -1 with msg */
int kinematics_arc_check(clink_shape_def *s, char *msg, size_t size, clink_status *st);

#endif
