/* sync_calls.h: the thread synchronization calls a recording orders (the table is
 * sync_calls.def): their ids on disk and names. Shared by the record codec, the runtime's
 * interposers and the tools. */
#ifndef MPIRR_SYNC_CALLS_H
#define MPIRR_SYNC_CALLS_H

enum mpirr_sync_call {
#define MPIRR_SYNC_CALL(id, num, name) MPIRR_SYNC_##id = num,
#include "sync_calls.def"
#undef MPIRR_SYNC_CALL
    MPIRR_SYNC_CALL_LIMIT = 64
};

/* "pthread_mutex_lock", or NULL for an id that is not in the table. */
const char *mpirr_sync_call_name(unsigned id);

#endif
