/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fmu_vars.h: the variables of clink's FMU (docs/fmi.md), one table that both the
 * command writing the FMU (src/cli/cmd_fmu.c: modelDescription.xml) and the FMU's library
 * (fmu.c: fmi2GetReal) build from the model, so that their value references agree:
 * value reference = position in the table.
 *
 *   body.x, .y, .phi, .vx, .vy, .omega   every moving body's state (m, rad, m/s, rad/s)
 *   energy.kinetic ... work_stabilisation the energies of clink_energy (J)
 *   contact.NAME.fn, .ft, .delta         every contact's normal and friction force (N) and
 *                                         penetration (m)
 * all outputs; then the model's inputs (<inputs>: causality "input", set by fmi2SetReal
 * between steps with clink_sim_set_input, held constant over a step; docs/fmi.md, "Inputs"),
 * after the outputs so that the outputs' value references do not depend on them; then the
 * parameters (causality "parameter", variability "fixed", settable before initialisation):
 * one per numeric attribute of the model file that the table of fmu_vars.c names
 * (clearances and radii of clearance joints, the oil of lubricated ones, every <law> and
 * <friction> value of the law catalogues, materials, drivers' constants), named
 * TAG.NAME[.CHILD].ATTRIBUTE and applied as the override path TAG[NAME][.CHILD].ATTRIBUTE
 * (clink_xml_load_with, as `clink run --set` does).
 */
#ifndef CLINK_FMU_VARS_H
#define CLINK_FMU_VARS_H

#include "clink/model.h"
#include "clink/sim.h"

#include <stdint.h>

typedef enum fmu_var_kind {
    FMU_VAR_BODY,
    FMU_VAR_ENERGY,
    FMU_VAR_CONTACT,
    FMU_VAR_INPUT,
    FMU_VAR_PARAM
} fmu_var_kind;

enum { FMU_PATH_MAX = 3 * 64 + 32 }; /* a parameter's override path, the NUL included */

typedef struct fmu_var {
    char name[CLINK_NAME_MAX + 48];
    fmu_var_kind kind;
    int index; /* the body (>= 1), the contact or the input */
    int field; /* the body's coordinate 0 .. 5, the energy's member, the contact's 0 fn, 1 ft,
                  2 delta */
    const char *unit;
    const char *what;        /* its description */
    double start;            /* an input's start value (its clink_input_def.initial), a parameter's
                                value in the file */
    char path[FMU_PATH_MAX]; /* a parameter's override path ("" for the others) */
} fmu_var;

/* the variables of model m, read from the file at path (NULL: no parameters), into *vars
   (malloc'd, *n of them); 0, or -1 out of memory or when the file cannot be read */
int fmu_vars_build(const clink_model *m, const char *path, fmu_var **vars, int *n);

/* the index of a variable whose name an earlier one has too (the FMI standard asks for
   unique names: an input named like an output), or -1 when every name is unique */
int fmu_vars_duplicate(const fmu_var *vars, int n);

/* the value of variable v of the simulation at its current time; CLINK_OK or the getter's
   status */
clink_status fmu_var_value(const clink_sim *s, const fmu_var *v, double *value);

/* the GUID of a model file: two FNV-1a 64 hashes of its bytes, as
   "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}"; 0, or -1 when it cannot be read */
int fmu_guid(const char *path, char guid[40]);

#endif
