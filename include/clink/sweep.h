/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink parameter studies (docs/sweeps.md): one mechanism file run many times with
 * parameters replaced by override paths, one table row per case.
 *
 *   clink_sweep *sw = NULL;
 *   clink_sweep_load("study.xml", &sw, err, sizeof err);    the specification, checked
 *   clink_sweep_case_count(sw), clink_sweep_case(sw, k, idx) the cases, none run
 *   clink_sweep_options o;
 *   clink_sweep_options_init(&o);                            o.workers, o.resume, ...
 *   clink_sweep_run(sw, "results", &o);                      (on error: clink_sweep_error())
 *   clink_sweep_header(sw), clink_sweep_row(sw, k)           the table, as in sweep.csv
 *   clink_sweep_destroy(&sw);
 *
 * Table of contents:
 *   - specification  clink_sweep, clink_sweep_load(), _destroy(), _error(), _warnings(),
 *                    _model()
 *   - cases          clink_sweep_case_count(), _parameter_count(), _parameter(),
 *                    _value_count(), _value(), _axis_count(), _axis(), _case()
 *   - running        clink_sweep_options, clink_sweep_options_init(), clink_sweep_run()
 *   - the table      clink_sweep_header(), clink_sweep_row(), clink_sweep_tally, _tally_get()
 *
 * What a run writes into its directory DIR: DIR/sweep.journal (a tag line, then each
 * finished row appended with one write() and fsync'd: a killed run loses only the
 * cases then running; locked with flock() while the run lasts, so that a second run
 * into DIR is refused; on resume each row is checked against the specification and a
 * damaged one skipped with a warning, its case run again), DIR/sweep.csv at the end (header, one
 * row per case sorted by case index; written to a temporary name, fsync'd, renamed), DIR/sweep.h5
 * beside it when the library has HDF5, and DIR/cases/NNNNNN with each case's outputs when the
 * specification keeps them. Every case runs in a child process (fork), so that a case
 * that fails or crashes never stops the others. The table is identical row for row
 * (wall_time aside) however many workers ran it and whether it was interrupted and
 * resumed. Units: times in seconds; the quantities' units are those of docs/sweeps.md.
 *
 * Ownership: a clink_sweep is created by clink_sweep_load() and released by
 * clink_sweep_destroy(); every string it returns is borrowed from it and lives until
 * the next clink_sweep_run() or its destruction. One clink_sweep must not be used by
 * two threads at once.
 */
#ifndef CLINK_SWEEP_H
#define CLINK_SWEEP_H

#include "clink/clink.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- specification -------------------------------------------------------- */

typedef struct clink_sweep clink_sweep;

/*
 * Reads and checks the specification file spec_path (share/clink-sweep.xsd and the
 * rules of docs/sweeps.md) and generates every parameter's values. On failure *sweep
 * is NULL and err holds "FILE:LINE: what is wrong" (CLINK_ERR_PARSE; CLINK_ERR_NOMEM).
 */
CLINK_API clink_status clink_sweep_load(const char *spec_path, clink_sweep **sweep, char *err,
                                        size_t err_size);

/* Releases a sweep; accepts NULL and sets *sweep to NULL. */
CLINK_API void clink_sweep_destroy(clink_sweep **sweep);

/* One line describing the last error of clink_sweep_run() ("" if none; borrowed). */
CLINK_API const char *clink_sweep_error(const clink_sweep *sweep);

/* The warnings of the last clink_sweep_run(), one per line ("" if none; borrowed): the
   journal's rows skipped on resume ("DIR/sweep.journal:LINE: why"), whose cases ran
   again. */
CLINK_API const char *clink_sweep_warnings(const clink_sweep *sweep);

/* The mechanism file the cases load (relative paths taken from the specification's
   directory; borrowed). */
CLINK_API const char *clink_sweep_model(const clink_sweep *sweep);

/* ---- cases ---------------------------------------------------------------- */

/* The number of cases: the product of the axes' lengths, 1 .. 10^7. */
CLINK_API long clink_sweep_case_count(const clink_sweep *sweep);

/* The parameters, in the table's order: count, and the override path of parameter i. */
CLINK_API int clink_sweep_parameter_count(const clink_sweep *sweep);
CLINK_API const char *clink_sweep_parameter(const clink_sweep *sweep, int i);

/* The values of parameter i, as the override receives them: count, and value j (NULL
   when i or j is out of range). */
CLINK_API long clink_sweep_value_count(const clink_sweep *sweep, int i);
CLINK_API const char *clink_sweep_value(const clink_sweep *sweep, int i, long j);

/* The axes of the grid (a parameter, a zip or a random axis): count, and axis a's
   parameters [*first, *first + *count) taken together, *length values each.
   CLINK_ERR_RANGE when a is out of range. */
CLINK_API int clink_sweep_axis_count(const clink_sweep *sweep);
CLINK_API clink_status clink_sweep_axis(const clink_sweep *sweep, int a, int *first, int *count,
                                        long *length);

/* The value index of every parameter in case k (index[i] for parameter i; the first
   axis varies slowest). CLINK_ERR_RANGE when k is not in 0 .. count - 1. */
CLINK_API clink_status clink_sweep_case(const clink_sweep *sweep, long k, long *index);

/* ---- running -------------------------------------------------------------- */

/*
 * Called as the run goes (when it starts, after each recorded row, and every 0.1 s
 * meanwhile) with the cases done and the case count. A nonzero return stops the run:
 * the running cases are killed and not recorded, the journal keeps the rows done, no
 * table is written and clink_sweep_run() returns CLINK_ERR_STATE ("interrupted").
 */
typedef int (*clink_sweep_progress_fn)(void *ctx, long done, long cases);

typedef struct clink_sweep_options {
    int workers;          /* cases run at once, each in a child process; 0 (default): the
                             cores online (at most 4096) */
    int resume;           /* 1: keep the rows of DIR/sweep.journal and run only the missing
                             cases (a journal of another specification is refused); 0
                             (default): a new journal */
    double sync_interval; /* fsync the journal at most every this many s (and at the end);
                             0 (default): after every row. Each row is written at once. */
    clink_sweep_progress_fn progress; /* NULL (default): none */
    void *progress_ctx;
    int children_ignore_sigint; /* 1: the cases' processes ignore SIGINT, so that Ctrl-C
                                   reaches only the caller, whose progress callback then
                                   stops the run (default 0: they share the caller's) */
} clink_sweep_options;

CLINK_API void clink_sweep_options_init(clink_sweep_options *options);

/*
 * Runs every case (options NULL: the defaults) into the directory dir, created if
 * missing (its parent must exist), and writes the table. CLINK_OK once the table is
 * written, whatever the cases' statuses (clink_sweep_tally_get() counts them); else,
 * with clink_sweep_error(): CLINK_ERR_STATE (a journal of another specification on
 * resume, a directory another sweep is using, a run stopped by the progress callback,
 * or a process started by an MPI launcher with more than one rank: each would run the
 * whole sweep; clink-sweep-mpi runs one sweep over the ranks), CLINK_ERR_ARG (options out of
 * range), CLINK_ERR_IO (a file or directory could not be written or read), CLINK_ERR_NOMEM,
 * CLINK_ERR_INTERNAL (the system refused a process or a pipe).
 */
CLINK_API clink_status clink_sweep_run(clink_sweep *sweep, const char *dir,
                                       const clink_sweep_options *options);

/* ---- the table ------------------------------------------------------------ */

/* The header line of sweep.csv, with its newline (borrowed). */
CLINK_API const char *clink_sweep_header(const clink_sweep *sweep);

/* Case k's row of the last run as sweep.csv holds it, with its newline (borrowed);
   NULL when k is out of range or the case has no row (no run, or an interrupted one). */
CLINK_API const char *clink_sweep_row(const clink_sweep *sweep, long k);

/* The rows of the last run by status. */
typedef struct clink_sweep_tally {
    long cases;   /* the case count */
    long done;    /* rows recorded (resumed ones included) */
    long ok;      /* status ok */
    long failed;  /* status failed */
    long invalid; /* status invalid */
    long crashed; /* status crashed */
} clink_sweep_tally;

CLINK_API void clink_sweep_tally_get(const clink_sweep *sweep, clink_sweep_tally *tally);

#ifdef __cplusplus
}
#endif

#endif
