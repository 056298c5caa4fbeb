/* tracegen.c: mpirr_tracegen, hand-built event histories for testing the post-mortem analysis
 * (`mpirr races`, `mpirr frontier`) on known answers.
 *
 *   mpirr_tracegen [--labels] SCRIPT [OUTDIR]
 *
 * Reads SCRIPT, a small text description of an MPI execution (what each rank called, in
 * order, and what every receive matched), and writes OUTDIR as `mpirr record --events` would
 * have: OUTDIR/manifest (mode sources, mpi openmpi, the rank count, exit status 0) and one
 * OUTDIR/rank-NNNNN.events per rank, with the record kinds and fields the runtime writes for
 * those calls (src/runtime/event_shapes.h). --labels prints `LABEL RANK EVENT` for every
 * labelled line (with or without OUTDIR). A script error is one line on stderr,
 * `SCRIPT:LINE: what is wrong`, and exit status 2; nothing is checked beyond syntax and names
 * (a receive may claim a message nobody sent), so broken executions can be built too.
 *
 * The script language (tests/analysis/README.md has examples):
 *
 *   # comment; everything from '#' to the end of a line is ignored ("#expect" lines too)
 *   ranks N                      first line: the number of ranks (world size)
 *   comm NAME = W0,W1,...        a communicator of those world ranks (local rank i = Wi),
 *                                made by MPI_Comm_split of MPI_COMM_WORLD: every rank's stream
 *                                gets an MPI_Comm_split call here (it is collective over world;
 *                                non-members get MPI_COMM_NULL, recorded without newcomm)
 *   R: CALL ARGS... [@LABEL]     rank R calls CALL: one line per call, in R's program order
 *   R1,R2,...: CALL ARGS...      the same call on several ranks (no label); "*:" or "all:" =
 *                                every rank
 *
 * Every rank's stream starts with MPI_Init (event 1) and ends with MPI_Finalize, so the line
 * of a rank's k-th call is its event k+1 (the MPI_Comm_split of a `comm` line counts). Lines of
 * different ranks may be interleaved freely. Peers (DEST, SRC, got=, root=) are ranks in the
 * call's communicator (world ranks for world), as MPI and the trace have them; `any` is
 * MPI_ANY_SOURCE / MPI_ANY_TAG, `null` MPI_PROC_NULL. comm=NAME picks a communicator
 * (`world` by default; `self` exists too); bytes=B is the message or buffer size (default 4);
 * rbytes=B the size a receive or probe got (default: bytes=).
 *
 *   send DEST tag=T [comm=C] [bytes=B]              MPI_Send (ssend, bsend, rsend alike)
 *   isend DEST tag=T req=NAME [comm=C] [bytes=B]    MPI_Isend (issend, ibsend, irsend)
 *   recv SRC|any tag=T|any [got=S] [mtag=T] [comm=C] [bytes=B] [rbytes=B]
 *                                                   MPI_Recv that matched source S, tag mtag
 *                                                   (got= defaults to a specific SRC, mtag= to
 *                                                   a specific tag; needed with any)
 *   irecv SRC|any tag=T|any req=NAME [comm=C] [bytes=B]   MPI_Irecv (match given at completion)
 *   sendrecv DEST stag=T SRC|any rtag=T|any [got=S] [mtag=T] [comm=C] [bytes=B] [rbytes=B]
 *   probe SRC|any tag=T|any [got=S] [mtag=T] [comm=C] [rbytes=B]       MPI_Probe
 *   iprobe SRC|any tag=T|any [got=S] [mtag=T] [comm=C] [rbytes=B]      successful MPI_Iprobe
 *   iprobe SRC|any tag=T|any none [comm=C]                             unsuccessful MPI_Iprobe
 *   wait req=NAME [got=S] [mtag=T] [rbytes=B]       MPI_Wait; for a receive request the match
 *   test req=NAME [got=S] [mtag=T] [rbytes=B]       successful MPI_Test
 *   test req=NAME none                              unsuccessful MPI_Test (request stays)
 *   waitany req=NAME[(...)] [of=A,B,...]            MPI_Waitany completing NAME (of= lists
 *   testany req=NAME[(...)] [of=A,B,...] | none     the array, checked but not recorded)
 *   waitall req=A,B(got=S,mtag=T,rbytes=B),...      MPI_Waitall completing every one listed;
 *   testall, waitsome, testsome req=...             a receive request's match goes in
 *                                                   parentheses (defaults as for recv);
 *                                                   testall/testsome also take `none`
 *   barrier [comm=C]                                MPI_Barrier
 *   bcast root=R [comm=C] [bytes=B]                 MPI_Bcast (reduce, gather, scatter alike)
 *   allreduce [comm=C] [bytes=B]                    MPI_Allreduce (allgather, alltoall, scan)
 *   compute                                         MPI_Wtime: a call that communicates nothing
 *
 * A request NAME belongs to its rank; it is pending from the call that created it (req=) until
 * a wait or successful test completes it, and may be reused afterwards. Request slots,
 * communicator ids (world 0, self 1, then in the order a rank first sees them), COMM
 * definitions before first use, DONE items with MPIRR_EVI_RECV and the match, call sites and
 * the load map are made as the runtime makes them: each script line is a call site whose
 * return address is its line number in an "object" that is the script (MPI_Init's site is the
 * `ranks` line, MPI_Finalize's the line after the last). Times are fixed, so nothing depends
 * on them: ticks of 1024 ns, the k-th call of a rank runs from tick 2k-2 to tick 2k-1 (every
 * timestamp one tick after the one before, which the log2 time code stores exactly). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "call_ids.h"
#include "event_trace.h"
#include "manifest.h"

#define MAX_RANKS 4096
#define NAME_LEN 64
#define MAX_TOKENS 64
#define DEFAULT_BYTES 4
#define TICK_SHIFT 10
#define BASE_NS 1000000000ull
#define REALTIME_NS 1700000000000000000ull /* 2023-11-14: fixed, so outputs are reproducible */
#define CREATED 1700000000

