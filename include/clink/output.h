/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clink run outputs: a recorder samples a simulation into a directory.
 *
 *   clink_recorder *rec = NULL;
 *   clink_recorder_create(model, "out/run", NULL, &rec, err, sizeof err);
 *   clink_recorder_sample(rec, sim);                 at t = 0
 *   clink_recorder_advance(rec, sim, t);             to every output time: advances sim
 *                                                    and writes the rows on the way
 *                                                    (on CLINK_ERR_IO: clink_recorder_error())
 *   ...
 *   clink_run_info info = {...};                     status, message, wall time
 *   clink_recorder_finish(rec, sim, &info);         (on error: clink_recorder_error())
 *   clink_recorder_destroy(&rec);
 *
 * Table of contents:
 *   - options      clink_output_rows, clink_row_kind, clink_output_format,
 *                  clink_output_options, clink_default_output_options(),
 *                  clink_output_format_name(), clink_output_format_from_name()
 *   - recorder     clink_recorder_create(), _sample(), _error(), _finish(), _destroy()
 *   - run record   clink_run_info
 *
 * Files (docs/outputs.md): CSV (timeseries.csv, impacts.csv, summary.json) or
 * HDF5 (results.h5 holding the time series, the impact log and the summary, one
 * dataset per quantity; summary.json beside it).
 *   timeseries.csv  one row per sample (the grid, and by default every contact
 *                   event and rows through each impact: clink_output_rows; the
 *                   last column row.kind [-] is the clink_row_kind of each row);
 *                   the header names each column with its
 *                   unit, "NAME.QUANTITY [UNIT]": t; per body x, y, phi, vx, vy,
 *                   omega, ax, ay, alpha; per joint Fx, Fy, M (reaction on body2);
 *                   per driver F; per contact delta, delta_dot, Fn, Ft, phase (0 open,
 *                   1 compression, 2 restitution, 3 released, 4 permanent contact)
 *                   and for clearance joints ex, ey (journal centre - bearing centre);
 *                   energies (with contacts: stored, damping, friction); constraint
 *                   violation.
 *   impacts.csv     one row per impact (clink_impact_record).
 *   summary.json    model, status ("ok", "failed", "interrupted"), end time reached,
 *                   steps, right-hand-side calls, root events, impacts, constraint
 *                   violation, energy residual, warnings, wall time (null when not
 *                   measured).
 * Guarantees (docs/cli.md, "Output files"): creating a recorder removes the
 * previous run's files (of either format) from the directory (summary.json first) and any
 * "NAME.incomplete" left by a killed run; the files are written as
 * "NAME.incomplete" and renamed to their names when the recorder finishes,
 * summary.json last. So summary.json exists only beside the files it describes,
 * and a run that did not finish leaves only names that say "incomplete".
 * Numbers are written as the shortest decimal that reads back (strtod) as the
 * same double, laid out like "%.17g" ("nan", "inf", "-inf" in the CSV files,
 * null in JSON): two identical runs give identical bytes on every machine.
 *
 * Ownership: the recorder is owned by the caller; the model must outlive it.
 */
#ifndef CLINK_OUTPUT_H
#define CLINK_OUTPUT_H

#include "clink/sim.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options -------------------------------------------------------------- */

/* which rows the time series holds (docs/outputs.md, "Rows") */
typedef enum clink_output_rows {
    CLINK_ROWS_EVENTS = 0, /* the grid, every contact event, and through each impact every
                              integrator step plus `dense` interpolated rows per step */
    CLINK_ROWS_STEPS = 1,  /* the grid, every contact event and every integrator step */
    CLINK_ROWS_GRID = 2,   /* the fixed grid alone (t = 0, H, 2H, ..., t_end) */
    CLINK_ROWS_AUTO = 3    /* the default: CLINK_ROWS_EVENTS for a time series of at most
                              CLINK_ROWS_EVENTS_COLUMNS_MAX columns, else CLINK_ROWS_GRID
                              (every event row is a full row: on a mechanism of N contacts
                              their cost grows as N^2; clink_recorder_rows says which) */
} clink_output_rows;

/* the widest time series (columns) for which CLINK_ROWS_AUTO writes the event rows */
#define CLINK_ROWS_EVENTS_COLUMNS_MAX 2000

/* the column "row.kind [-]": what put each row there */
typedef enum clink_row_kind {
    CLINK_ROW_GRID = 0,       /* a time of the fixed output grid */
    CLINK_ROW_STEP = 1,       /* the end of an integrator step */
    CLINK_ROW_DENSE = 2,      /* interpolated inside a step (CVODE's dense output) in an impact */
    CLINK_ROW_ONSET = 3,      /* a contact event: an impact begins */
    CLINK_ROW_PEAK = 4,       /* a contact event: the end of compression (largest penetration) */
    CLINK_ROW_SEPARATION = 5, /* a contact event: an impact ends */
    CLINK_ROW_EVENT = 6       /* another contact event (permanent contact entered or left) */
} clink_row_kind;

/* the file format of the time series and the impact log */
typedef enum clink_output_format {
    CLINK_FORMAT_CSV = 0, /* timeseries.csv, impacts.csv, summary.json */
    CLINK_FORMAT_HDF5 = 1 /* results.h5 (everything), summary.json */
} clink_output_format;

