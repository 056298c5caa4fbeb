/* replay_cursor.c: replay mode's view of the rank log. Records are keyed by the event whose
 * outcome they fix, but deferred ones (a nonblocking wildcard receive's match) are written when
 * the receive completes, later than its post, which replay must steer. The cursor reads ahead:
 * in-order records queue up in key order, deferred ones wait in a map until their post asks for
 * them. Read-ahead spans only the distance from a post to its completion. A rank that reaches
 * the point where its recorded run was stopped from outside is held there (mpirr_hold_*). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "replay_cursor.h"

#include "endings.h"
#include "libc_runtime.h"
#include "replay_control.h"
#include "runtime.h"
#include "settings.h"

struct stored {
    mpirr_record rec;
    int32_t *indices;  /* owned copy */
    uint8_t *bytes;    /* owned copy (LIBC) */
    unsigned kind_key; /* in the map: the kind its key was made with */
};

struct replay_cursor {
    mpirr_log_reader *rd;
    int eof, ending, ending_detail;
    /* The last event the recorded run finished (its progress word): a cut-off recording ends
     * in calls that have no record (unsuccessful tests and probes), which replay still makes. */
    uint64_t finished;
    /* in-order queue (ring; capacity a power of two) */
    struct stored *q;
    size_t qcap, qhead, qlen;
    /* deferred records: open addressing on (event, sub, kind) */
    struct stored *def;
    uint64_t *def_keys; /* 0 = empty */
    size_t def_cap, def_len;
    int32_t *taken_indices; /* index list of the last record taken, valid until the next take */
    uint8_t *taken_bytes;   /* bytes of the last LIBC record taken, likewise */
    int preloaded;          /* races mode: every RECV_DONE was read into the map at the start */
    int threaded;           /* MPI_THREAD_MULTIPLE: every MPI record is in the map, in-order
                               ones under KIND_IN_ORDER (mpirr_cursor_preload_threaded) */
};

/* The map key kind of a threaded recording's in-order records (one per event at most). */
#define KIND_IN_ORDER 15u

static uint64_t def_key(uint64_t event, uint32_t sub, unsigned kind)
{
    return (event << 24) ^ ((uint64_t)sub << 4) ^ kind ^ (1ull << 63);
}

/* Slot of key k: a full mix, since keys differ mostly in their high bits (the event), which a
 * plain multiplication would not carry down to the low bits the mask keeps. */
static size_t def_home(uint64_t k, size_t cap)
{
    k ^= k >> 30;
    k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 27;
    k *= 0x94d049bb133111ebull;
    k ^= k >> 31;
    return (size_t)k & (cap - 1);
}

static void store(struct stored *s, const mpirr_record *r)
{
    s->rec = *r;
    s->indices = NULL;
    if (r->indices && r->count > 0) {
        s->indices = malloc((size_t)r->count * sizeof *s->indices);
        if (!s->indices) mpirr_fatal("out of memory reading the recording");
        memcpy(s->indices, r->indices, (size_t)r->count * sizeof *s->indices);
    }
    s->rec.indices = s->indices;
    s->bytes = NULL;
    if (r->nbytes) {
        s->bytes = malloc(r->nbytes);
        if (!s->bytes) mpirr_fatal("out of memory reading the recording");
        memcpy(s->bytes, r->bytes, r->nbytes);
    }
    s->rec.bytes = s->bytes;
}

static void def_grow(struct replay_cursor *c);

static void def_put_as(struct replay_cursor *c, const mpirr_record *r, unsigned kind);

static void def_put(struct replay_cursor *c, const mpirr_record *r) { def_put_as(c, r, r->kind); }

static void def_put_as(struct replay_cursor *c, const mpirr_record *r, unsigned kind)
{
    if (2 * (c->def_len + 1) > c->def_cap) def_grow(c);
    uint64_t k = def_key(r->event, r->sub, kind);
    size_t i = def_home(k, c->def_cap);
    while (c->def_keys[i] && c->def_keys[i] != k) i = (i + 1) & (c->def_cap - 1);
    if (c->def_keys[i]) { /* duplicate key: the later one wins */
        free(c->def[i].indices);
        free(c->def[i].bytes);
    } else {
        c->def_len++;
    }
    c->def_keys[i] = k;
    store(&c->def[i], r);
    c->def[i].kind_key = kind;
}

