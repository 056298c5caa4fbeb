/* request_table.c: open-addressing map from request handle bits to tracked_request. */
#include "request_table.h"

#include <stdlib.h>
#include <string.h>

#include "runtime.h"

struct slot {
    uint64_t key; /* handle bits; 0 = empty (no live tracked handle is all-zero bits... */
    int used;     /* ...but MPICH handles are ints, so do not rely on that) */
    tracked_request *entry;
};

static struct slot *slots;
static size_t cap;
unsigned long mpirr_tracked_count;

static uint64_t key_of(MPI_Request r)
{
    uint64_t k = 0;
    memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
    return k;
}

static size_t home(uint64_t k) { return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1); }

static struct slot *lookup(uint64_t k)
{
    if (!cap) return NULL;
    for (size_t i = home(k);; i = (i + 1) & (cap - 1)) {
        if (!slots[i].used) return NULL;
        if (slots[i].key == k) return &slots[i];
    }
}

static void insert(uint64_t k, tracked_request *e)
{
    size_t i = home(k);
    while (slots[i].used) i = (i + 1) & (cap - 1);
    slots[i] = (struct slot){.key = k, .used = 1, .entry = e};
}

static void grow(void)
{
    struct slot *old = slots;
    size_t oldcap = cap;
    cap = cap ? 2 * cap : 64;
    slots = calloc(cap, sizeof *slots);
    if (!slots) mpirr_fatal("out of memory tracking requests");
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].used) insert(old[i].key, old[i].entry);
    free(old);
}

tracked_request *mpirr_track_find(MPI_Request req)
{
    if (!mpirr_tracked_count) return NULL;
    struct slot *s = lookup(key_of(req));
    return s ? s->entry : NULL;
}

tracked_request *mpirr_track_add(MPI_Request req)
{
    uint64_t k = key_of(req);
    struct slot *s = lookup(k);
    if (s) { /* a stale entry: its request ended without our seeing it (freed while active) */
        if (s->entry->owns_type) PMPI_Type_free(&s->entry->type);
        memset(s->entry, 0, sizeof *s->entry);
        s->entry->race_id = -1;
        return s->entry;
    }
    if (2 * (mpirr_tracked_count + 1) > cap) grow();
    tracked_request *e = calloc(1, sizeof *e);
    if (!e) mpirr_fatal("out of memory tracking requests");
    e->race_id = -1;
    insert(k, e);
    mpirr_tracked_count++;
    return e;
}

static tracked_request *detach(uint64_t k)
{
    struct slot *s = lookup(k);
    if (!s) return NULL;
    tracked_request *e = s->entry;
    size_t i = (size_t)(s - slots);
    slots[i].used = 0;
    mpirr_tracked_count--;
    /* Re-seat the rest of the probe cluster. */
    for (size_t j = (i + 1) & (cap - 1); slots[j].used; j = (j + 1) & (cap - 1)) {
        struct slot moved = slots[j];
        slots[j].used = 0;
        insert(moved.key, moved.entry);
    }
    return e;
}

void mpirr_track_remove(MPI_Request req)
{
    tracked_request *e = detach(key_of(req));
    if (e && e->owns_type) PMPI_Type_free(&e->type);
    free(e);
}

void mpirr_track_rekey(MPI_Request from, MPI_Request to)
{
    uint64_t kf = key_of(from), kt = key_of(to);
    if (kf == kt) return;
    tracked_request *e = detach(kf);
    if (!e) return;
    struct slot *s = lookup(kt);
    if (s) {
        if (s->entry->owns_type) PMPI_Type_free(&s->entry->type);
        free(s->entry);
        s->entry = e;
        return;
    }
    if (2 * (mpirr_tracked_count + 1) > cap) grow();
    insert(kt, e);
    mpirr_tracked_count++;
}

void mpirr_requests_reset(void)
{
    for (size_t i = 0; i < cap; i++)
        if (slots[i].used) {
            if (slots[i].entry->owns_type) PMPI_Type_free(&slots[i].entry->type);
            free(slots[i].entry);
        }
    free(slots);
    slots = NULL;
    cap = 0;
    mpirr_tracked_count = 0;
}
