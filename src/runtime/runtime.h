/* runtime.h: state and hooks shared by every part of the interposed runtime (libmpirr.so).
 *
 * Every intercepted call is one event: the generated wrapper (wrappers.c) brackets it with
 * mpirr_call_begin/mpirr_call_end, which number it, fold it into the call-sequence hash, inject
 * timing noise when asked, and in replay check it against the recording. Calls with
 * nondeterministic outcomes (marked SPECIAL in mpi_calls.def) are implemented in their own files
 * and use the recorder (record mode) or the replay cursor (replay mode, replay_cursor.h). Errors
 * go through divergence.h. */
#ifndef MPIRR_RUNTIME_H
#define MPIRR_RUNTIME_H

#include <mpi.h>
#include <pthread.h>
#include <stdint.h>

#include "call_ids.h"
#include "divergence.h"
#include "rank_log.h"
#include "record.h"

enum mpirr_mode {
    MPIRR_MODE_OFF = 0,  /* library loaded but not asked to do anything: pass through */
    MPIRR_MODE_RUN,      /* pass through, with noise injection */
    MPIRR_MODE_RECORD,
    MPIRR_MODE_REPLAY,
};

/* What a recording logs (mpirr record --mode; the log header's flags say which in replay). */
enum mpirr_rec_mode {
    MPIRR_REC_SOURCES = 0, /* every wildcard receive's match */
    MPIRR_REC_RACES,       /* only the wildcard receives that raced (race_check.h) */
    MPIRR_REC_ALL,         /* every receive's match: the trace-everything baseline */
};

struct replay_cursor;

struct mpirr_runtime {
    enum mpirr_mode mode;
    int active;             /* log open: between MPI_Init and MPI_Finalize */
    int threaded;           /* MPI_THREAD_MULTIPLE granted: take the lock */
    int wtime;              /* MPI_Wtime values are recorded/replayed */
    uint32_t wtime_unit;    /* ... at this resolution in ns (MPIRR_WTIME_UNIT_NS; the replayed
                               log's): values whole multiples of it, MPI_Wtick at least it */
    int poll_waits;         /* replay waits by polling and yielding (replay_wait.c) */
    enum mpirr_rec_mode rec_mode;
    int piggyback;          /* races mode recording: messages carry timestamps (piggyback.h) */
    int clock_merge;        /* races mode: collectives merge timestamps (MPIRR_CLOCK_MERGE) */
    int bounded_clock;      /* races mode: the bounded clock (MPIRR_RACE_CLOCK, vector_clock.h) */
    uint64_t *counters;     /* MPIRR_CTR_* (rank_log.h): in the mapped tail while recording */
    uint64_t *call_counts;  /* the UNREPLAYED calls (mpi_calls.def), in slots: likewise */
    int rank, nranks;
    unsigned noise_us;
    uint64_t hash;          /* FNV-1a over the call ids of all events so far */
    uint64_t next_key;      /* replay: key event of the next in-order record, or hold_event */
    uint64_t hold_event;    /* replay: the event this rank is held before (the recorded run
                               was stopped from outside there), 0 none */
    uint64_t *progress;     /* the progress word: in the mapped tail (record, rank_log.h), in
                               the rank's replay control slot (replay), else a dummy */
    const uint64_t *stop;   /* replay: the position (replay_control.h) to hold this rank at, in
                               its control slot, set by the CLI's SETs; else MPIRR_POS_NONE */
    uint64_t switch_event;  /* replay --flip: the first event this rank records freely
                               (flip.c), 0 once it does or without a flip */
    uint64_t steer_event;   /* replay --flip: the event of the flipped receive (on its rank) */
    int steer_source;       /* ... and the source it is made to take */
    uint64_t steer_any_event; /* replay --flip R:E=req:P: the Waitany/Testany/Waitsome/Testsome */
    uint64_t steer_any_post;  /* ... and the event that posted the request it returns */
    pthread_mutex_t lock;
    mpirr_log_writer *writer;
    struct replay_cursor *cursor;
    MPI_Comm shadow;        /* dup of MPI_COMM_SELF: receives posted here never match */
    int have_shadow;
    char dir[4096];
    char log_path[4200];
    mpirr_run_id run_id;    /* record: the id of the recording being written (MPIRR_RUN_ID,
                               or a flip file's run-id; none without either), in the header
                               of every file the rank makes */
};

