/* walk.c: the pass over every call of every rank that both export writers share (walk.h): it
 * re-reads the event histories (the analysis keeps only communication operations, not every
 * call with its times), lays the calls out on one time line, and finds for each call the
 * operations it posted and completed. Memory: one reader at a time and one index of the
 * current rank's completions, both bounded by what the analysis holds. */
#include "walk.h"

#include <stdlib.h>
#include <string.h>

int export_clock_init(struct export_clock *c, const an_run *run)
{
    size_t n = run->nranks > 0 ? (size_t)run->nranks : 1;
    c->offset_ns = calloc(n, sizeof *c->offset_ns);
    c->tick_shift = calloc(n, sizeof *c->tick_shift);
    if (!c->offset_ns || !c->tick_shift) return -1;
    /* every rank's tick 0 is its own MPI_Init; their realtime starts line the ranks up */
    uint64_t *start = c->offset_ns;
    uint64_t min = UINT64_MAX;
    for (int p = 0; p < run->nranks; p++) {
        char err[64];
        mpirr_ev_reader *r = mpirr_evr_open(run->dir, p, err, sizeof err);
        if (!r) continue;
        const mpirr_ev_info *info = mpirr_evr_info(r);
        start[p] = info->start_realtime_ns;
        c->tick_shift[p] = info->tick_shift;
        if (start[p] < min) min = start[p];
        mpirr_evr_close(r);
    }
    c->realtime_ns = min == UINT64_MAX ? 0 : min;
    for (int p = 0; p < run->nranks; p++) start[p] = start[p] ? start[p] - c->realtime_ns : 0;
    return 0;
}

void export_clock_free(struct export_clock *c)
{
    free(c->offset_ns);
    free(c->tick_shift);
    memset(c, 0, sizeof *c);
}

/* A rank's operations completed after the call that posted them, by completing event. */
struct done_index {
    uint64_t *event; /* completing event, ascending */
    uint32_t *op;    /* the op, same order */
    size_t n;
};

struct done_pair {
    uint64_t event;
    uint32_t op;
};

static int by_done(const void *a, const void *b)
{
    const struct done_pair *x = a, *y = b;
    if (x->event != y->event) return x->event < y->event ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

static int done_index_build(struct done_index *d, const an_rank *rk)
{
    memset(d, 0, sizeof *d);
    size_t n = 0;
    for (size_t i = 0; i < rk->nops; i++) n += rk->ops[i].done && rk->ops[i].done != rk->ops[i].post;
    struct done_pair *p = malloc((n ? n : 1) * sizeof *p);
    d->event = malloc((n ? n : 1) * sizeof *d->event);
    d->op = malloc((n ? n : 1) * sizeof *d->op);
    if (!p || !d->event || !d->op) {
        free(p);
        return -1;
    }
    for (size_t i = 0; i < rk->nops; i++)
        if (rk->ops[i].done && rk->ops[i].done != rk->ops[i].post)
            p[d->n++] = (struct done_pair){rk->ops[i].done, (uint32_t)i};
    qsort(p, d->n, sizeof *p, by_done);
    for (size_t i = 0; i < d->n; i++) {
        d->event[i] = p[i].event;
        d->op[i] = p[i].op;
    }
    free(p);
    return 0;
}

static void done_index_free(struct done_index *d)
{
    free(d->event);
    free(d->op);
}

/* First position in sorted v[0..n) whose value is >= key. */
static size_t lower_bound(const uint64_t *v, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static size_t first_posted(const an_rank *rk, uint64_t event)
{
    size_t lo = 0, hi = rk->nops;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rk->ops[mid].post < event) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static int walk_rank(struct analysis *a, const struct export_clock *clk, const struct export_sink *s,
                     int rank)
{
    const an_rank *rk = &a->run->ranks[rank];
    int rc = s->rank_begin ? s->rank_begin(s->arg, rank) : 0;
    if (rc) return rc;
    uint64_t calls = 0;
    char err[64];
    mpirr_ev_reader *r = mpirr_evr_open(a->run->dir, rank, err, sizeof err);
    if (r) { /* else the analysis said why this rank has no calls */
        struct done_index d;
        if (done_index_build(&d, rk)) {
            mpirr_evr_close(r);
            return -1;
        }
        unsigned shift = clk->tick_shift[rank];
        uint64_t off = clk->offset_ns[rank], cursor = 0;
        mpirr_event e;
        while (!rc && mpirr_evr_next(r, &e) == 1) {
            if (!mpirr_ev_is_call(e.kind)) continue;
            struct export_call c = {.rank = rank, .e = &e};
            c.begin_ns = off + (e.t_begin << shift);
            if (c.begin_ns < cursor) c.begin_ns = cursor;
            c.end_ns = off + (e.t_end << shift);
            if (c.end_ns < c.begin_ns + EXPORT_MIN_NS) c.end_ns = c.begin_ns + EXPORT_MIN_NS;
            cursor = c.end_ns;
            size_t p = first_posted(rk, e.event), q = p;
            while (q < rk->nops && rk->ops[q].post == e.event) q++;
            c.first_posted = (uint32_t)p;
            c.nposted = (uint32_t)(q - p);
            size_t lo = lower_bound(d.event, d.n, e.event), hi = lo;
            while (hi < d.n && d.event[hi] == e.event) hi++;
            c.done = d.op + lo;
            c.ndone = (uint32_t)(hi - lo);
            calls++;
            rc = s->call(s->arg, &c);
        }
        done_index_free(&d);
        mpirr_evr_close(r);
    }
    if (!rc && s->rank_end) rc = s->rank_end(s->arg, rank, calls);
    return rc;
}

int export_walk(struct analysis *a, const struct export_clock *clk, const struct export_sink *s)
{
    for (int p = 0; p < a->run->nranks; p++) {
        int rc = walk_rank(a, clk, s, p);
        if (rc) return rc;
    }
    return 0;
}
