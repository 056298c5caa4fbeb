/* event_trace.h: the event history (p2d2's compressible trace): one record per intercepted MPI
 * call of a rank, with the fields later analysis needs, stored as one streaming-compressed
 * byte stream per rank (rank-N.events) plus a mapped tail of not-yet-compressed records
 * (rank-N.events.tail) that outlives the process. The writer is used by the runtime, the
 * reader by every tool. docs/format.md ("Event history") is the public description. */
#ifndef MPIRR_EVENT_TRACE_H
#define MPIRR_EVENT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "run_id.h"

/* 2: the header (80 bytes) and the tail carry the run id (run_id.h); version 1 histories (no
 * id, a 64-byte header) are still read. */
#define MPIRR_EVENTS_VERSION 2

/* Peers and tags are stored MPI-implementation independent. */
enum {
    MPIRR_EV_ANY = -1,       /* MPI_ANY_SOURCE / MPI_ANY_TAG */
    MPIRR_EV_PROC_NULL = -2, /* MPI_PROC_NULL */
    MPIRR_EV_ROOT = -3,      /* MPI_ROOT (inter-communicator collectives) */
};

/* Which optional fields a call record carries (mpirr_event.fields). */
enum {
    MPIRR_EVF_COMM = 1 << 0,
    MPIRR_EVF_PEER = 1 << 1,    /* peer: destination or source as given */
    MPIRR_EVF_TAG = 1 << 2,
    MPIRR_EVF_BYTES = 1 << 3,   /* message size (sends) or buffer size (receives) */
    MPIRR_EVF_REQ = 1 << 4,     /* the request slot this call created */
    MPIRR_EVF_MATCH = 1 << 5,   /* src, mtag, got: what a receive or probe matched */
    MPIRR_EVF_ROOT = 1 << 6,
    MPIRR_EVF_RPEER = 1 << 7,   /* rpeer, rtag: the receive side of a Sendrecv */
    MPIRR_EVF_DONE = 1 << 8,    /* items: the requests this call completed */
    MPIRR_EVF_START = 1 << 9,   /* items: the persistent requests this call started */
    MPIRR_EVF_NEWCOMM = 1 << 10,
    MPIRR_EVF_RC = 1 << 11,     /* the call returned an error code */
    MPIRR_EVF_EXACT = 1 << 12,  /* exact begin/end ticks (MPIRR_EVENTS_EXACT; for checks) */
    MPIRR_EVF_THREAD = 1 << 13, /* thread: made by a thread other than the rank's thread 0 */
    MPIRR_EVF_RMA = 1 << 14,    /* win, rma, target, disp, span, rma_op, rma_type, lock, and
                                   for post/start the group (ranks): a one-sided call
                                   (rma_fields.h) */
};

/* Record kinds besides call ids, which are 1..248 and 256..MPIRR_CALL_ID_LIMIT-1 (call_ids.c
 * checks): on disk a call id from 256 is the byte MPIRR_EVK_LONG_CALL and a varint. */
enum {
    MPIRR_EVK_LONG_CALL = 249,
    MPIRR_EVK_FIRST_META = 250,
    MPIRR_EVK_SYNC = 250,   /* a thread's synchronization (sync_calls.def): thread, sync_call,
                               object, version, rc */
    MPIRR_EVK_COMM = 251,   /* a communicator id and its members' world ranks */
    MPIRR_EVK_SITE = 252,   /* a call-site index and its return address */
    MPIRR_EVK_MODULE = 253, /* a loaded object: base address, size, path (the load map) */
    MPIRR_EVK_END = 254,    /* the rank finished cleanly (MPI_Finalize) */
};

/* Flags of a completed or started request (mpirr_ev_item.flags). */
enum {
    MPIRR_EVI_RECV = 1,      /* a receive: src/tag/got are its match */
    MPIRR_EVI_CANCELLED = 2,
    MPIRR_EVI_UNKNOWN = 4,   /* a request mpirr did not see created */
};

typedef struct mpirr_ev_item {
    uint32_t slot, flags;
    int32_t src, tag;
    uint64_t got;
} mpirr_ev_item;

