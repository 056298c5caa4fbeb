/* init_finalize.c: the runtime's life cycle. Checks its settings (env_settings.c), opens the
 * rank log at MPI_Init,
 * checks a replay's preconditions (rank count, executable), and closes everything at
 * MPI_Finalize or MPI_Abort, leaving nothing allocated behind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "comm_registry.h"
#include "endings.h"
#include "env_settings.h"
#include "file_io.h"
#include "event_history.h"
#include "fingerprint.h"
#include "libc_runtime.h"
#include "piggyback.h"
#include "race_check.h"
#include "rank_pack.h"
#include "replay_cursor.h"
#include "call_count_slots.h"
#include "rma/rma.h"
#include "runtime.h"
#include "status_fields.h"
#include "settings.h"
#include "replay_control.h"
#include "special_calls.h"
#include "threads/sync_order.h"

/* Where the counters and the progress word go when no log holds them (not recording). */
static uint64_t unlogged_counters[MPIRR_CTR_LIMIT];
static uint64_t unlogged_call_counts[MPIRR_CALL_COUNT_SLOTS];
static uint64_t unlogged_progress;

/* The counters in w's tail, or (w NULL) in the arrays above. */
static void counters_in(mpirr_log_writer *w)
{
    mpirr_rt.counters = w ? mpirr_log_counters(w) : unlogged_counters;
    mpirr_rt.call_counts = w ? mpirr_log_call_counts(w) : unlogged_call_counts;
}

unsigned long long mpirr_current_event;

struct mpirr_runtime mpirr_rt = {
    .next_key = UINT64_MAX,
    .hash = 0xcbf29ce484222325ull,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .counters = unlogged_counters,
    .call_counts = unlogged_call_counts,
    .progress = &unlogged_progress,
};

void mpirr_log_header_fill(mpirr_log_header *h, uint32_t flags)
{
    memset(h, 0, sizeof *h);
    h->rank = mpirr_rt.rank;
    h->nranks = mpirr_rt.nranks;
    h->pid = (int32_t)getpid();
    h->flags = flags;
    h->run_id = mpirr_rt.run_id;
    h->wtime_unit_ns = (flags & MPIRR_LOG_FLAG_WTIME) ? mpirr_rt.wtime_unit : 1;
    ssize_t n = readlink("/proc/self/exe", h->exe_path, sizeof h->exe_path - 1);
    if (n > 0) h->exe_path[n] = 0;
    h->exe_fingerprint = mpirr_file_fingerprint("/proc/self/exe");
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    h->start_time_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    gethostname(h->host, sizeof h->host - 1);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (PMPI_Get_library_version(lib, &len) == MPI_SUCCESS) {
        lib[len < (int)sizeof lib ? len : (int)sizeof lib - 1] = 0;
        lib[strcspn(lib, "\n")] = 0;
        snprintf(h->mpi_library, sizeof h->mpi_library, "%s", lib);
    }
}

void mpirr_log_start(uint32_t flags)
{
    mpirr_log_header h;
    char err[512];
    mpirr_log_header_fill(&h, flags);
    mpirr_rt.writer = mpirr_log_writer_open(mpirr_rt.dir, &h, 0, err, sizeof err);
    /* Every rank makes its log before any leaves MPI_Init (one barrier, inside MPI_Init,
     * where no collective of the program's can be under way): a rank that calls MPI_Abort as
     * soon as MPI_Init returns would otherwise end the job while a slower rank is still
     * between PMPI_Init and its log's creation, leaving the recording without that rank
     * (every rank of MPICH's failing coll2 and gatherv aborts at once). With --events the
     * logs, which replay needs, also get a disk short of space before any event history. */
    PMPI_Barrier(MPI_COMM_WORLD);
    if (mpirr_rt.writer) {
        counters_in(mpirr_rt.writer);
        mpirr_rt.progress = mpirr_log_progress(mpirr_rt.writer);
        *mpirr_rt.progress = mpirr_progress_word(mpirr_current_event, 1); /* inside MPI_Init */
        mpirr_ev_start(mpirr_ev_init_t0);
    } else {
        mpirr_warn("rank %d: %s; this rank is not recorded", mpirr_rt.rank, err);
    }
    /* the event histories, likewise, all exist before any rank can abort */
    if (mpirr_setting_value(MPIRR_SET_EVENTS)) PMPI_Barrier(MPI_COMM_WORLD);
}

