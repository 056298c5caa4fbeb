/* control.c: see control.h. */
#include "control.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "mono_clock.h"
#include "rank_log.h"
#include "run_scratch.h"

int replay_control_create(struct replay_control *c, int nranks)
{
    memset(c, 0, sizeof *c);
    c->nranks = nranks;
    if (run_scratch_path(MPIRR_CTL_NAME, c->path, sizeof c->path)) return -1;
    char err[PATH_MAX + 100];
    c->seen_progress = calloc((size_t)nranks + 1, sizeof *c->seen_progress);
    c->seen_since = calloc((size_t)nranks + 1, sizeof *c->seen_since);
    if (!c->seen_progress || !c->seen_since) {
        cli_error("out of memory");
        replay_control_finish(c);
        return -1;
    }
    if (mpirr_ctl_create(&c->ctl, c->path, nranks, err, sizeof err)) {
        cli_error("%s", err);
        c->path[0] = 0;
        replay_control_finish(c);
        return -1;
    }
    return 0;
}

void replay_control_reset(struct replay_control *c)
{
    for (int r = 0; r < c->nranks; r++) {
        mpirr_ctl_slot *s = mpirr_ctl_slot_of(&c->ctl, r);
        uint64_t stop = s->stop;
        uint32_t ends_itself = s->ends_itself;
        memset(s, 0, sizeof *s);
        s->stop = stop;
        s->ends_itself = ends_itself;
        c->seen_progress[r] = 0;
        c->seen_since[r] = 0;
    }
}

void replay_control_set_stops(struct replay_control *c, const uint64_t *stops)
{
    __atomic_add_fetch(&c->ctl.h->generation, 1, __ATOMIC_RELEASE);
    for (int r = 0; r < c->nranks; r++)
        __atomic_store_n(&mpirr_ctl_slot_of(&c->ctl, r)->stop, stops[r], __ATOMIC_RELEASE);
}

void replay_control_set_ends_itself(struct replay_control *c, int rank, int recorded_ending,
                                    int detail)
{
    mpirr_ctl_slot_of(&c->ctl, rank)->ends_itself =
        recorded_ending == MPIRR_END_FINALIZED || !mpirr_ending_is_external(recorded_ending, detail);
}

void replay_control_set_flags(struct replay_control *c, uint32_t flags)
{
    c->ctl.h->flags = flags;
}

void replay_control_read(const struct replay_control *c, int rank, mpirr_ctl_slot *out)
{
    const mpirr_ctl_slot *s = mpirr_ctl_slot_of(&c->ctl, rank);
    /* the state first: what a rank stores before it says "held" is then visible */
    unsigned state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
    memcpy(out, s, sizeof *out);
    out->state = state;
    out->host[sizeof out->host - 1] = 0;
    out->site_module[sizeof out->site_module - 1] = 0;
    out->fault_module[sizeof out->fault_module - 1] = 0;
}

enum rank_view replay_control_view(struct replay_control *c, int rank, double stall_s)
{
    mpirr_ctl_slot s;
    replay_control_read(c, rank, &s);
    switch (s.state) {
    case MPIRR_CTL_NOT_STARTED: return RANK_STARTING;
    case MPIRR_CTL_HELD: return s.held_pos >= s.stop ? RANK_AT_STOP : RANK_RUNNING;
    case MPIRR_CTL_RUNNING: break;
    default: return RANK_ENDED;
    }
    double t = mono_seconds();
    if (s.progress != c->seen_progress[rank] || c->seen_since[rank] == 0) {
        c->seen_progress[rank] = s.progress;
        c->seen_since[rank] = t;
        return RANK_RUNNING;
    }
    uint64_t event;
    int in_call;
    mpirr_pos_of_progress(s.progress, &event, &in_call);
    return in_call && t - c->seen_since[rank] >= stall_s ? RANK_BLOCKED : RANK_RUNNING;
}

void replay_control_finish(struct replay_control *c)
{
    mpirr_ctl_close(&c->ctl);
    if (c->path[0]) unlink(c->path);
    c->path[0] = 0;
    free(c->seen_progress);
    free(c->seen_since);
    c->seen_progress = NULL;
    c->seen_since = NULL;
}
