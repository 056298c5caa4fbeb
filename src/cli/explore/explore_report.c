/* explore_report.c: the per-run lines, the explore.tsv rows and the closing summary of
 * `mpirr explore` (explore_report.h; the formats are in docs/cli/explore.md). */
#include "explore_report.h"

#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

void explore_report_header(FILE *tsv)
{
    fputs("run\tparent\trank\tevent\tsite\tforced\toriginal\tending\tdigest\tnew_races\n", tsv);
    fflush(tsv);
}

/* The choice as --flip takes it, and where: "0:14=3 at crash.c:52 (got 1)". */
static void choice_text(const struct explore_choice *c, int got, char *buf, size_t n)
{
    char v[32], o[32];
    explore_choice_value(c, 0, v, sizeof v);
    explore_choice_value(c, 1, o, sizeof o);
    if (got)
        snprintf(buf, n, "%d:%" PRIu64 "=%s at %s (got %s)", c->rank, c->event, v, c->site, o);
    else
        snprintf(buf, n, "%d:%" PRIu64 "=%s at %s", c->rank, c->event, v, c->site);
}

void explore_report_run(const struct explore_config *cfg, const struct explore_state *st,
                        size_t i, FILE *out, FILE *tsv)
{
    const struct explore_node *r = &st->runs[i];
    char ending[EXPLORE_ENDING_MAX] = "no recording", choice[400];
    if (r->out.recorded)
        explore_ending_text(&r->out, ending, sizeof ending);
    fprintf(out, "run %zu", i + 1);
    if (r->parent >= 0) {
        choice_text(&r->forced, 1, choice, sizeof choice);
        fprintf(out, " = run %ld + %s", r->parent + 1, choice);
    }
    if (r->out.recorded) {
        fprintf(out, ": %s, stdout %016" PRIx64 ", %zu %sracing receive%s (%zu choice%s)", ending,
                r->out.digest, r->racing, r->parent >= 0 ? "new " : "", plural(r->racing),
                r->offered, plural(r->offered));
        if (i > 0 && !explore_same_ending(&st->runs[0].out, &r->out))
            fputs(" - ended otherwise than run 1", out);
        if (r->parent >= 0 && r->forced_got >= 0 && r->forced_got != r->forced.src)
            fprintf(out, " - warning: its history shows the forced receive took rank %d's "
                    "message, not rank %d's", r->forced_got, r->forced.src);
        fputc('\n', out);
    } else { /* mpirr's own line about the run says why */
        char dir[PATH_MAX], why[1024];
        explore_run_dir(cfg, i, dir, sizeof dir);
        explore_first_error(dir, why, sizeof why);
        fprintf(out, ": no recording (mpirr exit status %d%s%s)\n", r->out.mpirr_status,
                why[0] ? ": " : "", why);
    }
    fflush(out);

    fprintf(tsv, "%zu\t", i + 1);
    if (r->parent >= 0) {
        char v[32], o[32];
        explore_choice_value(&r->forced, 0, v, sizeof v);
        explore_choice_value(&r->forced, 1, o, sizeof o);
        fprintf(tsv, "%ld\t%d\t%" PRIu64 "\t%s\t%s\t%s\t", r->parent + 1, r->forced.rank,
                r->forced.event, r->forced.site, v, o);
    } else
        fputs("-\t-\t-\t-\t-\t-\t", tsv);
    if (r->out.recorded)
        fprintf(tsv, "%s\t%016" PRIx64 "\t%zu\n", ending, r->out.digest, r->racing);
    else
        fprintf(tsv, "%s\t-\t-\n", ending);
    fflush(tsv);
}

static int same_outcome(const struct explore_outcome *a, const struct explore_outcome *b)
{
    return explore_same_ending(a, b) && a->digest == b->digest;
}

