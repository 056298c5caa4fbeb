/* replay_check.h: refusing a replay that cannot follow its recording, before anything runs:
 * missing or foreign rank logs, a command starting a different number of processes, or a
 * different executable. Each check reports one line and returns an exit status (0: fine). */
#ifndef MPIRR_CLI_REPLAY_CHECK_H
#define MPIRR_CLI_REPLAY_CHECK_H

#include <stdint.h>

#include "launch.h"
#include "recording.h"

/* How one rank's recorded run ended, from its tail: what the replay's hold, its stoplines and
 * its verdict need, read once, as the logs are checked. */
struct recorded_end {
    int ending, detail;  /* enum mpirr_log_ending (rank_log.h) and its detail */
    uint64_t events;     /* events the rank had begun */
    int in_call;         /* it ended inside that event's call */
    uint64_t hold_event; /* mpirr_log_reader_hold_event: where a replay holds it, 0 none */
};

/* Every rank-00000.log .. rank-(n-1) exists, opens, has the manifest's nranks in its header,
 * and reads to its end without damage. With one_program (the recorded command is to be run),
 * every header has the manifest's executable fingerprint too. ends (NULL, or the manifest's
 * nranks entries) receives how each rank's recording ended. */
int replay_check_logs(const struct recording *r, int one_program, struct recorded_end *ends);
/* The command's launcher is of the recorded MPI (when both are known), it starts as many
 * processes as were recorded (when it says how many) and runs the recorded executable (when
 * the application and the recorded fingerprint are known). */
int replay_check_launch(const struct recording *r, const struct launch_info *li, const char *base,
                        int exe_check);

#endif
