/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli_progress.h: the progress line of `clink run` on a terminal (stderr): shown only
 * when stderr is a terminal and the run is not quiet, once the run has taken a second,
 * redrawn every quarter second over the previous line (padded with spaces, never wider
 * than the terminal) and erased at the end.
 */
#ifndef CLINK_CLI_PROGRESS_H
#define CLINK_CLI_PROGRESS_H

#include <stddef.h>

typedef struct cli_progress {
    int on;       /* stderr is a terminal and not --quiet */
    int columns;  /* the terminal's width (80 when unknown) */
    size_t shown; /* characters of the line on the screen (0: none) */
    double start; /* wall clock at the start of the integration */
    double last;  /* wall clock of the last redraw */
} cli_progress;

/* the monotonic clock, s (0 when it cannot be read) */
double cli_progress_now(void);

/* the line set up at the start of the integration; quiet: never shown */
void cli_progress_start(cli_progress *p, int quiet);

/* the line for simulated time t of t_end, when it is due */
void cli_progress_show(cli_progress *p, double t, double t_end);

/* the line erased */
void cli_progress_end(cli_progress *p);

#endif
