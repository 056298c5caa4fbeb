/* cmd_help.c: `mpirr help [CMD|TOPIC]`, `mpirr CMD --help` and `mpirr version`. The help texts
 * are the files docs/cli/<name>.md and the topics docs/<topic>.md, compiled in at build time
 * (help_docs.h is generated from them by gen_help.cmake), so the documentation and the
 * built-in help cannot drift apart. On a terminal they are shown as plain text
 * (help_render.h); piped, as the Markdown they are. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "diag.h"
#include "help_docs.h"
#include "help_render.h"
#include "opts.h"

int help_print(const char *doc)
{
    for (unsigned i = 0; i < sizeof help_docs / sizeof help_docs[0]; i++)
        if (strcmp(help_docs[i].name, doc) == 0) {
            if (isatty(STDOUT_FILENO))
                help_render_markdown(help_docs[i].text, stdout);
            else
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

/* A command's page, else the topic docs/NAME.md (NAME or NAME.md: `mpirr help events.md` is
 * the design of the event history, `mpirr help events` the command). */
static int help_command_or_topic(const char *name)
{
    if (command_find(name))
        return help_for(name);
    char topic[128];
    size_t len = strlen(name);
    if (len > 3 && strcmp(name + len - 3, ".md") == 0)
        len -= 3;
    if (len < sizeof topic - 8 && !memchr(name, '/', len)) {
        snprintf(topic, sizeof topic, "topic/%.*s", (int)len, name);
        if (help_print(topic) == 0)
            return 0;
    }
    cli_error("no help for '%s' (try 'mpirr help')", name);
    return CLI_EXIT_USAGE;
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
        cli_error("help takes one command or topic name (mpirr help [COMMAND|TOPIC])");
        return CLI_EXIT_USAGE;
    }
    return help_command_or_topic(argv[s.i]);
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
