/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `clink sweep SPEC.xml -o DIR [-j N] [--resume] [--sync-interval S] [--quiet]`: the shell
 * over the sweep module (include/clink/sweep.h, src/sweep/, docs/sweeps.md): options, the
 * checks every command makes of its files, the progress line on a terminal, warnings, the
 * tally and the exit status (0 every case ok, 1 some case not, 2 input rejected, 3 I/O
 * failed). Built with -DCLINK_SWEEP_MPI (clink-sweep-mpi) it runs on every rank of an MPI
 * job (src/sweep/mpi/sweep_mpi.c); under an MPI launcher the plain clink refuses.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include "clink/output.h"
#include "clink/sweep.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef CLINK_SWEEP_MPI
#include "sweep/mpi/sweep_mpi.h"
#endif

enum { SWEEP_OUTPUT = 1, SWEEP_JOBS, SWEEP_RESUME, SWEEP_QUIET, SWEEP_SYNC };

static const cli_option sweep_options[] = {
    {SWEEP_OUTPUT, "output", 'o', "DIR", "output directory (created if missing; required)"},
    {SWEEP_JOBS, "jobs", 'j', "N",
     "cases run at once on this machine (default: the cores\nonline; under MPI: 1 per rank)"},
    {SWEEP_RESUME, "resume", 0, NULL,
     "keep the cases of DIR/sweep.journal and run only the\nmissing ones"},
    {SWEEP_SYNC, "sync-interval", 0, "S",
     "fsync the journal at most every S seconds (default 0:\nafter every row; each row is "
     "still written at once)"},
    {SWEEP_QUIET, "quiet", 'q', NULL, "no progress or summary line"},
    {0, NULL, 0, NULL, NULL},
};

typedef struct sweep_args {
    const char *spec;
    const char *dir;
    int jobs, resume, quiet; /* jobs 0: the default */
    double sync_interval;
} sweep_args;

static int sweep_apply(void *ctx, int id, const char *spelled, const char *value)
{
    sweep_args *a = ctx;

    switch (id) {
    case CLI_OPERAND:
        if (a->spec != NULL)
            return cli_usage_error("sweep: one specification file only (got '%s' and '%s')",
                                   a->spec, value);
        a->spec = value;
        return CLI_EXIT_OK;
    case SWEEP_OUTPUT:
        a->dir = value;
        return CLI_EXIT_OK;
    case SWEEP_JOBS:
        if (cli_parse_int(spelled, value, &a->jobs) != 0)
            return CLI_EXIT_USAGE;
        if (a->jobs < 1 || a->jobs > 4096)
            return cli_usage_error("sweep: %s %d: between 1 and 4096", spelled, a->jobs);
        return CLI_EXIT_OK;
    case SWEEP_RESUME:
    case SWEEP_QUIET:
        *(id == SWEEP_RESUME ? &a->resume : &a->quiet) = 1;
        return CLI_EXIT_OK;
    case SWEEP_SYNC:
        if (cli_parse_double(spelled, value, &a->sync_interval) != 0)
            return CLI_EXIT_USAGE;
        if (a->sync_interval < 0)
            return cli_usage_error("sweep: %s %g: must be >= 0", spelled, a->sync_interval);
        return CLI_EXIT_OK;
    default:
        return CLI_EXIT_USAGE;
    }
}

static void sweep_usage(FILE *out)
{
    fprintf(out, "usage: clink sweep SPEC.xml -o DIR [OPTIONS]\n\n"
                 "Runs every case of the sweep specification SPEC.xml (docs/sweeps.md) and\n"
                 "writes DIR/sweep.csv (and DIR/sweep.h5 when built with HDF5), one row per\n"
                 "case: its parameters, its status (ok, failed, invalid, crashed), the\n"
                 "summary quantities and its wall time. Each case runs in its own process;\n"
                 "finished rows go to DIR/sweep.journal at once (--resume continues an\n"
                 "interrupted sweep). Under mpirun, use the MPI build\n"
                 "clink-sweep-mpi with the same arguments.\n\n"
                 "Options (--opt VALUE or --opt=VALUE):\n");
    cli_print_options(out, sweep_options);
    fprintf(out, "\nExit status: 0 every case ok; 1 the table is complete but some cases failed,\n"
                 "were invalid or crashed; 2 input rejected (specification, options, a journal\n"
                 "of another sweep); 3 I/O failed.\n");
}

