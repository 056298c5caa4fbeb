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
        if (!info->exact) c->rounded = 1;
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

/* A reconstructed time R that a log2 code moved delta ticks past the time before it: the exact
 * time lies in [R, R + spread) ticks. A code c > 0 (delta = 2^(c-1)) stood for a delta in
 * [delta, 2 delta); a code 0 for at most the slack; and the exact ticks were rounded down
 * from ns. */
static uint64_t time_spread(uint64_t delta)
{
    return delta ? delta : MPIRR_EV_TIME_SLACK + 1;
}

/* The call's times on the run's time line, and the range its exact duration lies in; prev_end:
 * the previous call record's end, in the history's ticks (what its codes were taken against). */
static void call_times(struct export_call *c, int exact, unsigned shift, uint64_t off, uint64_t prev_end)
{
    const mpirr_event *e = c->e;
    uint64_t b = exact ? e->x_begin : e->t_begin, en = exact ? e->x_end : e->t_end, d = en - b;
    uint64_t lo = d ? d - 1 : 0, hi = d + 1; /* exact ticks: rounded down from ns */
    if (!exact) {
        uint64_t wb = time_spread(e->t_begin - prev_end), we = time_spread(d);
        lo = d > wb ? d - wb : 0;
        hi = d + we;
    }
    c->exact = exact;
    c->begin_ns = off + (b << shift);
    c->end_ns = off + (en << shift);
    c->dur_min_ns = lo << shift;
    c->dur_max_ns = hi << shift;
}

int export_recv_ends(const an_op *o, uint64_t event)
{
    return o->kind == AN_RECV && (o->done == event || (!o->done && o->post == event));
}

const an_race *export_race_at(const an_races *races, const an_run *run, const struct export_call *c,
                              uint32_t op)
{
    if (!export_recv_ends(&run->ranks[c->rank].ops[op], c->e->event)) return NULL;
    for (size_t lo = 0, hi = races->nraces; lo < hi;) {
        size_t mid = lo + (hi - lo) / 2;
        const an_race *r = &races->races[mid];
        if (r->rank == c->rank && r->op == op) return r;
        if (r->rank < c->rank || (r->rank == c->rank && r->op < op)) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

const char *export_time_note(const struct export_clock *clk)
{
    return clk->rounded
        ? "times rounded: the history stores log2 time codes (docs/events.md, Time), so a "
          "duration is only known to lie in a range (duration_min/duration_max); record with "
          "MPIRR_EVENTS_EXACT=1 for exact times"
        : "times exact to the history's clock tick (recorded with MPIRR_EVENTS_EXACT=1)";
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
        int exact = mpirr_evr_info(r)->exact;
        uint64_t off = clk->offset_ns[rank], cursor = 0, prev_end = 0;
        mpirr_event e;
        while (!rc && mpirr_evr_next(r, &e) == 1) {
            if (!mpirr_ev_is_call(e.kind)) continue;
            struct export_call c = {.rank = rank, .e = &e};
            call_times(&c, exact && (e.fields & MPIRR_EVF_EXACT), shift, off, prev_end);
            prev_end = e.t_end;
            if (c.begin_ns < cursor) c.begin_ns = cursor;
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
