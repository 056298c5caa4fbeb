/* collective_clock.c: collectives in races mode. A collective orders events across ranks as
 * far as its data flow goes, and the race check must know that, or every wildcard receive
 * before a barrier would look concurrent with every send after it. So after each blocking
 * collective that moved data (or a barrier), the ranks combine their vector timestamps with
 * the same data flow, on the communicator's shadow:
 *   Barrier, Allreduce, Allgather, Alltoall, Reduce_scatter(_block): everyone -> everyone
 *   (MPI_Allreduce of the vectors with MPI_MAX);  Bcast, Scatter: root -> everyone (MPI_Bcast);
 *   Reduce, Gather: everyone -> root (MPI_Reduce);  Scan / Exscan: ranks 0..i -> rank i.
 * Collectives that move no bytes, the v/w variants (whose data flow is per pair), nonblocking
 * collectives and inter-communicators are treated conservatively: no merge, so events they
 * order look concurrent, which can only log more (docs/races.md measures the cost;
 * everyone-to-everyone merges also exchange message counts when a member has many undecided
 * receives, race_check.h;
 * MPIRR_CLOCK_MERGE=0 turns merging off, for that measurement). */
#include <stdlib.h>
#include <string.h>

#include "piggyback.h"
#include "race_check.h"
#include "special_calls.h"
#include "vector_clock.h"

enum flow { EVERYONE, FROM_ROOT, TO_ROOT, PREFIX, EXCLUSIVE_PREFIX };

static long bytes_of(int count, MPI_Datatype type)
{
    int size = 0; /* outside races mode nothing merges: skip the query */
    if (!mpirr_piggybacking() || count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
    return (long)count * size;
}

/* Bytes a rooted collective moves between the root and each rank, from the arguments this
 * rank gives (the root's side, or every other rank's): all members agree on whether it is 0. */
static long rooted_bytes(MPI_Comm comm, int root, int root_count, MPI_Datatype root_type,
                         int count, MPI_Datatype type)
{
    int me = 0;
    if (mpirr_piggybacking()) PMPI_Comm_rank(comm, &me);
    return me == root ? bytes_of(root_count, root_type) : bytes_of(count, type);
}

/* A barrier moves nothing but orders everyone. */
#define BARRIER_BYTES 1

static void merge(int rc, MPI_Comm comm, enum flow flow, int root, long bytes)
{
    if (rc != MPI_SUCCESS || !mpirr_piggybacking() || !mpirr_rt.clock_merge || bytes == 0)
        return;
    mpirr_lock();
    mpirr_comm_info *ci = mpirr_comm_find(comm);
    if (!ci || ci->inter) {
        mpirr_unlock();
        return;
    }
    int n = mpirr_rt.nranks;
    /* one word more: whether any member wants a count exchange (race_check.h) */
    uint64_t *mine = malloc(2 * ((size_t)n + 1) * sizeof *mine), *all = mine + n + 1;
    if (!mine) mpirr_fatal("out of memory merging timestamps");
    memcpy(mine, mpirr_vc_snapshot(), (size_t)n * sizeof *mine);
    mpirr_unlock();
    MPI_Comm shadow = mpirr_comm_shadow(ci);
    mine[n] = flow == EVERYONE && mpirr_race_wants_counts();
    int me = -1, ok = 1;
    PMPI_Comm_rank(comm, &me);
    switch (flow) {
    case EVERYONE:
        PMPI_Allreduce(mine, all, n + 1, MPI_UINT64_T, MPI_MAX, shadow);
        if (all[n]) mpirr_race_exchange_counts(ci, mine[mpirr_rt.rank]);
        break;
    case FROM_ROOT:
        memcpy(all, mine, (size_t)n * sizeof *all);
        PMPI_Bcast(all, n, MPI_UINT64_T, root, shadow);
        break;
    case TO_ROOT:
        PMPI_Reduce(mine, all, n, MPI_UINT64_T, MPI_MAX, root, shadow);
        ok = me == root;
        break;
    case PREFIX: PMPI_Scan(mine, all, n, MPI_UINT64_T, MPI_MAX, shadow); break;
    case EXCLUSIVE_PREFIX:
        PMPI_Exscan(mine, all, n, MPI_UINT64_T, MPI_MAX, shadow);
        ok = me > 0;
        break;
    }
    mpirr_lock();
    if (ok) mpirr_vc_merge(all);
    mpirr_rt.counters[MPIRR_CTR_CLOCK_MERGES]++;
    mpirr_unlock();
    free(mine);
}

int mpirr_MPI_Barrier(MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Barrier);
    int rc = PMPI_Barrier(comm);
    merge(rc, comm, EVERYONE, 0, BARRIER_BYTES);
    return rc;
}

int mpirr_MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Bcast);
    int rc = PMPI_Bcast(buffer, count, datatype, root, comm);
    merge(rc, comm, FROM_ROOT, root, bytes_of(count, datatype));
    return rc;
}

int mpirr_MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Gather);
    int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    merge(rc, comm, TO_ROOT, root,
          rooted_bytes(comm, root, recvcount, recvtype, sendcount, sendtype));
    return rc;
}

int mpirr_MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Scatter);
    int rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    merge(rc, comm, FROM_ROOT, root,
          rooted_bytes(comm, root, sendcount, sendtype, recvcount, recvtype));
    return rc;
}

int mpirr_MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Allgather);
    int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    merge(rc, comm, EVERYONE, 0, bytes_of(recvcount, recvtype));
    return rc;
}

int mpirr_MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Alltoall);
    int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    merge(rc, comm, EVERYONE, 0, bytes_of(recvcount, recvtype));
    return rc;
}

int mpirr_MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Reduce);
    int rc = PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    merge(rc, comm, TO_ROOT, root, bytes_of(count, datatype));
    return rc;
}

int mpirr_MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Allreduce);
    int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    merge(rc, comm, EVERYONE, 0, bytes_of(count, datatype));
    return rc;
}

int mpirr_MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Reduce_scatter);
    int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    int n = 0;
    long total = 0;
    if (rc == MPI_SUCCESS && mpirr_piggybacking() && PMPI_Comm_size(comm, &n) == MPI_SUCCESS)
        for (int i = 0; i < n; i++) total += bytes_of(recvcounts[i], datatype);
    merge(rc, comm, EVERYONE, 0, total);
    return rc;
}

int mpirr_MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Reduce_scatter_block);
    int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
    merge(rc, comm, EVERYONE, 0, bytes_of(recvcount, datatype));
    return rc;
}

int mpirr_MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Scan);
    int rc = PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
    merge(rc, comm, PREFIX, 0, bytes_of(count, datatype));
    return rc;
}

int mpirr_MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm)
{
    MPIRR_BEGIN(MPI_Exscan);
    int rc = PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
    merge(rc, comm, EXCLUSIVE_PREFIX, 0, bytes_of(count, datatype));
    return rc;
}
