/* comm_ids.c: maps each rank's communicator ids to run-wide ones (see comm_ids.h). */
#include "comm_ids.h"

#include <stdlib.h>
#include <string.h>

static uint64_t members_key(const mpirr_event *e, int sorted)
{
    uint32_t n = e->nranks + e->nremote;
    uint64_t h = u64_mix(0x5eed, n);
    if (!sorted) {
        for (uint32_t i = 0; i < n; i++) h = u64_mix(h, (uint32_t)e->ranks[i]);
        return h;
    }
    /* an inter-communicator's two sides list the groups in opposite order: hash the set */
    uint64_t sum = 0, x = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = u64_mix(7, (uint32_t)e->ranks[i]);
        sum += v;
        x ^= v;
    }
    return u64_mix(u64_mix(h, sum), x);
}

static int grow_local(an_rank *r, uint32_t id)
{
    if (id < r->ncomm_of) return 0;
    uint32_t n = r->ncomm_of ? r->ncomm_of : 8;
    while (n <= id) n *= 2;
    uint32_t *p = realloc(r->comm_of, n * sizeof *p);
    if (!p) return -1;
    r->comm_of = p;
    an_comm *l = realloc(r->lcomm, n * sizeof *l);
    if (!l) return -1;
    r->lcomm = l;
    for (uint32_t i = r->ncomm_of; i < n; i++) {
        p[i] = AN_NIL;
        l[i] = (an_comm){0};
    }
    r->ncomm_of = n;
    return 0;
}

static int copy_members(an_comm *c, const mpirr_event *e, int inter)
{
    uint32_t n = e->nranks + e->nremote;
    free(c->world);
    c->world = malloc((n ? n : 1) * sizeof *c->world);
    if (!c->world) return -1;
    memcpy(c->world, e->ranks, n * sizeof *c->world);
    c->size = e->nranks;
    c->nremote = inter ? e->nremote : 0;
    return 0;
}

/* The next run-wide communicator, grown into (world NULL); the caller counts it in. */
static an_comm *next_comm(an_run *run, uint64_t key)
{
    if (run->ncomms % 64 == 0) {
        an_comm *c = realloc(run->comms, (run->ncomms + 64) * sizeof *c);
        if (!c) return NULL;
        run->comms = c;
        uint64_t *k = realloc(run->comm_keys, (run->ncomms + 64) * sizeof *k);
        if (!k) return NULL;
        run->comm_keys = k;
    }
    run->comm_keys[run->ncomms] = key;
    an_comm *c = &run->comms[run->ncomms];
    c->world = NULL;
    return c;
}

static int new_comm(an_run *run, const mpirr_event *e, int inter, uint64_t key, uint64_t *gid)
{
    an_comm *c = next_comm(run, key);
    if (!c || copy_members(c, e, inter)) return -1;
    *gid = run->ncomms++;
    return 0;
}

int comm_ids_copy(an_run *run, uint32_t of, uint64_t ord, uint32_t *gid)
{
    an_comm *c = next_comm(run, u64_mix(u64_mix(4, run->comm_keys[of]), ord));
    if (!c) return -1;
    const an_comm *src = &run->comms[of];
    uint32_t n = src->size + src->nremote;
    c->world = malloc((n ? n : 1) * sizeof *c->world);
    if (!c->world) return -1;
    memcpy(c->world, src->world, n * sizeof *c->world);
    c->size = src->size;
    c->nremote = src->nremote;
    *gid = run->ncomms++;
    return 0;
}

int comm_ids_define(comm_ids *ids, an_run *run, int rank, const mpirr_event *e)
{
    an_rank *r = &run->ranks[rank];
    if (grow_local(r, e->comm)) return -1;
    int inter = e->root == 1;
    uint32_t parent = e->newcomm < r->ncomm_of ? r->comm_of[e->newcomm] : AN_NIL;
    /* ordinal: how many communicators this rank made before from the same parent (or, without
     * a parent, with the same members) */
    uint64_t ord_key = parent != AN_NIL && !inter
                           ? u64_mix(u64_mix(1, (uint64_t)rank), parent)
                           : u64_mix(u64_mix(2, (uint64_t)rank), members_key(e, inter));
    uint64_t *ord = u64_map_slot(&ids->children, ord_key, 0, NULL);
    if (!ord) return -1;
    /* the parent by its identity, not its id: ids depend on the order histories are read in */
    uint64_t key = u64_mix(u64_mix(u64_mix(parent != AN_NIL && !inter ? run->comm_keys[parent] : AN_NIL, e->req),
                                   *ord),
                           members_key(e, inter));
    (*ord)++;
    int added;
    uint64_t *slot = u64_map_slot(&ids->by_key, key, run->ncomms, &added);
    if (!slot) return -1;
    if (added && new_comm(run, e, inter, key, slot)) return -1;
    r->comm_of[e->comm] = *slot;
    return copy_members(&r->lcomm[e->comm], e, inter);
}

void comm_ids_free(comm_ids *ids)
{
    u64_map_free(&ids->by_key);
    u64_map_free(&ids->children);
}
