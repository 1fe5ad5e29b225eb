/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli_progress.c: the progress line of `clink run` on a terminal (cli_progress.h): the
 * simulated time, the elapsed time and the time left at the rate so far (the remaining
 * simulated time times the wall time per simulated second), redrawn in place.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli_progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

double cli_progress_now(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* a duration for the progress line: "4.2 s", "3 min 07 s", "2 h 05 min" */
static void cli_progress_duration(double s, char *buf, size_t size)
{
    if (!(s < 3.6e6))
        snprintf(buf, size, "-");
    else if (s < 59.95)
        snprintf(buf, size, "%.1f s", s);
    else if (s < 3600)
        snprintf(buf, size, "%d min %02d s", (int) (s / 60), (int) fmod(s, 60));
    else
        snprintf(buf, size, "%d h %02d min", (int) (s / 3600), (int) fmod(s / 60, 60));
}

void cli_progress_start(cli_progress *p, int quiet)
{
    struct winsize ws;

    memset(p, 0, sizeof *p);
    p->on = !quiet && isatty(STDERR_FILENO);
    p->columns = 80;
    if (p->on && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        p->columns = ws.ws_col;
    p->start = p->last = cli_progress_now();
}

/* "\r" + the line + spaces over what is left of the previous one */
static void cli_progress_draw(cli_progress *p, const char *line)
{
    size_t n = strlen(line), limit = (size_t) p->columns - 1;

    if (n > limit)
        n = limit;
    fprintf(stderr, "\r%.*s", (int) n, line);
    if (p->shown > n)
        fprintf(stderr, "%*s", (int) (p->shown - n), "");
    fflush(stderr);
    p->shown = n > p->shown ? n : p->shown;
}

void cli_progress_show(cli_progress *p, double t, double t_end)
{
    char line[256], elapsed[32], left[32];
    double w, spent;

    if (!p->on)
        return;
    w = cli_progress_now();
    spent = w - p->start;
    if (spent < 1.0 || w - p->last < 0.25)
        return;
    cli_progress_duration(spent, elapsed, sizeof elapsed);
    cli_progress_duration(t > 0 ? spent * (t_end - t) / t : INFINITY, left, sizeof left);
    snprintf(line, sizeof line, "clink run: t = %.4g s of %.4g s (%.0f%%), elapsed %s, left %s", t,
             t_end, floor(100.0 * t / t_end), elapsed, left);
    cli_progress_draw(p, line);
    p->last = w;
}

void cli_progress_end(cli_progress *p)
{
    if (p->shown > 0)
        fprintf(stderr, "\r%*s\r", (int) p->shown, "");
    p->shown = 0;
}
