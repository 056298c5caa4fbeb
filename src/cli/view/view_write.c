/* view_write.c: the data block of the view page: one JSON object whose bulky parts are base64
 * varint columns (view_data.h); page/data.js is its reader, and the two change together. */
#include <inttypes.h>

#include "call_ids.h"
#include "json.h"
#include "rank_ending.h"
#include "rank_log.h"
#include "view_data.h"

/* The page's colour classes: 0 send, 1 receive (probes too), 2 wait/test, 3 collective, 4 other. */
static int kind_class(unsigned call)
{
    switch (mpirr_call_category(call)) {
    case MPIRR_CAT_SEND: return 0;
    case MPIRR_CAT_RECV: case MPIRR_CAT_PROBE: return 1;
    case MPIRR_CAT_COMPLETE: return 2;
    case MPIRR_CAT_COLL: case MPIRR_CAT_ICOLL: return 3;
    default: return 4;
    }
}

static void write_shapes(FILE *f, const struct view_data *d)
{
    struct vbuf b = {0};
    for (size_t i = 0; i < (size_t)d->nshapes * SH_N; i++) vbuf_int(&b, d->shapes[i]);
    vbuf_base64(&b, f);
    vbuf_free(&b);
}

/* ,"end":{"text":"signal 11 (SIGSEGV)","crash":true,"event":12,"inCall":true} or null. */
static void write_ending(FILE *f, const struct view_rank *vr)
{
    fputs(",\"end\":", f);
    if (!vr->end_known) {
        fputs("null", f);
        return;
    }
    struct rank_ending e = {.readable = 1, .ending = vr->ending, .detail = vr->detail};
    char text[128];
    rank_ending_text(&e, text, sizeof text);
    fputs("{\"text\":", f);
    json_write_string(f, text, JSON_HTML_SAFE);
    int crash = vr->ending == MPIRR_END_SIGNAL || vr->ending == MPIRR_END_ABORT ||
                vr->ending == MPIRR_END_EXIT;
    fprintf(f, ",\"crash\":%s,\"event\":%" PRIu64 ",\"inCall\":%s}", crash ? "true" : "false",
            vr->end_event, vr->end_in_call ? "true" : "false");
}

void view_write_data(FILE *f, const struct view_data *d, const char *dir, int live)
{
    fprintf(f, "{\"version\":1,\"live\":%s,\"dir\":", live ? "true" : "false");
    json_write_string(f, dir, JSON_HTML_SAFE);
    fprintf(f, ",\"nranks\":%d,\"tickNs\":%" PRIu64 ",\"startRealtimeNs\":%" PRIu64
               ",\"events\":%" PRIu64 ",\n\"calls\":[",
            d->nranks, (uint64_t)1 << d->tick_shift, d->start_realtime_ns, d->events);
    const char *sep = "";
    for (unsigned c = 0; c < 256; c++) {
        if (!d->used_call[c]) continue;
        fprintf(f, "%s[%u,", sep, c);
        json_write_string(f, mpirr_call_name(c), JSON_HTML_SAFE);
        fprintf(f, ",%d]", kind_class(c));
        sep = ",";
    }
    fprintf(f, "],\n\"strings\":");
    view_write_strings(f, d);
    fprintf(f, ",\n\"nshapes\":%" PRIu32 ",\"shapes\":", d->nshapes);
    write_shapes(f, d);
    fprintf(f, ",\n\"ranks\":[");
    for (int p = 0; p < d->nranks; p++) {
        const struct view_rank *vr = &d->ranks[p];
        fprintf(f, "%s\n{\"n\":%" PRIu64 ",\"first\":%" PRIu64 ",\"last\":%" PRIu64 ",\"clean\":%s,"
                   "\"exact\":%s,\"ev\":",
                p ? "," : "", vr->n, vr->first, vr->last, vr->clean ? "true" : "false",
                vr->exact ? "true" : "false");
        if (vr->consecutive) fputs("null", f);
        else vbuf_base64(&vr->ev, f);
        fputs(",\"tb\":", f);
        vbuf_base64(&vr->tb, f);
        fputs(",\"du\":", f);
        vbuf_base64(&vr->du, f);
        fputs(",\"sh\":", f);
        vbuf_base64(&vr->sh, f);
        fputs(",\"si\":", f);
        vbuf_base64(&vr->si, f);
        write_ending(f, vr);
        fputc('}', f);
    }
    fprintf(f, "],\n\"nmsgs\":%" PRIu64 ",\"matched\":%" PRIu64 ",\"msgs\":", d->nmsgs, d->nmatched);
    vbuf_base64(&d->msgs, f);
    fprintf(f, ",\n\"ninst\":%" PRIu64 ",\"colls\":", d->ncoll_inst);
    vbuf_base64(&d->colls, f);
    fprintf(f, ",\n\"nraces\":%" PRIu64 ",\"races\":", d->nraces);
    vbuf_base64(&d->races, f);
    fputs("}\n", f);
}
