/* explore_choices.c: the racing receives and probes, and the Waitany-family calls' pending
 * requests, that an explored run offers to force next, from the race analysis of its event
 * history (an_find_races: only candidates proved possible), and the cut
 * its flip replayed, read from its flip file. */
#include "explore_choices.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_load.h"
#include "flip.h"
#include "diag.h"
#include "number_parse.h"
#include "reserve.h"
#include "text_escape.h"

/* The receive's source line without the function name: explore.tsv's "file:line". */
static void site_of(struct analysis *a, int rank, uint32_t site, char *buf, size_t n)
{
    analysis_site(a, rank, site, buf, n);
    char *fn = strstr(buf, " (");
    if (fn)
        *fn = '\0';
    text_escape_in_place(buf, n); /* a tab or newline would break explore.tsv, ESC the terminal */
}

int explore_choice_order(const void *pa, const void *pb)
{
    const struct explore_choice *a = pa, *b = pb;
    if (a->event != b->event)
        return a->event < b->event ? -1 : 1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    if (a->src != b->src)
        return (a->src > b->src) - (a->src < b->src);
    return (a->req > b->req) - (a->req < b->req);
}

void explore_choice_value(const struct explore_choice *c, int orig, char *buf, size_t n)
{
    if (c->req)
        snprintf(buf, n, "req:%" PRIu64, orig ? c->orig_req : c->req);
    else
        snprintf(buf, n, "%d", orig ? c->orig : c->src);
}

/* Whether the run decided this receive itself: a receive up to the cut was replayed from the
 * parent, which offered its alternatives already (forcing one of them here would undo the
 * parent's forced choice, since a flip replays only up to the receive it forces). */
static int after_cut(const uint64_t *cut, int ncut, int rank, uint64_t event)
{
    return !cut || rank >= ncut || event > cut[rank];
}

/* Adds c to out; -1 out of memory. */
static int add_choice(struct explore_choices *out, size_t *cap, const struct explore_choice *c)
{
    if (mpirr_reserve((void **)&out->list, cap, out->n + 1, sizeof *out->list))
        return -1;
    out->list[out->n++] = *c;
    return 0;
}

/* Whether request k (an index into rank p's ops) of the any/some call at p's event e can be
 * forced there: flip_request_unforceable's rules, and the send (k a receive request) or
 * receive post (k a send request) that completes it must not know of e. A send's hb_dest says
 * so at once; a receive post needs the call's future frontier (computed once per call, into
 * *future, at the first send request asked about; *swept says it is there). */
static int request_forceable(an_run *run, int p, uint64_t e, uint32_t k, int ndone,
                             uint64_t *future, uint64_t *past, int *swept)
{
    int q0;
    uint64_t e0;
    if (flip_request_unforceable(run, p, e, k, ndone, &q0, &e0))
        return 0;
    const an_op *o = &run->ranks[p].ops[k];
    if (o->kind == AN_RECV)
        return run->msgs[o->msg].hb_dest < 2 * e;
    char err[200];
    if (!*swept && an_frontier(run, p, e, 0, past, future, err, sizeof err))
        return 0; /* (a bad point: the call is in the history, so only out of memory) */
    *swept = 1;
    return !future[q0] || e0 < future[q0]; /* the receive was posted before anything knew of e */
}

/* The Waitany/Testany/Waitsome/Testsome calls the run decided itself, each with the other
 * pending requests it could have returned (flip_request.c). The history does not say which
 * requests were passed to the call: those completed later by the same kind of call are
 * offered (a flip whose request was not passed runs unforced, its runtime says so). Receive
 * and send requests alike, those that replay --flip would accept (request_forceable). */
static int request_choices(struct analysis *a, const uint64_t *cut, int ncut,
                           struct explore_choices *out, size_t *cap)
{
    an_run *run = a->run;
    uint64_t *frontiers = malloc(2 * (size_t)run->nranks * sizeof *frontiers);
    if (!frontiers)
        return -1;
    for (int p = 0; p < run->nranks; p++) {
        const an_rank *rk = &run->ranks[p];
        uint64_t last = 0;
        for (size_t i = 0; i < rk->nops; i++) {
            const an_op *d = &rk->ops[i];
            uint64_t e = d->done;
            if (!e || e == last || d->post >= e || !after_cut(cut, ncut, p, e) ||
                !flip_is_any_call(d->done_call))
                continue;
            last = e; /* (a Waitsome's other ops may come again: duplicates go after sorting) */
            struct explore_choice c = {.rank = p, .event = e, .src = -1, .orig = -1,
                                       .orig_req = d->post};
            site_of(a, p, d->site, c.site, sizeof c.site); /* (the request's site) */
            size_t before = out->n;
            int ndone = 0, swept = 0;
            for (size_t k = 0; k < rk->nops; k++)
                ndone += rk->ops[k].done == e;
            for (size_t k = 0; k < rk->nops; k++) {
                const an_op *o = &rk->ops[k];
                if ((o->kind != AN_RECV && o->kind != AN_SEND) || o->done_call != d->done_call ||
                    !request_forceable(run, p, e, (uint32_t)k, ndone, frontiers + run->nranks,
                                       frontiers, &swept))
                    continue;
                c.req = o->post;
                if (add_choice(out, cap, &c)) {
                    free(frontiers);
                    return -1;
                }
            }
            if (out->n > before)
                out->racing++;
        }
    }
    free(frontiers);
    return 0;
}

