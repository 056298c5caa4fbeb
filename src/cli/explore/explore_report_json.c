/* explore_report_json.c: `mpirr explore --json`: the search's summary as one JSON object on
 * stdout, for CI (the fields are in docs/cli/explore.md). */
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <string.h>

#include "explore_report.h"
#include "json.h"

void explore_json_outcome(struct json *j, const char *key, const struct explore_outcome *o)
{
    char text[EXPLORE_ENDING_MAX], digest[17];
    explore_ending_text(o, text, sizeof text);
    snprintf(digest, sizeof digest, "%016" PRIx64, o->digest);
    json_object_begin(j, key);
    json_string(j, "ending", text);
    json_int(j, "exit", o->status);
    json_int(j, "signal", o->signal);
    json_bool(j, "timed_out", o->timed_out);
    json_string(j, "stdout_digest", digest);
    json_object_end(j);
}

/* The failing run: its number, recording, ending and the forced choices, first to last. */
static void failing(struct json *j, const struct explore_config *cfg,
                    const struct explore_state *st)
{
    const struct explore_node *f = &st->runs[st->failing];
    char dir[PATH_MAX];
    explore_run_dir(cfg, (size_t)st->failing, dir, sizeof dir);
    json_object_begin(j, "failing");
    json_int(j, "run", st->failing + 1);
    json_string(j, "recording", dir);
    explore_json_outcome(j, "outcome", &f->out);
    json_array_begin(j, "forced");
    for (long d = 1; d <= f->depth; d++) { /* the choice at depth d: run 1's child's first */
        long r = st->failing;
        for (long k = f->depth; k > d; k--)
            r = st->runs[r].parent;
        const struct explore_choice *c = &st->runs[r].forced;
        json_object_begin(j, NULL);
        json_int(j, "rank", c->rank);
        json_uint(j, "event", c->event);
        if (c->req) { /* a Waitany-family choice: the requests by their posting events */
            json_uint(j, "request", c->req);
            json_uint(j, "original_request", c->orig_req);
        } else {
            json_int(j, "source", c->src);
            json_int(j, "original", c->orig);
        }
        json_string(j, "site", c->site);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

void explore_report_json(const struct explore_config *cfg, const struct explore_state *st,
                         FILE *out)
{
    struct json j;
    json_init(&j, out);
    json_object_begin(&j, NULL);
    json_string(&j, "strategy", explore_strategy_name(cfg->strategy));
    json_uint(&j, "seed", cfg->seed);
    json_int(&j, "budget", cfg->budget);
    json_int(&j, "depth", cfg->depth);
    json_int(&j, "runs", (int64_t)st->nruns);
    json_int(&j, "distinct_outcomes", (int64_t)explore_report_outcomes(st, NULL));
    explore_json_outcome(&j, "first", &st->runs[0].out);
    if (st->failing >= 0)
        failing(&j, cfg, st);
    else
        json_null(&j, "failing");
    if (st->interrupted)
        json_string(&j, "interrupted", st->interrupted == SIGINT ? "SIGINT"
                                       : st->interrupted == SIGTERM ? "SIGTERM" : "signal");
    else
        json_null(&j, "interrupted");
    json_bool(&j, "exhausted", explore_exhausted(st));
    json_int(&j, "choices_left", (int64_t)st->pending);
    json_int(&j, "beyond_depth", (int64_t)st->beyond_depth);
    json_int(&j, "duplicates", (int64_t)st->duplicates);
    json_object_end(&j);
    fputc('\n', out);
}
