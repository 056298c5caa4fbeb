/* cmd_races.c: `mpirr races DIR [--json] [--all] [--near R:E|crash]`: every potential message
 * race of a recorded run (record --events), grouped by the call site of the racing receive
 * (then the racing probes, which could have seen another message),
 * most racing first, with source lines, or ordered by happened-before distance to an event
 * (the crash by default); Chu & Huang's method beside it; the race graph's optimal trace
 * against what on-the-fly tracing logs; with --outcomes, which races matter
 * (explore/race_outcomes_cmd.c). docs/cli/races.md. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_load.h"
#include "analysis_mpi.h"
#include "call_ids.h"
#include "commands.h"
#include "diag.h"
#include "json.h"
#include "opts.h"
#include "race_outcomes.h"
#include "record.h"
#include "races_report.h"
#include "rma_report.h"
#include "text_escape.h"

enum { OPT_JSON, OPT_ALL, OPT_NEAR, OPT_MPI };

/* Racing receives listed per site, or per group (before the --near event, not before) there. */
enum { SHOWN = 5, SHOWN_NEAR = 10 };

static const struct cli_opt races_opts[] = {
    {"json", 0, 0, OPT_JSON},
    {"all", 0, 0, OPT_ALL},
    {"near", 0, 1, OPT_NEAR},
    {"mpi", 0, 0, OPT_MPI},
    {NULL, 0, 0, 0},
};

/* A receive or message as the reports name it. */
static void json_point(struct analysis *a, struct json *j, const char *key, int rank, uint32_t op)
{
    char site[600];
    const an_op *o = &a->run->ranks[rank].ops[op];
    analysis_site(a, rank, o->site, site, sizeof site);
    json_object_begin(j, key);
    json_int(j, "rank", rank);
    json_uint(j, "event", o->post);
    json_string(j, "site", site);
    json_object_end(j);
}

/* A message, named by its send. */
static void json_msg(struct analysis *a, struct json *j, const char *key, uint32_t m)
{
    const an_msg *msg = &a->run->msgs[m];
    json_point(a, j, key, (int)msg->sender, msg->send_op);
}

/* One list of racing receives: the races' candidates (rs: found again by an_race_list), or
 * Chu & Huang's reach sets (rs NULL: listed again by an_ch_reach, a rank's index at a time);
 * near (NULL, or not
 * active: as listed) orders them and gives each its distance. -1: out of memory. */
static int json_race_list(struct analysis *a, struct json *j, const char *key, const an_race *races,
                          size_t n, const an_races *rs, const char *cand_key, int logged_known,
                          const struct races_logged *logged, const struct races_near *near)
{
    if (near && !near->active) near = NULL;
    an_reach_index ix = {0};
    uint32_t *reach = rs ? NULL : malloc(AN_CH_KEEP * sizeof *reach); /* Chu & Huang list at most this */
    int rc = rs || reach ? 0 : -1;
    json_array_begin(j, key);
    for (size_t k = 0; !rc && k < n; k++) {
        size_t i = near ? near->order[k] : k;
        const an_race *r = &races[i];
        const an_op *o = &a->run->ranks[r->rank].ops[r->op];
        const uint32_t *list = reach;
        if (rs) list = an_race_list(rs, r);
        else if (an_ch_reach(a->run, r, &ix, reach)) {
            rc = -1;
            break;
        }
        char site[600];
        analysis_site(a, r->rank, o->site, site, sizeof site);
        json_object_begin(j, NULL);
        json_int(j, "rank", r->rank);
        json_uint(j, "event", o->post);
        json_uint(j, "done", o->done);
        json_string(j, "call", mpirr_call_name(o->call));
        json_string(j, "site", site);
        json_int(j, "source", o->peer);
        json_int(j, "tag", o->tag);
        if (o->msg != AN_NIL) json_msg(a, j, "matched", o->msg);
        else json_null(j, "matched");
        json_array_begin(j, cand_key);
        for (uint32_t k = 0; k < r->kept; k++) json_msg(a, j, NULL, list[k]);
        json_array_end(j);
        if (r->kept < r->n) json_uint(j, "count", r->n);
        if (logged_known) json_bool(j, "logged", races_logged_has(logged, r->rank, o->post));
        if (near && near->distance[i] >= 0) json_int(j, "distance", near->distance[i]);
        else if (near) json_null(j, "distance");
        json_object_end(j);
    }
    json_array_end(j);
    an_reach_index_free(&ix);
    free(reach);
    return rc;
}