static void start_recording(void)
{
    /* Races mode's race check and timestamp headers assume one thread of MPI calls per rank
     * (their state is per rank, their order program order): a MPI_THREAD_MULTIPLE program is
     * recorded in sources mode, every wildcard receive logged. Every rank asked for the same
     * thread level, so every rank does the same and no rank waits for a header. */
    if (mpirr_rt.rec_mode == MPIRR_REC_RACES && mpirr_rt.threaded) {
        mpirr_rt.rec_mode = MPIRR_REC_SOURCES;
        if (mpirr_rt.rank == 0)
            mpirr_warn("races mode: the program runs MPI_THREAD_MULTIPLE, whose threads' receives "
                       "the race check cannot order: every wildcard receive is logged, as in "
                       "sources mode");
    }
    mpirr_log_start(mpirr_libc_record_flags() | (mpirr_rt.wtime ? MPIRR_LOG_FLAG_WTIME : 0) |
                    (mpirr_rt.threaded ? MPIRR_LOG_FLAG_THREADED : 0) |
                    (mpirr_rt.rec_mode == MPIRR_REC_RACES
                         ? MPIRR_LOG_FLAG_RACES | (mpirr_rt.bounded_clock ? MPIRR_LOG_FLAG_CLOCK_BOUNDED : 0)
                         : 0) |
                    (mpirr_rt.rec_mode == MPIRR_REC_ALL ? MPIRR_LOG_FLAG_ALL : 0));
    /* Races mode's peers send a rank that could not make its log timestamp headers and wait
     * for its own, and register communicators with it collectively: it keeps the protocol,
     * logging nothing (as after mpirr_recording_stopped), or the job would hang. */
    if (!mpirr_rt.writer && mpirr_rt.rec_mode != MPIRR_REC_RACES) return;
    mpirr_rt.active = 1;
    if (mpirr_rt.rec_mode == MPIRR_REC_RACES) {
        mpirr_rt.piggyback = 1;
        mpirr_piggyback_init();
        mpirr_race_init();
        mpirr_comm_register(MPI_COMM_WORLD, MPI_COMM_WORLD);
        mpirr_comm_register(MPI_COMM_SELF, MPI_COMM_SELF);
    }
}

static void start_replay(void)
{
    char err[512];
    mpirr_rt.cursor = mpirr_cursor_open(mpirr_rt.log_path, err, sizeof err);
    if (!mpirr_rt.cursor) {
        /* Past the recorded ranks, rank 0 tells the rank counts apart (below). */
        if (mpirr_file_present(mpirr_rt.log_path)) mpirr_fatal("replay: %s", err);
        const char *why = "replay: %s does not exist: rank %d was not in the recording (wrong "
                          "number of ranks?)";
        if (mpirr_rt.rank) mpirr_fatal_shared(why, mpirr_rt.log_path, mpirr_rt.rank);
        mpirr_fatal(why, mpirr_rt.log_path, mpirr_rt.rank);
    }
    const mpirr_log_header *h = mpirr_cursor_header(mpirr_rt.cursor);
    if (h->nranks != mpirr_rt.nranks)
        mpirr_fatal_shared("replay: %s was recorded with %d ranks, this run has %d",
                           mpirr_rt.log_path, h->nranks, mpirr_rt.nranks);
    if (h->rank != mpirr_rt.rank)
        mpirr_fatal("replay: %s belongs to rank %d, not rank %d", mpirr_rt.log_path, h->rank,
                    mpirr_rt.rank);
    uint64_t fp = mpirr_file_fingerprint("/proc/self/exe");
    if (h->exe_fingerprint && fp != h->exe_fingerprint && mpirr_setting_value(MPIRR_SET_EXE_CHECK))
        mpirr_fatal("replay: rank %d runs a different executable than the one recorded in %s "
                    "(%s; mpirr replay --no-exe-check runs it anyway)", mpirr_rt.rank, mpirr_rt.log_path,
                    h->exe_path);
    mpirr_rt.wtime = (h->flags & MPIRR_LOG_FLAG_WTIME) != 0;
    mpirr_rt.wtime_unit = h->wtime_unit_ns; /* a flip records the rest at the same resolution */
    mpirr_libc_replay_flags(h->flags);
    mpirr_rt.rec_mode = (h->flags & MPIRR_LOG_FLAG_RACES) ? MPIRR_REC_RACES
                        : (h->flags & MPIRR_LOG_FLAG_ALL) ? MPIRR_REC_ALL
                                                          : MPIRR_REC_SOURCES;
    if (mpirr_rt.rec_mode == MPIRR_REC_RACES) mpirr_cursor_preload(mpirr_rt.cursor, mpirr_rt.log_path);
    if (h->flags & MPIRR_LOG_FLAG_THREADED) mpirr_cursor_preload_threaded(mpirr_rt.cursor);
    mpirr_rt.hold_event = mpirr_cursor_hold_event(mpirr_rt.cursor);
    mpirr_control_start();
    mpirr_rt.active = 1;
    mpirr_cursor_start(mpirr_rt.cursor);
}

