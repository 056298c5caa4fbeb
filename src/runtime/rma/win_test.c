/* win_test.c: MPI_Win_test, the nonblocking end of a PSCW exposure epoch: whether the origins
 * had completed when it was called differs between runs. Like the Test family
 * (completion.c), a success is recorded (test_ok) and a failure is the gap between records;
 * replay answers a recorded failure with flag 0 without calling MPI, and a recorded success by
 * waiting for the epoch to end (MPI_Win_wait): the program sees the recorded outcomes. */
#include "replay_cursor.h"
#include "rma.h"
#include "special_calls.h"

int mpirr_MPI_Win_test(MPI_Win win, int *flag)
{
    MPIRR_BEGIN(MPI_Win_test);
    if (mpirr_replaying()) {
        mpirr_record r;
        if (!mpirr_replay_take(&call_, &r)) {
            *flag = 0;
            return MPI_SUCCESS;
        }
        if (r.kind != MPIRR_REC_TEST_OK)
            mpirr_diverged(call_.event, "the recording has %s (%s) here, the program called %s",
                           mpirr_call_name(r.call), mpirr_record_kind_name(r.kind),
                           mpirr_call_name(call_.id));
        *flag = 1;
        return PMPI_Win_wait(win);
    }
    int rc = PMPI_Win_test(win, flag);
    if (rc == MPI_SUCCESS && *flag && mpirr_recording())
        mpirr_record_test_ok(&call_, NULL, 0, 0, NULL);
    return rc;
}
