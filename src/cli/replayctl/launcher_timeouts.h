/* launcher_timeouts.h: what a replay session does about launcher timeouts before it launches a
 * job whose ranks it will hold for as long as the user debugs (docs/sessions-timeouts.md). */
#ifndef MPIRR_CLI_REPLAYCTL_LAUNCHER_TIMEOUTS_H
#define MPIRR_CLI_REPLAYCTL_LAUNCHER_TIMEOUTS_H

#include <stdio.h>

#include "env_var.h"
#include "launcher.h"

/* Looks at mpirr's own environment (which the launcher inherits) for settings that end a job
 * whose ranks are held: MPIEXEC_TIMEOUT, read by both Open MPI's mpirun and MPICH's mpiexec.
 * Writes one warning line to warn (if not NULL) per such setting; it changes nothing, since a
 * variable added for the ranks (-x / -genv) does not reach the launcher's own environment.
 * Stores in vars (at most max) the variables to hand to the ranks that disable a harmful
 * heartbeat: none on Open MPI 4.1 or MPICH 4.0 (see the doc), so it returns 0 today. */
int launcher_timeouts_guard(struct env_var *vars, int max, FILE *warn);

/* The same for the launcher's command line: Open MPI's mpirun --timeout N (or -timeout N) kills
 * the job N s after it starts and takes precedence over MPIEXEC_TIMEOUT (MPICH 4.0's mpiexec
 * rejects the option); srun's -t/--time T is the step's wall-clock limit. nopts: the words
 * before the application (launch_scan's app index), so that the application's own --timeout
 * is not taken for the launcher's. One line to warn. */
void launcher_timeouts_argv(enum launcher_kind kind, int nopts, char *const *argv, FILE *warn);

#endif