typedef struct mpirr_event {
    unsigned kind;           /* call id (call_ids.h) or MPIRR_EVK_* */
    uint64_t event;          /* the rank's event number, as in the rank log */
    uint32_t fields;         /* MPIRR_EVF_* */
    uint32_t site;           /* call-site index (MPIRR_EVK_SITE defines it) */
    uint32_t comm, newcomm, req;
    int32_t peer, tag, root, rpeer, rtag, src, mtag, rc;
    uint64_t bytes, got;
    uint32_t nitems;
    mpirr_ev_item *items;    /* DONE or START items (owned by the writer's caller / reader) */
    /* THREAD (call records) and MPIRR_EVK_SYNC: the thread, numbered as the rank numbers them
     * (0: the thread that called MPI_Init; then creation order). SYNC: the call (sync_calls.def
     * id), the object (numbered by first use in this run), the version the acquisition got
     * (its turn on the object) and the call's error code (0: acquired). */
    uint32_t thread, sync_call, object, version;
    /* Times in ticks since the trace's base. The writer takes exact times (x_*) and stores
     * log2 codes; the reader gives the reconstructed times (t_*), and x_* when EXACT. */
    uint64_t t_begin, t_end, x_begin, x_end;
    /* MPIRR_EVK_COMM: id in comm, parent in newcomm (UINT32_MAX: none), creating call in req,
     * inter-communicator flag in root, members' world ranks in ranks[0..nranks) (local group
     * then, for inter-communicators, remote group of nremote). */
    uint32_t nranks, nremote;
    int32_t *ranks;
    /* MPIRR_EVK_SITE: index in site, return address in addr. MPIRR_EVK_MODULE: load bias in
     * addr, the executable range [addr + got, addr + bytes), path (so a site's address in the
     * object's own terms, for addr2line, is site - addr). MPIRR_EVK_END: events in event. */
    uint64_t addr;
    const char *path;
    /* RMA (one-sided calls, rma_fields.h): the window (the rank's own id, defined by the
     * record of the call that created it, which also names the communicator), what the call
     * does (MPIRR_RMA_*), the target as a world rank (MPIRR_EV_PROC_NULL: none or all), the
     * target displacement in bytes (disp * disp_unit, plus the target type's true lower
     * bound; a dynamic window's address), the bytes it spans at the target when they differ
     * from bytes (a non-contiguous target type; 0: bytes), the operation and the basic type
     * of an accumulate (MPIRR_RMA_OP_*, MPIRR_RMA_TYPE_*), a lock's type (MPIRR_RMA_LOCK_*).
     * Post and start name their group's world ranks in ranks[0..nranks). */
    uint32_t win, rma, rma_op, rma_type, lock;
    int32_t target;
    uint64_t disp, span;
} mpirr_event;

/* A delta of up to this many ticks may be coded 0 (the writer's choice, event_codec.c; readers
 * need not know): the reconstructed clock trails the exact one by at most
 * max(MPIRR_EV_TIME_SLACK, the largest gap between consecutive timestamps). */
#define MPIRR_EV_TIME_SLACK 1

/* log2 time codes (p2d2 section 2.2): a delta D of ticks is stored as 0 for D = 0, else
 * 1 + floor(log2 D), and decodes to 2^(code-1). */
static inline unsigned mpirr_ev_time_code(uint64_t d)
{
    return d ? 64u - (unsigned)__builtin_clzll(d) : 0u;
}
static inline uint64_t mpirr_ev_time_decode(unsigned code)
{
    return code ? 1ull << (code - 1) : 0;
}

/* ---- writer (the runtime) ---- */
typedef struct mpirr_ev_writer mpirr_ev_writer;

typedef struct mpirr_ev_params {
    int rank, nranks;
    unsigned tick_shift;     /* a tick is 2^tick_shift ns */
    int exact;               /* also store exact times */
    int level;               /* zstd level */
    size_t stage_bytes;      /* raw bytes staged in the mapped tail before compressing */
    uint64_t base_ns;        /* CLOCK_MONOTONIC ns of tick 0 */
    uint64_t start_realtime_ns;
    mpirr_run_id run_id;     /* the recording's (run_id.h) */
} mpirr_ev_params;

void mpirr_ev_path(char *buf, size_t n, const char *dir, int rank, int tail);
mpirr_ev_writer *mpirr_evw_open(const char *dir, const mpirr_ev_params *p, char *err, size_t errlen);
/* Appends one record; times are exact ns (CLOCK_MONOTONIC) for call records. 0 or -1 (I/O). */
int mpirr_evw_append(mpirr_ev_writer *w, mpirr_event *e);
/* Compresses the staged records into the trace file (the debugger's mpirr_flush). */
int mpirr_evw_flush(mpirr_ev_writer *w);
/* Writes the END record (clean), flushes, removes the tail; frees. */
int mpirr_evw_close(mpirr_ev_writer *w, int clean);
const char *mpirr_evw_error(const mpirr_ev_writer *w);

/* ---- reader (every tool) ---- */
typedef struct mpirr_ev_reader mpirr_ev_reader;

typedef struct mpirr_ev_info {
    int rank, nranks, version;
    mpirr_run_id run_id;    /* none in version 1 */
    unsigned tick_shift;
    int exact;
    uint64_t start_realtime_ns;
    uint64_t compressed_bytes, raw_bytes, chunks, tail_bytes;
} mpirr_ev_info;

/* NULL with a one-line message naming the file on failure. */
mpirr_ev_reader *mpirr_evr_open(const char *dir, int rank, char *err, size_t errlen);
/* 1: *e filled (valid until the next call); 0: end of the trace; -1: damaged (error()). Call
 * records and meta records both come through here, in stream order. */
