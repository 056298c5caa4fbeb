/* commands.h: the mpirr commands. Each entry point takes the words after the command's name
 * and returns mpirr's exit status. */
#ifndef MPIRR_CLI_COMMANDS_H
#define MPIRR_CLI_COMMANDS_H

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *doc; /* docs/cli/<doc>.md is its help text */
    int launches;    /* runs a program: mpirr's MPIRR_* environment is checked first */
};

/* NULL for a name that is not a command. */
const struct command *command_find(const char *name);
/* The command a mistyped name probably meant (did_you_mean.h), or NULL. */
const char *command_suggest(const char *name);

int cmd_record(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_gather(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_races(int argc, char **argv);
int cmd_frontier(int argc, char **argv);
int cmd_explore(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);

/* Prints the help text docs/cli/<doc>.md (doc "topic/NAME": docs/NAME.md) on stdout, as
 * plain text on a terminal: 0, or -1 if there is no such text. */
int help_print(const char *doc);
/* What a command does with -h/--help: prints its help, exit status 0. */
int help_for(const char *cmd);

#endif