extern struct mpirr_runtime mpirr_rt;
/* Events (intercepted calls) so far on this rank: the number of the latest call. Exported
 * (mpirr.h) as a plain global a debugger can read in a breakpoint condition. */
extern unsigned long long mpirr_current_event;
/* The event number of this thread's current call (the event history's record number). */
extern __thread uint64_t mpirr_tls_event __attribute__((tls_model("initial-exec")));
extern __thread unsigned mpirr_tls_call __attribute__((tls_model("initial-exec"))); /* its call id */

typedef struct mpirr_call {
    uint64_t event;
    unsigned id;
} mpirr_call;

void mpirr_noise(void);
/* ---- stopline.c: the replay control state (replay_control.h) ---- */
/* The position pos (2E before event E, 2E+1 after it) of call id reached the rank's stop:
 * holds the rank there until the CLI moves the stop on. */
void mpirr_stopline_reached(uint64_t pos, unsigned id);
/* Called once the rank is held, for debuggers to break on (the gdb extension does). */
void mpirr_stopline_held(void);
/* Replay: connects to mpirr (MPIRR_CONTROL, if set) and publishes progress in the rank's slot;
 * before the runtime is active. */
void mpirr_control_start(void);
/* The rank ends (state: enum mpirr_ctl_state; detail: signal or error code), and mpirr knows it
 * when this returns (or could not be told); async-signal-safe. Detaches the rank from its stop
 * unless it is held. */
void mpirr_control_ending(unsigned state, int detail);
/* MPI_Finalize, after the rank said it finished: closes the connection to mpirr. */
void mpirr_control_stop(void);
/* The channel stored a new stop in the slot: the word calls compare with follows it. */
void mpirr_control_stop_changed(void);
/* This rank's slot and its copy of the header (replay_control.h), NULL without mpirr. */
struct mpirr_ctl_slot *mpirr_control_slot(void);
const struct mpirr_ctl_header *mpirr_control_header(void);
/* The mpirr that steers the replay is gone: nobody would release a held rank. */
int mpirr_control_cli_gone(void);
/* ---- control_channel.c: the connection to mpirr (control_wire.h) ---- */
/* Connects to mpirr at addr (HOST:PORT:TOKEN), says HELLO with slot's pid and host, applies
 * mpirr's first SET to slot and header, and starts the thread that carries them from then on.
 * A rank that cannot reach mpirr ends the job with one line (mpirr_fatal). */
void mpirr_channel_open(const char *addr, struct mpirr_ctl_slot *slot,
                        struct mpirr_ctl_header *header);
/* Sends the slot and waits (bounded) until mpirr acknowledged it; async-signal-safe. */
void mpirr_channel_flush(void);
/* Sends one line (MPIRR_CW_LINE_HOLD or _ERROR, n bytes with its newline) and waits (bounded)
 * until mpirr acknowledged it; async-signal-safe. 1 if mpirr took it (a hold line: into a hold
 * log), 0 if it did not, -1 if it is not connected or did not answer (say it elsewhere). */
int mpirr_channel_line(unsigned which, const char *text, size_t n);
/* A replayed MPI_Abort's view of the ranks still running toward their own end, as mpirr last
 * sent it: how many (-1: not known), the first, the sum of their progress words. */