int mpirr_evr_next(mpirr_ev_reader *r, mpirr_event *e);
/* After next() returned 0: 1 if the rank finished cleanly (END record), 0 if cut off. */
int mpirr_evr_clean(const mpirr_ev_reader *r);
const char *mpirr_evr_error(const mpirr_ev_reader *r);
const mpirr_ev_info *mpirr_evr_info(const mpirr_ev_reader *r);
/* Each block read is passed to sink as the writer staged it (records, size column, then the
 * time column uncoded): the raw record stream, e.g. to measure other compressors on the same
 * data.
 * info.raw_bytes counts the same bytes. */
void mpirr_evr_raw_sink(mpirr_ev_reader *r, void (*sink)(const void *, size_t, void *), void *arg);
void mpirr_evr_close(mpirr_ev_reader *r);

/* ---- codec (shared by writer and reader; event_codec.c) ---- */
/* Received sizes are predicted: a receive's completion by the size its request was posted
 * with (the creating call's bytes, kept per request slot mod MPIRR_EV_POSTED_SLOTS), a
 * blocking receive's match by its own bytes. Programs that post exact sizes (LAMMPS) get a
 * 0 instead of a repeat of a size that changes at every re-partitioning (docs/format.md). */
#define MPIRR_EV_POSTED_SLOTS 256
/* Message sizes (a call record's bytes field) go to a column of their own in each block
 * (header flag 4), as move-to-front codes over the last MPIRR_EV_RECENT_SIZES distinct sizes
 * of the stream: i < MPIRR_EV_RECENT_SIZES is the i-th most recent, anything else the size
 * plus MPIRR_EV_RECENT_SIZES. A time step after a reneighbouring then matches its
 * predecessor in one piece instead of around each new size, and a size sent back the way it
 * came (LAMMPS's reverse communication) is a small code (docs/events.md). */
#define MPIRR_EV_RECENT_SIZES 12
typedef struct mpirr_ev_codec {
    uint64_t event;          /* event number of the previous call record */
    uint64_t recon;          /* reconstructed time of the previous record's end */
    uint64_t exact;          /* exact end of the previous record (EXACT) */
    /* Received sizes (match's and completed receives' bytes) are size codes against their
     * prediction; 0 in histories written before them (header flag 2 clear), which store them
     * as they are. Set before the first record: by the writer (always), by the reader (from
     * the header). */
    int size_codes;
    uint64_t posted[MPIRR_EV_POSTED_SLOTS]; /* bytes of the call that created each slot */
    /* Bytes fields are in the block's size column (header flag 4; without it, in the record).
     * Set before the first record, like size_codes. */
    int size_column;
    uint64_t recent[MPIRR_EV_RECENT_SIZES]; /* distinct sizes, most recent first (0 at start) */
    /* Call records may carry MPIRR_EVF_RMA (header flag 16; without it that bit is unknown
     * and refused). Set before the first record, like size_codes. */
    int rma_fields;
} mpirr_ev_codec;

/* Largest encoded record with n items and a path/ranks payload of extra bytes. */
size_t mpirr_ev_encoded_max(const mpirr_event *e);
/* Encodes e into out, and for a call record its two time codes into times (one byte, both
 * codes as nibbles, or 0xff and one byte each: *ntimes is 1 or 3; computed from
 * x_begin/x_end; e->t_begin/t_end get the reconstructed times) and, with c->size_column, its
 * bytes field's code into sizes (*nsizes: 0 or one varint); returns the bytes written to
 * out. */
#define MPIRR_EV_TIMES_MAX 3
#define MPIRR_EV_SIZES_MAX 10 /* one varint */
size_t mpirr_ev_encode(mpirr_ev_codec *c, mpirr_event *e, int exact, uint8_t *out, uint8_t *times,
                       size_t *ntimes, uint8_t *sizes, size_t *nsizes);
static inline int mpirr_ev_is_call(unsigned kind)
{
    return kind < MPIRR_EVK_FIRST_META || kind > 255;
}
/* Where a call record's two time codes come from, given its call site: 1 (set), 0 (not
 * there yet: the record is incomplete), -1 (damaged). The reader's raw and range-coded
 * (time_coder.h) columns both provide one. */
typedef int (*mpirr_ev_times_fn)(void *arg, uint32_t site, unsigned *cb, unsigned *ce);
/* Decodes one record from [p, end), a call record's time codes from times() and, with
 * c->size_column, its bytes field from the size column [*sizes, sizes_end) (*sizes moves past
 * it once the record is whole). Returns bytes consumed from p, 0 if the record (or its time
 * codes or size) is incomplete, or -1 if malformed (*why set). Items, ranks and path point
 * into scratch, grown as needed. */
typedef struct mpirr_ev_scratch {
    mpirr_ev_item *items;
    size_t items_cap;
    int32_t *ranks;
    size_t ranks_cap;
    char *path;
    size_t path_cap;
} mpirr_ev_scratch;
long mpirr_ev_decode(mpirr_ev_codec *c, const uint8_t *p, const uint8_t *end,
                     mpirr_ev_times_fn times, void *times_arg, const uint8_t **sizes,
                     const uint8_t *sizes_end, mpirr_event *e, mpirr_ev_scratch *s,
                     const char **why);
void mpirr_ev_scratch_free(mpirr_ev_scratch *s);

#endif
