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

static int one_rank(const an_run *run, int p, an_races *out, size_t *cap_r, size_t *cap_c)
{
    const an_rank *rk = &run->ranks[p];
    size_t n = rk->nops;
    /* task and level of every op; first send event of each op's task */
    uint32_t *level = malloc((n + 1) * sizeof *level);
    uint64_t *first_send = malloc((n + 1) * sizeof *first_send);
    size_t *task_start = malloc((n + 2) * sizeof *task_start);
    entry *ent = NULL;
    int rc = -1;
    if (!level || !first_send || !task_start) goto out;
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
    out->ch_tasks += ntasks;
    /* control points: min hb_dest of what is received after each task, from the end */
    uint64_t after_min = UINT64_MAX;
    uint32_t *cp = calloc(ntasks + 1, sizeof *cp);
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
            first_send[i] = fs;
            const an_op *o = &rk->ops[i];
            if (o->kind == AN_RECV && o->msg != AN_NIL && run->msgs[o->msg].hb_dest < after_min)
                after_min = run->msgs[o->msg].hb_dest;
        }
    }
    uint32_t lv = 1;
    for (size_t t = 0; t < ntasks; t++) {
        for (size_t i = task_start[t]; i < task_start[t + 1]; i++) level[i] = lv;
        if (cp[t]) {
            lv++;
            out->ch_control_points++;
        }
    }
    free(cp);
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
    ent = malloc((ne + 1) * sizeof *ent);
    if (!ent) goto out;
    ne = 0;
    for (size_t i = 0; i < n; i++) {
        const an_op *o = &rk->ops[i];
        if (o->kind != AN_RECV || o->msg == AN_NIL) continue;
        for (int a = 0; a < 2; a++)
            ent[ne++] = (entry){pattern_key(level[i], o->comm, a ? AN_ANY : o->mtag), run->msgs[o->msg].hb_dest, o->msg};
    }
    qsort(ent, ne, sizeof *ent, by_key);
    for (size_t i = 0; i < n; i++) {
        const an_op *r = &rk->ops[i];
        if (r->kind != AN_RECV || r->msg == AN_NIL || r->peer != AN_ANY) continue;
        uint64_t key = pattern_key(level[i], r->comm, r->tag);
        size_t lo = lower(ent, ne, key, 0);
        /* reach(t) leaves out what t controls: messages whose send knew t's first send */
        uint64_t limit = first_send[i] == UINT64_MAX ? UINT64_MAX : 2 * first_send[i];
        size_t hi = lower(ent, ne, key, limit);
        if (hi - lo < 2) continue;
        if (an_reserve((void **)&out->ch, cap_r, out->nch + 1, sizeof *out->ch)) goto out;
        size_t keep = hi - lo < AN_CH_KEEP ? hi - lo : AN_CH_KEEP; /* memory stays linear */
        out->ch[out->nch++] = (an_race){p, (uint32_t)i, (uint32_t)out->nch_cand, (uint32_t)(hi - lo), (uint32_t)keep};
        if (an_reserve((void **)&out->ch_cand, cap_c, out->nch_cand + keep, sizeof *out->ch_cand)) goto out;
        for (size_t k = lo; k < lo + keep; k++) out->ch_cand[out->nch_cand++] = ent[k].msg;
    }
    rc = 0;
out:
    free(level);
    free(first_send);
    free(task_start);
    free(ent);
    return rc;
}

int an_chu_huang(const an_run *run, an_races *out)
{
    size_t cap_r = 0, cap_c = 0;
    out->nch = out->nch_cand = 0;
    out->ch_tasks = out->ch_control_points = 0;
    for (int p = 0; p < run->nranks; p++)
        if (one_rank(run, p, out, &cap_r, &cap_c)) return -1;
    return 0;
}
