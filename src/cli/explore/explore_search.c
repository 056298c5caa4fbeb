/* explore_search.c: the search over forced choices (explore_search.h): each run offers the
 * alternatives of the racing receives it decided itself to the frontier, which the strategy
 * (explore_strategy.c) orders; a set of flips reached twice is run once. */
#include "explore_search.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "explore_report.h"
#include "reserve.h"

struct search {
    const struct explore_config *cfg;
    struct explore_state *st;
    struct explore_frontier frontier;
    char **keys; /* the flip sets explored (dedup_key) */
    size_t nkeys, capkeys;
};

/* The set of choices forced along the way to a new run (its parent's and c), as one string:
 * two ways to the same set of flips (one receive forced first, or the other) give one run. */
static char *dedup_key(const struct search *s, long parent, const struct explore_choice *c)
{
    long depth = parent >= 0 ? s->st->runs[parent].depth + 1 : 1;
    struct explore_choice *set = malloc((size_t)depth * sizeof *set);
    char *key = set ? malloc((size_t)depth * 64 + 1) : NULL;
    if (!key) {
        free(set);
        return NULL;
    }
    size_t n = 0;
    set[n++] = *c;
    for (long r = parent; r >= 0 && s->st->runs[r].parent >= 0; r = s->st->runs[r].parent)
        set[n++] = s->st->runs[r].forced;
    qsort(set, n, sizeof *set, explore_choice_order); /* any fixed order will do */
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        char v[32];
        explore_choice_value(&set[i], 0, v, sizeof v);
        len += (size_t)sprintf(key + len, "%d:%" PRIu64 "=%s,", set[i].rank, set[i].event, v);
    }
    free(set);
    return key;
}

/* 1 if key was new (and is kept), 0 if seen, -1 out of memory (key freed either way unless
 * kept). */
static int remember(struct search *s, char *key)
{
    for (size_t i = 0; i < s->nkeys; i++)
        if (strcmp(s->keys[i], key) == 0) {
            free(key);
            return 0;
        }
    if (mpirr_reserve((void **)&s->keys, &s->capkeys, s->nkeys + 1, sizeof *s->keys)) {
        free(key);
        return -1;
    }
    s->keys[s->nkeys++] = key;
    return 1;
}

/* The command line of the run: mpirr record for the first, mpirr replay --flip for the others.
 * words has room for 16 + argc entries. */
static void child_words(const struct search *s, const struct explore_pending *p, const char *rundir,
                        char *flip, size_t flipn, char *parentdir, size_t parentn, char **words)
{
    const struct explore_config *cfg = s->cfg;
    int n = 0;
    words[n++] = "/proc/self/exe"; /* mpirr itself, whatever its name or installation */
    if (!p) {
        words[n++] = "record";
        words[n++] = "--events";
    } else {
        char v[32];
        explore_choice_value(&p->c, 0, v, sizeof v);
        snprintf(flip, flipn, "%d:%" PRIu64 "=%s", p->c.rank, p->c.event, v);
        explore_run_dir(cfg, (size_t)p->parent, parentdir, parentn);
        words[n++] = "replay";
        words[n++] = "--flip";
        words[n++] = flip;
    }
    words[n++] = "-o";
    words[n++] = (char *)rundir;
    if (cfg->mpi)
        words[n++] = "--mpi", words[n++] = (char *)cfg->mpi;
    if (cfg->noise)
        words[n++] = "--noise", words[n++] = (char *)cfg->noise;
    if (p)
        words[n++] = parentdir;
    /* the command as given, here: a flip then runs what the first run ran, where it ran it */
    words[n++] = "--";
    for (int i = 0; i < cfg->argc; i++)
        words[n++] = cfg->argv[i];
    words[n] = NULL;
}

/* Offers the run's choices to the frontier, unless --depth forbids. */
static int push_choices(struct search *s, long run, const struct explore_choices *ch)
{
    struct explore_node *node = &s->st->runs[run];
    if (node->depth >= s->cfg->depth) {
        s->st->beyond_depth += ch->n;
        return 0;
    }
    return explore_frontier_offer(&s->frontier, run, node->cost, ch);
}

/* Runs one (the first if p is NULL), reports it, and offers its choices. 0, or an exit status
 * after a message: the first run could not be explored, or memory ran out. */