static void def_grow(struct replay_cursor *c)
{
    struct stored *old = c->def;
    uint64_t *oldk = c->def_keys;
    size_t oldcap = c->def_cap;
    c->def_cap = oldcap ? 2 * oldcap : 64;
    c->def = calloc(c->def_cap, sizeof *c->def);
    c->def_keys = calloc(c->def_cap, sizeof *c->def_keys);
    if (!c->def || !c->def_keys) mpirr_fatal("out of memory reading the recording");
    c->def_len = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (oldk[i]) {
            def_put_as(c, &old[i].rec, old[i].kind_key);
            free(old[i].indices);
            free(old[i].bytes);
        }
    free(old);
    free(oldk);
}

/* The slot holding key (event, sub, kind), or SIZE_MAX. */
static size_t def_find(const struct replay_cursor *c, uint64_t event, uint32_t sub, unsigned kind)
{
    if (!c->def_cap) return SIZE_MAX;
    uint64_t k = def_key(event, sub, kind);
    size_t mask = c->def_cap - 1, i = def_home(k, c->def_cap);
    while (c->def_keys[i] && c->def_keys[i] != k) i = (i + 1) & mask;
    return c->def_keys[i] ? i : SIZE_MAX;
}

/* Empties slot i (its copies already handed on or freed) and re-inserts the rest of its
 * cluster, so that probing stays correct. */
static void def_remove(struct replay_cursor *c, size_t i)
{
    size_t mask = c->def_cap - 1;
    c->def_keys[i] = 0;
    c->def_len--;
    for (size_t j = (i + 1) & mask; c->def_keys[j]; j = (j + 1) & mask) {
        struct stored s = c->def[j];
        c->def_keys[j] = 0;
        c->def_len--;
        def_put_as(c, &s.rec, s.kind_key);
        free(s.indices);
        free(s.bytes);
    }
}

/* Removes and returns the deferred record with this key; 0 if absent. */
static int def_take(struct replay_cursor *c, uint64_t event, uint32_t sub, unsigned kind,
                    mpirr_record *out)
{
    size_t i = def_find(c, event, sub, kind);
    if (i == SIZE_MAX) return 0;
    *out = c->def[i].rec; /* indices of deferred records are never used */
    free(c->def[i].indices);
    free(c->def[i].bytes);
    out->indices = NULL;
    out->bytes = NULL;
    def_remove(c, i);
    return 1;
}

static int is_deferred(const mpirr_record *r)
{
    return r->kind == MPIRR_REC_RECV_DONE || r->kind == MPIRR_REC_CANCEL_DONE;
}

/* Appends r to the in-order queue. */
static void queue_push(struct replay_cursor *c, const mpirr_record *r)
{
    if (c->qlen == c->qcap) {
        size_t ncap = c->qcap ? 2 * c->qcap : 64;
        struct stored *nq = malloc(ncap * sizeof *nq);
        if (!nq) mpirr_fatal("out of memory reading the recording");
        for (size_t i = 0; i < c->qlen; i++) nq[i] = c->q[(c->qhead + i) & (c->qcap - 1)];
        free(c->q);
        c->q = nq;
        c->qcap = ncap;
        c->qhead = 0;
    }
    store(&c->q[(c->qhead + c->qlen) & (c->qcap - 1)], r);
    c->qlen++;
}

/* Reads one record into the queue or the map; 0 at the end of the recording. */
static int read_one(struct replay_cursor *c)
{
    if (c->eof) return 0;
    mpirr_record r;
    int rc = mpirr_log_read(c->rd, &r);
    if (rc < 0) mpirr_fatal("replay: %s", mpirr_log_reader_error(c->rd));
    if (rc == 0) {
        c->eof = 1;
        c->ending = mpirr_log_reader_ending(c->rd, &c->ending_detail);
        return 0;
    }
    if (is_deferred(&r)) {
        if (!(c->preloaded && r.kind == MPIRR_REC_RECV_DONE)) def_put(c, &r);
        return 1;
    }
    queue_push(c, &r);
    return 1;
}

static const mpirr_record *peek(struct replay_cursor *c)
{
    while (!c->qlen)
        if (!read_one(c)) return NULL;
    return &c->q[c->qhead].rec;
}

static void pop(struct replay_cursor *c)
{
    free(c->q[c->qhead].indices);
    free(c->q[c->qhead].bytes);
    c->qhead = (c->qhead + 1) & (c->qcap - 1);
    c->qlen--;
}

