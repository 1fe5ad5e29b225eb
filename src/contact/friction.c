/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tangential friction: Ambrosio's modified Coulomb law (see include/clink/friction.h).
 *   F_t = -mu c_d(|v_t|) F_n sign(v_t), c_d rising linearly from 0 at v0 to 1 at v1.
 * A negative normal force (a tension-allowed law pulling) produces no friction.
 */
#include "clink/friction.h"

#include <math.h>
#include <stdio.h>

clink_friction_params clink_default_friction_params(void)
{
    clink_friction_params p;

    p.kind = CLINK_FRICTION_NONE;
    p.mu = 0.0;
    p.v0 = 1e-4;
    p.v1 = 1e-3;
    return p;
}

clink_status clink_friction_check(const clink_friction_params *params, char *msg, size_t msg_size)
{
    const char *what = NULL;

    if (params->kind == CLINK_FRICTION_NONE)
        return CLINK_OK;
    if (params->kind != CLINK_FRICTION_AMBROSIO)
        what = "friction kind: unknown";
    else if (!isfinite(params->mu) || params->mu < 0.0)
        what = "friction mu: must be a finite number >= 0";
    else if (!isfinite(params->v0) || params->v0 < 0.0)
        what = "friction v0: must be a finite speed >= 0 m/s";
    else if (!isfinite(params->v1) || params->v1 <= params->v0)
        what = "friction v1: must be a finite speed greater than v0 (m/s)";
    if (what == NULL)
        return CLINK_OK;
    if (msg != NULL && msg_size > 0)
        snprintf(msg, msg_size, "%s", what);
    return CLINK_ERR_RANGE;
}

double clink_friction_correction(const clink_friction_params *params, double v_t)
{
    double s = fabs(v_t);

    if (s <= params->v0)
        return 0.0;
    if (s >= params->v1)
        return 1.0;
    return (s - params->v0) / (params->v1 - params->v0);
}

double clink_friction_force(const clink_friction_params *params, double v_t, double f_n)
{
    double cd;

    if (params->kind != CLINK_FRICTION_AMBROSIO || !(f_n > 0.0))
        return 0.0;
    cd = clink_friction_correction(params, v_t);
    if (cd == 0.0)
        return 0.0;
    return v_t > 0.0 ? -params->mu * cd * f_n : params->mu * cd * f_n;
}
