/* race_outcomes.c: the runs of `mpirr races --outcomes` (race_outcomes.h): the recording's
 * racing receives grouped from explore's list of forceable choices, one replay of the
 * recording for the digest of its stdout, and one `mpirr replay --flip` run (explore_run) per
 * alternative tried, each compared with the recording. */
#include "race_outcomes.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "recording.h"
#include "reserve.h"

/* A recording must log every wildcard match for a flip to replay up to its cut; its absolute
 * path goes to abs. */
static int check_mode(const char *dir, char *abs, size_t n)
{
    struct recording r;
    int rc = recording_open(dir, &r);
    if (rc)
        return rc;
    if (strcmp(r.m.mode, "sources") && strcmp(r.m.mode, "all")) {
        cli_error("races --outcomes: %s was recorded in %s mode, whose replay does not log every "
                  "wildcard match; force the races of a recording made with --mode sources or "
                  "all (and --events)", dir, r.m.mode);
        rc = CLI_EXIT_USAGE;
    }
    snprintf(abs, n, "%s", r.dir);
    recording_close(&r);
    return rc;
}

int race_outcomes_load(const struct outcomes_config *cfg, struct race_outcomes *ro)
{
    memset(ro, 0, sizeof *ro);
    int rc = check_mode(cfg->recording, ro->recdir, sizeof ro->recdir);
    if (!rc)
        rc = explore_choices_find(ro->recdir, NULL, 0, NULL, EXPLORE_CHOICES_RECEIVES,
                                  &ro->choices);
    if (rc)
        return rc;
    const struct explore_choices *ch = &ro->choices;
    ro->races = ch->n ? calloc(ch->n, sizeof *ro->races) : NULL;
    if (ch->n && !ro->races) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    /* the choices come earliest receive first, a receive's alternatives together */
    for (size_t i = 0; i < ch->n; i++) {
        const struct explore_choice *c = &ch->list[i];
        struct race_outcome *last = ro->nraces ? &ro->races[ro->nraces - 1] : NULL;
        if (last && last->recv.rank == c->rank && last->recv.event == c->event) {
            last->nalts++;
            continue;
        }
        struct race_outcome *r = &ro->races[ro->nraces++];
        r->recv = *c;
        r->alts = c;
        r->nalts = 1;
    }
    /* (racing counts receives; the races here may include racing probes too) */
    ro->unforceable = ch->racing > ro->nraces ? ch->racing - ro->nraces : 0;
    return 0;
}

/* The words of `mpirr replay [--flip SPEC -o RUNDIR] [--mpi M] [--noise US] RECDIR [-- CMD]`
 * (flip NULL: the plain replay); words has room for 16 + argc entries. */
static void replay_words(const struct outcomes_config *cfg, const char *recdir, const char *flip,
                         const char *rundir, char **words)
{
    int n = 0;
    words[n++] = "/proc/self/exe"; /* mpirr itself, whatever its name or installation */
    words[n++] = "replay";
    if (flip) {
        words[n++] = "--flip";
        words[n++] = (char *)flip;
        words[n++] = "-o";
        words[n++] = (char *)rundir;
        if (cfg->noise)
            words[n++] = "--noise", words[n++] = (char *)cfg->noise;
    }
    if (cfg->mpi)
        words[n++] = "--mpi", words[n++] = (char *)cfg->mpi;
    words[n++] = (char *)recdir;
    if (cfg->argc) { /* else the recorded command, as replay vouches for it */
        words[n++] = "--";
        for (int i = 0; i < cfg->argc; i++)
            words[n++] = cfg->argv[i];
    }
    words[n] = NULL;
}

/* Runs the replay (flip NULL) or a flip into rundir. 0, or an exit status after one line. */
static int run_one(const struct outcomes_config *cfg, const struct race_outcomes *ro,
                   const char *flip, const char *rundir, double limit,
                   struct explore_outcome *out)
{
    char **words = malloc(((size_t)cfg->argc + 16) * sizeof *words);
    if (!words) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    replay_words(cfg, ro->recdir, flip, rundir, words);
    int rc = explore_run(words, rundir, limit, out);
    free(words);
    return rc ? CLI_EXIT_FAIL : 0;
}

/* The recording's own ending (its manifest and rank logs) and, from one replay of it into
 * OUTDIR/replay, the digest of its stdout: what every flipped run is compared with. */
