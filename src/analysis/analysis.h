/* analysis.h: post-mortem analysis of a recording's event history (mpirr record --events):
 * the run model every analysis shares (communication operations of every rank, with world
 * ranks and run-wide communicator ids), message matching, happened-before by vector
 * timestamps, message races (Netzer & Miller's frontier races as they appear in a trace, and
 * Chu & Huang's reachable sets), the race graph and its optimal trace, and p2d2 frontiers.
 * docs/analysis.md describes the definitions; the CLI's races, frontier and stat use it. */
#ifndef MPIRR_ANALYSIS_H
#define MPIRR_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#define AN_ANY (-1)  /* ANY_SOURCE / ANY_TAG pattern */
#define AN_NONE (-2) /* PROC_NULL, or no match */
#define AN_NIL UINT32_MAX

/* What an operation is. */
enum an_kind {
    AN_SEND,    /* a message sent (blocking, nonblocking, persistent start, Sendrecv's send) */
    AN_RECV,    /* a receive that consumes a message (incl. Sendrecv, Mprobe/Improbe) */
    AN_PROBE,   /* Probe/Iprobe that saw a message (does not consume it) */
    AN_COLL,    /* a collective (blocking: post == done; nonblocking: done at completion) */
    AN_VOID,    /* a cancelled send or receive: no message */
};

/* How data flows through a collective, for happened-before. */
enum an_flow { AN_FLOW_ALL, AN_FLOW_ROOT_OUT, AN_FLOW_ROOT_IN, AN_FLOW_PREFIX, AN_FLOW_XPREFIX };

/* One communication operation of one rank. */
typedef struct an_op {
    uint64_t post;     /* event number of the call that posted it */
    uint64_t done;     /* event number of the call that completed it; 0: never */
    uint32_t comm;     /* run-wide communicator id (an_run.comms) */
    int32_t peer;      /* send: destination; recv/probe: source pattern (AN_ANY); world ranks */
    int32_t tag;       /* send: tag; recv/probe: tag pattern */
    int32_t msrc;      /* recv/probe: matched source (world rank), AN_NONE if none */
    int32_t mtag;      /* recv/probe: matched tag */
    uint32_t site;     /* call-site index of the posting call (rank's own numbering) */
    uint32_t lcomm;    /* the rank's own id of the communicator */
    union {
        uint32_t msg;  /* send/recv: the message (an_run.msgs), AN_NIL if unmatched; probe:
                        * the message it saw */
        uint32_t coll; /* collective: instance number on its communicator */
    };
    uint16_t call;     /* call id of the posting call */
    uint16_t done_call; /* call id of the completing call (0: none, or the posting call) */
    uint8_t kind;      /* enum an_kind */
    uint8_t flow;      /* collectives: enum an_flow; root in peer */
} an_op;

/* A matched message: send op and receive op (AN_NIL when the other side is missing). */
typedef struct an_msg {
    uint32_t sender, receiver; /* world ranks */
    uint32_t send_op, recv_op; /* indices into the ranks' ops */
    uint64_t hb_dest;          /* half-event (2e or 2e+1) of the receiver's last event that
                                * happened before the send; 0: none (happened_before.c) */
} an_msg;

typedef struct an_comm {
    uint32_t size, nremote; /* members; inter-communicators: local group then remote */
    int32_t *world;         /* world rank of each member */
} an_comm;

typedef struct an_module {
    char *path;
    uint64_t bias, lo, hi;
} an_module;

/* One one-sided access (Put, Get, an accumulate; rma_load.c): where it fell, from which
 * call, and until which call of its rank it may still be in flight. */
typedef struct an_access {
    uint64_t post;         /* event number of the access */
    uint64_t done;         /* the call that completed it at the target (fence, complete,
                            * unlock, flush, free); 0: never */
    uint64_t lo, hi;       /* bytes [lo, hi) of the target's part of the window */
    uint32_t win;          /* run-wide window: a communicator of its own (an_run.comms) */
    uint32_t site;
    int32_t target;        /* world rank */
    uint8_t kind, op, type; /* rma_fields.h */
    uint8_t excl;          /* made under an exclusive lock on its target */
} an_access;