size_t explore_report_outcomes(const struct explore_state *st, FILE *out)
{
    size_t distinct = 0;
    for (size_t i = 0; i < st->nruns; i++) {
        const struct explore_outcome *o = &st->runs[i].out;
        size_t first = i, count = 0;
        for (size_t j = 0; j < st->nruns; j++)
            if (st->runs[j].out.recorded && same_outcome(&st->runs[j].out, o)) {
                if (j < first)
                    first = j;
                count++;
            }
        if (!o->recorded || first != i)
            continue;
        if (!out) {
            distinct++;
            continue;
        }
        char ending[EXPLORE_ENDING_MAX];
        explore_ending_text(o, ending, sizeof ending);
        fprintf(out, "outcome %zu: %s, stdout %016" PRIx64 ": %zu run%s, first run %zu\n",
                ++distinct, ending, o->digest, count, plural(count), i + 1);
    }
    return distinct;
}

/* "0:14=3 at crash.c:52, 0:15=2 at crash.c:52": the choices forced on the way to run i. */
static void print_path(const struct explore_state *st, long i, FILE *out)
{
    long depth = st->runs[i].depth;
    long *chain = malloc((size_t)(depth > 0 ? depth : 1) * sizeof *chain);
    if (!chain) {
        fputs("(out of memory)", out);
        return;
    }
    long n = 0;
    for (long r = i; r >= 0 && st->runs[r].parent >= 0 && n < depth; r = st->runs[r].parent)
        chain[n++] = r;
    char choice[400];
    while (n-- > 0) {
        choice_text(&st->runs[chain[n]].forced, 0, choice, sizeof choice);
        fprintf(out, "%s%s", choice, n ? ", " : "");
    }
    free(chain);
}

int explore_exhausted(const struct explore_state *st)
{
    return st->failing < 0 && !st->interrupted && st->pending == 0 && st->nruns > 1;
}

void explore_report_summary(const struct explore_config *cfg, const struct explore_state *st,
                            FILE *out)
{
    size_t distinct = explore_report_outcomes(st, out);
    char first[EXPLORE_ENDING_MAX];
    explore_ending_text(&st->runs[0].out, first, sizeof first);
    /* an interrupted search says so first: its figures are those of a search cut short */
    const char *by = st->interrupted == SIGINT ? "interrupted by SIGINT after "
                     : st->interrupted == SIGTERM ? "interrupted by SIGTERM after "
                     : st->interrupted ? "interrupted by a signal after " : "";
    fprintf(out, "explore: %s%zu run%s, %zu distinct outcome%s; ", by, st->nruns,
            plural(st->nruns), distinct, plural(distinct));
    if (st->failing >= 0) {
        const struct explore_node *f = &st->runs[st->failing];
        char ending[EXPLORE_ENDING_MAX], dir[PATH_MAX];
        explore_ending_text(&f->out, ending, sizeof ending);
        explore_run_dir(cfg, (size_t)st->failing, dir, sizeof dir);
        fprintf(out, "run %ld ended otherwise (%s; run 1: %s) after forcing ", st->failing + 1,
                ending, first);
        print_path(st, st->failing, out);
        fprintf(out, "; its recording: %s\n", dir);
        return;
    }
    if (st->nruns == 1 && st->runs[0].racing == 0 && !st->interrupted) {
        fprintf(out, "0 racing receives: no other message order to force (run 1: %s)\n", first);
        return;
    }
    if (explore_exhausted(st)) { /* coverage: nothing within the bounds was left untried */
        fprintf(out, "all %zu order%s within depth %ld explored: no run failed (run 1: %s)",
                st->nruns, plural(st->nruns), cfg->depth, first);
        if (st->beyond_depth)
            fprintf(out, "; %zu more choice%s beyond --depth %ld", st->beyond_depth,
                    plural(st->beyond_depth), cfg->depth);
        fputc('\n', out);
        return;
    }
    fprintf(out, "no run ended otherwise than run 1 (%s); ", first);
    if (st->interrupted)
        fprintf(out, "%zu choice%s left unexplored", st->pending, plural(st->pending));
    else
        fprintf(out, "budget of %ld runs spent, %zu choice%s left", cfg->budget, st->pending,
                plural(st->pending));
    if (st->beyond_depth)
        fprintf(out, "; %zu more beyond --depth %ld", st->beyond_depth, cfg->depth);
    fputc('\n', out);
}
