/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_internal.h: the sweep module's shared declarations (include/clink/sweep.h is its
 * public face). One job per file:
 *   sweep_spec.c     the specification reader: schema, rules, the parameters' values
 *   sweep_cases.c    the handle, the cases (value indices of case k), the public readers
 *   sweep_case.c     one case run in this process: load, integrate, sample, its result
 *   sweep_table.c    the header and row text, sweep.csv, the columns of sweep.h5
 *   sweep_hdf5.c     sweep.h5 from the rows
 *   sweep_pool.c     child processes and the coordinator's loop
 *   sweep_journal.c  sweep.journal: its tag, its lock, appending a row, resuming
 *   sweep_run.c      clink_sweep_run(): start, the loop, finish
 *   mpi/sweep_mpi.c  the MPI driver (only in clink-sweep-mpi; outside the library)
 */
#ifndef CLINK_SWEEP_INTERNAL_H
#define CLINK_SWEEP_INTERNAL_H

#include "clink/sweep.h"
#include "clink/xml.h"

#include <stddef.h>
#include <sys/types.h>

enum {
    SWEEP_MAX_PARAMS = 64,      /* parameters of one sweep (overrides of one case) */
    SWEEP_ROW_MAX = 8192,       /* bytes of one table row */
    SWEEP_MAX_CASES = 10000000, /* cases of one sweep */
    SWEEP_MAX_VALUES = 20000000 /* values of ranges and random axes in all (each a string) */
};

/* the summary quantities a sweep can collect, in the table's order of the default */
enum {
    SWEEP_Q_IMPACTS,
    SWEEP_Q_FORCE,
    SWEEP_Q_ACCEL,
    SWEEP_Q_ENERGY,
    SWEEP_Q_STEPS,
    SWEEP_Q_RESTITUTION, /* of the first impact: collected only when asked for */
    SWEEP_NQ
};
enum { SWEEP_NQ_DEFAULT = SWEEP_Q_RESTITUTION };
extern const char *const sweep_q_names[SWEEP_NQ];

/* one parameter: its override path and its values, as the overrides will write them */
typedef struct sweep_param {
    char path[CLINK_XML_OVERRIDE_MAX];
    char **values;
    long n;
} sweep_param;

/* one axis of the grid: parameters [first, first + count) taken together, n values each */
typedef struct sweep_axis {
    int first, count;
    long n;
} sweep_axis;

typedef struct sweep_spec {
    char file[4096];       /* the specification as given */
    char model[4096];      /* the mechanism file, relative to the specification's directory */
    char model_attr[4096]; /* the model attribute as written (for the journal's tag) */
    int keep;              /* keep each case's full outputs in DIR/cases/NNNNNN */
    sweep_param params[SWEEP_MAX_PARAMS];
    int n_params;
    sweep_axis axes[SWEEP_MAX_PARAMS];
    int n_axes;
    long n_cases;
    int q[SWEEP_NQ]; /* the quantities collected, in order */
    int n_q;
} sweep_spec;

/* what one case gave */
typedef struct sweep_result {
    const char *status; /* "ok", "failed", "invalid", "crashed" */
    double t_failed;    /* failed: the time reached, s */
    char cause[1024];
    int has_q; /* the quantities were measured (ok or failed) */
    double q[SWEEP_NQ];
    double wall;
} sweep_result;

/* the handle of include/clink/sweep.h */
struct clink_sweep {
    sweep_spec spec;
    char header[SWEEP_ROW_MAX]; /* the table's header line */
    char **rows;                /* spec.n_cases rows of the last run, NULL while missing */
    clink_sweep_tally tally;
    char err[4800];      /* the last run's error, "" if none */
    char warnings[4096]; /* the last run's warnings, one per line */
    long n_warnings;     /* all of them (the text keeps the first few) */
};

/* a case running in a child process */
typedef struct sweep_child {
    pid_t pid; /* 0: the slot is free */
    int fd;    /* the read end of its pipe */
    long k;
} sweep_child;

/* one run of a sweep on the coordinating process */
typedef struct sweep_run {
    clink_sweep *sw;
    const sweep_spec *s;
    const char *dir;
    clink_sweep_options opt;
    int fd;               /* the journal, open for appending (and locked); -1 when closed */
    double last_sync;     /* when it was last fsync'd (monotonic clock, s) */
    int unsynced;         /* rows written since */
    long next;            /* the queue: the next case to consider */
    double last_progress; /* when the progress callback was last called */
    clink_status status;  /* the first failure (CLINK_OK while none) */
} sweep_run;

/*
 * Other processes that take cases from the queue (the MPI ranks of mpi/sweep_mpi.c):
 * active counts those still asking; serve() handles one waiting request, if any,
 * with sweep_record() and sweep_next_case(): 1 if it served one, 0 if none waited.
 */
typedef struct sweep_remote {
    int active;
    int (*serve)(sweep_run *run, struct sweep_remote *remote);
    void *ctx;
} sweep_remote;

/* sweep_spec.c */
int sweep_spec_read(sweep_spec *s, const char *file, char *err, size_t err_size);
void sweep_spec_free(sweep_spec *s);

/* sweep_cases.c */
void sweep_case_values(const sweep_spec *s, long k, long *idx);
clink_status sweep_fail(clink_sweep *sw, clink_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int sweep_rows_reset(clink_sweep *sw);
void sweep_warn(clink_sweep *sw, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* sweep_case.c */
double sweep_now(void);
void sweep_case_run(const sweep_spec *s, const char *dir, long k, sweep_result *res);

/* sweep_table.c */
void sweep_header(const sweep_spec *s, char *buf, size_t size);
void sweep_row(const sweep_spec *s, long k, const sweep_result *res, char *buf, size_t size);
long sweep_row_case(const char *row, long n_cases);
int sweep_row_check(const clink_sweep *sw, long k, const char *row, char *why, size_t size);
void sweep_count(clink_sweep_tally *t, const sweep_spec *s, const char *row);
clink_status sweep_write_table(clink_sweep *sw, const char *dir);
clink_status sweep_write_h5(clink_sweep *sw, const char *dir);

/* sweep_pool.c */
int sweep_child_start(const sweep_spec *s, const char *dir, long k, int ignore_sigint,
                      sweep_child *c);
int sweep_child_reap(const sweep_spec *s, sweep_child *kids, int n_kids, int block, char *row,
                     size_t size);
long sweep_next_case(sweep_run *run);
int sweep_progress(sweep_run *run);
clink_status sweep_coordinate(sweep_run *run, sweep_remote *remote);

/* sweep_journal.c */
clink_status sweep_journal_open(sweep_run *run);
int sweep_record(sweep_run *run, const char *row);
clink_status sweep_journal_close(sweep_run *run);

/* sweep_run.c */
clink_status sweep_run_begin(sweep_run *run, clink_sweep *sw, const char *dir,
                             const clink_sweep_options *options);
clink_status sweep_run_end(sweep_run *run);

#endif
