/* debug_commands.h: the session's debugger commands, addressed to rank sets and run by the
 * session's persistent gdbs (rank_gdbs.h): stacks, bt, print, break, watch, delete,
 * info breakpoints, next, stepin, record, reverse-next/step/continue. docs/cli/replay.md. */
#ifndef MPIRR_CLI_REPLAYCTL_DEBUG_COMMANDS_H
#define MPIRR_CLI_REPLAYCTL_DEBUG_COMMANDS_H

#include <stdio.h>

struct replay_session;

/* Row i of the commands' table: its name, usage line and what it does (for the session's
 * `help`, "did you mean" and usage lines); -1 past the last row. */
int debug_command_row(int i, const char **name, const char **usage, const char **what);
/* Whether word names one of these commands. */
int debug_is_command(const char *word);
/* Runs one (argv[0] names it); rest is the line after its second word (an expression or a
 * location, as typed). Its output and one-line errors go to out. */
void debug_command(struct replay_session *s, int argc, char **argv, const char *rest, FILE *out);

#endif
