/* event_history.c: the event history's life cycle and record emission: opens the rank's
 * history (settings from MPIRR_EVENTS_*; the file itself is event_stream.c's), turns return
 * addresses into call-site indices, keeps the load map of the objects calls come from in the
 * trace so tools can turn sites into file:line, and appends each call's record under the
 * runtime lock. */
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "event_history.h"
#include "event_windows.h"
#include "u64_map.h"
#include "runtime.h"
#include "settings.h"

uint64_t mpirr_ev_init_t0;
__thread uint64_t mpirr_tls_event __attribute__((tls_model("initial-exec")));
__thread uint32_t mpirr_tls_thread __attribute__((tls_model("initial-exec")));

struct module {
    uint64_t lo, hi; /* executable range */
};

/* Most calls come from a few sites: a direct-mapped cache in front of the map. */
#define SITE_CACHE 64

static struct {
    struct {
        uint64_t addr;
        uint32_t idx;
    } site_cache[SITE_CACHE];
    u64_map sites;         /* return address -> call-site index */
    uint32_t nsites;
    struct module *mods;
    size_t nmods, mods_cap;
} ev;

/* ---- load map ---- */

static int covered(uint64_t addr)
{
    for (size_t i = 0; i < ev.nmods; i++)
        if (addr >= ev.mods[i].lo && addr < ev.mods[i].hi) return 1;
    return 0;
}

/* dl_iterate_phdr callback: defines the object whose text holds *(uint64_t *)arg. Only the
 * objects that calls come from get into the trace (usually the program and one or two
 * libraries), not the dozens an MPI library loads. */
static int add_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    uint64_t want = *(const uint64_t *)arg;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
        if (ph->p_vaddr < lo) lo = ph->p_vaddr;
        if (ph->p_vaddr + ph->p_memsz > hi) hi = ph->p_vaddr + ph->p_memsz;
    }
    if (lo >= hi || want < info->dlpi_addr + lo || want >= info->dlpi_addr + hi) return 0;
    char exe[4096];
    const char *path = info->dlpi_name;
    if (!path || !*path) { /* the main program */
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = 0;
        path = exe;
    }
    if (ev.nmods == ev.mods_cap) {
        size_t cap = ev.mods_cap ? ev.mods_cap * 2 : 32;
        struct module *m = realloc(ev.mods, cap * sizeof *m);
        if (!m) return 1;
        ev.mods = m;
        ev.mods_cap = cap;
    }
    ev.mods[ev.nmods++] = (struct module){info->dlpi_addr + lo, info->dlpi_addr + hi};
    mpirr_event e = {.kind = MPIRR_EVK_MODULE, .addr = info->dlpi_addr, .got = lo, .bytes = hi,
                     .path = path};
    mpirr_ev_append_locked(&e);
    return 1;
}

static uint32_t site_index(const void *site)
{
    uint64_t addr = (uint64_t)(uintptr_t)site, idx;
    unsigned slot = (unsigned)(addr ^ (addr >> 6)) % SITE_CACHE;
    if (ev.site_cache[slot].addr == addr) return ev.site_cache[slot].idx;
    if (u64_map_get(&ev.sites, addr, &idx)) {
        ev.site_cache[slot].addr = addr;
        ev.site_cache[slot].idx = (uint32_t)idx;
        return (uint32_t)idx;
    }
    if (!covered(addr)) dl_iterate_phdr(add_module, &addr);
    idx = ev.nsites++;
    u64_map_put(&ev.sites, addr, idx);
    mpirr_event e = {.kind = MPIRR_EVK_SITE, .site = (uint32_t)idx, .addr = addr};
    mpirr_ev_append_locked(&e);
    return (uint32_t)idx;
}

/* ---- life cycle ---- */

void mpirr_ev_start(uint64_t init_t0)
{
    if (!mpirr_setting_value(MPIRR_SET_EVENTS)) return;
    uint64_t tick_ns = (uint64_t)mpirr_setting_value(MPIRR_SET_EVENTS_TICK_NS);
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    mpirr_ev_params p = {
        .rank = mpirr_rt.rank,
        .nranks = mpirr_rt.nranks,
        .tick_shift = tick_ns > 1 ? 63u - (unsigned)__builtin_clzll(tick_ns) : 0,
        .exact = mpirr_setting_value(MPIRR_SET_EVENTS_EXACT) != 0,
        .level = (int)mpirr_setting_value(MPIRR_SET_EVENTS_LEVEL),
        .stage_bytes = (size_t)mpirr_setting_value(MPIRR_SET_EVENTS_STAGE_KB) << 10,
        .base_ns = init_t0,
        .run_id = mpirr_rt.run_id,
        .start_realtime_ns = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec -
                             (mpirr_ev_now() - init_t0),
    };
    if (!mpirr_ev_stream_open(mpirr_rt.dir, &p)) return;
    mpirr_ev_clock_start();
    mpirr_ev_on = 1;
    /* world and self get ids 0 and 1 in every trace */
    mpirr_ev_comm_id(MPI_COMM_WORLD);
    mpirr_ev_comm_id(MPI_COMM_SELF);
}

