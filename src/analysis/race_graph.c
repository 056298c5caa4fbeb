/* race_graph.c: the optimal trace (Netzer & Miller section 4.3, Theorem 3): messages are
 * vertices, races are edges, and a trace that replays the run must hold a vertex cover. The
 * graph is built straight from the candidate lists (each racing receive a star), as adjacency
 * lists sorted and deduplicated in place: 4 bytes per pair and direction, vertices numbered
 * in message order (so that every pass below visits them as a sorted list of pairs would). A
 * maximal matching gives the paper's lower bound (footnote 3); the exact minimum cover is
 * computed per connected component after the safe degree-0/1 reductions, by branch and bound
 * when at most 64 vertices remain, or directly for a clique (the transitive case, Theorem 4). */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

typedef struct graph {
    uint32_t n;
    size_t *start;  /* CSR: adj[start[v] .. start[v + 1]) */
    uint32_t *adj;
} graph;

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

/* Exact cover of one component (vertices comp[0..k)), or -1. */
static long component_cover(const graph *g, const uint32_t *comp, uint32_t k, uint32_t *deg,
                            uint8_t *gone, uint32_t *local)
{
    /* degree-1 reduction on the whole component (trees vanish entirely) */
    long cover = 0;
    uint32_t *queue = malloc((k + 1) * sizeof *queue), qn = 0;
    if (!queue) return -1;
    for (uint32_t i = 0; i < k; i++)
        if (deg[comp[i]] == 1) queue[qn++] = comp[i];
    while (qn) {
        uint32_t v = queue[--qn];
        if (gone[v] || deg[v] != 1) continue;
        uint32_t w = AN_NIL;
        for (size_t j = g->start[v]; j < g->start[v + 1]; j++)
            if (!gone[g->adj[j]]) w = g->adj[j];
        gone[v] = 1;
        if (w == AN_NIL) continue;
        gone[w] = 1;
        cover++;
        for (size_t j = g->start[w]; j < g->start[w + 1]; j++) {
            uint32_t u = g->adj[j];
            if (gone[u]) continue;
            if (--deg[u] == 1) queue[qn++] = u;
            else if (deg[u] == 0) gone[u] = 1;
        }
    }
    free(queue);
    uint32_t left = 0;
    uint64_t edges = 0;
    for (uint32_t i = 0; i < k; i++)
        if (!gone[comp[i]] && deg[comp[i]]) {
            local[comp[i]] = left++;
            edges += deg[comp[i]];
        }
    edges /= 2;
    if (!left) return cover;
    if (edges == (uint64_t)left * (left - 1) / 2) return cover + left - 1; /* a clique */
    if (left > 64) return -1;
    uint64_t nb[64] = {0};
    for (uint32_t i = 0; i < k; i++) {
        uint32_t v = comp[i];
        if (gone[v] || !deg[v]) continue;
        for (size_t j = g->start[v]; j < g->start[v + 1]; j++)
            if (!gone[g->adj[j]]) nb[local[v]] |= 1ull << local[g->adj[j]];
    }
    long budget = 2000000;
    int exact = 1;
    uint64_t all = left == 64 ? ~0ull : (1ull << left) - 1;
    int best = mvc_bits(nb, all, (int)left, &budget, &exact);
    return exact ? cover + best : -1;
}

/* Vertex ids: the messages in some race, numbered in message order (a bitmap and the count
 * of set bits before each word). */
typedef struct vertex_ids {
    uint64_t *bits;
    uint32_t *before;
} vertex_ids;

