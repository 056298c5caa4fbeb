/* races_report.c: runs the race analyses on a loaded recording and sums them up for the races
 * and stat commands (races_report.h). */
#include "races_report.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "mono_clock.h"
#include "opts.h"
#include "rank_log.h"
#include "record.h"
#include "rank_ending.h"

static int by_u64(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return *x < *y ? -1 : *x > *y;
}

int races_logged_has(const struct races_logged *l, int rank, uint64_t event)
{
    if (!l->known || !l->events || !l->events[rank]) return 0;
    return bsearch(&event, l->events[rank], l->n[rank], sizeof event, by_u64) != NULL;
}

/* The receives whose outcome a races-mode recording logged (MATCH and RECV_DONE records). */
static int read_logged(struct analysis *a, struct races_logged *l)
{
    memset(l, 0, sizeof *l);
    if (strcmp(a->rec.m.mode, "races")) return 0;
    int n = a->run->nranks;
    l->events = calloc((size_t)n, sizeof *l->events);
    l->n = calloc((size_t)n, sizeof *l->n);
    if (!l->events || !l->n) return -1;
    l->nranks = n;
    l->known = 1;
    for (int p = 0; p < n; p++) {
        size_t nk;
        struct log_key *k = recording_log_keys(a->rec.dir, p, &nk);
        if (nk == SIZE_MAX) {
            l->known = 0; /* reported */
            continue;
        }
        l->events[p] = malloc((nk ? nk : 1) * sizeof **l->events);
        if (!l->events[p]) {
            free(k);
            return -1;
        }
        for (size_t i = 0; i < nk; i++)
            if (k[i].kind == MPIRR_REC_MATCH || k[i].kind == MPIRR_REC_RECV_DONE)
                l->events[p][l->n[p]++] = k[i].event;
        l->total += l->n[p];
        free(k);
    }
    return 0;
}

