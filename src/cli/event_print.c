/* event_print.c: see event_print.h. */
#include "event_print.h"

#include <stdlib.h>
#include <string.h>

#include "call_ids.h"
#include "sync_calls.h"

struct module {
    uint64_t bias, lo, hi;
    char *name; /* basename */
};

struct event_printer {
    int rank, exact, defs;
    unsigned tick_shift;
    uint64_t *sites; /* index -> address */
    size_t nsites, sites_cap;
    struct module *mods;
    size_t nmods, mods_cap;
};

struct event_printer *event_printer_new(int rank, const mpirr_ev_info *info, int exact, int defs)
{
    struct event_printer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->rank = rank;
    p->exact = exact;
    p->defs = defs;
    p->tick_shift = info->tick_shift;
    return p;
}

void event_printer_free(struct event_printer *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nmods; i++) free(p->mods[i].name);
    free(p->mods);
    free(p->sites);
    free(p);
}

/* sep goes before the key: " " between fields, "" or "," inside a done= item */
static void put_peer(FILE *out, const char *sep, const char *key, int32_t v)
{
    if (v == MPIRR_EV_ANY) fprintf(out, "%s%s=any", sep, key);
    else if (v == MPIRR_EV_PROC_NULL) fprintf(out, "%s%s=null", sep, key);
    else if (v == MPIRR_EV_ROOT) fprintf(out, "%s%s=root", sep, key);
    else fprintf(out, "%s%s=%d", sep, key, v);
}

static void put_tag(FILE *out, const char *sep, const char *key, int32_t v)
{
    if (v == MPIRR_EV_ANY) fprintf(out, "%s%s=any", sep, key);
    else fprintf(out, "%s%s=%d", sep, key, v);
}

static void put_items(FILE *out, const char *key, const mpirr_event *e)
{
    fprintf(out, " %s=", key);
    for (uint32_t i = 0; i < e->nitems; i++) {
        const mpirr_ev_item *it = &e->items[i];
        if (i) fputc(',', out);
        if (it->flags & MPIRR_EVI_UNKNOWN) fputc('?', out);
        else fprintf(out, "%u", it->slot);
        if (it->flags & MPIRR_EVI_CANCELLED) {
            fputs("(cancelled)", out);
        } else if (it->flags & MPIRR_EVI_RECV) {
            put_peer(out, "(", "src", it->src);
            put_tag(out, ",", "tag", it->tag);
            fprintf(out, ",got=%llu)", (unsigned long long)it->got);
        }
    }
}

static double us(const struct event_printer *p, uint64_t ticks)
{
    return (double)(ticks << p->tick_shift) / 1000.0;
}

static void put_site(FILE *out, const struct event_printer *p, uint32_t site)
{
    if (site >= p->nsites) {
        fprintf(out, " at=?%u", site);
        return;
    }
    uint64_t a = p->sites[site];
    for (size_t i = 0; i < p->nmods; i++)
        if (a >= p->mods[i].bias + p->mods[i].lo && a < p->mods[i].bias + p->mods[i].hi) {
            fprintf(out, " at=%s+0x%llx", p->mods[i].name, (unsigned long long)(a - p->mods[i].bias));
            return;
        }
    fprintf(out, " at=0x%llx", (unsigned long long)a);
}

void event_print_args(const mpirr_event *e, FILE *out)
{
    uint32_t f = e->fields;
    if (f & MPIRR_EVF_COMM) fprintf(out, " comm=%u", e->comm);
    if (f & MPIRR_EVF_PEER) put_peer(out, " ", "peer", e->peer);
    if (f & MPIRR_EVF_TAG) put_tag(out, " ", "tag", e->tag);
    if (f & MPIRR_EVF_RPEER) {
        put_peer(out, " ", "rpeer", e->rpeer);
        put_tag(out, " ", "rtag", e->rtag);
    }
    if (f & MPIRR_EVF_ROOT) put_peer(out, " ", "root", e->root);
    if (f & MPIRR_EVF_BYTES) fprintf(out, " bytes=%llu", (unsigned long long)e->bytes);
    if (f & MPIRR_EVF_REQ) fprintf(out, " req=%u", e->req);
    if (f & MPIRR_EVF_MATCH) {
        put_peer(out, " ", "src", e->src);
        put_tag(out, " ", "mtag", e->mtag);
        fprintf(out, " got=%llu", (unsigned long long)e->got);
    }
    if (f & (MPIRR_EVF_START | MPIRR_EVF_DONE)) put_items(out, f & MPIRR_EVF_START ? "start" : "done", e);
    if (f & MPIRR_EVF_NEWCOMM) fprintf(out, " newcomm=%u", e->newcomm);
    if (f & MPIRR_EVF_RC) fprintf(out, " rc=%d", e->rc);
    if (f & MPIRR_EVF_THREAD) fprintf(out, " thread=%u", e->thread);
}

