/* event_history.h: the runtime side of the event history (mpirr record --events): every
 * generated wrapper (wrappers.c) fills one mpirr_ev_call through the shape its row of
 * mpi_calls.def names (event_shapes.h) and emits it as one record. Off unless MPIRR_EVENTS=1;
 * then a wrapper costs one load and branch more. The numbers of communicators and requests are
 * event_ids.h's, the open file and the record type event_stream.h's; this header brings both. */
#ifndef MPIRR_EVENT_HISTORY_H
#define MPIRR_EVENT_HISTORY_H

#include <stdint.h>

#include "event_ids.h"
#include "event_stream.h"

/* init_finalize.c: opens the history once the rank is known (record mode, MPIRR_EVENTS=1).
 * init_t0 is when MPI_Init was entered: its record's begin. */
void mpirr_ev_start(uint64_t init_t0);
/* Writes the END record and closes (MPI_Finalize), or just compresses what is staged. */
void mpirr_ev_stop(int clean);
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
void mpirr_ev_set_target(mpirr_ev_call *c, int rank);
void mpirr_ev_set_rpeer(mpirr_ev_call *c, int peer, int tag);
/* What a receive or probe matched, from its status. */
void mpirr_ev_set_match(mpirr_ev_call *c, const MPI_Status *st);

#endif