static int explore_one(struct search *s, const struct explore_pending *p, FILE *out, FILE *tsv)
{
    struct explore_state *st = s->st;
    if (mpirr_reserve((void **)&st->runs, &st->cap, st->nruns + 1, sizeof *st->runs)) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    size_t i = st->nruns++;
    struct explore_node *node = &st->runs[i];
    memset(node, 0, sizeof *node);
    node->parent = p ? p->parent : -1;
    if (p) {
        node->forced = p->c;
        node->depth = st->runs[p->parent].depth + 1;
        node->cost = p->cost;
    }
    char rundir[PATH_MAX], flip[96], parentdir[PATH_MAX];
    explore_run_dir(s->cfg, i, rundir, sizeof rundir);
    char **words = malloc(((size_t)s->cfg->argc + 16) * sizeof *words);
    if (!words) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    child_words(s, p, rundir, flip, sizeof flip, parentdir, sizeof parentdir, words);
    /* --timeout for every run; else a flip gets explore_flip_limit: a run still going by then
     * is taken for hung, an outcome of its own. */
    double limit = p ? explore_flip_limit(s->cfg->timeout, st->runs[0].out.seconds)
                     : s->cfg->timeout;
    int rc = explore_run(words, rundir, limit, &node->out);
    free(words);
    if (rc)
        return CLI_EXIT_FAIL;
    st->interrupted = node->out.interrupted; /* ^C: the search ends with this run */

    struct explore_choices ch = {.forced_got = -1};
    uint64_t *cut = NULL;
    int ncut = 0;
    if (node->out.recorded && (!p || explore_read_cut(rundir, &cut, &ncut) == 0)) {
        /* the forced receive itself is the flip's, not a new choice of this run */
        if (p && p->c.rank < ncut && cut[p->c.rank] < p->c.event)
            cut[p->c.rank] = p->c.event;
        rc = explore_choices_find(rundir, cut, ncut, p ? &p->c : NULL, EXPLORE_CHOICES_ALL, &ch);
    }
    free(cut);
    node->racing = ch.racing;
    node->offered = ch.n;
    node->forced_got = ch.forced_got;
    explore_report_run(s->cfg, st, i, out, tsv);
    if (!p && !node->out.recorded && !st->interrupted) {
        char why[1024];
        explore_first_error(rundir, why, sizeof why);
        cli_error("explore: the first run of the command left no recording%s%s (%s/stderr): "
                  "COMMAND must run an MPI program mpirr can record (mpirr record)",
                  why[0] ? ": " : "", why, rundir);
        return CLI_EXIT_USAGE;
    }
    if (!p && rc)
        return rc; /* the first run has no event history to explore: said */
    if (!rc && push_choices(s, (long)i, &ch)) {
        cli_error("out of memory");
        rc = CLI_EXIT_FAIL;
    } else {
        rc = 0;
    }
    explore_choices_free(&ch);
    return rc;
}

int explore_search(const struct explore_config *cfg, struct explore_state *st, FILE *out,
                   FILE *tsv)
{
    memset(st, 0, sizeof *st);
    st->failing = -1;
    struct search s = {.cfg = cfg, .st = st};
    explore_frontier_init(&s.frontier, cfg->strategy, cfg->seed);
    int rc = explore_one(&s, NULL, out, tsv);
    struct explore_pending p;
    while (!rc && !st->interrupted && st->nruns < (size_t)cfg->budget &&
           (cfg->all || st->failing < 0) && explore_frontier_take(&s.frontier, &p)) {
        char *key = dedup_key(&s, p.parent, &p.c);
        int fresh = key ? remember(&s, key) : -1;
        if (fresh < 0) {
            cli_error("out of memory");
            rc = CLI_EXIT_FAIL;
            break;
        }
        if (!fresh) {
            st->duplicates++;
            continue;
        }
        rc = explore_one(&s, &p, out, tsv);
        struct explore_node *node = &st->runs[st->nruns - 1];
        if (!rc && st->failing < 0 && node->out.recorded && !node->out.interrupted &&
            !explore_same_ending(&st->runs[0].out, &node->out))
            st->failing = (long)st->nruns - 1;
    }
    st->pending = s.frontier.n;
    explore_frontier_free(&s.frontier);
    for (size_t i = 0; i < s.nkeys; i++)
        free(s.keys[i]);
    free(s.keys);
    return rc;
}
