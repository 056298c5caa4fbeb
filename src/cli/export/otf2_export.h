/* otf2_export.h: what the OTF2 writer's parts share (built only with the OTF2 library): the
 * archive being written, each rank's event count, the call regions used, and communicator
 * ranks (OTF2 names peers by their rank in the communicator, the analysis by world rank). */
#ifndef MPIRR_CLI_OTF2_EXPORT_H
#define MPIRR_CLI_OTF2_EXPORT_H

#include <otf2/otf2.h>

#include "call_ids.h"
#include "walk.h"

/* A call site's strings (refs): its source line as text, and file (UINT32_MAX: no file:line
 * known) and line. */
struct otf2_site {
    uint32_t text, file, line;
};

/* otf2_attrs.c's state: the races, one attribute list reused for every event, the strings
 * defined for call sites (string ref i is strings[i]) and the sites (SourceCodeLocation i is
 * sites[i]), and the current rank's site index -> sites index + 1 (0: not made yet). */
struct otf2_attrs {
    an_races races;
    OTF2_AttributeList *list;
    char **strings;
    uint32_t nstrings, capstrings;
    struct otf2_site *sites;
    uint32_t nsites, capsites;
    uint32_t *rank_site;
    uint32_t nrank_site;
};

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
    struct otf2_attrs attrs;
};

/* Keeps the first failed OTF2 call's code. */
void otf2_note(struct otf2_export *x, OTF2_ErrorCode rc);

/* otf2_events.c: the sink that writes each call's records (walk.h). */
extern const struct export_sink otf2_event_sink;
/* The rank of world rank w in run-wide communicator comm, OTF2_UNDEFINED_UINT32 if none. */
uint32_t otf2_comm_rank(struct otf2_export *x, uint32_t comm, int32_t w);

/* otf2_attrs.c: 0 or -1 (out of memory). */
int otf2_attrs_init(struct otf2_export *x);
void otf2_attrs_free(struct otf2_export *x);
/* Before a rank's calls: 0 or -1 (out of memory). */
int otf2_attrs_rank(struct otf2_export *x, int rank);
/* The attributes of the call's Enter (source, race) and Leave (a rounded duration's range;
 * NULL if exact): the list, filled, for the next event written. */
OTF2_AttributeList *otf2_attrs_enter(struct otf2_export *x, const struct export_call *c);
OTF2_AttributeList *otf2_attrs_leave(struct otf2_export *x, const struct export_call *c);
/* The strings the sites use, as refs 0.. (first among the definitions); then, once str()
 * numbers further strings, the Attributes and SourceCodeLocations. */
OTF2_ErrorCode otf2_attrs_strings(struct otf2_export *x, OTF2_GlobalDefWriter *g);
OTF2_ErrorCode otf2_attrs_defs(struct otf2_export *x, OTF2_GlobalDefWriter *g,
                               OTF2_StringRef (*str)(void *arg, const char *s), void *arg);

/* otf2_defs.c: the global definitions, once every rank's events are written. */
OTF2_ErrorCode otf2_write_defs(struct otf2_export *x);

#endif
