/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * integrator.c: the integrator of each method (integrator.h): CVODE for BDF and
 * Adams, rk4.c for RK4; and the methods' names (include/clink/model.h).
 */
#include "integrators/integrator.h"

#include "clink/model.h"

#include <stddef.h>

const integ_ops *integrator_for(clink_method method)
{
    switch (method) {
    case CLINK_METHOD_BDF:
    case CLINK_METHOD_ADAMS:
        return &integrator_cvode_ops;
    case CLINK_METHOD_RK4:
        return &integrator_rk4_ops;
    case CLINK_METHOD_AUTO: /* resolved by clink_sim_create before (sim_auto.c) */
        break;
    }
    return NULL;
}

const char *clink_method_name(clink_method method)
{
    switch (method) {
    case CLINK_METHOD_BDF:
        return "bdf";
    case CLINK_METHOD_ADAMS:
        return "adams";
    case CLINK_METHOD_RK4:
        return "rk4";
    case CLINK_METHOD_AUTO:
        return "auto";
    }
    return NULL;
}