/* The --near event: where it is, why it was chosen, and for the crash how the rank ended. */
static void json_near(struct json *j, const struct races_near *near)
{
    if (!near->active) {
        json_null(j, "near");
        return;
    }
    json_object_begin(j, "near");
    json_int(j, "rank", near->rank);
    json_uint(j, "event", near->event);
    json_string(j, "why", near->crash ? "crash" : "given");
    if (near->crash) {
        json_string(j, "ending", near->ending);
        json_bool(j, "in_call", near->in_call);
        json_int(j, "crashed_ranks", near->crashed);
    }
    json_uint(j, "before", near->nbefore);
    json_object_end(j);
}

static int print_json(struct analysis *a, const struct races_report *rep, const struct races_near *near,
                      const an_rma_conflicts *rma)
{
    struct json j;
    json_init(&j, stdout);
    json_object_begin(&j, NULL);
    json_string(&j, "recording", a->rec.dir);
    json_int(&j, "ranks", a->run->nranks);
    json_near(&j, near);
    if (json_race_list(a, &j, "receives", rep->r.races, rep->r.nraces, &rep->r, "candidates",
                       rep->logged.known, &rep->logged, near))
        return -1;
    if (json_race_list(a, &j, "chu_huang", rep->r.ch, rep->r.nch, NULL, "reach", 0, NULL, NULL))
        return -1;
    if (json_race_list(a, &j, "racing_probes", rep->r.probes, rep->r.nprobes, &rep->r, "candidates",
                       0, NULL, NULL))
        return -1;
    json_array_begin(&j, "unmatched_receives");
    for (int p = 0; p < a->run->nranks; p++) {
        const an_rank *rk = &a->run->ranks[p];
        for (size_t i = 0; i < rk->nops; i++)
            if (rk->ops[i].kind == AN_RECV && rk->ops[i].msrc >= 0 && rk->ops[i].msg == AN_NIL)
                json_point(a, &j, NULL, p, (uint32_t)i);
    }
    json_array_end(&j);
    json_array_begin(&j, "probes");
    for (int p = 0; p < a->run->nranks; p++) {
        const an_rank *rk = &a->run->ranks[p];
        for (size_t i = 0; i < rk->nops; i++) {
            const an_op *o = &rk->ops[i];
            if (o->kind != AN_PROBE) continue;
            json_object_begin(&j, NULL);
            json_int(&j, "rank", p);
            json_uint(&j, "event", o->post);
            if (o->msg != AN_NIL) json_msg(a, &j, "saw", o->msg);
            else json_null(&j, "saw");
            json_object_end(&j);
        }
    }
    json_array_end(&j);
    json_array_begin(&j, "unreceived_sends");
    for (uint32_t m = 0; m < a->run->nmsgs; m++)
        if (a->run->msgs[m].recv_op == AN_NIL) json_msg(a, &j, NULL, m);
    json_array_end(&j);
    json_array_begin(&j, "sites");
    for (size_t i = 0; i < rep->nsites; i++) {
        json_object_begin(&j, NULL);
        json_string(&j, "site", rep->sites[i].name);
        json_string(&j, "call", mpirr_call_name(rep->sites[i].call));
        json_uint(&j, "receives", rep->sites[i].count);
        json_object_end(&j);
    }
    json_array_end(&j);
    rma_report_json(a, rma, &j, "rma");
    races_report_json_summary(rep, &j, "summary");
    json_object_end(&j);
    fputc('\n', stdout);
    return 0;
}

static void print_msg(struct analysis *a, uint32_t m)
{
    const an_msg *msg = &a->run->msgs[m];
    char site[600];
    analysis_site(a, (int)msg->sender, a->run->ranks[msg->sender].ops[msg->send_op].site, site, sizeof site);
    text_escape_in_place(site, sizeof site);
    printf("%u:%llu (%s)", msg->sender,
           (unsigned long long)a->run->ranks[msg->sender].ops[msg->send_op].post, site);
}

static void pattern(char *buf, size_t n, int32_t v, const char *what)
{
    if (v == AN_ANY) snprintf(buf, n, "any %s", what);
    else snprintf(buf, n, "%s %d", what, v);
}

/* What racing receive x got and could have got, after its "rank R event E" and what the
 * caller puts between, up to the end of its line. */
