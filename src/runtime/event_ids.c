/* event_ids.c: the small stable numbers the event history uses instead of MPI handles.
 * Communicators get ids in the order this rank first sees them (world 0, self 1), each
 * defined once, with its members' world ranks, by a COMM record. Requests get slots: the
 * lowest free number, reused once the request is gone, so a repeated phase of a program
 * repeats its slot numbers and compresses. A handle value can stand for several live
 * requests at once (MPI implementations share one pre-completed request among small sends),
 * so each handle keeps a FIFO of slots and a completion takes the oldest. */
#include <stdlib.h>
#include <string.h>

#include "event_ids.h"

#include "event_stream.h"
#include "handle_key.h"
#include "u64_map.h"
#include "runtime.h"
#include "status_fields.h"

struct slot {
    uint64_t handle;
    uint32_t flags;   /* MPIRR_EVI_RECV, MPIRR_EV_PERSISTENT */
    int32_t next;     /* next slot of the same handle, -1 */
    uint64_t made;    /* the event of the call that created it (replay --flip R:E=req:P) */
};

static struct {
    u64_map comms;     /* comm handle -> id */
    uint64_t last_key; /* most calls name the communicator of the call before */
    uint32_t last_id;
    int have_last;
    uint32_t ncomms;
    u64_map reqs;      /* request handle -> first slot */
    struct slot *slots;
    uint32_t nslots, cap;
    uint32_t *free_slots; /* stack, so the lowest recently freed comes back first */
    uint32_t nfree;
} ids;

/* ---- communicators ---- */

/* World ranks of group g's members, appended at out[*n...]. Communicators are created
 * rarely, so world's group is not kept between calls (nothing to free after MPI_Finalize). */
int32_t *mpirr_ev_world_ranks(MPI_Group g, int32_t *out, uint32_t *n)
{
    int size = 0, have_world;
    MPI_Group world;
    have_world = PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS;
    PMPI_Group_size(g, &size);
    int32_t *r = realloc(out, ((size_t)*n + (size_t)size + 1) * sizeof *r);
    int *in = malloc(((size_t)size + 1) * sizeof *in), *res = malloc(((size_t)size + 1) * sizeof *res);
    if (!r || !in || !res) {
        free(in);
        free(res);
        if (have_world) PMPI_Group_free(&world);
        return r ? r : out;
    }
    for (int i = 0; i < size; i++) in[i] = i;
    if (have_world && PMPI_Group_translate_ranks(g, size, in, world, res) == MPI_SUCCESS)
        for (int i = 0; i < size; i++) r[*n + (uint32_t)i] = res[i] == MPI_UNDEFINED ? -1 : res[i];
    else
        for (int i = 0; i < size; i++) r[*n + (uint32_t)i] = -1;
    *n += (uint32_t)size;
    if (have_world) PMPI_Group_free(&world);
    free(in);
    free(res);
    return r;
}

/* Defines comm (members from like, which has the same group) as a new id. Lock held. */
static uint32_t define(MPI_Comm comm, MPI_Comm like, uint32_t parent, unsigned by)
{
    uint32_t id = ids.ncomms++;
    u64_map_put(&ids.comms, MPIRR_HANDLE_KEY(comm), id);
    ids.have_last = 0; /* the handle may be a freed communicator's */
    mpirr_event e = {.kind = MPIRR_EVK_COMM, .comm = id, .newcomm = parent, .req = by};
    int inter = 0;
    MPI_Group g;
    PMPI_Comm_test_inter(like, &inter);
    if (PMPI_Comm_group(like, &g) == MPI_SUCCESS) {
        e.ranks = mpirr_ev_world_ranks(g, NULL, &e.nranks);
        PMPI_Group_free(&g);
    }
    if (inter && PMPI_Comm_remote_group(like, &g) == MPI_SUCCESS) {
        uint32_t n = e.nranks;
        e.ranks = mpirr_ev_world_ranks(g, e.ranks, &n);
        e.nremote = n - e.nranks;
        e.root = 1;
        PMPI_Group_free(&g);
    }
    mpirr_ev_append_locked(&e);
    free(e.ranks);
    return id;
}

uint32_t mpirr_ev_comm_id(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL) return UINT32_MAX;
    uint64_t id, key = MPIRR_HANDLE_KEY(comm);
    mpirr_lock();
    if (ids.have_last && ids.last_key == key) {
        id = ids.last_id;
    } else {
        if (!u64_map_get(&ids.comms, key, &id)) id = define(comm, comm, UINT32_MAX, 0);
        ids.last_key = key;
        ids.last_id = (uint32_t)id;
        ids.have_last = 1;
    }
    mpirr_unlock();
    return (uint32_t)id;
}

