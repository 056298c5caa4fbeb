/* race_graph.c: the optimal trace (Netzer & Miller section 4.3, Theorem 3): messages are
 * vertices, races are edges, and a trace that replays the run must hold a vertex cover. A
 * maximal matching gives the paper's lower bound (footnote 3); the exact minimum cover is
 * computed per connected component after the safe degree-0/1 reductions, by branch and bound
 * when at most 64 vertices remain, or directly for a clique (the transitive case, Theorem 4). */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "u64_map.h"

typedef struct graph {
    uint32_t n;
    uint32_t *start, *adj; /* CSR */
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
        for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++)
            if (!gone[g->adj[j]]) w = g->adj[j];
        gone[v] = 1;
        if (w == AN_NIL) continue;
        gone[w] = 1;
        cover++;
        for (uint32_t j = g->start[w]; j < g->start[w + 1]; j++) {
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
        for (uint32_t j = g->start[v]; j < g->start[v + 1]; j++)
            if (!gone[g->adj[j]]) nb[local[v]] |= 1ull << local[g->adj[j]];
    }
    long budget = 2000000;
    int exact = 1;
    uint64_t all = left == 64 ? ~0ull : (1ull << left) - 1;
    int best = mvc_bits(nb, all, (int)left, &budget, &exact);
    return exact ? cover + best : -1;
}

void an_optimal_trace(const an_run *run, const an_races *r, an_cover *out)
{
    (void)run;
    memset(out, 0, sizeof *out);
    out->min_cover = -1;
    if (!r->nedges) {
        out->min_cover = 0;
        return;
    }
    u64_map ids = {0};
    graph g = {0};
    uint32_t *deg = NULL, *comp = NULL, *local = NULL, *stack = NULL;
    uint8_t *matched = NULL, *seen = NULL, *gone = NULL;
    uint32_t (*e)[2] = malloc(r->nedges * sizeof *e);
    if (!e) goto out;
    for (size_t i = 0; i < r->nedges; i++)
        for (int s = 0; s < 2; s++) {
            uint32_t *v = u64_map_slot(&ids, r->edges[i][s], g.n, NULL);
            if (!v) goto out;
            if (*v == g.n) g.n++;
            e[i][s] = *v;
        }
    out->vertices = g.n;
    g.start = calloc(g.n + 2, sizeof *g.start);
    g.adj = malloc(2 * r->nedges * sizeof *g.adj);
    deg = calloc(g.n + 1, sizeof *deg);
    matched = calloc(g.n + 1, 1);
    seen = calloc(g.n + 1, 1);
    gone = calloc(g.n + 1, 1);
    comp = malloc((g.n + 1) * sizeof *comp);
    local = malloc((g.n + 1) * sizeof *local);
    stack = malloc((g.n + 1) * sizeof *stack);
    if (!g.start || !g.adj || !deg || !matched || !seen || !gone || !comp || !local || !stack) goto out;
    for (size_t i = 0; i < r->nedges; i++) {
        deg[e[i][0]]++;
        deg[e[i][1]]++;
        /* greedy maximal matching: the paper's lower bound */
        if (!matched[e[i][0]] && !matched[e[i][1]]) {
            matched[e[i][0]] = matched[e[i][1]] = 1;
            out->matching++;
        }
    }
    for (uint32_t v = 0; v < g.n; v++) g.start[v + 1] = g.start[v] + deg[v];
    {
        uint32_t *fill = calloc(g.n + 1, sizeof *fill);
        if (!fill) goto out;
        for (size_t i = 0; i < r->nedges; i++) {
            uint32_t a = e[i][0], b = e[i][1];
            g.adj[g.start[a] + fill[a]++] = b;
            g.adj[g.start[b] + fill[b]++] = a;
        }
        free(fill);
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
            for (uint32_t j = g.start[u]; j < g.start[u + 1]; j++)
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
out:
    free(e);
    u64_map_free(&ids);
    free(g.start);
    free(g.adj);
    free(deg);
    free(matched);
    free(seen);
    free(gone);
    free(comp);
    free(local);
    free(stack);
}
