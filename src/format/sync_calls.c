/* sync_calls.c: lookups in the sync call table (sync_calls.def). */
#include "sync_calls.h"

#include <stddef.h>

static const char *const names[MPIRR_SYNC_CALL_LIMIT] = {
#define MPIRR_SYNC_CALL(id, num, name) [num] = name,
#include "sync_calls.def"
#undef MPIRR_SYNC_CALL
};

const char *mpirr_sync_call_name(unsigned id)
{
    return id < MPIRR_SYNC_CALL_LIMIT ? names[id] : NULL;
}
