/* rma_races.c: one-sided conflicts (analysis.h, docs/races.md): every access gets the vector
 * timestamp of its rank at its call (a happened-before sweep), then the accesses of each
 * window and target are compared in order of their first byte. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "rma_fields.h"
#include "u64_map.h"

struct ref {
    int rank;
    uint32_t i;
};

struct vcs {
    an_run *run;
    uint64_t **vc;  /* per rank: nacc vectors of nranks */
    size_t *next;   /* per rank: the first access without its vector */
};

static void fill(struct vcs *s, int rank, uint64_t before, const uint64_t *vc)
{
    an_rank *rk = &s->run->ranks[rank];
    size_t n = (size_t)s->run->nranks;
    while (s->next[rank] < rk->nacc && rk->acc[s->next[rank]].post < before) {
        memcpy(s->vc[rank] + s->next[rank] * n, vc, n * sizeof *vc);
        s->next[rank]++;
    }
}
static void on_before(void *arg, int rank, uint64_t event, const uint64_t *vc) { fill(arg, rank, event, vc); }
static void on_end(void *arg, int rank, const uint64_t *vc) { fill(arg, rank, UINT64_MAX, vc); }

static const an_access *acc_of(const an_run *run, const struct ref *r) { return &run->ranks[r->rank].acc[r->i]; }

static an_run *sort_run;
static int by_place(const void *x, const void *y)
{
    const an_access *a = acc_of(sort_run, x), *b = acc_of(sort_run, y);
    if (a->win != b->win) return a->win < b->win ? -1 : 1;
    if (a->target != b->target) return a->target < b->target ? -1 : 1;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    return 0;
}

static int atomic(const an_access *a) { return a->kind >= MPIRR_RMA_ACC; }
static int writes(const an_access *a)
{
    if (a->kind == MPIRR_RMA_GET) return 0;
    return !(atomic(a) && a->op == MPIRR_RMA_OP_NO_OP);
}

/* Could a and b's effects interleave? Program order and locks aside. */
static int conflict(const an_access *a, const an_access *b)
{
    if (!writes(a) && !writes(b)) return 0;
    if (atomic(a) && atomic(b) && a->type && a->type == b->type) {
        unsigned oa = a->kind == MPIRR_RMA_CAS ? 255 : a->op, ob = b->kind == MPIRR_RMA_CAS ? 255 : b->op;
        if (oa == ob || oa == MPIRR_RMA_OP_NO_OP || ob == MPIRR_RMA_OP_NO_OP) return 0;
    }
    return !(a->excl && b->excl);
}

/* Did a (of rank ra) complete before b's call, as b's vector knows? */
static int before(const an_access *a, int ra, const uint64_t *vb)
{
    return a->done && vb[ra] >= 2 * a->done;
}

int an_rma_conflicts_find(an_run *run, an_rma_conflicts *out)
{
    memset(out, 0, sizeof *out);
    size_t total = 0, n = (size_t)run->nranks;
    for (int p = 0; p < run->nranks; p++) total += run->ranks[p].nacc;
    out->accesses = total;
    if (!total) return 0;
    struct vcs s = {run, calloc(n, sizeof *s.vc), calloc(n, sizeof *s.next)};
    struct ref *refs = malloc(total * sizeof *refs);
    u64_map seen = {0};
    int rc = -1;
    if (!s.vc || !s.next || !refs) goto out;
    for (size_t p = 0; p < n; p++)
        if (run->ranks[p].nacc && !(s.vc[p] = calloc(run->ranks[p].nacc * n, sizeof **s.vc))) goto out;
    an_hb_observer obs = {.arg = &s, .before = on_before, .end = on_end};
    if (an_happened_before(run, &obs)) goto out;
    size_t k = 0;
    for (int p = 0; p < run->nranks; p++)
        for (uint32_t i = 0; i < run->ranks[p].nacc; i++) refs[k++] = (struct ref){p, i};
    sort_run = run;
    qsort(refs, total, sizeof *refs, by_place);
    for (size_t i = 0; i < total; i++) {
        const an_access *a = acc_of(run, &refs[i]);
        for (size_t j = i + 1; j < total; j++) {
            const an_access *b = acc_of(run, &refs[j]);
            if (b->win != a->win || b->target != a->target || b->lo >= a->hi) break;
            int ra = refs[i].rank, rb = refs[j].rank;
            if (ra == rb || !conflict(a, b)) continue;
            if (before(a, ra, s.vc[rb] + refs[j].i * n) || before(b, rb, s.vc[ra] + refs[i].i * n)) continue;
            out->total++;
            /* one per pair of call sites (each with its rank) */
            int x = ra < rb || (ra == rb && a->site <= b->site) ? 0 : 1;
            const struct ref *f = x ? &refs[j] : &refs[i], *g = x ? &refs[i] : &refs[j];
            uint64_t key = u64_mix(u64_mix(u64_mix(u64_mix(7, (uint64_t)f->rank), acc_of(run, f)->site),
                                           (uint64_t)g->rank), acc_of(run, g)->site);
            int added;
            uint64_t *slot = u64_map_slot(&seen, key, out->n, &added);
            if (!slot) goto out;
            if (!added) {
                out->list[*slot].count++;
                continue;
            }
            an_rma_conflict *l = realloc(out->list, (out->n + 1) * sizeof *l);
            if (!l) goto out;
            out->list = l;
            l[out->n++] = (an_rma_conflict){f->rank, g->rank, f->i, g->i, 1};
        }
    }
    rc = 0;
out:
    if (rc) an_rma_conflicts_free(out);
    for (size_t p = 0; s.vc && p < n; p++) free(s.vc[p]);
    free(s.vc);
    free(s.next);
    free(refs);
    u64_map_free(&seen);
    return rc;
}

void an_rma_conflicts_free(an_rma_conflicts *c)
{
    free(c->list);
    memset(c, 0, sizeof *c);
}