typedef struct clink_output_options {
    int reactions;              /* joint reactions and driver forces (default 1) */
    int energies;               /* energies and their balance (default 1) */
    int accelerations;          /* body accelerations (default 1) */
    clink_output_rows rows;     /* default CLINK_ROWS_AUTO */
    int dense;                  /* interpolated rows per integrator step in an impact, 0 .. 1000
                                   (default 1; CLINK_ROWS_EVENTS only) */
    clink_output_format format; /* default CLINK_FORMAT_CSV */
    /* Poincare sections (clink_sim_add_section), copied; their samples go to their own table:
       poincare.csv, or the dataset "poincare" of results.h5 (docs/nonlinear.md). The
       recorder adds them to the simulation at its first clink_recorder_advance. Default
       none (NULL, 0); at most CLINK_SECTIONS_MAX */
    const clink_section_def *sections;
    int nsections;
} clink_output_options;

/* the most Poincare sections a recorder takes */
#define CLINK_SECTIONS_MAX 16

CLINK_API clink_output_options clink_default_output_options(void);

/* ---- recorder ------------------------------------------------------------- */

typedef struct clink_recorder clink_recorder;

/*
 * Removes the previous results in dir (which must exist), creates the
 * "NAME.incomplete" files and writes the headers. options: NULL for the
 * defaults. On failure *rec is NULL and err says why (CLINK_ERR_IO: the file,
 * what failed and the system's reason).
 */
CLINK_API clink_status clink_recorder_create(const clink_model *model, const char *dir,
                                             const clink_output_options *options,
                                             clink_recorder **rec, char *err, size_t err_size);

/*
 * Appends one row with the state of sim at its current time; tracks maxima.
 * CLINK_ERR_IO once a write failed (clink_recorder_error() says which file and
 * why); the rows are buffered, so a failure may show a few rows late.
 */
CLINK_API clink_status clink_recorder_sample(clink_recorder *rec, const clink_sim *sim);

/*
 * Advances sim to t (> its time) and appends the rows that options.rows asks
 * for on the way, the last one the grid row at t. Rows between grid times are
 * read from CVODE's dense output: they never set a stop time, so the integrator
 * takes the same steps in every row mode. CLINK_ERR_IO: a write failed
 * (clink_recorder_error()); any other error comes from the simulation
 * (clink_sim_error()), the rows before it kept.
 */
CLINK_API clink_status clink_recorder_advance(clink_recorder *rec, clink_sim *sim, double t);

/*
 * Adds the recorder's Poincare sections (options.sections) to sim, before its first
 * advance, for a caller that advances sim itself and samples it with
 * clink_recorder_sample (clink_recorder_advance does this at its first call). Nothing
 * when there are none or they were added. CLINK_OK, or the status of
 * clink_sim_add_section with the message in clink_recorder_error().
 */
CLINK_API clink_status clink_recorder_watch(clink_recorder *rec, clink_sim *sim);

/* Nonzero when this library was built with HDF5 (CLINK_FORMAT_HDF5 available). */
CLINK_API int clink_output_has_hdf5(void);

/* The name of format ("csv", "hdf5": summary.json's "output_format"), NULL for none. */
CLINK_API const char *clink_output_format_name(clink_output_format format);

/* The format named name (as clink_output_format_name gives it) into *format: 0, or -1
   (*format untouched) when no format has that name. */
CLINK_API int clink_output_format_from_name(const char *name, clink_output_format *format);

/* Columns of the time series above which clink run suggests HDF5 (docs/outputs.md). */
#define CLINK_CSV_COLUMNS_SUGGEST_HDF5 2000

/* The number of columns of the time series that rec writes. */
CLINK_API int clink_recorder_columns(const clink_recorder *rec);

/* The rows rec writes: the mode asked for, or what CLINK_ROWS_AUTO chose (never AUTO). */
CLINK_API clink_output_rows clink_recorder_rows(const clink_recorder *rec);

/*
 * The message of the last failed call on rec ("" if none; borrowed): for an I/O
 * failure "PATH: what: system reason" with the file's final name.
 */
CLINK_API const char *clink_recorder_error(const clink_recorder *rec);

/* What the caller knows about the run, for summary.json. */
typedef struct clink_run_info {
    const char *model_name;      /* as reported */
    const char *source;          /* file the model came from, or NULL */
    int failed;                  /* nonzero: the run stopped early ("failed") */
    const char *message;         /* why it failed or stopped (NULL if it did not) */
    double t_end;                /* requested end time, s */
    double wall_time;            /* s; negative: not measured (written as null) */
    int interrupted;             /* nonzero: stopped on request ("interrupted"; wins over failed) */
    const char *const *warnings; /* warning_count lines for "warnings", or NULL */
    int warning_count;
    const clink_settings_def *settings; /* the settings of the run (tolerances, method,
                                           progress guarantees), or NULL: the model's */
    /* overrides by path applied to the model (clink_xml_applied): override_count paths and
       their effective values, written as "overrides": {PATH: VALUE} (a value that is one
       number as a JSON number, else a string); nothing is written when the count is 0 */
    const char *const *override_paths;
    const char *const *override_values;
    int override_count;
} clink_run_info;

/*
 * Writes summary.json (statistics taken from sim, maxima from the samples),
 * closes the files and renames them to their final names, summary.json last.
 * On CLINK_ERR_IO nothing of the run is left under a final name and
 * clink_recorder_error() says which file and why. The recorder must still be
 * destroyed.
 */
CLINK_API clink_status clink_recorder_finish(clink_recorder *rec, const clink_sim *sim,
                                             const clink_run_info *info);

/* Releases the recorder; unfinished ".incomplete" files are removed. Accepts NULL. */
CLINK_API void clink_recorder_destroy(clink_recorder **rec);

#ifdef __cplusplus
}
#endif

#endif /* CLINK_OUTPUT_H */
