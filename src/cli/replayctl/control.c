/* control.c: see control.h. The session's side: every change to what the ranks must do is made
 * here under the lock and handed to the server thread (control_server.c), which sends it. */
#include "control.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control_server.h"
#include "diag.h"
#include "mono_clock.h"
#include "rank_log.h"

int replay_control_create(struct replay_control *c, int nranks)
{
    memset(c, 0, sizeof *c);
    c->nranks = nranks;
    pthread_mutex_init(&c->lock, NULL);
    c->seen_progress = calloc((size_t)nranks + 1, sizeof *c->seen_progress);
    c->seen_since = calloc((size_t)nranks + 1, sizeof *c->seen_since);
    c->ctl.len = MPIRR_CTL_HEADER_SIZE + (size_t)(nranks > 0 ? nranks : 0) * MPIRR_CTL_SLOT_SIZE;
    c->ctl.h = calloc(1, c->ctl.len);
    if (!c->seen_progress || !c->seen_since || !c->ctl.h) {
        cli_error("out of memory");
        replay_control_finish(c);
        return -1;
    }
    c->ctl.h->magic = MPIRR_CTL_MAGIC;
    c->ctl.h->version = MPIRR_CTL_VERSION;
    c->ctl.h->nranks = (uint32_t)nranks;
    c->ctl.h->slot_size = MPIRR_CTL_SLOT_SIZE;
    for (int r = 0; r < nranks; r++) mpirr_ctl_slot_of(&c->ctl, r)->stop = MPIRR_POS_NONE;
    if (control_server_start(c)) {
        replay_control_finish(c);
        return -1;
    }
    return 0;
}

void replay_control_reset(struct replay_control *c)
{
    pthread_mutex_lock(&c->lock);
    c->epoch++;
    for (int r = 0; r < c->nranks; r++) {
        mpirr_ctl_slot *s = mpirr_ctl_slot_of(&c->ctl, r);
        memset((char *)s + MPIRR_CTL_RANK_PART, 0, MPIRR_CTL_RANK_PART_SIZE);
        c->seen_progress[r] = 0;
        c->seen_since[r] = 0;
    }
    control_server_new_job(c);
    pthread_mutex_unlock(&c->lock);
    control_server_wake(c);
}

void replay_control_set_stops(struct replay_control *c, const uint64_t *stops)
{
    pthread_mutex_lock(&c->lock);
    c->ctl.h->generation++;
    for (int r = 0; r < c->nranks; r++) mpirr_ctl_slot_of(&c->ctl, r)->stop = stops[r];
    c->set_version++;
    pthread_mutex_unlock(&c->lock);
    control_server_wake(c);
}

void replay_control_set_ends_itself(struct replay_control *c, int rank, int recorded_ending,
                                    int detail)
{
    pthread_mutex_lock(&c->lock);
    mpirr_ctl_slot_of(&c->ctl, rank)->ends_itself =
        recorded_ending == MPIRR_END_FINALIZED || !mpirr_ending_is_external(recorded_ending, detail);
    c->set_version++;
    pthread_mutex_unlock(&c->lock);
    control_server_wake(c);
}

void replay_control_set_flags(struct replay_control *c, uint32_t flags)
{
    pthread_mutex_lock(&c->lock);
    c->ctl.h->flags = flags;
    c->set_version++;
    pthread_mutex_unlock(&c->lock);
    control_server_wake(c);
}

void replay_control_read(const struct replay_control *c, int rank, mpirr_ctl_slot *out)
{
    pthread_mutex_lock((pthread_mutex_t *)&c->lock);
    memcpy(out, mpirr_ctl_slot_of(&c->ctl, rank), sizeof *out);
    pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
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
    control_server_stop(c);
    free(c->ctl.h);
    c->ctl.h = NULL;
    free(c->seen_progress);
    free(c->seen_since);
    c->seen_progress = NULL;
    c->seen_since = NULL;
    pthread_mutex_destroy(&c->lock);
}