void mpirr_ev_comm_created(mpirr_ev_call *c, MPI_Comm parent, MPI_Comm made)
{
    if (made == MPI_COMM_NULL) return;
    uint32_t pid = mpirr_ev_comm_id(parent);
    mpirr_lock();
    /* MPI_Comm_idup's communicator is not usable until its request completes: its group is
     * the parent's */
    MPI_Comm like = c->e.kind == MPIRR_ID_MPI_Comm_idup ? parent : made;
    c->e.newcomm = define(made, like, pid, c->e.kind);
    c->e.fields |= MPIRR_EVF_NEWCOMM;
    mpirr_unlock();
}

void mpirr_ev_comm_freed(MPI_Comm comm)
{
    mpirr_lock();
    u64_map_del(&ids.comms, MPIRR_HANDLE_KEY(comm), NULL);
    ids.have_last = 0;
    mpirr_unlock();
}

/* ---- requests ---- */

static int32_t head_of(MPI_Request r)
{
    uint64_t s;
    return u64_map_get(&ids.reqs, MPIRR_HANDLE_KEY(r), &s) ? (int32_t)s : -1;
}

void mpirr_ev_req_created(mpirr_ev_call *c, MPI_Request req, unsigned flags)
{
    if (req == MPI_REQUEST_NULL) return;
    mpirr_lock();
    uint32_t s;
    if (ids.nfree) {
        s = ids.free_slots[--ids.nfree];
    } else {
        if (ids.nslots == ids.cap) {
            uint32_t cap = ids.cap ? ids.cap * 2 : 64;
            struct slot *n = realloc(ids.slots, cap * sizeof *n);
            uint32_t *f = realloc(ids.free_slots, cap * sizeof *f);
            if (n) ids.slots = n;
            if (f) ids.free_slots = f;
            if (!n || !f) {
                mpirr_unlock();
                return;
            }
            ids.cap = cap;
        }
        s = ids.nslots++;
    }
    ids.slots[s] = (struct slot){MPIRR_HANDLE_KEY(req), flags, -1, c->e.event ? c->e.event : mpirr_tls_event};
    int32_t h = head_of(req);
    if (h < 0) {
        u64_map_put(&ids.reqs, MPIRR_HANDLE_KEY(req), s);
    } else {
        while (ids.slots[h].next >= 0) h = ids.slots[h].next;
        ids.slots[h].next = (int32_t)s;
    }
    c->e.fields |= MPIRR_EVF_REQ;
    c->e.req = s;
    mpirr_unlock();
}

/* Frees the oldest slot of handle r. Lock held. */
static void release(MPI_Request r, int32_t s)
{
    if (ids.slots[s].next >= 0) u64_map_put(&ids.reqs, MPIRR_HANDLE_KEY(r), (uint64_t)ids.slots[s].next);
    else u64_map_del(&ids.reqs, MPIRR_HANDLE_KEY(r), NULL);
    /* keep the free stack sorted descending at its top so the lowest slot is reused first */
    uint32_t i = ids.nfree++;
    while (i > 0 && ids.free_slots[i - 1] < (uint32_t)s) {
        ids.free_slots[i] = ids.free_slots[i - 1];
        i--;
    }
    ids.free_slots[i] = (uint32_t)s;
}

void mpirr_ev_req_freed(MPI_Request req)
{
    mpirr_lock();
    int32_t s = head_of(req);
    if (s >= 0) release(req, s);
    mpirr_unlock();
}

void mpirr_ev_req_named(mpirr_ev_call *c, MPI_Request req)
{
    mpirr_lock();
    int32_t s = head_of(req);
    mpirr_unlock();
    if (s < 0) return;
    c->e.fields |= MPIRR_EVF_REQ;
    c->e.req = (uint32_t)s;
}

int mpirr_ev_req_made_at(int n, const MPI_Request reqs[], uint64_t event)
{
    int found = -1;
    mpirr_lock();
    for (int i = 0; i < n && found < 0; i++)
        for (int32_t s = reqs[i] == MPI_REQUEST_NULL ? -1 : head_of(reqs[i]); s >= 0 && found < 0;
             s = ids.slots[s].next)
            if (ids.slots[s].made == event) found = i;
    mpirr_unlock();
    return found;
}

