/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_cases.c: the sweep handle (include/clink/sweep.h) and its cases. The cases are
 * the full grid over the axes, the first axis varying slowest: case k has on axis a the
 * value index i_a with k = ((i_1 n_2 + i_2) n_3 + i_3) ..., n_a the length of axis a,
 * and every parameter of an axis (a zip, a random axis) takes that axis's index. Also
 * the handle's readers: the specification, the cases, and the table of the last run.
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/sweep_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the value index of each parameter in case k (the first axis varies slowest) */
void sweep_case_values(const sweep_spec *s, long k, long *idx)
{
    for (int a = s->n_axes - 1; a >= 0; a--) {
        long j = k % s->axes[a].n;
        k /= s->axes[a].n;
        for (int i = 0; i < s->axes[a].count; i++)
            idx[s->axes[a].first + i] = j;
    }
}

/* the first error of a run kept on the handle; returns st */
clink_status sweep_fail(clink_sweep *sw, clink_status st, const char *fmt, ...)
{
    va_list ap;

    if (sw->err[0] != '\0')
        return st;
    va_start(ap, fmt);
    vsnprintf(sw->err, sizeof sw->err, fmt, ap);
    va_end(ap);
    return st;
}

/* a warning of the run kept on the handle (the first few in full, all of them counted) */
void sweep_warn(clink_sweep *sw, const char *fmt, ...)
{
    size_t n = strlen(sw->warnings);
    va_list ap;
    int w;

    sw->n_warnings++;
    if (n + 2 >= sizeof sw->warnings)
        return;
    va_start(ap, fmt);
    w = vsnprintf(sw->warnings + n, sizeof sw->warnings - n - 1, fmt, ap);
    va_end(ap);
    /* a warning that does not fit whole is left out */
    if (w < 0 || (size_t) w >= sizeof sw->warnings - n - 1) {
        sw->warnings[n] = '\0';
        return;
    }
    strcat(sw->warnings, "\n");
}

clink_status clink_sweep_load(const char *spec_path, clink_sweep **sweep, char *err,
                              size_t err_size)
{
    clink_sweep *sw;
    char msg[1300];

    if (sweep == NULL)
        return CLINK_ERR_ARG;
    *sweep = NULL;
    if (spec_path == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "no specification file given");
        return CLINK_ERR_ARG;
    }
    /* large (the parameters' paths): on the heap */
    sw = calloc(1, sizeof *sw);
    if (sw == NULL) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "out of memory");
        return CLINK_ERR_NOMEM;
    }
    if (sweep_spec_read(&sw->spec, spec_path, msg, sizeof msg) != 0) {
        if (err != NULL && err_size > 0)
            snprintf(err, err_size, "%s", msg);
        sweep_spec_free(&sw->spec);
        free(sw);
        return CLINK_ERR_PARSE;
    }
    sweep_header(&sw->spec, sw->header, sizeof sw->header);
    sw->tally.cases = sw->spec.n_cases;
    *sweep = sw;
    return CLINK_OK;
}

/* the rows of the last run released */
static void sweep_rows_free(clink_sweep *sw)
{
    if (sw->rows != NULL)
        for (long k = 0; k < sw->spec.n_cases; k++)
            free(sw->rows[k]);
    free(sw->rows);
    sw->rows = NULL;
}

void clink_sweep_destroy(clink_sweep **sweep)
{
    if (sweep == NULL || *sweep == NULL)
        return;
    sweep_rows_free(*sweep);
    sweep_spec_free(&(*sweep)->spec);
    free(*sweep);
    *sweep = NULL;
}

const char *clink_sweep_error(const clink_sweep *sweep)
{
    return sweep != NULL ? sweep->err : "";
}

const char *clink_sweep_warnings(const clink_sweep *sweep)
{
    return sweep != NULL ? sweep->warnings : "";
}

const char *clink_sweep_model(const clink_sweep *sweep)
{
    return sweep != NULL ? sweep->spec.model : "";
}

long clink_sweep_case_count(const clink_sweep *sweep)
{
    return sweep != NULL ? sweep->spec.n_cases : 0;
}

int clink_sweep_parameter_count(const clink_sweep *sweep)
{
    return sweep != NULL ? sweep->spec.n_params : 0;
}

const char *clink_sweep_parameter(const clink_sweep *sweep, int i)
{
    if (sweep == NULL || i < 0 || i >= sweep->spec.n_params)
        return NULL;
    return sweep->spec.params[i].path;
}

long clink_sweep_value_count(const clink_sweep *sweep, int i)
{
    if (sweep == NULL || i < 0 || i >= sweep->spec.n_params)
        return 0;
    return sweep->spec.params[i].n;
}

const char *clink_sweep_value(const clink_sweep *sweep, int i, long j)
{
    if (sweep == NULL || i < 0 || i >= sweep->spec.n_params || j < 0 ||
        j >= sweep->spec.params[i].n)
        return NULL;
    return sweep->spec.params[i].values[j];
}

int clink_sweep_axis_count(const clink_sweep *sweep)
{
    return sweep != NULL ? sweep->spec.n_axes : 0;
}

clink_status clink_sweep_axis(const clink_sweep *sweep, int a, int *first, int *count, long *length)
{
    if (sweep == NULL || a < 0 || a >= sweep->spec.n_axes)
        return CLINK_ERR_RANGE;
    if (first != NULL)
        *first = sweep->spec.axes[a].first;
    if (count != NULL)
        *count = sweep->spec.axes[a].count;
    if (length != NULL)
        *length = sweep->spec.axes[a].n;
    return CLINK_OK;
}

clink_status clink_sweep_case(const clink_sweep *sweep, long k, long *index)
{
    if (sweep == NULL || index == NULL)
        return CLINK_ERR_ARG;
    if (k < 0 || k >= sweep->spec.n_cases)
        return CLINK_ERR_RANGE;
    sweep_case_values(&sweep->spec, k, index);
    return CLINK_OK;
}

const char *clink_sweep_header(const clink_sweep *sweep)
{
    return sweep != NULL ? sweep->header : "";
}

const char *clink_sweep_row(const clink_sweep *sweep, long k)
{
    if (sweep == NULL || sweep->rows == NULL || k < 0 || k >= sweep->spec.n_cases)
        return NULL;
    return sweep->rows[k];
}

void clink_sweep_tally_get(const clink_sweep *sweep, clink_sweep_tally *tally)
{
    if (tally == NULL)
        return;
    memset(tally, 0, sizeof *tally);
    if (sweep != NULL)
        *tally = sweep->tally;
}

/* a run's rows and tally reset (rows allocated for every case): 0, or -1 out of memory */
int sweep_rows_reset(clink_sweep *sw)
{
    sweep_rows_free(sw);
    memset(&sw->tally, 0, sizeof sw->tally);
    sw->tally.cases = sw->spec.n_cases;
    sw->err[0] = '\0';
    sw->warnings[0] = '\0';
    sw->n_warnings = 0;
    sw->rows = calloc((size_t) sw->spec.n_cases, sizeof *sw->rows);
    return sw->rows != NULL ? 0 : -1;
}