static void put_call(struct event_printer *p, const mpirr_event *e, FILE *out)
{
    uint32_t f = e->fields;
    fprintf(out, "%d:%llu %s", p->rank, (unsigned long long)e->event, mpirr_call_name(e->kind));
    event_print_args(e, out);
    fprintf(out, " t=%.3f+%.3f", us(p, e->t_begin), us(p, e->t_end - e->t_begin));
    if (p->exact && (f & MPIRR_EVF_EXACT))
        fprintf(out, " exact=%.3f+%.3f", us(p, e->x_begin), us(p, e->x_end - e->x_begin));
    put_site(out, p, e->site);
    fputc('\n', out);
}

static void put_ranks(FILE *out, const char *key, const int32_t *r, uint32_t n)
{
    fprintf(out, " %s=", key);
    for (uint32_t i = 0; i < n; i++) fprintf(out, i ? ",%d" : "%d", r[i]);
}

static void *grow(void *v, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return v;
    size_t c = *cap ? *cap * 2 : 64;
    while (c < need) c *= 2;
    void *n = realloc(v, c * elem);
    if (n) *cap = c;
    return n;
}

void event_printer_put(struct event_printer *p, const mpirr_event *e, FILE *out)
{
    switch (e->kind) {
    case MPIRR_EVK_COMM:
        fprintf(out, "# %d comm %u", p->rank, e->comm);
        if (e->newcomm != UINT32_MAX)
            fprintf(out, " parent=%u by=%s", e->newcomm, mpirr_call_name(e->req) ? mpirr_call_name(e->req) : "?");
        put_ranks(out, "world", e->ranks, e->nranks);
        if (e->root) put_ranks(out, "remote", e->ranks + e->nranks, e->nremote);
        fputc('\n', out);
        return;
    case MPIRR_EVK_SITE: {
        uint64_t *s = grow(p->sites, &p->sites_cap, (size_t)e->site + 1, sizeof *s);
        if (!s) return;
        p->sites = s;
        while (p->nsites <= e->site) p->sites[p->nsites++] = 0;
        p->sites[e->site] = e->addr;
        if (p->defs) {
            fprintf(out, "# %d site %u 0x%llx", p->rank, e->site, (unsigned long long)e->addr);
            put_site(out, p, e->site);
            fputc('\n', out);
        }
        return;
    }
    case MPIRR_EVK_MODULE: {
        struct module *m = grow(p->mods, &p->mods_cap, p->nmods + 1, sizeof *m);
        if (!m) return;
        p->mods = m;
        const char *base = strrchr(e->path, '/');
        m[p->nmods] = (struct module){e->addr, e->got, e->bytes, strdup(base ? base + 1 : e->path)};
        if (!m[p->nmods].name) return;
        p->nmods++;
        if (p->defs)
            fprintf(out, "# %d module %s bias=0x%llx text=0x%llx-0x%llx\n", p->rank, e->path,
                    (unsigned long long)e->addr, (unsigned long long)e->got,
                    (unsigned long long)e->bytes);
        return;
    }
    case MPIRR_EVK_SYNC: /* "0 thread 2 pthread_mutex_lock object=3 turn=7": after the rank's
                            call records so far, the object's 8th acquisition */
        fprintf(out, "%d thread %u %s object=%u", p->rank, e->thread,
                mpirr_sync_call_name(e->sync_call), e->object);
        if (e->rc) fprintf(out, " failed rc=%d", e->rc); /* a trylock that found it taken */
        else fprintf(out, " turn=%u", e->version);
        fputc('\n', out);
        return;
    default:
        put_call(p, e, out);
    }
}
