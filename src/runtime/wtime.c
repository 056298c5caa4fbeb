/* wtime.c: MPI_Wtime and MPI_Wtick. Wtime's values steer time-driven control flow (deadlines,
 * adaptive loops), so they are recorded (unless `mpirr record --no-wtime`) and replay returns
 * the recorded values; the log codes each as nanoseconds since the previous one
 * (record_codec.c). `record --wtime-resolution` rounds them down to whole multiples of a unit
 * before the program sees them: what they hold below it is timing jitter, which no coder can
 * shrink, and the log then stores steps in that unit. MPI_Wtick says the resolution. */
#include <string.h>

#include "record_codec.h"
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
    t = mpirr_wtime_round(PMPI_Wtime(), mpirr_rt.wtime_unit);
    mpirr_record r = {.kind = MPIRR_REC_WTIME, .call = MPIRR_ID_MPI_Wtime, .event = call_.event};
    memcpy(&r.value, &t, sizeof t);
    mpirr_record_append(&r);
    return t;
}

double mpirr_MPI_Wtick(void)
{
    MPIRR_BEGIN(MPI_Wtick);
    double tick = PMPI_Wtick();
    if (!mpirr_rt.wtime || mpirr_rt.wtime_unit <= 1 || !(mpirr_recording() || mpirr_replaying()))
        return tick;
    double unit = mpirr_rt.wtime_unit * 1e-9;
    return unit > tick ? unit : tick;
}
