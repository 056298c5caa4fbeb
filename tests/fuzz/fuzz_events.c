/* fuzz_events.c: libFuzzer target for the event-history reader (event_reader.c,
 * event_codec.c, time_coder.c): an input is a packed recording (fuzz_dir.h) of which rank
 * 0's .events and .events.tail are read to the end as `mpirr events` does. */
#include <string.h>

#include "event_trace.h"
#include "fuzz_dir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir_unpack(data, size);
    char err[1024];
    mpirr_ev_reader *r = mpirr_evr_open(fuzz_dir(), 0, err, sizeof err);
    if (!r) return 0;
    mpirr_event e;
    int got;
    uint64_t sum = 0;
    while ((got = mpirr_evr_next(r, &e)) == 1) {
        sum += e.event + e.t_end;
        for (uint32_t i = 0; i < e.nitems; i++) sum += e.items[i].slot;
        if (e.kind == MPIRR_EVK_COMM)
            for (uint32_t i = 0; i < e.nranks + e.nremote; i++) sum += (uint32_t)e.ranks[i];
        if (e.path) sum += strlen(e.path);
    }
    if (got < 0 && (!mpirr_evr_error(r)[0] || strchr(mpirr_evr_error(r), '\n'))) __builtin_trap();
    sum += mpirr_evr_info(r)->raw_bytes;
    mpirr_evr_close(r);
    return sum == 42 ? 0 : 0; /* keeps the reads */
}