static void print_receive(struct analysis *a, const struct races_report *rep, const an_race *x)
{
    const an_races *r = &rep->r;
    const an_op *o = &a->run->ranks[x->rank].ops[x->op];
    char src[32], tag[32];
    pattern(src, sizeof src, o->peer, "source");
    pattern(tag, sizeof tag, o->tag, "tag");
    const uint32_t *cands = an_race_list(r, x);
    printf("(%s, %s) got ", src, tag);
    print_msg(a, cands[0]);
    printf("; could have got");
    for (uint32_t k = 1; k < x->n; k++) {
        printf(k > 1 ? ", " : " ");
        print_msg(a, cands[k]);
    }
    if (rep->logged.known)
        printf(races_logged_has(&rep->logged, x->rank, o->post) ? " [logged]" : " [not logged]");
    putchar('\n');
}

static void print_more(size_t more)
{
    printf("  ... %zu more (--all shows every one)\n", more);
}

static void print_by_site(struct analysis *a, const struct races_report *rep, int all)
{
    const an_races *r = &rep->r;
    for (size_t s = 0; s < rep->nsites; s++) {
        const struct race_site *site = &rep->sites[s];
        text_put(stdout, site->name);
        printf(": %s, %llu racing receive%s\n", mpirr_call_name(site->call),
               (unsigned long long)site->count, site->count == 1 ? "" : "s");
        size_t shown = 0;
        for (size_t i = 0; i < r->nraces; i++) {
            if (rep->site_of[i] != s) continue;
            if (!all && shown == SHOWN) {
                print_more((size_t)site->count - shown);
                break;
            }
            shown++;
            const an_race *x = &r->races[i];
            printf("  rank %d event %llu ", x->rank,
                   (unsigned long long)a->run->ranks[x->rank].ops[x->op].post);
            print_receive(a, rep, x);
        }
    }
}

/* Receives order[from .. to) of the --near order (up to SHOWN_NEAR of them without --all),
 * each with its distance to the event (target names it) and its site. */
static void print_near_group(struct analysis *a, const struct races_report *rep,
                             const struct races_near *near, const char *target, size_t from,
                             size_t to, int all)
{
    for (size_t k = from; k < to; k++) {
        if (!all && k - from == SHOWN_NEAR) {
            print_more(to - k);
            return;
        }
        size_t i = near->order[k];
        const an_race *x = &rep->r.races[i];
        const an_op *o = &a->run->ranks[x->rank].ops[x->op];
        char site[600];
        analysis_site(a, x->rank, o->site, site, sizeof site);
        text_escape_in_place(site, sizeof site);
        printf("  rank %d event %llu, ", x->rank, (unsigned long long)o->post);
        if (near->distance[i] >= 0)
            printf("%lld event%s before %s", (long long)near->distance[i],
                   near->distance[i] == 1 ? "" : "s", target);
        else
            printf("not before %d:%llu", near->rank, (unsigned long long)near->event);
        printf(": %s %s ", site, mpirr_call_name(o->call));
        print_receive(a, rep, x);
    }
}

/* The --near order: one line on the event (for the crash: which rank, how it ended, and that
 * it is the first of several), then the receives before it, nearest first, then the others. */
static void print_near(struct analysis *a, const struct races_report *rep,
                       const struct races_near *near, int all)
{
    char target[64];
    if (near->crash) {
        snprintf(target, sizeof target, "the crash");
        printf("nearest the crash first: rank %d ended with %s %s its event %llu (--near %d:%llu)",
               near->rank, near->ending, near->in_call ? "in" : "after",
               (unsigned long long)near->event, near->rank, (unsigned long long)near->event);
        if (near->crashed > 1)
            printf("; %d ranks died by themselves, the first in rank order is taken", near->crashed);
        putchar('\n');
    } else {
        snprintf(target, sizeof target, "%d:%llu", near->rank, (unsigned long long)near->event);
        printf("nearest rank %d event %llu first (--near %s)\n", near->rank,
               (unsigned long long)near->event, target);
    }
    printf("%zu of %zu racing receives happened before %s\n", near->nbefore, rep->r.nraces, target);
    print_near_group(a, rep, near, target, 0, near->nbefore, all);
    print_near_group(a, rep, near, target, near->nbefore, rep->r.nraces, all);
}

/* The racing probes (each could have seen another message; replay --flip can make it), in
 * rank then event order. */
