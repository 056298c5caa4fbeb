/* cmd_frontier.c: `mpirr frontier DIR --at RANK:EVENT [--before|--after] [--past|--future]
 * [--json]`: p2d2's frontiers of the point just before or after an event, as the event of
 * every rank a replay would stop at. docs/cli/frontier.md. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_load.h"
#include "commands.h"
#include "diag.h"
#include "json.h"
#include "opts.h"

enum { OPT_AT, OPT_BEFORE, OPT_AFTER, OPT_PAST, OPT_FUTURE, OPT_JSON };

static const struct cli_opt frontier_opts[] = {
    {"at", 0, 1, OPT_AT},
    {"before", 0, 0, OPT_BEFORE},
    {"after", 0, 0, OPT_AFTER},
    {"past", 0, 0, OPT_PAST},
    {"future", 0, 0, OPT_FUTURE},
    {"json", 0, 0, OPT_JSON},
    {NULL, 0, 0, 0},
};

static void print_vector(const char *what, const uint64_t *v, int n)
{
    printf("%s frontier:\n", what);
    for (int q = 0; q < n; q++) {
        if (v[q]) printf("  rank %d: event %" PRIu64 "\n", q, v[q]);
        else printf("  rank %d: %s\n", q, !strcmp(what, "past") ? "none (nothing before)" : "none (nothing after)");
    }
}

int cmd_frontier(int argc, char **argv)
{
    struct opt_scan s;
    opt_init(&s, "frontier", argc, argv);
    const char *v, *dir = NULL, *at = NULL;
    int after = 0, past = 0, future = 0, json = 0, operands = 0;
    for (int id; (id = opt_next_mixed(&s, frontier_opts, &v)) != OPT_DONE;) {
        switch (id) {
        case OPT_HELP: return help_for("frontier");
        case OPT_BAD: return CLI_EXIT_USAGE;
        case OPT_OPERAND: dir = v; operands++; break;
        case OPT_AT: at = v; break;
        case OPT_BEFORE: after = 0; break;
        case OPT_AFTER: after = 1; break;
        case OPT_PAST: past = 1; break;
        case OPT_FUTURE: future = 1; break;
        default: json = 1; break;
        }
    }
    int rank;
    uint64_t event;
    if (operands != 1 || !at) {
        cli_error("frontier takes one recording directory and --at RANK:EVENT");
        return CLI_EXIT_USAGE;
    }
    if (opt_rank_event(at, &rank, &event) || event == 0) {
        cli_error("frontier: --at needs RANK:EVENT (e.g. 3:1207), not '%s'", at);
        return CLI_EXIT_USAGE;
    }
    if (!past && !future) past = future = 1;
    struct analysis a;
    int rc = analysis_open(dir, &a, 0, 0);
    if (rc) return rc;
    int n = a.run->nranks;
    uint64_t *pv = calloc((size_t)n, sizeof *pv), *fv = calloc((size_t)n, sizeof *fv);
    char err[1200];
    if (!pv || !fv) {
        cli_error("out of memory");
        rc = CLI_EXIT_FAIL;
    } else if (an_frontier(a.run, rank, event, after, pv, fv, err, sizeof err)) {
        cli_error("%s", err);
        rc = CLI_EXIT_USAGE;
    } else if (json) {
        struct json j;
        json_init(&j, stdout);
        json_object_begin(&j, NULL);
        json_int(&j, "rank", rank);
        json_uint(&j, "event", event);
        json_string(&j, "when", after ? "after" : "before");
        json_array_begin(&j, "past");
        for (int q = 0; q < n; q++) json_uint(&j, NULL, pv[q]);
        json_array_end(&j);
        json_array_begin(&j, "future");
        for (int q = 0; q < n; q++) json_uint(&j, NULL, fv[q]);
        json_array_end(&j);
        json_object_end(&j);
        fputc('\n', stdout);
    } else {
        printf("just %s rank %d event %" PRIu64 "\n", after ? "after" : "before", rank, event);
        if (past) print_vector("past", pv, n);
        if (future) print_vector("future", fv, n);
    }
    free(pv);
    free(fv);
    analysis_close(&a);
    return rc;
}
