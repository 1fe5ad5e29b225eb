/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_run.c: clink_sweep_run(), one run of a sweep into a directory: the options
 * checked, the directory (and DIR/cases when outputs are kept) made, the rows reset,
 * the journal opened or resumed (sweep_journal.c), the cases run by the coordinator
 * (sweep_pool.c), then the journal closed and the table written (sweep.csv, and
 * sweep.h5 when the library has HDF5: sweep_table.c). The MPI driver
 * (mpi/sweep_mpi.c) runs the same begin and end around a coordinator with remote
 * ranks.
 */
#define _POSIX_C_SOURCE 200809L

#include "output/h5_file.h"
#include "sweep/sweep_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

void clink_sweep_options_init(clink_sweep_options *options)
{
    if (options != NULL)
        memset(options, 0, sizeof *options);
}

/* the workers by default: the cores online */
static int sweep_default_workers(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > 4096 ? 4096 : (int) n;
}

/* the run set up: the options checked, the directories made, the rows reset, the journal
   opened (or resumed) */
clink_status sweep_run_begin(sweep_run *run, clink_sweep *sw, const char *dir,
                             const clink_sweep_options *options)
{
    char where[4300];

    memset(run, 0, sizeof *run);
    run->sw = sw;
    run->s = &sw->spec;
    run->dir = dir;
    run->fd = -1;
    clink_sweep_options_init(&run->opt);
    if (options != NULL)
        run->opt = *options;
    run->last_sync = sweep_now();
    if (sweep_rows_reset(sw) != 0)
        return run->status = sweep_fail(sw, CLINK_ERR_NOMEM, "out of memory");
    if (dir == NULL || dir[0] == '\0')
        return run->status = sweep_fail(sw, CLINK_ERR_ARG, "no output directory given");
    if (run->opt.workers < 0 || run->opt.workers > 4096)
        return run->status = sweep_fail(sw, CLINK_ERR_ARG, "%d workers: between 1 and 4096",
                                        run->opt.workers);
    if (!(run->opt.sync_interval >= 0) || isinf(run->opt.sync_interval))
        return run->status =
                   sweep_fail(sw, CLINK_ERR_ARG, "sync interval %g s: must be finite and >= 0",
                              run->opt.sync_interval);
    if (run->opt.workers == 0)
        run->opt.workers = sweep_default_workers();
    snprintf(where, sizeof where, "%s/cases", dir);
    if ((mkdir(dir, 0777) != 0 && errno != EEXIST) ||
        (sw->spec.keep && mkdir(where, 0777) != 0 && errno != EEXIST))
        return run->status = sweep_fail(sw, CLINK_ERR_IO, "cannot create directory '%s': %s",
                                        sw->spec.keep ? where : dir, strerror(errno));
    return run->status = sweep_journal_open(run);
}

/* after the cases: the journal closed, sweep.csv (and sweep.h5) written when the run is
   sound; the run's status */
clink_status sweep_run_end(sweep_run *run)
{
    clink_status st = sweep_journal_close(run);

    if (run->status == CLINK_OK)
        run->status = st;
    if (run->status == CLINK_OK)
        run->status = sweep_write_table(run->sw, run->dir);
    if (run->status == CLINK_OK && output_h5_file_available())
        run->status = sweep_write_h5(run->sw, run->dir);
    return run->status;
}

/* the ranks of an MPI launcher this process was started by (1 when none) */
static long sweep_launcher_ranks(void)
{
    const char *v[] = {getenv("OMPI_COMM_WORLD_SIZE"), getenv("PMI_SIZE"), getenv("PMIX_SIZE"),
                       getenv("MPI_LOCALNRANKS")};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (v[i] != NULL && atol(v[i]) > 1)
            return atol(v[i]);
    return 1;
}

clink_status clink_sweep_run(clink_sweep *sweep, const char *dir,
                             const clink_sweep_options *options)
{
    sweep_run run;

    if (sweep == NULL)
        return CLINK_ERR_ARG;
    /* under an MPI launcher every rank would run the whole sweep into the same directory:
       the MPI driver (mpi/sweep_mpi.c) runs it instead */
    sweep->err[0] = '\0';
    if (sweep_launcher_ranks() > 1)
        return sweep_fail(
            sweep, CLINK_ERR_STATE,
            "started by an MPI launcher with %ld ranks, but this clink is built without "
            "MPI: every rank would run the whole sweep. Run clink-sweep-mpi under mpirun (built "
            "when CMake finds MPI: apt-get install libopenmpi-dev openmpi-bin, then cmake "
            "-DCLINK_MPI=ON), or run clink sweep once without mpirun (-j N local processes)",
            sweep_launcher_ranks());
    if (sweep_run_begin(&run, sweep, dir, options) == CLINK_OK)
        sweep_coordinate(&run, NULL);
    return sweep_run_end(&run);
}