static const char *script;
static int cur_line;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: ", script, cur_line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "mpirr_tracegen: out of memory\n");
        exit(1);
    }
    return q;
}

/* ---- the execution being built ---- */

struct comm {
    char name[NAME_LEN];
    int n;            /* members (world: nranks; self: 1) */
    int32_t *members; /* world ranks by local rank (NULL for world and self) */
    uint32_t *local;  /* id in each rank's trace, UINT32_MAX if not a member */
};

struct req {
    char name[NAME_LEN];
    uint32_t slot;
    int recv;
    int32_t src, tag; /* as posted (receives) */
    uint64_t bytes;
    int comm_size;
};

struct op {
    mpirr_event e;
    int line;
    int define; /* comm index whose COMM record precedes this call (MPI_Comm_split), or -1 */
};

struct rank {
    uint64_t events;
    struct op *ops;
    size_t nops, cap;
    uint32_t next_id; /* next communicator id */
    struct req *reqs; /* pending */
    size_t nreqs, reqcap;
    unsigned char *used; /* request slots in use */
    size_t nused;
};

struct label {
    char name[NAME_LEN];
    int rank, line;
    uint64_t event;
};

static int nranks = -1, ranks_line;
static struct rank *rk;
static struct comm *comms;
static int ncomms;
static struct label *labels;
static size_t nlabels;

/* ---- lexical helpers ---- */

static int valid_name(const char *s)
{
    if (!*s || strlen(s) >= NAME_LEN) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '.' || *s == '-'))
            return 0;
    return 1;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!*s || (*s != '-' && (*s < '0' || *s > '9'))) return 0;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static uint64_t parse_bytes(const char *key, const char *v)
{
    char *end;
    if (!*v || *v < '0' || *v > '9') fail("%s=%s: a byte count is a number", key, v);
    errno = 0;
    unsigned long long b = strtoull(v, &end, 10);
    if (errno || *end) fail("%s=%s: a byte count is a number", key, v);
    return b;
}

/* A peer: a rank of a communicator of size n, `any` (if allowed) or `null`. */
static int32_t parse_peer(const char *what, const char *v, int allow_any, int n)
{
    long r;
    if (allow_any && !strcmp(v, "any")) return MPIRR_EV_ANY;
    if (!strcmp(v, "null")) return MPIRR_EV_PROC_NULL;
    if (!parse_long(v, 0, INT32_MAX, &r))
        fail("%s '%s': expected a rank%s or null", what, v, allow_any ? ", any" : "");
    if (r >= n) fail("%s %ld: the communicator has ranks 0 to %d", what, r, n - 1);
    return (int32_t)r;
}

static int32_t parse_tag(const char *what, const char *v, int allow_any)
{
    long t;
    if (allow_any && !strcmp(v, "any")) return MPIRR_EV_ANY;
    if (!parse_long(v, 0, INT32_MAX, &t))
        fail("%s=%s: expected a tag (a number >= 0%s)", what, v, allow_any ? " or any" : "");
    return (int32_t)t;
}

/* ---- the arguments of one call line ---- */

struct args {
    const char *call;
    const char *pos[8];
    int npos;
    struct {
        const char *k, *v;
        int used;
    } kv[16];
    int nkv;
    int none; /* the `none` keyword */
};

static const char *opt(struct args *a, const char *key)
{
    for (int i = 0; i < a->nkv; i++)
        if (!strcmp(a->kv[i].k, key)) {
            a->kv[i].used = 1;
            return a->kv[i].v;
        }
    return NULL;
}

static const char *need(struct args *a, const char *key)
{
    const char *v = opt(a, key);
    if (!v) fail("%s needs %s=", a->call, key);
    return v;
}

static void positional(struct args *a, int n, const char *names)
{
    if (a->npos != n)
        fail("%s takes %s%s (got %d positional argument%s)", a->call, n ? "" : "no positional arguments",
             names, a->npos, a->npos == 1 ? "" : "s");
}

static void all_used(struct args *a, int none_ok)
{
    for (int i = 0; i < a->nkv; i++)
        if (!a->kv[i].used) fail("%s has no option %s=", a->call, a->kv[i].k);
    if (a->none && !none_ok) fail("%s does not take `none`", a->call);
}

/* ---- ranks, communicators, requests ---- */

static struct op *new_op(int r, unsigned kind)
{
    struct rank *k = &rk[r];
    if (k->nops == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 64;
        k->ops = xrealloc(k->ops, k->cap * sizeof *k->ops);
    }
    struct op *o = &k->ops[k->nops++];
    memset(o, 0, sizeof *o);
    o->e.kind = kind;
    o->e.event = ++k->events;
    o->line = cur_line;
    o->define = -1;
    return o;
}

