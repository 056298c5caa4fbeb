/* cmd_view.c: `mpirr view DIR [-o run.html]`: the space-time diagram of a recording's event
 * history as one self-contained HTML page (docs/cli/view.md). This file owns the command
 * line and the checks on input and output; view_page_build.c gathers and writes the page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_load.h"
#include "commands.h"
#include "diag.h"
#include "opts.h"
#include "out_file.h"
#include "view_page_build.h"

enum { OPT_OUTPUT };

static const struct cli_opt view_opts[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {NULL, 0, 0, 0},
};

/* The default output: the recording directory's last name plus .html, in the current directory. */
static void default_output(const char *dir, char *buf, size_t n)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') len--;
    size_t start = len;
    while (start > 0 && dir[start - 1] != '/') start--;
    if (len == start || (len - start == 1 && dir[start] == '.') || (len - start == 2 && !strncmp(dir + start, "..", 2)))
        snprintf(buf, n, "run.html");
    else
        snprintf(buf, n, "%.*s.html", (int)(len - start), dir + start);
}

int cmd_view(int argc, char **argv)
{
    struct opt_scan s;
    opt_init(&s, "view", argc, argv);
    const char *v, *dir = NULL, *out = NULL;
    int operands = 0;
    for (int id; (id = opt_next_mixed(&s, view_opts, &v)) != OPT_DONE;) {
        switch (id) {
        case OPT_HELP: return help_for("view");
        case OPT_BAD: return CLI_EXIT_USAGE;
        case OPT_OPERAND: dir = v; operands++; break;
        default: out = v; break;
        }
    }
    if (operands != 1) {
        cli_error("view takes one recording directory (mpirr view DIR [-o run.html])");
        return CLI_EXIT_USAGE;
    }
    char outbuf[4096];
    if (!out) {
        default_output(dir, outbuf, sizeof outbuf);
        out = outbuf;
    }
    struct analysis a;
    struct view_data d;
    int rc = view_page_load(dir, &a, &d);
    if (rc) return rc;
    /* a failed run leaves no half page (out_file.h) */
    struct out_file of;
    if ((rc = out_file_open(&of, "view", out, OUT_FILE_STDOUT))) {
        view_page_unload(&a, &d);
        return rc;
    }
    view_page_write(of.f, &d, dir, 0); /* a write error is out_file_close's to report */
    rc = out_file_close(&of, rc);
    if (!rc)
        fprintf(stderr, "mpirr: wrote %s: %llu events, %llu messages, %llu racing receives\n", out,
                (unsigned long long)d.events, (unsigned long long)d.nmatched, (unsigned long long)d.nraces);
    view_page_unload(&a, &d);
    return rc;
}
