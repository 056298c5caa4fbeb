/* verdict.h: the one line at the end of every replay that says whether it followed the
 * recording: "finished as recorded", "rank 0 SIGSEGV at event 232, as recorded", "diverged at
 * ...", from how each rank of the recorded run ended (the tails) and how each replayed rank
 * ended (the replay control state).
 * The recorded endings are those replay_check_logs read. */
#ifndef MPIRR_CLI_REPLAYCTL_VERDICT_H
#define MPIRR_CLI_REPLAYCTL_VERDICT_H

#include <stdio.h>

#include "control.h"
#include "recording.h"
#include "replay_check.h"

/* The job ended with status (child_run's); prints the verdict line to out (its wordings:
 * docs/cli/replay.md, "How a replay ends"). Nothing without a control state for every rank of
 * the recording. Not for a replay mpirr ended where every rank was held at the end of its
 * recording: replay_hold's line says that. */
enum verdict_outcome {
    VERDICT_COMPARED,    /* a line compared the replay with the recording (or nothing to say) */
    VERDICT_DIVERGED,    /* a rank diverged */
    VERDICT_NOT_REPLAYED /* no rank got through MPI_Init under the runtime: nothing replayed */
};
enum verdict_outcome replay_verdict(const struct recording *r, const struct recorded_end *ends,
                    struct replay_control *c, int status, FILE *out);

#endif
