/* event_history.h: the runtime side of the event history (mpirr record --events): every
 * generated wrapper (wrappers.c) fills one mpirr_ev_call through the shape its row of
 * mpi_calls.def names (event_shapes.h) and emits it as one record. Off unless MPIRR_EVENTS=1;
 * then a wrapper costs one load and branch more. */
#ifndef MPIRR_EVENT_HISTORY_H
#define MPIRR_EVENT_HISTORY_H

#include <mpi.h>
#include <stdint.h>

#include "event_trace.h"

#define MPIRR_EV_SMALL 8

typedef struct mpirr_ev_call {
    mpirr_event e;
    const void *site;
    MPI_Status st;                        /* for a caller's MPI_STATUS_IGNORE */
    MPI_Status *sts, *user_sts;           /* for a caller's MPI_STATUSES_IGNORE */
    MPI_Status sts_small[MPIRR_EV_SMALL];
    MPI_Request *before;                  /* request handles as the call got them */
    MPI_Request before_small[MPIRR_EV_SMALL];
    int nbefore;
    MPI_Comm comm_before;                 /* MPI_Comm_free: the handle it got */
    mpirr_ev_item items_small[MPIRR_EV_SMALL];
    uint32_t items_cap;
} mpirr_ev_call;

extern int mpirr_ev_on;

/* init_finalize.c: opens the history once the rank is known (record mode, MPIRR_EVENTS=1).
 * init_t0 is when MPI_Init was entered: its record's begin. */
void mpirr_ev_start(uint64_t init_t0);
/* Writes the END record and closes (MPI_Finalize), or just compresses what is staged. */
void mpirr_ev_stop(int clean);
int mpirr_ev_flush(void);
uint64_t mpirr_ev_now(void);
/* event_clock.c: switches the clock to the time-stamp counter where it is invariant (the
 * history is opening). */
void mpirr_ev_clock_start(void);
/* The MPI_Init entry time, for the Init record, which begins before the history opens. */
extern uint64_t mpirr_ev_init_t0;

/* The calling thread's number (src/runtime/threads: 0 for the thread that called MPI_Init and
 * threads mpirr does not number): call records of other threads carry it. */
extern __thread uint32_t mpirr_tls_thread __attribute__((tls_model("initial-exec")));
/* A thread's synchronization (its sync_calls.def id, the object's number, the version it got,
 * its error code) as a record of its own, in the order the rank's threads made them. */
void mpirr_ev_sync(unsigned call, uint32_t object, uint32_t version, int rc);

/* ---- event_history.c: filling and emitting a call record ---- */
void mpirr_ev_begin(mpirr_ev_call *c, unsigned id, const void *site);
void mpirr_ev_emit(mpirr_ev_call *c, int rc);
void mpirr_ev_set_comm(mpirr_ev_call *c, MPI_Comm comm);
void mpirr_ev_set_peer(mpirr_ev_call *c, int peer, int tag);
void mpirr_ev_set_bytes(mpirr_ev_call *c, int count, MPI_Datatype type);
void mpirr_ev_set_root(mpirr_ev_call *c, int root);
void mpirr_ev_set_rpeer(mpirr_ev_call *c, int peer, int tag);
/* What a receive or probe matched, from its status. */
void mpirr_ev_set_match(mpirr_ev_call *c, const MPI_Status *st);
int32_t mpirr_ev_peer(int peer);
int32_t mpirr_ev_tag(int tag);

/* ---- event_ids.c: stable small numbers for communicators and requests ---- */
/* The id of comm, defining it (its members' world ranks) the first time it is seen. */
uint32_t mpirr_ev_comm_id(MPI_Comm comm);
/* A communicator made by call from parent: defined now, with its parentage. */
void mpirr_ev_comm_created(mpirr_ev_call *c, MPI_Comm parent, MPI_Comm made);
void mpirr_ev_comm_freed(MPI_Comm comm);
/* A request created by this call: its slot goes in the record. flags: MPIRR_EVI_RECV, and
 * persistent (kept through completions until MPI_Request_free). */
#define MPIRR_EV_PERSISTENT 0x100u
void mpirr_ev_req_created(mpirr_ev_call *c, MPI_Request req, unsigned flags);
/* Completion calls: remember the handles, substitute statuses the caller ignores. */
void mpirr_ev_snapshot(mpirr_ev_call *c, int n, const MPI_Request *reqs);
MPI_Status *mpirr_ev_statuses(mpirr_ev_call *c, int n, MPI_Status *user);
/* Request i of the snapshot completed with status st (NULL: no status). keep: the request
 * stays allocated (persistent, or MPI_Request_get_status). */
void mpirr_ev_completed(mpirr_ev_call *c, int i, const MPI_Status *st, int keep);
/* Waitall/Testall (every request of the snapshot) and Waitsome/Testsome (those at indices). */
void mpirr_ev_completed_all(mpirr_ev_call *c, int rc, const MPI_Status *sts);
void mpirr_ev_completed_some(mpirr_ev_call *c, int rc, int outcount, const int *indices,
                             const MPI_Status *sts);
/* Start/Startall: request i of the snapshot was started. */
void mpirr_ev_started(mpirr_ev_call *c, int i);
/* MPI_Request_free / MPI_Cancel: the slot the request has. */
void mpirr_ev_req_named(mpirr_ev_call *c, MPI_Request req);
void mpirr_ev_req_freed(MPI_Request req);
void mpirr_ev_ids_reset(void);

#endif