static void print_probes(struct analysis *a, const struct races_report *rep, int all)
{
    const an_races *r = &rep->r;
    if (!r->nprobes) return;
    printf("%zu racing probe%s (of %llu wildcard probes):\n", r->nprobes, r->nprobes == 1 ? "" : "s",
           (unsigned long long)r->wildcard_probes);
    for (size_t i = 0; i < r->nprobes; i++) {
        if (!all && i == SHOWN) {
            print_more(r->nprobes - i);
            return;
        }
        const an_race *x = &r->probes[i];
        const an_op *o = &a->run->ranks[x->rank].ops[x->op];
        char site[600];
        analysis_site(a, x->rank, o->site, site, sizeof site);
        text_escape_in_place(site, sizeof site);
        printf("  rank %d event %llu: %s %s ", x->rank, (unsigned long long)o->post, site,
               mpirr_call_name(o->call));
        print_receive(a, rep, x);
    }
}

static void print_text(struct analysis *a, const struct races_report *rep,
                       const struct races_near *near, int all)
{
    const an_races *r = &rep->r;
    if (!r->nraces) printf("no message races: none of %llu wildcard receives could have got another message\n",
                           (unsigned long long)r->wildcard_recvs);
    else if (near->active) print_near(a, rep, near, all);
    else print_by_site(a, rep, all);
    print_probes(a, rep, all);
    races_report_text_summary(rep, stdout);
}

/* --outcomes among the options (before any "--"): the racing receives are forced, run by run
 * (explore/race_outcomes.h), a command of its own. */
static int wants_outcomes(int argc, char **argv)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--outcomes") == 0) return 1;
    return 0;
}

static int races_report_all(struct analysis *a, struct races_near *near, int json, int all);

int cmd_races(int argc, char **argv)
{
    if (wants_outcomes(argc, argv)) return races_outcomes_main(argc, argv);
    struct opt_scan s;
    opt_init(&s, "races", argc, argv);
    const char *v, *dir = NULL, *near_spec = NULL;
    int json = 0, all = 0, operands = 0, mpi = 0;
    for (int id; (id = opt_next_mixed(&s, races_opts, &v)) != OPT_DONE;) {
        if (id == OPT_HELP) return help_for("races");
        if (id == OPT_BAD) return CLI_EXIT_USAGE;
        if (id == OPT_OPERAND) dir = v, operands++;
        else if (id == OPT_JSON) json = 1;
        else if (id == OPT_NEAR) near_spec = v;
        else if (id == OPT_MPI) mpi = 1;
        else all = 1;
    }
    if (operands != 1) {
        cli_error("races takes one recording directory (mpirr races DIR [--json] [--near R:E|crash] [--mpi])");
        return CLI_EXIT_USAGE;
    }
    struct races_near near;
    int rc = races_near_parse(near_spec, &near);
    if (rc) return rc;
    struct analysis a;
    if (mpi) {
        int reporter;
        rc = analysis_open_mpi(dir, &a, &reporter);
        if (!rc && reporter) rc = races_report_all(&a, &near, json, all);
        races_near_free(&near);
        analysis_mpi_end();
        return rc;
    }
    rc = analysis_open(dir, &a, 1, 0);
    if (rc) return rc;
    rc = races_report_all(&a, &near, json, all);
    races_near_free(&near);
    return rc;
}

/* The report of races, serial or parallel alike, once a holds the analysed histories (closed
 * here); near is the caller's. */
static int races_report_all(struct analysis *a, struct races_near *near, int json, int all)
{
    const char *dir = a->rec.name;
    int rc;
    struct races_report rep;
    an_rma_conflicts rma;
    if (races_report_build(a, &rep) || races_report_details(a, &rep) || an_rma_conflicts_find(a->run, &rma)) {
        cli_error("out of memory finding the races of %s", dir);
        races_report_free(&rep);
        analysis_close(a);
        return CLI_EXIT_FAIL;
    }
    rc = races_report_near(a, &rep, near); /* a bad --near: reported */
    if (!rc && json && print_json(a, &rep, near, &rma)) {
        putchar('\n');
        cli_error("out of memory listing Chu & Huang's reach sets of %s", dir);
        rc = CLI_EXIT_FAIL;
    } else if (!rc && !json) {
        print_text(a, &rep, near, all);
        rma_report_text(a, &rma);
    }
    an_rma_conflicts_free(&rma);
    races_report_free(&rep);
    analysis_close(a);
    return rc;
}
