/* teardown.c: see teardown.h. Only states after which the launcher must end the job count:
 * a rank held (at a stopline, on a signal, at the end of its recording) or finished leaves the
 * others running by design. */
#include "teardown.h"

#include "mono_clock.h"
#include "settings.h"

void teardown_watch_init(struct teardown_watch *t)
{
    t->limit_s = (double)mpirr_setting_value(MPIRR_SET_TEARDOWN_SECONDS);
    t->since = 0;
    t->rank = -1;
    t->state = MPIRR_CTL_NOT_STARTED;
}

static int ends_the_job(unsigned state)
{
    return state == MPIRR_CTL_DIVERGED || state == MPIRR_CTL_ABORTED ||
           state == MPIRR_CTL_CRASHED;
}

int teardown_watch_due(struct teardown_watch *t, const struct replay_control *c, FILE *err)
{
    if (t->rank >= 0) {
        const mpirr_ctl_slot *s = mpirr_ctl_slot_of(&c->ctl, t->rank);
        if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != t->state) t->rank = -1; /* relaunched */
    }
    if (t->rank < 0) {
        for (int r = 0; r < c->nranks; r++) {
            unsigned state = __atomic_load_n(&mpirr_ctl_slot_of(&c->ctl, r)->state,
                                             __ATOMIC_ACQUIRE);
            if (!ends_the_job(state)) continue;
            t->rank = r;
            t->state = state;
            t->since = mono_seconds();
            break;
        }
        return 0;
    }
    if (mono_seconds() - t->since < t->limit_s) return 0;
    fprintf(err, "mpirr: the launcher has not ended the job %.0f s after rank %d %s "
                 "(MPIRR_TEARDOWN_SECONDS): mpirr ends it\n",
            t->limit_s, t->rank, mpirr_ctl_state_name(t->state));
    return 1;
}
