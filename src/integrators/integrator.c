/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * integrator.c: the methods' table (CLINK_METHOD_TABLE, include/clink/model.h)
 * expanded once: for each method its word in model files, the integrator that runs
 * it (CVODE for BDF and Adams, rk4.c, rk8_integ.c) and its capabilities, which the
 * simulation's rules ask (integrator.h).
 */
#include "integrators/integrator.h"

#include "clink/model.h"

#include <stddef.h>
#include <stdio.h>

/* the table's integrator column: the ops of src/integrators/<it>/, none for auto */
#define INTEG_OPS_cvode &integrator_cvode_ops
#define INTEG_OPS_adams &integrator_adams_ops
#define INTEG_OPS_rk4   &integrator_rk4_ops
#define INTEG_OPS_rk8   &integrator_rk8_ops
#define INTEG_OPS_none  NULL

typedef struct integ_method_row {
    const char *word;
    const integ_ops *ops;
    unsigned caps;
} integ_method_row;

static const integ_method_row integ_methods[CLINK_METHOD_COUNT] = {
#define INTEG_METHOD_ROW(id, w, integrator, c) [CLINK_METHOD_##id] = {w, INTEG_OPS_##integrator, c},
    CLINK_METHOD_TABLE(INTEG_METHOD_ROW)
#undef INTEG_METHOD_ROW
};

static const integ_method_row *integ_row(clink_method method)
{
    return (int) method >= 0 && method < CLINK_METHOD_COUNT ? &integ_methods[method] : NULL;
}

const integ_ops *integrator_for(clink_method method)
{
    const integ_method_row *r = integ_row(method);
    return r ? r->ops : NULL;
}

unsigned integrator_caps(clink_method method)
{
    const integ_method_row *r = integ_row(method);
    return r ? r->caps : 0u;
}

const char *integrator_methods_with(unsigned caps, char *buf, size_t n)
{
    size_t at = 0;
    if (n)
        buf[0] = '\0';
    for (int k = 0; k < CLINK_METHOD_COUNT; k++) {
        if (!integ_methods[k].ops || (integ_methods[k].caps & caps) != caps)
            continue;
        int w =
            snprintf(buf + at, n > at ? n - at : 0, "%s%s", at ? ", " : "", integ_methods[k].word);
        if (w < 0 || (size_t) w >= (n > at ? n - at : 0)) {
            if (at < n)
                buf[at] = '\0'; /* whole words only */
            break;
        }
        at += (size_t) w;
    }
    return buf;
}

const char *clink_method_name(clink_method method)
{
    const integ_method_row *r = integ_row(method);
    return r ? r->word : NULL;
}

unsigned clink_method_caps(clink_method method)
{
    return integrator_caps(method);
}
