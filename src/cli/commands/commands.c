/* commands.c: the table of mpirr commands. */
#include "commands.h"

#include <string.h>

#include "did_you_mean.h"

static const struct command commands[] = {
    {"record", cmd_record, "record", 1},
    {"replay", cmd_replay, "replay", 1},
    {"run", cmd_run, "run", 1},
    {"gather", cmd_gather, "gather", 0},
    {"pack", cmd_pack, "pack", 0},
    {"stat", cmd_stat, "stat", 0},
    {"events", cmd_events, "events", 0},
    {"races", cmd_races, "races", 0},
    {"frontier", cmd_frontier, "frontier", 0},
    {"explore", cmd_explore, "explore", 1},
    {"view", cmd_view, "view", 0},
    {"export", cmd_export, "export", 0},
    {"help", cmd_help, "help", 0},
    {"version", cmd_version, "README", 0}, /* described in the overview */
};

const struct command *command_find(const char *name)
{
    for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

const char *command_suggest(const char *name)
{
    enum { N = sizeof commands / sizeof commands[0] };
    const char *names[N];
    for (unsigned i = 0; i < N; i++)
        names[i] = commands[i].name;
    return did_you_mean(name, names, N);
}