/* the progress line on a terminal; *shown counts the calls (a final newline follows) */
static int sweep_show_progress(void *ctx, long done, long cases)
{
    ++*(int *) ctx;
    fprintf(stderr, "\rclink sweep: %ld of %ld cases done", done, cases);
    return 0;
}

/* the exit status of a run's outcome */
static int sweep_exit_status(clink_status st)
{
    int usage = st == CLINK_ERR_ARG || st == CLINK_ERR_PARSE || st == CLINK_ERR_STATE;

    return st == CLINK_OK       ? CLI_EXIT_OK
           : st == CLINK_ERR_IO ? CLI_EXIT_IO
           : usage              ? CLI_EXIT_USAGE
                                : CLI_EXIT_FAIL;
}

#ifdef CLINK_SWEEP_MPI
/* every rank runs the sweep; rank 0 begins it only after its checks passed (rc) */
#define SWEEP_RUN(sw, dir, o, rc) sweep_mpi_run(sw, dir, o, (rc) == 0 ? CLINK_OK : CLINK_ERR_ARG)
#else
#define SWEEP_RUN(sw, dir, o, rc) ((rc) == 0 ? clink_sweep_run(sw, dir, o) : CLINK_ERR_ARG)
#endif

/* the sweep run (rank 0's checks first), its message or its tally; the exit status */
static int sweep_execute(clink_sweep *sw, const sweep_args *a, int rank, int ranks)
{
    clink_sweep_options o;
    clink_sweep_tally t;
    clink_status st;
    int shown = 0, rc = CLI_EXIT_OK;

    clink_sweep_options_init(&o);
    o.workers = a->jobs > 0 ? a->jobs : ranks > 1 ? 1 : 0;
    o.resume = a->resume;
    o.sync_interval = a->sync_interval;
    if (rank == 0 && !a->quiet && isatty(STDERR_FILENO)) {
        o.progress = sweep_show_progress;
        o.progress_ctx = &shown;
    }
    if (rank == 0) /* the files checked as every command checks them */
        rc = cli_check_input_file("sweep", clink_sweep_model(sw)) != 0
                 ? CLI_EXIT_USAGE
                 : cli_check_output_path("sweep", "output directory", a->dir, 1);
    st = SWEEP_RUN(sw, a->dir, &o, rc);
    if (rank > 0 || rc != CLI_EXIT_OK)
        return rc != CLI_EXIT_OK ? rc : sweep_exit_status(st);
    if (shown > 0)
        fprintf(stderr, "\n");
    for (const char *w = clink_sweep_warnings(sw); *w != '\0'; w = strchr(w, '\n') + 1)
        fprintf(stderr, "clink: sweep: warning: %.*s\n", (int) strcspn(w, "\n"), w);
    if (st != CLINK_OK) {
        fprintf(stderr, "clink: sweep: %s\n", clink_sweep_error(sw));
        return sweep_exit_status(st);
    }
    clink_sweep_tally_get(sw, &t);
    if (!a->quiet)
        printf("%s: %ld cases: %ld ok, %ld failed, %ld invalid, %ld crashed; table in "
               "%s/sweep.csv%s\n",
               a->spec, t.cases, t.ok, t.failed, t.invalid, t.crashed, a->dir,
               clink_output_has_hdf5() ? " and sweep.h5" : "");
    return t.ok < t.cases ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cmd_sweep(int argc, char **argv)
{
    clink_sweep *sw = NULL;
    sweep_args a = {0};
    char err[1300];
    int rc, rank = 0, ranks = 1;

#ifdef CLINK_SWEEP_MPI
    sweep_mpi_ranks(&rank, &ranks);
#endif
    rc = cli_parse_options(argc, argv, sweep_options, sweep_apply, &a);
    if (rc == CLI_HELP) {
        if (rank == 0)
            sweep_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.spec == NULL || a.dir == NULL) {
        if (rank == 0)
            cli_usage_error(
                "sweep: needs a specification file and -o DIR (see clink sweep --help)");
        return CLI_EXIT_USAGE;
    }
    if (cli_check_input_file("sweep", a.spec) != 0)
        return CLI_EXIT_USAGE;
    if (clink_sweep_load(a.spec, &sw, err, sizeof err) != CLINK_OK) {
        if (rank == 0)
            fprintf(stderr, "%s\n", err);
        return CLI_EXIT_USAGE;
    }
    rc = sweep_execute(sw, &a, rank, ranks);
    clink_sweep_destroy(&sw);
    return rc;
}
