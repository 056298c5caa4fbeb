/* where.h: the session's `where`: one line per rank: rank, host, pid, where it is (held before
 * or after event E, blocked in E, finished, crashed...), the MPI call with its arguments (from
 * the event history, when the recording has one) and the application's file:line (function)
 * of that call. */
#ifndef MPIRR_CLI_REPLAYCTL_WHERE_H
#define MPIRR_CLI_REPLAYCTL_WHERE_H

#include <stdio.h>

struct replay_session;

void where_print(struct replay_session *s, FILE *out);
/* Just rank's line. */
void where_print_rank(struct replay_session *s, int rank, FILE *out);

/* For a rank blocked in an MPI call: " (waits on held rank R: `step R` or `continue` moves it)",
 * R the rank its call waits on if the history names it and it is held, else the one held rank
 * (several: says so). */
void where_put_blocked(struct replay_session *s, int rank, FILE *out);

#endif
