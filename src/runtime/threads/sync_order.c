/* sync_order.c: a rank's thread synchronizations in order (sync_order.h). Each tracked thread
 * numbers its synchronization calls and keeps a log of its own (sync-RANK-THREAD.log, the
 * rank log's format: records staged in a mapped tail, so a crash keeps them). Record: an
 * acquisition takes the object's next version; only a call whose outcome differs from the
 * prediction (success, at the version after the last one this thread saw on that object) is
 * logged - an uncontended lock/unlock costs no byte. Replay: the thread computes the same
 * prediction, or takes the logged outcome when one is keyed at this call, and waits until
 * the object reaches the version before acquiring it. */
#include "sync_order.h"

#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "event_history.h"
#include "u64_map.h"
#include "libc_runtime.h"
#include "replay_control.h"
#include "runtime.h"
#include "settings.h"
#include "sync_calls.h"

int mpirr_sync_on;

struct sync_thread {
    int id;
    uint64_t ops;                 /* synchronization calls so far */
    uint32_t generation;          /* of the object table when the cache was filled */
    u64_map cache;                /* address -> object index << 32 | last version seen + 1 */
    /* the object used last, kept out of the map (code mostly takes one lock again and again):
     * its address (NULL: none), and its entry as in the map */
    const void *last_addr;
    uint64_t last_entry;
    const void *last_caller;      /* a call site found to be the application's */
    uint32_t create_next;         /* the predicted version of this thread's next creation */
    uint32_t mpi_next;            /* ... and of its next MPI call (MPI_THREAD_MULTIPLE) */
    mpirr_log_writer *w;          /* record */
    uint64_t *progress;           /* record: the thread's progress word in its log's tail */
    mpirr_log_reader *rd;         /* replay */
    mpirr_record next;            /* replay: the next logged outcome */
    int have_next, rd_end;
    uint64_t recorded_ops;        /* replay: the calls the recorded thread began */
    int recorded_ending;
};

static __thread struct sync_thread *me __attribute__((tls_model("initial-exec")));
/* The thread is inside mpirr_sync_begin: mpirr's own locks (the caller classification's) pass
 * through. */
static __thread int deciding __attribute__((tls_model("initial-exec")));

/* The kind of code at caller (mpirr_caller_kind), from the thread's last call site found to
 * be the application's at once. */
static enum mpirr_caller caller_kind(struct sync_thread *t, const void *caller)
{
    if (caller == t->last_caller) return MPIRR_CALLER_APP;
    if (deciding) return MPIRR_CALLER_SYSTEM;
    deciding = 1;
    enum mpirr_caller kind = mpirr_caller_kind(caller);
    deciding = 0;
    if (kind == MPIRR_CALLER_APP) t->last_caller = caller;
    return kind;
}

/* Only the application's synchronizations are ordered. */
static int from_app(struct sync_thread *t, const void *caller)
{
    return caller_kind(t, caller) == MPIRR_CALLER_APP;
}

/* The thread's entry for the object at addr (0 if it has none), made the last one used. */
static uint64_t cache_get(struct sync_thread *t, const void *addr)
{
    if (addr == t->last_addr) return t->last_entry;
    if (t->last_addr &&
        u64_map_put(&t->cache, (uint64_t)(uintptr_t)t->last_addr, t->last_entry))
        mpirr_fatal("out of memory ordering synchronizations");
    uint64_t entry = 0;
    u64_map_get(&t->cache, (uint64_t)(uintptr_t)addr, &entry);
    t->last_addr = addr;
    t->last_entry = entry;
    return entry;
}

static void cache_forget(struct sync_thread *t)
{
    u64_map_free(&t->cache);
    t->last_addr = NULL;
}
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static struct sync_obj creations; /* the rank's thread creations, as one object */
static struct sync_obj mpi_calls;  /* MPI_THREAD_MULTIPLE: the rank's MPI calls, as one object */

static void thread_end(void *arg);

static void make_key(void) { pthread_key_create(&key, thread_end); }

