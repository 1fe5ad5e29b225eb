/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The mechanisms of the friction validations, built from XML text: a block (a circle of
 * radius 50 mm whose angle a driver holds at 0, so that it slides and cannot roll) on a
 * ground line through the origin with the normal (-sin theta, cos theta), pressed by
 * gravity through a stiff Kelvin-Voigt contact (K = 1e7 N/m, c = 2000 N s/m, zero_force)
 * and carrying the <friction> element given as text; started at its static penetration,
 * at rest.
 */
#ifndef CLINK_VALIDATION_FRICTION_MODELS_H
#define CLINK_VALIDATION_FRICTION_MODELS_H

#include "clink/sim.h"
#include "clink/xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FRICTION_BLOCK_R 0.05
#define FR_PI            3.14159265358979323846
#define FRICTION_BLOCK_K 1e7

/* the block of mass m on the incline theta (rad) with gravity g and the friction element
   friction; xdrive (may be NULL) a function element (<harmonic .../>) prescribing the
   block's x; NULL with the message printed on failure */
static inline clink_model *friction_block_model(double theta, double m, double g,
                                                const char *friction, double rtol,
                                                const char *xdrive)
{
    char drive[512] = "";
    if (xdrive)
        snprintf(drive, sizeof drive,
                 "<driver name=\"push\" type=\"coordinate\" body=\"block\" coordinate=\"x\">%s"
                 "</driver>",
                 xdrive);
    static char xml[4096];
    double n[2] = {-sin(theta), cos(theta)};
    double d = m * g * cos(theta) / FRICTION_BLOCK_K; /* static penetration */
    double c[2] = {(FRICTION_BLOCK_R - d) * n[0], (FRICTION_BLOCK_R - d) * n[1]};
    snprintf(xml, sizeof xml,
             "<mechanism name=\"incline\">\n"
             "  <settings t_end=\"2\" output_step=\"1e-2\" method=\"bdf\" rtol=\"%g\" "
             "atol=\"1e-12\" drift=\"projection\"/>\n"
             "  <gravity g=\"0 %.17g\"/>\n"
             "  <bodies><body name=\"block\" mass=\"%.17g\" inertia=\"0.001\" x=\"%.17g\" "
             "y=\"%.17g\"/></bodies>\n"
             "  <drivers><driver name=\"hold\" type=\"coordinate\" body=\"block\" "
             "coordinate=\"phi\"><constant value=\"0\"/></driver>%s</drivers>\n"
             "  <contacts><pair name=\"floor\">\n"
             "    <circle body=\"block\" center=\"0 0\" radius=\"%g\"/>\n"
             "    <line body=\"ground\" point=\"0 0\" normal=\"%.17g %.17g\"/>\n"
             "    <law name=\"kelvin-voigt\" K=\"%g\" c=\"2000\" zero_force=\"1\"/>\n"
             "    %s\n"
             "  </pair></contacts>\n"
             "</mechanism>\n",
             rtol, -g, m, c[0], c[1], drive, FRICTION_BLOCK_R, n[0], n[1], FRICTION_BLOCK_K,
             friction);
    clink_model *model = NULL;
    char err[512];
    if (clink_xml_load_memory(xml, strlen(xml), "incline.xml", &model, NULL, err, sizeof err) !=
        CLINK_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    return model;
}

#endif
