/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main_mpi.c: the main() of clink-sweep-mpi (docs/sweeps.md, "MPI"): MPI started, then
 * `clink sweep` (src/cli/cmd_sweep.c), which runs the sweep through the MPI driver
 * src/sweep/mpi/sweep_mpi.c. Compiled only into clink-sweep-mpi (cmake/clinkSweep.cmake;
 * the clink command is built from the files of src/cli/ itself, not of this folder), so that the
 * sweep module never calls the command line.
 */
#include "cli/cli.h"

#include <mpi.h>

#include <stdio.h>

/* clink-sweep-mpi SPEC -o DIR [OPTIONS]: `clink sweep` on every rank of an MPI job */

int main(int argc, char **argv)
{
    int rc;

    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "clink-sweep-mpi: MPI_Init failed\n");
        return CLI_EXIT_FAIL;
    }
    argv[0] = (char *) "sweep";
    rc = cmd_sweep(argc, argv);
    fflush(stdout);
    if (rc != CLI_EXIT_OK && rc != CLI_EXIT_FAIL && rc != CLI_EXIT_USAGE)
        MPI_Abort(MPI_COMM_WORLD, rc);
    MPI_Finalize();
    return rc;
}
