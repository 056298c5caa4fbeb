/* debug_commands.h: the session's debugger commands, addressed to rank sets and run by the
 * session's persistent gdbs (rank_gdbs.h): stacks, bt, print, break, watch, delete,
 * info breakpoints, next, stepin, record, reverse-next/step/continue. docs/cli/replay.md. */
#ifndef MPIRR_CLI_REPLAYCTL_DEBUG_COMMANDS_H
#define MPIRR_CLI_REPLAYCTL_DEBUG_COMMANDS_H

#include <stdio.h>

struct replay_session;

/* A command's name, usage line and what it does: a row of the session's `help`, also what
 * its "did you mean" and usage lines read. */
struct command_help {
    const char *name, *usage, *what;
};
/* Row i of these commands' table in *row; -1 past the last row. */
int debug_command_row(int i, struct command_help *row);
/* Whether word names one of these commands. */
int debug_is_command(const char *word);
/* Runs one (argv[0] names it); rest is the line after its second word (an expression or a
 * location, as typed). Its output and one-line errors go to out. */
void debug_command(struct replay_session *s, int argc, char **argv, const char *rest, FILE *out);

#endif
