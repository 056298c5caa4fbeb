/* view_data.h: what `mpirr view` puts in its page, gathered from a loaded recording: every
 * call of every rank as compact columns (begin gap, duration, shape, call site), the distinct
 * call "shapes" (call, communicator, peer, tag, bytes, match) each event points to, the
 * source-line strings (sent as a few templates and a number each: a synthetic history can
 * have a million distinct sites), the matched messages, the collective instances with their members and
 * data flow, and the racing receives with their candidate messages. The page computes
 * frontiers and logical time from these (page/frontier.js mirrors src/analysis/frontier.c). */
#ifndef MPIRR_CLI_VIEW_DATA_H
#define MPIRR_CLI_VIEW_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "analysis_load.h"
#include "view_buf.h"

/* The fields of one shape, in the order the page reads them (page/data.js). */
enum { SH_CALL, SH_FIELDS, SH_COMM, SH_PEER, SH_TAG, SH_BYTES, SH_SRC, SH_MTAG,
       SH_GOT, SH_ROOT, SH_RPEER, SH_RTAG, SH_N };

struct view_rank {
    struct vbuf ev;      /* event-number deltas (dropped when every delta is 1) */
    struct vbuf tb, du;  /* begin minus previous end, end minus begin: ticks, zigzag */
    struct vbuf sh;      /* shape index */
    struct vbuf si;      /* call site's string index minus the previous call's (-1: unknown) */
    uint64_t n, first, last, prev_event, prev_end;
    int64_t prev_site;
    int consecutive, clean;
    int exact;           /* its history has the exact times (MPIRR_EVENTS_EXACT): tb, du are those */
    uint32_t *site_str;  /* site index -> string index + 1 (0: not looked up yet) */
    uint32_t nsite_str;
    /* how its recording ended (view_endings.c); end_known 0: its log did not open */
    int end_known, ending, detail, end_in_call;
    uint64_t end_event;
};

struct view_data {
    int nranks;
    unsigned tick_shift;
    uint64_t start_realtime_ns, events;
    struct view_rank *ranks;
    int64_t *shapes;     /* SH_N values per shape */
    uint32_t nshapes, capshapes;
    uint32_t *hash;      /* open addressing: shape index + 1 */
    uint32_t hcap;
    char **strings;
    uint32_t nstrings, capstrings;
    uint32_t *shash;     /* open addressing over strings: index + 1 */
    uint32_t shcap;
    uint8_t used_call[256];
    struct vbuf msgs, colls, races;
    uint64_t nmsgs, nmatched, ncoll_inst, nraces;
};

/* 0, or -1 after one line (out of memory, unreadable history). */
int view_collect_events(struct analysis *a, struct view_data *d);
int view_collect_links(struct analysis *a, struct view_data *d);
/* How each rank's recording ended, from its log's tail (never fails: an unreadable log
 * leaves the rank's ending unknown; stat reports damaged logs). Always 0. */
int view_collect_endings(struct analysis *a, struct view_data *d);
void view_data_free(struct view_data *d);
/* The data as one JSON object (page/data.js decodes it); dir is shown in the stopline command;
 * live: the page drives a replay session (replayui/). */
void view_write_data(FILE *f, const struct view_data *d, const char *dir, int live);
/* The call-site strings as {"n":N,"tpl":[[prefix,suffix,radix],...],"ids":base64} (view_strings.c). */
void view_write_strings(FILE *f, const struct view_data *d);

#endif
