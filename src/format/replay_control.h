/* replay_control.h: the replay control file (MPIRR_CONTROL, named replay-control in mpirr's
 * private directory, never in the recording), through which mpirr steers the ranks of a replay
 * and learns where they are. The CLI creates it before every replay with one slot per rank;
 * each rank maps it shared at MPI_Init. In its slot the CLI writes the
 * position the rank must stop at (its part of a stopline); the rank writes its progress at
 * every call, and when it stops or ends: where, in which call, its call site, how it ended;
 * and it counts the application's libc calls its recording did not hold (verdict.c names them).
 *
 * Positions count half-events: 2E is just before event E (the call not made yet), 2E+1 just
 * after event E returned. A rank holds once its position reaches its slot's stop, and goes on
 * when the CLI raises stop past it. Slots are a cache line apart multiple, so ranks never
 * share one; the runtime reads its own stop word at every call (one load).
 *
 * The mapping is shared memory: it steers ranks on the host that runs mpirr (or on hosts that
 * share its page cache); docs/cli/replay.md says what happens elsewhere. */
#ifndef MPIRR_REPLAY_CONTROL_H
#define MPIRR_REPLAY_CONTROL_H

#include <stddef.h>
#include <stdint.h>

#include "guard_word.h"
#include "libc_sources.h"

#define MPIRR_CTL_NAME "replay-control"
#define MPIRR_CTL_MAGIC 0x314c54435252504dull /* "MPRRCTL1" */
#define MPIRR_CTL_VERSION 2
#define MPIRR_CTL_SLOT_SIZE 576
#define MPIRR_CTL_HEADER_SIZE 128
#define MPIRR_POS_NONE UINT64_MAX /* stop: never; run to the end */
/* The exit status of a replay that diverged (EX_SOFTWARE): the diverging rank aborts the job
 * with it, and the CLI returns it whatever the launcher's own exit status. */
#define MPIRR_DIVERGENCE_EXIT 70

static inline uint64_t mpirr_pos_before(uint64_t event) { return event << 1; }
static inline uint64_t mpirr_pos_after(uint64_t event) { return event << 1 | 1; }
static inline uint64_t mpirr_pos_event(uint64_t pos) { return pos >> 1; }
static inline int mpirr_pos_is_after(uint64_t pos) { return (int)(pos & 1); }
/* The position a progress word (rank_log.h) says: inside call E is past 2E (it began, did not
 * return), after it is 2E+1; *event and *in_call receive its parts. 0 (no position a word can
 * say) with event 0 for a damaged word. */
static inline uint64_t mpirr_pos_of_progress(uint64_t word, uint64_t *event, int *in_call)
{
    uint64_t v = 0;
    int damaged = mpirr_guard_decode(word, &v) != 0;
    *event = damaged ? 0 : v >> 1;
    *in_call = !damaged && (v & 1);
    if (damaged) return 0;
    return *in_call ? mpirr_pos_before(*event) : mpirr_pos_after(*event);
}

/* What a rank is doing (mpirr_ctl_slot.state), as the rank says. */
enum mpirr_ctl_state {
    MPIRR_CTL_NOT_STARTED = 0, /* has not reached MPI_Init's end yet */
    MPIRR_CTL_RUNNING,
    MPIRR_CTL_HELD,            /* at held_pos, waiting for stop to move past it */
    MPIRR_CTL_HELD_SIGNAL,     /* got fatal signal `signal` (--hold-on-signal): held there */
    MPIRR_CTL_FINISHED,        /* entered MPI_Finalize */
    MPIRR_CTL_CRASHED,         /* a fatal signal (`signal`) is ending it */
    MPIRR_CTL_ABORTED,         /* called MPI_Abort (`signal` holds the error code) */
    MPIRR_CTL_DIVERGED,        /* the runtime reported divergence or a fatal error */
    MPIRR_CTL_EXITED,          /* exit() without MPI_Finalize */
    MPIRR_CTL_END_OF_RECORDING,/* held where its recording ends (the recorded run was stopped
                                  from outside there: killed, signalled, disk full) */
    MPIRR_CTL_ABORTING,        /* called MPI_Abort (`signal`: the error code) and waits, before
                                  the MPI library ends the job, for the ranks whose recorded
                                  run ended by itself to end so again (ends_itself) */
};

