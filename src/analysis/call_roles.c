/* call_roles.c: call id -> role, expanded from the event shapes of mpi_calls.def. */
#include "call_roles.h"

#include "analysis.h"
#include "call_ids.h"

#define ROLE_OF_SHAPE(shape, ...) ROLE_##shape
static const unsigned char roles[MPIRR_CALL_ID_LIMIT] = {
#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) [id] = ROLE_OF_SHAPE ev,
#include "mpi_calls.def"
#undef MPIRR_CALL
};

enum call_role call_role(unsigned id)
{
    if (id >= MPIRR_CALL_ID_LIMIT) return ROLE_NONE;
    /* a collective whose record holds only its communicator (MPI_Barrier) */
    if (roles[id] == ROLE_COMM && mpirr_call_category(id) == MPIRR_CAT_COLL) return ROLE_COLL;
    return (enum call_role)roles[id];
}

int call_consumes_on_probe(unsigned id)
{
    return id == MPIRR_ID_MPI_Mprobe || id == MPIRR_ID_MPI_Improbe;
}

int call_flow(unsigned id)
{
    switch (id) {
    case MPIRR_ID_MPI_Bcast: case MPIRR_ID_MPI_Scatter: case MPIRR_ID_MPI_Scatterv:
    case MPIRR_ID_MPI_Ibcast: case MPIRR_ID_MPI_Iscatter:
        return AN_FLOW_ROOT_OUT;
    case MPIRR_ID_MPI_Gather: case MPIRR_ID_MPI_Gatherv: case MPIRR_ID_MPI_Reduce:
    case MPIRR_ID_MPI_Igather: case MPIRR_ID_MPI_Ireduce:
        return AN_FLOW_ROOT_IN;
    case MPIRR_ID_MPI_Scan: case MPIRR_ID_MPI_Iscan:
        return AN_FLOW_PREFIX;
    case MPIRR_ID_MPI_Exscan: case MPIRR_ID_MPI_Iexscan:
        return AN_FLOW_XPREFIX;
    default:
        return AN_FLOW_ALL;
    }
}
