/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * timefn.h: functions of time for drivers and loads (clink_function, include/clink/model.h):
 * their checks, the copies the builder keeps of their tables (with a spline's second
 * derivatives), and their evaluation with the first two derivatives (clink_function_eval).
 */
#ifndef CLINK_TIMEFN_H
#define CLINK_TIMEFN_H

#include "clink/model.h"

#include <stddef.h>

/* 0 when f can be evaluated (type, coefficients, table sizes, increasing times, ramp ends),
   else 1 with one line in msg ("table time 3 (0.2 s) is not after time 2 (0.3 s)") */
int timefn_check(const clink_function *f, char *msg, size_t size);

/* replaces f's borrowed arrays by one block it owns (times, values, a spline's moments);
   0, or -1 out of memory (f's arrays then NULL and npoints 0) */
int timefn_copy(clink_function *f);

/* frees the block timefn_copy made (nothing for a function without arrays) */
void timefn_free(clink_function *f);

/* the values per point of a function's `values` array: 4 for piecewise, 1 for tables */
int timefn_stride(const clink_function *f);

/* the natural cubic spline's second derivatives m (n) at the n times: 0, -1 out of memory */
int timefn_spline_moments(const double *t, const double *y, int n, double *m);

#endif
