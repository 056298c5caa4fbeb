/* event_print.c: see event_print.h. */
#include "event_print.h"

#include <stdlib.h>
#include <string.h>

#include "call_ids.h"
#include "rma_fields.h"
#include "sync_calls.h"
#include "text_escape.h"

struct module {
    uint64_t bias, lo, hi;
    char *path;
    const char *name; /* its basename */
};

struct event_printer {
    int rank, exact, defs;
    unsigned tick_shift;
    /* t=: ticks are printed in unit (ns per unit), with decimals digits: no digit finer than
     * the tick's power of ten, so none below the clock's quantum */
    double unit_ns;
    const char *unit;
    int decimals;
    uint64_t *sites; /* index -> address */
    char **site_text; /* index -> what the symbolizer said, NULL until asked */
    size_t nsites, sites_cap;
    struct module *mods;
    size_t nmods, mods_cap;
    mpirr_symbolizer *sym; /* borrowed; NULL: object+0xOFFSET */
};

/* The coarsest of us, ms and s in which a tick of tick_ns is at least one unit of the last
 * printed digit; exact times (ns) get ns resolution in us. */
static void choose_unit(struct event_printer *p, uint64_t tick_ns, int exact)
{
    uint64_t digit = 1; /* the largest power of ten not above the tick */
    while (!exact && digit <= tick_ns / 10)
        digit *= 10;
    static const struct { const char *name; double ns; } units[] = {
        {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    unsigned u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && (double)digit >= units[u + 1].ns / 1000.0)
        u++;
    p->unit = units[u].name;
    p->unit_ns = units[u].ns;
    p->decimals = 0;
    for (double d = (double)digit; d < units[u].ns; d *= 10)
        p->decimals++;
}

struct event_printer *event_printer_new(int rank, const mpirr_ev_info *info, int exact, int defs,
                                        mpirr_symbolizer *sym)
{
    struct event_printer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->rank = rank;
    p->exact = exact;
    p->defs = defs;
    p->tick_shift = info->tick_shift;
    p->sym = sym;
    choose_unit(p, 1ull << info->tick_shift, exact);
    return p;
}

void event_printer_free(struct event_printer *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nmods; i++) free(p->mods[i].path);
    for (size_t i = 0; i < p->nsites; i++) free(p->site_text[i]);
    free(p->mods);
    free(p->sites);
    free(p->site_text);
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

/* key is the field's name with its sign: "t~" rounded, "t=" or "exact=" exact. */
static void put_times(FILE *out, const struct event_printer *p, const char *key, uint64_t begin,
                      uint64_t end)
{
    double b = (double)(begin << p->tick_shift) / p->unit_ns;
    double d = (double)((end - begin) << p->tick_shift) / p->unit_ns;
    fprintf(out, " %s%.*f%s+%.*f%s", key, p->decimals, b, p->unit, p->decimals, d, p->unit);
}

static const struct module *module_of(const struct event_printer *p, uint64_t a)
{
    for (size_t i = 0; i < p->nmods; i++)
        if (a >= p->mods[i].bias + p->mods[i].lo && a < p->mods[i].bias + p->mods[i].hi)
            return &p->mods[i];
    return NULL;
}

/* " at=" and the symbolizer's "file.c:LINE (function)" (cached per site), else the object and
 * the offset in it; symbolic 0: " OBJECT+0xOFFSET" (the --defs line). Always the last field of
 * a call's line: the function may hold spaces. */
static void put_site(FILE *out, struct event_printer *p, uint32_t site, int symbolic)
{
    const char *key = symbolic ? " at=" : " ";
    if (site >= p->nsites) {
        fprintf(out, "%s?%u", key, site);
        return;
    }
    uint64_t a = p->sites[site];
    const struct module *m = module_of(p, a);
    if (!m) {
        fprintf(out, "%s0x%llx", key, (unsigned long long)a);
        return;
    }
    if (symbolic && p->sym && !p->site_text[site]) {
        char buf[1024];
        mpirr_sym_lookup(p->sym, m->path, a - m->bias, buf, sizeof buf);
        text_escape_in_place(buf, sizeof buf); /* the listing is text: one event a line */
        p->site_text[site] = strdup(buf);
    }
    if (symbolic && p->site_text[site])
        fprintf(out, "%s%s", key, p->site_text[site]);
    else {
        fputs(key, out);
        text_put(out, m->name);
        fprintf(out, "+0x%llx", (unsigned long long)(a - m->bias));
    }
}

static void put_ranks(FILE *out, const char *key, const int32_t *r, uint32_t n);

/* A one-sided call: win=W what (and target=R disp=D span=S op=O type=T lock=L group=...). */
static void put_rma(FILE *out, const mpirr_event *e)
{
    fprintf(out, " win=%u rma=%s", e->win, mpirr_rma_kind_name(e->rma));
    if (e->target != MPIRR_EV_PROC_NULL) put_peer(out, " ", "target", e->target);
    if (mpirr_rma_is_access(e->rma)) fprintf(out, " disp=%llu", (unsigned long long)e->disp);
    if (e->span) fprintf(out, " span=%llu", (unsigned long long)e->span);
    if (e->rma_op) fprintf(out, " op=%s", mpirr_rma_op_name(e->rma_op));
    if (e->rma_type) fprintf(out, " type=%s", mpirr_rma_type_name(e->rma_type));
    if (e->lock) fprintf(out, " lock=%s", mpirr_rma_lock_name(e->lock));
    if (e->rma == MPIRR_RMA_POST || e->rma == MPIRR_RMA_START) put_ranks(out, "group", e->ranks, e->nranks);
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
    if (f & MPIRR_EVF_RMA) put_rma(out, e);
}

static void put_call(struct event_printer *p, const mpirr_event *e, FILE *out)
{
    uint32_t f = e->fields;
    fprintf(out, "%d:%llu %s", p->rank, (unsigned long long)e->event, mpirr_call_name(e->kind));
    event_print_args(e, out);
    /* The times the history reconstructs from its log2 codes are only known to a range
     * (docs/events.md, Time): marked t~, as view and the exports mark them. A history recorded
     * with MPIRR_EVENTS_EXACT=1 has the exact ones: t=, or with --exact both, to compare. */
    int exact = (f & MPIRR_EVF_EXACT) != 0;
    if (exact && !p->exact) {
        put_times(out, p, "t=", e->x_begin, e->x_end);
    } else {
        put_times(out, p, "t~", e->t_begin, e->t_end);
        if (exact) put_times(out, p, "exact=", e->x_begin, e->x_end);
    }
    put_site(out, p, e->site, 1);
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
        size_t cap = p->sites_cap;
        uint64_t *s = grow(p->sites, &cap, (size_t)e->site + 1, sizeof *s);
        if (!s) return;
        p->sites = s;
        cap = p->sites_cap;
        char **t = grow(p->site_text, &cap, (size_t)e->site + 1, sizeof *t);
        if (!t) return;
        p->site_text = t;
        p->sites_cap = cap;
        while (p->nsites <= e->site) {
            p->sites[p->nsites] = 0;
            p->site_text[p->nsites++] = NULL;
        }
        p->sites[e->site] = e->addr;
        free(p->site_text[e->site]);
        p->site_text[e->site] = NULL;
        if (p->defs) { /* "# 0 site 3 0x55d0c1e2a454 wildcard_storm+0x1454 at=wildcard_storm.c:25 (main)" */
            fprintf(out, "# %d site %u 0x%llx", p->rank, e->site, (unsigned long long)e->addr);
            put_site(out, p, e->site, 0);
            put_site(out, p, e->site, 1);
            fputc('\n', out);
        }
        return;
    }
    case MPIRR_EVK_MODULE: {
        struct module *m = grow(p->mods, &p->mods_cap, p->nmods + 1, sizeof *m);
        if (!m) return;
        p->mods = m;
        char *path = strdup(e->path);
        if (!path) return;
        const char *base = strrchr(path, '/');
        m[p->nmods++] = (struct module){e->addr, e->got, e->bytes, path, base ? base + 1 : path};
        if (p->defs) {
            fprintf(out, "# %d module ", p->rank);
            text_put(out, e->path);
            fprintf(out, " bias=0x%llx text=0x%llx-0x%llx\n", (unsigned long long)e->addr,
                    (unsigned long long)e->got, (unsigned long long)e->bytes);
        }
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
