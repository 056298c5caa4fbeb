/* explore_deadlock.c: each rank's blocking call, from its stack, when an explored run hangs
 * (explore_deadlock.h). gdb -batch attaches to the rank for a backtrace; the outermost frame
 * in an MPI function is the call the program made (mpirr's interposed MPI_X, or the
 * library's), and the frame after it is the program's, with its source line. */
#include "explore_deadlock.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rank_log.h"
#include "run_id.h"

enum { MAX_RANKS = 64 }; /* a verdict names every rank: beyond this, a hang stays a timeout */

/* pid of the rank whose log is at path if it runs on this host, else -1; *progress: its
 * progress word (event begun, inside the call), which a rank that still moves changes. */
static int rank_pid(const char *path, uint64_t *progress)
{
    char err[256], host[256] = "";
    mpirr_run_id_expect(NULL); /* a live run has no manifest yet: the last one read is not its */
    mpirr_log_reader *r = mpirr_log_reader_open(path, err, sizeof err);
    if (!r)
        return -1;
    const mpirr_log_header *h = mpirr_log_reader_header(r);
    gethostname(host, sizeof host - 1);
    int pid = strncmp(h->host, host, sizeof h->host) == 0 && h->pid > 0 ? h->pid : -1;
    *progress = mpirr_log_reader_events(r) << 1 | (uint64_t)mpirr_log_reader_in_call(r);
    mpirr_log_reader_close(r);
    return pid;
}

/* From one backtrace line "#3  0x... in MPI_Recv (...) at f.c:12": the function and the
 * "file:line" after " at " (base name of the file), either "" if absent. */
static void frame_parts(const char *line, char *fn, size_t fnn, char *at, size_t atn)
{
    fn[0] = at[0] = '\0';
    const char *p = strstr(line, " in ");
    p = p ? p + 4 : strchr(line, ' ');
    while (p && *p == ' ')
        p++;
    if (p)
        snprintf(fn, fnn, "%.*s", (int)strcspn(p, " ("), p);
    const char *a = strstr(line, ") at ");
    if (a) {
        a += 5;
        const char *slash = strrchr(a, '/');
        snprintf(at, atn, "%.*s", (int)strcspn(slash ? slash + 1 : a, "\n"), slash ? slash + 1 : a);
    }
}

/* The MPI call pid is blocked in and its caller's line: 0, or -1 when it is not in one. */
static int blocked_call(int pid, char *call, size_t calln, char *site, size_t siten)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "gdb -batch -nx -p %d -ex bt </dev/null 2>/dev/null", pid);
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    char *line = NULL, fn[128], at[256];
    size_t cap = 0;
    int in_mpi = 0; /* the previous frame was in an MPI function */
    call[0] = site[0] = '\0';
    while (getline(&line, &cap, f) > 0) {
        if (line[0] != '#')
            continue;
        frame_parts(line, fn, sizeof fn, at, sizeof at);
        int mpi = strncmp(fn, "MPI_", 4) == 0 || strncmp(fn, "PMPI_", 5) == 0;
        if (mpi) /* the outermost wins: the program's own call */
            snprintf(call, calln, "%s", fn + (fn[0] == 'P'));
        else if (in_mpi)
            snprintf(site, siten, "%s", at[0] ? at : "?");
        in_mpi = mpi;
    }
    free(line);
    pclose(f);
    return call[0] ? 0 : -1;
}

/* Each rank's progress word (pids[r] -1 if not on this host); how many ranks, -1 beyond
 * MAX_RANKS. */
static int read_ranks(const char *rundir, int *pids, uint64_t *progress)
{
    int rank = 0;
    for (;; rank++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/rank-%05d.log", rundir, rank);
        if (access(path, F_OK) != 0)
            return rank;
        if (rank == MAX_RANKS)
            return -1;
        pids[rank] = rank_pid(path, &progress[rank]);
    }
}

int explore_deadlock_capture(const char *rundir, char *buf, size_t n)
{
    size_t len = 0;
    int pids[MAX_RANKS], later[MAX_RANKS];
    uint64_t before[MAX_RANKS], after[MAX_RANKS];
    buf[0] = '\0';
    int ranks = read_ranks(rundir, pids, before);
    for (int rank = 0; rank < ranks; rank++) {
        char call[128], site[256];
        if (pids[rank] < 0 || !(before[rank] & 1) ||
            blocked_call(pids[rank], call, sizeof call, site, sizeof site))
            return buf[0] = '\0', 0;
        int w = snprintf(buf + len, len < n ? n - len : 0, "%srank %d in %s at %s",
                         rank ? ", " : "", rank, call, site[0] ? site : "?");
        len += w > 0 ? (size_t)w : 0;
    }
    /* every rank inside a call at one instant is also a busy, slow run: a deadlock is one in
     * which no rank began or left a call while gdb looked (a second or more per rank) */
    if (ranks <= 0 || read_ranks(rundir, later, after) != ranks ||
        memcmp(before, after, (size_t)ranks * sizeof *before) != 0)
        return buf[0] = '\0', 0;
    if (len >= n && n > 4)
        strcpy(buf + n - 4, "...");
    return 1;
}
