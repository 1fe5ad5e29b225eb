/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_mpi.h: the sweep under MPI (docs/sweeps.md, "MPI"), built only into
 * clink-sweep-mpi (this folder is kept out of the library, which never links MPI).
 */
#ifndef CLINK_SWEEP_MPI_H
#define CLINK_SWEEP_MPI_H

#include "clink/sweep.h"

/* this process's rank and the number of ranks of MPI_COMM_WORLD */
void sweep_mpi_ranks(int *rank, int *ranks);

/*
 * Runs sw into dir on every rank: rank 0 begins the run when start0 (the outcome of its
 * own checks before the run) is CLINK_OK, and every rank learns whether it began; the
 * other ranks then ask rank 0 for cases one at a time and run each in a child process
 * until told to stop, while rank 0 serves them, runs options->workers cases of its own
 * and writes the journal and the table. The run's status: on rank 0 that of
 * clink_sweep_run(); on the others CLINK_OK, or rank 0's status if it could not begin.
 */
clink_status sweep_mpi_run(clink_sweep *sw, const char *dir, const clink_sweep_options *options,
                           clink_status start0);

#endif
