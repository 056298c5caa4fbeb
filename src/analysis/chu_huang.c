/* chu_huang.c: Chu & Huang's post-mortem race detection (paper 004, sections 3-4): each
 * process is cut into tasks (a task ends where a receive follows a send); a task is a control
 * point when every message the process receives after it was sent causally after the task's
 * sends; control points cut the process into levels, and a receive's reachable set is the
 * messages received at its level that its own task does not control (cs(t): sent after t's
 * first send). A receive races when two or more of them are acceptable to it. This method
 * knows nothing of MPI's ordering: it also counts messages that an earlier receive of the
 * same level had to take (docs/analysis.md explains the differences to races.c). Receives
 * naming their source are not asked: MPI's order makes them deterministic, and the method
 * would call every one racing that a stream of same-tag messages reaches. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "reserve.h"
#include "u64_map.h"

typedef struct entry {
    uint64_t key, hb;
    uint32_t msg;
} entry;

static int by_key(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->hb != y->hb) return x->hb < y->hb ? -1 : 1;
    return x->msg < y->msg ? -1 : x->msg > y->msg;
}

static uint64_t pattern_key(uint32_t level, uint32_t comm, int32_t tag)
{
    return u64_mix(u64_mix(u64_mix(0xc4, level), comm), (uint32_t)tag);
}

/* First entry with key and hb >= hb_from. */
static size_t lower(const entry *e, size_t n, uint64_t key, uint64_t hb)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[mid].key < key || (e[mid].key == key && e[mid].hb < hb)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* One rank's reach index: its received messages sorted by (level, comm, tag or any), then
 * hb_dest, so that every reach set is one range of it. *first_send and *level (per op) are
 * handed back when asked for (the analysis needs them, a listing does not). */
typedef struct rank_index {
    entry *ent;
    size_t ne;
    uint32_t *level;      /* per op */
    uint64_t *first_send; /* per op: first send of its task, UINT64_MAX if none */
    uint64_t tasks, control_points;
} rank_index;

static void index_free(rank_index *x)
{
    free(x->ent);
    free(x->level);
    free(x->first_send);
    memset(x, 0, sizeof *x);
}

/* Builds x for rank p; x->ent stays NULL when the rank has no wildcard-source receive (none is
 * asked). -1: out of memory. */
static int index_build(const an_run *run, int p, rank_index *x)
{
    memset(x, 0, sizeof *x);
    const an_rank *rk = &run->ranks[p];
    size_t n = rk->nops;
    x->level = malloc((n + 1) * sizeof *x->level);
    x->first_send = malloc((n + 1) * sizeof *x->first_send);
    size_t *task_start = malloc((n + 2) * sizeof *task_start);
    uint32_t *cp = NULL;
    int rc = -1;
    if (!x->level || !x->first_send || !task_start) goto out;
    /* the first task runs up to the first receive; every other starts at a receive that
     * follows a send (or at the first receive) */
    size_t ntasks = 1;
    int sent = 0, seen_recv = 0;
    task_start[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const an_op *o = &rk->ops[i];
        if (o->kind == AN_RECV && (!seen_recv || sent)) {
            if (i > 0) task_start[ntasks++] = i;
            seen_recv = 1;
            sent = 0;
        }
        if (o->kind == AN_SEND) sent = 1;
    }
    task_start[ntasks] = n;
    x->tasks = ntasks;
    /* control points: min hb_dest of what is received after each task, from the end */
    uint64_t after_min = UINT64_MAX;
    cp = calloc(ntasks + 1, sizeof *cp);
    if (!cp) goto out;
    for (size_t t = ntasks; t-- > 0;) {
        uint64_t fs = UINT64_MAX;
        for (size_t i = task_start[t]; i < task_start[t + 1]; i++)
            if (rk->ops[i].kind == AN_SEND) {
                fs = rk->ops[i].post;
                break;
            }
        cp[t] = fs != UINT64_MAX && after_min >= 2 * fs;
        for (size_t i = task_start[t]; i < task_start[t + 1]; i++) {
            x->first_send[i] = fs;
            const an_op *o = &rk->ops[i];
            if (o->kind == AN_RECV && o->msg != AN_NIL && run->msgs[o->msg].hb_dest < after_min)
                after_min = run->msgs[o->msg].hb_dest;
        }
    }
    uint32_t lv = 1;
    for (size_t t = 0; t < ntasks; t++) {
        for (size_t i = task_start[t]; i < task_start[t + 1]; i++) x->level[i] = lv;
        if (cp[t]) {
            lv++;
            x->control_points++;
        }
    }
    /* index the received messages by (level, comm, tag or any); only wildcard-source receives
     * are asked (docs/analysis.md: in MPI a receive that names its source cannot race) */
    size_t ne = 0, wild = 0;
    for (size_t i = 0; i < n; i++)
        if (rk->ops[i].kind == AN_RECV && rk->ops[i].msg != AN_NIL) {
            ne += 2;
            wild += rk->ops[i].peer == AN_ANY;
        }
    if (!wild) {
        rc = 0;
        goto out;
    }
    x->ent = malloc((ne + 1) * sizeof *x->ent);
    if (!x->ent) goto out;
    for (size_t i = 0; i < n; i++) {
        const an_op *o = &rk->ops[i];
        if (o->kind != AN_RECV || o->msg == AN_NIL) continue;
        for (int a = 0; a < 2; a++)
            x->ent[x->ne++] = (entry){pattern_key(x->level[i], o->comm, a ? AN_ANY : o->mtag), run->msgs[o->msg].hb_dest, o->msg};
    }
    qsort(x->ent, x->ne, sizeof *x->ent, by_key);
    rc = 0;
out:
    free(task_start);
    free(cp);
    return rc;
}