/* The sender whose message rank's receive posted at event took, -1 if none is known (or the
 * choice forced a request): what a flip made of its forced receive, checked rather than
 * trusted. */
static int sender_taken(const an_run *run, int rank, uint64_t event, uint64_t forced_req)
{
    if (rank < 0 || rank >= run->nranks || forced_req)
        return -1;
    const an_rank *rk = &run->ranks[rank];
    for (size_t i = 0; i < rk->nops; i++)
        if (rk->ops[i].post == event && (rk->ops[i].kind == AN_RECV || rk->ops[i].kind == AN_PROBE))
            return rk->ops[i].msg != AN_NIL ? (int)run->msgs[rk->ops[i].msg].sender : -1;
    return -1;
}

int explore_choices_find(const char *dir, const uint64_t *cut, int ncut,
                         const struct explore_choice *forced, unsigned kinds,
                         struct explore_choices *out)
{
    memset(out, 0, sizeof *out);
    out->forced_got = -1;
    struct analysis a;
    int rc = analysis_open(dir, &a, 1, 1);
    if (rc)
        return rc;
    if (forced)
        out->forced_got = sender_taken(a.run, forced->rank, forced->event, forced->req);
    an_races r;
    if (an_find_races(a.run, &r)) {
        cli_error("out of memory finding the races of %s", dir);
        analysis_close(&a);
        return CLI_EXIT_FAIL;
    }
    size_t cap = 0, nall = r.nraces + r.nprobes;
    rc = 0;
    if (!(kinds & EXPLORE_CHOICES_RECEIVES))
        nall = 0;
    for (size_t i = 0; i < nall && !rc; i++) { /* the racing receives, then the probes */
        const an_race *x = i < r.nraces ? &r.races[i] : &r.probes[i - r.nraces];
        const an_op *o = &a.run->ranks[x->rank].ops[x->op];
        if (!after_cut(cut, ncut, x->rank, o->post))
            continue;
        out->racing++;
        const uint32_t *cand = an_race_list(&r, x);
        struct explore_choice c = {.rank = x->rank, .event = o->post,
                                   .orig = (int)a.run->msgs[cand[0]].sender};
        site_of(&a, x->rank, o->site, c.site, sizeof c.site);
        /* cand[0] is the message it got; each other candidate comes from another sender */
        for (uint32_t k = 1; k < x->n; k++) {
            if (flip_unforceable(o, &a.run->msgs[cand[k]]))
                continue; /* a choice flip cannot make (docs/explore.md) */
            c.src = (int)a.run->msgs[cand[k]].sender;
            if (add_choice(out, &cap, &c)) {
                cli_error("out of memory listing the races of %s", dir);
                rc = CLI_EXIT_FAIL;
                break;
            }
        }
    }
    if (!rc && (kinds & EXPLORE_CHOICES_REQUESTS) && request_choices(&a, cut, ncut, out, &cap)) {
        cli_error("out of memory listing the races of %s", dir);
        rc = CLI_EXIT_FAIL;
    }
    if (!rc && out->n) {
        qsort(out->list, out->n, sizeof *out->list, explore_choice_order);
        size_t kept = 1;
        for (size_t i = 1; i < out->n; i++)
            if (explore_choice_order(&out->list[i], &out->list[kept - 1]))
                out->list[kept++] = out->list[i];
        out->n = kept;
    }
    an_races_free(&r);
    analysis_close(&a);
    if (rc) {
        explore_choices_free(out);
        out->forced_got = -1;
    }
    return rc;
}

void explore_choices_free(struct explore_choices *c)
{
    free(c->list);
    memset(c, 0, sizeof *c);
}

/* The numbers after "cut" on one line: how many, or -1 if one is not a number. */
static int parse_cut(const char *text, uint64_t **cut)
{
    size_t cap = 0;
    int n = 0;
    *cut = NULL;
    for (const char *p = text;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '\n')
            return n;
        uint64_t v;
        const char *end = mpirr_parse_leading(p, UINT64_MAX, &v);
        if (!end || (*end && !strchr(" \t\n", *end)) ||
            mpirr_reserve((void **)cut, &cap, (size_t)n + 1, sizeof **cut))
            return -1; /* the caller frees *cut */
        (*cut)[n++] = v;
        p = end;
    }
}

int explore_read_cut(const char *dir, uint64_t **cut, int *ncut)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/flip", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL; /* one number per rank: as long as it takes */
    size_t cap = 0;
    int n = -1;
    *cut = NULL;
    while (getline(&line, &cap, f) > 0)
        if (strncmp(line, "cut ", 4) == 0) {
            n = parse_cut(line + 4, cut);
            break;
        }
    free(line);
    fclose(f);
    if (n <= 0) {
        free(*cut);
        *cut = NULL;
        cli_error("%s: no readable 'cut C0 C1 ...' line", path);
        return -1;
    }
    *ncut = n;
    return 0;
}
