/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * integrator.c: the integrator of each method (integrator.h): CVODE for BDF and
 * Adams.
 */
#include "integrators/integrator.h"

#include <stddef.h>

const integ_ops *integrator_for(clink_method method)
{
    switch (method) {
    case CLINK_METHOD_BDF:
    case CLINK_METHOD_ADAMS:
        return &integrator_cvode_ops;
    }
    return NULL;
}