static struct sync_thread *thread_new(int id)
{
    pthread_once(&key_once, make_key);
    struct sync_thread *t = calloc(1, sizeof *t);
    if (!t) mpirr_fatal("out of memory for thread %d's synchronization order", id);
    t->id = id;
    mpirr_tls_thread = (uint32_t)id; /* the event history's records name it */
    t->generation = __atomic_load_n(&mpirr_sync_generation, __ATOMIC_ACQUIRE);
    me = t;
    pthread_setspecific(key, t);
    return t;
}

static void log_path(char *buf, size_t n, int id)
{
    mpirr_sync_log_path(buf, n, mpirr_rt.dir, mpirr_rt.rank, id, "log");
}

/* Record: the thread's log, made at its first synchronization. */
static void open_writer(struct sync_thread *t)
{
    char path[4200], err[512];
    mpirr_log_header h;
    log_path(path, sizeof path, t->id);
    mpirr_log_header_fill(&h, 0);
    t->w = mpirr_log_writer_open_at(path, &h, 16u << 10, err, sizeof err);
    if (!t->w) mpirr_fatal("rank %d thread %d: %s", mpirr_rt.rank, t->id, err);
    t->progress = mpirr_log_progress(t->w);
}

_Noreturn static void diverged(const struct sync_thread *t, const char *expected, unsigned call);

/* Replay: the thread's log, read at its first synchronization (call). */
static void open_reader(struct sync_thread *t, unsigned call)
{
    char path[4200], err[512];
    log_path(path, sizeof path, t->id);
    t->rd = mpirr_log_reader_open(path, err, sizeof err);
    if (!t->rd) /* a recorded thread that never synchronized has no log */
        diverged(t, "no synchronization of this thread", call);
    t->recorded_ops = mpirr_log_reader_events(t->rd);
    t->recorded_ending = mpirr_log_reader_ending(t->rd, NULL);
}

static void read_next(struct sync_thread *t)
{
    if (t->have_next || t->rd_end) return;
    int rc = mpirr_log_read(t->rd, &t->next);
    if (rc < 0) mpirr_fatal("replay: %s", mpirr_log_reader_error(t->rd));
    if (rc == 0) t->rd_end = 1;
    else t->have_next = 1;
}

/* The first thread of the rank to find the replay off its recording reports it; another one
 * finding it too (a stall it caused) stays silent until the job ends, so there is one line. */
static int reported;

static void report_once(void)
{
    if (!__atomic_exchange_n(&reported, 1, __ATOMIC_ACQ_REL)) return;
    for (;;) pause();
}

/* The thread's log's name, for the line (its folder is the rank log's, which the line names). */
static const char *log_name(const struct sync_thread *t, char *buf, size_t n)
{
    log_path(buf, n, t->id);
    const char *slash = strrchr(buf, '/');
    return slash ? slash + 1 : buf;
}

/* Replay: the thread's current synchronization is not the recorded one. The line goes the way
 * of an MPI call's divergence (divergence.c): its event is the rank's latest MPI call. */
