/* rank_process.c: see rank_process.h. */
#include "rank_process.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "control.h"

int rank_on_this_host(const mpirr_ctl_slot *slot)
{
    char host[sizeof slot->host];
    if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
    host[sizeof host - 1] = 0;
    return strcmp(host, slot->host) == 0;
}

int rank_pid_alive(pid_t pid)
{
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

pid_t rank_tracer(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    long tracer = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "TracerPid: %ld", &tracer) == 1) break;
    fclose(f);
    return (pid_t)tracer;
}

/* The session's own gdbs (rank_gdbs.c): mpirr detaches them itself, they are no user's. */
static pid_t *own_tracers;
static size_t n_own_tracers, own_tracers_cap;

void rank_tracer_own(pid_t tracer, int own)
{
    for (size_t i = 0; i < n_own_tracers; i++)
        if (own_tracers[i] == tracer) {
            if (!own) own_tracers[i] = own_tracers[--n_own_tracers];
            return;
        }
    if (!own) return;
    if (n_own_tracers == own_tracers_cap) {
        size_t cap = own_tracers_cap ? 2 * own_tracers_cap : 16;
        pid_t *p = realloc(own_tracers, cap * sizeof *p);
        if (!p) return; /* then it is waited for like a user's debugger: slower, not wrong */
        own_tracers = p;
        own_tracers_cap = cap;
    }
    own_tracers[n_own_tracers++] = tracer;
}

static int is_own_tracer(pid_t t)
{
    for (size_t i = 0; i < n_own_tracers; i++)
        if (own_tracers[i] == t) return 1;
    return 0;
}

/* The pid of the tracer of rank's process, if the rank runs here; else 0. A tracer of mpirr
 * itself (strace -f, a debugger following forks) traces the job with it: not a user's
 * debugger holding one rank, and it would never detach while mpirr waits; nor is one of the
 * session's own gdbs. */
static pid_t tracer_of_rank(const struct replay_control *c, int rank)
{
    mpirr_ctl_slot sl;
    replay_control_read(c, rank, &sl);
    if (sl.state == MPIRR_CTL_NOT_STARTED || sl.pid <= 0 || !rank_on_this_host(&sl)) return 0;
    pid_t t = rank_tracer(sl.pid);
    return t && (t == rank_tracer(getpid()) || is_own_tracer(t)) ? 0 : t;
}

int rank_live_pids_here(const struct replay_control *c, pid_t *pids)
{
    int n = 0;
    for (int r = 0; r < c->nranks; r++) {
        mpirr_ctl_slot sl;
        replay_control_read(c, r, &sl);
        int live = sl.state == MPIRR_CTL_RUNNING || sl.state == MPIRR_CTL_HELD ||
                   sl.state == MPIRR_CTL_HELD_SIGNAL || sl.state == MPIRR_CTL_END_OF_RECORDING;
        if (live && sl.pid > 0 && rank_on_this_host(&sl)) pids[n++] = sl.pid;
    }
    return n;
}

void rank_tracers_wait(const struct replay_control *c, FILE *out)
{
    pid_t *said = calloc((size_t)c->nranks + 1, sizeof *said); /* the tracer named, per rank */
    struct timespec tick = {0, 100 * 1000 * 1000};
    /* polled: a tracer's detach is seen in /proc only, no event tells another process of it */
    for (int traced = 1; traced; ) {
        traced = 0;
        for (int r = 0; r < c->nranks; r++) {
            pid_t t = tracer_of_rank(c, r);
            if (!t) continue;
            traced = 1;
            if (said && said[r] == t) continue;
            if (said) said[r] = t;
            mpirr_ctl_slot sl;
            replay_control_read(c, r, &sl);
            fprintf(out, "mpirr: rank %d (pid %d) is traced by a debugger (pid %d): mpirr waits "
                         "for it to detach before ending the job\n", r, (int)sl.pid, (int)t);
            fflush(out);
        }
        if (traced) nanosleep(&tick, NULL);
    }
    free(said);
}
