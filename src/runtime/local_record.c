/* local_record.c: `mpirr record --local DIR` in the rank (MPIRR_LOCAL_DIR; local_files.h). At
 * MPI_Init the rank makes DIR/mpirr-<run id> on its node, notes it in its placement file in the
 * recording, and then writes every file into that folder instead of the recording; when it ends
 * (MPI_Finalize and exit, exit without MPI_Finalize, MPI_Abort, a fatal signal: whichever comes
 * first) it moves them into the recording and removes its placement file. A rank that cannot
 * (SIGKILL, a full recording disk) leaves the placement file for `mpirr record` to gather from.
 * With --local --pack (MPIRR_LOCAL_PACK) the recording sees one file per node instead: the
 * ranks of a node (MPI_COMM_TYPE_SHARED) find each other at MPI_Init, the lowest writes the
 * node's placement file, and every rank leaves its files in the folder when it ends (they are
 * as crash-safe there as in the recording), for `mpirr gather` to pack them per node. */
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
    int pack; /* --local --pack: files stay in the folder, one placement per node */
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

/* Where this rank's folder goes, made: 0, or an errno (EINVAL: dir is not absolute). */
static int make_local_folder(const char *dir)
{
    char name[MPIRR_LOCAL_FOLDER_NAME_MAX];
    if (dir[0] != '/') return EINVAL;
    if (strlen(dir) + sizeof name + 1 > sizeof local.folder) return ENAMETOOLONG;
    mpirr_local_folder_name(&mpirr_rt.run_id, name);
    snprintf(local.folder, sizeof local.folder, "%s/%s", dir, name);
    int e = make_folder(dir);
    return e ? e : make_folder(local.folder);
}

/* The node's ranks (its shared-memory domain: one host) and its ordinal among the nodes (each
 * node's lowest rank, in rank order: rank 0's node is node 0); the lowest rank of the node writes
 * its placement file. Collective over MPI_COMM_WORLD, also for a rank whose folder failed (e).
 * The communicators are freed before the program makes its own. 0, or -1 with one line in why. */
static int place_node(const char *host, int e, char *why, size_t n)
{
    MPI_Comm node = MPI_COMM_NULL, leaders = MPI_COMM_NULL;
    int me = 0, size = 1, ordinal = -1, rc = 0;
    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ||
        PMPI_Comm_rank(node, &me) || PMPI_Comm_size(node, &size) ||
        PMPI_Comm_split(MPI_COMM_WORLD, me ? MPI_UNDEFINED : 0, mpirr_rt.rank, &leaders))
        rc = -1;
    if (!rc && leaders != MPI_COMM_NULL) PMPI_Comm_rank(leaders, &ordinal);
    int *ranks = !rc && !me ? malloc((size_t)size * sizeof *ranks) : NULL;
    if (!rc && PMPI_Gather(&mpirr_rt.rank, 1, MPI_INT, ranks, 1, MPI_INT, 0, node)) rc = -1;
    if (rc) snprintf(why, n, "record --local --pack: rank %d on %s cannot find the ranks of its "
                     "node (MPI_Comm_split_type failed)", mpirr_rt.rank, host);
    else if (!me && !e) { /* the node's ranks come in node-rank order: ascending world ranks */
        mpirr_node_placement p = {.node = ordinal, .ranks = ranks, .nranks = ranks ? (size_t)size : 0};
        snprintf(p.host, sizeof p.host, "%s", host);
        snprintf(p.folder, sizeof p.folder, "%s", local.folder);
        char err[4400];
        if (!ranks) snprintf(err, sizeof err, "out of memory");
        if (!ranks || mpirr_node_placement_write(mpirr_rt.dir, &p, err, sizeof err)) {
            snprintf(why, n, "record --local: rank %d on %s: %.900s (is this run under `mpirr "
                     "record --local --pack`?)", mpirr_rt.rank, host, err);
            rc = -1;
        }
    }
    free(ranks);
    if (leaders != MPI_COMM_NULL) PMPI_Comm_free(&leaders);
    if (node != MPI_COMM_NULL) PMPI_Comm_free(&node);
    return rc;
}

/* This rank's folder made, and its placement (or, packing, its node's) written: 0, or -1 with
 * one line in why. Collective when packing. */
static int prepare(const char *dir, char *why, size_t n)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    int e = make_local_folder(dir);
    if (e)
        snprintf(why, n, "record --local: rank %d on %s cannot keep its files in %s: %s",
                 mpirr_rt.rank, host, dir, e == EINVAL ? "not an absolute path" : strerror(e));
    if (local.pack) return place_node(host, e, why, n) || e ? -1 : 0;
    if (e) return -1;
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
    local.pack = (int)mpirr_setting_value(MPIRR_SET_LOCAL_PACK);
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
    if (!local.pack) on_exit(finish_at_exit, NULL);
    local.started = 1;
}

void mpirr_local_finish(void)
{
    if (!local.started || local.pack || __atomic_exchange_n(&local.finished, 1, __ATOMIC_ACQ_REL)) return;
    if (mpirr_local_move_rank(local.folder, local.out, local.rank) != 0) return;
    unlink(local.placement);
    rmdir(local.folder); /* the node's last rank to leave removes it */
}
