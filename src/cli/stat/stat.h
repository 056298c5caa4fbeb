/* stat.h: the figures `mpirr stat` reports about a recording, gathered once by stat_collect
 * (stat_collect.h) and printed either as text (stat_text.c) or as JSON (stat_json.c)
 * (stat_print.h). This header holds the figures only. */
#ifndef MPIRR_CLI_STAT_H
#define MPIRR_CLI_STAT_H

#include <stddef.h>
#include <stdint.h>

#include "call_ids.h"
#include "rank_log.h"
#include "record.h"
#include "recording.h"

/* One thread's sync log (sync-RRRRR-TTTT.log): its synchronizations, of which only the
 * unexpected outcomes are records (src/runtime/threads/README.md). */
struct thread_stat {
    int thread;
    uint64_t syncs;         /* the progress word: the thread's synchronizations */
    uint64_t records;       /* sync records: outcomes that were not the predicted one */
    uint64_t log_bytes;     /* compressed .log plus the tail's staged bytes */
    int ending, detail;     /* enum mpirr_log_ending */
    int damaged;            /* the log could not be read to its end (reported) */
};

struct rank_stat {
    int rank;
    int readable;           /* the log could be opened */
    int missing;            /* there is no log: the rank never made it (died in MPI_Init, a
                             * full disk) or it was removed */
    int logs;               /* logs opened: 1 if readable; in the total, the readable ranks */
    char error[600];        /* why reading stopped early; "" if the log read to its end */
    uint64_t events;        /* END's total, else the highest event number seen */
    int events_exact;       /* events came from the END record */
    uint64_t records;       /* nondeterministic outcomes (see stat_is_outcome) */
    uint64_t stored;        /* every record in the log, checks and END included */
    uint64_t by_kind[MPIRR_REC_KIND_LIMIT];
    uint64_t by_call[MPIRR_CALL_ID_LIMIT]; /* outcomes by the call they belong to */
    uint64_t unreplayed[MPIRR_CALL_ID_LIMIT]; /* calls whose outcomes are not replayed, by id
                                                 (the tail's counts, mpi_unreplayed.h) */
    int any_unreplayed;
    uint64_t log_bytes, raw_bytes;
    int ending, detail;     /* enum mpirr_log_ending */
    /* The runtime's counters from the tail (enum mpirr_counter); the total sums them, except
     * MPIRR_CTR_PENDING_PEAK, the highest of the ranks'. */
    uint64_t counters[MPIRR_CTR_LIMIT];
    uint64_t entries_logged;    /* receive outcomes logged: MATCH + RECV_DONE records */
    uint64_t pending_recovered; /* races mode: undecided outcomes recovered after a death
                                   (included in entries_logged, as RECV_DONE records) */
    struct thread_stat *threads; /* its sync logs by thread number (stat_threads.c) */
    int nthreads;
};

/* The event history (record --events), all ranks. */
struct events_stat {
    int present;            /* rank 0 has one */
    uint64_t events;        /* call records */
    uint64_t raw_bytes;     /* the decompressed record streams */
    uint64_t stored_bytes;  /* the rank-N.events files as stored (headers included) */
    uint64_t tail_bytes;    /* records a dead rank left uncompressed in its tail */
    int cut_off;            /* ranks whose history has no clean end */
    int damaged;            /* ranks whose history is missing or damaged */
};

struct races_report;
struct json;

struct rec_stats {
    struct recording rec;
    char mpi_library[128];  /* from rank 0's header */
    uint32_t wtime_unit_ns; /* from rank 0's header: MPI_Wtime's recorded resolution (1: exact) */
    int nranks;
    struct rank_stat *ranks;
    struct rank_stat total; /* sums; events_exact if every rank's was */
    int damaged;            /* ranks whose log was missing, unreadable or damaged */
    /* The mode whose counters the runtime kept: rank 0's log header says it (a races-mode
     * recording of a MPI_THREAD_MULTIPLE program ran in sources mode), else the manifest. */
    const char *counted_mode;
    int sync_logs;          /* sync logs in the recording (0: no per-thread figures) */
    struct thread_stat sync_total;
    struct events_stat ev;
    struct races_report *races; /* the race analyses of the event history, if any */
};

#endif
