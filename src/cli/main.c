/* main.c: mpirr's entry point: picks the command named by the first word. */
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "environment.h"
#include "opts.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_error("no command given (try 'mpirr help')");
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (opt_is_help(name))
        name = "help";
    else if (strcmp(name, "--version") == 0)
        name = "version";
    const struct command *c = command_find(name);
    if (!c) {
        const char *meant = name[0] == '-' ? NULL : command_suggest(name);
        if (meant)
            cli_error("unknown command '%s': did you mean '%s'? (try 'mpirr help')", name, meant);
        else
            cli_error("unknown %s '%s' (try 'mpirr help')", name[0] == '-' ? "option" : "command",
                      name);
        return CLI_EXIT_USAGE;
    }
    int bad = c->launches ? environment_check() : 0;
    return bad ? bad : c->run(argc - 2, argv + 2);
}
