/* event_stream.h: what the event history's two halves share (event_history.c: the life cycle,
 * call sites and the call records; event_ids.c: the numbers for communicators and requests):
 * the call record a wrapper fills, and the open history file that finished records and
 * definitions are appended to (event_stream.c). Neither half calls into the other through
 * here, so the arrows run history -> ids -> stream only. */
#ifndef MPIRR_EVENT_STREAM_H
#define MPIRR_EVENT_STREAM_H

#include <mpi.h>
#include <stdint.h>

#include "event_trace.h"

#define MPIRR_EV_SMALL 8

/* One call's record while its wrapper fills it (event_shapes.h). */
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

/* The history is open: wrappers fill records (one load and branch per call when off). */
extern int mpirr_ev_on;

/* Opens the rank's history in dir with p (a warning and 0 if it cannot); the caller turns
 * mpirr_ev_on on once its clock runs. */
int mpirr_ev_stream_open(const char *dir, const mpirr_ev_params *p);
/* Turns it off and closes the file (clean: an END record first); 0 if all went well. */
int mpirr_ev_stream_close(int clean);
/* Appends one record; the caller holds the runtime lock. A write error stops the history
 * there (a warning), the program goes on. */
void mpirr_ev_append_locked(mpirr_event *e);
/* Compresses what is staged into the file (mpirr_flush, MPI_Abort); 0 if all went well. */
int mpirr_ev_flush(void);

#endif
