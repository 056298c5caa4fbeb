/* race_graph.c: the optimal trace (Netzer & Miller section 4.3, Theorem 3): messages are
 * vertices, races are edges, and a trace that replays the run must hold a vertex cover. The
 * graph is never built: each racing receive is a star (the message it got joined to its other
 * candidates), and a message's neighbours are found again from the candidate index
 * (cand_index.h): the candidates of the receive that got it, and the messages got by the
 * racing receives at which it was a candidate - those are a range of its receiver's racing
 * receives with its tag (or any tag), between the receive of its channel's (stream's) previous
 * message and its own. Passes in message order (so every search resumes where the last one
 * ended) give the degrees, a greedy maximal matching (the paper's lower bound, footnote 3,
 * over the pairs in order) and the connected components (union-find); the safe degree-0/1
 * reductions (isolated vertices leave; a degree-1 vertex's neighbour joins the cover) then run
 * on the whole graph - they leave the same core whatever the order - and the exact minimum
 * cover of a component follows directly when nothing is left or a clique is (n-1: the
 * transitive case, Theorem 4), or by branch and bound when at most 64 vertices are. Memory:
 * 9 bytes per message, and 4 per racing receive. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "spill.h"
#include "cand_index.h"
#include "reserve.h"
#include "u64_map.h"

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* Minimum vertex cover of the graph on `rem` (bit i: vertex i) with neighbour masks nb;
 * stops improving after `budget` nodes (then *exact = 0). */
static int mvc_bits(const uint64_t *nb, uint64_t rem, int best, long *budget, int *exact)
{
    if (--*budget < 0) {
        *exact = 0;
        return best;
    }
    /* reductions: isolated vertices leave; a degree-1 vertex's neighbour joins the cover */
    int taken = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint64_t r = rem; r; r &= r - 1) {
            int v = __builtin_ctzll(r);
            uint64_t d = nb[v] & rem;
            if (!d) {
                rem &= ~(1ull << v);
                changed = 1;
            } else if (!(d & (d - 1))) {
                rem &= ~(d | (1ull << v));
                taken++;
                changed = 1;
            }
        }
    }
    if (!rem) return taken;
    if (taken >= best) return best;
    int v = -1, deg = -1;
    for (uint64_t r = rem; r; r &= r - 1) {
        int u = __builtin_ctzll(r), d = popcount64(nb[u] & rem);
        if (d > deg) {
            deg = d;
            v = u;
        }
    }
    /* take v, or all its neighbours */
    int a = 1 + mvc_bits(nb, rem & ~(1ull << v), best - taken - 1, budget, exact);
    if (a + taken < best) best = a + taken;
    uint64_t nv = nb[v] & rem;
    int b = popcount64(nv);
    if (b + taken < best) {
        b += mvc_bits(nb, rem & ~nv & ~(1ull << v), best - taken - b, budget, exact);
        if (b + taken < best) best = b + taken;
    }
    return best;
}

enum { F_VERTEX = 1, F_MATCHED = 2, F_GONE = 4, F_COVER = 8, F_SEEN = 16 };

/* The implicit race graph and the state of the passes over it. */
typedef struct rgraph {
    const an_run *run;
    an_cand_index *ix;
    /* racing receives by (receiver, comm, tag pattern): their op indices in post order */
    u64_map pat;
    uint32_t npat, *p_start, *p_len, *p_hint, *p_op;
    /* racing receive bit of op i of rank p: bit rank_bit[p] + i */
    uint64_t *racing;
    size_t *rank_bit;
    uint8_t *rank_races;   /* per rank: it has racing receives (else its messages are no vertex) */
    uint32_t *cands;       /* one receive's candidates (ci_cands) */
    uint32_t *nb;          /* the neighbours found last */
    size_t nnb, capnb;
    uint8_t *flags;        /* per message, F_* */
    uint32_t *deg;         /* per message: its (remaining) degree */
    uint32_t *parent;      /* union-find; a root is its component's smallest message */
} rgraph;

static uint64_t pattern_key(uint32_t p, uint32_t comm, int32_t tag)
{
    return u64_mix(u64_mix(u64_mix(0x9a7, p), comm), (uint32_t)tag);
}

