/* race_outcomes_report.c: what `mpirr races --outcomes` prints: one verdict line per racing
 * receive, the summary line, or everything as one JSON object (docs/cli/races.md). */
#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include "explore_report.h"
#include "json.h"
#include "race_outcomes.h"

static const char *const verdict_names[] = {"untested", "benign", "harmful"};
static const char *const untested_names[] = {"budget", "interrupted", "no recording"};

static void run_dir(const struct outcomes_config *cfg, long run, char *buf, size_t n)
{
    snprintf(buf, n, "%s/run-%04ld", cfg->dir, run);
}

/* "exit 0, stdout 172e8e0ab9797cf4" */
static void ending_and_digest(const struct explore_outcome *o, char *buf, size_t n)
{
    char ending[EXPLORE_ENDING_MAX];
    explore_ending_text(o, ending, sizeof ending);
    snprintf(buf, n, "%s, stdout %016" PRIx64, ending, o->digest);
}

/* The alike tries of r (those that left a recording and ended as the recording did). */
static size_t alike_tries(const struct race_outcome *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ntries; i++)
        n += r->tries[i].alike;
    return n;
}

/* A try whose forced receive took another message than the forced one: said, not hidden. */
static void warn_not_forced(const struct race_outcome *r, FILE *out)
{
    for (size_t i = 0; i < r->ntries; i++) {
        const struct outcome_try *t = &r->tries[i];
        if (t->out.recorded && t->forced_got != t->src)
            fprintf(out, " - warning: run %ld's history shows the forced receive took %s%d's "
                         "message, not rank %d's", t->run, t->forced_got < 0 ? "no rank " : "rank ",
                    t->forced_got, t->src);
    }
}

void race_outcomes_line(const struct outcomes_config *cfg, const struct race_outcome *r,
                        FILE *out)
{
    fprintf(out, "rank %d event %" PRIu64 " (%s): ", r->recv.rank, r->recv.event, r->recv.site);
    size_t alike = alike_tries(r);
    if (r->verdict == VERDICT_BENIGN && alike == r->nalts) {
        fprintf(out, "benign (%zu alternative%s, all ended alike)", alike, alike == 1 ? "" : "s");
    } else if (r->verdict == VERDICT_BENIGN) {
        fprintf(out, "benign (%zu of %zu alternatives tried, all ended alike)", alike, r->nalts);
    } else if (r->verdict == VERDICT_HARMFUL) {
        const struct outcome_try *t = &r->tries[r->ntries - 1];
        char got[EXPLORE_ENDING_MAX + 32], dir[PATH_MAX + 16];
        ending_and_digest(&t->out, got, sizeof got);
        run_dir(cfg, t->run, dir, sizeof dir);
        fprintf(out, "harmful: forcing rank %d's message (the recording took rank %d's) ended "
                     "otherwise (%s); its recording: %s", t->src, r->recv.orig, got, dir);
    } else if (r->untested == UNTESTED_NO_RECORDING) {
        char dir[PATH_MAX + 16], why[1024];
        run_dir(cfg, r->tries[r->ntries - 1].run, dir, sizeof dir);
        explore_first_error(dir, why, sizeof why);
        fprintf(out, "untested (the flipped run left no recording%s%s: %s/stderr)",
                why[0] ? ": " : "", why, dir);
    } else {
        fprintf(out, "untested (%s)", untested_names[r->untested]);
    }
    warn_not_forced(r, out);
    fputc('\n', out);
}

void race_outcomes_summary(const struct outcomes_config *cfg, const struct race_outcomes *ro,
                           FILE *out)
{
    char base[EXPLORE_ENDING_MAX + 32]; /* read once there was a receive to force */
    if (ro->replayed)
        ending_and_digest(&ro->base, base, sizeof base);
    else
        explore_ending_text(&ro->base, base, sizeof base);
    fprintf(out, "races --outcomes: ");
    if (ro->interrupted)
        fprintf(out, "interrupted by SIG%s after %ld run%s; ", sigabbrev_np(ro->interrupted),
                ro->runs, ro->runs == 1 ? "" : "s");
    if (!ro->nraces)
        fprintf(out, "0 racing receives with an alternative a flip can force: no other message "
                     "order to try");
    else
        fprintf(out, "%zu racing receive%s: %zu benign, %zu harmful, %zu untested; %ld flipped "
                     "run%s in %s", ro->nraces, ro->nraces == 1 ? "" : "s", ro->benign,
                ro->harmful, ro->untested, ro->runs, ro->runs == 1 ? "" : "s", cfg->dir);
    if (ro->unforceable)
        fprintf(out, "; %zu more a flip cannot force", ro->unforceable);
    if (ro->nraces)
        fprintf(out, " (the recording: %s)", base);
    fputc('\n', out);
}

static void json_receive(struct json *j, const struct outcomes_config *cfg,
                         const struct race_outcome *r)
{
    json_object_begin(j, NULL);
    json_int(j, "rank", r->recv.rank);
    json_uint(j, "event", r->recv.event);
    json_string(j, "site", r->recv.site);
    json_int(j, "taken", r->recv.orig);
    json_array_begin(j, "alternatives");
    for (size_t i = 0; i < r->nalts; i++)
        json_int(j, NULL, r->alts[i].src);
    json_array_end(j);
    json_string(j, "verdict", verdict_names[r->verdict]);
    json_string(j, "untested",
                r->verdict == VERDICT_UNTESTED ? untested_names[r->untested] : NULL);
    json_array_begin(j, "runs");
    for (size_t i = 0; i < r->ntries; i++) {
        const struct outcome_try *t = &r->tries[i];
        char dir[PATH_MAX + 16];
        run_dir(cfg, t->run, dir, sizeof dir);
        json_object_begin(j, NULL);
        json_int(j, "source", t->src);
        json_int(j, "run", t->run);
        json_string(j, "recording", dir);
        json_bool(j, "recorded", t->out.recorded);
        json_int(j, "forced_got", t->forced_got);
        json_bool(j, "alike", t->alike);
        explore_json_outcome(j, "outcome", &t->out);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

void race_outcomes_json(const struct outcomes_config *cfg, const struct race_outcomes *ro,
                        FILE *out)
{
    struct json j;
    json_init(&j, out);
    json_object_begin(&j, NULL);
    json_string(&j, "recording", ro->recdir);
    json_string(&j, "output", cfg->dir);
    json_int(&j, "budget", cfg->budget);
    json_int(&j, "per_race", cfg->per_race);
    json_int(&j, "runs", ro->runs);
    if (ro->replayed)
        explore_json_outcome(&j, "recorded", &ro->base);
    else
        json_null(&j, "recorded");
    json_array_begin(&j, "receives");
    for (size_t i = 0; i < ro->nraces; i++)
        json_receive(&j, cfg, &ro->races[i]);
    json_array_end(&j);
    json_uint(&j, "unforceable", ro->unforceable);
    json_uint(&j, "benign", ro->benign);
    json_uint(&j, "harmful", ro->harmful);
    json_uint(&j, "untested", ro->untested);
    if (ro->interrupted)
        json_string(&j, "interrupted", ro->interrupted == SIGINT ? "SIGINT" : "SIGTERM");
    else
        json_null(&j, "interrupted");
    json_object_end(&j);
    fputc('\n', out);
}
