/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one rule for each elastic material constant, used by every check of it
 * (Hertz stiffness, the XML materials, Ma-Liu, the viscosity-derived damping):
 *
 *   Young's modulus   E   finite, E > 0 (Pa);
 *   Poisson's ratio   nu  -1 < nu < 0.5: the Hertz contact modulus
 *                         E* = 1 / sum (1 - nu_k^2) / E_k needs a compressible
 *                         solid (nu = 0.5 is the incompressible limit, refused
 *                         everywhere, also by the elastoplastic laws);
 *   yield strength    Y   finite, Y > 0 (Pa); a law may narrow it (Ma-Liu: Y < E*).
 *
 * Each returns nonzero when the value obeys the rule (NaN never does).
 */
#ifndef CLINK_CONTACT_MATERIAL_H
#define CLINK_CONTACT_MATERIAL_H

#define CONTACT_MODULUS_RULE "E > 0 (Pa)"
#define CONTACT_POISSON_RULE "-1 < nu < 0.5"
#define CONTACT_YIELD_RULE   "Y > 0 (Pa)"

int contact_modulus_ok(double E);
int contact_poisson_ok(double nu);
int contact_yield_ok(double Y);

#endif /* CLINK_CONTACT_MATERIAL_H */