/* The next event the per-call fast path must stop at: a record's key or the hold point. */
static void update_next_key(struct replay_cursor *c)
{
    const mpirr_record *r = peek(c);
    uint64_t next = r ? r->event : UINT64_MAX;
    if (mpirr_rt.hold_event && mpirr_rt.hold_event < next) next = mpirr_rt.hold_event;
    if (mpirr_rt.switch_event && mpirr_rt.switch_event < next) next = mpirr_rt.switch_event;
    mpirr_rt.next_key = next;
}

struct replay_cursor *mpirr_cursor_open(const char *path, char *err, size_t errlen)
{
    struct replay_cursor *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->rd = mpirr_log_reader_open(path, err, errlen);
    if (!c->rd) {
        free(c);
        return NULL;
    }
    c->ending = mpirr_log_reader_ending(c->rd, &c->ending_detail);
    uint64_t begun = mpirr_log_reader_events(c->rd);
    c->finished = begun && mpirr_log_reader_in_call(c->rd) ? begun - 1 : begun;
    return c;
}

const mpirr_log_header *mpirr_cursor_header(struct replay_cursor *c)
{
    return mpirr_log_reader_header(c->rd);
}

void mpirr_cursor_start(struct replay_cursor *c) { update_next_key(c); }

/* Races mode decides late whether a receive raced, so its RECV_DONE records can lie anywhere
 * after their key, and a receive with none must know it has none without reading to the end
 * each time: all of them are read once, up front (they are few: only races are logged). */
void mpirr_cursor_preload(struct replay_cursor *c, const char *path)
{
    char err[512];
    mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
    if (!rd) mpirr_fatal("replay: %s", err);
    mpirr_record r;
    while (mpirr_log_read(rd, &r) > 0) /* damage is reported by the main reader, in order */
        if (r.kind == MPIRR_REC_RECV_DONE) def_put(c, &r);
    mpirr_log_reader_close(rd);
    c->preloaded = 1;
}

/* Checkpoints are dropped (their place in the stream is not their event's); libc values stay
 * in the queue, in the order written (threads' libc calls are not ordered: docs/runtime.md,
 * Limits). */
void mpirr_cursor_preload_threaded(struct replay_cursor *c)
{
    mpirr_record r;
    int rc;
    while ((rc = mpirr_log_read(c->rd, &r)) > 0) {
        if (is_deferred(&r)) def_put(c, &r);
        else if (r.kind == MPIRR_REC_LIBC) queue_push(c, &r);
        else if (r.kind != MPIRR_REC_CHECK) def_put_as(c, &r, KIND_IN_ORDER);
    }
    if (rc < 0) mpirr_fatal("replay: %s", mpirr_log_reader_error(c->rd));
    c->eof = 1;
    c->ending = mpirr_log_reader_ending(c->rd, &c->ending_detail);
    c->threaded = 1;
}

/* Hands out stored record h, its index list or bytes kept valid until the next take. */
static void hand_out(struct replay_cursor *c, struct stored *h, mpirr_record *out)
{
    *out = h->rec;
    free(c->taken_indices);
    free(c->taken_bytes);
    c->taken_indices = h->indices;
    c->taken_bytes = h->bytes;
    h->indices = NULL;
    h->bytes = NULL;
    out->indices = c->taken_indices;
    out->bytes = c->taken_bytes;
}

/* A threaded recording's in-order record of event (hand_out); 0 if it has none. */
static int take_in_order(struct replay_cursor *c, uint64_t event, mpirr_record *out)
{
    size_t i = def_find(c, event, 0, KIND_IN_ORDER);
    if (i == SIZE_MAX) return 0;
    hand_out(c, &c->def[i], out);
    def_remove(c, i);
    return 1;
}

void mpirr_cursor_close(struct replay_cursor *c)
{
    if (!c) return;
    while (c->qlen) pop(c);
    for (size_t i = 0; i < c->def_cap; i++)
        if (c->def_keys[i]) free(c->def[i].indices), free(c->def[i].bytes);
    free(c->q);
    free(c->taken_indices);
    free(c->taken_bytes);
    free(c->def);
    free(c->def_keys);
    mpirr_log_reader_close(c->rd);
    free(c);
}