static int baseline(const struct outcomes_config *cfg, struct race_outcomes *ro)
{
    explore_read_ending(ro->recdir, &ro->base);
    if (!ro->base.recorded) {
        cli_error("races --outcomes: the rank logs of %s cannot be read (mpirr replay %s says "
                  "why)", cfg->recording, cfg->recording);
        return CLI_EXIT_USAGE;
    }
    char rundir[PATH_MAX + 16];
    snprintf(rundir, sizeof rundir, "%s/replay", cfg->dir);
    if (mkdir(rundir, 0777) != 0) {
        cli_error("cannot create %s: %s", rundir, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    struct explore_outcome rep;
    int rc = run_one(cfg, ro, NULL, rundir, cfg->timeout, &rep);
    if (rc)
        return rc;
    if ((ro->interrupted = rep.interrupted))
        return 0;
    if (rep.timed_out || rep.mpirr_status != ro->base.status) {
        char why[1024];
        explore_first_error(rundir, why, sizeof why);
        cli_error("races --outcomes: the replay of %s %s, not as recorded (exit %d)%s%s: its "
                  "output cannot stand for the recording's (%s/stderr)", cfg->recording,
                  rep.timed_out ? "did not end in time" : "ended otherwise", ro->base.status,
                  why[0] ? ": " : "", why, rundir);
        return CLI_EXIT_USAGE;
    }
    ro->base.digest = rep.digest;
    ro->base.seconds = rep.seconds;
    ro->replayed = 1;
    return 0;
}

/* The sender the forced receive took in the flipped run, from its event history: checked,
 * not trusted. -1 if not known. */
static int forced_taken(const char *rundir, const struct explore_choice *alt)
{
    struct explore_choices ch;
    if (explore_choices_find(rundir, NULL, 0, alt, EXPLORE_CHOICES_RECEIVES, &ch))
        return -1;
    int got = ch.forced_got;
    explore_choices_free(&ch);
    return got;
}

/* Forces alternative alt of r into the next OUTDIR/run-NNNN. */
static int try_alternative(const struct outcomes_config *cfg, struct race_outcomes *ro,
                           struct race_outcome *r, const struct explore_choice *alt)
{
    struct outcome_try *t = &r->tries[r->ntries];
    memset(t, 0, sizeof *t);
    t->src = alt->src;
    t->run = ++ro->runs;
    t->forced_got = -1;
    char rundir[PATH_MAX + 16], flip[96];
    snprintf(rundir, sizeof rundir, "%s/run-%04ld", cfg->dir, t->run);
    snprintf(flip, sizeof flip, "%d:%" PRIu64 "=%d", alt->rank, alt->event, alt->src);
    int rc = run_one(cfg, ro, flip, rundir, explore_flip_limit(cfg->timeout, ro->base.seconds),
                     &t->out);
    if (rc)
        return rc;
    r->ntries++;
    if ((ro->interrupted = t->out.interrupted))
        return 0;
    if (t->out.recorded)
        t->forced_got = forced_taken(rundir, alt);
    t->alike = t->out.recorded && explore_same_ending(&ro->base, &t->out) &&
               t->out.digest == ro->base.digest;
    return 0;
}

/* The verdict of r from its tries: one that ended otherwise makes it harmful; else every
 * alternative that left a recording ended alike (benign), or none did (untested). */
static void judge(const struct race_outcomes *ro, struct race_outcome *r)
{
    size_t recorded = 0;
    for (size_t i = 0; i < r->ntries; i++) {
        const struct outcome_try *t = &r->tries[i];
        if (t->out.interrupted)
            continue; /* never taken for a run that ended otherwise */
        if (t->out.recorded && !t->alike) {
            r->verdict = VERDICT_HARMFUL;
            return;
        }
        recorded += t->out.recorded;
    }
    if (recorded) {
        r->verdict = VERDICT_BENIGN;
        return;
    }
    r->verdict = VERDICT_UNTESTED;
    r->untested = ro->interrupted ? UNTESTED_INTERRUPTED
                  : r->ntries     ? UNTESTED_NO_RECORDING
                                  : UNTESTED_BUDGET;
}

int race_outcomes_run(const struct outcomes_config *cfg, struct race_outcomes *ro,
                      FILE *progress)
{
    int rc = ro->nraces ? baseline(cfg, ro) : 0;
    for (size_t i = 0; i < ro->nraces && !rc; i++) {
        struct race_outcome *r = &ro->races[i];
        r->tries = calloc(r->nalts, sizeof *r->tries);
        if (!r->tries) {
            cli_error("out of memory");
            return CLI_EXIT_FAIL;
        }
        for (size_t k = 0; k < r->nalts && (long)k < cfg->per_race && !rc; k++) {
            if (ro->interrupted || ro->runs >= cfg->budget)
                break;
            rc = try_alternative(cfg, ro, r, &r->alts[k]);
            if (!rc && r->tries[r->ntries - 1].out.recorded && !r->tries[r->ntries - 1].alike &&
                !ro->interrupted)
                break; /* harmful: one differing run is the answer */
        }
        judge(ro, r);
        ro->benign += r->verdict == VERDICT_BENIGN;
        ro->harmful += r->verdict == VERDICT_HARMFUL;
        ro->untested += r->verdict == VERDICT_UNTESTED;
        if (!rc)
            race_outcomes_line(cfg, r, progress);
    }
    return rc;
}

void race_outcomes_free(struct race_outcomes *ro)
{
    for (size_t i = 0; i < ro->nraces; i++)
        free(ro->races[i].tries);
    free(ro->races);
    explore_choices_free(&ro->choices);
    memset(ro, 0, sizeof *ro);
}
