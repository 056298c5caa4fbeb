/* replay_check.h: refusing a replay that cannot follow its recording, before anything runs:
 * missing or foreign rank logs, a command starting a different number of processes, or a
 * different executable. Each check reports one line and returns an exit status (0: fine). */
#ifndef MPIRR_CLI_REPLAY_CHECK_H
#define MPIRR_CLI_REPLAY_CHECK_H

#include "launch.h"
#include "recording.h"

/* Every rank-00000.log .. rank-(n-1) exists, opens, has the manifest's nranks in its header,
 * and reads to its end without damage. With one_program (the recorded command is to be run),
 * every header has the manifest's executable fingerprint too. */
int replay_check_logs(const struct recording *r, int one_program);
/* The command starts as many processes as were recorded (when it says how many) and runs
 * the recorded executable (when the application and the recorded fingerprint are known). */
int replay_check_launch(const struct recording *r, const struct launch_info *li, const char *base,
                        int exe_check);

#endif