static int rgraph_init(rgraph *g, const an_run *run, const an_races *r)
{
    memset(g, 0, sizeof *g);
    g->run = run;
    g->ix = r->index;
    size_t bits = 0;
    g->rank_bit = malloc(((size_t)run->nranks + 1) * sizeof *g->rank_bit);
    g->rank_races = calloc((size_t)run->nranks + 1, 1);
    if (!g->rank_bit || !g->rank_races) return -1;
    for (int p = 0; p < run->nranks; p++) {
        g->rank_bit[p] = bits;
        bits += run->ranks[p].nops;
    }
    uint32_t *of = malloc((r->nraces + 1) * sizeof *of);
    g->racing = calloc(bits / 64 + 1, sizeof *g->racing);
    g->p_start = calloc(r->nraces + 1, sizeof *g->p_start);
    g->p_len = calloc(r->nraces + 1, sizeof *g->p_len);
    g->p_hint = calloc(r->nraces + 1, sizeof *g->p_hint);
    g->p_op = malloc((r->nraces + 1) * sizeof *g->p_op);
    g->cands = malloc((g->ix->max_senders + 1) * sizeof *g->cands);
    /* one entry per message: in the spill file with the messages */
    g->flags = an_spill_calloc(run->spill, (size_t)run->nmsgs + 1, 1);
    g->deg = an_spill_calloc(run->spill, (size_t)run->nmsgs + 1, sizeof *g->deg);
    g->parent = an_spill_calloc(run->spill, (size_t)run->nmsgs + 1, sizeof *g->parent);
    if (!of || !g->racing || !g->p_start || !g->p_len || !g->p_hint || !g->p_op || !g->cands ||
        !g->flags || !g->deg || !g->parent) {
        free(of);
        return -1;
    }
    for (size_t k = 0; k < r->nraces; k++) {
        const an_race *x = &r->races[k];
        const an_op *o = &run->ranks[x->rank].ops[x->op];
        size_t b = g->rank_bit[x->rank] + x->op;
        g->racing[b / 64] |= 1ull << (b % 64);
        g->rank_races[x->rank] = 1;
        int added;
        uint64_t *s = u64_map_slot(&g->pat, pattern_key((uint32_t)x->rank, o->comm, o->tag), g->npat, &added);
        if (!s) {
            free(of);
            return -1;
        }
        g->npat += (uint32_t)added;
        of[k] = *s;
        g->p_len[*s]++;
    }
    for (uint32_t t = 1; t < g->npat; t++) g->p_start[t] = g->p_start[t - 1] + g->p_len[t - 1];
    memset(g->p_len, 0, (r->nraces + 1) * sizeof *g->p_len);
    for (size_t k = 0; k < r->nraces; k++) g->p_op[g->p_start[of[k]] + g->p_len[of[k]]++] = r->races[k].op;
    free(of);
    for (uint32_t m = 0; m < run->nmsgs; m++) g->parent[m] = m;
    return 0;
}

static void rgraph_free(rgraph *g)
{
    u64_map_free(&g->pat);
    free(g->p_start);
    free(g->p_len);
    free(g->p_hint);
    free(g->p_op);
    free(g->racing);
    free(g->rank_bit);
    free(g->rank_races);
    free(g->cands);
    free(g->nb);
    an_spill_free(g->run->spill, g->flags);
    an_spill_free(g->run->spill, g->deg);
    an_spill_free(g->run->spill, g->parent);
}

static int push_nb(rgraph *g, uint32_t v)
{
    if (mpirr_reserve((void **)&g->nb, &g->capnb, g->nnb + 1, sizeof *g->nb)) return -1;
    g->nb[g->nnb++] = v;
    return 0;
}

static int has_u32(const uint32_t *a, size_t n, uint32_t v)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && a[lo] == v;
}

static void sort_u32(uint32_t *a, size_t n);

/* Adds to g->nb the messages got by the racing receives of pattern list t (of receiver p) posted
 * in [lo, hi) at which message u was a candidate: the others' senders, whose receive did not
 * happen before u's send. The first nfwd entries of g->nb (sorted) are not repeated. */
static int reverse(rgraph *g, uint32_t u, uint32_t p, uint64_t t, uint32_t lo, uint32_t hi, size_t nfwd)
{
    const an_msg *m = &g->run->msgs[u];
    const an_op *ops = g->run->ranks[p].ops;
    const uint32_t *list = g->p_op + g->p_start[t];
    for (uint32_t k = ci_first_at_least(list, sizeof *list, g->p_len[t], lo, &g->p_hint[t]);
         k < g->p_len[t] && list[k] < hi; k++) {
        const an_op *r = &ops[list[k]];
        if (g->run->msgs[r->msg].sender == m->sender || an_after(m, r->done) || has_u32(g->nb, nfwd, r->msg))
            continue;
        if (push_nb(g, r->msg)) return -1;
    }
    return 0;
}

