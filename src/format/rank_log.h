/* rank_log.h: the per-rank recording file (rank-NNNNN.log + rank-NNNNN.tail), writer and reader.
 *
 * The writer stages encoded records in a small file mapped into memory (the tail), so every
 * record survives the process dying at any instant (even SIGKILL: the pages belong to the page
 * cache, not the process). When the tail fills, its records are compressed with zstd into one
 * frame appended to the .log file. Memory is bounded by the tail size. See docs/format.md. */
#ifndef MPIRR_RANK_LOG_H
#define MPIRR_RANK_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "guard_word.h"
#include "record.h"
#include "run_id.h"

/* 2: the header carries the run id (run_id.h); version 1 logs (no id) are still read. */
#define MPIRR_LOG_VERSION 2
#define MPIRR_LOG_FLAG_WTIME 1u /* MPI_Wtime values were recorded */
#define MPIRR_LOG_FLAG_RACES 2u /* races mode: only racing wildcard receives are logged, all as
                                   deferred RECV_DONE records (docs/races.md) */
#define MPIRR_LOG_FLAG_ALL 4u   /* all mode: the source of every received message is logged */
/* Bits 3-6: the values of that libc group were recorded (libc_sources.h: time, random, pid,
 * host; docs/runtime.md, "Nondeterminism outside MPI"). */
#define MPIRR_LOG_FLAG_LIBC(group) (8u << (group))
/* Bit 7: MPI_THREAD_MULTIPLE: threads enter MPI in the order their sync logs hold, and an
 * MPI record may follow records of later events (written when its call returned), so readers
 * find each event's record by its key, not by its place. */
#define MPIRR_LOG_FLAG_THREADED 128u
/* Bit 8: MPI_Wtime values are coded as nanosecond deltas (record_codec.c); every writer sets
 * it, a log without it (older) has them as deltas of the double's bits. */
#define MPIRR_LOG_FLAG_WTIME_NS 256u
/* Bit 9: with bit 8, each nanosecond step is coded as its bit length and the bits below its
 * leading one, and a frame keeps those bits in one column after its records (record_codec.h);
 * every writer sets it. */
#define MPIRR_LOG_FLAG_WTIME_SPLIT 512u
/* Bit 10: MPI_Wtime was recorded at a resolution of wtime_unit_ns (`record --wtime-resolution`):
 * the program saw whole multiples of it, and with bits 8 and 9 the steps are coded in that
 * unit (record_codec.c). */
#define MPIRR_LOG_FLAG_WTIME_UNIT 1024u
#define MPIRR_WTIME_UNIT_MAX 1000000000u /* a second */
/* Bit 11: with MPIRR_LOG_FLAG_RACES, the races were found with the bounded clock (`record
 * --clock bounded`, docs/races.md): it may log more receives than the exact vector clock,
 * never fewer than a replay needs. Replay reads such a log as any races log; an mpirr older
 * than the flag refuses it ("unknown header flags"). */
#define MPIRR_LOG_FLAG_CLOCK_BOUNDED 2048u
/* Every flag up to the newest: a reader refuses a log with any other. */
#define MPIRR_LOG_FLAGS_KNOWN (2 * MPIRR_LOG_FLAG_CLOCK_BOUNDED - 1)
#define MPIRR_LOG_HEADER_BYTES 768 /* fixed file header at the start of every rank log */

typedef struct mpirr_log_header {
    uint32_t version;
    uint32_t flags;            /* MPIRR_LOG_FLAG_* */
    int32_t rank, nranks;
    int32_t pid;
    uint64_t exe_fingerprint;  /* fingerprint.h */
    uint64_t start_time_ns;    /* CLOCK_REALTIME at MPI_Init */
    char exe_path[512];
    char host[64];
    char mpi_library[128];     /* first line of MPI_Get_library_version (version 2 keeps
                                  111 bytes of it, version 1 127) */
    uint32_t wtime_unit_ns;    /* MPIRR_LOG_FLAG_WTIME_UNIT: 2..MPIRR_WTIME_UNIT_MAX; else 0 or
                                  1 (nanoseconds: the writer sets the flag for more) */
    mpirr_run_id run_id;       /* the recording's (version 2; none in version 1) */
} mpirr_log_header;

