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

#include "control_wire.h"
#include "endings.h"
#include "libc_runtime.h"
#include "replay_control.h"
#include "runtime.h"
#include "settings.h"
#include "u64_map.h"

struct stored {
    mpirr_record rec;
    int32_t *indices;  /* owned copy */
    uint8_t *bytes;    /* owned copy (LIBC) */
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
    /* deferred records: (event, sub, kind) -> their place in the pool def, whose free places
     * are stacked in def_free */
    u64_map def_map;
    struct stored *def;
    uint32_t *def_free;
    size_t def_len, def_cap, def_nfree;
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

/* A free place in the pool for one more deferred record. */
static uint32_t def_place(struct replay_cursor *c)
{
    if (c->def_nfree) return c->def_free[--c->def_nfree];
    if (c->def_len == c->def_cap) {
        size_t cap = c->def_cap ? 2 * c->def_cap : 64;
        struct stored *d = realloc(c->def, cap * sizeof *d);
        if (d) c->def = d;
        uint32_t *f = realloc(c->def_free, cap * sizeof *f);
        if (f) c->def_free = f;
        if (!d || !f || cap > UINT32_MAX) mpirr_fatal("out of memory reading the recording");
        c->def_cap = cap;
    }
    return (uint32_t)c->def_len++;
}

static void def_put_as(struct replay_cursor *c, const mpirr_record *r, unsigned kind)
{
    int added;
    uint64_t *v = u64_map_slot(&c->def_map, def_key(r->event, r->sub, kind), 0, &added);
    if (!v) mpirr_fatal("out of memory reading the recording");
    if (added) {
        *v = def_place(c);
    } else { /* duplicate key: the later one wins */
        free(c->def[*v].indices);
        free(c->def[*v].bytes);
    }
    store(&c->def[*v], r);
}

static void def_put(struct replay_cursor *c, const mpirr_record *r) { def_put_as(c, r, r->kind); }

/* The deferred record keyed (event, sub, kind), out of the map and its place freed: the
 * caller takes or frees its copies before the next put. NULL if absent. */
static struct stored *def_remove(struct replay_cursor *c, uint64_t event, uint32_t sub,
                                 unsigned kind)
{
    uint64_t place;
    if (!u64_map_del(&c->def_map, def_key(event, sub, kind), &place)) return NULL;
    c->def_free[c->def_nfree++] = (uint32_t)place;
    return &c->def[place];
}

/* Removes and returns the deferred record with this key; 0 if absent. */
static int def_take(struct replay_cursor *c, uint64_t event, uint32_t sub, unsigned kind,
                    mpirr_record *out)
{
    if (!c->def_map.n) return 0; /* the common case, checked before any hashing */
    struct stored *s = def_remove(c, event, sub, kind);
    if (!s) return 0;
    *out = s->rec; /* indices of deferred records are never used */
    free(s->indices);
    free(s->bytes);
    out->indices = NULL;
    out->bytes = NULL;
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

/* A threaded recording's in-order record keyed (event, sub) (hand_out); 0 if it has none. */
static int take_in_order(struct replay_cursor *c, uint64_t event, uint32_t sub,
                         mpirr_record *out)
{
    struct stored *s = def_remove(c, event, sub, KIND_IN_ORDER);
    if (!s) return 0;
    hand_out(c, s, out);
    return 1;
}

void mpirr_cursor_close(struct replay_cursor *c)
{
    if (!c) return;
    while (c->qlen) pop(c);
    size_t pos = 0;
    uint64_t key, place;
    while (u64_map_next(&c->def_map, &pos, &key, &place))
        free(c->def[place].indices), free(c->def[place].bytes);
    u64_map_free(&c->def_map);
    free(c->q);
    free(c->taken_indices);
    free(c->taken_bytes);
    free(c->def);
    free(c->def_free);
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

/* sub tells apart the records of one call, by key in a threaded recording; otherwise they
 * come in order and the caller checks out->sub. */
static int take_sub(const mpirr_call *call, uint32_t sub, mpirr_record *out)
{
    struct replay_cursor *c = mpirr_rt.cursor;
    mpirr_lock();
    if (c->threaded) {
        int got = take_in_order(c, call->event, sub, out);
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

int mpirr_replay_take(const mpirr_call *call, mpirr_record *out)
{
    return take_sub(call, 0, out);
}

void mpirr_replay_expect_sub(const mpirr_call *call, uint32_t sub, unsigned kind,
                             const char *what, mpirr_record *out)
{
    if (take_sub(call, sub, out)) {
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

void mpirr_replay_expect(const mpirr_call *call, unsigned kind, const char *what,
                         mpirr_record *out)
{
    mpirr_replay_expect_sub(call, 0, kind, what, out);
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
 * The CLI collects the held ranks' lines (its hold log) and ends the job once every rank it
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
    int n = snprintf(line, sizeof line, "%d %llu %s %s\n", mpirr_rt.rank,
                     (unsigned long long)event, what, how);
    if (n > 0 && (size_t)n < sizeof line &&
        mpirr_channel_line(MPIRR_CW_LINE_HOLD, line, (size_t)n) == 1) {
        /* the CLI gives up on late ranks after MPIRR_STALL_SECONDS: outlast it */
        long secs = 2 * (long)mpirr_setting_value(MPIRR_SET_STALL_SECONDS) + 10;
        struct timespec ts = {.tv_sec = 1};
        for (long waited = 0; waited < secs && !mpirr_control_cli_gone(); waited++)
            while (nanosleep(&ts, &ts) && errno == EINTR) {
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
