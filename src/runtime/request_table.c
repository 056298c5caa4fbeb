/* request_table.c: the tracked requests (request_table.h), found by handle bits in the one
 * hash map (u64_map.h); each entry is allocated once and stays put while tracked. A handle is
 * not an identity: under MPI_THREAD_MULTIPLE the request one thread completes frees its
 * handle inside MPI, and another thread's MPI_Irecv may get the same value before the first
 * has removed its entry - so an entry found at a new request's handle is set aside (an
 * orphan), never reused, and the completing thread frees its own entry. */
#include "request_table.h"

#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "handle_key.h"
#include "u64_map.h"

static u64_map table; /* handle bits -> tracked_request * */
static tracked_request *orphans; /* replaced while a completion held them */
unsigned long mpirr_tracked_count;

static tracked_request *entry_at(const uint64_t *v) { return v ? (tracked_request *)(uintptr_t)*v : NULL; }

/* Frees the entry and its wire storage: its request completed, or the run ends (a request
 * freed while active gives up its storage first: mpirr_wire_abandon). */
static void entry_free(tracked_request *e)
{
    if (e && (e->flags & TRACK_EXCHANGE)) mpirr_exchange_abandon(e);
    if (e && e->owns_type) PMPI_Type_free(&e->type);
    if (e) mpirr_wire_release(&e->wire);
    free(e);
}

tracked_request *mpirr_track_find(MPI_Request req)
{
    if (!mpirr_tracked_count) return NULL;
    return entry_at(u64_map_find(&table, MPIRR_HANDLE_KEY(req)));
}

tracked_request *mpirr_track_lookup(MPI_Request req)
{
    if (!mpirr_tracked_count) return NULL;
    mpirr_lock();
    tracked_request *e = mpirr_track_find(req);
    mpirr_unlock();
    return e;
}

/* An entry whose handle a new request took while its completion still holds it: out of the
 * table, into the orphans, which its completing thread frees (mpirr_track_done). */
static void orphan(tracked_request *old)
{
    old->orphaned = 1;
    old->orphan_prev = NULL;
    old->orphan_next = orphans;
    if (orphans) orphans->orphan_prev = old;
    orphans = old;
}

tracked_request *mpirr_track_add(MPI_Request req)
{
    int added;
    uint64_t *v = u64_map_slot(&table, MPIRR_HANDLE_KEY(req), 0, &added);
    if (!v) mpirr_fatal("out of memory tracking requests");
    if (!added) orphan(entry_at(v));
    tracked_request *e = calloc(1, sizeof *e);
    if (!e) mpirr_fatal("out of memory tracking requests");
    *v = (uintptr_t)e;
    mpirr_tracked_count = table.n;
    e->race_id = -1;
    return e;
}

static tracked_request *detach(uint64_t k)
{
    uint64_t v;
    if (!u64_map_del(&table, k, &v)) return NULL;
    mpirr_tracked_count = table.n;
    return entry_at(&v);
}

void mpirr_track_remove(MPI_Request req) { entry_free(detach(MPIRR_HANDLE_KEY(req))); }

void mpirr_track_done(MPI_Request req, tracked_request *e)
{
    if (!e->orphaned) {
        entry_free(detach(MPIRR_HANDLE_KEY(req)));
        return;
    }
    if (e->orphan_prev) e->orphan_prev->orphan_next = e->orphan_next;
    else orphans = e->orphan_next;
    if (e->orphan_next) e->orphan_next->orphan_prev = e->orphan_prev;
    entry_free(e);
}

void mpirr_track_rekey(MPI_Request from, MPI_Request to)
{
    uint64_t kf = MPIRR_HANDLE_KEY(from), kt = MPIRR_HANDLE_KEY(to);
    if (kf == kt) return;
    tracked_request *e = detach(kf);
    if (!e) return;
    int added;
    uint64_t *v = u64_map_slot(&table, kt, 0, &added);
    if (!v) mpirr_fatal("out of memory tracking requests");
    if (!added) orphan(entry_at(v));
    *v = (uintptr_t)e;
    mpirr_tracked_count = table.n;
}

void mpirr_requests_reset(void)
{
    size_t pos = 0;
    uint64_t k, v;
    while (u64_map_next(&table, &pos, &k, &v)) entry_free(entry_at(&v));
    u64_map_free(&table);
    while (orphans) {
        tracked_request *next = orphans->orphan_next;
        entry_free(orphans);
        orphans = next;
    }
    mpirr_tracked_count = 0;
}
