/* otf2_export.h: what the OTF2 writer's parts share (built only with the OTF2 library): the
 * archive being written, each rank's event count, the call regions used, and communicator
 * ranks (OTF2 names peers by their rank in the communicator, the analysis by world rank). */
#ifndef MPIRR_CLI_OTF2_EXPORT_H
#define MPIRR_CLI_OTF2_EXPORT_H

#include <otf2/otf2.h>

#include "call_ids.h"
#include "walk.h"

struct otf2_export {
    struct analysis *a;
    const struct export_clock *clk;
    OTF2_Archive *archive;
    OTF2_EvtWriter *w;        /* the current rank's */
    uint64_t *nevents;        /* per rank: records written (its Location's numberOfEvents) */
    /* OTF2 wants definitions numbered densely: each call that occurs is a Region, numbered in
     * the order of first occurrence; region_of[call] is 0 until then, else its number + 1 */
    uint32_t region_of[MPIRR_CALL_ID_LIMIT];
    uint16_t region_call[MPIRR_CALL_ID_LIMIT];
    uint32_t nregions;
    uint64_t trace_end;       /* last timestamp, ns */
    int32_t **local;          /* per run-wide communicator: world rank -> rank in it, made on use */
    OTF2_ErrorCode failed;    /* the first failed OTF2 call */
};

/* otf2_events.c: the sink that writes each call's records (walk.h). */
extern const struct export_sink otf2_event_sink;
/* The rank of world rank w in run-wide communicator comm, OTF2_UNDEFINED_UINT32 if none. */
uint32_t otf2_comm_rank(struct otf2_export *x, uint32_t comm, int32_t w);

/* otf2_defs.c: the global definitions, once every rank's events are written. */
OTF2_ErrorCode otf2_write_defs(struct otf2_export *x);

#endif
