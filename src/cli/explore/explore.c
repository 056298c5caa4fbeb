/* explore.c: `mpirr explore`: searches a program's schedules for a failing order by forcing
 * the other outcomes of racing receives (mpirr replay --flip), run after run. */
#include <stdio.h>

#include "commands.h"
#include "diag.h"

int cmd_explore(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("explore: not built yet");
    return CLI_EXIT_USAGE;
}
