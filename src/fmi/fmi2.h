/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fmi2.h: the FMI 2.0 interface of clink's FMU (fmu.c) and of the test importer
 * (tests/fmi): the standard's own headers (Modelica Association, FMI 2.0.5,
 * third_party/fmi2/headers, BSD 2-Clause, third_party/fmi2/LICENSE.txt), so that the
 * functions fmu.c defines are checked by the compiler against the standard's declarations
 * (a type that differs is an error). The functions are exported under their standard
 * names without prefix (a shared library: FMI2_FUNCTION_PREFIX undefined), with default
 * visibility (FMI2_Export) in a library whose other symbols are hidden.
 */
#ifndef CLINK_FMI2_H
#define CLINK_FMI2_H

#include "fmi2Functions.h"

#endif