void mpirr_cursor_describe_next(char *buf, size_t n)
{
    const mpirr_record *r = mpirr_rt.cursor ? peek(mpirr_rt.cursor) : NULL;
    if (r)
        snprintf(buf, n, "%s (%s) at event %llu", mpirr_record_call_name(r),
                 mpirr_record_kind_name(r->kind), (unsigned long long)r->event);
    else
        snprintf(buf, n, "the end of the recording");
}

/* Verifies the checkpoint r, taken after event last (the hash covers events 1..last). */
static void pass_checkpoint(struct replay_cursor *c, const mpirr_record *r, uint64_t last)
{
    if (r->event != last || r->value != mpirr_rt.hash)
        mpirr_diverged(r->event, "the sequence of MPI calls up to here differs from "
                                 "the recording (checkpoint hash mismatch)");
    pop(c);
}

/* Called from mpirr_call_begin when this event reaches the next record's key: verifies
 * checkpoints and that the recorded call at this event is the call being made. */
void mpirr_replay_check_event(const mpirr_call *call)
{
    struct replay_cursor *c = mpirr_rt.cursor;
    if (!c || !mpirr_rt.active) return;
    if (mpirr_rt.switch_event && call->event >= mpirr_rt.switch_event) {
        mpirr_flip_switch(); /* replay --flip: from here on the rank records */
        return;
    }
    if (mpirr_rt.hold_event && call->event >= mpirr_rt.hold_event) mpirr_hold_at_end(call);
    for (const mpirr_record *r; (r = peek(c));) {
        if (r->kind == MPIRR_REC_CHECK && r->event < call->event) {
            pass_checkpoint(c, r, call->event - 1);
            continue;
        }
        if (r->kind == MPIRR_REC_LIBC && r->event < call->event)
            mpirr_diverged(r->event, "the recording has %s here, the program did not call it "
                                     "(it went on to %s)", mpirr_record_call_name(r),
                           mpirr_call_name(call->id));
        if (r->kind == MPIRR_REC_LIBC) break; /* made after this call began */
        if (r->event < call->event)
            mpirr_diverged(r->event, "the recording has %s (%s) here, which the program did "
                                     "not make", mpirr_call_name(r->call), mpirr_record_kind_name(r->kind));
        if (r->event == call->event && r->call != call->id)
            mpirr_diverged(call->event, "the recording has %s here, the program called %s",
                           mpirr_call_name(r->call), mpirr_call_name(call->id));
        break;
    }
    update_next_key(c);
}

/* Hands out the record at the head of the queue (hand_out). */
static void take_head(struct replay_cursor *c, mpirr_record *out)
{
    hand_out(c, &c->q[c->qhead], out);
    pop(c);
}

int mpirr_replay_take(const mpirr_call *call, mpirr_record *out)
{
    struct replay_cursor *c = mpirr_rt.cursor;
    mpirr_lock();
    if (c->threaded) {
        int got = take_in_order(c, call->event, out);
        mpirr_unlock();
        if (!got && c->ending != MPIRR_END_FINALIZED && call->event > c->finished)
            mpirr_hold_at_end(call);
        return got;
    }
    const mpirr_record *r = peek(c);
    if (!r) {
        mpirr_unlock();
        if (c->ending != MPIRR_END_FINALIZED) {
            /* past the last record, but finished when recorded: it had no outcome to log */
            if (call->event <= c->finished) return 0;
            mpirr_hold_at_end(call);
        }
        mpirr_diverged(call->event, "the program made %s after the end of its recording",
                       mpirr_call_name(call->id));
    }
    int found = r->event == call->event && r->kind != MPIRR_REC_CHECK && r->kind != MPIRR_REC_LIBC;
    if (found) take_head(c, out);
    update_next_key(c);
    mpirr_unlock();
    return found;
}

void mpirr_replay_expect(const mpirr_call *call, unsigned kind, const char *what,
                         mpirr_record *out)
{
    if (mpirr_replay_take(call, out)) {
        if (out->kind != kind)
            mpirr_diverged(call->event, "the recording has a %s outcome for %s here, the "
                                        "program's %s needs a %s outcome",
                           mpirr_record_kind_name(out->kind), mpirr_call_name(out->call), what,
                           mpirr_record_kind_name(kind));
        return;
    }
    const mpirr_record *n = peek(mpirr_rt.cursor);
    if (n && n->kind != MPIRR_REC_LIBC && n->call == call->id)
        mpirr_diverged(call->event, "the program made %s (%s) here, the recording has it at "
                                    "event %llu: the calls before it differ in number",
                       mpirr_call_name(call->id), what, (unsigned long long)n->event);
    char next[160];
    mpirr_cursor_describe_next(next, sizeof next);
    mpirr_diverged(call->event, "the program made %s (%s), the recording has none here "
                                "(next recorded: %s)", mpirr_call_name(call->id), what, next);
}