/* Header flags (set by the CLI). */
enum {
    MPIRR_CTL_HOLD_ON_SIGNAL = 1, /* a fatal signal holds the rank instead of ending it */
};

typedef struct mpirr_ctl_header {
    uint64_t magic;
    uint32_t version, nranks;
    uint32_t slot_size, flags;
    int32_t cli_pid;         /* held ranks give up when this process is gone */
    uint32_t reserved0;
    uint64_t generation;     /* bumped by the CLI at every new stopline */
    char cli_host[64];       /* cli_pid's host: a rank on another host cannot look at it */
    uint8_t reserved[MPIRR_CTL_HEADER_SIZE - 104];
} mpirr_ctl_header;

typedef struct mpirr_ctl_slot {
    /* written by the CLI */
    uint64_t stop;      /* hold when the position reaches this (MPIRR_POS_NONE) */
    uint32_t ends_itself; /* 1: the recorded run of this rank ended by the program's own doing
                             (MPI_Finalize, MPI_Abort, exit(), its own fault or abort()): a
                             replayed MPI_Abort waits for it to end so (docs/cli/replay.md) */
    uint32_t reserved0;
    /* written by the rank */
    uint64_t progress;  /* mpirr_progress_word (rank_log.h) of its latest call */
    uint64_t held_pos;  /* the position it holds at (or died at, by progress) */
    uint64_t held_generation; /* the header's generation when it was held */
    uint32_t state;              /* enum mpirr_ctl_state */
    int32_t pid;
    uint32_t call;               /* call id of the event at held_pos */
    int32_t signal;              /* HELD_SIGNAL/CRASHED: the signal; ABORTED: the error code */
    uint64_t site_offset;        /* application call site: return address - load bias; 0 none */
    uint64_t fault_offset;       /* HELD_SIGNAL/CRASHED: faulting pc - load bias of fault_module */
    char host[64];
    char site_module[192];       /* the object holding site_offset (the application) */
    char fault_module[192];
    /* libc calls of the application whose group (enum mpirr_libc_group) the recording does
     * not hold, so the replay gave them live values: bit s of libc_sources for every source
     * (libc_sources.def) called, and the calls of each group. Counted while the rank runs. */
    uint64_t libc_sources;
    uint64_t libc_calls[MPIRR_LIBC_GROUP_COUNT];
} mpirr_ctl_slot;

_Static_assert(sizeof(mpirr_ctl_header) == MPIRR_CTL_HEADER_SIZE, "control header size");
_Static_assert(sizeof(mpirr_ctl_slot) <= MPIRR_CTL_SLOT_SIZE, "control slot size");

typedef struct mpirr_ctl {
    mpirr_ctl_header *h;
    size_t len;
} mpirr_ctl;

static inline mpirr_ctl_slot *mpirr_ctl_slot_of(const mpirr_ctl *c, int rank)
{
    return (mpirr_ctl_slot *)((char *)c->h + MPIRR_CTL_HEADER_SIZE +
                              (size_t)rank * MPIRR_CTL_SLOT_SIZE);
}

/* The CLI: creates path (new: mpirr_create_file) for nranks ranks, every stop MPIRR_POS_NONE.
 * 0, or -1 with a one-line message in err. */
int mpirr_ctl_create(mpirr_ctl *c, const char *path, int nranks, char *err, size_t errlen);
/* A rank: maps an existing control file made for nranks ranks. 0, or -1 with a one-line
 * message naming the file and what is wrong with it. */
int mpirr_ctl_open(mpirr_ctl *c, const char *path, int nranks, char *err, size_t errlen);
void mpirr_ctl_close(mpirr_ctl *c);
/* Name of a state, for messages ("held", "finished", ...). */
const char *mpirr_ctl_state_name(unsigned state);

#endif
