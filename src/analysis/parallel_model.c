/* parallel_model.c: the run model of a block of ranks as bytes, and blocks merged back into one
 * run (the parallel analysis, docs/analysis.md "Parallel analysis"). Each analysis process
 * reads the histories of its block (an_load_ranks), packs them; the process that reports
 * unpacks the blocks in rank order. Communicators are merged by their identity key: a block
 * numbers the ones it meets in the order its ranks define them, so taking each block's new
 * ones in block order numbers them as reading every history in rank order does. The bytes
 * never leave one run of one build (native layout); they are still checked as they are read. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "parallel_model.h"
#include "reserve.h"
#include "u64_map.h"

#define BLOCK_MAGIC 0x6d707252u /* "Rprm" */

int an_par_put(an_par_buf *b, const void *p, size_t n)
{
    void *d = b->data;
    if (mpirr_reserve(&d, &b->cap, b->len + n, 1)) return -1;
    b->data = d;
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

static int put_u32(an_par_buf *b, uint32_t v) { return an_par_put(b, &v, sizeof v); }
static int put_u64(an_par_buf *b, uint64_t v) { return an_par_put(b, &v, sizeof v); }

static int put_comm(an_par_buf *b, const an_comm *c)
{
    return put_u32(b, c->size) || put_u32(b, c->nremote) ||
           an_par_put(b, c->world, (size_t)(c->size + c->nremote) * sizeof *c->world);
}

static int put_text(an_par_buf *b, const char *s)
{
    if (!s) return put_u32(b, UINT32_MAX);
    size_t n = strlen(s);
    return put_u32(b, (uint32_t)n) || an_par_put(b, s, n);
}

static int pack_rank(an_par_buf *b, const an_rank *rk, const uint64_t *hb)
{
    uint64_t nhb = hb ? rk->nops : 0;
    if (put_u64(b, nhb) || an_par_put(b, hb, nhb * sizeof *hb)) return -1;
    if (put_u64(b, rk->nops) || an_par_put(b, rk->ops, rk->nops * sizeof *rk->ops) || put_u64(b, rk->events) ||
        put_u32(b, (uint32_t)rk->clean) || put_u32(b, rk->nsites) ||
        an_par_put(b, rk->site_addr, rk->nsites * sizeof *rk->site_addr) || put_u32(b, rk->nmods))
        return -1;
    for (uint32_t i = 0; i < rk->nmods; i++)
        if (put_text(b, rk->mods[i].path) || put_u64(b, rk->mods[i].bias) || put_u64(b, rk->mods[i].lo) ||
            put_u64(b, rk->mods[i].hi))
            return -1;
    if (put_u32(b, rk->ncomm_of) || an_par_put(b, rk->comm_of, rk->ncomm_of * sizeof *rk->comm_of)) return -1;
    for (uint32_t i = 0; i < rk->ncomm_of; i++)
        if (put_comm(b, &rk->lcomm[i])) return -1;
    return put_text(b, rk->damage) || put_u64(b, rk->nacc) || an_par_put(b, rk->acc, rk->nacc * sizeof *rk->acc) ||
           put_u64(b, rk->acc_open) || put_u32(b, rk->nwin_of) ||
           an_par_put(b, rk->win_of, rk->nwin_of * sizeof *rk->win_of);
}

int an_par_pack(const an_run *run, int lo, int hi, uint64_t *const *hb, an_par_buf *out)
{
    memset(out, 0, sizeof *out);
    if (put_u32(out, BLOCK_MAGIC) || put_u32(out, (uint32_t)lo) || put_u32(out, (uint32_t)hi) ||
        put_u64(out, run->events) || put_u64(out, hb ? run->hb_unresolved : 0) || put_u32(out, run->ncomms))
        goto fail;
    for (uint32_t c = 0; c < run->ncomms; c++)
        if (put_u64(out, run->comm_keys[c]) || put_comm(out, &run->comms[c])) goto fail;
    for (int p = lo; p < hi; p++)
        if (pack_rank(out, &run->ranks[p], hb ? hb[p - lo] : NULL)) goto fail;
    return 0;
fail:
    an_par_buf_free(out);
    return -1;
}

void an_par_buf_free(an_par_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* ---- reading a block back ---- */

typedef struct reader {
    const unsigned char *p, *end;
    int bad; /* ran past the end, or a count that cannot be */
} reader;

static int take(reader *r, void *dst, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        if (n) memset(dst, 0, n);
        return -1;
    }
    if (n) memcpy(dst, r->p, n);
    r->p += n;
    return 0;
}

static uint32_t take_u32(reader *r)
{
    uint32_t v;
    take(r, &v, sizeof v);
    return v;
}

static uint64_t take_u64(reader *r)
{
    uint64_t v;
    take(r, &v, sizeof v);
    return v;
}

/* A copy of the next n elements of size bytes (NULL for none, or when they are not there). */
static void *take_array(reader *r, uint64_t n, size_t size)
{
    if (r->bad || n > (uint64_t)(r->end - r->p) / (size ? size : 1)) {
        r->bad = 1;
        return NULL;
    }
    if (!n) return NULL;
    void *a = malloc(n * size);
    if (!a) {
        r->bad = 1;
        return NULL;
    }
    take(r, a, n * size);
    return a;
}

static void take_comm(reader *r, an_comm *c)
{
    c->size = take_u32(r);
    c->nremote = take_u32(r);
    uint64_t n = (uint64_t)c->size + c->nremote;
    c->world = take_array(r, n, sizeof *c->world);
    if (!c->world && !r->bad) c->world = calloc(1, sizeof *c->world);
    if (!c->world) r->bad = 1;
}

static char *take_text(reader *r)
{
    uint32_t n = take_u32(r);
    if (n == UINT32_MAX || r->bad) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->bad = 1;
        return NULL;
    }
    take(r, s, n);
    s[n] = 0;
    return s;
}

