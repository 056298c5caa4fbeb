/* wtime.c: MPI_Wtime. Its values steer time-driven control flow (deadlines, adaptive loops), so
 * they are recorded (unless `mpirr record --no-wtime`) and replay returns the recorded values.
 * Consecutive values are stored as deltas of their bit patterns, which are small. */
#include <string.h>

#include "replay_cursor.h"
#include "runtime.h"
#include "special_calls.h"

double mpirr_MPI_Wtime(void)
{
    MPIRR_BEGIN(MPI_Wtime);
    if (!mpirr_rt.wtime || !(mpirr_recording() || mpirr_replaying())) return PMPI_Wtime();
    double t;
    if (mpirr_replaying()) {
        mpirr_record r;
        mpirr_replay_expect(&call_, MPIRR_REC_WTIME, "MPI_Wtime", &r);
        memcpy(&t, &r.value, sizeof t);
        return t;
    }
    t = PMPI_Wtime();
    mpirr_record r = {.kind = MPIRR_REC_WTIME, .call = MPIRR_ID_MPI_Wtime, .event = call_.event};
    memcpy(&r.value, &t, sizeof t);
    mpirr_record_append(&r);
    return t;
}
