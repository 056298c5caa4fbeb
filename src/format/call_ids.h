/* call_ids.h: stable numeric ids and names of intercepted MPI calls, shared by the runtime and
 * the tools. Derived from the one table, src/format/mpi_calls.def; needs no <mpi.h>. */
#ifndef MPIRR_CALL_IDS_H
#define MPIRR_CALL_IDS_H

enum mpirr_call_id {
    MPIRR_CALL_NONE = 0,
#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) MPIRR_ID_##name = id,
#include "mpi_calls.def"
#undef MPIRR_CALL
    MPIRR_CALL_ID_LIMIT = 1024 /* ids 1..248 and 256..1023: the event history stores ids from
                                  256 as a reserved byte and a varint (event_trace.h) */
};

enum mpirr_call_category {
    MPIRR_CAT_INIT, MPIRR_CAT_SEND, MPIRR_CAT_RECV, MPIRR_CAT_PROBE, MPIRR_CAT_COMPLETE,
    MPIRR_CAT_COLL, MPIRR_CAT_ICOLL, MPIRR_CAT_COMM, MPIRR_CAT_GROUP, MPIRR_CAT_TYPE,
    MPIRR_CAT_TIME, MPIRR_CAT_OTHER, MPIRR_CAT_RMA, MPIRR_CAT_FILE, MPIRR_CAT_SPAWN,
    MPIRR_CAT_COUNT
};

/* The how column of the table (mpi_calls.def). */
enum mpirr_call_how { MPIRR_HOW_PASS, MPIRR_HOW_SPECIAL, MPIRR_HOW_UNREPLAYED };

/* "MPI_Recv", or NULL for an id not in the table. */
const char *mpirr_call_name(unsigned id);
/* Category of a call id; MPIRR_CAT_OTHER for unknown ids. */
enum mpirr_call_category mpirr_call_category(unsigned id);
/* Whether the call's outcome can differ between runs and is not replayed, always or in some uses
 * that the runtime counts (UNREPLAYED rows; the large-count point-to-point rows, whose calls
 * beyond INT_MAX elements are not replayed; the atomic operations in fence and PSCW epochs
 * whose order can change their outcome, src/runtime/rma/unordered_atomics.c). */
int mpirr_call_unreplayed(unsigned id);
/* For a large-count point-to-point call (MPI_Send_c), the id of its int call (MPI_Send), whose
 * path it takes when the count fits (its rank-log records carry that id); else id. */
unsigned mpirr_call_int_variant(unsigned id);
/* For an UNREPLAYED call, what of its outcome is not replayed ("the values fetched"), in the
 * order mpirr_unreplayed_outcome_at enumerates the phrases (0 ..
 * MPIRR_UNREPLAYED_OUTCOMES - 1); -1 for other calls. */
enum { MPIRR_UNREPLAYED_OUTCOMES = 8 };
int mpirr_call_unreplayed_outcome(unsigned id);
const char *mpirr_unreplayed_outcome_at(int i);
/* "send", "recv", ...: lower-case category names for reports. */
const char *mpirr_category_name(enum mpirr_call_category cat);
/* Number of rows in the table, and the i-th id (for tools that list coverage). */
unsigned mpirr_call_count(void);
unsigned mpirr_call_id_at(unsigned i);

#endif
