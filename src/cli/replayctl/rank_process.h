/* rank_process.h: a rank's process as mpirr sees it from its own host: whether the rank runs
 * here, whether its process is alive, and whether a debugger traces it. Another host's pids are
 * not ours to look at: only ranks on this host answer. */
#ifndef MPIRR_CLI_REPLAYCTL_RANK_PROCESS_H
#define MPIRR_CLI_REPLAYCTL_RANK_PROCESS_H

#include <stdio.h>
#include <sys/types.h>

#include "replay_control.h"

struct replay_control;

/* Whether the slot's rank runs on this host (its reported host name is ours). */
int rank_on_this_host(const mpirr_ctl_slot *slot);
/* Whether process pid exists (also one we may not signal). */
int rank_pid_alive(pid_t pid);
/* The pid of the debugger tracing process pid (TracerPid in /proc/PID/status), 0 if none or
 * the process is gone. */
pid_t rank_tracer(pid_t pid);
/* The pids of the ranks on this host whose process is there (held, or running towards a
 * stop): into pids (room for c->nranks); their number. A rank that said it ended is left out
 * (its pid may be another process's by now). */
int rank_live_pids_here(const struct replay_control *c, pid_t *pids);
/* Before mpirr ends the job: a rank on this host that a debugger traces (the user's own
 * `gdb -p`, stopped at a breakpoint; not a tracer of mpirr itself) would die under it. Says so in one line per rank on out
 * and waits until no debugger traces any of them (they detach, or the process is gone). */
void rank_tracers_wait(const struct replay_control *c, FILE *out);
/* Marks tracer (own 1) as one of the session's own gdbs, or no longer (own 0): a rank it
 * traces is not waited for by rank_tracers_wait. */
void rank_tracer_own(pid_t tracer, int own);

#endif
