/* control.h: the CLI's side of the replay control state (src/format/replay_control.h): made
 * before every replay, it tells the ranks where to stop and shows what each rank is doing.
 * mpirr keeps every rank's slot in its memory; control_server.c carries them to and from the
 * ranks over TCP (src/format/control_wire.h), whatever node they run on. A stopline is one stop
 * position per rank; setting one bumps the generation, and the session then waits until every
 * rank is at its stop, finished, dead, or blocked (stalled). */
#ifndef MPIRR_CLI_REPLAYCTL_CONTROL_H
#define MPIRR_CLI_REPLAYCTL_CONTROL_H

#include <limits.h>
#include <pthread.h>
#include <stdint.h>

#include "control_wire.h"
#include "replay_control.h"

struct control_server;

struct replay_control {
    mpirr_ctl ctl;      /* the header and every rank's slot, in memory */
    int nranks;
    /* MPIRR_CONTROL for the current job's ranks: HOST:PORT:TOKEN, TOKEN the replay's secret
     * (its first CONTROL_SECRET_HEX digits) then the job's epoch (8 hex digits): a rank of a
     * replaced job that says HELLO late is known as such (control_server.c) */
    char address[300];
    char token[MPIRR_CW_TOKEN_HEX + 1]; /* the secret: random, drawn once */
    /* guards ctl's slots (but a slot's state is also read alone, atomically), epoch and
     * set_version between the session and the server thread */
    pthread_mutex_t lock;
    /* bumped by replay_control_reset: older connections are ignored, but stay open until
     * their ranks end (the replaced job's launcher ends them; to a rank, a closed connection
     * means that mpirr is gone, and it would end the job with a line of its own) */
    unsigned epoch;
    uint64_t set_version; /* bumped whenever a rank's SET changes */
    struct control_server *server;
    /* stall detection: the progress each rank showed, and since when (CLOCK_MONOTONIC s) */
    uint64_t *seen_progress;
    double *seen_since;
};

/* What a rank is doing, as the session sees it. */
enum rank_view {
    RANK_STARTING,  /* not through MPI_Init yet */
    RANK_RUNNING,
    RANK_AT_STOP,   /* held at its stop position */
    RANK_BLOCKED,   /* inside an MPI call, no progress for a while: waits on a held rank */
    RANK_ENDED,     /* finished, crashed, aborted, diverged, exited, held on a signal or at the
                       end of its recording: it will not move by itself */
};

/* Creates the control state for nranks ranks, every stop none, and starts listening for them
 * (address: control_server.h). 0, or -1 after a message. */
int replay_control_create(struct replay_control *c, int nranks);
/* Notes from the rank's recorded ending (enum mpirr_log_ending and its detail) whether its
 * recorded run ended by the program's own doing, which a replayed MPI_Abort waits for. */
void replay_control_set_ends_itself(struct replay_control *c, int rank, int recorded_ending,
                                    int detail);
/* A new job (before a relaunch): zeroes every rank's reported state, keeping the stops and
 * endings, and gives the next job's ranks a token of their own (c->address); nothing the
 * ranks of earlier jobs send counts any more, whenever they connect. Their connections stay
 * open until their launcher ends them (ranks that lost mpirr would end the job themselves,
 * with a line each, racing the launcher). */
void replay_control_reset(struct replay_control *c);
/* Sets every rank's stop (MPIRR_POS_NONE: none) as one new stopline. */
void replay_control_set_stops(struct replay_control *c, const uint64_t *stops);
void replay_control_set_flags(struct replay_control *c, uint32_t flags);
/* A copy of rank's slot as it is now. */
void replay_control_read(const struct replay_control *c, int rank, mpirr_ctl_slot *out);
/* The rank's state as the session sees it; blocked once its progress has not changed for
 * stall_s seconds inside an MPI call. */
enum rank_view replay_control_view(struct replay_control *c, int rank, double stall_s);
/* Stops listening, closes the ranks' connections; frees. */
void replay_control_finish(struct replay_control *c);

#endif