static int find_comm(const char *name)
{
    for (int i = 0; i < ncomms; i++)
        if (!strcmp(comms[i].name, name)) return i;
    return -1;
}

static struct comm *add_comm(const char *name, int n, int32_t *members)
{
    comms = xrealloc(comms, (size_t)(ncomms + 1) * sizeof *comms);
    struct comm *c = &comms[ncomms++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->n = n;
    c->members = members;
    c->local = xrealloc(NULL, (size_t)nranks * sizeof *c->local);
    for (int r = 0; r < nranks; r++) c->local[r] = UINT32_MAX;
    return c;
}

/* The communicator of a call by rank r (comm=NAME, default world): its id in r's trace and
 * its size. */
static uint32_t call_comm(struct args *a, int r, int *size)
{
    const char *name = opt(a, "comm");
    int i = name ? find_comm(name) : 0;
    if (i < 0) fail("no communicator named '%s' (define it with a `comm` line first)", name);
    if (comms[i].local[r] == UINT32_MAX) fail("rank %d is not a member of communicator %s", r, name);
    *size = comms[i].n;
    return comms[i].local[r];
}

static struct req *find_req(int r, const char *name)
{
    for (size_t i = 0; i < rk[r].nreqs; i++)
        if (!strcmp(rk[r].reqs[i].name, name)) return &rk[r].reqs[i];
    return NULL;
}

/* The lowest free slot, as the runtime's slot allocator gives it. */
static struct req *new_req(int r, const char *name)
{
    struct rank *k = &rk[r];
    if (!valid_name(name)) fail("req=%s: a request name is letters, digits, '_', '.', '-'", name);
    if (find_req(r, name)) fail("request %s of rank %d is still pending", name, r);
    uint32_t s = 0;
    while (s < k->nused && k->used[s]) s++;
    if (s == k->nused) {
        k->used = xrealloc(k->used, ++k->nused);
        k->used[s] = 0;
    }
    k->used[s] = 1;
    if (k->nreqs == k->reqcap) {
        k->reqcap = k->reqcap ? k->reqcap * 2 : 16;
        k->reqs = xrealloc(k->reqs, k->reqcap * sizeof *k->reqs);
    }
    struct req *q = &k->reqs[k->nreqs++];
    memset(q, 0, sizeof *q);
    snprintf(q->name, sizeof q->name, "%s", name);
    q->slot = s;
    return q;
}

static void release_req(int r, struct req *q)
{
    struct rank *k = &rk[r];
    k->used[q->slot] = 0;
    *q = k->reqs[--k->nreqs];
}

/* ---- call lines ---- */

enum cls {
    C_SEND, C_ISEND, C_RECV, C_IRECV, C_SENDRECV, C_PROBE, C_IPROBE, C_DONE1, C_DONEN,
    C_BARRIER, C_COLL, C_RCOLL, C_COMPUTE
};

static const struct callspec {
    const char *name;
    unsigned id;
    enum cls cls;
    int test; /* may fail: takes `none` */
} calls[] = {
    {"send", MPIRR_ID_MPI_Send, C_SEND, 0},
    {"ssend", MPIRR_ID_MPI_Ssend, C_SEND, 0},
    {"bsend", MPIRR_ID_MPI_Bsend, C_SEND, 0},
    {"rsend", MPIRR_ID_MPI_Rsend, C_SEND, 0},
    {"isend", MPIRR_ID_MPI_Isend, C_ISEND, 0},
    {"issend", MPIRR_ID_MPI_Issend, C_ISEND, 0},
    {"ibsend", MPIRR_ID_MPI_Ibsend, C_ISEND, 0},
    {"irsend", MPIRR_ID_MPI_Irsend, C_ISEND, 0},
    {"recv", MPIRR_ID_MPI_Recv, C_RECV, 0},
    {"irecv", MPIRR_ID_MPI_Irecv, C_IRECV, 0},
    {"sendrecv", MPIRR_ID_MPI_Sendrecv, C_SENDRECV, 0},
    {"probe", MPIRR_ID_MPI_Probe, C_PROBE, 0},
    {"iprobe", MPIRR_ID_MPI_Iprobe, C_IPROBE, 1},
    {"wait", MPIRR_ID_MPI_Wait, C_DONE1, 0},
    {"test", MPIRR_ID_MPI_Test, C_DONE1, 1},
    {"waitany", MPIRR_ID_MPI_Waitany, C_DONE1, 0},
    {"testany", MPIRR_ID_MPI_Testany, C_DONE1, 1},
    {"waitall", MPIRR_ID_MPI_Waitall, C_DONEN, 0},
    {"testall", MPIRR_ID_MPI_Testall, C_DONEN, 1},
    {"waitsome", MPIRR_ID_MPI_Waitsome, C_DONEN, 0},
    {"testsome", MPIRR_ID_MPI_Testsome, C_DONEN, 1},
    {"barrier", MPIRR_ID_MPI_Barrier, C_BARRIER, 0},
    {"bcast", MPIRR_ID_MPI_Bcast, C_RCOLL, 0},
    {"reduce", MPIRR_ID_MPI_Reduce, C_RCOLL, 0},
    {"gather", MPIRR_ID_MPI_Gather, C_RCOLL, 0},
    {"scatter", MPIRR_ID_MPI_Scatter, C_RCOLL, 0},
    {"allreduce", MPIRR_ID_MPI_Allreduce, C_COLL, 0},
    {"allgather", MPIRR_ID_MPI_Allgather, C_COLL, 0},
    {"alltoall", MPIRR_ID_MPI_Alltoall, C_COLL, 0},
    {"scan", MPIRR_ID_MPI_Scan, C_COLL, 0},
    {"exscan", MPIRR_ID_MPI_Exscan, C_COLL, 0},
    {"compute", MPIRR_ID_MPI_Wtime, C_COMPUTE, 0},
};

static uint64_t bytes_opt(struct args *a, const char *key, uint64_t dflt)
{
    const char *v = opt(a, key);
    return v ? parse_bytes(key, v) : dflt;
}

/* What a receive (or probe) matched: got= (default: a specific source), mtag= (default: a
 * specific tag), rbytes=. Sets src, mtag, got of e and MATCH. */
static void match_fields(struct args *a, mpirr_event *e, int32_t src, int32_t tag, int n, uint64_t bytes)
{
    const char *g = opt(a, "got"), *t = opt(a, "mtag");
    if (!g && src == MPIRR_EV_ANY) fail("%s from any source needs got=SOURCE (what it matched)", a->call);
    e->src = g ? parse_peer("got=", g, 0, n) : src;
    if (!t && tag == MPIRR_EV_ANY && e->src != MPIRR_EV_PROC_NULL)
        fail("%s with tag=any needs mtag=TAG (the tag it matched)", a->call);
    /* a receive from MPI_PROC_NULL gets MPI_ANY_TAG and nothing */
    e->mtag = t ? parse_tag("mtag", t, 1) : e->src == MPIRR_EV_PROC_NULL ? MPIRR_EV_ANY : tag;
    e->got = bytes_opt(a, "rbytes", e->src == MPIRR_EV_PROC_NULL ? 0 : bytes);
    e->fields |= MPIRR_EVF_MATCH;
}

/* One completed request of a completion call: NAME or NAME(got=S,mtag=T,rbytes=B); line-level
 * got=/mtag=/rbytes= (given in lvl) apply when the call completes one request. */
static void completed(struct args *a, int r, const char *spec, struct args *lvl, mpirr_ev_item *it)
{
    char name[NAME_LEN * 4];
    const char *paren = strchr(spec, '(');
    size_t n = paren ? (size_t)(paren - spec) : strlen(spec);
    if (n >= sizeof name) fail("request name too long: %s", spec);
    memcpy(name, spec, n);
    name[n] = 0;
    struct req *q = find_req(r, name);
    if (!q) fail("rank %d has no pending request named '%s'", r, name);
    struct args in = {.call = a->call};
    char buf[256];
    if (paren) {
        size_t len = strlen(paren);
        if (len < 2 || paren[len - 1] != ')' || len - 2 >= sizeof buf)
            fail("'%s': expected NAME(key=value,...)", spec);
        memcpy(buf, paren + 1, len - 2);
        buf[len - 2] = 0;
        for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(kv, '=');
            if (!eq || in.nkv == 16) fail("'%s': expected NAME(key=value,...)", spec);
            *eq = 0;
            in.kv[in.nkv].k = kv;
            in.kv[in.nkv++].v = eq + 1;
        }
    } else if (lvl) {
        in = *lvl;
        in.call = a->call;
    }
    memset(it, 0, sizeof *it);
    it->slot = q->slot;
    if (q->recv) {
        mpirr_event m = {0};
        match_fields(&in, &m, q->src, q->tag, q->comm_size, q->bytes);
        it->flags = MPIRR_EVI_RECV;
        it->src = m.src;
        it->tag = m.mtag;
        it->got = m.got;
    }
    for (int i = 0; i < in.nkv; i++)
        if (!in.kv[i].used)
            fail("%s: %s=%s does not apply to request %s%s", a->call, in.kv[i].k, in.kv[i].v, name,
                 q->recv ? "" : " (a send request)");
    if (lvl && !paren)
        for (int i = 0; i < lvl->nkv; i++)
            if (in.kv[i].used) lvl->kv[i].used = 1;
    release_req(r, q);
}