_Noreturn static void diverged_at(const struct sync_thread *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
_Noreturn static void diverged_at(const struct sync_thread *t, const char *fmt, ...)
{
    report_once();
    char what[512], name[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    mpirr_diverged(__atomic_load_n(&mpirr_current_event, __ATOMIC_ACQUIRE),
                   "thread %d's synchronization %llu (%s): %s", t->id,
                   (unsigned long long)t->ops, log_name(t, name, sizeof name), what);
}

_Noreturn static void diverged(const struct sync_thread *t, const char *expected, unsigned call)
{
    diverged_at(t, "the recording has %s here, the program called %s", expected,
                mpirr_sync_call_name(call));
}

/* Replay: the recorded outcome of the thread's current call into op. */
static void recorded_outcome(struct sync_thread *t, struct sync_op *op)
{
    if (!t->rd) open_reader(t, op->call);
    read_next(t);
    op->version = op->predicted;
    op->failed = 0;
    if (t->have_next && t->next.event == t->ops) {
        if (t->next.call != op->call) diverged(t, mpirr_sync_call_name(t->next.call), op->call);
        op->version = (uint32_t)t->next.value;
        op->failed = t->next.count != 0;
        op->fail_rc = t->next.count;
        t->have_next = 0;
        return;
    }
    if (t->ops <= t->recorded_ops) return;
    if (t->recorded_ending == MPIRR_END_FINALIZED)
        diverged(t, "no more synchronization (the recorded thread ended)", op->call);
    /* the recorded run was cut off before this call: hold the thread where it ends */
    for (;;) {
        struct timespec ts = {.tv_sec = 1};
        nanosleep(&ts, NULL);
    }
}

static void track(struct sync_thread *t, struct sync_op *op, uint64_t cached)
{
    op->predicted = op->version = (uint32_t)cached;
    op->failed = op->fail_rc = 0;
    t->ops++;
    if (mpirr_rt.mode == MPIRR_MODE_REPLAY) recorded_outcome(t, op);
    else if (!t->w) open_writer(t);
    if (t->progress) *t->progress = mpirr_progress_word(t->ops, 0);
}

int mpirr_sync_begin(struct sync_op *op, unsigned call, const void *addr, const void *caller)
{
    struct sync_thread *t = me;
    if (!t || !mpirr_sync_on || !from_app(t, caller)) return 0;
    uint32_t gen = __atomic_load_n(&mpirr_sync_generation, __ATOMIC_ACQUIRE);
    if (t->generation != gen) { /* an object was reset: what the thread knew may be stale */
        cache_forget(t);
        t->generation = gen;
    }
    uint64_t cached = cache_get(t, addr);
    if (cached) {
        op->index = (uint32_t)(cached >> 32) & 0x7fffffffu; /* without the known-not-seen bit */
    } else { /* the thread's first use: no version seen yet */
        if (!mpirr_sync_obj(addr, &op->index)) mpirr_fatal("out of memory ordering synchronizations");
        cached = (uint64_t)op->index << 32;
        t->last_entry = cached | 1ull << 63; /* known, not seen (the bit is no index's) */
    }
    op->obj = mpirr_sync_obj_at(op->index);
    op->addr = addr;
    op->call = call;
    track(t, op, cached);
    return 1;
}

int mpirr_sync_replaying(void) { return mpirr_rt.mode == MPIRR_MODE_REPLAY; }

/* What tells a slow replay from a stalled one: any acquisition or MPI call in the rank, any
 * CPU time its threads spend (one computing for long before the acquisition awaited). */
struct rank_progress {
    uint64_t done, events;
    long long cpu_ns;
};

static void rank_progress(struct rank_progress *p)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    p->done = __atomic_load_n(&mpirr_sync_done_count, __ATOMIC_ACQUIRE);
    p->events = __atomic_load_n(&mpirr_current_event, __ATOMIC_ACQUIRE);
    p->cpu_ns = ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Whether the rank is running on its own: not held at a stopline or the end of its
 * recording, where waits are the user's or mpirr's. */
static int rank_running(void)
{
    const struct mpirr_ctl_slot *slot = mpirr_control_slot();
    return !slot || __atomic_load_n(&slot->state, __ATOMIC_ACQUIRE) == MPIRR_CTL_RUNNING;
}

/* The object of an acquisition, for the line. */
static void describe_obj(const struct sync_op *op, char *buf, size_t n)
{
    if (op->call == MPIRR_SYNC_THREAD_CREATE) snprintf(buf, n, "the rank's thread creations");
    else if (op->call == MPIRR_SYNC_MPI_CALL) snprintf(buf, n, "the rank's MPI calls");
    else snprintf(buf, n, "the object at %p", op->addr);
}

#define TICK_MS 1000
/* Replay: waits until op's object reaches op->version. A version that does not come while
 * the rank makes no progress at all for MPIRR_STALL_SECONDS (its threads wait for each other:
 * another thread took another path) ends the replay with one line rather than a hang. */
static void wait_turn(const struct sync_op *op)
{
    /* the common case, the turn comes within a tick, reads no clock: the rank's CPU time is a
     * system call summing every thread's, as costly as a contended handoff */
    if (!mpirr_sync_obj_wait(op->obj, op->version, TICK_MS)) return;
    long limit = (long)mpirr_setting_value(MPIRR_SET_STALL_SECONDS), idle = 0;
    struct rank_progress before, now;
    rank_progress(&before);
    while (mpirr_sync_obj_wait(op->obj, op->version, TICK_MS)) {
        rank_progress(&now);
        int moved = now.done != before.done || now.events != before.events ||
                    now.cpu_ns - before.cpu_ns > TICK_MS * 100000ll; /* a tenth of a core */
        idle = moved || !rank_running() ? 0 : idle + 1;
        before = now;
        if (idle * TICK_MS < limit * 1000) continue;
        char obj[64];
        describe_obj(op, obj, sizeof obj);
        diverged_at(me, "%s waits for version %u of %s, which stays at version %u (no "
                    "progress in the rank for %ld s)", mpirr_sync_call_name(op->call),
                    op->version, obj, __atomic_load_n(&op->obj->version, __ATOMIC_ACQUIRE),
                    idle * TICK_MS / 1000);
    }
}

int mpirr_sync_turn(struct sync_op *op)
{
    if (mpirr_rt.mode != MPIRR_MODE_REPLAY) return 0;
    wait_turn(op);
    return 1;
}

/* Record: logs the outcome unless it is the predicted one. */
static void log_outcome(struct sync_thread *t, const struct sync_op *op, uint32_t v, int rc)
{
    if (rc == 0 && v == op->predicted) return;
    mpirr_record r = {.kind = MPIRR_REC_SYNC, .call = (uint16_t)op->call, .event = t->ops,
                      .written = t->ops, .value = v, .count = rc};
    if (mpirr_log_append(t->w, &r))
        mpirr_fatal("rank %d thread %d: %s", mpirr_rt.rank, t->id, mpirr_log_writer_error(t->w));
}

void mpirr_sync_end(struct sync_op *op, int rc, int acquired_anyway)
{
    struct sync_thread *t = me;
    int acquired = rc == 0 || acquired_anyway;
    uint32_t v = op->version;
    if (mpirr_rt.mode == MPIRR_MODE_REPLAY) {
        if (acquired) mpirr_sync_obj_done(op->obj, v);
    } else {
        v = acquired ? mpirr_sync_obj_take(op->obj) : 0;
        log_outcome(t, op, v, rc);
        if (mpirr_ev_on) mpirr_ev_sync(op->call, op->index, v, rc);
    }
    /* begin made this object the last one used */
    if (acquired) t->last_entry = (uint64_t)op->index << 32 | (uint32_t)(v + 1);
}

int mpirr_sync_create_begin(struct sync_op *op, const void *caller)
{
    struct sync_thread *t = me;
    /* a threading runtime's creations too: its threads are numbered like the application's */
    if (!t || !mpirr_sync_on || caller_kind(t, caller) == MPIRR_CALLER_SYSTEM) return -1;
    op->obj = &creations;
    op->addr = NULL;
    op->call = MPIRR_SYNC_THREAD_CREATE;
    track(t, op, t->create_next);
    if (mpirr_rt.mode == MPIRR_MODE_REPLAY) {
        wait_turn(op);
    } else {
        op->version = mpirr_sync_obj_take(&creations); /* the number, before the thread runs */
        log_outcome(t, op, op->version, 0);
    }
    t->create_next = op->version + 1;
    return (int)op->version + 1;
}

void mpirr_sync_create_end(struct sync_op *op, int rc)
{
    (void)rc; /* a failed creation used up its number all the same, as when recorded */
    if (mpirr_rt.mode == MPIRR_MODE_REPLAY) mpirr_sync_obj_done(&creations, op->version);
}

void mpirr_sync_mpi_enter(struct sync_op *op)
{
    struct sync_thread *t = me;
    op->obj = NULL;
    if (!t || !mpirr_sync_on) return;
    op->obj = &mpi_calls;
    op->addr = NULL;
    op->call = MPIRR_SYNC_MPI_CALL;
    track(t, op, t->mpi_next);
    if (mpirr_rt.mode == MPIRR_MODE_REPLAY) wait_turn(op);
}

void mpirr_sync_mpi_numbered(struct sync_op *op, uint64_t event, int keep)
{
    struct sync_thread *t = me;
    if (!op->obj) return;
    if (mpirr_rt.mode == MPIRR_MODE_REPLAY) {
        if (!keep) mpirr_sync_obj_done(&mpi_calls, op->version);
    } else {
        /* under the runtime lock, as the event number was taken: the same order */
        op->version = mpirr_sync_obj_take(&mpi_calls);
        log_outcome(t, op, op->version, 0);
    }
    (void)event;
    t->mpi_next = op->version + 1;
}

void mpirr_sync_thread_start(int id) { thread_new(id); }

/* A thread ends (or the tracking does, for thread 0): its log is complete. */
static void thread_end(void *arg)
{
    struct sync_thread *t = arg;
    if (!t) return;
    if (t->w) {
        mpirr_log_set_ending(t->w, MPIRR_END_FINALIZED, 0);
        mpirr_log_close(t->w);
    }
    if (t->rd) mpirr_log_reader_close(t->rd);
    cache_forget(t);
    if (me == t) me = NULL;
    free(t);
}

void mpirr_sync_start(void)
{
    if (mpirr_rt.mode != MPIRR_MODE_RECORD && mpirr_rt.mode != MPIRR_MODE_REPLAY) return;
    if (mpirr_setting_text(MPIRR_SET_FLIP)) return; /* flips order MPI outcomes only */
    creations = (struct sync_obj){0};
    mpi_calls = (struct sync_obj){0};
    thread_new(0);
    __atomic_store_n(&mpirr_sync_on, 1, __ATOMIC_RELEASE);
}

void mpirr_sync_stop(void)
{
    if (!mpirr_sync_on) return;
    __atomic_store_n(&mpirr_sync_on, 0, __ATOMIC_RELEASE);
    struct sync_thread *t = me;
    if (t && t->id == 0) {
        pthread_setspecific(key, NULL);
        thread_end(t);
    }
}

/* The calls that post a message or a receive in turn (sync_order.h); each gives the turn up
 * (mpirr_threaded_posted) on every path. Not MPI_Sendrecv_replace (its blocking call posts
 * the receive into the buffer it sends from), nor the probes (they post nothing). */
static int posts_message(unsigned id)
{
    switch (id) {
    case MPIRR_ID_MPI_Irecv: case MPIRR_ID_MPI_Recv: case MPIRR_ID_MPI_Sendrecv:
    case MPIRR_ID_MPI_Send: case MPIRR_ID_MPI_Bsend: case MPIRR_ID_MPI_Ssend: case MPIRR_ID_MPI_Rsend:
    case MPIRR_ID_MPI_Isend: case MPIRR_ID_MPI_Ibsend: case MPIRR_ID_MPI_Issend:
    case MPIRR_ID_MPI_Irsend: case MPIRR_ID_MPI_Start: case MPIRR_ID_MPI_Startall:
        return 1;
    default:
        return 0;
    }
}

/* Record: posts, numbering included, one at a time. */
static pthread_mutex_t post_lock = PTHREAD_MUTEX_INITIALIZER;
/* The turn this thread's current call keeps until its post returns (obj NULL: none). */
static __thread struct sync_op held __attribute__((tls_model("initial-exec")));

void mpirr_threaded_call_begin(mpirr_call *c, unsigned id)
{
    struct sync_op op;
    mpirr_sync_mpi_enter(&op); /* replay: waits for this thread's turn, before the lock */
    int keep = op.obj && posts_message(id);
    if (keep && mpirr_rt.mode != MPIRR_MODE_REPLAY) pthread_mutex_lock(&post_lock);
    mpirr_lock();
    mpirr_call_numbered(c, id);
    mpirr_sync_mpi_numbered(&op, c->event, keep);
    mpirr_unlock();
    if (keep) held = op;
}

int mpirr_threaded_post_held(void) { return held.obj != NULL; }

void mpirr_threaded_posted(void)
{
    if (!held.obj) return;
    if (mpirr_rt.mode == MPIRR_MODE_REPLAY) mpirr_sync_obj_done(held.obj, held.version);
    else pthread_mutex_unlock(&post_lock);
    held.obj = NULL;
}