int mpirr_channel_abort_view(int *first, uint64_t *progress_sum);
/* mpirr closed the connection (or it broke). */
int mpirr_channel_gone(void);
/* Stops the thread and closes the connection (also at exit); nothing stays open. */
void mpirr_channel_close(void);
/* replay_cursor.c: this call reached the next record's key event (checks, flips, holds). */
void mpirr_replay_check_event(const mpirr_call *c);

static inline void mpirr_lock(void)
{
    if (mpirr_rt.threaded) pthread_mutex_lock(&mpirr_rt.lock);
}
static inline void mpirr_unlock(void)
{
    if (mpirr_rt.threaded) pthread_mutex_unlock(&mpirr_rt.lock);
}

/* Numbers the call and makes the per-call checks; the caller holds the runtime lock. */
static inline __attribute__((always_inline)) void mpirr_call_numbered(mpirr_call *c, unsigned id)
{
    c->id = id;
    c->event = ++mpirr_current_event;
    mpirr_tls_event = c->event;
    mpirr_tls_call = id;
    *mpirr_rt.progress = mpirr_progress_word(c->event, 1);
    /* A stopline holds the rank before the call is made (one load and compare per call). */
    if (__builtin_expect(c->event << 1 >= *mpirr_rt.stop, 0)) mpirr_stopline_reached(c->event << 1, id);
    /* Checked before this call joins the hash: checkpoints hold the hash of earlier events. */
    if (__builtin_expect(c->event >= mpirr_rt.next_key, 0)) mpirr_replay_check_event(c);
    mpirr_rt.hash = (mpirr_rt.hash ^ id) * 0x100000001b3ull;
}

/* MPI_THREAD_MULTIPLE: the same, with the order in which threads enter MPI recorded or
 * replayed (threads/sync_order.h), so that event numbers go to the same calls. */
void mpirr_threaded_call_begin(mpirr_call *c, unsigned id);

static inline __attribute__((always_inline)) void mpirr_call_begin(mpirr_call *c, unsigned id)
{
    if (__builtin_expect(mpirr_rt.noise_us != 0, 0)) mpirr_noise();
    if (__builtin_expect(mpirr_rt.threaded, 0)) {
        mpirr_threaded_call_begin(c, id);
        return;
    }
    mpirr_call_numbered(c, id);
}

static inline void mpirr_call_end(const mpirr_call *c) { (void)c; }

/* After every intercepted call returns: the recorded progress says this thread's call is over
 * (a rank killed from now on is held after it in a replay, not before it); a stopline just
 * after this call holds the rank here, before the program sees the call's results. */
static inline void mpirr_call_returned(unsigned id)
{
    uint64_t e = mpirr_tls_event;
    *mpirr_rt.progress = mpirr_progress_word(e, 0);
    if (__builtin_expect((e << 1 | 1) >= *mpirr_rt.stop, 0)) mpirr_stopline_reached(e << 1 | 1, id);
}

static inline int mpirr_recording(void) { return mpirr_rt.active && mpirr_rt.mode == MPIRR_MODE_RECORD; }
static inline int mpirr_replaying(void) { return mpirr_rt.active && mpirr_rt.mode == MPIRR_MODE_REPLAY; }

/* ---- recorder.c: append one record (locks, reports I/O errors once) ---- */
void mpirr_record_append(mpirr_record *r);
void mpirr_record_append_locked(mpirr_record *r); /* the caller holds the runtime lock */
/* Shorthands for in-order records of the current call. */
void mpirr_record_match(const mpirr_call *c, const MPI_Status *st);
void mpirr_record_test_ok(const mpirr_call *c, const MPI_Status *st, int has_match, int count,
                          const int *indices);
void mpirr_record_choice(const mpirr_call *c, int count, const int *indices);
/* A deferred RECV_DONE outcome keyed by (event, sub) of call: the match in st, or cancelled. */
void mpirr_record_recv_done(uint64_t event, uint32_t sub, unsigned call, const MPI_Status *st,
                            int cancelled);

