/* commands.c: the table of mpirr commands. */
#include "commands.h"

#include <string.h>

static const struct command commands[] = {
    {"record", cmd_record, "record"},
    {"replay", cmd_replay, "replay"},
    {"run", cmd_run, "run"},
    {"stat", cmd_stat, "stat"},
    {"events", cmd_events, "events"},
    {"races", cmd_races, "races"},
    {"frontier", cmd_frontier, "frontier"},
    {"help", cmd_help, "help"},
    {"version", cmd_version, "README"}, /* described in the overview */
};

const struct command *command_find(const char *name)
{
    for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}