/* How a recording ended; kept in the tail so that it survives a crash. */
enum mpirr_log_ending {
    MPIRR_END_CUT = 0,       /* no ending was written: killed (SIGKILL), or still running */
    MPIRR_END_FINALIZED = 1, /* MPI_Finalize */
    MPIRR_END_SIGNAL = 2,    /* fatal signal, detail = signal number */
    MPIRR_END_ABORT = 3,     /* MPI_Abort, detail = error code */
    MPIRR_END_EXIT = 4,      /* exit() without MPI_Finalize, detail = exit status */
    MPIRR_END_INCOMPLETE = 5,/* recording stopped early (e.g. disk full), detail = errno; the
                                program ran on unrecorded */
};
const char *mpirr_log_ending_name(int ending);

/* Counters the runtime keeps in the mapped tail, so they are current even after a crash.
 * Append only: the index is part of the format. */
enum mpirr_counter {
    MPIRR_CTR_MSGS_SENT = 0,     /* point-to-point messages sent (MPI_PROC_NULL excluded) */
    MPIRR_CTR_MSGS_RECEIVED,     /* point-to-point messages received */
    MPIRR_CTR_WILD_RECEIVES,     /* completed receives posted with MPI_ANY_SOURCE */
    MPIRR_CTR_RACING_RECEIVES,   /* races mode: wildcard receives logged because they raced */
    MPIRR_CTR_FALLBACK_LOGGED,   /* races mode: logged without a race being seen (memory bound,
                                    messages never received by the end of the run) */
    MPIRR_CTR_PIGGYBACK_BYTES,   /* races mode: bytes of timestamp headers sent */
    MPIRR_CTR_PIGGYBACK_MSGS,    /* races mode: timestamp headers sent */
    MPIRR_CTR_PENDING_PEAK,      /* races mode: most wildcard receives awaiting a verdict */
    MPIRR_CTR_CLOCK_MERGES,      /* races mode: collectives whose timestamps were merged */
    MPIRR_CTR_SHORT_MSGS,        /* races mode: messages sent with no header (the short form) */
    /* the application's calls of each libc group (enum mpirr_libc_group, in its order) that
     * were not recorded (its switch off), and, as bits, their sources (libc_sources.def) */
    MPIRR_CTR_LIBC_UNRECORDED,   /* + group */
    MPIRR_CTR_LIBC_UNRECORDED_SOURCES = MPIRR_CTR_LIBC_UNRECORDED + 4,
    MPIRR_CTR_LIMIT
};
const char *mpirr_counter_name(unsigned which);

/* File names inside a recording directory; buf receives "<dir>/rank-00003.log". */
void mpirr_log_path(char *buf, size_t n, const char *dir, int rank, const char *suffix);
/* A thread's sync log (threads of a rank, by creation order; 0 is the thread that called
 * MPI_Init): buf receives "<dir>/sync-00003-0002.log" (suffix "log") or its ".tail". */
void mpirr_sync_log_path(char *buf, size_t n, const char *dir, int rank, int thread,
                         const char *suffix);

/* ---- writer (not thread-safe: the runtime serialises calls) ---- */
typedef struct mpirr_log_writer mpirr_log_writer;

/* Creates <dir>/rank-NNNNN.log and .tail. stage_bytes bounds the staged (uncompressed) data
 * per frame; 0 picks the default (64 KiB). NULL on error, message in err. */
mpirr_log_writer *mpirr_log_writer_open(const char *dir, const mpirr_log_header *h,
                                        size_t stage_bytes, char *err, size_t errlen);
/* The same for the log at log_path (…/NAME.log; its tail is …/NAME.tail): a sync log. */
mpirr_log_writer *mpirr_log_writer_open_at(const char *log_path, const mpirr_log_header *h,
                                           size_t stage_bytes, char *err, size_t errlen);
/* 0 on success, -1 on I/O error (message via mpirr_log_writer_error). */
int mpirr_log_append(mpirr_log_writer *w, const mpirr_record *r);
/* Compresses the staged records into a frame. */
int mpirr_log_flush(mpirr_log_writer *w);
/* Async-signal-safe: notes how the run is ending (stored in the mapped tail). */
void mpirr_log_set_ending(mpirr_log_writer *w, int ending, int detail);
/* The rank's progress word in the mapped tail, stored by the runtime at the start and the end
 * of every call (one store each, so a recording cut short by SIGKILL still says exactly where
 * the rank was): mpirr_progress_word(event, inside the call). */