/* Splits a req= list at the commas outside parentheses. */
static int split_list(char *s, char **out, int max)
{
    int n = 0, depth = 0;
    char *start = s;
    for (char *p = s;; p++) {
        if (*p == '(') depth++;
        else if (*p == ')') depth--;
        if (*p == 0 || (*p == ',' && depth == 0)) {
            int end = *p == 0;
            *p = 0;
            if (!*start) fail("empty name in the list '%s'", s);
            if (n == max) fail("too many requests in one call (at most %d)", max);
            out[n++] = start;
            start = p + 1;
            if (end) break;
        }
    }
    return n;
}

static void completion(struct args *a, const struct callspec *cs, int r, struct op *o)
{
    positional(a, 0, "");
    char list[1024];
    const char *v = need(a, "req");
    if (strlen(v) >= sizeof list) fail("req= list too long");
    snprintf(list, sizeof list, "%s", v);
    char *names[256];
    int n = split_list(list, names, 256);
    if (cs->cls == C_DONE1 && n != 1) fail("%s completes one request: req=NAME", a->call);
    const char *of = opt(a, "of");
    if (of) {
        if (cs->id != MPIRR_ID_MPI_Waitany && cs->id != MPIRR_ID_MPI_Testany)
            fail("%s has no option of=", a->call);
        char ofl[1024], *arr[256];
        if (strlen(of) >= sizeof ofl) fail("of= list too long");
        snprintf(ofl, sizeof ofl, "%s", of);
        int m = split_list(ofl, arr, 256), in_arr = 0;
        char nm[NAME_LEN * 4];
        snprintf(nm, sizeof nm, "%.*s", (int)strcspn(names[0], "("), names[0]);
        for (int i = 0; i < m; i++) {
            if (!find_req(r, arr[i])) fail("of=: rank %d has no pending request named '%s'", r, arr[i]);
            if (!strcmp(arr[i], nm)) in_arr = 1;
        }
        if (!in_arr) fail("of= does not list the completed request %s", nm);
    }
    if (a->none) {
        /* an unsuccessful test: the requests stay pending, the record has no items */
        for (int i = 0; i < n; i++)
            if (strchr(names[i], '(') || !find_req(r, names[i]))
                fail("rank %d has no pending request named '%s'", r, names[i]);
        all_used(a, 1);
        return;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (!strncmp(names[i], names[j], strcspn(names[i], "(")) &&
                strcspn(names[i], "(") == strcspn(names[j], "("))
                fail("request %.*s listed twice", (int)strcspn(names[i], "("), names[i]);
    o->e.items = xrealloc(NULL, (size_t)n * sizeof *o->e.items);
    o->e.nitems = (uint32_t)n;
    o->e.fields |= MPIRR_EVF_DONE;
    /* line-level got=/mtag=/rbytes= belong to a single completed request */
    struct args lvl = {.call = a->call};
    const char *keys[] = {"got", "mtag", "rbytes"};
    for (int k = 0; k < 3; k++) {
        const char *kv = opt(a, keys[k]);
        if (!kv) continue;
        if (n != 1) fail("%s of several requests: give %s= in parentheses, NAME(%s=...)", a->call, keys[k], keys[k]);
        if (strchr(names[0], '(')) fail("%s= given both on the line and in parentheses", keys[k]);
        lvl.kv[lvl.nkv].k = keys[k];
        lvl.kv[lvl.nkv++].v = kv;
    }
    for (int i = 0; i < n; i++) completed(a, r, names[i], n == 1 ? &lvl : NULL, &o->e.items[i]);
    for (int i = 0; i < lvl.nkv; i++)
        if (!lvl.kv[i].used) fail("%s: %s= does not apply to a send request", a->call, lvl.kv[i].k);
    all_used(a, cs->test);
}

/* One call of rank r; returns its event number. */
static uint64_t call_line(struct args *a, const struct callspec *cs, int r)
{
    struct op *o = new_op(r, cs->id);
    mpirr_event *e = &o->e;
    int n = 0;
    switch (cs->cls) {
    case C_SEND:
    case C_ISEND:
        positional(a, 1, "DEST");
        e->comm = call_comm(a, r, &n);
        e->peer = parse_peer("destination", a->pos[0], 0, n);
        e->tag = parse_tag("tag", need(a, "tag"), 0);
        e->bytes = bytes_opt(a, "bytes", DEFAULT_BYTES);
        e->fields = MPIRR_EVF_COMM | MPIRR_EVF_PEER | MPIRR_EVF_TAG | MPIRR_EVF_BYTES;
        if (cs->cls == C_ISEND) {
            struct req *q = new_req(r, need(a, "req"));
            e->req = q->slot;
            e->fields |= MPIRR_EVF_REQ;
        }
        break;
    case C_RECV:
    case C_IRECV:
        positional(a, 1, "SRC|any");
        e->comm = call_comm(a, r, &n);
        e->peer = parse_peer("source", a->pos[0], 1, n);
        e->tag = parse_tag("tag", need(a, "tag"), 1);
        e->bytes = bytes_opt(a, "bytes", DEFAULT_BYTES);
        e->fields = MPIRR_EVF_COMM | MPIRR_EVF_PEER | MPIRR_EVF_TAG | MPIRR_EVF_BYTES;
        if (cs->cls == C_RECV) {
            match_fields(a, e, e->peer, e->tag, n, e->bytes);
        } else {
            struct req *q = new_req(r, need(a, "req"));
            q->recv = 1;
            q->src = e->peer;
            q->tag = e->tag;
            q->bytes = e->bytes;
            q->comm_size = n;
            e->req = q->slot;
            e->fields |= MPIRR_EVF_REQ;
        }
        break;
    case C_SENDRECV:
        positional(a, 2, "DEST SRC|any");
        e->comm = call_comm(a, r, &n);
        e->peer = parse_peer("destination", a->pos[0], 0, n);
        e->tag = parse_tag("stag", need(a, "stag"), 0);
        e->rpeer = parse_peer("source", a->pos[1], 1, n);
        e->rtag = parse_tag("rtag", need(a, "rtag"), 1);
        e->bytes = bytes_opt(a, "bytes", DEFAULT_BYTES);
        e->fields = MPIRR_EVF_COMM | MPIRR_EVF_PEER | MPIRR_EVF_TAG | MPIRR_EVF_BYTES | MPIRR_EVF_RPEER;
        match_fields(a, e, e->rpeer, e->rtag, n, e->bytes);
        break;
    case C_PROBE:
    case C_IPROBE:
        positional(a, 1, "SRC|any");
        e->comm = call_comm(a, r, &n);
        e->peer = parse_peer("source", a->pos[0], 1, n);
        e->tag = parse_tag("tag", need(a, "tag"), 1);
        e->fields = MPIRR_EVF_COMM | MPIRR_EVF_PEER | MPIRR_EVF_TAG;
        if (!a->none) match_fields(a, e, e->peer, e->tag, n, DEFAULT_BYTES);
        break;
    case C_DONE1:
    case C_DONEN:
        completion(a, cs, r, o);
        return e->event;
    case C_BARRIER:
        positional(a, 0, "");
        e->comm = call_comm(a, r, &n);
        e->fields = MPIRR_EVF_COMM;
        break;
    case C_COLL:
    case C_RCOLL:
        positional(a, 0, "");
        e->comm = call_comm(a, r, &n);
        e->bytes = bytes_opt(a, "bytes", DEFAULT_BYTES);
        e->fields = MPIRR_EVF_COMM | MPIRR_EVF_BYTES;
        if (cs->cls == C_RCOLL) {
            e->root = parse_peer("root", need(a, "root"), 0, n);
            e->fields |= MPIRR_EVF_ROOT;
        }
        break;
    case C_COMPUTE:
        positional(a, 0, "");
        break;
    }
    all_used(a, cs->cls == C_IPROBE);
    return e->event;
}

/* ---- lines ---- */

static int tokenize(char *s, char **tok)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(s, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == MAX_TOKENS) fail("too many words on one line");
        tok[n++] = t;
    }
    return n;
}