/* The neighbours of message u into g->nb (unsorted). -1: out of memory. */
static int neighbours(rgraph *g, uint32_t u)
{
    const an_run *run = g->run;
    const an_msg *m = &run->msgs[u];
    const an_op *so = &run->ranks[m->sender].ops[m->send_op];
    uint32_t p = m->receiver;
    g->nnb = 0;
    if (!g->rank_races[p]) return 0;
    if (m->recv_op != AN_NIL) {
        size_t b = g->rank_bit[p] + m->recv_op;
        if (g->racing[b / 64] >> (b % 64) & 1) {
            uint32_t n = ci_cands(g->ix, (int)p, m->recv_op, g->cands);
            for (uint32_t k = 1; k < n; k++)
                if (push_nb(g, g->cands[k])) return -1;
            sort_u32(g->nb, g->nnb);
        }
    }
    size_t nfwd = g->nnb;
    /* the racing receives that accept u's tag, or any tag (most messages have none) */
    uint64_t t_tag, t_any;
    int by_tag = so->tag != AN_ANY && u64_map_get(&g->pat, pattern_key(p, so->comm, so->tag), &t_tag);
    int by_any = g->ix->streams && u64_map_get(&g->pat, pattern_key(p, so->comm, AN_ANY), &t_any);
    if (!by_tag && !by_any) return 0;
    /* u came first on its channel from the receive after its predecessor's up to its own */
    uint32_t lo = 0;
    if (u > 0 && ci_same_channel(run, u - 1, u)) {
        if (run->msgs[u - 1].recv_op == AN_NIL) return 0;
        lo = run->msgs[u - 1].recv_op + 1;
    }
    if (by_tag && reverse(g, u, p, t_tag, lo, m->recv_op, nfwd)) return -1;
    uint32_t prev;
    int has_prev;
    if (!by_any || !ci_stream_prev(g->ix, u, &prev, &has_prev) || (has_prev && prev == AN_NIL)) return 0;
    return reverse(g, u, p, t_any, has_prev ? prev + 1 : 0, m->recv_op, nfwd);
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void sort_u32(uint32_t *a, size_t n)
{
    if (n > 24) {
        qsort(a, n, sizeof *a, by_u32);
        return;
    }
    for (size_t i = 1; i < n; i++) /* candidate lists are short: insertion sort */
        for (size_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
            uint32_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

static uint32_t find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void unite(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = find(parent, a);
    b = find(parent, b);
    if (a < b) parent[b] = a;
    else if (b < a) parent[a] = b;
}

/* Degrees, vertices, edges, the greedy matching (each vertex in order with its smallest
 * unmatched neighbour above it) and the components, in one pass in message order. */
static int first_pass(rgraph *g, an_cover *out)
{
    uint64_t ends = 0;
    for (uint32_t u = 0; u < g->run->nmsgs; u++) {
        if (neighbours(g, u)) return -1;
        g->deg[u] = (uint32_t)g->nnb;
        if (!g->nnb) continue;
        g->flags[u] |= F_VERTEX;
        out->vertices++;
        ends += g->nnb;
        uint32_t best = AN_NIL;
        for (size_t k = 0; k < g->nnb; k++) {
            uint32_t w = g->nb[k];
            if (w < u) continue;
            unite(g->parent, u, w);
            if (w < best && !(g->flags[w] & F_MATCHED)) best = w;
        }
        if (!(g->flags[u] & F_MATCHED) && best != AN_NIL) {
            g->flags[u] |= F_MATCHED;
            g->flags[best] |= F_MATCHED;
            out->matching++;
        }
    }
    out->edges = ends / 2;
    return 0;
}

/* The degree-1 reduction on the whole graph: a degree-1 vertex leaves, its neighbour joins the
 * cover (F_COVER), their neighbours lose a degree; vertices left without one leave. */
static int reduce(rgraph *g)
{
    uint32_t *queue = NULL;
    size_t qn = 0, cap = 0;
    int rc = -1;
    for (uint32_t u = 0; u < g->run->nmsgs; u++)
        if (g->deg[u] == 1) {
            if (mpirr_reserve((void **)&queue, &cap, qn + 1, sizeof *queue)) goto out;
            queue[qn++] = u;
        }
    while (qn) {
        uint32_t v = queue[--qn], w = AN_NIL;
        if ((g->flags[v] & F_GONE) || g->deg[v] != 1) continue;
        if (neighbours(g, v)) goto out;
        for (size_t k = 0; k < g->nnb; k++)
            if (!(g->flags[g->nb[k]] & F_GONE)) w = g->nb[k];
        g->flags[v] |= F_GONE;
        if (w == AN_NIL) continue;
        g->flags[w] |= F_GONE | F_COVER;
        if (neighbours(g, w)) goto out;
        for (size_t k = 0; k < g->nnb; k++) {
            uint32_t u = g->nb[k];
            if (g->flags[u] & F_GONE) continue;
            if (--g->deg[u] == 1) {
                if (mpirr_reserve((void **)&queue, &cap, qn + 1, sizeof *queue)) goto out;
                queue[qn++] = u;
            } else if (g->deg[u] == 0) {
                g->flags[u] |= F_GONE;
            }
        }
    }
    rc = 0;
out:
    free(queue);
    return rc;
}

static int remains(const rgraph *g, uint32_t u) { return !(g->flags[u] & F_GONE) && g->deg[u]; }

/* Exact cover of the at most 64 vertices left of the component whose smallest message is
 * start, by branch and bound; numbered in depth-first order from start, neighbours in
 * increasing order (the search's budget makes the order matter). -1: not exact; -2: out of
 * memory. */
static long core_cover(rgraph *g, uint32_t start, uint32_t left)
{
    uint32_t *stack = NULL, local[64], nl = 0;
    size_t sn = 0, cap = 0;
    long rc = -2;
    if (mpirr_reserve((void **)&stack, &cap, 1, sizeof *stack)) return -2;
    stack[sn++] = start;
    g->flags[start] |= F_SEEN;
    while (sn) {
        uint32_t u = stack[--sn];
        if (remains(g, u) && nl < 64) local[nl++] = u;
        if (neighbours(g, u)) goto out;
        sort_u32(g->nb, g->nnb);
        for (size_t k = 0; k < g->nnb; k++) {
            uint32_t w = g->nb[k];
            if (g->flags[w] & F_SEEN) continue;
            g->flags[w] |= F_SEEN;
            if (mpirr_reserve((void **)&stack, &cap, sn + 1, sizeof *stack)) goto out;
            stack[sn++] = w;
        }
    }
    uint64_t nb[64] = {0};
    for (uint32_t i = 0; i < nl; i++) {
        if (neighbours(g, local[i])) goto out;
        for (size_t k = 0; k < g->nnb; k++)
            for (uint32_t j = 0; j < nl; j++)
                if (local[j] == g->nb[k]) nb[i] |= 1ull << j;
    }
    long budget = 2000000;
    int exact = 1;
    uint64_t all = left == 64 ? ~0ull : (1ull << left) - 1;
    int best = mvc_bits(nb, all, (int)left, &budget, &exact);
    rc = exact ? best : -1;
out:
    free(stack);
    return rc;
}

/* Per component (by smallest message, the order a search from each unvisited vertex in turn
 * meets them): what the reduction took, and how many vertices and edge ends are left. */
typedef struct component {
    uint32_t first, taken, left;
    uint64_t ends;
} component;

static int covers(rgraph *g, an_cover *out)
{
    component *c = NULL;
    size_t nc = 0, cap = 0;
    int rc = -1;
    for (uint32_t u = 0; u < g->run->nmsgs; u++) {
        if (!(g->flags[u] & F_VERTEX) || find(g->parent, u) != u) continue;
        if (mpirr_reserve((void **)&c, &cap, nc + 1, sizeof *c)) goto out;
        c[nc++] = (component){u, 0, 0, 0};
    }
    for (uint32_t u = 0; u < g->run->nmsgs; u++) {
        if (!(g->flags[u] & F_VERTEX)) continue;
        uint32_t root = find(g->parent, u);
        size_t lo = 0, hi = nc;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (c[mid].first < root) lo = mid + 1;
            else hi = mid;
        }
        c[lo].taken += (g->flags[u] & F_COVER) != 0;
        if (remains(g, u)) {
            c[lo].left++;
            c[lo].ends += g->deg[u];
        }
    }
    int64_t total = 0;
    out->components = nc;
    for (size_t k = 0; k < nc; k++) {
        long x;
        uint64_t left = c[k].left;
        if (!left) x = 0;
        else if (c[k].ends / 2 == left * (left - 1) / 2) x = (long)left - 1; /* a clique */
        else if (left > 64) x = -1;
        else if ((x = core_cover(g, c[k].first, c[k].left)) == -2) goto out;
        if (x < 0) continue;
        out->exact_components++;
        total += c[k].taken + x;
    }
    out->min_cover = out->exact_components == nc ? total : -1;
    rc = 0;
out:
    free(c);
    return rc;
}

int an_optimal_trace(const an_run *run, const an_races *r, an_cover *out)
{
    memset(out, 0, sizeof *out);
    out->min_cover = -1;
    if (!r->nraces) {
        out->min_cover = 0;
        return 0;
    }
    rgraph g;
    int rc = -1;
    if (!rgraph_init(&g, run, r) && !first_pass(&g, out) && !reduce(&g) && !covers(&g, out)) rc = 0;
    rgraph_free(&g);
    return rc;
}