void mpirr_ev_snapshot(mpirr_ev_call *c, int n, const MPI_Request *reqs)
{
    if (n <= 0) return;
    c->before = n <= MPIRR_EV_SMALL ? c->before_small : malloc((size_t)n * sizeof *reqs);
    if (!c->before) return;
    memcpy(c->before, reqs, (size_t)n * sizeof *reqs);
    c->nbefore = n;
}

MPI_Status *mpirr_ev_statuses(mpirr_ev_call *c, int n, MPI_Status *user)
{
    if (user != MPI_STATUSES_IGNORE || n <= 0) return user;
    c->sts = n <= MPIRR_EV_SMALL ? c->sts_small : malloc((size_t)n * sizeof *c->sts);
    return c->sts ? c->sts : user;
}

static mpirr_ev_item *new_item(mpirr_ev_call *c)
{
    if (!c->e.items) {
        c->e.items = c->items_small;
        c->items_cap = MPIRR_EV_SMALL;
    }
    if (c->e.nitems == c->items_cap) {
        uint32_t cap = c->items_cap * 2;
        mpirr_ev_item *it = malloc(cap * sizeof *it);
        if (!it) return NULL;
        memcpy(it, c->e.items, c->e.nitems * sizeof *it);
        if (c->e.items != c->items_small) free(c->e.items);
        c->e.items = it;
        c->items_cap = cap;
    }
    mpirr_ev_item *it = &c->e.items[c->e.nitems++];
    memset(it, 0, sizeof *it);
    return it;
}

void mpirr_ev_completed(mpirr_ev_call *c, int i, const MPI_Status *st, int keep)
{
    if (i < 0 || i >= c->nbefore || c->before[i] == MPI_REQUEST_NULL) return;
    mpirr_ev_item *it = new_item(c);
    if (!it) return;
    c->e.fields |= MPIRR_EVF_DONE;
    mpirr_lock();
    int32_t s = head_of(c->before[i]);
    unsigned flags = s >= 0 ? ids.slots[s].flags : MPIRR_EVI_UNKNOWN;
    if (s >= 0 && !keep && !(flags & MPIRR_EV_PERSISTENT)) release(c->before[i], s);
    mpirr_unlock();
    it->slot = s >= 0 ? (uint32_t)s : UINT32_MAX;
    it->flags = flags & (MPIRR_EVI_RECV | MPIRR_EVI_UNKNOWN);
    if (st && mpirr_status_cancelled(st)) {
        it->flags = (it->flags & ~(uint32_t)MPIRR_EVI_RECV) | MPIRR_EVI_CANCELLED;
    } else if (st && (flags & MPIRR_EVI_RECV)) {
        int n = 0;
        it->src = mpirr_ev_peer(st->MPI_SOURCE);
        it->tag = mpirr_ev_tag(st->MPI_TAG);
        if (PMPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n > 0) it->got = (uint64_t)n;
    }
}

void mpirr_ev_completed_all(mpirr_ev_call *c, int rc, const MPI_Status *sts)
{
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) return;
    for (int i = 0; i < c->nbefore; i++) {
        const MPI_Status *st = sts != MPI_STATUSES_IGNORE ? &sts[i] : NULL;
        if (rc == MPI_ERR_IN_STATUS && st && st->MPI_ERROR == MPI_ERR_PENDING) continue;
        mpirr_ev_completed(c, i, st, 0);
    }
}

void mpirr_ev_completed_some(mpirr_ev_call *c, int rc, int outcount, const int *indices,
                             const MPI_Status *sts)
{
    if ((rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) || outcount == MPI_UNDEFINED) return;
    for (int k = 0; k < outcount; k++)
        mpirr_ev_completed(c, indices[k], sts != MPI_STATUSES_IGNORE ? &sts[k] : NULL, 0);
}

void mpirr_ev_started(mpirr_ev_call *c, int i)
{
    if (i < 0 || i >= c->nbefore) return;
    mpirr_lock();
    int32_t s = head_of(c->before[i]);
    mpirr_unlock();
    mpirr_ev_item *it = new_item(c);
    if (!it) return;
    c->e.fields |= MPIRR_EVF_START;
    it->slot = s >= 0 ? (uint32_t)s : UINT32_MAX;
    it->flags = s >= 0 ? 0 : MPIRR_EVI_UNKNOWN;
}

void mpirr_ev_ids_reset(void)
{
    mpirr_lock();
    u64_map_free(&ids.comms);
    u64_map_free(&ids.reqs);
    free(ids.slots);
    free(ids.free_slots);
    memset(&ids, 0, sizeof ids);
    mpirr_unlock();
}