typedef struct an_rank {
    an_op *ops;
    size_t nops, cap;
    uint64_t events;       /* last event number seen */
    int clean;             /* history ended with MPI_Finalize */
    uint64_t *site_addr;   /* return address of each call site */
    uint32_t nsites;
    an_module *mods;
    uint32_t nmods;
    uint32_t *comm_of;     /* this rank's communicator id -> run-wide id */
    an_comm *lcomm;        /* this rank's communicators as it defined them (its own view of
                            * an inter-communicator's local and remote groups) */
    uint32_t ncomm_of;
    char *damage;          /* the reader's message if the history is damaged */
    an_access *acc;        /* one-sided accesses, in event order (rma_load.c) */
    size_t nacc, capacc, acc_open; /* acc_open: the first that may still be in flight */
    uint32_t *win_of;      /* this rank's window id -> run-wide (AN_NIL: unknown) */
    uint32_t nwin_of;
    struct an_spill *spill; /* where ops live (spill.h; NULL: the heap) */
} an_rank;

typedef struct an_run {
    int nranks;
    an_rank *ranks;
    an_comm *comms;
    uint32_t ncomms;
    uint64_t *comm_keys;   /* each communicator's identity (comm_ids.c), the same whatever order
                            * the histories are read in: the parallel analysis merges by it */
    an_msg *msgs;
    uint32_t nmsgs;
    uint64_t events;       /* total call records read */
    char dir[4096];
    /* matching.c */
    uint32_t unmatched_sends, unmatched_recvs;
    /* happened_before.c: operations it could not place (a cut-off or inconsistent trace) */
    uint32_t hb_unresolved;
    /* the file the ops and msgs live in (spill.h; NULL: the heap), closed by an_free */
    struct an_spill *spill;
} an_run;

/* ---- loading (trace_load.c) ---- */
/* Reads every rank's event history in DIR. NULL with a one-line message (naming the file,
 * rank and last good event) on failure. nranks <= 0: as rank 0's history says. A cut-off
 * or damaged history is not a failure: what it holds up to the damage is analysed, and
 * ranks[].damage says why it stops. */
an_run *an_load(const char *dir, int nranks, char *err, size_t errlen);
/* The same for ranks [lo, hi) only (the parallel analysis: each process reads its block); the
 * other ranks are left empty. Communicator ids are numbered as these ranks define them. */
an_run *an_load_ranks(const char *dir, int nranks, int lo, int hi, char *err, size_t errlen);
void an_free(an_run *run);
/* The world rank of rank's peer r on its communicator lc (its own id; the remote group of an
 * inter-communicator); AN_ANY passes through; AN_NONE for PROC_NULL or out of range. */
int32_t an_world_peer(const an_rank *rk, uint32_t lc, int32_t r);

/* A new operation of rk, zeroed, with no message or match (NULL: out of memory). */
an_op *an_new_op(an_rank *rk);

/* ---- one-sided conflicts (rma_races.c) ---- */
/* Two accesses to overlapping bytes of one window at one target, from different ranks, at
 * least one a write and not two compatible atomics, not ordered by happened-before (fence,
 * post/start/complete/wait and every message and collective) and not both under exclusive
 * locks (docs/races.md). One is kept per pair of call sites (by rank), with how many. */
typedef struct an_rma_conflict {
    int rank_a, rank_b;
    uint32_t acc_a, acc_b; /* indices into the ranks' acc */
    uint64_t count;
} an_rma_conflict;
typedef struct an_rma_conflicts {
    an_rma_conflict *list;
    size_t n;
    uint64_t total, accesses;
} an_rma_conflicts;
int an_rma_conflicts_find(an_run *run, an_rma_conflicts *out);
void an_rma_conflicts_free(an_rma_conflicts *c);

/* ---- matching (matching.c) ---- */
/* Pairs every send with its receive: per (communicator, sender, receiver, tag), the k-th
 * message sent with the k-th receive (in post order) that matched that sender and tag. */
