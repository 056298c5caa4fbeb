/* replay_hold.h: ending a replay where its recording ends. A rank whose recorded run was
 * stopped from outside (killed, signalled, recording stopped early) is held by the runtime
 * before the first call the recording did not finish; nothing in the replay would end it. The
 * CLI knows from the tails which ranks to expect, watches them arrive (the hold log, a file in
 * mpirr's private directory, run_scratch.h, where control_server.c writes the lines the ranks
 * send), and ends the job once all are held, with one line saying where. */
#ifndef MPIRR_CLI_REPLAY_HOLD_H
#define MPIRR_CLI_REPLAY_HOLD_H

#include <limits.h>
#include <stdint.h>
#include <time.h>

#include "recording.h"
#include "replay_check.h"

struct replay_hold {
    int nranks;
    uint64_t *hold;     /* per rank: the event it is held before, 0 if it is not */
    unsigned char *arrived;
    int expected, held; /* ranks with a hold point; of those, held now */
    int self_ending;    /* ranks whose own course ended the recorded run (a crash, abort, exit):
                           the replayed job ends by itself when they get there */
    int ended;          /* the job was ended by the watch */
    long stall_seconds; /* end the job anyway when ranks stop arriving this long */
    time_t last_arrival;
    long read_offset;   /* of the hold log */
    char path[PATH_MAX + 32];
    char first[4][160]; /* the first few held ranks, for the summary */
    char how[160];      /* how the recorded run ended there, as the first rank said */
};

/* Every rank's hold point, from how its recording ended (replay_check_logs). 0, or an exit
 * status after a message. */
int replay_hold_load(const struct recording *r, const struct recorded_end *ends,
                     struct replay_hold *h);
/* Creates the (empty) hold log in mpirr's private directory; 0 or -1 after a message. */
int replay_hold_start(struct replay_hold *h);
/* child_spec.watch: 1 once every expected rank is held (or they stalled): the job ends. */
int replay_hold_watch(void *hold);
/* Removes the hold log; frees. */
void replay_hold_finish(struct replay_hold *h);

#endif
