/* view_events.c: every call record of every rank as the view page's columns and shapes
 * (view_data.h). The history is read again here rather than taken from the analysis model,
 * which keeps communication operations only: the page draws every call. */
#include <stdlib.h>
#include <string.h>

#include "call_ids.h"
#include "diag.h"
#include "event_trace.h"
#include "view_data.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static int shapes_grow(struct view_data *d)
{
    uint32_t hcap = d->hcap ? d->hcap * 2 : 1024;
    uint32_t *h = calloc(hcap, sizeof *h);
    if (!h) return -1;
    for (uint32_t s = 0; s < d->nshapes; s++) {
        uint64_t k = 0;
        for (int f = 0; f < SH_N; f++) k = mix(k, (uint64_t)d->shapes[(size_t)s * SH_N + f]);
        uint32_t i = (uint32_t)k & (hcap - 1);
        while (h[i]) i = (i + 1) & (hcap - 1);
        h[i] = s + 1;
    }
    free(d->hash);
    d->hash = h;
    d->hcap = hcap;
    return 0;
}

/* The index of shape v, added if new; UINT32_MAX when out of memory. */
static uint32_t shape_index(struct view_data *d, const int64_t *v)
{
    if (2 * (d->nshapes + 1) > d->hcap && shapes_grow(d)) return UINT32_MAX;
    uint64_t k = 0;
    for (int f = 0; f < SH_N; f++) k = mix(k, (uint64_t)v[f]);
    uint32_t i = (uint32_t)k & (d->hcap - 1);
    for (; d->hash[i]; i = (i + 1) & (d->hcap - 1))
        if (!memcmp(&d->shapes[(size_t)(d->hash[i] - 1) * SH_N], v, SH_N * sizeof *v)) return d->hash[i] - 1;
    if (d->nshapes == d->capshapes) {
        uint32_t cap = d->capshapes ? d->capshapes * 2 : 256;
        int64_t *s = realloc(d->shapes, (size_t)cap * SH_N * sizeof *s);
        if (!s) return UINT32_MAX;
        d->shapes = s;
        d->capshapes = cap;
    }
    memcpy(&d->shapes[(size_t)d->nshapes * SH_N], v, SH_N * sizeof *v);
    d->hash[i] = d->nshapes + 1;
    return d->nshapes++;
}

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ^ (h >> 29);
}

static int strings_grow(struct view_data *d)
{
    uint32_t cap = d->shcap ? d->shcap * 2 : 1024;
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h) return -1;
    for (uint32_t i = 0; i < d->nstrings; i++) {
        uint32_t k = (uint32_t)str_hash(d->strings[i]) & (cap - 1);
        while (h[k]) k = (k + 1) & (cap - 1);
        h[k] = i + 1;
    }
    free(d->shash);
    d->shash = h;
    d->shcap = cap;
    return 0;
}

/* The string index of a rank's call site ("file.c:LINE (function)"), looked up once per site;
 * the same line on several ranks is one string. -1: unknown site or out of memory. */
static int64_t site_string(struct analysis *a, struct view_data *d, int rank, uint32_t site)
{
    struct view_rank *vr = &d->ranks[rank];
    if (site >= a->run->ranks[rank].nsites) return -1;
    if (site >= vr->nsite_str) {
        uint32_t n = a->run->ranks[rank].nsites;
        uint32_t *s = realloc(vr->site_str, n * sizeof *s);
        if (!s) return -1;
        memset(s + vr->nsite_str, 0, (n - vr->nsite_str) * sizeof *s);
        vr->site_str = s;
        vr->nsite_str = n;
    }
    if (vr->site_str[site]) return vr->site_str[site] - 1;
    char name[600];
    analysis_site(a, rank, site, name, sizeof name);
    if (2 * (d->nstrings + 1) > d->shcap && strings_grow(d)) return -1;
    uint32_t h = (uint32_t)str_hash(name) & (d->shcap - 1);
    while (d->shash[h] && strcmp(d->strings[d->shash[h] - 1], name)) h = (h + 1) & (d->shcap - 1);
    if (!d->shash[h]) {
        if (d->nstrings == d->capstrings) {
            uint32_t cap = d->capstrings ? d->capstrings * 2 : 64;
            char **s = realloc(d->strings, cap * sizeof *s);
            if (!s) return -1;
            d->strings = s;
            d->capstrings = cap;
        }
        if (!(d->strings[d->nstrings] = strdup(name))) return -1;
        d->shash[h] = ++d->nstrings;
    }
    vr->site_str[site] = d->shash[h];
    return d->shash[h] - 1;
}

