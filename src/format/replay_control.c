/* replay_control.c: the names of the replay control states (replay_control.h). */
#include "replay_control.h"

const char *mpirr_ctl_state_name(unsigned state)
{
    static const char *const names[] = {
        [MPIRR_CTL_NOT_STARTED] = "not started",
        [MPIRR_CTL_RUNNING] = "running",
        [MPIRR_CTL_HELD] = "held",
        [MPIRR_CTL_HELD_SIGNAL] = "held on a signal",
        [MPIRR_CTL_FINISHED] = "finished",
        [MPIRR_CTL_CRASHED] = "crashed",
        [MPIRR_CTL_ABORTED] = "aborted",
        [MPIRR_CTL_DIVERGED] = "diverged",
        [MPIRR_CTL_EXITED] = "exited",
        [MPIRR_CTL_END_OF_RECORDING] = "held at the end of its recording",
        [MPIRR_CTL_ABORTING] = "aborting",
    };
    return state < sizeof names / sizeof names[0] && names[state] ? names[state] : "unknown";
}
