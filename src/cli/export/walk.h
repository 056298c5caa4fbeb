/* walk.h: the one pass both export writers make over a recording: every call record of every
 * rank, in each rank's stream order, on one run-wide time line, with the communication
 * operations (an_op) the call posted and the earlier ones it completed. */
#ifndef MPIRR_CLI_EXPORT_WALK_H
#define MPIRR_CLI_EXPORT_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "analysis_load.h"
#include "event_trace.h"

/* Every slice is at least this long, and the next call of the rank starts no earlier than its
 * end: the history's clock ticks are coarse (32 µs by default), so many calls share one time;
 * laid end to end they stay visible and in order, and a flow's end point falls inside exactly
 * one of them. */
#define EXPORT_MIN_NS 10

struct export_call {
    int rank;
    const mpirr_event *e;     /* the call record */
    uint64_t begin_ns, end_ns; /* on the run's time line: ns since the earliest rank's MPI_Init */
    /* The exact duration lies in [dur_min_ns, dur_max_ns]. With exact times in the history
     * (MPIRR_EVENTS_EXACT) begin_ns and end_ns are them, to the tick, and the range is one
     * tick either side; else they are the log2-coded (rounded) ones and the range is what the
     * codes allow (docs/events.md, "Time"). */
    int exact;
    uint64_t dur_min_ns, dur_max_ns;
    uint32_t first_posted;    /* ops[first_posted .. + nposted) were posted by this call */
    uint32_t nposted;
    const uint32_t *done;     /* indices of ops posted earlier and completed by this call */
    uint32_t ndone;
};

struct export_sink {
    void *arg;
    /* each returns 0, or non-zero to stop the walk (that value is returned) */
    int (*rank_begin)(void *arg, int rank);
    int (*call)(void *arg, const struct export_call *c);
    int (*rank_end)(void *arg, int rank, uint64_t calls);
};

struct export_clock {
    uint64_t realtime_ns; /* CLOCK_REALTIME at the earliest rank's MPI_Init: the time line's 0 */
    uint64_t *offset_ns;  /* per rank: its tick 0 on the time line */
    unsigned *tick_shift; /* per rank */
    int rounded;          /* some rank's history has only the rounded (log2-coded) times */
};

/* Reads every rank's header: 0, or -1 out of memory. Ranks whose history cannot be opened get
 * offset 0. */
int export_clock_init(struct export_clock *c, const an_run *run);
void export_clock_free(struct export_clock *c);

/* Calls sink for every rank (rank_begin, each call, rank_end). A rank's walk stops where its
 * history does (the analysis reported damage when it loaded). 0, a sink's non-zero value, or
 * -1 out of memory. */
int export_walk(struct analysis *a, const struct export_clock *clk, const struct export_sink *s);

/* Is op a receive that ends at this call: completed here, or posted here and never completed
 * (a racing receive is flagged where it ended, or where it began if it never did). */
int export_recv_ends(const an_op *o, uint64_t event);

/* The racing receive (an_find_races) that op of the call's rank is, if it ends at this call:
 * completed here, or posted here and never completed. NULL otherwise. */
const an_race *export_race_at(const an_races *races, const an_run *run, const struct export_call *c,
                              uint32_t op);

/* One line saying what the exported times are (exact, or rounded and how), for a note in the
 * export's metadata. */
const char *export_time_note(const struct export_clock *clk);

#endif
