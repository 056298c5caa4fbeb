/* teardown.h: a replayed job that outlives its end. A rank that diverged (the runtime aborts
 * the job), aborted or crashed leaves the launcher to end the others; Open MPI 4.1's mpirun was
 * seen to hang there, every rank gone (defunct), on a loaded machine, and the replay with it.
 * The replay's watch asks here; past MPIRR_TEARDOWN_SECONDS the launcher is ended by mpirr. */
#ifndef MPIRR_CLI_REPLAYCTL_TEARDOWN_H
#define MPIRR_CLI_REPLAYCTL_TEARDOWN_H

#include <stdio.h>

#include "control.h"

struct teardown_watch {
    double limit_s; /* MPIRR_TEARDOWN_SECONDS */
    double since;   /* when a rank was first seen ending the job (monotonic s), 0: none yet */
    int rank;       /* that rank */
    unsigned state; /* and its state (mpirr_ctl_state) */
};

void teardown_watch_init(struct teardown_watch *t);
/* 1 once a rank has been ending the job for limit_s seconds and the job still runs: one line
 * to err says so, and the caller ends the launcher. Forgets a rank whose state was reset (a
 * relaunch). */
int teardown_watch_due(struct teardown_watch *t, const struct replay_control *c, FILE *err);

#endif