/* After the real MPI_Init: learn who we are and open this rank's log. */
static void start(void)
{
    mpirr_settings_verify();
    if (mpirr_rt.mode != MPIRR_MODE_RECORD && mpirr_rt.mode != MPIRR_MODE_REPLAY) return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &mpirr_rt.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &mpirr_rt.nranks);
    mpirr_status_fields_check();
    if (mpirr_rt.mode == MPIRR_MODE_RECORD) mpirr_local_start();
    mpirr_pack_cache_per_rank(1); /* a rank reads its own files of a packed recording */
    mpirr_log_path(mpirr_rt.log_path, sizeof mpirr_rt.log_path, mpirr_rt.dir, mpirr_rt.rank, "log");
    mpirr_rt.have_shadow = PMPI_Comm_dup(MPI_COMM_SELF, &mpirr_rt.shadow) == MPI_SUCCESS;
    if (mpirr_rt.mode == MPIRR_MODE_RECORD) start_recording();
    else start_replay();
    if (mpirr_rt.mode == MPIRR_MODE_REPLAY && mpirr_setting_text(MPIRR_SET_FLIP)) mpirr_flip_start();
    mpirr_sync_start(); /* this thread is thread 0 of the rank */
    /* a flipped replay is a recording: its endings go to its new log */
    if (mpirr_rt.mode == MPIRR_MODE_RECORD || mpirr_rt.writer) mpirr_crash_guard_install();
    else mpirr_replay_signals_install();
}

int mpirr_MPI_Init(int *argc, char ***argv)
{
    MPIRR_BEGIN(MPI_Init);
    mpirr_ev_init_t0 = mpirr_ev_now();
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) start();
    return rc;
}

int mpirr_MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    MPIRR_BEGIN(MPI_Init_thread);
    mpirr_ev_init_t0 = mpirr_ev_now();
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) {
        mpirr_rt.threaded = *provided == MPI_THREAD_MULTIPLE;
        start();
    }
    return rc;
}

void mpirr_requests_reset(void);

/* Ends recording/replay; ending says why. */
static void stop(int ending, int detail)
{
    if (!mpirr_rt.active) return;
    mpirr_sync_stop();
    mpirr_crash_guard_remove();
    if (mpirr_rt.piggyback) {
        /* MPI_Abort: the verdicts stay in the pending file. Headers in flight are not waited
         * for (their receivers may be gone) and the process ends, taking the rest. */
        mpirr_race_abandon();
        mpirr_rt.piggyback = 0;
    }
    if (ending == MPIRR_END_FINALIZED) {
        mpirr_control_ending(MPIRR_CTL_FINISHED, 0);
        mpirr_control_stop();
    }
    mpirr_rt.progress = &unlogged_progress;
    if (mpirr_rt.writer) {
        mpirr_log_set_ending(mpirr_rt.writer, ending, detail);
        if (mpirr_log_close(mpirr_rt.writer))
            mpirr_warn("rank %d: could not finish %s", mpirr_rt.rank, mpirr_rt.log_path);
        mpirr_rt.writer = NULL;
    }
    if (mpirr_rt.cursor) {
        mpirr_cursor_close(mpirr_rt.cursor);
        mpirr_rt.cursor = NULL;
    }
    mpirr_pack_cache_free(); /* what a packed recording's lookups kept */
    mpirr_rt.next_key = UINT64_MAX;
    mpirr_rt.hold_event = 0;
    mpirr_rt.active = 0;
    counters_in(NULL);
    mpirr_requests_reset();
}

