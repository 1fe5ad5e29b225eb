/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvode_compat.h: what differs between SUNDIALS 6.4 and 7.x for clink's use of
 * CVODE, in one place. The code is written against 7.x's names (sunrealtype,
 * sunbooleantype, SUN_BIG_REAL, which 6.4 has too); this header adds:
 *   - CLINK_SUN_COMM_NULL: SUNContext_Create's communicator (SUN_COMM_NULL in 7,
 *     a NULL pointer in 6);
 *   - on 7, SUNContext_Create(NULL, ...) (6's spelling, which src/lab and
 *     tests/integrators/test_cvode_vector.c use) taken as SUNContext_Create(SUN_COMM_NULL, ...):
 *     clink never passes a communicator;
 *   - CVODE's error messages into clink's handler (6: CVodeSetErrHandlerFn on the
 *     CVODE instance, which also receives the warnings; 7: SUNContext_PushErrHandler
 *     on the context, the warnings separately through the context's logger), in
 *     cvode_ode.c under CLINK_SUNDIALS_7.
 */
#ifndef CLINK_CVODE_COMPAT_H
#define CLINK_CVODE_COMPAT_H

#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_types.h>

#if SUNDIALS_VERSION_MAJOR >= 7
#define CLINK_SUNDIALS_7    1
#define CLINK_SUN_COMM_NULL SUN_COMM_NULL
/* the communicator argument is ignored (a function-like macro is not expanded again) */
#define SUNContext_Create(comm, ctx) SUNContext_Create(SUN_COMM_NULL, ctx)
#else
#define CLINK_SUNDIALS_7    0
#define CLINK_SUN_COMM_NULL NULL
#endif

#if SUNDIALS_VERSION_MAJOR < 6 || (SUNDIALS_VERSION_MAJOR == 6 && SUNDIALS_VERSION_MINOR < 4)
#error "clink needs SUNDIALS 6.4 or later"
#endif

#endif
