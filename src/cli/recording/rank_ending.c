/* rank_ending.c: how a rank's recording ended, in words (rank_ending.h). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "rank_ending.h"
#include "rank_log.h"

int rank_ending_has_detail(int ending)
{
    return ending == MPIRR_END_SIGNAL || ending == MPIRR_END_ABORT || ending == MPIRR_END_EXIT ||
           ending == MPIRR_END_INCOMPLETE;
}

void rank_ending_text(const struct rank_ending *r, char *out, size_t n)
{
    const char *name = mpirr_log_ending_name(r->ending);
    if (r->missing) {
        snprintf(out, n, "no log");
    } else if (!r->readable) {
        snprintf(out, n, "unreadable");
    } else if (r->ending == MPIRR_END_SIGNAL) {
        const char *sig = sigabbrev_np(r->detail);
        if (sig)
            snprintf(out, n, "%s %d (SIG%s)", name, r->detail, sig);
        else
            snprintf(out, n, "%s %d", name, r->detail);
    } else if (r->ending == MPIRR_END_ABORT) {
        snprintf(out, n, "%s(%d)", name, r->detail);
    } else if (r->ending == MPIRR_END_INCOMPLETE) { /* detail: why, an errno */
        snprintf(out, n, "%s (%s)", name, strerror(r->detail));
    } else if (rank_ending_has_detail(r->ending)) {
        snprintf(out, n, "%s (status %d)", name, r->detail);
    } else {
        snprintf(out, n, "%s", name);
    }
}