/* ---- init_finalize.c ---- */
/* Opens this rank's log in mpirr_rt.dir with these header flags (MPIRR_LOG_FLAG_*), then its
 * event history if asked (one barrier between: call it inside MPI_Init). A rank whose log
 * cannot be made runs on unrecorded, after a warning. */
void mpirr_log_start(uint32_t flags);
/* A log header for this rank with these flags (also the threads' sync logs'). */
void mpirr_log_header_fill(mpirr_log_header *h, uint32_t flags);
/* Recording this rank cannot go on (errno why): the tail says it stopped before event, the
 * program runs on unrecorded. Called with the runtime lock held. */
void mpirr_recording_stopped(uint64_t event, int why);

/* ---- local_record.c: record --local (MPIRR_LOCAL_DIR) ---- */
/* Record mode with MPIRR_LOCAL_DIR, at MPI_Init (collective; rank known, log not yet open):
 * points mpirr_rt.dir at this node's folder, or ends the job with one line. */
void mpirr_local_start(void);
/* Moves this rank's files into the recording (once; async-signal-safe): at exit, MPI_Abort or
 * a fatal signal, after the ending is noted. Nothing without record --local, nor with --local
 * --pack (the files stay on the node for `mpirr gather`). */
void mpirr_local_finish(void);

/* ---- replay_wait.c: waits for a recorded success without starving other ranks of the core
 * (the records themselves: replay_cursor.h) ---- */
int mpirr_replay_wait(MPI_Request *req, MPI_Status *st);
int mpirr_replay_waitall(int count, MPI_Request reqs[], MPI_Status sts[]);
int mpirr_replay_probe(int source, int tag, MPI_Comm comm, MPI_Status *st);
int mpirr_replay_mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *st);
int mpirr_replay_request_done(MPI_Request req, int *flag, MPI_Status *st);
/* ---- flip.c: replay, then record (mpirr replay --flip) ---- */
/* At MPI_Init, after the replay started: reads MPIRR_FLIP and opens the new log. */
void mpirr_flip_start(void);
/* The rank reached mpirr_rt.switch_event: copies the replayed records, then records. */
void mpirr_flip_switch(void);
/* mpirr_flip_request's slow half. */
int mpirr_flip_request_index(int count, const MPI_Request reqs[]);
/* Record mode, before a wildcard receive or probe is posted: the flipped one takes the forced
 * source (1 then: a nonblocking probe waits for its message, src/runtime/probe.c). */
static inline int mpirr_flip_steer(uint64_t event, int *source)
{
    if (__builtin_expect(event != mpirr_rt.steer_event, 1)) return 0;
    *source = mpirr_rt.steer_source;
    return 1;
}

/* Record mode, in a Waitany/Testany/Waitsome/Testsome at event: the index of the request the
 * flip makes it return (flip.c), or -1 (not the flipped call, or that request is not in reqs:
 * then the call runs unforced, after a warning). */
static inline int mpirr_flip_request(uint64_t event, int count, const MPI_Request reqs[])
{
    if (__builtin_expect(event != mpirr_rt.steer_any_event, 1)) return -1;
    return mpirr_flip_request_index(count, reqs);
}

/* ---- crash.c ---- */
void mpirr_crash_guard_install(void);
void mpirr_crash_guard_remove(void);

/* ---- status helpers ---- */
/* A status to receive into: the caller's, or a local one when it passed MPI_STATUS_IGNORE. */
static inline MPI_Status *mpirr_status_or(MPI_Status *user, MPI_Status *local)
{
    return user == MPI_STATUS_IGNORE ? local : user;
}
static inline int mpirr_is_rank(int r) { return r >= 0; }
/* Whether a receive that returned rc consumed its message: it succeeded, or the message was
 * truncated (then its status still names it). */
static inline int mpirr_consumed_message(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS) PMPI_Error_class(rc, &cls);
    return rc == MPI_SUCCESS || cls == MPI_ERR_TRUNCATE;
}

#endif
