/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_clock.h: the wall clock of the benchmarks (monotonic, seconds). Include
 * it first: it asks for POSIX.1-2008 (clock_gettime, popen) before any system
 * header is read.
 */
#ifndef CLINK_BENCH_CLOCK_H
#define CLINK_BENCH_CLOCK_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

#endif