/* A block's communicator id -> the run's (AN_NIL passes through). */
static uint32_t remap(const uint32_t *to, uint32_t n, uint32_t id) { return id < n ? to[id] : id; }

static void unpack_rank(reader *r, an_rank *rk, uint64_t **hb, const uint32_t *to, uint32_t nto)
{
    uint64_t nhb = take_u64(r);
    *hb = take_array(r, nhb, sizeof **hb);
    rk->nops = rk->cap = take_u64(r);
    if (nhb && nhb != rk->nops) r->bad = 1;
    rk->ops = take_array(r, rk->nops, sizeof *rk->ops);
    rk->events = take_u64(r);
    rk->clean = (int)take_u32(r);
    rk->nsites = take_u32(r);
    rk->site_addr = take_array(r, rk->nsites, sizeof *rk->site_addr);
    rk->nmods = take_u32(r);
    if (rk->nmods && !r->bad) {
        if (rk->nmods > (uint64_t)(r->end - r->p) / 28 || !(rk->mods = calloc(rk->nmods, sizeof *rk->mods)))
            r->bad = 1;
        for (uint32_t i = 0; !r->bad && i < rk->nmods; i++) {
            an_module *m = &rk->mods[i];
            m->path = take_text(r);
            m->bias = take_u64(r);
            m->lo = take_u64(r);
            m->hi = take_u64(r);
            if (!m->path) r->bad = 1;
        }
    }
    rk->ncomm_of = take_u32(r);
    rk->comm_of = take_array(r, rk->ncomm_of, sizeof *rk->comm_of);
    if (!r->bad && rk->ncomm_of && !(rk->lcomm = calloc(rk->ncomm_of, sizeof *rk->lcomm))) r->bad = 1;
    for (uint32_t i = 0; !r->bad && i < rk->ncomm_of; i++) take_comm(r, &rk->lcomm[i]);
    rk->damage = take_text(r);
    rk->nacc = rk->capacc = take_u64(r);
    rk->acc = take_array(r, rk->nacc, sizeof *rk->acc);
    rk->acc_open = take_u64(r);
    rk->nwin_of = take_u32(r);
    rk->win_of = take_array(r, rk->nwin_of, sizeof *rk->win_of);
    if (r->bad) {
        /* an_free frees what arrived; counts of what did not are zeroed to match */
        if (!rk->ops) rk->nops = rk->cap = 0;
        if (!rk->site_addr) rk->nsites = 0;
        if (!rk->mods) rk->nmods = 0;
        if (!rk->comm_of || !rk->lcomm) {
            free(rk->comm_of);
            if (rk->lcomm)
                for (uint32_t i = 0; i < rk->ncomm_of; i++) free(rk->lcomm[i].world);
            free(rk->lcomm);
            rk->comm_of = NULL;
            rk->lcomm = NULL;
            rk->ncomm_of = 0;
        }
        if (!rk->acc) rk->nacc = rk->capacc = 0;
        if (!rk->win_of) rk->nwin_of = 0;
        return;
    }
    for (size_t i = 0; i < rk->nops; i++) rk->ops[i].comm = remap(to, nto, rk->ops[i].comm);
    for (uint32_t i = 0; i < rk->ncomm_of; i++) rk->comm_of[i] = remap(to, nto, rk->comm_of[i]);
    for (uint32_t i = 0; i < rk->nwin_of; i++) rk->win_of[i] = remap(to, nto, rk->win_of[i]);
    for (size_t i = 0; i < rk->nacc; i++) rk->acc[i].win = remap(to, nto, rk->acc[i].win);
}

