/* cmd_view.c: `mpirr view DIR [-o run.html]`: the space-time diagram of a recording's event
 * history as one self-contained HTML page. */
#include "commands.h"
#include "diag.h"

int cmd_view(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("view: not built yet");
    return CLI_EXIT_USAGE;
}
