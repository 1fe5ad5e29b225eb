/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_mpi.c: the sweep's MPI driver (docs/sweeps.md, "MPI"), compiled only into
 * clink-sweep-mpi (cmake/clinkSweep.cmake; the library's glob leaves src/sweep/mpi/
 * out, so that libclink never links MPI). A dynamic work queue: rank 0 keeps the
 * journal and hands out one case at a time to whichever rank asks; a rank asks again
 * by sending the row of its last case (an empty row the first time) and stops when
 * told case -1. Every rank runs its cases in child processes (sweep_pool.c) and
 * writes their outputs itself; rank 0 runs cases of its own between messages. The
 * executable's main() is src/cli/mpi/main_mpi.c.
 */
#define _POSIX_C_SOURCE 200809L

#include "sweep/mpi/sweep_mpi.h"
#include "sweep/sweep_internal.h"

#include <mpi.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum { SWEEP_TAG_ROW = 1, SWEEP_TAG_WORK = 2 };

void sweep_mpi_ranks(int *rank, int *ranks)
{
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, ranks);
}

/* a rank other than 0: asks for a case, runs it in a child, sends its row, until told to stop */
static clink_status sweep_mpi_worker(const sweep_spec *s, const char *dir)
{
    char row[SWEEP_ROW_MAX] = "";

    for (;;) {
        long k;
        sweep_child c;
        int slot;
        MPI_Send(row, (int) strlen(row) + 1, MPI_CHAR, 0, SWEEP_TAG_ROW, MPI_COMM_WORLD);
        MPI_Recv(&k, 1, MPI_LONG, 0, SWEEP_TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (k < 0)
            return CLINK_OK;
        if (sweep_child_start(s, dir, k, 0, &c) != 0) {
            fprintf(stderr, "clink: sweep: cannot start a process: %s\n", strerror(errno));
            return CLINK_ERR_INTERNAL;
        }
        slot = -1;
        while (slot < 0)
            slot = sweep_child_reap(s, &c, 1, 1, row, sizeof row);
    }
}

/* a waiting rank's row recorded and its next case sent: 1 if one was served, 0 if none */
static int sweep_mpi_serve(sweep_run *run, sweep_remote *remote)
{
    int flag = 0;
    MPI_Status status;
    char mrow[SWEEP_ROW_MAX];
    long k;

    MPI_Iprobe(MPI_ANY_SOURCE, SWEEP_TAG_ROW, MPI_COMM_WORLD, &flag, &status);
    if (!flag)
        return 0;
    MPI_Recv(mrow, SWEEP_ROW_MAX, MPI_CHAR, status.MPI_SOURCE, SWEEP_TAG_ROW, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    mrow[SWEEP_ROW_MAX - 1] = '\0';
    if (mrow[0] != '\0' && sweep_record(run, mrow) != 0 && run->status == CLINK_OK)
        run->status = sweep_fail(run->sw, CLINK_ERR_IO, "%s/sweep.journal: cannot write: %s",
                                 run->dir, strerror(errno));
    k = sweep_next_case(run);
    MPI_Send(&k, 1, MPI_LONG, status.MPI_SOURCE, SWEEP_TAG_WORK, MPI_COMM_WORLD);
    if (k < 0)
        remote->active--;
    return 1;
}

clink_status sweep_mpi_run(clink_sweep *sw, const char *dir, const clink_sweep_options *options,
                           clink_status start0)
{
    int rank, ranks, st;
    sweep_run run;
    sweep_remote remote = {0, sweep_mpi_serve, NULL};

    sweep_mpi_ranks(&rank, &ranks);
    st = start0;
    if (rank == 0 && st == CLINK_OK)
        st = sweep_run_begin(&run, sw, dir, options);
    /* every rank learns whether rank 0 could begin */
    MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank > 0)
        return st == CLINK_OK ? sweep_mpi_worker(&sw->spec, dir) : (clink_status) st;
    if (start0 != CLINK_OK)
        return start0;
    if (st == CLINK_OK) {
        remote.active = ranks - 1;
        sweep_coordinate(&run, &remote);
    }
    return sweep_run_end(&run);
}