void mpirr_ev_stop(int clean)
{
    mpirr_lock();
    if (mpirr_ev_stream_close(clean))
        mpirr_warn("rank %d: could not finish the event history", mpirr_rt.rank);
    u64_map_free(&ev.sites);
    memset(ev.site_cache, 0, sizeof ev.site_cache);
    free(ev.mods);
    ev.mods = NULL;
    ev.nmods = ev.mods_cap = 0;
    ev.nsites = 0;
    mpirr_unlock();
    mpirr_ev_ids_reset();
    mpirr_ev_windows_reset();
}

/* ---- one call's record ---- */

void mpirr_ev_begin(mpirr_ev_call *c, unsigned id, const void *site)
{
    /* only what every record reads: the rest is read only when its field bit is set */
    c->e.fields = 0;
    c->e.event = 0;
    c->e.nitems = 0;
    c->e.items = NULL;
    c->e.kind = id;
    c->e.x_begin = mpirr_ev_now();
    c->site = site;
    c->sts = c->user_sts = NULL;
    c->before = NULL;
    c->nbefore = 0;
    c->items_cap = 0;
}

void mpirr_ev_emit(mpirr_ev_call *c, int rc)
{
    c->e.x_end = mpirr_ev_now();
    if (!c->e.event) c->e.event = mpirr_tls_event;
    if (rc != MPI_SUCCESS) {
        c->e.fields |= MPIRR_EVF_RC;
        c->e.rc = rc;
    }
    if (mpirr_tls_thread) {
        c->e.fields |= MPIRR_EVF_THREAD;
        c->e.thread = mpirr_tls_thread;
    }
    mpirr_lock();
    if (mpirr_ev_on) {
        c->e.site = site_index(c->site);
        mpirr_ev_append_locked(&c->e);
    }
    mpirr_unlock();
    if (c->before && c->before != c->before_small) free(c->before);
    if (c->sts && c->sts != c->sts_small) free(c->sts);
    if (c->e.items && c->e.items != c->items_small) free(c->e.items);
    if (c->e.fields & MPIRR_EVF_RMA) free(c->e.ranks); /* a post's or start's group */
    c->before = NULL;
    c->sts = NULL;
    c->e.items = NULL;
    if (c->e.kind == MPIRR_ID_MPI_Finalize) mpirr_ev_stop(1);
    else if (c->e.kind == MPIRR_ID_MPI_Abort) mpirr_ev_flush();
}

void mpirr_ev_sync(unsigned call, uint32_t object, uint32_t version, int rc)
{
    mpirr_event e = {.kind = MPIRR_EVK_SYNC, .thread = mpirr_tls_thread, .sync_call = call,
                     .object = object, .version = version, .rc = rc};
    mpirr_lock();
    if (mpirr_ev_on) mpirr_ev_append_locked(&e);
    mpirr_unlock();
}

void mpirr_ev_set_comm(mpirr_ev_call *c, MPI_Comm comm)
{
    uint32_t id = mpirr_ev_comm_id(comm);
    if (id == UINT32_MAX) return;
    c->e.fields |= MPIRR_EVF_COMM;
    c->e.comm = id;
}

void mpirr_ev_set_peer(mpirr_ev_call *c, int peer, int tag)
{
    c->e.fields |= MPIRR_EVF_PEER | MPIRR_EVF_TAG;
    c->e.peer = mpirr_ev_peer(peer);
    c->e.tag = mpirr_ev_tag(tag);
}

/* A one-sided call's target rank: a peer without a tag. */
void mpirr_ev_set_target(mpirr_ev_call *c, int rank)
{
    c->e.fields |= MPIRR_EVF_PEER;
    c->e.peer = mpirr_ev_peer(rank);
}

void mpirr_ev_set_rpeer(mpirr_ev_call *c, int peer, int tag)
{
    c->e.fields |= MPIRR_EVF_RPEER;
    c->e.rpeer = mpirr_ev_peer(peer);
    c->e.rtag = mpirr_ev_tag(tag);
}

void mpirr_ev_set_root(mpirr_ev_call *c, int root)
{
    c->e.fields |= MPIRR_EVF_ROOT;
    c->e.root = mpirr_ev_peer(root);
}

void mpirr_ev_set_bytes(mpirr_ev_call *c, int count, MPI_Datatype type)
{
    int size = 0;
    /* counts and types the call ignores may be anything: never ask MPI about a null type */
    if (count < 0 || type == MPI_DATATYPE_NULL) return;
    if (count > 0 && PMPI_Type_size(type, &size) != MPI_SUCCESS) return;
    c->e.fields |= MPIRR_EVF_BYTES;
    c->e.bytes = count > 0 ? (uint64_t)count * (uint64_t)size : 0;
}

void mpirr_ev_set_match(mpirr_ev_call *c, const MPI_Status *st)
{
    int n = 0;
    c->e.fields |= MPIRR_EVF_MATCH;
    c->e.src = mpirr_ev_peer(st->MPI_SOURCE);
    c->e.mtag = mpirr_ev_tag(st->MPI_TAG);
    if (PMPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS && n > 0) c->e.got = (uint64_t)n;
}
