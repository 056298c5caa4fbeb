/* cmd_help.c: `mpirr help [CMD]`, `mpirr CMD --help` and `mpirr version`. The help texts are
 * the files docs/cli/<name>.md, compiled in at build time (help_docs.h is generated from them
 * by gen_help.cmake), so the documentation and the built-in help cannot drift apart. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "help_docs.h"
#include "opts.h"

int help_print(const char *doc)
{
    for (unsigned i = 0; i < sizeof help_docs / sizeof help_docs[0]; i++)
        if (strcmp(help_docs[i].name, doc) == 0) {
            fputs(help_docs[i].text, stdout);
            return 0;
        }
    return -1;
}

int help_for(const char *cmd)
{
    const struct command *c = command_find(cmd);
    if (!c || help_print(c->doc) != 0) {
        cli_error("no help for '%s' (try 'mpirr help')", cmd);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cmd_help(int argc, char **argv)
{
    struct opt_scan s;
    opt_init(&s, "help", argc, argv);
    int rc = opt_scan_none(&s);
    if (rc != OPT_DONE)
        return rc == OPT_HELP ? help_for("help") : CLI_EXIT_USAGE;
    if (s.i == argc)
        return help_print("README") == 0 ? 0 : CLI_EXIT_FAIL;
    if (s.i + 1 < argc) {
        cli_error("help takes one command name (mpirr help [COMMAND])");
        return CLI_EXIT_USAGE;
    }
    return help_for(argv[s.i]);
}

int cmd_version(int argc, char **argv)
{
    struct opt_scan s;
    opt_init(&s, "version", argc, argv);
    int rc = opt_scan_none(&s);
    if (rc != OPT_DONE)
        return rc == OPT_HELP ? help_for("version") : CLI_EXIT_USAGE;
    if (s.i < argc) {
        cli_error("version takes no arguments");
        return CLI_EXIT_USAGE;
    }
    printf("mpirr %s\n", MPIRR_VERSION);
    return 0;
}
