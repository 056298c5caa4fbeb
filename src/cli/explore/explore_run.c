/* explore_run.c: running one explored run as a child of mpirr with its output captured, and
 * reading how it ended: the manifest's exit status, each rank log's ending, a digest of the
 * program's stdout. */
#include "explore_run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis_load.h"
#include "child.h"
#include "diag.h"
#include "explore_deadlock.h"
#include "file_io.h"
#include "mono_clock.h"
#include "rank_log.h"
#include "recording.h"
#include "replay_check.h"

static const char *const streams[2] = {"stdout", "stderr"};

enum { RUN_LIMIT_FACTOR = 10, RUN_LIMIT_MIN = 30 };

/* Where a run's output file is: inside its directory once moved there, beside it before
 * (`mpirr record` and a flip want a new or empty directory, so it cannot be made first). */
static void output_path(char *buf, size_t n, const char *rundir, const char *name, int inside)
{
    snprintf(buf, n, inside ? "%s/%s" : "%s.%s", rundir, name);
}

/* Points fd to a new file at path; the old one is kept (close-on-exec) in *saved. */
static int redirect(int fd, const char *path, int *saved)
{
    int f = mpirr_create_file(path, O_WRONLY); /* new: never through a planted symlink */
    if (f < 0) {
        cli_error("cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    *saved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int rc = *saved < 0 || dup2(f, fd) < 0 ? -1 : 0;
    if (rc)
        cli_error("cannot redirect the output to %s: %s", path, strerror(errno));
    close(f);
    return rc;
}

static void restore(int fd, int saved)
{
    if (saved < 0)
        return;
    dup2(saved, fd);
    close(saved);
}

/* The child's status codes for its own failures are not the program's; the manifest holds
 * the program's, the log endings which rank died of what. */
void explore_read_ending(const char *rundir, struct explore_outcome *out)
{
    char manifest[PATH_MAX + 16];
    snprintf(manifest, sizeof manifest, "%s/manifest", rundir);
    if (access(manifest, F_OK) != 0)
        return; /* refused before it ran: the child said why */
    struct recording r;
    if (recording_open(rundir, &r))
        return;
    struct recorded_end *ends = r.m.nranks > 0 ? calloc((size_t)r.m.nranks, sizeof *ends) : NULL;
    if (ends && replay_check_logs(&r, 0, ends) == 0) {
        out->recorded = 1;
        out->status = r.m.exit_status >= 0 ? r.m.exit_status : out->mpirr_status;
        for (int p = 0; p < r.m.nranks && !out->signal; p++)
            if (ends[p].ending == MPIRR_END_SIGNAL &&
                !mpirr_ending_is_external(ends[p].ending, ends[p].detail))
                out->signal = ends[p].detail, out->signal_rank = p;
    }
    free(ends);
    recording_close(&r);
}

struct time_limit {
    double end; /* mono_seconds() after which the run is ended */
    const char *rundir;
    struct explore_outcome *out;
};

/* Past the limit, the ranks' stacks say whether it is a deadlock, before the run is ended. */
static int past_limit(void *arg)
{
    struct time_limit *t = arg;
    if (mono_seconds() <= t->end)
        return 0;
    t->out->timed_out = 1;
    explore_deadlock_capture(t->rundir, t->out->deadlock, sizeof t->out->deadlock);
    return 1;
}

int explore_run(char *const *argv, const char *rundir, double limit,
                struct explore_outcome *out)
{
    memset(out, 0, sizeof *out);
    double start = mono_seconds();
    struct time_limit t = {start + limit, rundir, out};
    char path[2][PATH_MAX + 16];
    int saved[2] = {-1, -1}, rc = 0;
    fflush(NULL);
    for (int i = 0; i < 2 && !rc; i++) {
        output_path(path[i], sizeof path[i], rundir, streams[i], 0);
        rc = redirect(1 + i, path[i], &saved[i]);
    }
    struct child_spec c = {.argv = argv, .stdin_null = 1};
    if (limit > 0) /* a forced order can deadlock the program: that is an outcome too */
        c.watch = past_limit, c.watch_arg = &t;
    if (!rc) {
        out->mpirr_status = child_run(&c);
        out->interrupted = child_stop_signal();
    }
    out->seconds = mono_seconds() - start;
    fflush(NULL);
    for (int i = 0; i < 2; i++)
        restore(1 + i, saved[i]);
    if (rc)
        return -1;
    for (int i = 0; i < 2; i++) {
        char inside[PATH_MAX + 16];
        output_path(inside, sizeof inside, rundir, streams[i], 1);
        if (rename(path[i], inside) == 0)
            strcpy(path[i], inside);
    }
    explore_read_ending(rundir, out);
    out->digest = explore_digest(path[0]);
    return 0;
}

double explore_flip_limit(double timeout, double first_seconds)
{
    if (timeout > 0)
        return timeout;
    double limit = RUN_LIMIT_FACTOR * first_seconds;
    return limit < RUN_LIMIT_MIN ? RUN_LIMIT_MIN : limit;
}

int explore_same_ending(const struct explore_outcome *a, const struct explore_outcome *b)
{
    return a->status == b->status && a->signal == b->signal && a->timed_out == b->timed_out;
}

void explore_ending_text(const struct explore_outcome *o, char *buf, size_t n)
{
    int w = o->timed_out && o->deadlock[0]
                ? snprintf(buf, n, "deadlock after %.0f s (%s), exit %d", o->seconds, o->deadlock,
                           o->status)
            : o->timed_out ? snprintf(buf, n, "timed out after %.0f s, exit %d", o->seconds,
                                      o->status)
                           : snprintf(buf, n, "exit %d", o->status);
    const char *abbrev = o->signal ? sigabbrev_np(o->signal) : NULL;
    if (o->signal && w >= 0 && (size_t)w < n) {
        if (abbrev)
            snprintf(buf + w, n - (size_t)w, ", rank %d SIG%s", o->signal_rank, abbrev);
        else
            snprintf(buf + w, n - (size_t)w, ", rank %d signal %d", o->signal_rank, o->signal);
    }
}

static void fnv(uint64_t *h, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        *h ^= (unsigned char)s[i];
        *h *= UINT64_C(0x100000001b3);
    }
}

uint64_t explore_digest(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    char *line = NULL;
    size_t cap = 0, blank = 0; /* blank lines seen and not yet hashed */
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        if (strncmp(line, "==========", 10) == 0)
            break; /* MPICH's "BAD TERMINATION" banner: its pids differ from run to run */
        if (strcmp(line, "\n") == 0) {
            blank++;
            continue;
        }
        for (; blank; blank--)
            fnv(&h, "\n", 1);
        fnv(&h, line, (size_t)len);
    }
    free(line);
    fclose(f);
    return h;
}

void explore_first_error(const char *rundir, char *buf, size_t n)
{
    char path[PATH_MAX + 16];
    buf[0] = '\0';
    FILE *f = NULL;
    for (int inside = 1; inside >= 0 && !f; inside--) {
        output_path(path, sizeof path, rundir, streams[1], inside);
        f = fopen(path, "r");
    }
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0)
        if (strncmp(line, "mpirr: ", 7) == 0) {
            snprintf(buf, n, "%s", line + 7);
            buf[strcspn(buf, "\n")] = '\0';
            break;
        }
    free(line);
    fclose(f);
}