static uint32_t vid(const vertex_ids *x, uint32_t m)
{
    uint64_t below = x->bits[m >> 6] & ((1ull << (m & 63)) - 1);
    return x->before[m >> 6] + (uint32_t)__builtin_popcountll(below);
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
    for (size_t i = 1; i < n; i++) /* adjacency lists are short: insertion sort */
        for (size_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
            uint32_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* The race graph of r: g (adjacency sorted, without duplicate pairs) and deg. -1: out of
 * memory. */
static int build_graph(const an_run *run, const an_races *r, graph *g, uint32_t **deg_out, uint64_t *edges)
{
    size_t words = ((size_t)run->nmsgs + 63) / 64 + 1;
    vertex_ids x = {calloc(words, sizeof *x.bits), malloc(words * sizeof *x.before)};
    uint32_t *deg = NULL;
    int rc = -1;
    if (!x.bits || !x.before) goto out;
    for (size_t i = 0; i < r->nraces; i++)
        for (uint32_t k = 0; k < r->races[i].n; k++) {
            uint32_t m = r->cand[r->races[i].first + k];
            x.bits[m >> 6] |= 1ull << (m & 63);
        }
    uint32_t n = 0;
    for (size_t w = 0; w < words; w++) {
        x.before[w] = n;
        n += (uint32_t)__builtin_popcountll(x.bits[w]);
    }
    g->n = n;
    deg = calloc((size_t)n + 1, sizeof *deg);
    g->start = calloc((size_t)n + 2, sizeof *g->start);
    if (!deg || !g->start) goto out;
    /* each racing receive joins its message (first) to each other candidate */
    size_t raw = 0;
    for (size_t i = 0; i < r->nraces; i++) {
        const an_race *rc_ = &r->races[i];
        uint32_t a = vid(&x, r->cand[rc_->first]);
        for (uint32_t k = 1; k < rc_->n; k++) {
            deg[a]++;
            deg[vid(&x, r->cand[rc_->first + k])]++;
            raw += 2;
        }
    }
    g->adj = malloc((raw ? raw : 1) * sizeof *g->adj);
    if (!g->adj) goto out;
    for (uint32_t v = 0; v < n; v++) {
        g->start[v + 1] = g->start[v] + deg[v];
        deg[v] = 0;
    }
    for (size_t i = 0; i < r->nraces; i++) {
        const an_race *rc_ = &r->races[i];
        uint32_t a = vid(&x, r->cand[rc_->first]);
        for (uint32_t k = 1; k < rc_->n; k++) {
            uint32_t b = vid(&x, r->cand[rc_->first + k]);
            g->adj[g->start[a] + deg[a]++] = b;
            g->adj[g->start[b] + deg[b]++] = a;
        }
    }
    /* sort each list and drop repeated pairs (a pair races at both its receives when each
     * message was the other's candidate), compacting in place */
    size_t w = 0, lo = 0;
    for (uint32_t v = 0; v < n; v++) {
        size_t hi = g->start[v + 1];
        sort_u32(g->adj + lo, hi - lo);
        g->start[v] = w;
        for (size_t k = lo; k < hi; k++)
            if (k == lo || g->adj[k] != g->adj[k - 1]) g->adj[w++] = g->adj[k];
        deg[v] = (uint32_t)(w - g->start[v]);
        lo = hi;
    }
    g->start[n] = w;
    *edges = w / 2;
    uint32_t *shrunk = realloc(g->adj, (w ? w : 1) * sizeof *g->adj);
    if (shrunk) g->adj = shrunk;
    *deg_out = deg;
    deg = NULL;
    rc = 0;
out:
    free(x.bits);
    free(x.before);
    free(deg);
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
    graph g = {0};
    uint32_t *deg = NULL, *comp = NULL, *local = NULL, *stack = NULL;
    uint8_t *matched = NULL, *seen = NULL, *gone = NULL;
    int rc = -1;
    if (build_graph(run, r, &g, &deg, &out->edges)) goto out;
    out->vertices = g.n;
    matched = calloc(g.n + 1, 1);
    seen = calloc(g.n + 1, 1);
    gone = calloc(g.n + 1, 1);
    comp = malloc((g.n + 1) * sizeof *comp);
    local = malloc((g.n + 1) * sizeof *local);
    stack = malloc((g.n + 1) * sizeof *stack);
    if (!matched || !seen || !gone || !comp || !local || !stack) goto out;
    /* greedy maximal matching over the pairs in order (the paper's lower bound) */
    for (uint32_t u = 0; u < g.n; u++)
        for (size_t j = g.start[u]; j < g.start[u + 1] && !matched[u]; j++) {
            uint32_t v = g.adj[j];
            if (v > u && !matched[v]) {
                matched[u] = matched[v] = 1;
                out->matching++;
            }
        }
    int64_t total = 0;
    int all_exact = 1;
    for (uint32_t v = 0; v < g.n; v++) {
        if (seen[v]) continue;
        uint32_t k = 0, sn = 0;
        stack[sn++] = v;
        seen[v] = 1;
        while (sn) {
            uint32_t u = stack[--sn];
            comp[k++] = u;
            for (size_t j = g.start[u]; j < g.start[u + 1]; j++)
                if (!seen[g.adj[j]]) {
                    seen[g.adj[j]] = 1;
                    stack[sn++] = g.adj[j];
                }
        }
        out->components++;
        long c = component_cover(&g, comp, k, deg, gone, local);
        if (c < 0) {
            all_exact = 0;
        } else {
            out->exact_components++;
            total += c;
        }
    }
    out->min_cover = all_exact ? total : -1;
    rc = 0;
out:
    free(g.start);
    free(g.adj);
    free(deg);
    free(matched);
    free(seen);
    free(gone);
    free(comp);
    free(local);
    free(stack);
    return rc;
}
