/* explore_deadlock.h: the deadlock verdict of `mpirr explore`: when a run passes its time
 * limit, before it is ended, each rank's stack (gdb on this host) says which MPI call it is
 * blocked in and the program's source line of that call. A run whose every rank is blocked
 * in an MPI call is a deadlock, not just "timed out". */
#ifndef MPIRR_CLI_EXPLORE_DEADLOCK_H
#define MPIRR_CLI_EXPLORE_DEADLOCK_H

#include <stddef.h>

/* Looks at the ranks of the run recording into rundir (their pids from the rank logs'
 * headers). Writes "rank 0 in MPI_Recv at app.c:28, rank 1 in MPI_Barrier at app.c:31" to
 * buf and returns 1 when every rank was found blocked in an MPI call; else 0 and buf "" (a
 * rank computing, on another host, gone, or gdb missing: the run only timed out). */
int explore_deadlock_capture(const char *rundir, char *buf, size_t n);

#endif
