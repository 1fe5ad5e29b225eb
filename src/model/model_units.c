/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * model_units.c: the unit of the generalised force each driver applies, for hosts that
 * label a driver's effort without reading its definition (the Python package's run
 * directories): N m for a driver of an angle (a revolute joint's relative angle or a
 * body's phi), N for a driver of a length (a body's x or y, a translational joint's
 * displacement). The same rule as the time series' header (src/output/output_columns.c).
 */
#include "clink/model.h"

#include <stddef.h>

const char *clink_model_driver_unit(const clink_model *model, int id)
{
    clink_driver_def d;

    if (clink_model_driver(model, id, &d) != CLINK_OK)
        return NULL;
    if (d.target == CLINK_DRIVE_JOINT_ANGLE ||
        (d.target == CLINK_DRIVE_BODY_COORDINATE && d.coordinate == 2))
        return "N m";
    return "N";
}