int an_match(an_run *run);
/* 1 if a receive or probe pattern accepts a message (comm, source, tag). */
int an_accepts(const an_op *r, uint32_t comm, int32_t src, int32_t tag);

/* ---- happened-before (happened_before.c) ---- */
/* Callbacks of the vector-timestamp sweep; vc has nranks half-event entries (2e: event e's
 * sends, 2e+1: what e received). Any may be NULL. */
typedef struct an_hb_observer {
    void *arg;
    /* rank is about to process its steps at event (all earlier steps are done) */
    void (*before)(void *arg, int rank, uint64_t event, const uint64_t *vc);
    /* rank merged what it received or learnt at event */
    void (*merged)(void *arg, int rank, uint64_t event, const uint64_t *vc);
    /* rank has no steps left */
    void (*end)(void *arg, int rank, const uint64_t *vc);
} an_hb_observer;
/* Fills msgs[].hb_dest. Steps that can never be satisfied (a receive of a message never sent,
 * a collective a member never joined) are skipped and counted in hb_unresolved. */
int an_happened_before(an_run *run, const an_hb_observer *obs);
/* The sweep of one block of ranks [lo, hi) of a run (the parallel analysis, parallel_hb.c):
 * the ops hold the serial message numbers, run->msgs is not needed. What another block needs
 * goes out through the hooks (0, or -1: out of memory), what comes from the others in through
 * an_hb_deliver_msg and an_hb_deliver_coll. Collective over the blocks: hb_unresolved counts
 * this block's steps. */
struct an_hb_sweep;
typedef struct an_hb_part {
    int lo, hi;
    void *arg;
    /* message msg's vector at its send, to receiver (not in the block) */
    int (*ship_msg)(void *arg, uint32_t msg, int receiver, const uint64_t *vc);
    /* member's contribution to collective o (its comm, coll, flow, peer), to every other block
     * with a member */
    int (*ship_coll)(void *arg, const an_op *o, int member, const uint64_t *vc);
    /* the send op of rank had hb_dest (an_msg.hb_dest) */
    void (*sent)(void *arg, int rank, uint32_t op, uint64_t hb_dest);
    /* every rank of the block waits or is done (failed: this block failed and only waits for
     * the others to know): 0 something was delivered, 1 every rank of the run is done, 2 every
     * rank of the run that is not done waits (each skips its step, as an_happened_before
     * does), -1 this block or another failed (agreed: every block returns -1). */
    int (*idle)(void *arg, struct an_hb_sweep *s, int failed);
} an_hb_part;
int an_happened_before_part(an_run *run, const an_hb_part *part);
/* What another block sent: message msg's vector for receiver (a rank of this block), member's
 * contribution to collective o (o->comm this block's id). 0; 1 not for this block; -1 out of
 * memory. */
int an_hb_deliver_msg(struct an_hb_sweep *s, uint32_t msg, int receiver, const uint64_t *vc);
int an_hb_deliver_coll(struct an_hb_sweep *s, const an_op *o, int member, const uint64_t *vc);
/* How many ranks of the block have steps left. */
int an_hb_waiting(const struct an_hb_sweep *s);
/* Does the send of message m know the receiver's event e completed (e happened before it)? */
static inline int an_after(const an_msg *m, uint64_t e) { return m->hb_dest >= 2 * e + 1; }

/* ---- races (races.c, chu_huang.c) ---- */
typedef struct an_race {
    int rank;
    uint32_t op;        /* the racing receive (index into ranks[rank].ops) */
    uint32_t first;     /* Chu & Huang: where its reach set starts in its rank's index
                         * (an_ch_reach); races: 0 */
    uint32_t n;         /* how many it has */
    uint32_t kept;      /* how many are listed (Chu & Huang list at most AN_CH_KEEP) */
} an_race;

/* Chu & Huang's reach sets can hold every message of a level: each receive lists this many. */
#define AN_CH_KEEP 256

struct an_cand_index;

