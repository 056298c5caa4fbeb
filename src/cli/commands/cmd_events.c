/* cmd_events.c: `mpirr events DIR [--rank R] [--raw] [--exact] [--defs] [--check]`: the event
 * history of a recording made with --events, one event a line (event_print.h), or the raw
 * decompressed record stream (--raw, for measuring compressors), or a cross-check that the
 * rank logs and the history number events alike (--check). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_ids.h"
#include "commands.h"
#include "diag.h"
#include "event_print.h"
#include "event_trace.h"
#include "manifest.h"
#include "opts.h"
#include "rank_log.h"
#include "recording.h"

enum { OPT_RANK, OPT_RAW, OPT_EXACT, OPT_DEFS, OPT_CHECK };

static const struct cli_opt events_opts[] = {
    {"rank", 'r', 1, OPT_RANK},
    {"raw", 0, 0, OPT_RAW},
    {"exact", 0, 0, OPT_EXACT},
    {"defs", 0, 0, OPT_DEFS},
    {"check", 0, 0, OPT_CHECK},
    {NULL, 0, 0, 0},
};

struct events_args {
    int rank; /* -1: all */
    int raw, exact, defs, check;
    const char *dir;
};

static void raw_out(const void *p, size_t n, void *arg)
{
    fwrite(p, 1, n, (FILE *)arg);
}

/* --check state for one rank: the call of every event in the history (threads may emit
 * records out of event order), then every rank-log record must fall on an event of its call. */
struct checker {
    uint16_t *kind; /* by event number; 0: not in the history */
    uint64_t cap, last;
};

static void check_note(struct checker *c, const mpirr_event *e)
{
    if (e->event >= c->cap) {
        uint64_t cap = c->cap ? c->cap : 4096;
        while (cap <= e->event) cap *= 2;
        uint16_t *k = realloc(c->kind, cap * sizeof *k);
        if (!k) return;
        memset(k + c->cap, 0, (cap - c->cap) * sizeof *k);
        c->kind = k;
        c->cap = cap;
    }
    c->kind[e->event] = (uint16_t)mpirr_call_int_variant(e->kind); /* the id its records carry */
    if (e->event > c->last) c->last = e->event;
}

/* 0 if every key agrees, else CLI_EXIT_FAIL after one line about the first that does not. */
static int check_keys(const struct checker *c, const struct log_key *keys, size_t n, int rank)
{
    size_t agreed = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned have = keys[i].event < c->cap ? c->kind[keys[i].event] : 0;
        if (have == keys[i].call) {
            agreed++;
            continue;
        }
        if (!have && keys[i].event > c->last) continue; /* after a cut-off history's end */
        cli_error("rank %d event %llu: the rank log has a record of %s, the event history %s%s",
                  rank, (unsigned long long)keys[i].event, mpirr_call_name(keys[i].call),
                  have ? "says " : "has no such event", have ? mpirr_call_name(have) : "");
        return CLI_EXIT_FAIL;
    }
    printf("rank %d: %zu of %zu rank-log records agree with the event history\n", rank, agreed, n);
    return 0;
}

/* 0, or CLI_EXIT_FAIL after a message. */
static int one_rank(const struct events_args *a, const char *dir, int rank, mpirr_symbolizer *sym,
                    struct rank_list *cut)
{
    char err[700];
    mpirr_ev_reader *r = mpirr_evr_open(dir, rank, err, sizeof err);
    if (!r) {
        cli_error("%s", err);
        return CLI_EXIT_FAIL;
    }
    struct event_printer *p = event_printer_new(rank, mpirr_evr_info(r), a->exact, a->defs, sym);
    struct checker chk = {0};
    if (a->raw) mpirr_evr_raw_sink(r, raw_out, stdout);
    mpirr_event e;
    int got;
    uint64_t last = 0;
    while ((got = mpirr_evr_next(r, &e)) == 1) {
        if (mpirr_ev_is_call(e.kind)) last = e.event;
        if (a->check && mpirr_ev_is_call(e.kind)) check_note(&chk, &e);
        else if (!a->raw && !a->check && p) event_printer_put(p, &e, stdout);
    }
    int rc = 0;
    if (got < 0) {
        cli_error("%s", mpirr_evr_error(r));
        rc = CLI_EXIT_FAIL;
    } else if (!mpirr_evr_clean(r)) {
        rank_list_add(cut, rank, last);
    }
    if (a->check) {
        size_t n;
        struct log_key *keys = recording_log_keys(dir, rank, &n);
        int c = n != SIZE_MAX ? check_keys(&chk, keys, n, rank) : CLI_EXIT_FAIL;
        if (c) rc = c;
        free(keys);
        free(chk.kind);
    }
    event_printer_free(p);
    mpirr_evr_close(r);
    return rc;
}

static int parse(int argc, char **argv, struct events_args *a)
{
    struct opt_scan s;
    opt_init(&s, "events", argc, argv);
    memset(a, 0, sizeof *a);
    a->rank = -1;
    const char *v;
    int operands = 0;
    /* options may come before or after the directory (mpirr events run3 --rank 3) */
    for (int id; (id = opt_next_mixed(&s, events_opts, &v)) != OPT_DONE;) {
        switch (id) {
        case OPT_OPERAND:
            a->dir = v;
            operands++;
            break;
        case OPT_BAD:
        case OPT_HELP: return id;
        case OPT_RANK: {
            int64_t r;
            if (opt_number("events: --rank", v, 0, MPIRR_MAX_RANKS - 1, &r)) return OPT_BAD;
            a->rank = (int)r;
            break;
        }
        case OPT_RAW: a->raw = 1; break;
        case OPT_EXACT: a->exact = 1; break;
        case OPT_DEFS: a->defs = 1; break;
        default: a->check = 1; break;
        }
    }
    if (operands != 1) {
        cli_error("events takes one recording directory (mpirr events DIR [--rank R])");
        return OPT_BAD;
    }
    return 0;
}

int cmd_events(int argc, char **argv)
{
    struct events_args a;
    int rc = parse(argc, argv, &a);
    if (rc == OPT_HELP) return help_for("events");
    if (rc) return CLI_EXIT_USAGE;
    struct recording rec;
    if ((rc = recording_open(a.dir, &rec))) return rc;
    int n = rec.m.nranks;
    if (a.rank >= 0 && n > 0 && a.rank >= n) {
        cli_error("%s has ranks 0 to %d; there is no rank %d", a.dir, n - 1, a.rank);
        recording_close(&rec);
        return CLI_EXIT_USAGE;
    }
    if (n <= 0) n = a.rank + 1;
    /* one symbolizer for every rank: they share their objects, and it caches per object */
    mpirr_symbolizer *sym = a.raw || a.check ? NULL : mpirr_sym_open();
    struct rank_list cut = {0};
    for (int i = a.rank >= 0 ? a.rank : 0; i < (a.rank >= 0 ? a.rank + 1 : n); i++) {
        int r = one_rank(&a, rec.dir, i, sym, &cut);
        if (r) rc = r;
    }
    fflush(stdout); /* the summary comes after the events, as the per-rank lines did */
    rank_list_report_cut_off(&cut, "");
    mpirr_sym_close(sym);
    recording_close(&rec);
    return rc;
}
