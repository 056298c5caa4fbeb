/* analysis_mpi.h: a recording's analysis loaded by the processes of an MPI job (mpirr races
 * --mpi under mpirun or srun; docs/analysis.md "Parallel analysis"). */
#ifndef MPIRR_CLI_ANALYSIS_MPI_H
#define MPIRR_CLI_ANALYSIS_MPI_H

#include "analysis_load.h"

/* As analysis_open (with happened-before), each process of the job reading a block of the
 * ranks' histories. On the job's rank 0 *reporter is 1 and a is ready to report; on the others
 * *reporter is 0 and there is nothing to do but analysis_mpi_end. An exit status after one line
 * (rank 0's) otherwise: not under an MPI launcher, no parallel library, a history unreadable. */
int analysis_open_mpi(const char *dir_arg, struct analysis *a, int *reporter);
/* Ends the job's MPI (every process, after analysis_open_mpi returned, whatever it returned). */
void analysis_mpi_end(void);

#endif