/* The reach set of receive i of x's rank: x->ent[*lo .. *hi). */
static void reach_range(const an_run *run, int p, const rank_index *x, size_t i, size_t *lo, size_t *hi)
{
    const an_op *r = &run->ranks[p].ops[i];
    uint64_t key = pattern_key(x->level[i], r->comm, r->tag);
    *lo = lower(x->ent, x->ne, key, 0);
    /* reach(t) leaves out what t controls: messages whose send knew t's first send */
    uint64_t limit = x->first_send[i] == UINT64_MAX ? UINT64_MAX : 2 * x->first_send[i];
    *hi = lower(x->ent, x->ne, key, limit);
}

static int one_rank(const an_run *run, int p, an_races *out, size_t *cap_r)
{
    const an_rank *rk = &run->ranks[p];
    rank_index x;
    int rc = -1;
    if (index_build(run, p, &x)) goto out;
    out->ch_tasks += x.tasks;
    out->ch_control_points += x.control_points;
    for (size_t i = 0; x.ent && i < rk->nops; i++) {
        const an_op *r = &rk->ops[i];
        if (r->kind != AN_RECV || r->msg == AN_NIL || r->peer != AN_ANY) continue;
        size_t lo, hi;
        reach_range(run, p, &x, i, &lo, &hi);
        if (hi - lo < 2) continue;
        if (mpirr_reserve((void **)&out->ch, cap_r, out->nch + 1, sizeof *out->ch)) goto out;
        /* the list is not kept (it can hold every message of a level): `first` is where it
         * starts in the rank's index, which an_ch_reach rebuilds to list it */
        size_t keep = hi - lo < AN_CH_KEEP ? hi - lo : AN_CH_KEEP;
        out->ch[out->nch++] = (an_race){p, (uint32_t)i, (uint32_t)lo, (uint32_t)(hi - lo), (uint32_t)keep};
    }
    rc = 0;
out:
    index_free(&x);
    return rc;
}

int an_chu_huang(const an_run *run, an_races *out)
{
    size_t cap_r = 0;
    out->nch = 0;
    out->ch_tasks = out->ch_control_points = 0;
    for (int p = 0; p < run->nranks; p++)
        if (one_rank(run, p, out, &cap_r)) return -1;
    return 0;
}

int an_ch_reach(const an_run *run, const an_race *r, an_reach_index *ix, uint32_t *list)
{
    if (!ix->index || ix->rank != r->rank) {
        an_reach_index_free(ix);
        rank_index *x = calloc(1, sizeof *x);
        if (!x || index_build(run, r->rank, x)) {
            free(x);
            return -1;
        }
        /* a listing needs only the sorted entries */
        free(x->level);
        free(x->first_send);
        x->level = NULL;
        x->first_send = NULL;
        ix->index = x;
        ix->rank = r->rank;
    }
    const rank_index *x = ix->index;
    for (uint32_t k = 0; k < r->kept; k++) list[k] = x->ent[r->first + k].msg;
    return 0;
}

void an_reach_index_free(an_reach_index *ix)
{
    if (ix->index) index_free(ix->index);
    free(ix->index);
    ix->index = NULL;
}