static void ranks_directive(char **tok, int n)
{
    long v;
    if (nranks >= 0) fail("`ranks` given twice");
    if (n != 2 || !parse_long(tok[1], 1, MAX_RANKS, &v)) fail("expected `ranks N` (1 <= N <= %d)", MAX_RANKS);
    nranks = (int)v;
    ranks_line = cur_line;
    rk = xrealloc(NULL, (size_t)nranks * sizeof *rk);
    memset(rk, 0, (size_t)nranks * sizeof *rk);
    add_comm("world", nranks, NULL);
    add_comm("self", 1, NULL);
    for (int r = 0; r < nranks; r++) {
        comms[0].local[r] = 0;
        comms[1].local[r] = 1;
        rk[r].next_id = 2;
        rk[r].events = 1; /* MPI_Init */
    }
}

/* comm NAME = W0,W1,... (the list may contain spaces after commas) */
static void comm_directive(char **tok, int n)
{
    if (n < 4 || strcmp(tok[2], "=")) fail("expected `comm NAME = RANK,RANK,...`");
    const char *name = tok[1];
    if (!valid_name(name)) fail("comm %s: a name is letters, digits, '_', '.', '-'", name);
    if (find_comm(name) >= 0) fail("communicator %s is defined already", name);
    char list[4096] = "";
    for (int i = 3; i < n; i++) {
        if (tok[i][0] == '@') fail("a `comm` line makes one event per member: it takes no label");
        if (strlen(list) + strlen(tok[i]) + 1 >= sizeof list) fail("member list too long");
        strcat(list, tok[i]);
    }
    int32_t *m = xrealloc(NULL, (size_t)nranks * sizeof *m);
    int cnt = 0;
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long v;
        if (!parse_long(t, 0, nranks - 1, &v)) fail("comm %s: '%s' is not a world rank (0 to %d)", name, t, nranks - 1);
        for (int i = 0; i < cnt; i++)
            if (m[i] == v) fail("comm %s: rank %ld listed twice", name, v);
        if (cnt == nranks) fail("comm %s: too many members", name);
        m[cnt++] = (int32_t)v;
    }
    if (!cnt) fail("comm %s: no members", name);
    struct comm *c = add_comm(name, cnt, m);
    for (int i = 0; i < cnt; i++) c->local[m[i]] = rk[m[i]].next_id++;
    /* MPI_Comm_split is collective over MPI_COMM_WORLD: every rank calls it; the others get
     * MPI_COMM_NULL (color MPI_UNDEFINED), which the runtime records without a newcomm */
    for (int r = 0; r < nranks; r++) {
        struct op *o = new_op(r, MPIRR_ID_MPI_Comm_split);
        o->e.comm = 0;
        o->e.fields = MPIRR_EVF_COMM;
        if (c->local[r] != UINT32_MAX) {
            o->e.newcomm = c->local[r];
            o->e.fields |= MPIRR_EVF_NEWCOMM;
            o->define = ncomms - 1;
        }
    }
}