static int by_count(const void *a, const void *b)
{
    const struct race_site *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Groups the racing receives by source line (the same line on every rank is one site). */
static int group_sites(struct analysis *a, struct races_report *rep)
{
    const an_races *r = &rep->r;
    rep->site_of = malloc((r->nraces + 1) * sizeof *rep->site_of);
    rep->sites = malloc((r->nraces + 1) * sizeof *rep->sites);
    if (!rep->site_of || !rep->sites) return -1;
    for (size_t i = 0; i < r->nraces; i++) {
        const an_op *o = &a->run->ranks[r->races[i].rank].ops[r->races[i].op];
        char name[600];
        analysis_site(a, r->races[i].rank, o->site, name, sizeof name);
        size_t s = 0;
        while (s < rep->nsites && (strcmp(rep->sites[s].name, name) || rep->sites[s].call != o->call)) s++;
        if (s == rep->nsites) {
            rep->nsites++;
            snprintf(rep->sites[s].name, sizeof rep->sites[s].name, "%s", name);
            rep->sites[s].call = o->call;
            rep->sites[s].count = 0;
        }
        rep->sites[s].count++;
        rep->site_of[i] = s;
    }
    /* most racing first; site_of follows each site to its new place */
    for (size_t s = 0; s < rep->nsites; s++) rep->sites[s].orig = s;
    qsort(rep->sites, rep->nsites, sizeof *rep->sites, by_count);
    size_t *place = malloc((rep->nsites + 1) * sizeof *place);
    if (!place) return -1;
    for (size_t s = 0; s < rep->nsites; s++) place[rep->sites[s].orig] = s;
    for (size_t i = 0; i < r->nraces; i++) rep->site_of[i] = place[rep->site_of[i]];
    free(place);
    return 0;
}

/* Receives both methods call racing, and those only one does (both lists are in rank, post
 * order). */
static void compare(struct races_report *rep)
{
    const an_races *r = &rep->r;
    size_t i = 0, k = 0;
    while (i < r->nraces || k < r->nch) {
        int c;
        if (i == r->nraces) c = 1;
        else if (k == r->nch) c = -1;
        else if (r->races[i].rank != r->ch[k].rank) c = r->races[i].rank < r->ch[k].rank ? -1 : 1;
        else c = r->races[i].op < r->ch[k].op ? -1 : r->races[i].op > r->ch[k].op;
        if (c == 0) rep->agree++, i++, k++;
        else if (c < 0) rep->precise_only++, i++;
        else rep->ch_only++, k++;
    }
}

int races_report_build(struct analysis *a, struct races_report *rep)
{
    memset(rep, 0, sizeof *rep);
    const an_run *run = a->run;
    rep->events = run->events;
    rep->nmsgs = run->nmsgs;
    rep->unmatched_recvs = run->unmatched_recvs;
    rep->unmatched_sends = run->unmatched_sends;
    rep->hb_unresolved = run->hb_unresolved;
    rep->load_s = a->load_s;
    rep->match_s = a->match_s;
    rep->hb_s = a->hb_s;
    double t0 = mono_seconds();
    if (an_find_races(run, &rep->r)) return -1;
    double t1 = mono_seconds();
    if (an_chu_huang(run, &rep->r)) return -1;
    double t2 = mono_seconds();
    if (an_optimal_trace(run, &rep->r, &rep->cover)) return -1;
    double t3 = mono_seconds();
    rep->races_s = t1 - t0;
    rep->ch_s = t2 - t1;
    rep->cover_s = t3 - t2;
    compare(rep);
    return 0;
}

int races_report_details(struct analysis *a, struct races_report *rep)
{
    return read_logged(a, &rep->logged) || group_sites(a, rep) ? -1 : 0;
}

void races_report_free(struct races_report *rep)
{
    an_races_free(&rep->r);
    if (rep->logged.events)
        for (int p = 0; p < rep->logged.nranks; p++) free(rep->logged.events[p]);
    free(rep->logged.events);
    free(rep->logged.n);
    free(rep->sites);
    free(rep->site_of);
    memset(rep, 0, sizeof *rep);
}

/* "optimal", "within 46% of optimal", or "" when the optimum is unknown. */
static void versus_optimal(char *buf, size_t n, uint64_t traced, const an_cover *c)
{
    if (c->min_cover < 0) {
        snprintf(buf, n, "the optimum is between %llu and %llu", (unsigned long long)c->matching,
                 (unsigned long long)(2 * c->matching));
    } else if ((int64_t)traced <= c->min_cover) {
        snprintf(buf, n, "optimal");
    } else if (c->min_cover == 0) {
        snprintf(buf, n, "the optimum is 0: no message races");
    } else {
        snprintf(buf, n, "within %.0f%% of optimal",
                 c->min_cover ? 100.0 * ((double)traced - (double)c->min_cover) / (double)c->min_cover : 100.0);
    }
}

static double rate(uint64_t events, double s) { return s > 0 ? (double)events / s : 0; }

void races_report_text_summary(const struct races_report *rep, FILE *f)
{
    const an_races *r = &rep->r;
    const an_cover *c = &rep->cover;
    fprintf(f, "\npost-mortem analysis of the event history (mpirr races)\n");
    fprintf(f, "matched     %llu messages", (unsigned long long)rep->nmsgs - rep->unmatched_sends);
    if (rep->unmatched_sends) fprintf(f, ", %llu never received", (unsigned long long)rep->unmatched_sends);
    if (rep->unmatched_recvs) fprintf(f, ", %llu receives whose message was never sent", (unsigned long long)rep->unmatched_recvs);
    fprintf(f, "\nracing      %zu of %llu wildcard receives could have got another message; %llu messages race (%zu pairs)\n",
            r->nraces, (unsigned long long)r->wildcard_recvs, (unsigned long long)c->vertices, (size_t)c->edges);
    fprintf(f, "chu-huang   %zu receives race by reachable sets (%llu tasks, %llu control points): "
               "%llu agree, %llu only here, %llu only there\n",
            r->nch, (unsigned long long)r->ch_tasks, (unsigned long long)r->ch_control_points,
            (unsigned long long)rep->agree, (unsigned long long)rep->precise_only,
            (unsigned long long)rep->ch_only);
    char buf[128];
    if (c->min_cover >= 0)
        fprintf(f, "optimal     %lld messages must be traced (minimum vertex cover; maximal-matching bound %llu)\n",
                (long long)c->min_cover, (unsigned long long)c->matching);
    else
        fprintf(f, "optimal     at least %llu messages must be traced (maximal matching; the race graph is too large for the exact cover)\n",
                (unsigned long long)c->matching);
    versus_optimal(buf, sizeof buf, r->on_the_fly, c);
    fprintf(f, "on-the-fly  Netzer & Miller's algorithm would trace %llu (%s)\n",
            (unsigned long long)r->on_the_fly, buf);
    if (rep->logged.known) {
        versus_optimal(buf, sizeof buf, rep->logged.total, c);
        fprintf(f, "recorded    the races-mode recording logged %llu receives (%s)\n",
                (unsigned long long)rep->logged.total, buf);
    }
    double core = rep->match_s + rep->hb_s + rep->races_s;
    fprintf(f, "analysis    %llu events: read %.3f s, matching + happened-before + races %.3f s "
               "(%.2f M events/s), chu-huang %.3f s, cover %.3f s\n",
            (unsigned long long)rep->events, rep->load_s, core, rate(rep->events, core) / 1e6,
            rep->ch_s, rep->cover_s);
    if (rep->hb_unresolved)
        fprintf(f, "warning     %llu operations wait for something the trace does not hold (cut-off "
                   "or inconsistent histories); they were left unordered\n",
                (unsigned long long)rep->hb_unresolved);
}

void races_report_json_summary(const struct races_report *rep, struct json *j, const char *key)
{
    const an_races *r = &rep->r;
    const an_cover *c = &rep->cover;
    json_object_begin(j, key);
    json_uint(j, "events", rep->events);
    json_uint(j, "messages", rep->nmsgs);
    json_uint(j, "unreceived_sends", rep->unmatched_sends);
    json_uint(j, "unmatched_receives", rep->unmatched_recvs);
    json_uint(j, "wildcard_receives", r->wildcard_recvs);
    json_uint(j, "racing_receives", r->nraces);
    json_uint(j, "racing_messages", c->vertices);
    json_uint(j, "race_edges", c->edges);
    json_uint(j, "matching_lower_bound", c->matching);
    if (c->min_cover >= 0) json_int(j, "min_cover", c->min_cover);
    else json_null(j, "min_cover");
    json_uint(j, "on_the_fly", r->on_the_fly);
    if (rep->logged.known) json_uint(j, "logged", rep->logged.total);
    else json_null(j, "logged");
    json_object_begin(j, "chu_huang");
    json_uint(j, "racing_receives", r->nch);
    json_uint(j, "tasks", r->ch_tasks);
    json_uint(j, "control_points", r->ch_control_points);
    json_uint(j, "agree", rep->agree);
    json_uint(j, "precise_only", rep->precise_only);
    json_uint(j, "chu_huang_only", rep->ch_only);
    json_object_end(j);
    json_uint(j, "hb_unresolved", rep->hb_unresolved);
    json_object_begin(j, "seconds");
    json_double(j, "read", rep->load_s);
    json_double(j, "matching", rep->match_s);
    json_double(j, "happened_before", rep->hb_s);
    json_double(j, "races", rep->races_s);
    json_double(j, "chu_huang", rep->ch_s);
    json_double(j, "cover", rep->cover_s);
    json_object_end(j);
    json_double(j, "events_per_second", rate(rep->events, rep->match_s + rep->hb_s + rep->races_s));
    json_object_end(j);
}

/* Ended by the program's own doing: a fault or abort() (a signal it raised, not one sent to it),
 * MPI_Abort, or exit() without MPI_Finalize. */
static int died_by_itself(int ending, int detail)
{
    return ending == MPIRR_END_ABORT || ending == MPIRR_END_EXIT ||
           (ending == MPIRR_END_SIGNAL && !mpirr_ending_is_external(ending, detail));
}

/* The crash: the first rank, in rank order, that died by itself, at the last event it began
 * (the tail of its log holds how it ended, readable without reading the log through). A log
 * that does not open is passed over silently: races analyses the event history, and `mpirr
 * stat` reports damaged logs. 0 if no rank crashed. */
static int find_crash(struct analysis *a, struct races_near *n)
{
    for (int rank = 0; rank < a->rec.m.nranks; rank++) {
        char path[PATH_MAX + 32], err[1024];
        recording_log_path(path, sizeof path, a->rec.dir, rank);
        mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
        if (!rd) continue;
        struct rank_ending rs = {.readable = 1};
        rs.ending = mpirr_log_reader_ending(rd, &rs.detail);
        uint64_t events = mpirr_log_reader_events(rd);
        int in_call = mpirr_log_reader_in_call(rd);
        mpirr_log_reader_close(rd);
        if (!died_by_itself(rs.ending, rs.detail) || events == 0) continue;
        if (n->crashed++) continue;
        n->rank = rank;
        n->event = events;
        n->in_call = in_call;
        rank_ending_text(&rs, n->ending, sizeof n->ending);
    }
    return n->crashed > 0;
}

int races_near_parse(const char *spec, struct races_near *n)
{
    memset(n, 0, sizeof *n);
    n->asked = spec != NULL;
    n->crash = !spec || !strcmp(spec, "crash");
    if (!n->crash && (opt_rank_event(spec, &n->rank, &n->event) || n->event == 0)) {
        cli_error("races: --near needs RANK:EVENT (e.g. 3:1207) or crash, not '%s'", spec);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int races_report_near(struct analysis *a, const struct races_report *rep, struct races_near *n)
{
    char err[1200];
    if (n->crash && !find_crash(a, n)) {
        if (!n->asked) return 0;
        cli_error("races: --near crash: no rank of %s died by itself (a fault, abort(), "
                  "MPI_Abort or exit without MPI_Finalize); `mpirr stat` shows how each rank "
                  "ended", a->rec.name);
        return CLI_EXIT_USAGE;
    }
    if (!n->crash && an_point_check(a->run, n->rank, n->event, err, sizeof err)) {
        cli_error("races: --near %d:%llu: %s", n->rank, (unsigned long long)n->event, err);
        return CLI_EXIT_USAGE;
    }
    size_t nr = rep->r.nraces;
    n->order = malloc((nr + 1) * sizeof *n->order);
    n->distance = malloc((nr + 1) * sizeof *n->distance);
    if (!n->order || !n->distance ||
        an_near(a->run, rep->r.races, nr, n->rank, n->event, n->order, n->distance, &n->nbefore)) {
        cli_error("out of memory ordering the races of %s", a->rec.name);
        return CLI_EXIT_FAIL;
    }
    n->active = 1;
    return 0;
}

void races_near_free(struct races_near *n)
{
    free(n->order);
    free(n->distance);
    memset(n, 0, sizeof *n);
}
