/* comm_calls.c: communicator constructors and destructors. In races mode each new
 * communicator gets a shadow for timestamp headers (comm_registry.h); otherwise these are
 * plain pass-through calls. MPI_Comm_idup stays nonblocking: its communicator is registered
 * when its request completes (the completion calls report it here), with a shadow made by an
 * idup chained behind the user's. */
#include "comm_registry.h"
#include "request_table.h"
#include "runtime.h"
#include "special_calls.h"

/* Registers *out after a successful constructor call; dup_of: what it duplicates, if it is a
 * dup (comm_registry.h). */
static int registered(int rc, const MPI_Comm *out, MPI_Comm dup_of)
{
    if (rc == MPI_SUCCESS && mpirr_rt.piggyback && *out != MPI_COMM_NULL)
        mpirr_comm_register(*out, dup_of);
    return rc;
}

static int created(int rc, const MPI_Comm *out)
{
    return registered(rc, out, MPI_COMM_NULL);
}

int mpirr_MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    MPIRR_BEGIN(MPI_Comm_dup);
    return registered(PMPI_Comm_dup(comm, newcomm), newcomm, comm);
}

int mpirr_MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    MPIRR_BEGIN(MPI_Comm_dup_with_info);
    return registered(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm, comm);
}

/* A nonblocking dup of parent was started (rc): in races mode its request is tracked, and its
 * shadow's idup started right behind it, in the same order on every member. The new
 * communicator cannot be used before its request completes, so it is registered then
 * (mpirr_comm_idup_done), under the handle MPI wrote when the call returned: both libraries
 * write it then, and the pointer itself may be gone by completion (the Fortran bindings pass
 * a local of theirs, fortran_wrappers.c, converted back as soon as the call returns). */
static int idup_started(int rc, MPI_Comm parent, MPI_Comm *newcomm, const MPI_Request *request)
{
    if (rc != MPI_SUCCESS || !mpirr_rt.piggyback) return rc;
    mpirr_comm_info *made = mpirr_comm_prepare_idup(parent);
    if (!made) return rc;
    mpirr_lock();
    tracked_request *e = mpirr_track_add(*request);
    e->flags = TRACK_COMM_NEW;
    e->newcomm = *newcomm;
    e->made = made;
    mpirr_unlock();
    return rc;
}

int mpirr_MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Comm_idup);
    return idup_started(PMPI_Comm_idup(comm, newcomm, request), comm, newcomm, request);
}

#if MPI_VERSION >= 4
int mpirr_MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                                  MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Comm_idup_with_info);
    return idup_started(PMPI_Comm_idup_with_info(comm, info, newcomm, request), comm, newcomm,
                        request);
}
#endif

void mpirr_comm_idup_done(MPI_Request handle, tracked_request *e, int rc)
{
    if (rc == MPI_SUCCESS && e->newcomm != MPI_COMM_NULL) mpirr_comm_adopt(e->made, e->newcomm);
    mpirr_lock();
    mpirr_track_done(handle, e);
    mpirr_unlock();
}

int mpirr_comm_idup_freed(MPI_Request *request, tracked_request *e)
{
    MPI_Request handle = *request;
    int rc = PMPI_Wait(request, MPI_STATUS_IGNORE);
    mpirr_comm_idup_done(handle, e, rc);
    return rc;
}

int mpirr_MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    MPIRR_BEGIN(MPI_Comm_split);
    return created(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

int mpirr_MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                              MPI_Comm *newcomm)
{
    MPIRR_BEGIN(MPI_Comm_split_type);
    return created(PMPI_Comm_split_type(comm, split_type, key, info, newcomm), newcomm);
}

int mpirr_MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    MPIRR_BEGIN(MPI_Comm_create);
    return created(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

int mpirr_MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    MPIRR_BEGIN(MPI_Comm_create_group);
    return created(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

int mpirr_MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                               int remote_leader, int tag, MPI_Comm *newintercomm)
{
    MPIRR_BEGIN(MPI_Intercomm_create);
    return created(PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag,
                                         newintercomm), newintercomm);
}

int mpirr_MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    MPIRR_BEGIN(MPI_Intercomm_merge);
    return created(PMPI_Intercomm_merge(intercomm, high, newintracomm), newintracomm);
}

int mpirr_MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                          int reorder, MPI_Comm *comm_cart)
{
    MPIRR_BEGIN(MPI_Cart_create);
    return created(PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart), comm_cart);
}

int mpirr_MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    MPIRR_BEGIN(MPI_Cart_sub);
    return created(PMPI_Cart_sub(comm, remain_dims, newcomm), newcomm);
}

int mpirr_MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int indx[], const int edges[],
                           int reorder, MPI_Comm *comm_graph)
{
    MPIRR_BEGIN(MPI_Graph_create);
    return created(PMPI_Graph_create(comm_old, nnodes, indx, edges, reorder, comm_graph), comm_graph);
}

int mpirr_MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                const int destinations[], const int weights[], MPI_Info info,
                                int reorder, MPI_Comm *comm_dist_graph)
{
    MPIRR_BEGIN(MPI_Dist_graph_create);
    return created(PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info,
                                          reorder, comm_dist_graph), comm_dist_graph);
}

int mpirr_MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                         const int sourceweights[], int outdegree,
                                         const int destinations[], const int destweights[],
                                         MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    MPIRR_BEGIN(MPI_Dist_graph_create_adjacent);
    return created(PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights,
                                                   outdegree, destinations, destweights, info,
                                                   reorder, comm_dist_graph), comm_dist_graph);
}

int mpirr_MPI_Comm_free(MPI_Comm *comm)
{
    MPIRR_BEGIN(MPI_Comm_free);
    if (mpirr_rt.piggyback) mpirr_comm_unregister(*comm);
    return PMPI_Comm_free(comm);
}