uint64_t *mpirr_log_progress(mpirr_log_writer *w);
static inline uint64_t mpirr_progress_word(uint64_t event, int in_call)
{
    return mpirr_guard_encode(event << 1 | (in_call != 0));
}
/* Notes whether rank-N.pending exists (races mode), so readers know a missing one is damage. */
void mpirr_log_note_pending(mpirr_log_writer *w, int present);
/* The MPIRR_CTR_LIMIT counters, in the mapped tail (update them in place). */
uint64_t *mpirr_log_counters(mpirr_log_writer *w);
/* The MPIRR_CALL_COUNT_SLOTS slots of the mapped tail (update them with mpirr_call_count_add):
 * the runtime counts the calls whose outcomes it does not replay (mpirr_call_unreplayed). */
uint64_t *mpirr_log_call_counts(mpirr_log_writer *w);
/* Flushes, writes the ending, releases everything. w is freed even on error. */
int mpirr_log_close(mpirr_log_writer *w);
const char *mpirr_log_writer_error(const mpirr_log_writer *w);
/* Bytes written so far to the .log file (compressed frames) and staged in the tail. */
uint64_t mpirr_log_writer_bytes(const mpirr_log_writer *w);

/* ---- reader ---- */
typedef struct mpirr_log_reader mpirr_log_reader;

/* Opens <path> (a .log file; its .tail beside it is read after the frames). NULL on error,
 * also when the log, its tail or its pending file belongs to another recording
 * (mpirr_run_id_check: the expected run id, else the log's own for its tail and pending). */
mpirr_log_reader *mpirr_log_reader_open(const char *path, char *err, size_t errlen);
const mpirr_log_header *mpirr_log_reader_header(const mpirr_log_reader *r);
/* 1: *out filled; 0: end of the recording; -1: damaged input, see mpirr_log_reader_error().
 * Everything before the damage has been returned. */
int mpirr_log_read(mpirr_log_reader *r, mpirr_record *out);
const char *mpirr_log_reader_error(const mpirr_log_reader *r);
/* Valid after mpirr_log_read returned 0 or -1. */
int mpirr_log_reader_ending(const mpirr_log_reader *r, int *detail);
/* Events the rank had begun (its progress, exact: 0 if unknown). */
uint64_t mpirr_log_reader_events(const mpirr_log_reader *r);
/* Whether the rank was inside that last event's call when its recording ended (it died in
 * the call) or had returned from it (it died in its own code after it). */
int mpirr_log_reader_in_call(const mpirr_log_reader *r);
/* Where a replay must hold this rank: the first event the recorded run did not finish, when
 * the run did not end by itself (killed, externally signalled, recording stopped early);
 * 0 when the program's own course ends it (finalized, crash, abort, exit). Valid after open. */
uint64_t mpirr_log_reader_hold_event(const mpirr_log_reader *r);
/* Whether an ending came from outside the program (a signal sent to it, or the recording
 * stopping), so that a replay must stop it rather than wait for the program to do it. */
int mpirr_ending_is_external(int ending, int detail);
/* Compressed bytes of .log plus raw bytes of the tail; number of frames. */
uint64_t mpirr_log_reader_bytes(const mpirr_log_reader *r);
uint64_t mpirr_log_reader_raw_bytes(const mpirr_log_reader *r); /* before compression */
/* A counter from the tail (0 if the tail is missing or older than the counter). */
uint64_t mpirr_log_reader_counter(const mpirr_log_reader *r, unsigned which);
/* The calls of one id the rank made (mpirr_log_call_counts; 0 if the tail is missing or older
 * than version 4; version 4 read by id, version 5 by slot). */
uint64_t mpirr_log_reader_call_count(const mpirr_log_reader *r, unsigned id);
/* Verdicts still pending when the rank died (rank-N.pending, pending_slots.h), returned as
 * extra RECV_DONE records after the log's own. */
uint64_t mpirr_log_reader_pending(const mpirr_log_reader *r);
void mpirr_log_reader_close(mpirr_log_reader *r);

#endif
