/* record.h: one nondeterministic outcome as stored in a rank log (the in-memory form).
 * The byte encoding lives in record_codec.c; docs/format.md describes both. */
#ifndef MPIRR_RECORD_H
#define MPIRR_RECORD_H

#include <stdint.h>

/* Every record is keyed by the per-rank event number of the call whose outcome it fixes
 * ("key event"). Most records are written during that call ("in-order"); deferred records are
 * written later, when the outcome becomes known (a nonblocking receive completes), but are still
 * keyed by the call that replay must steer (the post). */
enum mpirr_record_kind {
    MPIRR_REC_MATCH = 1,   /* wildcard Recv/Sendrecv/Probe/Mprobe matched (source, tag) */
    MPIRR_REC_TEST_OK = 2, /* a Test-family call or Iprobe/Improbe succeeded; unsuccessful
                              calls are the events with no record (the run length is the gap) */
    MPIRR_REC_CHOICE = 3,  /* Waitany index / Waitsome index set */
    MPIRR_REC_RECV_DONE = 4,   /* deferred: nonblocking wildcard receive posted at key event
                                  (sub = request index for Startall) matched (source, tag) or
                                  was cancelled */
    MPIRR_REC_CANCEL_DONE = 5, /* deferred: request passed to MPI_Cancel at key event was
                                  cancelled (cancelled=1) or completed normally (0) */
    MPIRR_REC_WTIME = 6,   /* MPI_Wtime returned value (IEEE-754 bits) */
    MPIRR_REC_CHECK = 7,   /* hash of the call sequence up to and including key event */
    MPIRR_REC_END = 8,     /* MPI_Finalize reached: total events and final hash */
    MPIRR_REC_LIBC = 9,    /* a value the program got from libc (time, getpid, getrandom...),
                              keyed by the MPI event in progress (the last call begun); call
                              holds the source (libc_sources.def), not an MPI call id */
    MPIRR_REC_SYNC = 10,   /* in a thread's sync log only: the thread's synchronization call
                              (key event = its number among the thread's sync calls; call =
                              sync_calls.def id) acquired its object at version `value`, or
                              failed with error code `count` (EBUSY, ETIMEDOUT; a timed-out
                              condition wait still reacquires at `value`). Calls whose outcome
                              is the predicted one (success, at the version after the last one
                              this thread saw on the object) have no record */
    MPIRR_REC_TICKET = 11, /* one-sided communication (src/runtime/rma, docs/rma.md): the key
                              event (a passive-target MPI_Win_lock, or an atomic operation
                              outside an exclusive epoch) took turn `value` on its target */
    MPIRR_REC_KIND_LIMIT
};

typedef struct mpirr_record {
    uint8_t kind;          /* enum mpirr_record_kind */
    uint8_t has_match;     /* source and tag are meaningful */
    uint16_t call;         /* call id (call_ids.h) of the key event; LIBC: the libc source */
    uint32_t sub;          /* request index within the key call (Startall), else 0 */
    uint64_t event;        /* key event, 1-based per rank */
    uint64_t written;      /* event current when written: == event unless deferred */
    int32_t source, tag;   /* with has_match */
    int32_t cancelled;     /* RECV_DONE, CANCEL_DONE */
    int32_t count;         /* TEST_OK/CHOICE: Testany/Waitany index or Testsome/Waitsome
                              outcount (MPI_UNDEFINED is stored as -1) */
    const int32_t *indices;/* Testsome/Waitsome: count indices; owned by writer's caller or
                              by the reader until its next read */
    uint64_t value;        /* WTIME: double bits; CHECK and END: call-sequence hash; TICKET:
                              the turn; LIBC:
                              the value (time in ns, pid; BYTES family: return or -errno) */
    uint64_t total;        /* END: number of events */
    const uint8_t *bytes;  /* LIBC, BYTES family: nbytes bytes returned (getrandom's, the host
                              name); owned like indices */
    uint32_t nbytes;
} mpirr_record;

/* The some-calls carry an index list; others carry count alone. */
static inline int mpirr_record_has_indices(const mpirr_record *r)
{
    return (r->kind == MPIRR_REC_TEST_OK || r->kind == MPIRR_REC_CHOICE) && r->count > 0 &&
           r->indices != 0;
}

const char *mpirr_record_kind_name(unsigned kind);
/* The call a record is about: the MPI call's name, or the libc source's ("time()"). */
const char *mpirr_record_call_name(const mpirr_record *r);

#endif
