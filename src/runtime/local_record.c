/* local_record.c: `mpirr record --local DIR` in the rank (MPIRR_LOCAL_DIR; local_files.h). At
 * MPI_Init the rank makes DIR/mpirr-<run id> on its node, notes it in its placement file in the
 * recording, and then writes every file into that folder instead of the recording; when it ends
 * (MPI_Finalize and exit, exit without MPI_Finalize, MPI_Abort, a fatal signal: whichever comes
 * first) it moves them into the recording and removes its placement file. A rank that cannot
 * (SIGKILL, a full recording disk) leaves the placement file for `mpirr record` to gather from. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "local_files.h"
#include "runtime.h"
#include "settings.h"

static struct {
    int started, finished;
    int rank;
    char out[sizeof mpirr_rt.dir];          /* the recording */
    char folder[sizeof mpirr_rt.dir];       /* DIR/mpirr-<run id> on this node */
    char placement[sizeof mpirr_rt.dir + 32];
} local;

/* Makes the folder path (mode 0700) if missing; it must then be a directory this rank can
 * write into. 0, or an errno. */
static int make_folder(const char *path)
{
    if (mkdir(path, 0700) && errno != EEXIST) return errno;
    struct stat st;
    if (lstat(path, &st)) return errno;
    if (!S_ISDIR(st.st_mode)) return ENOTDIR;
    return access(path, W_OK | X_OK) ? errno : 0;
}

/* Where this rank's folder goes, made: 0, or a one-line reason in why. */
static int prepare(const char *dir, char *why, size_t n)
{
    char name[MPIRR_LOCAL_FOLDER_NAME_MAX], host[256] = "";
    gethostname(host, sizeof host - 1);
    int e = 0;
    if (dir[0] != '/') e = EINVAL;
    else if (strlen(dir) + sizeof name + 1 > sizeof local.folder) e = ENAMETOOLONG;
    if (!e) {
        mpirr_local_folder_name(&mpirr_rt.run_id, name);
        snprintf(local.folder, sizeof local.folder, "%s/%s", dir, name);
        if (!(e = make_folder(dir))) e = make_folder(local.folder);
    }
    if (e) {
        snprintf(why, n, "record --local: rank %d on %s cannot keep its files in %s: %s",
                 mpirr_rt.rank, host, dir, e == EINVAL ? "not an absolute path" : strerror(e));
        return -1;
    }
    mpirr_placement p = {.rank = mpirr_rt.rank, .pid = (long)getpid()};
    snprintf(p.host, sizeof p.host, "%s", host);
    snprintf(p.folder, sizeof p.folder, "%s", local.folder);
    char err[4400];
    if (mpirr_placement_write(mpirr_rt.dir, &p, err, sizeof err)) {
        snprintf(why, n, "record --local: rank %d on %s: %.900s (is this run under `mpirr record "
                 "--local`?)", mpirr_rt.rank, host, err);
        return -1;
    }
    return 0;
}

static void finish_at_exit(int status, void *arg)
{
    (void)status, (void)arg;
    mpirr_local_finish();
}

void mpirr_local_start(void)
{
    const char *dir = mpirr_setting_text(MPIRR_SET_LOCAL_DIR);
    if (!dir || mpirr_rt.mode != MPIRR_MODE_RECORD) return;
    char why[1200];
    int me = prepare(dir, why, sizeof why) ? mpirr_rt.rank : INT_MAX, first = me;
    /* the job ends if any rank cannot record, said once, by the lowest rank that cannot */
    PMPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == mpirr_rt.rank) mpirr_fatal("%s", why);
    if (first != INT_MAX) { /* that rank's MPI_Abort ends this one; if not, silently */
        struct timespec left = {.tv_sec = 10};
        while (nanosleep(&left, &left) && errno == EINTR) {
        }
        mpirr_end_job();
    }
    local.rank = mpirr_rt.rank;
    snprintf(local.out, sizeof local.out, "%s", mpirr_rt.dir);
    mpirr_placement_path(local.placement, sizeof local.placement, local.out, local.rank);
    snprintf(mpirr_rt.dir, sizeof mpirr_rt.dir, "%s", local.folder);
    on_exit(finish_at_exit, NULL);
    local.started = 1;
}

void mpirr_local_finish(void)
{
    if (!local.started || __atomic_exchange_n(&local.finished, 1, __ATOMIC_ACQ_REL)) return;
    if (mpirr_local_move_rank(local.folder, local.out, local.rank) != 0) return;
    unlink(local.placement);
    rmdir(local.folder); /* the node's last rank to leave removes it */
}
