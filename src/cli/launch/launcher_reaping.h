/* launcher_reaping.h: a launcher that stops reaping its ranks. Open MPI 4.1's mpirun was seen
 * to hang after a job's MPI_Abort on a loaded machine, every rank it started already ended and
 * left unreaped (defunct): the run, recorded or replayed, never ends. child_run asks here about
 * a command that is an MPI launcher; once every child of it has been a zombie for
 * MPIRR_TEARDOWN_SECONDS it ends the launcher. A healthy launcher reaps its ranks at once. */
#ifndef MPIRR_CLI_LAUNCHER_REAPING_H
#define MPIRR_CLI_LAUNCHER_REAPING_H

#include <stdio.h>
#include <sys/types.h>

struct reaping_watch {
    pid_t launcher;
    double limit_s;       /* MPIRR_TEARDOWN_SECONDS */
    double zombies_since; /* monotonic s since every child is a zombie, 0: not so */
    double next_look;     /* /proc is read a few times a second, not at every poll */
};

void reaping_watch_init(struct reaping_watch *w, pid_t launcher);
/* 1 (after one line to err) once every child of the launcher has been a zombie for limit_s. */
int reaping_watch_due(struct reaping_watch *w, FILE *err);

#endif