static int put_event(struct analysis *a, struct view_data *d, int rank, const mpirr_event *e)
{
    struct view_rank *vr = &d->ranks[rank];
    int64_t v[SH_N] = {0};
    v[SH_CALL] = e->kind;
    v[SH_FIELDS] = e->fields & ~(uint32_t)MPIRR_EVF_EXACT;
    if (e->fields & MPIRR_EVF_COMM) v[SH_COMM] = e->comm;
    if (e->fields & MPIRR_EVF_PEER) v[SH_PEER] = e->peer;
    if (e->fields & MPIRR_EVF_TAG) v[SH_TAG] = e->tag;
    if (e->fields & MPIRR_EVF_BYTES) v[SH_BYTES] = (int64_t)e->bytes;
    if (e->fields & MPIRR_EVF_MATCH) {
        v[SH_SRC] = e->src;
        v[SH_MTAG] = e->mtag;
        v[SH_GOT] = (int64_t)e->got;
    }
    if (e->fields & MPIRR_EVF_ROOT) v[SH_ROOT] = e->root;
    if (e->fields & MPIRR_EVF_RPEER) {
        v[SH_RPEER] = e->rpeer;
        v[SH_RTAG] = e->rtag;
    }
    uint32_t s = shape_index(d, v);
    if (s == UINT32_MAX) return -1;
    d->used_call[e->kind & 0xff] = 1;
    if (vr->n == 0) vr->first = e->event;
    else if (e->event != vr->prev_event + 1) vr->consecutive = 0;
    vbuf_int(&vr->ev, (int64_t)(e->event - vr->prev_event));
    /* the exact times when the history has them, else the rounded ones (the page says so) */
    int exact = vr->exact && (e->fields & MPIRR_EVF_EXACT);
    uint64_t begin = exact ? e->x_begin : e->t_begin, end = exact ? e->x_end : e->t_end;
    vbuf_int(&vr->tb, (int64_t)(begin - vr->prev_end));
    vbuf_int(&vr->du, (int64_t)(end - begin));
    vbuf_uint(&vr->sh, s);
    int64_t site = site_string(a, d, rank, e->site);
    vbuf_int(&vr->si, site - vr->prev_site);
    vr->prev_site = site;
    vr->prev_event = e->event;
    vr->prev_end = end;
    vr->last = e->event;
    vr->n++;
    d->events++;
    return vr->ev.oom || vr->tb.oom || vr->du.oom || vr->sh.oom || vr->si.oom ? -1 : 0;
}

int view_collect_events(struct analysis *a, struct view_data *d)
{
    d->nranks = a->run->nranks;
    d->ranks = calloc((size_t)d->nranks, sizeof *d->ranks);
    if (!d->ranks) {
        cli_error("out of memory");
        return -1;
    }
    for (int p = 0; p < d->nranks; p++) {
        struct view_rank *vr = &d->ranks[p];
        vr->consecutive = 1;
        char err[1200];
        mpirr_ev_reader *r = mpirr_evr_open(a->rec.dir, p, err, sizeof err);
        if (!r) {
            cli_error("%s", err);
            return -1;
        }
        const mpirr_ev_info *info = mpirr_evr_info(r);
        d->tick_shift = info->tick_shift;
        vr->exact = info->exact;
        if (!d->start_realtime_ns) d->start_realtime_ns = info->start_realtime_ns;
        mpirr_event e;
        int rc;
        /* a damaged or cut-off history was reported by analysis_open: show what it holds */
        while ((rc = mpirr_evr_next(r, &e)) == 1) {
            if (!mpirr_ev_is_call(e.kind)) continue;
            if (put_event(a, d, p, &e)) {
                mpirr_evr_close(r);
                cli_error("out of memory");
                return -1;
            }
        }
        vr->clean = rc == 0 && mpirr_evr_clean(r);
        mpirr_evr_close(r);
    }
    return 0;
}

void view_data_free(struct view_data *d)
{
    for (int p = 0; d->ranks && p < d->nranks; p++) {
        struct view_rank *vr = &d->ranks[p];
        vbuf_free(&vr->ev);
        vbuf_free(&vr->tb);
        vbuf_free(&vr->du);
        vbuf_free(&vr->sh);
        vbuf_free(&vr->si);
        free(vr->site_str);
    }
    free(d->ranks);
    free(d->shapes);
    free(d->hash);
    for (uint32_t i = 0; i < d->nstrings; i++) free(d->strings[i]);
    free(d->strings);
    free(d->shash);
    vbuf_free(&d->msgs);
    vbuf_free(&d->colls);
    vbuf_free(&d->races);
    memset(d, 0, sizeof *d);
}