void mpirr_recording_stopped(uint64_t event, int why)
{
    mpirr_log_writer *w = mpirr_rt.writer;
    if (!w) return;
    *mpirr_rt.progress = mpirr_progress_word(event, 1);
    mpirr_rt.progress = &unlogged_progress;
    counters_in(NULL);
    mpirr_log_set_ending(w, MPIRR_END_INCOMPLETE, why);
    if (mpirr_rt.piggyback) mpirr_race_keep_pending();
    mpirr_rt.writer = NULL;
    mpirr_log_close(w); /* keeps the staged records if they cannot be written out */
}

int mpirr_MPI_Finalize(void)
{
    MPIRR_BEGIN(MPI_Finalize);
    if (mpirr_rt.switch_event) { /* replay --flip: a cut that reaches MPI_Finalize */
        mpirr_lock();
        mpirr_flip_switch();
        mpirr_unlock();
    }
    if (mpirr_recording() && mpirr_rt.piggyback) {
        mpirr_bsend_room_finish();
        mpirr_race_finish();
        mpirr_piggyback_finish();
        mpirr_comms_reset();
        mpirr_rt.piggyback = 0;
    }
    if (mpirr_recording()) {
        mpirr_record end = {.kind = MPIRR_REC_END, .call = MPIRR_ID_MPI_Finalize,
                            .event = call_.event, .total = call_.event, .value = mpirr_rt.hash};
        mpirr_record_append(&end);
    } else if (mpirr_replaying()) {
        mpirr_record end;
        mpirr_replay_expect(&call_, MPIRR_REC_END, "the end of the run", &end);
        if (end.total != call_.event || end.value != mpirr_rt.hash)
            mpirr_diverged(call_.event, "the sequence of MPI calls differs from the recording "
                                        "(final hash mismatch)");
    }
    if (mpirr_rt.have_shadow) PMPI_Comm_free(&mpirr_rt.shadow);
    mpirr_rt.have_shadow = 0;
    stop(MPIRR_END_FINALIZED, 0);
    int rc = PMPI_Finalize();
    mpirr_rma_finish();
    return rc;
}

/* The process ends inside PMPI_Abort, so nothing is released: other threads may still be in
 * the runtime, and several may abort at once. The records are already safe in the mapped tail;
 * only the ending is noted (one store; in a replay, in the control slot), by the first thread
 * to get here, which alone calls PMPI_Abort, and the crash guard goes so that the launcher's
 * SIGTERM that follows is not taken for the ending. A replay first lets every rank whose
 * recorded run ended by itself (several ranks calling MPI_Abort at once, say) end so again,
 * rather than be killed by this abort first, as the launcher's timing decides when recording
 * (mpirr_replay_abort). */
int mpirr_MPI_Abort(MPI_Comm comm, int errorcode)
{
    static int aborting;
    MPIRR_BEGIN(MPI_Abort);
    if (__atomic_exchange_n(&aborting, 1, __ATOMIC_ACQ_REL))
        for (;;) pause(); /* Open MPI 4.1's MPI_Abort is not safe in two threads at once (its
                             help-text lexer segfaults); the first one ends the process */
    if (mpirr_rt.active) {
        mpirr_crash_guard_remove();
        if (mpirr_rt.writer) mpirr_log_set_ending(mpirr_rt.writer, MPIRR_END_ABORT, errorcode);
        mpirr_local_finish();
        if (mpirr_rt.mode == MPIRR_MODE_REPLAY)
            mpirr_replay_abort(errorcode);
    }
    return PMPI_Abort(comm, errorcode);
}
