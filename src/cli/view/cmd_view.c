/* cmd_view.c: `mpirr view DIR [-o run.html]`: the space-time diagram of a recording's event
 * history as one self-contained HTML page (docs/cli/view.md). This file owns the command
 * line, the checks on input and output, and writing the page: the compiled-in page sources
 * (view_page.h, generated from page/ by gen_page.cmake) around the data (view_data.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_load.h"
#include "commands.h"
#include "diag.h"
#include "opts.h"
#include "out_file.h"
#include "view_data.h"
#include "view_page.h"

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

static void write_page(FILE *f, const struct view_data *d, const char *dir)
{
    fwrite(view_page_head, 1, sizeof view_page_head, f);
    view_write_data(f, d, dir);
    fwrite(view_page_tail, 1, sizeof view_page_tail, f);
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
    /* happened-before first: the race analysis reads what it leaves in the messages */
    int rc = analysis_open(dir, &a, 1, 0);
    if (rc) return rc;
    /* a failed run leaves no half page (out_file.h) */
    struct out_file of;
    if ((rc = out_file_open(&of, "view", out, OUT_FILE_STDOUT))) {
        analysis_close(&a);
        return rc;
    }
    struct view_data d;
    memset(&d, 0, sizeof d);
    rc = view_collect_events(&a, &d) || view_collect_links(&a, &d) ? CLI_EXIT_FAIL : 0;
    if (!rc) write_page(of.f, &d, dir); /* a write error is out_file_close's to report */
    rc = out_file_close(&of, rc);
    if (!rc)
        fprintf(stderr, "mpirr: wrote %s: %llu events, %llu messages, %llu racing receives\n", out,
                (unsigned long long)d.events, (unsigned long long)d.nmatched, (unsigned long long)d.nraces);
    view_data_free(&d);
    analysis_close(&a);
    return rc;
}