static void add_label(const char *name, int r, uint64_t event)
{
    for (size_t i = 0; i < nlabels; i++)
        if (!strcmp(labels[i].name, name)) fail("label @%s is used already (line %d)", name, labels[i].line);
    labels = xrealloc(labels, (nlabels + 1) * sizeof *labels);
    struct label *l = &labels[nlabels++];
    snprintf(l->name, sizeof l->name, "%s", name);
    l->rank = r;
    l->event = event;
    l->line = cur_line;
}

/* R: / R1,R2,...: / *: and the call */
static void call_directive(char **tok, int n)
{
    char spec[256];
    char *colon = strchr(tok[0], ':');
    size_t sl = (size_t)(colon - tok[0]);
    if (sl >= sizeof spec) fail("rank list too long");
    memcpy(spec, tok[0], sl);
    spec[sl] = 0;
    /* "0:send ..." (no space after the colon) */
    int first = 1;
    if (colon[1]) {
        tok[0] = colon + 1;
        first = 0;
    }
    if (first >= n) fail("expected a call after '%s:'", spec);
    if (nranks < 0) fail("the first line must be `ranks N`");
    unsigned char *on = xrealloc(NULL, (size_t)nranks);
    memset(on, 0, (size_t)nranks);
    int count = 0;
    if (!strcmp(spec, "*") || !strcmp(spec, "all")) {
        memset(on, 1, (size_t)nranks);
        count = nranks;
    } else {
        char *save = NULL;
        for (char *t = strtok_r(spec, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            long v;
            if (!parse_long(t, 0, nranks - 1, &v)) fail("'%s' is not a rank (0 to %d)", t, nranks - 1);
            if (on[v]) fail("rank %ld listed twice", v);
            on[v] = 1;
            count++;
        }
        if (!count) fail("no rank before ':'");
    }
    const struct callspec *cs = NULL;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (!strcmp(calls[i].name, tok[first])) cs = &calls[i];
    if (!cs) fail("unknown call '%s'", tok[first]);
    const char *label = NULL;
    struct args proto = {.call = cs->name};
    for (int i = first + 1; i < n; i++) {
        char *t = tok[i];
        if (t[0] == '@') {
            if (label) fail("two labels on one line");
            if (!valid_name(t + 1)) fail("label %s: a label is @ and letters, digits, '_', '.', '-'", t);
            label = t + 1;
        } else if (label) {
            fail("the label must come last on the line");
        } else if (strchr(t, '=')) {
            char *eq = strchr(t, '=');
            *eq = 0;
            for (int k = 0; k < proto.nkv; k++)
                if (!strcmp(proto.kv[k].k, t)) fail("%s= given twice", t);
            if (proto.nkv == 16) fail("too many options");
            proto.kv[proto.nkv].k = t;
            proto.kv[proto.nkv++].v = eq + 1;
            if (!eq[1]) fail("%s= needs a value", t);
        } else if (!strcmp(t, "none")) {
            proto.none = 1;
        } else {
            if (proto.npos == 8) fail("too many arguments");
            proto.pos[proto.npos++] = t;
        }
    }
    if (label && count != 1) fail("a label names one event: label a line of one rank");
    for (int r = 0; r < nranks; r++) {
        if (!on[r]) continue;
        struct args a = proto;
        uint64_t ev = call_line(&a, cs, r);
        if (label) add_label(label, r, ev);
    }
    free(on);
}

static int parse_script(FILE *f)
{
    char *line = NULL, *tok[MAX_TOKENS];
    size_t cap = 0;
    while (getline(&line, &cap, f) >= 0) {
        cur_line++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        int n = tokenize(line, tok);
        if (!n) continue;
        if (!strcmp(tok[0], "ranks")) ranks_directive(tok, n);
        else if (nranks < 0) fail("the first line must be `ranks N`");
        else if (!strcmp(tok[0], "comm")) comm_directive(tok, n);
        else if (strchr(tok[0], ':')) call_directive(tok, n);
        else fail("expected `ranks N`, `comm NAME = ...` or `RANK: CALL ...`, not '%s'", tok[0]);
    }
    free(line);
    if (nranks < 0) {
        cur_line = cur_line ? cur_line : 1;
        fail("no `ranks N` line");
    }
    return cur_line;
}

/* ---- writing ---- */

struct emitter {
    mpirr_ev_writer *w;
    int rank, nlines;
    int32_t *site_of_line; /* -1: not defined yet */
    uint32_t nsites;
    int module;
    const char *object;
};

static int put(struct emitter *x, mpirr_event *e)
{
    if (mpirr_evw_append(x->w, e)) {
        fprintf(stderr, "mpirr_tracegen: rank %d: %s\n", x->rank, mpirr_evw_error(x->w));
        return -1;
    }
    return 0;
}

/* A call record made at script line `line`: its site (and the load map) first, then it. */
static int put_call(struct emitter *x, mpirr_event *e, int line)
{
    if (x->site_of_line[line] < 0) {
        if (!x->module) {
            mpirr_event m = {.kind = MPIRR_EVK_MODULE, .addr = 0, .got = 1,
                             .bytes = (uint64_t)x->nlines + 2, .path = x->object};
            if (put(x, &m)) return -1;
            x->module = 1;
        }
        mpirr_event s = {.kind = MPIRR_EVK_SITE, .site = x->nsites, .addr = (uint64_t)line};
        if (put(x, &s)) return -1;
        x->site_of_line[line] = (int32_t)x->nsites++;
    }
    e->site = (uint32_t)x->site_of_line[line];
    e->x_begin = BASE_NS + ((2 * e->event - 2) << TICK_SHIFT);
    e->x_end = BASE_NS + ((2 * e->event - 1) << TICK_SHIFT);
    return put(x, e);
}

static int put_comm(struct emitter *x, uint32_t id, uint32_t parent, unsigned by, int n, int32_t *members)
{
    mpirr_event c = {.kind = MPIRR_EVK_COMM, .comm = id, .newcomm = parent, .req = by,
                     .nranks = (uint32_t)n, .ranks = members};
    return put(x, &c);
}

static int write_rank(const char *dir, int r, int nlines, const char *object)
{
    mpirr_ev_params p = {.rank = r, .nranks = nranks, .tick_shift = TICK_SHIFT, .base_ns = BASE_NS,
                         .start_realtime_ns = REALTIME_NS};
    char err[700];
    struct emitter x = {.rank = r, .nlines = nlines, .object = object};
    x.w = mpirr_evw_open(dir, &p, err, sizeof err);
    if (!x.w) {
        fprintf(stderr, "mpirr_tracegen: %s\n", err);
        return -1;
    }
    x.site_of_line = xrealloc(NULL, ((size_t)nlines + 2) * sizeof *x.site_of_line);
    for (int i = 0; i < nlines + 2; i++) x.site_of_line[i] = -1;
    int32_t *world = xrealloc(NULL, (size_t)nranks * sizeof *world), self = r;
    for (int i = 0; i < nranks; i++) world[i] = i;
    int rc = put_comm(&x, 0, UINT32_MAX, 0, nranks, world) || put_comm(&x, 1, UINT32_MAX, 0, 1, &self);
    mpirr_event init = {.kind = MPIRR_ID_MPI_Init, .event = 1};
    if (!rc) rc = put_call(&x, &init, ranks_line);
    for (size_t i = 0; !rc && i < rk[r].nops; i++) {
        struct op *o = &rk[r].ops[i];
        if (o->define >= 0) {
            struct comm *c = &comms[o->define];
            rc = put_comm(&x, c->local[r], 0, MPIRR_ID_MPI_Comm_split, c->n, c->members);
        }
        if (!rc) rc = put_call(&x, &o->e, o->line);
    }
    mpirr_event fin = {.kind = MPIRR_ID_MPI_Finalize, .event = rk[r].events + 1};
    if (!rc) rc = put_call(&x, &fin, nlines + 1);
    if (mpirr_evw_close(x.w, !rc) && !rc) {
        fprintf(stderr, "mpirr_tracegen: rank %d: cannot finish the event history\n", r);
        rc = -1;
    }
    free(world);
    free(x.site_of_line);
    return rc;
}

static int write_manifest(const char *dir, const char *object)
{
    mpirr_manifest m;
    mpirr_manifest_init(&m);
    snprintf(m.mode, sizeof m.mode, "sources");
    snprintf(m.mpi, sizeof m.mpi, "openmpi");
    m.wtime = 1;
    if (!getcwd(m.cwd, sizeof m.cwd)) snprintf(m.cwd, sizeof m.cwd, "/");
    char *argv[2] = {"mpirr_tracegen", (char *)object};
    m.argc = 2;
    m.argv = argv;
    m.created = CREATED;
    m.nranks = nranks;
    snprintf(m.exe, sizeof m.exe, "%s", object);
    m.exit_status = 0;
    char err[4400];
    int rc = mpirr_manifest_write(dir, &m, err, sizeof err);
    if (rc) fprintf(stderr, "mpirr_tracegen: %s\n", err);
    return rc; /* argv is not heap-owned: no mpirr_manifest_free */
}

static void usage(void)
{
    fprintf(stderr, "usage: mpirr_tracegen [--labels] SCRIPT [OUTDIR]\n"
                    "  writes the event history SCRIPT describes into OUTDIR (a recording directory);\n"
                    "  --labels prints `LABEL RANK EVENT` for each labelled line\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int want_labels = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--labels")) want_labels = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) usage();
        else if (argv[i][0] == '-' && argv[i][1]) usage();
        else if (!script) script = argv[i];
        else if (!dir) dir = argv[i];
        else usage();
    }
    if (!script || (!dir && !want_labels)) usage();
    FILE *f = fopen(script, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot read: %s\n", script, strerror(errno));
        return 2;
    }
    int nlines = parse_script(f);
    fclose(f);
    if (want_labels)
        for (size_t i = 0; i < nlabels; i++)
            printf("%s %d %llu\n", labels[i].name, labels[i].rank, (unsigned long long)labels[i].event);
    if (fflush(stdout)) return 1;
    int rc = 0;
    if (dir) {
        char object[PATH_MAX];
        if (!realpath(script, object)) snprintf(object, sizeof object, "%s", script);
        struct stat st;
        if (mkdir(dir, 0755) && (errno != EEXIST || stat(dir, &st) || !S_ISDIR(st.st_mode))) {
            fprintf(stderr, "mpirr_tracegen: cannot create directory %s: %s\n", dir, strerror(errno));
            return 1;
        }
        for (int r = 0; !rc && r < nranks; r++) rc = write_rank(dir, r, nlines, object);
        if (!rc) rc = write_manifest(dir, object);
    }
    for (int r = 0; r < nranks; r++) {
        for (size_t i = 0; i < rk[r].nops; i++) free(rk[r].ops[i].e.items);
        free(rk[r].ops);
        free(rk[r].reqs);
        free(rk[r].used);
    }
    for (int i = 0; i < ncomms; i++) {
        free(comms[i].members);
        free(comms[i].local);
    }
    free(comms);
    free(rk);
    free(labels);
    return rc ? 1 : 0;
}
