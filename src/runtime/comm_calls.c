/* comm_calls.c: communicator constructors and destructors. In races mode each new
 * communicator gets a shadow for timestamp headers (comm_registry.h); otherwise these are
 * plain pass-through calls. */
#include "comm_registry.h"
#include "runtime.h"
#include "special_calls.h"

/* Registers *out after a successful constructor call. */
static int created(int rc, const MPI_Comm *out)
{
    if (rc == MPI_SUCCESS && mpirr_rt.piggyback && *out != MPI_COMM_NULL) mpirr_comm_register(*out);
    return rc;
}

int mpirr_MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    MPIRR_BEGIN(MPI_Comm_dup);
    return created(PMPI_Comm_dup(comm, newcomm), newcomm);
}

/* Nonblocking dup: the new communicator is not usable before completion, so its shadow is
 * a blocking dup of the old communicator (same group), made now; the members call
 * MPI_Comm_idup in the same order, as MPI requires, so this collective matches up (docs/races.md
 * notes the ordering caveat). */
int mpirr_MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    MPIRR_BEGIN(MPI_Comm_idup);
    int rc = PMPI_Comm_idup(comm, newcomm, request);
    if (rc == MPI_SUCCESS && mpirr_rt.piggyback) mpirr_comm_register_as(*newcomm, comm);
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

int mpirr_MPI_Comm_free(MPI_Comm *comm)
{
    MPIRR_BEGIN(MPI_Comm_free);
    if (mpirr_rt.piggyback) mpirr_comm_unregister(*comm);
    return PMPI_Comm_free(comm);
}
