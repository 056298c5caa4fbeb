/* otf2_defs.c: the OTF2 archive's global definitions, written after the events (each
 * Location names its event count): the clock (ns since the earliest rank's MPI_Init, with
 * that moment's realtime), a Region per MPI call that occurs, the system tree, one process
 * (LocationGroup) and one Location per rank, the MPI locations group (world ranks), and per
 * communicator its members' group and its Comm. */
#include <stdio.h>
#include <stdlib.h>

#include "call_roles.h"
#include "otf2_export.h"

/* Strings are numbered in the order they are defined. */
struct defs {
    OTF2_GlobalDefWriter *g;
    OTF2_StringRef next;
    OTF2_ErrorCode rc;
};

static OTF2_StringRef str(struct defs *d, const char *s)
{
    OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteString(d->g, d->next, s);
    if (rc != OTF2_SUCCESS && d->rc == OTF2_SUCCESS) d->rc = rc;
    return d->next++;
}

static OTF2_StringRef str_cb(void *arg, const char *s)
{
    return str(arg, s);
}

static void check(struct defs *d, OTF2_ErrorCode rc)
{
    if (rc != OTF2_SUCCESS && d->rc == OTF2_SUCCESS) d->rc = rc;
}

/* What a call is to tools that colour regions by role. */
static OTF2_RegionRole region_role(unsigned call)
{
    switch (call_role(call)) {
    case ROLE_SEND: case ROLE_ISEND: case ROLE_PSEND: case ROLE_RECV: case ROLE_IRECV:
    case ROLE_PRECV: case ROLE_SENDRECV: case ROLE_ISENDRECV: case ROLE_PROBE: case ROLE_IPROBE: case ROLE_MRECV:
    case ROLE_IMRECV:
        return OTF2_REGION_ROLE_POINT2POINT;
    case ROLE_COLL: case ROLE_RCOLL: case ROLE_ICOLL: case ROLE_IRCOLL:
        if (call == MPIRR_ID_MPI_Barrier) return OTF2_REGION_ROLE_BARRIER;
        switch (call_flow(call)) {
        case AN_FLOW_ROOT_OUT: return OTF2_REGION_ROLE_COLL_ONE2ALL;
        case AN_FLOW_ROOT_IN: return OTF2_REGION_ROLE_COLL_ALL2ONE;
        case AN_FLOW_ALL: return OTF2_REGION_ROLE_COLL_ALL2ALL;
        default: return OTF2_REGION_ROLE_COLL_OTHER;
        }
    case ROLE_COMM_NEW: case ROLE_COMM_IDUP:
        return OTF2_REGION_ROLE_COLL_OTHER;
    default:
        return OTF2_REGION_ROLE_FUNCTION;
    }
}

static void regions(struct otf2_export *x, struct defs *d)
{
    OTF2_StringRef none = str(d, "");
    for (uint32_t r = 0; r < x->nregions; r++) {
        unsigned id = x->region_call[r];
        const char *n = mpirr_call_name(id);
        OTF2_StringRef name = str(d, n ? n : "MPI_?");
        check(d, OTF2_GlobalDefWriter_WriteRegion(d->g, r, name, name, none, region_role(id),
                                                  OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, none, 0, 0));
    }
}

static void ranks(struct otf2_export *x, struct defs *d)
{
    const an_run *run = x->a->run;
    OTF2_StringRef machine = str(d, "machine");
    check(d, OTF2_GlobalDefWriter_WriteSystemTreeNode(d->g, 0, machine, machine,
                                                      OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    for (int p = 0; p < run->nranks; p++) {
        char name[32];
        snprintf(name, sizeof name, "rank %d", p);
        OTF2_StringRef s = str(d, name);
        check(d, OTF2_GlobalDefWriter_WriteLocationGroup(d->g, (OTF2_LocationGroupRef)p, s,
                                                         OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                         OTF2_UNDEFINED_LOCATION_GROUP));
        check(d, OTF2_GlobalDefWriter_WriteLocation(d->g, (OTF2_LocationRef)p, s,
                                                    OTF2_LOCATION_TYPE_CPU_THREAD, x->nevents[p],
                                                    (OTF2_LocationGroupRef)p));
    }
}

/* Group 0 lists the world ranks' locations (a communicator's members are indices into it);
 * communicator c (run-wide id) is Comm c with group c + 1. An inter-communicator's group is
 * its local group as the analysis identified it. */
static void comms(struct otf2_export *x, struct defs *d)
{
    const an_run *run = x->a->run;
    size_t n = (size_t)run->nranks;
    for (uint32_t c = 0; c < run->ncomms; c++)
        if (run->comms[c].size > n) n = run->comms[c].size;
    uint64_t *members = malloc((n ? n : 1) * sizeof *members);
    if (!members) {
        check(d, OTF2_ERROR_MEM_ALLOC_FAILED);
        return;
    }
    for (int p = 0; p < run->nranks; p++) members[p] = (uint64_t)p;
    check(d, OTF2_GlobalDefWriter_WriteGroup(d->g, 0, str(d, "MPI ranks"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                             OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                             (uint32_t)run->nranks, members));
    for (uint32_t c = 0; c < run->ncomms; c++) {
        const an_comm *cm = &run->comms[c];
        for (uint32_t i = 0; i < cm->size; i++) members[i] = (uint64_t)cm->world[i];
        char name[48];
        /* every history defines WORLD first */
        if (c == 0 && cm->size == (uint32_t)run->nranks) snprintf(name, sizeof name, "MPI_COMM_WORLD");
        else snprintf(name, sizeof name, "comm %u (%u ranks)", c, cm->size);
        OTF2_StringRef s = str(d, name);
        check(d, OTF2_GlobalDefWriter_WriteGroup(d->g, c + 1, s, OTF2_GROUP_TYPE_COMM_GROUP,
                                                 OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, cm->size,
                                                 members));
        check(d, OTF2_GlobalDefWriter_WriteComm(d->g, c, s, c + 1, OTF2_UNDEFINED_COMM,
                                                OTF2_COMM_FLAG_NONE));
    }
    free(members);
}

OTF2_ErrorCode otf2_write_defs(struct otf2_export *x)
{
    struct defs d = {.g = OTF2_Archive_GetGlobalDefWriter(x->archive)};
    if (!d.g) return OTF2_ERROR_MEM_ALLOC_FAILED;
    check(&d, otf2_attrs_strings(x, d.g)); /* refs 0..: the call sites' */
    d.next = x->attrs.nstrings;
    check(&d, OTF2_GlobalDefWriter_WriteClockProperties(d.g, 1000000000ull, 0, x->trace_end + 1,
                                                        x->clk->realtime_ns));
    check(&d, OTF2_GlobalDefWriter_WriteParadigm(d.g, OTF2_PARADIGM_MPI, str(&d, "MPI"),
                                                 OTF2_PARADIGM_CLASS_PROCESS));
    regions(x, &d);
    ranks(x, &d);
    comms(x, &d);
    check(&d, otf2_attrs_defs(x, d.g, str_cb, &d));
    return d.rc;
}
