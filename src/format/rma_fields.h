/* rma_fields.h: the vocabulary of a one-sided call's record (MPIRR_EVF_RMA, event_trace.h):
 * what the call does, the accumulate operation and basic type, the lock type, stored as these
 * implementation-independent numbers, and their names for the tools. */
#ifndef MPIRR_RMA_FIELDS_H
#define MPIRR_RMA_FIELDS_H

/* What a one-sided call does (mpirr_event.rma). The accesses come last: kind >=
 * MPIRR_RMA_PUT. A Win_test that found the epoch over is recorded as MPIRR_RMA_WAIT. */
enum mpirr_rma_kind {
    MPIRR_RMA_CREATE = 1, MPIRR_RMA_CREATE_DYNAMIC, MPIRR_RMA_ATTACH, MPIRR_RMA_DETACH,
    MPIRR_RMA_FREE, MPIRR_RMA_FENCE, MPIRR_RMA_POST, MPIRR_RMA_START, MPIRR_RMA_COMPLETE,
    MPIRR_RMA_WAIT, MPIRR_RMA_TEST, MPIRR_RMA_LOCK, MPIRR_RMA_UNLOCK, MPIRR_RMA_LOCK_ALL,
    MPIRR_RMA_UNLOCK_ALL, MPIRR_RMA_FLUSH, MPIRR_RMA_FLUSH_LOCAL, MPIRR_RMA_FLUSH_ALL,
    MPIRR_RMA_FLUSH_LOCAL_ALL, MPIRR_RMA_SYNC,
    MPIRR_RMA_PUT, MPIRR_RMA_GET, MPIRR_RMA_ACC, MPIRR_RMA_GET_ACC, MPIRR_RMA_FAO, MPIRR_RMA_CAS,
    MPIRR_RMA_KINDS
};

/* Accumulate operations (mpirr_event.rma_op); 0: none (put, get, CAS). */
enum mpirr_rma_op {
    MPIRR_RMA_OP_SUM = 1, MPIRR_RMA_OP_PROD, MPIRR_RMA_OP_MAX, MPIRR_RMA_OP_MIN,
    MPIRR_RMA_OP_LAND, MPIRR_RMA_OP_BAND, MPIRR_RMA_OP_LOR, MPIRR_RMA_OP_BOR, MPIRR_RMA_OP_LXOR,
    MPIRR_RMA_OP_BXOR, MPIRR_RMA_OP_MAXLOC, MPIRR_RMA_OP_MINLOC, MPIRR_RMA_OP_REPLACE,
    MPIRR_RMA_OP_NO_OP, MPIRR_RMA_OP_USER, MPIRR_RMA_OPS
};

/* Basic types of accumulates (mpirr_event.rma_type); 0: another or a derived one. */
enum mpirr_rma_type {
    MPIRR_RMA_TYPE_CHAR = 1, MPIRR_RMA_TYPE_SHORT, MPIRR_RMA_TYPE_INT, MPIRR_RMA_TYPE_LONG,
    MPIRR_RMA_TYPE_LONG_LONG, MPIRR_RMA_TYPE_UNSIGNED, MPIRR_RMA_TYPE_UNSIGNED_LONG,
    MPIRR_RMA_TYPE_UNSIGNED_LONG_LONG, MPIRR_RMA_TYPE_FLOAT, MPIRR_RMA_TYPE_DOUBLE,
    MPIRR_RMA_TYPE_INT32, MPIRR_RMA_TYPE_INT64, MPIRR_RMA_TYPE_UINT32, MPIRR_RMA_TYPE_UINT64,
    MPIRR_RMA_TYPE_BYTE, MPIRR_RMA_TYPES
};

enum mpirr_rma_lock { MPIRR_RMA_LOCK_EXCLUSIVE = 1, MPIRR_RMA_LOCK_SHARED = 2 };

/* Names for the tools ("put", "fence", "sum", "int", "exclusive"); NULL if out of range. */
const char *mpirr_rma_kind_name(unsigned kind);
const char *mpirr_rma_op_name(unsigned op);
const char *mpirr_rma_type_name(unsigned type);
const char *mpirr_rma_lock_name(unsigned lock);

static inline int mpirr_rma_is_access(unsigned kind)
{
    return kind >= MPIRR_RMA_PUT && kind < MPIRR_RMA_KINDS;
}

#endif