int mpirr_replay_deferred(uint64_t event, uint32_t sub, unsigned kind, mpirr_record *out)
{
    struct replay_cursor *c = mpirr_rt.cursor;
    mpirr_lock();
    int found;
    int complete = (c->preloaded && kind == MPIRR_REC_RECV_DONE) || c->threaded;
    while (!(found = def_take(c, event, sub, kind, out)) && !complete && read_one(c)) {
    }
    update_next_key(c);
    mpirr_unlock();
    return found;
}

uint64_t mpirr_cursor_hold_event(struct replay_cursor *c)
{
    return mpirr_log_reader_hold_event(c->rd);
}

/* ---- the end of the recording ---- */

/* How the recorded run of this rank ended, for the line that says why a replay stops here. */
static void describe_ending(char *buf, size_t n)
{
    const struct replay_cursor *c = mpirr_rt.cursor;
    int ending = c ? c->ending : MPIRR_END_CUT, detail = c ? c->ending_detail : 0;
    if (ending == MPIRR_END_SIGNAL) snprintf(buf, n, "was stopped by signal %d", detail);
    else if (ending == MPIRR_END_INCOMPLETE) snprintf(buf, n, "stopped being recorded (%s)", strerror(detail));
    else snprintf(buf, n, "was killed");
}

/* The recorded run of this rank was stopped from outside here, so nothing in the replay would
 * stop it: the rank is held (not running on into calls whose outcomes were never recorded).
 * The CLI collects the held ranks from MPIRR_HOLDLOG and ends the job once every rank it
 * expects is held; without it the rank says so and ends the job itself. If the job is not
 * ended within MPIRR_STALL_SECONDS, give up loudly rather than hang. */
void mpirr_hold_at_end(const mpirr_call *c)
{
    mpirr_hold_before(c->event, mpirr_call_name(c->id));
}

void mpirr_hold_before(uint64_t event, const char *what)
{
    mpirr_replay_ended(MPIRR_CTL_END_OF_RECORDING, 0, mpirr_pos_before(event));
    char how[160], line[1024];
    describe_ending(how, sizeof how);
    const char *holdlog = mpirr_setting_text(MPIRR_SET_HOLDLOG);
    int fd = holdlog ? open(holdlog, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
    if (fd >= 0) {
        int n = snprintf(line, sizeof line, "%d %llu %s %s\n", mpirr_rt.rank,
                         (unsigned long long)event, what, how);
        ssize_t w = write(fd, line, (size_t)n); /* one write: lines do not interleave */
        close(fd);
        if (w == n) {
            /* the CLI gives up on late ranks after MPIRR_STALL_SECONDS: outlast it */
            long secs = 2 * (long)mpirr_setting_value(MPIRR_SET_STALL_SECONDS) + 10;
            struct timespec ts = {.tv_sec = 1};
            for (long waited = 0; waited < secs; waited++)
                while (nanosleep(&ts, &ts) && errno == EINTR) {
                }
        }
    }
    snprintf(line, sizeof line, "replay of rank %d stopped at the end of its recording, before "
             "event %llu (%s): the recorded run %s there (%s)", mpirr_rt.rank,
             (unsigned long long)event, what, how, mpirr_rt.log_path);
    mpirr_say("%s", line);
    mpirr_end_job();
}

int mpirr_replay_take_libc(mpirr_record *out)
{
    struct replay_cursor *c = mpirr_rt.cursor;
    mpirr_lock();
    const mpirr_record *r;
    /* a checkpoint written after an earlier record of this event */
    while ((r = peek(c)) && r->kind == MPIRR_REC_CHECK && r->event == mpirr_current_event)
        pass_checkpoint(c, r, mpirr_current_event);
    int found = r && r->kind == MPIRR_REC_LIBC && r->event == mpirr_current_event;
    if (found) take_head(c, out);
    update_next_key(c);
    mpirr_unlock();
    return found;
}