/* The run's id of a block's communicator c (key, members): an existing one with its key, or a
 * new one appended. -1: out of memory. */
static int merge_comm(an_par_merge *m, an_run *run, uint64_t key, an_comm *c, uint32_t *gid)
{
    int added;
    uint64_t *slot = u64_map_slot(&m->by_key, key, run->ncomms, &added);
    if (!slot) return -1;
    *gid = (uint32_t)*slot;
    if (!added) {
        free(c->world);
        return 0;
    }
    void *comms = run->comms, *keys = run->comm_keys;
    size_t cap = m->ccap, kcap = m->ccap;
    if (mpirr_reserve(&comms, &cap, run->ncomms + 1, sizeof *run->comms)) return -1;
    run->comms = comms;
    if (mpirr_reserve(&keys, &kcap, run->ncomms + 1, sizeof *run->comm_keys)) return -1;
    run->comm_keys = keys;
    m->ccap = cap < kcap ? cap : kcap;
    run->comms[run->ncomms] = *c;
    run->comm_keys[run->ncomms] = key;
    run->ncomms++;
    return 0;
}

int an_par_unpack(an_par_merge *m, an_run *run, const void *data, size_t len)
{
    reader r = {data, (const unsigned char *)data + len, 0};
    if (take_u32(&r) != BLOCK_MAGIC) return 1;
    int lo = (int)take_u32(&r), hi = (int)take_u32(&r);
    if (r.bad || lo < 0 || hi < lo || hi > run->nranks) return 1;
    for (int p = lo; p < hi; p++)
        if (run->ranks[p].ops || run->ranks[p].ncomm_of) return 1; /* a rank sent twice */
    run->events += take_u64(&r);
    run->hb_unresolved += (uint32_t)take_u64(&r);
    uint32_t nc = take_u32(&r);
    if (!m->hb && !(m->hb = calloc((size_t)run->nranks + 1, sizeof *m->hb))) return -1;
    m->nhb = run->nranks;
    if (r.bad || nc > (uint64_t)(r.end - r.p) / 16) return 1;
    uint32_t *to = malloc((nc ? nc : 1) * sizeof *to);
    if (!to) return -1;
    int rc = 0;
    for (uint32_t c = 0; c < nc && !rc; c++) {
        uint64_t key = take_u64(&r);
        an_comm comm = {0};
        take_comm(&r, &comm);
        if (r.bad) {
            free(comm.world);
            rc = 1;
        } else if (merge_comm(m, run, key, &comm, &to[c])) {
            free(comm.world);
            rc = -1;
        }
    }
    for (int p = lo; p < hi && !rc; p++) {
        unpack_rank(&r, &run->ranks[p], &m->hb[p], to, nc);
        for (size_t i = 0; !r.bad && i < run->ranks[p].nops; i++)
            if (run->ranks[p].ops[i].comm >= run->ncomms) r.bad = 1;
        if (r.bad) rc = 1;
    }
    free(to);
    return rc;
}

void an_par_merge_free(an_par_merge *m)
{
    u64_map_free(&m->by_key);
    for (int p = 0; m->hb && p < m->nhb; p++) free(m->hb[p]);
    free(m->hb);
    memset(m, 0, sizeof *m);
}
