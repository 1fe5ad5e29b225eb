/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact/lubrication.h: the film force of a journal bearing with its derivatives, for the
 * simulation (src/elements/element_revolute_clearance.c, applied by src/contacts/contacts_extra.c);
 * the formulas are src/contact/lubrication.c's.
 */
#ifndef CLINK_CONTACT_LUBRICATION_H
#define CLINK_CONTACT_LUBRICATION_H

#include "clink/model.h"

/* F = (F_r, F_t) on the journal (N) and dF[i] = d F[i] / d(eps, eps_dot, Omega) */
typedef struct lubrication_force {
    double F[2];
    double dF[2][3];
} lubrication_force;

/* the theory value of the short bearing's fixed pi-film (clink_lubrication_film
   CLINK_LUBRICATION_FILM_PI): Ocvirk's closed forms on 0 < theta < pi whatever the squeeze
   and the sense of rotation (lubrication.c) */
enum { LUBRICATION_SHORT_PI = 2 };

/* the force of theory (clink_lubrication_theory, or LUBRICATION_SHORT_PI) at
   (eps, eps_dot, Omega); 0, or -1 for invalid input or a non-finite force */
int lubrication_film(int theory, double mu, double R, double L, double c, double eps,
                     double eps_dot, double Omega, lubrication_force *out);

/* the film's force f (N) on a journal at the bearing centre moving at e' (m/s): the limit
   eps -> 0 along e', the radial squeeze term (a journal through the centre moves along e) */
void lubrication_centre(int theory, double mu, double R, double L, double c, const double ed[2],
                        double f[2]);

#endif