typedef struct an_races {
    an_race *races;       /* racing receives, by rank then post order */
    size_t nraces;
    /* racing wildcard-source probes (MPI_Probe, successful MPI_Iprobe), the same way: each
     * could have seen any of its candidates (the first is the one it saw). Kept apart: a probe
     * consumes nothing, so it is no star of the race graph and no racing receive */
    an_race *probes;
    size_t nprobes;
    uint64_t wildcard_probes;
    size_t ncand;         /* how many candidates in all */
    uint32_t *list;       /* one racing receive's candidates, as an_race_list left them */
    struct an_cand_index *index; /* finds them again (cand_index.h) */
    uint64_t on_the_fly;  /* messages Netzer & Miller's Figure 3 algorithm would trace */
    uint64_t wildcard_recvs;
    /* Chu & Huang: the verdicts and counts; the reach lists are not kept (a level can hold
     * every message of the rank), an_ch_reach lists them again */
    an_race *ch;          /* receives with >= 2 acceptable messages in reach(task) */
    size_t nch;
    uint64_t ch_tasks, ch_control_points;
} an_races;

/* The racing receives, their candidates counted, not kept (the race graph and an_race_list
 * find them again, a few binary searches each): what a large history can afford. Each racing
 * receive and its candidates is a star of the race graph. Also the racing probes (probes). */
int an_find_races(const an_run *run, an_races *out);
/* Racing receive x's candidates (x->n of them, the message it got first), found again into
 * r's own list (sized for the largest), valid until the next call; x is one of r->races or
 * r->probes (a probe's first: the message it saw). */
const uint32_t *an_race_list(const an_races *r, const an_race *x);
int an_chu_huang(const an_run *run, an_races *out);
void an_races_free(an_races *r);

/* The listed part of Chu & Huang's reach set of r (one of an_races.ch): r->kept messages into
 * list. ix caches one rank's index (zeroed at first; an_reach_index_free at the end): asked in
 * rank order, each rank's index is built once. -1: out of memory. */
typedef struct an_reach_index {
    int rank;
    void *index;
} an_reach_index;
int an_ch_reach(const an_run *run, const an_race *r, an_reach_index *ix, uint32_t *list);
void an_reach_index_free(an_reach_index *ix);

/* ---- optimal trace (race_graph.c) ---- */
typedef struct an_cover {
    uint64_t vertices;        /* messages in at least one race */
    uint64_t edges;           /* distinct pairs of racing messages */
    uint64_t matching;        /* a maximal matching: lower bound on the minimum cover */
    int64_t min_cover;        /* exact minimum vertex cover, -1 if too large to compute */
    uint64_t components, exact_components;
} an_cover;
/* Covers the race graph of r (messages are vertices, each racing receive joins its message to
 * each other candidate), without building it: neighbours are found again from the candidate
 * index. -1: out of memory. */
int an_optimal_trace(const an_run *run, const an_races *r, an_cover *out);

/* ---- frontiers (frontier.c) ---- */
/* Past frontier (last event of each rank that happened before the point) and future frontier
 * (first event of each rank the point happened before) of the point just before or just
 * after event `event` of `rank`; 0 means none. past and future hold nranks entries. */
int an_frontier(an_run *run, int rank, uint64_t event, int after, uint64_t *past,
                uint64_t *future, char *err, size_t errlen);

/* ---- distance to an event (near.c) ---- */
/* 0 if rank is one of the run's and its history holds event (1 ..); else -1 and one line in
 * err naming the recording. */
int an_point_check(const an_run *run, int rank, uint64_t event, char *err, size_t errlen);
/* Orders racing receives races[0 .. n) (rank, post order, as an_find_races lists them) by
 * happened-before distance to event `event` of rank `rank` (docs/analysis.md): a receive is
 * before the event when the first event of that rank knowing its outcome (its completing
 * event on its own rank, else the first event whose merged vector holds that completion) is
 * at most `event`, and its distance is `event` minus that first event. distance[i] receives
 * receive i's (-1: not before); order the indices, the receives before the event first,
 * nearest first, the others after them, each group in rank, post order; nbefore how many
 * are before. One vector-timestamp sweep; the event need not be in the history (a crash).
 * -1: out of memory. */
int an_near(an_run *run, const an_race *races, size_t n, int rank, uint64_t event, size_t *order,
            int64_t *distance, size_t *nbefore);

#endif
