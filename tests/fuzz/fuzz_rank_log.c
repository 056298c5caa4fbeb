/* fuzz_rank_log.c: libFuzzer target for the rank-log reader (rank_log_reader.c): an input is
 * a packed recording (fuzz_dir.h) of which rank 0's .log, .tail and .pending are read to the
 * end as replay and stat do: records, then ending, counters and recovered verdicts. */
#include <stdio.h>
#include <string.h>

#include "fuzz_dir.h"
#include "rank_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir_unpack(data, size);
    char path[512], err[1024];
    mpirr_log_path(path, sizeof path, fuzz_dir(), 0, "log");
    mpirr_log_reader *r = mpirr_log_reader_open(path, err, sizeof err);
    if (!r) return 0;
    mpirr_record rec;
    int got;
    uint64_t sum = 0;
    while ((got = mpirr_log_read(r, &rec)) == 1) sum += rec.event + rec.kind;
    if (got < 0 && !mpirr_log_reader_error(r)[0]) __builtin_trap(); /* damage says why */
    int detail;
    sum += (uint64_t)mpirr_log_reader_ending(r, &detail) + mpirr_log_reader_events(r) +
           mpirr_log_reader_bytes(r) + mpirr_log_reader_pending(r);
    for (unsigned c = 0; c < MPIRR_CTR_LIMIT; c++) sum += mpirr_log_reader_counter(r, c);
    mpirr_log_reader_close(r);
    return sum == 42 ? 0 : 0; /* keeps the reads */
}
