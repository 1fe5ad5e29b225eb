/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_compat.h: what differs between SUNDIALS 6.4 and 7.x for clink's use of
 * CVODE, in one place. The code is written against 7.x's names (sunrealtype,
 * sunbooleantype, SUN_BIG_REAL, which 6.4 has too); this header adds:
 *   - CLINK_SUN_COMM_NULL: SUNContext_Create's communicator (SUN_COMM_NULL in 7,
 *     a NULL pointer in 6);
 *   - the error handler: CVODE's messages into clink's (cvode_ode.c).
 */
#ifndef CLINK_CVODE_COMPAT_H
#define CLINK_CVODE_COMPAT_H

#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_types.h>

#if SUNDIALS_VERSION_MAJOR >= 7
#define CLINK_SUNDIALS_7    1
#define CLINK_SUN_COMM_NULL SUN_COMM_NULL
#else
#define CLINK_SUNDIALS_7    0
#define CLINK_SUN_COMM_NULL NULL
#endif

#if SUNDIALS_VERSION_MAJOR < 6 || (SUNDIALS_VERSION_MAJOR == 6 && SUNDIALS_VERSION_MINOR < 4)
#error "clink needs SUNDIALS 6.4 or later"
#endif

#endif
